//! Decode-and-scan throughput (the charset issue): the same multilingual
//! text in UTF-8, windows-1252, Shift_JIS and UTF-16LE, streamed through the
//! `Searcher` (detection, transcoding, offset mapping of every hit), bytes
//! per second of the *encoded* input; hit counts asserted.
//!
//! `offset-map` times the offset map alone on the decoded documents (and
//! ISO-2022-JP, which keeps the byte-at-a-time walk): the lookups the
//! searcher makes for a hit every 200 bytes of text — the line start now
//! and then, the hit's start and end — in order through one mapper.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use encoding_rs::Encoding;
use iriscan::{Charset, Finder, Searcher, transcode};
use std::hint::black_box;

mod corpus;

fn count(bytes: &[u8], encoding: Option<&'static Encoding>) -> usize {
    let mut n = 0;
    Searcher::new(Finder::new())
        .encoding(encoding)
        .scan_reader(bytes, |h: &iriscan::Hit| {
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

    let mut g = c.benchmark_group("offset-map");
    g.sample_size(10);
    let iso_2022_jp = encoding_rs::ISO_2022_JP.encode(&japanese).0.into_owned();
    let maps = cases
        .iter()
        .map(|(name, bytes, encoding, _)| (*name, &bytes[..], *encoding))
        .chain([("iso-2022-jp", &iso_2022_jp[..], encoding_rs::ISO_2022_JP)]);
    for (name, bytes, encoding) in maps {
        let doc = transcode(bytes, &Charset::given(encoding, bytes));
        let text = std::str::from_utf8(doc.utf8()).expect("decoded text is UTF-8");
        let boundary = |mut u: usize| {
            while !text.is_char_boundary(u) {
                u += 1;
            }
            u
        };
        let lookups: Vec<(usize, usize, usize)> = (0..text.len().saturating_sub(300))
            .step_by(200)
            .map(|u| {
                let line = boundary(u);
                let start = boundary(u + 60);
                (line, start, boundary(start + 40))
            })
            .collect();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut m = doc.mapper();
                let mut sum = 0;
                for (k, &(line, start, end)) in lookups.iter().enumerate() {
                    if k % 3 == 0 {
                        sum += m.original_start(line).unwrap();
                    }
                    let r = m.original_range(start..end).unwrap();
                    sum += r.start + r.end;
                }
                black_box(sum)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, charsets);
criterion_main!(benches);
