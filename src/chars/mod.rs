//! The character layer every stage stands on: which bytes and code points
//! belong to an IRI, which end one in running text, and how UTF-8 is
//! decoded one character at a time.

pub(crate) mod classes;
pub(crate) mod ucschar;
