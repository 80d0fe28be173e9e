//! Finding one byte in a slice, forwards or backwards, at the speed the
//! slice's length calls for.
//!
//! `memchr` searches with vector instructions and wins on long slices, but
//! it costs a call and some set-up. The parts of one IRI that the splitter
//! and the host checks search (an authority, a host, a label) are mostly a
//! few dozen bytes, where a plain loop is faster. [`find_byte`] and
//! [`rfind_byte`] pick one or the other by the length of the slice; both
//! answer exactly as `iter().position` and `iter().rposition` would.

/// Slices shorter than this are searched byte by byte: the parts of one
/// IRI (an authority, a host) are mostly short, and for them a vector
/// search (memchr) costs more to set up than it saves.
const SHORT: usize = 32;

/// The first `b` in `s` (memchr, or a byte loop for a short `s`).
#[inline]
pub(crate) fn find_byte(b: u8, s: &[u8]) -> Option<usize> {
    if s.len() < SHORT {
        s.iter().position(|&x| x == b)
    } else {
        memchr::memchr(b, s)
    }
}

/// The last `b` in `s` (memrchr, or a byte loop for a short `s`).
#[inline]
pub(crate) fn rfind_byte(b: u8, s: &[u8]) -> Option<usize> {
    if s.len() < SHORT {
        s.iter().rposition(|&x| x == b)
    } else {
        memchr::memrchr(b, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte loops for short slices and memchr for long ones agree with
    /// a plain search, wherever the byte is (or is not) on either side of
    /// the length where they switch.
    #[test]
    fn byte_searches_agree_on_short_and_long_slices() {
        for len in 0usize..80 {
            for at in [
                None,
                Some(0),
                Some(1),
                Some(len / 2),
                Some(len.saturating_sub(1)),
            ] {
                let mut s = vec![b'a'; len];
                if let Some(at) = at.filter(|&a| a < len) {
                    s[at] = b':';
                    if at + 3 < len {
                        s[at + 3] = b':';
                    }
                }
                let first = s.iter().position(|&x| x == b':');
                let last = s.iter().rposition(|&x| x == b':');
                assert_eq!(find_byte(b':', &s), first, "{len} {at:?}");
                assert_eq!(rfind_byte(b':', &s), last, "{len} {at:?}");
            }
        }
    }
}
