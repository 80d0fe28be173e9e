//! From PATH arguments to the inputs to scan, in a deterministic order.
//!
//! The rules, as ripgrep has them: `-` (or no PATH at all) is standard
//! input; a path named on the command line is followed if it is a symbolic
//! link; a directory is searched recursively, its entries sorted by file
//! name (byte order) so that the output does not depend on the file system;
//! inside directories, symbolic links are skipped (never followed, so no
//! cycles and no escaping the tree) and so are FIFOs, sockets and devices
//! (reading one could block forever). The walk is lazy: the first file is
//! scanned before the rest of the tree is listed.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

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
    /// The name printed in `PATH:` prefixes, JSON and messages: the path as
    /// given (joined with the entry names below a directory argument), or
    /// [`STDIN_NAME`]. Not-UTF-8 bytes of a file name are shown as U+FFFD.
    pub name: String,
    pub source: Source,
}

impl Input {
    /// Opens the input for reading (standard input is read as it comes:
    /// nothing is read whole).
    pub fn open(&self) -> io::Result<Reader> {
        match &self.source {
            Source::Stdin => Ok(Reader::Stdin(io::stdin().lock())),
            Source::File(p) => fs::File::open(p).map(Reader::File),
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
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::Stdin(r) => r.read(buf),
            Reader::File(f) => f.read(buf),
        }
    }
}

/// A path that could not be walked, with the OS reason.
#[derive(Debug)]
pub struct WalkError {
    pub name: String,
    pub err: io::Error,
}

/// The inputs of a list of PATH arguments, in order.
pub struct Walk {
    /// The arguments not yet looked at, in reverse order (popped from the end).
    args: Vec<OsString>,
    /// The open directories, innermost last: each holds its remaining
    /// entries, sorted, in reverse order.
    stack: Vec<Vec<Entry>>,
}

/// A directory entry waiting to be visited (or an error met listing it).
enum Entry {
    File(PathBuf),
    Dir(PathBuf),
    Error(WalkError),
}

impl Walk {
    /// The walk of `paths`; no paths means standard input.
    pub fn new(paths: &[OsString]) -> Walk {
        let mut args: Vec<OsString> = if paths.is_empty() {
            vec![OsString::from("-")]
        } else {
            paths.to_vec()
        };
        args.reverse();
        Walk {
            args,
            stack: Vec::new(),
        }
    }

    /// Whether outputs name their input: more than one PATH, or a
    /// directory among them (whose files are then several inputs).
    pub fn several_inputs(paths: &[OsString]) -> bool {
        paths.len() > 1 || paths.iter().any(|p| p != "-" && Path::new(p).is_dir())
    }

    /// Visits a directory: its entries, sorted by name, go on the stack.
    fn open_dir(&mut self, dir: PathBuf) -> Option<Result<Input, WalkError>> {
        let read = match fs::read_dir(&dir) {
            Ok(r) => r,
            Err(err) => {
                return Some(Err(WalkError {
                    name: display(&dir),
                    err,
                }));
            }
        };
        let mut named: Vec<(OsString, Entry)> = Vec::new();
        let mut errors = Vec::new();
        for entry in read {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    errors.push(Entry::Error(WalkError {
                        name: display(&dir),
                        err,
                    }));
                    continue;
                }
            };
            let path = entry.path();
            // `DirEntry::file_type` does not follow symbolic links.
            match entry.file_type() {
                Ok(t) if t.is_dir() => named.push((entry.file_name(), Entry::Dir(path))),
                Ok(t) if t.is_file() => named.push((entry.file_name(), Entry::File(path))),
                // Symbolic links, FIFOs, sockets, devices: skipped (module docs).
                Ok(_) => {}
                Err(err) => named.push((
                    entry.file_name(),
                    Entry::Error(WalkError {
                        name: display(&path),
                        err,
                    }),
                )),
            }
        }
        named.sort_by(|a, b| a.0.cmp(&b.0));
        // Listing errors carry no name to sort by: report them first.
        let mut entries: Vec<Entry> = errors;
        entries.extend(named.into_iter().map(|(_, e)| e));
        entries.reverse();
        self.stack.push(entries);
        None
    }

    /// Looks at one PATH argument.
    fn open_arg(&mut self, arg: OsString) -> Option<Result<Input, WalkError>> {
        if arg == "-" {
            return Some(Ok(Input {
                name: STDIN_NAME.to_string(),
                source: Source::Stdin,
            }));
        }
        let path = PathBuf::from(arg);
        // `fs::metadata` follows a symbolic link named on the command line.
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => self.open_dir(path),
            Ok(_) => Some(Ok(file_input(path))),
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
            if let Some(top) = self.stack.last_mut() {
                let Some(entry) = top.pop() else {
                    self.stack.pop();
                    continue;
                };
                match entry {
                    Entry::File(p) => return Some(Ok(file_input(p))),
                    Entry::Error(e) => return Some(Err(e)),
                    Entry::Dir(p) => match self.open_dir(p) {
                        Some(item) => return Some(item),
                        None => continue,
                    },
                }
            }
            let arg = self.args.pop()?;
            if let Some(item) = self.open_arg(arg) {
                return Some(item);
            }
        }
    }
}

fn file_input(path: PathBuf) -> Input {
    Input {
        name: display(&path),
        source: Source::File(path),
    }
}

/// A path as printed.
fn display(path: &Path) -> String {
    OsStr::to_string_lossy(path.as_os_str()).into_owned()
}
