//! The shape of a hit found inside a structured document: the text hit,
//! and where in the document its text came from.
//!
//! A structured document is scanned piece by piece (a decoded MIME part, a
//! header value). The [`Finder`](crate::Finder) sees only the piece, so the
//! [`Hit`] it gives — IRI, kind, warnings, validation, line and column —
//! is about the piece: its offsets are offsets into the piece's *decoded*
//! text. What the finder cannot know is added around it:
//!
//! - the [`Origin`]: which unit of the input (a message of an mbox, later a
//!   WARC record) by its index and its identifier, which part of the unit
//!   (the MIME part path `1.2`), and which [`Source`] in it (a header, a
//!   body of a media type);
//! - the *raw* offsets, into the input as given, where the piece is the
//!   input's bytes verbatim (a 7bit/8bit/binary body in UTF-8 or ASCII, a
//!   header value without encoded words). A base64 or quoted-printable
//!   body, or one in another charset, has no such offsets: its text is not
//!   in the input byte for byte (docs/rules.md §5.3).
//!
//! Every format (mail now; HTML and WARC later) gives hits of this one
//! type, so a caller handles them alike.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::Hit;

/// Which piece of a unit a hit was found in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// The value of a header field, by its name as the parser spells it
    /// (`List-Unsubscribe`, `Subject`).
    Header(Arc<str>),
    /// A body of this media type, lower case (`text/plain`, `text/html`).
    Body(Arc<str>),
    /// The value of an HTML attribute that holds a link, by its name
    /// (`href`, `src`).
    Attribute(Arc<str>),
}

impl fmt::Display for Source {
    /// `header:List-Unsubscribe`, the media type (`text/plain`), or
    /// `attr:href`: the
    /// `source` of the JSON output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Header(name) => write!(f, "header:{name}"),
            Source::Body(media_type) => f.write_str(media_type),
            Source::Attribute(name) => write!(f, "attr:{name}"),
        }
    }
}

/// Where in a structured input a piece of text was found.
///
/// Hits of one piece share their origin (it is reference-counted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    index: u64,
    id: Option<Arc<str>>,
    part: Arc<str>,
    source: Source,
    target_uri: Option<Arc<str>>,
}

impl Origin {
    /// The origin of a piece of unit `index` (whose identifier is `id`), in
    /// part `part`, from `source`.
    pub fn new(index: u64, id: Option<Arc<str>>, part: Arc<str>, source: Source) -> Origin {
        Origin {
            index,
            id,
            part,
            source,
            target_uri: None,
        }
    }

    /// The same origin, for a unit fetched from `uri` (a WARC record's
    /// `WARC-Target-URI`).
    pub fn with_target_uri(mut self, uri: Option<Arc<str>>) -> Origin {
        self.target_uri = uri;
        self
    }

    /// The URI the unit was fetched from: a WARC record's
    /// `WARC-Target-URI` (the `target_uri` of the JSON output); `None` for
    /// mail.
    pub fn target_uri(&self) -> Option<&str> {
        self.target_uri.as_deref()
    }

    /// The 0-based index of the unit in its input: the message's place in
    /// an mbox (0 for a single message), the record's in a WARC file. This
    /// is the `message` (or `record`) of the JSON output: unlike an identifier it is always there and never repeats.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The unit's own identifier, if it has one: a message's `Message-ID`,
    /// a WARC record's `WARC-Record-ID` (without their angle brackets).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The part path, as IMAP numbers MIME parts (RFC 3501 §6.4.5): `1`
    /// for the body of a single-part message, `1`, `2`, … for the parts of
    /// a multipart, `2.1` for the first part inside part 2. A header's
    /// part is the message it belongs to: empty for the top message, the
    /// path of the `message/rfc822` part for an attached one.
    pub fn part(&self) -> &str {
        &self.part
    }

    /// The piece of the part: a header or a body.
    pub fn source(&self) -> &Source {
        &self.source
    }
}

/// A hit found in a piece of a structured document: the text path's
/// [`Hit`], whose offsets are into the piece's decoded text, and where the
/// piece came from.
///
/// ```
/// use iriscan::{MailScanner, Finder};
/// let message = b"Subject: news\r\n\
///     List-Unsubscribe: <https://example.org/unsub?id=7>\r\n\
///     Content-Type: text/plain; charset=utf-8\r\n\
///     Content-Transfer-Encoding: quoted-printable\r\n\
///     \r\n\
///     Lire https://fr.wikipedia.org/wiki/Caf=C3=A9_(boisson)?utm_source=3Dnews&u=\r\n\
///     tm_medium=3Demail ici.\r\n";
/// let scan = MailScanner::new(Finder::new()).scan_message(message, 0);
/// let found: Vec<_> = scan.hits().iter()
///     .map(|h| (h.origin().part(), h.origin().source().to_string(), h.hit().iri()))
///     .collect();
/// assert_eq!(found, [
///     ("", "header:List-Unsubscribe".to_string(), "https://example.org/unsub?id=7"),
///     ("1", "text/plain".to_string(),
///      "https://fr.wikipedia.org/wiki/Café_(boisson)?utm_source=news&utm_medium=email"),
/// ]);
/// // The header is in the message as it is: its raw offsets slice it out.
/// let raw = scan.hits()[0].raw_range().unwrap();
/// assert_eq!(&message[raw.start as usize..raw.end as usize], b"https://example.org/unsub?id=7");
/// // The quoted-printable body is not: offsets into its decoded text only.
/// assert_eq!(scan.hits()[1].raw_range(), None);
/// assert_eq!(scan.hits()[1].start(), "Lire ".len());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructuredHit<'h> {
    hit: Hit<'h>,
    origin: Arc<Origin>,
    raw: Option<Range<u64>>,
}

impl<'h> StructuredHit<'h> {
    /// A hit of a piece from `origin`; `raw` is where its text is in the
    /// input as given, when the piece is there verbatim.
    pub fn new(hit: Hit<'h>, origin: Arc<Origin>, raw: Option<Range<u64>>) -> StructuredHit<'h> {
        StructuredHit { hit, origin, raw }
    }

    /// The hit as the text path found it in the piece's decoded text.
    pub fn hit(&self) -> &Hit<'h> {
        &self.hit
    }

    /// Where the piece came from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Byte offset of the hit's first byte in the piece's decoded text
    /// (UTF-8).
    pub fn start(&self) -> usize {
        self.hit.start()
    }

    /// Byte offset just after the hit's last byte in the piece's decoded
    /// text.
    pub fn end(&self) -> usize {
        self.hit.end()
    }

    /// The hit's offsets in the input as given, when the piece is there
    /// verbatim (docs/rules.md §5.3); `None` for a decoded piece.
    pub fn raw_range(&self) -> Option<Range<u64>> {
        self.raw.clone()
    }

    /// The text hit, without its origin.
    pub fn into_hit(self) -> Hit<'h> {
        self.hit
    }

    /// A copy that owns its text.
    pub fn into_owned(self) -> StructuredHit<'static> {
        StructuredHit {
            hit: self.hit.into_owned(),
            origin: self.origin,
            raw: self.raw,
        }
    }
}
