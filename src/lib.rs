//! # iriscan
//!
//! Find Internationalized Resource Identifiers (IRIs, RFC 3987 and its
//! 3987bis revision) in running text of any language, validate each against
//! the RFC grammar, and map it to the URI a resolver needs.
//!
//! (The crate overview grows with the modules; see README.md.)

#![deny(missing_docs)]

mod components;
mod host_mapping;
mod leiri;
mod schemes;
mod to_iri;
mod to_uri;
mod ucs;

pub use components::Components;
pub use host_mapping::{HostMapping, IdnaFailure};
pub use leiri::leiri_to_iri;
pub use schemes::is_registered_scheme;
pub use to_iri::{IriOptions, to_iri};
pub use to_uri::{MapWarning, Mapped, UriOptions, to_uri, to_uri_into};
pub use ucs::{is_iprivate, is_leiri_ucschar, is_ucschar};
