//! Mapping the host of an IRI (RFC 3987bis §3.4): IDNA or percent-encoding.
//!
//! A registered name with non-ASCII characters has two URI forms. §3.4.1
//! percent-encodes it like any other component (`r%C3%A9sum%C3%A9.example.org`),
//! which RFC 3986 §3.2.2 allows but which DNS resolvers do not understand;
//! §3.4.2 converts it with IDNA (`xn--rsum-bpad.example.org`), which is what
//! resolvers and browsers need. We default to IDNA, computed with UTS #46
//! ToASCII, non-transitional (the `idna` crate, as browsers and rust-url
//! do); `ß`, `ς`, ZWJ and ZWNJ are kept as IDNA2008 says, not mapped away as
//! IDNA2003 did.
//!
//! The options of ToASCII, chosen deliberately:
//!
//! - **ASCII deny list:** the ASCII characters a `reg-name` cannot hold
//!   (RFC 3986 §3.2.2: `reg-name = *( unreserved / pct-encoded / sub-delims )`)
//!   plus space and the controls. §3.4.2 decodes `%HH` before ToASCII, so a
//!   decoded `%2F` or a lone `%` must make the conversion fail rather than
//!   put a `/` into the host; and UTS #46 maps some non-ASCII characters to
//!   ASCII ones (U+FF0F FULLWIDTH SOLIDUS to `/`, U+2100 to `a/c`), which
//!   the deny list, applied after mapping, rejects too. Not STD3: it would
//!   reject `_`, which real host names carry (`_dmarc.例え.jp`, Windows
//!   names), and a URI host is not only a DNS name (RFC 3986 §3.2.2).
//! - **Hyphens: allowed anywhere** (_CheckHyphens=false_, as in the WHATWG
//!   URL Standard). The hyphen rules of RFC 5891 §4.2.3.1 are registration
//!   rules; real names break them (`r3---sn-abc.googlevideo.com`), and a
//!   host with one such ASCII label next to a non-ASCII one must still map.
//! - **DNS length: verified, trailing root dot allowed**
//!   (_VerifyDnsLength=true_). §3.4.2 asks for the RFC 5891 lookup
//!   procedure, which produces DNS names: a label over 63 octets, a name
//!   over 253 or an empty label cannot be looked up, and saying so beats a
//!   URI that fails later. `example.org.` is a legitimate fully qualified
//!   name, so the root dot is allowed.
//!
//! Two more rules keep the mapping the identity on URIs: a host that is
//! ASCII and has no `%HH` of a non-ASCII octet is left exactly as it is
//! (no lower-casing), and in a mixed host the ASCII labels keep their case
//! (`Bücher.DE` gives `xn--bcher-kva.DE`); only the labels that needed
//! IDNA come out in the lower case ToASCII produces. Hosts are
//! case-insensitive (RFC 3986 §3.2.2), so this changes no meaning.
//!
//! If ToASCII fails, the caller falls back to percent-encoding and reports
//! an [`IdnaFailure`] — never a host that silently means something else.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use crate::chars::ascii::{SUB_DELIM, UNRESERVED, ascii_is};
use crate::iri::idn_memo::{HostMemo, memoized};
use crate::iri::percent::{decode_all, has_non_ascii_triplet};

/// How [`crate::to_uri`] maps a host (`ireg-name`) that is not ASCII
/// (RFC 3987bis §3.4).
///
/// ```
/// use iriscan::{to_uri, HostMapping, UriOptions};
///
/// let iri = "http://résumé.example.org";
/// let idna = UriOptions::new().host_mapping(HostMapping::Idna);
/// assert_eq!(to_uri(iri, &idna).uri, "http://xn--rsum-bpad.example.org");
/// let pct = UriOptions::new().host_mapping(HostMapping::PercentEncode);
/// assert_eq!(to_uri(iri, &pct).uri, "http://r%C3%A9sum%C3%A9.example.org");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HostMapping {
    /// UTS #46 ToASCII, non-transitional (§3.4.2), after decoding `%HH`
    /// triplets that form UTF-8. Options: the ASCII characters a
    /// `reg-name` cannot hold are denied (so `_` is allowed, a decoded `/`
    /// is not), hyphens are not checked (as in the WHATWG URL Standard),
    /// DNS lengths are verified (a trailing root dot is allowed). ASCII
    /// hosts are left as they are, and the ASCII labels of a mixed host
    /// keep their case. Falls back to percent-encoding, with a
    /// [`crate::MapWarning::Idna`], when IDNA fails.
    #[default]
    Idna,
    /// The general percent-encoding of §3.3 (§3.4.1).
    PercentEncode,
}

/// Why a host could not be converted with IDNA (§3.4.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdnaFailure {
    /// The host's `%HH` triplets do not decode to UTF-8; §3.4.2 then
    /// leaves the field as it is.
    NotUtf8,
    /// After decoding, the host holds an ASCII character a registered name
    /// cannot (RFC 3986 §3.2.2), such as `/`, `%`, `@` or a space.
    DisallowedAscii {
        /// The character.
        character: char,
    },
    /// UTS #46 rejects this label: a disallowed or unassigned code point,
    /// a combining mark at its start, a ZWJ/ZWNJ out of context, invalid
    /// Punycode, or a character mapped to one the deny list rejects.
    InvalidLabel {
        /// The label, as decoded from the IRI.
        label: String,
    },
    /// Each label passes on its own but the name as a whole does not
    /// (the bidi rule of RFC 5893 applies across labels).
    InvalidDomain,
    /// The ASCII form has an empty label, a label longer than 63 octets,
    /// or is longer than 253 octets (RFC 1034 via UTS #46
    /// _VerifyDnsLength_).
    DnsLength,
}

impl fmt::Display for IdnaFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdnaFailure::NotUtf8 => f.write_str("its percent-encoded octets are not UTF-8"),
            IdnaFailure::DisallowedAscii { character } => {
                write!(f, "it contains {character:?}, which a host name cannot")
            }
            IdnaFailure::InvalidLabel { label } => {
                write!(f, "UTS #46 rejects the label {label:?}")
            }
            IdnaFailure::InvalidDomain => {
                f.write_str("UTS #46 rejects the name as a whole (bidi rule across labels)")
            }
            IdnaFailure::DnsLength => f.write_str(
                "the name has an empty label, a label over 63 octets, or is over 253 octets",
            ),
        }
    }
}

/// The printable ASCII characters outside `unreserved / sub-delims` (RFC
/// 3986 §3.2.2), as the deny list of ToASCII takes them: a string
/// (`chars::agreement_tests` holds it to the ASCII table).
pub(crate) const REG_NAME_DENIED: &str = "\"#%/:<>?@[\\]^`{|}";

/// The deny list: [`REG_NAME_DENIED`], and (via `deny_glyphless`) space, C0
/// and DEL. Letters, digits, `-` and `.` cannot be denied and need not be.
const REG_NAME_DENY: AsciiDenyList = AsciiDenyList::new(true, REG_NAME_DENIED);

/// An ASCII character a `reg-name` cannot hold: outside `unreserved /
/// sub-delims` (RFC 3986 §3.2.2).
fn denied_ascii(c: char) -> bool {
    c.is_ascii() && !ascii_is(c as u8, UNRESERVED | SUB_DELIM)
}

pub(crate) fn to_ascii(domain: &str, dns_length: DnsLength) -> Option<Cow<'_, str>> {
    Uts46::new()
        .to_ascii(domain.as_bytes(), REG_NAME_DENY, Hyphens::Allow, dns_length)
        .ok()
}

/// The host as §3.4.2 maps it: `Ok(Borrowed)` when it needs no IDNA (it is
/// ASCII and has no `%HH` of a non-ASCII octet: left as it is),
/// `Ok(Owned(ascii))` with the ToASCII form, or why IDNA failed. The caller
/// checked that the host is not an IP-literal.
pub(crate) fn idna_host(host: &str) -> Result<Cow<'_, str>, IdnaFailure> {
    if host.is_ascii() && !has_non_ascii_triplet(host) {
        return Ok(Cow::Borrowed(host));
    }
    // Depends on the host only: remembered (see idn_memo).
    thread_local! {
        static MEMO: RefCell<HostMemo<Result<String, IdnaFailure>>> = RefCell::new(HostMemo::new());
    }
    memoized(&MEMO, host, 0, idna_host_uncached).map(Cow::Owned)
}

/// [`idna_host`] of a host that needs IDNA, computed.
fn idna_host_uncached(host: &str) -> Result<String, IdnaFailure> {
    // §3.4.2: decode all triplets, of ASCII octets too ("any sequences of
    // pct-encoded"); if they do not form UTF-8 the field is left as it is.
    let decoded = decode_all(host);
    let decoded = std::str::from_utf8(&decoded).map_err(|_| IdnaFailure::NotUtf8)?;
    if let Some(character) = decoded.chars().find(|&c| denied_ascii(c)) {
        return Err(IdnaFailure::DisallowedAscii { character });
    }
    match to_ascii(decoded, DnsLength::VerifyAllowRootDot) {
        Some(ascii) => Ok(keep_ascii_label_case(decoded, &ascii)),
        None => Err(diagnose(decoded)),
    }
}

/// ToASCII lower-cases the whole name; put back the original spelling of
/// the labels that were ASCII already, so that the mapping changes only
/// what needed IDNA. Applied only when the labels line up one to one (UTS
/// #46 also treats U+3002 and other full stops as separators, which an ASCII
/// label cannot contain, but then the count differs and we keep ToASCII's
/// output as it is).
fn keep_ascii_label_case(input: &str, ascii: &str) -> String {
    if input.split('.').count() != ascii.split('.').count() {
        return ascii.to_owned();
    }
    let mut out = String::with_capacity(ascii.len());
    for (k, (i, a)) in input.split('.').zip(ascii.split('.')).enumerate() {
        if k > 0 {
            out.push('.');
        }
        out.push_str(if i.is_ascii() && i.eq_ignore_ascii_case(a) {
            i
        } else {
            a
        });
    }
    out
}

/// Why ToASCII failed, for the warning: the `idna` crate reports only that
/// it did. Runs only on failure.
fn diagnose(decoded: &str) -> IdnaFailure {
    if to_ascii(decoded, DnsLength::Ignore).is_some() {
        return IdnaFailure::DnsLength;
    }
    match decoded
        .split('.')
        .find(|label| to_ascii(label, DnsLength::Ignore).is_none())
    {
        Some(label) => IdnaFailure::InvalidLabel {
            label: label.to_owned(),
        },
        None => IdnaFailure::InvalidDomain,
    }
}

/// ToUnicode of one `xn--` label (§4 last step), or `None` when UTS #46
/// reports an error or the result is ASCII. The caller verifies that the
/// Unicode form maps back to the same host before using it.
pub(crate) fn punycode_label_to_unicode(label: &str) -> Option<String> {
    let (unicode, result) =
        Uts46::new().to_unicode(label.as_bytes(), REG_NAME_DENY, Hyphens::Allow);
    match result {
        Ok(()) if !unicode.is_ascii() && !unicode.contains('.') => Some(unicode.into_owned()),
        _ => None,
    }
}

/// Whether a host label is ACE (Punycode) form: `xn--`, any case.
pub(crate) fn is_ace_label(label: &str) -> bool {
    label.len() > 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_hosts_are_left_alone() {
        assert_eq!(idna_host("gOoGle.com"), Ok(Cow::Borrowed("gOoGle.com")));
        assert_eq!(idna_host("a%2Fb%41"), Ok(Cow::Borrowed("a%2Fb%41")));
        assert_eq!(idna_host("xn--99zt52a"), Ok(Cow::Borrowed("xn--99zt52a")));
    }

    #[test]
    fn non_ascii_and_encoded_utf8_hosts_are_converted() {
        assert_eq!(
            idna_host("résumé.example.org").unwrap(),
            "xn--rsum-bpad.example.org"
        );
        assert_eq!(
            idna_host("r%C3%A9sum%c3%a9.example.org").unwrap(),
            "xn--rsum-bpad.example.org"
        );
        assert_eq!(idna_host("例え.jp.").unwrap(), "xn--r8jz45g.jp.");
    }

    #[test]
    fn ascii_labels_keep_their_case_in_mixed_hosts() {
        assert_eq!(idna_host("Bücher.DE").unwrap(), "xn--bcher-kva.DE");
        assert_eq!(idna_host("WWW.Bücher.de").unwrap(), "WWW.xn--bcher-kva.de");
        // Full-width full stop: labels do not line up, ToASCII output kept.
        assert_eq!(idna_host("é\u{3002}COM").unwrap(), "xn--9ca.com");
    }

    #[test]
    fn mapped_to_forbidden_ascii_fails_instead_of_changing_the_host() {
        // U+FF0F FULLWIDTH SOLIDUS maps to '/', U+2100 to "a/c".
        assert!(matches!(
            idna_host("a\u{FF0F}b.com"),
            Err(IdnaFailure::InvalidLabel { .. })
        ));
        assert!(matches!(
            idna_host("\u{2100}.com"),
            Err(IdnaFailure::InvalidLabel { .. })
        ));
        assert_eq!(
            idna_host("a%2Fé.com"),
            Err(IdnaFailure::DisallowedAscii { character: '/' })
        );
        assert_eq!(
            idna_host("é%.com"),
            Err(IdnaFailure::DisallowedAscii { character: '%' })
        );
        assert_eq!(
            idna_host("é b"),
            Err(IdnaFailure::DisallowedAscii { character: ' ' })
        );
    }

    #[test]
    fn failure_reasons() {
        assert_eq!(idna_host("%C3%A9%FF"), Err(IdnaFailure::NotUtf8));
        assert_eq!(idna_host("é..com"), Err(IdnaFailure::DnsLength));
        let long = "é".repeat(64);
        assert_eq!(idna_host(&long), Err(IdnaFailure::DnsLength));
        assert_eq!(
            idna_host("a.\u{378}.net"),
            Err(IdnaFailure::InvalidLabel {
                label: "\u{378}".into()
            })
        );
        assert_eq!(
            idna_host("xn--a.é.com"),
            Err(IdnaFailure::InvalidLabel {
                label: "xn--a".into()
            })
        );
        // Each label is fine alone; a label starting with a digit in a bidi
        // domain name breaks the bidi rule.
        assert_eq!(idna_host("0a.\u{5D0}"), Err(IdnaFailure::InvalidDomain));
    }

    #[test]
    fn underscores_and_odd_hyphens_are_allowed() {
        assert_eq!(
            idna_host("_dmarc.例え.jp").unwrap(),
            "_dmarc.xn--r8jz45g.jp"
        );
        assert_eq!(idna_host("r3---sn.é.com").unwrap(), "r3---sn.xn--9ca.com");
    }

    #[test]
    fn punycode_labels() {
        assert_eq!(
            punycode_label_to_unicode("xn--99zt52a").as_deref(),
            Some("納豆")
        );
        assert_eq!(punycode_label_to_unicode("xn--a"), None);
        assert_eq!(punycode_label_to_unicode("example"), None);
        assert!(is_ace_label("XN--99zt52a") && !is_ace_label("xn--") && !is_ace_label("x"));
    }
}
