//! # iriscan
//!
//! Find Internationalized Resource Identifiers (IRIs, RFC 3987 and its
//! 3987bis revision) in documents of any language and charset, validate each
//! against the RFC grammar, and map it to the URI a resolver needs.
//!
//! The rules the library follows — where an IRI starts and ends in running
//! text, how it is mapped, how a charset is chosen — are written, with their
//! reasons and examples, in `docs/rules.md` of the repository; comments in
//! the code cite its sections (`docs/rules.md §1.2`).
//!
//! # The pipeline
//!
//! Every input takes the same way through the library, one stage per
//! module:
//!
//! ```text
//!  bytes ──► read ──► decode ──► scan ──► validate ──► map ──► deliver
//!            stream   charset    find     iri          iri     stream
//!            Searcher detect,    Scanner, parse,       to_uri, Sink,
//!            ReadAt   Transcoder Finder   Components   to_iri  Summary
//!  (all of them stand on `chars`: the character classes, UTF-8 decoding)
//! ```
//!
//! **Read** (`stream`). A [`Searcher`] reads any [`std::io::Read`] or
//! [`ReadAt`] input a block at a time into a bounded buffer: memory is the
//! buffer plus the longest IRI, whatever the input's size. With several
//! threads (the `parallel` feature, on by default) each block is scanned
//! in pieces on a rayon pool, and the hits still come in input order.
//!
//! **Decode** (`charset`). [`detect`] chooses the input's charset from a
//! caller's label, a byte order mark, a declaration, valid UTF-8 or a
//! detector, and says which rule chose it. A [`Transcoder`] turns the
//! input into UTF-8 as it streams in, and maps any stretch of that UTF-8
//! back to the exact bytes of the original input that encode it.
//!
//! **Scan** (`find`). The scanner finds *candidates* in UTF-8 text: where a
//! `scheme:`, `www.` or e-mail address starts, and where running text ends
//! it — sentence punctuation, quotes and brackets of every script,
//! trailing punctuation, `<…>` wrapping. It never stops at a non-ASCII
//! character because it is non-ASCII, and it runs in linear time on any
//! input. A [`Finder`] holds the options; [`Finder::find_iter`] gives
//! [`Hit`]s.
//!
//! **Validate** (`iri`). Every candidate is parsed against the ABNF of
//! 3987bis §2.2 ([`parse`]) into its [`Components`]; invalid candidates are
//! reported with the reason and its position ([`ParseError`]) but are not
//! links.
//!
//! **Map** (`iri`). [`to_uri`] maps an IRI to the URI a resolver needs
//! (UTF-8 percent-encoding, IDNA for hosts, the query in the document's
//! charset); [`to_iri`] goes back; [`normalize`] and [`equivalent`] give
//! the normal forms of the comparison ladder for deduplication; [`resolve`]
//! resolves relative references.
//!
//! **Deliver** (`stream`). Each hit goes to the caller's sink in input
//! order, with its byte offsets into the original input (not into the
//! UTF-8), its line and column; the scan ends with a [`Summary`] (the
//! charset, the bytes read, the hits, the replacements a decoder made).
//! A caller that needs only how many there are counts them instead
//! ([`Searcher::count_reader`], [`Counts`]): no hit is made.
//!
//! # Features
//!
//! - `parallel` (default): several threads per input, with rayon. Without
//!   it the library has no thread pool and every scan runs on the calling
//!   thread.
//! - `mail` (default): MIME messages and mbox files (`MailScanner`,
//!   `MboxReader`; docs/rules.md §5).
//! - `warc` (default): WARC and WET files, plain or gzip-compressed
//!   (`WarcReader`, `WarcScanner`; docs/rules.md §7).

#![deny(missing_docs)]

mod chars;
mod charset;
mod find;
#[cfg(feature = "html")]
mod format;
mod iri;
mod stream;

#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;

pub use chars::ucschar::{is_iprivate, is_leiri_ucschar, is_ucschar};
pub use charset::decoding_reader::DecodingReader;
pub use charset::detect::{
    Charset, CharsetError, CharsetSource, DETECTION_PREFIX_LEN, META_WINDOW, MIME_WINDOW,
    charset_for_label, detect,
};
pub use charset::transcoder::{
    CHECKPOINT_INTERVAL, OffsetMapper, Transcoded, Transcoder, transcode,
};
pub use find::finder::{FindIter, Finder, Span, Spans};
pub use find::found_iri::Hit;
pub use find::hit_filter::{FilterError, HitFilter};
pub use find::scanner::{DEFAULT_MAX_LEN, Kind};
pub use find::schemes::is_registered_scheme;
pub use find::warnings::{UnknownWarning, Warning, Warnings};
#[cfg(feature = "html")]
pub use format::html::{HtmlScanner, HtmlSummary, TEXT_FLUSH};
#[cfg(feature = "html")]
pub use format::input_format::{InputFormat, SNIFF_MAX, ToldBy, UnknownFormat};
#[cfg(feature = "mail")]
pub use format::mail::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_SIZE, MailError, MailErrorKind, MailScanner, MessageScan,
};
#[cfg(feature = "mail")]
pub use format::mbox::{MboxMessage, MboxReader};
#[cfg(feature = "html")]
pub use format::structured_hit::{Origin, Source, StructuredHit};
#[cfg(feature = "warc")]
pub use format::warc::{DEFAULT_MAX_RECORD_SIZE, WarcError, WarcErrorKind, WarcReader, WarcRecord};
#[cfg(feature = "warc")]
pub use format::warc_scan::{RecordScan, WarcScanner};
pub use iri::components::Components;
pub use iri::grammar::{GrammarAutomaton, grammar_regex};
pub use iri::host_mapping::{HostMapping, IdnaFailure};
pub use iri::leiri::leiri_to_iri;
pub use iri::normalize::{
    NormalForm, NormalizationLevel, NormalizeError, NormalizeOptions, Operand, equivalent,
    normalize, normalize_parsed,
};
pub use iri::parse::{
    GrammarRule, HostKind, ParseError, ParseErrorKind, Rule, Syntax, host_kind, parse, parse_iri,
    parse_iri_reference,
};
pub use iri::parsed_iri::Iri;
pub use iri::resolve::{ResolveError, ResolveInput, remove_dot_segments, resolve};
pub use iri::to_iri::{IriOptions, to_iri};
pub use iri::to_uri::{MapWarning, Mapped, UriOptions, to_uri, to_uri_into};
/// The MIME parser the mail scanner uses, for callers that pass a message
/// they parsed ([`MailScanner::scan_parsed`]).
#[cfg(feature = "mail")]
pub use mail_parser;
pub use stream::counting::Counts;
pub use stream::push_scanner::PushScanner;
pub use stream::read_at::ReadAt;
pub use stream::searcher::{DEFAULT_BUFFER_SIZE, Searcher};
pub use stream::sink::{BorrowedSink, Sink};
pub use stream::summary::Summary;
