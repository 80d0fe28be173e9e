//! The character layer every stage stands on, one rule per file:
//!
//! - [`ascii`]: the one table of ASCII character classes — the grammar's
//!   (`unreserved`, `sub-delims`, …) and the scanner's (e-mail, DNS host,
//!   trimmed, white space);
//! - [`ucschar`]: the non-ASCII classes of the grammar (`ucschar`,
//!   `iprivate`, the LEIRI `ucschar`);
//! - [`end_of_iri`]: which non-ASCII characters end an IRI in running text
//!   (white space, bidi formatting characters, sentence punctuation,
//!   quotation marks), asked by the scanner, the validator and the
//!   conversions alike;
//! - [`utf8`]: decoding one character forwards or backwards, and the length
//!   of a sequence by its lead byte;
//! - [`byte_search`]: finding one byte in a short or long slice;
//! - [`byte_mask`]: where given bytes sit in a short slice, as bit masks;
//! - `every_string` (tests only): every short string over an alphabet, for
//!   exhaustive tests.

pub(crate) mod ascii;
pub(crate) mod byte_mask;
pub(crate) mod byte_search;
pub(crate) mod end_of_iri;
pub(crate) mod ucschar;
pub(crate) mod utf8;

#[cfg(test)]
mod agreement_tests;
#[cfg(test)]
pub(crate) mod every_string;
