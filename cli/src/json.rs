//! The JSON Lines wire format: one object per line, fields in this order.
//!
//! A hit (`--json`):
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `path` | string or object | the input (`<stdin>` for standard input); a path that is not UTF-8 is `{"bytes": "…"}`, its bytes in base64 |
//! | `start`, `end` | integer | byte offsets of the match in the input |
//! | `line`, `column` | integer | 1-based line and byte column of `start` |
//! | `text` | string | the matched text, as found (may span lines inside `<…>`) |
//! | `iri` | string | the absolute IRI (`http://`/`mailto:` added, white space of `<…>` removed) |
//! | `uri` | string | its URI (RFC 3987bis §3) |
//! | `kind` | string | `iri`, `www`, `email`, or `href` (an HTML link attribute) |
//! | `message`, `message_id`, `part` | integer, string, string | mail only: the message's index in its mbox, its `Message-ID`, the MIME part (`1.2`) |
//! | `source` | string | mail, HTML, WARC only: `header:NAME`, the body's media type (`text/plain`), or `attr:NAME` (an HTML link attribute) |
//! | `record`, `record_index`, `target_uri` | string, integer, string | WARC only: the record's `WARC-Record-ID`, its index in the file, its `WARC-Target-URI` |
//! | `raw_start`, `raw_end` | integer or null | mail, HTML, WARC only: the hit's offsets in the input's bytes where they are known (`start`/`end` are then offsets into the decoded part, page text, attribute value or payload) |
//! | `charset` | string | the input's charset, as detected or given (`UTF-8`, `Shift_JIS`, …); offsets are into the input's own bytes |
//! | `charset_source` | string | how the charset was chosen: `given` (`-E`), `BOM`, `declared` (MIME, `<meta>`, XML), `validated` (the bytes are UTF-8) or `detected` (a guess) |
//! | `charset_declared` | string | only when the input declared another charset than its bytes are in: the declaration overridden (the bytes are UTF-8) |
//! | `normalized` | string or null | with `--normalize` only: the normalized IRI (the normalized URI with `--uri`) |
//! | `valid` | bool | with `--invalid` only |
//! | `error` | string or null | with `--invalid` only: why the IRI is invalid (its byte offset is the input's) |
//! | `error_offset` | integer or null | with `--invalid` only: input byte offset of the error |
//! | `warnings` | array of strings | only when there are any |
//!
//! A line (`--each-line --json`): `path`, `line`, `input` (the line; not
//! UTF-8 bytes shown as U+FFFD), `valid` (an `IRI-reference`), `absolute`
//! (also an `IRI`), `error` (null or the reason, with its byte offset in the
//! line), `iri` (the line when valid, else null), `uri` (the URI of the
//! line, also when invalid; null if the line is not UTF-8), and `warnings`
//! when there are any.
//!
//! A path is a string when it is UTF-8, else an object whose `bytes` are
//! the path's bytes in base64 (RFC 4648 §4, with padding), as ripgrep's
//! JSON writes what is not UTF-8: `{"bytes": "Yf9i"}` for the name `a`,
//! 0xFF, `b`. (Unix only: elsewhere a path is a string, not-UTF-8 parts
//! shown as U+FFFD.)
//!
//! A warning is `name: sentence`: the hit's own (`leiri`, `truncated`,
//! `bidi`, `mixed-script`, `confusable`, `userinfo`, `overlong`, `scheme`,
//! `invisible`: docs/rules.md §7), then `idna: …` (the host could not be
//! converted with IDNA and was percent-encoded) and `query: …` from the URI
//! mapping (the byte offsets in these two are offsets into `iri`).
//! `--no-warn` leaves the array out.

use std::borrow::Cow;

use iriscan::{CharsetSource, Hit, MapWarning, Warning};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// One hit.
#[derive(Serialize)]
pub struct HitRecord<'a> {
    pub path: JsonPath<'a>,
    pub start: usize,
    pub end: usize,
    pub line: u64,
    pub column: u64,
    pub text: &'a str,
    pub iri: &'a str,
    pub uri: &'a str,
    pub kind: &'static str,
    /// Where a hit of a structured input came from.
    #[serde(flatten)]
    pub place: Option<Place<'a>>,
    pub charset: &'static str,
    /// How `charset` was chosen (the library's `CharsetSource` names).
    #[serde(serialize_with = "as_display")]
    pub charset_source: CharsetSource,
    /// The charset the input declared, when its bytes overrode it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset_declared: Option<&'static str>,
    /// With `--normalize`: the normalized IRI (URI with `--uri`); null if
    /// it cannot be normalized (an invalid hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized: Option<Option<String>>,
    #[serde(flatten)]
    pub verdict: Option<Verdict>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Where a hit of a mail, HTML or WARC input came from (see the module
/// docs).
#[derive(Serialize)]
pub struct Place<'a> {
    /// The message's 0-based index in its mbox (mail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<u64>,
    /// Its `Message-ID`, without angle brackets (mail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<&'a str>,
    /// The MIME part path, `1.2` (mail; empty for the message's header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<&'a str>,
    /// `header:NAME`, a media type, or `attr:NAME`.
    pub source: String,
    /// The record's `WARC-Record-ID`, without angle brackets (WARC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<&'a str>,
    /// The record's 0-based index in its file (WARC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_index: Option<u64>,
    /// The record's `WARC-Target-URI` (WARC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_uri: Option<&'a str>,
    /// Offsets of the hit in the input's bytes, where they are known.
    pub raw_start: Option<u64>,
    pub raw_end: Option<u64>,
}

/// The validation fields of a hit, present with `--invalid`.
#[derive(Serialize)]
pub struct Verdict {
    pub valid: bool,
    pub error: Option<String>,
    pub error_offset: Option<usize>,
}

/// One line of `--each-line`.
#[derive(Serialize)]
pub struct LineRecord<'a> {
    pub path: JsonPath<'a>,
    pub line: u64,
    pub input: Cow<'a, str>,
    pub valid: bool,
    pub absolute: bool,
    pub error: Option<String>,
    pub iri: Option<&'a str>,
    pub uri: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// An input's path in JSON: a string when it is UTF-8, else
/// `{"bytes": BASE64}` (see the module docs).
#[derive(Clone, Copy)]
pub struct JsonPath<'a>(pub &'a [u8]);

impl Serialize for JsonPath<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(self.0) {
            Ok(text) => s.serialize_str(text),
            Err(_) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("bytes", &base64(self.0))?;
                map.end()
            }
        }
    }
}

/// `bytes` in base64: RFC 4648 §4's alphabet, padded with `=`. (Fifteen
/// lines for the one use, a path that is not UTF-8, rather than a
/// dependency.)
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group.len();
        let word = group.iter().fold(0u32, |w, &b| w << 8 | u32::from(b)) << (8 * (3 - n));
        // A group of n bytes gives n + 1 letters; `=` pads to four.
        for i in 0..4 {
            out.push(if i <= n {
                char::from(ALPHABET[(word >> (18 - 6 * i)) as usize & 63])
            } else {
                '='
            });
        }
    }
    out
}

/// The warnings of a hit (its own, then those of its URI mapping).
pub fn hit_warnings(hit: &Hit<'_>, mapping: &[MapWarning]) -> Vec<String> {
    // The mapping's `idna` says which host and why: the hit's is left out.
    let mapped_idna = mapping.iter().any(|m| matches!(m, MapWarning::Idna { .. }));
    let mut all: Vec<String> = hit
        .warnings()
        .filter(|&w| !(mapped_idna && w == Warning::Idna))
        .map(|w| w.to_string())
        .collect();
    all.extend(mapping.iter().map(map_warning));
    all
}

/// A mapping warning, prefixed with its short name. (The hit's own
/// warnings already start with theirs: `leiri: …`.)
pub fn map_warning(w: &MapWarning) -> String {
    let name = match w {
        MapWarning::Idna { .. } => "idna",
        MapWarning::QueryUnmappable { .. } => "query",
        _ => "mapping",
    };
    format!("{name}: {w}")
}

/// Serializes a value as its `Display` text (no string is built).
fn as_display<S: Serializer>(v: &impl std::fmt::Display, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_rfc_4648() {
        // RFC 4648 §10's test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd, 0x00]), "//79AA==");
        assert_eq!(base64(b"a\xffb"), "Yf9i");
    }

    #[test]
    fn a_path_is_a_string_when_it_is_utf8_and_bytes_else() {
        let json = |p: &[u8]| serde_json::to_string(&JsonPath(p)).unwrap();
        assert_eq!(json("d/été.txt".as_bytes()), r#""d/été.txt""#);
        assert_eq!(json(b"d/a\xffb"), r#"{"bytes":"ZC9h/2I="}"#);
    }
}
