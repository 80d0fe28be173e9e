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
//! The loads that make a host's masks can also say where the host ends:
//! [`ByteMasks::of_host_run`] classifies each byte of a block of sixteen
//! (letters, digits and the few punctuation bytes a host holds) and gives
//! the length of the run with the masks, so that a link's host is read and
//! checked from the same one or two loads. E-mail domains and local parts
//! are read the same way.
//!
//! On x86-64 the masks are made sixteen bytes at a time with SSE2, which
//! every x86-64 processor has: a byte comparison and a `movemask` give
//! sixteen bits at once (on link-dense text, 5% fewer instructions in
//! all). Elsewhere they are made eight bytes at a time without vector
//! instructions (SWAR): in a word `x` holding the bytes XOR the wanted
//! byte, a byte is zero exactly when `!(((x & 0x7f…) + 0x7f…) | x)` has
//! its high bit set — the exact form, which never marks a neighbour of a
//! zero byte (the faster `x - 0x01…` form does, through borrows). A
//! multiplication then gathers the eight high bits into one byte. Tests
//! hold both forms to a byte loop.

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

/// Whether `hay` holds the byte `b`: on x86-64 sixteen bytes at a time
/// with SSE2, for the few dozen bytes of a link (where `memchr`'s set-up
/// costs more than the search).
#[inline]
pub(crate) fn contains_byte(hay: &[u8], b: u8) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `contains_byte_sse2` needs SSE2 and nothing else; the
        // `cfg` compiles this only where the build targets it, and SSE2 is
        // part of every x86-64 processor (the architecture's baseline), so
        // the processor running this has it (asserted in debug builds).
        debug_assert!(std::arch::is_x86_feature_detected!("sse2"));
        unsafe { contains_byte_sse2(hay, b) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    hay.contains(&b)
}

/// [`contains_byte`] with SSE2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn contains_byte_sse2(hay: &[u8], b: u8) -> bool {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
    let needle = _mm_set1_epi8(b as i8);
    let has = |chunk: &[u8]| {
        let chunk: [u8; 16] = chunk.try_into().expect("sixteen bytes");
        _mm_movemask_epi8(_mm_cmpeq_epi8(sixteen(chunk), needle)) != 0
    };
    if hay.len() < 16 {
        // Padded with a byte that is not `b`.
        let mut last = [!b; 16];
        last[..hay.len()].copy_from_slice(hay);
        return has(&last);
    }
    let mut chunks = hay.chunks_exact(16);
    if chunks.any(has) {
        return true;
    }
    // The rest: the last sixteen bytes, some of them seen already.
    !chunks.remainder().is_empty() && has(&hay[hay.len() - 16..])
}

/// The bytes of `x` that lie in `first..first + len`, as a byte mask
/// (0xFF where they do): moved to start at -128, one signed comparison.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn in_range(x: std::arch::x86_64::__m128i, first: u8, len: u8) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::{_mm_add_epi8, _mm_cmplt_epi8, _mm_set1_epi8};
    _mm_cmplt_epi8(
        _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(first) as i8)),
        _mm_set1_epi8(0x80u8.wrapping_add(len) as i8),
    )
}

/// Sixteen bytes as an SSE2 vector (no pointer read: two words).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn sixteen(bytes: [u8; 16]) -> std::arch::x86_64::__m128i {
    let half = |i: usize| i64::from_le_bytes(bytes[i..i + 8].try_into().expect("eight bytes"));
    std::arch::x86_64::_mm_set_epi64x(half(8), half(0))
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

/// The classes of ASCII bytes whose runs [`ByteMasks`] finds: an e-mail
/// domain's (letters, digits, `-`, `.`), a plain link's host's (and `_`),
/// an e-mail local part's (and `_`, `%`, `+`).
const DOMAIN_RUN: u8 = 0;
const HOST_RUN: u8 = 1;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const LOCAL_RUN: u8 = 2;

/// Where the dots, hyphens, underscores and non-ASCII bytes of a short
/// slice are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ByteMasks {
    /// `.` bytes.
    pub dots: u64,
    /// `-` bytes.
    pub hyphens: u64,
    /// `_` bytes.
    pub underscores: u64,
    /// Bytes of 0x80 and up: of characters of two bytes or more.
    pub non_ascii: u64,
    /// Bytes of 0xC0 and up: the first bytes of such characters (in
    /// UTF-8).
    pub leads: u64,
}

impl ByteMasks {
    /// The masks of `hay[start..end]`, at most [`MAX_MASKED`] bytes long
    /// (`None` if longer). Whole words are read from `hay` where it has
    /// eight bytes at the place, the bytes after `end` cleared.
    #[inline]
    pub(crate) fn of(hay: &[u8], start: usize, end: usize) -> Option<ByteMasks> {
        if end - start > MAX_MASKED {
            return None;
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        // SAFETY: `of_sse2` needs SSE2 and nothing else; the `cfg` compiles
        // this only where the build targets it, and SSE2 is part of every
        // x86-64 processor (the architecture's baseline), so the processor
        // running this has it (asserted in debug builds).
        let masks = {
            debug_assert!(std::arch::is_x86_feature_detected!("sse2"));
            unsafe { ByteMasks::of_sse2(hay, start, end) }
        };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        let masks = ByteMasks::of_words(hay, start, end);
        Some(masks)
    }

    /// [`ByteMasks::of`] sixteen bytes at a time with SSE2, which every
    /// x86-64 processor has: a comparison and a `movemask` give a byte's
    /// bit for sixteen bytes at once (about a fifth of the instructions of
    /// the word-at-a-time form, which a host check pays for on every link).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[target_feature(enable = "sse2")]
    #[inline]
    fn of_sse2(hay: &[u8], start: usize, end: usize) -> ByteMasks {
        let n = end - start;
        let mut masks = ByteMasks::default();
        let mut at = 0;
        while at < n {
            let from = start + at;
            let chunk: [u8; 16] = match hay.get(from..from + 16) {
                Some(c) => c.try_into().expect("sixteen bytes"),
                None => {
                    let mut c = [0u8; 16];
                    let tail = &hay[from..end];
                    c[..tail.len()].copy_from_slice(tail);
                    c
                }
            };
            let block = ByteMasks::of_block_sse2(chunk);
            // Bits of the bytes after `end` cleared.
            let keep = if n - at < 16 {
                (1u64 << (n - at)) - 1
            } else {
                0xFFFF
            };
            masks.add(block, keep, at);
            at += 16;
        }
        masks
    }

    /// Adds the masks of a block that starts `at` bytes in: their bits in
    /// `keep`, moved up by `at`.
    #[inline]
    pub(crate) fn add(&mut self, block: ByteMasks, keep: u64, at: usize) {
        self.dots |= (block.dots & keep) << at;
        self.hyphens |= (block.hyphens & keep) << at;
        self.underscores |= (block.underscores & keep) << at;
        self.non_ascii |= (block.non_ascii & keep) << at;
        self.leads |= (block.leads & keep) << at;
    }

    /// The masks of the sixteen bytes from `start`, if there are sixteen
    /// (`None` else): one SSE2 load on x86-64, the bytes after a short
    /// name included (the caller clears their bits).
    #[inline]
    pub(crate) fn of_sixteen(hay: &[u8], start: usize) -> Option<ByteMasks> {
        let block: [u8; 16] = *hay.get(start..)?.first_chunk::<16>()?;
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let masks = ByteMasks::of_block_sse2(block);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        let masks = ByteMasks::of_words(&block, 0, 16);
        Some(masks)
    }

    /// The run of ASCII host bytes (letters, digits, `-`, `.`, `_`: the
    /// ASCII bytes the host run of a plain link steps over, `%` left to
    /// the full reading) from `start`, when
    /// it ends within 32 bytes: its length, and the masks of the one or
    /// two blocks of sixteen bytes read to find its end (bytes after the
    /// run included; the caller clears their bits). `None` when fewer than
    /// sixteen bytes (thirty-two for a run past the first sixteen) follow
    /// `start`, when the run is longer, or off x86-64: the caller then
    /// reads the run a byte at a time. The byte that ends the run may be
    /// any other byte, non-ASCII among them.
    ///
    /// A host found so is checked from the same masks
    /// ([`check_dns_host_masked`](crate::find::host_plausibility::check_dns_host_masked)):
    /// the loads that end the run serve the checks too, and no byte loop
    /// whose exit mispredicts reads it (link-dense text 0.95 of the time).
    #[inline]
    pub(crate) fn of_host_run(hay: &[u8], start: usize) -> Option<(usize, ByteMasks)> {
        ByteMasks::of_run::<HOST_RUN>(hay, start)
    }

    /// [`ByteMasks::of_host_run`] for the ASCII bytes of an e-mail
    /// address's domain: letters, digits, `-` and `.`.
    #[inline]
    pub(crate) fn of_domain_run(hay: &[u8], start: usize) -> Option<(usize, ByteMasks)> {
        ByteMasks::of_run::<DOMAIN_RUN>(hay, start)
    }

    /// How many of the sixteen bytes before `end` are, counted back from
    /// it, bytes of an e-mail address's local part (letters, digits and
    /// `. _ % + -`), from one SSE2 load: 16 if all are. `None` when fewer
    /// than sixteen bytes come before `end`, or off x86-64.
    #[inline]
    pub(crate) fn local_run_before(hay: &[u8], end: usize) -> Option<usize> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            let block: [u8; 16] = hay.get(end.checked_sub(16)?..end)?.try_into().ok()?;
            let (plain, _) = ByteMasks::run_block_sse2::<LOCAL_RUN>(block);
            // The highest byte that is not one ends the run.
            let others = !plain & 0xFFFF;
            Some(if others == 0 {
                16
            } else {
                others.leading_zeros() as usize - 16
            })
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let _ = (hay, end);
            None
        }
    }

    /// [`ByteMasks::of_host_run`] or [`ByteMasks::of_domain_run`], by
    /// `CLASS`.
    #[inline(always)]
    fn of_run<const CLASS: u8>(hay: &[u8], start: usize) -> Option<(usize, ByteMasks)> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            let first: [u8; 16] = *hay.get(start..)?.first_chunk::<16>()?;
            let (plain, mut masks) = ByteMasks::run_block_sse2::<CLASS>(first);
            if plain != 0xFFFF {
                return Some(((!plain).trailing_zeros() as usize, masks));
            }
            let second: [u8; 16] = *hay.get(start + 16..)?.first_chunk::<16>()?;
            let (plain, high) = ByteMasks::run_block_sse2::<CLASS>(second);
            if plain == 0xFFFF {
                return None;
            }
            masks.add(high, u64::MAX, 16);
            Some((16 + (!plain).trailing_zeros() as usize, masks))
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let _ = (hay, start);
            None
        }
    }

    /// [`ByteMasks::of_run`]'s block: the bits of its run bytes (in the
    /// low sixteen bits), and its masks. A letter is a byte that `| 0x20`
    /// maps into `a..=z` (only `A..=Z` and `a..=z` do), a digit one in
    /// `0..=9`; each range is one signed comparison once moved to start
    /// at -128.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn run_block_sse2<const CLASS: u8>(block: [u8; 16]) -> (u32, ByteMasks) {
        use std::arch::x86_64::{
            _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        // SAFETY: the intrinsics need SSE2 and nothing else; the `cfg`
        // compiles this only where the build targets it, and SSE2 is part
        // of every x86-64 processor (the architecture's baseline), so the
        // processor running this has it. No `#[target_feature]`: with it
        // the function was not inlined (a call and its 48-byte answer
        // through memory, for every host and domain).
        unsafe {
            let v = sixteen(block);
            let set = |b: u8| _mm_set1_epi8(b as i8);
            let letters = in_range(_mm_or_si128(v, set(0x20)), b'a', 26);
            let digits = in_range(v, b'0', 10);
            let dots = _mm_cmpeq_epi8(v, set(b'.'));
            let hyphens = _mm_cmpeq_epi8(v, set(b'-'));
            let underscores = _mm_cmpeq_epi8(v, set(b'_'));
            let mut plain =
                _mm_or_si128(_mm_or_si128(letters, digits), _mm_or_si128(dots, hyphens));
            if CLASS != DOMAIN_RUN {
                plain = _mm_or_si128(plain, underscores);
            }
            if CLASS == LOCAL_RUN {
                let percents = _mm_cmpeq_epi8(v, set(b'%'));
                plain = _mm_or_si128(plain, _mm_or_si128(percents, _mm_cmpeq_epi8(v, set(b'+'))));
            }
            let bits = |x| _mm_movemask_epi8(x) as u16 as u64;
            (
                bits(plain) as u32,
                ByteMasks {
                    dots: bits(dots),
                    hyphens: bits(hyphens),
                    underscores: bits(underscores),
                    non_ascii: bits(v),
                    leads: bits(_mm_and_si128(v, _mm_add_epi8(v, v))),
                },
            )
        }
    }

    /// The masks of one block of sixteen bytes with SSE2 (for
    /// [`ByteMasks::of_sixteen`] and [`ByteMasks::of`]): those
    /// [`ByteMasks::run_block_sse2`] makes, its run (unused here) left for
    /// the compiler to drop.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn of_block_sse2(block: [u8; 16]) -> ByteMasks {
        ByteMasks::run_block_sse2::<DOMAIN_RUN>(block).1
    }

    /// [`ByteMasks::of`] a word at a time, without vector instructions.
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
    fn of_words(hay: &[u8], start: usize, end: usize) -> ByteMasks {
        let n = end - start;
        let mut masks = ByteMasks::default();
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
            if w & HIGH != 0 {
                masks.non_ascii |= gather(w & HIGH) << at;
                // Bit 6 of each byte, moved to bit 7.
                masks.leads |= gather(w & (w << 1) & HIGH) << at;
            }
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
        masks
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
    fn contains_byte_finds_the_byte_at_every_place() {
        for b in [b'%', 0, 0xff] {
            for len in 0..70 {
                let mut hay = vec![b.wrapping_add(7); len];
                assert!(!contains_byte(&hay, b), "{b} {len}");
                for at in 0..len {
                    hay[at] = b;
                    assert!(contains_byte(&hay, b), "{b} {len} {at}");
                    // Its neighbours in value are not it.
                    for other in [b.wrapping_add(1), b.wrapping_sub(1), b ^ 0x80] {
                        hay[at] = other;
                        assert!(!contains_byte(&hay, b), "{b} {len} {at} {other}");
                    }
                    hay[at] = b.wrapping_add(7);
                }
            }
        }
    }

    /// One block of sixteen bytes, at every offset of a haystack of every
    /// kind of byte: the masks of the whole block, and none past the end.
    #[test]
    fn sixteen_bytes_at_once_agree_with_a_byte_loop() {
        let hay: Vec<u8> = "a.b-c_d.é-例.x_y-z.0123456789-_..--__ü"
            .bytes()
            .chain([0x80, 0xbf, 0xc0, 0xff, 0x00, b'.'])
            .collect();
        for start in 0..hay.len() {
            let Some(m) = ByteMasks::of_sixteen(&hay, start) else {
                assert!(start + 16 > hay.len());
                continue;
            };
            let block = &hay[start..start + 16];
            assert_eq!(m.dots, by_loop(block, b'.'));
            assert_eq!(m.hyphens, by_loop(block, b'-'));
            assert_eq!(m.underscores, by_loop(block, b'_'));
            let high = |f: fn(u8) -> bool| {
                block
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| f(x))
                    .fold(0, |m, (i, _)| m | 1 << i)
            };
            assert_eq!(m.non_ascii, high(|x| x >= 0x80));
            assert_eq!(m.leads, high(|x| x >= 0xC0));
            assert_eq!(Some(m), ByteMasks::of(&hay, start, start + 16));
        }
    }

    /// Every byte value after runs of every length from 0 to 40, and
    /// before the end of the haystack at every distance: the run's end
    /// and its masks as a byte loop finds them, `None` only where the
    /// run or the haystack is too long or too short for the loads.
    #[test]
    fn host_and_domain_runs_end_where_a_byte_loop_ends_them() {
        let host = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_');
        let domain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.');
        type Run = fn(&[u8], usize) -> Option<(usize, ByteMasks)>;
        let runs: [(Run, &dyn Fn(u8) -> bool); 2] = [
            (ByteMasks::of_host_run, &host),
            (ByteMasks::of_domain_run, &domain),
        ];
        for (run, member) in runs {
            for len in 0..=40 {
                for b in 0..=255u8 {
                    for after in [0, 1, 15, 40] {
                        // A run of name bytes (every kind of them), then `b`.
                        let mut hay: Vec<u8> =
                            b"aZ0-.9zA".iter().copied().cycle().take(len).collect();
                        hay.push(b);
                        hay.extend(std::iter::repeat_n(b'x', after));
                        let want = hay.iter().position(|&x| !member(x)).unwrap_or(hay.len());
                        let Some((n, m)) = run(&hay, 0) else {
                            // Off x86-64, never; on it, only where the
                            // loads would not reach the run's end.
                            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                            assert!(
                                hay.len() < 16 || (want >= 16 && (hay.len() < 32 || want >= 32)),
                                "{len} {b:#x} {after}"
                            );
                            continue;
                        };
                        assert_eq!(n, want, "{len} {b:#x} {after}");
                        let covered = if want < 16 { 16 } else { 32 };
                        assert_eq!(
                            Some(m),
                            ByteMasks::of(&hay, 0, covered),
                            "{len} {b:#x} {after}"
                        );
                    }
                }
            }
        }
    }

    /// Every byte value before runs of local-part bytes of every length
    /// from 0 to 20, with every kind of them: the run counted back from
    /// its end as a byte loop counts it (at most sixteen).
    #[test]
    fn local_runs_end_where_a_byte_loop_ends_them() {
        let local =
            |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-');
        for len in 0..=20 {
            for b in 0..=255u8 {
                for before in [0, 1, 15, 20] {
                    let mut hay = vec![b'x'; before];
                    hay.push(b);
                    hay.extend(b"a+Z_0%.-9".iter().copied().cycle().take(len));
                    let end = hay.len();
                    let want = hay.iter().rev().take(16).take_while(|&&x| local(x)).count();
                    match ByteMasks::local_run_before(&hay, end) {
                        Some(n) => assert_eq!(n, want, "{len} {b:#x} {before}"),
                        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                        None => assert!(end < 16, "{len} {b:#x} {before}"),
                        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
                        None => {}
                    }
                }
            }
        }
    }

    #[test]
    fn masks_agree_with_a_byte_loop() {
        let alphabet = b"a.-_\xc3\xa9Z0\xe4\xbe\x8b\x7f\xbf\xc0";
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
                let by = |f: fn(u8) -> bool| {
                    s.iter()
                        .enumerate()
                        .filter(|&(_, &x)| f(x))
                        .fold(0u64, |m, (i, _)| m | 1 << i)
                };
                assert_eq!(m.non_ascii, by(|x| x >= 0x80), "{s:?}");
                assert_eq!(m.leads, by(|x| x >= 0xC0), "{s:?}");
                // Both forms, whichever `of` uses here.
                assert_eq!(ByteMasks::of_words(&padded, 3, 3 + s.len()), m, "{s:?}");
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                // SAFETY: SSE2 is in every x86-64 processor (see `of`).
                assert_eq!(
                    unsafe { ByteMasks::of_sse2(&padded, 3, 3 + s.len()) },
                    m,
                    "{s:?}"
                );
            }
        }
        assert_eq!(
            ByteMasks::of(&[b'a'; MAX_MASKED + 1], 0, MAX_MASKED + 1),
            None
        );
    }
}
