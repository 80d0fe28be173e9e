//! What a scan saw: [`Summary`], handed to a sink's `finish` and returned
//! by every scan.

use crate::charset::detect::Charset;

/// What a scan saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Bytes of input read.
    pub bytes: u64,
    /// Hits delivered to the sink (valid and invalid).
    pub hits: u64,
    /// The most bytes the buffers ever held.
    pub peak_buffer: usize,
    /// The charset the input was decoded from, and how it was chosen.
    pub charset: Charset,
    /// Malformed byte sequences replaced by U+FFFD while decoding (each
    /// ends a candidate; offsets are not shifted by them).
    pub replacements: u64,
}
