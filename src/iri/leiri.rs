//! Converting a Legacy Extended IRI to an IRI (RFC 3987bis §6.2).
//!
//! XML system identifiers, XLink `href`s and other formats accept "Legacy
//! Extended IRIs" (§6.1): IRIs that may also contain space, `<` `>` `"`
//! `{` `}` `|` `\` `^` `` ` ``, the controls, bidi formatting characters,
//! specials, private use outside the query, tags and non-characters. §6.2
//! turns one into an IRI by percent-encoding (UTF-8, `%HH` upper-case, the
//! steps of §3.3) exactly those characters (§6.3) and keeping everything
//! else byte for byte — existing triplets, and also a lone `%`, which is not
//! among the §6.3 characters and which [`crate::to_uri`] takes care of.
//!
//! Two choices, both shared with [`crate::to_uri`]:
//!
//! - The ASCII characters involved are exactly those that are not allowed
//!   anywhere in a URI; the same class of the ASCII table serves both
//!   conversions.
//! - `[` and `]` outside an IP-literal host are encoded too. They are not
//!   in the §6.1 list, but they are not allowed there in an IRI either, and
//!   the scanner accepts them in paths and queries (`…?a[]=1`) as it
//!   accepts the LEIRI characters (docs/rules.md §1.2). The output is then
//!   made of IRI characters only, and `to_uri(leiri_to_iri(x)) ==
//!   to_uri(x)` (for UTF-8 queries).
//!
//! The bidi formatting characters are U+200E, U+200F and U+202A–U+202E as
//! §6.3 lists them, plus U+061C and U+2066–U+2069, which Unicode added
//! later for the same purpose; the IRI bidi rules forbid them all. The
//! validator rejects the same list: both ask the end-of-IRI table, where
//! they are the rows of reason `Bidi`.
//!
//! ```
//! use iriscan::leiri_to_iri;
//!
//! assert_eq!(leiri_to_iri("http://example.org/a b/{x}|ü"), "http://example.org/a%20b/%7Bx%7D%7Cü");
//! assert_eq!(leiri_to_iri("http://example.org/?\u{E000}#\u{E000}"), "http://example.org/?\u{E000}#%EE%80%80");
//! ```

use std::borrow::Cow;

use crate::chars::ascii::{URI, ascii_is};
use crate::chars::end_of_iri::is_bidi_format;
use crate::chars::ucschar::{is_iprivate, is_ucschar};
use crate::iri::components::Components;
use crate::iri::percent::{push_pct, push_pct_bytes};
use crate::iri::to_uri::is_ip_literal;

/// A non-ASCII character an IRI may contain (§2.2 with the bidi rule):
/// `ucschar` except the bidi formatting characters, and `iprivate` in the
/// query.
pub(crate) fn is_iri_char(c: char, in_query: bool) -> bool {
    (is_ucschar(c) && !is_bidi_format(c)) || (in_query && is_iprivate(c))
}

/// Converts a Legacy Extended IRI (reference) — or any string — to an IRI
/// (reference) (RFC 3987bis §6.2).
///
/// Percent-encodes (UTF-8, upper-case hex) every character allowed in a
/// LEIRI but not in an IRI (§6.3), and `[`/`]` outside an IP-literal host;
/// keeps everything else byte for byte. Returns the input borrowed when
/// there is nothing to encode.
///
/// ```
/// use iriscan::leiri_to_iri;
///
/// assert_eq!(leiri_to_iri("file:///C:/My Documents/a\u{202E}b"), "file:///C:/My%20Documents/a%E2%80%AEb");
/// assert_eq!(leiri_to_iri("http://[::1]/a[1]"), "http://[::1]/a%5B1%5D");
/// ```
pub fn leiri_to_iri(leiri: &str) -> Cow<'_, str> {
    let c = Components::split(leiri);
    let host = c.host.clone().unwrap_or(0..0);
    // The two bracket positions that delimit an IP-literal host, if any.
    let (open, close) = if is_ip_literal(&leiri[host.clone()]) {
        (Some(host.start), Some(host.end - 1))
    } else {
        (None, None)
    };
    let query = c.query.clone().unwrap_or(0..0);
    // A `#` inside the fragment (after the one that starts it) is encoded
    // too: `%23` (docs/rules.md §1.2, §2).
    let fragment = c.fragment.clone().unwrap_or(0..0);
    let b = leiri.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0; // everything before this is in `out` (when Some)
    for (i, ch) in leiri.char_indices() {
        let keep = if ch.is_ascii() {
            let x = ch as u8;
            ascii_is(x, URI)
                && (!matches!(x, b'[' | b']') || Some(i) == open || Some(i) == close)
                && !(x == b'#' && fragment.contains(&i))
        } else {
            is_iri_char(ch, query.contains(&i))
        };
        if keep {
            continue;
        }
        let o = out.get_or_insert_with(|| String::with_capacity(leiri.len() + 16));
        o.push_str(&leiri[copied..i]);
        if ch.is_ascii() {
            push_pct(o, ch as u8);
        } else {
            push_pct_bytes(o, &b[i..i + ch.len_utf8()]);
        }
        copied = i + ch.len_utf8();
    }
    match out {
        None => Cow::Borrowed(leiri),
        Some(mut o) => {
            o.push_str(&leiri[copied..]);
            Cow::Owned(o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_hash_in_the_fragment_is_encoded() {
        assert_eq!(
            leiri_to_iri("https://matrix.to/#/#room:example.org"),
            "https://matrix.to/#/%23room:example.org"
        );
        assert_eq!(leiri_to_iri("s:a#b"), "s:a#b");
    }

    #[test]
    fn section_6_3_groups_are_encoded() {
        for (c, enc) in [
            (' ', "%20"),
            ('<', "%3C"),
            ('"', "%22"),
            ('\\', "%5C"),
            ('\u{0}', "%00"),
            ('\u{7F}', "%7F"),
            ('\u{9F}', "%C2%9F"),
            ('\u{200E}', "%E2%80%8E"),
            ('\u{2067}', "%E2%81%A7"),
            ('\u{FFF0}', "%EF%BF%B0"),
            ('\u{E0041}', "%F3%A0%81%81"),
            ('\u{FDD0}', "%EF%B7%90"),
            ('\u{10FFFF}', "%F4%8F%BF%BF"),
        ] {
            assert_eq!(
                leiri_to_iri(&format!("a:/{c}")),
                format!("a:/{enc}"),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn everything_else_is_kept_byte_for_byte() {
        for s in [
            "http://a/%zz%",
            "http://例え.jp/\u{A0}?é",
            "",
            "%%%",
            "http://[v1.x]:1/",
        ] {
            assert!(matches!(leiri_to_iri(s), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn private_use_is_iprivate_only_in_the_query() {
        assert_eq!(
            leiri_to_iri("a:\u{F0000}?\u{F0000}"),
            "a:%F3%B0%80%80?\u{F0000}"
        );
    }
}
