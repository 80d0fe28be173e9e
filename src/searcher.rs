//! Scanning inputs of any size in bounded memory: readers, files, stdin.
//!
//! The [`Searcher`] keeps a roll buffer, like ripgrep's searcher: it reads
//! a block, lets the scanner decide every trigger whose outcome cannot
//! depend on bytes not yet read — a trigger's candidate ends at most
//! `max_len` bytes after it, and the scan looks at most a few bytes further
//! ([`LOOKAHEAD`]) — then moves the undecided tail (plus [`LOOKBEHIND`]
//! bytes of context) to the front and refills. With several threads, three
//! buffers take turns instead, each starting with the undecided tail of the
//! one before (see [`Searcher::threads`]). Memory is the buffer size plus
//! the maximum IRI length, whatever the input; results are identical to
//! scanning the whole input as one slice, whatever the read sizes (the
//! tests run every path and compare).

use std::io::{self, Read};

use encoding_rs::Encoding;
use rayon::prelude::*;

use crate::charset::{Charset, DETECTION_PREFIX_LEN, detect};
use crate::finder::Finder;
use crate::hit::Hit;
use crate::lines::{LineCounter, count_region};
use crate::parallel::{MIN_PIECE, scan_window};
use crate::read_at::{Fill, Positional, ReadAt, Sequential};
use crate::scanner::{Candidate, LOOKAHEAD, LOOKBEHIND, ScanState, Scanner};
use crate::transcode::{OffsetMapper, Transcoder};

/// The default size of a read: 64 KiB.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// What a scan saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Bytes of input read.
    pub bytes: u64,
    /// Hits delivered to the sink (valid and invalid).
    pub hits: u64,
    /// The most bytes the buffers ever held.
    pub peak_buffer: usize,
    /// The charset the input was decoded from, and how it was chosen.
    pub charset: Charset,
    /// Malformed byte sequences replaced by U+FFFD while decoding (each
    /// ends a candidate; offsets are not shifted by them).
    pub replacements: u64,
}

/// Scans readers in bounded memory with a [`Finder`]'s rules, in any
/// charset of the WHATWG Encoding Standard.
///
/// The charset is the one given with [`encoding`](Searcher::encoding), or
/// else chosen from the first 64 KiB (PRODUCT.md §3): a BOM, a declaration
/// (MIME `Content-Type`, HTML `<meta>`, XML), valid UTF-8, or chardetng's
/// guess. The scanner reads the UTF-8 it decodes to; every hit's `start`
/// and `end` are nevertheless byte offsets into the input as given (its
/// column too), and its URI maps an http(s) query in that charset
/// (RFC 3987bis §3.5) when the hit is mapped with
/// [`Summary::charset`]'s encoding.
///
/// ```
/// use iriscan::{Finder, Searcher};
/// let text = "line one\nsee https://example.org/a and mail bob@example.org\n";
/// let mut found = Vec::new();
/// Searcher::new(Finder::new())
///     .scan_reader(text.as_bytes(), |hit| {
///         found.push((hit.line(), hit.column(), hit.iri().to_string()));
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(found, [
///     (2, 5, "https://example.org/a".to_string()),
///     (2, 36, "mailto:bob@example.org".to_string()),
/// ]);
///
/// // Shift_JIS: offsets are into the Shift_JIS bytes.
/// let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("東京: http://例え.jp/検索?q=東京");
/// let mut hits = Vec::new();
/// let summary = Searcher::new(Finder::new())
///     .encoding(Some(encoding_rs::SHIFT_JIS))
///     .scan_reader(&sjis[..], |hit| {
///         hits.push((hit.start(), hit.end(), hit.iri().to_string()));
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(hits, [(6, sjis.len(), "http://例え.jp/検索?q=東京".to_string())]);
/// // …and the query of its URI is mapped in Shift_JIS (RFC 3987bis §3.5):
/// let mut uris = Vec::new();
/// Searcher::new(Finder::new())
///     .encoding(Some(encoding_rs::SHIFT_JIS))
///     .scan_reader(&sjis[..], |hit| {
///         uris.push(hit.to_uri(&iriscan::UriOptions::new()).uri.into_owned());
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(uris, ["http://xn--r8jz45g.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E"]);
/// assert_eq!(summary.charset.name(), "Shift_JIS");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searcher {
    finder: Finder,
    buffer_size: usize,
    threads: usize,
    encoding: Option<&'static Encoding>,
    line_numbers: bool,
}

impl Searcher {
    /// A searcher with the default buffer size (64 KiB), one thread and
    /// charset detection.
    pub fn new(finder: Finder) -> Searcher {
        Searcher {
            finder,
            buffer_size: DEFAULT_BUFFER_SIZE,
            threads: 1,
            encoding: None,
            line_numbers: true,
        }
    }

    /// Whether to count lines for [`Hit::line`] and [`Hit::column`]
    /// (default on). Counting reads every byte once more; a caller that
    /// prints neither turns it off, and hits then say line 0, column 0.
    pub fn line_numbers(mut self, yes: bool) -> Searcher {
        self.line_numbers = yes;
        self
    }

    /// How many bytes to read at a time (at least 1). The buffer holds this
    /// much plus the finder's maximum IRI length and a little context.
    pub fn buffer_size(mut self, bytes: usize) -> Searcher {
        self.buffer_size = bytes.max(1);
        self
    }

    /// How many threads scan each block (default 1). With more than one,
    /// blocks are read `threads` × 512 KiB at a time (unless
    /// [`buffer_size`](Searcher::buffer_size) is set larger) and go through
    /// a pipeline with one rayon round per block: the pool scans block k in
    /// pieces cut at white space and locates and maps the hits of block
    /// k-1, while this thread reads and decodes block k+1 (UTF-8 straight
    /// into its buffer; a file given to [`scan_file`](Searcher::scan_file)
    /// is read in pieces on the pool) and hands the mapped hits of block
    /// k-2 to the sink. Three buffers of a block take turns, each starting
    /// with the last `max_len` + 96 bytes of the one before (what a trigger
    /// near the end still needs), so that nothing else is ever moved; a
    /// block is at least that long too (with a `max_len` above `threads` ×
    /// 512 KiB, it is read that much at a time, and memory follows the
    /// input).
    /// Hits come out in the same order as with one thread.
    ///
    /// The pool is rayon's global pool. The calling thread reads and then
    /// waits for the pool: for the best throughput, make it one of the
    /// pool's threads (`rayon::ThreadPoolBuilder::use_current_thread`, as
    /// the command line does), so that it works on the pool's jobs while it
    /// waits instead of competing with a full pool for the cores.
    pub fn threads(mut self, threads: usize) -> Searcher {
        self.threads = threads.max(1);
        self
    }

    /// The input's charset (`None`, the default: detect it). A BOM of that
    /// same charset is skipped.
    pub fn encoding(mut self, encoding: Option<&'static Encoding>) -> Searcher {
        self.encoding = encoding;
        self
    }

    /// The finder whose rules this searcher applies.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Scans everything `reader` yields, calling `sink` with each hit
    /// (valid and invalid, in order; offsets, line and column refer to the
    /// whole input). The sink returns `Ok(false)` to stop early; its errors
    /// and read errors end the scan and are returned.
    pub fn scan_reader<R, F>(&self, reader: R, sink: F) -> io::Result<Summary>
    where
        R: Read,
        F: FnMut(&Hit<'_>) -> io::Result<bool>,
    {
        self.run(Sequential(reader), &mut Borrowed(sink))
    }

    /// Like [`scan_reader`](Searcher::scan_reader), for input that can be
    /// read at any offset — a [`File`](std::fs::File) — from its first
    /// byte. With several threads, each block is read in pieces on the pool
    /// (beside the scanning of the block before) instead of by the calling
    /// thread alone.
    ///
    /// ```
    /// use iriscan::{Finder, Searcher};
    /// let path = std::env::temp_dir().join(format!("iriscan-doc-{}.txt", std::process::id()));
    /// std::fs::write(&path, "see https://example.org/ü\n".repeat(100_000)).unwrap();
    /// let file = std::fs::File::open(&path).unwrap();
    /// let mut count = 0;
    /// let summary = Searcher::new(Finder::new())
    ///     .threads(2)
    ///     .scan_file(&file, |hit| {
    ///         assert_eq!(hit.iri(), "https://example.org/ü");
    ///         count += 1;
    ///         Ok(true)
    ///     })
    ///     .unwrap();
    /// assert_eq!((count, summary.bytes), (100_000, 2_700_000));
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn scan_file<F, S>(&self, file: &F, sink: S) -> io::Result<Summary>
    where
        F: ReadAt + ?Sized,
        S: FnMut(&Hit<'_>) -> io::Result<bool>,
    {
        let input = Positional::new(file, self.threads > 1);
        self.run(input, &mut Borrowed(sink))
    }

    /// [`scan_reader_map`](Searcher::scan_reader_map) for input that can be
    /// read at any offset, as [`scan_file`](Searcher::scan_file) reads it.
    pub fn scan_file_map<F, T, M, S>(&self, file: &F, map: M, sink: S) -> io::Result<Summary>
    where
        F: ReadAt + ?Sized,
        T: Send,
        M: Fn(&Hit<'_>) -> T + Sync,
        S: FnMut(T) -> io::Result<bool>,
    {
        let input = Positional::new(file, self.threads > 1);
        self.run(input, &mut Mapped { map, sink })
    }

    /// Like [`scan_reader`](Searcher::scan_reader), but each hit first goes
    /// through `map`, which runs on the pool when scanning with several
    /// threads (rendering output, mapping URIs: work that should scale
    /// with the threads); `sink` then receives the results in input order.
    ///
    /// ```
    /// use iriscan::{Finder, Searcher, UriOptions};
    /// let text = "a https://例え.テスト/ b https://example.org/ü\n".repeat(1000);
    /// let mut uris = Vec::new();
    /// Searcher::new(Finder::new())
    ///     .threads(2)
    ///     .scan_reader_map(
    ///         text.as_bytes(),
    ///         |hit| hit.to_uri(&UriOptions::new()).uri.into_owned(),
    ///         |uri| {
    ///             uris.push(uri);
    ///             Ok(true)
    ///         },
    ///     )
    ///     .unwrap();
    /// assert_eq!(uris.len(), 2000);
    /// assert_eq!(uris[1], "https://example.org/%C3%BC");
    /// ```
    pub fn scan_reader_map<R, T, M, F>(&self, reader: R, map: M, sink: F) -> io::Result<Summary>
    where
        R: Read,
        T: Send,
        M: Fn(&Hit<'_>) -> T + Sync,
        F: FnMut(T) -> io::Result<bool>,
    {
        self.run(Sequential(reader), &mut Mapped { map, sink })
    }

    fn run<R: Fill, D: Delivery>(&self, reader: R, delivery: &mut D) -> io::Result<Summary> {
        let source = Source::open(reader, self.encoding)?;
        if self.threads > 1 {
            self.run_parallel(source, delivery)
        } else {
            self.run_sequential(source, delivery)
        }
    }

    /// One thread: a roll buffer, each hit delivered as the scan finds it.
    fn run_sequential<R: Fill, D: Delivery>(
        &self,
        mut source: Source<R>,
        delivery: &mut D,
    ) -> io::Result<Summary> {
        let opts = self.finder.options();
        let block = self.buffer_size;
        // Bytes after the scan bound that a decision may need.
        let margin = opts.max_len + LOOKAHEAD;
        let mut buf = RollBuffer::default();
        let mut base = 0usize;
        let mut state = ScanState::default();
        let mut lines = Lines::new(self.line_numbers);
        let mut hits = 0u64;
        let mut peak = 0usize;
        let mut eof = source.fill(&mut buf, block)?;
        loop {
            peak = peak.max(buf.capacity() + source.held());
            let to = decided_up_to(buf.len(), eof, margin);
            let mut result = Ok(true);
            if to > state.pos {
                let window = buf.bytes();
                let mut scanner = Scanner::new(window, opts);
                let mut mapper = source.mapper();
                scanner.scan(&mut state, to, &mut |c| {
                    let hit = lines.place(
                        Hit::new(window, c),
                        window,
                        base,
                        c.start,
                        c.end,
                        &mut mapper,
                    );
                    hits += 1;
                    result = delivery.one(&hit);
                    matches!(result, Ok(true))
                });
            }
            if !result? || eof {
                return Ok(source.summary(hits, peak));
            }
            // Roll: keep the undecided tail and the context before it —
            // once there is enough to drop, so that tiny blocks do not move
            // the tail for every byte.
            let keep = state.pos.saturating_sub(LOOKBEHIND).min(buf.len());
            if keep >= block.min(MIN_ROLL) {
                lines.advance(buf.bytes(), base, base + keep, &mut source.mapper());
                buf.drop_front(keep);
                base += keep;
                state.shift(keep);
                source.release(lines.released(base));
            }
            eof = source.fill(&mut buf, block)?;
        }
    }

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
    fn run_parallel<R: Fill, D: Delivery>(
        &self,
        mut source: Source<R>,
        delivery: &mut D,
    ) -> io::Result<Summary> {
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
        let mut lines = Lines::new(self.line_numbers);
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
            let (located, flushed) = rayon::in_place_scope(|scope| {
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
                    return (Vec::new(), flushed);
                }
                let mut ctx = Locate {
                    lines: &mut lines,
                    window: p.buf.bytes(),
                    base: p.base,
                    transcoder: &source.transcoder,
                };
                (delivery.locate(&pending, &mut ctx), flushed)
            });
            state = st;
            let mut go_on = flushed?;
            if go_on {
                hits += count(&pending);
                (go_on, kept) = delivery.keep(located)?;
            } else {
                drop(located);
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

/// Where to scan triggers up to in `len` bytes at hand: every trigger whose
/// outcome they decide (all of them at the end of the input; else those
/// with `margin` bytes after them).
fn decided_up_to(len: usize, at_end: bool, margin: usize) -> usize {
    if at_end {
        len
    } else {
        len.saturating_sub(margin)
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

/// Where located hits go: one at a time (sequential scanning), or a
/// window's pieces at once (parallel scanning), located and mapped on the
/// pool, then delivered in order.
trait Delivery {
    /// What locating a hit gives, to be delivered.
    type Item<'h>: Send;

    fn one(&mut self, hit: &Hit<'_>) -> io::Result<bool>;

    /// Locates (and maps) the hits of a window's pieces, on the pool.
    fn locate<'h>(
        &self,
        pieces: &[Vec<Candidate>],
        ctx: &mut Locate<'_, 'h>,
    ) -> Vec<Vec<Self::Item<'h>>>;

    /// Located hits that own their data, kept from one parallel round to
    /// be delivered during the next (while the pool scans the next window),
    /// so that the sink does not run while the pool waits.
    type Kept;

    /// Hands located hits to the sink, in order, or keeps them for
    /// [`flush`](Delivery::flush) (hits that borrow the buffer are
    /// delivered at once); returns whether to go on, and what was kept.
    fn keep(&mut self, located: Vec<Vec<Self::Item<'_>>>)
    -> io::Result<(bool, Option<Self::Kept>)>;

    /// Hands what [`keep`](Delivery::keep) kept to the sink, in order;
    /// returns whether to go on.
    fn flush(&mut self, kept: Self::Kept) -> io::Result<bool>;
}

/// The hits themselves, borrowed, to a sink (`scan_reader`).
struct Borrowed<F>(F);

impl<F: FnMut(&Hit<'_>) -> io::Result<bool>> Delivery for Borrowed<F> {
    type Item<'h> = Hit<'h>;

    fn one(&mut self, hit: &Hit<'_>) -> io::Result<bool> {
        (self.0)(hit)
    }

    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<Hit<'h>>> {
        ctx.locate(pieces, |hit| hit)
    }

    type Kept = ();

    fn keep(&mut self, located: Vec<Vec<Hit<'_>>>) -> io::Result<(bool, Option<()>)> {
        for hit in located.iter().flatten() {
            if !(self.0)(hit)? {
                return Ok((false, None));
            }
        }
        Ok((true, None))
    }

    fn flush(&mut self, (): ()) -> io::Result<bool> {
        Ok(true)
    }
}

/// The hits mapped (on the pool, for a window), to a sink
/// (`scan_reader_map`).
struct Mapped<M, F> {
    map: M,
    sink: F,
}

impl<T, M, F> Delivery for Mapped<M, F>
where
    T: Send,
    M: Fn(&Hit<'_>) -> T + Sync,
    F: FnMut(T) -> io::Result<bool>,
{
    type Item<'h> = T;

    fn one(&mut self, hit: &Hit<'_>) -> io::Result<bool> {
        (self.sink)((self.map)(hit))
    }

    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<T>> {
        let map = &self.map;
        ctx.locate(pieces, |hit| map(&hit))
    }

    type Kept = Vec<Vec<T>>;

    fn keep(&mut self, located: Vec<Vec<T>>) -> io::Result<(bool, Option<Vec<Vec<T>>>)> {
        Ok((true, Some(located)))
    }

    fn flush(&mut self, located: Vec<Vec<T>>) -> io::Result<bool> {
        for t in located.into_iter().flatten() {
            if !(self.sink)(t)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// What locating a window's hits needs.
struct Locate<'a, 'h> {
    lines: &'a mut Lines,
    window: &'h [u8],
    base: usize,
    transcoder: &'a Transcoder,
}

impl<'h> Locate<'_, 'h> {
    /// Gives the hits of a window's pieces their place in the input
    /// (original offsets, line, column) and applies `f`, on the pool: the
    /// newlines between the pieces' first hits are counted in parallel and
    /// summed, and each piece is located from its seed. Leaves `lines` as
    /// locating the hits one by one would.
    fn locate<T, F>(&mut self, pieces: &[Vec<Candidate>], f: F) -> Vec<Vec<T>>
    where
        T: Send,
        F: Fn(Hit<'h>) -> T + Sync,
    {
        let (window, base, transcoder) = (self.window, self.base, self.transcoder);
        let pieces: Vec<&Vec<Candidate>> = pieces.iter().filter(|p| !p.is_empty()).collect();
        if pieces.is_empty() {
            return Vec::new();
        }
        let starts: Vec<usize> = pieces.iter().map(|p| base + p[0].start).collect();
        // The seed of each piece: the line counter at its first hit.
        let lines = &mut *self.lines;
        lines.advance(window, base, starts[0], &mut Mapper::of(transcoder));
        let mut seeds = vec![(lines.counter.clone(), lines.line_start_original)];
        if lines.enabled {
            let gaps: Vec<(u64, Option<usize>)> = starts
                .par_windows(2)
                .map(|w| count_region(window, base, w[0], w[1]))
                .collect();
            for (k, &(n, last)) in gaps.iter().enumerate() {
                let (prev, prev_original) = &seeds[k];
                let next = prev.after(n, last, starts[k + 1]);
                // A new line start is mapped by the piece's own mapper.
                let original = if last.is_some() {
                    usize::MAX
                } else {
                    *prev_original
                };
                seeds.push((next, original));
            }
        } else {
            seeds.resize(starts.len(), seeds[0].clone());
        }
        let enabled = lines.enabled;
        let located: Vec<(Vec<T>, Lines)> = pieces
            .into_par_iter()
            .zip(seeds.into_par_iter())
            // A job a piece (see `parallel::scan_window`).
            .with_max_len(1)
            .map(|(piece, (counter, original))| {
                let mut mapper = Mapper::of(transcoder);
                let line_start_original = if original == usize::MAX {
                    mapper.start(counter.line_start())
                } else {
                    original
                };
                let mut local = Lines {
                    enabled,
                    counter,
                    line_start_original,
                };
                let out = piece
                    .iter()
                    .map(|&c| {
                        f(local.place(
                            Hit::new(window, c),
                            window,
                            base,
                            c.start,
                            c.end,
                            &mut mapper,
                        ))
                    })
                    .collect();
                (out, local)
            })
            .collect();
        let mut out = Vec::with_capacity(located.len());
        for (piece, local) in located {
            out.push(piece);
            *lines = local;
        }
        out
    }
}

/// A byte buffer whose storage is initialized once and reused: reads go
/// into its spare part without zeroing it again, and a roll moves the kept
/// tail to the front (like ripgrep's line buffer).
#[derive(Default)]
struct RollBuffer {
    /// Initialized storage; `data[..len]` holds the bytes.
    data: Vec<u8>,
    len: usize,
}

impl RollBuffer {
    /// An empty buffer with `capacity` bytes of zeroed storage, which the
    /// allocator takes from the system's zeroed pages without writing them:
    /// they cost nothing until touched.
    fn zeroed(capacity: usize) -> RollBuffer {
        RollBuffer {
            data: vec![0; capacity],
            len: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }

    fn len(&self) -> usize {
        self.len
    }

    fn capacity(&self) -> usize {
        self.data.len()
    }

    /// Room for `want` more bytes, to be filled and then committed.
    fn spare(&mut self, want: usize) -> &mut [u8] {
        if self.data.len() < self.len + want {
            self.data.resize(self.len + want, 0);
        }
        &mut self.data[self.len..self.len + want]
    }

    fn commit(&mut self, n: usize) {
        self.len += n;
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.spare(bytes.len()).copy_from_slice(bytes);
        self.commit(bytes.len());
    }

    /// Drops the first `n` bytes.
    fn drop_front(&mut self, n: usize) {
        self.data.copy_within(n..self.len, 0);
        self.len -= n;
    }

    /// Drops `start..end`.
    fn remove(&mut self, start: usize, end: usize) {
        self.data.copy_within(end..self.len, start);
        self.len -= end - start;
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// The least a roll drops (unless the block is smaller).
const MIN_ROLL: usize = 4096;

/// The block each thread gets when scanning in parallel.
const PARALLEL_BLOCK: usize = 512 << 10;

/// Line numbers and columns of hits; columns count bytes of the original
/// input, so the start of each line is mapped back when it is found.
#[derive(Default)]
struct Lines {
    /// Lines are counted (else every hit is at line 0, column 0).
    enabled: bool,
    counter: LineCounter,
    /// Original offset of the current line's start.
    line_start_original: usize,
}

impl Lines {
    fn new(enabled: bool) -> Lines {
        Lines {
            enabled,
            ..Lines::default()
        }
    }

    fn advance(&mut self, window: &[u8], base: usize, pos: usize, mapper: &mut Mapper<'_>) {
        if !self.enabled {
            return;
        }
        let before = self.counter.line_start();
        self.counter.advance(window, base, pos);
        if self.counter.line_start() != before {
            self.line_start_original = mapper.start(self.counter.line_start());
        }
    }

    /// Gives a hit its place in the input: original offsets, line, column.
    fn place<'h>(
        &mut self,
        hit: Hit<'h>,
        window: &[u8],
        base: usize,
        start: usize,
        end: usize,
        mapper: &mut Mapper<'_>,
    ) -> Hit<'h> {
        self.advance(window, base, base + start, mapper);
        let original = mapper.range(base + start, base + end);
        let (line, column) = if self.enabled {
            (
                self.counter.line(),
                (original.start - self.line_start_original) as u64 + 1,
            )
        } else {
            (0, 0)
        };
        hit.locate(original.start, original.end, line, column)
            .in_document(mapper.encoding)
    }

    /// How far back the decoder may forget: nothing the line start or a
    /// later hit may still need.
    fn released(&self, base: usize) -> usize {
        if self.enabled {
            base.min(self.counter.counted())
        } else {
            base
        }
    }
}

/// Maps UTF-8 offsets of the decoded text to offsets of the input, for
/// lookups in increasing order (the transcoder's mapper keeps its place).
struct Mapper<'t> {
    inner: OffsetMapper<'t>,
    encoding: &'static Encoding,
}

impl Mapper<'_> {
    fn of(transcoder: &Transcoder) -> Mapper<'_> {
        Mapper {
            inner: transcoder.mapper(),
            encoding: transcoder.charset().encoding(),
        }
    }

    fn start(&mut self, utf8: usize) -> usize {
        // The map answers for every offset not released; a released one
        // cannot be asked for (see `Lines::released`).
        self.inner.original_start(utf8).unwrap_or(0)
    }

    fn range(&mut self, start: usize, end: usize) -> std::ops::Range<usize> {
        self.inner.original_range(start..end).unwrap_or(start..end)
    }
}

/// The input: raw bytes read, decoded to UTF-8 appended to the scan buffer.
struct Source<R> {
    reader: R,
    raw: RollBuffer,
    /// The transcoder's output (for the identity, `raw` is the output).
    decoded: Vec<u8>,
    transcoder: Transcoder,
    /// The whole raw input has been read (and pushed with `last`).
    done: bool,
    bytes: u64,
}

impl<R: Fill> Source<R> {
    /// Reads the first bytes (up to the detection prefix, or to the end) and
    /// chooses the charset.
    fn open(mut reader: R, encoding: Option<&'static Encoding>) -> io::Result<Source<R>> {
        let mut raw = RollBuffer::default();
        let mut bytes = 0;
        let done = read_up_to(&mut reader, &mut raw, DETECTION_PREFIX_LEN, &mut bytes)?;
        let charset = match encoding {
            Some(e) => Charset::given(e, raw.bytes()),
            None => detect(raw.bytes(), done),
        };
        Ok(Source {
            reader,
            raw,
            decoded: Vec::new(),
            transcoder: Transcoder::new(&charset),
            done,
            bytes,
        })
    }

    /// Reads about `block` more bytes and appends their UTF-8 to `out`;
    /// returns whether the input ended (all of it decoded).
    fn fill(&mut self, out: &mut RollBuffer, block: usize) -> io::Result<bool> {
        if self.transcoder.is_identity() {
            // UTF-8: read straight into the scan buffer (the transcoder
            // only counts malformed sequences and skips a BOM).
            let start = out.len();
            out.extend(self.raw.bytes());
            self.raw = RollBuffer::default();
            let have = out.len() - start;
            if !self.done && have < block {
                self.done = read_up_to(&mut self.reader, out, block - have, &mut self.bytes)?;
            }
            let pushed = out.len() - start;
            let utf8 = self
                .transcoder
                .push(&out.bytes()[start..], self.done, &mut self.decoded)
                .len();
            if utf8 < pushed {
                out.remove(start, start + pushed - utf8);
            }
            return Ok(self.done);
        }
        if !self.done && self.raw.len() < block {
            let want = block - self.raw.len();
            self.done = read_up_to(&mut self.reader, &mut self.raw, want, &mut self.bytes)?;
        }
        self.decoded.clear();
        let utf8 = self
            .transcoder
            .push(self.raw.bytes(), self.done, &mut self.decoded);
        out.extend(utf8);
        self.raw.clear();
        Ok(self.done)
    }
}

impl<R> Source<R> {
    fn held(&self) -> usize {
        self.raw.capacity() + self.decoded.capacity()
    }

    fn mapper(&self) -> Mapper<'_> {
        Mapper::of(&self.transcoder)
    }

    fn release(&mut self, utf8: usize) {
        self.transcoder.release(utf8);
    }

    fn summary(&self, hits: u64, peak: usize) -> Summary {
        Summary {
            bytes: self.bytes,
            hits,
            peak_buffer: peak,
            charset: *self.transcoder.charset(),
            replacements: self.transcoder.replacements(),
        }
    }
}

/// Reads until `buf` is full or the reader ends; returns how many bytes
/// were read and whether it ended.
fn read_into<R: Fill>(
    reader: &mut R,
    buf: &mut [u8],
    bytes: &mut u64,
) -> io::Result<(usize, bool)> {
    let (n, ended) = reader.fill(buf)?;
    *bytes += n as u64;
    Ok((n, ended))
}

/// Reads until `want` more bytes are in `buf` or the reader ends; returns
/// whether it ended. (The buffer's storage is initialized once and reused;
/// a reader handing out one byte at a time costs one read a byte.)
fn read_up_to<R: Fill>(
    reader: &mut R,
    buf: &mut RollBuffer,
    want: usize,
    bytes: &mut u64,
) -> io::Result<bool> {
    let (n, ended) = read_into(reader, buf.spare(want), bytes)?;
    buf.commit(n);
    Ok(ended)
}
