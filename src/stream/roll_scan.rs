//! The scan of one thread over a roll buffer: decide every trigger the
//! bytes at hand decide, deliver the candidates in order (placed as hits,
//! or only judged when counting), roll the undecided tail to the front.
//! The [`Searcher`](crate::Searcher) fills it from a reader, the
//! [`PushScanner`](crate::PushScanner) from pushed chunks.

use crate::find::scanner::{LOOKAHEAD, LOOKBEHIND, Options, ScanState, Scanner};
use crate::stream::locating::{Found, Lines};
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::settled::Settled;
use crate::stream::source::Source;

/// The scan of one thread over a roll buffer, between fills: the bytes at
/// hand, where the scan is, the lines counted so far. The searcher fills
/// it from a reader, the [`PushScanner`](crate::PushScanner) from the
/// chunks it is given.
pub(super) struct RollScan {
    opts: Options,
    /// The least a roll drops (see [`MIN_ROLL`]).
    min_roll: usize,
    /// Bytes after the scan bound that a decision may need.
    margin: usize,
    /// The decoded input from offset `base` on.
    pub(super) buf: RollBuffer,
    base: usize,
    state: ScanState,
    lines: Lines,
    /// With [`Searcher::incremental`](crate::Searcher::incremental): what
    /// the bytes at hand settle before the general rule does.
    settled: Option<Settled>,
    /// Hits delivered.
    pub(super) hits: u64,
    /// The most bytes the buffers held.
    pub(super) peak: usize,
}

impl RollScan {
    /// `incremental`: also decide what the bytes at hand settle (see
    /// [`Settled`]), for input read as it arrives.
    pub(super) fn new(
        opts: Options,
        block: usize,
        line_numbers: bool,
        incremental: bool,
    ) -> RollScan {
        RollScan {
            opts,
            min_roll: block.min(MIN_ROLL),
            margin: opts.max_len + LOOKAHEAD,
            buf: RollBuffer::default(),
            base: 0,
            state: ScanState::default(),
            lines: Lines::new(line_numbers),
            settled: incremental.then(Settled::default),
            hits: 0,
            peak: 0,
        }
    }

    /// Hands every candidate that the bytes at hand decide (all of them
    /// when `at_end`) to `deliver`, in order, to be placed as a hit or only
    /// judged; returns whether to go on.
    pub(super) fn scan<R, E>(
        &mut self,
        source: &Source<R>,
        at_end: bool,
        deliver: &mut impl FnMut(Found<'_, '_, '_>) -> Result<bool, E>,
    ) -> Result<bool, E> {
        self.peak = self.peak.max(self.buf.capacity() + source.held());
        let mut to = decided_up_to(self.buf.len(), at_end, self.margin);
        if let Some(settled) = &mut self.settled
            && !at_end
        {
            to = to.max(settled.decided_up_to(self.buf.bytes(), self.base));
        }
        let mut result = Ok(true);
        if to > self.state.pos {
            let window = self.buf.bytes();
            let (lines, hits, base) = (&mut self.lines, &mut self.hits, self.base);
            let mut mapper = source.mapper();
            Scanner::new(window, self.opts).scan(&mut self.state, to, &mut |candidate| {
                *hits += 1;
                // (Only an answer that stops the scan is kept: storing
                // every `Ok(true)` over the last answer cost a drop of the
                // last one, a test of its error, for every hit.)
                match deliver(Found {
                    candidate: &candidate,
                    window,
                    base,
                    lines,
                    mapper: &mut mapper,
                }) {
                    Ok(true) => true,
                    stop => {
                        result = stop;
                        false
                    }
                }
            });
        }
        result
    }

    /// Rolls: keeps the undecided tail and the context before it — once
    /// there is enough to drop, so that tiny blocks do not move the tail
    /// for every byte — and lets the decoder forget what no hit still
    /// needs.
    pub(super) fn roll<R>(&mut self, source: &mut Source<R>) {
        let keep = self
            .state
            .pos
            .saturating_sub(LOOKBEHIND)
            .min(self.buf.len());
        if keep >= self.min_roll {
            self.lines.advance(
                self.buf.bytes(),
                self.base,
                self.base + keep,
                &mut source.mapper(),
            );
            self.buf.drop_front(keep);
            self.base += keep;
            self.state.shift(keep);
            source.release(self.lines.released(self.base));
        }
    }
}

/// Where to scan triggers up to in `len` bytes at hand: every trigger whose
/// outcome they decide (all of them at the end of the input; else those
/// with `margin` bytes after them).
pub(super) fn decided_up_to(len: usize, at_end: bool, margin: usize) -> usize {
    if at_end {
        len
    } else {
        len.saturating_sub(margin)
    }
}

/// The least a roll drops (unless the block is smaller).
const MIN_ROLL: usize = 4096;
