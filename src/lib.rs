//! # iriscan
//!
//! Find Internationalized Resource Identifiers (IRIs, RFC 3987 and its
//! 3987bis revision) in running text of any language, validate each against
//! the RFC grammar, and map it to the URI a resolver needs.
//!
//! (The crate overview grows with the modules; see README.md.)

#![deny(missing_docs)]

mod charset;
mod components;
mod resume;
mod schemes;
mod transcode;
mod ucs;

pub use charset::{
    Charset, CharsetError, CharsetSource, DETECTION_PREFIX_LEN, META_WINDOW, MIME_WINDOW,
    charset_for_label, detect,
};
pub use components::Components;
pub use schemes::is_registered_scheme;
pub use transcode::{CHECKPOINT_INTERVAL, OffsetMapper, Transcoded, Transcoder, transcode};
pub use ucs::{is_iprivate, is_leiri_ucschar, is_ucschar};
