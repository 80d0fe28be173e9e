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
use std::borrow::Cow;

use iriscan::{
    Iri, IriOptions, Mapped, NormalizeError, NormalizeOptions, ParseError, ResolveError, Rule,
    Syntax, UriOptions, normalize, normalize_parsed, parse, resolve, to_iri, to_uri,
};

/// What to do with each line (from the command line).
pub struct LineOptions {
    pub uri: UriOptions,
    /// Print URIs (else IRIs, converted with RFC 3987bis §4).
    pub to_uri: bool,
    /// Resolve relative references against this absolute IRI first.
    pub base: Option<String>,
    /// Normalize what is printed (in the form printed).
    pub normalize: Option<NormalizeOptions>,
}

/// The verdict on one line.
pub struct Checked<'a> {
    /// 1-based line number.
    pub line: u64,
    /// The line without its line ending.
    pub raw: &'a [u8],
    /// The line as text, if it is UTF-8.
    pub text: Option<&'a str>,
    /// Why the line is not an IRI reference (or cannot be resolved against
    /// the base); `None` when it is one.
    pub error: Option<LineError>,
    /// Whether the line is valid and its IRI (resolved) has a scheme.
    pub absolute: bool,
    /// The IRI of a valid line: the line, resolved against `--base`, in IRI
    /// form (converted from a URI with `--to iri`).
    pub iri: Option<Cow<'a, str>>,
    /// The URI of the line (resolved if valid); `None` when the line is
    /// not UTF-8.
    pub uri: Option<Mapped<'a>>,
    /// The normalized form of what is printed, with `--normalize`.
    pub normalized: Option<Cow<'a, str>>,
    /// Plain output prints the IRI (`--to iri`).
    pub iri_form: bool,
}

impl Checked<'_> {
    /// What plain output prints for a valid line (and `--unique` keys on).
    pub fn output(&self) -> Option<&str> {
        if self.error.is_some() {
            return None;
        }
        if let Some(n) = &self.normalized {
            return Some(n);
        }
        match (&self.iri, &self.uri) {
            (Some(iri), _) if self.iri_form => Some(iri),
            (_, Some(m)) => Some(&m.uri),
            _ => None,
        }
    }
}

/// Why a line is not an IRI reference.
pub enum LineError {
    /// The line is not UTF-8 from this byte offset in the line on.
    Utf8 { at: usize },
    /// The line does not match the grammar.
    Parse(ParseError),
    /// The line is longer than [`MAX_LINE`] bytes.
    TooLong,
    /// The reference cannot be resolved against the base.
    Resolve(ResolveError),
    /// The resolved reference cannot be normalized.
    Normalize(NormalizeError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Utf8 { at } => write!(f, "invalid UTF-8 at byte {at}"),
            LineError::Parse(e) => e.fmt(f),
            LineError::TooLong => write!(f, "line longer than {MAX_LINE} bytes"),
            LineError::Resolve(e) => write!(f, "cannot resolve against the base: {e}"),
            LineError::Normalize(e) => write!(f, "cannot normalize: {e}"),
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
    opts: &LineOptions,
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
            sink(too_long(line, opts)).map_err(InputError::Output)?;
            continue;
        }
        let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        sink(check_line(line, raw, opts)).map_err(InputError::Output)?;
    }
}

fn too_long(line: u64, opts: &LineOptions) -> Checked<'static> {
    Checked {
        line,
        raw: b"",
        text: None,
        error: Some(LineError::TooLong),
        absolute: false,
        iri: None,
        uri: None,
        normalized: None,
        iri_form: !opts.to_uri,
    }
}

fn check_line<'a>(line: u64, raw: &'a [u8], opts: &LineOptions) -> Checked<'a> {
    let mut checked = Checked {
        line,
        raw,
        text: None,
        error: None,
        absolute: false,
        iri: None,
        uri: None,
        normalized: None,
        iri_form: !opts.to_uri,
    };
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t,
        Err(e) => {
            checked.error = Some(LineError::Utf8 {
                at: e.valid_up_to(),
            });
            return checked;
        }
    };
    checked.text = Some(text);
    // Parsed once: the components serve the `absolute` verdict and, when
    // the printed form is the line itself, normalization.
    let parsed = match Iri::parse_reference(text) {
        Ok(p) => p,
        Err(e) => {
            checked.error = Some(LineError::Parse(e));
            // The mapping is defined for any string (RFC 3987bis §3.3).
            checked.uri = Some(to_uri(text, &opts.uri));
            return checked;
        }
    };
    let target: Cow<'a, str> = match &opts.base {
        None => Cow::Borrowed(text),
        Some(base) => match resolve(base, text) {
            Ok(t) => Cow::Owned(t),
            Err(e) => {
                checked.error = Some(LineError::Resolve(e));
                checked.uri = Some(to_uri(text, &opts.uri));
                return checked;
            }
        },
    };
    checked.absolute = match &opts.base {
        // A valid IRI reference with a scheme matched its `IRI`
        // alternative.
        None => parsed.scheme().is_some(),
        Some(_) => parse(&target, Rule::Iri, Syntax::Iri).is_ok(),
    };
    let uri = match &target {
        Cow::Borrowed(t) => to_uri(t, &opts.uri),
        Cow::Owned(t) => map_owned(t, &opts.uri),
    };
    let iri: Cow<'a, str> = if opts.to_uri {
        target
    } else {
        match target {
            Cow::Borrowed(t) => to_iri(t, &IriOptions::new()),
            Cow::Owned(t) => Cow::Owned(to_iri(&t, &IriOptions::new()).into_owned()),
        }
    };
    if let Some(n) = &opts.normalize {
        let form = if opts.to_uri { &uri.uri } else { &iri };
        match normalize_form(form, &parsed, n) {
            Ok(v) => checked.normalized = Some(v),
            Err(e) => checked.error = Some(LineError::Normalize(e)),
        }
    }
    checked.iri = Some(iri);
    checked.uri = Some(uri);
    checked
}

/// The normalized form of `form`, borrowed from the line when the line is
/// already normal. When `form` is the line itself (nothing to map, no
/// base), its components are `parsed`'s and it is not parsed again.
fn normalize_form<'a>(
    form: &Cow<'a, str>,
    parsed: &Iri<'a>,
    opts: &NormalizeOptions,
) -> Result<Cow<'a, str>, NormalizeError> {
    match form {
        Cow::Borrowed(s) if *s == parsed.as_str() => Ok(normalize_parsed(parsed, opts)),
        Cow::Borrowed(s) => normalize(s, opts),
        Cow::Owned(s) => normalize(s, opts).map(|v| Cow::Owned(v.into_owned())),
    }
}

/// The URI of `s`, owning its text (`s` may be a temporary).
fn map_owned(s: &str, opts: &UriOptions) -> Mapped<'static> {
    let m = to_uri(s, opts);
    Mapped {
        uri: Cow::Owned(m.uri.into_owned()),
        warnings: m.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iriscan::NormalizationLevel;

    fn opts(to_uri_form: bool, base: Option<&str>) -> LineOptions {
        let form = if to_uri_form {
            iriscan::NormalForm::Uri
        } else {
            iriscan::NormalForm::Iri
        };
        LineOptions {
            uri: UriOptions::new(),
            to_uri: to_uri_form,
            base: base.map(str::to_owned),
            normalize: Some(
                NormalizeOptions::new()
                    .level(NormalizationLevel::Scheme)
                    .form(form),
            ),
        }
    }

    const LINES: &[&str] = &[
        "http://example.com/docs/1/page",
        "HTTP://EXAMPLE.COM:80/docs/./1/x/../page",
        "http://例え.テスト/docs/%31/page#top",
        "http://xn--r8jz45g.xn--zckzah/docs/1/page",
        "a/b",
        "//h/p",
        "",
        "mailto:x@y.example",
        "a:b",
        "./a:b",
        "../x/./y?q#f",
    ];

    #[test]
    fn absolute_is_the_iri_rule_without_parsing_again() {
        for base in [None, Some("http://b.example/c/d")] {
            for line in LINES {
                let c = check_line(1, line.as_bytes(), &opts(true, base));
                assert!(c.error.is_none(), "{line}");
                let target = match base {
                    None => line.to_string(),
                    Some(b) => resolve(b, line).unwrap(),
                };
                let want = parse(&target, Rule::Iri, Syntax::Iri).is_ok();
                assert_eq!(c.absolute, want, "{line} against {base:?}");
            }
        }
    }

    #[test]
    fn normalized_is_the_normal_form_of_what_is_printed() {
        for to_uri_form in [true, false] {
            for base in [None, Some("http://b.example/c/d")] {
                let o = opts(to_uri_form, base);
                for line in LINES {
                    let c = check_line(1, line.as_bytes(), &o);
                    let printed: &str = if to_uri_form {
                        &c.uri.as_ref().unwrap().uri
                    } else {
                        c.iri.as_ref().unwrap()
                    };
                    let want = normalize(printed, o.normalize.as_ref().unwrap()).unwrap();
                    assert_eq!(c.normalized.as_deref(), Some(&*want), "{line}");
                }
            }
        }
    }

    #[test]
    fn a_normal_line_is_not_copied() {
        let line = "http://example.com/docs/1/page";
        let c = check_line(1, line.as_bytes(), &opts(true, None));
        match c.normalized {
            Some(Cow::Borrowed(n)) => assert!(std::ptr::eq(n, line)),
            _ => panic!("normalized form copied"),
        }
    }
}
