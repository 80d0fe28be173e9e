//! Which non-ASCII characters end an IRI in running text: white space, the
//! bidi formatting characters, sentence punctuation and quotation marks of
//! the world's scripts, and everything that is no IRI character at all.
//!
//! # The rule
//!
//! RFC 3987bis §7.3 says that "a non-ASCII character should not be taken as
//! the indication of the end of an IRI": everything in `ucschar` or
//! `iprivate` may continue one. In running text, though, some of them end a
//! link far more often than they belong to one — the NO-BREAK SPACE of
//! French typography (`« http://a.example »`), the IDEOGRAPHIC FULL STOP
//! that ends a Japanese sentence, a closing quotation mark. Those are the
//! rows of [`END_OF_IRI`], each with the reason ([`EndReason`]) it is
//! there. [`ends_iri`] adds the characters outside `ucschar` and
//! `iprivate`, which no IRI may contain.
//!
//! # Who asks
//!
//! - The scanner ends a candidate at them (`find::prose_chars::classify`).
//! - The validator rejects the bidi formatting characters in an IRI
//!   ([`is_bidi_format`]; RFC 3987 §4.1), and `leiri_to_iri` encodes them.
//! - `to_iri` and the IRI form of `normalize` never decode a `%HH` sequence
//!   to one of them: an IRI that holds one would be cut there when scanned
//!   again (`http://a.example/%E2%81%A0b`, U+2060 WORD JOINER, stays
//!   encoded).
//!
//! The bidi formatting characters are the [`EndReason::Bidi`] rows of the
//! same table; [`BIDI_FORMAT`] is computed from it when the crate is
//! compiled, so the list is written once.

use crate::chars::ucschar::{is_iprivate, is_ucschar};

/// Why a row of the table ends an IRI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndReason {
    /// Unicode white space (and invisible space look-alikes, §5.1).
    WhiteSpace,
    /// Bidi formatting characters, which an IRI must not contain (§6.3).
    Bidi,
    /// Sentence punctuation of scripts that write it without a space.
    SentencePunctuation,
    /// Quotation marks other than ‘ ’ (which are apostrophes inside words).
    Quotation,
    /// Full-width forms of the ASCII delimiters that end an IRI.
    FullWidthDelimiter,
    /// Not an IRI character at all (C1 controls, non-characters, specials,
    /// tags, U+FFFD).
    NotIriCharacter,
}

/// The end-of-IRI table (docs/rules.md §1.2): non-ASCII code points that end a
/// candidate although the IRI grammar allows most of them. Sorted, disjoint.
/// Each row: first, last, reason — and a comment naming the characters.
pub(crate) const END_OF_IRI: &[(u32, u32, EndReason)] = {
    use EndReason::*;
    &[
        (0x0080, 0x009F, NotIriCharacter), // C1 controls (incl. U+0085 NEL)
        (0x00A0, 0x00A0, WhiteSpace),      // NO-BREAK SPACE (French « x » typography)
        (0x00AB, 0x00AB, Quotation),       // « LEFT-POINTING DOUBLE ANGLE QUOTATION MARK
        (0x00BB, 0x00BB, Quotation),       // » RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK
        (0x037E, 0x037E, SentencePunctuation), // ; GREEK QUESTION MARK
        (0x0387, 0x0387, SentencePunctuation), // · GREEK ANO TELEIA
        (0x0589, 0x0589, SentencePunctuation), // ։ ARMENIAN FULL STOP
        (0x05C3, 0x05C3, SentencePunctuation), // ׃ HEBREW PUNCTUATION SOF PASUQ
        (0x060C, 0x060C, SentencePunctuation), // ، ARABIC COMMA
        (0x061B, 0x061B, SentencePunctuation), // ؛ ARABIC SEMICOLON
        (0x061C, 0x061C, Bidi),            // ARABIC LETTER MARK
        (0x061E, 0x061F, SentencePunctuation), // ؞ ARABIC TRIPLE DOT, ؟ ARABIC QUESTION MARK
        (0x06D4, 0x06D4, SentencePunctuation), // ۔ ARABIC FULL STOP (Urdu)
        (0x0700, 0x0702, SentencePunctuation), // ܀ ܁ ܂ SYRIAC END OF PARAGRAPH, FULL STOPS
        (0x0964, 0x0965, SentencePunctuation), // । ॥ DEVANAGARI DANDA, DOUBLE DANDA
        (0x0E5A, 0x0E5B, SentencePunctuation), // ๚ ๛ THAI ANGKHANKHU, KHOMUT
        (0x104A, 0x104B, SentencePunctuation), // ၊ ။ MYANMAR SECTION, LITTLE SECTION
        (0x1362, 0x1368, SentencePunctuation), // ። ፣ ፤ ፥ ፦ ፧ ፨ ETHIOPIC FULL STOP … PARAGRAPH SEPARATOR
        (0x166E, 0x166E, SentencePunctuation), // ᙮ CANADIAN SYLLABICS FULL STOP
        (0x1680, 0x1680, WhiteSpace),          // OGHAM SPACE MARK
        (0x17D4, 0x17D6, SentencePunctuation), // ។ ៕ ៖ KHMER SIGN KHAN, BARIYOOSAN, CAMNUC PII KUUH
        (0x1802, 0x1803, SentencePunctuation), // ᠂ ᠃ MONGOLIAN COMMA, FULL STOP
        (0x1808, 0x1809, SentencePunctuation), // ᠈ ᠉ MONGOLIAN MANCHU COMMA, FULL STOP
        (0x180E, 0x180E, WhiteSpace),          // MONGOLIAN VOWEL SEPARATOR (formerly a space)
        (0x2000, 0x200B, WhiteSpace),          // EN QUAD … HAIR SPACE, ZERO WIDTH SPACE
        (0x200E, 0x200F, Bidi),                // LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK
        (0x201A, 0x201F, Quotation),           // ‚ ‛ “ ” „ ‟ (‘ ’ U+2018/9 stay: apostrophes)
        (0x2028, 0x2029, WhiteSpace),          // LINE SEPARATOR, PARAGRAPH SEPARATOR
        (0x202A, 0x202E, Bidi),                // LRE RLE PDF LRO RLO
        (0x202F, 0x202F, WhiteSpace),          // NARROW NO-BREAK SPACE (French « x » typography)
        (0x2039, 0x203A, Quotation),           // ‹ › SINGLE ANGLE QUOTATION MARKS
        (0x205F, 0x2060, WhiteSpace),          // MEDIUM MATHEMATICAL SPACE, WORD JOINER
        (0x2066, 0x2069, Bidi),                // LRI RLI FSI PDI
        (0x2E2E, 0x2E2E, SentencePunctuation), // ⸮ REVERSED QUESTION MARK
        (0x2E42, 0x2E42, Quotation),           // ⹂ DOUBLE LOW-REVERSED-9 QUOTATION MARK
        (0x3000, 0x3000, WhiteSpace),          // IDEOGRAPHIC SPACE
        (0x3001, 0x3002, SentencePunctuation), // 、 。 IDEOGRAPHIC COMMA, FULL STOP
        (0x300C, 0x300F, Quotation),           // 「 」 『 』 CORNER BRACKETS (Japanese quotes)
        (0x301D, 0x301F, Quotation),           // 〝 〞 〟 DOUBLE PRIME QUOTATION MARKS
        (0xA4FE, 0xA4FF, SentencePunctuation), // ꓾ ꓿ LISU PUNCTUATION COMMA, FULL STOP
        (0xA60D, 0xA60F, SentencePunctuation), // ꘍ ꘎ ꘏ VAI COMMA, FULL STOP, QUESTION MARK
        (0xA6F3, 0xA6F7, SentencePunctuation), // ꛳ … ꛷ BAMUM FULL STOP … QUESTION MARK
        (0xFDD0, 0xFDEF, NotIriCharacter),     // non-characters
        (0xFE10, 0xFE16, SentencePunctuation), // ︐ … ︖ PRESENTATION FORMS FOR VERTICAL COMMA … QUESTION MARK
        (0xFE41, 0xFE44, Quotation),           // ﹁ ﹂ ﹃ ﹄ vertical corner brackets
        (0xFE50, 0xFE57, SentencePunctuation), // ﹐ ﹑ ﹒ ﹔ ﹕ ﹖ ﹗ SMALL COMMA … SMALL EXCLAMATION MARK
        (0xFEFF, 0xFEFF, WhiteSpace),          // ZERO WIDTH NO-BREAK SPACE (BOM)
        (0xFF01, 0xFF01, SentencePunctuation), // ！ FULLWIDTH EXCLAMATION MARK
        (0xFF02, 0xFF02, FullWidthDelimiter),  // ＂ FULLWIDTH QUOTATION MARK
        (0xFF07, 0xFF07, Quotation),           // ＇ FULLWIDTH APOSTROPHE
        (0xFF0C, 0xFF0C, SentencePunctuation), // ， FULLWIDTH COMMA
        (0xFF0E, 0xFF0E, SentencePunctuation), // ． FULLWIDTH FULL STOP
        (0xFF1A, 0xFF1B, SentencePunctuation), // ： ； FULLWIDTH COLON, SEMICOLON
        (0xFF1C, 0xFF1C, FullWidthDelimiter),  // ＜ FULLWIDTH LESS-THAN SIGN
        (0xFF1E, 0xFF1E, FullWidthDelimiter),  // ＞ FULLWIDTH GREATER-THAN SIGN
        (0xFF1F, 0xFF1F, SentencePunctuation), // ？ FULLWIDTH QUESTION MARK
        (0xFF3C, 0xFF3C, FullWidthDelimiter),  // ＼ FULLWIDTH REVERSE SOLIDUS
        (0xFF40, 0xFF40, FullWidthDelimiter),  // ｀ FULLWIDTH GRAVE ACCENT
        (0xFF5C, 0xFF5C, FullWidthDelimiter),  // ｜ FULLWIDTH VERTICAL LINE
        (0xFF61, 0xFF61, SentencePunctuation), // ｡ HALFWIDTH IDEOGRAPHIC FULL STOP
        (0xFF62, 0xFF63, Quotation),           // ｢ ｣ HALFWIDTH CORNER BRACKETS
        (0xFF64, 0xFF64, SentencePunctuation), // ､ HALFWIDTH IDEOGRAPHIC COMMA
        (0xFFF0, 0xFFFF, NotIriCharacter),     // specials incl. U+FFFD REPLACEMENT CHARACTER
    ]
};

/// The row of [`END_OF_IRI`] that holds `c`, by its reason; `None` if no
/// row does.
pub(crate) fn end_row(c: char) -> Option<EndReason> {
    let c = c as u32;
    let i = END_OF_IRI.partition_point(|&(_, last, _)| last < c);
    match END_OF_IRI.get(i) {
        Some(&(first, _, reason)) if first <= c => Some(reason),
        _ => None,
    }
}

/// Whether the non-ASCII character `c` ends an IRI in running text: a row
/// of [`END_OF_IRI`], or neither `ucschar` nor `iprivate`.
pub(crate) fn ends_iri(c: char) -> bool {
    end_row(c).is_some() || !(is_ucschar(c) || is_iprivate(c))
}

/// Whether `c` is white space or one of its invisible look-alikes (the
/// [`EndReason::WhiteSpace`] rows of [`END_OF_IRI`]): `ucschar`, but not
/// appropriate in an IRI (RFC 3987bis §5.1), which shows it as nothing or
/// as a gap.
pub(crate) fn is_white_space(c: char) -> bool {
    end_row(c) == Some(EndReason::WhiteSpace)
}

/// How many rows of [`END_OF_IRI`] have `reason`.
const fn rows_with(reason: EndReason) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < END_OF_IRI.len() {
        if END_OF_IRI[i].2 as u8 == reason as u8 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The ranges of the rows of [`END_OF_IRI`] that have `reason`, in order.
const fn ranges_with<const N: usize>(reason: EndReason) -> [(u32, u32); N] {
    let mut out = [(0, 0); N];
    let mut n = 0;
    let mut i = 0;
    while i < END_OF_IRI.len() {
        let (first, last, r) = END_OF_IRI[i];
        if r as u8 == reason as u8 {
            out[n] = (first, last);
            n += 1;
        }
        i += 1;
    }
    out
}

/// The bidirectional formatting characters: LRM, RLM and the embeddings
/// and overrides LRE, RLE, PDF, LRO, RLO that RFC 3987 §4.1 lists, ALM
/// (U+061C) and the isolates LRI, RLI, FSI, PDI (U+2066–2069) that Unicode
/// added since for the same purpose. The [`EndReason::Bidi`] rows of
/// [`END_OF_IRI`], taken from it at compile time.
pub(crate) const BIDI_FORMAT: [(u32, u32); rows_with(EndReason::Bidi)] =
    ranges_with(EndReason::Bidi);

/// Whether `c` is a bidi formatting character ([`BIDI_FORMAT`]), which an
/// IRI must not contain (RFC 3987 §4.1, RFC 3987bis §6.3) and a Legacy
/// Extended IRI may.
#[inline]
pub(crate) fn is_bidi_format(c: char) -> bool {
    let u = c as u32;
    BIDI_FORMAT
        .iter()
        .any(|&(first, last)| first <= u && u <= last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_table_is_sorted_and_disjoint() {
        for w in END_OF_IRI.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{:X?}", w);
        }
        assert!(END_OF_IRI[0].0 >= 0x80, "non-ASCII only");
    }

    #[test]
    fn bidi_formatting_characters_are_the_rfc_list_and_unicode_additions() {
        let listed: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_bidi_format(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(
            listed,
            [
                0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067,
                0x2068, 0x2069
            ]
        );
        for c in listed {
            let c = char::from_u32(c).unwrap();
            assert_eq!(end_row(c), Some(EndReason::Bidi));
            assert!(ends_iri(c));
        }
    }

    #[test]
    fn rows_and_code_points_outside_the_iri_characters_end_an_iri() {
        for c in [
            '\u{85}', '\u{A0}', '\u{180E}', '\u{2060}', '\u{3002}', '«', '\u{FFFD}',
        ] {
            assert!(end_row(c).is_some() && ends_iri(c), "U+{:04X}", c as u32);
        }
        // Not in the table, but no IRI character either.
        for c in ['\u{1FFFF}', '\u{DFFFE}', '\u{EFFFF}', '\u{10FFFF}'] {
            assert_eq!(end_row(c), None);
            assert!(ends_iri(c), "U+{:04X}", c as u32);
        }
        // Letters, private use and ZERO WIDTH NON-JOINER continue.
        for c in ['é', '日', '\u{E000}', '\u{200C}', '\u{10FFFD}', '‘', '’'] {
            assert!(!ends_iri(c), "U+{:04X}", c as u32);
        }
    }
}
