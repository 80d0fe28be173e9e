//! The behaviour tests of iriscan: one integration crate, one module per
//! concern. Data-driven suites live in `tests/suites/` (copied from
//! `../shared/suites`, provenance in each file and in its README).

mod charset;
mod support;
