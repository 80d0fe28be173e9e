//! The charset corpus (corpus/charsets/) through the whole pipeline: every
//! document in its legacy charset yields the same IRIs as its UTF-8 twin,
//! with offsets that slice the raw file to exactly the hit's text, URIs
//! whose http(s) query is in the document's charset (RFC 3987bis §3.5),
//! and the same hits through every buffer size. (The command line's JSON
//! on the same documents is checked against the expected output beside
//! them in the command line's own tests, `cli/tests/corpus.rs`.)

use std::path::PathBuf;

use encoding_rs::Encoding;
use iriscan::{Finder, Hit, Searcher, Summary, UriOptions};

use crate::support::Trickle;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/charsets")
}

/// The well-formed documents (their stems).
fn documents() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir())
        .expect("corpus/charsets")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".utf8.txt") && !n.starts_with("bad"))
        .map(|n| n.trim_end_matches(".utf8.txt").to_string())
        .collect();
    stems.sort();
    assert!(stems.len() >= 20, "{stems:?}");
    stems
}

#[derive(Debug, PartialEq, Eq, Clone)]
struct Seen {
    start: usize,
    end: usize,
    line: u64,
    kind: &'static str,
    text: String,
    iri: String,
    uri: String,
    valid: bool,
}

fn scan(
    bytes: &[u8],
    encoding: Option<&'static Encoding>,
    buffer: usize,
    chunk: usize,
) -> (Vec<Seen>, Summary) {
    let mut seen = Vec::new();
    let summary = Searcher::new(Finder::new())
        .encoding(encoding)
        .buffer_size(buffer)
        .scan_reader(Trickle { data: bytes, chunk }, |h: &Hit| {
            seen.push(Seen {
                start: h.start(),
                end: h.end(),
                line: h.line(),
                kind: h.kind().as_str(),
                text: h.text().to_string(),
                iri: h.iri().to_string(),
                uri: h.to_uri(&UriOptions::new()).uri.into_owned(),
                valid: h.is_valid(),
            });
            Ok(true)
        })
        .expect("in-memory reads do not fail");
    (seen, summary)
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Decodes `%HH` runs of a query to bytes (everything else as is).
fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

#[test]
fn legacy_documents_yield_their_twins_iris_with_exact_offsets() {
    for stem in documents() {
        let raw = read(&format!("{stem}.txt"));
        let twin = read(&format!("{stem}.utf8.txt"));
        let (hits, summary) = scan(&raw, None, 64 * 1024, usize::MAX);
        let (twin_hits, _) = scan(&twin, Some(encoding_rs::UTF_8), 64 * 1024, usize::MAX);
        let enc = summary.charset.encoding();
        assert_eq!(summary.replacements, 0, "{stem}");
        assert!(hits.len() >= 3, "{stem}: {hits:?}");
        let iris = |v: &[Seen]| {
            v.iter()
                .map(|h| (h.kind, h.iri.clone(), h.valid, h.line))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            iris(&hits),
            iris(&twin_hits),
            "{stem}: same IRIs as the UTF-8 twin"
        );
        for h in &hits {
            // Offsets slice the raw file to bytes that decode to the text
            // (ISO-2022-JP: in the character set of the last escape).
            let mut bytes = Vec::new();
            if enc == encoding_rs::ISO_2022_JP
                && let Some(i) = (0..h.start.saturating_sub(2))
                    .rev()
                    .find(|&i| matches!(&raw[i..], [0x1B, b'(' | b'$', _, ..]))
            {
                bytes.extend_from_slice(&raw[i..i + 3]);
            }
            bytes.extend_from_slice(&raw[h.start..h.end]);
            let (decoded, _) = enc.decode_without_bom_handling(&bytes);
            assert_eq!(decoded, h.text, "{stem}: raw[{}..{}]", h.start, h.end);
            // §3.5: an http(s) query is encoded in the document charset
            // (UCS-based charsets keep UTF-8).
            let is_http = h.iri.starts_with("http://") || h.iri.starts_with("https://");
            if let (true, Some(q)) = (
                is_http,
                h.iri
                    .split_once('?')
                    .map(|(_, q)| q.split('#').next().unwrap_or(q)),
            ) {
                let uri_query = h.uri.split_once('?').unwrap().1.split('#').next().unwrap();
                let query_charset = enc.output_encoding();
                let (expected, _, _) = query_charset.encode(q);
                let decoded = percent_decode(uri_query);
                if !q.is_ascii() {
                    assert_eq!(
                        decoded,
                        expected.as_ref(),
                        "{stem}: query of {} in {}",
                        h.iri,
                        query_charset.name()
                    );
                }
            }
        }
    }
}

#[test]
fn every_buffer_size_gives_the_same_hits() {
    for stem in documents() {
        let raw = read(&format!("{stem}.txt"));
        let (expected, _) = scan(&raw, None, 64 * 1024, usize::MAX);
        for buffer in 1..=64 {
            let chunk = if buffer % 2 == 0 { buffer } else { 1 };
            let (got, _) = scan(&raw, None, buffer, chunk);
            assert_eq!(got, expected, "{stem}: buffer {buffer}");
        }
    }
}
