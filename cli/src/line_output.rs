//! Printing the verdicts of `--each-line`.
//!
//! Plain output keeps the lines aligned: one output line per input line,
//! the URI of a valid line, an empty line for an invalid one (whose reason
//! goes to standard error as `PATH:LINE: invalid IRI reference: …`). So
//! `paste input.txt output.txt` pairs every input with its URI, and a job
//! that reads the two files side by side cannot slip by one row. (An empty
//! input line is a valid, empty, IRI reference and also prints an empty
//! line.) With `--json` every line gives one object, valid or not; the
//! object carries the reason, so nothing goes to standard error.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::each_line::Checked;
use crate::json::{JsonPath, LineRecord, map_warning};
use crate::progress;
use crate::unique::Seen;

/// Prints line verdicts to `out` (and the reasons of invalid lines to
/// standard error).
pub struct LinePrinter<W: Write> {
    out: W,
    json: bool,
    with_path: bool,
    /// With `--unique`: what was printed already.
    seen: Option<Seen>,
    /// Whether some line was valid.
    found: bool,
    /// Whether some line was invalid.
    invalid: bool,
}

impl<W: Write> LinePrinter<W> {
    pub fn new(out: W, json: bool, with_path: bool, unique: bool) -> LinePrinter<W> {
        LinePrinter {
            out,
            json,
            with_path,
            seen: unique.then(Seen::default),
            found: false,
            invalid: false,
        }
    }

    /// Whether some line was a valid IRI reference.
    pub fn found(&self) -> bool {
        self.found
    }

    /// Whether some line was not.
    pub fn saw_invalid(&self) -> bool {
        self.invalid
    }

    pub fn line(&mut self, path: &[u8], c: &Checked<'_>) -> io::Result<()> {
        let valid = c.error.is_none();
        self.found |= valid;
        self.invalid |= !valid;
        // With --unique, each output once (the first line that gives it);
        // invalid lines are still all reported.
        if let (Some(seen), Some(key)) = (&mut self.seen, c.output())
            && !seen.first(true, key)
        {
            return Ok(());
        }
        if self.json {
            let record = LineRecord {
                path: JsonPath(path),
                line: c.line,
                input: match c.text {
                    Some(t) => Cow::Borrowed(t),
                    None => String::from_utf8_lossy(c.raw),
                },
                valid,
                absolute: c.absolute,
                error: c.error.as_ref().map(|e| e.to_string()),
                iri: if valid { c.iri.as_deref() } else { None },
                uri: c.uri.as_ref().map(|m| &*m.uri),
                normalized: c.normalized.as_deref(),
                warnings: c
                    .uri
                    .iter()
                    .flat_map(|m| m.warnings.iter().map(map_warning))
                    .collect(),
            };
            serde_json::to_writer(&mut self.out, &record)?;
            return self.out.write_all(b"\n");
        }
        if self.with_path {
            self.out.write_all(path)?;
            self.out.write_all(b":")?;
        }
        match (&c.error, c.output()) {
            (None, Some(out)) => self.out.write_all(out.as_bytes())?,
            (Some(e), _) => {
                // Flushed first, so that on a terminal the message appears
                // among the lines it is about. A message that cannot be
                // written must not end the run.
                self.out.flush()?;
                let _ = writeln!(
                    progress::message(),
                    "{}:{}: invalid IRI reference: {e}",
                    String::from_utf8_lossy(path),
                    c.line
                );
            }
            (None, None) => {}
        }
        self.out.write_all(b"\n")
    }

    pub fn end_input(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
