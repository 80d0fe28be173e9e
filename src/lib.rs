//! # iriscan
//!
//! Find Internationalized Resource Identifiers (IRIs, RFC 3987 and its
//! 3987bis revision) in running text of any language, validate each against
//! the RFC grammar, and map it to the URI a resolver needs.
//!
//! (The crate overview grows with the modules; see README.md.)

#![deny(missing_docs)]

mod chars;
mod charset;
mod find;
mod iri;
mod stream;

pub use chars::ucschar::{is_iprivate, is_leiri_ucschar, is_ucschar};
pub use charset::detect::{
    Charset, CharsetError, CharsetSource, DETECTION_PREFIX_LEN, META_WINDOW, MIME_WINDOW,
    charset_for_label, detect,
};
pub use charset::transcoder::{
    CHECKPOINT_INTERVAL, OffsetMapper, Transcoded, Transcoder, transcode,
};
pub use find::finder::{FindIter, Finder, Span, Spans};
pub use find::found_iri::{Hit, Warning};
pub use find::scanner::{DEFAULT_MAX_LEN, Kind};
pub use find::schemes::is_registered_scheme;
pub use iri::components::Components;
pub use iri::host_mapping::{HostMapping, IdnaFailure};
pub use iri::leiri::leiri_to_iri;
pub use iri::normalize::{
    NormalForm, NormalizationLevel, NormalizeError, NormalizeOptions, Operand, equivalent,
    normalize,
};
pub use iri::parse::{
    GrammarRule, HostKind, ParseError, ParseErrorKind, Rule, Syntax, host_kind, parse, parse_iri,
    parse_iri_reference,
};
pub use iri::parsed_iri::Iri;
pub use iri::resolve::{ResolveError, ResolveInput, remove_dot_segments, resolve};
pub use iri::to_iri::{IriOptions, to_iri};
pub use iri::to_uri::{MapWarning, Mapped, UriOptions, to_uri, to_uri_into};
pub use stream::push_scanner::PushScanner;
pub use stream::read_at::ReadAt;
pub use stream::searcher::{DEFAULT_BUFFER_SIZE, Searcher, Summary};
pub use stream::sink::{BorrowedSink, Sink};
