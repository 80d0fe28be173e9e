//! Line numbers for hits, counted incrementally: hits come in order, so each
//! byte of the input is counted once, whatever path (slice, stream,
//! parallel) found them.

/// Counts `\n` up to a position that only moves forward.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineCounter {
    /// Absolute offset up to which newlines are counted.
    counted: usize,
    /// 1-based line number at `counted`.
    line: u64,
    /// Absolute offset of the first byte of that line.
    line_start: usize,
}

impl Default for LineCounter {
    fn default() -> Self {
        LineCounter {
            counted: 0,
            line: 1,
            line_start: 0,
        }
    }
}

impl LineCounter {
    /// Counts the newlines of `window` (which starts at absolute offset
    /// `base`) up to absolute offset `pos`, which must be at or after
    /// everything counted so far and inside the window.
    pub fn advance(&mut self, window: &[u8], base: usize, pos: usize) {
        if pos <= self.counted {
            return;
        }
        let from = self.counted.max(base);
        let bytes = &window[from - base..pos - base];
        let n = memchr::memchr_iter(b'\n', bytes).count();
        if n > 0 {
            self.line += n as u64;
            // memrchr cannot fail: there is at least one newline.
            self.line_start = from + memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
        }
        self.counted = pos;
    }

    /// The 1-based line number at the last position advanced to.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The absolute offset up to which newlines are counted.
    pub fn counted(&self) -> usize {
        self.counted
    }

    /// The absolute offset where that line starts.
    pub fn line_start(&self) -> usize {
        self.line_start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_across_windows() {
        let text = b"a\nbb\n\nccc\nd";
        let mut whole = LineCounter::default();
        whole.advance(text, 0, 7);
        assert_eq!((whole.line(), whole.line_start()), (4, 6));
        let mut split = LineCounter::default();
        split.advance(&text[..4], 0, 3);
        split.advance(&text[3..], 3, 7);
        assert_eq!(split, whole);
        split.advance(&text[3..], 3, 11);
        assert_eq!((split.line(), split.line_start()), (5, 10));
    }
}
