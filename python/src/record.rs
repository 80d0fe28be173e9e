//! A hit as the command line's `--json` writes it, as a Python dict.
//!
//! The command line's JSON record (its `cli/src/json.rs` lists every
//! field) is the one shape a hit has outside Rust: a Python caller gets
//! the same keys, in the same order, with the same values, so that what
//! a Spark job computes in process equals what `iriscan --json` prints
//! (docs/rules.md §9). Only the defaults of the command line are
//! mirrored: valid hits, warnings included, no `--normalize`.
//!
//! A record is built in Rust, with Python's lock released
//! ([`Record`] holds no Python object), and turned into a dict once the
//! scan is over ([`Record::into_dict`]).

use iriscan_lib::{CharsetSource, Hit, MapWarning, StructuredHit, UriOptions, Warning};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A value of a record: what JSON has.
pub enum Value {
    Null,
    Int(u64),
    Str(String),
    List(Vec<String>),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_string())
    }
}

impl From<Option<&str>> for Value {
    fn from(s: Option<&str>) -> Value {
        s.map_or(Value::Null, Value::from)
    }
}

/// One hit: its fields in the command line's order.
pub struct Record(Vec<(&'static str, Value)>);

impl Record {
    /// The dict of the record.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in self.0 {
            match value {
                Value::Null => dict.set_item(key, py.None())?,
                Value::Int(n) => dict.set_item(key, n)?,
                Value::Str(s) => dict.set_item(key, s)?,
                Value::List(l) => dict.set_item(key, l)?,
            }
        }
        Ok(dict)
    }

    /// The value of `key`, to change it (offsets of [`crate::find`]).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// Where a hit of a structured input comes from: the fields a format adds
/// to the text path's record.
pub enum Place<'a> {
    /// Plain text: nothing.
    Text,
    /// A message of a mail or mbox (`message`, `message_id`, `part`).
    Mail(&'a StructuredHit<'static>),
    /// An HTML page.
    Html(&'a StructuredHit<'static>),
    /// A record of a WARC or WET file (`record`, `record_index`,
    /// `target_uri`).
    Warc(&'a StructuredHit<'static>),
}

/// The record of a valid `hit` of the input `path` (`None`: no path).
pub fn record(path: Option<&str>, hit: &Hit<'_>, place: Place<'_>) -> Record {
    let mut fields: Vec<(&'static str, Value)> = Vec::with_capacity(20);
    fields.push(("path", path.into()));
    let mapped = hit.to_uri(&UriOptions::new());
    fields.push(("start", Value::Int(hit.start() as u64)));
    fields.push(("end", Value::Int(hit.end() as u64)));
    fields.push(("line", Value::Int(hit.line())));
    fields.push(("column", Value::Int(hit.column())));
    fields.push(("text", hit.text().into()));
    fields.push(("iri", hit.iri().into()));
    fields.push(("uri", mapped.uri.as_ref().into()));
    fields.push(("kind", hit.kind().as_str().into()));
    // The place, as the command line's `Place`: a field that is None is
    // left out, but for the raw offsets, which are null.
    let (structured, mail, warc) = match place {
        Place::Text => (None, false, false),
        Place::Mail(s) => (Some(s), true, false),
        Place::Html(s) => (Some(s), false, false),
        Place::Warc(s) => (Some(s), false, true),
    };
    if let Some(s) = structured {
        let origin = s.origin();
        let mut some = |key, value: Option<Value>| {
            if let Some(v) = value {
                fields.push((key, v));
            }
        };
        some("message", mail.then(|| Value::Int(origin.index())));
        some("message_id", origin.id().filter(|_| mail).map(Value::from));
        some("part", mail.then(|| Value::from(origin.part())));
        some("source", Some(Value::Str(origin.source().to_string())));
        some("record", origin.id().filter(|_| warc).map(Value::from));
        some("record_index", warc.then(|| Value::Int(origin.index())));
        some("target_uri", origin.target_uri().map(Value::from));
        let raw = s.raw_range();
        let offset = |at: Option<u64>| at.map_or(Value::Null, Value::Int);
        fields.push(("raw_start", offset(raw.as_ref().map(|r| r.start))));
        fields.push(("raw_end", offset(raw.map(|r| r.end))));
    }
    let charset = hit.document_charset();
    fields.push(("charset", charset.name().into()));
    fields.push(("charset_source", Value::Str(source_name(charset.source()))));
    if let Some(declared) = charset.overridden_declaration() {
        fields.push(("charset_declared", declared.name().into()));
    }
    let warnings = hit_warnings(hit, &mapped.warnings);
    if !warnings.is_empty() {
        fields.push(("warnings", Value::List(warnings)));
    }
    Record(fields)
}

/// How the charset was chosen, as the command line names it.
fn source_name(source: CharsetSource) -> String {
    source.to_string()
}

/// The warnings of a hit: its own, then those of its URI mapping, each
/// `name: sentence` (the command line's rule: the mapping's `idna` names
/// the host and the reason, so the hit's own `idna` is left out then).
fn hit_warnings(hit: &Hit<'_>, mapping: &[MapWarning]) -> Vec<String> {
    let mapped_idna = mapping.iter().any(|m| matches!(m, MapWarning::Idna { .. }));
    let mut all: Vec<String> = hit
        .warnings()
        .filter(|&w| !(mapped_idna && w == Warning::Idna))
        .map(|w| w.to_string())
        .collect();
    all.extend(mapping.iter().map(|w| {
        let name = match w {
            MapWarning::Idna { .. } => "idna",
            MapWarning::QueryUnmappable { .. } => "query",
            _ => "mapping",
        };
        format!("{name}: {w}")
    }));
    all
}
