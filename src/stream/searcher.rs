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

use crate::find::finder::Finder;
use crate::find::found_iri::Hit;
use crate::stream::counting::{Counting, Counts};
use crate::stream::delivery::{Delivery, Mapped, ToSink};
use crate::stream::pool::Pool;
use crate::stream::read_at::{Fill, Positional, ReadAt, Sequential};
use crate::stream::roll_scan::RollScan;
use crate::stream::sink::Sink;
use crate::stream::source::Source;
use crate::stream::summary::Summary;

/// The default size of a read: 64 KiB.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

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
    pub(super) incremental: bool,
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
            incremental: false,
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

    /// Whether to hand each hit on as soon as the bytes read settle it, for
    /// input that arrives as it is written (a pipe from `tail -f`, a
    /// terminal): each read returns what the reader has (one `read` call,
    /// not a full buffer) and is scanned before the next, and a hit is
    /// delivered once the white space after it is read (see
    /// `stream/settled.rs`), not `max_len` bytes later. Default off. The
    /// hits are the same; the charset, unless given with
    /// [`encoding`](Searcher::encoding), is chosen from the bytes of the
    /// first read rather than the first 64 KiB, and the scan runs on the
    /// calling thread ([`threads`](Searcher::threads) does not apply).
    ///
    /// ```
    /// use std::io::{self, Read};
    /// use std::sync::mpsc;
    /// use iriscan::{Finder, Hit, Searcher};
    ///
    /// // A reader that asks, before handing out its second line, which
    /// // IRIs the sink has received so far.
    /// struct Lines<'a> {
    ///     lines: Vec<&'static [u8]>,
    ///     ask: &'a dyn Fn() -> Vec<String>,
    ///     seen_before_line_2: Option<Vec<String>>,
    /// }
    /// impl Read for Lines<'_> {
    ///     fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
    ///         if self.lines.len() == 1 {
    ///             self.seen_before_line_2 = Some((self.ask)());
    ///         }
    ///         let Some(line) = self.lines.first().copied() else { return Ok(0) };
    ///         self.lines.remove(0);
    ///         buf[..line.len()].copy_from_slice(line);
    ///         Ok(line.len())
    ///     }
    /// }
    /// let (tx, rx) = mpsc::channel();
    /// let ask = || rx.try_iter().collect::<Vec<String>>();
    /// let mut reader = Lines {
    ///     lines: vec![b"see https://a.example/1\n", b"and https://a.example/2\n"],
    ///     ask: &ask,
    ///     seen_before_line_2: None,
    /// };
    /// Searcher::new(Finder::new())
    ///     .encoding(Some(encoding_rs::UTF_8))
    ///     .incremental(true)
    ///     .scan_reader(&mut reader, |hit: &Hit| {
    ///         tx.send(hit.iri().to_string()).unwrap();
    ///         Ok(true)
    ///     })
    ///     .unwrap();
    /// assert_eq!(reader.seen_before_line_2.unwrap(), ["https://a.example/1"]);
    /// ```
    pub fn incremental(mut self, yes: bool) -> Searcher {
        self.incremental = yes;
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
    /// pieces (cut anywhere, the seams settled after) and locates and maps
    /// the hits of block k-1, while block k+1 is read and decoded (UTF-8
    /// straight into its buffer: a file of UTF-8 given to
    /// [`scan_file`](Searcher::scan_file) by the pool's threads, each
    /// reading the pieces it will scan in the next round and checking
    /// their UTF-8 as it reads them; another input by this thread) and
    /// this thread hands the mapped hits of block k-2 to the sink. Three buffers
    /// of a block take turns, each starting with the last `max_len` + 96
    /// bytes of the one before (what a trigger near the end still needs),
    /// so that nothing else is ever moved; a block is at least that long
    /// too (with a `max_len` above `threads` × 512 KiB, it is read that
    /// much at a time, and memory follows the input). Hits come out in the
    /// same order as with one thread.
    ///
    /// The pool is the one given to `Searcher::pool`, or else the
    /// pool the calling thread belongs to, or rayon's global pool. The
    /// calling thread reads (but a file of UTF-8) and then waits for the
    /// pool: for the best
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
    /// rayon's global pool. The calling thread still reads (but a file of
    /// UTF-8, which the pool's threads read), delivers to the sink and
    /// waits; neither the reader nor the sink needs to be `Send`.
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

    /// Counts the hits of everything `reader` yields, valid and invalid,
    /// into `counts` (adding to what it holds), without making them: the
    /// counts are those of [`Hit::is_valid`] over the hits
    /// [`scan_reader`](Searcher::scan_reader) would hand on, and the
    /// summary is its summary, but no hit is placed, no line counted and
    /// nothing allocated per hit (on link-dense text about 15% less work
    /// than a scan that makes the hits). The scan reads and decodes as
    /// `scan_reader` does, on as many [`threads`](Searcher::threads). A
    /// read error ends it and is returned; `counts` then holds the hits of
    /// the bytes read before it, those a sink would have received.
    ///
    /// ```
    /// use iriscan::{Counts, Finder, Searcher};
    /// let searcher = Searcher::new(Finder::new());
    /// let mut counts = Counts::default();
    /// let summary = searcher
    ///     .count_reader("see https://a.example/ and http://b.example/%zz".as_bytes(), &mut counts)
    ///     .unwrap();
    /// assert_eq!((counts.valid, counts.invalid), (1, 1));
    /// assert_eq!(summary.hits, 2);
    ///
    /// // Counts add up over inputs.
    /// searcher.count_reader("mail bob@example.org".as_bytes(), &mut counts).unwrap();
    /// assert_eq!(counts, Counts { valid: 2, invalid: 1 });
    /// ```
    pub fn count_reader<R: Read>(&self, reader: R, counts: &mut Counts) -> io::Result<Summary> {
        self.run(Sequential(reader), &mut Counting(counts))
    }

    /// [`count_reader`](Searcher::count_reader) for input that can be read
    /// at any offset, as [`scan_file`](Searcher::scan_file) reads it.
    ///
    /// ```
    /// use iriscan::{Counts, Finder, Searcher};
    /// let path = std::env::temp_dir().join(format!("iriscan-count-{}.txt", std::process::id()));
    /// std::fs::write(&path, "see https://example.org/ü or www.x.example\n".repeat(100_000)).unwrap();
    /// let file = std::fs::File::open(&path).unwrap();
    /// let mut counts = Counts::default();
    /// let summary = Searcher::new(Finder::new()).threads(2).count_file(&file, &mut counts).unwrap();
    /// assert_eq!(counts, Counts { valid: 200_000, invalid: 0 });
    /// assert_eq!(summary.bytes, 4_400_000);
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn count_file<F: ReadAt + ?Sized>(
        &self,
        file: &F,
        counts: &mut Counts,
    ) -> io::Result<Summary> {
        let input = Positional::new(file, self.threads > 1, &self.pool);
        self.run(input, &mut Counting(counts))
    }

    /// Whether to count lines for the hits of `D` (not for a count).
    pub(super) fn counts_lines<D: Delivery>(&self) -> bool {
        self.line_numbers && D::PLACES
    }

    fn run<R: Fill, D: Delivery>(&self, reader: R, delivery: &mut D) -> Result<Summary, D::Error> {
        let source = Source::open(reader, self.encoding, self.incremental)?;
        if !delivery.begin(source.transcoder.charset())? {
            let summary = source.summary(0, source.held());
            delivery.finish(&summary)?;
            return Ok(summary);
        }
        #[cfg(feature = "parallel")]
        let summary = if self.threads > 1 && !self.incremental {
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
        let mut scan = RollScan::new(
            self.finder.options(),
            block,
            self.counts_lines::<D>(),
            self.incremental,
        );
        let mut eof = source.fill(&mut scan.buf, block)?;
        loop {
            let go_on = scan.scan(&source, eof, &mut |found| delivery.one(found))?;
            if !go_on || eof {
                return Ok(source.summary(scan.hits, scan.peak));
            }
            scan.roll(&mut source);
            eof = source.fill(&mut scan.buf, block)?;
        }
    }
}
