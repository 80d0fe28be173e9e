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
use std::io;

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
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Utf8 { at } => write!(f, "invalid UTF-8 at byte {at}"),
            LineError::Parse(e) => e.fmt(f),
        }
    }
}

/// Checks every line of `bytes`, in order, and hands each verdict to
/// `sink`; stops at the first error `sink` returns. (Like
/// [`crate::scan::scan_input`], the one step from input to records.)
pub fn scan_lines<'a>(
    bytes: &'a [u8],
    opts: &UriOptions,
    mut sink: impl FnMut(Checked<'a>) -> io::Result<()>,
) -> io::Result<()> {
    let mut start = 0;
    let mut line = 0;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let raw = &bytes[start..end];
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        line += 1;
        sink(check_line(line, raw, opts))?;
        start = end + 1;
    }
    Ok(())
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
