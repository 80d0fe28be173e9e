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

/// Every encoding of the WHATWG Encoding Standard, the replacement encoding
/// included (it can be given as an `&Encoding`).
pub const ALL_ENCODINGS: &[&Encoding] = &[
    encoding_rs::UTF_8,
    encoding_rs::IBM866,
    encoding_rs::ISO_8859_2,
    encoding_rs::ISO_8859_3,
    encoding_rs::ISO_8859_4,
    encoding_rs::ISO_8859_5,
    encoding_rs::ISO_8859_6,
    encoding_rs::ISO_8859_7,
    encoding_rs::ISO_8859_8,
    encoding_rs::ISO_8859_8_I,
    encoding_rs::ISO_8859_10,
    encoding_rs::ISO_8859_13,
    encoding_rs::ISO_8859_14,
    encoding_rs::ISO_8859_15,
    encoding_rs::ISO_8859_16,
    encoding_rs::KOI8_R,
    encoding_rs::KOI8_U,
    encoding_rs::MACINTOSH,
    encoding_rs::WINDOWS_874,
    encoding_rs::WINDOWS_1250,
    encoding_rs::WINDOWS_1251,
    encoding_rs::WINDOWS_1252,
    encoding_rs::WINDOWS_1253,
    encoding_rs::WINDOWS_1254,
    encoding_rs::WINDOWS_1255,
    encoding_rs::WINDOWS_1256,
    encoding_rs::WINDOWS_1257,
    encoding_rs::WINDOWS_1258,
    encoding_rs::X_MAC_CYRILLIC,
    encoding_rs::GBK,
    encoding_rs::GB18030,
    encoding_rs::BIG5,
    encoding_rs::EUC_JP,
    encoding_rs::ISO_2022_JP,
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_KR,
    encoding_rs::REPLACEMENT,
    encoding_rs::UTF_16BE,
    encoding_rs::UTF_16LE,
    encoding_rs::X_USER_DEFINED,
];

/// The Encoding Standard has 40 encodings: the list has each once.
#[test]
fn all_encodings_lists_each_encoding_once() {
    let mut names: Vec<&str> = ALL_ENCODINGS.iter().map(|e| e.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 40);
}
