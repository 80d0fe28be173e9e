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
    #[cfg(any(feature = "parallel", test))]
    /// This counter after the region counted by [`count_region`]
    /// (`newlines`, and the start of the line after its last newline),
    /// which ends at `to`.
    pub fn after(&self, newlines: u64, last_line_start: Option<usize>, to: usize) -> LineCounter {
        LineCounter {
            counted: to,
            line: self.line + newlines,
            line_start: last_line_start.unwrap_or(self.line_start),
        }
    }

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

#[cfg(any(feature = "parallel", test))]
/// The newlines of `window[from - base..to - base]` and where the line
/// after the last one starts (for counting regions on several threads).
pub(crate) fn count_region(
    window: &[u8],
    base: usize,
    from: usize,
    to: usize,
) -> (u64, Option<usize>) {
    let bytes = &window[from - base..to - base];
    let n = memchr::memchr_iter(b'\n', bytes).count() as u64;
    (n, memchr::memrchr(b'\n', bytes).map(|i| from + i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_combine_like_one_count() {
        let text = b"a\nbb\n\nccc\nd\n";
        for cut in 0..=text.len() {
            let mut whole = LineCounter::default();
            whole.advance(text, 0, text.len());
            let (n1, l1) = count_region(text, 0, 0, cut);
            let (n2, l2) = count_region(text, 0, cut, text.len());
            let combined = LineCounter::default()
                .after(n1, l1, cut)
                .after(n2, l2, text.len());
            assert_eq!(combined, whole, "cut at {cut}");
        }
    }

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
