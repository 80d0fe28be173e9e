//! The real pages of `corpus/html/` (provenance in its README): every
//! hit and offset equal to the expected output beside each page
//! (`NAME.expected.jsonl`; `IRISCAN_BLESS=1` rewrites them), every raw
//! offset slicing out of the page what it says, and the links found
//! measured against the links a careful reader lists (`NAME.links.txt`,
//! written by hand from the pages): F1 ≥ 0.97 over the corpus.

use std::collections::BTreeSet;
use std::path::PathBuf;

use iriscan::{Finder, HtmlScanner, Kind, StructuredHit};
use serde_json::json;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/html")
}

/// The pages, by file name.
fn pages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("corpus/html")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    names
}

/// The address a page is published at (its base): the first line of its
/// links file, `# base: IRI`.
fn base(name: &str) -> String {
    let path = dir().join(format!("{name}.links.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .find_map(|l| l.strip_prefix("# base: "))
        .unwrap_or_else(|| panic!("{name}: no `# base:` line"))
        .to_string()
}

fn scan(name: &str) -> (Vec<u8>, Vec<StructuredHit<'static>>) {
    let bytes = std::fs::read(dir().join(name)).unwrap();
    let base = base(name);
    let hits = HtmlScanner::new(Finder::new())
        .base(Some(&base))
        .scan(&bytes, None);
    (bytes, hits)
}

fn output(hits: &[StructuredHit<'_>]) -> String {
    let mut out = String::new();
    for h in hits {
        out.push_str(&crate::support::hit_line(h, json!({})));
    }
    out
}

#[test]
fn every_page_gives_its_expected_output() {
    let bless = std::env::var_os("IRISCAN_BLESS").is_some();
    for name in pages() {
        let (bytes, hits) = scan(&name);
        for h in &hits {
            let r = h.raw_range().expect("every HTML hit has raw offsets");
            let raw = &bytes[r.start as usize..r.end as usize];
            // A text hit's raw bytes are its text where the text has no
            // character reference; an attribute's are its raw value.
            if !raw.contains(&b'&') {
                assert_eq!(raw, h.hit().text().as_bytes(), "{name}: {h:?}");
            }
            if h.hit().kind() == Kind::Href {
                assert!(
                    !raw.starts_with(b"\"") && !raw.ends_with(b"\""),
                    "{name}: {h:?}"
                );
            }
        }
        let got = output(&hits);
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

/// The links a careful reader lists in a page (`NAME.links.txt`: one IRI a
/// line, `#` comments).
fn hand_checked(name: &str) -> BTreeSet<String> {
    let path = dir().join(format!("{name}.links.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn links_found_match_a_careful_reader() {
    // Links are compared as a set per page: a link in an `href` and in
    // the text it labels counts once.
    let mut score = crate::support::LinkScore::default();
    for name in pages() {
        let (_, hits) = scan(&name);
        let found: BTreeSet<String> = hits
            .iter()
            .filter(|h| h.hit().is_valid())
            .map(|h| h.hit().iri().to_string())
            .collect();
        let listed = hand_checked(&name);
        score.add(&name, &found, &listed);
    }
    score.check("html", 0.97);
}
