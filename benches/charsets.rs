//! Decode-and-scan throughput (the charset issue): the same multilingual
//! text in UTF-8, windows-1252, Shift_JIS and UTF-16LE, streamed through the
//! `Searcher` (detection, transcoding, offset mapping of every hit), bytes
//! per second of the *encoded* input; hit counts asserted.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use encoding_rs::Encoding;
use iriscan::{Finder, Searcher};
use std::hint::black_box;

mod corpus;

fn count(bytes: &[u8], encoding: Option<&'static Encoding>) -> usize {
    let mut n = 0;
    Searcher::new(Finder::new())
        .encoding(encoding)
        .scan_reader(bytes, |h| {
            n += usize::from(h.is_valid());
            Ok(true)
        })
        .expect("in-memory reads do not fail");
    n
}

fn charsets(c: &mut Criterion) {
    // Text each charset can encode: Latin for windows-1252, Japanese for
    // Shift_JIS, the multilingual corpus for the UCS encodings.
    let (latin, latin_links) = corpus::latin(4 << 20);
    let (japanese, ja_links) = corpus::japanese(4 << 20);
    let (multi, multi_links) = corpus::multilingual(4 << 20);
    let cases: Vec<(&str, Vec<u8>, &'static Encoding, usize)> = vec![
        (
            "utf-8",
            multi.clone().into_bytes(),
            encoding_rs::UTF_8,
            multi_links,
        ),
        (
            "windows-1252",
            encoding_rs::WINDOWS_1252.encode(&latin).0.into_owned(),
            encoding_rs::WINDOWS_1252,
            latin_links,
        ),
        (
            "shift_jis",
            encoding_rs::SHIFT_JIS.encode(&japanese).0.into_owned(),
            encoding_rs::SHIFT_JIS,
            ja_links,
        ),
        (
            "utf-16le",
            {
                let mut v = vec![0xFF, 0xFE];
                v.extend(multi.encode_utf16().flat_map(|u| u.to_le_bytes()));
                v
            },
            encoding_rs::UTF_16LE,
            multi_links,
        ),
    ];
    let mut g = c.benchmark_group("decode-and-scan");
    g.sample_size(10);
    for (name, bytes, encoding, links) in &cases {
        assert_eq!(
            count(bytes, None),
            *links,
            "{name}: detected charset, hit count"
        );
        assert_eq!(count(bytes, Some(encoding)), *links, "{name}: hit count");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(*name, |b| {
            b.iter(|| count(black_box(bytes), Some(encoding)))
        });
    }
    g.finish();
}

criterion_group!(benches, charsets);
criterion_main!(benches);
