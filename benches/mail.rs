//! Mail throughput against the text path: the mbox of `corpus/mail/`
//! (six real list messages: quoted-printable and 8bit bodies, HTML
//! alternatives, `List-*` headers), repeated to 4 MiB, scanned
//!
//! - `mbox`: as mail (`MailScanner::scan_mbox`: split, parse, decode, scan
//!   each piece);
//! - `text`: as plain text (`Searcher` over the same bytes, one thread);
//! - `split`: the mbox splitter alone (`MboxReader`), the floor of the
//!   mail path's reading.
//!
//! Bytes per second of the mbox as given. The hit counts differ by
//! design (the text path sees `=3D` and cut links, not the decoded text).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iriscan::{Finder, MailScanner, MboxReader, Searcher};
use std::hint::black_box;

fn mbox() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/mail/spamassassin-ham.mbox"
    );
    let one = std::fs::read(path).expect("corpus/mail/spamassassin-ham.mbox");
    let mut all = Vec::with_capacity(4 << 20);
    while all.len() < 4 << 20 {
        all.extend_from_slice(&one);
    }
    all
}

fn mail(c: &mut Criterion) {
    let bytes = mbox();
    let scanner = MailScanner::new(Finder::new());
    let mut group = c.benchmark_group("mail");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    group.bench_function("mbox", |b| {
        b.iter(|| {
            let mut valid = 0;
            scanner
                .scan_mbox(&bytes[..], |s| {
                    valid += s.hits().iter().filter(|h| h.hit().is_valid()).count()
                })
                .unwrap();
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
    group.bench_function("split", |b| {
        b.iter(|| {
            black_box(
                MboxReader::new(&bytes[..])
                    .map(|m| m.unwrap().bytes().len())
                    .sum::<usize>(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, mail);
criterion_main!(benches);
