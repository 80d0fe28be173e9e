//! Bulk normalization (the toolkit issue): a million IRI references, each
//! validated, mapped to its URI and normalized (scheme level), and
//! deduplicated by the normalized key — what `iriscan --each-line
//! --normalize --unique` does per line. Reports lines per second and asserts
//! the number of distinct keys.

use std::collections::HashSet;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iriscan::{
    NormalForm, NormalizationLevel, NormalizeOptions, Rule, Syntax, UriOptions, normalize, parse,
    to_uri,
};

mod corpus;

fn distinct(lines: &[String], opts: &NormalizeOptions) -> usize {
    let mut seen: HashSet<String> = HashSet::new();
    for line in lines {
        if parse(line, Rule::IriReference, Syntax::Iri).is_err() {
            continue;
        }
        let uri = to_uri(line, &UriOptions::new());
        if let Ok(key) = normalize(&uri.uri, opts)
            && !seen.contains(key.as_ref())
        {
            seen.insert(key.into_owned());
        }
    }
    seen.len()
}

fn bulk(c: &mut Criterion) {
    let (lines, keys) = corpus::iri_lines(1_000_000);
    let opts = NormalizeOptions::new()
        .level(NormalizationLevel::Scheme)
        .form(NormalForm::Uri);
    assert_eq!(distinct(&lines, &opts), keys);
    let mut g = c.benchmark_group("each-line");
    g.sample_size(10);
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function("normalize-unique-1M", |b| {
        b.iter(|| distinct(black_box(&lines), &opts))
    });
    g.finish();
}

criterion_group!(benches, bulk);
criterion_main!(benches);
