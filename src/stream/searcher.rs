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
#[cfg(feature = "parallel")]
use std::sync::Arc;

use encoding_rs::Encoding;

use crate::charset::detect::{Charset, DETECTION_PREFIX_LEN, detect};
use crate::charset::transcoder::{OffsetMapper, Transcoder};
use crate::find::finder::Finder;
use crate::find::found_iri::Hit;
#[cfg(feature = "parallel")]
use crate::find::scanner::Candidate;
use crate::find::scanner::{LOOKAHEAD, LOOKBEHIND, Options, ScanState, Scanner};
use crate::stream::line_counter::LineCounter;
#[cfg(feature = "parallel")]
use crate::stream::parallel_pipeline::Locate;
use crate::stream::pool::Pool;
use crate::stream::push_scanner::PushScanner;
use crate::stream::read_at::{Fill, Positional, ReadAt, Sequential};
use crate::stream::sink::Sink;

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
/// else chosen from the first 64 KiB (docs/rules.md §3): a BOM, a declaration
/// (MIME `Content-Type`, HTML `<meta>`, XML), valid UTF-8, or chardetng's
/// guess. The scanner reads the UTF-8 it decodes to; every hit's `start`
/// and `end` are nevertheless byte offsets into the input as given (its
/// column too), and its URI maps an http(s) query in that charset
/// (RFC 3987bis §3.5) when the hit is mapped with
/// [`Summary::charset`]'s encoding.
///
/// ```
/// use iriscan::{Finder, Hit, Searcher};
/// let text = "line one\nsee https://example.org/a and mail bob@example.org\n";
/// let mut found = Vec::new();
/// Searcher::new(Finder::new())
///     .scan_reader(text.as_bytes(), |hit: &Hit| {
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
///     .scan_reader(&sjis[..], |hit: &Hit| {
///         hits.push((hit.start(), hit.end(), hit.iri().to_string()));
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(hits, [(6, sjis.len(), "http://例え.jp/検索?q=東京".to_string())]);
/// // …and the query of its URI is mapped in Shift_JIS (RFC 3987bis §3.5):
/// let mut uris = Vec::new();
/// Searcher::new(Finder::new())
///     .encoding(Some(encoding_rs::SHIFT_JIS))
///     .scan_reader(&sjis[..], |hit: &Hit| {
///         uris.push(hit.to_uri(&iriscan::UriOptions::new()).uri.into_owned());
///         Ok(true)
///     })
///     .unwrap();
/// assert_eq!(uris, ["http://xn--r8jz45g.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E"]);
/// assert_eq!(summary.charset.name(), "Shift_JIS");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searcher {
    pub(super) finder: Finder,
    pub(super) buffer_size: usize,
    pub(super) threads: usize,
    pub(super) encoding: Option<&'static Encoding>,
    pub(super) line_numbers: bool,
    pub(super) pool: Pool,
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
            pool: Pool::default(),
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
    /// The pool is the one given to `Searcher::pool`, or else the
    /// pool the calling thread belongs to, or rayon's global pool. The
    /// calling thread reads and then waits for the pool: for the best
    /// throughput, make it one of the pool's threads
    /// (`rayon::ThreadPoolBuilder::use_current_thread`, as the command line
    /// does), so that it works on the pool's jobs while it waits instead of
    /// competing with a full pool for the cores.
    pub fn threads(mut self, threads: usize) -> Searcher {
        self.threads = threads.max(1);
        self
    }

    /// The rayon pool to scan on with several [`threads`](Searcher::threads)
    /// (it has no effect with one): the scanning, locating and mapping of
    /// every block and the reading of a file's pieces run there, not on
    /// rayon's global pool. The calling thread still reads, delivers to the
    /// sink and waits; neither the reader nor the sink needs to be `Send`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use iriscan::{Finder, Searcher};
    /// let pool = rayon::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .thread_name(|i| format!("links-{i}"))
    ///     .build()
    ///     .unwrap();
    /// let searcher = Searcher::new(Finder::new()).threads(2).pool(Arc::new(pool));
    /// let text = "see https://example.org/ü\n".repeat(50_000);
    /// let mut mapped_on = std::collections::BTreeSet::new();
    /// searcher
    ///     .scan_reader_map(
    ///         text.as_bytes(),
    ///         |_hit| std::thread::current().name().unwrap_or("").to_string(),
    ///         |name| {
    ///             mapped_on.insert(name);
    ///             Ok(true)
    ///         },
    ///     )
    ///     .unwrap();
    /// assert!(mapped_on.iter().all(|name| name.starts_with("links-")));
    /// ```
    #[cfg(feature = "parallel")]
    pub fn pool(mut self, pool: Arc<rayon::ThreadPool>) -> Searcher {
        self.pool = Pool::given(pool);
        self
    }

    /// The input's charset (`None`, the default: detect it). A BOM of that
    /// same charset is skipped.
    pub fn encoding(mut self, encoding: Option<&'static Encoding>) -> Searcher {
        self.encoding = encoding;
        self
    }

    /// A scanner for an input the caller pushes chunk by chunk, with this
    /// searcher's settings (on one thread); see [`PushScanner`].
    pub fn push_scanner(&self) -> PushScanner {
        PushScanner::new(self)
    }

    /// The finder whose rules this searcher applies.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Scans everything `reader` yields, handing each hit to `sink` (valid
    /// and invalid, in order; offsets, line and column refer to the whole
    /// input; see [`Sink`] for `begin`, `finish` and stopping early). The
    /// sink is any [`Sink`], or a closure `FnMut(&Hit) -> io::Result<bool>`
    /// that returns `Ok(false)` to stop. The sink's errors and read errors
    /// end the scan and are returned.
    pub fn scan_reader<R, S>(&self, reader: R, mut sink: S) -> Result<Summary, S::Error>
    where
        R: Read,
        S: Sink,
    {
        self.run(Sequential(reader), &mut ToSink(&mut sink))
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
    ///     .scan_file(&file, |hit: &iriscan::Hit| {
    ///         assert_eq!(hit.iri(), "https://example.org/ü");
    ///         count += 1;
    ///         Ok(true)
    ///     })
    ///     .unwrap();
    /// assert_eq!((count, summary.bytes), (100_000, 2_700_000));
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn scan_file<F, S>(&self, file: &F, mut sink: S) -> Result<Summary, S::Error>
    where
        F: ReadAt + ?Sized,
        S: Sink,
    {
        let input = Positional::new(file, self.threads > 1, &self.pool);
        self.run(input, &mut ToSink(&mut sink))
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
        let input = Positional::new(file, self.threads > 1, &self.pool);
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

    fn run<R: Fill, D: Delivery>(&self, reader: R, delivery: &mut D) -> Result<Summary, D::Error> {
        let source = Source::open(reader, self.encoding)?;
        if !delivery.begin(source.transcoder.charset())? {
            let summary = source.summary(0, source.held());
            delivery.finish(&summary)?;
            return Ok(summary);
        }
        #[cfg(feature = "parallel")]
        let summary = if self.threads > 1 {
            self.run_parallel(source, delivery)?
        } else {
            self.run_sequential(source, delivery)?
        };
        #[cfg(not(feature = "parallel"))]
        let summary = self.run_sequential(source, delivery)?;
        delivery.finish(&summary)?;
        Ok(summary)
    }

    /// One thread: a roll buffer, each hit delivered as the scan finds it.
    fn run_sequential<R: Fill, D: Delivery>(
        &self,
        mut source: Source<R>,
        delivery: &mut D,
    ) -> Result<Summary, D::Error> {
        let block = self.buffer_size;
        let mut scan = RollScan::new(self.finder.options(), block, self.line_numbers);
        let mut eof = source.fill(&mut scan.buf, block)?;
        loop {
            let go_on = scan.scan(&source, eof, &mut |hit| delivery.one(hit))?;
            if !go_on || eof {
                return Ok(source.summary(scan.hits, scan.peak));
            }
            scan.roll(&mut source);
            eof = source.fill(&mut scan.buf, block)?;
        }
    }
}

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
    /// Hits delivered.
    pub(super) hits: u64,
    /// The most bytes the buffers held.
    pub(super) peak: usize,
}

impl RollScan {
    pub(super) fn new(opts: Options, block: usize, line_numbers: bool) -> RollScan {
        RollScan {
            opts,
            min_roll: block.min(MIN_ROLL),
            margin: opts.max_len + LOOKAHEAD,
            buf: RollBuffer::default(),
            base: 0,
            state: ScanState::default(),
            lines: Lines::new(line_numbers),
            hits: 0,
            peak: 0,
        }
    }

    /// Hands every hit that the bytes at hand decide (all of them when
    /// `at_end`) to `deliver`, in order; returns whether to go on.
    pub(super) fn scan<R, E>(
        &mut self,
        source: &Source<R>,
        at_end: bool,
        deliver: &mut impl FnMut(&Hit<'_>) -> Result<bool, E>,
    ) -> Result<bool, E> {
        self.peak = self.peak.max(self.buf.capacity() + source.held());
        let to = decided_up_to(self.buf.len(), at_end, self.margin);
        let mut result = Ok(true);
        if to > self.state.pos {
            let window = self.buf.bytes();
            let (lines, hits, base) = (&mut self.lines, &mut self.hits, self.base);
            let mut mapper = source.mapper();
            Scanner::new(window, self.opts).scan(&mut self.state, to, &mut |c| {
                let hit = lines.place(
                    Hit::new(window, c),
                    window,
                    base,
                    c.start,
                    c.end,
                    &mut mapper,
                );
                *hits += 1;
                result = deliver(&hit);
                matches!(result, Ok(true))
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

/// Where located hits go: one at a time (sequential scanning), or a
/// window's pieces at once (parallel scanning), located and mapped on the
/// pool, then delivered in order.
pub(super) trait Delivery {
    /// What locating a hit gives, to be delivered.
    type Item<'h>: Send;

    /// What delivering fails with; read errors are converted into it.
    type Error: From<io::Error>;

    /// The scan begins (see [`Sink::begin`]).
    fn begin(&mut self, charset: &Charset) -> Result<bool, Self::Error>;

    fn one(&mut self, hit: &Hit<'_>) -> Result<bool, Self::Error>;

    /// The scan ended without an error (see [`Sink::finish`]).
    fn finish(&mut self, summary: &Summary) -> Result<(), Self::Error>;

    #[cfg(feature = "parallel")]
    /// Locates (and maps) the hits of a window's pieces, on the pool.
    fn locate<'h>(
        &self,
        pieces: &[Vec<Candidate>],
        ctx: &mut Locate<'_, 'h>,
    ) -> Vec<Vec<Self::Item<'h>>>;

    #[cfg(feature = "parallel")]
    /// Located hits that own their data, kept from one parallel round to
    /// be delivered during the next (while the pool scans the next window),
    /// so that the sink does not run while the pool waits.
    type Kept;

    #[cfg(feature = "parallel")]
    /// Hands located hits to the sink, in order, or keeps them for
    /// [`flush`](Delivery::flush) (hits that borrow the buffer are
    /// delivered at once); returns whether to go on, and what was kept.
    fn keep(
        &mut self,
        located: Vec<Vec<Self::Item<'_>>>,
    ) -> Result<(bool, Option<Self::Kept>), Self::Error>;

    #[cfg(feature = "parallel")]
    /// Hands what [`keep`](Delivery::keep) kept to the sink, in order;
    /// returns whether to go on.
    fn flush(&mut self, kept: Self::Kept) -> Result<bool, Self::Error>;
}

/// The hits themselves, borrowed, to a [`Sink`] (`scan_reader`).
struct ToSink<'s, S>(&'s mut S);

impl<S: Sink> Delivery for ToSink<'_, S> {
    type Item<'h> = Hit<'h>;

    type Error = S::Error;

    fn begin(&mut self, charset: &Charset) -> Result<bool, S::Error> {
        self.0.begin(charset)
    }

    fn one(&mut self, hit: &Hit<'_>) -> Result<bool, S::Error> {
        self.0.matched(hit)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), S::Error> {
        self.0.finish(summary)
    }

    #[cfg(feature = "parallel")]
    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<Hit<'h>>> {
        ctx.locate(pieces, |hit| hit)
    }

    #[cfg(feature = "parallel")]
    type Kept = ();

    #[cfg(feature = "parallel")]
    fn keep(&mut self, located: Vec<Vec<Hit<'_>>>) -> Result<(bool, Option<()>), S::Error> {
        for hit in located.iter().flatten() {
            if !self.0.matched(hit)? {
                return Ok((false, None));
            }
        }
        Ok((true, None))
    }

    #[cfg(feature = "parallel")]
    fn flush(&mut self, (): ()) -> Result<bool, S::Error> {
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

    type Error = io::Error;

    fn begin(&mut self, _: &Charset) -> io::Result<bool> {
        Ok(true)
    }

    fn one(&mut self, hit: &Hit<'_>) -> io::Result<bool> {
        (self.sink)((self.map)(hit))
    }

    fn finish(&mut self, _: &Summary) -> io::Result<()> {
        Ok(())
    }

    #[cfg(feature = "parallel")]
    fn locate<'h>(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, 'h>) -> Vec<Vec<T>> {
        let map = &self.map;
        ctx.locate(pieces, |hit| map(&hit))
    }

    #[cfg(feature = "parallel")]
    type Kept = Vec<Vec<T>>;

    #[cfg(feature = "parallel")]
    fn keep(&mut self, located: Vec<Vec<T>>) -> io::Result<(bool, Option<Vec<Vec<T>>>)> {
        Ok((true, Some(located)))
    }

    #[cfg(feature = "parallel")]
    fn flush(&mut self, located: Vec<Vec<T>>) -> io::Result<bool> {
        for t in located.into_iter().flatten() {
            if !(self.sink)(t)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A byte buffer whose storage is initialized once and reused: reads go
/// into its spare part without zeroing it again, and a roll moves the kept
/// tail to the front (like ripgrep's line buffer).
#[derive(Default)]
pub(super) struct RollBuffer {
    /// Initialized storage; `data[..len]` holds the bytes.
    pub(super) data: Vec<u8>,
    pub(super) len: usize,
}

impl RollBuffer {
    #[cfg(feature = "parallel")]
    /// An empty buffer with `capacity` bytes of zeroed storage, which the
    /// allocator takes from the system's zeroed pages without writing them:
    /// they cost nothing until touched.
    pub(super) fn zeroed(capacity: usize) -> RollBuffer {
        RollBuffer {
            data: vec![0; capacity],
            len: 0,
        }
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn capacity(&self) -> usize {
        self.data.len()
    }

    /// Room for `want` more bytes, to be filled and then committed.
    pub(super) fn spare(&mut self, want: usize) -> &mut [u8] {
        if self.data.len() < self.len + want {
            self.data.resize(self.len + want, 0);
        }
        &mut self.data[self.len..self.len + want]
    }

    pub(super) fn commit(&mut self, n: usize) {
        self.len += n;
    }

    pub(super) fn extend(&mut self, bytes: &[u8]) {
        self.spare(bytes.len()).copy_from_slice(bytes);
        self.commit(bytes.len());
    }

    /// Drops the first `n` bytes.
    pub(super) fn drop_front(&mut self, n: usize) {
        self.data.copy_within(n..self.len, 0);
        self.len -= n;
    }

    /// Drops `start..end`.
    pub(super) fn remove(&mut self, start: usize, end: usize) {
        self.data.copy_within(end..self.len, start);
        self.len -= end - start;
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }
}

/// The least a roll drops (unless the block is smaller).
const MIN_ROLL: usize = 4096;

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

    /// Gives a hit its place in the input: original offsets, line, column.
    pub(super) fn place<'h>(
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
    pub(super) fn released(&self, base: usize) -> usize {
        if self.enabled {
            base.min(self.counter.counted())
        } else {
            base
        }
    }
}

/// Maps UTF-8 offsets of the decoded text to offsets of the input, for
/// lookups in increasing order (the transcoder's mapper keeps its place).
pub(super) struct Mapper<'t> {
    pub(super) inner: OffsetMapper<'t>,
    pub(super) encoding: &'static Encoding,
}

impl Mapper<'_> {
    pub(super) fn of(transcoder: &Transcoder) -> Mapper<'_> {
        Mapper {
            inner: transcoder.mapper(),
            encoding: transcoder.charset().encoding(),
        }
    }

    pub(super) fn start(&mut self, utf8: usize) -> usize {
        // The map answers for every offset not released; a released one
        // cannot be asked for (see `Lines::released`).
        self.inner.original_start(utf8).unwrap_or(0)
    }

    pub(super) fn range(&mut self, start: usize, end: usize) -> std::ops::Range<usize> {
        self.inner.original_range(start..end).unwrap_or(start..end)
    }
}

/// The input: raw bytes read, decoded to UTF-8 appended to the scan buffer.
pub(super) struct Source<R> {
    pub(super) reader: R,
    pub(super) raw: RollBuffer,
    /// The transcoder's output (for the identity, `raw` is the output).
    pub(super) decoded: Vec<u8>,
    pub(super) transcoder: Transcoder,
    /// The whole raw input has been read (and pushed with `last`).
    pub(super) done: bool,
    pub(super) bytes: u64,
}

impl<R: Fill> Source<R> {
    /// Reads the first bytes (up to the detection prefix, or to the end) and
    /// chooses the charset.
    pub(super) fn open(
        mut reader: R,
        encoding: Option<&'static Encoding>,
    ) -> io::Result<Source<R>> {
        let mut raw = RollBuffer::default();
        let mut bytes = 0;
        let done = read_up_to(&mut reader, &mut raw, DETECTION_PREFIX_LEN, &mut bytes)?;
        Ok(Source::with_prefix(reader, raw, done, bytes, encoding))
    }

    /// Reads about `block` more bytes and appends their UTF-8 to `out`;
    /// returns whether the input ended (all of it decoded).
    pub(super) fn fill(&mut self, out: &mut RollBuffer, block: usize) -> io::Result<bool> {
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
            self.decode_in_place(out, start);
            return Ok(self.done);
        }
        if !self.done && self.raw.len() < block {
            let want = block - self.raw.len();
            self.done = read_up_to(&mut self.reader, &mut self.raw, want, &mut self.bytes)?;
        }
        self.decode_raw(out);
        Ok(self.done)
    }
}

impl<R> Source<R> {
    /// The source of an input whose first `bytes` bytes are read into
    /// `raw` (`done`: that is all of it): the charset is the one given, or
    /// the one detected in the first [`DETECTION_PREFIX_LEN`] bytes.
    pub(super) fn with_prefix(
        reader: R,
        raw: RollBuffer,
        done: bool,
        bytes: u64,
        encoding: Option<&'static Encoding>,
    ) -> Source<R> {
        let prefix = &raw.bytes()[..raw.len().min(DETECTION_PREFIX_LEN)];
        let charset = match encoding {
            Some(e) => Charset::given(e, prefix),
            None => detect(prefix, done),
        };
        Source {
            reader,
            raw,
            decoded: Vec::new(),
            transcoder: Transcoder::new(&charset),
            done,
            bytes,
        }
    }

    /// Takes the next chunk of an input pushed chunk by chunk (`last`: the
    /// final one) and appends its UTF-8 to `out`, as [`fill`](Source::fill)
    /// does with what it reads.
    pub(super) fn push(&mut self, chunk: &[u8], last: bool, out: &mut RollBuffer) {
        self.bytes += chunk.len() as u64;
        self.done = last;
        if self.transcoder.is_identity() {
            let start = out.len();
            out.extend(self.raw.bytes());
            self.raw = RollBuffer::default();
            out.extend(chunk);
            self.decode_in_place(out, start);
        } else {
            self.raw.extend(chunk);
            self.decode_raw(out);
        }
    }

    /// Passes the UTF-8 appended to `out` from `start` on through the
    /// (identity) transcoder, which counts malformed sequences, and drops
    /// the BOM bytes it skips.
    fn decode_in_place(&mut self, out: &mut RollBuffer, start: usize) {
        let pushed = out.len() - start;
        let utf8 = self
            .transcoder
            .push(&out.bytes()[start..], self.done, &mut self.decoded)
            .len();
        if utf8 < pushed {
            out.remove(start, start + pushed - utf8);
        }
    }

    /// Decodes the raw bytes read and appends their UTF-8 to `out`.
    fn decode_raw(&mut self, out: &mut RollBuffer) {
        self.decoded.clear();
        let utf8 = self
            .transcoder
            .push(self.raw.bytes(), self.done, &mut self.decoded);
        out.extend(utf8);
        self.raw.clear();
    }

    pub(super) fn held(&self) -> usize {
        self.raw.capacity() + self.decoded.capacity()
    }

    pub(super) fn mapper(&self) -> Mapper<'_> {
        Mapper::of(&self.transcoder)
    }

    pub(super) fn release(&mut self, utf8: usize) {
        self.transcoder.release(utf8);
    }

    pub(super) fn summary(&self, hits: u64, peak: usize) -> Summary {
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
