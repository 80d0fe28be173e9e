//! Resume points: where a fresh decoder can take over from a running one.
//!
//! The offset map of [`crate::Transcoder`] re-decodes short stretches of
//! the input, starting from *checkpoints*. A checkpoint is only useful if a
//! fresh decoder started there produces exactly what the running decoder
//! produced from there on. This module knows, for each family of WHATWG
//! decoders, where that holds and what a fresh decoder must be fed first.
//!
//! The rule for every decoder except ISO-2022-JP: after the input up to
//! position `q`, the decoder's whole state is the *pending* bytes — the last
//! few bytes of the input, read but not yet turned into output (a lead
//! byte, a UTF-16 high surrogate, the first bytes of a GB18030 four-byte
//! sequence). A fresh decoder fed those same bytes reaches the same state
//! and writes nothing. So `(q - pending, output length at q)` is a
//! checkpoint. This module computes `pending` exactly, by mirroring the
//! state transitions of the decoders of the Encoding Standard (§10–§14;
//! encoding_rs implements them to the letter), without their tables:
//! whether a pair of bytes maps to a character never changes the state
//! that follows.
//!
//! ISO-2022-JP has a persistent state (the character set selected by the
//! last escape sequence, and the "output flag" that turns an escape
//! sequence right after another one into an error). Its checkpoints carry
//! that state, and a fresh decoder is put into it by a synthetic prefix: the
//! escape sequence of the state, plus one character (whose output is
//! discarded) when the output flag is unset.

use crate::chars::utf8::sequence_len;

/// The decoder families that differ in how they resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// One byte, one character: every position is a resume point.
    SingleByte,
    /// UTF-16LE or UTF-16BE.
    Utf16 { big_endian: bool },
    /// The ASCII-compatible multi-byte encodings.
    MultiByte(MultiByte),
    /// ISO-2022-JP.
    Iso2022Jp,
}

/// The ASCII-compatible multi-byte encodings, whose state is their pending
/// bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MultiByte {
    ShiftJis,
    EucJp,
    EucKr,
    Big5,
    /// gb18030 and GBK (the Encoding Standard's GBK decoder *is* the
    /// gb18030 decoder).
    Gb18030,
}

impl Family {
    /// The family of an encoding, or `None` for UTF-8 (which is not
    /// decoded) and the replacement encoding (which has no resume points).
    pub(crate) fn of(encoding: &'static encoding_rs::Encoding) -> Option<Family> {
        use encoding_rs::*;
        Some(if encoding == UTF_8 || encoding == REPLACEMENT {
            return None;
        } else if encoding == UTF_16LE {
            Family::Utf16 { big_endian: false }
        } else if encoding == UTF_16BE {
            Family::Utf16 { big_endian: true }
        } else if encoding == ISO_2022_JP {
            Family::Iso2022Jp
        } else if encoding == SHIFT_JIS {
            Family::MultiByte(MultiByte::ShiftJis)
        } else if encoding == EUC_JP {
            Family::MultiByte(MultiByte::EucJp)
        } else if encoding == EUC_KR {
            Family::MultiByte(MultiByte::EucKr)
        } else if encoding == BIG5 {
            Family::MultiByte(MultiByte::Big5)
        } else if encoding == GB18030 || encoding == GBK {
            Family::MultiByte(MultiByte::Gb18030)
        } else {
            // The remaining encodings of the standard are the single-byte
            // ones and x-user-defined, all one byte per character.
            debug_assert!(encoding.is_single_byte());
            Family::SingleByte
        })
    }
}

/// Whether the byte makes every ASCII-compatible multi-byte decoder return
/// to its initial state: bytes below 0x30 are never a trail byte (Shift_JIS,
/// Big5 and GBK trails start at 0x40, EUC trails at 0xA1, GB18030's
/// four-byte digits at 0x30), never a lead byte, and when they arrive where
/// a trail was expected the decoder reports an error and reprocesses them
/// as ASCII. So the position after such a byte is a resume point with
/// nothing pending — a cheap place to start [`MultiByteState`] from.
pub(crate) fn is_multibyte_sync_byte(b: u8) -> bool {
    b < 0x30
}

/// The state of an ASCII-compatible multi-byte decoder, reduced to what
/// decides the pending bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MultiByteState {
    /// How many bytes are pending (0 to 3).
    pending: u8,
    /// EUC-JP only: the pending lead byte is 0x8E or 0x8F.
    euc_jp_lead: u8,
}

impl MultiByteState {
    /// The number of pending bytes.
    pub(crate) fn pending(&self) -> usize {
        usize::from(self.pending)
    }

    /// The state after one more byte.
    pub(crate) fn step(&mut self, kind: MultiByte, b: u8) {
        match kind {
            // Encoding Standard §12.3.1 (Shift_JIS), §13.1.1 (EUC-KR),
            // §11.1.1 (Big5): a lead byte waits for one trail byte; the
            // next byte always completes the pair, is an error, or is an
            // ASCII byte that is reprocessed — nothing stays pending.
            MultiByte::ShiftJis | MultiByte::EucKr | MultiByte::Big5 => {
                let is_lead = match kind {
                    MultiByte::ShiftJis => matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
                    _ => matches!(b, 0x81..=0xFE),
                };
                self.pending = u8::from(self.pending == 0 && is_lead);
            }
            // §12.1.1 (EUC-JP): lead 0x8E (half-width katakana) or 0x8F
            // (JIS X 0212, which takes two more bytes) or 0xA1..=0xFE.
            MultiByte::EucJp => match self.pending {
                0 => {
                    if matches!(b, 0x8E | 0x8F | 0xA1..=0xFE) {
                        self.pending = 1;
                        self.euc_jp_lead = b;
                    }
                }
                1 if self.euc_jp_lead == 0x8F && matches!(b, 0xA1..=0xFE) => {
                    // "set euc-jp jis0212 to true, euc-jp lead to byte".
                    self.pending = 2;
                    self.euc_jp_lead = b;
                }
                _ => *self = MultiByteState::default(),
            },
            // §10.2.1 (gb18030): first, second (a digit), third, then a
            // digit completes a four-byte sequence. On an error the
            // standard prepends bytes to the stream; following them through
            // (second is a digit, hence ASCII; third becomes first, and the
            // byte that caused the error then ends that first as a two-byte
            // attempt) always ends in the initial state.
            MultiByte::Gb18030 => {
                self.pending = match (self.pending, b) {
                    (0, 0x81..=0xFE) => 1,
                    (1, 0x30..=0x39) => 2,
                    (2, 0x81..=0xFE) => 3,
                    _ => 0,
                }
            }
        }
    }
}

/// The number of pending bytes of a UTF-16 decoder after `units`, the
/// input from its start up to the position in question (only the last
/// three bytes matter): an odd byte waits for its partner, a high surrogate
/// waits for the next code unit (Encoding Standard §14.2.1).
pub(crate) fn utf16_pending(units: &[u8], big_endian: bool) -> usize {
    let odd = units.len() % 2;
    let whole = &units[..units.len() - odd];
    let high = whole.len() >= 2 && {
        let (a, b) = (whole[whole.len() - 2], whole[whole.len() - 1]);
        let hi_byte = if big_endian { a } else { b };
        (0xD8..=0xDB).contains(&hi_byte)
    };
    odd + if high { 2 } else { 0 }
}

/// The character sets an ISO-2022-JP escape sequence selects (Encoding
/// Standard §12.2.1, the decoder's "output state").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JisMode {
    Ascii,
    Roman,
    Katakana,
    /// JIS X 0208 (two bytes per character).
    LeadByte,
}

/// How a fresh decoder is put into the state a checkpoint needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// A fresh decoder is already in that state.
    Fresh,
    /// ISO-2022-JP in a character set, with the output flag set (the last
    /// thing read was an escape sequence) or not.
    Jis { mode: JisMode, output_flag: bool },
}

impl Resume {
    /// What to feed a fresh decoder first (its output is discarded).
    ///
    /// The escape sequence selects the mode and sets the output flag; one
    /// character in the mode unsets it again (§12.2.1: every character
    /// "unsets the ISO-2022-JP output flag").
    pub(crate) fn prefix(self) -> &'static [u8] {
        match self {
            Resume::Fresh
            | Resume::Jis {
                mode: JisMode::Ascii,
                output_flag: false,
            } => b"",
            Resume::Jis { mode, output_flag } => match (mode, output_flag) {
                (JisMode::Ascii, _) => b"\x1b(B",
                (JisMode::Roman, true) => b"\x1b(J",
                (JisMode::Roman, false) => b"\x1b(JA",
                (JisMode::Katakana, true) => b"\x1b(I",
                (JisMode::Katakana, false) => b"\x1b(I!",
                (JisMode::LeadByte, true) => b"\x1b$B",
                (JisMode::LeadByte, false) => b"\x1b$B!!",
            },
        }
    }
}

/// Whether `s` starts with one of the five escape sequences of
/// ISO-2022-JP (§12.2.1): `ESC ( B`, `ESC ( J`, `ESC ( I`, `ESC $ @`,
/// `ESC $ B`.
pub(crate) fn is_jis_escape(s: &[u8]) -> bool {
    matches!(
        s,
        [0x1B, b'(', b'B' | b'J' | b'I', ..] | [0x1B, b'$', b'@' | b'B', ..]
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JisState {
    /// In the output state, between characters.
    Mode,
    TrailByte,
    EscapeStart,
    /// After `ESC` and this byte (`$` or `(`).
    Escape(u8),
}

/// The ISO-2022-JP decoder's state (Encoding Standard §12.2.1), mirrored
/// transition by transition, including the bytes the standard prepends to
/// the stream after an invalid escape sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JisState2022 {
    state: JisState,
    output: JisMode,
    output_flag: bool,
}

impl Default for JisState2022 {
    fn default() -> Self {
        JisState2022 {
            state: JisState::Mode,
            output: JisMode::Ascii,
            output_flag: false,
        }
    }
}

impl JisState2022 {
    /// The pending bytes here, and the state a fresh decoder must be put
    /// in before they are fed to it again.
    ///
    /// Between characters nothing is pending. Otherwise the last one or two
    /// bytes of the input are pending — `ESC`, `ESC` and `$`/`(`, or the
    /// lead byte of a JIS X 0208 character (the standard prepends bytes only
    /// *before* the byte being read, so the pending ones are always real
    /// input bytes) — and they were read without output in the current
    /// character set; none of them changes the output flag, except the lead
    /// byte, which unsets it, as it is unset now. So the character set and
    /// the flag as they are now, plus the pending bytes, recreate the
    /// state. (Without this, an input like `ESC ( ESC ( …`, which is never
    /// between characters at a byte boundary, would have no checkpoint.)
    pub(crate) fn resume_point(&self) -> (usize, Resume) {
        let pending = match self.state {
            JisState::Mode => 0,
            JisState::TrailByte | JisState::EscapeStart => 1,
            JisState::Escape(_) => 2,
        };
        let resume = Resume::Jis {
            mode: self.output,
            output_flag: self.output_flag,
        };
        (pending, resume)
    }

    /// The state after `bytes`: [`step`](Self::step) for each, with the
    /// common cases short-cut — a run without ESC in a one-byte character
    /// set only unsets the output flag.
    pub(crate) fn step_all(&mut self, mut bytes: &[u8]) {
        while let Some(&b) = bytes.first() {
            if self.state == JisState::Mode && self.output != JisMode::LeadByte {
                let run = memchr::memchr(0x1B, bytes).unwrap_or(bytes.len());
                if run > 0 {
                    self.output_flag = false;
                    bytes = &bytes[run..];
                    continue;
                }
            }
            self.step(b);
            bytes = &bytes[1..];
        }
    }

    /// The state after one more byte.
    pub(crate) fn step(&mut self, b: u8) {
        // The common cases first: a byte of a character.
        if b != 0x1B {
            match self.state {
                JisState::Mode => {
                    self.output_flag = false;
                    if self.output == JisMode::LeadByte && (0x21..=0x7E).contains(&b) {
                        self.state = JisState::TrailByte;
                    }
                    return;
                }
                JisState::TrailByte => {
                    self.state = JisState::Mode;
                    return;
                }
                _ => {}
            }
        }
        // At most two bytes are ever prepended (the escape's second byte
        // and the byte after it).
        let mut queue = [b, 0, 0];
        let mut len = 1;
        while len > 0 {
            let x = queue[0];
            queue.copy_within(1..len, 0);
            len -= 1;
            match self.state {
                JisState::Mode => {
                    if x == 0x1B {
                        self.state = JisState::EscapeStart;
                    } else {
                        // A character or an error; both unset the flag.
                        self.output_flag = false;
                        if self.output == JisMode::LeadByte && (0x21..=0x7E).contains(&x) {
                            self.state = JisState::TrailByte;
                        }
                    }
                }
                JisState::TrailByte => {
                    self.state = if x == 0x1B {
                        JisState::EscapeStart
                    } else {
                        JisState::Mode
                    };
                }
                JisState::EscapeStart => {
                    if x == b'$' || x == b'(' {
                        self.state = JisState::Escape(x);
                    } else {
                        // "prepend byte to stream"
                        queue.copy_within(0..len, 1);
                        queue[0] = x;
                        len += 1;
                        self.output_flag = false;
                        self.state = JisState::Mode;
                    }
                }
                JisState::Escape(lead) => {
                    let mode = match (lead, x) {
                        (b'(', b'B') => Some(JisMode::Ascii),
                        (b'(', b'J') => Some(JisMode::Roman),
                        (b'(', b'I') => Some(JisMode::Katakana),
                        (b'$', b'@' | b'B') => Some(JisMode::LeadByte),
                        _ => None,
                    };
                    if let Some(mode) = mode {
                        // An error if the flag was set, but the state is the
                        // same either way.
                        self.output = mode;
                        self.output_flag = true;
                    } else {
                        // "prepend lead and byte to stream"
                        queue.copy_within(0..len, 2);
                        queue[0] = lead;
                        queue[1] = x;
                        len += 2;
                        self.output_flag = false;
                    }
                    self.state = JisState::Mode;
                }
            }
        }
    }
}

/// The next character at a resume point, without decoding: how many input
/// bytes it takes and how many bytes of UTF-8 it decodes to, for every
/// character that a fresh decoder turns into output at once and without an
/// error. Everything else — malformed bytes, bytes at the end of the input,
/// GB18030 four-byte and EUC-JP three-byte characters — is left to a real
/// decoder.
///
/// The tables are not written by hand: they are what encoding_rs does with
/// each byte and each pair of bytes fed to a fresh decoder, so they agree
/// with it by construction. A character that leaves its decoder with
/// nothing pending (§10–§14 of the Encoding Standard: these decoders have
/// no state beyond their pending bytes) ends at a resume point, so the
/// characters can be stepped over one after another.
pub(crate) enum Lengths {
    /// One byte per character; the output length of each byte (3 for the
    /// U+FFFD of an unmapped byte, whose error is that one byte).
    SingleByte(Box<[u8; 256]>),
    /// UTF-16: BMP characters and surrogate pairs are computed from the
    /// code units.
    Utf16 { big_endian: bool },
    /// The ASCII-compatible multi-byte encodings (built once per process).
    MultiByte(&'static MultiByteLengths),
}

/// The one-byte and two-byte characters of a multi-byte encoding.
pub(crate) struct MultiByteLengths {
    /// The output length of each byte that is a character by itself (ASCII
    /// included), 0 for the others.
    single: [u8; 256],
    /// `pair[(lead - 0x80) << 8 | trail]`: the output length of the
    /// character (for Big5, sometimes two) of a lead byte and the byte after
    /// it, 0 if they do not make one.
    pair: Box<[u8; 0x8000]>,
}

impl Lengths {
    /// The tables for `encoding` of `family`; `None` for ISO-2022-JP, whose
    /// decoder has more state than pending bytes.
    pub(crate) fn of(encoding: &'static encoding_rs::Encoding, family: Family) -> Option<Lengths> {
        Some(match family {
            Family::SingleByte => Lengths::SingleByte(single_byte_lengths(encoding)),
            Family::Utf16 { big_endian } => Lengths::Utf16 { big_endian },
            Family::MultiByte(_) => Lengths::MultiByte(multi_byte_lengths(encoding)?),
            Family::Iso2022Jp => return None,
        })
    }
}

impl MultiByteLengths {
    /// The next character of `input` (which starts at a resume point and
    /// runs to the end of the input available): `(input bytes, output
    /// bytes)`, or `None` if a decoder must tell.
    #[inline]
    pub(crate) fn next(&self, input: &[u8]) -> Option<(usize, usize)> {
        let &b = input.first()?;
        let single = self.single[usize::from(b)];
        if single != 0 {
            return Some((1, usize::from(single)));
        }
        let &trail = input.get(1)?;
        if b < 0x80 {
            return None;
        }
        match self.pair[usize::from(b - 0x80) << 8 | usize::from(trail)] {
            0 => None,
            n => Some((2, usize::from(n))),
        }
    }
}

/// The next span of UTF-16 `input`: a BMP character, a surrogate pair, or
/// the U+FFFD of an unpaired surrogate (§14.2.1: the error is that one code
/// unit; the unit after an unpaired high surrogate is read again). `None`
/// for a high surrogate without the next unit (it may be pending, or end
/// the input with an odd byte after it, a three-byte error) and for an odd
/// byte.
#[inline]
pub(crate) fn utf16_next(input: &[u8], big_endian: bool) -> Option<(usize, usize)> {
    let unit = |i: usize| -> Option<u16> {
        let pair = [*input.get(i)?, *input.get(i + 1)?];
        Some(if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        })
    };
    Some(match unit(0)? {
        0..=0x7F => (2, 1),
        0x80..=0x7FF => (2, 2),
        0xD800..=0xDBFF => match unit(2)? {
            0xDC00..=0xDFFF => (4, 4),
            _ => (2, 3),
        },
        // A lone low surrogate is U+FFFD, three bytes like any other unit.
        _ => (2, 3),
    })
}

/// The number of leading bytes of `bytes` below 0x80, eight at a time.
#[inline]
pub(crate) fn ascii_prefix(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(word) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        if w & HIGH != 0 {
            return i + (w & HIGH).trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    i + bytes[i..].iter().take_while(|b| b.is_ascii()).count()
}

/// The output length of each byte of a single-byte encoding: all 256
/// decoded at once, with replacement (one character, or one U+FFFD, per
/// byte).
fn single_byte_lengths(encoding: &'static encoding_rs::Encoding) -> Box<[u8; 256]> {
    let all: Vec<u8> = (0..=255).collect();
    let mut out = [0u8; 256 * 4];
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let (_, _, written, _) = decoder.decode_to_utf8(&all, &mut out, true);
    let mut lens = Box::new([0u8; 256]);
    let mut at = 0;
    for len in lens.iter_mut() {
        // The decoder writes well-formed UTF-8, one character per byte.
        let n = out.get(at).map_or(3, |&lead| sequence_len(lead) as u8);
        *len = n;
        at += usize::from(n);
    }
    debug_assert_eq!(at, written);
    lens
}

/// The tables of a multi-byte encoding, built on first use (about 30,000
/// decoder calls) and kept for the process.
fn multi_byte_lengths(
    encoding: &'static encoding_rs::Encoding,
) -> Option<&'static MultiByteLengths> {
    use encoding_rs::*;
    use std::sync::OnceLock;
    static TABLES: [OnceLock<MultiByteLengths>; 6] = [const { OnceLock::new() }; 6];
    let i = [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GBK, GB18030]
        .iter()
        .position(|&e| e == encoding)?;
    Some(TABLES[i].get_or_init(|| build_multi_byte_lengths(encoding)))
}

fn build_multi_byte_lengths(encoding: &'static encoding_rs::Encoding) -> MultiByteLengths {
    use encoding_rs::DecoderResult;
    let mut single = [0u8; 256];
    let mut lead = [false; 256];
    // Decodes `bytes` with a fresh decoder: the output length if they make
    // output, no error, and leave nothing pending (the end of the input
    // then adds nothing).
    let whole = |bytes: &[u8]| -> Option<usize> {
        let mut buf = [0u8; 32];
        let mut d = encoding.new_decoder_without_bom_handling();
        let (r, read, written) = d.decode_to_utf8_without_replacement(bytes, &mut buf, false);
        let (end, _, more) = d.decode_to_utf8_without_replacement(&[], &mut buf, true);
        (r == DecoderResult::InputEmpty
            && read == bytes.len()
            && end == DecoderResult::InputEmpty
            && more == 0)
            .then_some(written)
    };
    for b in 0..=255u8 {
        match whole(&[b]) {
            Some(n) if n > 0 => single[usize::from(b)] = n as u8,
            _ => {
                // A lead byte: read, nothing written, no error yet.
                let mut d = encoding.new_decoder_without_bom_handling();
                let (r, read, written) =
                    d.decode_to_utf8_without_replacement(&[b], &mut [0u8; 32], false);
                lead[usize::from(b)] = r == DecoderResult::InputEmpty && read == 1 && written == 0;
            }
        }
    }
    let mut pair = Box::new([0u8; 0x8000]);
    for b in 0x80..=0xFFu8 {
        if !lead[usize::from(b)] {
            continue;
        }
        // No trail byte of any of these encodings is below 0x30 (those
        // bytes are resume points, `is_multibyte_sync_byte`).
        for t in 0x30..=0xFFu8 {
            if let Some(n) = whole(&[b, t]).filter(|&n| n > 0) {
                pair[usize::from(b - 0x80) << 8 | usize::from(t)] = n as u8;
            }
        }
    }
    MultiByteLengths { single, pair }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_pending_counts() {
        // LE: "a", then a high surrogate D83D, then an odd byte.
        assert_eq!(utf16_pending(b"", false), 0);
        assert_eq!(utf16_pending(b"a\x00", false), 0);
        assert_eq!(utf16_pending(b"a\x00\x3d", false), 1);
        assert_eq!(utf16_pending(b"a\x00\x3d\xd8", false), 2);
        assert_eq!(utf16_pending(b"a\x00\x3d\xd8\x00", false), 3);
        assert_eq!(utf16_pending(b"\xd8\x3d", true), 2);
        // A low surrogate is never pending.
        assert_eq!(utf16_pending(b"\xdc\x00", true), 0);
    }

    #[test]
    fn jis_escapes() {
        for e in [&b"\x1b(B"[..], b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B"] {
            assert!(is_jis_escape(e));
        }
        for e in [&b"\x1b(A"[..], b"\x1b$A", b"\x1b(", b"(B", b"\x1b$(D"] {
            assert!(!is_jis_escape(e));
        }
    }

    #[test]
    fn prefixes_reach_their_states() {
        for mode in [
            JisMode::Ascii,
            JisMode::Roman,
            JisMode::Katakana,
            JisMode::LeadByte,
        ] {
            for output_flag in [false, true] {
                let r = Resume::Jis { mode, output_flag };
                let mut s = JisState2022::default();
                for &b in r.prefix() {
                    s.step(b);
                }
                assert_eq!(s.resume_point(), (0, r));
            }
        }
    }
}
