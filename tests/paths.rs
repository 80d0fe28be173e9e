//! One input, every path, identical hits (ripgrep's SearcherTester habit):
//! the slice path (`Finder::find_iter`) and the streaming path
//! (`Searcher::scan_reader`) with every small buffer size and readers that
//! return a few bytes at a time, files read at offsets
//! (`Searcher::scan_file`), and the parallel pipeline.

use iriscan::{Finder, Hit, ReadAt, Searcher};
use proptest::prelude::*;

use crate::support::{FailingAfter, Trickle};

/// Everything a hit reports, as plain data.
type Row = (
    usize,
    usize,
    u64,
    u64,
    &'static str,
    String,
    String,
    bool,
    Vec<&'static str>,
);

fn row(h: &Hit<'_>) -> Row {
    (
        h.start(),
        h.end(),
        h.line(),
        h.column(),
        h.kind().as_str(),
        h.text().to_string(),
        h.iri().to_string(),
        h.is_valid(),
        h.warnings().map(|w| w.as_str()).collect(),
    )
}

fn slice_rows(finder: Finder, input: &[u8]) -> Vec<Row> {
    finder.find_iter(input).map(|h| row(&h)).collect()
}

fn stream_rows(
    finder: Finder,
    input: &[u8],
    buffer: usize,
    chunk: usize,
    incremental: bool,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let summary = Searcher::new(finder)
        .encoding(Some(encoding_rs::UTF_8))
        .buffer_size(buffer)
        .incremental(incremental)
        .scan_reader(Trickle { data: input, chunk }, |h: &Hit| {
            rows.push(row(h));
            Ok(true)
        })
        .expect("in-memory reads do not fail");
    assert_eq!(summary.bytes, input.len() as u64);
    // Bounded memory: a block (at least the detection prefix, read first),
    // the longest IRI, context; twice over for capacity slack.
    let block = buffer.max(iriscan::DETECTION_PREFIX_LEN);
    assert!(
        summary.peak_buffer <= 4 * (block + finder.max_iri_len()),
        "{}",
        summary.peak_buffer
    );
    rows
}

/// Runs `input` through every path and demands the slice path's hits.
#[track_caller]
fn all_paths_agree(finder: Finder, input: &[u8]) {
    let expected = slice_rows(finder, input);
    for buffer in [1, 2, 3, 4, 7, 64, 1000, iriscan::DEFAULT_BUFFER_SIZE] {
        for chunk in [1, 3, 64, usize::MAX] {
            if buffer > 64 && chunk < 64 && input.len() > 20_000 {
                continue; // the small cases cover tiny reads; keep the suite fast
            }
            // Incremental reading depends on the reads, not the buffer:
            // a tiny buffer and the default one are enough.
            let incremental_too = buffer == 7 || buffer == iriscan::DEFAULT_BUFFER_SIZE;
            for incremental in [false, true] {
                if incremental && !incremental_too {
                    continue;
                }
                assert_eq!(
                    stream_rows(finder, input, buffer, chunk, incremental),
                    expected,
                    "buffer {buffer}, chunk {chunk}, incremental {incremental}"
                );
            }
        }
    }
}

const TEXTS: &[&str] = &[
    "",
    "no links here",
    "see http://example.com/ now",
    "(https://en.wikipedia.org/wiki/Rust_(programming_language)).",
    "詳細は https://ja.wikipedia.org/wiki/東京都 をご覧ください。連絡先は info@example.jp まで。",
    "line1\r\nline2 www.example.com/x\r\n\r\nmailto:a@b.example, urn:isbn:0451450523",
    "Note the warning in <http://www.ics.uci.edu/pub/\n   ietf/uri/historical.html#WARNING>.",
    "<URL:http://a.example/x\n y> and <ftp://foo.example.\n   com/rfc/>.",
    "invalid http://a.example/%zz then http://a.example/ok",
    "http://www.scriptics.com参照 and ldap://でなければなりません",
    "http://example.org[1]. 'http://a.example/b'c «http://x.example/»",
];

#[test]
fn hand_written_texts_agree_on_every_path() {
    for t in TEXTS {
        all_paths_agree(Finder::new(), t.as_bytes());
        all_paths_agree(Finder::new().www(false).email(false), t.as_bytes());
    }
}

#[test]
fn long_and_truncated_candidates_agree() {
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!("x http://a.example/{} y\n", "é".repeat(i * 137)));
    }
    all_paths_agree(Finder::new().max_len(600), text.as_bytes());
    all_paths_agree(Finder::new(), text.as_bytes());
}

#[test]
fn megabytes_without_white_space_agree() {
    let text = "http://a.example/".to_string() + &"abc.www.x@".repeat(30_000);
    all_paths_agree(Finder::new(), text.as_bytes());
}

#[test]
fn invalid_utf8_agrees() {
    let mut bytes = b"http://a.example/\xFFb \xE6\x97 http://b.example/\xC0\xAF".to_vec();
    bytes.extend_from_slice("éhttp://c.example\u{FFFD}x".as_bytes());
    all_paths_agree(Finder::new(), &bytes);
}

const TOKENS: &[&str] = &[
    "http://", "https://", "mailto:", "urn:x", "www.", "WWW.", "a", "b.c", ".com", "/", "@", ":",
    "-", "'", "(", ")", "[1]", "{", "}", "<", ">", "<URL:", " ", "\n", "\r\n", "\n  ", "例え",
    "。", "「", "」", "é", "😀", "?", "#", "%41", "%zz", "ą",
];

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(16)
    })]

    #[test]
    fn generated_texts_agree_on_every_path(parts in prop::collection::vec(prop::sample::select(TOKENS), 0..400)) {
        let text = parts.concat();
        all_paths_agree(Finder::new().max_len(512), text.as_bytes());
    }
}

/// Tokens of every kind glued into one text (`<URL:`, CRLF, indented line
/// breaks, `www.` hosts, addresses, CJK punctuation), candidates cut at
/// 512 bytes.
// Found by `generated_texts_agree_on_every_path`: seed cc a4c810a7f28a6a07.
#[test]
fn a_long_mix_of_every_token_agrees_on_every_path() {
    let parts: &[&str] = &[
        "WWW.", "%41", ".com", "'", "%zz", "b.c", "(", "\r\n", "https://", "WWW.", "<", "\n  ",
        "WWW.", "b.c", "}", "。", "「", "@", "é", ".com", "😀", "「", "https://", "mailto:", "é",
        "{", "b.c", ".com", "例え", "'", ">", "{", "[1]", "/", "%41", "<", "%zz", " ", "b.c", " ",
        "{", "urn:x", "/", "https://", "?", "www.", "。", "mailto:", "例え", "'", "(", "<URL:",
        "%41", "ą", "https://", "http://", "%41", "-", "?", "「", ".com", "例え", ".com", "#",
        "b.c", "https://", "<URL:", "\r\n", "'", "(", "WWW.", ":", "https://", "😀", "www.",
        ".com", " ", "。", ".com", "}", ">", "@", "。", "<URL:", "b.c", "http://", ".com", "\n  ",
        ")", "b.c", "?", "http://", "-", "(", "😀", "www.", "(", "https://", "urn:x", "urn:x",
        "。", "www.", ">", "urn:x", "😀", "urn:x", "「", "<", "www.", "%zz", "}", ":", "(",
        "http://", "é", "https://", "%zz", ".com", "mailto:", " ", "(", "%41", "。", "www.", "😀",
        ")", "/", "「", "https://", "https://", "http://", "/", "「", " ", " ", "{", "\r\n", "\n",
        "<", "/", ":", "(", "@", " ", "?", "\n", "「", "#", "mailto:", "例え", "「", "<", "。",
        "http://", "\n  ", "<URL:", "<", "例え", "#", "b.c", ")", "é", "http://", "WWW.", "例え",
        "\r\n", "http://",
    ];
    all_paths_agree(Finder::new().max_len(512), parts.concat().as_bytes());
}

/// One space inside `<…>` is glue when a `>` comes before any other white
/// space (docs/rules.md §1.4): read incrementally, a byte at a time, such
/// a hit was settled at the space, before the `>` that decides it had been
/// read (`mailto:#` instead of `mailto:#/`).
// Found by `generated_texts_agree_on_every_path` (2026-11-26), reduced.
#[test]
fn one_space_inside_angle_brackets_agrees_on_every_path() {
    for text in [
        "<URL:mailto:# />",
        "x <http://a.example/b c> y\n",
        "x <http://a.example/b c d> y\n",
        "x <http://a.example/b c\n  d> y\n",
        "x <http://a.example/b c\"d> y\n",
        "x <http://a.example/b  c> y\n",
        "x <mail@a.example c> y\n",
    ] {
        all_paths_agree(Finder::new().max_len(512), text.as_bytes());
    }
}

/// Incremental reading hands each hit on once the white space after it has
/// been read (a `tail -f` pipe shows each link as its line arrives), not
/// `max_len` bytes later; read a byte at a time, every hit arrives before
/// the byte after the first white space that follows it is read.
#[test]
fn incremental_reading_delivers_each_hit_once_its_end_is_settled() {
    use std::cell::Cell;
    use std::io::Read;
    struct Counted<'a> {
        data: &'a [u8],
        read: &'a Cell<usize>,
    }
    impl Read for Counted<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let at = self.read.get();
            let n = out.len().min(1).min(self.data.len() - at);
            out[..n].copy_from_slice(&self.data[at..at + n]);
            self.read.set(at + n);
            Ok(n)
        }
    }
    let mut text = String::new();
    for t in TEXTS.iter().filter(|t| !t.contains('<')) {
        text.push_str(t);
        text.push('\n');
    }
    text.push_str("tail -f: https://a.example/last\n");
    let expected = slice_rows(Finder::new(), text.as_bytes());
    let read = Cell::new(0);
    let mut rows = Vec::new();
    Searcher::new(Finder::new())
        .encoding(Some(encoding_rs::UTF_8))
        .incremental(true)
        .scan_reader(
            Counted {
                data: text.as_bytes(),
                read: &read,
            },
            |h: &Hit| {
                let settled = text.as_bytes()[h.end()..]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .map_or(text.len(), |i| h.end() + i + 1);
                assert!(
                    read.get() <= settled,
                    "{} delivered after {} bytes, settled at {settled}",
                    h.iri(),
                    read.get()
                );
                rows.push(row(h));
                Ok(true)
            },
        )
        .unwrap();
    assert_eq!(rows, expected);
    // Without it, the hits wait for a full block.
    let read = Cell::new(0);
    let mut first_at = None;
    Searcher::new(Finder::new())
        .encoding(Some(encoding_rs::UTF_8))
        .scan_reader(
            Counted {
                data: text.as_bytes(),
                read: &read,
            },
            |_: &Hit| {
                first_at.get_or_insert(read.get());
                Ok(true)
            },
        )
        .unwrap();
    assert_eq!(first_at, Some(text.len()));
}

/// A scan's sink: takes every hit.
type Sink<'a> = dyn FnMut(&Hit<'_>) -> std::io::Result<bool> + 'a;

/// The rows of the hits a scan hands to the sink it is given, and how it
/// ended.
fn scan_rows(
    scan: impl FnOnce(&mut Sink<'_>) -> std::io::Result<iriscan::Summary>,
) -> (Vec<Row>, std::io::Result<iriscan::Summary>) {
    let mut rows = Vec::new();
    let ended = scan(&mut |h| {
        rows.push(row(h));
        Ok(true)
    });
    (rows, ended)
}

fn searcher_rows(searcher: Searcher, input: &[u8], chunk: usize) -> Vec<Row> {
    let (rows, ended) =
        scan_rows(|sink| searcher.scan_reader(Trickle { data: input, chunk }, sink));
    ended.expect("in-memory reads do not fail");
    rows
}

fn parallel_rows(finder: Finder, input: &[u8], threads: usize) -> Vec<Row> {
    let searcher = Searcher::new(finder)
        .encoding(Some(encoding_rs::UTF_8))
        .threads(threads);
    searcher_rows(searcher, input, 1 << 20)
}

/// A few MiB of every hand-written text, wrapped IRIs and long runs, so
/// the pool really cuts it into pieces and the pipeline runs many windows.
fn large_text() -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 3 << 20 {
        text.push_str(TEXTS[i % TEXTS.len()]);
        text.push(if i % 7 == 0 { '\n' } else { ' ' });
        if i % 997 == 0 {
            text.push_str(&format!(
                "<http://long.example/{}\n   tail> ",
                "w".repeat(i % 9000)
            ));
        }
        i += 1;
    }
    text
}

#[test]
fn parallel_paths_agree_on_a_large_input() {
    let text = large_text();
    let finder = Finder::new();
    let expected = slice_rows(finder, text.as_bytes());
    assert!(expected.len() > 10_000);
    for threads in [2, 3, 4, 8] {
        assert_eq!(
            parallel_rows(finder, text.as_bytes(), threads),
            expected,
            "{threads} threads"
        );
    }
    // Reads of odd sizes and a buffer larger than the parallel block.
    for (threads, buffer, chunk) in [(2, 1, 777), (3, 3 << 20, 65_537), (2, 5 << 20, 1 << 20)] {
        let searcher = Searcher::new(finder)
            .encoding(Some(encoding_rs::UTF_8))
            .threads(threads)
            .buffer_size(buffer);
        assert_eq!(
            searcher_rows(searcher, text.as_bytes(), chunk),
            expected,
            "{threads} threads, buffer {buffer}, reads of {chunk}"
        );
    }
}

/// Inputs without white space (issue 12): the pool cuts them anywhere —
/// inside runs, schemes, hosts, addresses, characters — and the hits are
/// the same as on one thread. Each a few MiB, so that every window is cut
/// into pieces, and with a small `max_len` too, so that truncated runs
/// cross many pieces.
#[test]
fn parallel_paths_agree_on_inputs_without_white_space() {
    let dense = (0..40_000)
        .map(|i| match i % 5 {
            0 => format!("http://h{i}.example/p?q={i}"),
            1 => format!("u{i}.x+y@例え{i}.jp"),
            2 => format!("www.w{i}.example/é"),
            3 => format!("<https://a.example/{i}\n>"),
            _ => format!("a+b-c.d{i}(例)"),
        })
        .collect::<String>();
    let glued = format!("{}(http://x.example/end)", "a+b-c.d".repeat(20_000)).repeat(30);
    let inputs = [
        ("no-space", "abcdefghij".repeat(300_000)),
        ("scheme-run", "a+b-c.d".repeat(450_000)),
        ("a.a~", "a.a~".repeat(800_000)),
        ("parens", "((((((((((".repeat(300_000)),
        ("http-chain", "http://".repeat(450_000)),
        ("links without white space", dense),
        ("runs with a link glued at the end", glued),
    ];
    for (name, text) in &inputs {
        for max_len in [512, 8192] {
            let finder = Finder::new().max_len(max_len);
            let expected = slice_rows(finder, text.as_bytes());
            if name.contains("link") {
                assert!(expected.len() >= 30, "{name}: {} hits", expected.len());
            }
            for threads in [2, 3] {
                assert_eq!(
                    parallel_rows(finder, text.as_bytes(), threads),
                    expected,
                    "{name}, max_len {max_len}, {threads} threads"
                );
            }
        }
    }
}

/// A sink that says stop gets exactly the hits before it, on every path:
/// the parallel pipeline has already scanned the next window by then, and
/// must not deliver it.
#[test]
fn a_sink_that_stops_gets_no_more_hits() {
    let text = large_text();
    let expected = slice_rows(Finder::new(), text.as_bytes());
    for threads in [1, 2, 4] {
        for stop_after in [1, 2_000, 20_000, expected.len() - 1, expected.len()] {
            let mut rows = Vec::new();
            let summary = Searcher::new(Finder::new())
                .threads(threads)
                .scan_reader(text.as_bytes(), |h: &Hit| {
                    rows.push(row(h));
                    Ok(rows.len() < stop_after)
                })
                .unwrap();
            assert_eq!(
                rows,
                expected[..stop_after],
                "{threads} threads, stop after {stop_after}"
            );
            assert!(summary.hits >= stop_after as u64);
            // Mapped hits are delivered a round late, while the pool scans
            // the next window; a stop there must hold as well.
            let mut rows = Vec::new();
            Searcher::new(Finder::new())
                .threads(threads)
                .scan_file_map(text.as_bytes(), row, |r| {
                    rows.push(r);
                    Ok(rows.len() < stop_after)
                })
                .unwrap();
            assert_eq!(
                rows,
                expected[..stop_after],
                "mapped, {threads} threads, stop after {stop_after}"
            );
        }
    }
}

/// Input read at offsets that hands out at most `chunk` bytes per read.
struct ShortReads<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl ReadAt for ShortReads<'_> {
    fn read_at(&self, out: &mut [u8], offset: u64) -> std::io::Result<usize> {
        let n = self.chunk.min(out.len());
        self.data.read_at(&mut out[..n], offset)
    }
}

fn file_rows<F: ReadAt + ?Sized>(searcher: Searcher, input: &F) -> Vec<Row> {
    let (rows, ended) = scan_rows(|sink| searcher.scan_file(input, sink));
    ended.expect("in-memory reads do not fail");
    rows
}

/// What a scan that failed at byte `fail_at` of `expected`'s input
/// delivered: a prefix of `expected`, holding every hit that ends well
/// before the failure (the bytes read decide them).
fn assert_prefix_before_failure(rows: &[Row], expected: &[Row], fail_at: usize, what: &str) {
    let decided = expected
        .iter()
        .filter(|r| r.1 + (16 << 10) < fail_at)
        .count();
    assert!(rows.len() >= decided, "{what}: {} < {decided}", rows.len());
    assert_eq!(rows, &expected[..rows.len()], "{what}");
}

/// Files are read at offsets — with several threads, each block in pieces
/// on the pool: the same hits as the slice, whatever the threads, the
/// block size and the size of the reads; a real file too.
#[test]
fn files_read_at_offsets_agree_on_a_large_input() {
    let text = large_text();
    let finder = Finder::new();
    let expected = slice_rows(finder, text.as_bytes());
    for (threads, buffer, chunk) in [
        (1, 1 << 16, usize::MAX),
        (1, 7, 1000),
        (2, 1, usize::MAX),
        (2, 1, 4097),
        (3, 3 << 20, 65_537),
        (4, 1, 100_000),
        (8, 1, usize::MAX),
    ] {
        let searcher = Searcher::new(finder)
            .encoding(Some(encoding_rs::UTF_8))
            .threads(threads)
            .buffer_size(buffer);
        let input = ShortReads {
            data: text.as_bytes(),
            chunk,
        };
        assert_eq!(
            file_rows(searcher, &input),
            expected,
            "{threads} threads, buffer {buffer}, reads of {chunk}"
        );
    }
    let path = std::env::temp_dir().join(format!("iriscan-paths-{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    for threads in [1, 2] {
        let searcher = Searcher::new(finder).threads(threads);
        assert_eq!(
            file_rows(searcher, &file),
            expected,
            "file, {threads} threads"
        );
    }
    std::fs::remove_file(&path).unwrap();
}

/// Invalid UTF-8 in a file read at offsets in pieces on the pool (each
/// piece checks its own UTF-8 as it is read): the same hits and the same
/// count of replacements as one thread, wherever the bad bytes fall.
#[test]
fn invalid_utf8_in_a_file_read_in_pieces_agrees() {
    let mut text = large_text().into_bytes();
    for (k, at) in [5, 131_071, 131_072, 131_073, 1 << 20, (2 << 20) + 3]
        .iter()
        .enumerate()
    {
        let bad: [&[u8]; 4] = [b"\xff", b"\xe6\x9d", b"\xed\xa0\x80", b"\xc3"];
        text.splice(at..at, bad[k % 4].iter().copied());
    }
    text.extend_from_slice(&"東".as_bytes()[..2]);
    let one = Searcher::new(Finder::new()).encoding(Some(encoding_rs::UTF_8));
    let (expected, ended) = scan_rows(|sink| one.scan_file(&text[..], sink));
    let summary = ended.unwrap();
    assert!(summary.replacements >= 7);
    for threads in [2, 3] {
        let searcher = one.clone().threads(threads);
        let (rows, ended) = scan_rows(|sink| searcher.scan_file(&text[..], sink));
        assert!(rows == expected, "{threads} threads");
        assert_eq!(ended.unwrap().replacements, summary.replacements);
    }
}

/// Input read at offsets whose reads fail from `fail_at` on.
struct FailingFrom<'a> {
    data: &'a [u8],
    fail_at: u64,
}

impl ReadAt for FailingFrom<'_> {
    fn read_at(&self, out: &mut [u8], offset: u64) -> std::io::Result<usize> {
        if offset >= self.fail_at {
            return Err(std::io::Error::other("bad sector"));
        }
        let n = out.len().min((self.fail_at - offset) as usize);
        self.data.read_at(&mut out[..n], offset)
    }
}

/// A read at an offset that fails ends the scan with that error, after the
/// hits the bytes before it decide, on every path.
#[test]
fn a_failed_read_at_an_offset_keeps_the_hits_before_it() {
    let text = large_text();
    let expected = slice_rows(Finder::new(), text.as_bytes());
    let fail_at = (2 << 20) + 12_345;
    for threads in [1, 2, 4] {
        let mut rows = Vec::new();
        let input = FailingFrom {
            data: text.as_bytes(),
            fail_at: fail_at as u64,
        };
        let err = Searcher::new(Finder::new())
            .threads(threads)
            .scan_file_map(&input, row, |r| {
                rows.push(r);
                Ok(true)
            })
            .unwrap_err();
        assert_eq!(err.to_string(), "bad sector");
        assert_prefix_before_failure(&rows, &expected, fail_at, &format!("{threads} threads"));
    }
}

/// Legacy charsets through the pipeline: the offset map of the transcoder
/// is consulted for window k while block k+1 is decoded.
#[test]
fn parallel_paths_agree_on_legacy_charsets() {
    let unit = "東京の天気は https://例え.jp/検索?q=東京 を見て。\nメール: 太郎@example.jp、\
                詳細は<https://example.jp/a/\n  b>へ。ascii text www.example.co.jp/x\n";
    let text = unit.repeat((3 << 20) / unit.len());
    for encoding in [
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::UTF_16LE,
    ] {
        let bytes: Vec<u8> = if encoding == encoding_rs::UTF_16LE {
            text.encode_utf16().flat_map(u16::to_le_bytes).collect()
        } else {
            encoding.encode(&text).0.into_owned()
        };
        let one = Searcher::new(Finder::new()).encoding(Some(encoding));
        let expected = searcher_rows(one.clone(), &bytes, 1 << 16);
        assert!(expected.len() > 50_000, "{}", encoding.name());
        for threads in [2, 3] {
            assert_eq!(
                searcher_rows(one.clone().threads(threads), &bytes, 1 << 20),
                expected,
                "{}, {threads} threads",
                encoding.name()
            );
            assert_eq!(
                file_rows(one.clone().threads(threads), &bytes[..]),
                expected,
                "{}, {threads} threads, read at offsets",
                encoding.name()
            );
            // Without line numbers, the decoder forgets more at once.
            assert_eq!(
                file_rows(one.clone().line_numbers(false).threads(threads), &bytes[..]),
                at_line_0(&expected),
                "{}, {threads} threads, no line numbers",
                encoding.name()
            );
        }
    }
}

#[test]
fn without_line_numbers_the_hits_are_the_same_at_line_0() {
    for t in TEXTS {
        let mut rows = Vec::new();
        Searcher::new(Finder::new())
            .line_numbers(false)
            .buffer_size(7)
            .scan_reader(t.as_bytes(), |h: &Hit| {
                rows.push(row(h));
                Ok(true)
            })
            .unwrap();
        assert_eq!(rows, at_line_0(&slice_rows(Finder::new(), t.as_bytes())));
    }
}

/// The rows as a scan without line numbers gives them.
fn at_line_0(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            (r.2, r.3) = (0, 0);
            r
        })
        .collect()
}

#[test]
fn mapping_on_the_pool_keeps_order_and_places() {
    let mut text = String::new();
    for i in 0..60_000 {
        text.push_str(&format!("l{i} http://h{i}.example/{}\n", "é".repeat(i % 7)));
    }
    let expected = slice_rows(Finder::new(), text.as_bytes());
    for threads in [1, 2, 4] {
        let mut rows = Vec::new();
        Searcher::new(Finder::new())
            .threads(threads)
            .scan_reader_map(text.as_bytes(), row, |r| {
                rows.push(r);
                Ok(true)
            })
            .unwrap();
        assert_eq!(rows, expected, "{threads} threads");
    }
}

/// A read error ends the scan with that error, after the hits that the
/// bytes read before it decide: on every path, every hit well before the
/// failure is delivered, in order, and nothing after it.
#[test]
fn a_read_error_keeps_the_hits_before_it() {
    let text = large_text();
    let expected = slice_rows(Finder::new(), text.as_bytes());
    let fail_at = 2 << 20;
    for threads in [1, 2, 4] {
        let (rows, ended) = scan_rows(|sink| {
            let input = FailingAfter {
                data: text.as_bytes(),
                ok: fail_at,
            };
            Searcher::new(Finder::new())
                .threads(threads)
                .scan_reader(input, sink)
        });
        assert_eq!(ended.unwrap_err().to_string(), "the input is gone");
        assert!(rows.iter().all(|r| r.1 <= fail_at));
        assert_prefix_before_failure(&rows, &expected, fail_at, &format!("{threads} threads"));
    }
}

/// The parallel pipeline holds three blocks, whatever the size of the
/// input: here 2 threads read blocks of 1 MiB, and 24 MiB of input go
/// through three slots of a block and the tail each repeats of the one
/// before.
#[test]
fn parallel_memory_is_bounded() {
    let unit = "see http://a.example/x and mail b@c.example, then www.d.example/y\n";
    let text = unit.repeat((24 << 20) / unit.len());
    let summary = Searcher::new(Finder::new())
        .threads(2)
        .scan_reader(text.as_bytes(), |_: &Hit| Ok(true))
        .unwrap();
    assert_eq!(summary.bytes, text.len() as u64);
    assert_eq!(summary.hits, 3 * (text.len() / unit.len()) as u64);
    assert!(
        summary.peak_buffer <= (3 << 20) + (64 << 10),
        "{}",
        summary.peak_buffer
    );
}

/// A limit far beyond the input takes no memory of its own: the pipeline's
/// blocks grow with what is read.
#[test]
fn a_huge_limit_takes_memory_only_as_the_input_comes() {
    let text = "see http://a.example/x and b@c.example\n".repeat(1000);
    for threads in [1, 2, 4] {
        let mut rows = Vec::new();
        let summary = Searcher::new(Finder::new().max_len(1 << 40))
            .threads(threads)
            .scan_reader(text.as_bytes(), |h: &Hit| {
                rows.push(row(h));
                Ok(true)
            })
            .unwrap();
        assert_eq!(rows, slice_rows(Finder::new(), text.as_bytes()));
        assert!(
            summary.peak_buffer <= 16 << 20,
            "{threads}: {}",
            summary.peak_buffer
        );
    }
}

/// Each block of the parallel pipeline starts with the end of the block
/// before it. Runs longer than a block (a truncated IRI skipped to its
/// end), IRIs as long as the limit and wrapped `<…>` IRIs meet those
/// joins, with the default limit and with limits near and above half a
/// block (which make the blocks larger).
#[test]
fn long_runs_cross_the_blocks_of_the_parallel_pipeline() {
    let mut text = String::new();
    let mut i = 0usize;
    while text.len() < 7 << 20 {
        match i % 5 {
            0 => text.push_str(&format!(
                "a http://run.example/{} ",
                "r".repeat(1_500_000 + i)
            )),
            1 => text.push_str(&format!("b https://x.example/{} ", "é".repeat(4_000 + i))),
            2 => text.push_str(&format!(
                "<http://w.example/{}\n  {}> ",
                "w".repeat(i * 97 % 9_000),
                "t".repeat(i % 300)
            )),
            3 => text.push_str(&"c d@e.example http://f.example/g\n".repeat(1 + i * 7919 % 40_000)),
            _ => text.push_str(&"x".repeat(i * 104_729 % 700_000)),
        }
        i += 1;
    }
    for max_len in [8192, 300_000, 700_000, 2_500_000] {
        let finder = Finder::new().max_len(max_len);
        let expected = slice_rows(finder, text.as_bytes());
        // Below the longest runs (1.5 MB), some IRIs are truncated; above,
        // a slot gets more than a chunk of new bytes (read 1 MiB at a time).
        assert_eq!(
            expected.iter().any(|r| r.8.contains(&"truncated")),
            max_len < 1_500_000,
            "truncated IRIs with max_len {max_len}"
        );
        assert!(
            expected.iter().any(|r| r.5.len() > max_len / 2),
            "some IRIs are long"
        );
        for threads in [2, 3] {
            assert_eq!(
                parallel_rows(finder, text.as_bytes(), threads),
                expected,
                "max_len {max_len}, {threads} threads"
            );
        }
    }
}

/// Hits far apart keep their line numbers on every block of the parallel
/// pipeline, the last one included: the lines between a block's last hit
/// and the next block are counted before that block is read over.
#[test]
fn sparse_hits_keep_their_lines_across_blocks() {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < (5 << 20) / 2 {
        text.push_str(&"no link on this line\n".repeat(1 + i * 7_919 % 9_000));
        text.push_str(&format!("see http://a.example/{i}\n"));
        i += 1;
    }
    let finder = Finder::new();
    let expected = slice_rows(finder, text.as_bytes());
    assert!(expected.len() > 10 && expected.iter().any(|r| r.2 > 100_000));
    for threads in [2, 3, 4] {
        assert_eq!(
            parallel_rows(finder, text.as_bytes(), threads),
            expected,
            "{threads} threads"
        );
    }
}

/// Text with a few links a line, `bytes` long or so.
fn linked_text(bytes: usize) -> String {
    let unit = "see http://a.example/x é and mail b@c.example, then www.d.example/y 東京 https://例え.jp/ü\n";
    unit.repeat(bytes / unit.len())
}

/// A file holding `bytes` (its name removed at once).
fn temp_file(name: &str, bytes: &[u8]) -> std::fs::File {
    let path = std::env::temp_dir().join(format!("iriscan-paths-{name}-{}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    file
}

/// A thread of the searcher's pool blocked outside it — here a consumer
/// waiting on the hits the sink sends it — leaves its part of each round
/// to the others: the scan of a file ends, with the one-thread hits.
/// (A round that needed every thread of the pool hung here; found by the
/// review of the pipeline that reads a file on the pool's threads.)
#[cfg(feature = "parallel")]
#[test]
fn a_pool_thread_blocked_on_the_sink_does_not_hold_up_a_file() {
    use std::sync::{Arc, mpsc};
    let text = linked_text(6 << 20);
    let file = temp_file("blocked", text.as_bytes());
    let expected = file_rows(Searcher::new(Finder::new()), &file);
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let pool = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .unwrap(),
        );
        let (tx, rx) = mpsc::sync_channel::<String>(16);
        let (counted_tx, counted_rx) = mpsc::channel();
        pool.spawn(move || counted_tx.send(rx.iter().count()).unwrap());
        let searcher = Searcher::new(Finder::new()).threads(2).pool(pool);
        searcher
            .scan_file(&file, |hit: &Hit| {
                tx.send(hit.iri().to_string()).unwrap();
                Ok(true)
            })
            .unwrap();
        drop(tx);
        done_tx.send(counted_rx.recv().unwrap()).unwrap();
    });
    let counted = done_rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the scan of the file hung");
    assert_eq!(counted, expected.len());
}

/// Fails the first `fails` reads that reach byte `at` (after a short read
/// up to it): a read error that goes away when tried again.
struct Flaky {
    bytes: Vec<u8>,
    at: u64,
    fails: std::sync::atomic::AtomicUsize,
}

impl ReadAt for Flaky {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        use std::sync::atomic::Ordering;
        let start = (offset as usize).min(self.bytes.len());
        let mut end = (start + buf.len()).min(self.bytes.len());
        if start as u64 <= self.at && self.at < end as u64 {
            if (start as u64) < self.at {
                end = self.at as usize;
            } else if self
                .fails
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |f| f.checked_sub(1))
                .is_ok()
            {
                return Err(std::io::Error::other("flaky"));
            }
        }
        buf[..end - start].copy_from_slice(&self.bytes[start..end]);
        Ok(end - start)
    }
}

/// A [`Flaky`] input read from its start, one read after the other.
struct FlakyReader(Flaky, u64);

impl std::io::Read for FlakyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read_at(buf, self.1)?;
        self.1 += n as u64;
        Ok(n)
    }
}

/// A read error met after some bytes of a fill is reported by the next
/// fill, before any later read: a file read on the pool's threads reports
/// it as a reader read on this thread does, even when reading again would
/// have worked.
#[test]
fn a_read_error_is_reported_even_if_it_goes_away() {
    let text = linked_text(6 << 20);
    for fails in [1, 2, 3] {
        let flaky = || Flaky {
            bytes: text.clone().into_bytes(),
            at: 3 * (1 << 20) / 2 + 12_345,
            fails: fails.into(),
        };
        let outcome = |r: std::io::Result<iriscan::Summary>, c: &iriscan::Counts| match r {
            Ok(s) => format!("ok {} {}", s.bytes, c.valid),
            Err(e) => format!("err {e} {}", c.valid),
        };
        let searcher = Searcher::new(Finder::new()).threads(2);
        let mut counts = iriscan::Counts::default();
        let reader = FlakyReader(flaky(), 0);
        let read = outcome(searcher.count_reader(reader, &mut counts), &counts);
        let mut counts = iriscan::Counts::default();
        let file = outcome(searcher.count_file(&flaky(), &mut counts), &counts);
        // Once: the fill that met it reads again and goes on. Twice or
        // more: the next fill reports it.
        assert_eq!(read.starts_with("err flaky"), fails > 1, "{read}");
        assert_eq!(file, read, "fails {fails}");
    }
}

/// With a `max_len` above a block, a file is read a chunk at a time, as a
/// reader is: the same hits, and no more memory.
#[test]
fn a_file_with_a_huge_max_len_takes_no_more_memory_than_a_reader() {
    let text = linked_text(5 << 20);
    let bytes = &text.as_bytes()[..(4 << 20) + (300 << 10)];
    let file = temp_file("huge-max-len", bytes);
    let searcher = Searcher::new(Finder::new().max_len(3 << 20)).threads(2);
    let read = searcher.scan_reader(bytes, |_: &Hit| Ok(true)).unwrap();
    let scanned = searcher.scan_file(&file, |_: &Hit| Ok(true)).unwrap();
    assert_eq!(read.hits, scanned.hits);
    assert_eq!(read.peak_buffer, scanned.peak_buffer);
}
