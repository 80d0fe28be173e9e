//! Warnings: what a hit's reader should know before following it
//! (docs/rules.md §7).
//!
//! A hit can be a valid IRI and still deceive: a host that mixes scripts
//! (`pаypal.com` with a Cyrillic `а`), a userinfo dressed as a host
//! (`http://bank.example@evil.example/`), a bidi override that turns
//! `exe.gpj` into `jpg.exe` on screen, a `javascript:` link. Each of these
//! is a [`Warning`] with a stable code, so that a mail client can refuse to
//! auto-link the hit and a pipeline can drop it (`--deny CODE`).
//!
//! Two warnings are the scanner's (`leiri`, `truncated`) and one is
//! noticed where the hit is made (a bidi control right next to it); the
//! rest are computed from the hit's IRI the first time they are asked for
//! ([`crate::Hit::warnings`]), never while counting or filtering hits.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU16, Ordering};

use unicode_normalization::char::canonical_combining_class;

use crate::chars::end_of_iri::is_bidi_format;
use crate::iri::components::Components;
use crate::iri::host_mapping::idna_host;
use crate::iri::host_safety::{host_spoofing, unicode_host};
use crate::iri::percent::{is_triplet, triplet_value};
use crate::iri::to_uri::is_ip_literal;

/// Something worth knowing about a hit that does not make it invalid. The
/// codes ([`Warning::as_str`]) are stable; docs/rules.md §7 lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Warning {
    /// The IRI carries `{ } ^ [ ]` outside its host, which are Legacy
    /// Extended IRI characters (RFC 3987bis §6): its URI percent-encodes
    /// them (§6.2).
    Leiri,
    /// The candidate was longer than the maximum length and was cut there.
    Truncated,
    /// The host fails IDNA (UTS #46 ToASCII): its URI percent-encodes it.
    Idna,
    /// A bidi formatting character (U+202A–U+202E, U+2066–U+2069, U+200E,
    /// U+200F, U+061C) inside the IRI, or an embedding, override or isolate
    /// right next to it: it can reorder
    /// what the reader sees (`http://example.com/` + RLO + `gpj.exe` shows
    /// as `…exe.jpg`).
    Bidi,
    /// A host label mixes scripts (UTS #39 §5.2: Latin with Cyrillic…).
    MixedScript,
    /// A host label is whole-script confusable with an ASCII one (UTS #39
    /// §4: `аррӏе.com` in Cyrillic).
    Confusable,
    /// The userinfo looks like a host name (`http://bank.example@evil.example/`
    /// goes to `evil.example`).
    Userinfo,
    /// Percent-encoded octets that a lax UTF-8 decoder would read as a
    /// character strict UTF-8 refuses (`%C0%AF`, an overlong `/`;
    /// surrogates; beyond U+10FFFF), or a continuation octet with no lead.
    Overlong,
    /// A scheme a mail client must not open from a link: `javascript:`,
    /// `vbscript:`, `data:`, `file:`.
    Scheme,
    /// A default-ignorable or invisible character (soft hyphen, zero width
    /// space, word joiner, tags…) in the host or the path, or a zero width
    /// joiner or non-joiner that joins nothing.
    Invisible,
}

impl Warning {
    /// Every warning, in the order [`crate::Hit::warnings`] gives them.
    pub const ALL: [Warning; 10] = [
        Warning::Leiri,
        Warning::Truncated,
        Warning::Idna,
        Warning::Bidi,
        Warning::MixedScript,
        Warning::Confusable,
        Warning::Userinfo,
        Warning::Overlong,
        Warning::Scheme,
        Warning::Invisible,
    ];

    /// The stable code used in output: `leiri`, `truncated`, `idna`,
    /// `bidi`, `mixed-script`, `confusable`, `userinfo`, `overlong`,
    /// `scheme`, `invisible`.
    pub fn as_str(self) -> &'static str {
        match self {
            Warning::Leiri => "leiri",
            Warning::Truncated => "truncated",
            Warning::Idna => "idna",
            Warning::Bidi => "bidi",
            Warning::MixedScript => "mixed-script",
            Warning::Confusable => "confusable",
            Warning::Userinfo => "userinfo",
            Warning::Overlong => "overlong",
            Warning::Scheme => "scheme",
            Warning::Invisible => "invisible",
        }
    }

    /// The sentence after the code in [`Display`](fmt::Display).
    pub fn message(self) -> &'static str {
        match self {
            Warning::Leiri => {
                "legacy extended IRI characters ({ } ^ [ ]) are percent-encoded in the URI"
            }
            Warning::Truncated => "longer than the maximum IRI length",
            Warning::Idna => "the host fails IDNA and is percent-encoded in the URI",
            Warning::Bidi => "a bidi formatting character can reorder what is shown",
            Warning::MixedScript => "a host label mixes scripts (UTS #39)",
            Warning::Confusable => "a host label looks like an ASCII one (UTS #39)",
            Warning::Userinfo => "the userinfo before @ looks like a host name",
            Warning::Overlong => "percent-encoded overlong or invalid UTF-8",
            Warning::Scheme => "a scheme that runs code or reads local files",
            Warning::Invisible => "an invisible character in the host or path",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// `code: message`, as in JSON output.
impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.as_str(), self.message())
    }
}

/// A code that names no warning; its message lists the valid ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWarning(pub String);

impl fmt::Display for UnknownWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown warning code {:?} (valid: ", self.0)?;
        for (i, w) in Warning::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(w.as_str())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownWarning {}

impl FromStr for Warning {
    type Err = UnknownWarning;

    /// Parses a code ([`Warning::as_str`]).
    fn from_str(s: &str) -> Result<Warning, UnknownWarning> {
        Warning::ALL
            .into_iter()
            .find(|w| w.as_str() == s)
            .ok_or_else(|| UnknownWarning(s.to_owned()))
    }
}

/// A set of warnings, one bit each: what a hit has, or what a caller
/// refuses ([`Warnings::intersects`]).
///
/// ```
/// use iriscan::{Warning, Warnings};
/// let deny: Warnings = "bidi,userinfo".parse().unwrap();
/// assert!(deny.contains(Warning::Userinfo) && !deny.contains(Warning::Scheme));
/// assert!("bidi,nope".parse::<Warnings>().unwrap_err().to_string().contains("mixed-script"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Warnings(u16);

impl Warnings {
    /// No warning.
    pub const fn new() -> Warnings {
        Warnings(0)
    }

    /// Adds `w`.
    pub fn insert(&mut self, w: Warning) {
        self.0 |= w.bit();
    }

    /// The set with `w` added.
    pub fn with(mut self, w: Warning) -> Warnings {
        self.insert(w);
        self
    }

    /// Whether `w` is in the set.
    pub fn contains(self, w: Warning) -> bool {
        self.0 & w.bit() != 0
    }

    /// Whether the two sets share a warning.
    pub fn intersects(self, other: Warnings) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The warnings of the set, in [`Warning::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Warning> {
        Warning::ALL.into_iter().filter(move |&w| self.contains(w))
    }
}

/// A hit's warnings computed from its IRI, made when first asked for: a
/// [`Warnings`] in an atomic with one more bit, "computed". Two bytes where
/// a `OnceLock<Warnings>` takes eight (and a bigger hit is a `memcpy` per
/// hit on the counting path). Two threads asking at once both compute the
/// same set, which depends on the hit only, and store the same bits.
#[derive(Default)]
pub(crate) struct LazyWarnings(AtomicU16);

/// The "computed" bit of [`LazyWarnings`], above every warning's.
const COMPUTED: u16 = 1 << 15;

impl LazyWarnings {
    pub(crate) const fn new() -> LazyWarnings {
        LazyWarnings(AtomicU16::new(0))
    }

    /// The set, computed by `f` on the first call.
    pub(crate) fn get_or_init(&self, f: impl FnOnce() -> Warnings) -> Warnings {
        let bits = self.0.load(Ordering::Relaxed);
        if bits & COMPUTED != 0 {
            return Warnings(bits & !COMPUTED);
        }
        let set = f();
        debug_assert!(set.0 & COMPUTED == 0);
        self.0.store(set.0 | COMPUTED, Ordering::Relaxed);
        set
    }
}

impl Clone for LazyWarnings {
    fn clone(&self) -> LazyWarnings {
        LazyWarnings(AtomicU16::new(self.0.load(Ordering::Relaxed)))
    }
}

impl fmt::Debug for LazyWarnings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.0.load(Ordering::Relaxed);
        if bits & COMPUTED == 0 {
            f.write_str("not computed")
        } else {
            Warnings(bits & !COMPUTED).fmt(f)
        }
    }
}

impl FromIterator<Warning> for Warnings {
    fn from_iter<I: IntoIterator<Item = Warning>>(iter: I) -> Warnings {
        let mut set = Warnings::new();
        for w in iter {
            set.insert(w);
        }
        set
    }
}

impl FromStr for Warnings {
    type Err = UnknownWarning;

    /// Parses comma-separated codes (`bidi,userinfo`); empty items are
    /// skipped.
    fn from_str(s: &str) -> Result<Warnings, UnknownWarning> {
        s.split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::parse::<Warning>)
            .collect()
    }
}

/// The warnings computed from an IRI (all but `leiri`, `truncated` and a
/// bidi character next to the hit, which the scanner and the hit know).
pub(crate) fn iri_warnings(iri: &str, c: &Components) -> Warnings {
    let mut set = Warnings::new();
    let part = |r: &Option<std::ops::Range<usize>>| r.clone().map_or("", |r| &iri[r]);
    // Bidi and invisible characters are not ASCII.
    let ascii = iri.is_ascii();
    if !ascii && iri.chars().any(is_bidi_format) {
        set.insert(Warning::Bidi);
    }
    let scheme = part(&c.scheme);
    if ["javascript", "vbscript", "data", "file"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
    {
        set.insert(Warning::Scheme);
    }
    if c.userinfo.is_some() && userinfo_looks_like_host(part(&c.userinfo)) {
        set.insert(Warning::Userinfo);
    }
    // The host, or the domain of a `mailto:` address (RFC 6068 §2).
    let host = match c.host {
        Some(_) => part(&c.host),
        None if scheme.eq_ignore_ascii_case("mailto") => {
            let to = &iri[c.path.clone()];
            to.rsplit_once('@').map_or("", |(_, domain)| domain)
        }
        None => "",
    };
    if !host.is_empty() && !is_ip_literal(host) {
        // As the URI mapping does: the authority's host only.
        if c.host.is_some() && idna_host(host).is_err() {
            set.insert(Warning::Idna);
        }
        if let Some(unicode) = unicode_host(host) {
            let spoofing = host_spoofing(&unicode);
            if spoofing.mixed_script {
                set.insert(Warning::MixedScript);
            }
            if spoofing.confusable {
                set.insert(Warning::Confusable);
            }
            if has_invisible(&unicode) {
                set.insert(Warning::Invisible);
            }
        }
    }
    if !ascii && has_invisible(&iri[c.path.clone()]) {
        set.insert(Warning::Invisible);
    }
    if has_overlong(iri) {
        set.insert(Warning::Overlong);
    }
    set
}

/// Whether the userinfo (its user name: before any `:`) has the shape of a
/// domain name: dot-separated labels of letters, digits and hyphens, the
/// last one (the top-level domain) of two or more letters.
/// `bank.example`, `www.paypal.com:secure`; not `user`, `first.last2`,
/// `a.b`.
pub(crate) fn userinfo_looks_like_host(userinfo: &str) -> bool {
    let user = userinfo.split(':').next().unwrap_or("");
    let mut labels = user.split('.');
    let Some(tld) = labels.next_back() else {
        return false;
    };
    let mut count = 0;
    for label in labels {
        if label.is_empty() || label.starts_with('-') || label.ends_with('-') {
            return false;
        }
        if !label
            .chars()
            .all(|c| c == '-' || c.is_alphanumeric() || c == '%')
        {
            return false;
        }
        count += 1;
    }
    count > 0 && is_plausible_tld(tld)
}

/// A top-level domain a reader would take for one: two ASCII letters (a
/// country code), a common generic one or one reserved for examples
/// (`example`, `test`), a punycode one, or one of non-ASCII letters. Not
/// every word: `john.doe` is a user name.
fn is_plausible_tld(tld: &str) -> bool {
    const GENERIC: &[&str] = &[
        "com",
        "net",
        "org",
        "info",
        "biz",
        "edu",
        "gov",
        "mil",
        "int",
        "app",
        "dev",
        "xyz",
        "online",
        "site",
        "top",
        "shop",
        "store",
        "club",
        "mobi",
        "name",
        "pro",
        "tech",
        "live",
        "cloud",
        "page",
        "blog",
        "link",
        "news",
        "email",
        "bank",
        "website",
        "asia",
        "example",
        "test",
        "invalid",
        "localhost",
        "local",
    ];
    let lower = tld.to_ascii_lowercase();
    (lower.len() == 2 && lower.bytes().all(|b| b.is_ascii_lowercase()))
        || GENERIC.contains(&lower.as_str())
        || (lower.starts_with("xn--") && lower.len() > 4)
        || (!tld.is_ascii() && tld.chars().all(char::is_alphabetic))
}

/// Whether the percent-encoded octets of `s` hold a sequence a lax UTF-8
/// decoder would decode although strict UTF-8 (RFC 3629) refuses it: an
/// overlong form (`%C0%AF`, `%E0%80%AF`, `%F0%80%80%AF`), a surrogate
/// (`%ED%A0%80`), a code point beyond U+10FFFF (`%F4%90%80%80`) — or a
/// continuation octet that no lead octet announced (`%80`). A lead octet
/// cut short (`%E9` alone, Latin-1 `é`) is legacy text, not an attack,
/// and is not reported.
pub(crate) fn has_overlong(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(first) = memchr::memchr(b'%', b) else {
        return false;
    };
    let mut octets = Vec::new();
    let mut i = first;
    while i < b.len() {
        if !is_triplet(b, i) {
            i += 1;
            continue;
        }
        octets.clear();
        while is_triplet(b, i) {
            octets.push(triplet_value(b, i));
            i += 3;
        }
        if run_has_overlong(&octets) {
            return true;
        }
    }
    false
}

/// [`has_overlong`] on one run of consecutive octets.
fn run_has_overlong(octets: &[u8]) -> bool {
    let is_cont = |b: u8| b & 0xC0 == 0x80;
    let mut i = 0;
    while i < octets.len() {
        let lead = octets[i];
        let need = match lead {
            0x00..=0x7F => {
                i += 1;
                continue;
            }
            // A continuation octet with no lead, or C0 and C1, which only
            // ever start an overlong form.
            0x80..=0xC1 => return true,
            0xC2..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            _ => {
                i += 1;
                continue;
            }
        };
        let have = octets[i + 1..]
            .iter()
            .take(need)
            .take_while(|&&b| is_cont(b))
            .count();
        if have == need {
            let mut v = u32::from(lead) & (0x7F >> (need + 1));
            for &b in &octets[i + 1..=i + need] {
                v = (v << 6) | u32::from(b & 0x3F);
            }
            let min = [0, 0x80, 0x800, 0x1_0000][need];
            if v < min || (0xD800..=0xDFFF).contains(&v) || v > 0x10_FFFF {
                return true;
            }
        }
        i += 1 + have;
    }
    false
}

/// Whether `s` holds a default-ignorable or invisible character (see
/// [`is_invisible`]), or a zero width (non-)joiner that does not stand
/// between two non-ASCII letters or marks (where Indic and Arabic-script
/// text needs it).
pub(crate) fn has_invisible(s: &str) -> bool {
    let mut prev: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{200C}' || c == '\u{200D}' {
            let joins = |x: Option<char>| {
                x.is_some_and(|x| {
                    !x.is_ascii()
                        && (x.is_alphabetic() || canonical_combining_class(x) != 0 || is_mark(x))
                })
            };
            if !(joins(prev) && joins(chars.peek().copied()) || emoji_joiner(prev)) {
                return true;
            }
        } else if is_invisible(c) {
            return true;
        }
        prev = Some(c);
    }
    false
}

/// A ZWJ after an emoji (or its variation selector) builds an emoji
/// sequence (👨‍👩‍👧): not a trick.
fn emoji_joiner(prev: Option<char>) -> bool {
    prev.is_some_and(|p| matches!(p as u32, 0x2600..=0x27BF | 0x1F000..=0x1FAFF | 0xFE0F))
}

/// Nonspacing and spacing marks that `is_alphabetic` does not cover
/// (viramas among them).
fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    c.general_category_group() == GeneralCategoryGroup::Mark
}

/// A default-ignorable code point (Unicode's `Default_Ignorable_Code_Point`,
/// which renders as nothing) or an invisible look-alike, but for the
/// variation selectors (which change how the character before them is
/// drawn) and the joiners ([`has_invisible`] looks at their neighbours).
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5
        | 0x180B..=0x180F | 0x200B | 0x200E | 0x200F | 0x202A..=0x202E
        | 0x2060..=0x206F | 0x3164 | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE00FF
        | 0xE01F0..=0xE0FFF)
}

/// Whether a bidi embedding, override or isolate (U+202A–U+202E,
/// U+2066–U+2069) stands right before `start` or right after `end` in
/// `hay` (UTF-8): checked where a hit is made, on a byte or two each side.
/// The implicit marks (LRM, RLM, ALM) are left out here: right-to-left
/// text puts them around links as a matter of course, and they reorder
/// nothing inside the IRI.
#[inline]
pub(crate) fn bidi_next_to(hay: &[u8], start: usize, end: usize) -> bool {
    // Each of them is three bytes, E2 80 AA … E2 81 A9: the first E2, the
    // last a continuation byte.
    let after = hay.get(end).is_some_and(|&b| b == 0xE2);
    let before = start > 0 && hay[start - 1] & 0xC0 == 0x80;
    (after || before) && bidi_next_to_slow(hay, start, end)
}

#[cold]
fn bidi_next_to_slow(hay: &[u8], start: usize, end: usize) -> bool {
    let is_bidi = |bytes: Option<&[u8]>| {
        bytes
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|s| s.chars().next())
            .is_some_and(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
    };
    is_bidi(hay.get(end..end + 3)) || is_bidi(start.checked_sub(3).and_then(|s| hay.get(s..start)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for w in Warning::ALL {
            assert_eq!(w.as_str().parse::<Warning>(), Ok(w));
            assert!(w.to_string().starts_with(&format!("{}: ", w.as_str())));
        }
        let e = "nope".parse::<Warning>().unwrap_err().to_string();
        assert!(e.contains("\"nope\"") && e.contains("invisible"), "{e}");
    }

    #[test]
    fn overlong_forms() {
        for bad in [
            "/%C0%AF",
            "/%c0%af",
            "/%E0%80%AF",
            "/%F0%80%80%AF",
            "/%ED%A0%80",
            "/%F4%90%80%80",
            "/%80",
            "/a%E2%82%AC%AC",
        ] {
            assert!(has_overlong(bad), "{bad}");
        }
        for good in [
            "/%E2%82%AC",
            "/r%E9sum%E9",
            "/%E9%E8",
            "/%25C0",
            "/%2F",
            "/%E2%82",
        ] {
            assert!(!has_overlong(good), "{good}");
        }
    }

    #[test]
    fn userinfo_shapes() {
        for spoof in [
            "bank.example",
            "www.paypal.com:secure",
            "paypal.com",
            "bank.co.uk",
        ] {
            assert!(userinfo_looks_like_host(spoof), "{spoof}");
        }
        for plain in ["user", "user:pass", "first.last2", "a.b", "", "john.doe:x1"] {
            assert!(!userinfo_looks_like_host(plain), "{plain}");
        }
    }

    #[test]
    fn invisible_characters() {
        assert!(has_invisible("/pay\u{AD}pal"));
        assert!(has_invisible("/a\u{200B}b"));
        assert!(has_invisible("/a\u{2060}b"));
        assert!(has_invisible("/\u{200D}a"));
        assert!(has_invisible("/a\u{E0041}"));
        // Persian ZWNJ, Devanagari ZWJ after a virama, emoji sequences.
        assert!(!has_invisible("/می\u{200C}خواهم"));
        assert!(!has_invisible("/क्\u{200D}ष"));
        assert!(!has_invisible("/👨\u{200D}👩"));
        assert!(!has_invisible("/❤\u{FE0F}"));
    }

    #[test]
    fn bidi_neighbours() {
        let text = "see http://example.com/\u{202E}gpj.exe now".as_bytes();
        let end = text.iter().position(|&b| b == 0xE2).unwrap();
        assert!(bidi_next_to(text, 4, end));
        let text = "\u{2067}http://a.example/\u{2069}".as_bytes();
        assert!(bidi_next_to(text, 3, text.len() - 3));
        assert!(!bidi_next_to(b"http://a.example/ x", 0, 17));
        assert!(!bidi_next_to("é http://a/ – b".as_bytes(), 3, 12));
        // Right-to-left marks around a link are ordinary.
        let text = "\u{200F}http://a.example/\u{200F}".as_bytes();
        assert!(!bidi_next_to(text, 3, text.len() - 3));
    }
}
