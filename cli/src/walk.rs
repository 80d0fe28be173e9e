//! From PATH arguments to the inputs to scan, in a deterministic order.
//!
//! The rules are ripgrep's (docs/rules.md §4), and so is the walker: the
//! `ignore` crate. `-` (or no PATH at all) is standard input. A path named
//! on the command line is always scanned — ignore rules, globs, hidden
//! names and `--max-filesize` concern what a walk finds — and followed if
//! it is a symbolic link; only the file standard output goes to is refused
//! (see [`OUTPUT_IS_INPUT`]). A directory is walked recursively on several
//! threads, skipping what `.gitignore` (inside a git repository), `.ignore`
//! and git's exclude files ignore, hidden names (a leading `.`), files
//! the `-g` globs leave out and files over `--max-filesize`; symbolic links
//! inside it are skipped unless `-L` follows them (with loops detected),
//! and so are FIFOs, sockets and devices (reading one could block
//! forever), and the file standard output is redirected to.
//!
//! The files a directory holds are then sorted by path, component by
//! component in byte order — the order of a depth-first walk with each
//! directory's entries sorted by name — so that the output depends neither
//! on the file system nor on the walker's threads. A directory is listed
//! whole before its first file is scanned; the PATH arguments are taken
//! one after the other, in the order given.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use ignore::overrides::{Override, OverrideBuilder};
use ignore::{WalkBuilder, WalkState};

use crate::decompress::{self, Decompressing};

/// The name standard input goes by in the output (as in ripgrep).
pub const STDIN_NAME: &str = "<stdin>";

/// Where an input's bytes come from.
#[derive(Debug)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

/// One input to scan.
#[derive(Debug)]
pub struct Input {
    /// The name messages give: the path as given (joined with the entry
    /// names below a directory argument), or [`STDIN_NAME`]. Not-UTF-8
    /// bytes of a file name are shown as U+FFFD; the output prints
    /// [`Input::path_bytes`] instead.
    pub name: String,
    pub source: Source,
    /// Found by walking a directory (not named on the command line): a
    /// binary file found so is skipped (docs/rules.md §4).
    pub walked: bool,
    /// The size of a regular file when the walk met it (`None`: standard
    /// input, a FIFO, a device; or not known): what a scan may cost, to
    /// share the work out. (Opening it looks again.)
    pub size: Option<u64>,
}

impl Input {
    /// Opens the input for reading (standard input is read as it comes:
    /// nothing is read whole). With `decompress` (`-z`), an input whose
    /// first bytes say it is compressed is decompressed as it is read
    /// ([`decompress`]): a regular file is looked at now, anything else
    /// when first read.
    pub fn open(&self, decompress: bool) -> io::Result<Reader> {
        match &self.source {
            Source::Stdin if decompress => {
                Ok(Reader::Decompressed(Decompressing::sniffing(io::stdin())))
            }
            Source::Stdin => Ok(Reader::Stdin(io::stdin().lock())),
            Source::File(p) => {
                let file = fs::File::open(p)?;
                if !decompress {
                    return Ok(Reader::File(file));
                }
                if !file.metadata()?.is_file() {
                    return Ok(Reader::Decompressed(Decompressing::sniffing(file)));
                }
                Ok(match decompress::file_format(&file)? {
                    Some(format) => Reader::Decompressed(Decompressing::new(file, format)),
                    None => Reader::File(file),
                })
            }
        }
    }

    /// Opens a file input as [`Input::open`] does, with its size if it is
    /// a regular file (one `fstat` of the file opened, where
    /// [`Input::len`] looks the path up again); standard input gives `None`.
    pub fn open_sized(&self, decompress: bool) -> io::Result<(Reader, Option<u64>)> {
        let Source::File(p) = &self.source else {
            return Ok((self.open(decompress)?, None));
        };
        let file = fs::File::open(p)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Ok(if decompress {
                (Reader::Decompressed(Decompressing::sniffing(file)), None)
            } else {
                (Reader::File(file), None)
            });
        }
        let reader = match decompress.then(|| decompress::file_format(&file)) {
            Some(format) => match format? {
                Some(format) => Reader::Decompressed(Decompressing::new(file, format)),
                None => Reader::File(file),
            },
            None => Reader::File(file),
        };
        Ok((reader, Some(meta.len())))
    }

    /// The name the output prints (`PATH:` prefixes, `-l`, JSON): on Unix
    /// the path's own bytes, so that a hit leads back to its file whatever
    /// bytes its name holds (docs/rules.md §4); elsewhere `name`.
    pub fn path_bytes(&self) -> &[u8] {
        match &self.source {
            #[cfg(unix)]
            Source::File(p) => std::os::unix::ffi::OsStrExt::as_bytes(p.as_os_str()),
            _ => self.name.as_bytes(),
        }
    }

    /// The name of a file input as [`path_bytes`](Input::path_bytes)
    /// gives it (its extension may tell its format); `None` for standard
    /// input.
    pub fn file_name(&self) -> Option<&[u8]> {
        match &self.source {
            Source::Stdin => None,
            Source::File(_) => Some(self.path_bytes()),
        }
    }

    /// The size of a regular file input, if known (for choosing how to
    /// scan it; a FIFO or a device is read as it arrives).
    pub fn len(&self) -> Option<u64> {
        match &self.source {
            Source::Stdin => None,
            Source::File(p) => fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
        }
    }
}

/// An open input.
pub enum Reader {
    Stdin(io::StdinLock<'static>),
    File(fs::File),
    /// Read with `-z` and compressed, or not yet looked at (standard input,
    /// a pipe): always read as a stream, never at offsets.
    Decompressed(Decompressing),
}

impl Reader {
    /// Where a decompressed input leaves its failure (see [`decompress`]).
    pub fn failure(&self) -> Option<decompress::Failure> {
        match self {
            Reader::Decompressed(d) => Some(d.failure()),
            _ => None,
        }
    }
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::Stdin(r) => r.read(buf),
            Reader::File(f) => f.read(buf),
            Reader::Decompressed(d) => d.read(buf),
        }
    }
}

/// The size of the only PATH argument when it is a regular file (`-` is
/// standard input: `None`).
pub fn lone_file_len(paths: &[OsString]) -> Option<u64> {
    match paths {
        [path] if path != "-" => fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len()),
        _ => None,
    }
}

/// A path that could not be walked, with the reason.
#[derive(Debug)]
pub struct WalkError {
    pub name: String,
    pub err: io::Error,
}

/// What a walk of a directory skips and follows (the command line's
/// `--hidden`, `--no-ignore`, `-g`, `--max-depth`, `-L`, `--max-filesize`).
#[derive(Debug, Default)]
pub struct WalkOptions {
    /// Walk hidden files and directories too.
    pub hidden: bool,
    /// Ignore no file for `.gitignore`, `.ignore` or git's exclude files.
    pub no_ignore: bool,
    /// Globs as ripgrep's `-g`: a file must match one of those without
    /// `!` (if there are any) and none of those with `!`.
    pub globs: Vec<String>,
    /// How deep to descend: 1 is a directory's own entries.
    pub max_depth: Option<usize>,
    /// Follow symbolic links inside directories.
    pub follow: bool,
    /// Skip files larger than this many bytes.
    pub max_filesize: Option<u64>,
    /// The threads that list directories.
    pub threads: usize,
    /// The file standard output goes to, when what is printed could be
    /// read back: a file named on the command line that is this file is
    /// refused (see [`OUTPUT_IS_INPUT`]).
    pub output: Option<same_file::Handle>,
}

/// Why a file named on the command line is not scanned when standard
/// output goes to it (`iriscan f >> f`): what is printed is appended to
/// the input being read, and the hits found in it again are printed again,
/// until the disk is full. GNU grep refuses it alike (ripgrep skips the
/// file only in a walk, which iriscan does too, silently). Not with
/// `--count`, `-l`, `-q` or `-m 1`, which print at most one line per
/// input.
pub const OUTPUT_IS_INPUT: &str = "input file is also the output";

/// The refusal of the input `name`, the file standard output goes to.
fn output_is_input(name: String) -> WalkError {
    WalkError {
        name,
        err: io::Error::new(io::ErrorKind::InvalidInput, OUTPUT_IS_INPUT),
    }
}

/// The file standard output goes to, if it is a regular file.
pub fn output_file() -> Option<same_file::Handle> {
    let out = same_file::Handle::stdout().ok()?;
    out.as_file()
        .metadata()
        .is_ok_and(|m| m.is_file())
        .then_some(out)
}

/// The inputs of a list of PATH arguments, in order.
pub struct Walk {
    /// The arguments not yet looked at, in reverse order (popped from the end).
    args: Vec<OsString>,
    options: WalkOptions,
    /// The `-g` globs, compiled.
    overrides: Override,
    /// The inputs of the directory argument being taken, in order.
    listed: std::vec::IntoIter<Result<Input, WalkError>>,
}

impl Walk {
    /// The walk of `paths`; no paths means standard input. Fails on a glob
    /// that does not parse.
    pub fn new(paths: &[OsString], options: WalkOptions) -> Result<Walk, ignore::Error> {
        let mut args: Vec<OsString> = if paths.is_empty() {
            vec![OsString::from("-")]
        } else {
            paths.to_vec()
        };
        args.reverse();
        // Globs are relative to the current directory, as in ripgrep.
        let mut overrides = OverrideBuilder::new(std::env::current_dir().unwrap_or_default());
        for glob in &options.globs {
            overrides.add(glob)?;
        }
        Ok(Walk {
            args,
            overrides: overrides.build()?,
            options,
            listed: Vec::new().into_iter(),
        })
    }

    /// Whether outputs name their input: more than one PATH, or a
    /// directory among them (whose files are then several inputs).
    pub fn several_inputs(paths: &[OsString]) -> bool {
        paths.len() > 1 || paths.iter().any(|p| p != "-" && Path::new(p).is_dir())
    }

    /// Lists the files of the directory `dir` (a PATH argument), in path
    /// order, with the errors met at their place.
    fn list(&self, dir: &Path) -> Vec<Result<Input, WalkError>> {
        let o = &self.options;
        let mut builder = WalkBuilder::new(dir);
        builder
            .hidden(!o.hidden)
            .parents(!o.no_ignore)
            .ignore(!o.no_ignore)
            .git_ignore(!o.no_ignore)
            .git_global(!o.no_ignore)
            .git_exclude(!o.no_ignore)
            .overrides(self.overrides.clone())
            .max_depth(o.max_depth)
            .follow_links(o.follow)
            .max_filesize(o.max_filesize)
            .skip_stdout(true)
            .threads(o.threads);
        let (found, listed) = mpsc::channel();
        builder.build_parallel().run(|| {
            let found = found.clone();
            Box::new(move |entry| {
                let item = match entry {
                    // The directory itself, symbolic links not followed,
                    // FIFOs, sockets and devices: nothing to scan.
                    Ok(entry) if entry.depth() == 0 => return WalkState::Continue,
                    Ok(entry) if !entry.file_type().is_some_and(|t| t.is_file()) => {
                        return WalkState::Continue;
                    }
                    Ok(entry) => {
                        // On the walk's threads: the size, for sharing
                        // the scans out.
                        let size = entry.metadata().ok().map(|m| m.len());
                        Ok(file_input(entry.into_path(), true, size))
                    }
                    Err(err) => Err(err),
                };
                // The receiver lives until the walk is over.
                let _ = found.send(item);
                WalkState::Continue
            })
        });
        drop(found);
        let mut items: Vec<(PathBuf, Result<Input, WalkError>)> = Vec::new();
        for item in listed {
            match item {
                Ok(input) => {
                    let Source::File(path) = &input.source else {
                        unreachable!("a walk finds files")
                    };
                    items.push((path.clone(), Ok(input)));
                }
                Err(err) => walk_errors(err, None, dir, &mut items),
            }
        }
        // `Path`'s order compares component by component (module docs); a
        // stable sort keeps the errors of one path in the order met.
        items.sort_by(|a, b| a.0.cmp(&b.0));
        items.into_iter().map(|(_, item)| item).collect()
    }

    /// Whether the input `handle` opens (only when the output is checked)
    /// is the file standard output goes to.
    fn is_output(&self, handle: impl FnOnce() -> io::Result<same_file::Handle>) -> bool {
        self.options
            .output
            .as_ref()
            .is_some_and(|out| handle().is_ok_and(|h| h == *out))
    }

    /// Looks at one PATH argument.
    fn open_arg(&mut self, arg: OsString) -> Option<Result<Input, WalkError>> {
        if arg == "-" {
            if self.is_output(same_file::Handle::stdin) {
                return Some(Err(output_is_input(STDIN_NAME.to_string())));
            }
            return Some(Ok(Input {
                name: STDIN_NAME.to_string(),
                source: Source::Stdin,
                walked: false,
                size: None,
            }));
        }
        let path = PathBuf::from(arg);
        // `fs::metadata` follows a symbolic link named on the command line.
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                self.listed = self.list(&path).into_iter();
                None
            }
            Ok(m) if m.is_file() && self.is_output(|| same_file::Handle::from_path(&path)) => {
                Some(Err(output_is_input(display(&path))))
            }
            Ok(m) => {
                let size = m.is_file().then_some(m.len());
                Some(Ok(file_input(path, false, size)))
            }
            Err(err) => Some(Err(WalkError {
                name: display(&path),
                err,
            })),
        }
    }
}

impl Iterator for Walk {
    type Item = Result<Input, WalkError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.listed.next() {
                return Some(item);
            }
            let arg = self.args.pop()?;
            if let Some(item) = self.open_arg(arg) {
                return Some(item);
            }
        }
    }
}

/// The errors `err` of a walk of `root` stands for (several for a partly
/// read ignore file), each with the path it is about (to sort by and to
/// print) and an I/O error for the reason.
fn walk_errors(
    err: ignore::Error,
    path: Option<PathBuf>,
    root: &Path,
    out: &mut Vec<(PathBuf, Result<Input, WalkError>)>,
) {
    let (path, err) = match err {
        ignore::Error::Partial(errs) => {
            for err in errs {
                walk_errors(err, path.clone(), root, out);
            }
            return;
        }
        ignore::Error::WithPath { path: p, err } => {
            // The innermost path is the most precise.
            return walk_errors(*err, Some(p), root, out);
        }
        ignore::Error::WithDepth { err, .. } => return walk_errors(*err, path, root, out),
        ignore::Error::Loop { ancestor, child } => (
            Some(child),
            io::Error::other(format!(
                "file system loop: a link to its ancestor {}",
                display(&ancestor)
            )),
        ),
        ignore::Error::Io(err) => (path, err),
        other => (path, io::Error::other(other.to_string())),
    };
    let path = path.unwrap_or_else(|| root.to_path_buf());
    let name = display(&path);
    out.push((path, Err(WalkError { name, err })));
}

fn file_input(path: PathBuf, walked: bool, size: Option<u64>) -> Input {
    Input {
        name: display(&path),
        source: Source::File(path),
        walked,
        size,
    }
}

/// A path as printed.
fn display(path: &Path) -> String {
    OsStr::to_string_lossy(path.as_os_str()).into_owned()
}
