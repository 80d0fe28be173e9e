//! Character classes of the scanner: which characters belong to an IRI found
//! in running text, which end it, which pair up as brackets, and which are
//! trimmed from its end (PRODUCT.md §1.2 and §1.3, RFC 3987bis §2.2, §6.1,
//! §7.3).
//!
//! The rule of §7.3 is that "a non-ASCII character should not be taken as
//! the indication of the end of an IRI". Everything in `ucschar` or
//! `iprivate` therefore continues a candidate, *except* the rows of
//! [`END_OF_IRI`]: white space, bidi controls, sentence punctuation and
//! quotation marks of the world's scripts, which in running text end a link
//! far more often than they belong to one.
//!
//! ASCII is classified by [`ASCII`], one flag byte per code point; non-ASCII
//! by [`classify`], which is backed by a lazily built table for the BMP.

use std::sync::OnceLock;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

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

/// The end-of-IRI table (PRODUCT.md §1.2): non-ASCII code points that end a
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
        (0x061B, 0x061C, SentencePunctuation), // ؛ ARABIC SEMICOLON; U+061C ARABIC LETTER MARK (bidi)
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

/// How the scanner treats one character inside a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Class {
    /// Continues the IRI.
    Iri = 0,
    /// Ends the IRI (ASCII delimiters and the rows of [`END_OF_IRI`]).
    End = 1,
    /// An opening bracket with a closing partner (Unicode BidiBrackets):
    /// continues the IRI and waits for its closer.
    Open,
    /// A closing bracket: part of the IRI only if it closes the innermost
    /// opener inside it, otherwise it ends the IRI.
    Close = 3,
}

/// ASCII flags, one byte per code point.
pub(crate) mod flag {
    /// Unreserved, reserved (but `[` `]`) and `%`: an IRI character (RFC 3986 §2).
    pub const IRI: u8 = 1;
    /// `{` `}` `^` `[` `]`: Legacy Extended IRI characters accepted inside a
    /// candidate (PRODUCT.md §1.2 last paragraph; brackets only balanced).
    pub const LEIRI: u8 = 2;
    /// `ALPHA / DIGIT / "+" / "-" / "."` (RFC 3986 §3.1 scheme).
    pub const SCHEME: u8 = 4;
    /// E-mail local part: letters, digits and `. _ % + -` (PRODUCT.md §1.1).
    pub const LOCAL: u8 = 8;
    /// Domain name characters: letters, digits, `-` and `.`.
    pub const DOMAIN: u8 = 16;
    /// Trimmed from the end of a candidate: `. , ; : ! ? *` (PRODUCT.md §1.3).
    pub const TRIM: u8 = 32;
    /// ASCII white space: space, tab, line feed, form feed, carriage return
    /// (and vertical tab), the only characters `<…>` wrapping may skip.
    pub const SPACE: u8 = 64;
}

/// The ASCII table: [`flag`] bits per byte value below 0x80.
pub(crate) static ASCII: [u8; 128] = {
    use flag::*;
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        let alpha = b.is_ascii_alphabetic();
        let digit = b.is_ascii_digit();
        let mut f = 0;
        if alpha || digit {
            f |= IRI | SCHEME | LOCAL | DOMAIN;
        }
        f |= match b {
            b'-' => IRI | SCHEME | LOCAL | DOMAIN,
            b'.' => IRI | SCHEME | LOCAL | DOMAIN | TRIM,
            b'+' => IRI | SCHEME | LOCAL,
            b'_' | b'%' => IRI | LOCAL,
            b'~' | b'/' | b'#' | b'@' | b'$' | b'&' | b'\'' | b'(' | b')' | b'=' => IRI,
            b',' | b';' | b':' | b'!' | b'?' | b'*' => IRI | TRIM,
            b'{' | b'}' | b'^' | b'[' | b']' => LEIRI,
            b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' => SPACE,
            _ => 0,
        };
        t[i] = f;
        i += 1;
    }
    t
};

/// Whether the ASCII byte `b` has flag `f`.
#[inline]
pub(crate) fn ascii_is(b: u8, f: u8) -> bool {
    b < 0x80 && ASCII[b as usize] & f != 0
}

/// Whether a non-ASCII `c` is one of the rows of [`END_OF_IRI`].
pub(crate) fn end_row(c: char) -> Option<EndReason> {
    let c = c as u32;
    let i = END_OF_IRI.partition_point(|&(_, last, _)| last < c);
    match END_OF_IRI.get(i) {
        Some(&(first, _, reason)) if first <= c => Some(reason),
        _ => None,
    }
}

/// Classifies a non-ASCII character (computed; [`classify`] caches the BMP).
fn classify_uncached(c: char) -> Class {
    if end_row(c).is_some() || !(is_ucschar(c) || is_iprivate(c)) {
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

/// Cached properties of one BMP code point: its [`Class`] in the low two
/// bits, then whether it is trimmed and whether it is a word character.
#[derive(Clone, Copy)]
struct Info(u8);

const TRIMMED: u8 = 4;
const WORD: u8 = 8;

impl Info {
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

    fn class(self) -> Class {
        match self.0 & 3 {
            0 => Class::Iri,
            1 => Class::End,
            2 => Class::Open,
            _ => Class::Close,
        }
    }
}

/// The properties of the BMP, by pages of 256 code points each computed on
/// first use (most texts touch a handful of pages; computing all 65,536
/// code points up front cost milliseconds at every start): the forward scan
/// asks for them at every non-ASCII character.
static BMP: [OnceLock<Box<[Info; 256]>>; 256] = [const { OnceLock::new() }; 256];

#[inline]
fn info(c: char) -> Option<Info> {
    let u = c as u32;
    if !(0x80..0x10000).contains(&u) {
        return None;
    }
    let page = BMP[(u >> 8) as usize].get_or_init(|| {
        let base = u & !0xFF;
        Box::new(std::array::from_fn(|i| {
            char::from_u32(base + i as u32).map_or(Info(Class::End as u8), Info::of)
        }))
    });
    Some(page[(u & 0xFF) as usize])
}

/// Classifies a character for the forward scan (meant for non-ASCII; ASCII
/// brackets and quotes need the context the scanner keeps).
#[inline]
pub(crate) fn classify(c: char) -> Class {
    let u = c as u32;
    if u < 0x80 {
        return if ascii_is(u as u8, flag::IRI | flag::LEIRI) {
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
/// (PRODUCT.md §1.3): punctuation of category Po, Pi, Pf, Pd — `…` `‥` `’`
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
/// (PRODUCT.md §1.1, `http://www.scriptics.com参照`).
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

/// Decodes the UTF-8 character starting at `hay[i]` (a non-ASCII lead byte).
/// `None` for an invalid or truncated sequence, which ends a candidate.
#[inline]
pub(crate) fn decode_at(hay: &[u8], i: usize) -> Option<(char, usize)> {
    // RFC 3629 §4 byte ranges: no overlongs (E0 A0.., F0 90..), no
    // surrogates (ED ..9F), nothing above U+10FFFF (F4 ..8F).
    let b0 = hay[i] as u32;
    let cont = |k: usize| {
        hay.get(i + k)
            .map(|&b| b as u32)
            .filter(|b| b & 0xC0 == 0x80)
    };
    let (u, len) = match b0 {
        0xC2..=0xDF => (((b0 & 0x1F) << 6) | (cont(1)? & 0x3F), 2),
        0xE0..=0xEF => {
            let b1 = cont(1)?;
            if (b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) {
                return None;
            }
            (
                ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (cont(2)? & 0x3F),
                3,
            )
        }
        0xF0..=0xF4 => {
            let b1 = cont(1)?;
            if (b0 == 0xF0 && b1 < 0x90) || (b0 == 0xF4 && b1 > 0x8F) {
                return None;
            }
            let u = ((b0 & 0x07) << 18)
                | ((b1 & 0x3F) << 12)
                | ((cont(2)? & 0x3F) << 6)
                | (cont(3)? & 0x3F);
            (u, 4)
        }
        _ => return None,
    };
    char::from_u32(u).map(|c| (c, len))
}

/// A two-byte character (U+0080..U+07FF: Latin, Greek, Cyrillic, Hebrew,
/// Arabic…) starting at `hay[i]`, decoded in place; `None` for anything
/// else, which [`decode_at`] decodes. The forward scan meets these at every
/// other byte of some scripts, and `decode_at` is a call.
#[inline(always)]
pub(crate) fn decode_two_byte(hay: &[u8], i: usize) -> Option<char> {
    match *hay.get(i..i + 2)? {
        [b0 @ 0xC2..=0xDF, b1] if b1 & 0xC0 == 0x80 => {
            char::from_u32((u32::from(b0 & 0x1F) << 6) | u32::from(b1 & 0x3F))
        }
        _ => None,
    }
}

/// Decodes the UTF-8 character that ends just before `hay[i]` (i > 0).
/// `None` if the bytes before `i` are not the end of a valid sequence.
#[inline]
pub(crate) fn decode_before(hay: &[u8], i: usize) -> Option<(char, usize)> {
    let b = hay[i - 1];
    if b < 0x80 {
        return Some((b as char, 1));
    }
    for len in 2..=4.min(i) {
        let lead = hay[i - len];
        if lead & 0xC0 != 0x80 {
            // One character exactly `len` bytes long, or none.
            return decode_at(hay, i - len).filter(|&(_, n)| n == len);
        }
    }
    None
}

/// Slices shorter than this are searched byte by byte: the parts of one
/// IRI (an authority, a host) are mostly short, and for them a vector
/// search (memchr) costs more to set up than it saves.
const SHORT: usize = 32;

/// The first `b` in `s` (memchr, or a byte loop for a short `s`).
#[inline]
pub(crate) fn find_byte(b: u8, s: &[u8]) -> Option<usize> {
    if s.len() < SHORT {
        s.iter().position(|&x| x == b)
    } else {
        memchr::memchr(b, s)
    }
}

/// The last `b` in `s` (memrchr, or a byte loop for a short `s`).
#[inline]
pub(crate) fn rfind_byte(b: u8, s: &[u8]) -> Option<usize> {
    if s.len() < SHORT {
        s.iter().rposition(|&x| x == b)
    } else {
        memchr::memrchr(b, s)
    }
}

#[cfg(test)]
mod tests {

    /// The byte loops for short slices and memchr for long ones agree with
    /// a plain search, wherever the byte is (or is not) on either side of
    /// the length where they switch.
    #[test]
    fn byte_searches_agree_on_short_and_long_slices() {
        for len in 0usize..80 {
            for at in [
                None,
                Some(0),
                Some(1),
                Some(len / 2),
                Some(len.saturating_sub(1)),
            ] {
                let mut s = vec![b'a'; len];
                if let Some(at) = at.filter(|&a| a < len) {
                    s[at] = b':';
                    if at + 3 < len {
                        s[at + 3] = b':';
                    }
                }
                let first = s.iter().position(|&x| x == b':');
                let last = s.iter().rposition(|&x| x == b':');
                assert_eq!(find_byte(b':', &s), first, "{len} {at:?}");
                assert_eq!(rfind_byte(b':', &s), last, "{len} {at:?}");
            }
        }
    }
    use super::*;

    #[test]
    fn end_table_is_sorted_and_disjoint() {
        for w in END_OF_IRI.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{:X?}", w);
        }
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

    #[test]
    fn trimming_takes_punctuation_but_not_inverted_marks() {
        for c in "…‥’”—–‐!·※¶§".chars() {
            assert!(is_trimmed_non_ascii(c), "{c}");
        }
        for c in "¡¿éa€😀".chars() {
            assert!(!is_trimmed_non_ascii(c), "{c}");
        }
    }

    #[test]
    fn ascii_table_matches_rfc3986() {
        let iri: String = (0u8..128)
            .filter(|&b| ascii_is(b, flag::IRI))
            .map(|b| b as char)
            .collect();
        assert_eq!(
            iri,
            "!#$%&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
        assert!(ascii_is(b'^', flag::LEIRI) && !ascii_is(b'|', flag::LEIRI));
    }

    #[test]
    fn utf8_decoding_both_ways() {
        let s = "aé日😀".as_bytes();
        assert_eq!(decode_at(s, 1), Some(('é', 2)));
        assert_eq!(decode_at(s, 3), Some(('日', 3)));
        assert_eq!(decode_at(s, 6), Some(('😀', 4)));
        assert_eq!(decode_before(s, 10), Some(('😀', 4)));
        assert_eq!(decode_before(s, 6), Some(('日', 3)));
        assert_eq!(decode_before(s, 1), Some(('a', 1)));
        assert_eq!(decode_at(b"\xE6\x97", 0), None);
        assert_eq!(decode_at(b"\xC0\xAF", 0), None);
        assert_eq!(decode_before(b"a\x97", 2), None);
        // Inside a character: the bytes before are no whole character.
        assert_eq!(decode_before(s, 5), None);
        assert_eq!(decode_before(s, 8), None);
        assert_eq!(decode_before(b"\xE6\x97", 2), None);
    }

    #[test]
    fn decode_at_agrees_with_std_on_every_two_byte_sequence_and_edges() {
        let std_first = |b: &[u8]| {
            let valid = match std::str::from_utf8(b) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap(),
            };
            valid
                .chars()
                .next()
                .filter(|c| !c.is_ascii())
                .map(|c| (c, c.len_utf8()))
        };
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                let seq = [b0, b1];
                assert_eq!(decode_at(&seq, 0), std_first(&seq), "{seq:X?}");
                for b2 in [0x80u8, 0x8F, 0x90, 0xBF, 0xC0, 0x41] {
                    for b3 in [0x80u8, 0xBF, 0x41] {
                        let seq = [b0, b1, b2, b3];
                        assert_eq!(decode_at(&seq, 0), std_first(&seq), "{seq:X?}");
                    }
                }
            }
        }
    }
}
