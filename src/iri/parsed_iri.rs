//! A parsed IRI: the string together with its components, so that what
//! was validated once is never parsed again.

use std::fmt;
use std::ops::Range;

use crate::iri::components::Components;
use crate::iri::parse::{HostKind, ParseError, Rule, Syntax, host_kind, parse};

/// An IRI (or IRI reference) that matched the grammar, with its
/// [`Components`]: each accessor slices the string, nothing is parsed
/// again.
///
/// Made by [`Iri::parse`] (an `IRI` of RFC 3987bis §2.2),
/// [`Iri::parse_reference`] (an `IRI-reference`), [`Iri::parse_with`] (any
/// start rule over any repertoire), and by [`Hit::parsed_iri`] for a
/// valid hit, from the components its validation computed.
///
/// ```
/// use iriscan::Iri;
/// let iri = Iri::parse("https://user@例え.jp:8443/パス?q=1#top").unwrap();
/// assert_eq!(iri.scheme(), Some("https"));
/// assert_eq!(iri.authority(), Some("user@例え.jp:8443"));
/// assert_eq!(iri.userinfo(), Some("user"));
/// assert_eq!(iri.host(), Some("例え.jp"));
/// assert_eq!(iri.port(), Some("8443"));
/// assert_eq!(iri.path(), "/パス");
/// assert_eq!(iri.query(), Some("q=1"));
/// assert_eq!(iri.fragment(), Some("top"));
/// assert_eq!(iri.to_string(), "https://user@例え.jp:8443/パス?q=1#top");
///
/// let e = Iri::parse("https://例え.jp/a b").unwrap_err();
/// assert_eq!(e.position(), 19);
/// ```
///
/// [`Hit::parsed_iri`]: crate::Hit::parsed_iri
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Iri<'a> {
    s: &'a str,
    c: Components,
}

impl<'a> Iri<'a> {
    /// Parses an `IRI` (a scheme is required, a fragment allowed) over the
    /// IRI repertoire: [`parse_with`](Iri::parse_with) with [`Rule::Iri`]
    /// and [`Syntax::Iri`].
    pub fn parse(s: &'a str) -> Result<Iri<'a>, ParseError> {
        Iri::parse_with(s, Rule::Iri, Syntax::Iri)
    }

    /// Parses an `IRI-reference` (an IRI or a relative reference) over the
    /// IRI repertoire: [`parse_with`](Iri::parse_with) with
    /// [`Rule::IriReference`] and [`Syntax::Iri`].
    ///
    /// ```
    /// let r = iriscan::Iri::parse_reference("../a?b").unwrap();
    /// assert_eq!((r.scheme(), r.authority(), r.path(), r.query()), (None, None, "../a", Some("b")));
    /// ```
    pub fn parse_reference(s: &'a str) -> Result<Iri<'a>, ParseError> {
        Iri::parse_with(s, Rule::IriReference, Syntax::Iri)
    }

    /// Parses `s` against `rule` over the repertoire `syntax` (see
    /// [`crate::parse`], which gives the same components without the
    /// string).
    ///
    /// ```
    /// use iriscan::{Iri, Rule, Syntax};
    /// assert!(Iri::parse("http://a/{x}").is_err());
    /// let leiri = Iri::parse_with("http://a/{x}", Rule::Iri, Syntax::Leiri).unwrap();
    /// assert_eq!(leiri.path(), "/{x}");
    /// ```
    pub fn parse_with(s: &'a str, rule: Rule, syntax: Syntax) -> Result<Iri<'a>, ParseError> {
        parse(s, rule, syntax).map(|c| Iri { s, c })
    }

    /// An IRI from a string and the components a validation of it gave.
    pub(crate) fn from_parts(s: &'a str, c: Components) -> Iri<'a> {
        Iri { s, c }
    }

    /// The whole IRI.
    pub fn as_str(&self) -> &'a str {
        self.s
    }

    /// The byte ranges of the components in [`as_str`](Iri::as_str).
    pub fn components(&self) -> &Components {
        &self.c
    }

    fn slice(&self, r: &Option<Range<usize>>) -> Option<&'a str> {
        r.clone().map(|r| &self.s[r])
    }

    /// The scheme, without its `:`; `None` for a relative reference.
    pub fn scheme(&self) -> Option<&'a str> {
        self.slice(&self.c.scheme)
    }

    /// The authority, without the leading `//` (userinfo, host and port);
    /// `None` without `//`, empty in `file:///etc`.
    pub fn authority(&self) -> Option<&'a str> {
        self.slice(&self.c.authority)
    }

    /// The userinfo, without its `@`.
    pub fn userinfo(&self) -> Option<&'a str> {
        self.slice(&self.c.userinfo)
    }

    /// The host, with the brackets of an IP literal; present (possibly
    /// empty) whenever the authority is.
    pub fn host(&self) -> Option<&'a str> {
        self.slice(&self.c.host)
    }

    /// What kind of host the authority names (see [`crate::host_kind`]).
    ///
    /// ```
    /// use iriscan::{HostKind, Iri};
    /// assert_eq!(Iri::parse("http://[2001:db8::7]/").unwrap().host_kind(), Some(HostKind::Ipv6));
    /// assert_eq!(Iri::parse("urn:isbn:0451450523").unwrap().host_kind(), None);
    /// ```
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host().map(host_kind)
    }

    /// The port, without its `:` (possibly empty: `http://a:/`).
    pub fn port(&self) -> Option<&'a str> {
        self.slice(&self.c.port)
    }

    /// The path, always present (possibly empty).
    pub fn path(&self) -> &'a str {
        &self.s[self.c.path.clone()]
    }

    /// The query, without its `?`.
    pub fn query(&self) -> Option<&'a str> {
        self.slice(&self.c.query)
    }

    /// The fragment, without its `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        self.slice(&self.c.fragment)
    }
}

impl fmt::Display for Iri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.s)
    }
}

impl AsRef<str> for Iri<'_> {
    fn as_ref(&self) -> &str {
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_slice_the_components() {
        let iri = Iri::parse_reference("//h:/p?#").unwrap();
        assert_eq!(
            (iri.scheme(), iri.authority(), iri.userinfo(), iri.host()),
            (None, Some("h:"), None, Some("h"))
        );
        assert_eq!(
            (iri.port(), iri.path(), iri.query(), iri.fragment()),
            (Some(""), "/p", Some(""), Some(""))
        );
        let iri = Iri::parse("mailto:a@b.example").unwrap();
        assert_eq!(
            (iri.authority(), iri.host(), iri.path()),
            (None, None, "a@b.example")
        );
        assert_eq!(
            iri.components(),
            &parse("mailto:a@b.example", Rule::Iri, Syntax::Iri).unwrap()
        );
    }

    #[test]
    fn errors_are_those_of_parse() {
        for s in ["", "a b", "http://a/%g", "1a:b", "http://[::1/"] {
            assert_eq!(
                Iri::parse(s).unwrap_err(),
                parse(s, Rule::Iri, Syntax::Iri).unwrap_err()
            );
            assert_eq!(
                Iri::parse_reference(s).err(),
                parse(s, Rule::IriReference, Syntax::Iri).err()
            );
        }
    }
}
