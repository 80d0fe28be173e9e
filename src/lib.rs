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
mod components;
mod finder;
mod hit;
mod host_check;
mod host_mapping;
mod ip_literal;
mod leiri;
mod lines;
mod normalize;
mod parallel;
mod parse;
mod read_at;
#[cfg(test)]
mod reference;
mod resolve;
mod resume;
mod scanner;
mod schemes;
mod searcher;
mod to_iri;
mod to_uri;
mod transcode;
mod ucs;

pub use charset::{
    Charset, CharsetError, CharsetSource, DETECTION_PREFIX_LEN, META_WINDOW, MIME_WINDOW,
    charset_for_label, detect,
};
pub use components::Components;
pub use finder::{FindIter, Finder};
pub use hit::{Hit, Warning};
pub use host_mapping::{HostMapping, IdnaFailure};
pub use leiri::leiri_to_iri;
pub use normalize::{
    NormalForm, NormalizationLevel, NormalizeError, NormalizeOptions, Operand, equivalent,
    normalize,
};
pub use parse::{
    HostKind, ParseError, Rule, Syntax, host_kind, parse, parse_iri, parse_iri_reference,
};
pub use read_at::ReadAt;
pub use resolve::{ResolveError, ResolveInput, remove_dot_segments, resolve};
pub use scanner::{DEFAULT_MAX_LEN, Kind};
pub use schemes::is_registered_scheme;
pub use searcher::{DEFAULT_BUFFER_SIZE, Searcher, Summary};
pub use to_iri::{IriOptions, to_iri};
pub use to_uri::{MapWarning, Mapped, UriOptions, to_uri, to_uri_into};
pub use transcode::{CHECKPOINT_INTERVAL, OffsetMapper, Transcoded, Transcoder, transcode};
pub use ucs::{is_iprivate, is_leiri_ucschar, is_ucschar};
