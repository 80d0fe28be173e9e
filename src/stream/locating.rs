//! Giving hits their place in the input: line, column and byte offsets in
//! the original (not decoded) bytes, counted incrementally as hits come in
//! order.

use crate::charset::detect::Charset;

use crate::charset::transcoder::{OffsetMapper, Transcoder};
use crate::find::found_iri::{Hit, candidate_is_valid};
use crate::find::scanner::Candidate;
use crate::stream::line_counter::LineCounter;

/// Line numbers and columns of hits; columns count bytes of the original
/// input, so the start of each line is mapped back when it is found.
#[derive(Default)]
pub(super) struct Lines {
    /// Lines are counted (else every hit is at line 0, column 0).
    pub(super) enabled: bool,
    pub(super) counter: LineCounter,
    /// Original offset of the current line's start.
    pub(super) line_start_original: usize,
}

impl Lines {
    pub(super) fn new(enabled: bool) -> Lines {
        Lines {
            enabled,
            ..Lines::default()
        }
    }

    pub(super) fn advance(
        &mut self,
        window: &[u8],
        base: usize,
        pos: usize,
        mapper: &mut Mapper<'_>,
    ) {
        if !self.enabled {
            return;
        }
        let before = self.counter.line_start();
        self.counter.advance(window, base, pos);
        if self.counter.line_start() != before {
            self.line_start_original = mapper.start(self.counter.line_start());
        }
    }

    /// The hit of candidate `c` of `window` (which starts at `base` in the
    /// decoded input), given its place in the input: original offsets,
    /// line, column.
    pub(super) fn place<'h>(
        &mut self,
        c: Candidate,
        window: &'h [u8],
        base: usize,
        mapper: &mut Mapper<'_>,
    ) -> Hit<'h> {
        self.advance(window, base, base + c.start, mapper);
        let original = mapper.range(base + c.start, base + c.end);
        let (line, column) = if self.enabled {
            (
                self.counter.line(),
                (original.start - self.line_start_original) as u64 + 1,
            )
        } else {
            (0, 0)
        };
        Hit::new(window, c)
            .locate(original.start, original.end, line, column)
            .in_document(mapper.charset)
    }

    /// How far back the decoder may forget: nothing the line start or a
    /// later hit may still need.
    pub(super) fn released(&self, base: usize) -> usize {
        if self.enabled {
            base.min(self.counter.counted())
        } else {
            base
        }
    }
}

/// A candidate the scan decided, not yet a hit: a delivery that hands on
/// hits places it ([`Found::hit`]); one that counts only judges it
/// ([`Found::is_valid`]) and places nothing.
pub(super) struct Found<'a, 'h, 'm> {
    /// Lent, not copied: a count reads one word of it (whether the scanner
    /// proved it valid). A copy loaded its two offsets as one 16-byte word
    /// that the scanner had just stored as two, which the processor cannot
    /// forward (1.6% of the instructions of a count of link-dense text
    /// went too).
    pub(super) candidate: &'a Candidate,
    /// The window the candidate is in, from `base` in the decoded input.
    pub(super) window: &'h [u8],
    pub(super) base: usize,
    pub(super) lines: &'a mut Lines,
    pub(super) mapper: &'a mut Mapper<'m>,
}

impl<'h> Found<'_, 'h, '_> {
    /// The hit, placed in the input (see [`Lines::place`]).
    #[inline]
    pub(super) fn hit(self) -> Hit<'h> {
        self.lines
            .place(*self.candidate, self.window, self.base, self.mapper)
    }

    /// Whether the hit would be valid ([`Hit::is_valid`]), without
    /// making it.
    #[inline]
    pub(super) fn is_valid(&self) -> bool {
        candidate_is_valid(self.window, self.candidate)
    }
}

/// Maps UTF-8 offsets of the decoded text to offsets of the input, for
/// lookups in increasing order (the transcoder's mapper keeps its place).
pub(super) struct Mapper<'t> {
    pub(super) inner: OffsetMapper<'t>,
    pub(super) charset: Charset,
    /// For UTF-8 read as it is (the transcoder's identity), the length of
    /// its byte order mark: an offset of the text is then the input's
    /// offset less it, and a hit's range is mapped without asking the
    /// transcoder (most inputs; a tenth of the time placing a hit took).
    identity_bom: Option<usize>,
}

impl Mapper<'_> {
    pub(super) fn of(transcoder: &Transcoder) -> Mapper<'_> {
        let charset = *transcoder.charset();
        Mapper {
            inner: transcoder.mapper(),
            charset,
            identity_bom: transcoder.is_identity().then(|| charset.bom_len()),
        }
    }

    pub(super) fn start(&mut self, utf8: usize) -> usize {
        // The map answers for every offset not released; a released one
        // cannot be asked for (see `Lines::released`).
        self.inner.original_start(utf8).unwrap_or(0)
    }

    /// The input bytes of a hit's text: its characters, and in ISO-2022-JP
    /// the escape back to ASCII that directly follows them
    /// (docs/rules.md §1.5).
    #[inline]
    pub(super) fn range(&mut self, start: usize, end: usize) -> std::ops::Range<usize> {
        if let Some(bom) = self.identity_bom {
            // The identity maps every offset it produced to itself past
            // the BOM, and has no escapes.
            debug_assert_eq!(
                Some(start + bom..end + bom),
                self.inner.original_range(start..end),
                "identity map"
            );
            return start + bom..end + bom;
        }
        let mut r = self.inner.original_range(start..end).unwrap_or(start..end);
        if !r.is_empty() {
            r.end += self.inner.escape_to_ascii_at(r.end);
        }
        r
    }
}
