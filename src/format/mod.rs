//! Structured inputs: documents that are not running text but *hold*
//! running text — a mail message, an mbox of messages, an HTML page, a web
//! archive's records.
//!
//! The text path finds IRIs in bytes as they are. A structured document
//! first has to be taken apart: a quoted-printable body breaks a link over
//! two lines and writes `=` as `=3D`, a base64 part hides it altogether, a
//! header folds it. So each format here is read with a parser made for it,
//! which hands over *pieces of text* — a decoded body part, a header value
//! — and each piece is scanned by the same [`Finder`](crate::Finder) as any
//! text: detection, validation and mapping are never done again here.
//!
//! What a format adds is *where* a hit came from: a
//! [`StructuredHit`] is the text path's [`Hit`](crate::Hit) (offsets into
//! the decoded piece) with an [`Origin`] (which message or record, which
//! part, which header or body) and, where the piece is the input's bytes
//! verbatim, the offsets into the input as given. The rules are in
//! `docs/rules.md §5`.
//!
//! - [`input_format`]: which of these readers an input needs, from its
//!   first bytes and its name.
//! - [`structured_hit`]: the shape every format's hits share.
//! - [`mail`]: one RFC 5322 / MIME message, parsed with `mail-parser`.
//! - [`html_tokens`]: what a reader takes from an HTML page as it is
//!   tokenized (html5gum): text and link attributes, with their positions.
//! - [`html`]: an HTML page's hits, text and links, resolved against its
//!   base (docs/rules.md §6).
//! - [`html_text`]: the text of an HTML mail part a reader sees, with its
//!   links, as one string.
//! - [`part_charset`]: the charset of a text part (docs/rules.md §3 per
//!   part).
//! - [`mbox`]: the messages of an mbox file, split as it streams.
//! - [`warc`]: the records of a WARC or WET file, read as it streams
//!   ([`warc_gzip`] decodes a compressed one member by member);
//!   [`warc_scan`] scans each record's payload, taken out of its HTTP
//!   response by [`warc_http`] (docs/rules.md §8).

#[cfg(any(feature = "mail", feature = "warc"))]
pub(crate) mod batches;
pub(crate) mod html;
#[cfg(feature = "mail")]
pub(crate) mod html_text;
pub(crate) mod html_tokens;
pub(crate) mod input_format;
#[cfg(feature = "mail")]
pub(crate) mod mail;
#[cfg(feature = "mail")]
pub(crate) mod mbox;
#[cfg(feature = "mail")]
pub(crate) mod part_charset;
pub(crate) mod structured_hit;
#[cfg(feature = "warc")]
pub(crate) mod warc;
#[cfg(feature = "warc")]
pub(crate) mod warc_gzip;
#[cfg(feature = "warc")]
pub(crate) mod warc_http;
#[cfg(feature = "warc")]
pub(crate) mod warc_scan;
