//! The behaviour tests of iriscan: one integration crate, one module per
//! concern. Data-driven suites live in `tests/suites/` (copied from
//! `../shared/suites`, provenance in each file and in its README).

mod charset;
mod corpus;
mod embedding;
mod extract_suites;
mod mapping;
mod normalize_suite;
mod parse_props;
mod paths;
mod resolve_suite;
mod rules;
mod scripts;
mod support;
mod to_iri_suite;
mod to_uri_suite;
mod validate_suite;
