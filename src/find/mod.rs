//! Stage 3 of the pipeline, *scan*: where IRIs start and end in running
//! text ([`scanner`]), which hosts are plausible, and the hits handed to
//! the caller ([`Finder`](finder::Finder), [`Hit`](found_iri::Hit)).
//! [`prose_chars`] holds how the scanner sees a non-ASCII character of
//! running text.

pub(crate) mod candidate;
pub(crate) mod finder;
pub(crate) mod found_iri;
pub(crate) mod hit_filter;
pub(crate) mod host_plausibility;
pub(crate) mod prose_chars;
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) mod reference_scanner;
pub(crate) mod repeated_colons;
pub(crate) mod scanner;
pub(crate) mod schemes;
pub(crate) mod warnings;
