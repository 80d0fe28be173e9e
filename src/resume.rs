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
