//! Every user of a character class, held to the one home of that class.
//!
//! The ASCII classes live in [`crate::chars::ascii`], the end-of-IRI and
//! bidi rules in [`crate::chars::end_of_iri`]. Some users read them
//! directly; others keep a table computed from them (the scanner's byte
//! tables), a copy written out on purpose (the reference scanner, a test
//! oracle that must not share the scanner's table; the IDNA deny list, a
//! string the `idna` crate takes), or show the class only in their
//! behaviour (the validator, the conversions). These tests check each of
//! them, for all 256 byte values and for every code point, against the
//! home of its class: whoever edits one copy, or the table, without the
//! other, makes one of them fail.

use crate::chars::ascii::{
    self, AT, COLON, DNS_HOST, DOMAIN, EMAIL_LOCAL, HASH, IRI, LDH, LEIRI_EXTRA, QMARK, SCHEME,
    SLASH, SPACE, SUB_DELIM, TEXT_EXTRA, TRIM, UNRESERVED, URI, ascii_is,
};
use crate::chars::end_of_iri::{EndReason, end_row, ends_iri, is_bidi_format, is_white_space};
use crate::chars::ucschar::{is_iprivate, is_ucschar};
use crate::find::prose_chars::{Class, classify};
use crate::find::reference_scanner as oracle;
use crate::find::scanner::{
    DENSE, DENSE_AT, DENSE_AUTH, DENSE_COLON, DENSE_DEFER, DENSE_HOST, DENSE_LABEL, DENSE_PLAIN,
    DENSE_SCHEME, RUN_BYTE,
};
use crate::iri::host_mapping::{REG_NAME_DENIED, idna_host};
use crate::iri::leiri::is_iri_char;
use crate::iri::to_iri::Decoding;
use crate::{
    IdnaFailure, IriOptions, Rule, Syntax, UriOptions, leiri_to_iri, parse, to_iri, to_uri,
};

/// Every byte value, with the character of the same number (Latin-1 from
/// 0x80 up, which no ASCII class holds).
fn bytes() -> impl Iterator<Item = (u8, char)> {
    (0..=255u8).map(|b| (b, char::from(b)))
}

fn ascii() -> impl Iterator<Item = (u8, char)> {
    bytes().filter(|(b, _)| b.is_ascii())
}

/// The reference scanner's own lists are the table's classes.
#[test]
fn the_reference_scanner_agrees_with_the_table() {
    for (b, c) in bytes() {
        assert_eq!(oracle::is_iri_ascii(c), ascii_is(b, IRI), "{c:?}");
        assert_eq!(oracle::is_leiri_ascii(c), ascii_is(b, TEXT_EXTRA), "{c:?}");
        assert_eq!(oracle::is_scheme_char(c), ascii_is(b, SCHEME), "{c:?}");
        assert_eq!(oracle::is_ascii_space(c), ascii_is(b, SPACE), "{c:?}");
        assert_eq!(oracle::is_local_ascii(c), ascii_is(b, EMAIL_LOCAL), "{c:?}");
        assert_eq!(oracle::is_domain_ascii(c), ascii_is(b, DOMAIN), "{c:?}");
        assert_eq!(oracle::is_always_trimmed(c), ascii_is(b, TRIM), "{c:?}");
    }
}

/// The scanner's byte tables say what their docs say, checked against the
/// reference scanner's independent lists (so that a change to the table
/// or to the derivation shows).
#[test]
fn the_scanners_byte_tables_agree_with_the_table() {
    for (b, c) in bytes() {
        let d = DENSE[usize::from(b)];
        let has = |bit: u8| d & bit != 0;
        let iri = oracle::is_iri_ascii(c);
        let leiri = oracle::is_leiri_ascii(c);
        assert_eq!(has(DENSE_COLON), c == ':', "{c:?}");
        assert_eq!(has(DENSE_AT), c == '@', "{c:?}");
        assert_eq!(
            has(DENSE_LABEL),
            oracle::is_domain_ascii(c) && c != '.',
            "{c:?}"
        );
        assert_eq!(has(DENSE_LABEL), ascii_is(b, LDH), "{c:?}");
        assert_eq!(has(DENSE_DEFER), c == '.' || b >= 0x80, "{c:?}");
        assert_eq!(has(DENSE_SCHEME), oracle::is_scheme_char(c), "{c:?}");
        assert_eq!(
            has(DENSE_AUTH),
            (iri || leiri) && !":@/?#".contains(c),
            "{c:?}"
        );
        assert_eq!(has(DENSE_PLAIN), iri && !"/?#@()':".contains(c), "{c:?}");
        assert_eq!(
            has(DENSE_HOST),
            c.is_ascii_alphanumeric() || "-._%".contains(c),
            "{c:?}"
        );
        assert_eq!(has(DENSE_HOST), ascii_is(b, DNS_HOST), "{c:?}");
        assert_eq!(RUN_BYTE[usize::from(b)], iri || leiri, "{c:?}");
    }
}

/// Which ASCII characters the validator accepts where, against the
/// grammar classes of the table: a path takes `ipchar` and `/` (`?` and `#`
/// end it), a query adds `?`; Text adds `{ } ^ [ ]`, LEIRI its own ASCII;
/// an IPvFuture takes `unreserved / sub-delims / ":"`, a scheme its own.
#[test]
fn the_validator_agrees_with_the_table() {
    let pchar = UNRESERVED | SUB_DELIM | COLON | AT;
    for (b, c) in ascii() {
        if c == '%' {
            continue; // pct-encoded, checked in `parse`'s own tests
        }
        let path = format!("s:/a{c}b");
        let query = format!("s:/?a{c}b");
        let delimiter = |d: &str| d.contains(c);
        for (syntax, extra) in [
            (Syntax::Uri, 0),
            (Syntax::Iri, 0),
            (Syntax::Text, TEXT_EXTRA),
            (Syntax::Leiri, LEIRI_EXTRA),
        ] {
            let ok = |s: &str| parse(s, Rule::Iri, syntax).is_ok();
            assert_eq!(
                ok(&path),
                ascii_is(b, pchar | SLASH | extra) || delimiter("?#"),
                "{syntax:?} path {c:?}"
            );
            assert_eq!(
                ok(&query),
                ascii_is(b, pchar | SLASH | QMARK | extra) || delimiter("#"),
                "{syntax:?} query {c:?}"
            );
        }
        let future = format!("s://[v1.a{c}]/");
        assert_eq!(
            parse(&future, Rule::Iri, Syntax::Iri).is_ok(),
            ascii_is(b, UNRESERVED | SUB_DELIM | COLON),
            "IPvFuture {c:?}"
        );
        let scheme = format!("a{c}b:x");
        assert_eq!(
            parse(&scheme, Rule::Iri, Syntax::Iri).is_ok(),
            ascii_is(b, SCHEME) || c == ':',
            "scheme {c:?}"
        );
    }
    // `#` is in no component's class: it only starts the fragment.
    assert_eq!(ascii::ASCII[usize::from(b'#')], HASH);
}

/// The conversions keep, decode and encode the ASCII characters the
/// table's classes say.
#[test]
fn the_conversions_agree_with_the_table() {
    let opts = UriOptions::new();
    for (b, c) in ascii() {
        // IRI → URI: URI characters stay, but `[ ]` outside an IP-literal
        // and a lone `%`.
        let iri = format!("s:/a{c}b");
        let kept = to_uri(&iri, &opts).uri == iri;
        assert_eq!(kept, ascii_is(b, URI) && !"[]%".contains(c), "to_uri {c:?}");
        // LEIRI → IRI: the same, but a lone `%` is not its business.
        let kept = leiri_to_iri(&iri) == iri;
        assert_eq!(
            kept,
            ascii_is(b, URI) && !"[]".contains(c),
            "leiri_to_iri {c:?}"
        );
        // URI → IRI: only unreserved triplets are decoded.
        let uri = format!("s:/a%{b:02X}b");
        let decoded = to_iri(&uri, &IriOptions::new()) != uri;
        assert_eq!(decoded, ascii_is(b, UNRESERVED), "to_iri {c:?}");
    }
}

/// The IDNA deny list is the printable ASCII outside `unreserved /
/// sub-delims`, and the host mapping refuses exactly the ASCII outside
/// them.
#[test]
fn the_host_mapping_agrees_with_the_table() {
    let printable_denied: String = ascii()
        .filter(|&(b, c)| c.is_ascii_graphic() && !ascii_is(b, UNRESERVED | SUB_DELIM))
        .map(|(_, c)| c)
        .collect();
    let mut listed: Vec<char> = REG_NAME_DENIED.chars().collect();
    listed.sort();
    assert_eq!(listed.into_iter().collect::<String>(), printable_denied);
    for (b, c) in ascii() {
        let refused = matches!(
            idna_host(&format!("é{c}x.example")),
            Err(IdnaFailure::DisallowedAscii { character }) if character == c
        );
        assert_eq!(refused, !ascii_is(b, UNRESERVED | SUB_DELIM), "{c:?}");
    }
}

/// The scanner ends an IRI exactly where the end-of-IRI rule says; what
/// the conversions decode never ends one; the bidi predicate is the table's
/// bidi rows.
#[test]
fn every_code_point_agrees_with_the_end_of_iri_rule() {
    for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
        let u = c as u32;
        assert_eq!(classify(c) == Class::End, ends_iri(c), "U+{u:04X}");
        assert_eq!(
            ends_iri(c),
            end_row(c).is_some() || !(is_ucschar(c) || is_iprivate(c)),
            "U+{u:04X}"
        );
        assert_eq!(
            is_bidi_format(c),
            end_row(c) == Some(EndReason::Bidi),
            "U+{u:04X}"
        );
        assert_eq!(
            is_white_space(c),
            end_row(c) == Some(EndReason::WhiteSpace),
            "U+{u:04X}"
        );
        for in_query in [false, true] {
            // `to_iri` never decodes what the scanner ends an IRI at.
            let for_text = Decoding::ForText.decodes(c, in_query);
            assert_eq!(
                for_text,
                is_iri_char(c, in_query) && !ends_iri(c),
                "U+{u:04X}"
            );
            if for_text {
                assert_ne!(classify(c), Class::End, "U+{u:04X}");
            }
            // A normalization key decodes all that and the visible
            // punctuation, never white space.
            let for_key = Decoding::ForKey.decodes(c, in_query);
            assert_eq!(
                for_key,
                is_iri_char(c, in_query) && end_row(c) != Some(EndReason::WhiteSpace),
                "U+{u:04X}"
            );
            assert!(!for_text || for_key, "U+{u:04X}");
        }
        assert_eq!(
            is_iri_char(c, false),
            is_ucschar(c) && end_row(c) != Some(EndReason::Bidi),
            "U+{u:04X}"
        );
    }
}

/// The validator rejects the bidi formatting characters of the table in an
/// IRI and accepts them in a LEIRI; every other `ucschar` of the BMP it
/// accepts in both.
#[test]
fn the_validator_agrees_with_the_bidi_rows() {
    for c in (0x80..=0xFFFFu32).filter_map(char::from_u32) {
        if !is_ucschar(c) {
            continue;
        }
        let s = format!("s:/a{c}b");
        let iri = parse(&s, Rule::Iri, Syntax::Iri).is_ok();
        assert_eq!(iri, !is_bidi_format(c), "U+{:04X}", c as u32);
        assert!(parse(&s, Rule::Iri, Syntax::Leiri).is_ok());
        let encoded = leiri_to_iri(&s) != s;
        assert_eq!(encoded, is_bidi_format(c), "U+{:04X}", c as u32);
    }
    // (The ASCII classes have no bidi member.)
    assert!(ascii().all(|(_, c)| !is_bidi_format(c)));
}
