//! The parallel pipeline of the [`Searcher`]: one pool round per block,
//! over three slots that take turns (see [`Searcher::threads`]).

use std::io;

use crate::find::scanner::{Candidate, LOOKAHEAD, LOOKBEHIND, ScanState};
use crate::stream::delivery::{Delivery, Locate};
use crate::stream::locating::Lines;
use crate::stream::parallel_scan::{MIN_PIECE, scan_window};
use crate::stream::read_at::Fill;
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::roll_scan::decided_up_to;
use crate::stream::searcher::Searcher;
use crate::stream::source::Source;
use crate::stream::summary::Summary;

/// The block each thread gets when scanning in parallel.
const PARALLEL_BLOCK: usize = 512 << 10;

impl Searcher {
    /// Several threads: a pipeline of one pool round per block, over three
    /// slots that take turns. In each round the pool scans the block in
    /// slot `cur` (in pieces, `found`) and locates and maps the hits of the
    /// block before (`pending`, in slot `prev`), while this thread reads
    /// the next block into slot `next` (UTF-8 in place; a file in pieces on
    /// the pool) and hands the hits mapped in the round before (`kept`) to
    /// the sink. A slot starts with the end of the slot before it — the
    /// undecided tail and the context a backward scan needs — so nothing
    /// but that tail is ever moved, and the memory is three blocks,
    /// touched once. The vectors are reused from round to round, so that a
    /// large input does not allocate afresh for every block.
    pub(super) fn run_parallel<R: Fill, D: Delivery>(
        &self,
        mut source: Source<R>,
        delivery: &mut D,
    ) -> Result<Summary, D::Error> {
        let opts = self.finder.options();
        let margin = opts.max_len + LOOKAHEAD;
        // What a slot repeats of the one before: everything after the scan
        // bound (at least `margin` bytes before the end) and the context
        // before it.
        let overlap = margin + LOOKBEHIND;
        // Read a chunk at a time; a slot gets a block of new bytes, at
        // least as many as it repeats, so that the repeating costs at most
        // one copy of the input whatever `max_len` is.
        let chunk = self.buffer_size.max(self.threads * PARALLEL_BLOCK);
        let block = chunk.max(overlap);
        // The whole slot at once where `max_len` is ordinary; else it grows
        // with what is read (a huge `max_len` does not take memory that a
        // small input would not fill).
        let mut slots: [Slot; 3] = std::array::from_fn(|_| Slot {
            buf: RollBuffer::zeroed(chunk + overlap.min(chunk)),
            base: 0,
        });
        let mut deferred = None;
        let mut found: Vec<Vec<Candidate>> = Vec::new();
        let mut pending: Vec<Vec<Candidate>> = Vec::new();
        let mut kept: Option<D::Kept> = None;
        let mut state = ScanState::default();
        let mut lines = Lines::new(self.counts_lines::<D>());
        let mut hits = 0u64;
        let mut peak = 0usize;
        let mut eof = fill_block(&mut source, &mut slots[1].buf, block, chunk, &mut deferred)?;
        loop {
            // The slots `prev`, `cur` and `next`.
            let [p, c, n] = &mut slots;
            peak = peak.max(p.buf.capacity() + c.buf.capacity() + n.buf.capacity() + source.held());
            let at_end = eof;
            let window = c.buf.bytes();
            let to = decided_up_to(window.len(), at_end, margin);
            let mut st = state.clone();
            let mut read = Ok(true);
            let scan = &mut found;
            let (located, flushed) = self.pool.in_place_scope(|scope| {
                scope.spawn(|_| {
                    scan.iter_mut().for_each(Vec::clear);
                    if to > st.pos {
                        let threads = self.threads;
                        scan_window(window, opts, &mut st, to, threads * 8, MIN_PIECE, scan);
                    }
                });
                // The reader need not be `Send`: it is read here, and the
                // offset map is only consulted once it is read.
                if !at_end {
                    let keep = window.len().saturating_sub(overlap);
                    n.buf.clear();
                    n.buf.extend(&window[keep..]);
                    n.base = c.base + keep;
                    read = fill_block(&mut source, &mut n.buf, block, chunk, &mut deferred);
                }
                // The hits of the block before last, kept by the last
                // round, go to the sink while the pool scans.
                let flushed = match kept.take() {
                    Some(k) => delivery.flush(k),
                    None => Ok(true),
                };
                if !matches!(flushed, Ok(true)) {
                    return (None, flushed);
                }
                let mut ctx = Locate {
                    lines: &mut lines,
                    window: p.buf.bytes(),
                    base: p.base,
                    transcoder: &source.transcoder,
                    pool: &self.pool,
                };
                (Some(delivery.locate(&pending, &mut ctx)), flushed)
            });
            state = st;
            let mut go_on = flushed?;
            if let (true, Some(located)) = (go_on, located) {
                hits += count(&pending);
                (go_on, kept) = delivery.keep(located)?;
            }
            std::mem::swap(&mut found, &mut pending);
            if go_on && (at_end || read.is_err()) {
                // The last block's hits (before a read error too: the bytes
                // read decide them).
                if let Some(k) = kept.take() {
                    go_on = delivery.flush(k)?;
                }
                if go_on {
                    hits += count(&pending);
                    lines.advance(p.buf.bytes(), p.base, c.base, &mut source.mapper());
                    let mut ctx = Locate {
                        lines: &mut lines,
                        window,
                        base: c.base,
                        transcoder: &source.transcoder,
                        pool: &self.pool,
                    };
                    let located = delivery.locate(&pending, &mut ctx);
                    let last;
                    (go_on, last) = delivery.keep(located)?;
                    if let (true, Some(k)) = (go_on, last) {
                        go_on = delivery.flush(k)?;
                    }
                }
            }
            eof = read?;
            if !go_on || at_end {
                return Ok(source.summary(hits, peak));
            }
            // Slot `prev` is read into next round: count its lines up to
            // where slot `cur` starts, and let the decoder forget what no
            // hit still to locate needs.
            lines.advance(p.buf.bytes(), p.base, c.base, &mut source.mapper());
            let keep = n.base - c.base;
            // The scan reached `to`: the bytes from LOOKBEHIND before its
            // position on are in slot `next`.
            debug_assert!(keep == 0 || state.pos >= keep + LOOKBEHIND);
            state.shift(keep);
            source.release(lines.released(c.base));
            slots.rotate_left(1);
        }
    }
}

/// Reads up to `want` more bytes of UTF-8 into `buf`, `chunk` bytes at a
/// time, so that memory follows what is read, not `want`; returns whether
/// the input ended. A read error after bytes this call read is kept in
/// `deferred` and returned by the next call: the bytes before it are
/// scanned first.
fn fill_block<R: Fill>(
    source: &mut Source<R>,
    buf: &mut RollBuffer,
    want: usize,
    chunk: usize,
    deferred: &mut Option<io::Error>,
) -> io::Result<bool> {
    if let Some(e) = deferred.take() {
        return Err(e);
    }
    let start = buf.len();
    let target = start + want;
    loop {
        match source.fill(buf, chunk.min(target - buf.len())) {
            Ok(false) if buf.len() < target => {}
            Err(e) if buf.len() > start => {
                *deferred = Some(e);
                return Ok(false);
            }
            ended => return ended,
        }
    }
}

/// A block of the parallel pipeline, after the end of the block before it.
struct Slot {
    buf: RollBuffer,
    /// Offset of its first byte in the (decoded) input.
    base: usize,
}

fn count(pieces: &[Vec<Candidate>]) -> u64 {
    pieces.iter().map(|p| p.len() as u64).sum()
}
