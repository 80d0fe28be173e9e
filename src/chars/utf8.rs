//! UTF-8, one character at a time: decoding forwards and backwards from a
//! byte offset, and the length of a sequence by its lead byte.
//!
//! # Why not `str::chars`
//!
//! The scanner and the validator work on bytes and mostly see ASCII, which
//! they classify with a table lookup ([`crate::chars::ascii`]). They decode
//! a character only where a non-ASCII lead byte stands, and sometimes
//! backwards from an offset (the character before a candidate, the last
//! character of one being trimmed). The haystack may hold invalid UTF-8
//! (a decoder's output is valid, but the scanner also runs on raw input),
//! so every decoder here answers `None` for an invalid or truncated
//! sequence instead of panicking; the caller ends the candidate there.
//!
//! # Two questions about a lead byte
//!
//! - *How long is the sequence it starts?* [`sequence_len`] answers by the
//!   bit pattern alone (`110xxxxx` starts two bytes, `1110xxxx` three,
//!   `11110xxx` four). That is enough where the bytes are known to be valid
//!   (a decoder's output) or where only the length matters (a sequence cut
//!   at the end of a chunk, [`incomplete_tail`]).
//! - *Is it a valid character?* [`decode_at`] follows the byte ranges of
//!   RFC 3629 §4: no overlong forms (`C0 AF` for `/`), no surrogates
//!   (`ED A0 80`), nothing above U+10FFFF (`F4 90 80 80`) — the
//!   lax decoders that accept them are a security hole (RFC 3987bis §9,
//!   UTR #36 §3).
//!
//! ```text
//! bytes   61  C3 A9  E6 97 A5  F0 9F 98 80
//! chars   a   é      日        😀
//! decode_at(s, 1) = Some(('é', 2))     decode_before(s, 6) = Some(('日', 3))
//! ```

/// Whether `b` continues a multi-byte sequence (`10xxxxxx`) rather than
/// starting a character.
#[inline(always)]
pub(crate) const fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// The length of the sequence each byte starts, by its bit pattern: 1 for
/// `0xxxxxxx`, 2 for `110xxxxx`, 3 for `1110xxxx`, 4 for `11110xxx`; 0 for
/// a continuation byte and for 0xF8–0xFF, which start none.
static SEQUENCE_LEN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i as u8 {
            0x00..=0x7F => 1,
            0x80..=0xBF => 0,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            0xF8..=0xFF => 0,
        };
        i += 1;
    }
    t
};

/// The length of the UTF-8 sequence that the byte `lead` starts, by its bit
/// pattern alone (see [`SEQUENCE_LEN`]); 0 if it starts none. For valid
/// UTF-8 (a decoder's output) this is the length of the character.
#[inline(always)]
pub(crate) fn sequence_len(lead: u8) -> usize {
    usize::from(SEQUENCE_LEN[usize::from(lead)])
}

/// How many bytes at the end of `input` start a UTF-8 sequence that the
/// end cuts short (0 to 3; 0 also when the end is malformed otherwise).
pub(crate) fn incomplete_tail(input: &[u8]) -> usize {
    for k in 1..=3.min(input.len()) {
        let b = input[input.len() - k];
        if is_continuation(b) {
            continue;
        }
        return if sequence_len(b) > k { k } else { 0 };
    }
    0
}

/// Decodes the UTF-8 character starting at `hay[i]` (a non-ASCII lead byte).
/// `None` for an invalid or truncated sequence, which ends a candidate.
#[inline]
pub(crate) fn decode_at(hay: &[u8], i: usize) -> Option<(char, usize)> {
    // RFC 3629 §4 byte ranges: no overlongs (E0 A0.., F0 90..), no
    // surrogates (ED ..9F), nothing above U+10FFFF (F4 ..8F).
    let b0 = hay[i] as u32;
    let cont = |k: usize| {
        hay.get(i + k)
            .copied()
            .filter(|&b| is_continuation(b))
            .map(u32::from)
    };
    let (u, len) = match b0 {
        0xC2..=0xDF => (((b0 & 0x1F) << 6) | (cont(1)? & 0x3F), 2),
        0xE0..=0xEF => {
            let b1 = cont(1)?;
            if (b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) {
                return None;
            }
            (
                ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (cont(2)? & 0x3F),
                3,
            )
        }
        0xF0..=0xF4 => {
            let b1 = cont(1)?;
            if (b0 == 0xF0 && b1 < 0x90) || (b0 == 0xF4 && b1 > 0x8F) {
                return None;
            }
            let u = ((b0 & 0x07) << 18)
                | ((b1 & 0x3F) << 12)
                | ((cont(2)? & 0x3F) << 6)
                | (cont(3)? & 0x3F);
            (u, 4)
        }
        _ => return None,
    };
    char::from_u32(u).map(|c| (c, len))
}

/// A two-byte character (U+0080..U+07FF: Latin, Greek, Cyrillic, Hebrew,
/// Arabic…) starting at `hay[i]`, decoded in place; `None` for anything
/// else, which [`decode_at`] decodes. The forward scan meets these at every
/// other byte of some scripts, and `decode_at` is a call.
#[inline(always)]
pub(crate) fn decode_two_byte(hay: &[u8], i: usize) -> Option<char> {
    match *hay.get(i..i + 2)? {
        [b0 @ 0xC2..=0xDF, b1] if is_continuation(b1) => {
            char::from_u32((u32::from(b0 & 0x1F) << 6) | u32::from(b1 & 0x3F))
        }
        _ => None,
    }
}

/// A three-byte character (U+0800..U+FFFF but the surrogates: CJK, kana,
/// Hangul, Thai, Devanagari…) starting at `hay[i]`, decoded in place with
/// the checks of [`decode_at`] (no overlong, no surrogate); `None` for
/// anything else.
#[inline(always)]
pub(crate) fn decode_three_byte(hay: &[u8], i: usize) -> Option<char> {
    match *hay.get(i..i + 3)? {
        [b0 @ 0xE0..=0xEF, b1, b2]
            if is_continuation(b1)
                && is_continuation(b2)
                && !(b0 == 0xE0 && b1 < 0xA0)
                && !(b0 == 0xED && b1 > 0x9F) =>
        {
            char::from_u32(
                (u32::from(b0 & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F),
            )
        }
        _ => None,
    }
}

/// Decodes the UTF-8 character that ends just before `hay[i]` (i > 0).
/// `None` if the bytes before `i` are not the end of a valid sequence.
#[inline]
pub(crate) fn decode_before(hay: &[u8], i: usize) -> Option<(char, usize)> {
    let b = hay[i - 1];
    if b < 0x80 {
        return Some((b as char, 1));
    }
    for len in 2..=4.min(i) {
        let lead = hay[i - len];
        if !is_continuation(lead) {
            // One character exactly `len` bytes long, or none.
            return decode_at(hay, i - len).filter(|&(_, n)| n == len);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_decoding_both_ways() {
        let s = "aé日😀".as_bytes();
        assert_eq!(decode_at(s, 1), Some(('é', 2)));
        assert_eq!(decode_at(s, 3), Some(('日', 3)));
        assert_eq!(decode_at(s, 6), Some(('😀', 4)));
        assert_eq!(decode_before(s, 10), Some(('😀', 4)));
        assert_eq!(decode_before(s, 6), Some(('日', 3)));
        assert_eq!(decode_before(s, 1), Some(('a', 1)));
        assert_eq!(decode_at(b"\xE6\x97", 0), None);
        assert_eq!(decode_at(b"\xC0\xAF", 0), None);
        assert_eq!(decode_before(b"a\x97", 2), None);
        // Inside a character: the bytes before are no whole character.
        assert_eq!(decode_before(s, 5), None);
        assert_eq!(decode_before(s, 8), None);
        assert_eq!(decode_before(b"\xE6\x97", 2), None);
    }

    #[test]
    fn decode_at_agrees_with_std_on_every_two_byte_sequence_and_edges() {
        let std_first = |b: &[u8]| {
            let valid = match std::str::from_utf8(b) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap(),
            };
            valid
                .chars()
                .next()
                .filter(|c| !c.is_ascii())
                .map(|c| (c, c.len_utf8()))
        };
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                let seq = [b0, b1];
                assert_eq!(decode_at(&seq, 0), std_first(&seq), "{seq:X?}");
                assert_eq!(
                    decode_two_byte(&seq, 0),
                    std_first(&seq).filter(|&(_, n)| n == 2).map(|(c, _)| c),
                    "{seq:X?}"
                );
                for b2 in [0x80u8, 0x8F, 0x90, 0xBF, 0xC0, 0x41] {
                    for b3 in [0x80u8, 0xBF, 0x41] {
                        let seq = [b0, b1, b2, b3];
                        assert_eq!(decode_at(&seq, 0), std_first(&seq), "{seq:X?}");
                        assert_eq!(
                            decode_three_byte(&seq, 0),
                            std_first(&seq).filter(|&(_, n)| n == 3).map(|(c, _)| c),
                            "{seq:X?}"
                        );
                    }
                }
            }
        }
    }

    /// Every character's first byte gives its length; no other byte of it
    /// starts a sequence.
    #[test]
    fn sequence_len_is_the_length_of_every_character() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(sequence_len(bytes[0]), c.len_utf8(), "U+{:04X}", c as u32);
            assert!(bytes[1..].iter().all(|&b| is_continuation(b)));
            assert!(bytes[1..].iter().all(|&b| sequence_len(b) == 0));
        }
        for b in 0xF8..=0xFFu8 {
            assert_eq!(sequence_len(b), 0);
        }
    }

    #[test]
    fn incomplete_tails_are_found_exactly() {
        for (bytes, tail) in [
            (&b"abc"[..], 0),
            ("aé".as_bytes(), 0),
            (&"aé".as_bytes()[..2], 1),
            (&"a日".as_bytes()[..2], 1),
            (&"a日".as_bytes()[..3], 2),
            (&"a😀".as_bytes()[..4], 3),
            (&"a😀".as_bytes()[..5], 0),
            (&b"a\xff"[..], 0),
            (&b"\x80\x80\x80"[..], 0),
            (&b""[..], 0),
        ] {
            assert_eq!(incomplete_tail(bytes), tail, "{bytes:X?}");
        }
    }
}
