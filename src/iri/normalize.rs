//! Normalization and comparison of IRIs: the comparison ladder of RFC 3987
//! §5.3 (RFC 3986 §6.2 for URIs).
//!
//! # Overview
//!
//! Two IRIs that differ as strings may still identify the same resource:
//! `HTTP://Example.COM:80/%7euser` and `http://example.com/~user` do. A
//! bulk deduplication job needs one canonical key per resource, and the
//! ladder gives it in rungs of increasing cost, each only ever merging
//! strings that identify the same resource (false negatives are allowed,
//! false positives never, §5.3):
//!
//! - [`NormalizationLevel::Simple`] (§5.3.1): the string as it is. The
//!   comparison of XML namespaces and of anything used as an identity
//!   token. It must not map IRIs to URIs, so the form and NFC options are
//!   ignored here.
//! - [`NormalizationLevel::Syntax`] (§5.3.2, RFC 3986 §6.2.2): what the
//!   generic syntax alone licenses, for every scheme:
//!   - *case* (§5.3.2.1): the scheme to lower case; a host to lower case
//!     when it is US-ASCII only (an IP-literal's hex digits included); the
//!     hex digits of every `%HH` to upper case. A host with non-ASCII
//!     characters keeps the case of all its characters: folding them is
//!     IDNA's business (§5.3.3), done at the next rung.
//!   - *percent-encoding* (§5.3.2.3): `%HH` of unreserved ASCII characters
//!     is decoded; in the IRI form also `%HH` sequences that are strictly
//!     valid UTF-8 of characters allowed and appropriate in an IRI
//!     (`iunreserved`, §5.1) — the decoder of [`crate::to_iri`], which
//!     also keeps encoded the punctuation that would end an IRI in running
//!     text (see below).
//!   - *path segments* (§5.3.2.4): `remove_dot_segments` (RFC 3986 §5.2.4)
//!     on the path of an IRI with a scheme or an authority, and on an
//!     absolute path.
//!   - *character normalization* (§5.3.2.2), only when asked
//!     ([`NormalizeOptions::nfc`]).
//! - [`NormalizationLevel::Scheme`] (§5.3.3, RFC 3986 §6.2.3): on top of
//!   that, for `http`, `https`, `ws`, `wss` and `ftp`: the default port
//!   (80, 443, 80, 443, 21) is removed, leading zeros of a port too, an
//!   empty path with an authority becomes `/`, and IDN and punycode hosts
//!   are made one (see below). An empty port (`foo://a:/`) is removed for
//!   every scheme: RFC 3986 §3.2.3 makes an empty port the scheme's
//!   default, whatever the scheme. For `mailto`, the domain of each address
//!   is lower-cased when it is US-ASCII (RFC 6068 §2: domains are
//!   case-insensitive, local parts are not).
//!
//! Protocol-based normalization (§5.3.4: `…/data` vs `…/data/` after a
//! redirect) needs the network and is out of scope.
//!
//! ```
//! use iriscan::{normalize, equivalent, NormalizeOptions, NormalizationLevel};
//!
//! let syntax = NormalizeOptions::new();
//! assert_eq!(
//!     normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9", &syntax).unwrap(),
//!     "example://a/b/c/%7Bfoo%7D/rosé"
//! );
//! let scheme = NormalizeOptions::new().level(NormalizationLevel::Scheme);
//! assert!(equivalent("http://example.com", "HTTP://example.com:80/", &scheme).unwrap());
//! assert!(!equivalent("http://example.com/?", "http://example.com/", &scheme).unwrap());
//! ```
//!
//! # Two normal forms
//!
//! [`NormalForm::Iri`] (the default) keeps the key readable: decodable
//! percent-encoded UTF-8 is decoded, non-ASCII stays as it is, and hosts are
//! given in Unicode at the scheme rung (§5.3.3: IDNs "SHOULD NOT be
//! converted into ASCII Compatible Encoding" for legibility).
//! [`NormalForm::Uri`] gives a URI: every non-ASCII character is
//! percent-encoded (UTF-8, §3.1), only unreserved ASCII is ever decoded,
//! hosts are punycode at the scheme rung. This is RFC 3987 §5.3.2.3's
//! "converting both IRIs to URIs … eliminating escape differences", and the
//! two forms agree, as RFC 3987 §5.2 asks of comparing on the IRI ladder
//! or, after mapping to URIs, on the URI ladder: for a valid IRI `x`,
//! `normalize(to_uri(x), Uri) == to_uri(normalize(x, Iri))`, with or
//! without NFC — with the percent-encoding host mapping of §3.4.1, or with
//! IDNA (§3.4.2) at the scheme rung for the five schemes. Under IDNA there
//! are two exceptions, tested in `tests/normalize_suite.rs`: a non-ASCII
//! host that the rung does not put through IDNA (the URI side's host is
//! ASCII, hence lower-cased by §5.3.2.1, the IRI side's is not), and a
//! host hiding a percent-encoded reserved character, which §3.4.2 decodes
//! and normalization does not. Both forms are the same key: two IRIs are
//! equivalent in one form exactly when they are in the other.
//!
//! In the IRI form, one character class is written percent-encoded even when
//! it came literally: white space and its invisible look-alikes (U+00A0,
//! U+2000–U+200B, U+2060, U+3000, U+FEFF, …), which §5.1 says are not
//! appropriate in IRIs and which [`crate::to_iri`] therefore never decodes.
//! Writing them encoded whichever way they came gives both spellings one
//! key (both map to the same URI), and keeps the two forms in step. The
//! visible punctuation and quotation marks that end an IRI in running text
//! (`。` `«` `”` …), which `to_iri` also keeps encoded so that the scanner
//! finds its output whole, are appropriate IRI characters: the key decodes
//! them and writes them as themselves.
//!
//! # What normalization never does
//!
//! It never changes what an IRI identifies. `%2F` stays `%2F` and `/` stays
//! `/`: a reserved character is never decoded nor encoded, and neither is
//! `%25`. Octets that are not strictly valid UTF-8 (`%C0%AF`, `%ED%A0%80`)
//! stay encoded (§9). The case of the path, query, fragment and userinfo is
//! kept. Userinfo delimiters and empty queries and fragments are kept
//! (RFC 3986 §6.2.3: `http://example.com/?` is not `http://example.com/`).
//!
//! # Details and choices
//!
//! - **Private use in the query.** `iprivate` characters are allowed in the
//!   query only (§2.2). There, `%EE%80%80` is decoded to U+E000 like any
//!   `iunreserved` character (as [`crate::to_iri`] does): both spellings
//!   map to the same URI, so they must give one key. Elsewhere they stay
//!   encoded.
//! - **Dot segments and `//`.** When removing dot segments leaves a path
//!   that starts with `//` and there is no authority (`scheme:/a/..//b`),
//!   writing it as is would make the path an authority. Like iri-string
//!   (and the WHATWG URL serializer), the path is written with a `/.`
//!   prefix (`scheme:/.//b`), which removing dot segments turns back into
//!   `//b`: the IRI is unchanged, and normalization stays idempotent. The
//!   rootless path of a relative reference (`a/../b`, `../x`) is left as it
//!   is: its dot segments only mean something against a base.
//! - **NFC** (§5.3.2.2) is opt-in: RFC 3987 says equivalence "MUST rely on
//!   the assumption that IRIs are appropriately pre-character-normalized,
//!   rather than applying character normalization when comparing two
//!   IRIs"; use it for inputs that come from a non-UCS charset or from
//!   people. It is applied to what percent-decoding gives, between reserved
//!   characters and `%HH` triplets, so that it can never merge a delimiter
//!   into a character (`=` + U+0338 COMBINING LONG SOLIDUS OVERLAY would
//!   become `≠`); a stretch whose NFC would hold an ASCII character other
//!   than the unreserved ones (U+037E GREEK QUESTION MARK is canonically
//!   `;`) is left as it is.
//! - **IDN hosts** (scheme rung). The host of an `http`, `https`, `ws`,
//!   `wss` or `ftp` IRI goes through UTS #46 ToASCII — the same conversion
//!   as [`crate::to_uri`] with [`crate::HostMapping::Idna`], which also
//!   maps case and compatibility variants — so `résumé.example`,
//!   `RÉSUMÉ.example`, `r%C3%A9sum%C3%A9.example` and
//!   `xn--rsum-bpad.example` are one host. The URI form writes the ASCII
//!   result; the IRI form converts its `xn--` labels back with ToUnicode (a
//!   label whose Unicode form does not map back to the same ASCII label, or
//!   holds characters not appropriate in an IRI, stays in punycode). A host
//!   that IDNA rejects, or that holds a percent-encoded ASCII octet (a
//!   reserved character, which ToASCII would decode), is left as the
//!   syntax rung made it.
//!
//! # Errors, performance
//!
//! The input must be a valid IRI reference (RFC 3987bis §2.2, checked with
//! [`crate::parse`]); a [`NormalizeError`] says where it is not. Convert a
//! Legacy Extended IRI first with [`crate::leiri_to_iri`]. Normalization is
//! linear in the length of the input (IDNA works on hosts that the DNS
//! limits to 253 octets) and returns the input borrowed, without
//! allocating, when it is already normalized. Each thread remembers the
//! IDNA results of the last hosts it saw (`src/iri/idn_memo.rs`): a bulk
//! job over a list of links pays for IDNA once per host, not once per
//! link. [`normalize_parsed`] spares a caller that parsed the IRI anyway
//! the second parse.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use idna::uts46::DnsLength;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use crate::chars::ascii::{UNRESERVED, ascii_is};
use crate::iri::components::Components;
use crate::iri::host_mapping::{idna_host, is_ace_label, punycode_label_to_unicode, to_ascii};
use crate::iri::idn_memo::{HostMemo, memoized};
use crate::iri::parse::{GrammarRule, ParseError, Rule, Syntax, parse};
use crate::iri::parsed_iri::Iri;
use crate::iri::percent::{has_non_ascii_triplet, is_triplet, push_pct_bytes, triplet_value};
use crate::iri::resolve::remove_dot_segments;
use crate::iri::to_iri::{Decoding, push_decoded};
use crate::iri::to_uri::{is_ip_literal, push_general};

/// The rungs of the comparison ladder (RFC 3987 §5.3), from the cheapest.
///
/// Each rung includes the ones below it. Ordered: `Simple < Syntax < Scheme`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NormalizationLevel {
    /// Simple string comparison (§5.3.1): the IRI as it is.
    Simple,
    /// Syntax-based normalization (§5.3.2): case, percent-encoding, dot
    /// segments, and NFC when asked.
    #[default]
    Syntax,
    /// Scheme-based normalization (§5.3.3) on top of syntax-based: default
    /// and empty ports, empty paths and IDN hosts of `http`, `https`, `ws`,
    /// `wss` and `ftp`; empty ports of every scheme.
    Scheme,
}

/// What the normalized string is written as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NormalForm {
    /// An IRI: percent-encoded UTF-8 of characters appropriate in an IRI is
    /// decoded; hosts are Unicode at the scheme rung.
    #[default]
    Iri,
    /// A URI (ASCII): non-ASCII characters are percent-encoded (§3.1), only
    /// unreserved ASCII is decoded; hosts are punycode at the scheme rung.
    Uri,
}

/// Options of [`normalize`] and [`equivalent`], built in the builder style.
///
/// The default is syntax-based normalization to the IRI form, without NFC.
///
/// ```
/// use iriscan::{normalize, NormalForm, NormalizationLevel, NormalizeOptions};
///
/// let opts = NormalizeOptions::new()
///     .level(NormalizationLevel::Scheme)
///     .form(NormalForm::Uri);
/// assert_eq!(
///     normalize("HTTP://Résumé.Example:80", &opts).unwrap(),
///     "http://xn--rsum-bpad.example/"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NormalizeOptions {
    level: NormalizationLevel,
    form: NormalForm,
    nfc: bool,
}

impl NormalizeOptions {
    /// The default options: [`NormalizationLevel::Syntax`],
    /// [`NormalForm::Iri`], no NFC.
    pub fn new() -> NormalizeOptions {
        NormalizeOptions::default()
    }

    /// How far up the ladder to go. Default [`NormalizationLevel::Syntax`].
    pub fn level(mut self, level: NormalizationLevel) -> NormalizeOptions {
        self.level = level;
        self
    }

    /// Whether to write an IRI or a URI. Default [`NormalForm::Iri`].
    /// Ignored at [`NormalizationLevel::Simple`].
    pub fn form(mut self, form: NormalForm) -> NormalizeOptions {
        self.form = form;
        self
    }

    /// Also apply Unicode Normalization Form C (§5.3.2.2) to what
    /// percent-decoding gives. Default `false`: RFC 3987 says comparison
    /// must assume IRIs are already in NFC rather than normalize them; turn
    /// it on for IRIs that come from legacy charsets or were typed.
    /// Ignored at [`NormalizationLevel::Simple`].
    pub fn nfc(mut self, yes: bool) -> NormalizeOptions {
        self.nfc = yes;
        self
    }

    /// The level set with [`NormalizeOptions::level`].
    pub fn normalization_level(&self) -> NormalizationLevel {
        self.level
    }

    /// The form set with [`NormalizeOptions::form`].
    pub fn normal_form(&self) -> NormalForm {
        self.form
    }

    /// Whether [`NormalizeOptions::nfc`] is set.
    pub fn applies_nfc(&self) -> bool {
        self.nfc
    }
}

/// Which argument a [`NormalizeError`] is about: the only one of
/// [`normalize`], or `a` / `b` of [`equivalent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The input of [`normalize`], or the first IRI of [`equivalent`].
    First,
    /// The second IRI of [`equivalent`].
    Second,
}

/// Why [`normalize`] or [`equivalent`] failed: an input is not a valid IRI
/// reference (RFC 3987bis §2.2). Says which input, where and which rule.
///
/// ```
/// use iriscan::{equivalent, NormalizeOptions, Operand};
///
/// let e = equivalent("http://a/", "http://a/b c", &NormalizeOptions::new()).unwrap_err();
/// assert_eq!((e.operand(), e.position(), e.rule()), (Operand::Second, 10, "ipath-abempty"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalizeError {
    operand: Operand,
    kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    /// The input does not match `IRI-reference`.
    Invalid(ParseError),
}

impl NormalizeError {
    /// The input at fault.
    pub fn operand(&self) -> Operand {
        self.operand
    }

    /// The byte offset into that input of the character at fault.
    pub fn position(&self) -> usize {
        match &self.kind {
            ErrorKind::Invalid(e) => e.position(),
        }
    }

    /// The ABNF rule that failed (see [`ParseError::rule`]).
    pub fn rule(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Invalid(e) => e.rule(),
        }
    }

    /// The ABNF rule that failed, to match on (see
    /// [`ParseError::grammar_rule`]; what is wrong there is the
    /// [`parse_error`](NormalizeError::parse_error)'s
    /// [`kind`](ParseError::kind)).
    ///
    /// ```
    /// use iriscan::{normalize, GrammarRule, NormalizeOptions};
    /// let e = normalize("http://a/%zz", &NormalizeOptions::new()).unwrap_err();
    /// assert_eq!(e.grammar_rule(), GrammarRule::PctEncoded);
    /// ```
    pub fn grammar_rule(&self) -> GrammarRule {
        match &self.kind {
            ErrorKind::Invalid(e) => e.grammar_rule(),
        }
    }

    /// The validation error.
    pub fn parse_error(&self) -> &ParseError {
        match &self.kind {
            ErrorKind::Invalid(e) => e,
        }
    }
}

impl fmt::Display for NormalizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let which = match self.operand {
            Operand::First => "",
            Operand::Second => "second ",
        };
        match &self.kind {
            ErrorKind::Invalid(e) => write!(f, "{which}input is not an IRI reference: {e}"),
        }
    }
}

impl std::error::Error for NormalizeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.parse_error())
    }
}

/// Normalizes an IRI reference up to the rung of the comparison ladder that
/// `opts` asks for (RFC 3987 §5.3, RFC 3986 §6.2).
///
/// - [`NormalizationLevel::Simple`]: the input as it is.
/// - [`NormalizationLevel::Syntax`], for every scheme: the scheme and a
///   US-ASCII-only host (IP-literals included) to lower case, `%hh` to
///   `%HH`; `%HH` of unreserved ASCII decoded and, in the IRI form, `%HH`
///   sequences of strictly valid UTF-8 of characters allowed and
///   appropriate in an IRI (the decoder of [`crate::to_iri`]; private use
///   in the query only), while white space look-alikes (U+00A0, U+3000,
///   …) are always written encoded; dot segments removed from the path of
///   an IRI with a scheme or authority and from an absolute path (a path
///   left starting with `//` without an authority is written `/.//…`);
///   NFC when asked, never across a reserved character or a `%HH`. A host
///   with non-ASCII characters keeps its case.
/// - [`NormalizationLevel::Scheme`]: also, for `http`, `https`, `ws`,
///   `wss` and `ftp`, default ports and leading zeros of ports removed, an
///   empty path with an authority made `/`, and the host put through UTS
///   #46 ToASCII so that IDN and punycode spellings are one (Unicode labels
///   in the IRI form, punycode in the URI form; a host IDNA rejects is
///   kept); for every scheme, an empty port removed; for `mailto`, each
///   US-ASCII address domain lower-cased (`mailto:Joe@Example.COM` is
///   `mailto:Joe@example.com`).
///
/// Never decoded or encoded: reserved characters, `%25`, octets that are
/// not strictly valid UTF-8. Never changed: the case of the userinfo, path,
/// query and fragment, empty queries and fragments, userinfo delimiters.
///
/// The input must be a valid IRI reference (RFC 3987bis §2.2); a Legacy
/// Extended IRI must go through [`crate::leiri_to_iri`] first. The result is
/// a valid IRI reference ([`NormalForm::Iri`]) or URI reference
/// ([`NormalForm::Uri`]) that identifies what the input identifies, and
/// normalizing it again changes nothing. Returns the input borrowed when it
/// is already normalized. Linear time.
///
/// ```
/// use iriscan::{normalize, NormalForm, NormalizationLevel, NormalizeOptions};
///
/// let syntax = NormalizeOptions::new();
/// assert_eq!(normalize("HTTP://www.EXAMPLE.com/", &syntax).unwrap(), "http://www.example.com/");
/// assert_eq!(normalize("http://example.org/%7euser", &syntax).unwrap(), "http://example.org/~user");
/// // Reserved characters are never decoded.
/// assert_eq!(normalize("http://a/b%2fc%3F", &syntax).unwrap(), "http://a/b%2Fc%3F");
///
/// let uri = syntax.form(NormalForm::Uri);
/// assert_eq!(normalize("example://a/./b/../c/rosé", &uri).unwrap(), "example://a/c/ros%C3%A9");
///
/// let scheme = syntax.level(NormalizationLevel::Scheme);
/// assert_eq!(normalize("http://xn--rsum-bpad.example.org:80", &scheme).unwrap(), "http://résumé.example.org/");
///
/// let e = normalize("http://a/%zz", &syntax).unwrap_err();
/// assert_eq!((e.position(), e.rule()), (9, "pct-encoded"));
/// ```
pub fn normalize<'a>(
    iri: &'a str,
    opts: &NormalizeOptions,
) -> Result<Cow<'a, str>, NormalizeError> {
    normalize_operand(iri, opts, Operand::First)
}

/// [`normalize`] of an IRI reference already parsed: its components are
/// used as they are, nothing is parsed again (for a caller that validated
/// the string anyway, such as a bulk job that also reports whether it is
/// absolute). Infallible: the parse was the only check.
///
/// The rules are those of [`normalize`], which asks for an IRI reference
/// over the IRI repertoire ([`Iri::parse_reference`] or [`Iri::parse`]);
/// for an [`Iri`] parsed over the LEIRI repertoire the result keeps the
/// characters an IRI may not hold — convert it with
/// [`crate::leiri_to_iri`] first.
///
/// ```
/// use iriscan::{normalize, normalize_parsed, Iri, NormalizationLevel, NormalizeOptions};
///
/// let opts = NormalizeOptions::new().level(NormalizationLevel::Scheme);
/// let s = "HTTP://Example.COM:80/a/./b/%7euser";
/// let iri = Iri::parse_reference(s).unwrap();
/// assert_eq!(normalize_parsed(&iri, &opts), "http://example.com/a/b/~user");
/// assert_eq!(normalize_parsed(&iri, &opts), normalize(s, &opts).unwrap());
/// ```
pub fn normalize_parsed<'a>(iri: &Iri<'a>, opts: &NormalizeOptions) -> Cow<'a, str> {
    let s = iri.as_str();
    if opts.level == NormalizationLevel::Simple {
        return Cow::Borrowed(s);
    }
    let mut out = Out::new(s);
    normalize_components(s, iri.components(), opts, &mut out);
    out.finish()
}

/// Whether two IRI references are equivalent at the rung of the comparison
/// ladder that `opts` asks for: whether they [`normalize`] to the same
/// string. `true` means they identify the same resource; `false` only that
/// this rung cannot tell (§5.3: false negatives are possible, false
/// positives are not).
///
/// ```
/// use iriscan::{equivalent, NormalizationLevel, NormalizeOptions};
///
/// let syntax = NormalizeOptions::new();
/// assert!(equivalent(
///     "example://a/b/c/%7Bfoo%7D/rosé",
///     "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
///     &syntax
/// ).unwrap());
/// let scheme = syntax.level(NormalizationLevel::Scheme);
/// assert!(equivalent("http://résumé.example.org", "http://xn--rsum-bpad.example.org", &scheme).unwrap());
/// assert!(!equivalent("http://résumé.example.org", "http://xn--rsum-bpad.example.org", &syntax).unwrap());
/// let nfc = syntax.nfc(true);
/// assert!(equivalent("http://a/r\u{E9}sum\u{E9}", "http://a/re\u{301}sume\u{301}", &nfc).unwrap());
/// ```
pub fn equivalent(a: &str, b: &str, opts: &NormalizeOptions) -> Result<bool, NormalizeError> {
    let a = normalize_operand(a, opts, Operand::First)?;
    let b = normalize_operand(b, opts, Operand::Second)?;
    Ok(a == b)
}

fn normalize_operand<'a>(
    iri: &'a str,
    opts: &NormalizeOptions,
    operand: Operand,
) -> Result<Cow<'a, str>, NormalizeError> {
    let c = parse(iri, Rule::IriReference, Syntax::Iri).map_err(|e| NormalizeError {
        operand,
        kind: ErrorKind::Invalid(e),
    })?;
    if opts.level == NormalizationLevel::Simple {
        return Ok(Cow::Borrowed(iri));
    }
    let mut out = Out::new(iri);
    normalize_components(iri, &c, opts, &mut out);
    Ok(out.finish())
}

/// The output, borrowed from the input for as long as it repeats it: no
/// allocation until the first piece that differs.
struct Out<'a> {
    src: &'a str,
    /// Length of the prefix of `src` the output equals (while `buf` is None).
    same: usize,
    buf: Option<String>,
}

impl<'a> Out<'a> {
    fn new(src: &'a str) -> Out<'a> {
        Out {
            src,
            same: 0,
            buf: None,
        }
    }

    fn push(&mut self, s: &str) {
        match &mut self.buf {
            Some(buf) => buf.push_str(s),
            None if repeats(self.src, self.same, s) => self.same += s.len(),
            None => {
                let mut buf = String::with_capacity(self.src.len() + s.len() + 8);
                buf.push_str(&self.src[..self.same]);
                buf.push_str(s);
                self.buf = Some(buf);
            }
        }
    }

    fn finish(self) -> Cow<'a, str> {
        match self.buf {
            // Once a piece differed, the output differs from the input at
            // that byte or is longer: never equal.
            Some(buf) => Cow::Owned(buf),
            None if self.same == self.src.len() => Cow::Borrowed(self.src),
            None => Cow::Owned(self.src[..self.same].to_owned()),
        }
    }
}

/// Whether `s` is what `src` holds from `at` on. Most pieces that
/// [`Out`] is given are slices of its input that start right there (a
/// component left as it was): those are known by their address, without
/// comparing bytes.
fn repeats(src: &str, at: usize, s: &str) -> bool {
    let rest = &src.as_bytes()[at..];
    (std::ptr::eq(s.as_ptr(), rest.as_ptr()) && s.len() <= rest.len())
        || rest.starts_with(s.as_bytes())
}

/// The schemes whose scheme-based rules we know, with their default ports
/// (RFC 9110 §4.2 for http/https, RFC 6455 §3 for ws/wss, RFC 1738 §3.2
/// for ftp). All use an authority, and define an empty path as `/`.
fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" | "ws" => Some("80"),
        "https" | "wss" => Some("443"),
        "ftp" => Some("21"),
        _ => None,
    }
}

fn normalize_components(s: &str, c: &Components, opts: &NormalizeOptions, out: &mut Out<'_>) {
    // ASCII without `%` (most IRIs in bulk lists): every component is
    // stable (see `is_stable`), which one look at the whole string tells.
    let plain = s.is_ascii() && !has_byte(s.as_bytes(), b'%');
    let text = |r: &std::ops::Range<usize>, in_query: bool| {
        if plain {
            Cow::Borrowed(&s[r.clone()])
        } else {
            normalize_text(&s[r.clone()], in_query, opts.form, opts.nfc)
        }
    };
    let scheme_level = opts.level >= NormalizationLevel::Scheme;
    let mut known_port = None;
    let mut mailto = false;
    if let Some(r) = &c.scheme {
        // §5.3.2.1: schemes are case-insensitive; lower case is canonical.
        let scheme = ascii_lower(&s[r.clone()]);
        if scheme_level {
            known_port = default_port(&scheme);
            mailto = scheme == "mailto";
        }
        out.push(&scheme);
        out.push(":");
    }
    if c.authority.is_some() {
        out.push("//");
        if let Some(r) = &c.userinfo {
            out.push(&text(r, false));
            out.push("@");
        }
        if let Some(r) = &c.host {
            out.push(&normalize_host(
                &s[r.clone()],
                opts,
                known_port.is_some(),
                plain,
            ));
        }
        if let Some(r) = &c.port {
            let port = &s[r.clone()];
            match (scheme_level, known_port) {
                // RFC 3986 §3.2.3: an empty port is the default port, for
                // every scheme; §5.3.3 removes it at the scheme rung.
                (true, _) if port.is_empty() => {}
                (true, Some(default)) => {
                    // A TCP port is a decimal number: 080 is 80.
                    let digits = port.trim_start_matches('0');
                    let digits = if digits.is_empty() { "0" } else { digits };
                    if digits != default {
                        out.push(":");
                        out.push(digits);
                    }
                }
                _ => {
                    out.push(":");
                    out.push(port);
                }
            }
        }
    }
    let mut path = text(&c.path, false);
    if mailto && c.authority.is_none() {
        // RFC 6068 §2: the domain of each address is case-insensitive.
        path = mailto_domains_lower(path);
    }
    let rooted = path.starts_with('/');
    // §5.3.2.4 / RFC 3986 §6.2.2.3. A rootless relative path keeps its dot
    // segments: they only mean something against a base.
    let path = if (c.scheme.is_some() || c.authority.is_some() || rooted) && has_dot_segment(&path)
    {
        Cow::Owned(remove_dot_segments(&path))
    } else {
        path
    };
    if c.authority.is_none() && path.starts_with("//") {
        // Would read back as an authority: write `/.//…`, which removing
        // dot segments turns back into this path (iri-string, WHATWG).
        out.push("/.");
    }
    if path.is_empty() && c.authority.is_some() && known_port.is_some() {
        // §5.3.3: for these schemes an empty path is "/".
        out.push("/");
    } else {
        out.push(&path);
    }
    if let Some(r) = &c.query {
        out.push("?");
        out.push(&text(r, true));
    }
    if let Some(r) = &c.fragment {
        out.push("#");
        out.push(&text(r, false));
    }
}

/// The addresses of a `mailto:` path (`a@B.example,c@D.example`) with
/// each US-ASCII domain in lower case (outside `%HH`, whose hex digits
/// percent-normalization made upper case); a domain with non-ASCII
/// characters keeps its case, as a host does (§5.3.2.1). The local part is
/// case-sensitive and kept.
fn mailto_domains_lower(path: Cow<'_, str>) -> Cow<'_, str> {
    let needs = path.split(',').any(|addr| {
        addr.rsplit_once('@').is_some_and(|(_, domain)| {
            is_us_ascii(domain) && matches!(lower_outside_triplets(domain), Cow::Owned(_))
        })
    });
    if !needs {
        return path;
    }
    let mut out = String::with_capacity(path.len());
    for (i, addr) in path.split(',').enumerate() {
        if i > 0 {
            out.push(',');
        }
        match addr.rsplit_once('@') {
            Some((local, domain)) if is_us_ascii(domain) => {
                out.push_str(local);
                out.push('@');
                out.push_str(&lower_outside_triplets(domain));
            }
            _ => out.push_str(addr),
        }
    }
    Cow::Owned(out)
}

/// ASCII lower case, borrowed when there is nothing to change.
fn ascii_lower(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `b` holds `x`: the standard library's word-at-a-time search.
/// The components of an IRI are short, and a vectorized search (`memchr`)
/// spends more on setting up than it saves on them (measured: about 55
/// instructions a call, twice this one's on a 40-byte IRI; a byte-by-byte
/// loop costs more than both).
fn has_byte(b: &[u8], x: u8) -> bool {
    b.contains(&x)
}

/// Whether a path has a complete `.` or `..` segment.
fn has_dot_segment(path: &str) -> bool {
    let b = path.as_bytes();
    // Each `.` that starts a segment: is the segment `.` or `..`?
    (0..b.len()).any(|i| {
        b[i] == b'.'
            && (i == 0 || b[i - 1] == b'/')
            && match b.get(i + 1) {
                None | Some(b'/') => true,
                Some(b'.') => matches!(b.get(i + 2), None | Some(b'/')),
                Some(_) => false,
            }
    })
}

/// The host: IP-literals to lower case; a reg-name (or IPv4 address)
/// percent-normalized, then lower-cased if it is US-ASCII only (§5.3.2.1),
/// and at the scheme rung, for the schemes we know, through IDNA.
/// `plain`: the host is ASCII without `%` (the caller knows).
fn normalize_host<'h>(
    host: &'h str,
    opts: &NormalizeOptions,
    known_scheme: bool,
    plain: bool,
) -> Cow<'h, str> {
    if is_ip_literal(host) {
        // RFC 3986 §3.2.2: the host is case-insensitive, IPv6 hex digits
        // and the IPvFuture "v" included; a valid IP-literal is ASCII
        // without `%`.
        return ascii_lower(host);
    }
    let text = if plain {
        Cow::Borrowed(host)
    } else {
        normalize_text(host, false, opts.form, opts.nfc)
    };
    let text = if plain || is_us_ascii(&text) {
        match lower_outside_triplets(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(lower) => Cow::Owned(lower),
        }
    } else {
        text
    };
    if opts.level >= NormalizationLevel::Scheme
        && known_scheme
        && let Some(idn) = idn_host(&text, opts.form)
    {
        return if idn == *text { text } else { Cow::Owned(idn) };
    }
    text
}

/// §5.3.2.1's "US-ASCII only host": no non-ASCII character, and no `%HH`
/// of a non-ASCII octet (which the IRI form could not decode).
fn is_us_ascii(host: &str) -> bool {
    host.is_ascii() && (!has_byte(host.as_bytes(), b'%') || !has_non_ascii_triplet(host))
}

/// ASCII letters to lower case, except the hex digits of `%HH` triplets,
/// which stay upper case (§5.3.2.1).
fn lower_outside_triplets(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < b.len() {
        if is_triplet(b, i) {
            i += 3;
            continue;
        }
        if b[i].is_ascii_uppercase() {
            out.get_or_insert_with(|| b.to_vec())[i] = b[i].to_ascii_lowercase();
        }
        i += 1;
    }
    match out {
        // Only ASCII letters changed, so the bytes are still UTF-8.
        Some(v) => Cow::Owned(String::from_utf8(v).unwrap_or_else(|_| s.to_owned())),
        None => Cow::Borrowed(s),
    }
}

/// The scheme rung for a reg-name already normalized by the syntax rung:
/// the canonical form of an IDN (see the module docs), or `None` to keep
/// the host as it is (nothing to do, IDNA rejects it, or it holds a
/// percent-encoded ASCII octet that ToASCII would decode).
fn idn_host(host: &str, form: NormalForm) -> Option<String> {
    let b = host.as_bytes();
    let mut high_triplet = false;
    if has_byte(b, b'%') {
        for i in 0..b.len() {
            if is_triplet(b, i) {
                if triplet_value(b, i) < 0x80 {
                    // A reserved (or not allowed) ASCII character, encoded:
                    // decoding it could change the host.
                    return None;
                }
                high_triplet = true;
            }
        }
    }
    if host.is_ascii() && !high_triplet && !has_ace_label(host) {
        // Already lower case (syntax rung); ToASCII would change nothing.
        return None;
    }
    // What is left depends on the host and the form only (see idn_memo).
    thread_local! {
        static MEMO: RefCell<HostMemo<Option<String>>> = RefCell::new(HostMemo::new());
    }
    memoized(&MEMO, host, form as u8, |host| idna_step(host, form))
}

/// Whether a label of `host` is an ACE label (`xn--…`).
fn has_ace_label(host: &str) -> bool {
    let b = host.as_bytes();
    let mut start = 0;
    loop {
        let end = b[start..]
            .iter()
            .position(|&x| x == b'.')
            .map_or(b.len(), |i| start + i);
        // `.` is ASCII: both ends are character boundaries.
        if is_ace_label(&host[start..end]) {
            return true;
        }
        if end == b.len() {
            return false;
        }
        start = end + 1;
    }
}

/// The IDNA part of [`idn_host`]: ToASCII, and for the IRI form ToUnicode
/// checked to map back.
fn idna_step(host: &str, form: NormalForm) -> Option<String> {
    let ascii = match idna_host(host) {
        // ASCII with punycode labels: ToASCII validates them.
        Ok(Cow::Borrowed(h)) => to_ascii(h, DnsLength::VerifyAllowRootDot)?.to_ascii_lowercase(),
        Ok(Cow::Owned(h)) => h.to_ascii_lowercase(),
        Err(_) => return None,
    };
    if ascii.is_empty() || ascii == "." {
        // Everything was mapped away (U+00AD …): not a host to merge with
        // the empty one.
        return None;
    }
    if form == NormalForm::Uri {
        return Some(ascii);
    }
    // IRI form: ToUnicode, label by label; a label keeps its punycode form
    // when ToUnicode fails or gives characters an IRI should not show.
    let mut unicode = String::with_capacity(ascii.len() * 2);
    for (k, label) in ascii.split('.').enumerate() {
        if k > 0 {
            unicode.push('.');
        }
        match is_ace_label(label)
            .then(|| punycode_label_to_unicode(label))
            .flatten()
            .filter(|u| {
                u.chars()
                    .all(|c| c.is_ascii() || Decoding::ForKey.decodes(c, false))
            }) {
            Some(u) => unicode.push_str(&u),
            None => unicode.push_str(label),
        }
    }
    if unicode == ascii {
        return Some(ascii);
    }
    // The Unicode form must come back to the same ASCII host, or the key
    // would not be stable under a second normalization.
    let back = idna_host(&unicode).ok()?.to_ascii_lowercase();
    Some(if back == ascii { unicode } else { ascii })
}

/// Percent-encoding normalization (§5.3.2.3), hex case (§5.3.2.1) and,
/// when asked, NFC (§5.3.2.2) of one component other than the scheme, the
/// port and an IP-literal, written in `form`. Borrowed when unchanged.
fn normalize_text(s: &str, in_query: bool, form: NormalForm, nfc: bool) -> Cow<'_, str> {
    if is_stable(s, in_query, form, nfc) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(normalize_text_slow(s, in_query, form, nfc))
}

/// True when [`normalize_text_slow`] certainly returns `s` as it is: no
/// `%`, every character written as the form writes it, already NFC.
fn is_stable(s: &str, in_query: bool, form: NormalForm, nfc: bool) -> bool {
    if s.is_ascii() {
        return !has_byte(s.as_bytes(), b'%');
    }
    form == NormalForm::Iri
        && !has_byte(s.as_bytes(), b'%')
        && s.chars()
            .all(|c| c.is_ascii() || Decoding::ForKey.decodes(c, in_query))
        && (!nfc || is_nfc_quick(s.chars()) == IsNormalized::Yes)
}

fn normalize_text_slow(s: &str, in_query: bool, form: NormalForm, nfc: bool) -> String {
    // 1. Decode what the IRI decoder decodes for a key; what stays encoded
    //    gets upper-case hex.
    let mut decoded = String::with_capacity(s.len());
    let mut run = Vec::new();
    push_decoded(s, in_query, Decoding::ForKey, &mut decoded, &mut run);
    // 2. NFC, between the characters it must not touch.
    if nfc && !decoded.is_ascii() {
        decoded = nfc_between_delimiters(&decoded, in_query);
    }
    // 3. Write each character as the form wants it.
    let mut out = String::with_capacity(decoded.len() + 8);
    match form {
        NormalForm::Uri => push_general(&decoded, &mut out),
        NormalForm::Iri => {
            let mut buf = [0u8; 4];
            for c in decoded.chars() {
                if c.is_ascii() || Decoding::ForKey.decodes(c, in_query) {
                    out.push(c);
                } else {
                    // Not appropriate in an IRI (white space and its
                    // look-alikes): always encoded.
                    push_pct_bytes(&mut out, c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
    out
}

/// A character NFC may work on: unreserved ASCII (a base letter may take a
/// combining mark) or a non-ASCII character that is written as itself.
/// Everything else — reserved characters, `%HH` triplets, characters that
/// are written encoded — is a fixed boundary.
fn nfc_may_touch(c: char, in_query: bool) -> bool {
    if c.is_ascii() {
        ascii_is(c as u8, UNRESERVED)
    } else {
        Decoding::ForKey.decodes(c, in_query)
    }
}

/// NFC of each stretch between boundaries (see [`nfc_may_touch`]); a
/// stretch whose NFC would hold a boundary character (U+037E → `;`,
/// U+1FEF → `` ` ``) is kept as it is, so NFC never makes a delimiter.
fn nfc_between_delimiters(s: &str, in_query: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut start = 0; // start of the current stretch
    let mut i = 0;
    while i < b.len() {
        if is_triplet(b, i) {
            nfc_stretch(&s[start..i], in_query, &mut out);
            out.push_str(&s[i..i + 3]);
            i += 3;
            start = i;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or('\0');
        let n = c.len_utf8();
        if !nfc_may_touch(c, in_query) {
            nfc_stretch(&s[start..i], in_query, &mut out);
            out.push(c);
            start = i + n;
        }
        i += n;
    }
    nfc_stretch(&s[start..], in_query, &mut out);
    out
}

fn nfc_stretch(stretch: &str, in_query: bool, out: &mut String) {
    if stretch.is_ascii() || is_nfc_quick(stretch.chars()) == IsNormalized::Yes {
        out.push_str(stretch);
        return;
    }
    let nfc: String = stretch.nfc().collect();
    if nfc.chars().all(|c| nfc_may_touch(c, in_query)) {
        out.push_str(&nfc);
    } else {
        out.push_str(stretch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(level: NormalizationLevel, form: NormalForm) -> NormalizeOptions {
        NormalizeOptions::new().level(level).form(form)
    }

    fn syn(s: &str) -> String {
        normalize(s, &NormalizeOptions::new()).unwrap().into_owned()
    }

    fn syn_uri(s: &str) -> String {
        let o = opts(NormalizationLevel::Syntax, NormalForm::Uri);
        normalize(s, &o).unwrap().into_owned()
    }

    fn sch(s: &str) -> String {
        let o = opts(NormalizationLevel::Scheme, NormalForm::Iri);
        normalize(s, &o).unwrap().into_owned()
    }

    fn sch_uri(s: &str) -> String {
        let o = opts(NormalizationLevel::Scheme, NormalForm::Uri);
        normalize(s, &o).unwrap().into_owned()
    }

    // --- simple string comparison -------------------------------------

    #[test]
    fn simple_is_the_identity_and_still_validates() {
        let o = NormalizeOptions::new()
            .level(NormalizationLevel::Simple)
            .form(NormalForm::Uri)
            .nfc(true);
        let s = "HTTP://A/./%7e/re\u{301}";
        assert!(matches!(normalize(s, &o).unwrap(), Cow::Borrowed(x) if x == s));
        assert!(normalize("http://a b/", &o).is_err());
        assert!(!equivalent("http://a/~", "http://a/%7E", &o).unwrap());
    }

    // --- case normalization (§5.3.2.1) ---------------------------------

    #[test]
    fn scheme_and_ascii_host_to_lower_case() {
        assert_eq!(syn("HTTP://www.EXAMPLE.com/"), "http://www.example.com/");
        assert_eq!(
            syn("HtTp://HoSt/PaTh?QuErY#FrAg"),
            "http://host/PaTh?QuErY#FrAg"
        );
        // Userinfo keeps its case.
        assert_eq!(syn("http://UsEr@H/"), "http://UsEr@h/");
    }

    #[test]
    fn percent_hex_to_upper_case_everywhere() {
        assert_eq!(
            syn("s://u%3a@h%2b/p%2f?q%3d#f%23"),
            "s://u%3A@h%2B/p%2F?q%3D#f%23"
        );
        // Host letters go to lower case, hex digits stay upper case.
        assert_eq!(syn("s://PLUS%2bPLUS/"), "s://plus%2Bplus/");
    }

    #[test]
    fn ip_literals_to_lower_case() {
        assert_eq!(syn("http://[2001:DB8::A]/"), "http://[2001:db8::a]/");
        assert_eq!(syn("http://[V1F.AbC]/"), "http://[v1f.abc]/");
    }

    #[test]
    fn non_ascii_hosts_keep_their_case_at_the_syntax_rung() {
        assert_eq!(syn("http://usER@α.CoM/"), "http://usER@α.CoM/");
        assert_eq!(syn("http://Ä.example/"), "http://Ä.example/");
        // A percent-encoded non-ASCII octet makes the host non-ASCII too,
        // in both forms (they must agree).
        assert_eq!(syn("SCHEME://Alpha%ce%b1/"), "scheme://Alphaα/");
        assert_eq!(syn_uri("SCHEME://Alpha%ce%b1/"), "scheme://Alpha%CE%B1/");
        assert_eq!(syn("s://AB%FF/"), "s://AB%FF/");
    }

    // --- percent-encoding normalization (§5.3.2.3) ---------------------

    #[test]
    fn unreserved_ascii_is_decoded_reserved_never() {
        assert_eq!(
            syn("http://example.org/%7euser"),
            "http://example.org/~user"
        );
        assert_eq!(
            syn("http://example.org/%7Euser"),
            "http://example.org/~user"
        );
        assert_eq!(
            syn("http://example.com/%7E%41%73%63%69%69%21"),
            "http://example.com/~Ascii%21"
        );
        for r in [
            "%3A", "%2F", "%3F", "%23", "%5B", "%5D", "%40", "%21", "%24", "%26", "%27", "%28",
            "%29", "%2A", "%2B", "%2C", "%3B", "%3D", "%25",
        ] {
            let s = format!("s://h/{r}?{r}#{r}");
            assert_eq!(syn(&s), s);
            assert_eq!(syn_uri(&s), s);
            assert_eq!(sch(&s), s);
        }
        // Not allowed in URIs at all: stays encoded, hex upper case.
        assert_eq!(syn("s:%20%7b%7C%5c"), "s:%20%7B%7C%5C");
    }

    #[test]
    fn iri_form_decodes_utf8_of_iunreserved_only() {
        assert_eq!(syn("s:/ros%C3%A9"), "s:/rosé");
        assert_eq!(syn_uri("s:/ros%c3%a9"), "s:/ros%C3%A9");
        assert_eq!(syn_uri("s:/rosé"), "s:/ros%C3%A9");
        // Not strictly valid UTF-8: stays, hex upper case.
        assert_eq!(syn("s:/%c0%af%ed%a0%80%ce"), "s:/%C0%AF%ED%A0%80%CE");
        assert_eq!(syn("s:/%CE%CE%B1"), "s:/%CEα");
        // Bidi formatting characters and look-alikes of space stay encoded.
        assert_eq!(syn("s:/%e2%80%ae%c2%a0"), "s:/%E2%80%AE%C2%A0");
    }

    #[test]
    fn space_like_characters_are_always_written_encoded_in_the_iri_form() {
        assert_eq!(syn("s:/a\u{A0}b\u{3000}"), "s:/a%C2%A0b%E3%80%80");
        assert!(equivalent("s:/a\u{A0}b", "s:/a%c2%a0b", &NormalizeOptions::new()).unwrap());
    }

    #[test]
    fn private_use_is_decoded_in_the_query_only() {
        assert_eq!(
            syn("s:/%EE%80%80?%EE%80%80#%EE%80%80"),
            "s:/%EE%80%80?\u{E000}#%EE%80%80"
        );
        assert_eq!(syn_uri("s:/?\u{E000}"), "s:/?%EE%80%80");
    }

    // --- path segment normalization (§5.3.2.4) -------------------------

    #[test]
    fn dot_segments_are_removed_after_decoding() {
        assert_eq!(
            syn("eXAMPLE://a/./b/../b/%63/%7bfoo%7d"),
            "example://a/b/c/%7Bfoo%7D"
        );
        assert_eq!(syn("http://e/a/b/c/.%2e/d/e"), "http://e/a/b/d/e");
        assert_eq!(syn("https://example.com/.."), "https://example.com/");
        assert_eq!(syn("scheme:foo/../p%61th"), "scheme:/path");
        assert_eq!(syn("/a/./b/../c"), "/a/c");
        // Rootless relative paths keep their dot segments.
        assert_eq!(syn("a/../b"), "a/../b");
        assert_eq!(syn("%2E%2E/x"), "../x");
        // Query and fragment are not paths.
        assert_eq!(syn("s:/a?/./..#/../"), "s:/a?/./..#/../");
    }

    #[test]
    fn path_that_would_read_as_an_authority_gets_a_dot_prefix() {
        assert_eq!(syn("scheme:/a/b/../..//c"), "scheme:/.//c");
        assert_eq!(syn("scheme:..///not-a-host"), "scheme:/.//not-a-host");
        assert_eq!(syn("scheme:/.//not-a-host"), "scheme:/.//not-a-host");
        assert_eq!(syn("/a/..//c"), "/.//c");
        // With an authority, `//` is just a path.
        assert_eq!(syn("s://h/.//foo"), "s://h//foo");
    }

    // --- character normalization (§5.3.2.2) ----------------------------

    #[test]
    fn nfc_only_when_asked() {
        let nfc = NormalizeOptions::new().nfc(true);
        let s = "http://www.example.org/re\u{301}sume\u{301}.html";
        assert_eq!(syn(s), s);
        assert_eq!(
            normalize(s, &nfc).unwrap(),
            "http://www.example.org/r\u{E9}sum\u{E9}.html"
        );
        // Decoded first: an encoded combining mark composes too.
        assert_eq!(normalize("s:/e%CC%81", &nfc).unwrap(), "s:/\u{E9}");
        let uri = nfc.form(NormalForm::Uri);
        assert_eq!(
            normalize("http://example.com/?q=C%CC%A7", &uri).unwrap(),
            "http://example.com/?q=%C3%87"
        );
    }

    #[test]
    fn nfc_never_touches_delimiters() {
        let nfc = NormalizeOptions::new().nfc(true);
        // '=' + U+0338 is canonically U+2260 '≠'; the '=' stays a '='.
        assert_eq!(normalize("s:?a=\u{338}b", &nfc).unwrap(), "s:?a=\u{338}b");
        // U+037E is canonically ';': left as it is.
        assert_eq!(normalize("s:/a\u{37E}b", &nfc).unwrap(), "s:/a\u{37E}b");
        // A triplet's hex digits never take a combining mark.
        assert_eq!(normalize("s:/%CA\u{300}", &nfc).unwrap(), "s:/%CA\u{300}");
        // U+212A KELVIN SIGN is canonically 'K', which is harmless.
        assert_eq!(normalize("s:/\u{212A}", &nfc).unwrap(), "s:/K");
    }

    #[test]
    fn white_space_an_iri_cannot_hold_stays_encoded_in_the_iri_form() {
        // WORD JOINER, MONGOLIAN VOWEL SEPARATOR, ZERO WIDTH SPACE, NBSP:
        // decoded, they would end the IRI where a scanner finds it again
        // (docs/rules.md §1.2); the key keeps them encoded, in upper case.
        let opts = NormalizeOptions::new();
        for (triplets, c) in [
            ("%E2%81%A0", '\u{2060}'),
            ("%e1%a0%8e", '\u{180E}'),
            ("%E2%80%8B", '\u{200B}'),
            ("%C2%A0", '\u{A0}'),
        ] {
            let iri = format!("http://a.example/x{triplets}y");
            let key = normalize(&iri, &opts).unwrap();
            assert_eq!(
                key,
                format!("http://a.example/x{}y", triplets.to_uppercase())
            );
            assert!(!key.contains(c));
        }
        // Letters are decoded as before.
        assert_eq!(
            normalize("http://a.example/caf%C3%A9", &opts).unwrap(),
            "http://a.example/café"
        );
    }

    // --- scheme-based normalization (§5.3.3) ---------------------------

    #[test]
    fn default_and_empty_ports_and_empty_paths() {
        for s in [
            "http://example.com",
            "http://example.com/",
            "http://example.com:/",
            "http://example.com:80/",
            "HTTP://EXAMPLE.COM:0080",
        ] {
            assert_eq!(sch(s), "http://example.com/", "{s}");
        }
        assert_eq!(sch("https://h:443"), "https://h/");
        assert_eq!(sch("ws://h:80?x"), "ws://h/?x");
        assert_eq!(sch("wss://h:443#f"), "wss://h/#f");
        assert_eq!(sch("ftp://h:21/f"), "ftp://h/f");
        assert_eq!(sch("https://h:80/"), "https://h:80/");
        assert_eq!(sch("http://example.com:081/"), "http://example.com:81/");
        assert_eq!(sch("http://h:00/"), "http://h:0/");
        // Other schemes: only the empty port goes.
        assert_eq!(sch("foo://h:/"), "foo://h/");
        assert_eq!(sch("foo://h:80"), "foo://h:80");
        assert_eq!(sch("foo://h"), "foo://h");
        // Not at the syntax rung.
        assert_eq!(syn("http://example.com:80"), "http://example.com:80");
        assert_eq!(syn("http://example.com:"), "http://example.com:");
    }

    #[test]
    fn empty_delimiters_are_significant() {
        assert_eq!(sch("http://example.com/?"), "http://example.com/?");
        assert_eq!(sch("http://example.com#"), "http://example.com/#");
        assert_eq!(sch("http://@example.com/"), "http://@example.com/");
    }

    #[test]
    fn idn_and_punycode_hosts_are_one() {
        let forms = [
            "http://résumé.example.org",
            "http://RÉSUMÉ.Example.ORG/",
            "http://r%C3%A9sum%c3%a9.example.org:80/",
            "http://xn--rsum-bpad.example.org",
            "http://XN--RSUM-BPAD.EXAMPLE.ORG:/",
        ];
        for s in forms {
            assert_eq!(sch(s), "http://résumé.example.org/", "{s}");
            assert_eq!(sch_uri(s), "http://xn--rsum-bpad.example.org/", "{s}");
        }
        // Mixed hosts are folded at the scheme rung.
        assert_eq!(sch("http://α.CoM/"), "http://α.com/");
        // Other schemes: no IDNA.
        assert_eq!(
            sch("foo://xn--rsum-bpad.example/"),
            "foo://xn--rsum-bpad.example/"
        );
    }

    #[test]
    fn hosts_idna_rejects_or_that_hide_reserved_octets_are_kept() {
        assert_eq!(sch("http://xn--a.example/"), "http://xn--a.example/");
        assert_eq!(sch("http://a%2Bb.é.com/"), "http://a%2Bb.é.com/");
        assert_eq!(
            sch("http://r%E9sum%E9.example/"),
            "http://r%E9sum%E9.example/"
        );
        assert_eq!(sch("http://\u{AD}/"), "http://\u{AD}/");
    }

    // --- machinery -----------------------------------------------------

    #[test]
    fn borrowed_when_already_normalized() {
        let all = [
            NormalizeOptions::new(),
            opts(NormalizationLevel::Scheme, NormalForm::Iri),
            opts(NormalizationLevel::Scheme, NormalForm::Uri).nfc(true),
        ];
        for o in all {
            for s in [
                "http://example.com/a/b?c#d",
                "urn:isbn:0451450523",
                "http://[::1]:8080/",
                "",
                "../a",
            ] {
                assert!(matches!(normalize(s, &o).unwrap(), Cow::Borrowed(_)), "{s}");
            }
        }
        assert!(matches!(
            normalize("http://h/é?\u{E000}", &NormalizeOptions::new()).unwrap(),
            Cow::Borrowed(_)
        ));
        // A shorter result is owned.
        let o = opts(NormalizationLevel::Scheme, NormalForm::Iri);
        assert_eq!(normalize("foo://h:", &o).unwrap(), "foo://h");
    }

    #[test]
    fn errors_name_the_input_position_and_rule() {
        let o = NormalizeOptions::new();
        let e = normalize("http://a/%zz", &o).unwrap_err();
        assert_eq!(
            (e.operand(), e.position(), e.rule()),
            (Operand::First, 9, "pct-encoded")
        );
        assert!(e.to_string().contains("byte 9"), "{e}");
        let e = equivalent("a b", "x", &o).unwrap_err();
        assert_eq!(e.operand(), Operand::First);
        let e = equivalent("x", "http://[::1/", &o).unwrap_err();
        assert_eq!(e.operand(), Operand::Second);
        assert!(e.to_string().starts_with("second input"), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn fast_path_agrees_with_the_slow_path() {
        let pieces = [
            "a",
            "é",
            "e\u{301}",
            "\u{A0}",
            "\u{E000}",
            "~",
            "=",
            "\u{338}",
            "\u{37E}",
            "K",
            "\u{212A}",
            "Å",
            "A\u{30A}",
            "\u{1100}\u{1161}",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let s = format!("{a}{b}{c}");
                    for form in [NormalForm::Iri, NormalForm::Uri] {
                        for nfc in [false, true] {
                            for q in [false, true] {
                                if is_stable(&s, q, form, nfc) {
                                    assert_eq!(normalize_text_slow(&s, q, form, nfc), s);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mailto_domains_are_case_insensitive_at_the_scheme_rung() {
        let scheme = opts(NormalizationLevel::Scheme, NormalForm::Iri);
        let syntax = opts(NormalizationLevel::Syntax, NormalForm::Iri);
        for (input, want) in [
            ("mailto:Joe@Example.COM", "mailto:Joe@example.com"),
            (
                "MAILTO:Joe@Example.COM,Ann@B.Org?subject=Hi",
                "mailto:Joe@example.com,Ann@b.org?subject=Hi",
            ),
            ("mailto:a%40b@EX%2eCOM", "mailto:a%40b@ex.com"),
            ("mailto:Joe@例え.JP", "mailto:Joe@例え.JP"),
            ("mailto:joe@example.com", "mailto:joe@example.com"),
            ("mailto:?to=Joe@Example.COM", "mailto:?to=Joe@Example.COM"),
        ] {
            assert_eq!(normalize(input, &scheme).unwrap(), want, "{input}");
            assert_eq!(normalize(want, &scheme).unwrap(), want, "{want}");
        }
        assert!(matches!(
            normalize("mailto:joe@example.com", &scheme).unwrap(),
            Cow::Borrowed(_)
        ));
        // Below the scheme rung, and for other schemes, the path is kept.
        assert_eq!(
            normalize("mailto:Joe@Example.COM", &syntax).unwrap(),
            "mailto:Joe@Example.COM"
        );
        assert_eq!(
            normalize("news:Joe@Example.COM", &scheme).unwrap(),
            "news:Joe@Example.COM"
        );
    }

    #[test]
    fn out_borrows_only_an_unchanged_prefix() {
        let mut o = Out::new("abc");
        o.push("ab");
        o.push("c");
        assert!(matches!(o.finish(), Cow::Borrowed("abc")));
        let mut o = Out::new("abc");
        o.push("ab");
        assert!(matches!(o.finish(), Cow::Owned(s) if s == "ab"));
        let mut o = Out::new("abc");
        o.push("ax");
        o.push("c");
        assert_eq!(o.finish(), "axc");
        let mut o = Out::new("ab");
        o.push("abc");
        assert_eq!(o.finish(), "abc");
        // Slices of the input: known by address where they start at the
        // current place, compared elsewhere.
        let src = "abab";
        let mut o = Out::new(src);
        o.push(&src[..2]);
        o.push(&src[..2]);
        assert!(matches!(o.finish(), Cow::Borrowed("abab")));
        let mut o = Out::new(src);
        o.push(&src[..1]);
        o.push(&src[..3]);
        assert_eq!(o.finish(), "aaba");
    }

    #[test]
    fn big_inputs_take_linear_time() {
        let n = 100_000;
        let inputs = [
            format!("http://h/{}", "a/..".repeat(n)),
            format!("http://h/{}", "%41".repeat(n)),
            format!("http://h/{}", "e\u{301}".repeat(n)),
            format!("http://{}.com/", "é".repeat(n)),
            format!("http://h/?{}", "%CE%CE%B1".repeat(n)),
            format!("s:{}", "/.".repeat(n)),
        ];
        let all = NormalizeOptions::new()
            .level(NormalizationLevel::Scheme)
            .nfc(true);
        for s in &inputs {
            for form in [NormalForm::Iri, NormalForm::Uri] {
                let once = normalize(s, &all.form(form)).unwrap();
                assert_eq!(normalize(&once, &all.form(form)).unwrap(), once);
            }
        }
    }

    #[test]
    fn parsed_input_normalizes_as_the_string_does() {
        let inputs = [
            "HTTP://Example.COM:80/a/./b/../%7euser?Q=%3f#F",
            "http://例え.テスト/docs/./1/x/../page#top",
            "HTTP://XN--R8JZ45G.XN--ZCKZAH:80/docs/%31/page",
            "https://R%C3%A9sum%C3%A9.Example:0443",
            "ftp://[2001:DB8::A]:021/",
            "foo://a:/./b",
            "s:/a/..//b",
            "../x/./y",
            "//h/p?%e2%82%ac",
            "",
            "mailto:A@B.example",
            "http://a/re\u{301}sume\u{301}",
        ];
        for s in inputs {
            let iri = Iri::parse_reference(s).unwrap();
            for level in [
                NormalizationLevel::Simple,
                NormalizationLevel::Syntax,
                NormalizationLevel::Scheme,
            ] {
                for form in [NormalForm::Iri, NormalForm::Uri] {
                    for nfc in [false, true] {
                        let o = opts(level, form).nfc(nfc);
                        assert_eq!(
                            normalize_parsed(&iri, &o),
                            normalize(s, &o).unwrap(),
                            "{s} {o:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn byte_scans_agree_with_splitting() {
        let pieces = [
            "", ".", "..", "...", "a", ".a", "a.", "xn--", "xn--a", "XN--b", "-",
        ];
        for sep in ['/', '.'] {
            for a in pieces {
                for b in pieces {
                    for c in pieces {
                        let s = format!("{a}{sep}{b}{sep}{c}");
                        for t in [s.as_str(), &s[1.min(s.len())..], a] {
                            assert_eq!(
                                has_dot_segment(t),
                                t.split('/').any(|seg| seg == "." || seg == ".."),
                                "{t:?}"
                            );
                            assert_eq!(has_ace_label(t), t.split('.').any(is_ace_label), "{t:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn remembered_idn_hosts_give_the_same_key() {
        let iri = opts(NormalizationLevel::Scheme, NormalForm::Iri);
        let uri = opts(NormalizationLevel::Scheme, NormalForm::Uri);
        for _ in 0..3 {
            assert_eq!(
                sch("http://xn--rsum-bpad.example/"),
                "http://résumé.example/"
            );
            assert_eq!(
                sch_uri("http://résumé.example/"),
                "http://xn--rsum-bpad.example/"
            );
            assert_eq!(
                normalize("http://résumé.example/", &iri).unwrap(),
                "http://résumé.example/"
            );
            assert_eq!(
                normalize("http://xn--rsum-bpad.example/", &uri).unwrap(),
                "http://xn--rsum-bpad.example/"
            );
            // Rejected hosts are remembered as kept.
            assert_eq!(sch("http://xn--a.example/"), "http://xn--a.example/");
        }
    }
}
