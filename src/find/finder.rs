//! The entry point of the library: [`Finder`], configured once, finds
//! [`Hit`]s in any number of inputs.

use crate::find::found_iri::Hit;
use crate::find::scanner::{MIN_MAX_LEN, Options, ScanState, Scanner};
use crate::stream::line_counter::LineCounter;

/// Finds IRIs in UTF-8 text (PRODUCT.md §1).
///
/// A `Finder` is a small, immutable configuration; build it once and use it
/// for every input, from any number of threads.
///
/// ```
/// use iriscan::Finder;
/// let finder = Finder::new();
/// let text = "読む: https://ja.wikipedia.org/wiki/東京都。また (https://en.wikipedia.org/wiki/Rust_(programming_language)).";
/// let iris: Vec<String> = finder
///     .find_iter(text.as_bytes())
///     .filter(|h| h.is_valid())
///     .map(|h| h.iri().to_string())
///     .collect();
/// assert_eq!(iris, [
///     "https://ja.wikipedia.org/wiki/東京都",
///     "https://en.wikipedia.org/wiki/Rust_(programming_language)",
/// ]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finder {
    opts: Options,
}

impl Default for Finder {
    fn default() -> Self {
        Finder::new()
    }
}

impl Finder {
    /// A finder with the defaults: `www.` and e-mail hits on, maximum IRI
    /// length 8 KiB.
    pub fn new() -> Finder {
        Finder {
            opts: Options::default(),
        }
    }

    /// Whether to find scheme-less `www.` hosts (default on).
    pub fn www(mut self, yes: bool) -> Finder {
        self.opts.www = yes;
        self
    }

    /// Whether to find e-mail addresses (default on).
    pub fn email(mut self, yes: bool) -> Finder {
        self.opts.email = yes;
        self
    }

    /// The maximum length of an IRI in bytes (default 8 KiB, at least 512):
    /// a longer candidate is reported cut at this length, with
    /// [`Warning::Truncated`](crate::Warning::Truncated).
    pub fn max_len(mut self, bytes: usize) -> Finder {
        self.opts.max_len = bytes.max(MIN_MAX_LEN);
        self
    }

    /// The configured maximum IRI length.
    pub fn max_iri_len(&self) -> usize {
        self.opts.max_len
    }

    pub(crate) fn options(&self) -> Options {
        self.opts
    }

    /// Iterates over the hits in `hay`, valid and invalid, in order
    /// (filter with [`Hit::is_valid`]). Invalid UTF-8 in `hay` ends a
    /// candidate like any other character that cannot be in an IRI.
    pub fn find_iter<'h>(&self, hay: &'h [u8]) -> FindIter<'h> {
        FindIter {
            hay,
            scanner: Scanner::new(hay, self.opts),
            state: ScanState::default(),
            lines: LineCounter::default(),
        }
    }
}

/// The iterator of [`Finder::find_iter`].
pub struct FindIter<'h> {
    hay: &'h [u8],
    scanner: Scanner<'h>,
    state: ScanState,
    lines: LineCounter,
}

impl<'h> Iterator for FindIter<'h> {
    type Item = Hit<'h>;

    fn next(&mut self) -> Option<Hit<'h>> {
        let mut found = None;
        self.scanner
            .scan(&mut self.state, self.hay.len(), &mut |c| {
                found = Some(c);
                false
            });
        let c = found?;
        self.lines.advance(self.hay, 0, c.start);
        let column = (c.start - self.lines.line_start()) as u64 + 1;
        Some(Hit::new(self.hay, c).locate(c.start, c.end, self.lines.line(), column))
    }
}

impl std::fmt::Debug for FindIter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FindIter")
            .field("pos", &self.state.pos)
            .finish()
    }
}
