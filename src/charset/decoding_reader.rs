//! Opening an input in any charset, and reading it as UTF-8.
//!
//! Every reader of the library starts the same way: read the first
//! [`DETECTION_PREFIX_LEN`] bytes (or the whole input, if it is shorter),
//! choose the charset from them — the caller's encoding if it gave one,
//! else [`detect`] — and decode from there. The choice is written once,
//! [`Charset::for_input`]; the [`Searcher`](crate::Searcher) and the
//! [`PushScanner`](crate::PushScanner) scan what they open with it, and a
//! [`DecodingReader`] hands it out as UTF-8 to any code that wants text and
//! not hits (one IRI reference per line, say).
//!
//! ```
//! use std::io::Read;
//! use iriscan::{CharsetSource, DecodingReader};
//!
//! // "café" in windows-1252, found by the detector.
//! let latin1 = b"Un caf\xe9 \xe0 http://example.org/caf\xe9 d\xe9j\xe0 vu, tr\xe8s bien";
//! let mut reader = DecodingReader::new(&latin1[..], None)?;
//! assert_eq!(reader.charset().source(), CharsetSource::Detector);
//! let mut text = String::new();
//! reader.read_to_string(&mut text)?;
//! assert!(text.contains("http://example.org/café"));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, Read};

use encoding_rs::Encoding;

#[cfg(doc)]
use crate::charset::detect::detect;
use crate::charset::detect::{Charset, DETECTION_PREFIX_LEN};
use crate::charset::transcoder::Transcoder;

/// An input whose charset has been chosen: the reader, the bytes read so
/// far (the detection prefix), whether they are all of it, and the
/// transcoder for the chosen charset.
pub(crate) struct Opened<R> {
    pub(crate) reader: R,
    pub(crate) prefix: Vec<u8>,
    pub(crate) done: bool,
    pub(crate) transcoder: Transcoder,
}

impl<R: Read> Opened<R> {
    /// Reads the first [`DETECTION_PREFIX_LEN`] bytes of `reader` (fewer at
    /// its end) and chooses the charset: `encoding` if given (a BOM of that
    /// encoding is skipped), else the rules of [`detect`]. Retries
    /// interrupted reads; another error is returned as it is.
    pub(crate) fn open(
        mut reader: R,
        encoding: Option<&'static Encoding>,
    ) -> io::Result<Opened<R>> {
        let mut prefix = Vec::new();
        let done = read_up_to(&mut reader, &mut prefix, DETECTION_PREFIX_LEN)?;
        let charset = Charset::for_input(&prefix, done, encoding);
        Ok(Opened {
            reader,
            prefix,
            done,
            transcoder: Transcoder::new(&charset),
        })
    }
}

/// Reads up to `want` more bytes of `reader` into `buf`; returns whether
/// the reader ended before that.
fn read_up_to<R: Read>(reader: &mut R, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let n = reader.by_ref().take(want as u64).read_to_end(buf)?;
    Ok(n < want)
}

/// How many input bytes a [`DecodingReader`] decodes at a time.
const READ_BLOCK: usize = 64 * 1024;

/// A reader that yields the UTF-8 of an input in any charset, the charset
/// chosen as [`detect`] says (or given). A BOM is skipped. Input in a
/// legacy charset or UTF-16 is decoded, malformed sequences replaced by
/// U+FFFD (counted by [`replacements`](DecodingReader::replacements));
/// UTF-8 input is passed through byte for byte, malformed sequences
/// included (and counted), so that the caller can tell which text was not
/// UTF-8 — decode it lossily if that does not matter.
///
/// Memory is bounded: a block of input and its UTF-8, whatever the input's
/// size (no offset map is kept: this reader gives text, not positions).
pub struct DecodingReader<R> {
    reader: R,
    transcoder: Transcoder,
    raw: Vec<u8>,
    done: bool,
    out: Vec<u8>,
    pos: usize,
}

impl<R: Read> DecodingReader<R> {
    /// Opens `reader`: reads its first bytes and chooses the charset
    /// (`encoding` if given, else [`detect`]).
    pub fn new(reader: R, encoding: Option<&'static Encoding>) -> io::Result<DecodingReader<R>> {
        let opened = Opened::open(reader, encoding)?;
        Ok(DecodingReader {
            reader: opened.reader,
            transcoder: opened.transcoder,
            raw: opened.prefix,
            done: opened.done,
            out: Vec::new(),
            pos: 0,
        })
    }

    /// The charset the input is read in, and how it was chosen.
    pub fn charset(&self) -> &Charset {
        self.transcoder.charset()
    }

    /// How many malformed sequences have been replaced by U+FFFD so far.
    pub fn replacements(&self) -> u64 {
        self.transcoder.replacements()
    }
}

impl<R: Read> Read for DecodingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.out.len() {
            if self.transcoder.is_finished() {
                return Ok(0);
            }
            if self.raw.is_empty() && !self.done {
                self.done = read_up_to(&mut self.reader, &mut self.raw, READ_BLOCK)?;
            }
            let mut decoded = std::mem::take(&mut self.out);
            decoded.clear();
            let utf8 = self.transcoder.push(&self.raw, self.done, &mut decoded);
            if self.transcoder.is_identity() {
                // UTF-8: the input itself, minus a BOM (a slice of `raw`).
                let utf8 = utf8.to_vec();
                decoded = utf8;
            }
            // Nothing is asked of the offset map: let it go.
            self.transcoder.release(self.transcoder.output_len());
            self.raw.clear();
            self.out = decoded;
            self.pos = 0;
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `chunk` bytes at a time.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn read_all(input: &[u8], chunk: usize, encoding: Option<&'static Encoding>) -> String {
        let mut r = DecodingReader::new(Trickle(input, chunk), encoding).unwrap();
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn every_charset_reads_as_its_utf8_whatever_the_read_size() {
        let text = "東京 https://ja.wikipedia.org/wiki/東京都?q=日本 ".repeat(5000);
        for encoding in [
            encoding_rs::UTF_8,
            encoding_rs::SHIFT_JIS,
            encoding_rs::EUC_JP,
            encoding_rs::ISO_2022_JP,
            encoding_rs::GB18030,
            encoding_rs::UTF_16LE,
        ] {
            let (bytes, _, _) = encoding.encode(&text);
            let bytes = if encoding == encoding_rs::UTF_16LE {
                text.encode_utf16().flat_map(u16::to_le_bytes).collect()
            } else {
                bytes.into_owned()
            };
            for chunk in [1, 7, 4096, usize::MAX] {
                assert_eq!(
                    read_all(&bytes, chunk, Some(encoding)),
                    text,
                    "{} in chunks of {chunk}",
                    encoding.name()
                );
            }
        }
    }

    #[test]
    fn malformed_utf8_is_passed_through_and_counted_and_a_bom_is_skipped() {
        let input = b"\xef\xbb\xbfa\xffb\xe6\x9d";
        let mut r = DecodingReader::new(&input[..], Some(encoding_rs::UTF_8)).unwrap();
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(out, &input[3..]);
        assert_eq!(r.replacements(), 2);
        let mut r = DecodingReader::new(&b"a\xffb"[..], Some(encoding_rs::EUC_KR)).unwrap();
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, "a\u{FFFD}b");
        assert_eq!(r.replacements(), 1);
    }

    #[test]
    fn the_charset_is_detected_from_the_first_bytes() {
        let sjis = encoding_rs::SHIFT_JIS
            .encode("これは日本語の文章です。東京都")
            .0;
        let r = DecodingReader::new(&sjis[..], None).unwrap();
        assert_eq!(r.charset().name(), "Shift_JIS");
    }

    #[test]
    fn memory_does_not_follow_the_input() {
        // A legacy charset keeps an offset map in the transcoder; the
        // reader releases it as it goes.
        let line = "ЖЖЖЖ https://ru.wikipedia.org/wiki/Москва\n".repeat(1000);
        let bytes = encoding_rs::KOI8_R.encode(&line).0.repeat(40);
        let mut r = DecodingReader::new(&bytes[..], Some(encoding_rs::KOI8_R)).unwrap();
        let mut buf = vec![0; 1 << 16];
        let mut total = 0;
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            total += n;
            assert!(r.transcoder.retained_len() < 1 << 20);
        }
        assert_eq!(total, line.len() * 40);
    }
}
