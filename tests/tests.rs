//! The behaviour tests of iriscan: one integration crate, one module per
//! concern. Data-driven suites live in `tests/suites/` (copied from
//! `../shared/suites`, provenance in each file and in its README).

mod mapping;
mod support;
mod to_iri_suite;
mod to_uri_suite;
