//! The parallel pipeline of the [`Searcher`]: one pool round per block,
//! over three slots that take turns (see [`Searcher::threads`]).

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::charset::transcoder::Transcoder;
use crate::find::scanner::{Candidate, LOOKAHEAD, LOOKBEHIND, Options, ScanState};
use crate::stream::delivery::{Delivery, Locate};
use crate::stream::locating::Lines;
use crate::stream::parallel_scan::{
    Checkpoint, FIRST_CHECKPOINT, MIN_PIECE, Pieces, scan_window, window_cuts,
};
use crate::stream::pool::{Pool, Runs, lock};
use crate::stream::read_at::{Fill, PieceRead, PieceReader, READ_PIECE};
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::roll_scan::decided_up_to;
use crate::stream::searcher::Searcher;
use crate::stream::source::Source;
use crate::stream::summary::Summary;

/// The block each thread gets when scanning in parallel. (1 MiB, half as
/// many rounds to hand over, was 4% faster on prose while a thread slept
/// between rounds, and no faster once it waits awake (see `help_until`),
/// for twice the memory with `--json`: 45 MiB against 23 MiB.)
const PARALLEL_BLOCK: usize = 512 << 10;

impl Searcher {
    /// Several threads: a pipeline of one pool round per block, over three
    /// slots that take turns. In each round the pool scans the block in
    /// slot `cur` (in pieces, `found`) and locates and maps the hits of the
    /// block before (`pending`, in slot `prev`), while the next block is
    /// read into slot `next` (UTF-8 in place: a file by the pool's threads,
    /// each the pieces it will scan, see [`scan_and_read`]; another input
    /// by this thread) and this thread hands the hits mapped in the round
    /// before (`kept`) to the sink. A slot starts with the end of the slot
    /// before it — the undecided tail and the context a backward scan
    /// needs — so nothing but that tail is ever moved, and the memory is three blocks,
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
        let mut marks: Vec<Vec<Checkpoint>> = Vec::new();
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
            // A file of UTF-8 is read in pieces by the threads themselves,
            // each the pieces it scans a round later (see `Runs`).
            // (Not with an error kept for the next fill, which must come
            // first; nor where a block is more than a chunk, which the old
            // way reads a chunk at a time so that memory follows the input.)
            let by_thread =
                !at_end && block == chunk && deferred.is_none() && source.reads_in_pieces();
            let mut reads: Vec<PieceRead> = Vec::new();
            let (scan, marks) = (&mut found, &mut marks);
            let (located, flushed) = if by_thread {
                // Slot `next`'s new bytes are read into the room after
                // what it repeats of this one.
                n.start_after(window, c.base, overlap);
                let room = n.buf.spare(block);
                let reader = source.reader.piece_reader().expect("read in pieces");
                let (st, reads) = (&mut st, &mut reads);
                let threads = self.threads;
                let mut ctx = p.locate(&mut lines, &source.transcoder, &self.pool);
                let done = &AtomicBool::new(false);
                self.pool.in_place_scope(|scope| {
                    scope.spawn(move |_| {
                        scan_and_read(
                            window, opts, st, to, threads, scan, marks, room, reader, reads,
                        );
                        done.store(true, Ordering::Release);
                    });
                    let flushed = flush_and_locate(delivery, &mut kept, &pending, &mut ctx);
                    // This thread, if it is one of the pool's, helps with
                    // the round's jobs, then waits for the round to end
                    // without sleeping (see `help_until`).
                    if self.pool.is_member() {
                        help_until(|| done.load(Ordering::Acquire));
                    }
                    flushed
                })
            } else {
                self.pool.in_place_scope(|scope| {
                    scope.spawn(|_| {
                        scan.iter_mut().for_each(Vec::clear);
                        if to > st.pos {
                            let threads = self.threads;
                            scan_window(window, opts, &mut st, to, threads * 8, MIN_PIECE, scan);
                        }
                    });
                    // The reader need not be `Send`: it is read here, and
                    // the offset map is only consulted once it is read.
                    if !at_end {
                        n.start_after(window, c.base, overlap);
                        read = fill_block(&mut source, &mut n.buf, block, chunk, &mut deferred);
                    }
                    let mut ctx = p.locate(&mut lines, &source.transcoder, &self.pool);
                    flush_and_locate(delivery, &mut kept, &pending, &mut ctx)
                })
            };
            if by_thread {
                // The pieces read, taken as a fill, and on as `fill_block`
                // goes (a read that came short of the block without the
                // end: an error after some bytes).
                let start = n.buf.len();
                let first = source.took_pieces(&mut n.buf, start, block, reads);
                read = fill_block_from(
                    &mut source,
                    &mut n.buf,
                    start,
                    block,
                    chunk,
                    &mut deferred,
                    first,
                );
            }
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
                    let mut ctx = c.locate(&mut lines, &source.transcoder, &self.pool);
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
    let first = source.fill(buf, chunk.min(want));
    fill_block_from(source, buf, start, want, chunk, deferred, first)
}

/// This thread's part of a round, while the pool scans: the hits kept by
/// the last round go to the sink, then the hits of the block before
/// (`pending`) are located (none if the sink says to stop or fails).
fn flush_and_locate<'h, D: Delivery>(
    delivery: &mut D,
    kept: &mut Option<D::Kept>,
    pending: &[Vec<Candidate>],
    ctx: &mut Locate<'_, 'h>,
) -> (Option<D::Located<'h>>, Result<bool, D::Error>) {
    let flushed = match kept.take() {
        Some(k) => delivery.flush(k),
        None => Ok(true),
    };
    if !matches!(flushed, Ok(true)) {
        return (None, flushed);
    }
    (Some(delivery.locate(pending, ctx)), flushed)
}

/// [`fill_block`] after its first fill, which read from `start` on and
/// gave `first`.
fn fill_block_from<R: Fill>(
    source: &mut Source<R>,
    buf: &mut RollBuffer,
    start: usize,
    want: usize,
    chunk: usize,
    deferred: &mut Option<io::Error>,
    first: io::Result<bool>,
) -> io::Result<bool> {
    let target = start + want;
    let mut filled = first;
    loop {
        match filled {
            Ok(false) if buf.len() < target => {}
            Err(e) if buf.len() > start => {
                *deferred = Some(e);
                return Ok(false);
            }
            ended => return ended,
        }
        filled = source.fill(buf, chunk.min(target - buf.len()));
    }
}

/// A round's work on the pool when the threads read the next block
/// themselves: the pieces of `window` (in `state.pos..to`) are scanned
/// into `found` and `marks` and the pieces of `room` read through
/// `reader` into `reads`, by one job for each thread of the pool; the
/// scan's pieces are then joined. The job on thread `i` of `n` takes the
/// `i`-th of `n` even runs of each first (see [`Runs`]), so that the bytes
/// it scans are, give or take the slot's repeated head, those it read a
/// round before; then what is left of the others' runs (a thread held up
/// leaves its runs to the others).
#[allow(clippy::too_many_arguments)]
fn scan_and_read(
    window: &[u8],
    opts: Options,
    state: &mut ScanState,
    to: usize,
    threads: usize,
    found: &mut Vec<Vec<Candidate>>,
    marks: &mut Vec<Vec<Checkpoint>>,
    room: &mut [u8],
    reader: &dyn PieceReader,
    reads: &mut Vec<PieceRead>,
) {
    let cuts = if to > state.pos {
        window_cuts(window, state, to, threads * 8, MIN_PIECE)
    } else {
        Vec::new()
    };
    let pieces = Pieces::new(window, opts, state, &cuts, FIRST_CHECKPOINT);
    let count = pieces.count();
    found.resize_with(count, Vec::new);
    marks.resize_with(count, Vec::new);
    let scans: Vec<Mutex<_>> = found
        .iter_mut()
        .zip(marks.iter_mut())
        .map(Mutex::new)
        .collect();
    let room: Vec<Mutex<(&mut [u8], Option<PieceRead>)>> = room
        .chunks_mut(READ_PIECE)
        .map(|p| Mutex::new((p, None)))
        .collect();
    let n = rayon::current_num_threads();
    let (scan_runs, read_runs) = (Runs::new(scans.len(), n), Runs::new(room.len(), n));
    // The jobs not yet done.
    let left = AtomicUsize::new(scans.len() + room.len());
    let scan = |k: usize| {
        let (found, marks) = &mut *lock(&scans[k]);
        pieces.scan(k, found, marks);
        left.fetch_sub(1, Ordering::Release);
    };
    let read = |j: usize| {
        let (piece, read) = &mut *lock(&room[j]);
        *read = Some(reader.read_piece(j * READ_PIECE, piece));
        left.fetch_sub(1, Ordering::Release);
    };
    // A job for each thread, which takes the runs of the thread it runs
    // on: its own pieces first — the bytes it read, then those it will
    // scan — then what the others have not come to. (Jobs any thread may
    // take, not a broadcast: a pool thread busy elsewhere, or blocked on
    // the sink, only leaves its runs to the others.)
    let work = || {
        let i = rayon::current_thread_index().unwrap_or(0);
        while let Some(k) = scan_runs.own(i) {
            scan(k);
        }
        while let Some(j) = read_runs.own(i) {
            read(j);
        }
        while let Some(k) = scan_runs.other(i) {
            scan(k);
        }
        while let Some(j) = read_runs.other(i) {
            read(j);
        }
    };
    rayon::scope(|s| {
        for _ in 1..n {
            s.spawn(|_| work());
        }
        work();
        // Wait, without sleeping, for the pieces the other threads are
        // still scanning or reading.
        help_until(|| left.load(Ordering::Acquire) == 0);
    });
    drop(scans);
    *reads = room
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner).1)
        .collect();
    if count > 0 {
        pieces.join(state, marks, found);
    }
}

/// How long a thread of the pool waits awake, with no job to run, for the
/// rest of a round.
const AWAKE: Duration = Duration::from_micros(200);

/// On a thread of the pool: runs the pool's jobs until `ready`, and spins
/// while there are none, for up to [`AWAKE`] at a time; then returns,
/// leaving the rest of the wait to rayon, which soon puts a waiting thread
/// to sleep. Returning does not mean `ready`: the caller still waits (here
/// the rayon scope does).
///
/// A round ends with one thread waiting for another's last piece, and
/// then for this thread's hand-over; a thread woken from sleep there took
/// 30–140 µs on our 2-core VM, where a round of prose takes 300 µs. Two
/// sleeps a round cost prose a tenth of its time (README, "Where the time
/// goes", the Threads item). A thread outside the pool must not spin: it
/// would take a core from the pool's threads.
fn help_until(ready: impl Fn() -> bool) {
    debug_assert!(rayon::current_thread_index().is_some());
    let mut idle_since = Instant::now();
    while !ready() {
        // The pool's queues and the clock every 32 looks at `ready`: a
        // look costs a load, a look for a job a walk over the queues. (No
        // `spin_loop` hint: a loop of pauses is what makes a VM's host
        // take the core away, and it measured no better.)
        for _ in 0..32 {
            if ready() {
                return;
            }
        }
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            idle_since = Instant::now();
        } else if idle_since.elapsed() > AWAKE {
            return;
        }
    }
}

/// A block of the parallel pipeline, after the end of the block before it.
struct Slot {
    buf: RollBuffer,
    /// Offset of its first byte in the (decoded) input.
    base: usize,
}

impl Slot {
    /// Starts the slot after `window`, the slot before (at `base`): with
    /// what it repeats of it, its last `overlap` bytes.
    fn start_after(&mut self, window: &[u8], base: usize, overlap: usize) {
        let keep = window.len().saturating_sub(overlap);
        self.buf.clear();
        self.buf.extend(&window[keep..]);
        self.base = base + keep;
    }

    /// What locating the hits of this slot's block needs.
    fn locate<'a, 'h>(
        &'h self,
        lines: &'a mut Lines,
        transcoder: &'a Transcoder,
        pool: &'a Pool,
    ) -> Locate<'a, 'h> {
        Locate {
            lines,
            window: self.buf.bytes(),
            base: self.base,
            transcoder,
            pool,
        }
    }
}

fn count(pieces: &[Vec<Candidate>]) -> u64 {
    pieces.iter().map(|p| p.len() as u64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pool whose one thread alone can take the jobs spawned on it.
    fn one_thread_pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
    }

    /// Waiting on a thread of the pool runs the pool's jobs: a job only
    /// this thread can take (a pool of one) is run, and the wait ends when
    /// it makes `ready` true.
    #[test]
    fn a_wait_on_the_pool_runs_the_job_it_waits_for() {
        let pool = one_thread_pool();
        let ran = AtomicBool::new(false);
        pool.install(|| {
            rayon::scope(|s| {
                s.spawn(|_| ran.store(true, Ordering::Release));
                help_until(|| ran.load(Ordering::Acquire));
                assert!(
                    ran.load(Ordering::Acquire),
                    "the spawned job ran in the wait"
                );
            });
        });
    }

    /// The time awake counts from the last job run: a wait that ran a
    /// long job stays awake for the hand-over after it.
    #[test]
    fn a_wait_stays_awake_after_the_last_job_it_ran() {
        let pool = one_thread_pool();
        let job = Duration::from_millis(1);
        let start = Instant::now();
        pool.install(|| {
            rayon::scope(|s| {
                s.spawn(|_| std::thread::sleep(job));
                help_until(|| false);
            });
        });
        assert!(start.elapsed() >= job + AWAKE);
    }

    /// A wait for what never comes ends (after `AWAKE`), leaving the rest
    /// of the wait to rayon.
    #[test]
    fn a_wait_for_nothing_gives_up() {
        let pool = one_thread_pool();
        let start = Instant::now();
        pool.install(|| help_until(|| false));
        assert!(start.elapsed() >= AWAKE);
    }
}
