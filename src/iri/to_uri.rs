//! Mapping an IRI to a URI (RFC 3987bis §3).
//!
//! # Overview
//!
//! A URI is the ASCII form of an IRI that systems which only understand
//! URIs (HTTP request lines, most resolvers, old libraries) can take. The
//! mapping works component by component (§3.2, §3.6): the string is split
//! with [`Components::split`], which never fails, and each component is
//! percent-encoded by the general rule of §3.3 — except the host, which may
//! go through IDNA (§3.4.2), and the query of `http`/`https` IRIs from a
//! document in a legacy charset (§3.5). The pieces are then put back together
//! with their original delimiters. Like the draft says, the mapping "is
//! defined for all sequences of Unicode characters, whether or not they are
//! valid for the component in question": [`to_uri`] takes any string and
//! never fails; where something could not be done as asked (an IDNA failure,
//! a character the document charset cannot hold) the result carries a
//! [`MapWarning`].
//!
//! ```
//! use iriscan::{to_uri, HostMapping, UriOptions};
//!
//! let opts = UriOptions::new();
//! let m = to_uri("http://résumé.example.org/Dürst?q=東京#frag", &opts);
//! assert_eq!(m.uri, "http://xn--rsum-bpad.example.org/D%C3%BCrst?q=%E6%9D%B1%E4%BA%AC#frag");
//! assert!(m.warnings.is_empty());
//!
//! let opts = UriOptions::new().host_mapping(HostMapping::PercentEncode);
//! let m = to_uri("http://résumé.example.org", &opts);
//! assert_eq!(m.uri, "http://r%C3%A9sum%C3%A9.example.org");
//! ```
//!
//! # The general rule (§3.3)
//!
//! Every character "not allowed anywhere in a valid URI" becomes its UTF-8
//! octets, each written `%HH` with upper-case hex: all non-ASCII characters,
//! and the ASCII characters outside `unreserved / reserved / "%"` — the C0
//! controls, space, `"` `<` `>` `\` `^` `` ` `` `{` `|` `}` and DEL. The
//! same ASCII characters are those a Legacy Extended IRI may carry and an IRI
//! may not (§6.3), so [`crate::leiri_to_iri`] asks the same class of the
//! crate's ASCII table. The triplets themselves are read and written by the
//! crate's percent-encoding module, which the host mapping shares.
//!
//! Two decisions go slightly beyond the letter of §3.3, both so that the
//! output is a URI whenever the pieces allow it, and both idempotent:
//!
//! - `[` and `]` are only allowed around an IP-literal host (RFC 3986
//!   §3.2.2). Elsewhere — `…/a[]=1`, `…/wiki/Blur_[band]`, which real links
//!   carry and the scanner accepts as LEIRI characters — they are written
//!   `%5B` and `%5D`.
//! - A `%` that does not start a `%HH` triplet is written `%25`. §3.3 says
//!   existing percent-encodings are left alone, and a lone `%` is not one;
//!   leaving it would make the result an invalid URI that every consumer
//!   repairs differently. `%25` is itself a valid triplet, so a second pass
//!   leaves it alone (idempotence), and no valid URI contains a lone `%`, so
//!   the mapping stays the identity on valid URIs. (Django's `iri_to_uri`
//!   keeps a lone `%`; see the suite test for that difference.)
//!
//! Existing `%HH` triplets are never touched, not even their hex case.
//!
//! # Hosts (§3.4)
//!
//! See [`HostMapping`]: by default a host with non-ASCII characters (or with
//! `%HH` triplets that decode to non-ASCII UTF-8, §3.4.2) is converted with
//! UTS #46 ToASCII; [`HostMapping::PercentEncode`] applies the general rule
//! instead (§3.4.1). An ASCII-only host is left exactly as it is (no
//! lower-casing): the mapping is the identity on URIs. If IDNA fails, the
//! host falls back to the general rule and the result carries a
//! [`MapWarning::Idna`] with the reason — never a panic, never a host that
//! silently means something else.
//!
//! One consequence of §3.4.2 worth knowing: under [`HostMapping::Idna`], a
//! URI whose host is percent-encoded UTF-8 (`http://r%C3%A9sum%C3%A9.example.org`)
//! is *not* left alone but converted to its punycode form, because that is
//! what §3.4.2 asks for. Use [`HostMapping::PercentEncode`] for a strict
//! identity on such URIs.
//!
//! # Queries in legacy documents (§3.5)
//!
//! For the schemes `http` and `https` (any case), when the caller says the
//! IRI comes from a document whose charset is not UCS-based
//! ([`UriOptions::query_encoding`]), the non-ASCII characters of the query —
//! only the query, never the path, fragment or another scheme's query — are
//! encoded in that charset before `%HH`, as browsers do with form
//! submissions. A character the charset cannot encode becomes
//! `%26%23NNNN%3B`, the percent-encoded decimal reference `&#NNNN;` that
//! browsers send, and the result carries a [`MapWarning::QueryUnmappable`].
//! "UCS-based" means UTF-8, UTF-16LE and UTF-16BE (and the WHATWG
//! `replacement` encoding): exactly the encodings whose
//! [output encoding](encoding_rs::Encoding::output_encoding) is UTF-8.
//!
//! Legal ASCII characters and existing `%HH` in the query stay as they are;
//! each maximal run of non-ASCII characters is encoded by a fresh encoder
//! that is finished at the end of the run. For a stateful charset such as
//! ISO-2022-JP this means each run starts with its escape sequence and ends
//! with the switch back to ASCII (`ESC ( B`), all percent-encoded, so the
//! ASCII characters around the run — and the `&#NNNN;` of an unmappable
//! character, before which the encoder also returns to ASCII — are read as
//! ASCII by a decoder. Every octet the charset produces for a non-ASCII
//! character is percent-encoded, also octets in the ASCII range (trail bytes
//! of Shift_JIS, the escape sequences of ISO-2022-JP): §3.3 step 2 encodes
//! "each octet of this sequence".
//!
//! # Idempotence, performance
//!
//! The output is ASCII, and mapping it again changes nothing:
//! `to_uri(to_uri(x)) == to_uri(x)` (a property test checks this on
//! arbitrary strings). The mapping is linear in the input. When the input is
//! already a URI that needs no change, [`to_uri`] returns it borrowed
//! (`Cow::Borrowed`) after one pass over the bytes, without allocating;
//! [`to_uri_into`] writes into a buffer the caller reuses.

use std::borrow::Cow;
use std::fmt;

use encoding_rs::{EncoderResult, Encoding};

use crate::chars::ascii::{URI, ascii_is};
use crate::iri::components::Components;
use crate::iri::host_mapping::{self, HostMapping, IdnaFailure};
use crate::iri::percent::{is_triplet, push_pct, push_pct_bytes};

/// Options of the IRI → URI mapping, built in the builder style.
///
/// The default maps hosts with IDNA ([`HostMapping::Idna`]) and encodes
/// queries in UTF-8.
///
/// ```
/// use iriscan::{to_uri, HostMapping, UriOptions};
///
/// let opts = UriOptions::new()
///     .host_mapping(HostMapping::Idna)
///     .query_encoding(encoding_rs::SHIFT_JIS);
/// let m = to_uri("http://example.jp/検索?q=東京", &opts);
/// assert_eq!(m.uri, "http://example.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UriOptions {
    host: HostMapping,
    query_encoding: Option<&'static Encoding>,
}

impl UriOptions {
    /// The default options: IDNA hosts, UTF-8 queries.
    pub fn new() -> UriOptions {
        UriOptions::default()
    }

    /// How to map a host that is not ASCII (§3.4). Default
    /// [`HostMapping::Idna`].
    pub fn host_mapping(mut self, host: HostMapping) -> UriOptions {
        self.host = host;
        self
    }

    /// The charset of the document the IRI comes from, for the query of
    /// `http`/`https` IRIs (§3.5). `None` (the default), or a UCS-based
    /// encoding (UTF-8, UTF-16LE, UTF-16BE), means UTF-8.
    ///
    /// Accepts `&'static Encoding` or `Option<&'static Encoding>`.
    pub fn query_encoding(mut self, encoding: impl Into<Option<&'static Encoding>>) -> UriOptions {
        self.query_encoding = encoding.into();
        self
    }

    /// The host mapping set with [`UriOptions::host_mapping`].
    pub fn host_mapping_method(&self) -> HostMapping {
        self.host
    }

    /// The document charset set with [`UriOptions::query_encoding`].
    pub fn document_encoding(&self) -> Option<&'static Encoding> {
        self.query_encoding
    }

    /// The charset the query of an `http`/`https` IRI is encoded in, if it
    /// is not UTF-8: the document charset's output encoding (§3.5; the
    /// WHATWG "get an output encoding" maps UTF-16 and `replacement` to
    /// UTF-8).
    fn legacy_query_encoding(&self) -> Option<&'static Encoding> {
        self.query_encoding
            .map(Encoding::output_encoding)
            .filter(|e| *e != encoding_rs::UTF_8)
    }
}

/// The result of [`to_uri`]: the URI, and what could not be mapped as asked.
///
/// `uri` borrows the input when the input is already a URI that the mapping
/// leaves unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapped<'a> {
    /// The URI: ASCII only.
    pub uri: Cow<'a, str>,
    /// Where the mapping had to deviate from what the options asked, in the
    /// order of the input. Empty in the common case (no allocation).
    pub warnings: Vec<MapWarning>,
}

impl fmt::Display for Mapped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uri)
    }
}

/// Something the IRI → URI mapping could not do as asked. The URI is still
/// produced (by the fallback each variant names).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapWarning {
    /// The host could not be converted with IDNA (§3.4.2); it was
    /// percent-encoded instead (§3.4.1).
    Idna {
        /// The host as it appears in the IRI.
        host: String,
        /// Byte offset of the host in the IRI.
        at: usize,
        /// Why IDNA failed.
        reason: IdnaFailure,
    },
    /// Characters of an `http`/`https` query that the document charset
    /// cannot encode (§3.5) were written as percent-encoded decimal
    /// character references `%26%23NNNN%3B` (`&#NNNN;`), as browsers do.
    QueryUnmappable {
        /// The charset the query was encoded in.
        encoding: &'static Encoding,
        /// The characters that were written as references, in order.
        characters: String,
        /// Byte offset in the IRI of the first of them.
        at: usize,
    },
}

impl fmt::Display for MapWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapWarning::Idna { host, at, reason } => write!(
                f,
                "host {host:?} at byte {at} is percent-encoded: IDNA failed: {reason}"
            ),
            MapWarning::QueryUnmappable {
                encoding,
                characters,
                at,
            } => write!(
                f,
                "query characters {characters:?} (first at byte {at}) are not in {} \
                 and were written as &#NNNN; references",
                encoding.name()
            ),
        }
    }
}

/// Maps an IRI (or IRI reference, or any string) to a URI (RFC 3987bis §3).
///
/// Splits the input into components ([`Components::split`]) and maps each
/// (§3.3): every character not allowed in a URI becomes `%HH` (upper-case)
/// of its UTF-8 octets — non-ASCII, controls, space, `"` `<` `>` `\` `^`
/// `` ` `` `{` `|` `}`, and `[` `]` outside an IP-literal host; a `%` that
/// does not start a `%HH` triplet becomes `%25`; existing triplets are
/// left untouched. The host follows [`UriOptions::host_mapping`] (§3.4:
/// IDNA by default, ASCII hosts left as they are); the query of
/// `http`/`https` IRIs follows [`UriOptions::query_encoding`] (§3.5). The
/// result is ASCII, and mapping it again changes nothing.
///
/// Never fails: where IDNA fails or the document charset cannot encode a
/// query character, the [`Mapped`] result says so in its warnings. Returns
/// the input borrowed when it is already a URI the mapping leaves as is.
///
/// ```
/// use iriscan::{to_uri, UriOptions};
///
/// let m = to_uri("http://www.example.org/red%09rosé#red", &UriOptions::new());
/// assert_eq!(m.uri, "http://www.example.org/red%09ros%C3%A9#red");
///
/// // Already a URI: nothing to do, nothing allocated.
/// let m = to_uri("http://example.org/a%20b", &UriOptions::new());
/// assert!(matches!(m.uri, std::borrow::Cow::Borrowed(_)));
/// ```
pub fn to_uri<'a>(iri: &'a str, opts: &UriOptions) -> Mapped<'a> {
    if is_unchanged_fast(iri, opts) {
        return Mapped {
            uri: Cow::Borrowed(iri),
            warnings: Vec::new(),
        };
    }
    let mut out = String::with_capacity(iri.len() + iri.len() / 2 + 8);
    let warnings = to_uri_into(iri, opts, &mut out);
    let uri = if out == iri {
        Cow::Borrowed(iri)
    } else {
        Cow::Owned(out)
    };
    Mapped { uri, warnings }
}

/// Like [`to_uri`], but appends the URI to `out` (which is not cleared) and
/// returns the warnings. For callers that map many IRIs into one reusable
/// buffer.
///
/// ```
/// use iriscan::{to_uri_into, UriOptions};
///
/// let mut buf = String::new();
/// for iri in ["http://a.example/ä", "http://b.example/ö"] {
///     buf.clear();
///     let warnings = to_uri_into(iri, &UriOptions::new(), &mut buf);
///     assert!(warnings.is_empty());
///     assert!(buf.is_ascii());
/// }
/// assert_eq!(buf, "http://b.example/%C3%B6");
/// ```
pub fn to_uri_into(iri: &str, opts: &UriOptions, out: &mut String) -> Vec<MapWarning> {
    let mut warnings = Vec::new();
    let c = Components::split(iri);
    let mut pos = 0;
    if let Some(h) = &c.host {
        push_general(&iri[pos..h.start], out);
        let host = &iri[h.clone()];
        match opts.host {
            HostMapping::PercentEncode => push_host_percent_encoded(host, out),
            HostMapping::Idna => {
                if let Err(reason) = push_host_idna(host, out) {
                    warnings.push(MapWarning::Idna {
                        host: host.to_owned(),
                        at: h.start,
                        reason,
                    });
                }
            }
        }
        pos = h.end;
    }
    if let (Some(q), Some(enc)) = (&c.query, opts.legacy_query_encoding())
        && c.scheme.as_ref().is_some_and(|s| {
            let s = &iri[s.clone()];
            s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https")
        })
    {
        push_general(&iri[pos..q.start], out);
        push_query_legacy(&iri[q.clone()], q.start, enc, out, &mut warnings);
        pos = q.end;
    }
    // A `#` inside the fragment (a Legacy Extended IRI's, docs/rules.md
    // §1.2) is `%23` in the URI: the fragment is what follows the first.
    if let Some(f) = &c.fragment
        && f.start >= pos
        && memchr::memchr(b'#', iri[f.clone()].as_bytes()).is_some()
    {
        push_general(&iri[pos..f.start], out);
        for (k, piece) in iri[f.clone()].split('#').enumerate() {
            if k > 0 {
                out.push_str("%23");
            }
            push_general(piece, out);
        }
        pos = f.end;
    }
    push_general(&iri[pos..], out);
    warnings
}

/// True when the mapping certainly returns the input unchanged: only URI
/// characters and `%HH` triplets, `[`/`]` only around an IP-literal host,
/// and (under IDNA) no triplet of a non-ASCII octet in the host, which
/// §3.4.2 would convert. One pass over the bytes, plus the (allocation-free)
/// component split when brackets or such triplets occur. Anything else
/// takes the full path, which may still find nothing to change.
fn is_unchanged_fast(iri: &str, opts: &UriOptions) -> bool {
    let b = iri.as_bytes();
    let (mut brackets, mut high_triplets, mut hashes) = (false, false, 0);
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if x == b'%' {
            if !is_triplet(b, i) {
                return false;
            }
            // %8x–%Fx (hex digits 8, 9, A–F, a–f are all >= '8').
            high_triplets |= b[i + 1] >= b'8';
            i += 3;
            continue;
        }
        if !ascii_is(x, URI) {
            return false;
        }
        brackets |= x == b'[' || x == b']';
        hashes += usize::from(x == b'#');
        i += 1;
    }
    // A second `#` is encoded (in the fragment).
    if hashes > 1 {
        return false;
    }
    let idna_matters = high_triplets && opts.host == HostMapping::Idna;
    if !brackets && !idna_matters {
        return true;
    }
    let c = Components::split(iri);
    let host = c.host.unwrap_or(0..0);
    let h = &iri[host.clone()];
    if idna_matters && !is_ip_literal(h) && h.bytes().any(|x| x == b'%') {
        return false;
    }
    if brackets {
        // Every bracket must be one of the two delimiting an IP-literal.
        let ip = is_ip_literal(h);
        return memchr::memchr2_iter(b'[', b']', b)
            .all(|k| ip && (k == host.start || k == host.end - 1));
    }
    true
}

/// The general rule of §3.3 on one stretch of the IRI that is not an
/// IP-literal host: copy URI characters and `%HH` triplets, percent-encode
/// the UTF-8 octets of everything else, `[` and `]` and a lone `%` included
/// (see the module docs for why).
pub(crate) fn push_general(s: &str, out: &mut String) {
    let b = s.as_bytes();
    let mut start = 0; // start of the run copied verbatim
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if x == b'%' && is_triplet(b, i) {
            i += 3;
            continue;
        }
        if ascii_is(x, URI) && !matches!(x, b'%' | b'[' | b']') {
            i += 1;
            continue;
        }
        // The run before `i` is ASCII (a non-ASCII character's octets are
        // all encoded one after the other), so `start` is a char boundary.
        if start < i {
            out.push_str(&s[start..i]);
        }
        // Non-ASCII: the string is UTF-8, so encoding each of its octets
        // is exactly "convert to UTF-8, then %HH" (§3.3).
        push_pct(out, x);
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
}

/// Whether a host is an IP-literal (RFC 3986 §3.2.2): `[` … `]`. Only then
/// are its brackets delimiters; IDNA never applies to it.
pub(crate) fn is_ip_literal(host: &str) -> bool {
    host.len() >= 2 && host.starts_with('[') && host.ends_with(']')
}

/// §3.4.1, and the general rule for IP-literals: the brackets of an
/// IP-literal stay, everything else follows §3.3.
fn push_host_percent_encoded(host: &str, out: &mut String) {
    if is_ip_literal(host) {
        out.push('[');
        push_general(&host[1..host.len() - 1], out);
        out.push(']');
    } else {
        push_general(host, out);
    }
}

/// §3.4.2: IDNA for a reg-name that needs it; the general rule otherwise
/// and as the fallback when IDNA fails.
fn push_host_idna(host: &str, out: &mut String) -> Result<(), IdnaFailure> {
    if is_ip_literal(host) {
        push_host_percent_encoded(host, out);
        return Ok(());
    }
    match host_mapping::idna_host(host) {
        Ok(Cow::Borrowed(_)) => {
            push_general(host, out);
            Ok(())
        }
        Ok(Cow::Owned(ascii)) => {
            out.push_str(&ascii);
            Ok(())
        }
        Err(reason) => {
            push_general(host, out);
            Err(reason)
        }
    }
}

/// §3.5: the query of an `http`/`https` IRI from a document in the legacy
/// charset `enc`. ASCII follows the general rule; each maximal run of
/// non-ASCII characters goes through a fresh encoder, finished at the end
/// of the run, and every octet it produces is percent-encoded.
fn push_query_legacy(
    q: &str,
    at: usize,
    enc: &'static Encoding,
    out: &mut String,
    warnings: &mut Vec<MapWarning>,
) {
    let b = q.as_bytes();
    let mut unmappable = String::new();
    let mut first_unmappable = 0;
    let mut i = 0;
    while i < b.len() {
        let ascii_end = b[i..]
            .iter()
            .position(|&x| x >= 0x80)
            .map_or(b.len(), |k| i + k);
        push_general(&q[i..ascii_end], out);
        i = ascii_end;
        if i == b.len() {
            break;
        }
        let run_end = b[i..]
            .iter()
            .position(|&x| x < 0x80)
            .map_or(b.len(), |k| i + k);
        let run = &q[i..run_end];
        let mut encoder = enc.new_encoder();
        // Large enough for any character plus the escape sequences of a
        // stateful encoding, so every call makes progress.
        let mut buf = [0u8; 64];
        let mut src = run;
        loop {
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(src, &mut buf, true);
            push_pct_bytes(out, &buf[..written]);
            src = &src[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::OutputFull => {}
                EncoderResult::Unmappable(c) => {
                    // The encoder has already returned to its initial
                    // (ASCII) state before reporting `c`, so the reference
                    // is read as ASCII.
                    out.push_str("%26%23");
                    out.push_str(&(c as u32).to_string());
                    out.push_str("%3B");
                    if unmappable.is_empty() {
                        first_unmappable = at + i + (run.len() - src.len()) - c.len_utf8();
                    }
                    unmappable.push(c);
                }
            }
        }
        i = run_end;
    }
    if !unmappable.is_empty() {
        warnings.push(MapWarning::QueryUnmappable {
            encoding: enc,
            characters: unmappable,
            at: first_unmappable,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(s: &str) -> String {
        to_uri(s, &UriOptions::new()).uri.into_owned()
    }

    #[test]
    fn uri_ascii_table_is_rfc3986_section_2() {
        let not: Vec<u8> = (0u8..0x80).filter(|&b| !ascii_is(b, URI)).collect();
        let mut expected: Vec<u8> = (0u8..0x20).collect();
        expected.extend_from_slice(b" \"<>\\^`{|}\x7F");
        expected.sort();
        assert_eq!(not, expected);
    }

    #[test]
    fn lone_percent_becomes_pct25_and_triplets_stay() {
        assert_eq!(map("/a%/b%4/c%4g/%41%e9"), "/a%25/b%254/c%254g/%41%e9");
        assert_eq!(map("%"), "%25");
        assert_eq!(map("%%41"), "%25%41");
    }

    #[test]
    fn brackets_outside_ip_literal_are_encoded() {
        assert_eq!(
            map("http://[::1]:80/a[]=1?b[c]#[d]"),
            "http://[::1]:80/a%5B%5D=1?b%5Bc%5D#%5Bd%5D"
        );
        assert_eq!(map("http://[::1/x"), "http://%5B::1/x");
        assert_eq!(map("//u[s]@[v1.x]"), "//u%5Bs%5D@[v1.x]");
    }

    #[test]
    fn illegal_ascii_is_encoded() {
        assert_eq!(
            map("/a b<c>\"{|}\\^`\u{7F}\t"),
            "/a%20b%3Cc%3E%22%7B%7C%7D%5C%5E%60%7F%09"
        );
    }

    #[test]
    fn fast_path_borrows_only_when_unchanged() {
        let o = UriOptions::new();
        assert!(matches!(to_uri("http://a/b?c#d", &o).uri, Cow::Borrowed(_)));
        assert!(matches!(to_uri("http://[::1]/", &o).uri, Cow::Borrowed(_)));
        assert!(matches!(
            to_uri("http://a/%C3%A9", &o).uri,
            Cow::Borrowed(_)
        ));
        assert!(matches!(to_uri("http://a/é", &o).uri, Cow::Owned(_)));
        assert_eq!(to_uri("http://%C3%A9.com/", &o).uri, "http://xn--9ca.com/");
        let p = UriOptions::new().host_mapping(HostMapping::PercentEncode);
        assert!(matches!(
            to_uri("http://%C3%A9.com/", &p).uri,
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn to_uri_into_appends() {
        let mut s = String::from(">");
        to_uri_into("é", &UriOptions::new(), &mut s);
        assert_eq!(s, ">%C3%A9");
    }
}
