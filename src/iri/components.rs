//! The five components of an IRI reference, as byte ranges into one string.
//!
//! This is the cheap first step of every operation on an IRI: the split of
//! RFC 3986 Appendix B (`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`),
//! which succeeds on *any* string, followed by the split of the authority
//! into userinfo, host and port. Validation ([`crate::parse`]) finds the
//! same pieces in the walk that checks them against their ABNF rules, and
//! splits only to build an error; mapping checks nothing and simply
//! works per component (RFC 3987bis §3.3: the mapping "is defined for all
//! sequences of Unicode characters, whether or not they are valid for the
//! component in question").
//!
//! Like rust-url and oxiri, we keep one string plus offsets rather than one
//! allocation per component. The split is one walk over the bytes, which
//! skips eight at a time while none of them is a delimiter.

use std::ops::Range;

use crate::chars::ascii::{ASCII, AT, COLON, HASH, QMARK, SLASH};
use crate::chars::byte_search::find_byte;

/// Byte ranges of the components of an IRI reference within its string.
///
/// Every range excludes the punctuation that delimits it: `scheme` excludes
/// the `:`, `authority` the leading `//`, `query` the `?`, `fragment` the
/// `#`, `userinfo` the `@` and `port` its `:`. `None` means the component is
/// absent; `Some(empty range)` means present but empty (`http://a/?` has an
/// empty query, `http://a/` has none).
///
/// ```
/// use iriscan::Components;
/// let s = "http://user@例え.jp:8080/p?q#f";
/// let c = Components::split(s);
/// assert_eq!(&s[c.scheme.clone().unwrap()], "http");
/// assert_eq!(&s[c.userinfo.clone().unwrap()], "user");
/// assert_eq!(&s[c.host.clone().unwrap()], "例え.jp");
/// assert_eq!(&s[c.port.clone().unwrap()], "8080");
/// assert_eq!(&s[c.path.clone()], "/p");
/// assert_eq!(&s[c.query.clone().unwrap()], "q");
/// assert_eq!(&s[c.fragment.clone().unwrap()], "f");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Components {
    /// The scheme, without its `:`.
    pub scheme: Option<Range<usize>>,
    /// The authority, without the leading `//`.
    pub authority: Option<Range<usize>>,
    /// The userinfo inside the authority, without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// The host inside the authority (with the brackets of an IP-literal).
    /// Present (possibly empty) whenever the authority is.
    pub host: Option<Range<usize>>,
    /// The port inside the authority, without its `:`.
    pub port: Option<Range<usize>>,
    /// The path; always present, possibly empty.
    pub path: Range<usize>,
    /// The query, without its `?`.
    pub query: Option<Range<usize>>,
    /// The fragment, without its `#`.
    pub fragment: Option<Range<usize>>,
}

impl Components {
    /// Splits any string into components (RFC 3986 Appendix B, then the
    /// authority into userinfo, host and port). Never fails; whether the
    /// parts are valid is for [`crate::parse`] to say.
    ///
    /// The userinfo ends at the *last* `@` of the authority, the port starts
    /// at the last `:` after the host (after the `]` of an IP-literal).
    pub fn split(s: &str) -> Components {
        let b = s.as_bytes();
        let mut c = Components::default();
        // scheme: a non-empty run without ":/?#" followed by ":".
        let mut pos = 0;
        let i = find_class(b, 0, COLON | SLASH | QMARK | HASH);
        if i > 0 && b.get(i) == Some(&b':') {
            c.scheme = Some(0..i);
            pos = i + 1;
        }
        if b[pos..].starts_with(b"//") {
            pos = c.split_authority(b, pos + 2);
        }
        let path_end = find_class(b, pos, QMARK | HASH);
        c.path = pos..path_end;
        pos = path_end;
        if b.get(pos) == Some(&b'?') {
            let end = find_class(b, pos + 1, HASH);
            c.query = Some(pos + 1..end);
            pos = end;
        }
        if b.get(pos) == Some(&b'#') {
            c.fragment = Some(pos + 1..b.len());
        }
        c
    }

    /// Splits the authority that starts at `start` and returns its end,
    /// in one walk to its end that notes its last `@` and the last `:`
    /// after it.
    fn split_authority(&mut self, b: &[u8], start: usize) -> usize {
        let (mut at, mut colon) = (None, None);
        let mut end = start;
        loop {
            // On to the next '@' or ':', or to the end ("/?#").
            end = find_class(b, end, AT | COLON | SLASH | QMARK | HASH);
            match b.get(end) {
                Some(b'@') => (at, colon) = (Some(end), None),
                Some(b':') => colon = Some(end),
                _ => break,
            }
            end += 1;
        }
        self.authority = Some(start..end);
        let host_start = match at {
            Some(at) => {
                self.userinfo = Some(start..at);
                at + 1
            }
            None => start,
        };
        // The port separator is the last ':' after the host; inside an
        // IP-literal the colons belong to the address.
        if b.get(host_start) == Some(&b'[') {
            let after_literal =
                find_byte(b']', &b[host_start..end]).map_or(end, |i| host_start + i + 1);
            colon = colon.filter(|&c| c >= after_literal);
        }
        match colon {
            Some(colon) => {
                self.host = Some(host_start..colon);
                self.port = Some(colon + 1..end);
            }
            None => self.host = Some(host_start..end),
        }
        end
    }

    /// The end of the hierarchical part: where the query or fragment (with
    /// its delimiter) starts, or the end of the string.
    pub fn hier_end(&self) -> usize {
        match (&self.query, &self.fragment) {
            (Some(q), _) => q.start - 1,
            (None, Some(f)) => f.start - 1,
            (None, None) => self.path.end,
        }
    }
}

/// The offset of the first byte from `from` on that is in the ASCII class
/// `mask`, or the length of `b`. Eight bytes at a time while none of them
/// is in it (the OR of their classes has none of its bits), then one at a
/// time.
#[inline(always)]
fn find_class(b: &[u8], from: usize, mask: u32) -> usize {
    let class = |x: &u8| ASCII[usize::from(*x)];
    let mut i = from;
    while let Some(w) = b[i..].first_chunk::<8>()
        && w.iter().fold(0, |any, x| any | class(x)) & mask == 0
    {
        i += 8;
    }
    while let Some(x) = b.get(i)
        && class(x) & mask == 0
    {
        i += 1;
    }
    i
}

/// [`Components`] in 28 bytes instead of 184: where each component ends,
/// the starts following from the delimiters. A hit keeps them, so that its
/// IRI is not parsed again when asked for its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackedComponents {
    /// [`ABSENT`] for each absent component.
    pub(super) scheme_end: u32,
    pub(super) authority_end: u32,
    pub(super) userinfo_end: u32,
    /// Meaningful with an authority; before its end when there is a port.
    pub(super) host_end: u32,
    pub(super) path_end: u32,
    pub(super) query_end: u32,
    /// Whether there is a fragment (it ends where the string does).
    pub(super) fragment: bool,
}

/// The end of an absent component.
pub(super) const ABSENT: u32 = u32::MAX;

impl PackedComponents {
    /// Every component absent and an empty path: where the one-pass walk
    /// ([`crate::iri::walk`]) starts, writing each end as it finds it.
    pub(super) const NONE: PackedComponents = PackedComponents {
        scheme_end: ABSENT,
        authority_end: ABSENT,
        userinfo_end: ABSENT,
        host_end: ABSENT,
        path_end: 0,
        query_end: ABSENT,
        fragment: false,
    };

    /// Packs the components of a string of `len` bytes, as
    /// [`Components::split`] gives them; `None` for a string too long for
    /// 32-bit offsets.
    pub(crate) fn pack(c: &Components, len: usize) -> Option<PackedComponents> {
        if len >= ABSENT as usize {
            return None;
        }
        let end = |r: &Option<Range<usize>>| r.as_ref().map_or(ABSENT, |r| r.end as u32);
        let packed = PackedComponents {
            scheme_end: end(&c.scheme),
            authority_end: end(&c.authority),
            userinfo_end: end(&c.userinfo),
            host_end: end(&c.host),
            path_end: c.path.end as u32,
            query_end: end(&c.query),
            fragment: c.fragment.is_some(),
        };
        debug_assert_eq!(packed.unpack(len), *c);
        Some(packed)
    }

    /// The components of a plain link's IRI, found without validating it:
    /// the IRI is a scheme of `scheme_len` bytes, `://`, then `rest` — a
    /// host without userinfo or port, then nothing or a path from `/`, a
    /// query or a fragment (at most one `#`). So the authority ends at the
    /// first `/`, `?` or `#` of `rest`, the path at the next `?` or `#`,
    /// the query at the `#` after it, and the host is the authority: the
    /// ends [`Components::split`] gives, and the validator's for a valid
    /// IRI. `rest` is searched, never the IRI, so that a `www.` link's IRI
    /// (`http://` and the text) need not be built. `None` for an IRI too
    /// long for 32-bit offsets, as [`PackedComponents::pack`].
    ///
    /// The caller knows the link plain ([`Candidate::proven_valid`]); a
    /// debug assertion where it is called holds the answer to the
    /// validator's.
    ///
    /// [`Candidate::proven_valid`]: crate::find::scanner::Candidate::proven_valid
    #[inline]
    pub(crate) fn of_plain_link(scheme_len: usize, rest: &[u8]) -> Option<PackedComponents> {
        let base = scheme_len + "://".len();
        let len = base + rest.len();
        if len >= ABSENT as usize {
            return None;
        }
        let authority_end = find_class(rest, 0, SLASH | QMARK | HASH);
        let path_end = find_class(rest, authority_end, QMARK | HASH);
        let at = |i: usize| (base + i) as u32;
        let (query_end, fragment) = match rest.get(path_end) {
            Some(b'?') => {
                let end = find_class(rest, path_end + 1, HASH);
                (at(end), end < rest.len())
            }
            Some(_) => (ABSENT, true),
            None => (ABSENT, false),
        };
        Some(PackedComponents {
            scheme_end: scheme_len as u32,
            authority_end: at(authority_end),
            userinfo_end: ABSENT,
            host_end: at(authority_end),
            path_end: at(path_end),
            query_end,
            fragment,
        })
    }

    /// The components of the string of `len` bytes they were packed from.
    pub(crate) fn unpack(&self, len: usize) -> Components {
        let present = |end: u32| (end != ABSENT).then_some(end as usize);
        let scheme_end = present(self.scheme_end);
        let after_scheme = scheme_end.map_or(0, |e| e + 1);
        let mut c = Components {
            scheme: scheme_end.map(|e| 0..e),
            ..Components::default()
        };
        let mut path_start = after_scheme;
        if let Some(auth_end) = present(self.authority_end) {
            let auth_start = after_scheme + 2;
            let host_end = self.host_end as usize;
            c.authority = Some(auth_start..auth_end);
            c.userinfo = present(self.userinfo_end).map(|e| auth_start..e);
            let host_start = present(self.userinfo_end).map_or(auth_start, |e| e + 1);
            c.host = Some(host_start..host_end);
            c.port = (host_end < auth_end).then(|| host_end + 1..auth_end);
            path_start = auth_end;
        }
        let path_end = self.path_end as usize;
        c.path = path_start..path_end;
        let query_end = present(self.query_end);
        c.query = query_end.map(|e| path_end + 1..e);
        if self.fragment {
            c.fragment = Some(query_end.unwrap_or(path_end) + 1..len);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> [Option<&str>; 8] {
        let c = Components::split(s);
        let g = |r: &Option<Range<usize>>| r.clone().map(|r| &s[r]);
        [
            g(&c.scheme),
            g(&c.authority),
            g(&c.userinfo),
            g(&c.host),
            g(&c.port),
            Some(&s[c.path.clone()]),
            g(&c.query),
            g(&c.fragment),
        ]
    }

    #[test]
    fn rfc3986_appendix_b_example() {
        assert_eq!(
            parts("http://www.ics.uci.edu/pub/ietf/uri/#Related"),
            [
                Some("http"),
                Some("www.ics.uci.edu"),
                None,
                Some("www.ics.uci.edu"),
                None,
                Some("/pub/ietf/uri/"),
                None,
                Some("Related")
            ]
        );
    }

    #[test]
    fn empty_and_absent_components_differ() {
        let p = parts("http://a/?#");
        assert_eq!(p[6], Some(""));
        assert_eq!(p[7], Some(""));
        let p = parts("http://a/");
        assert_eq!(p[6], None);
        assert_eq!(p[7], None);
        let p = parts("file:///etc");
        assert_eq!((p[1], p[3], p[5]), (Some(""), Some(""), Some("/etc")));
    }

    #[test]
    fn ip_literal_colons_are_not_the_port() {
        let p = parts("http://[::1]:8080/x");
        assert_eq!((p[3], p[4]), (Some("[::1]"), Some("8080")));
        let p = parts("http://[::1]/x");
        assert_eq!((p[3], p[4]), (Some("[::1]"), None));
        let p = parts("ldap://[2001:db8::7]/c=GB?objectClass?one");
        assert_eq!(
            (p[3], p[6]),
            (Some("[2001:db8::7]"), Some("objectClass?one"))
        );
    }

    #[test]
    fn userinfo_ends_at_last_at_sign() {
        let p = parts("ftp://a@b:c@host:21");
        assert_eq!(
            (p[2], p[3], p[4]),
            (Some("a@b:c"), Some("host"), Some("21"))
        );
    }

    #[test]
    fn relative_references_have_no_scheme() {
        assert_eq!(parts("//a/b")[0], None);
        assert_eq!(parts("a/b:c")[0], None);
        assert_eq!(parts(":a")[0], None);
        assert_eq!(parts("?q")[6], Some("q"));
        assert_eq!(parts("")[5], Some(""));
    }

    #[test]
    fn urn_and_mailto_have_rootless_paths() {
        assert_eq!(parts("urn:isbn:0451450523")[5], Some("isbn:0451450523"));
        assert_eq!(parts("mailto:a@b.c")[5], Some("a@b.c"));
        assert_eq!(parts("mailto:a@b.c")[1], None);
    }

    #[test]
    fn packed_components_unpack_to_the_split() {
        // Every combination of present, absent and empty components, and
        // a pseudo-random sweep over the delimiters.
        let mut strings: Vec<String> = Vec::new();
        for scheme in ["", "s:", "http:"] {
            for auth in [
                "",
                "//",
                "//h",
                "//u@h",
                "//@",
                "//h:",
                "//h:80",
                "//u:p@[::1]:8",
                "//[v1.x]",
            ] {
                for path in ["", "/", "/a/b", "a", "a:b"] {
                    for query in ["", "?", "?q=1", "?a?b"] {
                        for frag in ["", "#", "#f", "#a#b"] {
                            strings.push(format!("{scheme}{auth}{path}{query}{frag}"));
                        }
                    }
                }
            }
        }
        let pieces = [":", "/", "//", "?", "#", "@", "[", "]", "a", "é", "1", ""];
        let mut x = 0x2545_f491_u32;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(x % 9) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                s.push_str(pieces[(x % pieces.len() as u32) as usize]);
            }
            x = x.wrapping_add(1);
            strings.push(s);
        }
        for s in &strings {
            let c = Components::split(s);
            let packed = PackedComponents::pack(&c, s.len()).expect("short");
            assert_eq!(packed.unpack(s.len()), c, "{s:?}");
        }
    }

    /// A plain link's components found by searching for the delimiters
    /// are those of the split, for every shape of link: no path, an empty
    /// or longer path, a query or fragment, empty or not, `?` in the
    /// fragment, long ones; with the scheme and `://` in the text, or
    /// `http://` before a `www.` text.
    #[test]
    fn plain_link_components_are_the_split() {
        let path = "/p".repeat(40);
        let mut links = Vec::new();
        for host in ["a", "example.com", "www.example.org", "ex%41mple.com"] {
            for path in ["", "/", "/a/b", "/東京", path.as_str()] {
                for query in ["", "?", "?q=1&r", "?a?b", "?/x"] {
                    for fragment in ["", "#", "#f", "#a?b/c"] {
                        links.push(format!("{host}{path}{query}{fragment}"));
                    }
                }
            }
        }
        for rest in &links {
            for scheme in ["http", "https", "ftp", "s"] {
                let iri = format!("{scheme}://{rest}");
                let split = PackedComponents::pack(&Components::split(&iri), iri.len());
                assert_eq!(
                    PackedComponents::of_plain_link(scheme.len(), rest.as_bytes()),
                    split,
                    "{iri:?}"
                );
            }
        }
    }

    /// The split as it was written before the one-walk version: RFC 3986
    /// Appendix B searched delimiter by delimiter, then the authority
    /// searched backwards for its `@` and `:`. The reference the property
    /// test holds [`Components::split`] to.
    fn split_reference(s: &str) -> Components {
        let b = s.as_bytes();
        let mut c = Components::default();
        let mut pos = 0;
        if let Some(i) = b
            .iter()
            .position(|&x| matches!(x, b':' | b'/' | b'?' | b'#'))
            && b[i] == b':'
            && i > 0
        {
            c.scheme = Some(0..i);
            pos = i + 1;
        }
        if b[pos..].starts_with(b"//") {
            let start = pos + 2;
            let end = b[start..]
                .iter()
                .position(|&x| matches!(x, b'/' | b'?' | b'#'))
                .map_or(b.len(), |i| start + i);
            let auth = start..end;
            c.authority = Some(auth.clone());
            let mut host_start = auth.start;
            if let Some(at) = b[auth.clone()].iter().rposition(|&x| x == b'@') {
                c.userinfo = Some(auth.start..auth.start + at);
                host_start = auth.start + at + 1;
            }
            let search_from = if b.get(host_start) == Some(&b'[') {
                b[host_start..auth.end]
                    .iter()
                    .position(|&x| x == b']')
                    .map_or(auth.end, |i| host_start + i + 1)
            } else {
                host_start
            };
            match b[search_from..auth.end].iter().rposition(|&x| x == b':') {
                Some(i) => {
                    let colon = search_from + i;
                    c.host = Some(host_start..colon);
                    c.port = Some(colon + 1..auth.end);
                }
                None => c.host = Some(host_start..auth.end),
            }
            pos = end;
        }
        let path_end = b[pos..]
            .iter()
            .position(|&x| matches!(x, b'?' | b'#'))
            .map_or(b.len(), |i| pos + i);
        c.path = pos..path_end;
        pos = path_end;
        if pos < b.len() && b[pos] == b'?' {
            let end = b[pos..]
                .iter()
                .position(|&x| x == b'#')
                .map_or(b.len(), |i| pos + i);
            c.query = Some(pos + 1..end);
            pos = end;
        }
        if pos < b.len() && b[pos] == b'#' {
            c.fragment = Some(pos + 1..b.len());
        }
        c
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            // PROPTEST_CASES=200000 for a long run.
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// The one-walk split cuts every string where the reference does:
        /// strings of delimiters, IP-literal brackets, letters and
        /// non-ASCII, in any order.
        #[test]
        fn split_agrees_with_the_reference(
            s in prop::collection::vec(
                prop::sample::select(&[
                    ":", "/", "//", "?", "#", "@", "[", "]", "a", "é", "1", "s:", "[::1]", ":8",
                ][..]),
                0..14,
            )
            .prop_map(|v| v.concat())
        ) {
            prop_assert_eq!(Components::split(&s), split_reference(&s), "{:?}", s);
        }
    }

    #[test]
    fn hier_end_points_at_query_or_fragment_delimiter() {
        let s = "http://a/b?c#d";
        assert_eq!(&s[..Components::split(s).hier_end()], "http://a/b");
        let s = "http://a/b#d";
        assert_eq!(&s[..Components::split(s).hier_end()], "http://a/b");
        let s = "http://a/b";
        assert_eq!(Components::split(s).hier_end(), s.len());
    }
}
