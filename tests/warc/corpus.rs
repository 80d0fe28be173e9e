//! The real WARC and WET files of `corpus/warc/` (provenance in its
//! README): every hit, error and offset equal to the expected output
//! beside each file (`NAME.expected.jsonl`; `IRISCAN_BLESS=1` rewrites
//! them), the same links from the file gzip-compressed record by record,
//! and the links found measured against the links a careful reader lists
//! (`NAME.links.txt`, checked by hand): F1 ≥ 0.97 over the corpus.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

use iriscan::{Finder, RecordScan, WarcReader, WarcScanner};
use serde_json::json;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/warc")
}

/// The documents: `.warc` and `.wet` files.
fn documents() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("corpus/warc")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".warc") || n.ends_with(".wet"))
        .collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    names
}

fn scan(bytes: &[u8]) -> Vec<RecordScan> {
    let mut scans = Vec::new();
    WarcScanner::new(Finder::new())
        .scan_warc(bytes, |s| scans.push(s))
        .unwrap();
    scans
}

/// The expected-output lines of a document: each hit, then each error.
fn output(scans: &[RecordScan]) -> String {
    let mut out = String::new();
    for s in scans {
        for h in s.hits() {
            out.push_str(&crate::support::hit_line(
                h,
                json!({
                    "record": s.index(),
                    "record_id": s.record_id(),
                    "target_uri": s.target_uri(),
                }),
            ));
        }
        for e in s.errors() {
            out.push_str(&json!({ "record": e.record(), "error": e.to_string() }).to_string());
            out.push('\n');
        }
    }
    out
}

/// `(record, iri)` of the valid hits.
fn links(scans: &[RecordScan]) -> BTreeSet<(u64, String)> {
    scans
        .iter()
        .flat_map(|s| {
            s.hits()
                .iter()
                .filter(|h| h.hit().is_valid())
                .map(|h| (s.index(), h.hit().iri().to_string()))
        })
        .collect()
}

#[test]
fn every_document_gives_its_expected_output() {
    let bless = std::env::var_os("IRISCAN_BLESS").is_some();
    for name in documents() {
        let bytes = std::fs::read(dir().join(&name)).unwrap();
        let scans = scan(&bytes);
        for s in &scans {
            for h in s.hits() {
                let Some(r) = h.raw_range() else { continue };
                let raw = &bytes[r.start as usize..r.end as usize];
                if let iriscan::Source::Attribute(_) = h.origin().source() {
                    // An attribute's raw value, between its quotes (its
                    // references are decoded in the hit's text).
                    let before = bytes[..r.start as usize].trim_ascii_end();
                    assert!(
                        matches!(before.last(), Some(b'"' | b'\'' | b'=')),
                        "{name}: {h:?}"
                    );
                    assert_eq!(
                        String::from_utf8_lossy(raw).replace("&amp;", "&").trim(),
                        h.hit().text().trim(),
                        "{name}: {h:?}"
                    );
                } else {
                    assert_eq!(raw, h.hit().text().as_bytes(), "{name}: {h:?}");
                }
            }
        }
        let got = output(&scans);
        let path = dir().join(format!("{name}.expected.jsonl"));
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (IRISCAN_BLESS=1 writes it)", path.display()));
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn compressed_record_by_record_the_links_are_the_same() {
    // As Common Crawl ships them: one gzip member per record.
    for name in documents() {
        let bytes = std::fs::read(dir().join(&name)).unwrap();
        let mut gz = Vec::new();
        let mut members = Vec::new();
        for record in WarcReader::new(&bytes[..]) {
            let record = record.unwrap();
            let start = record.offset() as usize;
            let end = record.block_offset() as usize + record.block().len() + 4;
            members.push(gz.len() as u64);
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(&bytes[start..end]).unwrap();
            gz.extend(enc.finish().unwrap());
        }
        let plain = scan(&bytes);
        let compressed = scan(&gz);
        assert_eq!(links(&compressed), links(&plain), "{name}");
        let offsets: Vec<u64> = WarcReader::new(&gz[..])
            .map(|r| r.unwrap().gzip_offset().unwrap())
            .collect();
        assert_eq!(offsets, members, "{name}");
    }
}

/// `(record, iri)` of the links a careful reader lists in a document
/// (`NAME.links.txt`: `RECORD<TAB>IRI` lines, `#` comments).
fn hand_checked(name: &str) -> BTreeSet<(u64, String)> {
    crate::support::hand_checked_links(&dir().join(format!("{name}.links.txt")))
}

#[test]
fn links_found_match_a_careful_reader() {
    // Links are compared as a set per record: a link twice on a page
    // counts once.
    let mut score = crate::support::LinkScore::default();
    for name in documents() {
        let bytes = std::fs::read(dir().join(&name)).unwrap();
        let found = links(&scan(&bytes));
        let listed = hand_checked(&name);
        score.add(&name, &found, &listed);
    }
    score.check("warc", 0.97);
}
