//! `--stats`: what the run did, printed after the hits as ripgrep prints
//! its statistics (a blank line, then one figure a line).

use std::io::{self, Write};
use std::time::Instant;

/// The figures of a run.
pub struct Stats {
    start: Instant,
    /// Hits printed (or counted).
    pub hits: u64,
    /// Inputs with at least one hit.
    pub inputs_with_hits: u64,
    /// Inputs opened and scanned.
    pub inputs: u64,
    /// Bytes read from the inputs.
    pub bytes: u64,
    /// Bytes written to standard output before the statistics.
    pub bytes_printed: u64,
}

impl Stats {
    pub fn start() -> Stats {
        Stats {
            start: Instant::now(),
            hits: 0,
            inputs_with_hits: 0,
            inputs: 0,
            bytes: 0,
            bytes_printed: 0,
        }
    }

    pub fn print(&self, out: &mut impl Write) -> io::Result<()> {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        writeln!(out)?;
        writeln!(out, "{}", plural(self.hits, "hit", "hits"))?;
        writeln!(
            out,
            "{} contained hits",
            plural(self.inputs_with_hits, "input", "inputs")
        )?;
        writeln!(out, "{} searched", plural(self.inputs, "input", "inputs"))?;
        writeln!(
            out,
            "{} printed",
            plural(self.bytes_printed, "byte", "bytes")
        )?;
        writeln!(out, "{} searched", plural(self.bytes, "byte", "bytes"))?;
        writeln!(out, "{:.6} seconds", self.start.elapsed().as_secs_f64())
    }
}
