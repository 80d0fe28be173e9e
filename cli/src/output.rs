//! Printing hits: plain lines, JSON Lines or counts, optionally unique.
//!
//! The printer receives [`Hit`]s from [`crate::scan::scan_input`]
//! and knows nothing of how they were found. Plain output is one line per
//! hit: `PATH:` (with several inputs), then the IRI — or the URI with
//! `--uri` — and, for a rejected candidate (`--invalid`), its IRI (never
//! the URI, whose mapping would hide the fault), a TAB and `invalid:
//! <reason>`, where the reason's byte offset is an offset into the input.
//! What is printed before the TAB is also the `--unique` key.

use std::io::{self, Write};

use iriscan::{Hit, NormalizeOptions, UriOptions, normalize};

use crate::json::{HitRecord, Verdict, hit_warnings};
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
}

/// Prints hits to `out`.
pub struct HitPrinter<W: Write> {
    out: W,
    s: Settings,
    seen: Option<Seen>,
    /// Hits printed for the current input (for `--count`).
    count: u64,
    /// Whether anything was printed (or counted) at all.
    found: bool,
}

impl<W: Write> HitPrinter<W> {
    pub fn new(out: W, s: Settings) -> HitPrinter<W> {
        HitPrinter {
            out,
            seen: s.unique.then(Seen::default),
            s,
            count: 0,
            found: false,
        }
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
            uri: self.s.uri,
            invalid: self.s.invalid,
            with_path: self.s.with_path,
            uri_options: self.s.uri_options,
            normalize: self.s.normalize,
            unique: self.s.unique,
        }
    }

    /// Prints (or counts) a rendered hit, unless it is an invalid one
    /// without `--invalid` or its key was printed already with `--unique`.
    pub fn emit(&mut self, r: Rendered) -> io::Result<()> {
        if !r.shown {
            return Ok(());
        }
        if let (Some(seen), Some(key)) = (&mut self.seen, &r.key)
            && !seen.first(r.valid, key)
        {
            return Ok(());
        }
        self.found = true;
        match self.s.mode {
            Mode::Count => self.count += 1,
            Mode::Plain | Mode::Json => self.out.write_all(&r.line)?,
        }
        Ok(())
    }

    /// Ends the input `path`: prints its count (with `--count`) and
    /// flushes.
    pub fn end_input(&mut self, path: &str) -> io::Result<()> {
        if self.s.mode == Mode::Count {
            if self.s.with_path {
                write!(self.out, "{path}:")?;
            }
            writeln!(self.out, "{}", self.count)?;
            self.count = 0;
        }
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

/// A hit made ready to print.
pub struct Rendered {
    valid: bool,
    /// Whether the hit is shown at all (invalid ones only with `--invalid`).
    shown: bool,
    /// What `--unique` compares (only with `--unique`).
    key: Option<String>,
    /// The output line, newline included (empty with `--count`).
    line: Vec<u8>,
}

/// Turns hits into output lines; pure, and shared by the pool's threads.
#[derive(Clone, Copy)]
pub struct Renderer {
    mode: Mode,
    uri: bool,
    invalid: bool,
    with_path: bool,
    uri_options: UriOptions,
    normalize: Option<NormalizeOptions>,
    unique: bool,
}

impl Renderer {
    /// Renders one hit of the input `path`: the IRI — or the URI with
    /// `--uri`, or its normal form with `--normalize` — or its JSON record.
    pub fn render(&self, path: &str, hit: &Hit<'_>) -> Rendered {
        let valid = hit.is_valid();
        let mut r = Rendered {
            valid,
            shown: valid || self.invalid,
            key: None,
            line: Vec::new(),
        };
        if !r.shown || (self.mode == Mode::Count && !self.unique) {
            return r;
        }
        let mapped = (self.uri || self.mode == Mode::Json).then(|| hit.to_uri(&self.uri_options));
        // A rejected candidate is shown as the IRI that was rejected: its
        // URI would hide the fault the reason points at.
        let plain: &str = match &mapped {
            Some(m) if self.uri && valid => &m.uri,
            _ => hit.iri(),
        };
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
            Mode::Count => {}
            Mode::Plain => {
                let out = &mut r.line;
                out.reserve(path.len() + shown.len() + 2);
                if self.with_path {
                    out.extend_from_slice(path.as_bytes());
                    out.push(b':');
                }
                out.extend_from_slice(shown.as_bytes());
                if let Some((reason, _)) = &reason {
                    out.extend_from_slice(format!("\tinvalid: {reason}").as_bytes());
                }
                out.push(b'\n');
            }
            Mode::Json => {
                let computed;
                let m = match &mapped {
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
                let record = HitRecord {
                    path,
                    start: hit.start(),
                    end: hit.end(),
                    line: hit.line(),
                    column: hit.column(),
                    text: hit.text(),
                    iri: hit.iri(),
                    uri: &m.uri,
                    kind: hit.kind().as_str(),
                    charset: hit.document_encoding().name(),
                    normalized: normalized.clone(),
                    verdict: self.invalid.then_some(Verdict {
                        valid,
                        error,
                        error_offset,
                    }),
                    warnings: hit_warnings(hit, &m.warnings),
                };
                // Serializing plain data into a Vec cannot fail.
                let _ = serde_json::to_writer(&mut r.line, &record);
                r.line.push(b'\n');
            }
        }
        r
    }
}
