//! `--format`: inputs that are not running text — mail, HTML pages, web
//! archives — read by the library's reader for each (docs/rules.md §4, "Formats").
//!
//! Which reader an input needs is told by [`choose`]: the format given, or
//! with `--format auto` (the default) the library's [`InputFormat::sniff`]
//! on the input's first bytes and its name. A regular file is looked at
//! without being read (its head is read at an offset); anything else is
//! read up to what decides, and those bytes are put back in front of the
//! rest. A text input then takes the text path as before; the others are
//! scanned here, each hit rendered with where it came from (its message
//! and part, its record and target URI, its attribute) and each problem a
//! reader met reported with the input's name and its position, while the
//! rest of the input is scanned.

use std::io::{self, Cursor, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use encoding_rs::Encoding;
use iriscan::{
    Finder, HtmlScanner, InputFormat, MailScanner, SNIFF_MAX, StructuredHit, ToldBy, WarcScanner,
};

use crate::decompress::{Decompressing, Failure};
use crate::in_order::Emit;
use crate::interrupt;
use crate::output::{Rendered, Renderer};
use crate::progress::{self, Progress};
use crate::scan::InputError;
use crate::scan::{self, read_head};
use crate::walk::{Input, Reader};

/// What `--format` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatChoice {
    /// Told from each input's first bytes and name.
    Auto,
    /// Every input in this format.
    Given(InputFormat),
}

impl std::str::FromStr for FormatChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<FormatChoice, String> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(FormatChoice::Auto);
        }
        s.parse::<InputFormat>()
            .map(FormatChoice::Given)
            .map_err(|_| format!("unknown format {s:?} (auto, text, mail, html, warc)"))
    }
}

/// The largest HTML page read (the HTML reader takes a page whole); a
/// larger page is scanned up to here and reported.
pub const MAX_HTML_PAGE: usize = 256 << 20;

/// The format of `input` (named `name`, `None` for standard input) by
/// `choice`, what told it (a format given counts as named), and the reader
/// to scan it with, nothing consumed.
pub fn choose(
    choice: FormatChoice,
    name: Option<&[u8]>,
    reader: Reader,
) -> io::Result<(InputFormat, ToldBy, Reader)> {
    if let FormatChoice::Given(format) = choice {
        return Ok((format, ToldBy::Name, reader));
    }
    if let Reader::File(file) = &reader
        && let Ok(meta) = file.metadata()
        && meta.is_file()
    {
        // What tells a format is in the first SNIFF_MAX bytes: no more is
        // read (the scan reads its own head).
        let (head, ended) = read_head(file, meta.len().min(SNIFF_MAX as u64))?;
        let head = &head[..head.len().min(SNIFF_MAX)];
        let complete = ended || head.len() as u64 >= meta.len();
        let (format, told) =
            InputFormat::told(head, complete, name).unwrap_or((InputFormat::Text, ToldBy::Default));
        return Ok((format, told, reader));
    }
    // A stream: read as far as decides, then put back in front.
    let failure = reader.failure().unwrap_or_default();
    let mut stream = scan::as_it_arrives(reader);
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    let format = loop {
        let n = match stream.read(&mut chunk[..(SNIFF_MAX - head.len()).min(1024)]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&chunk[..n]);
        if let Some(told) = InputFormat::told(&head, n == 0, name) {
            break told;
        }
    };
    let resumed = Decompressing::resumed(Cursor::new(head).chain(stream), failure);
    Ok((format.0, format.1, Reader::Decompressed(resumed)))
}

/// Whether the file at `path` is read on one thread by `choice`: text
/// (below a size, see the caller) and HTML pages are; mail and WARC
/// readers share their messages and records out on the pool. With
/// `auto`, its first bytes are read to tell; a file that cannot be read
/// says no (its scan will report it).
pub fn read_on_one_thread(choice: FormatChoice, path: &std::ffi::OsStr) -> bool {
    let on_one = |format| matches!(format, InputFormat::Text | InputFormat::Html);
    match choice {
        FormatChoice::Given(format) => on_one(format),
        FormatChoice::Auto => {
            let Ok(file) = std::fs::File::open(path) else {
                return false;
            };
            let Ok(meta) = file.metadata() else {
                return false;
            };
            let Ok((head, ended)) = read_head(&file, meta.len().min(SNIFF_MAX as u64)) else {
                return false;
            };
            let head = &head[..head.len().min(SNIFF_MAX)];
            let complete = ended || head.len() as u64 >= meta.len();
            #[cfg(unix)]
            let name = std::os::unix::ffi::OsStrExt::as_bytes(path);
            #[cfg(not(unix))]
            let name = path.to_string_lossy();
            #[cfg(not(unix))]
            let name = name.as_bytes();
            InputFormat::told(head, complete, Some(name)).is_none_or(|(format, _)| on_one(format))
        }
    }
}

/// Announces (on standard error) a format told by the input's first
/// lines alone, a guess, as a guessed charset is announced.
pub fn note_guess(name: &str, format: InputFormat, told: ToldBy) {
    if told != ToldBy::Content || format == InputFormat::Text {
        return;
    }
    let (what, why) = match format {
        InputFormat::Html => ("HTML", "it starts as an HTML page"),
        _ => ("mail", "its first lines are a message header"),
    };
    let _ = writeln!(
        progress::message(),
        "iriscan: {name}: note: read as {what}: {why} (--format text reads it as text)"
    );
}

/// How structured inputs are read.
pub struct StructuredOptions {
    pub finder: Finder,
    /// `-E`: the charset of an HTML page (mail parts and WARC payloads say
    /// their own).
    pub encoding: Option<&'static Encoding>,
    /// `--base`: an HTML page's address.
    pub base: Option<String>,
}

/// What scanning a structured input came to.
pub struct StructuredScan {
    /// Bytes read.
    pub bytes: u64,
    /// Whether a problem was reported.
    pub failed: bool,
}

/// Scans `reader` as `format` (not text), handing each hit to `renderer`
/// and `printer` (the printer, or a record of what to print:
/// [`crate::in_order`](mod@crate::in_order)); problems are reported on standard error with the
/// input's name and their position. Returns what the scan came to, or the output's error.
pub fn scan_structured(
    format: InputFormat,
    reader: Reader,
    input: &Input,
    progress: &Progress,
    opts: &StructuredOptions,
    renderer: &Renderer,
    printer: &mut impl Emit,
) -> io::Result<StructuredScan> {
    let (name, path) = (input.name.as_str(), input.path_bytes());
    // A decompressed input (`-z`) that fails ends early: said after the scan.
    let failure = reader.failure();
    // Set when the output wants no more (`-q`, `-m`, `-l`, a closed pipe):
    // the input then ends at its next read, as on a signal.
    let stop = AtomicBool::new(false);
    let mut counting = Counting {
        inner: Stopping {
            inner: progress.wrap(scan::as_it_arrives(reader), name),
            stop: &stop,
        },
        read: 0,
    };
    let mut hits = Hits {
        printer,
        path,
        stop: &stop,
        output: None,
    };
    let mut failed = false;
    let mut report = |e: &dyn std::fmt::Display| {
        // What a reader says of an input cut short on purpose is no news.
        if stop.load(Ordering::Relaxed) || interrupt::received().is_some() {
            return;
        }
        failed = true;
        let _ = writeln!(progress::message(), "iriscan: {name}: {e}");
    };
    // Each message's or record's hits are rendered on the pool, beside
    // the scans; here they are printed in order, with the problems.
    let render = |hits: &[StructuredHit<'_>], errors: Vec<String>| Made {
        rendered: if stop.load(Ordering::Relaxed) {
            Vec::new()
        } else {
            hits.iter()
                .map(|h| renderer.render_structured(path, h, format))
                .collect()
        },
        errors,
    };
    let mut print = |made: Made| {
        made.rendered.into_iter().for_each(|r| hits.emit(r));
        made.errors.iter().for_each(|e| report(e));
    };
    match format {
        InputFormat::Mail => {
            let ended = MailScanner::new(opts.finder).scan_mbox_map(
                &mut counting,
                |scan| render(scan.hits(), error_messages(scan.errors())),
                &mut print,
            );
            if let Err(e) = ended {
                print(render(&[], vec![e.to_string()]));
            }
        }
        InputFormat::Warc => {
            let ended = WarcScanner::new(opts.finder).scan_warc_map(
                &mut counting,
                |scan| render(scan.hits(), error_messages(scan.errors())),
                &mut print,
            );
            if let Err(e) = ended {
                print(render(&[], vec![e.to_string()]));
            }
        }
        InputFormat::Html => {
            let mut page = Vec::new();
            match (&mut counting)
                .take(MAX_HTML_PAGE as u64 + 1)
                .read_to_end(&mut page)
            {
                Ok(_) => {}
                Err(e) => print(render(
                    &[],
                    vec![format!("read error after byte {}: {e}", page.len())],
                )),
            }
            if page.len() > MAX_HTML_PAGE {
                page.truncate(MAX_HTML_PAGE);
                print(render(
                    &[],
                    vec![format!(
                        "HTML page larger than {} MiB: scanned up to byte {MAX_HTML_PAGE}",
                        MAX_HTML_PAGE >> 20
                    )],
                ));
            }
            let summary = HtmlScanner::new(opts.finder)
                .base(opts.base.as_deref())
                .scan_with(&page, opts.encoding, |hit| {
                    print(render(std::slice::from_ref(&hit), Vec::new()))
                });
            // A guessed charset is announced, as for text.
            if crate::messages() {
                crate::warn_charset(name, summary.charset());
            }
        }
        InputFormat::Text => unreachable!("text takes the text path"),
    }
    if let Some(e) = hits.output {
        return Err(e);
    }
    if let Some(f) = failure.as_ref().and_then(Failure::take) {
        failed |= crate::read_failed(
            name,
            InputError::Read {
                at: f.at,
                err: f.into_io(),
            },
        )?;
    }
    Ok(StructuredScan {
        bytes: counting.read,
        failed,
    })
}

/// A reader's errors (a damaged message or record), as the lines reported.
fn error_messages(errors: &[impl std::fmt::Display]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

/// Hands hits to the printer until it says stop (`-m`, `-l`, `-q`).
struct Hits<'a, E: Emit> {
    printer: &'a mut E,
    path: &'a [u8],
    /// Set once the printer wants no more hits.
    stop: &'a AtomicBool,
    output: Option<io::Error>,
}

impl<E: Emit> Hits<'_, E> {
    fn emit(&mut self, rendered: Rendered) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        match self.printer.emit(self.path, rendered) {
            Ok(true) => {}
            Ok(false) => self.stop.store(true, Ordering::Relaxed),
            Err(e) => {
                self.stop.store(true, Ordering::Relaxed);
                self.output = Some(e);
            }
        }
    }
}

/// A message's or record's hits rendered, and the problems met in it.
struct Made {
    rendered: Vec<Rendered>,
    errors: Vec<String>,
}

/// Counts the bytes read (for `--stats`).
struct Counting<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// Ends the input (reads give nothing more) once `stop` is set or a
/// signal came.
struct Stopping<'a, R> {
    inner: R,
    stop: &'a AtomicBool,
}

impl<R: Read> Read for Stopping<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) || interrupt::received().is_some() {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_html_are_read_on_one_thread_mail_and_warc_are_not() {
        let dir = std::env::temp_dir().join(format!("iriscan-one-thread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let text = file("a.txt", "see http://a.example/\n");
        let html = file(
            "b.html",
            "<!DOCTYPE html><a href=\"http://b.example/\">b</a>",
        );
        let mail = file(
            "c.eml",
            "From: a@b.example\nSubject: s\n\nhttp://c.example/\n",
        );
        let warc = file("d.warc", "WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n");
        let auto =
            |path: &std::path::Path| read_on_one_thread(FormatChoice::Auto, path.as_os_str());
        assert!(auto(&text));
        assert!(auto(&html));
        assert!(!auto(&mail));
        assert!(!auto(&warc));
        let given = |format| read_on_one_thread(FormatChoice::Given(format), mail.as_os_str());
        assert!(given(InputFormat::Text));
        assert!(!given(InputFormat::Mail));
        assert!(!read_on_one_thread(
            FormatChoice::Auto,
            dir.join("missing").as_os_str()
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
