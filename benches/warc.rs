//! WARC throughput against the text path and a reader alone: the Common
//! Crawl sample of `corpus/warc/` (request, response and metadata records
//! of three HTML pages, one of them gzip-encoded), repeated to 8 MiB,
//! scanned
//!
//! - `warc`: as WARC (`WarcScanner::scan_warc`: read, take the HTTP
//!   response apart, decode, read the HTML, scan; records on the pool);
//! - `warc.gz`: the same records gzip-compressed one member per record, as
//!   Common Crawl ships them;
//! - `text`: as plain text (`Searcher` over the same bytes, one thread);
//! - `read`: the record reader alone (`WarcReader`), the floor of the
//!   WARC path's reading; `read.gz` the same on the compressed file.
//!
//! Bytes per second of the uncompressed WARC (also for the compressed
//! runs, so the figures compare). The hit counts differ by design (the
//! text path sees `&amp;` and no relative links).

use std::io::Write;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iriscan::{Finder, Searcher, WarcReader, WarcScanner};
use std::hint::black_box;

fn warc() -> (Vec<u8>, Vec<u8>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/warc/cc-main-2014-35-sample.warc"
    );
    let one = std::fs::read(path).expect("corpus/warc/cc-main-2014-35-sample.warc");
    let mut all = Vec::with_capacity(8 << 20);
    while all.len() < 8 << 20 {
        all.extend_from_slice(&one);
    }
    let mut gz = Vec::new();
    for record in WarcReader::new(&all[..]) {
        let record = record.unwrap();
        let end = record.block_offset() as usize + record.block().len() + 4;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&all[record.offset() as usize..end]).unwrap();
        gz.extend(enc.finish().unwrap());
    }
    (all, gz)
}

fn bench(c: &mut Criterion) {
    let (bytes, gz) = warc();
    let scanner = WarcScanner::new(Finder::new());
    let mut group = c.benchmark_group("warc");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    for (name, input) in [("warc", &bytes), ("warc.gz", &gz)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut valid = 0;
                scanner
                    .scan_warc(&input[..], |s| {
                        valid += s.hits().iter().filter(|h| h.hit().is_valid()).count()
                    })
                    .unwrap();
                black_box(valid)
            })
        });
    }
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
    for (name, input) in [("read", &bytes), ("read.gz", &gz)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(
                    WarcReader::new(&input[..])
                        .map(|r| r.unwrap().block().len())
                        .sum::<usize>(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
