//! The one step from an input's bytes to its hits.
//!
//! Everything that reads input calls [`scan_input`]; everything that prints
//! receives the [`Hit`]s it hands on (with their offsets, line and column
//! in the input). A streaming reader (legacy charsets, inputs larger than
//! memory) or a parallel driver replaces the whole-buffer call here
//! without touching the output side.

use std::io;

use iriscan::{Finder, Hit};

/// Finds every candidate in `bytes` — valid and invalid, in input order —
/// and hands each to `sink`; stops at the first error `sink` returns.
pub fn scan_input<'h>(
    bytes: &'h [u8],
    finder: &Finder,
    mut sink: impl FnMut(Hit<'h>) -> io::Result<()>,
) -> io::Result<()> {
    for hit in finder.find_iter(bytes) {
        sink(hit)?;
    }
    Ok(())
}
