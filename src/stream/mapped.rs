//! A large UTF-8 file scanned in place on several threads: mapped into
//! memory, not copied.
//!
//! With several threads, reading a file is mostly the copy out of the page
//! cache: on inputs the scanner crosses quickly (no trigger for `memchr` to
//! stop at, `((((…`) it is half of all the work, and the copies, the
//! slots they fill and the rounds that hand them over kept two threads
//! from doing better than one. So, like ripgrep for a single large file,
//! the [`Searcher`] maps a regular file of at least [`MIN_MAPPED`] bytes
//! and scans it where it lies: the whole file is one window, cut into
//! blocks; in each round the pool checks the UTF-8 of a block and scans
//! it, piece by piece (see `parallel_scan`: each piece's job checks its
//! bytes, then scans them while they are at hand, so that the file is
//! read from memory once, by both threads), and locates the hits of the
//! block before, while this thread hands the hits located in the round
//! before to the sink. The transcoder (which counts malformed sequences
//! and skips a BOM) is then told that the block is valid UTF-8; only if a
//! piece is not does it read the block itself, to count what it replaces.
//! Nothing is copied, and no buffer but the hits is filled: the pages of
//! the map are the page cache's own.
//!
//! Only UTF-8 input is scanned so (as the transcoder's identity, the text
//! scanned is the input after its BOM); a file in any other charset, a
//! small file and any input that is not a [`File`] are read as before
//! ([`ReadAt`] through `Positional`). The hits are exactly those of a
//! read: the scan sees the same bytes, as one window, which is what the
//! reads are built to match (docs/rules.md §3 for the charset, chosen from
//! the same first 64 KiB).
//!
//! # What a map risks, and how it is bounded
//!
//! A map shows the file as it is at each access, not as it was when read:
//! if another process truncates the file while it is scanned, touching a
//! page past the new end raises `SIGBUS` and ends the process, where a
//! read would have seen the end of the file; bytes written meanwhile may
//! be seen half-written. A file that grows is scanned up to the length it
//! had when mapped. That is the caveat ripgrep documents for its maps
//! too. It is bounded here to what it can be: only when asked for
//! ([`Searcher::memory_map`], off by default), only a regular file (its
//! metadata says so, and its length is known), only when several threads
//! scan it, and only through
//! [`ReadAt::file`], which a caller that must see every read (progress, a
//! signal that stops the scan) leaves at `None`. A caller for whom the
//! file may be truncated while scanned passes a reader instead.

use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};

use memmap2::{Mmap, MmapOptions};

use crate::find::scanner::{Candidate, LOOKAHEAD, MIN_MAX_LEN, ScanState};
use crate::stream::delivery::{Delivery, Locate};
use crate::stream::locating::Lines;
use crate::stream::parallel_pipeline::count;
use crate::stream::parallel_scan::{MIN_PIECE, Piece, char_boundary, scan_window_with};
use crate::stream::read_at::ReadAt;
use crate::stream::searcher::Searcher;
use crate::stream::source::Source;
use crate::stream::summary::Summary;

/// The block each thread gets in a round over a mapped file. Larger than
/// a read's (512 KiB a thread): a block is no buffer here, only its hits are held, and fewer rounds
/// leave the pool's threads less often idle between two (on `((((…`, 256
/// MiB: 1.3 CPUs busy in rounds of 1 MiB, 1.6 in rounds of 4 MiB).
const MAPPED_BLOCK: usize = 2 << 20;

/// The least a file must hold to be mapped: below, the map's setting up
/// and tearing down cost more than the copies save.
pub(crate) const MIN_MAPPED: u64 = 4 << 20;

/// A map of `input`'s file, if it is a regular file of at least
/// [`MIN_MAPPED`] bytes (see the module docs).
pub(super) fn map<F: ReadAt + ?Sized>(input: &F) -> Option<Mmap> {
    let file: &File = input.file()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() < MIN_MAPPED {
        return None;
    }
    let len = usize::try_from(meta.len()).ok()?;
    // SAFETY: the map is only read, as bytes (any value is a valid `u8`),
    // for as long as it lives (until the scan returns). What another
    // process may do to the file meanwhile is the hazard of every map and
    // is bounded as the module docs say: a regular file, its length known
    // (and mapped no further), scanned by several threads, and only where
    // the caller handed the `File` itself.
    let map = unsafe { MmapOptions::new().len(len).map(file) }.ok()?;
    debug_assert_eq!(map.len(), len);
    // The pages are read once, in order: read them ahead, drop them after.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Sequential);
    Some(map)
}

impl Searcher {
    /// Scans `input`, a file held whole in memory, if it is UTF-8 (its
    /// charset given or detected as a read would); else gives `delivery`
    /// back untouched (`None`), to read the file.
    pub(super) fn run_whole<D: Delivery>(
        &self,
        input: &[u8],
        delivery: &mut D,
    ) -> Option<Result<Summary, D::Error>> {
        let block = self.buffer_size.max(self.threads * MAPPED_BLOCK);
        self.run_whole_in(input, delivery, block, MIN_PIECE)
    }

    /// [`run_whole`](Searcher::run_whole) in blocks of `block` bytes, cut
    /// into pieces of at least `min_piece` bytes.
    fn run_whole_in<D: Delivery>(
        &self,
        input: &[u8],
        delivery: &mut D,
        block: usize,
        min_piece: usize,
    ) -> Option<Result<Summary, D::Error>> {
        let source = Source::whole((), input, self.encoding);
        if !source.transcoder.is_identity() {
            return None;
        }
        let scanned = (|| {
            if !delivery.begin(source.transcoder.charset())? {
                let summary = source.summary(0, source.held());
                delivery.finish(&summary)?;
                return Ok(summary);
            }
            let summary = self.scan_whole(input, source, delivery, block, min_piece)?;
            delivery.finish(&summary)?;
            Ok(summary)
        })();
        Some(scanned)
    }

    /// The pipeline of [`run_parallel`](Searcher::threads) over one window,
    /// the whole input: in each round the pool checks the UTF-8 of the
    /// block up to `end` and scans it, piece by piece (each piece checked
    /// in its own job, then scanned while its bytes are at hand), and
    /// locates the hits of the block before (`pending`); meanwhile this
    /// thread hands the hits located in the round before (`kept`) to the
    /// sink. The check runs a candidate's reach ahead of the scan, so that
    /// the transcoder has passed the bytes a hit is located in.
    fn scan_whole<D: Delivery>(
        &self,
        input: &[u8],
        mut source: Source<()>,
        delivery: &mut D,
        block: usize,
        min_piece: usize,
    ) -> Result<Summary, D::Error> {
        let opts = self.finder.options();
        let reach = opts.max_len.max(MIN_MAX_LEN) + LOOKAHEAD;
        // The identity transcoder skips the BOM: the text is what follows.
        let bom = source.transcoder.charset().bom_len().min(input.len());
        let text = &input[bom..];
        let mut end = block.min(text.len());
        // The input before `checked` has passed the transcoder.
        let mut checked = 0;
        let mut found: Vec<Vec<Candidate>> = Vec::new();
        let mut pending: Vec<Vec<Candidate>> = Vec::new();
        let mut kept: Option<D::Kept> = None;
        let mut state = ScanState::default();
        let mut lines = Lines::new(self.line_numbers);
        let mut hits = 0u64;
        loop {
            let at_end = end == text.len();
            let check_to = char_boundary(input, (bom + end + reach).min(input.len()));
            let valid = AtomicBool::new(true);
            let mut st = state.clone();
            let scan = &mut found;
            let (located, flushed) = self.pool.in_place_scope(|scope| {
                scope.spawn(|_| {
                    let (from, valid) = (checked, &valid);
                    // The part of the input piece `p` checks: from where
                    // the piece before stopped to the character boundary
                    // after its end (the last up to `check_to`).
                    let check = |p: Piece| {
                        let bound =
                            |at: usize| char_boundary(input, bom + at).clamp(from, check_to);
                        let a = if p.first { from } else { bound(p.at) };
                        let b = if p.last { check_to } else { bound(p.end) };
                        if a < b && simdutf8::basic::from_utf8(&input[a..b]).is_err() {
                            valid.store(false, Ordering::Relaxed);
                        }
                    };
                    scan.iter_mut().for_each(Vec::clear);
                    // The whole text is at hand: every trigger before
                    // `end` is decided.
                    if end > st.pos {
                        let pieces = self.threads * 8;
                        scan_window_with(text, opts, &mut st, end, pieces, min_piece, scan, &check);
                    } else {
                        check(Piece {
                            at: 0,
                            end: 0,
                            first: true,
                            last: true,
                        });
                    }
                });
                let flushed = match kept.take() {
                    Some(k) => delivery.flush(k),
                    None => Ok(true),
                };
                if !matches!(flushed, Ok(true)) {
                    return (Vec::new(), flushed);
                }
                let mut ctx = Locate {
                    lines: &mut lines,
                    window: text,
                    base: 0,
                    transcoder: &source.transcoder,
                    pool: &self.pool,
                };
                (delivery.locate(&pending, &mut ctx), flushed)
            });
            state = st;
            // Only if a piece is not valid UTF-8 does the transcoder read
            // the part again, to count what it replaces.
            let part = &input[checked..check_to];
            source.check(part, check_to == input.len(), valid.into_inner());
            checked = check_to;
            let mut go_on = flushed?;
            if go_on {
                hits += count(&pending);
                (go_on, kept) = delivery.keep(located)?;
            } else {
                drop(located);
            }
            std::mem::swap(&mut found, &mut pending);
            if go_on && at_end {
                // The last block's hits.
                if let Some(k) = kept.take() {
                    go_on = delivery.flush(k)?;
                }
                if go_on {
                    hits += count(&pending);
                    let mut ctx = Locate {
                        lines: &mut lines,
                        window: text,
                        base: 0,
                        transcoder: &source.transcoder,
                        pool: &self.pool,
                    };
                    let located = delivery.locate(&pending, &mut ctx);
                    let last;
                    (go_on, last) = delivery.keep(located)?;
                    if let (true, Some(k)) = (go_on, last) {
                        delivery.flush(k)?;
                    }
                }
            }
            if !go_on || at_end {
                return Ok(source.summary(hits, source.held()));
            }
            end = (end + block).min(text.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::finder::Finder;
    use crate::find::found_iri::Hit;
    use crate::stream::delivery::{Mapped, ToSink};

    /// What a hit reports, and what the summary says of the input.
    type Row = (usize, usize, u64, u64, String, bool);

    fn row(h: &Hit<'_>) -> Row {
        let (start, end, line, column) = (h.start(), h.end(), h.line(), h.column());
        (start, end, line, column, h.iri().to_string(), h.is_valid())
    }

    /// Bytes, hits, replacements, charset.
    type Facts = (u64, u64, u64, &'static str);

    fn facts(s: &Summary) -> Facts {
        (s.bytes, s.hits, s.replacements, s.charset.name())
    }

    /// One thread reading `input`: the hits to match.
    fn read(searcher: &Searcher, input: &[u8]) -> (Vec<Row>, Facts) {
        let mut rows = Vec::new();
        let summary = searcher
            .clone()
            .threads(1)
            .scan_reader(input, |h: &Hit| {
                rows.push(row(h));
                Ok(true)
            })
            .unwrap();
        (rows, facts(&summary))
    }

    /// `input` held whole, in blocks of `block`, checked in pieces of
    /// `piece`: to a sink, and mapped on the pool.
    fn whole(
        searcher: &Searcher,
        input: &[u8],
        block: usize,
        piece: usize,
    ) -> Option<(Vec<Row>, Facts)> {
        let mut rows = Vec::new();
        let mut sink = |h: &Hit| {
            rows.push(row(h));
            Ok(true)
        };
        let summary = searcher
            .run_whole_in(input, &mut ToSink(&mut sink), block, piece)?
            .unwrap();
        let mut mapped = Vec::new();
        let delivery = &mut Mapped {
            map: row,
            sink: |r| {
                mapped.push(r);
                Ok(true)
            },
        };
        let again = searcher
            .run_whole_in(input, delivery, block, piece)
            .unwrap()
            .unwrap();
        assert_eq!(rows, mapped);
        assert_eq!(facts(&summary), facts(&again));
        Some((rows, facts(&summary)))
    }

    /// Every block size from the least on, and pieces cut anywhere.
    #[track_caller]
    fn agrees(searcher: &Searcher, input: &[u8]) {
        let expected = read(searcher, input);
        let least = searcher.finder.options().max_len.max(MIN_MAX_LEN) + LOOKAHEAD;
        for block in [97, least, least + 3, 3 * least + 2, 1 << 20] {
            for piece in [1, 2, 3, 5, 4096, MIN_PIECE] {
                if piece < 5 && input.len() > 50_000 {
                    continue; // the small inputs cover tiny pieces; keep it fast
                }
                let got = whole(searcher, input, block, piece).expect("UTF-8 is scanned whole");
                assert!(got == expected, "block {block}, piece {piece}");
            }
        }
    }

    fn two_threads() -> Searcher {
        Searcher::new(Finder::new()).threads(2)
    }

    #[test]
    fn inputs_without_white_space_agree() {
        for unit in [
            "abcdefghij",
            "a+b-c.d",
            "a.a~",
            "((((",
            "http://",
            "例え.jp/é",
        ] {
            agrees(&two_threads(), unit.repeat(40_000 / unit.len()).as_bytes());
        }
    }

    #[test]
    fn multibyte_characters_across_blocks_and_pieces_agree() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(match i % 6 {
                0 => "東京 https://例え.jp/検索?q=東京\n",
                1 => "😀 mail 太郎@example.jp, ",
                2 => "é www.exämple.org/ü ",
                3 => "<https://a.example/b\n  c> ",
                4 => "Ωμέγα (http://x.example/Ω) ",
                _ => "ascii text only ",
            });
        }
        let finder = Finder::new().max_len(MIN_MAX_LEN);
        agrees(&Searcher::new(finder).threads(2), text.as_bytes());
        agrees(&two_threads(), text.as_bytes());
    }

    #[test]
    fn invalid_utf8_is_counted_as_a_read_counts_it() {
        let unit = "see https://例え.jp/a and www.b.example/é ";
        let mut bytes = unit.repeat(400).into_bytes();
        // Lone bytes, cut sequences, a surrogate, an overlong form, here
        // and there (at a block's and a piece's edge too).
        let bad: [&[u8]; 5] = [b"\xff", b"\xc3", b"\xe6\x9d", b"\xed\xa0\x80", b"\xc0\xaf"];
        for (k, at) in [1, 100, 4096, 8293, 8294, 8295, 9000, 12_345]
            .iter()
            .enumerate()
        {
            let at = (*at).min(bytes.len());
            bytes.splice(at..at, bad[k % bad.len()].iter().copied());
        }
        let searcher = two_threads().encoding(Some(encoding_rs::UTF_8));
        agrees(&searcher, &bytes);
        assert!(
            read(&searcher, &bytes).1.2 >= 8,
            "the replacements are counted"
        );
        // …and ending inside a character.
        bytes.extend_from_slice("https://x.example/東".as_bytes());
        bytes.extend_from_slice(b"\xe6\x9d");
        agrees(&searcher, &bytes);
    }

    #[test]
    fn a_bom_and_an_empty_input_agree() {
        let text = "https://a.example/ü\n".repeat(2000);
        let bommed = [&b"\xef\xbb\xbf"[..], text.as_bytes()].concat();
        agrees(&two_threads(), &bommed);
        agrees(&two_threads().encoding(Some(encoding_rs::UTF_8)), &bommed);
        agrees(&two_threads(), b"");
        agrees(&two_threads(), b"https://a.example/");
    }

    #[test]
    fn another_charset_is_read_not_scanned_whole() {
        let text = "café https://a.example/é\n".repeat(5000);
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        assert!(whole(&two_threads(), &latin1, 1 << 20, MIN_PIECE).is_none());
        let sjis = two_threads().encoding(Some(encoding_rs::SHIFT_JIS));
        assert!(whole(&sjis, b"abc", 1 << 20, MIN_PIECE).is_none());
        // Taken for UTF-8 when told so: malformed, counted, as a read does.
        agrees(&two_threads().encoding(Some(encoding_rs::UTF_8)), &latin1);
    }

    #[test]
    fn a_sink_that_stops_gets_no_more_hits() {
        let text = "https://a.example/1 ".repeat(20_000);
        let (expected, _) = read(&two_threads(), text.as_bytes());
        for stop in [1, 500, 5000, expected.len() - 1] {
            let mut rows = Vec::new();
            let mut sink = |h: &Hit| {
                rows.push(row(h));
                Ok(rows.len() < stop)
            };
            let searcher = two_threads();
            let least = MIN_MAX_LEN.max(8192) + LOOKAHEAD;
            searcher
                .run_whole_in(text.as_bytes(), &mut ToSink(&mut sink), least, 4096)
                .unwrap()
                .unwrap();
            assert_eq!(rows, expected[..stop], "stop after {stop}");
        }
    }

    #[test]
    fn only_a_large_regular_file_is_mapped() {
        let dir = std::env::temp_dir();
        let path = dir.join(format!("iriscan-mapped-{}.txt", std::process::id()));
        std::fs::write(&path, vec![b'a'; MIN_MAPPED as usize]).unwrap();
        let file = File::open(&path).unwrap();
        assert_eq!(map(&file).map(|m| m.len()), Some(MIN_MAPPED as usize));
        assert_eq!(map(&&file).map(|m| m.len()), Some(MIN_MAPPED as usize));
        // Not a `File`: read.
        let bytes = std::fs::read(&path).unwrap();
        assert!(map(&bytes[..]).is_none());
        // Too small: read.
        std::fs::write(&path, b"small").unwrap();
        let file = File::open(&path).unwrap();
        assert!(map(&file).is_none());
        std::fs::remove_file(&path).unwrap();
        // Not a regular file.
        #[cfg(unix)]
        if let Ok(dev) = File::open("/dev/zero") {
            assert!(map(&dev).is_none());
        }
    }
}
