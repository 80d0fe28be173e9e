//! The entry point of the library: [`Finder`], configured once, finds
//! [`Hit`]s in any number of inputs.

use std::borrow::Cow;
use std::ops::Range;

use crate::find::found_iri::{Hit, Warning, candidate_iri, with_candidate_iri};
use crate::find::scanner::{Candidate, Kind, MIN_MAX_LEN, Options, ScanState, Scanner};
use crate::find::warnings::bidi_next_to;
use crate::iri::parse::{ParseError, Rule, Syntax, parse};
use crate::stream::line_counter::LineCounter;

/// Finds IRIs in UTF-8 text (docs/rules.md §1).
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

    /// Iterates over the candidates in `text`, valid and invalid, in order,
    /// as cheap [`Span`]s: a range and a kind, found without counting lines,
    /// validating or allocating. Validation, the IRI (with the `http://` or
    /// `mailto:` of a `www.` or e-mail span) and the full [`Hit`] are
    /// computed when asked. The spans are exactly the hits of
    /// [`find_iter`](Finder::find_iter), in the same order.
    ///
    /// ```
    /// use iriscan::{Finder, Kind};
    /// let text = "Docs: https://例え.jp/手引き, www.example.org; bad: http://a/%zz";
    /// let finder = Finder::new();
    /// let spans: Vec<_> = finder.spans(text).collect();
    /// assert_eq!(spans.len(), 3);
    /// assert_eq!((spans[0].as_str(), spans[0].kind()), ("https://例え.jp/手引き", Kind::Iri));
    /// assert_eq!(&text[spans[1].range()], "www.example.org");
    /// assert_eq!(spans[1].iri(), "http://www.example.org");
    /// assert!(spans[0].is_valid() && spans[1].is_valid());
    /// assert_eq!(spans[2].validate().unwrap_err().rule(), "pct-encoded");
    /// ```
    pub fn spans<'t>(&self, text: &'t str) -> Spans<'t> {
        Spans {
            text,
            scanner: Scanner::new(text.as_bytes(), self.opts),
            state: ScanState::default(),
        }
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
        let c = self
            .scanner
            .next_candidate(&mut self.state, self.hay.len())?;
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

/// The iterator of [`Finder::spans`].
pub struct Spans<'t> {
    text: &'t str,
    scanner: Scanner<'t>,
    state: ScanState,
}

impl<'t> Iterator for Spans<'t> {
    type Item = Span<'t>;

    fn next(&mut self) -> Option<Span<'t>> {
        let c = self
            .scanner
            .next_candidate(&mut self.state, self.text.len())?;
        Some(Span {
            // The scanner spans whole characters.
            text: self.text.get(c.start..c.end).unwrap_or_default(),
            c,
            bidi_next: bidi_next_to(self.text.as_bytes(), c.start, c.end),
        })
    }
}

impl std::fmt::Debug for Spans<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spans")
            .field("pos", &self.state.pos)
            .finish()
    }
}

/// A candidate found by [`Finder::spans`]: where it is and how it was
/// found, with everything else — validity, the IRI, a [`Hit`] — computed
/// on demand.
///
/// `Copy` and small: holding spans costs no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'t> {
    text: &'t str,
    c: Candidate,
    /// A bidi override or isolate right next to the span (docs/rules.md §7).
    bidi_next: bool,
}

impl<'t> Span<'t> {
    /// Byte offset of the span's first byte in the text.
    pub fn start(&self) -> usize {
        self.c.start
    }

    /// Byte offset just after the span's last byte in the text.
    pub fn end(&self) -> usize {
        self.c.end
    }

    /// `start()..end()`.
    pub fn range(&self) -> Range<usize> {
        self.c.start..self.c.end
    }

    /// How the candidate was found.
    pub fn kind(&self) -> Kind {
        self.c.kind()
    }

    /// The matched text, as found (it may span line breaks inside `<…>`).
    pub fn as_str(&self) -> &'t str {
        self.text
    }

    /// Whether the candidate was cut at the maximum length.
    pub fn is_truncated(&self) -> bool {
        self.c.truncated()
    }

    /// The warnings of this span (see [`Warning`]), as
    /// [`Hit::warnings`] gives them: all but `leiri` and `truncated` are
    /// computed on each call.
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + use<> {
        self.to_hit().warning_set().iter()
    }

    /// The absolute IRI the text stands for, as [`Hit::iri`] gives it:
    /// borrowed from the text for an IRI found with its scheme, allocated
    /// for a `www.` host (`http://` added), an e-mail address (`mailto:`
    /// added) or a `<…>` IRI wrapped over lines (white space removed).
    pub fn iri(&self) -> Cow<'t, str> {
        candidate_iri(self.text, &self.c)
    }

    /// Validates the IRI as [`Hit::is_valid`] does; the error's position is
    /// in [`iri`](Span::iri). Allocates nothing (but for an IRI of over a
    /// kilobyte that is not its text).
    pub fn validate(&self) -> Result<(), ParseError> {
        with_candidate_iri(self.text, &self.c, |iri| {
            parse(iri, Rule::Iri, Syntax::Text).map(|_| ())
        })
    }

    /// Whether [`validate`](Span::validate) succeeds.
    pub fn is_valid(&self) -> bool {
        self.validate().is_ok()
    }

    /// The full hit: validated, with its IRI, error offset, components and
    /// URI mapping. Lines are not counted: its [`line`](Hit::line) and
    /// [`column`](Hit::column) are 0 (use [`Finder::find_iter`] for them).
    pub fn to_hit(&self) -> Hit<'t> {
        Hit::of_text(self.text, self.c)
            .locate(self.c.start, self.c.end, 0, 0)
            .next_to_bidi(self.bidi_next)
    }
}
