//! A user's filter over hits: keep only those whose IRI, or whose host,
//! matches a regular expression — a mail client's allow list, a crawler's
//! scope (`--match`, `--host` on the command line; docs/rules.md §4).
//!
//! The expressions are those of the `regex` crates (compiled by
//! `regex-automata`, the crate the grammar automaton comes from), searched
//! as grep searches a line: a match anywhere in the IRI keeps the hit;
//! anchor with `^` and `$` to match the whole. A hit is judged by its IRI
//! as [`Hit::iri`] gives it (`www.` hits with `http://` added, e-mail
//! addresses with `mailto:`); its host is the host of the authority, or,
//! for a `mailto:` IRI, the domain of its first address. Hosts are
//! matched without regard to case (`Example.ORG` is `example.org`; the
//! regex crates' Unicode simple case folding, so the Kelvin sign `K`
//! matches `k` too), IRIs as written. A hit without a host never passes a host filter.
//!
//! ```
//! use iriscan::{Finder, HitFilter};
//! let filter = HitFilter::new()
//!     .host_matching(r"(^|\.)example\.org$").unwrap();
//! let text = "see https://www.Example.ORG/a, https://evil.example/ and bob@example.org";
//! let kept: Vec<String> = Finder::new()
//!     .find_iter(text.as_bytes())
//!     .filter(|h| filter.keeps(h))
//!     .map(|h| h.iri().to_string())
//!     .collect();
//! assert_eq!(kept, ["https://www.Example.ORG/a", "mailto:bob@example.org"]);
//! ```

use std::fmt;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;

use crate::find::found_iri::Hit;
use crate::iri::components::Components;

/// Which hits to keep: every hit, until a pattern is set; with both, a hit
/// must match both.
#[derive(Clone, Debug, Default)]
pub struct HitFilter {
    iri: Option<Regex>,
    host: Option<Regex>,
}

/// A pattern that does not compile: the pattern and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    pattern: String,
    reason: String,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid pattern {:?}: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for FilterError {}

fn compile(pattern: &str, case_insensitive: bool) -> Result<Regex, FilterError> {
    Regex::builder()
        .syntax(syntax::Config::new().case_insensitive(case_insensitive))
        .build(pattern)
        .map_err(|e| FilterError {
            pattern: pattern.to_string(),
            // The syntax error's own text, which points into the pattern.
            reason: match e.syntax_error() {
                Some(s) => s.to_string(),
                // "error building NFA": the reason is its source (a size
                // limit, say).
                None => match std::error::Error::source(&e) {
                    Some(source) => format!("{e}: {source}"),
                    None => e.to_string(),
                },
            },
        })
}

impl HitFilter {
    /// A filter that keeps every hit.
    pub fn new() -> HitFilter {
        HitFilter::default()
    }

    /// Keep only hits whose IRI matches `pattern` somewhere.
    pub fn iri_matching(mut self, pattern: &str) -> Result<HitFilter, FilterError> {
        self.iri = Some(compile(pattern, false)?);
        Ok(self)
    }

    /// Keep only hits whose host matches `pattern` somewhere, ignoring
    /// case (Unicode simple case folding).
    pub fn host_matching(mut self, pattern: &str) -> Result<HitFilter, FilterError> {
        self.host = Some(compile(pattern, true)?);
        Ok(self)
    }

    /// Whether the filter keeps every hit (no pattern set).
    pub fn is_empty(&self) -> bool {
        self.iri.is_none() && self.host.is_none()
    }

    /// Whether `hit` passes.
    pub fn keeps(&self, hit: &Hit<'_>) -> bool {
        if self.is_empty() {
            return true;
        }
        let iri = hit.iri();
        self.keeps_parts(iri, || {
            hit.components().unwrap_or_else(|| Components::split(iri))
        })
    }

    /// Whether an IRI given as a string passes (its components are found
    /// with [`Components::split`], valid or not).
    pub fn keeps_iri(&self, iri: &str) -> bool {
        self.keeps_parts(iri, || Components::split(iri))
    }

    fn keeps_parts(&self, iri: &str, components: impl FnOnce() -> Components) -> bool {
        if let Some(re) = &self.iri
            && !re.is_match(iri)
        {
            return false;
        }
        match &self.host {
            None => true,
            Some(re) => host_of(iri, &components()).is_some_and(|h| re.is_match(h)),
        }
    }
}

/// The host of `iri`: its authority's, or the domain of a `mailto:`'s first
/// address.
fn host_of<'a>(iri: &'a str, c: &Components) -> Option<&'a str> {
    if let Some(h) = &c.host {
        return Some(&iri[h.clone()]);
    }
    let scheme = &iri[c.scheme.clone()?];
    if !scheme.eq_ignore_ascii_case("mailto") {
        return None;
    }
    let first = iri[c.path.clone()].split(',').next()?;
    let (_, domain) = first.rsplit_once('@')?;
    Some(domain)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(filter: &HitFilter, text: &str) -> Vec<String> {
        crate::Finder::new()
            .find_iter(text.as_bytes())
            .filter(|h| filter.keeps(h))
            .map(|h| h.iri().to_string())
            .collect()
    }

    const TEXT: &str = "a https://ja.wikipedia.org/wiki/東京 b www.example.com/x \
                        c mailto:Joe@Example.COM,ann@other.org d http://[::1]:80/ e urn:isbn:123 \
                        f bob@例え.jp";

    #[test]
    fn an_empty_filter_keeps_everything() {
        let f = HitFilter::new();
        assert!(f.is_empty());
        assert_eq!(kept(&f, TEXT).len(), 6);
    }

    #[test]
    fn iri_patterns_search_anywhere_and_are_case_sensitive() {
        let f = HitFilter::new().iri_matching("wiki/東").unwrap();
        assert_eq!(kept(&f, TEXT), ["https://ja.wikipedia.org/wiki/東京"]);
        // www. hits are judged with the http:// they are given.
        let f = HitFilter::new().iri_matching("^http://www").unwrap();
        assert_eq!(kept(&f, TEXT), ["http://www.example.com/x"]);
        let f = HitFilter::new().iri_matching("Example").unwrap();
        assert_eq!(kept(&f, TEXT), ["mailto:Joe@Example.COM,ann@other.org"]);
        let f = HitFilter::new().iri_matching("(?i)EXAMPLE").unwrap();
        assert_eq!(kept(&f, TEXT).len(), 2);
    }

    #[test]
    fn host_patterns_ignore_ascii_case_and_reach_mail_domains() {
        let f = HitFilter::new().host_matching(r"^example\.com$").unwrap();
        assert_eq!(kept(&f, TEXT), ["mailto:Joe@Example.COM,ann@other.org"]);
        let f = HitFilter::new()
            .host_matching(r"(^|\.)example\.com$")
            .unwrap();
        assert_eq!(kept(&f, TEXT).len(), 2);
        let f = HitFilter::new().host_matching("例え").unwrap();
        assert_eq!(kept(&f, TEXT), ["mailto:bob@例え.jp"]);
        let f = HitFilter::new().host_matching(r"^\[::1\]$").unwrap();
        assert_eq!(kept(&f, TEXT), ["http://[::1]:80/"]);
        // No host: never kept by a host filter.
        let f = HitFilter::new().host_matching("").unwrap();
        assert!(!kept(&f, TEXT).iter().any(|s| s.starts_with("urn:")));
    }

    #[test]
    fn both_patterns_must_match() {
        let f = HitFilter::new()
            .host_matching("wikipedia")
            .unwrap()
            .iri_matching("^https:")
            .unwrap();
        assert_eq!(kept(&f, TEXT).len(), 1);
        assert!(
            f.keeps_iri("https://en.wikipedia.org/") && !f.keeps_iri("http://en.wikipedia.org/")
        );
    }

    #[test]
    fn a_bad_pattern_is_an_error_naming_it() {
        let e = HitFilter::new().iri_matching("a(b").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("invalid pattern \"a(b\": "), "{s}");
        assert!(s.contains("unclosed group"), "{s}");
        // Too big to compile: the reason is said, not only "error building".
        let e = HitFilter::new().iri_matching("a{1000}{1000}").unwrap_err();
        assert!(e.to_string().contains("limit"), "{e}");
    }
}
