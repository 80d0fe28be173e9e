//! Scanning throughput: iriscan's finder side by side with the `linkify`
//! crate doing the same job and a bare `memchr` count of `:` over the same
//! bytes (the floor). Every benchmark asserts its hit count.
//!
//! `cargo bench --bench scan`; the README reports the ratios.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

mod corpus;

const SIZE: usize = 4 << 20;

fn iriscan_count(finder: &iriscan::Finder, text: &[u8]) -> usize {
    finder.find_iter(text).filter(|h| h.is_valid()).count()
}

/// linkify doing the same job: URLs with and without a scheme (it finds
/// `www.` hosts only in that mode) and e-mail addresses.
fn linkify_count(text: &str) -> usize {
    let mut f = linkify::LinkFinder::new();
    f.kinds(&[linkify::LinkKind::Url, linkify::LinkKind::Email]);
    f.url_must_have_scheme(false);
    f.links(text).count()
}

/// linkify finding only URLs with a scheme and e-mail addresses (its
/// default, and less than iriscan does: no `www.` hosts).
fn linkify_scheme_count(text: &str) -> usize {
    let mut f = linkify::LinkFinder::new();
    f.kinds(&[linkify::LinkKind::Url, linkify::LinkKind::Email]);
    f.links(text).count()
}

fn memchr_floor(text: &[u8]) -> usize {
    memchr::memchr_iter(b':', text).count()
}

fn corpora(c: &mut Criterion) {
    let finder = iriscan::Finder::new();
    for (name, (text, links)) in [
        ("prose", corpus::prose(SIZE)),
        ("multilingual", corpus::multilingual(SIZE)),
        ("access-log", corpus::access_log(SIZE)),
        ("link-dense", corpus::link_dense(SIZE)),
    ] {
        assert_eq!(
            iriscan_count(&finder, text.as_bytes()),
            links,
            "{name}: hit count"
        );
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.sample_size(20);
        g.bench_function("iriscan", |b| {
            b.iter(|| iriscan_count(&finder, black_box(text.as_bytes())))
        });
        let no_www = iriscan::Finder::new().www(false);
        g.bench_function("iriscan-no-www", |b| {
            b.iter(|| iriscan_count(&no_www, black_box(text.as_bytes())))
        });
        g.bench_function("linkify", |b| b.iter(|| linkify_count(black_box(&text))));
        g.bench_function("linkify-scheme-only", |b| {
            b.iter(|| linkify_scheme_count(black_box(&text)))
        });
        g.bench_function("memchr", |b| {
            b.iter(|| memchr_floor(black_box(text.as_bytes())))
        });
        g.finish();
    }
}

fn adversarial(c: &mut Criterion) {
    let finder = iriscan::Finder::new();
    let mut g = c.benchmark_group("adversarial");
    g.sample_size(10);
    for &(name, unit) in corpus::ADVERSARIAL {
        let text = corpus::adversarial(unit, 1 << 20);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| finder.find_iter(black_box(text.as_bytes())).count())
        });
    }
    g.finish();
}

criterion_group!(benches, corpora, adversarial);
criterion_main!(benches);
