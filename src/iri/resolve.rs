//! Resolution of relative references against a base IRI (RFC 3986 §5.2,
//! which RFC 3987bis §5.5 applies to IRIs unchanged: "the algorithms of
//! [RFC3986] can be applied directly").
//!
//! # Overview
//!
//! [`resolve`] validates both inputs ([`crate::parse`], [`Syntax::Iri`]),
//! then runs the §5.2.2 transformation in its *strict* form, merges paths
//! per §5.2.3, removes dot segments per §5.2.4 ([`remove_dot_segments`]) and
//! recomposes the target per §5.3 into one `String`.
//!
//! ```
//! use iriscan::resolve;
//! let base = "http://a/b/c/d;p?q";
//! assert_eq!(resolve(base, "../g").unwrap(), "http://a/b/g");
//! assert_eq!(resolve(base, "?y").unwrap(), "http://a/b/c/d;p?y");
//! assert_eq!(resolve(base, "//例え.jp/ü").unwrap(), "http://例え.jp/ü");
//! // Strict: a reference with a scheme is used as it is, even the same scheme.
//! assert_eq!(resolve(base, "http:g").unwrap(), "http:g");
//! ```
//!
//! # Choices where implementations differ
//!
//! We follow RFC 3986 to the letter; the suite
//! `tests/suites/iri.resolve.json` lists other behaviours, and
//! `tests/resolve_suite.rs` keeps each one we decline, with the reason:
//!
//! - The base must be an absolute IRI (`scheme ":" …`; its fragment is
//!   ignored). §5.1 requires one; relative bases are rejected with an error.
//! - Strict mode only: the §5.2.2 "backward compatibility" loophole that
//!   drops a scheme equal to the base's is not taken.
//! - Dot segments are literal: `%2E` is not `.` (§5.2.4 operates on the
//!   path as written; §6.2.2.2 normalization decodes `%2E` first, if wanted).
//! - The base path is copied verbatim when the reference has an empty path
//!   (§5.2.2: `T.path = Base.path`), dot segments included.
//! - A target without an authority whose path starts with `//` cannot be
//!   written down: §5.3 would produce `scheme://…`, which reads back as an
//!   authority. RFC 3986 does not say what to do; rather than return an IRI
//!   that means something else (or invent a `/.` prefix), we return an
//!   error. Example: `x:` with `.///C:::`.
//!
//! Both inputs are validated first, so an invalid reference such as
//! `a b` is an error, not a best-effort result.

use std::fmt;
use std::ops::Range;

use crate::iri::components::Components;
use crate::iri::parse::{ParseError, Rule, Syntax, parse};

/// Which input of [`resolve`] an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResolveInput {
    /// The base IRI.
    Base,
    /// The reference being resolved.
    Reference,
}

/// Why [`resolve`] failed: which input, where in it, and what.
///
/// ```
/// use iriscan::{resolve, ResolveInput};
/// let e = resolve("../a", "b").unwrap_err();
/// assert_eq!(e.input(), ResolveInput::Base);
/// assert_eq!(e.parse_error().unwrap().rule(), "scheme");
///
/// let e = resolve("http://a/", "b c").unwrap_err();
/// assert_eq!((e.input(), e.position()), (ResolveInput::Reference, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    input: ResolveInput,
    kind: ResolveErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ResolveErrorKind {
    /// The input does not match its rule (`IRI` for the base,
    /// `IRI-reference` for the reference).
    Invalid(ParseError),
    /// The reference's path (starting at this byte) resolves to a path that
    /// begins with `//` while the target has no authority.
    PathLooksLikeAuthority(usize),
}

impl ResolveError {
    /// The input at fault.
    pub fn input(&self) -> ResolveInput {
        self.input
    }

    /// The byte offset into that input: the character at fault for an
    /// invalid input, the start of the path for a path that cannot be
    /// written without an authority.
    pub fn position(&self) -> usize {
        match &self.kind {
            ResolveErrorKind::Invalid(e) => e.position(),
            ResolveErrorKind::PathLooksLikeAuthority(p) => *p,
        }
    }

    /// The validation error, when the input was not a valid IRI (base) or
    /// IRI reference (reference).
    pub fn parse_error(&self) -> Option<&ParseError> {
        match &self.kind {
            ResolveErrorKind::Invalid(e) => Some(e),
            ResolveErrorKind::PathLooksLikeAuthority(_) => None,
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, self.input) {
            (ResolveErrorKind::Invalid(e), ResolveInput::Base) => {
                write!(f, "base is not an absolute IRI: {e}")
            }
            (ResolveErrorKind::Invalid(e), ResolveInput::Reference) => {
                write!(f, "reference is not an IRI reference: {e}")
            }
            (ResolveErrorKind::PathLooksLikeAuthority(p), _) => write!(
                f,
                "the path of the reference (byte {p}) resolves to one starting with \"//\" \
                 and the target has no authority, so it cannot be written as an IRI"
            ),
        }
    }
}

impl std::error::Error for ResolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.parse_error().map(|e| e as _)
    }
}

/// Resolves `reference` against `base` (RFC 3986 §5.2, strict).
///
/// `base` must be an `IRI` (RFC 3987bis §2.2; a fragment is allowed and
/// ignored, §5.2.1), `reference` an `IRI-reference`. The result is the
/// §5.3 recomposition of the target.
///
/// ```
/// use iriscan::resolve;
/// let base = "http://a/b/c/d;p?q";
/// assert_eq!(resolve(base, "g;x=1/../y").unwrap(), "http://a/b/c/y");
/// assert_eq!(resolve(base, "../../../g").unwrap(), "http://a/g");
/// assert_eq!(resolve(base, "").unwrap(), "http://a/b/c/d;p?q");
/// assert_eq!(resolve("s:a/b#frag", "#f").unwrap(), "s:a/b#f");
/// assert!(resolve("x:", ".///C:::").is_err());
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let b = parse(base, Rule::Iri, Syntax::Iri).map_err(|e| ResolveError {
        input: ResolveInput::Base,
        kind: ResolveErrorKind::Invalid(e),
    })?;
    let r = parse(reference, Rule::IriReference, Syntax::Iri).map_err(|e| ResolveError {
        input: ResolveInput::Reference,
        kind: ResolveErrorKind::Invalid(e),
    })?;
    let rpart = |x: &Option<Range<usize>>| x.clone().map(|x| &reference[x]);
    let bpart = |x: &Option<Range<usize>>| x.clone().map(|x| &base[x]);
    let r_path = &reference[r.path.clone()];

    // §5.2.2, strict: which scheme, authority, path and query the target takes.
    let (scheme, authority, path, query) = if r.scheme.is_some() {
        (
            rpart(&r.scheme),
            rpart(&r.authority),
            TargetPath::Dots(r_path),
            rpart(&r.query),
        )
    } else if r.authority.is_some() {
        (
            bpart(&b.scheme),
            rpart(&r.authority),
            TargetPath::Dots(r_path),
            rpart(&r.query),
        )
    } else if r_path.is_empty() {
        let query = rpart(&r.query).or(bpart(&b.query));
        (
            bpart(&b.scheme),
            bpart(&b.authority),
            TargetPath::Base,
            query,
        )
    } else if r_path.starts_with('/') {
        (
            bpart(&b.scheme),
            bpart(&b.authority),
            TargetPath::Dots(r_path),
            rpart(&r.query),
        )
    } else {
        (
            bpart(&b.scheme),
            bpart(&b.authority),
            TargetPath::Merge,
            rpart(&r.query),
        )
    };

    // §5.3 recomposition, into one buffer.
    let mut out = String::with_capacity(base.len() + reference.len());
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    let path_start = out.len();
    match path {
        // Copied verbatim, dot segments and all (see the module docs).
        TargetPath::Base => out.push_str(&base[b.path.clone()]),
        TargetPath::Dots(p) => remove_dot_segments_into(p, &mut out),
        TargetPath::Merge => {
            let merged = merge(base, &b, r_path);
            remove_dot_segments_into(&merged, &mut out);
        }
    }
    if authority.is_none() && out[path_start..].starts_with("//") {
        return Err(ResolveError {
            input: ResolveInput::Reference,
            kind: ResolveErrorKind::PathLooksLikeAuthority(r.path.start),
        });
    }
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = rpart(&r.fragment) {
        out.push('#');
        out.push_str(fragment);
    }
    Ok(out)
}

/// Where the target's path comes from (§5.2.2).
enum TargetPath<'a> {
    /// The base path, unchanged.
    Base,
    /// This path with its dot segments removed.
    Dots(&'a str),
    /// The merge of the base path and the reference path (§5.2.3), with its
    /// dot segments removed.
    Merge,
}

/// §5.2.3: the reference path appended to the base path without its last
/// segment, or to `/` if the base has an authority and an empty path.
fn merge(base: &str, b: &Components, r_path: &str) -> String {
    let b_path = &base[b.path.clone()];
    let mut merged = String::with_capacity(b_path.len() + r_path.len() + 1);
    if b.authority.is_some() && b_path.is_empty() {
        merged.push('/');
    } else if let Some(slash) = b_path.rfind('/') {
        merged.push_str(&b_path[..=slash]);
    }
    merged.push_str(r_path);
    merged
}

/// Removes the `.` and `..` segments of a path (RFC 3986 §5.2.4).
///
/// This is the RFC's algorithm, step by step, on the path as written: only
/// literal dots count (`%2E` is not a dot segment; decode it first if that
/// is what you want, as §6.2.2 normalization does). A `..` above the root
/// is dropped. Linear time: each step consumes input, and a `..` removes
/// output that was written once.
///
/// ```
/// use iriscan::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// assert_eq!(remove_dot_segments("/../a/./"), "/a/");
/// assert_eq!(remove_dot_segments("/a/%2E%2E/b"), "/a/%2E%2E/b");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    remove_dot_segments_into(path, &mut out);
    out
}

/// [`remove_dot_segments`] appending to `out`, never touching what `out`
/// held before (the scheme and authority of the target).
fn remove_dot_segments_into(path: &str, out: &mut String) {
    let floor = out.len();
    // "Remove the last segment and its preceding '/' (if any) from the
    // output buffer."
    let pop = |out: &mut String| {
        let end = out[floor..].rfind('/').map_or(floor, |i| floor + i);
        out.truncate(end);
    };
    let b = path.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"../") {
            // A: drop a leading "../" …
            i += 3;
        } else if rest.starts_with(b"./") {
            // … or "./".
            i += 2;
        } else if rest.starts_with(b"/./") {
            // B: "/./" becomes "/".
            i += 2;
        } else if rest == b"/." {
            // B: a final "/." becomes "/", which E then moves to the output.
            out.push('/');
            break;
        } else if rest.starts_with(b"/../") {
            // C: "/../" becomes "/" and the last output segment goes.
            i += 3;
            pop(out);
        } else if rest == b"/.." {
            pop(out);
            out.push('/');
            break;
        } else if rest == b"." || rest == b".." {
            // D.
            break;
        } else {
            // E: move the first segment, with its leading '/' if any.
            let start = i;
            if b[i] == b'/' {
                i += 1;
            }
            i = memchr::memchr(b'/', &b[i..]).map_or(b.len(), |j| i + j);
            out.push_str(&path[start..i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_dot_segments_steps() {
        for (input, want) in [
            ("", ""),
            (".", ""),
            ("..", ""),
            ("./", ""),
            ("../", ""),
            ("/", "/"),
            ("/.", "/"),
            ("/..", "/"),
            ("/./", "/"),
            ("/../", "/"),
            ("/a/..", "/"),
            ("/a/../", "/"),
            ("a/..", "/"),
            ("a/../b", "/b"),
            ("../../a", "a"),
            ("./a/./b", "a/b"),
            ("/a/b/..", "/a/"),
            ("/a/b/../..", "/"),
            ("/a/b/../../..", "/"),
            ("/a//../b", "/a/b"),
            ("//a/../b", "//b"),
            ("/.a/..b/.../", "/.a/..b/.../"),
            ("/a/.b", "/a/.b"),
            ("/a/b.", "/a/b."),
            ("a:b/../c", "/c"),
            ("/%2e/%2E%2E/.%2e", "/%2e/%2E%2E/.%2e"),
            ("/é/./ü/../x", "/é/x"),
        ] {
            assert_eq!(remove_dot_segments(input), want, "{input:?}");
        }
    }

    #[test]
    fn pop_never_reaches_into_scheme_and_authority() {
        let mut out = String::from("http://a/b");
        remove_dot_segments_into("/../../x", &mut out);
        assert_eq!(out, "http://a/b/x");
        assert_eq!(resolve("http://a/b", "../../x").unwrap(), "http://a/x");
    }

    #[test]
    fn linear_on_long_dot_runs() {
        let n = 200_000;
        let path = "/a".repeat(n) + &"/..".repeat(n) + "/z";
        assert!(remove_dot_segments(&path) == "/z");
        let path = "/.".repeat(n) + "/z";
        assert!(remove_dot_segments(&path) == "/z");
        let path = "../".repeat(n) + "z";
        assert!(remove_dot_segments(&path) == "z");
    }

    #[test]
    fn errors_name_the_input() {
        let e = resolve("a", "b").unwrap_err();
        assert_eq!(e.input(), ResolveInput::Base);
        assert!(
            e.to_string()
                .starts_with("base is not an absolute IRI: missing scheme"),
            "{e}"
        );
        let e = resolve("http://a/ b", "c").unwrap_err();
        assert_eq!((e.input(), e.position()), (ResolveInput::Base, 9));
        let e = resolve("http://a/", "c%g").unwrap_err();
        assert_eq!((e.input(), e.position()), (ResolveInput::Reference, 1));
        assert_eq!(e.parse_error().unwrap().rule(), "pct-encoded");
        assert!(std::error::Error::source(&e).is_some());
        let e = resolve("x:", ".///C:::").unwrap_err();
        assert_eq!((e.input(), e.position()), (ResolveInput::Reference, 0));
        assert!(e.parse_error().is_none());
        assert!(e.to_string().contains("\"//\""), "{e}");
        let e = resolve("a:/", "s?q#/.//.").unwrap();
        assert_eq!(e, "a:/s?q#/.//.");
        let e = resolve("http://h", "s:/.//x").unwrap_err();
        assert_eq!((e.input(), e.position()), (ResolveInput::Reference, 2));
    }

    #[test]
    fn base_fragment_is_ignored_and_base_query_kept_only_for_empty_paths() {
        let base = "s://h/p/q?bq#bf";
        assert_eq!(resolve(base, "").unwrap(), "s://h/p/q?bq");
        assert_eq!(resolve(base, "#f").unwrap(), "s://h/p/q?bq#f");
        assert_eq!(resolve(base, "?").unwrap(), "s://h/p/q?");
        assert_eq!(resolve(base, "x").unwrap(), "s://h/p/x");
        assert_eq!(resolve(base, "/x").unwrap(), "s://h/x");
        assert_eq!(resolve(base, "//o").unwrap(), "s://o");
        // An authority with an empty path merges as "/".
        assert_eq!(resolve("s://h", "x").unwrap(), "s://h/x");
        assert_eq!(resolve("s://h?q", "?").unwrap(), "s://h?");
        // No authority, no slash in the base path: the reference path alone.
        assert_eq!(resolve("s:abc", "x/../y").unwrap(), "s:/y");
        assert_eq!(resolve("urn:a:b", "c").unwrap(), "urn:c");
        // The empty authority is kept: "file:///" + "x".
        assert_eq!(resolve("file:///etc/hosts", "x").unwrap(), "file:///etc/x");
        assert_eq!(resolve("file:///etc/hosts", "//").unwrap(), "file://");
        assert_eq!(resolve("file:///a", ".//b").unwrap(), "file:////b");
    }
}
