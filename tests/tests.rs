//! The behaviour tests of iriscan: one integration crate, one module per
//! concern. Data-driven suites live in `tests/suites/` (provenance in each
//! file and in its README); helpers the modules share (the suite loaders,
//! the `Trickle` reader, the list of every encoding) in `support.rs`.
//!
//! # Property tests and the failures they find
//!
//! Every property test, here and in the unit tests under `src/`, runs with
//! `failure_persistence: None`: proptest writes no regression file and
//! reads none. A failure prints its shrunk input, and that input becomes a
//! plain `#[test]` next to the property, named for what the input is,
//! calling the property's check (a function the property calls too), with
//! a comment naming the property (and, for the older ones, the seed they
//! were saved as).
//!
//! Why not proptest's files: a seed replays the random generator, not the
//! input, so once a strategy changes it silently tests something else;
//! the file's place follows the source file's (`src/a/b.rs` →
//! `proptest-regressions/a/b.txt`; a module of this crate →
//! `tests/<module>.proptest-regressions`, after a warning that there is no
//! `lib.rs`), so moving a module silently orphans it; and a config that
//! turns persistence off ignores it (`parse_props` did). A named test is
//! read, reviewed and run by everyone. `proptest_policy.rs` holds every
//! property test to this.

mod allocations;
mod charset;
mod corpus;
mod counting;
mod drop_whole;
mod embedding;
mod extract_suites;
mod grammar_automaton;
#[cfg(feature = "html")]
mod html;
#[cfg(feature = "mail")]
mod mail;
mod mapping;
mod normalize_suite;
mod parse_props;
mod paths;
mod proptest_policy;
mod readme_library;
mod resolve_suite;
mod rules;
mod scripts;
mod support;
mod to_iri_suite;
mod to_uri_suite;
mod validate_suite;
#[cfg(feature = "warc")]
mod warc;
mod warnings;
