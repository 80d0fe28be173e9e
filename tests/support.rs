//! Helpers shared by the test modules.

use std::io::Read;
use std::path::PathBuf;

use encoding_rs::Encoding;

/// The path of a file in `tests/suites/`.
pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites")
        .join(name)
}

/// A suite file of `tests/suites/`, parsed.
#[allow(dead_code)]
pub fn suite(name: &str) -> serde_json::Value {
    let path = suite_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `cases` array of a suite file.
#[allow(dead_code)]
pub fn cases(name: &str) -> Vec<serde_json::Value> {
    suite(name)["cases"]
        .as_array()
        .expect("cases array")
        .clone()
}

/// A reader that hands out at most `chunk` bytes per read: the short reads
/// a pipe or a socket gives.
pub struct Trickle<'a> {
    pub data: &'a [u8],
    pub chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// A reader that fails once it has handed out `ok` bytes (a disk or a
/// network connection that goes away mid-input).
pub struct FailingAfter<'a> {
    pub data: &'a [u8],
    pub ok: usize,
}

impl Read for FailingAfter<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.ok == 0 {
            return Err(std::io::Error::other("the input is gone"));
        }
        let n = out.len().min(self.ok).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.ok -= n;
        Ok(n)
    }
}

/// Every encoding of the WHATWG Encoding Standard, the replacement encoding
/// included (it can be given as an `&Encoding`).
pub const ALL_ENCODINGS: &[&Encoding] = include!("../src/charset/every_encoding.in");

/// The Encoding Standard has 40 encodings: the list has each once.
#[test]
fn all_encodings_lists_each_encoding_once() {
    let mut names: Vec<&str> = ALL_ENCODINGS.iter().map(|e| e.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 40);
}

/// The links a careful reader lists in a corpus document, as `(unit, iri)`
/// (the unit is a message of an mbox or a record of a WARC): a
/// `NAME.links.txt` file of `UNIT<TAB>IRI` lines, `#` comments.
#[cfg(any(feature = "mail", feature = "warc"))]
pub fn hand_checked_links(path: &std::path::Path) -> std::collections::BTreeSet<(u64, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (unit, iri) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("{}: {l:?}", path.display()));
            let unit = unit
                .parse()
                .unwrap_or_else(|e| panic!("{}: {l:?}: {e}", path.display()));
            (unit, iri.to_string())
        })
        .collect()
}

/// Links found against the links a careful reader lists, over the
/// documents of a corpus: precision, recall and F1, with every difference
/// named.
#[derive(Default)]
#[allow(dead_code)]
pub struct LinkScore {
    found: usize,
    right: usize,
    listed: usize,
    report: String,
}

#[allow(dead_code)]
impl LinkScore {
    /// Counts document `name`: the links found and those listed.
    pub fn add<T: Ord + std::fmt::Debug>(
        &mut self,
        name: &str,
        found: &std::collections::BTreeSet<T>,
        listed: &std::collections::BTreeSet<T>,
    ) {
        for extra in found.difference(listed) {
            self.report
                .push_str(&format!("{name}: found, not listed: {extra:?}\n"));
        }
        for missed in listed.difference(found) {
            self.report
                .push_str(&format!("{name}: listed, not found: {missed:?}\n"));
        }
        self.found += found.len();
        self.right += found.intersection(listed).count();
        self.listed += listed.len();
    }

    /// Prints the figures of `corpus` and fails below an F1 of `at_least`.
    pub fn check(&self, corpus: &str, at_least: f64) {
        let precision = self.right as f64 / self.found as f64;
        let recall = self.right as f64 / self.listed as f64;
        let f1 = 2.0 * precision * recall / (precision + recall);
        eprintln!(
            "{corpus} corpus: {} links listed, {} found, {} right: \
             precision {precision:.3}, recall {recall:.3}, F1 {f1:.3}\n{}",
            self.listed, self.found, self.right, self.report
        );
        assert!(f1 >= at_least, "F1 {f1:.3} < {at_least}:\n{}", self.report);
    }
}

/// The expected-output line (JSON, keys sorted, newline included) of a
/// structured hit: where it is and what it is, with the fields of its
/// unit (`unit`: the message's or the record's) added.
#[cfg(feature = "html")]
pub fn hit_line(h: &iriscan::StructuredHit<'_>, unit: serde_json::Value) -> String {
    let hit = h.hit();
    let raw = h.raw_range();
    let mut line = serde_json::json!({
        "source": h.origin().source().to_string(),
        "start": h.start(),
        "end": h.end(),
        "raw_start": raw.as_ref().map(|r| r.start),
        "raw_end": raw.as_ref().map(|r| r.end),
        "line": hit.line(),
        "column": hit.column(),
        "text": hit.text(),
        "iri": hit.iri(),
        "uri": hit.to_uri(&iriscan::UriOptions::new()).uri,
        "kind": hit.kind().as_str(),
        "valid": hit.is_valid(),
    });
    if let (Some(line), serde_json::Value::Object(unit)) = (line.as_object_mut(), unit) {
        line.extend(unit);
    }
    format!("{line}\n")
}
