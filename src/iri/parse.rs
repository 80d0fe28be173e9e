//! Validation of IRI references against the ABNF of RFC 3987bis §2.2.
//!
//! # Overview
//!
//! [`parse`] checks that a string matches one of the grammar's start rules
//! ([`Rule`]) over one of four character repertoires ([`Syntax`]), and on
//! success returns its [`Components`]. Its grammar is that of the split of
//! [`Components::split`] (RFC 3986 Appendix B, then the authority into
//! userinfo, host and port) with each piece checked against the character
//! class of its ABNF rule: a union of classes of the crate's one table of
//! ASCII bytes, and the [`crate::is_ucschar`] family of range checks for
//! the rest. The split is exactly the grammar's: every delimiter the split
//! stops at (`:` `/` `?` `#` `@` `[` `]`) is one that no component before
//! it may contain, so a string matches the grammar if and only if each
//! piece of the split matches its rule.
//!
//! It is done in two ways:
//!
//! 1. the one pass of [`crate::iri::walk`], which finds the pieces and
//!    checks their bytes in a single walk, and answers only "valid, with
//!    these components" or "invalid": what every valid string costs;
//! 2. for an invalid string, the precise validator here: the split, then
//!    one pass over each component in the grammar's order, which builds the
//!    error (the first fault's position, rule and kind). A property test
//!    holds the two to the same verdicts and components.
//!
//! Both are linear in the length of the string and allocate nothing.
//!
//! ```
//! use iriscan::{parse, Rule, Syntax};
//!
//! let s = "http://例え.jp/引き出し?q=ü#frag";
//! let c = parse(s, Rule::Iri, Syntax::Iri).unwrap();
//! assert_eq!(&s[c.host.unwrap()], "例え.jp");
//!
//! let err = parse("http://example.org/a^b", Rule::Iri, Syntax::Iri).unwrap_err();
//! assert_eq!((err.position(), err.rule()), (20, "ipath-abempty"));
//! assert_eq!(err.to_string(), "invalid character '^' at byte 20 in ipath-abempty");
//!
//! // Running text carries `^`, `{}` and `[]` in real links (docs/rules.md §1.2).
//! assert!(parse("http://example.org/a^b", Rule::Iri, Syntax::Text).is_ok());
//! ```
//!
//! # Errors
//!
//! A [`ParseError`] names the byte offset of the first character that the
//! rule of its component does not allow, and that rule (`"ipath-abempty"`,
//! `"iquery"`, `"port"`, `"IPv6address"`, `"pct-encoded"`, …). For a `%`
//! that does not start a `pct-encoded`, the offset is that of the `%`.
//!
//! One place where the split and the grammar's alternatives meet needs a
//! choice: a string like `1a:b` is split as scheme `1a`, but `1a` is not a
//! scheme. As an `IRI` it fails at the `1`. As an `IRI-reference` it is
//! neither an `IRI` (bad scheme) nor an `irelative-ref` (the first segment
//! of an `ipath-noscheme` cannot contain `:`); we report the alternative
//! that got further, as PEG parsers do: here the `:` at byte 2, in
//! `ipath-noscheme`. (For `a b:c` both fail at the space; we then report the
//! scheme.)
//!
//! # Limitations
//!
//! This is syntax only. Scheme-specific rules (an `http` IRI needs a host),
//! the §5.1 advice against some characters, and DNS rules for host names
//! are not checked here. Under [`Syntax::Iri`] and [`Syntax::Text`] the
//! bidirectional formatting characters are rejected although the ABNF
//! admits them: RFC 3987 §4.1 (moved to the separate Bidi document by
//! 3987bis, whose §6.1 then "lifts" the restriction for LEIRIs only) says
//! IRIs MUST NOT contain them.

use std::fmt;
use std::ops::Range;

use crate::chars::ascii::{
    ASCII, AT, COLON, DIGIT, LEIRI_EXTRA, QMARK, SCHEME, SLASH, SUB_DELIM, TEXT_EXTRA, UNRESERVED,
    UNRESERVED_PUNCT,
};
use crate::chars::end_of_iri::is_bidi_format;
use crate::chars::ucschar::{is_iprivate, is_leiri_ucschar, is_ucschar};
use crate::chars::utf8::decode_at;
use crate::iri::components::{ABSENT, Components, PackedComponents};
use crate::iri::ip_literal::{self, IpFault};
use crate::iri::percent::is_triplet;
#[cfg(test)]
use crate::iri::walk::walk;
use crate::iri::walk::{walk_packed, walk_packed_into};

/// Which ABNF start rule of RFC 3987bis §2.2 to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// `IRI`: a scheme is required, a fragment is allowed.
    Iri,
    /// `IRI-reference`: an `IRI` or an `irelative-ref`.
    IriReference,
    /// `absolute-IRI`: a scheme is required, a fragment is not.
    AbsoluteIri,
}

/// Which character repertoire the grammar runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// RFC 3986: ASCII only.
    Uri,
    /// RFC 3987bis §2.2: `ucschar` where RFC 3986 has `unreserved`,
    /// `iprivate` only in the query; no bidi formatting characters.
    Iri,
    /// Legacy Extended IRIs (§6.1): `ucschar` redefined to include space,
    /// `<>"{}|\^` and backquote, the C0 controls, and every code point from
    /// U+007F up except the surrogates and U+FFFE/U+FFFF. Private use is
    /// allowed everywhere (`iprivate` becomes redundant) and so are the
    /// bidi formatting characters.
    Leiri,
    /// What iriscan accepts in running text (docs/rules.md §1.2, last
    /// paragraph): [`Syntax::Iri`] plus `{` `}` `^` `[` `]` in the userinfo,
    /// path, query and fragment — never in the host or the port — and `#`
    /// inside the fragment, because
    /// real links carry them (`?sourcedoc={guid}`, `q=repo:^src`,
    /// `?a[]=1`). Nothing else of LEIRI: no space, no controls, no private
    /// use outside the query.
    Text,
}

/// What kind of host an authority names (RFC 3986 §3.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// An `ireg-name` (usually a DNS name; possibly empty).
    RegName,
    /// An `IPv4address` in dotted-decimal form.
    Ipv4,
    /// An `IP-literal` holding an `IPv6address`.
    Ipv6,
    /// An `IP-literal` holding an `IPvFuture`.
    IpFuture,
}

/// Classifies a host as found in the `host` range of [`Components`].
///
/// The grammar tries `IP-literal`, then `IPv4address`, then `ireg-name`
/// ("first-match-wins", §2.2), so `192.0.2.1` is an IPv4 address while
/// `999.1.1.1` and `1.2.3` are registered names. The host is expected to be
/// valid; for an invalid one the answer is the form it was written in (a
/// leading `[` makes it an IP-literal).
///
/// ```
/// use iriscan::{host_kind, HostKind};
/// assert_eq!(host_kind("example.org"), HostKind::RegName);
/// assert_eq!(host_kind("192.0.2.1"), HostKind::Ipv4);
/// assert_eq!(host_kind("999.1.1.1"), HostKind::RegName);
/// assert_eq!(host_kind("[2001:db8::7]"), HostKind::Ipv6);
/// assert_eq!(host_kind("[v1.fe:x]"), HostKind::IpFuture);
/// ```
pub fn host_kind(host: &str) -> HostKind {
    let b = host.as_bytes();
    match b.first() {
        Some(b'[') if matches!(b.get(1), Some(b'v' | b'V')) => HostKind::IpFuture,
        Some(b'[') => HostKind::Ipv6,
        _ if ip_literal::is_ipv4(b) => HostKind::Ipv4,
        _ => HostKind::RegName,
    }
}

/// Why a string does not match the grammar: where, in which rule, and what.
///
/// The rule and the fault are enums, to match on; [`rule`](ParseError::rule)
/// and `Display` give their names and a sentence.
///
/// ```
/// use iriscan::{parse_iri, GrammarRule, ParseErrorKind};
/// let e = parse_iri("http://[fe80::1%25eth0]/").unwrap_err();
/// assert_eq!((e.position(), e.rule()), (15, "IPv6address"));
/// assert_eq!(e.grammar_rule(), GrammarRule::Ipv6Address);
/// assert_eq!(e.kind(), ParseErrorKind::InvalidChar('%'));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    position: usize,
    rule: GrammarRule,
    kind: ParseErrorKind,
}

/// The ABNF rule of RFC 3987bis §2.2 (or RFC 3986 §3.2.2 for the IP
/// literals) in which a [`ParseError`] was found: the component at fault.
///
/// ```
/// use iriscan::{parse_iri, GrammarRule};
/// match parse_iri("http://example.org:80a/").unwrap_err().grammar_rule() {
///     GrammarRule::Port => {}
///     other => panic!("{other}"),
/// }
/// assert_eq!(GrammarRule::IPathAbempty.as_str(), "ipath-abempty");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GrammarRule {
    /// `scheme`.
    Scheme,
    /// `iuserinfo`.
    IUserinfo,
    /// `ireg-name`, a host that is not an IP literal.
    IRegName,
    /// `IP-literal`: the brackets around an IPv6 or future address.
    IpLiteral,
    /// `IPv6address`, inside an IP literal.
    Ipv6Address,
    /// `IPvFuture`, inside an IP literal.
    IpvFuture,
    /// `port`.
    Port,
    /// `ipath-abempty`, the path after an authority.
    IPathAbempty,
    /// `ipath-absolute`, a path starting with `/` without an authority.
    IPathAbsolute,
    /// `ipath-rootless`, the path right after a scheme.
    IPathRootless,
    /// `ipath-noscheme`, the path of a relative reference.
    IPathNoscheme,
    /// `iquery`.
    IQuery,
    /// `ifragment`.
    IFragment,
    /// `pct-encoded`: a `%` not followed by two hex digits, in any component.
    PctEncoded,
    /// `absolute-IRI`: a fragment where the rule allows none.
    AbsoluteIri,
}

impl GrammarRule {
    /// The rule's name as spelled in the RFC: `"scheme"`, `"iuserinfo"`,
    /// `"ireg-name"`, `"IP-literal"`, `"IPv6address"`, `"IPvFuture"`,
    /// `"port"`, `"ipath-abempty"`, `"ipath-absolute"`, `"ipath-rootless"`,
    /// `"ipath-noscheme"`, `"iquery"`, `"ifragment"`, `"pct-encoded"`,
    /// `"absolute-IRI"`.
    pub fn as_str(self) -> &'static str {
        match self {
            GrammarRule::Scheme => "scheme",
            GrammarRule::IUserinfo => "iuserinfo",
            GrammarRule::IRegName => "ireg-name",
            GrammarRule::IpLiteral => "IP-literal",
            GrammarRule::Ipv6Address => "IPv6address",
            GrammarRule::IpvFuture => "IPvFuture",
            GrammarRule::Port => "port",
            GrammarRule::IPathAbempty => "ipath-abempty",
            GrammarRule::IPathAbsolute => "ipath-absolute",
            GrammarRule::IPathRootless => "ipath-rootless",
            GrammarRule::IPathNoscheme => "ipath-noscheme",
            GrammarRule::IQuery => "iquery",
            GrammarRule::IFragment => "ifragment",
            GrammarRule::PctEncoded => "pct-encoded",
            GrammarRule::AbsoluteIri => "absolute-IRI",
        }
    }
}

impl fmt::Display for GrammarRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is wrong at the position of a [`ParseError`].
///
/// ```
/// use iriscan::{parse_iri, ParseErrorKind};
/// assert_eq!(parse_iri("http://a/b c").unwrap_err().kind(), ParseErrorKind::InvalidChar(' '));
/// assert_eq!(parse_iri("http://a/%4").unwrap_err().kind(), ParseErrorKind::PercentEncoding);
/// assert_eq!(parse_iri("example.org").unwrap_err().kind(), ParseErrorKind::MissingScheme);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character the rule does not allow at this position.
    InvalidChar(char),
    /// The input (or the component) ends where the rule needs more.
    UnexpectedEnd,
    /// A `%` not followed by two hex digits.
    PercentEncoding,
    /// A bidirectional formatting character (RFC 3987 §4.1).
    Bidi(char),
    /// An IRI without `scheme ":"` where the rule requires one.
    MissingScheme,
    /// A `:` in the first segment of a relative reference.
    NoschemeColon,
    /// An `IP-literal` without its closing `]`.
    MissingBracket,
    /// An `h16` with more than four hex digits.
    H16TooLong,
    /// An IPv6 address with more than eight 16-bit pieces.
    TooManyPieces,
    /// An IPv6 address with fewer than eight pieces and no `::`.
    TooFewPieces,
    /// An IPv6 address with two `::`.
    SecondElision,
}

impl ParseError {
    fn new(position: usize, rule: GrammarRule, kind: ParseErrorKind) -> ParseError {
        ParseError {
            position,
            rule,
            kind,
        }
    }

    /// The byte offset into the parsed string of the character at fault
    /// (the string's length if it ended too early).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The same error placed at another offset: for callers that report
    /// positions in a larger text (a hit's input offset instead of its
    /// offset in the IRI).
    ///
    /// ```
    /// let e = iriscan::parse_iri("http://a/%zz").unwrap_err();
    /// assert_eq!(e.position(), 9);
    /// assert_eq!(e.at(109).to_string(), "'%' at byte 109 is not followed by two hex digits (pct-encoded)");
    /// ```
    pub fn at(mut self, position: usize) -> ParseError {
        self.position = position;
        self
    }

    /// The name of the ABNF rule that failed, as spelled in RFC 3987bis
    /// §2.2 (see [`GrammarRule::as_str`]).
    pub fn rule(&self) -> &'static str {
        self.rule.as_str()
    }

    /// The ABNF rule that failed.
    pub fn grammar_rule(&self) -> GrammarRule {
        self.rule
    }

    /// What is wrong at [`position`](ParseError::position).
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }
}

/// A character as an error message shows it: itself when printable ASCII,
/// else its code point, so that controls and look-alikes are visible.
struct Shown(char);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_ascii_graphic() {
            write!(f, "'{}'", self.0)
        } else {
            write!(f, "U+{:04X}", self.0 as u32)
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, r) = (self.position, self.rule.as_str());
        match self.kind {
            ParseErrorKind::InvalidChar(c) => {
                write!(f, "invalid character {} at byte {p} in {r}", Shown(c))
            }
            ParseErrorKind::UnexpectedEnd => write!(f, "unexpected end at byte {p} in {r}"),
            ParseErrorKind::PercentEncoding => {
                write!(f, "'%' at byte {p} is not followed by two hex digits ({r})")
            }
            ParseErrorKind::Bidi(c) => write!(
                f,
                "bidi formatting character {} at byte {p} in {r} (not allowed in an IRI)",
                Shown(c)
            ),
            ParseErrorKind::MissingScheme => write!(
                f,
                "missing scheme: expected ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" ) \":\", \
                 failed at byte {p}"
            ),
            ParseErrorKind::NoschemeColon => write!(
                f,
                "':' at byte {p} in {r}: the first segment of a relative reference cannot \
                 contain ':', and what precedes it is not a scheme"
            ),
            ParseErrorKind::MissingBracket => write!(f, "missing ']' at byte {p} in {r}"),
            ParseErrorKind::H16TooLong => {
                write!(f, "more than 4 hex digits in a piece at byte {p} in {r}")
            }
            ParseErrorKind::TooManyPieces => write!(
                f,
                "too many pieces at byte {p} in {r} (8 at most, 7 with \"::\")"
            ),
            ParseErrorKind::TooFewPieces => write!(
                f,
                "too few pieces at byte {p} in {r} (8 are needed without \"::\")"
            ),
            ParseErrorKind::SecondElision => write!(f, "second \"::\" at byte {p} in {r}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Validates `s` against `rule` over the repertoire `syntax` and returns
/// its components.
///
/// Linear in `s.len()`, no allocation.
///
/// ```
/// use iriscan::{parse, Rule, Syntax};
///
/// assert!(parse("../a/b?c", Rule::IriReference, Syntax::Iri).is_ok());
/// assert!(parse("../a/b?c", Rule::Iri, Syntax::Iri).is_err());
/// assert!(parse("http://a/b#c", Rule::AbsoluteIri, Syntax::Iri).is_err());
/// assert!(parse("http://a/résumé", Rule::Iri, Syntax::Uri).is_err());
/// assert!(parse("http://a/hello world", Rule::Iri, Syntax::Leiri).is_ok());
/// ```
pub fn parse(s: &str, rule: Rule, syntax: Syntax) -> Result<Components, ParseError> {
    if s.len() < ABSENT as usize
        && let Some(packed) = walk_packed(s, rule, syntax)
    {
        let out = Ok(packed.unpack(s.len()));
        debug_assert_eq!(out, Validator::new(s, syntax).two_pass(rule), "{s:?}");
        return out;
    }
    Validator::new(s, syntax).two_pass(rule)
}

/// [`parse`], with the components packed: what a hit of a scan keeps
/// (`Ok(None)` for a valid string too long to pack, 4 GiB and more). The
/// one-pass walk writes the packed form itself, so a valid string's
/// components are never built as ranges.
pub(crate) fn parse_packed(
    s: &str,
    rule: Rule,
    syntax: Syntax,
) -> Result<Option<PackedComponents>, ParseError> {
    if s.len() >= ABSENT as usize {
        return parse(s, rule, syntax).map(|_| None);
    }
    // Walked into the result in place: moving it costs as much as a
    // short component's walk.
    let mut out = Ok(Some(PackedComponents::NONE));
    if let Ok(Some(packed)) = &mut out
        && walk_packed_into(s, rule, syntax, packed)
    {
        debug_assert_eq!(
            Ok(packed.unpack(s.len())),
            Validator::new(s, syntax).two_pass(rule),
            "{s:?}"
        );
        return out;
    }
    // The walk and the precise validator accept the same strings: this
    // builds the error (a valid answer would be packed all the same).
    Validator::new(s, syntax)
        .two_pass(rule)
        .map(|c| PackedComponents::pack(&c, s.len()))
}

/// Validates an `IRI` (scheme required, fragment allowed) of RFC 3987bis
/// §2.2: [`parse`] with [`Rule::Iri`] and [`Syntax::Iri`].
///
/// ```
/// use iriscan::parse_iri;
/// let s = "https://ja.wikipedia.org/wiki/東京?x#y";
/// let c = parse_iri(s).unwrap();
/// assert_eq!(&s[c.path], "/wiki/東京");
/// assert_eq!(parse_iri("http://a/%4g").unwrap_err().rule(), "pct-encoded");
/// ```
pub fn parse_iri(s: &str) -> Result<Components, ParseError> {
    parse(s, Rule::Iri, Syntax::Iri)
}

/// Validates an `IRI-reference` (an IRI or a relative reference) of RFC
/// 3987bis §2.2: [`parse`] with [`Rule::IriReference`] and [`Syntax::Iri`].
///
/// ```
/// use iriscan::parse_iri_reference;
/// let c = parse_iri_reference("//例え.jp/a?b").unwrap();
/// assert!(c.scheme.is_none() && c.authority.is_some());
/// let e = parse_iri_reference("1a:b").unwrap_err();
/// assert_eq!((e.position(), e.rule()), (2, "ipath-noscheme"));
/// ```
pub fn parse_iri_reference(s: &str) -> Result<Components, ParseError> {
    parse(s, Rule::IriReference, Syntax::Iri)
}

// ASCII character classes: the bits of the crate's ASCII table; a
// component's class is a union of them.

/// `isegment-nz-nc` without `pct-form` and non-ASCII.
const SEGMENT_NC: u32 = UNRESERVED | SUB_DELIM | AT;
/// `ipchar` plus `path-sep`: a whole path after its first segment.
const PATH: u32 = SEGMENT_NC | COLON | SLASH;

/// Which non-ASCII characters a component allows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum NonAscii {
    /// None (scheme, port, IP literals; everything in [`Syntax::Uri`]).
    No,
    /// `ucschar`, without the bidi formatting characters.
    Ucs,
    /// `ucschar / iprivate` (the query), without the bidi formatting characters.
    UcsPrivate,
    /// The LEIRI `ucschar`.
    Leiri,
}

/// The per-syntax classes of the components, and the string they check.
struct Validator<'a> {
    s: &'a str,
    b: &'a [u8],
    /// `iuserinfo`.
    userinfo: u32,
    /// `ireg-name`.
    reg_name: u32,
    /// The first segment of an `ipath-noscheme`.
    segment_nc: u32,
    /// The rest of any path.
    path: u32,
    /// `iquery`.
    query: u32,
    /// `ifragment`: `iquery`'s, and `#` under [`Syntax::Text`].
    fragment: u32,
    /// Non-ASCII in `iunreserved`.
    ucs: NonAscii,
    /// Non-ASCII in `iquery`.
    ucs_query: NonAscii,
}

impl<'a> Validator<'a> {
    fn new(s: &'a str, syntax: Syntax) -> Validator<'a> {
        // `extra` goes wherever `iunreserved` is, except that Text keeps
        // the host strict; LEIRI widens `ucschar`, so it reaches the host.
        let (extra, host_extra, ucs, ucs_query) = match syntax {
            Syntax::Uri => (0, 0, NonAscii::No, NonAscii::No),
            Syntax::Iri => (0, 0, NonAscii::Ucs, NonAscii::UcsPrivate),
            Syntax::Text => (TEXT_EXTRA, 0, NonAscii::Ucs, NonAscii::UcsPrivate),
            Syntax::Leiri => (LEIRI_EXTRA, LEIRI_EXTRA, NonAscii::Leiri, NonAscii::Leiri),
        };
        Validator {
            s,
            b: s.as_bytes(),
            userinfo: UNRESERVED | SUB_DELIM | COLON | extra,
            reg_name: UNRESERVED | SUB_DELIM | host_extra,
            segment_nc: SEGMENT_NC | extra,
            path: PATH | extra,
            query: PATH | QMARK | extra,
            fragment: PATH
                | QMARK
                | extra
                | if syntax == Syntax::Text {
                    crate::chars::ascii::HASH
                } else {
                    0
                },
            ucs,
            ucs_query,
        }
    }

    /// The precise validator: [`Components::split`], then each component
    /// against its rule ([`Validator::scan_with`]), in the grammar's order,
    /// so that the first fault found is the one the error names. [`parse`]
    /// runs it only where the one-pass walk found a fault, to build the
    /// error; it accepts exactly what the walk accepts.
    fn two_pass(&self, rule: Rule) -> Result<Components, ParseError> {
        let c = Components::split(self.s);
        let v = self;

        match &c.scheme {
            Some(r) => {
                if let Err(e) = v.scheme(r.clone()) {
                    if rule != Rule::IriReference {
                        return Err(e);
                    }
                    // Neither an IRI nor an irelative-ref; report the
                    // alternative that got further (see the module docs).
                    let rel = match v.noscheme_first_segment(0..r.end) {
                        Err(rel) => rel,
                        Ok(()) => ParseError::new(
                            r.end,
                            GrammarRule::IPathNoscheme,
                            ParseErrorKind::NoschemeColon,
                        ),
                    };
                    return Err(if rel.position > e.position { rel } else { e });
                }
            }
            None if rule != Rule::IriReference => return Err(v.missing_scheme()),
            None => {}
        }

        if c.authority.is_some() {
            if let Some(u) = &c.userinfo {
                v.scan(u.clone(), v.userinfo, GrammarRule::IUserinfo)?;
            }
            if let Some(h) = &c.host {
                v.host(h.clone())?;
            }
            if let Some(p) = &c.port {
                v.scan(p.clone(), DIGIT, GrammarRule::Port)?;
            }
            // The split ends the authority at '/', so the path is empty or
            // starts with '/'.
            v.scan(c.path.clone(), v.path, GrammarRule::IPathAbempty)?;
        } else if v.b[c.path.clone()].starts_with(b"/") {
            // Cannot start with "//": the split would have made it an authority.
            v.scan(c.path.clone(), v.path, GrammarRule::IPathAbsolute)?;
        } else if c.scheme.is_some() {
            v.scan(c.path.clone(), v.path, GrammarRule::IPathRootless)?;
        } else {
            let p = c.path.clone();
            let first_end = memchr::memchr(b'/', &v.b[p.clone()]).map_or(p.end, |i| p.start + i);
            v.noscheme_first_segment(p.start..first_end)?;
            v.scan(first_end..p.end, v.path, GrammarRule::IPathNoscheme)?;
        }

        if let Some(q) = &c.query {
            v.scan_query(q.clone())?;
        }
        if let Some(f) = &c.fragment {
            if rule == Rule::AbsoluteIri {
                return Err(ParseError::new(
                    f.start - 1,
                    GrammarRule::AbsoluteIri,
                    ParseErrorKind::InvalidChar('#'),
                ));
            }
            v.scan(f.clone(), v.fragment, GrammarRule::IFragment)?;
        }
        Ok(c)
    }

    /// The error for the character at `pos`, or for the end of the input.
    fn fail_at(&self, pos: usize, rule: GrammarRule) -> ParseError {
        match self.s.get(pos..).and_then(|t| t.chars().next()) {
            Some(c) => ParseError::new(pos, rule, ParseErrorKind::InvalidChar(c)),
            None => ParseError::new(pos, rule, ParseErrorKind::UnexpectedEnd),
        }
    }

    /// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    fn scheme(&self, r: Range<usize>) -> Result<(), ParseError> {
        if !self.b[r.start].is_ascii_alphabetic() {
            return Err(self.fail_at(r.start, GrammarRule::Scheme));
        }
        self.scan(r.start + 1..r.end, SCHEME, GrammarRule::Scheme)
    }

    /// The error for a string without a scheme where one is required: at
    /// the first byte that cannot continue `scheme ":"`.
    fn missing_scheme(&self) -> ParseError {
        let mut i = 0;
        if self.b.first().is_some_and(u8::is_ascii_alphabetic) {
            i = 1;
            while i < self.b.len() && ASCII[usize::from(self.b[i])] & SCHEME != 0 {
                i += 1;
            }
        }
        ParseError::new(i, GrammarRule::Scheme, ParseErrorKind::MissingScheme)
    }

    /// `isegment-nz-nc`, the first segment of an `ipath-noscheme`, where a
    /// `:` would make the reference look like (and be read as) a scheme.
    fn noscheme_first_segment(&self, r: Range<usize>) -> Result<(), ParseError> {
        self.scan(r, self.segment_nc, GrammarRule::IPathNoscheme)
            .map_err(|e| match e.kind {
                ParseErrorKind::InvalidChar(':') => {
                    ParseError::new(e.position, e.rule, ParseErrorKind::NoschemeColon)
                }
                _ => e,
            })
    }

    /// `ihost = IP-literal / IPv4address / ireg-name`. An IPv4address is
    /// also an ireg-name, so only the IP-literal needs its own check.
    fn host(&self, h: Range<usize>) -> Result<(), ParseError> {
        if self.b.get(h.start) == Some(&b'[') && h.start < h.end {
            self.ip_literal(h)
        } else {
            self.scan(h, self.reg_name, GrammarRule::IRegName)
        }
    }

    /// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`.
    fn ip_literal(&self, h: Range<usize>) -> Result<(), ParseError> {
        let lit = &self.b[h.clone()];
        let close = memchr::memchr(b']', lit);
        let inner = &lit[1..close.unwrap_or(lit.len())];
        let base = h.start + 1;
        if matches!(inner.first(), Some(b'v' | b'V')) {
            ip_literal::ipv_future(inner)
                .map_err(|i| self.fail_at(base + i, GrammarRule::IpvFuture))?;
        } else {
            ip_literal::ipv6_address(inner).map_err(|f| {
                let r = GrammarRule::Ipv6Address;
                match f {
                    IpFault::Unexpected(i) => self.fail_at(base + i, r),
                    IpFault::H16TooLong(i) => {
                        ParseError::new(base + i, r, ParseErrorKind::H16TooLong)
                    }
                    IpFault::TooManyPieces(i) => {
                        ParseError::new(base + i, r, ParseErrorKind::TooManyPieces)
                    }
                    IpFault::TooFewPieces(i) => {
                        ParseError::new(base + i, r, ParseErrorKind::TooFewPieces)
                    }
                    IpFault::SecondElision(i) => {
                        ParseError::new(base + i, r, ParseErrorKind::SecondElision)
                    }
                }
            })?;
        }
        match close {
            None => Err(ParseError::new(
                h.end,
                GrammarRule::IpLiteral,
                ParseErrorKind::MissingBracket,
            )),
            Some(i) if h.start + i + 1 != h.end => {
                Err(self.fail_at(h.start + i + 1, GrammarRule::IpLiteral))
            }
            Some(_) => Ok(()),
        }
    }

    /// `iquery = *( ipchar / iprivate / "/" / "?" )`.
    fn scan_query(&self, r: Range<usize>) -> Result<(), ParseError> {
        self.scan_with(r, self.query, self.ucs_query, GrammarRule::IQuery)
    }

    /// Checks every character of `r` against the ASCII class `mask`, the
    /// component's non-ASCII class, and `pct-encoded`.
    fn scan(&self, r: Range<usize>, mask: u32, rule: GrammarRule) -> Result<(), ParseError> {
        // Scheme, port and IP literals are ASCII rules; everything else
        // that calls this is built on `iunreserved`.
        let non_ascii = if iunreserved_based(mask) {
            self.ucs
        } else {
            NonAscii::No
        };
        self.scan_with(r, mask, non_ascii, rule)
    }

    fn scan_with(
        &self,
        r: Range<usize>,
        mask: u32,
        non_ascii: NonAscii,
        rule: GrammarRule,
    ) -> Result<(), ParseError> {
        let b = self.b;
        let mut i = r.start;
        while i < r.end {
            // The run of allowed ASCII bytes, in a tight loop.
            i += b[i..r.end]
                .iter()
                .position(|&x| ASCII[usize::from(x)] & mask == 0)
                .unwrap_or(r.end - i);
            if i >= r.end {
                break;
            }
            let x = b[i];
            if x < 0x80 {
                // pct-encoded = "%" HEXDIG HEXDIG, allowed wherever
                // iunreserved is (never in scheme, port or IP literals).
                if x == b'%' && iunreserved_based(mask) {
                    if is_triplet(&b[..r.end], i) {
                        i += 3;
                        continue;
                    }
                    return Err(ParseError::new(
                        i,
                        GrammarRule::PctEncoded,
                        ParseErrorKind::PercentEncoding,
                    ));
                }
                return Err(self.fail_at(i, rule));
            }
            // A non-ASCII lead byte: `i` is a char boundary because we only
            // ever step over whole characters (and `b` is valid UTF-8).
            let Some((c, _)) = decode_at(b, i) else {
                break;
            };
            let ok = match non_ascii {
                NonAscii::No => false,
                NonAscii::Ucs => is_ucschar(c),
                NonAscii::UcsPrivate => is_ucschar(c) || is_iprivate(c),
                NonAscii::Leiri => is_leiri_ucschar(c),
            };
            if !ok {
                return Err(self.fail_at(i, rule));
            }
            if non_ascii != NonAscii::Leiri && is_bidi_format(c) {
                return Err(ParseError::new(i, rule, ParseErrorKind::Bidi(c)));
            }
            i += c.len_utf8();
        }
        Ok(())
    }
}

/// Whether a class is one of the `iunreserved`-based ones, which admit
/// `pct-form` and non-ASCII, as opposed to those of scheme and port.
fn iunreserved_based(mask: u32) -> bool {
    mask & (SUB_DELIM | UNRESERVED_PUNCT) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str, rule: Rule, syntax: Syntax) -> bool {
        parse(s, rule, syntax).is_ok()
    }

    fn iri(s: &str) -> bool {
        ok(s, Rule::Iri, Syntax::Iri)
    }

    fn iref(s: &str) -> bool {
        ok(s, Rule::IriReference, Syntax::Iri)
    }

    /// (position, rule) of the error of `s` as an IRI-reference in `syntax`.
    fn err(s: &str, rule: Rule, syntax: Syntax) -> (usize, &'static str) {
        let e = parse(s, rule, syntax).unwrap_err();
        (e.position(), e.rule())
    }

    #[test]
    fn ascii_table_matches_the_abnf_sets() {
        let unreserved = "-._~";
        let sub_delims = "!$&'()*+,;=";
        for b in 0u8..128 {
            let c = b as char;
            let m = ASCII[usize::from(b)];
            assert_eq!(
                m & UNRESERVED != 0,
                c.is_ascii_alphanumeric() || unreserved.contains(c),
                "{c:?}"
            );
            assert_eq!(m & SUB_DELIM != 0, sub_delims.contains(c), "{c:?}");
            assert_eq!(
                m & LEIRI_EXTRA != 0,
                b < 0x20 || b == 0x7F || " <>\"{}|\\^`".contains(c),
                "{c:?}"
            );
            assert_eq!(m & TEXT_EXTRA != 0, "{}^[]".contains(c), "{c:?}");
            // '%', '#' and nothing else printable is in no class at all of
            // the validator's components.
            let used = UNRESERVED
                | SUB_DELIM
                | COLON
                | AT
                | SLASH
                | QMARK
                | SCHEME
                | TEXT_EXTRA
                | LEIRI_EXTRA;
            if c == '%' || c == '#' {
                assert_eq!(m & used, 0);
            } else {
                assert_ne!(m & used, 0, "{c:?}");
            }
        }
    }

    #[test]
    fn start_rules() {
        assert!(iri("a:"));
        assert!(iri("a:b#c"));
        assert!(!iri("//a/b"));
        assert!(iref("//a/b") && iref("") && iref("#f") && iref("?q") && iref("."));
        assert!(ok("a:b?c", Rule::AbsoluteIri, Syntax::Iri));
        assert_eq!(
            err("a:b?c#d", Rule::AbsoluteIri, Syntax::Iri),
            (5, "absolute-IRI")
        );
        assert_eq!(
            err("a:b#", Rule::AbsoluteIri, Syntax::Iri),
            (3, "absolute-IRI")
        );
    }

    #[test]
    fn scheme_rule() {
        assert!(iri("a+-.1:x") && iri("HTTP://x") && iri("z9:"));
        assert_eq!(err("1a:b", Rule::Iri, Syntax::Iri), (0, "scheme"));
        assert_eq!(err("a_b:c", Rule::Iri, Syntax::Iri), (1, "scheme"));
        assert_eq!(err("é:b", Rule::Iri, Syntax::Iri), (0, "scheme"));
        assert_eq!(err("aé:b", Rule::Iri, Syntax::Iri), (1, "scheme"));
        // No scheme at all: where `scheme ":"` stopped matching.
        assert_eq!(err("abc", Rule::Iri, Syntax::Iri), (3, "scheme"));
        assert_eq!(err("abc/d:e", Rule::Iri, Syntax::Iri), (3, "scheme"));
        assert_eq!(err("//a", Rule::Iri, Syntax::Iri), (0, "scheme"));
        assert_eq!(err(":a", Rule::Iri, Syntax::Iri), (0, "scheme"));
        assert_eq!(err("", Rule::AbsoluteIri, Syntax::Iri), (0, "scheme"));
    }

    #[test]
    fn bad_scheme_in_a_reference_reports_the_alternative_that_got_further() {
        // irelative-ref fails at the ':' (byte 2), IRI at the '1' (byte 0).
        let e = parse_iri_reference("1a:b").unwrap_err();
        assert_eq!((e.position(), e.rule()), (2, "ipath-noscheme"));
        assert!(e.to_string().contains("first segment"), "{e}");
        assert_eq!(
            err("a_b:c", Rule::IriReference, Syntax::Iri),
            (3, "ipath-noscheme")
        );
        // Both fail at the space: the scheme is the likelier intent.
        assert_eq!(err("a b:c", Rule::IriReference, Syntax::Iri), (1, "scheme"));
        // The relative reading fails first at a bad '%'.
        assert_eq!(
            err("1%g:c", Rule::IriReference, Syntax::Iri),
            (1, "pct-encoded")
        );
        // ':' first in the path: no scheme candidate at all.
        assert_eq!(
            err(":a", Rule::IriReference, Syntax::Iri),
            (0, "ipath-noscheme")
        );
        // "a:b" is an IRI with scheme "a".
        let c = parse_iri_reference("a:b").unwrap();
        assert_eq!(c.scheme, Some(0..1));
        // A colon after the first segment is fine.
        assert!(iref("./a:b") && iref("a/b:c") && iref("?a:b") && iref("#a:b"));
    }

    #[test]
    fn authority_parts() {
        assert!(iri("s://u:p:w;=@h:1/") && iri("s://@h") && iri("s://") && iri("s://h:"));
        assert!(iri("s://%41@%42:99999999999999999999/"));
        assert_eq!(err("s://a@b@c/", Rule::Iri, Syntax::Iri), (5, "iuserinfo"));
        assert_eq!(err("s://a[b]@c/", Rule::Iri, Syntax::Iri), (5, "iuserinfo"));
        assert_eq!(err("s://h:8a/", Rule::Iri, Syntax::Iri), (7, "port"));
        assert_eq!(err("s://h:-1/", Rule::Iri, Syntax::Iri), (6, "port"));
        assert_eq!(err("s://h:١/", Rule::Iri, Syntax::Iri), (6, "port"));
        assert_eq!(err("s://a:b:1/", Rule::Iri, Syntax::Iri), (5, "ireg-name"));
        assert_eq!(err("s://a b/", Rule::Iri, Syntax::Iri), (5, "ireg-name"));
        assert_eq!(err("s://a[b]/", Rule::Iri, Syntax::Iri), (5, "ireg-name"));
        assert_eq!(err("s://a]/", Rule::Iri, Syntax::Iri), (5, "ireg-name"));
    }

    #[test]
    fn hosts_follow_the_abnf_not_dns() {
        // A reg-name that looks like a bad IPv4 is still a reg-name.
        for h in [
            "999.1.1.1",
            "1.2.3",
            "01.2.3.4",
            "1.2.3.4.5",
            "例え.テスト",
            "a..b",
            "",
        ] {
            assert!(iri(&format!("http://{h}/")), "{h}");
        }
        assert_eq!(host_kind("1.2.3.4"), HostKind::Ipv4);
        assert_eq!(host_kind("01.2.3.4"), HostKind::RegName);
        assert_eq!(host_kind("255.255.255.255"), HostKind::Ipv4);
        assert_eq!(host_kind("256.255.255.255"), HostKind::RegName);
        assert_eq!(host_kind(""), HostKind::RegName);
        assert_eq!(host_kind("[::1]"), HostKind::Ipv6);
        assert_eq!(host_kind("[V9.a]"), HostKind::IpFuture);
    }

    #[test]
    fn ip_literals_in_context() {
        for good in [
            "http://[::1]/",
            "http://[::1]:80/",
            "http://[2001:db8::7]",
            "http://[::ffff:1.2.3.4]:8080",
            "http://u@[1:2:3:4:5:6:7:8]",
            "http://[v1.fe:x!]/",
            "http://[V1A.a]",
        ] {
            assert!(iri(good), "{good}");
        }
        for (bad, at, rule) in [
            ("http://[fe80::1%25eth0]/", 15, "IPv6address"),
            ("http://[::1/", 11, "IP-literal"),
            ("http://[::1", 11, "IP-literal"),
            ("http://[::1]x/", 12, "IP-literal"),
            ("http://[::1]]/", 12, "IP-literal"),
            ("http://[]/", 8, "IPv6address"),
            ("http://[1::2::3]/", 12, "IPv6address"),
            ("http://[1:2:3:4:5:6:7]/", 21, "IPv6address"),
            ("http://[1:2:3:4:5:6:7:8:9]/", 24, "IPv6address"),
            ("http://[12345::]/", 12, "IPv6address"),
            ("http://[::1.2.3.256]/", 18, "IPv6address"),
            ("http://[1.2.3.4]/", 15, "IPv6address"),
            ("http://[xyz]/", 8, "IPv6address"),
            ("http://[v1.é]/", 11, "IPvFuture"),
            ("http://[v.1]/", 9, "IPvFuture"),
            ("http://[vz.1]/", 9, "IPvFuture"),
        ] {
            assert_eq!(err(bad, Rule::Iri, Syntax::Iri), (at, rule), "{bad}");
        }
        let e = parse_iri("http://[1::2::3]/").unwrap_err();
        assert_eq!(e.to_string(), "second \"::\" at byte 12 in IPv6address");
        let e = parse_iri("http://[::1/").unwrap_err();
        assert_eq!(e.to_string(), "missing ']' at byte 11 in IP-literal");
    }

    #[test]
    fn pct_encoded_needs_two_hex_digits_and_points_at_the_percent() {
        assert!(iri("s://%aF%00@%7e/%2F?%C3%A9#%ff"));
        for (bad, at) in [
            ("s:%", 2),
            ("s:%4", 2),
            ("s:%4g", 2),
            ("s:/a%%41", 4),
            ("s://h/%4?x", 6),
            ("s://h/a?%", 8),
            ("s://h/a#b%é0", 9),
            ("s://%zz@h", 4),
            ("s://h%2/", 5),
        ] {
            assert_eq!(
                err(bad, Rule::Iri, Syntax::Iri),
                (at, "pct-encoded"),
                "{bad}"
            );
        }
        // Not in scheme or port, where '%' is just a bad character.
        assert_eq!(err("s://h:%38/", Rule::Iri, Syntax::Iri), (6, "port"));
        assert_eq!(err("s%41:x", Rule::Iri, Syntax::Iri), (1, "scheme"));
        // Nor in IP literals.
        assert_eq!(
            err("s://[v1.%41]", Rule::Iri, Syntax::Iri),
            (8, "IPvFuture")
        );
        // Every syntax has the same rule.
        for syntax in [Syntax::Uri, Syntax::Text, Syntax::Leiri] {
            assert_eq!(err("s:/%x", Rule::Iri, syntax), (3, "pct-encoded"));
        }
    }

    #[test]
    fn path_rules_by_position() {
        assert_eq!(
            err("s://h/a b", Rule::Iri, Syntax::Iri),
            (7, "ipath-abempty")
        );
        assert_eq!(err("s:/a b", Rule::Iri, Syntax::Iri), (4, "ipath-absolute"));
        assert_eq!(err("s:a b", Rule::Iri, Syntax::Iri), (3, "ipath-rootless"));
        assert_eq!(
            err("a/b c", Rule::IriReference, Syntax::Iri),
            (3, "ipath-noscheme")
        );
        assert_eq!(
            err("/a b", Rule::IriReference, Syntax::Iri),
            (2, "ipath-absolute")
        );
        assert_eq!(err("s:a?b c", Rule::Iri, Syntax::Iri), (5, "iquery"));
        assert_eq!(err("s:a#b#c", Rule::Iri, Syntax::Iri), (5, "ifragment"));
        assert!(iri("s:a/b:c@d/;=/?/?:@#/?:@") && iri("s:/") && iri("s:/a//b"));
    }

    #[test]
    fn iprivate_only_in_the_query() {
        for c in [
            '\u{E000}',
            '\u{F8FF}',
            '\u{F0000}',
            '\u{10FFFD}',
            '\u{E0001}',
        ] {
            assert!(iri(&format!("s://h/p?{c}")), "U+{:04X}", c as u32);
            assert!(!iri(&format!("s://h/{c}")), "U+{:04X}", c as u32);
            assert!(!iri(&format!("s://{c}/")), "U+{:04X}", c as u32);
            assert!(!iri(&format!("s://{c}@h/")), "U+{:04X}", c as u32);
            assert!(!iri(&format!("s://h/#{c}")), "U+{:04X}", c as u32);
            assert!(ok(&format!("s://h/{c}#{c}"), Rule::Iri, Syntax::Leiri));
            assert!(!ok(&format!("s://h/?{c}"), Rule::Iri, Syntax::Uri));
        }
        let e = parse_iri("s://h/\u{E000}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid character U+E000 at byte 6 in ipath-abempty"
        );
        // Non-characters and specials are in neither class.
        for c in [
            '\u{FDD0}',
            '\u{FFFE}',
            '\u{FFF0}',
            '\u{1FFFF}',
            '\u{10FFFF}',
        ] {
            assert!(!iri(&format!("s://h/?{c}")), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn uri_syntax_is_ascii_only() {
        assert!(ok("http://a/%C3%A9", Rule::Iri, Syntax::Uri));
        assert_eq!(
            err("http://a/é", Rule::Iri, Syntax::Uri),
            (9, "ipath-abempty")
        );
        assert_eq!(err("http://é/", Rule::Iri, Syntax::Uri), (7, "ireg-name"));
        assert_eq!(err("?é", Rule::IriReference, Syntax::Uri), (1, "iquery"));
    }

    #[test]
    fn bidi_formatting_characters_only_in_leiri() {
        for c in [
            '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{061C}', '\u{2066}',
        ] {
            let s = format!("http://a/b{c}c");
            let e = parse(&s, Rule::Iri, Syntax::Iri).unwrap_err();
            assert_eq!((e.position(), e.rule()), (10, "ipath-abempty"));
            assert!(
                e.to_string().starts_with("bidi formatting character U+"),
                "{e}"
            );
            assert!(!ok(&s, Rule::Iri, Syntax::Text));
            assert!(ok(&s, Rule::Iri, Syntax::Leiri));
        }
        // Joiners are not bidi formatting characters.
        assert!(iri("http://a/b\u{200C}\u{200D}c"));
    }

    #[test]
    fn leiri_admits_space_delimiters_controls_and_private_use() {
        for s in [
            "http://a/b c",
            "http://a/<b>\"{|}\\^`",
            "http://a/\u{0}\u{1F}\u{7F}\u{85}",
            "http://www yahoo.com/",
            "http://u s@h/",
            "http://h/?\u{FFFD}#\u{E000}",
            "a b",
        ] {
            assert!(ok(s, Rule::IriReference, Syntax::Leiri), "{s:?}");
            assert!(!ok(s, Rule::IriReference, Syntax::Iri), "{s:?}");
        }
        // Still no '[' outside the host, no '#' twice, no bad '%', and the
        // LEIRI characters are not in scheme, port or IP literals.
        for s in [
            "http://a/[",
            "http://a/#b#",
            "http://a/%",
            "ht tp://a",
            "http://a:8 0/",
            "http://[::1 ]/",
            "http://h/\u{FFFF}",
        ] {
            assert!(!ok(s, Rule::IriReference, Syntax::Leiri), "{s:?}");
        }
    }

    #[test]
    fn text_accepts_braces_caret_brackets_outside_the_host() {
        for s in [
            "http://example.org/?sourcedoc={guid}",
            "https://github.com/search?q=repo:^src",
            "http://example.org/foo.php?a[]=1",
            "https://en.wikipedia.org/wiki/Blur_[band]",
            "http://example.org/#{x}[y]^",
            "http://{u}[v]^@example.org/",
            "a[1]/{b}",
            "http://[::1]/[x]",
        ] {
            assert!(ok(s, Rule::IriReference, Syntax::Text), "{s}");
            assert!(!ok(s, Rule::IriReference, Syntax::Iri), "{s}");
        }
        for (s, at, rule) in [
            ("http://ex[a]mple.org/", 9, "ireg-name"),
            ("http://ex{a}.org/", 9, "ireg-name"),
            ("http://a^b/", 8, "ireg-name"),
            ("http://a:8{0}/", 10, "port"),
            ("http://[::1]x/", 12, "IP-literal"),
            ("http://a/b c", 10, "ipath-abempty"),
            ("http://a/b|c", 10, "ipath-abempty"),
            ("http://a/b\u{1}", 10, "ipath-abempty"),
            ("http://a/\u{E000}", 9, "ipath-abempty"),
            // The relative reading gets further here: '{' is fine in a
            // Text path segment, the ':' is not.
            ("h{t}tp://a/", 6, "ipath-noscheme"),
        ] {
            assert_eq!(err(s, Rule::IriReference, Syntax::Text), (at, rule), "{s}");
        }
    }

    #[test]
    fn display_names_the_character_and_the_rule() {
        let e = parse_iri("http://example.org/a^b").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid character '^' at byte 20 in ipath-abempty"
        );
        let e = parse_iri("http://a/\u{A0}\u{A0}x y").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid character U+0020 at byte 14 in ipath-abempty"
        );
        let e = parse_iri("http://a/\t").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid character U+0009 at byte 9 in ipath-abempty"
        );
        let e = parse_iri("http://a/%g1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'%' at byte 9 is not followed by two hex digits (pct-encoded)"
        );
        let e = parse_iri("mailto").unwrap_err();
        assert!(e.to_string().starts_with("missing scheme"), "{e}");
        let e: Box<dyn std::error::Error> = Box::new(e);
        assert!(e.source().is_none());
    }

    #[test]
    fn components_are_the_split() {
        let s = "s://u@h:1/p?q#f";
        assert_eq!(parse_iri(s).unwrap(), Components::split(s));
    }

    #[test]
    fn linear_time_on_long_inputs() {
        // One megabyte in each component; would take minutes if any check
        // rescanned its input per character.
        let n = 1 << 20;
        let long = "a".repeat(n);
        let pct = "%41".repeat(n / 3);
        let s = format!(
            "s://{long}@{long}:{}/{long}/{pct}?{long}#{long}",
            "1".repeat(n)
        );
        assert!(iri(&s));
        let s = format!("{long}{long}");
        assert!(iref(&s));
        assert_eq!(err(&s, Rule::Iri, Syntax::Iri), (2 * n, "scheme"));
    }

    /// Pieces of IRIs and of faults, for the strings the property tests
    /// below make: every delimiter, the start of each component, IP
    /// literals whole and broken, percent triplets whole and cut, and a
    /// character of each non-ASCII class (ucschar of each UTF-8 length,
    /// bidi formatting, private use, tags, non-characters, C1 controls).
    const PIECES: &[&str] = &[
        ":",
        "/",
        "//",
        "?",
        "#",
        "@",
        "[",
        "]",
        "%",
        "%4",
        "%41",
        "%zz",
        "a",
        "Z",
        "v",
        "1",
        "-",
        ".",
        "+",
        "_",
        "~",
        "!",
        "=",
        "'",
        " ",
        "{",
        "}",
        "^",
        "|",
        "\\",
        "\"",
        "<",
        "`",
        "\u{0}",
        "\u{7F}",
        "é",
        "\u{85}",
        "\u{A0}",
        "ض",
        "日",
        "😀",
        "\u{200E}",
        "\u{061C}",
        "\u{2066}",
        // The edges of the walk's common letters (`walk::WALK`).
        "\u{BF}",
        "\u{C0}",
        "\u{61B}",
        "\u{61D}",
        "\u{7FF}",
        "\u{800}",
        "\u{1FFF}",
        "\u{2000}",
        "\u{2FFF}",
        "\u{3000}",
        "\u{D7FF}",
        "\u{E000}",
        "\u{E0001}",
        "\u{F0000}",
        "\u{FDD0}",
        "\u{FFFD}",
        "\u{FFFE}",
        "\u{1FFFE}",
        "http:",
        "s://",
        "mailto:",
        "1a:",
        "::",
        "[::1]",
        "[v1.x]",
        "[1:2:3:4:5:6:7:8]",
        "[::1.2.3.4]",
        "[fe80::1%25e]",
        "[v.]",
        ":80",
        ":8a",
        "u:p@",
        "1.2.3.4",
        "www.",
    ];

    fn pieces(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(PIECES), 0..max).prop_map(|v| v.concat())
    }

    /// Strings shaped like IRIs: each component present or not, made of
    /// typical values or of random pieces, so that valid authorities, IP
    /// literals and ports (rare in [`pieces`]) are common.
    fn shaped() -> impl Strategy<Value = String> {
        let part = |typical: &'static [&'static str], max: usize| {
            prop_oneof![
                4 => prop::sample::select(typical).prop_map(String::from),
                1 => pieces(max),
            ]
        };
        let scheme = part(&["", "s:", "http:", "1a:", "a_b:", "é:"], 2);
        let userinfo = part(&["", "u@", "u:p@", "@", "[a]@", "a b@", "a@b@"], 3);
        let host = part(
            &[
                "h",
                "",
                "[::1]",
                "[v1.x]",
                "例え.jp",
                "[a]",
                "1.2.3.4",
                "h{x}",
                "[::1",
                "a%41",
            ],
            3,
        );
        let port = part(&["", ":", ":80", ":8a", ":1:2", ":%31"], 2);
        let path = part(&["", "/", "/a/b", "a", "a:b", "/é/%41", "//x"], 4);
        let query = part(&["", "?", "?q=1", "?\u{E000}", "?a?b"], 3);
        let fragment = part(&["", "#", "#f", "#a#b", "#\u{E000}"], 3);
        (
            scheme,
            any::<bool>(),
            userinfo,
            host,
            port,
            path,
            query,
            fragment,
        )
            .prop_map(
                |(scheme, authority, userinfo, host, port, path, query, fragment)| {
                    let authority = if authority {
                        format!("//{userinfo}{host}{port}")
                    } else {
                        String::new()
                    };
                    format!("{scheme}{authority}{path}{query}{fragment}")
                },
            )
    }

    fn any_rule() -> impl Strategy<Value = Rule> {
        prop::sample::select(vec![Rule::Iri, Rule::IriReference, Rule::AbsoluteIri])
    }

    fn any_syntax() -> impl Strategy<Value = Syntax> {
        prop::sample::select(vec![Syntax::Uri, Syntax::Iri, Syntax::Leiri, Syntax::Text])
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            // PROPTEST_CASES=200000 for a long run.
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// The one-pass walk accepts exactly what the two-pass validator
        /// accepts, with the same components (those of the split), and
        /// `parse` answers as the two-pass validator does, errors included.
        #[test]
        fn one_pass_agrees_with_two_pass(s in prop_oneof![pieces(16), shaped()], rule in any_rule(), syntax in any_syntax()) {
            let v = Validator::new(&s, syntax);
            let precise = v.two_pass(rule);
            prop_assert_eq!(walk(&s, rule, syntax), precise.clone().ok(), "{:?} {:?} {:?}", s, rule, syntax);
            prop_assert_eq!(parse(&s, rule, syntax), precise.clone(), "{:?}", s);
            let packed = precise.clone().map(|c| PackedComponents::pack(&c, s.len()));
            prop_assert_eq!(parse_packed(&s, rule, syntax), packed, "{:?}", s);
            if let Ok(c) = parse(&s, rule, syntax) {
                prop_assert_eq!(c, Components::split(&s));
            }
        }
    }

    /// Every non-ASCII character in every component of every syntax: the
    /// walk (which steps over the bytes of common letters without decoding
    /// them) and [`parse_packed`] agree with the precise validator. Every
    /// character of the Basic Multilingual Plane, and the edges of the
    /// planes beyond it.
    #[test]
    fn one_pass_agrees_with_two_pass_on_every_character() {
        let beyond = (0x1_0000..=0x10_FFFFu32)
            .filter(|u| matches!(u & 0xFFFF, 0..=2 | 0x7FFF | 0xFFFC..=0xFFFF))
            .chain(0xE_0000..=0xE_1001);
        for c in (0x80..=0xFFFFu32).chain(beyond).filter_map(char::from_u32) {
            for syntax in [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri] {
                for s in [
                    format!("s://{c}h{c}:1/"),
                    format!("s://u{c}@h"),
                    format!("s:/p/a{c}{c}bcdefghij{c}"),
                    format!("{c}a/b"),
                    format!("s:a?q{c}"),
                    format!("s:a#f{c}"),
                ] {
                    let rule = Rule::IriReference;
                    let precise = Validator::new(&s, syntax).two_pass(rule);
                    assert_eq!(walk(&s, rule, syntax), precise.clone().ok(), "{s:?}");
                    let packed = precise.map(|c| PackedComponents::pack(&c, s.len()));
                    assert_eq!(parse_packed(&s, rule, syntax), packed, "{s:?}");
                }
            }
        }
    }

    /// The walk's one-bit classes ([`crate::iri::walk::WALK`]) are the
    /// precise validator's classes, byte by byte, in every syntax (for the
    /// ASCII bytes; the non-ASCII ones are `walk`'s own test).
    #[test]
    fn walk_classes_are_the_validators() {
        use crate::iri::walk::{WALK, classes};
        for syntax in [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri] {
            let (v, k) = (Validator::new("", syntax), classes(syntax));
            for (mask, bit) in [
                (v.reg_name, k.reg_name),
                (v.userinfo, k.userinfo),
                (v.segment_nc, k.segment_nc),
                (v.path, k.path),
                (v.query, k.query),
            ] {
                for b in 0..=127u8 {
                    let walk = WALK[usize::from(b)] & bit != 0;
                    assert_eq!(
                        walk,
                        ASCII[usize::from(b)] & mask != 0,
                        "{syntax:?} {b:#04X}"
                    );
                }
            }
            assert!((k.ucs, k.ucs_query) == (v.ucs, v.ucs_query), "{syntax:?}");
        }
    }

    #[test]
    fn one_pass_on_the_edges_of_the_authority() {
        // (input, syntax, components as (userinfo, host, port)) for valid
        // authorities the walk must read as the split does; then faults.
        for (s, syntax, parts) in [
            ("s://h", Syntax::Iri, (None, "h", None)),
            ("s://", Syntax::Iri, (None, "", None)),
            ("s://:", Syntax::Iri, (None, "", Some(""))),
            (
                "s://u:p:w@h:80/",
                Syntax::Iri,
                (Some("u:p:w"), "h", Some("80")),
            ),
            ("s://@", Syntax::Iri, (Some(""), "", None)),
            ("s://[::1]:8?", Syntax::Iri, (None, "[::1]", Some("8"))),
            ("s://u@[v1.x]#", Syntax::Iri, (Some("u"), "[v1.x]", None)),
            // Text: a userinfo may hold brackets, even one like an IP-literal.
            ("s://[a]@h", Syntax::Text, (Some("[a]"), "h", None)),
            (
                "s://[::1]@h:1",
                Syntax::Text,
                (Some("[::1]"), "h", Some("1")),
            ),
            ("s://{x}^@h", Syntax::Text, (Some("{x}^"), "h", None)),
            (
                "s://a b@c d:1",
                Syntax::Leiri,
                (Some("a b"), "c d", Some("1")),
            ),
        ] {
            let c = walk(s, Rule::Iri, syntax).unwrap_or_else(|| panic!("{s}"));
            let g = |r: Option<Range<usize>>| r.map(|r| &s[r]);
            assert_eq!(
                (
                    g(c.userinfo.clone()),
                    &s[c.host.clone().unwrap()],
                    g(c.port.clone())
                ),
                parts,
                "{s}"
            );
            assert_eq!(c, Components::split(s), "{s}");
        }
        for (s, syntax) in [
            ("s://a@b@c", Syntax::Iri),
            ("s://h:1:2", Syntax::Iri),
            ("s://h:1a", Syntax::Iri),
            ("s://h:%31", Syntax::Iri),
            ("s://h:é", Syntax::Iri),
            ("s://[::1]x", Syntax::Iri),
            ("s://[::1]:1@h", Syntax::Iri),
            ("s://[a]@h", Syntax::Iri),
            ("s://u@[a]", Syntax::Text),
            ("s://h{x}", Syntax::Text),
            ("s://u@h[", Syntax::Text),
            ("s://a:b:c", Syntax::Text),
        ] {
            assert_eq!(walk(s, Rule::Iri, syntax), None, "{s}");
            assert!(parse(s, Rule::Iri, syntax).is_err(), "{s}");
        }
    }
}
