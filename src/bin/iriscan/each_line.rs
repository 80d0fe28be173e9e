//! `--each-line`: every input line is one IRI reference, not running text.
//!
//! For bulk jobs (a column of links to convert or to check). Lines end at
//! `\n`, a `\r` before it is removed, and the empty "line" after a final
//! newline is not a line. A line is valid when it matches `IRI-reference`
//! of RFC 3987bis §2.2 over the IRI repertoire ([`Syntax::Iri`]): the
//! caller says the line *is* an IRI reference, so nothing is forgiven —
//! not the space or `{` `}` `^` that a Legacy Extended IRI (§6) may carry,
//! not a bidi control. The URI is computed for every line that is UTF-8,
//! valid or not: the mapping of §3 is defined for any string (and is how
//! §6.2 turns a LEIRI into a URI), and a JSON consumer can decide with
//! `valid` whether to use it.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use crate::scan::InputError;
use iriscan::{Mapped, ParseError, Rule, Syntax, UriOptions, parse, to_uri};

/// The verdict on one line.
pub struct Checked<'a> {
    /// 1-based line number.
    pub line: u64,
    /// The line without its line ending.
    pub raw: &'a [u8],
    /// The line as text, if it is UTF-8.
    pub text: Option<&'a str>,
    /// Why the line is not an IRI reference; `None` when it is one.
    pub error: Option<LineError>,
    /// Whether the line is valid and also matches `IRI` (has a scheme).
    pub absolute: bool,
    /// The URI of the line; `None` when the line is not UTF-8.
    pub uri: Option<Mapped<'a>>,
}

/// Why a line is not an IRI reference.
pub enum LineError {
    /// The line is not UTF-8 from this byte offset in the line on.
    Utf8 { at: usize },
    /// The line does not match the grammar.
    Parse(ParseError),
    /// The line is longer than [`MAX_LINE`] bytes.
    TooLong,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Utf8 { at } => write!(f, "invalid UTF-8 at byte {at}"),
            LineError::Parse(e) => e.fmt(f),
            LineError::TooLong => write!(f, "line longer than {MAX_LINE} bytes"),
        }
    }
}

/// Lines longer than this are reported, not held in memory (bulk inputs
/// are lists of links; a megabyte-long "line" is not one).
pub const MAX_LINE: usize = 1 << 20;

/// Checks every line `reader` yields, in order, holding one line at a
/// time, and hands each verdict to `sink`; stops at the first error `sink`
/// returns (`Err(Ok(e))`) or the first read error (`Err(Err(e))`, with the
/// number of bytes read before it).
pub fn scan_lines(
    reader: impl Read,
    opts: &UriOptions,
    mut sink: impl FnMut(Checked<'_>) -> io::Result<()>,
) -> Result<(), InputError> {
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let mut buf = Vec::new();
    let mut line = 0;
    let mut read: u64 = 0;
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|err| InputError::Read { at: read, err })?;
        if n == 0 {
            return Ok(());
        }
        read += n as u64;
        line += 1;
        if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
            // Too long: report it and skip to the end of the line.
            loop {
                let skipped = reader
                    .fill_buf()
                    .map_err(|err| InputError::Read { at: read, err })?;
                if skipped.is_empty() {
                    break;
                }
                let (used, done) = match memchr::memchr(b'\n', skipped) {
                    Some(i) => (i + 1, true),
                    None => (skipped.len(), false),
                };
                reader.consume(used);
                read += used as u64;
                if done {
                    break;
                }
            }
            sink(too_long(line)).map_err(InputError::Output)?;
            continue;
        }
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        sink(check_line(line, raw, opts)).map_err(InputError::Output)?;
    }
}

fn too_long(line: u64) -> Checked<'static> {
    Checked {
        line,
        raw: b"",
        text: None,
        error: Some(LineError::TooLong),
        absolute: false,
        uri: None,
    }
}

fn check_line<'a>(line: u64, raw: &'a [u8], opts: &UriOptions) -> Checked<'a> {
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t,
        Err(e) => {
            return Checked {
                line,
                raw,
                text: None,
                error: Some(LineError::Utf8 {
                    at: e.valid_up_to(),
                }),
                absolute: false,
                uri: None,
            };
        }
    };
    let error = parse(text, Rule::IriReference, Syntax::Iri)
        .err()
        .map(LineError::Parse);
    let absolute = error.is_none() && parse(text, Rule::Iri, Syntax::Iri).is_ok();
    Checked {
        line,
        raw,
        text: Some(text),
        error,
        absolute,
        uri: Some(to_uri(text, opts)),
    }
}
