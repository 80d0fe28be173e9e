//! The embedder's API: cheap spans, the push scanner, sinks with their own
//! errors and hooks, the caller's thread pool, the typed IRI, matchable
//! error kinds, getters, and which types can cross threads. Each is held to
//! the path it is a shortcut or a twin of (`find_iter`, `scan_reader`).

use std::io;
use std::path::PathBuf;

use iriscan::{
    Charset, Components, Finder, GrammarRule, Hit, Iri, Kind, NormalizeOptions, ParseErrorKind,
    PushScanner, Rule, Searcher, Sink, Summary, Syntax, parse, parse_iri,
};

use crate::support::FailingAfter;

// ---------------------------------------------------------------------------
// Texts

/// A xorshift generator: the same texts on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces of link-dense, multilingual, malformed text.
const TOKENS: &[&str] = &[
    "https://例え.jp/パス?q=東京#frag",
    "http://a.example/x?y=1#z",
    "HTTPS://EX.COM/A",
    "www.example.org/été",
    "www.",
    "bob@example.com",
    "marie%x@exemple.fr",
    "<http://wrap.example/a\n   b>",
    "<URL:http://u.example/>",
    "mailto:",
    "urn:isbn:0451450523",
    "ftp://h:21/",
    "http://[::1]:8/",
    "http://[fe80::1%25eth0]/",
    "http://a/%zz",
    "http://a/{x}^[y]",
    "http://",
    "xn--",
    "//",
    ":",
    "@",
    "%",
    "%2",
    ".",
    ",",
    "。",
    "、",
    "(",
    ")",
    "\"",
    "'",
    "[",
    "]",
    " ",
    " ",
    "\n",
    "\r\n",
    "\t",
    "é",
    "東京",
    "Москва",
    "القاهرة",
    "\u{200F}",
    "\u{FEFF}",
    "x",
    "a.b.c",
    "0",
];

fn random_text(rng: &mut Rng, tokens: usize) -> String {
    (0..tokens)
        .map(|_| TOKENS[rng.below(TOKENS.len())])
        .collect()
}

fn manifest_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The texts of the rule and script tests (their sources, as they are and
/// without the `|` that mark the expected spans), and random texts.
fn texts() -> Vec<String> {
    let mut texts = Vec::new();
    for file in ["tests/rules.rs", "tests/scripts.rs"] {
        let source = std::fs::read_to_string(manifest_path(file)).expect("test source");
        texts.push(source.replace('|', ""));
        texts.push(source);
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for n in [0, 1, 2, 5, 20, 100, 400, 2000] {
        for _ in 0..20 {
            texts.push(random_text(&mut rng, n));
        }
    }
    texts
}

/// Every document of the charset corpus, raw bytes (legacy charsets, their
/// UTF-8 twins, the malformed ones).
fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = manifest_path("corpus/charsets");
    let mut docs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("corpus/charsets")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            name.ends_with(".txt")
                .then(|| (name, std::fs::read(&path).expect("readable")))
        })
        .collect();
    docs.sort();
    assert!(docs.len() >= 40, "{}", docs.len());
    docs
}

// ---------------------------------------------------------------------------
// 1. Spans

fn spans_agree_with_find_iter(finder: Finder, text: &str) {
    let hits: Vec<Hit<'_>> = finder.find_iter(text.as_bytes()).collect();
    let spans: Vec<iriscan::Span<'_>> = finder.spans(text).collect();
    assert_eq!(
        spans.iter().map(|s| s.range()).collect::<Vec<_>>(),
        hits.iter().map(|h| h.range()).collect::<Vec<_>>(),
        "{text:?}"
    );
    for (span, hit) in spans.iter().zip(&hits) {
        assert_eq!(span.kind(), hit.kind());
        assert_eq!(span.as_str(), hit.text());
        assert_eq!(&text[span.range()], span.as_str());
        assert_eq!((span.start(), span.end()), (hit.start(), hit.end()));
        assert_eq!(span.iri(), hit.iri());
        assert_eq!(span.is_valid(), hit.is_valid(), "{:?}", hit.iri());
        assert_eq!(span.validate().err().as_ref(), hit.error());
        assert_eq!(span.is_truncated(), hit.is_truncated());
        assert!(span.warnings().eq(hit.warnings()));
        let full = span.to_hit();
        assert_eq!((full.line(), full.column()), (0, 0));
        assert_eq!(
            (full.start(), full.end(), full.kind()),
            (hit.start(), hit.end(), hit.kind())
        );
        assert_eq!((full.text(), full.iri()), (hit.text(), hit.iri()));
        assert_eq!(full.error(), hit.error());
        assert_eq!(full.error_offset(), hit.error_offset());
        assert_eq!(full.components(), hit.components());
    }
}

#[test]
fn spans_are_the_candidates_of_find_iter() {
    let finders = [
        Finder::new(),
        Finder::new().www(false),
        Finder::new().email(false),
        Finder::new().max_len(512),
    ];
    let mut candidates = 0;
    for text in texts() {
        for finder in finders {
            spans_agree_with_find_iter(finder, &text);
        }
        candidates += Finder::new().spans(&text).count();
    }
    for (_, bytes) in corpus() {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            spans_agree_with_find_iter(Finder::new(), text);
        }
    }
    // Long runs are cut at the maximum length, as hits are.
    let long = format!("see http://a.example/{} and more", "x".repeat(2000));
    spans_agree_with_find_iter(Finder::new().max_len(512), &long);
    assert!(
        Finder::new()
            .max_len(512)
            .spans(&long)
            .next()
            .unwrap()
            .is_truncated()
    );
    assert!(candidates > 5000, "{candidates}");
}

#[test]
fn spans_compute_the_iri_only_when_asked() {
    use std::borrow::Cow;
    let text = "a https://例え.jp/x b www.example.org c bob@example.com d <http://w.example/a\n b>";
    let spans: Vec<_> = Finder::new().spans(text).collect();
    let kinds: Vec<Kind> = spans.iter().map(|s| s.kind()).collect();
    assert_eq!(kinds, [Kind::Iri, Kind::Www, Kind::Email, Kind::Iri]);
    // Borrowed from the text where the IRI is the text itself.
    assert!(matches!(spans[0].iri(), Cow::Borrowed("https://例え.jp/x")));
    assert!(matches!(spans[1].iri(), Cow::Owned(ref s) if s == "http://www.example.org"));
    assert!(matches!(spans[2].iri(), Cow::Owned(ref s) if s == "mailto:bob@example.com"));
    assert!(matches!(spans[3].iri(), Cow::Owned(ref s) if s == "http://w.example/ab"));
    assert!(spans.iter().all(|s| s.is_valid()));
    // A span is a range and a kind over the text: small, and `Copy`.
    fn copy<T: Copy>(_: T) {}
    copy(spans[0]);
    assert!(std::mem::size_of::<iriscan::Span<'_>>() <= 48);
}

// ---------------------------------------------------------------------------
// 2. The push scanner

/// The hits of `scan_reader`, owned, and its summary.
fn searcher_hits(searcher: &Searcher, input: &[u8]) -> (Vec<Hit<'static>>, Summary) {
    let mut hits = Vec::new();
    let summary = searcher
        .scan_reader(input, |h: &Hit| {
            hits.push(h.clone().into_owned());
            Ok(true)
        })
        .expect("in-memory reads do not fail");
    (hits, summary)
}

/// The hits of a push scanner fed `input` cut at `cuts`.
fn pushed_hits(searcher: &Searcher, input: &[u8], cuts: &[usize]) -> (Vec<Hit<'static>>, Summary) {
    let mut scanner = searcher.push_scanner();
    let mut hits = Vec::new();
    let mut from = 0;
    for &to in cuts.iter().chain([&input.len()]) {
        hits.extend(scanner.push(&input[from..to]));
        from = to;
    }
    hits.extend(scanner.finish());
    // Finished: more input is ignored.
    assert!(scanner.push(b" https://late.example/ ").is_empty());
    assert!(scanner.finish().is_empty());
    (hits, scanner.summary().expect("finished"))
}

/// Cut points: every `step` bytes.
fn every(len: usize, step: usize) -> Vec<usize> {
    (1..).map(|k| k * step).take_while(|&c| c < len).collect()
}

/// Random cut points, from single bytes to long stretches.
fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        at += match rng.below(4) {
            0 => 1,
            1 => 1 + rng.below(16),
            2 => 1 + rng.below(600),
            _ => 1 + rng.below(20_000),
        };
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

#[track_caller]
fn assert_push_matches(searcher: &Searcher, input: &[u8], cuts: &[usize], what: &str) {
    let (expected, summary) = searcher_hits(searcher, input);
    let (got, pushed) = pushed_hits(searcher, input, cuts);
    assert!(
        got == expected,
        "{what}: {} hits pushed, {} read",
        got.len(),
        expected.len()
    );
    assert_eq!(
        (
            pushed.bytes,
            pushed.hits,
            pushed.charset,
            pushed.replacements
        ),
        (
            summary.bytes,
            summary.hits,
            summary.charset,
            summary.replacements
        ),
        "{what}"
    );
}

#[test]
fn pushed_corpus_documents_give_the_searchers_hits() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let searcher = Searcher::new(Finder::new());
    let mut total = 0;
    for (name, bytes) in corpus() {
        let len = bytes.len();
        for step in [1, 2, 3, 7, 64, 1000, 4099] {
            assert_push_matches(
                &searcher,
                &bytes,
                &every(len, step),
                &format!("{name}, {step}"),
            );
        }
        for k in 0..4 {
            let cuts = random_cuts(&mut rng, len);
            assert_push_matches(&searcher, &bytes, &cuts, &format!("{name}, random {k}"));
        }
        // The whole document as one chunk, and with the end pushed alone.
        assert_push_matches(&searcher, &bytes, &[], &name);
        total += searcher_hits(&searcher, &bytes).0.len();
    }
    assert!(total > 150, "{total}");
}

/// Inputs made to trip a streaming scan: a hit across the 64 KiB of
/// charset detection, an input of exactly 64 KiB, BOMs, malformed UTF-8
/// split between chunks, runs longer than the maximum length, IRIs wrapped
/// over lines, legacy charsets given or detected.
fn adversarial() -> Vec<(String, Vec<u8>, Searcher)> {
    let plain = Searcher::new(Finder::new());
    let mut rng = Rng(7);
    let mut cases = Vec::new();
    let mut add = |name: &str, bytes: Vec<u8>, searcher: &Searcher| {
        cases.push((name.to_string(), bytes, searcher.clone()));
    };
    add("empty", Vec::new(), &plain);
    add("one link", b"https://a.example/".to_vec(), &plain);
    let pad = 64 * 1024 - 10;
    add(
        "a hit across the detection prefix",
        format!(
            "{}see http://across.example/ü and bob@b.example\n",
            "x ".repeat(pad / 2)
        )
        .into_bytes(),
        &plain,
    );
    let mut exact = format!("{} https://end.example/", "y".repeat(64 * 1024)).into_bytes();
    exact.truncate(64 * 1024);
    add("exactly 64 KiB", exact, &plain);
    let mut exact_link = "z".repeat(64 * 1024 - 22).into_bytes();
    exact_link.extend_from_slice(b" https://end.example/x");
    assert_eq!(exact_link.len(), 64 * 1024);
    add("exactly 64 KiB ending in a link", exact_link, &plain);
    let text = random_text(&mut rng, 3000);
    add("random text", text.clone().into_bytes(), &plain);
    add(
        "UTF-8 with a BOM",
        [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat(),
        &plain,
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    add("UTF-16LE with a BOM", utf16, &plain);
    let malformed = format!("a http://m.example/\u{FFFD} {text}")
        .replace('\u{FFFD}', "\u{0}")
        .into_bytes()
        .into_iter()
        .map(|b| if b == 0 { 0xC3 } else { b })
        .collect();
    add("malformed UTF-8", malformed, &plain);
    let long = format!(
        "{} <http://wrap.example/{}\n  tail> end",
        "http://run.example/".repeat(200),
        "w".repeat(900)
    );
    add(
        "long runs, short limit",
        long.clone().into_bytes(),
        &Searcher::new(Finder::new().max_len(512)),
    );
    add("long runs", long.into_bytes(), &plain);
    let (sjis, _, _) =
        encoding_rs::SHIFT_JIS.encode("東京: http://例え.jp/検索?q=東京 と www.例え.jp\n");
    let sjis = sjis.repeat(3000);
    add("Shift_JIS detected", sjis.clone(), &plain);
    add(
        "Shift_JIS given",
        sjis,
        &plain.clone().encoding(Some(encoding_rs::SHIFT_JIS)),
    );
    let (jis, _, _) = encoding_rs::ISO_2022_JP.encode("件名 http://例え.jp/メール 以上\r\n");
    add("ISO-2022-JP", jis.repeat(500), &plain);
    add(
        "no line numbers, small buffer",
        text.clone().into_bytes(),
        &plain.clone().line_numbers(false).buffer_size(100),
    );
    add(
        "one-byte buffer",
        text.into_bytes(),
        &plain.clone().buffer_size(1),
    );
    cases
}

#[test]
fn pushed_adversarial_inputs_give_the_searchers_hits() {
    let mut rng = Rng(99);
    for (name, bytes, searcher) in adversarial() {
        let len = bytes.len();
        // One byte at a time only where it stays quick.
        let steps: &[usize] = if len < 100_000 {
            &[1, 5, 13, 4096]
        } else {
            &[13, 4096, 65_536]
        };
        for &step in steps {
            assert_push_matches(
                &searcher,
                &bytes,
                &every(len, step),
                &format!("{name}, {step}"),
            );
        }
        for k in 0..3 {
            let cuts = random_cuts(&mut rng, len);
            assert_push_matches(&searcher, &bytes, &cuts, &format!("{name}, random {k}"));
        }
        assert_push_matches(&searcher, &bytes, &[], &name);
    }
}

#[test]
fn a_push_scanner_keeps_only_the_undecided_tail() {
    let unit = "see http://a.example/x and mail b@c.example, then www.d.example/y\n";
    let text = unit.repeat((8 << 20) / unit.len());
    let searcher = Searcher::new(Finder::new());
    let mut scanner = searcher.push_scanner();
    let mut hits = 0;
    // Chunks far larger than the buffer, and small ones.
    for chunk in text
        .as_bytes()
        .chunks(3 << 20)
        .chain(text.as_bytes()[..5000].chunks(7))
    {
        hits += scanner.push(chunk).len();
    }
    hits += scanner.finish().len();
    let summary = scanner.summary().unwrap();
    assert_eq!(hits as u64, summary.hits);
    assert_eq!(summary.bytes, text.len() as u64 + 5000);
    let bound = 4 * (iriscan::DEFAULT_BUFFER_SIZE + Finder::new().max_iri_len());
    assert!(
        summary.peak_buffer <= bound,
        "{} > {bound}",
        summary.peak_buffer
    );
}

// ---------------------------------------------------------------------------
// 3. Sinks

#[derive(Debug, PartialEq, Eq, Clone)]
enum Event {
    Begin(&'static str),
    Hit(usize, String),
    Finish(u64, u64),
}

#[derive(Debug)]
enum RecordError {
    Io(io::Error),
    /// The sink's own failure, at the hit with this start.
    Refused(usize),
}

impl From<io::Error> for RecordError {
    fn from(e: io::Error) -> RecordError {
        RecordError::Io(e)
    }
}

/// Records what the searcher calls; refuses the `fail_at`-th hit, stops
/// after `stop_after` hits, or stops at `begin`.
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    fail_at: Option<usize>,
    stop_after: Option<usize>,
    stop_at_begin: bool,
    threads: std::collections::BTreeSet<String>,
    hits: usize,
}

impl Recorder {
    fn hits(&self) -> usize {
        self.hits
    }
}

impl Sink for Recorder {
    type Error = RecordError;

    fn begin(&mut self, charset: &Charset) -> Result<bool, RecordError> {
        self.events.push(Event::Begin(charset.name()));
        Ok(!self.stop_at_begin)
    }

    fn matched(&mut self, hit: &Hit<'_>) -> Result<bool, RecordError> {
        self.threads
            .insert(std::thread::current().name().unwrap_or("").to_string());
        if self.fail_at == Some(self.hits()) {
            return Err(RecordError::Refused(hit.start()));
        }
        self.events
            .push(Event::Hit(hit.start(), hit.iri().to_string()));
        self.hits += 1;
        Ok(self.stop_after != Some(self.hits))
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), RecordError> {
        self.events.push(Event::Finish(summary.bytes, summary.hits));
        Ok(())
    }
}

fn sink_text() -> String {
    "one https://a.example/ two www.b.example three c@d.example\n".repeat(40_000)
}

#[test]
fn begin_and_finish_are_called_once_each_in_order() {
    let text = sink_text();
    for threads in [1, 2] {
        for input in ["", "no links here", text.as_str()] {
            let searcher = Searcher::new(Finder::new()).threads(threads);
            let expected: Vec<Event> = searcher_hits(&searcher, input.as_bytes())
                .0
                .iter()
                .map(|h| Event::Hit(h.start(), h.iri().to_string()))
                .collect();
            // From a reader and from a file read at offsets.
            for from_file in [false, true] {
                let mut rec = Recorder::default();
                let summary = if from_file {
                    searcher.scan_file(input.as_bytes(), rec.by_ref())
                } else {
                    searcher.scan_reader(input.as_bytes(), rec.by_ref())
                }
                .unwrap();
                let what = format!("{threads} threads, {} bytes, file {from_file}", input.len());
                assert_eq!(rec.events.first(), Some(&Event::Begin("UTF-8")), "{what}");
                assert_eq!(
                    rec.events.last(),
                    Some(&Event::Finish(input.len() as u64, expected.len() as u64)),
                    "{what}"
                );
                assert_eq!(rec.events[1..rec.events.len() - 1], expected[..], "{what}");
                assert_eq!(summary.hits, expected.len() as u64);
            }
        }
    }
}

#[test]
fn a_sink_error_of_its_own_type_stops_the_scan() {
    let text = sink_text();
    for threads in [1, 2, 4] {
        let searcher = Searcher::new(Finder::new()).threads(threads);
        let expected = searcher_hits(&searcher, text.as_bytes()).0;
        for fail_at in [0, 1, 2, 50_000] {
            let mut rec = Recorder {
                fail_at: Some(fail_at),
                ..Recorder::default()
            };
            let err = searcher
                .scan_reader(text.as_bytes(), rec.by_ref())
                .unwrap_err();
            let RecordError::Refused(at) = err else {
                panic!("{err:?}")
            };
            assert_eq!(at, expected[fail_at].start());
            // The hits before the failing one, and no finish.
            assert_eq!(rec.hits(), fail_at, "{threads} threads");
            assert!(!rec.events.iter().any(|e| matches!(e, Event::Finish(..))));
            assert_eq!(rec.events[0], Event::Begin("UTF-8"));
        }
    }
}

#[test]
fn a_sink_that_stops_is_still_finished() {
    let text = sink_text();
    for threads in [1, 2] {
        let searcher = Searcher::new(Finder::new()).threads(threads);
        let mut rec = Recorder {
            stop_after: Some(3),
            ..Recorder::default()
        };
        let summary = searcher.scan_reader(text.as_bytes(), rec.by_ref()).unwrap();
        assert_eq!(rec.hits(), 3);
        assert_eq!(
            rec.events.last(),
            Some(&Event::Finish(summary.bytes, summary.hits))
        );
        // Stopped at begin: no hit, and the finish.
        let mut rec = Recorder {
            stop_at_begin: true,
            ..Recorder::default()
        };
        let summary = searcher.scan_reader(text.as_bytes(), rec.by_ref()).unwrap();
        assert_eq!(summary.hits, 0);
        assert_eq!(
            rec.events,
            [Event::Begin("UTF-8"), Event::Finish(summary.bytes, 0)]
        );
    }
}

#[test]
fn a_read_error_comes_back_in_the_sinks_error_type() {
    let text = sink_text();
    for threads in [1, 2] {
        let mut rec = Recorder::default();
        let input = FailingAfter {
            data: text.as_bytes(),
            ok: 1 << 20,
        };
        let err = Searcher::new(Finder::new())
            .threads(threads)
            .scan_reader(input, rec.by_ref())
            .unwrap_err();
        assert!(matches!(&err, RecordError::Io(e) if e.to_string() == "the input is gone"));
        assert!(rec.hits() > 0);
        assert!(!rec.events.iter().any(|e| matches!(e, Event::Finish(..))));
    }
}

#[test]
fn sinks_hear_from_the_calling_thread_only() {
    let text = sink_text();
    let here = std::thread::current().name().unwrap_or("").to_string();
    let mut rec = Recorder::default();
    Searcher::new(Finder::new())
        .threads(2)
        .scan_reader(text.as_bytes(), rec.by_ref())
        .unwrap();
    assert_eq!(rec.threads.into_iter().collect::<Vec<_>>(), [here]);
}

#[test]
fn a_push_scanner_drives_a_sink_like_the_searcher() {
    let text = sink_text();
    let searcher = Searcher::new(Finder::new());
    let mut read = Recorder::default();
    searcher
        .scan_reader(text.as_bytes(), read.by_ref())
        .unwrap();
    let mut pushed = Recorder::default();
    let mut scanner = searcher.push_scanner();
    for chunk in text.as_bytes().chunks(1000) {
        assert!(scanner.push_to(chunk, &mut pushed).unwrap());
    }
    let summary = scanner.finish_to(&mut pushed).unwrap();
    assert_eq!(pushed.events, read.events);
    assert_eq!(summary.hits, read.hits() as u64);
    // Finishing again calls nothing.
    assert_eq!(scanner.finish_to(&mut pushed).unwrap(), summary);
    assert_eq!(pushed.events, read.events);

    // A sink that stops: the pushes after are ignored, the finish comes.
    let mut stopping = Recorder {
        stop_after: Some(2),
        ..Recorder::default()
    };
    let mut scanner = searcher.push_scanner();
    let mut results = Vec::new();
    for chunk in text.as_bytes().chunks(100_000) {
        results.push(scanner.push_to(chunk, &mut stopping).unwrap());
    }
    assert!(results.iter().any(|&go_on| !go_on));
    let summary = scanner.finish_to(&mut stopping).unwrap();
    assert_eq!(stopping.hits(), 2);
    assert_eq!(
        stopping.events.last(),
        Some(&Event::Finish(summary.bytes, 2))
    );
    // Finishing again calls nothing.
    let events = stopping.events.len();
    assert_eq!(scanner.finish_to(&mut stopping).unwrap(), summary);
    assert_eq!(stopping.events.len(), events);

    // A sink that fails: its error, then nothing, not even the finish.
    let mut failing = Recorder {
        fail_at: Some(1),
        ..Recorder::default()
    };
    let mut scanner = searcher.push_scanner();
    let mut failed = 0;
    for chunk in text.as_bytes().chunks(100_000) {
        match scanner.push_to(chunk, &mut failing) {
            Err(RecordError::Refused(_)) => failed += 1,
            Err(e) => panic!("{e:?}"),
            Ok(_) => {}
        }
    }
    assert_eq!(failed, 1);
    scanner.finish_to(&mut failing).unwrap();
    assert_eq!(failing.hits(), 1);
    assert!(
        !failing
            .events
            .iter()
            .any(|e| matches!(e, Event::Finish(..)))
    );
}

#[test]
fn a_short_pushed_input_begins_at_its_end() {
    let mut rec = Recorder::default();
    let mut scanner = Searcher::new(Finder::new()).push_scanner();
    scanner.push_to(b"see https://a.exam", &mut rec).unwrap();
    scanner.push_to(b"ple/ now", &mut rec).unwrap();
    // Under 64 KiB: the charset waits for more, or for the end.
    assert!(rec.events.is_empty());
    assert!(scanner.summary().is_none());
    scanner.finish_to(&mut rec).unwrap();
    assert_eq!(
        rec.events,
        [
            Event::Begin("UTF-8"),
            Event::Hit(4, "https://a.example/".into()),
            Event::Finish(26, 1)
        ]
    );
}

// ---------------------------------------------------------------------------
// 4. The caller's pool

#[cfg(feature = "parallel")]
mod pool {
    use super::*;
    use std::collections::BTreeSet;
    use std::sync::{Arc, Mutex};

    fn named_pool(name: &'static str) -> Arc<rayon::ThreadPool> {
        Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .thread_name(move |i| format!("{name}-{i}"))
                .build()
                .expect("a pool"),
        )
    }

    fn thread_name() -> String {
        std::thread::current().name().unwrap_or("").to_string()
    }

    #[test]
    fn the_scan_runs_on_the_given_pool() {
        let text = sink_text().repeat(3);
        let plain = Searcher::new(Finder::new()).threads(3);
        let expected = searcher_hits(&plain, text.as_bytes()).0;
        let searcher = plain.clone().pool(named_pool("mail-pool"));
        assert_ne!(searcher, plain);
        // Mapped on the pool: every map call on one of its threads.
        let mut hits = Vec::new();
        let mut mapped_on = BTreeSet::new();
        searcher
            .scan_reader_map(
                text.as_bytes(),
                |h| {
                    (
                        h.clone().into_owned(),
                        thread_name(),
                        rayon::current_thread_index(),
                    )
                },
                |(hit, name, index)| {
                    hits.push(hit);
                    mapped_on.insert((name, index.is_some()));
                    Ok(true)
                },
            )
            .unwrap();
        assert!(hits == expected);
        assert!(!mapped_on.is_empty());
        assert!(
            mapped_on
                .iter()
                .all(|(name, in_pool)| name.starts_with("mail-pool-") && *in_pool),
            "{mapped_on:?}"
        );
        // Identical hits through a sink and from a file.
        assert!(searcher_hits(&searcher, text.as_bytes()).0 == expected);
        let mut from_file = Vec::new();
        searcher
            .scan_file(text.as_bytes(), |h: &Hit| {
                from_file.push(h.clone().into_owned());
                Ok(true)
            })
            .unwrap();
        assert!(from_file == expected);
    }

    /// A file whose reads say which thread made them.
    struct Watched<'a> {
        data: &'a [u8],
        readers: Mutex<BTreeSet<String>>,
    }

    impl iriscan::ReadAt for Watched<'_> {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
            self.readers.lock().unwrap().insert(thread_name());
            self.data.read_at(buf, offset)
        }
    }

    #[test]
    fn a_files_pieces_are_read_on_the_given_pool() {
        let text = sink_text().repeat(3);
        let file = Watched {
            data: text.as_bytes(),
            readers: Mutex::new(BTreeSet::new()),
        };
        let searcher = Searcher::new(Finder::new())
            .threads(2)
            .pool(named_pool("reader-pool"));
        let mut n = 0;
        searcher
            .scan_file(&file, |_: &Hit| {
                n += 1;
                Ok(true)
            })
            .unwrap();
        assert!(n > 0);
        let readers = file.readers.into_inner().unwrap();
        let here = thread_name();
        // The first bytes (charset detection) on this thread, the blocks'
        // pieces on the pool, nowhere else.
        assert!(
            readers.iter().any(|r| r.starts_with("reader-pool-")),
            "{readers:?}"
        );
        assert!(
            readers
                .iter()
                .all(|r| r.starts_with("reader-pool-") || *r == here),
            "{readers:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// 5. The typed IRI

#[test]
fn a_hits_parsed_iri_is_its_validation_not_a_new_parse() {
    let mut checked = 0;
    for text in texts() {
        for hit in Finder::new().find_iter(text.as_bytes()) {
            let expected = parse(hit.iri(), Rule::Iri, Syntax::Text).ok();
            assert_eq!(hit.components(), expected, "{:?}", hit.iri());
            match hit.parsed_iri() {
                Some(iri) => {
                    checked += 1;
                    assert_eq!(iri.as_str(), hit.iri());
                    let again = Iri::parse_with(hit.iri(), Rule::Iri, Syntax::Text).unwrap();
                    assert_eq!(iri, again);
                    assert_eq!(Some(iri.components()), expected.as_ref());
                }
                None => assert!(!hit.is_valid()),
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn an_iri_slices_its_components() {
    let s = "https://user:pw@例え.jp:8443/a/パス?q=東京&x#frag";
    let iri = Iri::parse(s).unwrap();
    let parts = (
        iri.scheme(),
        iri.authority(),
        iri.userinfo(),
        iri.host(),
        iri.port(),
        iri.path(),
        iri.query(),
        iri.fragment(),
    );
    assert_eq!(
        parts,
        (
            Some("https"),
            Some("user:pw@例え.jp:8443"),
            Some("user:pw"),
            Some("例え.jp"),
            Some("8443"),
            "/a/パス",
            Some("q=東京&x"),
            Some("frag")
        )
    );
    assert_eq!(iri.as_str(), s);
    assert_eq!(iri.to_string(), s);
    assert_eq!(iri.components(), &parse_iri(s).unwrap());
    // A reference, and the old functions still answer.
    let r = Iri::parse_reference("//例え.jp/a?b").unwrap();
    assert_eq!(
        (r.scheme(), r.host(), r.path(), r.query()),
        (None, Some("例え.jp"), "/a", Some("b"))
    );
    assert!(Iri::parse("//例え.jp/a?b").is_err());
    let c: Components = iriscan::parse_iri_reference("//例え.jp/a?b").unwrap();
    assert_eq!(&c, r.components());
}

// ---------------------------------------------------------------------------
// 6. Error kinds

#[test]
fn parse_errors_can_be_matched() {
    let cases: &[(&str, usize, GrammarRule, ParseErrorKind, &str)] = &[
        (
            "http://example.org/a^b",
            20,
            GrammarRule::IPathAbempty,
            ParseErrorKind::InvalidChar('^'),
            "invalid character '^' at byte 20 in ipath-abempty",
        ),
        (
            "http://a/%zz",
            9,
            GrammarRule::PctEncoded,
            ParseErrorKind::PercentEncoding,
            "'%' at byte 9 is not followed by two hex digits (pct-encoded)",
        ),
        (
            "example.org",
            11,
            GrammarRule::Scheme,
            ParseErrorKind::MissingScheme,
            "missing scheme: expected ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" ) \":\", failed at byte 11",
        ),
        (
            "http://[::1/",
            11,
            GrammarRule::IpLiteral,
            ParseErrorKind::MissingBracket,
            "missing ']' at byte 11 in IP-literal",
        ),
        (
            "http://[1::2::3]/",
            12,
            GrammarRule::Ipv6Address,
            ParseErrorKind::SecondElision,
            "second \"::\" at byte 12 in IPv6address",
        ),
        (
            "http://h:8a/",
            10,
            GrammarRule::Port,
            ParseErrorKind::InvalidChar('a'),
            "invalid character 'a' at byte 10 in port",
        ),
        (
            "http://a/\u{202E}x",
            9,
            GrammarRule::IPathAbempty,
            ParseErrorKind::Bidi('\u{202E}'),
            "bidi formatting character U+202E at byte 9 in ipath-abempty (not allowed in an IRI)",
        ),
        (
            "http://a/b#c#d",
            12,
            GrammarRule::IFragment,
            ParseErrorKind::InvalidChar('#'),
            "invalid character '#' at byte 12 in ifragment",
        ),
    ];
    for &(s, position, rule, kind, message) in cases {
        let e = parse_iri(s).unwrap_err();
        assert_eq!(
            (e.position(), e.grammar_rule(), e.kind()),
            (position, rule, kind),
            "{s}"
        );
        assert_eq!(e.rule(), rule.as_str());
        assert_eq!(rule.to_string(), rule.as_str());
        assert_eq!(e.to_string(), message);
    }
    let e = iriscan::parse_iri_reference("1a:b").unwrap_err();
    assert_eq!(
        (e.grammar_rule(), e.kind()),
        (GrammarRule::IPathNoscheme, ParseErrorKind::NoschemeColon)
    );
    let e = parse("http://a/#x", Rule::AbsoluteIri, Syntax::Iri).unwrap_err();
    assert_eq!(e.grammar_rule(), GrammarRule::AbsoluteIri);
    // The rule's name is the one the errors always gave, for every error
    // of the texts' hits.
    for text in texts() {
        for hit in Finder::new().find_iter(text.as_bytes()) {
            if let Some(e) = hit.error() {
                assert_eq!(e.rule(), e.grammar_rule().as_str());
                assert!(
                    e.to_string().contains(e.rule()) || e.kind() == ParseErrorKind::MissingScheme
                );
            }
        }
    }
    let n = iriscan::normalize("http://a/b c", &NormalizeOptions::new()).unwrap_err();
    assert_eq!(
        (n.grammar_rule(), n.rule()),
        (GrammarRule::IPathAbempty, "ipath-abempty")
    );
    assert_eq!(n.parse_error().kind(), ParseErrorKind::InvalidChar(' '));
}

// ---------------------------------------------------------------------------
// 7. Getters

#[test]
fn getters_read_back_what_the_builders_set() {
    use iriscan::{HostMapping, IriOptions, NormalForm, NormalizationLevel, UriOptions};
    assert_eq!(Finder::new().max_iri_len(), iriscan::DEFAULT_MAX_LEN);
    assert_eq!(Finder::new().max_len(4096).max_iri_len(), 4096);
    assert_eq!(Finder::new().max_len(1).max_iri_len(), 512);
    let o = NormalizeOptions::new();
    assert_eq!(
        (o.normalization_level(), o.normal_form(), o.applies_nfc()),
        (NormalizationLevel::Syntax, NormalForm::Iri, false)
    );
    let o = o
        .level(NormalizationLevel::Scheme)
        .form(NormalForm::Uri)
        .nfc(true);
    assert_eq!(
        (o.normalization_level(), o.normal_form(), o.applies_nfc()),
        (NormalizationLevel::Scheme, NormalForm::Uri, true)
    );
    assert!(!IriOptions::new().decodes_punycode());
    assert!(IriOptions::new().decode_punycode(true).decodes_punycode());
    let u = UriOptions::new();
    assert_eq!(
        (u.host_mapping_method(), u.document_encoding()),
        (HostMapping::Idna, None)
    );
    let u = u
        .host_mapping(HostMapping::PercentEncode)
        .query_encoding(encoding_rs::SHIFT_JIS);
    assert_eq!(
        (u.host_mapping_method(), u.document_encoding()),
        (HostMapping::PercentEncode, Some(encoding_rs::SHIFT_JIS))
    );
}

// ---------------------------------------------------------------------------
// 8. Threads

#[test]
fn the_api_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Finder>();
    send_sync::<Searcher>();
    send_sync::<Hit<'static>>();
    send_sync::<Iri<'static>>();
    send_sync::<iriscan::Span<'static>>();
    send_sync::<iriscan::Spans<'static>>();
    send_sync::<iriscan::FindIter<'static>>();
    send_sync::<PushScanner>();
    send_sync::<iriscan::Transcoder>();
    send_sync::<Summary>();
    send_sync::<Charset>();
    send_sync::<Components>();
    send_sync::<iriscan::ParseError>();
    send_sync::<iriscan::NormalizeError>();
    send_sync::<iriscan::ResolveError>();
    send_sync::<iriscan::CharsetError>();
    send_sync::<iriscan::IdnaFailure>();
    send_sync::<GrammarRule>();
    send_sync::<ParseErrorKind>();
    // Errors an application can box and send.
    fn error<E: std::error::Error + Send + Sync + 'static>() {}
    error::<iriscan::ParseError>();
    error::<iriscan::NormalizeError>();
    error::<iriscan::ResolveError>();
    error::<iriscan::CharsetError>();
}

// ---------------------------------------------------------------------------
// Bytes that are not UTF-8

/// Pieces of links and of broken UTF-8 (a stray continuation byte, a
/// character cut short, a surrogate, an overlong `/`, bytes never in UTF-8).
const BYTE_TOKENS: &[&[u8]] = &[
    b"http://",
    b"https://a.b/",
    b"www.",
    b"a@b.c",
    b"mailto:",
    b"example.com",
    "例".as_bytes(),
    "é".as_bytes(),
    "ไทย".as_bytes(),
    b"/",
    b"?",
    b"#",
    b"%",
    b"(",
    b")",
    b"<",
    b">",
    b" ",
    b"\n",
    b".",
    b"\x80",
    b"\xe6\x9d",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xff",
    b"\xf0\x9f\x98",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// `Hit::new` skips the UTF-8 check of a span (the scanner proved it):
    /// on bytes that are not UTF-8, every hit's span is still UTF-8 (and
    /// the debug assertion in `Hit::new` holds on every test build).
    #[test]
    fn hits_of_arbitrary_bytes_are_utf8(
        parts in proptest::collection::vec(proptest::sample::select(BYTE_TOKENS), 0..40)
    ) {
        let bytes = parts.concat();
        for hit in Finder::new().find_iter(&bytes) {
            let span = &bytes[hit.range()];
            proptest::prop_assert!(std::str::from_utf8(span).is_ok(), "{:?} in {:?}", span, bytes);
            proptest::prop_assert_eq!(hit.text().as_bytes(), span);
        }
    }
}
