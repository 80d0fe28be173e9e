//! Printing hits: plain lines, JSON Lines or counts, optionally unique.
//!
//! The printer receives [`Hit`]s from [`crate::scan::scan_input`]
//! and knows nothing of how they were found; when it prints only counts
//! that need no hit ([`HitPrinter::counts_only`]), it receives the counts
//! of [`crate::scan::count_input`] instead. Plain output is one line per
//! hit: `PATH:` (with several inputs), then the IRI — or the URI with
//! `--uri` — and, for a rejected candidate (`--invalid`), its IRI (never
//! the URI, whose mapping would hide the fault), a TAB and `invalid:
//! <reason>`, where the reason's byte offset is an offset into the input.
//! What is printed before the TAB is also the `--unique` key.
//!
//! As in ripgrep: `-n` puts the line number before the hit, `--column` the
//! line and the byte column, `-0` puts a NUL after the path instead of `:`
//! (so that paths holding `:` can be read back), `-l` prints each path
//! with a hit once, `-m N` stops an input after N hits, `-q` prints
//! nothing and stops at the first hit. A truncated hit (`--max-len`) is
//! announced on standard error in plain output (JSON carries a warning).

use std::io::{self, Write};
use std::sync::Arc;

use iriscan::{
    Counts, Hit, HitFilter, InputFormat, Mapped, NormalizeOptions, StructuredHit, UriOptions,
    Warnings, normalize,
};

use crate::json::{HitRecord, JsonPath, Place, Verdict, hit_warnings};
use crate::progress;
use crate::unique::Seen;

/// The shape of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One IRI (or URI) per line.
    Plain,
    /// One JSON object per line (see [`crate::json`]).
    Json,
    /// The number of hits per input.
    Count,
    /// The path of each input with a hit (`-l`).
    Files,
    /// Nothing: stop at the first hit (`-q`).
    Quiet,
}

/// What to print, from the command line.
pub struct Settings {
    pub mode: Mode,
    /// Print (and key on) the URI rather than the IRI.
    pub uri: bool,
    /// Print rejected candidates too.
    pub invalid: bool,
    /// Print each key once.
    pub unique: bool,
    /// Name the input on each line (`PATH:`).
    pub with_path: bool,
    pub uri_options: UriOptions,
    /// With `--normalize`: print (and key on) the normalized form.
    pub normalize: Option<NormalizeOptions>,
    /// Put the line number (and the column) before a plain hit.
    pub line: bool,
    pub column: bool,
    /// A NUL after the path instead of `:` (or of the newline with `-l`).
    pub null: bool,
    /// Hits to print per input at most.
    pub max_count: Option<u64>,
    /// The maximum IRI length, for the truncation warning.
    pub max_len: usize,
    /// Announce truncated hits on standard error.
    pub messages: bool,
    /// `--match`, `--host`: which hits to print at all.
    pub filter: Arc<HitFilter>,
    /// Drop hits with any of these warnings (`--deny`).
    pub deny: Warnings,
    /// Print no warnings (`--no-warn`).
    pub no_warn: bool,
}

/// Prints hits to `out`.
pub struct HitPrinter<W: Write> {
    out: W,
    s: Settings,
    seen: Option<Seen>,
    /// Hits printed for the current input.
    count: u64,
    /// Whether anything was printed (or counted) at all.
    found: bool,
    /// Hits printed, and inputs with hits (for `--stats`).
    pub hits: u64,
    pub inputs_with_hits: u64,
}

impl<W: Write> HitPrinter<W> {
    pub fn new(out: W, s: Settings) -> HitPrinter<W> {
        HitPrinter {
            out,
            seen: s.unique.then(Seen::default),
            s,
            count: 0,
            found: false,
            hits: 0,
            inputs_with_hits: 0,
        }
    }

    /// Whether the run is over: `-q` and a hit was found.
    pub fn done(&self) -> bool {
        self.s.mode == Mode::Quiet && self.found
    }

    /// The output.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
    }

    /// Whether any hit was printed or counted.
    pub fn found(&self) -> bool {
        self.found
    }

    /// The renderer of hits for this output (it holds no state, so that it
    /// can run on the pool: URI mapping, normalization and formatting are
    /// most of the work per hit).
    pub fn renderer(&self) -> Renderer {
        Renderer {
            mode: self.s.mode,
            filter: Arc::clone(&self.s.filter),
            filtered: !self.s.filter.is_empty(),
            uri: self.s.uri,
            invalid: self.s.invalid,
            with_path: self.s.with_path,
            uri_options: self.s.uri_options,
            normalize: self.s.normalize,
            unique: self.s.unique,
            line: self.s.line,
            column: self.s.column,
            null: self.s.null,
            warn_truncated: self.s.messages && self.s.mode == Mode::Plain && !self.s.no_warn,
            deny: self.s.deny,
            no_warn: self.s.no_warn,
        }
    }

    /// Whether the output is only a count that no hit needs to be made
    /// for: `--count`, and nothing that looks at a hit beyond its verdict
    /// — not `--unique` (its key), `--match` or `--host` (its IRI),
    /// `--deny` (its warnings), nor `-m` (which stops the scan at the Nth
    /// hit). The input is then counted with [`Searcher::count_file`] (or
    /// [`Searcher::count_reader`]: standard input, pipes, decompressed
    /// input), and the count is [`add_counts`]'s.
    ///
    /// [`Searcher::count_file`]: iriscan::Searcher::count_file
    /// [`Searcher::count_reader`]: iriscan::Searcher::count_reader
    /// [`add_counts`]: HitPrinter::add_counts
    pub fn counts_only(&self) -> bool {
        self.s.mode == Mode::Count
            && !self.s.unique
            && self.s.filter.is_empty()
            && self.s.deny.is_empty()
            && self.s.max_count.is_none()
    }

    /// Counts the hits of the current input counted without making them
    /// (see [`counts_only`](HitPrinter::counts_only)), as [`emit`] would
    /// have counted them one by one: the valid ones, and the invalid ones
    /// with `--invalid`.
    ///
    /// [`emit`]: HitPrinter::emit
    pub fn add_counts(&mut self, counts: &Counts) {
        debug_assert!(self.counts_only());
        let shown = counts.valid + if self.s.invalid { counts.invalid } else { 0 };
        if shown > 0 {
            self.found = true;
            self.count += shown;
            self.hits += shown;
        }
    }

    /// Prints (or counts) a rendered hit of the input `path` (its bytes as
    /// printed: [`crate::walk::Input::path_bytes`]), unless it is
    /// an invalid one without `--invalid` or its key was printed already
    /// with `--unique`; returns whether to go on reading the input (not
    /// after `-m N` hits, nor after the first with `-l` or `-q`).
    pub fn emit(&mut self, path: &[u8], r: Rendered) -> io::Result<bool> {
        if self.s.max_count.is_some_and(|m| self.count >= m) {
            return Ok(false);
        }
        if !r.shown {
            return Ok(true);
        }
        if let (Some(seen), Some(key)) = (&mut self.seen, &r.key)
            && !seen.first(r.valid, key)
        {
            return Ok(true);
        }
        self.found = true;
        self.count += 1;
        self.hits += 1;
        match self.s.mode {
            Mode::Count => {}
            Mode::Plain | Mode::Json => self.out.write_all(r.line.as_bytes())?,
            Mode::Files => {
                self.out.write_all(path)?;
                self.out
                    .write_all(if self.s.null { b"\0" } else { b"\n" })?;
                return Ok(false);
            }
            Mode::Quiet => return Ok(false),
        }
        if let Some(at) = r.truncated_at {
            // Flushed first, so that on a terminal the warning comes
            // after the line it is about.
            self.out.flush()?;
            let _ = writeln!(
                progress::message(),
                "iriscan: {}: warning: IRI at byte {at} truncated at --max-len {}",
                String::from_utf8_lossy(path),
                self.s.max_len
            );
        }
        Ok(self.s.max_count.is_none_or(|m| self.count < m))
    }

    /// Ends the input `path`: prints its count (with `--count`) and
    /// flushes.
    pub fn end_input(&mut self, path: &[u8]) -> io::Result<()> {
        if self.count > 0 {
            self.inputs_with_hits += 1;
        }
        if self.s.mode == Mode::Count {
            if self.s.with_path {
                self.out.write_all(path)?;
                self.out.write_all(if self.s.null { b"\0" } else { b":" })?;
            }
            writeln!(self.out, "{}", self.count)?;
        }
        self.count = 0;
        self.out.flush()
    }
}

/// Why a hit is invalid, placed at its input offset (the library places
/// the fault in the IRI, which may differ from the input text: `http://`
/// added to a `www.` hit, white space of `<…>` removed), and that offset.
pub fn invalid_reason(hit: &Hit<'_>) -> Option<(String, usize)> {
    let e = hit.error()?;
    let at = hit.error_offset().unwrap_or(hit.start());
    Some((e.clone().at(at).to_string(), at))
}

/// Whether the hit has a warning of `deny` (`--deny`): out of line, so
/// that without `--deny` the check is one comparison.
#[cold]
#[inline(never)]
fn denied(hit: &Hit<'_>, deny: Warnings) -> bool {
    hit.warning_set().intersects(deny)
}

/// A hit made ready to print.
pub struct Rendered {
    valid: bool,
    /// Whether the hit is shown at all (invalid ones only with `--invalid`,
    /// and only those `--match` and `--host` keep).
    shown: bool,
    /// What `--unique` compares (only with `--unique`).
    key: Option<String>,
    /// The output line, newline included (empty with `--count`).
    line: Line,
    /// Where a truncated hit starts (to warn about it in plain output).
    truncated_at: Option<usize>,
}

/// Turns hits into output lines; pure, and shared by the pool's threads.
#[derive(Clone)]
pub struct Renderer {
    mode: Mode,
    filter: Arc<HitFilter>,
    /// `--match` or `--host` given: the filter looks at each hit (without,
    /// no call is made for it).
    filtered: bool,
    uri: bool,
    invalid: bool,
    with_path: bool,
    uri_options: UriOptions,
    normalize: Option<NormalizeOptions>,
    unique: bool,
    line: bool,
    column: bool,
    null: bool,
    warn_truncated: bool,
    deny: Warnings,
    no_warn: bool,
}

impl Renderer {
    /// Renders one hit of the input `path`: the IRI — or the URI with
    /// `--uri`, or its normal form with `--normalize` — or its JSON record.
    #[inline]
    pub fn render(&self, path: &[u8], hit: &Hit<'_>) -> Rendered {
        self.render_in(path, hit, None)
    }

    /// [`render`](Renderer::render) for a hit of a mail, HTML or WARC
    /// input: JSON says where it came from.
    pub fn render_structured(
        &self,
        path: &[u8],
        hit: &StructuredHit<'_>,
        format: InputFormat,
    ) -> Rendered {
        self.render_in(path, hit.hit(), Some((hit, format)))
    }

    #[inline]
    fn render_in(
        &self,
        path: &[u8],
        hit: &Hit<'_>,
        structured: Option<(&StructuredHit<'_>, InputFormat)>,
    ) -> Rendered {
        let valid = hit.is_valid();
        let mut r = Rendered {
            valid,
            // `--deny`: the warnings are computed only then.
            shown: (valid || self.invalid)
                && (!self.filtered || self.filter.keeps(hit))
                && (self.deny.is_empty() || !denied(hit, self.deny)),
            key: None,
            line: Line::new(),
            truncated_at: None,
        };
        let printed = matches!(self.mode, Mode::Plain | Mode::Json);
        if !r.shown || (!printed && !self.unique) {
            return r;
        }
        if self.warn_truncated && hit.is_truncated() {
            r.truncated_at = Some(hit.start());
        }
        let mapped = (self.uri || self.mode == Mode::Json).then(|| hit.to_uri(&self.uri_options));
        // A rejected candidate is shown as the IRI that was rejected: its
        // URI would hide the fault the reason points at. The IRI is lent
        // for the call (`Hit::with_iri`): a `www.` or e-mail hit's IRI is
        // built on the stack, not made and kept for each hit.
        match &mapped {
            Some(m) if self.uri && valid => {
                self.render_shown(path, hit, &m.uri, mapped.as_ref(), structured, &mut r);
            }
            _ => hit.with_iri(|iri| {
                self.render_shown(path, hit, iri, mapped.as_ref(), structured, &mut r);
            }),
        }
        r
    }

    /// Renders into `r` the hit whose IRI (or URI) is printed as `plain`
    /// (before `--normalize`): its key with `--unique`, its line in plain
    /// and JSON output.
    fn render_shown(
        &self,
        path: &[u8],
        hit: &Hit<'_>,
        plain: &str,
        mapped: Option<&Mapped<'_>>,
        structured: Option<(&StructuredHit<'_>, InputFormat)>,
        r: &mut Rendered,
    ) {
        let valid = r.valid;
        let normalized: Option<Option<String>> = self.normalize.map(|n| {
            if valid {
                normalize(plain, &n).ok().map(|c| c.into_owned())
            } else {
                None
            }
        });
        let shown: &str = match &normalized {
            Some(Some(n)) => n,
            _ => plain,
        };
        if self.unique {
            r.key = Some(shown.to_string());
        }
        let reason = invalid_reason(hit);
        match self.mode {
            Mode::Count | Mode::Files | Mode::Quiet => {}
            Mode::Plain => {
                let out = &mut r.line;
                if self.with_path {
                    out.push(path);
                    out.push(if self.null { b"\0" } else { b":" });
                }
                if self.line || self.column {
                    let _ = write!(out, "{}:", hit.line());
                }
                if self.column {
                    let _ = write!(out, "{}:", hit.column());
                }
                out.push(shown.as_bytes());
                if let Some((reason, _)) = &reason {
                    let _ = write!(out, "\tinvalid: {reason}");
                }
                out.push(b"\n");
            }
            Mode::Json => {
                let computed;
                let m = match mapped {
                    Some(m) => m,
                    None => {
                        computed = hit.to_uri(&self.uri_options);
                        &computed
                    }
                };
                let (error, error_offset) = match reason {
                    Some((r, at)) => (Some(r), Some(at)),
                    None => (None, None),
                };
                let charset = hit.document_charset();
                let record = HitRecord {
                    path: JsonPath(path),
                    start: hit.start(),
                    end: hit.end(),
                    line: hit.line(),
                    column: hit.column(),
                    text: hit.text(),
                    iri: hit.iri(),
                    uri: &m.uri,
                    kind: hit.kind().as_str(),
                    place: structured.map(|(hit, format)| place(hit, format)),
                    charset: charset.name(),
                    charset_source: charset.source(),
                    charset_declared: charset.overridden_declaration().map(|e| e.name()),
                    normalized,
                    verdict: self.invalid.then_some(Verdict {
                        valid,
                        error,
                        error_offset,
                    }),
                    warnings: if self.no_warn {
                        Vec::new()
                    } else {
                        hit_warnings(hit, &m.warnings)
                    },
                };
                // Serialized into a vector (a record is longer than a
                // short line, and serde writes it in many small pieces,
                // which a vector takes fastest). Serializing plain data
                // cannot fail.
                let mut json = Vec::with_capacity(4 * SHORT_LINE);
                let _ = serde_json::to_writer(&mut json, &record);
                json.push(b'\n');
                r.line = Line::from(json);
            }
        }
    }
}

/// A rendered output line: in place up to [`SHORT_LINE`] bytes, so that
/// rendering a hit allocates nothing for most lines (an IRI, with a path
/// or a line number before it), and on the heap beyond. Rendering builds
/// each line apart from the others (on the pool, with several threads),
/// so a line owns its bytes until it is printed.
pub struct Line {
    /// The bytes in `short`, while `long` is empty.
    len: usize,
    short: [u8; SHORT_LINE],
    /// The whole line, once it outgrew `short`.
    long: Vec<u8>,
}

/// The longest line a [`Line`] holds in place: link-dense text's IRIs
/// are mostly 30 to 70 bytes.
const SHORT_LINE: usize = 128;

impl Line {
    /// An empty line.
    fn new() -> Line {
        Line {
            len: 0,
            short: [0; SHORT_LINE],
            long: Vec::new(),
        }
    }

    /// Appends `bytes`.
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if self.long.is_empty() {
            let end = self.len + bytes.len();
            if let Some(to) = self.short.get_mut(self.len..end) {
                to.copy_from_slice(bytes);
                self.len = end;
                return;
            }
            // Outgrown (so `bytes` is not empty, nor then `long`): room
            // for a JSON record at once.
            self.long.reserve(end.max(4 * SHORT_LINE));
            self.long.extend_from_slice(&self.short[..self.len]);
        }
        self.long.extend_from_slice(bytes);
    }

    /// The line's bytes.
    fn as_bytes(&self) -> &[u8] {
        if self.long.is_empty() {
            &self.short[..self.len]
        } else {
            &self.long
        }
    }
}

/// A line already made.
impl From<Vec<u8>> for Line {
    fn from(long: Vec<u8>) -> Line {
        Line {
            len: 0,
            short: [0; SHORT_LINE],
            long,
        }
    }
}

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.push(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.push(buf);
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where a hit of an input in `format` came from, for JSON.
fn place<'a>(hit: &'a StructuredHit<'_>, format: InputFormat) -> Place<'a> {
    let origin = hit.origin();
    let raw = hit.raw_range();
    let mail = format == InputFormat::Mail;
    let warc = format == InputFormat::Warc;
    Place {
        message: mail.then(|| origin.index()),
        message_id: origin.id().filter(|_| mail),
        part: mail.then(|| origin.part()),
        source: origin.source().to_string(),
        record: origin.id().filter(|_| warc),
        record_index: warc.then(|| origin.index()),
        target_uri: origin.target_uri(),
        raw_start: raw.as_ref().map(|r| r.start),
        raw_end: raw.map(|r| r.end),
    }
}

#[cfg(test)]
mod tests {
    use iriscan::Warning;

    use super::*;

    /// The settings of `iriscan --count` with nothing else.
    fn count() -> Settings {
        Settings {
            mode: Mode::Count,
            uri: false,
            invalid: false,
            unique: false,
            with_path: false,
            uri_options: UriOptions::default(),
            normalize: None,
            line: false,
            column: false,
            null: false,
            max_count: None,
            max_len: 8192,
            messages: true,
            filter: Arc::new(HitFilter::new()),
            deny: Warnings::new(),
            no_warn: false,
        }
    }

    /// A line holds what was written to it, in place while short and on
    /// the heap once it outgrows that, written whole or piece by piece.
    #[test]
    fn a_line_holds_what_was_written() {
        let line = |pieces: &[&[u8]]| {
            let mut l = Line::new();
            for p in pieces {
                l.push(p);
            }
            (l.as_bytes().to_vec(), l.long.is_empty())
        };
        assert_eq!(line(&[]), (Vec::new(), true));
        assert_eq!(
            line(&[b"", b"http://a/", b"", b"\n"]),
            (b"http://a/\n".to_vec(), true)
        );
        let long = vec![b'x'; SHORT_LINE];
        assert_eq!(line(&[&long]), (long.clone(), true));
        let mut more = long.clone();
        more.push(b'\n');
        assert_eq!(line(&[&long, b"\n"]), (more.clone(), false));
        assert_eq!(line(&[b"x", &long[1..], b"", b"\n"]), (more, false));
        let twice = [long.as_slice(), long.as_slice()].concat();
        assert_eq!(line(&[&long, &long]), (twice.clone(), false));
        assert_eq!(Line::from(Vec::new()).as_bytes(), b"");
        assert_eq!(Line::from(b"{}\n".to_vec()).as_bytes(), b"{}\n");
        let mut written = Line::new();
        write!(
            written,
            "{}:{}",
            12,
            String::from_utf8(twice.clone()).unwrap()
        )
        .unwrap();
        assert_eq!(written.as_bytes(), [b"12:".as_slice(), &twice].concat());
    }

    fn counts_only(s: Settings) -> bool {
        HitPrinter::new(Vec::new(), s).counts_only()
    }

    /// `--count` counts without hits, unless something looks at the hits
    /// themselves; other outputs print them.
    #[test]
    fn only_a_bare_count_goes_without_hits() {
        assert!(counts_only(count()));
        for s in [
            Settings {
                invalid: true,
                ..count()
            },
            Settings {
                with_path: true,
                ..count()
            },
            Settings {
                uri: true,
                ..count()
            },
        ] {
            assert!(counts_only(s));
        }
        let matching = HitFilter::new().iri_matching("x").expect("pattern");
        let host = HitFilter::new().host_matching("x").expect("pattern");
        for s in [
            Settings {
                unique: true,
                ..count()
            },
            Settings {
                max_count: Some(3),
                ..count()
            },
            Settings {
                filter: Arc::new(matching),
                ..count()
            },
            Settings {
                filter: Arc::new(host),
                ..count()
            },
            Settings {
                deny: Warnings::new().with(Warning::Idna),
                ..count()
            },
        ] {
            assert!(!counts_only(s));
        }
        for mode in [Mode::Plain, Mode::Json, Mode::Files, Mode::Quiet] {
            assert!(!counts_only(Settings { mode, ..count() }));
        }
    }
}
