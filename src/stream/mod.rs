//! Stages 1 and 6 of the pipeline, *read* and *deliver*: inputs of any size
//! read in bounded memory ([`Searcher`](searcher::Searcher)), on one thread
//! or several, with line numbers, each hit handed to the caller in input
//! order — or only counted ([`Counts`](counting::Counts)).

pub(crate) mod counting;
pub(crate) mod delivery;
pub(crate) mod line_counter;
pub(crate) mod locating;
#[cfg(feature = "parallel")]
mod parallel_pipeline;
#[cfg(feature = "parallel")]
pub(crate) mod parallel_scan;
pub(crate) mod pool;
pub(crate) mod push_scanner;
pub(crate) mod read_at;
pub(crate) mod roll_buffer;
pub(crate) mod roll_scan;
pub(crate) mod searcher;
pub(crate) mod settled;
pub(crate) mod sink;
pub(crate) mod source;
pub(crate) mod summary;
