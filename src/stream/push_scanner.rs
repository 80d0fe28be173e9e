//! Scanning an input that arrives in chunks the caller pushes — a message
//! body from IMAP or JMAP, a socket read by an async runtime — with the
//! [`Searcher`]'s charset handling, roll buffer and results.
//!
//! The [`Searcher`] pulls from a reader; a [`PushScanner`] is handed each
//! chunk as it arrives and hands back the hits that chunk decides. Inside,
//! it is the searcher's one-thread scan: the first 64 KiB (or the whole
//! input, if shorter) wait until the charset is chosen, then every chunk
//! is decoded by the same [`Source`] and scanned by the same [`RollScan`],
//! which keeps only the undecided tail. The hits are therefore exactly
//! those [`Searcher::scan_reader`] finds in the same bytes, with the same
//! offsets, lines and columns, however the input is cut into chunks.

use std::io;

use encoding_rs::Encoding;

use crate::charset::detect::{Charset, DETECTION_PREFIX_LEN};
use crate::find::found_iri::Hit;
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::roll_scan::RollScan;
use crate::stream::searcher::Searcher;
use crate::stream::sink::Sink;
use crate::stream::source::Source;
use crate::stream::summary::Summary;

/// Finds the hits of an input pushed chunk by chunk, in bounded memory.
///
/// Built by [`Searcher::push_scanner`] (or [`PushScanner::new`]) with the
/// searcher's finder, charset ([`Searcher::encoding`], or detection on the
/// first 64 KiB), line numbering and buffer size; it scans on the calling
/// thread ([`Searcher::threads`] does not apply). Feed it with
/// [`push`](PushScanner::push) and end with
/// [`finish`](PushScanner::finish), which return the hits decided so far
/// as owned [`Hit`]s; or with [`push_to`](PushScanner::push_to) and
/// [`finish_to`](PushScanner::finish_to), which hand them, borrowed, to a
/// [`Sink`].
///
/// Memory is the searcher's: the buffer size plus the maximum IRI length
/// and a little context, whatever the size of the input or of the chunks
/// (a large chunk is scanned a buffer at a time).
///
/// ```
/// use iriscan::{Finder, Searcher};
/// let body = "Bonjour, le programme est sur https://exemple.fr/été/2024 et \
///             les photos sur www.exemple.fr/album.\n";
/// let mut scanner = Searcher::new(Finder::new()).push_scanner();
/// let mut iris = Vec::new();
/// for chunk in body.as_bytes().chunks(7) {
///     // As the network delivers it.
///     iris.extend(scanner.push(chunk).into_iter().map(|hit| hit.iri().to_string()));
/// }
/// iris.extend(scanner.finish().into_iter().map(|hit| hit.iri().to_string()));
/// assert_eq!(iris, ["https://exemple.fr/été/2024", "http://www.exemple.fr/album"]);
/// assert_eq!(scanner.summary().unwrap().charset.name(), "UTF-8");
/// ```
pub struct PushScanner {
    encoding: Option<&'static Encoding>,
    /// How many bytes to decode and scan at a time.
    block: usize,
    /// The first bytes, until the charset is chosen.
    prefix: RollBuffer,
    /// The input, once the charset is chosen.
    source: Option<Source<()>>,
    scan: RollScan,
    state: State,
}

/// Where a push scanner is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Taking chunks.
    Open,
    /// The sink stopped it: chunks are ignored.
    Stopped,
    /// The sink failed: chunks are ignored, the sink is not finished.
    Failed,
    /// The last chunk was pushed, or the stopped scan was finished: the
    /// sink has had its `finish`.
    Finished,
}

impl PushScanner {
    /// A push scanner with `searcher`'s settings (see
    /// [`Searcher::push_scanner`]).
    pub fn new(searcher: &Searcher) -> PushScanner {
        PushScanner {
            encoding: searcher.encoding,
            block: searcher.buffer_size,
            prefix: RollBuffer::default(),
            source: None,
            scan: RollScan::new(
                searcher.finder.options(),
                searcher.buffer_size,
                searcher.line_numbers,
                false,
            ),
            state: State::Open,
        }
    }

    /// Takes the next chunk of the input; returns the hits it decides, in
    /// order (hits near its end wait for the bytes after them). Chunks
    /// pushed after [`finish`](PushScanner::finish) are ignored.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Hit<'static>> {
        let mut hits = Vec::new();
        // `Owned` never fails, and pushing reads nothing that could.
        let _ = self.feed(chunk, false, &mut Owned(&mut hits));
        hits
    }

    /// Ends the input; returns the hits still undecided, in order.
    pub fn finish(&mut self) -> Vec<Hit<'static>> {
        let mut hits = Vec::new();
        let _ = self.feed(&[], true, &mut Owned(&mut hits));
        hits
    }

    /// Takes the next chunk of the input and hands the hits it decides to
    /// `sink`, borrowed, in order. The sink's
    /// [`begin`](Sink::begin) is called by the push that makes the charset
    /// known (once 64 KiB have arrived, or at the end). Returns whether to
    /// go on: `false` once the sink has stopped the scan or the input is
    /// finished (further chunks are then ignored). An error of the sink is
    /// returned, and ends the scan too.
    ///
    /// Use one sink for the whole input.
    ///
    /// ```
    /// use iriscan::{Finder, Hit, Searcher};
    /// // "東京: http://例え.jp/検索?q=東京" in Shift_JIS, arriving in 3-byte chunks.
    /// let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("東京: http://例え.jp/検索?q=東京");
    /// let mut scanner = Searcher::new(Finder::new())
    ///     .encoding(Some(encoding_rs::SHIFT_JIS))
    ///     .push_scanner();
    /// let mut spans = Vec::new();
    /// let mut sink = |hit: &Hit| {
    ///     spans.push((hit.start(), hit.end(), hit.iri().to_string()));
    ///     Ok(true)
    /// };
    /// for chunk in sjis.chunks(3) {
    ///     scanner.push_to(chunk, &mut sink).unwrap();
    /// }
    /// let summary = scanner.finish_to(&mut sink).unwrap();
    /// assert_eq!(spans, [(6, sjis.len(), "http://例え.jp/検索?q=東京".to_string())]);
    /// assert_eq!((summary.bytes, summary.hits), (sjis.len() as u64, 1));
    /// ```
    pub fn push_to<S: Sink>(&mut self, chunk: &[u8], sink: &mut S) -> Result<bool, S::Error> {
        self.feed(chunk, false, sink)
    }

    /// Ends the input: hands the hits still undecided to `sink`, then calls
    /// its [`finish`](Sink::finish) (unless it failed), and returns the
    /// summary. Once finished, calls nothing and returns the summary again.
    pub fn finish_to<S: Sink>(&mut self, sink: &mut S) -> Result<Summary, S::Error> {
        let finishing = matches!(self.state, State::Open | State::Stopped);
        self.feed(&[], true, sink)?;
        let summary = self.summary_now();
        if finishing && self.state != State::Failed {
            self.state = State::Finished;
            sink.finish(&summary)?;
        }
        Ok(summary)
    }

    /// What was scanned so far: bytes pushed, hits, charset; `None` until
    /// the charset is chosen (the first 64 KiB, or the end of the input).
    pub fn summary(&self) -> Option<Summary> {
        let source = self.source.as_ref()?;
        Some(source.summary(self.scan.hits, self.scan.peak))
    }

    /// The summary once the end of the input was pushed (or the scan
    /// stopped), when the charset is known.
    fn summary_now(&self) -> Summary {
        // The fallback is not reached: the end of the input, or a sink's
        // answer, comes after the charset is chosen.
        self.summary().unwrap_or_else(|| Summary {
            bytes: 0,
            hits: 0,
            peak_buffer: 0,
            charset: Charset::given(self.encoding.unwrap_or(encoding_rs::UTF_8), &[]),
            replacements: 0,
        })
    }

    /// Feeds a chunk (`last`: the end of the input) and records how the
    /// scan ended.
    fn feed<S: Sink>(&mut self, chunk: &[u8], last: bool, sink: &mut S) -> Result<bool, S::Error> {
        if self.state != State::Open {
            return Ok(false);
        }
        let result = self.scan_chunk(chunk, last, sink);
        self.state = match result {
            Ok(true) if last => State::Finished,
            Ok(true) => State::Open,
            Ok(false) => State::Stopped,
            Err(_) => State::Failed,
        };
        result.map(|go_on| go_on && !last)
    }

    fn scan_chunk<S: Sink>(
        &mut self,
        mut chunk: &[u8],
        last: bool,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if self.source.is_none() {
            // The first bytes wait for the charset, as `Source::open` reads
            // them.
            let take = (DETECTION_PREFIX_LEN - self.prefix.len()).min(chunk.len());
            self.prefix.extend(&chunk[..take]);
            chunk = &chunk[take..];
            let whole = self.prefix.len() < DETECTION_PREFIX_LEN;
            if whole && !last {
                return Ok(true);
            }
            let raw = std::mem::take(&mut self.prefix);
            let bytes = raw.len() as u64;
            let source = Source::with_prefix((), raw, whole, bytes, self.encoding);
            let charset = *source.transcoder.charset();
            self.source = Some(source);
            if !sink.begin(&charset)? {
                return Ok(false);
            }
        }
        let Some(source) = &mut self.source else {
            return Ok(true); // set just above
        };
        // A buffer at a time, so that memory does not follow the chunk.
        loop {
            let (piece, rest) = chunk.split_at(chunk.len().min(self.block));
            let at_end = last && rest.is_empty();
            source.push(piece, at_end, &mut self.scan.buf);
            if !self
                .scan
                .scan(source, at_end, &mut |found| sink.matched(&found.hit()))?
            {
                return Ok(false);
            }
            if at_end {
                return Ok(true);
            }
            self.scan.roll(source);
            chunk = rest;
            if chunk.is_empty() {
                return Ok(true);
            }
        }
    }
}

impl std::fmt::Debug for PushScanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushScanner")
            .field("state", &self.state)
            .field("summary", &self.summary())
            .finish_non_exhaustive()
    }
}

/// Collects owned hits, for [`PushScanner::push`].
struct Owned<'v>(&'v mut Vec<Hit<'static>>);

impl Sink for Owned<'_> {
    type Error = io::Error;

    fn matched(&mut self, hit: &Hit<'_>) -> io::Result<bool> {
        self.0.push(hit.clone().into_owned());
        Ok(true)
    }
}

impl Searcher {
    /// A scanner for an input the caller pushes chunk by chunk, with this
    /// searcher's settings (on one thread); see [`PushScanner`].
    pub fn push_scanner(&self) -> PushScanner {
        PushScanner::new(self)
    }
}
