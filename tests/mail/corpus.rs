//! The real messages of `corpus/mail/` (provenance in its README): every
//! hit, error and offset equal to the expected output beside each file
//! (`NAME.expected.jsonl`; `IRISCAN_BLESS=1` rewrites them), and the links
//! found measured against the links a careful reader lists
//! (`NAME.links.txt`, written by hand): F1 ≥ 0.97 over the corpus.

use std::collections::BTreeSet;
use std::path::PathBuf;

use iriscan::{Finder, MailScanner, MessageScan};
use serde_json::json;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/mail")
}

/// The documents: `.eml` files (one message) and `.mbox` files.
fn documents() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("corpus/mail")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".eml") || n.ends_with(".mbox"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    names
}

fn scan(name: &str) -> (Vec<u8>, Vec<MessageScan>) {
    let bytes = std::fs::read(dir().join(name)).unwrap();
    let scanner = MailScanner::new(Finder::new());
    let scans = if name.ends_with(".mbox") {
        let mut scans = Vec::new();
        scanner.scan_mbox(&bytes[..], |s| scans.push(s)).unwrap();
        scans
    } else {
        vec![scanner.scan_message(&bytes, 0)]
    };
    (bytes, scans)
}

/// The expected-output lines of a document: each hit, then each error.
fn output(scans: &[MessageScan]) -> String {
    let mut out = String::new();
    for s in scans {
        for h in s.hits() {
            out.push_str(&crate::support::hit_line(
                h,
                json!({
                    "message": s.index(),
                    "message_id": s.message_id(),
                    "part": h.origin().part(),
                }),
            ));
        }
        for e in s.errors() {
            out.push_str(&json!({ "message": s.index(), "error": e.to_string() }).to_string());
            out.push('\n');
        }
    }
    out
}

#[test]
fn every_document_gives_its_expected_output() {
    let bless = std::env::var_os("IRISCAN_BLESS").is_some();
    for name in documents() {
        let (bytes, scans) = scan(&name);
        // Raw offsets slice the hit's text out of the file.
        for s in &scans {
            for h in s.hits() {
                if let Some(r) = h.raw_range() {
                    assert_eq!(
                        &bytes[r.start as usize..r.end as usize],
                        h.hit().text().as_bytes(),
                        "{name}: {h:?}"
                    );
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

/// `(message, iri)` of the links a careful reader lists in a document
/// (`NAME.links.txt`: `MESSAGE<TAB>IRI` lines, `#` comments).
fn hand_checked(name: &str) -> BTreeSet<(u64, String)> {
    crate::support::hand_checked_links(&dir().join(format!("{name}.links.txt")))
}

#[test]
fn links_found_match_a_careful_reader() {
    // Links are compared as a set per message: a link in both the plain
    // and the HTML alternative, or in a header and the body, counts once.
    let mut score = crate::support::LinkScore::default();
    for name in documents() {
        let (_, scans) = scan(&name);
        let found: BTreeSet<(u64, String)> = scans
            .iter()
            .flat_map(|s| {
                s.hits()
                    .iter()
                    .filter(|h| h.hit().is_valid())
                    .map(|h| (s.index(), h.hit().iri().to_string()))
            })
            .collect();
        let listed = hand_checked(&name);
        score.add(&name, &found, &listed);
    }
    score.check("mail", 0.97);
}
