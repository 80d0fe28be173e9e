//! HTML throughput against the text path: the pages of `corpus/html/`
//! (real documentation pages, several languages), concatenated and
//! repeated to 4 MiB, scanned
//!
//! - `html`: as HTML (`HtmlScanner::scan_with`: tokenize, decode
//!   references, scan the text, resolve the link attributes);
//! - `text`: as plain text (`Searcher` over the same bytes, one thread);
//! - `tokenize`: html5gum's tokenizer alone with its default emitter,
//!   the peer and the floor of the HTML path's reading.
//!
//! Bytes per second of the HTML as given. The hit counts differ by design
//! (the text path sees `&amp;` and no relative links).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iriscan::{Finder, HtmlScanner, Searcher};
use std::hint::black_box;

fn pages() -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/html");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus/html")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    names.sort();
    let one: Vec<u8> = names
        .iter()
        .flat_map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(!one.is_empty(), "no page in corpus/html");
    let mut all = Vec::with_capacity(4 << 20);
    while all.len() < 4 << 20 {
        all.extend_from_slice(&one);
    }
    all
}

fn html(c: &mut Criterion) {
    let bytes = pages();
    let scanner = HtmlScanner::new(Finder::new()).base(Some("https://example.org/doc/"));
    let mut group = c.benchmark_group("html");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.bench_function("html", |b| {
        b.iter(|| {
            let mut valid = 0;
            scanner.scan_with(&bytes, Some(encoding_rs::UTF_8), |h| {
                valid += usize::from(h.hit().is_valid())
            });
            black_box(valid)
        })
    });
    group.bench_function("text", |b| {
        b.iter(|| {
            let mut valid = 0;
            Searcher::new(Finder::new())
                .threads(1)
                .scan_reader(&bytes[..], |h: &iriscan::Hit| {
                    valid += usize::from(h.is_valid());
                    Ok(true)
                })
                .unwrap();
            black_box(valid)
        })
    });
    group.bench_function("tokenize", |b| {
        b.iter(|| black_box(html5gum::Tokenizer::new(&bytes[..]).count()))
    });
    group.finish();
}

criterion_group!(benches, html);
criterion_main!(benches);
