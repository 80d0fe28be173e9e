//! The links in a WARC file's records: each `response`, `resource` and
//! `conversion` record's payload read as what it is and scanned with the
//! text path's [`Finder`].
//!
//! A record's payload (docs/rules.md §8.2):
//!
//! - a `response` holding an HTTP response: its body, with the chunked
//!   transfer coding and a gzip/deflate content coding undone
//!   ([`warc_http`](super::warc_http)); its media type and charset from the
//!   HTTP `Content-Type`;
//! - a `resource` or `conversion` record (a WET file's text): its block,
//!   with the record's own `Content-Type`.
//!
//! HTML (`text/html`, `application/xhtml+xml`) is read by the HTML reader
//! ([`HtmlScanner`], docs/rules.md §6) with the record's `WARC-Target-URI`
//! as the page's base, so relative links resolve against it (or the
//! page's `<base href>`); other text (`text/*`, JSON, XML) is scanned as it
//! is; anything else (images, scripts as `application/javascript`, PDFs)
//! is not scanned. The charset is chosen by the rules of docs/rules.md §3
//! with the `charset=` of the content type as the declaration.
//!
//! Each hit is a [`StructuredHit`] whose [`Origin`] names the record (its
//! index, its `WARC-Record-ID`) and its target URI; its source is the
//! payload's media type, or for a link attribute of an HTML page the
//! attribute (`attr:href`). Where the payload is the WARC file's bytes
//! verbatim (an uncompressed file, no transfer or content coding) the hit
//! also has offsets into the file: for UTF-8 text, and for HTML where the
//! HTML reader places it in the page (docs/rules.md §8.3).

use std::borrow::Cow;
use std::io::Read;
use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8};

use crate::Finder;
use crate::charset::detect::{Charset, CharsetSource, detect};
use crate::format::batches::scan_in_batches;
use crate::format::html::HtmlScanner;
use crate::format::structured_hit::{Origin, Source, StructuredHit};
use crate::format::warc::{
    DEFAULT_MAX_RECORD_SIZE, WarcError, WarcErrorKind, WarcReader, WarcRecord,
};
use crate::format::warc_http::{dechunk, decode_content, media_type, parse_response};

/// Scans WARC records: a [`Finder`] and the largest record kept.
///
/// ```
/// use iriscan::{Finder, WarcScanner};
/// let warc = b"WARC/1.0\r\n\
///     WARC-Type: response\r\n\
///     WARC-Record-ID: <urn:uuid:7>\r\n\
///     WARC-Target-URI: http://example.org/dir/page.html\r\n\
///     Content-Type: application/http; msgtype=response\r\n\
///     Content-Length: 105\r\n\r\n\
///     HTTP/1.1 200 OK\r\n\
///     Content-Type: text/html; charset=utf-8\r\n\r\n\
///     <a href=\"../caf&eacute;?a=1&amp;b=2\">caf\xc3\xa9</a>\r\n\r\n";
/// let mut found = Vec::new();
/// WarcScanner::new(Finder::new())
///     .scan_warc(&warc[..], |scan| found.extend(scan.into_hits()))
///     .unwrap();
/// assert_eq!(found[0].hit().iri(), "http://example.org/café?a=1&b=2");
/// assert_eq!(found[0].origin().id(), Some("urn:uuid:7"));
/// assert_eq!(found[0].origin().target_uri(), Some("http://example.org/dir/page.html"));
/// assert_eq!(found[0].origin().source().to_string(), "attr:href");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WarcScanner {
    finder: Finder,
    max_record_size: usize,
}

/// What one record gave: its hits and the problems met. A problem the
/// reader met between records, or in a record it dropped, is a scan of its
/// own with no hits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordScan {
    index: u64,
    record_id: Option<Arc<str>>,
    target_uri: Option<Arc<str>>,
    hits: Vec<StructuredHit<'static>>,
    errors: Vec<WarcError>,
}

impl RecordScan {
    fn failed(error: WarcError) -> RecordScan {
        RecordScan {
            index: error.record(),
            errors: vec![error],
            ..RecordScan::default()
        }
    }

    /// The record's 0-based index in its input.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The record's `WARC-Record-ID`, without angle brackets.
    pub fn record_id(&self) -> Option<&str> {
        self.record_id.as_deref()
    }

    /// The record's `WARC-Target-URI`.
    pub fn target_uri(&self) -> Option<&str> {
        self.target_uri.as_deref()
    }

    /// The hits, valid and invalid, in the order of the payload.
    pub fn hits(&self) -> &[StructuredHit<'static>] {
        &self.hits
    }

    /// The hits, taken.
    pub fn into_hits(self) -> Vec<StructuredHit<'static>> {
        self.hits
    }

    /// The problems met.
    pub fn errors(&self) -> &[WarcError] {
        &self.errors
    }
}

/// How a payload is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    Html,
    Text,
}

impl WarcScanner {
    /// A scanner that finds hits with `finder`, keeping records up to
    /// [`DEFAULT_MAX_RECORD_SIZE`].
    pub fn new(finder: Finder) -> WarcScanner {
        WarcScanner {
            finder,
            max_record_size: DEFAULT_MAX_RECORD_SIZE,
        }
    }

    /// The largest block kept, and the largest payload a content coding
    /// is decoded to, in bytes (default [`DEFAULT_MAX_RECORD_SIZE`]).
    pub fn max_record_size(mut self, bytes: usize) -> WarcScanner {
        self.max_record_size = bytes;
        self
    }

    /// The finder the scanner uses.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Scans one record (read by a [`WarcReader`] or made by the caller).
    pub fn scan_record(&self, record: &WarcRecord) -> RecordScan {
        let mut scan = RecordScan {
            index: record.index(),
            record_id: record.record_id().map(Arc::from),
            target_uri: record.target_uri().map(Arc::from),
            ..RecordScan::default()
        };
        let kind = record.record_type().unwrap_or_default();
        let kind = kind.trim().to_ascii_lowercase();
        if !matches!(kind.as_str(), "response" | "resource" | "conversion") {
            return scan;
        }
        let block = record.block();
        let warc_type = record.content_type().unwrap_or_default();
        let is_http = kind == "response"
            && (warc_type
                .to_ascii_lowercase()
                .starts_with("application/http")
                || block.starts_with(b"HTTP/"));
        let (payload, content_type, at): (Cow<'_, [u8]>, Option<&str>, Option<usize>) = if is_http {
            let Some(response) = parse_response(block) else {
                scan.errors.push(WarcError::new(
                    record.index(),
                    record.block_offset(),
                    WarcErrorKind::Payload("no HTTP status line".into()),
                ));
                return scan;
            };
            let mut body = Cow::Borrowed(response.body);
            let mut at = Some(response.body_start);
            if response
                .header("Transfer-Encoding")
                .is_some_and(|te| te.to_ascii_lowercase().contains("chunked"))
            {
                body = Cow::Owned(dechunk(&body));
                at = None;
            }
            let coding = response.header("Content-Encoding");
            // Some archives store the body decoded and keep the header.
            let identity = coding.is_none_or(|c| c.trim().eq_ignore_ascii_case("identity"));
            let says_gzip = coding.is_some_and(|c| c.to_ascii_lowercase().contains("gzip"));
            let coded = !identity && (!says_gzip || body.starts_with(&[0x1f, 0x8b]));
            if coded {
                match decode_content(body, coding, self.max_record_size) {
                    Ok(decoded) => body = decoded,
                    Err(e) => {
                        scan.errors.push(WarcError::new(
                            record.index(),
                            record.block_offset() + response.body_start as u64,
                            WarcErrorKind::Payload(e),
                        ));
                        return scan;
                    }
                }
                at = None;
            }
            (body, response.header("Content-Type"), at)
        } else {
            (Cow::Borrowed(block), record.content_type(), Some(0))
        };
        let (media, charset) = media_type(content_type.unwrap_or_default());
        let (media, reading) = match reading_of(&media, &payload) {
            Some(found) => found,
            None => return scan,
        };
        // Offsets into the payload are offsets into the file when the
        // payload is the file's bytes.
        let raw_at = at
            .filter(|_| !record.is_compressed())
            .map(|at| record.block_offset() + at as u64);
        if reading == Reading::Html {
            self.scan_html(record, &payload, charset.as_deref(), raw_at, &mut scan);
            return scan;
        }
        let (text, document_charset) = payload_text(&payload, charset.as_deref());
        let raw_at = raw_at.filter(|_| matches!(text, Cow::Borrowed(_)));
        let text: &str = &text;
        let origin = Arc::new(
            Origin::new(
                record.index(),
                scan.record_id.clone(),
                "".into(),
                Source::Body(media.into()),
            )
            .with_target_uri(scan.target_uri.clone()),
        );
        for hit in self.finder.find_iter(text.as_bytes()) {
            let raw = raw_at.map(|at| at + hit.start() as u64..at + hit.end() as u64);
            scan.hits.push(StructuredHit::new(
                hit.in_document(document_charset).into_owned(),
                origin.clone(),
                raw,
            ));
        }
        scan
    }

    /// Scans every record of a WARC or WET file (plain or gzip-compressed)
    /// read from `input`, handing each record's scan to `each` in input
    /// order; problems the reader met are handed over as scans of their
    /// own. With the `parallel` feature, the next records are read while
    /// the ones before are scanned on the pool, so memory is two batches of
    /// records (8 MiB of blocks each, or one record up to the maximum).
    /// Returns the number of records read, or the read error that ended
    /// the input (after handing over the records before it).
    pub fn scan_warc<R: Read + Send>(
        &self,
        input: R,
        each: impl FnMut(RecordScan),
    ) -> Result<u64, WarcError> {
        self.scan_warc_map(input, |scan| scan, each)
    }

    /// [`scan_warc`](WarcScanner::scan_warc), with `map` applied to each
    /// record's scan on the pool, beside the scan (a caller's rendering of
    /// the hits, say), and what it makes handed to `each` in input order.
    pub fn scan_warc_map<R: Read + Send, T: Send>(
        &self,
        input: R,
        map: impl Fn(RecordScan) -> T + Sync,
        mut each: impl FnMut(T),
    ) -> Result<u64, WarcError> {
        let mut reader = WarcReader::new(input).max_record_size(self.max_record_size);
        let mut records = 0;
        let ended = scan_in_batches(
            &mut reader,
            |item| item.as_ref().map_or(0, |r| r.block().len()),
            |item| matches!(item, Err(e) if matches!(e.kind(), WarcErrorKind::Read(_))),
            |item| match item {
                Ok(record) => (true, map(self.scan_record(record))),
                Err(e) => (false, map(RecordScan::failed(e.clone()))),
            },
            |(record, made)| {
                records += u64::from(record);
                each(made);
            },
        );
        match ended {
            // Problems met between records are scans of their own, not
            // records.
            Ok(_) => Ok(records),
            Err(Err(e)) => Err(e),
            Err(Ok(_)) => unreachable!("only a read error ends the stream"),
        }
    }

    /// Scans an HTML payload with the HTML reader (docs/rules.md §6), the
    /// record's target URI as its base; `raw_at` is the payload's offset
    /// in the file when it is there verbatim.
    fn scan_html(
        &self,
        record: &WarcRecord,
        payload: &[u8],
        declared: Option<&str>,
        raw_at: Option<u64>,
        scan: &mut RecordScan,
    ) {
        // §3: valid UTF-8 first, then the HTTP declaration, else the
        // page's own declaration or the detector (the reader's choice).
        let prefix = &payload[..payload.len().min(crate::DETECTION_PREFIX_LEN)];
        let chosen = payload_charset(payload, declared)
            .unwrap_or_else(|| detect(prefix, payload.len() <= crate::DETECTION_PREFIX_LEN));
        let reader = HtmlScanner::new(self.finder)
            .base(record.target_uri())
            .unit(record.index(), scan.record_id.clone());
        let target = scan.target_uri.clone();
        let hits = &mut scan.hits;
        reader.scan_in(payload, chosen, |hit| {
            let origin = Arc::new(hit.origin().clone().with_target_uri(target.clone()));
            let raw = raw_at.and_then(|at| hit.raw_range().map(|r| at + r.start..at + r.end));
            hits.push(StructuredHit::new(hit.into_hit(), origin, raw));
        });
    }
}

/// How a payload of media type `media` is read, and the media type it is
/// reported as (sniffed when there is none): `None` for one that is not
/// text.
fn reading_of(media: &str, payload: &[u8]) -> Option<(String, Reading)> {
    let html = ["text/html", "application/xhtml+xml"];
    if html.contains(&media) {
        return Some((media.to_string(), Reading::Html));
    }
    let text = media.starts_with("text/")
        || ["application/json", "application/xml", "message/rfc822"].contains(&media)
        || media.ends_with("+xml")
        || media.ends_with("+json");
    if text {
        return Some((media.to_string(), Reading::Text));
    }
    if !media.is_empty() {
        return None;
    }
    // No content type: what the first bytes look like.
    let head = &payload[..payload.len().min(512)];
    let lower = head.to_ascii_lowercase();
    if memchr::memmem::find(&lower, b"<html").is_some()
        || memchr::memmem::find(&lower, b"<!doctype html").is_some()
    {
        return Some(("text/html".into(), Reading::Html));
    }
    if !head.contains(&0) {
        return Some(("text/plain".into(), Reading::Text));
    }
    None
}

/// The payload's text, in the charset docs/rules.md §3 chooses with
/// `declared` as the declaration: valid UTF-8 first, then the declared
/// charset, then the payload's own declaration or the detector.
fn payload_text<'p>(payload: &'p [u8], declared: Option<&str>) -> (Cow<'p, str>, Charset) {
    match payload_charset(payload, declared) {
        // Chosen because the payload is valid UTF-8: borrowed as it is.
        Some(charset) if charset.encoding() == UTF_8 => (String::from_utf8_lossy(payload), charset),
        Some(charset) => {
            let (text, _) = charset.encoding().decode_without_bom_handling(payload);
            (Cow::Owned(text.into_owned()), charset)
        }
        None => {
            let found = detect(payload, true);
            let chosen = found.encoding();
            let (text, _) = chosen.decode_without_bom_handling(&payload[found.bom_len()..]);
            (Cow::Owned(text.into_owned()), found)
        }
    }
}

/// The charset of a payload by §3 when its bytes or its HTTP declaration
/// decide it: valid UTF-8 is UTF-8 (overriding a stale declaration), else
/// the declared charset; `None` leaves the choice to the detector.
fn payload_charset(payload: &[u8], declared: Option<&str>) -> Option<Charset> {
    let declared = declared.and_then(|l| Encoding::for_label(l.trim().as_bytes()));
    if std::str::from_utf8(payload).is_ok() {
        let utf8 = Charset::chosen(UTF_8, CharsetSource::Utf8);
        return Some(match declared {
            // A stale declaration the bytes overrode (ASCII text is in
            // every declared charset's repertoire: nothing overridden).
            Some(d) if d != UTF_8 && !payload.is_ascii() => utf8.overriding(d),
            _ => utf8,
        });
    }
    // A declared UTF-16 in HTTP is what it says; the replacement encoding
    // is not a charset to read with.
    declared
        .filter(|&e| e != encoding_rs::REPLACEMENT)
        .map(|e| Charset::chosen(e, CharsetSource::Declaration))
}
