//! The grammar of RFC 3987bis §2.2 as a regular expression, one named piece
//! per ABNF rule, and the automaton built from it.
//!
//! # Why a second grammar
//!
//! [`parse`](crate::parse) is hand-written for speed: one table walk that
//! splits and checks at once. A validator that fast needs an independent
//! witness that it accepts exactly the language of the ABNF. The ABNF of
//! §2.2 is regular (it has no recursion), so it can be transcribed, rule by
//! rule, into one regular expression ([`grammar_regex`]) that a reader can
//! hold against the RFC line by line, and compiled by `regex-automata` into
//! a deterministic automaton ([`GrammarAutomaton`]): linear in the length
//! of the string, whatever the string, so it can judge long and hostile
//! inputs that a backtracking oracle could not. The tests and the fuzz
//! targets hold [`parse`](crate::parse) to its verdicts on every rule and
//! syntax.
//!
//! # The transcription
//!
//! Each function below is one ABNF rule and bears its name (`ipchar`,
//! `ipath-abempty`, `IPv6address`, …); alternatives become `|`, `*`
//! becomes `*`, `[ ]` becomes `?`, `m*n` becomes `{m,n}`. Single
//! characters of a rule are gathered into one character class (the
//! alternatives `iunreserved / sub-delims / ":" / "@"` are the class
//! `[A-Za-z0-9\-._~!$&'()*+,;=:@…]`), which is the same language. The
//! literal `"v"` of `IPvFuture` is case-insensitive, as every ABNF string
//! is (RFC 5234 §2.3); hexadecimal digits take both cases.
//!
//! The repertoire of the [`Syntax`] decides three classes, as it does for
//! the validator:
//!
//! | syntax | `ucschar` | `iprivate` (query only) | more in userinfo, path, query, fragment |
//! |---|---|---|---|
//! | `Uri` | none | none | none |
//! | `Iri` | 3987bis `ucschar` without the bidi formatting characters | 3987bis `iprivate` | none |
//! | `Text` | as `Iri` | as `Iri` | `{` `}` `^` `[` `]`, and `#` in the fragment (docs/rules.md §1.2) |
//! | `Leiri` | §6.1's: space, `<>"{}\|\^` and backquote, C0 controls, U+007F and up except surrogates and U+FFFE/U+FFFF | the same | none |
//!
//! ```
//! use iriscan::{GrammarAutomaton, Rule, Syntax};
//!
//! let iri = GrammarAutomaton::new(Rule::Iri, Syntax::Iri);
//! assert!(iri.is_match("http://例え.jp/引き出し?q=ü#frag"));
//! assert!(!iri.is_match("http://example.org/a^b"));
//! assert!(GrammarAutomaton::new(Rule::Iri, Syntax::Text).is_match("http://example.org/a^b"));
//! assert!(iri.is_match("http://[::ffff:192.0.2.1]:80/"));
//! assert!(!iri.is_match("http://[1:2:3:4:5:6:7]/"));
//! ```

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::{Anchored, Input};

use crate::iri::parse::{Rule, Syntax};

/// The ABNF rule `ALPHA` (and the other core rules, RFC 5234 Appendix B),
/// as the inside of a character class.
const ALPHA: &str = "A-Za-z";
const DIGIT: &str = "0-9";
const HEXDIG: &str = "[0-9A-Fa-f]";
/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`, inside a class.
const UNRESERVED: &str = r"A-Za-z0-9\-._~";
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
const SUB_DELIMS: &str = r"!$&'()*+,;=";
/// `pct-encoded = "%" HEXDIG HEXDIG`.
const PCT_ENCODED: &str = "%[0-9A-Fa-f]{2}";

/// 3987bis `ucschar` (every plane's last two code points excluded).
const UCSCHAR: &str = r"\x{A0}-\x{D7FF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFEF}\x{10000}-\x{1FFFD}\x{20000}-\x{2FFFD}\x{30000}-\x{3FFFD}\x{40000}-\x{4FFFD}\x{50000}-\x{5FFFD}\x{60000}-\x{6FFFD}\x{70000}-\x{7FFFD}\x{80000}-\x{8FFFD}\x{90000}-\x{9FFFD}\x{A0000}-\x{AFFFD}\x{B0000}-\x{BFFFD}\x{C0000}-\x{CFFFD}\x{D0000}-\x{DFFFD}\x{E1000}-\x{EFFFD}";
/// 3987bis `iprivate`.
const IPRIVATE: &str =
    r"\x{E000}-\x{F8FF}\x{E0000}-\x{E0FFF}\x{F0000}-\x{FFFFD}\x{100000}-\x{10FFFD}";
/// The bidirectional formatting characters, which RFC 3987 §4.1 forbids
/// in IRIs (3987bis §6.1 lifts it for LEIRIs only).
const BIDI_FORMATTING: &str = r"\x{61C}\x{200E}\x{200F}\x{202A}-\x{202E}\x{2066}-\x{2069}";
/// §6.1's `ucschar` of Legacy Extended IRIs.
const LEIRI_UCSCHAR: &str =
    r#" <>"{}|\\\^`\x00-\x1F\x{7F}-\x{D7FF}\x{E000}-\x{FFFD}\x{10000}-\x{10FFFF}"#;
/// What running text adds (docs/rules.md §1.2).
const TEXT_EXTRA: &str = r"\{\}\^\[\]";

/// The three classes a [`Syntax`] decides, each the inside of a character
/// class (possibly empty).
struct Repertoire {
    ucschar: String,
    iprivate: String,
    extra: &'static str,
    /// More in the fragment: `#` for `Text` (a second `#`, docs/rules.md
    /// §1.2).
    fragment_extra: &'static str,
}

impl Repertoire {
    fn of(syntax: Syntax) -> Repertoire {
        let iri = || format!("[{UCSCHAR}--[{BIDI_FORMATTING}]]");
        match syntax {
            Syntax::Uri => Repertoire {
                ucschar: String::new(),
                iprivate: String::new(),
                extra: "",
                fragment_extra: "",
            },
            Syntax::Iri => Repertoire {
                ucschar: iri(),
                iprivate: format!("[{IPRIVATE}]"),
                extra: "",
                fragment_extra: "",
            },
            Syntax::Text => Repertoire {
                ucschar: iri(),
                iprivate: format!("[{IPRIVATE}]"),
                extra: TEXT_EXTRA,
                fragment_extra: "#",
            },
            Syntax::Leiri => Repertoire {
                ucschar: format!("[{LEIRI_UCSCHAR}]"),
                iprivate: format!("[{LEIRI_UCSCHAR}]"),
                extra: "",
                fragment_extra: "",
            },
        }
    }

    /// `iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar`,
    /// inside a class.
    fn iunreserved(&self) -> String {
        format!("{UNRESERVED}{}", self.ucschar)
    }

    /// `ipchar = iunreserved / pct-encoded / sub-delims / ":" / "@"`.
    fn ipchar(&self) -> String {
        format!(
            "(?:[{}{SUB_DELIMS}:@{}]|{PCT_ENCODED})",
            self.iunreserved(),
            self.extra
        )
    }

    /// `iquery = *( ipchar / iprivate / "/" / "?" )`.
    fn iquery(&self) -> String {
        format!("(?:{}|[{}/?])*", self.ipchar(), self.iprivate)
    }

    /// `ifragment = *( ipchar / "/" / "?" )`, and `#` for `Text`.
    fn ifragment(&self) -> String {
        format!("(?:{}|[/?{}])*", self.ipchar(), self.fragment_extra)
    }

    /// `isegment = *ipchar`.
    fn isegment(&self) -> String {
        format!("{}*", self.ipchar())
    }

    /// `isegment-nz = 1*ipchar`.
    fn isegment_nz(&self) -> String {
        format!("{}+", self.ipchar())
    }

    /// `isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims / "@" )`.
    fn isegment_nz_nc(&self) -> String {
        format!(
            "(?:[{}{SUB_DELIMS}@{}]|{PCT_ENCODED})+",
            self.iunreserved(),
            self.extra
        )
    }

    /// `ipath-abempty = *( "/" isegment )`.
    fn ipath_abempty(&self) -> String {
        format!("(?:/{})*", self.isegment())
    }

    /// `ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]`.
    fn ipath_absolute(&self) -> String {
        format!("/(?:{}{})?", self.isegment_nz(), self.ipath_abempty())
    }

    /// `ipath-noscheme = isegment-nz-nc *( "/" isegment )`.
    fn ipath_noscheme(&self) -> String {
        format!("{}{}", self.isegment_nz_nc(), self.ipath_abempty())
    }

    /// `ipath-rootless = isegment-nz *( "/" isegment )`.
    fn ipath_rootless(&self) -> String {
        format!("{}{}", self.isegment_nz(), self.ipath_abempty())
    }

    /// `iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )`.
    fn iuserinfo(&self) -> String {
        format!(
            "(?:[{}{SUB_DELIMS}:{}]|{PCT_ENCODED})*",
            self.iunreserved(),
            self.extra
        )
    }

    /// `ireg-name = *( iunreserved / pct-encoded / sub-delims )`.
    fn ireg_name(&self) -> String {
        format!("(?:[{}{SUB_DELIMS}]|{PCT_ENCODED})*", self.iunreserved())
    }

    /// `ihost = IP-literal / IPv4address / ireg-name`.
    fn ihost(&self) -> String {
        format!(
            "(?:{}|{}|{})",
            ip_literal(),
            ipv4address(),
            self.ireg_name()
        )
    }

    /// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]`.
    fn iauthority(&self) -> String {
        format!("(?:{}@)?{}(?::{})?", self.iuserinfo(), self.ihost(), port())
    }

    /// `"//" iauthority ipath-abempty`, the first alternative of both
    /// `ihier-part` and `irelative-part`.
    fn authority_path(&self) -> String {
        format!("//{}{}", self.iauthority(), self.ipath_abempty())
    }

    /// `ihier-part = "//" iauthority ipath-abempty / ipath-absolute /
    /// ipath-rootless / ipath-empty`.
    fn ihier_part(&self) -> String {
        format!(
            "(?:{}|{}|{}|)",
            self.authority_path(),
            self.ipath_absolute(),
            self.ipath_rootless()
        )
    }

    /// `irelative-part = "//" iauthority ipath-abempty / ipath-absolute /
    /// ipath-noscheme / ipath-empty`.
    fn irelative_part(&self) -> String {
        format!(
            "(?:{}|{}|{}|)",
            self.authority_path(),
            self.ipath_absolute(),
            self.ipath_noscheme()
        )
    }

    /// `absolute-IRI = scheme ":" ihier-part [ "?" iquery ]`.
    fn absolute_iri(&self) -> String {
        format!(
            "{}:{}(?:\\?{})?",
            scheme(),
            self.ihier_part(),
            self.iquery()
        )
    }

    /// `IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]`.
    fn iri(&self) -> String {
        format!("{}(?:#{})?", self.absolute_iri(), self.ifragment())
    }

    /// `irelative-ref = irelative-part [ "?" iquery ] [ "#" ifragment ]`.
    fn irelative_ref(&self) -> String {
        format!(
            "{}(?:\\?{})?(?:#{})?",
            self.irelative_part(),
            self.iquery(),
            self.ifragment()
        )
    }

    /// `IRI-reference = IRI / irelative-ref`.
    fn iri_reference(&self) -> String {
        format!("(?:{}|{})", self.iri(), self.irelative_ref())
    }
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn scheme() -> String {
    format!(r"[{ALPHA}][{ALPHA}{DIGIT}+\-.]*")
}

/// `port = *DIGIT`.
fn port() -> String {
    format!("[{DIGIT}]*")
}

/// `dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT /
/// "25" %x30-35`.
fn dec_octet() -> &'static str {
    "(?:[0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])"
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`.
fn ipv4address() -> String {
    let d = dec_octet();
    format!(r"{d}\.{d}\.{d}\.{d}")
}

/// `h16 = 1*4HEXDIG`.
fn h16() -> String {
    format!("{HEXDIG}{{1,4}}")
}

/// `ls32 = ( h16 ":" h16 ) / IPv4address`.
fn ls32() -> String {
    let h = h16();
    format!("(?:{h}:{h}|{})", ipv4address())
}

/// `IPv6address`, its nine alternatives (RFC 3986 §3.2.2).
fn ipv6address() -> String {
    let (h, ls) = (h16(), ls32());
    // `n( h16 ":" )`, and `[ *k( h16 ":" ) h16 ]`.
    let n = |k: usize| format!("(?:{h}:){{{k}}}");
    let upto = |k: usize| format!("(?:(?:{h}:){{0,{k}}}{h})?");
    let alternatives = [
        format!("{}{ls}", n(6)),
        format!("::{}{ls}", n(5)),
        format!("(?:{h})?::{}{ls}", n(4)),
        format!("{}::{}{ls}", upto(1), n(3)),
        format!("{}::{}{ls}", upto(2), n(2)),
        format!("{}::{h}:{ls}", upto(3)),
        format!("{}::{ls}", upto(4)),
        format!("{}::{h}", upto(5)),
        format!("{}::", upto(6)),
    ];
    format!("(?:{})", alternatives.join("|"))
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn ipvfuture() -> String {
    format!(r"[vV]{HEXDIG}+\.[{UNRESERVED}{SUB_DELIMS}:]+")
}

/// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`.
fn ip_literal() -> String {
    format!(r"\[(?:{}|{})\]", ipv6address(), ipvfuture())
}

/// The regular expression of the start rule `rule` over the repertoire of
/// `syntax`, anchored at both ends: RFC 3987bis §2.2 transcribed rule by
/// rule (the ABNF has no recursion, so it is regular), in the syntax of
/// the `regex` crates.
///
/// ```
/// use iriscan::{grammar_regex, Rule, Syntax};
/// let re = grammar_regex(Rule::AbsoluteIri, Syntax::Uri);
/// assert!(re.starts_with("^(?:[A-Za-z][A-Za-z0-9+\\-.]*:"));
/// assert!(re.ends_with(")$"));
/// ```
pub fn grammar_regex(rule: Rule, syntax: Syntax) -> String {
    let r = Repertoire::of(syntax);
    let body = match rule {
        Rule::Iri => r.iri(),
        Rule::IriReference => r.iri_reference(),
        Rule::AbsoluteIri => r.absolute_iri(),
    };
    format!("^(?:{body})$")
}

/// A deterministic automaton that accepts exactly the strings of one start
/// rule of RFC 3987bis §2.2 over one [`Syntax`]: [`grammar_regex`]
/// compiled ahead of time by `regex-automata` into a dense DFA. Building
/// one takes tens of milliseconds; matching is linear in the string's
/// length, one table step a byte.
#[derive(Clone, Debug)]
pub struct GrammarAutomaton {
    dfa: dense::DFA<Vec<u32>>,
}

impl GrammarAutomaton {
    /// The automaton of `rule` over `syntax`.
    ///
    /// The twelve patterns are fixed and a test builds every one of them,
    /// so this does not fail: a failure would be a bug in this module, and
    /// it panics saying which pattern.
    pub fn new(rule: Rule, syntax: Syntax) -> GrammarAutomaton {
        let pattern = grammar_regex(rule, syntax);
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .minimize(false),
            )
            .build(&pattern)
            .unwrap_or_else(|e| panic!("the grammar of {rule:?} over {syntax:?}: {e}"));
        GrammarAutomaton { dfa }
    }

    /// Whether the whole of `s` matches the rule.
    pub fn is_match(&self, s: &str) -> bool {
        let input = Input::new(s).anchored(Anchored::Yes);
        // An anchored search of a DFA built for anchored searches, with no
        // quit byte and no Unicode word boundary: regex-automata documents
        // that such a search cannot fail. An error would be a bug here, and
        // an oracle must not turn it into a verdict.
        let found = self
            .dfa
            .try_search_fwd(&input)
            .expect("an anchored search of an anchored DFA without quit bytes");
        found.is_some_and(|m| m.offset() == s.len())
    }

    /// The automaton's size in bytes (its transition table and start
    /// states).
    pub fn memory_usage(&self) -> usize {
        self.dfa.memory_usage()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: [Rule; 3] = [Rule::Iri, Rule::IriReference, Rule::AbsoluteIri];
    const SYNTAXES: [Syntax; 4] = [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri];

    #[test]
    fn every_rule_and_syntax_builds() {
        for rule in RULES {
            for syntax in SYNTAXES {
                let a = GrammarAutomaton::new(rule, syntax);
                assert!(a.memory_usage() > 0);
                assert!(a.is_match("a:b"), "{rule:?} {syntax:?}");
            }
        }
    }

    #[test]
    fn the_rules_differ_where_the_abnf_does() {
        let iri = GrammarAutomaton::new(Rule::Iri, Syntax::Iri);
        let absolute = GrammarAutomaton::new(Rule::AbsoluteIri, Syntax::Iri);
        let reference = GrammarAutomaton::new(Rule::IriReference, Syntax::Iri);
        assert!(iri.is_match("s:a#f") && !absolute.is_match("s:a#f"));
        assert!(reference.is_match("../a?b#c") && !iri.is_match("../a?b#c"));
        // The first segment of a relative path holds no colon.
        assert!(!reference.is_match("1a:b") && reference.is_match("./1a:b"));
        assert!(reference.is_match(""));
    }

    #[test]
    fn hosts_ports_and_literals() {
        let iri = GrammarAutomaton::new(Rule::Iri, Syntax::Iri);
        for ok in [
            "http://[::1]/",
            "http://[1:2:3:4:5:6:7::]/",
            "http://[::ffff:1.2.3.4]:80/a?b#c",
            "http://[v7.a:b]/",
            "http://[V1F.x]/",
            "http://999.1.1.1/",
            "http://user:pw@例え.jp:8080/",
            "http://h:/",
        ] {
            assert!(iri.is_match(ok), "{ok}");
        }
        for bad in [
            "http://[1:2:3:4:5:6:7]/",
            "http://[::1:2:3:4:5:6:7:8]/",
            "http://[v.x]/",
            "http://h:8a/",
            "http://a b/",
            "http://h/%zz",
            "http://[::1]x/",
        ] {
            assert!(!iri.is_match(bad), "{bad}");
        }
    }

    #[test]
    fn the_repertoires() {
        let m = |syntax, s| GrammarAutomaton::new(Rule::Iri, syntax).is_match(s);
        assert!(!m(Syntax::Uri, "http://ü/") && m(Syntax::Iri, "http://ü/"));
        // Private use: in the query only, except in LEIRIs.
        assert!(m(Syntax::Iri, "s:a?\u{E000}") && !m(Syntax::Iri, "s:\u{E000}"));
        assert!(m(Syntax::Leiri, "s:\u{E000}"));
        // Bidi formatting characters: LEIRIs only.
        assert!(!m(Syntax::Iri, "s:a\u{202E}b") && m(Syntax::Leiri, "s:a\u{202E}b"));
        // Running text: `{}^[]` outside the host.
        assert!(m(Syntax::Text, "s:/a{b}^[c]?d[]#{e}") && !m(Syntax::Iri, "s:/a{b}"));
        assert!(!m(Syntax::Text, "http://a{b}/"));
        // LEIRIs: space, controls, `<>"`.
        assert!(m(Syntax::Leiri, "s:a b<c>\"d\"\u{1}") && !m(Syntax::Text, "s:a b"));
        // Noncharacters are never allowed.
        assert!(!m(Syntax::Leiri, "s:\u{FFFE}") && !m(Syntax::Iri, "s:\u{1FFFE}"));
    }
}
