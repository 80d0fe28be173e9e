//! The payload of a WARC `response` record: the HTTP response in its
//! block taken apart (status line, header fields, body), and the body as
//! the server meant it — chunked transfer coding and gzip/deflate content
//! coding undone.
//!
//! A crawler stores the response as it came over the wire, so the body of
//! an HTML page may be chunked and gzip-compressed; the links are in what
//! both codings hide. The header fields say how to undo them, and the
//! `Content-Type` field says what the body is and in which charset
//! (docs/rules.md §8).
//!
//! Parsing is lenient, as browsers are: a bare `\n` ends a line as well as
//! `\r\n`; a chunked body whose chunks do not add up keeps what was read;
//! a body that does not decompress is reported. The decoded body is never
//! larger than a limit the caller gives (a gzip bomb stops there).

use std::borrow::Cow;
use std::io::Read;

/// An HTTP response taken apart.
pub(crate) struct HttpResponse<'b> {
    /// The header fields, names as written.
    pub(crate) headers: Vec<(&'b str, &'b str)>,
    /// Where the body starts in the block.
    pub(crate) body_start: usize,
    /// The body as sent (after the header block).
    pub(crate) body: &'b [u8],
}

impl<'b> HttpResponse<'b> {
    /// The value of the first header field `name` (any case).
    pub(crate) fn header(&self, name: &str) -> Option<&'b str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, v)| v)
    }
}

/// Takes the HTTP response in `block` apart: `None` when it does not start
/// with a status line (`HTTP/1.1 200 OK`).
pub(crate) fn parse_response(block: &[u8]) -> Option<HttpResponse<'_>> {
    if !block.starts_with(b"HTTP/") {
        return None;
    }
    let mut headers = Vec::new();
    let mut at = 0;
    let mut first = true;
    loop {
        let Some(n) = memchr::memchr(b'\n', &block[at..]) else {
            // No empty line: all header, no body.
            return Some(HttpResponse {
                headers,
                body_start: block.len(),
                body: &[],
            });
        };
        let line = &block[at..at + n];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at += n + 1;
        if line.is_empty() {
            break;
        }
        if std::mem::take(&mut first) {
            continue;
        }
        // Header fields are ASCII; a field that is not is skipped.
        if let Ok(text) = std::str::from_utf8(line)
            && let Some((name, value)) = text.split_once(':')
        {
            headers.push((name.trim(), value.trim()));
        }
    }
    Some(HttpResponse {
        headers,
        body_start: at,
        body: &block[at..],
    })
}

/// The body with the chunked transfer coding undone (RFC 9112 §7.1):
/// chunk sizes in hex, extensions and trailers ignored. A chunk that runs
/// past the end keeps what there is.
pub(crate) fn dechunk(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        let Some(n) = memchr::memchr(b'\n', &body[at..]) else {
            break;
        };
        let line = &body[at..at + n];
        at += n + 1;
        let digits = line
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .take(16)
            .fold(0u64, |size, &b| {
                size * 16 + (b as char).to_digit(16).unwrap_or(0) as u64
            });
        if digits == 0 {
            break;
        }
        let size = usize::try_from(digits).unwrap_or(usize::MAX);
        let end = at.saturating_add(size).min(body.len());
        out.extend_from_slice(&body[at..end]);
        at = end;
        // The line end after the chunk.
        if body[at..].starts_with(b"\r\n") {
            at += 2;
        } else if body[at..].starts_with(b"\n") {
            at += 1;
        }
    }
    out
}

/// The body with its content coding undone (`gzip`, `x-gzip`,
/// `deflate`; `identity` or none as it is), at most `limit` bytes; an
/// error for a coding this reader does not know or a body that does not
/// decode.
pub(crate) fn decode_content<'a>(
    body: Cow<'a, [u8]>,
    coding: Option<&str>,
    limit: usize,
) -> Result<Cow<'a, [u8]>, String> {
    let coding = coding.map(|c| c.trim().to_ascii_lowercase());
    let limit = limit as u64;
    let mut out = Vec::new();
    let read = match coding.as_deref() {
        None | Some("" | "identity") => return Ok(body),
        Some("gzip" | "x-gzip") => flate2::read::MultiGzDecoder::new(&body[..])
            .take(limit)
            .read_to_end(&mut out),
        Some("deflate") => {
            // Servers send zlib (as RFC 9110 says) or raw deflate: try both.
            let zlib = flate2::read::ZlibDecoder::new(&body[..])
                .take(limit)
                .read_to_end(&mut out);
            match zlib {
                Ok(n) => Ok(n),
                Err(_) => {
                    out.clear();
                    flate2::read::DeflateDecoder::new(&body[..])
                        .take(limit)
                        .read_to_end(&mut out)
                }
            }
        }
        Some(other) => return Err(format!("content coding {other:?} not supported")),
    };
    match read {
        Ok(_) => Ok(Cow::Owned(out)),
        // A body cut short decodes as far as it goes.
        Err(_) if !out.is_empty() => Ok(Cow::Owned(out)),
        Err(e) => Err(format!("content coding does not decode: {e}")),
    }
}

/// The media type (lower case, no parameters) and the `charset`
/// parameter of a `Content-Type` value.
pub(crate) fn media_type(content_type: &str) -> (String, Option<String>) {
    let mut params = content_type.split(';');
    let media = params
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let charset = params.find_map(|p| {
        let (name, value) = p.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']).to_string())
    });
    (media, charset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_is_taken_apart() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\n\
            Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n";
        let r = parse_response(block).unwrap();
        assert_eq!(
            r.header("content-type"),
            Some("text/html; charset=\"ISO-8859-1\"")
        );
        assert_eq!(dechunk(r.body), b"hello world");
        assert_eq!(
            media_type(r.header("Content-Type").unwrap()),
            ("text/html".into(), Some("ISO-8859-1".into()))
        );
        assert!(parse_response(b"GET / HTTP/1.1\r\n\r\n").is_none());
    }

    #[test]
    fn chunks_that_lie_keep_what_there_is() {
        assert_eq!(dechunk(b"ffffffffffffffffffff\r\nabc"), b"abc");
        assert_eq!(dechunk(b"3\nabc\n2\nde"), b"abcde");
        assert_eq!(dechunk(b"zz\r\nabc"), b"");
    }

    #[test]
    fn content_codings_are_undone_within_the_limit() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&[b'a'; 10_000]).unwrap();
        let gz = gz.finish().unwrap();
        let out = decode_content(Cow::Borrowed(&gz[..]), Some("gzip"), 100).unwrap();
        assert_eq!(out.len(), 100);
        let out = decode_content(Cow::Borrowed(&gz[..]), Some("x-gzip"), 1 << 20).unwrap();
        assert_eq!(out.len(), 10_000);
        assert!(decode_content(Cow::Borrowed(&b"abc"[..]), Some("br"), 10).is_err());
        assert!(decode_content(Cow::Borrowed(&b"abc"[..]), Some("gzip"), 10).is_err());
        let same = decode_content(Cow::Borrowed(&b"abc"[..]), None, 10).unwrap();
        assert_eq!(&*same, b"abc");
    }
}
