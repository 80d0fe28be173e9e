//! The ASCII character table: every class of ASCII characters the crate
//! knows, in one place.
//!
//! # What is in it
//!
//! Each byte value has a set of class bits in [`ASCII`]. Some classes come
//! from the grammars — RFC 3986 §2 (`unreserved`, `gen-delims`,
//! `sub-delims`, `%`), §3.1 (`scheme`) and RFC 3987bis §6.1 (the ASCII
//! characters a Legacy Extended IRI adds) — and some from the rules of the
//! scanner: which characters an e-mail local part, a domain or a DNS host
//! holds, which are trimmed from the end of a candidate, which are white
//! space. A class that is the union of others ([`UNRESERVED`], [`URI`],
//! [`IRI`], [`SCHEME`]) is written as that union, not as a list of
//! characters; every other class has a bit of its own.
//!
//! The table covers all 256 byte values, so that a lookup needs no bounds
//! check; bytes from 0x80 up are in no class (non-ASCII characters have
//! their own predicates: [`crate::chars::ucschar`],
//! [`crate::chars::end_of_iri`]).
//!
//! # Why one table
//!
//! The validator, the scanner, the IRI → URI mapping, the host checks and
//! the percent-decoders all ask "is this byte one of …?". When each kept its
//! own table, the copies drifted apart. Now they all read this one, or a
//! table computed from it at compile time (the scanner's byte tables), and
//! the tests in `chars::agreement_tests` hold every remaining predicate
//! (the test oracles, the IDNA deny list) to it.
//!
//! # Reading a class
//!
//! A class is a mask; a byte is in it when it has any of the mask's bits:
//!
//! ```text
//! ascii_is(b'~', UNRESERVED)  // true:  `~` has UNRESERVED_PUNCT
//! ascii_is(b'[', IRI)         // false: `[` has SQUARE_BRACKET, TEXT_EXTRA, TRIM
//! ascii_is(0xC3, URI)         // false: no byte from 0x80 up is in a class
//! ```
//!
//! The tests at the end read each class back as the string of its members
//! and compare it with the text of the RFC or rule that defines it.

// Classes of the grammars (RFC 3986, RFC 3987bis). One bit each.

/// `ALPHA`: `A`–`Z`, `a`–`z` (RFC 5234 core rule).
pub(crate) const ALPHA: u32 = 1 << 0;
/// `DIGIT`: `0`–`9`; the whole of `port` (RFC 3986 §3.2.3).
pub(crate) const DIGIT: u32 = 1 << 1;
/// `- . _ ~`: the punctuation of `unreserved` (RFC 3986 §2.3).
pub(crate) const UNRESERVED_PUNCT: u32 = 1 << 2;
/// `sub-delims`: `! $ & ' ( ) * + , ; =` (RFC 3986 §2.2).
pub(crate) const SUB_DELIM: u32 = 1 << 3;
/// `:`, a `gen-delims`; in `userinfo` and `pchar`, not in `segment-nz-nc`.
pub(crate) const COLON: u32 = 1 << 4;
/// `/`, a `gen-delims`: the path separator, also in `query` and `fragment`.
pub(crate) const SLASH: u32 = 1 << 5;
/// `?`, a `gen-delims`: starts the query, also in `query` and `fragment`.
pub(crate) const QMARK: u32 = 1 << 6;
/// `#`, a `gen-delims`: starts the fragment.
pub(crate) const HASH: u32 = 1 << 7;
/// `[ ]`, `gen-delims` that only delimit an IP-literal host (§3.2.2).
pub(crate) const SQUARE_BRACKET: u32 = 1 << 8;
/// `@`, a `gen-delims`: ends the userinfo; in `pchar`.
pub(crate) const AT: u32 = 1 << 9;
/// `%`, which starts a `pct-encoded` triplet.
pub(crate) const PERCENT: u32 = 1 << 10;
/// `+ - .`, which a scheme allows after its first letter (§3.1).
pub(crate) const SCHEME_PUNCT: u32 = 1 << 11;
/// `{ } ^ [ ]`: the Legacy Extended IRI characters that real links in
/// running text carry (`?sourcedoc={guid}`, `q=repo:^src`, `?a[]=1`). The
/// scanner takes them inside a candidate (brackets only balanced), and
/// [`crate::Syntax::Text`] accepts them outside the host.
pub(crate) const TEXT_EXTRA: u32 = 1 << 12;
/// The ASCII part of the LEIRI `ucschar` (RFC 3987bis §6.1): the C0
/// controls, space, `" < > \ ^ `` ` `` { | }` and DEL — exactly the ASCII
/// characters not allowed anywhere in a URI.
pub(crate) const LEIRI_EXTRA: u32 = 1 << 13;

// Classes of the scanner's rules. One bit each, letters and digits included.

/// Letters, digits and `-`: the characters of a DNS label (RFC 1123 §2.1).
pub(crate) const LDH: u32 = 1 << 14;
/// Letters, digits, `-` and `.`: the ASCII characters of an e-mail domain.
pub(crate) const DOMAIN: u32 = 1 << 15;
/// Letters, digits, `- . _ %`: what the host of a DNS scheme may hold in
/// running text (`_` in real host names, `%` in a percent-encoded IDN,
/// RFC 3987bis §3.4.1). Every other ASCII character ends the authority.
pub(crate) const DNS_HOST: u32 = 1 << 16;
/// Letters, digits and `. _ % + -`: the ASCII characters of an e-mail
/// local part as the scanner finds it.
pub(crate) const EMAIL_LOCAL: u32 = 1 << 17;
/// Trimmed from the end of a candidate whatever precedes it: the sentence
/// punctuation `. , ; : ! ? *` and the opening brackets `( [ {`, which
/// cannot end an IRI.
pub(crate) const TRIM: u32 = 1 << 18;
/// ASCII white space: space, tab, line feed, vertical tab, form feed,
/// carriage return — the only characters `<…>` wrapping may skip (RFC
/// 3986 Appendix C).
pub(crate) const SPACE: u32 = 1 << 19;

// Unions.

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3).
pub(crate) const UNRESERVED: u32 = ALPHA | DIGIT | UNRESERVED_PUNCT;
/// `gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"` (RFC 3986 §2.2).
pub(crate) const GEN_DELIM: u32 = COLON | SLASH | QMARK | HASH | SQUARE_BRACKET | AT;
/// `reserved = gen-delims / sub-delims` (RFC 3986 §2.2).
pub(crate) const RESERVED: u32 = GEN_DELIM | SUB_DELIM;
/// `unreserved / reserved / "%"`: the ASCII characters allowed somewhere in
/// a URI, and in an IRI (RFC 3986 §2, RFC 3987bis §2.2).
pub(crate) const URI: u32 = UNRESERVED | RESERVED | PERCENT;
/// The ASCII characters that simply continue an IRI in running text:
/// [`URI`] without `[ ]`, which the scanner takes as [`TEXT_EXTRA`] and
/// balances.
pub(crate) const IRI: u32 = URI & !SQUARE_BRACKET;
/// `ALPHA / DIGIT / "+" / "-" / "."`: the characters of a scheme (§3.1).
pub(crate) const SCHEME: u32 = ALPHA | DIGIT | SCHEME_PUNCT;

/// The classes every letter and digit is in.
const ALNUM_CLASSES: u32 = LDH | DOMAIN | DNS_HOST | EMAIL_LOCAL;

/// The classes of one byte value.
const fn classes_of(b: u8) -> u32 {
    if b.is_ascii_alphabetic() {
        return ALPHA | ALNUM_CLASSES;
    }
    if b.is_ascii_digit() {
        return DIGIT | ALNUM_CLASSES;
    }
    match b {
        b'-' => UNRESERVED_PUNCT | SCHEME_PUNCT | LDH | DOMAIN | DNS_HOST | EMAIL_LOCAL,
        b'.' => UNRESERVED_PUNCT | SCHEME_PUNCT | DOMAIN | DNS_HOST | EMAIL_LOCAL | TRIM,
        b'_' => UNRESERVED_PUNCT | DNS_HOST | EMAIL_LOCAL,
        b'~' => UNRESERVED_PUNCT,
        b'+' => SUB_DELIM | SCHEME_PUNCT | EMAIL_LOCAL,
        b'!' | b'*' | b',' | b';' | b'(' => SUB_DELIM | TRIM,
        b'$' | b'&' | b'\'' | b')' | b'=' => SUB_DELIM,
        b':' => COLON | TRIM,
        b'/' => SLASH,
        b'?' => QMARK | TRIM,
        b'#' => HASH,
        b'@' => AT,
        b'%' => PERCENT | DNS_HOST | EMAIL_LOCAL,
        b'[' => SQUARE_BRACKET | TEXT_EXTRA | TRIM,
        b']' => SQUARE_BRACKET | TEXT_EXTRA,
        b'{' => TEXT_EXTRA | LEIRI_EXTRA | TRIM,
        b'}' | b'^' => TEXT_EXTRA | LEIRI_EXTRA,
        b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => LEIRI_EXTRA | SPACE,
        0x00..=0x1F | 0x7F | b'"' | b'<' | b'>' | b'\\' | b'`' | b'|' => LEIRI_EXTRA,
        _ => 0,
    }
}

/// The table: the class bits of every byte value (none from 0x80 up).
pub(crate) static ASCII: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = classes_of(i as u8);
        i += 1;
    }
    t
};

/// Whether the byte `b` is in `class` (has any of its bits). Always false
/// from 0x80 up.
#[inline(always)]
pub(crate) fn ascii_is(b: u8, class: u32) -> bool {
    ASCII[usize::from(b)] & class != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members of `class`, in byte order, as a string.
    fn members(class: u32) -> String {
        (0u8..=255)
            .filter(|&b| ascii_is(b, class))
            .map(char::from)
            .collect()
    }

    /// `s` sorted, as `members` lists a class.
    fn sorted(s: &str) -> String {
        let mut v: Vec<char> = s.chars().collect();
        v.sort();
        v.into_iter().collect()
    }

    const ALPHA_S: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const DIGIT_S: &str = "0123456789";

    fn alnum_and(punct: &str) -> String {
        sorted(&format!("{ALPHA_S}{DIGIT_S}{punct}"))
    }

    #[test]
    fn grammar_classes_are_the_rfc_sets() {
        assert_eq!(members(ALPHA), ALPHA_S);
        assert_eq!(members(DIGIT), DIGIT_S);
        assert_eq!(members(UNRESERVED), alnum_and("-._~"));
        assert_eq!(members(SUB_DELIM), sorted("!$&'()*+,;="));
        assert_eq!(members(GEN_DELIM), sorted(":/?#[]@"));
        assert_eq!(members(RESERVED), sorted(":/?#[]@!$&'()*+,;="));
        assert_eq!(members(URI), alnum_and("-._~:/?#[]@!$&'()*+,;=%"));
        assert_eq!(members(SCHEME), alnum_and("+-."));
        for (class, c) in [
            (COLON, ":"),
            (SLASH, "/"),
            (QMARK, "?"),
            (HASH, "#"),
            (SQUARE_BRACKET, "[]"),
            (AT, "@"),
            (PERCENT, "%"),
        ] {
            assert_eq!(members(class), c);
        }
    }

    /// RFC 3987bis §6.1 adds to `ucschar` `%x20 / "<" / ">" / DQUOTE / "{"
    /// / "}" / "|" / "\" / "^" / "`"`, `%x0-1F` and `%x7F-D7FF`: their
    /// ASCII part is exactly what no URI may contain.
    #[test]
    fn leiri_extra_is_the_ascii_a_uri_may_not_contain() {
        let mut expected: String = (0u8..0x20).map(char::from).collect();
        expected.push_str(" <>\"{}|\\^`\u{7F}");
        assert_eq!(members(LEIRI_EXTRA), sorted(&expected));
        for b in 0u8..0x80 {
            assert_ne!(ascii_is(b, URI), ascii_is(b, LEIRI_EXTRA), "{b:#04X}");
        }
    }

    #[test]
    fn scanner_classes_are_its_rules() {
        assert_eq!(members(IRI), alnum_and("-._~:/?#@!$&'()*+,;=%"));
        assert_eq!(members(TEXT_EXTRA), sorted("{}^[]"));
        assert_eq!(members(LDH), alnum_and("-"));
        assert_eq!(members(DOMAIN), alnum_and("-."));
        assert_eq!(members(DNS_HOST), alnum_and("-._%"));
        assert_eq!(members(EMAIL_LOCAL), alnum_and("._%+-"));
        assert_eq!(members(TRIM), sorted(".,;:!?*([{"));
        assert_eq!(members(SPACE), sorted(" \t\n\x0B\x0C\r"));
    }

    #[test]
    fn ascii_table_matches_rfc3986() {
        let iri: String = (0u8..128)
            .filter(|&b| ascii_is(b, IRI))
            .map(|b| b as char)
            .collect();
        assert_eq!(
            iri,
            "!#$%&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
        assert!(ascii_is(b'^', TEXT_EXTRA) && !ascii_is(b'|', TEXT_EXTRA));
    }

    #[test]
    fn no_byte_from_0x80_is_in_a_class() {
        assert!((0x80..=0xFFu8).all(|b| ASCII[usize::from(b)] == 0));
    }
}
