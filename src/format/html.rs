//! An HTML page read as HTML: the links a reader of the page follows and
//! the IRIs its text shows, each with where it is in the page's bytes.
//!
//! Scanning HTML as plain text gets links wrong: in
//! `href="…?a=1&amp;b=2"` the link is `…?a=1&b=2`, `caf&eacute;` is
//! `café`, `<a href="../guide/">` is a link relative to the page, and a
//! script's strings are not text anyone reads. [`HtmlScanner`] tokenizes
//! the page as a browser does ([`html_tokens`](super::html_tokens), with
//! `html5gum`) and finds (docs/rules.md §6):
//!
//! - in the **text content**, with character references decoded, the
//!   hits the text path finds in running text — the same
//!   [`Finder`](crate::Finder), the same rules; scripts, styles, comments
//!   are skipped. A tag ends a run of text: no hit spans markup;
//! - in the **attributes that hold links** (`href`, `src`, `action`,
//!   `cite`, `srcset` — each of its URLs —, `poster`, `data`,
//!   `formaction`, `longdesc`, `manifest`, `background`, …), the value as
//!   an IRI reference, resolved against the page's base: the first
//!   `<base href>`, itself resolved against the base the caller gives
//!   (the page's own address), or that base. The resolved IRI is
//!   validated as every hit is; a relative reference without a base is
//!   reported invalid. Such a hit has the kind [`Kind::Href`](crate::Kind).
//!
//! The page's charset is the caller's (a `Content-Type` header) or what
//! [`detect`](crate::detect) chooses: a BOM, `<meta charset>` or
//! `http-equiv`, valid UTF-8, or a guess (docs/rules.md §3).
//!
//! # Where a hit is
//!
//! Each hit is a [`StructuredHit`]. A text hit's `start()..end()` are
//! offsets into the page's *text* — the text content, runs joined by a
//! space, as the [`Finder`] saw it; an attribute hit's are offsets into
//! the decoded value. Both have a [`raw_range`](StructuredHit::raw_range)
//! into the bytes as given (after transcoding is undone): exact to the
//! byte when the hit's text is there verbatim, else widened to the whole
//! character references (or line breaks) its ends fall in; an attribute
//! hit's covers the raw value between its quotes (docs/rules.md §6.3).
//!
//! # Bounded and linear
//!
//! The tokenizer reads the page once. What is held besides the input is
//! bounded: text is scanned and dropped at tag boundaries (and within a
//! run of text longer than [`TEXT_FLUSH`], at a white space), attribute
//! values are held up to the finder's maximum IRI length, tag names to a
//! few bytes.

use std::ops::Range;
use std::sync::Arc;

use encoding_rs::Encoding;

use crate::format::html_tokens::{PageVisitor, read_page};
use crate::format::structured_hit::{Origin, Source, StructuredHit};
use crate::{Charset, DETECTION_PREFIX_LEN, Finder, Hit, detect, resolve, transcode};

/// Text is scanned when this much is held at a tag boundary, or twice
/// this much anywhere (cut at a white space).
pub const TEXT_FLUSH: usize = 64 << 10;

/// Scans HTML pages: a [`Finder`], the base their relative links resolve
/// against, and where the page is in the caller's input.
///
/// ```
/// use iriscan::{Finder, HtmlScanner, Kind};
/// let page = br#"<html><head><base href="https://example.org/doc/"></head>
/// <p>Voir <a href="caf&eacute;?a=1&amp;b=2">le caf&eacute;</a> ou https://ex.org/&#x4E2D;
/// <script>var u = "http://not.text.example/";</script>"#;
/// let hits = HtmlScanner::new(Finder::new()).scan(page, None);
/// let found: Vec<_> = hits.iter()
///     .map(|h| (h.origin().source().to_string(), h.hit().kind(), h.hit().iri()))
///     .collect();
/// assert_eq!(found, [
///     ("attr:href".to_string(), Kind::Href, "https://example.org/doc/"),
///     ("attr:href".to_string(), Kind::Href, "https://example.org/doc/café?a=1&b=2"),
///     ("text/html".to_string(), Kind::Iri, "https://ex.org/中"),
/// ]);
/// // Offsets into the page: the attribute's raw value, the text's bytes.
/// let raw = hits[1].raw_range().unwrap();
/// assert_eq!(&page[raw.start as usize..raw.end as usize], b"caf&eacute;?a=1&amp;b=2");
/// let raw = hits[2].raw_range().unwrap();
/// assert_eq!(&page[raw.start as usize..raw.end as usize], b"https://ex.org/&#x4E2D;");
/// ```
#[derive(Clone, Debug)]
pub struct HtmlScanner {
    finder: Finder,
    base: Option<Arc<str>>,
    index: u64,
    id: Option<Arc<str>>,
}

/// What a scan found out besides its hits.
#[derive(Clone, Debug)]
pub struct HtmlSummary {
    charset: Charset,
    base: Option<Arc<str>>,
    work: u64,
    held: usize,
}

impl HtmlSummary {
    /// The charset the page was read in, and how it was chosen.
    pub fn charset(&self) -> &Charset {
        &self.charset
    }

    /// The base the page's relative links were resolved against at its
    /// end (its `<base href>`, resolved, or the caller's).
    pub fn base(&self) -> Option<&str> {
        self.base.as_deref()
    }

    /// The calls the tokenizer made to the reader: a measure of the work,
    /// linear in the page's length.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The most bytes held at once besides the page: text waiting to be
    /// scanned and attribute values.
    pub fn held(&self) -> usize {
        self.held
    }
}

impl HtmlScanner {
    /// A scanner finding hits with `finder`, without a base: relative
    /// links resolve only against the page's own `<base href>`.
    pub fn new(finder: Finder) -> HtmlScanner {
        HtmlScanner {
            finder,
            base: None,
            index: 0,
            id: None,
        }
    }

    /// The base relative links resolve against: the page's address (a
    /// crawler's URL, a WARC record's `WARC-Target-URI`). A `<base href>`
    /// in the page is resolved against it and replaces it. An invalid
    /// base is ignored.
    pub fn base(mut self, base: Option<&str>) -> HtmlScanner {
        self.base = base
            .filter(|b| crate::parse(b, crate::Rule::Iri, crate::Syntax::Text).is_ok())
            .map(Arc::from);
        self
    }

    /// Where the page is in the caller's input: the unit's index (a WARC
    /// record's place) and identifier (its `WARC-Record-ID`), given to
    /// every hit's [`Origin`]. By default 0 and none.
    pub fn unit(mut self, index: u64, id: Option<Arc<str>>) -> HtmlScanner {
        self.index = index;
        self.id = id;
        self
    }

    /// The finder the scanner uses.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Scans the page `html`, in `charset` when the caller knows it (an
    /// HTTP `Content-Type`), else the charset [`detect`] chooses; returns
    /// its hits, valid and invalid, in document order.
    pub fn scan(
        &self,
        html: &[u8],
        charset: Option<&'static Encoding>,
    ) -> Vec<StructuredHit<'static>> {
        let mut hits = Vec::new();
        self.scan_with(html, charset, |hit| hits.push(hit));
        hits
    }

    /// [`scan`](HtmlScanner::scan), handing each hit to `each` as it is
    /// found (in document order); returns what the scan found out.
    pub fn scan_with(
        &self,
        html: &[u8],
        charset: Option<&'static Encoding>,
        each: impl FnMut(StructuredHit<'static>),
    ) -> HtmlSummary {
        let prefix = &html[..html.len().min(DETECTION_PREFIX_LEN)];
        let chosen = match charset {
            Some(encoding) => Charset::given(encoding, prefix),
            None => detect(prefix, html.len() <= DETECTION_PREFIX_LEN),
        };
        self.scan_in(html, chosen, each)
    }

    /// [`scan_with`](HtmlScanner::scan_with) in a charset the caller
    /// chose, with how it was chosen (a WARC record's HTTP declaration,
    /// validated UTF-8): the document charset of the hits.
    pub(crate) fn scan_in(
        &self,
        html: &[u8],
        chosen: Charset,
        mut each: impl FnMut(StructuredHit<'static>),
    ) -> HtmlSummary {
        let transcoded = transcode(html, &chosen);
        let utf8 = transcoded.utf8();
        let identity = transcoded.transcoder().is_identity();
        let to_input = |range: Range<usize>| -> Range<u64> {
            if identity {
                range.start as u64..range.end as u64
            } else {
                transcoded
                    .original_range(range.clone())
                    .map_or(range.start as u64..range.end as u64, |r| {
                        r.start as u64..r.end as u64
                    })
            }
        };
        let origin =
            |source: Source| Arc::new(Origin::new(self.index, self.id.clone(), "".into(), source));
        let mut reader = PageReader {
            scanner: self,
            charset: chosen,
            base: self.base.clone(),
            base_seen: false,
            text: String::new(),
            pieces: Vec::new(),
            text_base: 0,
            held: 0,
            work: 0,
            held_values: 0,
            lines: (0, 1, 0),
            input: html,
            text_origin: origin(Source::Body("text/html".into())),
            attribute_origins: Vec::new(),
            origin: &origin,
            to_input: &to_input,
            each: &mut each,
        };
        read_page(utf8, &mut reader, self.finder.max_iri_len());
        reader.flush_all();
        HtmlSummary {
            charset: chosen,
            base: reader.base.clone(),
            work: reader.work,
            held: reader.held + reader.held_values,
        }
    }
}

/// A piece of the held text: where it starts in the text, its raw bytes'
/// range in the (UTF-8) input, and whether it is those bytes verbatim.
#[derive(Clone, Debug)]
struct Piece {
    at: usize,
    raw: Range<usize>,
    verbatim: bool,
}

/// Turns the tokenizer's pieces into hits.
struct PageReader<'s, 'f> {
    scanner: &'s HtmlScanner,
    charset: Charset,
    base: Option<Arc<str>>,
    base_seen: bool,
    /// Text content not yet scanned, and its pieces.
    text: String,
    pieces: Vec<Piece>,
    /// The offset of `text` in the page's whole text.
    text_base: usize,
    held: usize,
    /// The tokenizer's counters, given at the end.
    work: u64,
    held_values: usize,
    /// Line counting over the input as given: the offset counted up to,
    /// its line, and where that line starts.
    lines: (usize, u64, usize),
    input: &'f [u8],
    text_origin: Arc<Origin>,
    attribute_origins: Vec<(&'static str, Arc<Origin>)>,
    origin: &'f dyn Fn(Source) -> Arc<Origin>,
    to_input: &'f dyn Fn(Range<usize>) -> Range<u64>,
    each: &'f mut dyn FnMut(StructuredHit<'static>),
}

impl PageReader<'_, '_> {
    /// Takes a piece of text content (see [`PageVisitor::text`]).
    fn text_piece(&mut self, text: &[u8], raw: Range<usize>, verbatim: bool) {
        let at = self.text.len();
        // The input is UTF-8 (transcoded), and so is what the tokenizer
        // gives (it replaces what is not).
        self.text.push_str(&String::from_utf8_lossy(text));
        match self.pieces.last_mut() {
            // Adjacent verbatim pieces are one.
            Some(last) if verbatim && last.verbatim && last.raw.end == raw.start => {
                last.raw.end = raw.end;
            }
            _ => self.pieces.push(Piece { at, raw, verbatim }),
        }
        if self.text.len() >= 2 * TEXT_FLUSH {
            // A long run of text: scan it up to its last white space that
            // leaves room for a whole IRI after it.
            let limit = self.text.len() - self.scanner.finder.max_iri_len().min(TEXT_FLUSH);
            let cut = self.text.as_bytes()[..limit]
                .iter()
                .rposition(u8::is_ascii_whitespace)
                .map_or(limit, |p| p + 1);
            let cut = (0..=cut)
                .rev()
                .find(|&c| self.text.is_char_boundary(c))
                .unwrap_or(0);
            self.flush(cut);
        }
    }

    /// The raw range (UTF-8 input) of the text range `range` of `text`.
    fn raw_of(&self, range: Range<usize>) -> Range<usize> {
        let find = |offset: usize| {
            let i = self.pieces.partition_point(|p| p.at <= offset);
            &self.pieces[i.saturating_sub(1)]
        };
        let first = find(range.start);
        let start = if first.verbatim {
            first.raw.start + (range.start - first.at)
        } else {
            first.raw.start
        };
        let last = find(range.end.saturating_sub(1).max(range.start));
        let end = if last.verbatim {
            last.raw.start + (range.end - last.at)
        } else {
            last.raw.end
        };
        start..end.max(start)
    }

    /// Scans the held text up to `upto` and drops it.
    fn flush(&mut self, upto: usize) {
        if upto == 0 || self.pieces.is_empty() {
            return;
        }
        self.held = self.held.max(self.text.len());
        let finder = self.scanner.finder;
        let text = std::mem::take(&mut self.text);
        for hit in finder.find_iter(&text.as_bytes()[..upto]) {
            let raw = (self.to_input)(self.raw_of(hit.range()));
            let (start, end) = (hit.start(), hit.end());
            let (line, column) = self.line_column(raw.start as usize);
            let hit = hit
                .in_document(self.charset)
                .locate(self.text_base + start, self.text_base + end, line, column)
                .into_owned();
            (self.each)(StructuredHit::new(hit, self.text_origin.clone(), Some(raw)));
        }
        // Keep what is after `upto`, with its pieces rebased.
        self.text = text[upto..].to_string();
        let keep_from = self
            .pieces
            .partition_point(|p| p.at <= upto)
            .saturating_sub(1);
        let mut kept: Vec<Piece> = self.pieces.drain(keep_from..).collect();
        for piece in &mut kept {
            if piece.at < upto {
                // A verbatim piece cut at `upto` starts later in its bytes.
                if piece.verbatim {
                    piece.raw.start += upto - piece.at;
                }
                piece.at = upto;
            }
            piece.at -= upto;
        }
        self.pieces = kept;
        if self.text.is_empty() {
            self.pieces.clear();
        }
        self.text_base += upto;
    }

    /// The 1-based line and byte column of `offset` in the input as given;
    /// offsets asked for only grow (hits come in document order), so the
    /// count is one pass over the input.
    fn line_column(&mut self, offset: usize) -> (u64, u64) {
        let (from, mut line, mut line_start) = self.lines;
        let offset = offset.min(self.input.len());
        if offset > from {
            for at in memchr::memchr_iter(b'\n', &self.input[from..offset]) {
                line += 1;
                line_start = from + at + 1;
            }
            self.lines = (offset, line, line_start);
        }
        // An offset before the counted one (a `srcset`'s second URL is not
        // before its first, but be safe): on the counted line.
        (line, (offset.saturating_sub(line_start)) as u64 + 1)
    }

    fn flush_all(&mut self) {
        self.flush(self.text.len());
    }

    /// The origin of hits in attribute `name`.
    fn attribute_origin(&mut self, name: &'static str) -> Arc<Origin> {
        if let Some((_, origin)) = self.attribute_origins.iter().find(|(n, _)| *n == name) {
            return origin.clone();
        }
        let origin = (self.origin)(Source::Attribute(name.into()));
        self.attribute_origins.push((name, origin.clone()));
        origin
    }

    /// A hit for the IRI reference `reference` (a link attribute's value,
    /// or one URL of a `srcset`), `raw` being its raw bytes' range.
    fn reference(&mut self, name: &'static str, reference: &str, raw: Range<usize>) {
        // The URL parser strips leading and trailing C0 controls and
        // space, and drops tabs and line breaks inside (WHATWG URL).
        let trimmed = reference.trim_matches(|c: char| c <= ' ');
        if trimmed.is_empty() {
            return;
        }
        let cleaned: String = trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        if !is_link(&cleaned) {
            return;
        }
        let escaped = escape_as_browsers_do(&cleaned);
        let iri = match &self.base {
            Some(base) => resolve(base, &escaped).unwrap_or(escaped),
            None => escaped,
        };
        let origin = self.attribute_origin(name);
        let raw = (self.to_input)(raw);
        let (line, column) = self.line_column(raw.start as usize);
        let hit = Hit::of_reference(&cleaned, iri)
            .in_document(self.charset)
            .locate(0, cleaned.len(), line, column)
            .into_owned();
        (self.each)(StructuredHit::new(hit, origin, Some(raw)));
    }
}

impl PageVisitor for &mut PageReader<'_, '_> {
    fn text(&mut self, text: &[u8], raw: Range<usize>, verbatim: bool) {
        // The tokenizer hands over a run of plain text whole, however
        // long: it is taken in pieces of at most `TEXT_FLUSH` bytes.
        let mut from = 0;
        while from < text.len() {
            let mut to = (from + TEXT_FLUSH).min(text.len());
            // Not inside a UTF-8 character (a continuation byte is 10xxxxxx).
            while to < text.len() && to > from + 1 && text[to] & 0xC0 == 0x80 {
                to -= 1;
            }
            let piece_raw = if verbatim {
                raw.start + from..raw.start + to
            } else {
                raw.clone()
            };
            self.text_piece(&text[from..to], piece_raw, verbatim);
            from = to;
        }
    }

    fn boundary(&mut self) {
        if self.text.is_empty() {
            return;
        }
        // A tag separates runs of text.
        let end = self.pieces.last().map_or(0, |p| p.raw.end);
        self.text.push(' ');
        self.pieces.push(Piece {
            at: self.text.len() - 1,
            raw: end..end,
            verbatim: false,
        });
        if self.text.len() >= TEXT_FLUSH {
            self.flush_all();
        }
    }

    fn link(&mut self, tag: &[u8], name: &str, value: &[u8], raw: Range<usize>, complete: bool) {
        // Hits come in document order: the text before the tag first.
        self.flush_all();
        let Some(&name) = crate::format::html_tokens::LINK_ATTRIBUTES
            .iter()
            .find(|&&a| a == name)
        else {
            return;
        };
        let value = String::from_utf8_lossy(value);
        if tag == b"base" && name == "href" && !self.base_seen {
            // The first `<base href>` sets the base of what follows.
            self.base_seen = true;
            let resolved = match &self.base {
                Some(base) => resolve(base, value.trim()).ok(),
                None => Some(value.trim().to_string()),
            };
            if let Some(b) =
                resolved.filter(|b| crate::parse(b, crate::Rule::Iri, crate::Syntax::Text).is_ok())
            {
                self.base = Some(b.into());
            }
        }
        if !complete {
            // Longer than any IRI the finder reports: no link.
            return;
        }
        // `srcset` is `url [descriptor], url [descriptor], …`; `ping` is
        // URLs separated by white space; the others are one URL.
        let urls: Vec<(usize, &str)> = match name {
            "srcset" => {
                let mut offset = 0;
                value
                    .split(',')
                    .map(|candidate| {
                        let lead = candidate.len() - candidate.trim_start().len();
                        let at = offset + lead;
                        offset += candidate.len() + 1;
                        let url = candidate[lead..]
                            .split(|c: char| c.is_ascii_whitespace())
                            .next()
                            .unwrap_or("");
                        (at, url)
                    })
                    .collect()
            }
            "ping" => {
                let mut offset = 0;
                value
                    .split(|c: char| c.is_ascii_whitespace())
                    .map(|url| {
                        let at = offset;
                        offset += url.len() + 1;
                        (at, url)
                    })
                    .collect()
            }
            _ => return self.reference(name, &value, raw),
        };
        for (at, url) in urls.into_iter().filter(|(_, url)| !url.is_empty()) {
            // A URL's own bytes where the value is its raw bytes (no
            // character reference in it), else the whole value.
            let raw = if raw.len() == value.len() {
                raw.start + at..raw.start + at + url.len()
            } else {
                raw.clone()
            };
            self.reference(name, url, raw);
        }
    }

    fn end(&mut self, calls: u64, held: usize) {
        self.work = calls;
        self.held_values = held;
    }
}

/// Whether an attribute's reference (trimmed, not empty) points somewhere
/// else than the page: a fragment alone (`#top`) names the page itself,
/// and `javascript:` and `vbscript:` values are code a browser runs, not
/// addresses (docs/rules.md §6.2).
fn is_link(reference: &str) -> bool {
    if reference.starts_with('#') {
        return false;
    }
    let scheme = reference
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|s| !s.contains(['/', '?', '#']));
    !scheme
        .is_some_and(|s| s.eq_ignore_ascii_case("javascript") || s.eq_ignore_ascii_case("vbscript"))
}

/// A reference with what a URL cannot hold percent-encoded, as a browser's
/// URL parser writes it before following the link: a space in a file
/// name, `"`, `<`, `>`, `` ` ``, `{`, `}`, `|`, `^` and control characters
/// (docs/rules.md §6.2). Other characters, non-ASCII ones included, stay.
fn escape_as_browsers_do(reference: &str) -> String {
    let needs = |c: char| {
        matches!(c, ' ' | '"' | '<' | '>' | '`' | '{' | '}' | '|' | '^') || c.is_control()
    };
    if !reference.contains(needs) {
        return reference.to_string();
    }
    let mut escaped = String::with_capacity(reference.len() + 8);
    for c in reference.chars() {
        if needs(c) {
            let mut utf8 = [0; 4];
            for b in c.encode_utf8(&mut utf8).bytes() {
                escaped.push_str(&format!("%{b:02X}"));
            }
        } else {
            escaped.push(c);
        }
    }
    escaped
}
