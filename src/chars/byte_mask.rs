//! Where given bytes sit in a short slice, as bit masks: bit `i` of a mask
//! is set when byte `i` is the byte asked for.
//!
//! A host name is mostly a few dozen ASCII bytes, and the questions the
//! host checks ask of it are about neighbours: does a label start or end
//! with `-`, are two dots adjacent, does the last label hold a `_`. With
//! the dots, hyphens and underscores as masks, each question is a shift
//! and an `and` for the whole host, where a byte loop pays a compare and a
//! branch for every byte (and a call per label).
//!
//! The masks are made eight bytes at a time without vector instructions
//! (SWAR): in a word `x` holding the bytes XOR the wanted byte, a byte is
//! zero exactly when `!(((x & 0x7f…) + 0x7f…) | x)` has its high bit set —
//! the exact form, which never marks a neighbour of a zero byte (the
//! faster `x - 0x01…` form does, through borrows). A multiplication then
//! gathers the eight high bits into one byte.

/// The byte 0x01 in every byte of a word.
pub(crate) const LSB: u64 = 0x0101_0101_0101_0101;

/// The byte 0x7f in every byte of a word.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of every byte of a word.
const HIGH: u64 = LSB << 7;

/// The longest slice [`ByteMasks::of`] takes: one bit a byte in a `u64`.
pub(crate) const MAX_MASKED: usize = 64;

/// The high bit of each byte of `w` that equals `b`, and no other bit.
#[inline(always)]
fn equal_bytes(w: u64, b: u8) -> u64 {
    let x = w ^ (u64::from(b) * LSB);
    !(((x & LOW7) + LOW7) | x) & HIGH
}

/// The high bits of a word's bytes (as [`equal_bytes`] gives them) as
/// eight bits, bit `i` for byte `i`. Why the product works: with the high
/// bits moved to the bottom of each byte, byte `i` holds `b_i`, and the
/// factor's byte `j` is `2^(7-j)`; the partial product of `b_i` and byte
/// `j` lands on bit `8(i+j) + 7 - j`, which is bit `56 + i` of the top
/// byte exactly when `i + j = 7`. Every partial product lands on its own
/// bit (no two `(i, j)` share one), so nothing carries.
#[inline(always)]
fn gather(high: u64) -> u64 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Where the dots, hyphens and underscores of a short slice are, and
/// whether it is all ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteMasks {
    /// `.` bytes.
    pub dots: u64,
    /// `-` bytes.
    pub hyphens: u64,
    /// `_` bytes.
    pub underscores: u64,
    /// Whether every byte is ASCII.
    pub ascii: bool,
}

impl ByteMasks {
    /// The masks of `hay[start..end]`, at most [`MAX_MASKED`] bytes long
    /// (`None` if longer). Whole words are read from `hay` where it has
    /// eight bytes at the place, the bytes after `end` cleared.
    #[inline]
    pub(crate) fn of(hay: &[u8], start: usize, end: usize) -> Option<ByteMasks> {
        let n = end - start;
        if n > MAX_MASKED {
            return None;
        }
        let mut masks = ByteMasks {
            dots: 0,
            hyphens: 0,
            underscores: 0,
            ascii: true,
        };
        let mut high = 0;
        let mut at = 0;
        while at < n {
            let from = start + at;
            let mut w = match hay.get(from..from + 8) {
                Some(word) => u64::from_le_bytes(word.try_into().expect("eight bytes")),
                None => {
                    let mut word = [0u8; 8];
                    let tail = &hay[from..end];
                    word[..tail.len()].copy_from_slice(tail);
                    u64::from_le_bytes(word)
                }
            };
            if n - at < 8 {
                // Bytes after the end: zero, which is none of the bytes
                // looked for, and ASCII.
                w &= (1u64 << (8 * (n - at))) - 1;
            }
            high |= w;
            masks.dots |= gather(equal_bytes(w, b'.')) << at;
            // Hyphens and underscores are rare: gathered only if there.
            let hyphens = equal_bytes(w, b'-');
            if hyphens != 0 {
                masks.hyphens |= gather(hyphens) << at;
            }
            let underscores = equal_bytes(w, b'_');
            if underscores != 0 {
                masks.underscores |= gather(underscores) << at;
            }
            at += 8;
        }
        masks.ascii = high & HIGH == 0;
        Some(masks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_loop(s: &[u8], b: u8) -> u64 {
        s.iter()
            .enumerate()
            .filter(|&(_, &x)| x == b)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    #[test]
    fn equal_bytes_marks_exactly_the_equal_bytes() {
        // Every byte value beside every other, both orders: the exact form
        // never marks a neighbour (the borrow of the fast form would).
        for b in [b'.', b'-', b'_', 0, 0x7f, 0x80, 0xff] {
            for x in 0..=255u8 {
                for y in 0..=255u8 {
                    let w = u64::from_le_bytes([x, y, b, x, y, b, y, x]);
                    let want: u64 = [x, y, b, x, y, b, y, x]
                        .iter()
                        .enumerate()
                        .filter(|&(_, &v)| v == b)
                        .fold(0, |m, (i, _)| m | 0x80 << (8 * i));
                    assert_eq!(equal_bytes(w, b), want, "{b:#x} in {x:#x} {y:#x}");
                }
            }
        }
    }

    #[test]
    fn masks_agree_with_a_byte_loop() {
        let alphabet = b"a.-_\xc3\xa9Z0";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..=MAX_MASKED {
            for _ in 0..200 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                // Alone, and inside a longer slice (words read past the end).
                let m = ByteMasks::of(&s, 0, s.len()).expect("short enough");
                let mut padded = vec![b'.'; 3];
                padded.extend_from_slice(&s);
                padded.extend_from_slice(b"._-\xff.._-");
                assert_eq!(ByteMasks::of(&padded, 3, 3 + s.len()), Some(m), "{s:?}");
                assert_eq!(m.dots, by_loop(&s, b'.'), "{s:?}");
                assert_eq!(m.hyphens, by_loop(&s, b'-'), "{s:?}");
                assert_eq!(m.underscores, by_loop(&s, b'_'), "{s:?}");
                assert_eq!(m.ascii, s.is_ascii(), "{s:?}");
            }
        }
        assert_eq!(
            ByteMasks::of(&[b'a'; MAX_MASKED + 1], 0, MAX_MASKED + 1),
            None
        );
    }
}
