//! Converting a URI to an IRI (RFC 3987bis §4).
//!
//! Every URI is already an IRI; the conversion only removes the
//! percent-encoding that hides readable characters, for display and for
//! processing as text. It follows the steps of §4:
//!
//! 1. Look at the `%HH` triplets.
//! 2. Decode them — except those of `%`, of the reserved characters (RFC
//!    3986 gen-delims and sub-delims, whose encoded and plain forms mean
//!    different things) and of the ASCII characters not allowed in URIs.
//!    Of the ASCII octets, this decodes exactly the unreserved ones
//!    (`%41` → `A`, which RFC 3986 §6.2.2.2 makes equivalent anyway).
//! 3. Keep encoded the octets that are not part of strictly valid UTF-8
//!    (RFC 3629: no overlong forms such as `%C0%AF`, no surrogates such as
//!    `%ED%A0%80`, nothing above U+10FFFF; see §9 and UTR #36 §3 on why
//!    lax decoders are a security hole).
//! 4. Keep encoded the characters not appropriate in an IRI (§5.1, §6.3):
//!    anything outside `ucschar` — C1 controls, private use (except in the
//!    query, where it is `iprivate`), non-characters, specials U+FFF0–FFFD,
//!    tags —, the bidi formatting characters, and every other character
//!    that ends an IRI in running text: white space and its invisible
//!    look-alikes (U+00A0, U+1680, U+180E, U+2000–U+200B, U+2028, U+2029,
//!    U+202F, U+205F, U+2060, U+3000, U+FEFF), which would make the IRI
//!    ambiguous on display, and the sentence punctuation and quotation
//!    marks of the world's scripts (`。` `«` `»` `“` `”` …). Decoded, any of
//!    them would cut the IRI where the scanner meets it again: the
//!    scanner's end-of-IRI table decides both.
//! 5. The rest is the IRI.
//!
//! Triplets left alone in step 2 are copied as they are, hex case included
//! (`%7b` stays `%7b`); octets decoded in step 2 and encoded again in steps
//! 3 and 4 come out in upper case (`%e2%80%ae`, the RIGHT-TO-LEFT OVERRIDE,
//! becomes `%E2%80%AE`, as in the draft's example). Only UTF-8 is ever
//! tried: `r%E9sum%E9` stays as it is, whatever charset it might have been.
//!
//! Decoding never produces a delimiter (only unreserved ASCII and non-ASCII
//! characters are decoded), so the components of the IRI are those of the
//! URI, and for a URI `u`, `to_uri(to_iri(u)) == u` up to the hex case of
//! triplets and the decoding of unreserved ASCII — with
//! [`crate::HostMapping::PercentEncode`]; with IDNA, `to_uri` converts a
//! percent-encoded UTF-8 host to punycode whether or not `to_iri` decoded
//! it first.
//!
//! # Punycode
//!
//! §4 adds that URIs "known to contain domain names" in the host should
//! have their `xn--` labels converted with ToUnicode. That is an option
//! ([`IriOptions::decode_punycode`]), off by default: it takes
//! scheme-specific knowledge the generic syntax does not have, and the
//! Unicode form of a label is where homograph spoofing lives (§9, UTR #36),
//! so the caller should choose it for display. When on, a label is
//! converted only if UTS #46 ToUnicode accepts it *and* the converted host
//! maps back, through [`crate::to_uri`] with IDNA, to the same host (ASCII
//! case aside, hosts being case-insensitive): a label ToUnicode rejects, or
//! whose Unicode form would not survive the trip back, stays as it is.
//! And, as browsers decide before they show a Unicode host, the converted
//! host must pass the checks of UTS #39 (docs/rules.md §7.2): no label
//! mixes scripts (`pаypal.com` with a Cyrillic `а`) or is whole-script
//! confusable with an ASCII label (`xn--80ak6aa92e.com`, the Cyrillic
//! `аррӏе.com`); otherwise every label of the host stays in punycode. (The
//! string result has no room for a warning: a hit's
//! [`crate::Warning::MixedScript`] and [`crate::Warning::Confusable`] say
//! it of its host.)
//!
//! ```
//! use iriscan::{to_iri, IriOptions};
//!
//! let opts = IriOptions::new();
//! assert_eq!(to_iri("http://www.example.org/D%C3%BCrst", &opts), "http://www.example.org/Dürst");
//! assert_eq!(to_iri("http://www.example.org/D%FCrst", &opts), "http://www.example.org/D%FCrst");
//! assert_eq!(
//!     to_iri("http://xn--99zt52a.example.org/%e2%80%ae", &opts.decode_punycode(true)),
//!     "http://納豆.example.org/%E2%80%AE"
//! );
//! ```

use std::borrow::Cow;

use crate::chars::ascii::{UNRESERVED, ascii_is};
use crate::chars::end_of_iri::{ends_iri, is_white_space};
use crate::iri::components::Components;
use crate::iri::host_mapping::{idna_host, is_ace_label, punycode_label_to_unicode};
use crate::iri::host_safety::host_spoofing;
use crate::iri::leiri::is_iri_char;
use crate::iri::percent::{is_triplet, push_pct, push_pct_bytes, triplet_value};
use crate::iri::to_uri::is_ip_literal;

/// Options of the URI → IRI conversion, built in the builder style.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IriOptions {
    decode_punycode: bool,
}

impl IriOptions {
    /// The default options: punycode labels are kept.
    pub fn new() -> IriOptions {
        IriOptions::default()
    }

    /// Convert `xn--` labels of the host to Unicode with UTS #46 ToUnicode
    /// (§4, last step). Default `false`: the conversion takes knowledge of
    /// the scheme (is the host a domain name?), and the Unicode form of a
    /// label is where homograph spoofing lives (§9, UTR #36), so it is the
    /// caller's choice, for display. A label is converted only if ToUnicode
    /// accepts it and the converted host maps back through
    /// [`crate::to_uri`] with [`crate::HostMapping::Idna`] to the same host
    /// (ASCII case aside) and the host passes the UTS #39 checks browsers
    /// apply (no label mixing scripts or whole-script confusable with an
    /// ASCII one); otherwise it stays as it is.
    pub fn decode_punycode(mut self, yes: bool) -> IriOptions {
        self.decode_punycode = yes;
        self
    }

    /// Whether [`IriOptions::decode_punycode`] is set.
    pub fn decodes_punycode(&self) -> bool {
        self.decode_punycode
    }
}

/// Converts a URI (or any string) to an IRI (RFC 3987bis §4).
///
/// Decodes the `%HH` triplets that form strictly valid UTF-8 (RFC 3629: no
/// overlong forms, surrogates or code points above U+10FFFF) and the
/// triplets of unreserved ASCII characters. Keeps encoded: `%25`, the
/// reserved characters, ASCII not allowed in URIs (these triplets are
/// copied as they are, hex case included), and characters not appropriate
/// in an IRI (§5.1, §6.3: C1 controls, bidi formatting characters, white
/// space and its invisible look-alikes, specials, non-characters, tags,
/// private use outside the query) or that would end it in running text
/// (sentence punctuation, quotation marks), which are re-encoded in upper
/// case, as are octets that are not UTF-8. Only UTF-8 is ever tried. Optionally
/// converts punycode labels ([`IriOptions::decode_punycode`]).
///
/// For a URI `u`, `to_uri(to_iri(u))` with [`crate::HostMapping::PercentEncode`]
/// is `u` up to the hex case of triplets and the decoding of unreserved
/// characters. Never fails; returns the input borrowed when there is
/// nothing to decode.
///
/// ```
/// use iriscan::{to_iri, IriOptions};
///
/// let iri = to_iri("http://example.com/%F0%90%8C%80?q=%E2%9C%93%26%C0%AF", &IriOptions::new());
/// assert_eq!(iri, "http://example.com/𐌀?q=✓%26%C0%AF");
/// ```
pub fn to_iri<'a>(uri: &'a str, opts: &IriOptions) -> Cow<'a, str> {
    const KEPT: Decoding = Decoding::ForText;
    let c = Components::split(uri);
    let host = c.host.clone().filter(|h| !is_ip_literal(&uri[h.clone()]));
    let punycode = opts.decode_punycode
        && host
            .as_ref()
            .is_some_and(|h| uri[h.clone()].split('.').any(is_ace_label));
    if !punycode && memchr::memchr(b'%', uri.as_bytes()).is_none() {
        return Cow::Borrowed(uri);
    }
    let mut out = String::with_capacity(uri.len());
    let mut run = Vec::new();
    let mut pos = 0;
    if let Some(h) = &c.host {
        push_decoded(&uri[pos..h.start], false, KEPT, &mut out, &mut run);
        if punycode {
            let mut decoded = String::with_capacity(h.len());
            push_decoded(&uri[h.clone()], false, KEPT, &mut decoded, &mut run);
            push_punycode_decoded(&decoded, &mut out);
        } else {
            push_decoded(&uri[h.clone()], false, KEPT, &mut out, &mut run);
        }
        pos = h.end;
    }
    if let Some(q) = &c.query {
        push_decoded(&uri[pos..q.start], false, KEPT, &mut out, &mut run);
        push_decoded(&uri[q.clone()], true, KEPT, &mut out, &mut run);
        pos = q.end;
    }
    push_decoded(&uri[pos..], false, KEPT, &mut out, &mut run);
    if out == uri {
        Cow::Borrowed(uri)
    } else {
        Cow::Owned(out)
    }
}

/// Who decodes, and so which triplets stay and how they are written. The
/// two share [`push_decoded`], so that they differ only where this says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoding {
    /// [`to_iri`]: an IRI to show, and to find again, in running text. The
    /// ASCII triplets it leaves (`%`, reserved characters, ASCII not
    /// allowed in URIs) are copied as they were written, hex case
    /// included: it changes nothing it does not decode. Characters that
    /// end an IRI in running text stay encoded.
    ForText,
    /// [`crate::normalize`], IRI form: a comparison key. The triplets it
    /// leaves are written with upper-case hex (RFC 3986 §6.2.2.1).
    /// Characters not appropriate in an IRI stay encoded (§5.1: white space
    /// and its look-alikes); the visible punctuation and quotation marks
    /// that end an IRI in running text are decoded, as `iunreserved` asks
    /// (RFC 3987 §5.3.2.3).
    ForKey,
}

impl Decoding {
    /// Step 4: whether a decoded non-ASCII character may appear as itself.
    /// It must be an IRI character ([`is_iri_char`]), and for
    /// [`Decoding::ForText`] not one that ends an IRI in running text
    /// ([`ends_iri`]: white space and its invisible look-alikes, sentence
    /// punctuation, quotation marks…): those are `ucschar`, so an IRI may
    /// carry them, but a decoded one would be invisible, or the scanner
    /// would cut the IRI there when it meets it again. For
    /// [`Decoding::ForKey`], not white space ([`is_white_space`]), which
    /// would be invisible in the key.
    pub(crate) fn decodes(self, c: char, in_query: bool) -> bool {
        is_iri_char(c, in_query)
            && match self {
                Decoding::ForText => !ends_iri(c),
                Decoding::ForKey => !is_white_space(c),
            }
    }
}

/// Steps 2 to 5 on one stretch of the URI. `run` is scratch space for the
/// octets of consecutive triplets, reused across calls. Also the decoder of
/// [`crate::normalize`] (with [`Decoding::ForKey`]), so that both decode
/// the same way but where [`Decoding`] says.
pub(crate) fn push_decoded(
    s: &str,
    in_query: bool,
    decoding: Decoding,
    out: &mut String,
    run: &mut Vec<u8>,
) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let Some(k) = memchr::memchr(b'%', &b[i..]) else {
            out.push_str(&s[i..]);
            return;
        };
        out.push_str(&s[i..i + k]);
        i += k;
        if !is_triplet(b, i) {
            out.push('%');
            i += 1;
            continue;
        }
        // A run of consecutive triplets: the octets that may form UTF-8
        // sequences together (a literal character in between breaks them).
        let start = i;
        run.clear();
        while is_triplet(b, i) {
            run.push(triplet_value(b, i));
            i += 3;
        }
        push_run(&s[start..i], run, in_query, decoding, out);
    }
}

/// Decodes one run of triplets `text` whose octets are `octets`.
fn push_run(text: &str, octets: &[u8], in_query: bool, decoding: Decoding, out: &mut String) {
    let mut k = 0; // index of the current octet, = triplet index
    for chunk in octets.utf8_chunks() {
        for c in chunk.valid().chars() {
            let n = c.len_utf8();
            if c.is_ascii() {
                if ascii_is(c as u8, UNRESERVED) {
                    out.push(c);
                } else if decoding == Decoding::ForKey {
                    push_pct(out, c as u8);
                } else {
                    // `%`, reserved, or not allowed in URIs: not decoded in
                    // step 2, so copied as it was (its hex case included).
                    out.push_str(&text[3 * k..3 * k + 3]);
                }
            } else if decoding.decodes(c, in_query) {
                out.push(c);
            } else {
                push_pct_bytes(out, &octets[k..k + n]);
            }
            k += n;
        }
        // Step 3: not strictly valid UTF-8.
        push_pct_bytes(out, chunk.invalid());
        k += chunk.invalid().len();
    }
}

/// The last step of §4 on a reg-name whose triplets are already decoded:
/// ToUnicode on each `xn--` label, kept only if the host still maps to the
/// same URI host and passes the checks of UTS #39 (see the module docs).
fn push_punycode_decoded(host: &str, out: &mut String) {
    let mut candidate = String::with_capacity(host.len() * 2);
    let mut changed = false;
    for (k, label) in host.split('.').enumerate() {
        if k > 0 {
            candidate.push('.');
        }
        match is_ace_label(label)
            .then(|| punycode_label_to_unicode(label))
            .flatten()
        {
            Some(unicode) => {
                candidate.push_str(&unicode);
                changed = true;
            }
            None => candidate.push_str(label),
        }
    }
    let same = changed
        && match (idna_host(host), idna_host(&candidate)) {
            (Ok(before), Ok(after)) => before.eq_ignore_ascii_case(&after),
            _ => false,
        };
    // As browsers decide (docs/rules.md §7.2): no label may mix scripts or
    // be whole-script confusable with an ASCII one.
    let safe = same && host_spoofing(&candidate).is_safe();
    out.push_str(if safe { &candidate } else { host });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iri(s: &str) -> String {
        to_iri(s, &IriOptions::new()).into_owned()
    }

    #[test]
    fn reserved_percent_and_illegal_ascii_stay_with_their_case() {
        assert_eq!(iri("/%2f%2F%25%20%7b%3A%41%7e"), "/%2f%2F%25%20%7b%3AA~");
    }

    #[test]
    fn strict_utf8_only() {
        // Overlong '/', surrogate, above U+10FFFF, truncated, stray trail.
        assert_eq!(iri("/%C0%AF"), "/%C0%AF");
        assert_eq!(iri("/%ed%a0%80"), "/%ED%A0%80");
        assert_eq!(iri("/%F4%90%80%80"), "/%F4%90%80%80");
        assert_eq!(iri("/%E2%99"), "/%E2%99");
        assert_eq!(iri("/%A5%E2%99%A5"), "/%A5♥");
        // A literal character between triplets breaks the sequence.
        assert_eq!(iri("/%C3x%A9"), "/%C3x%A9");
    }

    #[test]
    fn inappropriate_characters_are_re_encoded_upper_case() {
        assert_eq!(iri("/%e2%80%ae"), "/%E2%80%AE"); // U+202E
        assert_eq!(iri("/%d8%9c"), "/%D8%9C"); // U+061C
        assert_eq!(iri("/%c2%a0"), "/%C2%A0"); // U+00A0
        assert_eq!(iri("/%e2%80%8b"), "/%E2%80%8B"); // U+200B
        assert_eq!(iri("/%ef%bb%bf"), "/%EF%BB%BF"); // U+FEFF
        assert_eq!(iri("/%c2%85"), "/%C2%85"); // C1 control
        assert_eq!(iri("/%ef%bf%bd"), "/%EF%BF%BD"); // U+FFFD special
        assert_eq!(iri("/%ef%b7%90"), "/%EF%B7%90"); // U+FDD0 non-character
        assert_eq!(iri("/%f3%a0%80%81"), "/%F3%A0%80%81"); // U+E0001 tag
        // ZWNJ is needed by Persian and others: decoded.
        assert_eq!(iri("/%E2%80%8C"), "/\u{200C}");
    }

    /// U+2060 WORD JOINER and U+180E MONGOLIAN VOWEL SEPARATOR end an IRI
    /// in running text; decoded, they would cut the IRI when it is scanned
    /// again.
    #[test]
    fn word_joiner_and_mongolian_vowel_separator_stay_encoded() {
        assert_eq!(
            iri("http://a.example/%E2%81%A0b"),
            "http://a.example/%E2%81%A0b"
        );
        assert_eq!(
            iri("http://a.example/%e1%a0%8eb"),
            "http://a.example/%E1%A0%8Eb"
        );
    }

    /// Every code point the scanner ends an IRI at keeps its
    /// percent-encoding, in the path and in the query; every other
    /// IRI character of the BMP and of the first plane is decoded.
    #[test]
    fn what_the_scanner_ends_at_is_never_decoded() {
        use crate::find::prose_chars::{Class, classify};
        let mut ending = 0;
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let ends = classify(c) == Class::End;
            if !ends && c as u32 > 0x1FFFF {
                continue;
            }
            let mut enc = String::new();
            push_pct_bytes(&mut enc, c.encode_utf8(&mut [0; 4]).as_bytes());
            for (uri, at) in [
                (format!("http://a.example/x{enc}y"), 18),
                (format!("http://a.example/?x{enc}y"), 19),
            ] {
                let out = iri(&uri);
                let query = at == 19;
                if ends {
                    assert_eq!(out, uri, "U+{:04X}", c as u32);
                } else if is_iri_char(c, query) {
                    assert_eq!(
                        &out[at..at + c.len_utf8()],
                        c.to_string(),
                        "U+{:04X}",
                        c as u32
                    );
                }
            }
            ending += usize::from(ends);
        }
        // The rows of the table and the code points outside `ucschar` and
        // `iprivate` (C1 controls, non-characters, specials).
        assert!(ending > 200, "{ending}");
    }

    #[test]
    fn private_use_decodes_only_in_the_query() {
        assert_eq!(
            iri("/%EE%80%80?%EE%80%80#%EE%80%80"),
            "/%EE%80%80?\u{E000}#%EE%80%80"
        );
    }

    #[test]
    fn borrowed_when_nothing_to_do() {
        assert!(matches!(
            to_iri("http://a/b", &IriOptions::new()),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            to_iri("http://a/%20", &IriOptions::new()),
            Cow::Borrowed(_)
        ));
        let p = IriOptions::new().decode_punycode(true);
        assert!(matches!(to_iri("http://xn--a.b/", &p), Cow::Borrowed(_)));
    }

    #[test]
    fn punycode_round_trip_guard() {
        let p = IriOptions::new().decode_punycode(true);
        assert_eq!(
            to_iri("http://XN--99ZT52A.Example.org/", &p),
            "http://納豆.Example.org/"
        );
        assert_eq!(
            to_iri("http://xn--a.example.org/", &p),
            "http://xn--a.example.org/"
        );
        // Punycode of "ab" upper-case would not come back from ToASCII.
        assert_eq!(
            to_iri("http://xn--ab-.example/", &p),
            "http://xn--ab-.example/"
        );
        assert_eq!(to_iri("http://[xn--99zt52a]/", &p), "http://[xn--99zt52a]/");
        // Homographs stay in punycode: whole-script confusable (the
        // Cyrillic аррӏе.com), mixed script (Cyrillic а in paypal).
        assert_eq!(
            to_iri("http://xn--80ak6aa92e.com/", &p),
            "http://xn--80ak6aa92e.com/"
        );
        let paypal = idna_host("pаypal.com").unwrap().into_owned();
        let uri = format!("http://{paypal}/");
        assert_eq!(to_iri(&uri, &p), uri);
        // Labels of a host that percent-encoding made non-ASCII.
        assert_eq!(
            to_iri("http://r%C3%A9sum%C3%A9.xn--99zt52a.org/", &p),
            "http://résumé.納豆.org/"
        );
    }
}
