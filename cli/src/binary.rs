//! Binary files: a NUL byte in the first bytes of an input (docs/rules.md §4).
//!
//! Text in the charsets iriscan reads has no NUL byte — except UTF-16,
//! where it is the zero half of every ASCII character: there the test is a
//! zero 16-bit unit, the character U+0000. An executable, an image, an
//! archive or a git pack has NUL bytes within its first kilobytes. As in
//! ripgrep, a binary file found by walking a directory is skipped (with a
//! note), a binary file named on the command line is scanned (with a
//! warning: the user asked for it), and `-a`/`--text` scans everything as
//! text without looking.
//!
//! Only the first [`SNIFF_LEN`] bytes are looked at, before the scan
//! starts: a file that turns binary later (a NUL after 64 KiB of text) is
//! scanned as text. Deciding before the first hit is printed keeps the
//! rule simple — a file is skipped whole or scanned whole — and costs no
//! second pass over the bytes. Standard input and pipes cannot be looked at
//! ahead (a `tail -f` would wait for 64 KiB): their first [`SNIFF_LEN`]
//! bytes are looked at as they are read, and a NUL among them brings the
//! warning.

use std::io::{self, Read};

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

/// How many bytes of an input are looked at.
pub const SNIFF_LEN: usize = 64 << 10;

/// What is done with a binary input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnBinary {
    /// Not scanned (a file found by a walk).
    Skip,
    /// Scanned, with a warning (a file named on the command line, or any
    /// file with `--binary`).
    Warn,
    /// Not looked for (`-a`/`--text`).
    Text,
}

/// The command line's choices about binary inputs.
#[derive(Clone, Copy, Debug)]
pub struct BinaryRules {
    /// `-a`/`--text`: never look for NUL bytes.
    pub text: bool,
    /// `--binary` (or `-uuu`): scan binary files found by a walk too.
    pub walked_too: bool,
    /// The charset given with `--encoding` (`None`: detected).
    pub encoding: Option<&'static Encoding>,
}

impl BinaryRules {
    /// How one input is looked at; `walked` says whether a walk found it.
    pub fn check(&self, walked: bool) -> BinaryCheck {
        let on_binary = if self.text {
            OnBinary::Text
        } else if walked && !self.walked_too {
            OnBinary::Skip
        } else {
            OnBinary::Warn
        };
        BinaryCheck {
            on_binary,
            encoding: self.encoding,
        }
    }
}

/// How one input is looked at, and what is done if it is binary.
#[derive(Clone, Copy, Debug)]
pub struct BinaryCheck {
    pub on_binary: OnBinary,
    encoding: Option<&'static Encoding>,
}

impl BinaryCheck {
    /// The offset of the first NUL of `head` (an input's first bytes), as
    /// this module reads NUL; `None` also with `-a`.
    pub fn first_nul(&self, head: &[u8]) -> Option<u64> {
        self.nul_after(head, 0)
    }

    /// [`first_nul`](BinaryCheck::first_nul) when the bytes before `from`
    /// (an even offset) are known to hold none.
    fn nul_after(&self, head: &[u8], from: usize) -> Option<u64> {
        debug_assert!(from.is_multiple_of(2) && from <= head.len());
        if self.on_binary == OnBinary::Text {
            return None;
        }
        let utf16 = match self.encoding {
            Some(e) => e == UTF_16LE || e == UTF_16BE,
            // A UTF-16 byte order mark, which the charset rules obey
            // (docs/rules.md §3).
            None => head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]),
        };
        let rest = &head[from..];
        let at = if utf16 {
            rest.chunks_exact(2)
                .position(|unit| unit == [0, 0])
                .map(|k| 2 * k)
        } else {
            memchr::memchr(0, rest)
        };
        at.map(|at| (from + at) as u64)
    }
}

/// A reader that looks for a NUL in the first [`SNIFF_LEN`] bytes it hands
/// on (for inputs that cannot be looked at ahead).
pub struct Sniffing<R> {
    inner: R,
    check: BinaryCheck,
    /// The first bytes read, while fewer than [`SNIFF_LEN`] (a UTF-16 unit
    /// may be split between two reads, and a byte order mark decides).
    head: Vec<u8>,
    /// Where the first NUL is, once seen.
    nul: Option<u64>,
    /// The even offset before which `head` has no NUL.
    checked: usize,
}

impl<R: Read> Sniffing<R> {
    pub fn new(inner: R, check: BinaryCheck) -> Sniffing<R> {
        Sniffing {
            inner,
            check,
            head: Vec::new(),
            nul: None,
            checked: 0,
        }
    }

    /// The offset of the first NUL among the first [`SNIFF_LEN`] bytes read.
    pub fn nul(&self) -> Option<u64> {
        self.nul
    }
}

impl<R: Read> Read for Sniffing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let looking = self.check.on_binary != OnBinary::Text;
        if looking && self.nul.is_none() && self.head.len() < SNIFF_LEN {
            let take = n.min(SNIFF_LEN - self.head.len());
            self.head.extend_from_slice(&buf[..take]);
            self.nul = self.check.nul_after(&self.head, self.checked);
            // A unit split between two reads is looked at again whole; so
            // are the first two bytes, which may be a byte order mark.
            self.checked = self.head.len() & !1;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTO: BinaryRules = BinaryRules {
        text: false,
        walked_too: false,
        encoding: None,
    };

    fn first_nul(rules: BinaryRules, head: &[u8]) -> Option<u64> {
        rules.check(false).first_nul(head)
    }

    #[test]
    fn a_nul_byte_is_binary_except_as_half_of_a_utf16_character() {
        assert_eq!(first_nul(AUTO, b"text\nmore"), None);
        assert_eq!(first_nul(AUTO, b"ELF\x02\x01\x00\x00"), Some(5));
        // "hi" in UTF-16LE and UTF-16BE with a byte order mark: text.
        assert_eq!(first_nul(AUTO, b"\xFF\xFEh\x00i\x00"), None);
        assert_eq!(first_nul(AUTO, b"\xFE\xFF\x00h\x00i"), None);
        // U+0000 in UTF-16: binary, at its unit.
        assert_eq!(first_nul(AUTO, b"\xFF\xFEh\x00\x00\x00"), Some(4));
        // Two zero bytes across two units are two characters (U+6800, U+0069).
        assert_eq!(first_nul(AUTO, b"\xFF\xFEh\x00\x00i"), None);
        let utf16le = BinaryRules {
            encoding: Some(UTF_16LE),
            ..AUTO
        };
        assert_eq!(first_nul(utf16le, b"h\x00i\x00"), None);
        assert_eq!(first_nul(utf16le, b"h\x00\x00\x00"), Some(2));
        // A label other than UTF-16 wins over a byte order mark.
        let utf8 = BinaryRules {
            encoding: Some(encoding_rs::UTF_8),
            ..AUTO
        };
        assert_eq!(first_nul(utf8, b"\xFF\xFEh\x00i\x00"), Some(3));
        // -a: nothing is looked for.
        let text = BinaryRules { text: true, ..AUTO };
        assert_eq!(first_nul(text, b"\x00"), None);
    }

    #[test]
    fn walked_binary_files_are_skipped_named_ones_warned_about() {
        assert_eq!(AUTO.check(true).on_binary, OnBinary::Skip);
        assert_eq!(AUTO.check(false).on_binary, OnBinary::Warn);
        let binary = BinaryRules {
            walked_too: true,
            ..AUTO
        };
        assert_eq!(binary.check(true).on_binary, OnBinary::Warn);
        let text = BinaryRules { text: true, ..AUTO };
        assert_eq!(text.check(true).on_binary, OnBinary::Text);
        assert_eq!(text.check(false).on_binary, OnBinary::Text);
    }

    #[test]
    fn a_stream_is_looked_at_in_its_first_64_kib_only() {
        let named = AUTO.check(false);
        let mut text = vec![b'a'; SNIFF_LEN - 1];
        text.push(0);
        text.push(0);
        let mut r = Sniffing::new(&text[..], named);
        io::copy(&mut r, &mut io::sink()).unwrap();
        assert_eq!(r.nul(), Some(SNIFF_LEN as u64 - 1));
        let mut later = vec![b'a'; SNIFF_LEN];
        later.push(0);
        let mut r = Sniffing::new(&later[..], named);
        io::copy(&mut r, &mut io::sink()).unwrap();
        assert_eq!(r.nul(), None);
        // Read a byte at a time: the byte order mark and a UTF-16 unit
        // split between reads.
        for (bytes, nul) in [
            (&b"\xFF\xFEh\x00\x00\x00"[..], Some(4)),
            (b"\xFF\xFEh\x00i\x00", None),
            (b"ab\x00", Some(2)),
        ] {
            let mut r = Sniffing::new(bytes, named);
            let mut byte = [0];
            while r.read(&mut byte).unwrap() == 1 {}
            assert_eq!(r.nul(), nul, "{bytes:?}");
        }
    }
}
