//! The JSON Lines wire format: one object per line, fields in this order.
//!
//! A hit (`--json`):
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `path` | string | the input (`<stdin>` for standard input) |
//! | `start`, `end` | integer | byte offsets of the match in the input |
//! | `line`, `column` | integer | 1-based line and byte column of `start` |
//! | `text` | string | the matched text, as found (may span lines inside `<…>`) |
//! | `iri` | string | the absolute IRI (`http://`/`mailto:` added, white space of `<…>` removed) |
//! | `uri` | string | its URI (RFC 3987bis §3) |
//! | `kind` | string | `iri`, `www` or `email` |
//! | `normalized` | string or null | with `--normalize` only: the normalized IRI (the normalized URI with `--uri`) |
//! | `charset` | string | the input's charset, as detected or given (`UTF-8`, `Shift_JIS`, …); offsets are into the input's own bytes |
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
//! A warning is `name: sentence`: the hit's own (`leiri`, `truncated`,
//! `bidi`, `mixed-script`, `confusable`, `userinfo`, `overlong`, `scheme`,
//! `invisible`: docs/rules.md §7), then `idna: …` (the host could not be
//! converted with IDNA and was percent-encoded) and `query: …` from the URI
//! mapping (the byte offsets in these two are offsets into `iri`).
//! `--no-warn` leaves the array out.

use std::borrow::Cow;

use iriscan::{Hit, MapWarning, Warning};
use serde::Serialize;

/// One hit.
#[derive(Serialize)]
pub struct HitRecord<'a> {
    pub path: &'a str,
    pub start: usize,
    pub end: usize,
    pub line: u64,
    pub column: u64,
    pub text: &'a str,
    pub iri: &'a str,
    pub uri: &'a str,
    pub kind: &'static str,
    pub charset: &'static str,
    /// With `--normalize`: the normalized IRI (URI with `--uri`); null if
    /// it cannot be normalized (an invalid hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized: Option<Option<String>>,
    #[serde(flatten)]
    pub verdict: Option<Verdict>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
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
    pub path: &'a str,
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
