//! Counting without making hits (`Searcher::count_reader`, `count_file`)
//! gives the counts of the hits themselves: on every corpus file, on the
//! benchmark texts and the adversarial inputs, with one thread and
//! several, every buffer size and read size, read as it comes
//! (incrementally too), and up to a read error.

use std::path::{Path, PathBuf};

use iriscan::{Counts, Finder, Hit, Searcher, Summary};

use crate::support::{FailingAfter, Trickle};

#[path = "../benches/corpus.rs"]
mod bench_corpus;

/// Counts the hits handed to a sink.
fn tally(counts: &mut Counts) -> impl FnMut(&Hit) -> std::io::Result<bool> + '_ {
    |h: &Hit| {
        if h.is_valid() {
            counts.valid += 1;
        } else {
            counts.invalid += 1;
        }
        Ok(true)
    }
}

/// The counts of the hits `scan_reader` hands on, and its summary.
fn hit_counts(searcher: &Searcher, input: &[u8], chunk: usize) -> (Counts, Summary) {
    let mut counts = Counts::default();
    let summary = searcher
        .scan_reader(Trickle { data: input, chunk }, tally(&mut counts))
        .expect("in-memory reads do not fail");
    (counts, summary)
}

/// The counts of the hits `scan_file` hands on, and its summary.
fn file_hit_counts(searcher: &Searcher, input: &[u8]) -> (Counts, Summary) {
    let mut counts = Counts::default();
    let summary = searcher
        .scan_file(input, tally(&mut counts))
        .expect("in-memory reads do not fail");
    (counts, summary)
}

fn counted_reader(searcher: &Searcher, input: &[u8], chunk: usize) -> (Counts, Summary) {
    let mut counts = Counts::default();
    let summary = searcher
        .count_reader(Trickle { data: input, chunk }, &mut counts)
        .expect("in-memory reads do not fail");
    (counts, summary)
}

fn counted_file(searcher: &Searcher, input: &[u8]) -> (Counts, Summary) {
    let mut counts = Counts::default();
    let summary = searcher
        .count_file(input, &mut counts)
        .expect("in-memory reads do not fail");
    (counts, summary)
}

/// Counts `input` every way `searcher` can, against the hits' counts;
/// returns those.
#[track_caller]
fn counts_agree(searcher: &Searcher, input: &[u8], what: &str) -> Counts {
    counts_agree_reading(searcher, input, what, true)
}

/// [`counts_agree`], with or without small buffers and reads (which
/// runs without white space make slow: every read rescans a run).
#[track_caller]
fn counts_agree_reading(
    searcher: &Searcher,
    input: &[u8],
    what: &str,
    small_reads: bool,
) -> Counts {
    let (expected, summary) = hit_counts(searcher, input, usize::MAX);
    assert_eq!(summary.hits, expected.total(), "{what}");
    for threads in [1, 2, 3] {
        let s = searcher.clone().threads(threads);
        // The hits agree across threads (tests/paths.rs); the counts and
        // the summary (whose peak follows the threads) are those of the
        // hits, each way.
        let hits = hit_counts(&s, input, usize::MAX);
        assert_eq!(hits.0, expected, "{what}: hits, {threads} threads");
        assert_eq!(
            counted_reader(&s, input, usize::MAX),
            hits,
            "{what}: reader, {threads} threads"
        );
        assert_eq!(
            counted_file(&s, input),
            file_hit_counts(&s, input),
            "{what}: file, {threads} threads"
        );
    }
    // Small buffers and reads, where the hits' summary is the reference
    // (its peak follows the buffer).
    let small: &[(usize, usize)] = match input.len() {
        _ if !small_reads => &[],
        0..=16_384 => &[(1, 1), (7, 3), (64, 64), (4096, 1000)],
        16_385..=65_536 => &[(64, 64), (4096, 1000)],
        _ => &[(4096, 1000)],
    };
    for &(buffer, chunk) in small {
        let s = searcher.clone().buffer_size(buffer);
        assert_eq!(
            counted_reader(&s, input, chunk),
            hit_counts(&s, input, chunk),
            "{what}: buffer {buffer}, reads of {chunk}"
        );
    }
    if small_reads {
        let s = searcher.clone().incremental(true);
        assert_eq!(
            counted_reader(&s, input, 1000),
            hit_counts(&s, input, 1000),
            "{what}: incremental"
        );
    }
    expected
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("corpus directory") {
        let path = entry.expect("corpus entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every file of `corpus/` (documents, expected outputs, READMEs), in
/// their charsets, detected or given.
#[test]
fn counts_agree_on_every_corpus_file() {
    let mut files = Vec::new();
    files_under(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
        &mut files,
    );
    files.sort();
    assert!(files.len() > 100, "{}", files.len());
    let mut all = Counts::default();
    for path in &files {
        let bytes = std::fs::read(path).expect("corpus file");
        let what = path.display().to_string();
        all += counts_agree(&Searcher::new(Finder::new()), &bytes, &what);
        counts_agree(
            &Searcher::new(Finder::new().www(false).email(false).max_len(300)),
            &bytes,
            &format!("{what}, no www, no e-mail, max_len 300"),
        );
    }
    // Both kinds were counted (most rejected candidates are in
    // `counts_agree_on_rejected_candidates`).
    assert!(all.valid > 10_000 && all.invalid > 0, "{all:?}");
}

/// The benchmark texts of `examples/compare` (link-dense, logs, several
/// scripts, prose), large enough for several blocks and pieces on several
/// threads.
#[test]
fn counts_agree_on_benchmark_texts() {
    const SIZE: usize = 1_200_000;
    let texts = [
        ("dense", bench_corpus::link_dense(SIZE).0),
        ("log", bench_corpus::access_log(SIZE).0),
        ("multilingual", bench_corpus::multilingual(SIZE).0),
        ("prose", bench_corpus::prose(SIZE).0),
    ];
    for (name, text) in &texts {
        let counts = counts_agree(&Searcher::new(Finder::new()), text.as_bytes(), name);
        assert!(counts.valid > 100, "{name}: {counts:?}");
    }
}

/// The adversarial inputs of `examples/compare` (runs without white
/// space, truncated candidates), scanned in pieces on several threads.
#[test]
fn counts_agree_on_adversarial_inputs() {
    for (name, unit) in bench_corpus::ADVERSARIAL {
        // `www.ąwww.` is a `www.` host at every unit: a debug build
        // checks 200 kB of it in seconds a scan.
        let size = if *name == "www-bad-label" {
            20_000
        } else {
            200_000
        };
        let text = bench_corpus::adversarial(unit, size);
        for max_len in [512, 8192] {
            counts_agree_reading(
                &Searcher::new(Finder::new().max_len(max_len)),
                text.as_bytes(),
                &format!("{name}, max_len {max_len}"),
                false,
            );
        }
        // Small reads, incrementally too, on a shorter run.
        counts_agree(
            &Searcher::new(Finder::new().max_len(512)),
            &text.as_bytes()[..size.min(16_000) / 2],
            &format!("{name}, 16 kB"),
        );
    }
}

/// Rejected candidates of every kind, and valid ones beside them: the
/// verdict is the hit's (`www.` and e-mail IRIs made, `<…>` unwrapped).
#[test]
fn counts_agree_on_rejected_candidates() {
    let unit = "http://a.example/%zz www.b.example/%4 <http://c.example/\n  d%g> \
                e%f@g.example mailto:x@y http://[::1 http://ok.example/ é@例え.jp\n";
    let text = unit.repeat(10_000);
    let counts = counts_agree(&Searcher::new(Finder::new()), text.as_bytes(), "rejected");
    assert!(
        counts.valid > 0 && counts.invalid >= 3 * 10_000,
        "{counts:?}"
    );
}

/// A read error ends the count; the counts are those of the bytes read
/// before it, as the hits a sink received.
#[test]
fn a_read_error_keeps_the_counts_before_it() {
    let text = bench_corpus::link_dense(3 << 20).0;
    let fail_at = 2 << 20;
    for threads in [1, 2, 3] {
        let searcher = Searcher::new(Finder::new()).threads(threads);
        let input = || FailingAfter {
            data: text.as_bytes(),
            ok: fail_at,
        };
        let mut expected = Counts::default();
        let err = searcher
            .scan_reader(input(), tally(&mut expected))
            .unwrap_err();
        assert_eq!(err.to_string(), "the input is gone");
        let mut counts = Counts::default();
        let err = searcher.count_reader(input(), &mut counts).unwrap_err();
        assert_eq!(err.to_string(), "the input is gone");
        assert_eq!(counts, expected, "{threads} threads");
        assert!(counts.valid > 1000, "{counts:?}");
    }
}
