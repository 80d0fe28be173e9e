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

/// A search for the first of two bytes, set up once. Where the processor
/// has AVX2, memchr's AVX2 searcher is held and called directly:
/// `memchr::memchr2` does the same work but finds its implementation
/// again on every call (a call through a function pointer) and builds its
/// vectors anew, which on link-dense text, a search every few dozen bytes,
/// cost 2% of the instructions. Elsewhere it is `memchr::memchr2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EitherByte {
    bytes: (u8, u8),
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::Two>,
}

impl EitherByte {
    /// A search for `a` or `b` (the same byte twice: for that one).
    pub(crate) fn new(a: u8, b: u8) -> EitherByte {
        EitherByte {
            bytes: (a, b),
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Two::new(a, b),
        }
    }

    /// Where the first of the two bytes is in `hay`.
    #[inline]
    pub(crate) fn find(&self, hay: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = &self.avx2 {
            return avx2.find(hay);
        }
        memchr::memchr2(self.bytes.0, self.bytes.1, hay)
    }

    /// The bytes of `block` that are either byte, as bits (bit `i` for
    /// byte `i`): sixteen bytes a comparison with SSE2 on x86-64. Where
    /// the next one is likely within a few dozen bytes (the next link of
    /// link-dense text), this answers without a call, where the searcher
    /// costs a call, its set-up and its alignment (`find_colon_or_at`
    /// says what it gained).
    #[inline]
    pub(crate) fn mask_of_64(&self, block: &[u8; 64]) -> u64 {
        mask_of_64(block, self.bytes)
    }
}

/// The bytes of `block` equal to `a` or `b`, as bits (bit `i` for byte
/// `i`), without a searcher: what [`EitherByte::mask_of_64`] answers.
#[inline]
pub(crate) fn either_mask_of_64(block: &[u8; 64], a: u8, b: u8) -> u64 {
    mask_of_64(block, (a, b))
}

/// The bytes of `block` equal to `a` or `b`, as bits: on x86-64 four SSE2
/// loads of sixteen, each compared with both bytes, and their `movemask`s
/// put together; elsewhere a byte loop.
#[inline(always)]
fn mask_of_64(block: &[u8; 64], (a, b): (u8, u8)) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: the intrinsics need SSE2 and nothing else; the `cfg`
    // compiles this only where the build targets it, and SSE2 is part of
    // every x86-64 processor (the architecture's baseline), so the
    // processor running this has it. (No function with
    // `#[target_feature]`: the compiler does not inline one into a caller
    // without the attribute.)
    unsafe {
        use crate::chars::byte_mask::sixteen;
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
        let (va, vb) = (_mm_set1_epi8(a as i8), _mm_set1_epi8(b as i8));
        let mut mask = 0;
        for (k, chunk) in block.chunks_exact(16).enumerate() {
            let v = sixteen(chunk.try_into().expect("sixteen bytes"));
            let either = _mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb));
            mask |= u64::from(_mm_movemask_epi8(either) as u16) << (16 * k);
        }
        mask
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    block
        .iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | u64::from(x == a || x == b) << i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mask of 64 bytes marks exactly the bytes equal to either, for
    /// every place of each and for bytes that differ in one bit.
    #[test]
    fn the_mask_of_64_marks_either_byte() {
        for (a, b) in [(b':', b'@'), (b':', b':'), (0x80, 0xFF)] {
            let search = EitherByte::new(a, b);
            for i in 0..64 {
                for j in [0, 17, 31, 32, 63] {
                    let mut block = [b'x'; 64];
                    block[i] = a;
                    block[j] = b;
                    block[(i + 5) % 64] = a ^ 1;
                    block[(i + 9) % 64] = b ^ 0x40;
                    let want = block
                        .iter()
                        .enumerate()
                        .fold(0u64, |m, (k, &x)| m | u64::from(x == a || x == b) << k);
                    assert_eq!(search.mask_of_64(&block), want, "{a} {b} {i} {j}");
                }
            }
        }
    }

    /// The held searcher finds what a byte loop finds, in slices of every
    /// length around the vector widths, with the bytes anywhere or nowhere.
    #[test]
    fn either_byte_finds_the_first_of_the_two() {
        for (a, b) in [(b':', b'@'), (b':', b':')] {
            let search = EitherByte::new(a, b);
            for len in 0usize..140 {
                for at in [
                    None,
                    Some(0),
                    Some(1),
                    Some(15),
                    Some(31),
                    Some(32),
                    Some(len / 2),
                ] {
                    for other in [None, Some(len.saturating_sub(1)), Some(3)] {
                        let mut s = vec![b'x'; len];
                        if let Some(o) = other.filter(|&o| o < len) {
                            s[o] = b;
                        }
                        if let Some(i) = at.filter(|&i| i < len) {
                            s[i] = a;
                        }
                        let first = s.iter().position(|&x| x == a || x == b);
                        assert_eq!(search.find(&s), first, "{len} {at:?} {other:?}");
                    }
                }
            }
        }
    }

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
