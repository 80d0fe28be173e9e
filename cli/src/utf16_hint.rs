//! A hint for UTF-16 without a byte order mark, which no rule of
//! docs/rules.md §3 recognizes: read as UTF-8, its NUL bytes end every
//! candidate and nothing is found, silently. Text in UTF-16 has a NUL in
//! every other byte where the text is ASCII (Latin script, markup, links),
//! on the odd bytes for UTF-16LE and the even ones for UTF-16BE; the
//! command line then suggests `--encoding utf-16le` (or `be`).

use std::fmt;

/// How many bytes of the start of an input are looked at.
pub const PREFIX: usize = 1024;

/// The byte order the NUL bytes point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf16 {
    Le,
    Be,
}

impl fmt::Display for Utf16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Utf16::Le => "utf-16le",
            Utf16::Be => "utf-16be",
        })
    }
}

/// Whether `prefix` (the first bytes of an input) looks like UTF-16
/// without a BOM: at least 8 pairs, and in three quarters of them or more
/// a printable ASCII byte or white space beside a NUL, always on the same
/// side.
pub fn bomless_utf16(prefix: &[u8]) -> Option<Utf16> {
    let pairs = prefix.len() / 2;
    if pairs < 8 {
        return None;
    }
    let ascii = |b: u8| b.is_ascii_graphic() || b.is_ascii_whitespace();
    let (mut le, mut be) = (0, 0);
    for pair in prefix.chunks_exact(2) {
        match (pair[0], pair[1]) {
            (a, 0) if ascii(a) => le += 1,
            (0, b) if ascii(b) => be += 1,
            _ => {}
        }
    }
    if le * 4 >= pairs * 3 {
        Some(Utf16::Le)
    } else if be * 4 >= pairs * 3 {
        Some(Utf16::Be)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{Utf16, bomless_utf16};

    fn utf16(text: &str, le: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect()
    }

    #[test]
    fn ascii_text_in_utf16_is_recognized_in_both_orders() {
        let text = "see https://example.org/ and www.example.com\n";
        assert_eq!(bomless_utf16(&utf16(text, true)), Some(Utf16::Le));
        assert_eq!(bomless_utf16(&utf16(text, false)), Some(Utf16::Be));
    }

    #[test]
    fn other_text_gives_no_hint() {
        assert_eq!(bomless_utf16(b"see https://example.org/ and more\n"), None);
        // Too short to tell.
        assert_eq!(bomless_utf16(&utf16("a b", true)), None);
        // CJK text has no NUL bytes.
        assert_eq!(
            bomless_utf16(&utf16("東京都の公式サイトはこちらです", true)),
            None
        );
        // A binary file with some NULs.
        let binary: Vec<u8> = (0..=255u8).cycle().take(1024).collect();
        assert_eq!(bomless_utf16(&binary), None);
    }
}
