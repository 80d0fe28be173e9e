//! # iriscan for Python
//!
//! The library as a Python extension module (PyO3; built with maturin,
//! `pip install ./python`), for the crawl pipelines that live in Python:
//! a PySpark `mapPartitions`, a Dask or Ray task calls it in process.
//!
//! ```python
//! import iriscan
//! iriscan.find("voir http://例え.jp/パス.")[0]["uri"]
//! # 'http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'
//! with open("crawl.warc.gz", "rb") as f:
//!     for hit in iriscan.scan_bytes(f.read(), format="warc", path="crawl.warc.gz"):
//!         print(hit["record"], hit["target_uri"], hit["uri"])
//! ```
//!
//! Every hit is a plain dict with the keys and values of the command
//! line's `--json` record ([`record`]), so a job's rows equal what
//! `iriscan --json` prints on the same file (docs/rules.md §9). The scan
//! runs with Python's lock released: threads of one process scan side by
//! side. The module has no thread pool of its own (the library is built
//! without its `parallel` feature): parallelism is the engine's (Spark's
//! tasks, a thread pool), as one scan is one task.

use std::borrow::Cow;

use encoding_rs::Encoding;
use iriscan_lib::{
    Finder, Hit, HtmlScanner, InputFormat, IriOptions, MailScanner, NormalForm, NormalizationLevel,
    NormalizeOptions, SNIFF_MAX, Searcher, UriOptions, WarcScanner, charset_for_label,
};
use pyo3::exceptions::{PyRuntimeWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

mod record;

use record::{Place, Record, Value};

/// The records of a scan, and the problems met (an input error names its
/// position; the hits before and after it are still there).
#[derive(Default)]
struct Scanned {
    records: Vec<Record>,
    problems: Vec<String>,
}

/// Finds the IRIs in `text`: a list of dicts, one per valid hit, with the
/// keys of `iriscan --json` (`path` is None; `charset` is `UTF-8`, given).
/// `start`, `end` and `column` count characters of `text` (so that
/// `text[h["start"]:h["end"]] == h["text"]`), where `scan_bytes` counts
/// bytes as the command line does.
#[pyfunction]
fn find<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyList>> {
    let scanned = py.detach(|| {
        let mut scanned = scan_text(text.as_bytes(), Some(encoding_rs::UTF_8), None);
        to_char_offsets(text, &mut scanned.records);
        scanned
    });
    into_list(py, scanned)
}

/// Scans `data` (bytes) as `format` — `auto` (chosen from the bytes and
/// the name `path`, as the command line chooses),
/// `text`, `mail` (a message or an mbox), `warc` (WARC or WET, plain or
/// gzip), `html` (relative links resolved against the page's `<base
/// href>`, else `base`) — and returns a list of dicts, one per valid hit, with the keys
/// and values of `iriscan --json --format FORMAT` on the same bytes
/// (`path` is the `path` given, or None). `charset` is a WHATWG label
/// (`-E`; text and HTML; default: detected). Problems in the input (a
/// truncated gzip member, a broken record) are RuntimeWarnings naming the
/// position; the hits around them are returned.
#[pyfunction]
#[pyo3(signature = (data, format = "auto", charset = None, base = None, path = None))]
fn scan_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    format: &str,
    charset: Option<&str>,
    base: Option<&str>,
    path: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let format: Option<InputFormat> = match format {
        "auto" => None,
        name => Some(
            name.parse()
                .map_err(|e| PyValueError::new_err(format!("format: {e}")))?,
        ),
    };
    let encoding = charset
        .filter(|c| !c.eq_ignore_ascii_case("auto"))
        .map(charset_for_label)
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let scanned = py.detach(|| {
        // `auto`: as the command line chooses for a file named `path`.
        let head = &data[..data.len().min(SNIFF_MAX)];
        let sniffed = || InputFormat::sniff(head, true, path.map(str::as_bytes));
        match format.or_else(sniffed).unwrap_or(InputFormat::Text) {
            InputFormat::Mail => scan_mail(data, path),
            InputFormat::Html => scan_html(data, encoding, base, path),
            InputFormat::Warc => scan_warc(data, path),
            _ => scan_text(data, encoding, path),
        }
    });
    into_list(py, scanned)
}

/// The URI of `iri` (RFC 3987bis §3): IDNA hosts, `%HH` for the rest;
/// the query of an `http`/`https` IRI in `charset` (a WHATWG label)
/// when the document it comes from is in that charset.
#[pyfunction]
#[pyo3(signature = (iri, charset = None))]
fn to_uri(iri: &str, charset: Option<&str>) -> PyResult<String> {
    let mut opts = UriOptions::new();
    if let Some(label) = charset {
        let encoding: &'static Encoding =
            charset_for_label(label).map_err(|e| PyValueError::new_err(e.to_string()))?;
        opts = opts.query_encoding(encoding);
    }
    Ok(iriscan_lib::to_uri(iri, &opts).uri.into_owned())
}

/// The IRI of `uri` (RFC 3987bis §4): `%HH` that form UTF-8 decoded,
/// except what must stay encoded; `xn--` labels to Unicode with
/// `decode_punycode` (when UTS #39 finds them safe to show).
#[pyfunction]
#[pyo3(signature = (uri, decode_punycode = false))]
fn to_iri(uri: &str, decode_punycode: bool) -> String {
    iriscan_lib::to_iri(uri, &IriOptions::new().decode_punycode(decode_punycode)).into_owned()
}

/// The normal form of `iri` at `level` (`simple`, `syntax`, `scheme`), as
/// an IRI or, with `form="uri"`, a URI; `nfc` applies Unicode NFC.
/// ValueError if `iri` is no valid IRI.
#[pyfunction]
#[pyo3(signature = (iri, level = "syntax", form = "iri", nfc = false))]
fn normalize(iri: &str, level: &str, form: &str, nfc: bool) -> PyResult<String> {
    let level = match level {
        "simple" => NormalizationLevel::Simple,
        "syntax" => NormalizationLevel::Syntax,
        "scheme" => NormalizationLevel::Scheme,
        other => {
            return Err(PyValueError::new_err(format!(
                "level: {other:?} is not simple, syntax or scheme"
            )));
        }
    };
    let form = match form {
        "iri" => NormalForm::Iri,
        "uri" => NormalForm::Uri,
        other => {
            return Err(PyValueError::new_err(format!(
                "form: {other:?} is not iri or uri"
            )));
        }
    };
    let opts = NormalizeOptions::new().level(level).form(form).nfc(nfc);
    iriscan_lib::normalize(iri, &opts)
        .map(Cow::into_owned)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `reference` resolved against the absolute IRI `base` (RFC 3986 §5.2).
/// ValueError if either is invalid.
#[pyfunction]
fn resolve(base: &str, reference: &str) -> PyResult<String> {
    iriscan_lib::resolve(base, reference).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The module.
#[pymodule]
fn iriscan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(find, m)?)?;
    m.add_function(wrap_pyfunction!(scan_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(to_uri, m)?)?;
    m.add_function(wrap_pyfunction!(to_iri, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    Ok(())
}

/// The dicts of a scan, its problems warned about.
fn into_list(py: Python<'_>, scanned: Scanned) -> PyResult<Bound<'_, PyList>> {
    for problem in &scanned.problems {
        let category = py.get_type::<PyRuntimeWarning>();
        PyErr::warn(
            py,
            &category,
            &std::ffi::CString::new(problem.replace('\0', " "))?,
            1,
        )?;
    }
    let list = PyList::empty(py);
    for record in scanned.records {
        list.append(record.into_dict(py)?)?;
    }
    Ok(list)
}

/// Running text, as the command line scans a file: streamed, its charset
/// `encoding` or detected.
fn scan_text(data: &[u8], encoding: Option<&'static Encoding>, path: Option<&str>) -> Scanned {
    let mut scanned = Scanned::default();
    let searcher = Searcher::new(Finder::new()).encoding(encoding);
    // Reading a slice cannot fail, nor can the sink.
    let _ = searcher.scan_reader(data, |hit: &Hit<'_>| {
        if hit.is_valid() {
            scanned.records.push(record::record(path, hit, Place::Text));
        }
        Ok::<bool, std::io::Error>(true)
    });
    scanned
}

/// A mail message, or an mbox of them (as the command line reads both).
fn scan_mail(data: &[u8], path: Option<&str>) -> Scanned {
    let mut scanned = Scanned::default();
    let result = MailScanner::new(Finder::new()).scan_mbox(data, |scan| {
        for hit in scan.hits() {
            if hit.hit().is_valid() {
                scanned
                    .records
                    .push(record::record(path, hit.hit(), Place::Mail(hit)));
            }
        }
        scanned
            .problems
            .extend(scan.errors().iter().map(|e| problem(path, e)));
    });
    if let Err(e) = result {
        scanned.problems.push(problem(path, &e));
    }
    scanned
}

/// An HTML page, its relative links resolved against its `<base href>`,
/// else `base`.
fn scan_html(
    data: &[u8],
    encoding: Option<&'static Encoding>,
    base: Option<&str>,
    path: Option<&str>,
) -> Scanned {
    let mut scanned = Scanned::default();
    HtmlScanner::new(Finder::new())
        .base(base)
        .scan_with(data, encoding, |hit| {
            if hit.hit().is_valid() {
                scanned
                    .records
                    .push(record::record(path, hit.hit(), Place::Html(&hit)));
            }
        });
    scanned
}

/// A WARC or WET file, plain or gzip-compressed.
fn scan_warc(data: &[u8], path: Option<&str>) -> Scanned {
    let mut scanned = Scanned::default();
    let result = WarcScanner::new(Finder::new()).scan_warc(data, |scan| {
        for hit in scan.hits() {
            if hit.hit().is_valid() {
                scanned
                    .records
                    .push(record::record(path, hit.hit(), Place::Warc(hit)));
            }
        }
        scanned
            .problems
            .extend(scan.errors().iter().map(|e| problem(path, e)));
    });
    if let Err(e) = result {
        scanned.problems.push(problem(path, &e));
    }
    scanned
}

/// A problem met in the input, named as the command line names it.
fn problem(path: Option<&str>, e: &impl std::fmt::Display) -> String {
    format!("{}: {e}", path.unwrap_or("<bytes>"))
}

/// Byte offsets of `records` (hits of `text`, in order) turned into
/// character offsets: `start`, `end`, and `column` (1-based).
fn to_char_offsets(text: &str, records: &mut [Record]) {
    // Counted on from the last offset: linear in the text.
    let mut at = (0, 0);
    let mut chars_to = |byte: usize| -> u64 {
        if byte < at.0 {
            at = (0, 0);
        }
        at = (byte, at.1 + text[at.0..byte].chars().count());
        at.1 as u64
    };
    for r in records.iter_mut() {
        let int = |r: &mut Record, key| match r.get_mut(key) {
            Some(&mut Value::Int(n)) => n as usize,
            _ => unreachable!("a record has {key}"),
        };
        let (start, end, column) = (int(r, "start"), int(r, "end"), int(r, "column"));
        // The column counts bytes from the line's start.
        let line_start = start + 1 - column;
        let column = text[line_start..start].chars().count() as u64 + 1;
        let (start, end) = (chars_to(start), chars_to(end));
        *r.get_mut("start").unwrap() = Value::Int(start);
        *r.get_mut("end").unwrap() = Value::Int(end);
        *r.get_mut("column").unwrap() = Value::Int(column);
    }
}
