//! How the scanner sees a non-ASCII character in running text: whether it
//! continues a candidate, ends it, or opens or closes a bracket pair
//! ([`classify`]); whether it is trimmed from the end of a candidate; whether
//! it is a letter or digit of an e-mail address; whether it belongs to a
//! script written without spaces.
//!
//! # The classes
//!
//! [`classify`] builds on the end-of-IRI rule of
//! [`crate::chars::end_of_iri`]: a character for which [`ends_iri`] holds
//! is [`Class::End`]. Of the others, the opening brackets with a partner in
//! Unicode's BidiBrackets are [`Class::Open`], the closing punctuation is
//! [`Class::Close`] (part of the IRI only when it closes an opener inside
//! it), and everything else [`Class::Iri`]. ASCII is classified by the
//! table of [`crate::chars::ascii`]; its brackets and quotes need context
//! that only the scanner has.
//!
//! # Speed
//!
//! The forward scan asks at every non-ASCII character. The properties of
//! the Basic Multilingual Plane are therefore a table made ahead of time
//! (`prose_chars/bmp_table.rs`: 256 pages of 256 code points, the 56
//! distinct pages stored once), so that a lookup is two loads; computing
//! all 65,536 code points at start would cost about ten milliseconds, and
//! computing pages on first use cost a check on every lookup. A test
//! computes the table again from the rules below and compares it (and
//! writes it, with `IRISCAN_WRITE_TABLES=1`, when a new Unicode version
//! changes it). The other planes are computed each time. The table holds
//! the Unicode data of the `unicode-properties` in `Cargo.lock`: a build
//! that resolves a newer release computes the other planes from it, and
//! its tests fail until the table is written anew (no proof of validity
//! rests on it: `ucschar` is a list of ranges).
//!
//! ```text
//! classify('é') = Iri    classify('。') = End    classify('（') = Open
//! is_trimmed_non_ascii('…') = true    is_cjk('日') = true
//! ```

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::chars::ascii::{IRI, TEXT_EXTRA, ascii_is};
use crate::chars::end_of_iri::ends_iri;
use crate::chars::utf8::{decode_three_byte, decode_two_byte};

/// How the scanner treats one character inside a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Class {
    /// Continues the IRI.
    Iri = 0,
    /// Ends the IRI (ASCII delimiters, and the characters
    /// for which [`ends_iri`] holds).
    End = 1,
    /// An opening bracket with a closing partner (Unicode BidiBrackets):
    /// continues the IRI and waits for its closer.
    Open,
    /// A closing bracket: part of the IRI only if it closes the innermost
    /// opener inside it, otherwise it ends the IRI.
    Close = 3,
}

/// Classifies a non-ASCII character (computed; [`classify`] caches the BMP).
fn classify_uncached(c: char) -> Class {
    if ends_iri(c) {
        return Class::End;
    }
    match c.general_category() {
        GeneralCategory::OpenPunctuation if closing_partner(c).is_some() => Class::Open,
        GeneralCategory::OpenPunctuation => Class::Iri,
        // A closer without an opener can never be balanced.
        GeneralCategory::ClosePunctuation => Class::Close,
        _ => Class::Iri,
    }
}

/// The properties of one code point as the BMP table stores them: its
/// [`Class`] in the low two bits, then whether it is trimmed and whether
/// it is a word character.
#[derive(Clone, Copy)]
struct Info(u8);

const TRIMMED: u8 = 4;
const WORD: u8 = 8;

#[cfg(test)]
impl Info {
    /// Computed (the table holds the BMP; see the module docs).
    fn of(c: char) -> Info {
        let class = classify_uncached(c) as u8;
        let mut f = class;
        if trimmed_uncached(c) {
            f |= TRIMMED;
        }
        if word_uncached(c) {
            f |= WORD;
        }
        Info(f)
    }
}

impl Info {
    fn class(self) -> Class {
        match self.0 & 3 {
            0 => Class::Iri,
            1 => Class::End,
            2 => Class::Open,
            _ => Class::Close,
        }
    }
}

/// The properties of the BMP (see the module docs), made by `Info::of_bmp`
/// in the test `the_bmp_table_is_what_the_rules_give`.
mod bmp_table;

/// What the BMP table stores for code point `u` (below 0x10000).
#[inline(always)]
const fn stored(u: usize) -> u8 {
    bmp_table::PAGES[bmp_table::PAGE_OF[u >> 8] as usize][u & 0xFF]
}

#[cfg(test)]
impl Info {
    /// What the table holds for a BMP code point: a surrogate ends an IRI.
    fn of_bmp(u: u32) -> Info {
        char::from_u32(u).map_or(Info(Class::End as u8), Info::of)
    }
}

/// The letters, marks and digits of two bytes, one bit each, by the
/// character's lead byte (less `0xC0`) and its continuation byte (less
/// `0x80`): U+0080..U+07FF. The overlong forms (`C0`, `C1`) are clear.
static WORD_BITS_2: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut u = 0x80;
    while u < 0x800 {
        if stored(u) & WORD != 0 {
            t[u >> 6] |= 1 << (u & 63);
        }
        u += 1;
    }
    t
};

/// The letters, marks and digits of three bytes, one bit each, by the
/// low nibble of the lead byte and the low six bits of the two
/// continuation bytes: U+0800..U+FFFF. The overlong forms (below U+0800)
/// and the surrogates are clear.
static WORD_BITS_3: [u64; 1024] = {
    let mut t = [0u64; 1024];
    let mut u = 0x800;
    while u < 0x10000 {
        if !(u >= 0xD800 && u < 0xE000) && stored(u) & WORD != 0 {
            t[u >> 6] |= 1 << (u & 63);
        }
        u += 1;
    }
    t
};

/// The length of the letter, mark or digit of two or three bytes at
/// `hay[p]` ([`is_word_char_non_ascii`]), or 0 for anything else (ASCII,
/// another character, bytes that are no character, `p` at or past the
/// end). The callers ask only where `hay[p]` is not ASCII.
///
/// With four bytes at hand the bytes index the bit tables as they stand,
/// without decoding the character: one mask and compare checks the form
/// of the lead and continuation bytes together, and the bits of the
/// overlong forms and of the surrogates are clear. The form and the bit
/// are put together without a branch; the branches are on the four bytes
/// at hand and on the length the first byte gives.
#[inline(always)]
pub(crate) fn word_len_at(hay: &[u8], p: usize) -> usize {
    let Some(four) = hay.get(p..).and_then(<[u8]>::first_chunk::<4>) else {
        return word_len_decoded(hay, p);
    };
    // (One load of the four bytes: taken apart byte by byte, they were
    // four loads and the shifts that put them together.)
    let w = u32::from_le_bytes(*four);
    if (w as u8) < 0xE0 {
        let form = w & 0xC0E0 == 0x80C0;
        let bit = WORD_BITS_2[(w & 0x1F) as usize] >> (w >> 8 & 0x3F) & 1 != 0;
        2 * usize::from(form & bit)
    } else {
        let form = w & 0xC0_C0F0 == 0x80_80E0;
        let block = (w as usize & 0xF) << 6 | (w as usize >> 8 & 0x3F);
        let bit = WORD_BITS_3[block] >> (w >> 16 & 0x3F) & 1 != 0;
        3 * usize::from(form & bit)
    }
}

/// [`word_len_at`] by decoding the character: near the end of `hay`.
#[cold]
#[inline(never)]
fn word_len_decoded(hay: &[u8], p: usize) -> usize {
    match hay.get(p) {
        Some(&b) if b < 0xE0 => {
            2 * usize::from(decode_two_byte(hay, p).is_some_and(is_word_char_non_ascii))
        }
        Some(_) => 3 * usize::from(decode_three_byte(hay, p).is_some_and(is_word_char_non_ascii)),
        None => 0,
    }
}

/// The stored properties of a non-ASCII BMP character; `None` for ASCII
/// and the other planes.
#[inline]
fn info(c: char) -> Option<Info> {
    let u = c as u32;
    (0x80..0x10000)
        .contains(&u)
        .then(|| Info(stored(u as usize)))
}

/// Classifies a character for the forward scan (meant for non-ASCII; ASCII
/// brackets and quotes need the context the scanner keeps).
#[inline]
pub(crate) fn classify(c: char) -> Class {
    let u = c as u32;
    if u < 0x80 {
        return if ascii_is(u as u8, IRI | TEXT_EXTRA) {
            Class::Iri
        } else {
            Class::End
        };
    }
    match info(c) {
        Some(i) => i.class(),
        None => classify_uncached(c),
    }
}

/// The bracket pair of `c` as its opening character (normalized, so that
/// U+2329 and U+3008 pair with each other's closers), for ASCII and
/// non-ASCII brackets alike. `None` if `c` is not a paired bracket.
pub(crate) fn bracket_key(c: char) -> Option<char> {
    use unicode_bidi::BidiDataSource;
    unicode_bidi::HardcodedBidiData
        .bidi_matched_opening_bracket(c)
        .map(|b| b.opening)
}

/// Whether `c` opens a bracket pair (ASCII `(` `[` `{` or a Unicode Ps
/// with a BidiBrackets partner).
fn closing_partner(c: char) -> Option<char> {
    use unicode_bidi::BidiDataSource;
    unicode_bidi::HardcodedBidiData
        .bidi_matched_opening_bracket(c)
        .filter(|b| b.is_open)
        .map(|b| b.opening)
}

/// Whether a non-ASCII character is trimmed from the end of a candidate
/// (docs/rules.md §1.3): punctuation of category Po, Pi, Pf, Pd — `…` `‥` `’`
/// `—` and the like — and Ps (an opening bracket cannot end an IRI), except
/// the sentence-opening `¡` `¿`.
pub(crate) fn is_trimmed_non_ascii(c: char) -> bool {
    match info(c) {
        Some(i) => i.0 & TRIMMED != 0,
        None => trimmed_uncached(c),
    }
}

fn trimmed_uncached(c: char) -> bool {
    if matches!(c, '¡' | '¿') {
        return false;
    }
    matches!(
        c.general_category(),
        GeneralCategory::OtherPunctuation
            | GeneralCategory::InitialPunctuation
            | GeneralCategory::FinalPunctuation
            | GeneralCategory::DashPunctuation
            | GeneralCategory::OpenPunctuation
    )
}

/// Han, Kana and Hangul: scripts whose prose is written without spaces, so
/// that an ASCII host label running into them is prose glued to a link
/// (docs/rules.md §1.1, `http://www.scriptics.com参照`).
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF       // Hangul Jamo
        | 0x3005..=0x3007     // 々 〆 〇
        | 0x3021..=0x3029     // Hangzhou numerals
        | 0x3031..=0x3035     // Kana repeat marks
        | 0x3041..=0x309F     // Hiragana
        | 0x30A0..=0x30FF     // Katakana
        | 0x3130..=0x318F     // Hangul Compatibility Jamo
        | 0x31F0..=0x31FF     // Katakana Phonetic Extensions
        | 0x3400..=0x4DBF     // CJK Unified Ideographs Extension A
        | 0x4E00..=0x9FFF     // CJK Unified Ideographs
        | 0xA960..=0xA97F     // Hangul Jamo Extended-A
        | 0xAC00..=0xD7AF     // Hangul Syllables
        | 0xD7B0..=0xD7FF     // Hangul Jamo Extended-B
        | 0xF900..=0xFAFF     // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F     // Halfwidth Katakana
        | 0xFFA0..=0xFFDC     // Halfwidth Hangul
        | 0x1B000..=0x1B16F   // Kana Supplement, Extended-A
        | 0x20000..=0x3FFFF) // CJK Extensions B… (planes 2 and 3)
}

/// Whether a non-ASCII character may be part of an e-mail local part or
/// domain (RFC 6531): letters, marks (Indic vowel signs, viramas) and
/// digits of any script.
#[inline]
pub(crate) fn is_word_char_non_ascii(c: char) -> bool {
    match info(c) {
        Some(i) => i.0 & WORD != 0,
        None => word_uncached(c),
    }
}

fn word_uncached(c: char) -> bool {
    use GeneralCategory::*;
    classify_uncached(c) == Class::Iri
        && matches!(
            c.general_category(),
            UppercaseLetter
                | LowercaseLetter
                | TitlecaseLetter
                | ModifierLetter
                | OtherLetter
                | NonspacingMark
                | SpacingMark
                | EnclosingMark
                | DecimalNumber
                | LetterNumber
                | OtherNumber
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit tables read from the bytes as they stand give the answer of
    /// the decoder and the BMP table, for every lead byte that is not
    /// ASCII, with every continuation (and every byte that is none), with
    /// four bytes at hand and near the end.
    #[test]
    fn word_lengths_from_the_bytes_are_those_decoded() {
        let mut seen = [0usize; 4];
        for b0 in 0x80..=0xFFu8 {
            let b2s: Vec<u8> = if b0 < 0xE0 {
                vec![0x00, 0x41, 0x80, 0xBF, 0xC0, 0xFF]
            } else {
                (0..=0xFF).collect()
            };
            for b1 in 0..=0xFFu8 {
                for &b2 in &b2s {
                    let bytes = [b0, b1, b2, b'x'];
                    let n = word_len_at(&bytes, 0);
                    assert_eq!(n, word_len_decoded(&bytes, 0), "{bytes:x?}");
                    seen[n] += 1;
                    // Near the end: the decoder answers.
                    for len in 1..4 {
                        assert_eq!(
                            word_len_at(&bytes[..len], 0),
                            word_len_decoded(&bytes[..len], 0),
                            "{:x?}",
                            &bytes[..len]
                        );
                    }
                }
            }
        }
        // Letters of both lengths were found, and bytes that are none.
        assert!(seen[0] > 0 && seen[2] > 0 && seen[3] > 0, "{seen:?}");
        assert_eq!(seen[1], 0);
        // Overlong forms and surrogates are no letters.
        for bad in [
            &[0xC1, 0x81, 0, 0][..],
            &[0xE0, 0x90, 0x80, 0],
            &[0xED, 0xA0, 0x80, 0],
        ] {
            assert_eq!(word_len_at(bad, 0), 0, "{bad:x?}");
        }
        assert_eq!(word_len_at("Ü..".as_bytes(), 0), 2);
        assert_eq!(word_len_at("東..".as_bytes(), 0), 3);
        assert_eq!(word_len_at("。..".as_bytes(), 0), 0);
    }

    #[test]
    fn product_md_end_characters_end_an_iri() {
        let listed = "\u{85}\u{A0}\u{1680}\u{2000}\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\
                      \u{61C}\u{200E}\u{200F}\u{202A}\u{202E}\u{2066}\u{2069}\
                      、。，．！？：；،؛؟۔।॥\u{37E}“”„‟«»‹›「」『』〝〞〟＂＜＞＼｀｜\u{FFFD}";
        for c in listed.chars() {
            assert_eq!(classify(c), Class::End, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn letters_of_every_script_continue_an_iri() {
        for c in "éßжя日本語한국어ไทยעבריתالعربيةहिन्दीΕλληνικά😀‘’—…·€".chars()
        {
            assert_eq!(classify(c), Class::Iri, "{c}");
        }
    }

    #[test]
    fn brackets_pair_across_ascii_and_unicode() {
        for (o, c) in [
            ('(', ')'),
            ('[', ']'),
            ('{', '}'),
            ('（', '）'),
            ('【', '】'),
            ('⟨', '⟩'),
            ('〈', '〉'),
        ] {
            assert_eq!(bracket_key(o), Some(o));
            assert_eq!(bracket_key(c), Some(o));
        }
        // U+2329 is canonically U+3008: the pairs match either way.
        assert_eq!(bracket_key('\u{232A}'), bracket_key('\u{3009}'));
        for c in "（【〔〈《〖⟨".chars() {
            assert_eq!(classify(c), Class::Open, "{c}");
        }
        for c in "）】〕〉》〗⟩".chars() {
            assert_eq!(classify(c), Class::Close, "{c}");
        }
    }

    #[test]
    fn non_iri_code_points_end() {
        for c in ['\u{9F}', '\u{FDD0}', '\u{FFFE}', '\u{1FFFF}', '\u{EFFFE}'] {
            assert_eq!(classify(c), Class::End, "U+{:04X}", c as u32);
        }
        // iprivate continues the candidate; validation rejects it outside the query.
        assert_eq!(classify('\u{E000}'), Class::Iri);
        assert_eq!(classify('\u{E0041}'), Class::Iri);
    }

    /// The table of `bmp_table.rs` is what the rules give for every BMP
    /// code point; `IRISCAN_WRITE_TABLES=1` writes it anew instead.
    #[test]
    fn the_bmp_table_is_what_the_rules_give() {
        let pages: Vec<[u8; 256]> = (0..256u32)
            .map(|p| std::array::from_fn(|i| Info::of_bmp(p * 256 + i as u32).0))
            .collect();
        let mut distinct: Vec<[u8; 256]> = Vec::new();
        let mut page_of = [0u8; 256];
        for (p, page) in pages.iter().enumerate() {
            let k = match distinct.iter().position(|d| d == page) {
                Some(k) => k,
                None => {
                    distinct.push(*page);
                    distinct.len() - 1
                }
            };
            page_of[p] = u8::try_from(k).expect("at most 256 distinct pages");
        }
        if std::env::var_os("IRISCAN_WRITE_TABLES").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/find/prose_chars/bmp_table.rs"
            );
            std::fs::write(path, render_table(&page_of, &distinct)).unwrap();
            // The build under test still holds the old table.
            return;
        }
        for u in 0..0x10000usize {
            assert_eq!(
                stored(u),
                pages[u >> 8][u & 0xFF],
                "U+{u:04X}: the table is out of date (IRISCAN_WRITE_TABLES=1 cargo test \
                 --lib the_bmp_table writes it)"
            );
        }
    }

    fn render_table(page_of: &[u8; 256], pages: &[[u8; 256]]) -> String {
        use std::fmt::Write;
        let mut s = String::from(
            "//! Made by the test `the_bmp_table_is_what_the_rules_give` in\n\
             //! `prose_chars.rs` (`IRISCAN_WRITE_TABLES=1 cargo test --lib\n\
             //! the_bmp_table`); do not edit. Each byte is an `Info`: the class in\n\
             //! the low two bits, then `TRIMMED` (4) and `WORD` (8).\n\n\
             /// The page of `PAGES` that holds code points `p << 8 ..= p << 8 | 0xFF`.\n\
             #[rustfmt::skip]\n\
             pub(super) static PAGE_OF: [u8; 256] = [\n",
        );
        for row in page_of.chunks(16) {
            let cells: Vec<String> = row.iter().map(|k| format!("{k}")).collect();
            writeln!(s, "    {},", cells.join(", ")).unwrap();
        }
        writeln!(s, "];\n").unwrap();
        writeln!(s, "/// The distinct pages of 256 code points.").unwrap();
        writeln!(s, "#[rustfmt::skip]").unwrap();
        writeln!(
            s,
            "pub(super) static PAGES: [[u8; 256]; {}] = [",
            pages.len()
        )
        .unwrap();
        for page in pages {
            writeln!(s, "    [").unwrap();
            for row in page.chunks(32) {
                let cells: Vec<String> = row.iter().map(|b| format!("{b}")).collect();
                writeln!(s, "        {},", cells.join(", ")).unwrap();
            }
            writeln!(s, "    ],").unwrap();
        }
        writeln!(s, "];").unwrap();
        s
    }

    #[test]
    fn trimming_takes_punctuation_but_not_inverted_marks() {
        for c in "…‥’”—–‐!·※¶§".chars() {
            assert!(is_trimmed_non_ascii(c), "{c}");
        }
        for c in "¡¿éa€😀".chars() {
            assert!(!is_trimmed_non_ascii(c), "{c}");
        }
    }
}
