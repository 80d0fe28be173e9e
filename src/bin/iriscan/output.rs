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

    /// Prints one hit of the input `path` (or counts it, or skips it when
    /// it is invalid without `--invalid`, or already printed with
    /// `--unique`).
    pub fn hit(&mut self, path: &str, hit: &Hit<'_>) -> io::Result<()> {
        let valid = hit.is_valid();
        if !valid && !self.s.invalid {
            return Ok(());
        }
        let mapped =
            (self.s.uri || self.s.mode == Mode::Json).then(|| hit.to_uri(&self.s.uri_options));
        // A rejected candidate is shown as the IRI that was rejected: its
        // URI would hide the fault the reason points at.
        let plain: &str = match &mapped {
            Some(m) if self.s.uri && valid => &m.uri,
            _ => hit.iri(),
        };
        let normalized: Option<Option<String>> = self.s.normalize.map(|n| {
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
        if let Some(seen) = &mut self.seen {
            if !seen.first(valid, shown) {
                return Ok(());
            }
        }
        self.found = true;
        let reason = invalid_reason(hit);
        match self.s.mode {
            Mode::Count => self.count += 1,
            Mode::Plain => {
                if self.s.with_path {
                    write!(self.out, "{path}:")?;
                }
                self.out.write_all(shown.as_bytes())?;
                if let Some((reason, _)) = &reason {
                    write!(self.out, "\tinvalid: {reason}")?;
                }
                self.out.write_all(b"\n")?;
            }
            Mode::Json => {
                let m = mapped.unwrap_or_else(|| hit.to_uri(&self.s.uri_options));
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
                    normalized,
                    verdict: self.s.invalid.then_some(Verdict {
                        valid,
                        error,
                        error_offset,
                    }),
                    warnings: hit_warnings(hit, &m.warnings),
                };
                serde_json::to_writer(&mut self.out, &record)?;
                self.out.write_all(b"\n")?;
            }
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
