//! Stages 4 and 5 of the pipeline, *validate* and *map*: the IRI algebra of
//! RFC 3987bis — components, the grammar, percent-encoding, IRI → URI and
//! back, Legacy Extended IRIs, normalization and resolution.

pub(crate) mod components;
pub(crate) mod grammar;
pub(crate) mod host_mapping;
pub(crate) mod host_safety;
pub(crate) mod idn_memo;
pub(crate) mod ip_literal;
pub(crate) mod leiri;
pub(crate) mod normalize;
pub(crate) mod parse;
pub(crate) mod parsed_iri;
pub(crate) mod percent;
pub(crate) mod resolve;
pub(crate) mod to_iri;
pub(crate) mod to_uri;
pub(crate) mod walk;
