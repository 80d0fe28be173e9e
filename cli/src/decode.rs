//! A reader that decodes any charset to UTF-8, for `--each-line` (the
//! running-text path decodes inside the library's `Searcher`).

use std::io::{self, Read};

use encoding_rs::Encoding;
use iriscan::{Charset, DETECTION_PREFIX_LEN, Transcoder, detect};

/// Yields the UTF-8 of what `inner` yields in its charset (given, or
/// detected from the first 64 KiB as PRODUCT.md §3 says).
pub struct Decoded<R> {
    inner: R,
    transcoder: Transcoder,
    raw: Vec<u8>,
    out: Vec<u8>,
    pos: usize,
    done: bool,
}

impl<R: Read> Decoded<R> {
    pub fn new(mut inner: R, encoding: Option<&'static Encoding>) -> io::Result<Decoded<R>> {
        let mut raw = Vec::new();
        let done = read_some(&mut inner, &mut raw, DETECTION_PREFIX_LEN)?;
        let charset = match encoding {
            Some(e) => Charset::given(e, &raw),
            None => detect(&raw, done),
        };
        Ok(Decoded {
            inner,
            transcoder: Transcoder::new(&charset),
            raw,
            out: Vec::new(),
            pos: 0,
            done,
        })
    }
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.out.len() {
            if self.transcoder.is_finished() {
                return Ok(0);
            }
            if self.raw.is_empty() && !self.done {
                self.done = read_some(&mut self.inner, &mut self.raw, 64 * 1024)?;
            }
            let mut decoded = Vec::new();
            let utf8 = self
                .transcoder
                .push(&self.raw, self.done, &mut decoded)
                .to_vec();
            self.raw.clear();
            self.out = utf8;
            self.pos = 0;
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Reads up to `want` bytes into `buf`; returns whether the reader ended.
fn read_some<R: Read>(r: &mut R, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let n = r.by_ref().take(want as u64).read_to_end(buf)?;
    Ok(n < want)
}
