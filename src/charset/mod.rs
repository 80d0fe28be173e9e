//! Stage 2 of the pipeline, *decode*: which charset an input is in
//! ([`detect`](detect::detect)), and its bytes turned into UTF-8 as they
//! stream in, with exact offsets back into the original bytes
//! ([`Transcoder`](transcoder::Transcoder)).

pub(crate) mod decoding_reader;
pub(crate) mod detect;
pub(crate) mod resume_points;
pub(crate) mod transcoder;
