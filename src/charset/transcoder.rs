//! Streaming decoding to UTF-8, with exact byte offsets back into the
//! original input (docs/rules.md §3).
//!
//! # Overview
//!
//! The scanner works on UTF-8. A [`Transcoder`] turns the input, pushed in
//! chunks of any size, into UTF-8 with `encoding_rs` (the streaming decoder
//! contract: `decode_to_utf8(src, dst, last)` per chunk, drained with
//! `last = true` at the end), and answers the question the hits need
//! answered: *which bytes of the original input encode this stretch of the
//! UTF-8?* — [`Transcoder::original_range`]. The answer is exact: `start`
//! and `end` slice the raw input to exactly the bytes that encode the text,
//! also for UTF-16, Shift_JIS, GB18030 and ISO-2022-JP with its escape
//! sequences.
//!
//! [`transcode`] does the same for a whole slice; it is one `push` with
//! `last = true`, nothing more.
//!
//! ```
//! use iriscan::{charset_for_label, transcode, Charset};
//! // "見て http://例え.jp/検索" in Shift_JIS.
//! let raw = b"\x8c\xa9\x82\xc4 http://\x97\xe1\x82\xa6.jp/\x8c\x9f\x8d\xf5";
//! let sjis = Charset::given(charset_for_label("shift_jis").unwrap(), raw);
//! let doc = transcode(raw, &sjis);
//! let text = std::str::from_utf8(doc.utf8()).unwrap();
//! assert_eq!(text, "見て http://例え.jp/検索");
//! let hit = text.find("http").unwrap()..text.len();
//! let bytes = doc.original_range(hit).unwrap();
//! assert_eq!(bytes, 5..raw.len());
//! assert_eq!(&raw[bytes.start..bytes.start + 7], b"http://");
//! ```
//!
//! # UTF-8 input
//!
//! UTF-8 is not transcoded: the scanner reads the raw bytes, and invalid
//! sequences simply end a candidate. A UTF-8 transcoder is the identity
//! ([`Transcoder::is_identity`]): [`Transcoder::push`] hands back the
//! input slice itself (no copy), offsets map to themselves (plus the BOM),
//! and it still counts the invalid sequences, so callers treat all inputs
//! alike at no cost.
//!
//! # The byte order mark
//!
//! A BOM ([`Charset::bom_len`]) is not text: it is not decoded and not in
//! the output, but offsets still count it — UTF-8 offset 0 maps to byte
//! `bom_len` of the input.
//!
//! # How the offset map works
//!
//! Every piece of output comes from a definite run of input bytes: a
//! character from the bytes that encode it, a U+FFFD from the malformed
//! bytes it replaces (as encoding_rs reports them). Only ISO-2022-JP has
//! bytes that produce nothing — its escape sequences (and the BOM, which is
//! outside the decoding). Recording that run for every character would cost
//! more memory than the text itself, so the transcoder records sparse
//! **checkpoints** instead: every [`CHECKPOINT_INTERVAL`] input bytes, a
//! pair (input offset, output offset) where a *fresh* decoder, started at
//! that input offset, produces exactly the output the running decoder
//! produced from that output offset on. At input position `q`, a
//! decoder's whole state is its *pending* bytes — a lead byte, a UTF-16
//! high surrogate, the start of a GB18030 four-byte code or of an
//! ISO-2022-JP escape sequence — plus, for ISO-2022-JP only, the character
//! set and the "output flag". So the checkpoint starts a fresh decoder at
//! `q - pending`, after a synthetic escape sequence that selects the same
//! character set for ISO-2022-JP. The crate-internal `resume` module
//! computes the pending bytes by mirroring the state transitions of the
//! Encoding Standard's decoders; the tests check the mirrors against
//! encoding_rs at every position of random and exhaustively enumerated
//! inputs.
//!
//! A lookup takes the last checkpoint at or before the offset and walks
//! forward from there, span by span — a span being a character with the
//! bytes that encode it, or a U+FFFD with exactly the malformed bytes it
//! replaces — until it reaches the offset. For every decoder but
//! ISO-2022-JP the walk decodes almost nothing: a character and every
//! malformed sequence end at a resume point (after an error these decoders
//! go on as a fresh decoder at the end of the malformed bytes), so it
//! steps from one to the next with tables of how many bytes each character
//! takes and how long its UTF-8 is — per byte for single-byte encodings,
//! computed from the code units for UTF-16, per byte and per pair of bytes
//! for the multi-byte encodings (made once per process by feeding
//! encoding_rs every byte and pair, so they agree with it by
//! construction) — and ASCII runs eight bytes at a time. Only what the
//! tables leave out — malformed bytes, the end of the input, GB18030
//! four-byte and EUC-JP three-byte characters — goes to a fresh decoder,
//! fed one byte at a time, which says where the character ends or, with
//! encoding_rs's `decode_to_utf8_without_replacement`, exactly which bytes
//! the U+FFFD replaces. ISO-2022-JP, whose state is more than pending
//! bytes, re-decodes the whole stretch one byte at a time, watching which
//! byte completes which character. The tests check the fast walk against
//! that byte-at-a-time walk at every offset of random, malformed and
//! streaming inputs in every encoding.
//!
//! Each lookup walks at most `CHECKPOINT_INTERVAL` bytes plus a character;
//! an [`OffsetMapper`] keeps its place between lookups, so mapping all the
//! hits of a stretch in order walks that stretch at most once (a lookup
//! jumps ahead to a later checkpoint rather than walking up to it).
//!
//! Memory: the transcoder keeps the input from the checkpoint before the
//! oldest offset the caller may still ask about — [`Transcoder::release`]
//! says which; the dead prefix is dropped once it is at least 4 KiB and
//! half the buffer — plus one checkpoint (three words) per
//! `CHECKPOINT_INTERVAL` bytes of it. Without `release`, it keeps the whole
//! input (as [`transcode`] does). The walk's tables take 256 bytes per
//! single-byte transcoder and 33 KB per multi-byte encoding in use, for the
//! process (built in about a millisecond on its first lookup).
//!
//! # Performance
//!
//! Measured in a release build on 6–11 MB inputs: pushing costs what
//! encoding_rs costs plus the checkpoints (Shift_JIS 290 MB/s against 450
//! for encoding_rs alone, gb18030 430/570, windows-1252 360/720, UTF-16LE
//! 730/1400, ISO-2022-JP 150/350, random bytes 60–230 MB/s in every
//! decoder). Mapping the start and end of a hit every 200 bytes of text in
//! order through an [`OffsetMapper`] (`cargo bench --bench charsets --
//! offset-map`) runs at 1.3 GB/s of windows-1252 input, 1 GB/s of
//! UTF-16LE and 750 MB/s of Shift_JIS — 150–200 ns a hit — and 60 MB/s
//! of ISO-2022-JP (the byte-at-a-time walk). UTF-8, the common case, is
//! not decoded at all.
//!
//! # Conventions at the edges
//!
//! * [`Transcoder::original_start`] of an offset is where the character
//!   there begins; [`Transcoder::original_end`] is where the character
//!   before it ends. They differ only where bytes in between produce no
//!   output: ISO-2022-JP escape sequences. So a hit's range starts after
//!   the escape sequence that precedes it and ends before the one that
//!   follows it: it holds exactly the bytes of its characters, and escape
//!   sequences *inside* it. Decoding it gives the hit's text whenever the
//!   hit begins in ASCII (every scheme and `www.` hit does, since those
//!   begin with an ASCII letter) — a decoder starts in ASCII. (A hit that
//!   begins in another character set decodes right only in context: after
//!   the escape sequence that selected it. In JIS X 0201 Roman, which
//!   reads `\` and `~` as ¥ and ‾, a hit containing those bytes decodes
//!   differently without that context.)
//! * An offset inside the output of one input sequence (inside a
//!   character, or between the two characters that some Big5 codes decode
//!   to) maps to the start of that sequence for `original_start` and its
//!   end for `original_end`: the range covers the whole sequence.
//! * Offsets are exact once the output up to them exists; at the very end
//!   of the output before the input has ended, `original_start` answers
//!   where the next character will begin if the pending bytes are its
//!   beginning.
//!
//! # Replacements
//!
//! [`Transcoder::replacements`] counts the U+FFFD written for malformed
//! input (and, for UTF-8, the invalid sequences the decoder would have
//! replaced), not U+FFFD characters that are really in the input.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::OnceLock;

use encoding_rs::{Decoder, DecoderResult, Encoding};

use crate::chars::utf8::{incomplete_tail, sequence_len};
use crate::charset::detect::Charset;
use crate::charset::resume_points::{
    Family, JisState2022, Lengths, MultiByteState, Resume, ascii_prefix, is_jis_escape,
    is_multibyte_sync_byte, utf16_pending,
};

/// How many input bytes apart the transcoder records checkpoints; a lookup
/// walks at most this many bytes (plus one character).
pub const CHECKPOINT_INTERVAL: usize = 128;

const REPLACEMENT_CHARACTER: &[u8] = "\u{FFFD}".as_bytes();

/// The size of the decoding buffer: a segment of `CHECKPOINT_INTERVAL`
/// bytes decodes to at most three times as many (plus pending bytes).
const SCRATCH_LEN: usize = 1024;

/// A place where a fresh decoder can take over (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Checkpoint {
    /// Absolute input offset where the fresh decoder starts.
    orig: usize,
    /// Output offset of everything it produces.
    utf8: usize,
    /// What to feed the fresh decoder first.
    resume: Resume,
}

/// Decodes an input, pushed in chunks, to UTF-8 and maps UTF-8 offsets back
/// to byte offsets in the input (see the module documentation).
///
/// ```
/// use iriscan::{detect, Transcoder};
/// // "Привет, http://пример.рф/путь" in windows-1251, pushed in 3 chunks.
/// let raw: &[u8] = b"\xcf\xf0\xe8\xe2\xe5\xf2, http://\xef\xf0\xe8\xec\xe5\xf0.\xf0\xf4/\xef\xf3\xf2\xfc";
/// let charset = iriscan::Charset::given(iriscan::charset_for_label("cp1251").unwrap(), raw);
/// let mut t = Transcoder::new(&charset);
/// let mut out = Vec::new();
/// for chunk in raw.chunks(7) {
///     t.push(chunk, false, &mut out);
/// }
/// t.push(&[], true, &mut out);
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text, "Привет, http://пример.рф/путь");
/// let hit = text.find("http").unwrap()..text.len();
/// assert_eq!(t.original_range(hit), Some(8..raw.len()));
/// assert_eq!(t.replacements(), 0);
/// ```
pub struct Transcoder {
    charset: Charset,
    engine: Engine,
    /// BOM bytes still to skip.
    bom_left: usize,
    /// Input bytes received, BOM included.
    consumed: usize,
    /// Output bytes produced.
    produced: usize,
    replacements: u64,
    finished: bool,
}

enum Engine {
    /// UTF-8: the output is the input.
    Identity(Utf8Errors),
    /// The replacement encoding: one U+FFFD for a non-empty input.
    Replacement,
    Decode(Box<Decoding>),
}

struct Decoding {
    encoding: &'static Encoding,
    decoder: Decoder,
    family: Family,
    /// Where decoding starts (after the BOM).
    start: usize,
    /// The input from `retained_base` on.
    retained: Vec<u8>,
    retained_base: usize,
    /// Never empty; ordered by `orig` and by `utf8`.
    checkpoints: VecDeque<Checkpoint>,
    /// Where the next checkpoint goes.
    next_target: usize,
    /// ISO-2022-JP: the decoder's state at `consumed`.
    jis: JisState2022,
    /// Where `decode_into` decodes to before copying to the caller's
    /// buffer; allocated once.
    scratch: Vec<u8>,
    /// The character lengths of the fast walk, made on the first lookup
    /// (`None` inside for ISO-2022-JP).
    lengths: OnceLock<Option<Lengths>>,
}

impl Transcoder {
    /// A transcoder for an input in `charset`; the first
    /// [`Charset::bom_len`] bytes pushed are skipped as the BOM.
    pub fn new(charset: &Charset) -> Transcoder {
        let encoding = charset.encoding();
        let start = charset.bom_len();
        let engine = match Family::of(encoding) {
            None if encoding == encoding_rs::UTF_8 => Engine::Identity(Utf8Errors::default()),
            None => Engine::Replacement,
            Some(family) => Engine::Decode(Box::new(Decoding {
                encoding,
                decoder: encoding.new_decoder_without_bom_handling(),
                family,
                start,
                retained: Vec::new(),
                retained_base: start,
                checkpoints: VecDeque::from([Checkpoint {
                    orig: start,
                    utf8: 0,
                    resume: Resume::Fresh,
                }]),
                next_target: start + CHECKPOINT_INTERVAL,
                jis: JisState2022::default(),
                scratch: vec![0; SCRATCH_LEN],
                lengths: OnceLock::new(),
            })),
        };
        Transcoder {
            charset: *charset,
            engine,
            bom_left: start,
            consumed: 0,
            produced: 0,
            replacements: 0,
            finished: false,
        }
    }

    /// The charset this transcoder decodes.
    pub fn charset(&self) -> &Charset {
        &self.charset
    }

    /// Whether the output is the input itself (UTF-8; offsets are the
    /// identity plus the BOM). Callers may then scan the raw bytes and skip
    /// the output of [`push`](Self::push), which is the input slice anyway.
    pub fn is_identity(&self) -> bool {
        matches!(self.engine, Engine::Identity(_))
    }

    /// Decodes the next chunk of the input; `last` says that it is the
    /// final one (it may be empty). Returns the UTF-8 for this chunk: for
    /// the identity, the chunk itself (without the part of the BOM in it);
    /// otherwise the text appended to `out`. The concatenation of what the
    /// calls return is the whole output, however the input was chunked.
    ///
    /// Input pushed after the last chunk is ignored.
    pub fn push<'a>(&mut self, input: &'a [u8], last: bool, out: &'a mut Vec<u8>) -> &'a [u8] {
        if self.finished {
            return &[];
        }
        self.finished = last;
        let skip = self.bom_left.min(input.len());
        self.bom_left -= skip;
        self.consumed += input.len();
        let input = &input[skip..];
        match &mut self.engine {
            Engine::Identity(errors) => {
                self.replacements += errors.count(input, last);
                self.produced += input.len();
                input
            }
            Engine::Replacement => {
                let start = out.len();
                // The standard's replacement decoder: one error for the
                // whole (non-empty) input, nothing else.
                if self.produced == 0 && self.consumed > self.charset.bom_len() {
                    out.extend_from_slice(REPLACEMENT_CHARACTER);
                    self.produced = REPLACEMENT_CHARACTER.len();
                    self.replacements = 1;
                }
                &out[start..]
            }
            Engine::Decode(d) => {
                let start = out.len();
                let base = self.consumed - input.len();
                d.push(
                    input,
                    last,
                    out,
                    &mut self.replacements,
                    base,
                    self.produced,
                );
                self.produced += out.len() - start;
                &out[start..]
            }
        }
    }

    /// [`push`](Self::push) for UTF-8 input known to be valid, whole
    /// characters (checked elsewhere, say in pieces on several threads):
    /// nothing to count, the input is the output. Returns `false`, having
    /// done nothing, unless this is the identity with no sequence left
    /// incomplete by the chunk before; then `push` is the way.
    pub(crate) fn push_valid(&mut self, input: &[u8], last: bool) -> bool {
        match &self.engine {
            Engine::Identity(errors) if errors.len == 0 && !self.finished => {}
            _ => return false,
        }
        debug_assert!(std::str::from_utf8(input).is_ok());
        self.finished = last;
        let skip = self.bom_left.min(input.len());
        self.bom_left -= skip;
        self.consumed += input.len();
        self.produced += input.len() - skip;
        true
    }

    /// How many bytes of input have been pushed (BOM included).
    pub fn input_len(&self) -> usize {
        self.consumed
    }

    /// How many bytes of UTF-8 have been produced.
    pub fn output_len(&self) -> usize {
        self.produced
    }

    /// Whether the last chunk has been pushed.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// How many U+FFFD were written for malformed input so far (for UTF-8,
    /// how many invalid sequences there are, each counted as the one
    /// U+FFFD a decoder writes for it).
    pub fn replacements(&self) -> u64 {
        self.replacements
    }

    /// Says that offsets before `utf8` will not be asked about again, so
    /// that the input before them can be dropped. Lookups of earlier
    /// offsets may then answer `None`.
    pub fn release(&mut self, utf8: usize) {
        if let Engine::Decode(d) = &mut self.engine {
            d.release(utf8);
        }
    }

    /// How many input bytes the offset map holds (for tests of the memory
    /// bound).
    #[cfg(test)]
    pub(crate) fn retained_len(&self) -> usize {
        match &self.engine {
            Engine::Decode(d) => d.retained.len(),
            _ => 0,
        }
    }

    /// A mapper for several lookups in a row: it keeps its place, so that
    /// lookups in increasing order walk each stretch once.
    pub fn mapper(&self) -> OffsetMapper<'_> {
        OffsetMapper {
            transcoder: self,
            walk: None,
            fast: None,
            slow: false,
        }
    }

    /// The input offset where the character at UTF-8 offset `utf8` begins
    /// (after any ISO-2022-JP escape sequence before it). For the end of
    /// the output, the end of what has been decoded. `None` if `utf8` is
    /// beyond the output or before the released part.
    pub fn original_start(&self, utf8: usize) -> Option<usize> {
        self.mapper().original_start(utf8)
    }

    /// The input offset where the character that ends at UTF-8 offset
    /// `utf8` ends (before any ISO-2022-JP escape sequence after it). For
    /// offset 0, where decoding begins (after the BOM). `None` as for
    /// [`original_start`](Self::original_start).
    pub fn original_end(&self, utf8: usize) -> Option<usize> {
        self.mapper().original_end(utf8)
    }

    /// The bytes of the input that encode `utf8` (a range of the output):
    /// `original_start(utf8.start)..original_end(utf8.end)`, or an empty
    /// range at `original_start(utf8.start)` for an empty one.
    pub fn original_range(&self, utf8: Range<usize>) -> Option<Range<usize>> {
        self.mapper().original_range(utf8)
    }
}

impl std::fmt::Debug for Transcoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transcoder")
            .field("charset", &self.charset)
            .field("input_len", &self.consumed)
            .field("output_len", &self.produced)
            .field("replacements", &self.replacements)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl Decoding {
    /// Decodes `input` (the bytes after the BOM, starting at absolute
    /// offset `base`; `produced` bytes of output exist before it),
    /// appending to `out` and recording checkpoints as the positions pass.
    fn push(
        &mut self,
        input: &[u8],
        last: bool,
        out: &mut Vec<u8>,
        replacements: &mut u64,
        base: usize,
        produced: usize,
    ) {
        let out_start = out.len();
        self.retained.extend_from_slice(input);
        let mut pos = base;
        let mut rest = input;
        while !rest.is_empty() {
            let take = (self.next_target - pos).min(rest.len());
            let (segment, tail) = rest.split_at(take);
            decode_into(
                &mut self.decoder,
                &mut self.scratch,
                segment,
                false,
                out,
                replacements,
            );
            if self.family == Family::Iso2022Jp {
                self.jis.step_all(segment);
            }
            pos += take;
            rest = tail;
            if pos == self.next_target {
                self.place_checkpoint(pos, produced + out.len() - out_start);
            }
        }
        if last {
            decode_into(
                &mut self.decoder,
                &mut self.scratch,
                &[],
                true,
                out,
                replacements,
            );
        }
    }

    /// Records the checkpoint for position `q`, where the output so far is
    /// `utf8` bytes long.
    fn place_checkpoint(&mut self, q: usize, utf8: usize) {
        let prev = *self.checkpoints.back().expect("never empty");
        let retained = |from: usize, to: usize| {
            &self.retained[from - self.retained_base..to - self.retained_base]
        };
        let (orig, resume) = match self.family {
            Family::SingleByte => (q, Resume::Fresh),
            Family::Utf16 { big_endian } => {
                // The last unit and an odd byte after it are all that can
                // be pending; units are aligned to where decoding started.
                // (`prev.orig` is at least CHECKPOINT_INTERVAL bytes back.)
                let from = q.saturating_sub(3).max(self.start);
                let aligned = from - (from - self.start) % 2;
                (
                    q - utf16_pending(retained(aligned, q), big_endian),
                    Resume::Fresh,
                )
            }
            Family::MultiByte(kind) => {
                // Start the state mirror after the last sync byte (a fresh
                // point), or at the previous checkpoint (also fresh).
                let stretch = retained(prev.orig, q);
                let from = stretch
                    .iter()
                    .rposition(|&b| is_multibyte_sync_byte(b))
                    .map_or(0, |i| i + 1);
                let mut state = MultiByteState::default();
                for &b in &stretch[from..] {
                    state.step(kind, b);
                }
                (q - state.pending(), Resume::Fresh)
            }
            Family::Iso2022Jp => {
                let (pending, resume) = self.jis.resume_point();
                (q - pending, resume)
            }
        };
        self.checkpoints
            .push_back(Checkpoint { orig, utf8, resume });
        self.next_target = q + CHECKPOINT_INTERVAL;
    }

    fn release(&mut self, utf8: usize) {
        // Keep the last checkpoint strictly before `utf8`, so that
        // `original_end(utf8)` can still find the character ending there.
        let keep_from = self
            .checkpoints
            .partition_point(|c| c.utf8 < utf8)
            .saturating_sub(1);
        self.checkpoints.drain(..keep_from);
        let first = self.checkpoints[0].orig;
        let dead = first.saturating_sub(self.retained_base);
        // Drop the dead prefix only when it is large, so that the
        // shifting costs O(1) per byte overall.
        if dead >= 4096 && dead * 2 >= self.retained.len() {
            self.retained.drain(..dead);
            self.retained_base += dead;
        }
    }
}

/// Decodes `src` into `out`, writing U+FFFD for malformed sequences and
/// counting them.
fn decode_into(
    decoder: &mut Decoder,
    buf: &mut [u8],
    mut src: &[u8],
    last: bool,
    out: &mut Vec<u8>,
    replacements: &mut u64,
) {
    // Through a fixed buffer, copied out: `out` never has to be
    // zero-filled ahead of the decoder (which would cost the remaining
    // input's worth of memset per malformed sequence).
    loop {
        let (result, read, written) = decoder.decode_to_utf8_without_replacement(src, buf, last);
        out.extend_from_slice(&buf[..written]);
        src = &src[read..];
        match result {
            DecoderResult::InputEmpty => return,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(_, _) => {
                out.extend_from_slice(REPLACEMENT_CHARACTER);
                *replacements += 1;
            }
        }
    }
}

/// One unit of the offset map: output bytes and the input bytes they come
/// from (one character, a U+FFFD, or the two characters of one Big5 code).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Span {
    utf8: Range<usize>,
    orig: Range<usize>,
}

/// A re-decoding from a checkpoint, one input byte at a time, that reports
/// which input bytes produced which output (module docs).
struct Walk<'t> {
    d: &'t Decoding,
    decoder: Decoder,
    /// The next input byte to feed.
    pos: usize,
    /// The end of the input pushed so far.
    end: usize,
    /// Whether the input has ended (so the decoder is drained at `end`).
    finished: bool,
    drained: bool,
    /// The output offset after the spans produced so far.
    utf8: usize,
    /// The first input byte not yet attributed to output.
    unattributed: usize,
    ready: VecDeque<Span>,
    /// The span most recently taken from `ready`.
    last: Option<Span>,
    /// Where the walk started, in the output.
    origin: usize,
}

impl<'t> Walk<'t> {
    fn new(d: &'t Decoding, cp: Checkpoint, end: usize, finished: bool) -> Walk<'t> {
        let mut decoder = d.encoding.new_decoder_without_bom_handling();
        // The synthetic prefix (ISO-2022-JP): never malformed, its output
        // is discarded.
        let mut prefix = cp.resume.prefix();
        let mut buf = [0u8; 32];
        while !prefix.is_empty() {
            let (_, read, _) = decoder.decode_to_utf8_without_replacement(prefix, &mut buf, false);
            if read == 0 {
                break;
            }
            prefix = &prefix[read..];
        }
        Walk {
            d,
            decoder,
            pos: cp.orig,
            end,
            finished,
            drained: false,
            utf8: cp.utf8,
            unattributed: cp.orig,
            ready: VecDeque::new(),
            last: None,
            origin: cp.utf8,
        }
    }

    /// The output offset of the walk's place: the start of the last span
    /// taken, or where it started.
    fn place(&self) -> usize {
        self.last.as_ref().map_or(self.origin, |s| s.utf8.start)
    }

    fn byte(&self, at: usize) -> u8 {
        self.d.retained[at - self.d.retained_base]
    }

    fn next_span(&mut self) -> Option<Span> {
        loop {
            if let Some(span) = self.ready.pop_front() {
                return Some(span);
            }
            if self.pos < self.end {
                if self.d.family == Family::SingleByte {
                    self.feed_single_byte_block();
                } else {
                    self.feed_byte();
                }
            } else if self.finished && !self.drained {
                self.drained = true;
                self.flush(true);
            } else {
                return None;
            }
        }
    }

    fn push_span(&mut self, utf8_len: usize, orig: Range<usize>) {
        let utf8 = self.utf8..self.utf8 + utf8_len;
        self.utf8 += utf8_len;
        self.ready.push_back(Span { utf8, orig });
    }

    /// Where the bytes of a character that ends at `end` begin: the first
    /// unattributed byte, after the ISO-2022-JP escape sequences that
    /// precede the character (they produce nothing; a character's own bytes
    /// never start with ESC).
    fn character_start(&self, end: usize) -> usize {
        let mut from = self.unattributed.min(end);
        if self.d.family == Family::Iso2022Jp {
            while from + 3 < end
                && is_jis_escape(&[self.byte(from), self.byte(from + 1), self.byte(from + 2)])
            {
                from += 3;
            }
        }
        from
    }

    /// Where the next character will begin, at the end of the output.
    fn tail_start(&self) -> usize {
        let mut from = self.unattributed;
        if self.d.family == Family::Iso2022Jp {
            while from + 3 <= self.end
                && is_jis_escape(&[self.byte(from), self.byte(from + 1), self.byte(from + 2)])
            {
                from += 3;
            }
        }
        from
    }

    /// Feeds the byte at `pos`, turning what the decoder reports into
    /// spans.
    fn feed_byte(&mut self) {
        let b = self.byte(self.pos);
        let mut buf = [0u8; 64];
        loop {
            let (result, read, written) =
                self.decoder
                    .decode_to_utf8_without_replacement(&[b], &mut buf, false);
            let consumed = self.pos + read;
            match result {
                DecoderResult::Malformed(bad, after) => {
                    self.malformed(bad, after, consumed, written);
                    self.pos = consumed;
                    // Output of bytes the decoder prepended to its input
                    // comes out before the next byte is read.
                    self.flush(false);
                    if read == 1 {
                        return;
                    }
                    // The byte was not consumed ("unread"): feed it again.
                }
                DecoderResult::InputEmpty if read == 1 => {
                    self.pos = consumed;
                    if written > 0 {
                        let start = self.character_start(consumed);
                        self.push_span(written, start..consumed);
                        self.unattributed = consumed;
                    }
                    return;
                }
                // Cannot happen with 64 bytes of room for one byte of
                // input; end the walk rather than spin.
                _ => {
                    self.end = self.pos;
                    return;
                }
            }
        }
    }

    /// A malformed sequence of `bad` bytes followed by `after` consumed
    /// bytes, reported when the input up to `consumed` was read; `written`
    /// bytes of output came before it in the same call.
    fn malformed(&mut self, bad: u8, after: u8, consumed: usize, written: usize) {
        let bad_end = consumed.saturating_sub(usize::from(after));
        let bad_start = bad_end.saturating_sub(usize::from(bad));
        if written > 0 {
            let end = bad_start.max(self.unattributed);
            let start = self.character_start(end);
            self.push_span(written, start..end);
        }
        // The bytes may lie before the checkpoint the walk started at (an
        // ISO-2022-JP escape sequence followed by another one is reported
        // at the second), which is why this is not clamped to it.
        self.push_span(REPLACEMENT_CHARACTER.len(), bad_start..bad_end);
        self.unattributed = self.unattributed.max(bad_end);
    }

    /// Lets the decoder write what it holds without new input: the bytes it
    /// prepended to its input after an error (ISO-2022-JP's `$`/`(` of an
    /// invalid escape sequence, GB18030's digit of a broken four-byte
    /// sequence: one character per byte; UTF-16's code unit after an
    /// unpaired high surrogate: one character per two bytes), and with
    /// `last`, the errors for what is pending at the end of the input.
    fn flush(&mut self, last: bool) {
        let mut buf = [0u8; 64];
        loop {
            let (result, _, written) =
                self.decoder
                    .decode_to_utf8_without_replacement(&[], &mut buf, last);
            // UTF-16 holds back a whole code unit (the one after an
            // unpaired high surrogate); the others hold back single bytes.
            let width = match self.d.family {
                Family::Utf16 { .. } => 2,
                _ => 1,
            };
            let mut i = 0;
            while i < written {
                let len = sequence_len(buf[i]);
                let at = self.unattributed.min(self.pos);
                let end = (at + width).min(self.pos);
                self.push_span(len, at..end);
                self.unattributed = end;
                i += len;
            }
            match result {
                DecoderResult::Malformed(bad, after) => self.malformed(bad, after, self.pos, 0),
                _ => return,
            }
        }
    }

    /// Single-byte encodings map byte `i` of a stretch to character `i` of
    /// its output, so a block is decoded at once.
    fn feed_single_byte_block(&mut self) {
        let from = self.pos - self.d.retained_base;
        let n = (self.end - self.pos).min(64);
        let src = &self.d.retained[from..from + n];
        let mut buf = [0u8; 256];
        let (result, read, written) = self
            .decoder
            .decode_to_utf8_without_replacement(src, &mut buf, false);
        let mut at = self.pos;
        let mut i = 0;
        while i < written {
            let len = sequence_len(buf[i]);
            self.push_span(len, at..at + 1);
            at += 1;
            i += len;
        }
        if let DecoderResult::Malformed(_, _) = result {
            self.push_span(REPLACEMENT_CHARACTER.len(), at..at + 1);
        }
        if read == 0 {
            // Cannot happen (64 bytes decode to at most 192); do not spin.
            self.end = self.pos;
            return;
        }
        self.pos += read;
        self.unattributed = self.pos;
    }
}

/// Which answer a lookup wants from the span it lands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    /// `original_start`: the span holding the output byte at the offset.
    Start,
    /// `original_end`: the span holding the output byte before it.
    End,
}

/// A span of the fast walk (like [`Span`], but `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    orig_start: usize,
    orig_end: usize,
    utf8_start: usize,
    utf8_end: usize,
}

impl Piece {
    fn new(orig: Range<usize>, utf8: usize, len: usize) -> Piece {
        Piece {
            orig_start: orig.start,
            orig_end: orig.end,
            utf8_start: utf8,
            utf8_end: utf8 + len,
        }
    }

    /// Whether the span answers a lookup whose output byte is `byte` (see
    /// [`FastWalk::seek`]).
    fn holds(&self, byte: usize) -> bool {
        self.utf8_start <= byte && byte < self.utf8_end
    }

    fn answer(&self, edge: Edge) -> usize {
        match edge {
            Edge::Start => self.orig_start,
            Edge::End => self.orig_end,
        }
    }
}

/// The offset map of every decoder but ISO-2022-JP, without re-decoding the
/// common characters: a walk from a checkpoint that steps over one
/// character at a time with the lengths of [`Lengths`] (runs of ASCII
/// bytes eight at a time), and asks a fresh decoder, fed one byte at a
/// time, about the rest — malformed bytes and the characters the tables
/// leave out. Every character and every malformed sequence ends at a
/// resume point (module docs of `resume`: after an error these decoders
/// go on as a fresh decoder at the end of the malformed bytes, the bytes
/// they "prepend to the stream" being exactly the input bytes there), so
/// each step starts from a fresh decoder, and the spans are the ones the
/// byte-at-a-time [`Walk`] finds (which the tests check at every offset).
struct FastWalk<'t> {
    d: &'t Decoding,
    lengths: &'t Lengths,
    /// The input available, from `d.retained_base` on.
    input: &'t [u8],
    /// Whether the input has ended.
    finished: bool,
    /// The resume point the walk is at, and the output offset there.
    pos: usize,
    utf8: usize,
    /// The span that ends there, unless the walk is at its checkpoint.
    last: Option<Piece>,
    /// A checkpoint at or before the walk's place: where the search for the
    /// next lookup's checkpoint begins.
    cp: usize,
    /// Whether `pos` and `utf8` are set (the walk has a place).
    placed: bool,
    /// How many times the walk started over at a checkpoint.
    #[cfg(test)]
    restarts: usize,
}

impl<'t> FastWalk<'t> {
    fn new(d: &'t Decoding, lengths: &'t Lengths, finished: bool) -> FastWalk<'t> {
        FastWalk {
            d,
            lengths,
            input: &d.retained,
            finished,
            pos: 0,
            utf8: 0,
            last: None,
            cp: 0,
            placed: false,
            #[cfg(test)]
            restarts: 0,
        }
    }

    /// The lookup of `utf8` (at least 1 for [`Edge::End`]): the span that
    /// holds output byte `utf8` (`Start`) or `utf8 - 1` (`End`); at the end
    /// of the output, for `Start`, where the next character will begin.
    fn seek(&mut self, utf8: usize, edge: Edge) -> Option<usize> {
        let byte = match edge {
            Edge::Start => utf8,
            Edge::End => utf8.checked_sub(1)?,
        };
        if let Some(last) = self.last.filter(|p| p.holds(byte)) {
            return Some(last.answer(edge));
        }
        let cps = &self.d.checkpoints;
        let i = checkpoint_before(cps, self.cp, byte)?;
        let cp = cps[i];
        // Go on from the walk's place if it is not past the byte and not
        // before the checkpoint; else start over at the checkpoint.
        if !self.placed || self.utf8 > byte || self.utf8 < cp.utf8 {
            self.pos = cp.orig;
            self.utf8 = cp.utf8;
            self.last = None;
            self.placed = true;
            #[cfg(test)]
            {
                self.restarts += 1;
            }
        }
        self.cp = i;
        match self.advance(byte) {
            Some(piece) => Some(piece.answer(edge)),
            None => match edge {
                Edge::Start => Some(self.pos),
                Edge::End => None,
            },
        }
    }

    /// Steps forward to the span that holds output byte `byte` (the walk is
    /// not past it); `None` if the output available ends first.
    fn advance(&mut self, byte: usize) -> Option<Piece> {
        match self.lengths {
            Lengths::SingleByte(lens) => self.advance_with(byte, true, |input| {
                Some((1, usize::from(lens[usize::from(*input.first()?)])))
            }),
            &Lengths::Utf16 { big_endian } => self.advance_with(byte, false, |input| {
                crate::charset::resume_points::utf16_next(input, big_endian)
            }),
            Lengths::MultiByte(tables) => self.advance_with(byte, true, |input| tables.next(input)),
        }
    }

    #[inline(always)]
    fn advance_with(
        &mut self,
        byte: usize,
        ascii_compatible: bool,
        next: impl Fn(&[u8]) -> Option<(usize, usize)>,
    ) -> Option<Piece> {
        let base = self.d.retained_base;
        let input = self.input;
        let (mut pos, mut utf8, mut last) = (self.pos, self.utf8, self.last);
        let found = loop {
            // `utf8 <= byte` here.
            let rest = &input[pos - base..];
            if ascii_compatible && rest.first().is_some_and(u8::is_ascii) {
                // ASCII bytes before `byte` are one-byte spans.
                let n = ascii_prefix(&rest[..(byte - utf8).min(rest.len())]);
                if n > 0 {
                    pos += n;
                    utf8 += n;
                    last = Some(Piece::new(pos - 1..pos, utf8 - 1, 1));
                    continue;
                }
            }
            let piece = match next(rest) {
                Some((bytes, len)) => Piece::new(pos..pos + bytes, utf8, len),
                None => match self.decode_one(pos, utf8) {
                    Some(piece) => piece,
                    None => break None,
                },
            };
            pos = piece.orig_end;
            utf8 = piece.utf8_end;
            last = Some(piece);
            if piece.utf8_end > byte {
                break Some(piece);
            }
        };
        (self.pos, self.utf8, self.last) = (pos, utf8, last);
        found
    }

    /// The next span from resume point `pos` (output offset `utf8`), told by
    /// a fresh decoder fed one byte at a time: a character, or the U+FFFD of
    /// the malformed bytes encoding_rs reports. `None` if the input
    /// available ends first (the bytes from `pos` are pending).
    fn decode_one(&self, pos: usize, utf8: usize) -> Option<Piece> {
        let base = self.d.retained_base;
        let end = base + self.input.len();
        let mut decoder = self.d.encoding.new_decoder_without_bom_handling();
        let mut buf = [0u8; 32];
        let mut at = pos;
        while at < end {
            let last = self.finished && at + 1 == end;
            let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                &self.input[at - base..at + 1 - base],
                &mut buf,
                last,
            );
            let consumed = at + read;
            match result {
                DecoderResult::Malformed(bad, after) => {
                    // The bytes after the malformed ones are consumed but not
                    // decoded yet: the next step decodes them afresh. (Never
                    // before `pos`, and at least one byte, whatever the
                    // decoder says, so that the walk moves on.)
                    let bad_end = consumed
                        .saturating_sub(usize::from(after))
                        .clamp(pos + 1, end);
                    let bad_start = bad_end.saturating_sub(usize::from(bad)).max(pos);
                    // Output before the error would have to come from
                    // bytes before it, and a fresh decoder that has written
                    // nothing holds none; count it with the error rather
                    // than lose it.
                    let len = written + REPLACEMENT_CHARACTER.len();
                    let start = if written > 0 { pos } else { bad_start };
                    return Some(Piece::new(start..bad_end, utf8, len));
                }
                DecoderResult::InputEmpty if read == 1 => {
                    at = consumed;
                    if written > 0 {
                        return Some(Piece::new(pos..at, utf8, written));
                    }
                }
                // Cannot happen with 32 bytes of room for one byte of
                // input; end the walk rather than spin.
                _ => return None,
            }
        }
        None
    }
}

/// The last checkpoint whose output starts at or before `byte`, searched
/// forward from `hint` (lookups come in order) and else by bisection.
fn checkpoint_before(cps: &VecDeque<Checkpoint>, hint: usize, byte: usize) -> Option<usize> {
    let n = cps.len();
    let mut i = hint.min(n.checked_sub(1)?);
    if cps[i].utf8 <= byte {
        for _ in 0..8 {
            if i + 1 < n && cps[i + 1].utf8 <= byte {
                i += 1;
            } else {
                return Some(i);
            }
        }
    }
    cps.partition_point(|c| c.utf8 <= byte).checked_sub(1)
}

/// Maps UTF-8 offsets to input offsets like [`Transcoder::original_start`]
/// and friends, keeping its place between lookups: lookups in increasing
/// order (the hits of a stretch, start and end) walk each stretch of input
/// once instead of once per lookup.
///
/// ```
/// use iriscan::{charset_for_label, transcode, Charset};
/// let (koi8, _, _) = encoding_rs::KOI8_R.encode("Ссылки: http://пример.рф и http://испытание.рф");
/// let doc = transcode(&koi8, &Charset::given(charset_for_label("koi8-r").unwrap(), &koi8));
/// let text = std::str::from_utf8(doc.utf8()).unwrap();
/// let mut mapper = doc.mapper();
/// let hits: Vec<_> = text.match_indices("http://").map(|(i, _)| i).collect();
/// let starts: Vec<_> = hits.iter().map(|&u| mapper.original_start(u).unwrap()).collect();
/// assert_eq!(starts, [8, 27]);
/// ```
pub struct OffsetMapper<'t> {
    transcoder: &'t Transcoder,
    /// ISO-2022-JP: the byte-at-a-time walk, at its place.
    walk: Option<Walk<'t>>,
    /// The other decoders: the fast walk, at its place.
    fast: Option<FastWalk<'t>>,
    /// Take the byte-at-a-time walk for every decoder (the tests'
    /// reference for the fast one).
    slow: bool,
}

impl<'t> OffsetMapper<'t> {
    /// A walk that can answer a lookup from `cp` on: the current one if
    /// `usable` says it has not gone past the offset and it is at least as
    /// far as `cp`, else a new one from `cp`.
    fn walk_from(
        &mut self,
        d: &'t Decoding,
        cp: Checkpoint,
        usable: impl Fn(&Walk<'t>) -> bool,
    ) -> &mut Walk<'t> {
        let keep = self
            .walk
            .as_ref()
            .is_some_and(|w| usable(w) && w.utf8 >= cp.utf8);
        if !keep {
            let t = self.transcoder;
            self.walk = Some(Walk::new(d, cp, t.consumed, t.finished));
        }
        self.walk.as_mut().expect("just set")
    }

    /// The fast walk, unless the decoder needs the byte-at-a-time one.
    fn fast_walk(&mut self, d: &'t Decoding) -> Option<&mut FastWalk<'t>> {
        if self.slow {
            return None;
        }
        if self.fast.is_none() {
            let lengths = d
                .lengths
                .get_or_init(|| Lengths::of(d.encoding, d.family))
                .as_ref()?;
            self.fast = Some(FastWalk::new(d, lengths, self.transcoder.finished));
        }
        self.fast.as_mut()
    }

    /// See [`Transcoder::original_start`].
    pub fn original_start(&mut self, utf8: usize) -> Option<usize> {
        let t = self.transcoder;
        if utf8 > t.produced {
            return None;
        }
        let bom = t.charset.bom_len();
        match &t.engine {
            Engine::Identity(_) => Some(utf8 + bom),
            Engine::Replacement => Some(if utf8 < t.produced {
                bom
            } else {
                t.consumed.max(bom)
            }),
            Engine::Decode(d) => {
                if let Some(fast) = self.fast_walk(d) {
                    return fast.seek(utf8, Edge::Start);
                }
                let i = d.checkpoints.partition_point(|c| c.utf8 <= utf8);
                let cp = *d.checkpoints.get(i.checked_sub(1)?)?;
                let walk = self.walk_from(d, cp, |w| w.place() <= utf8);
                loop {
                    if let Some(last) = &walk.last
                        && last.utf8.start <= utf8
                        && utf8 < last.utf8.end
                    {
                        return Some(last.orig.start);
                    }
                    match walk.next_span() {
                        Some(span) => walk.last = Some(span),
                        None => return Some(walk.tail_start()),
                    }
                }
            }
        }
    }

    /// See [`Transcoder::original_end`].
    pub fn original_end(&mut self, utf8: usize) -> Option<usize> {
        let t = self.transcoder;
        if utf8 > t.produced {
            return None;
        }
        let bom = t.charset.bom_len();
        match &t.engine {
            Engine::Identity(_) => Some(utf8 + bom),
            Engine::Replacement => Some(if utf8 == 0 { bom } else { bom + 1 }),
            Engine::Decode(d) => {
                if utf8 == 0 {
                    return Some(d.start);
                }
                if let Some(fast) = self.fast_walk(d) {
                    return fast.seek(utf8, Edge::End);
                }
                let i = d.checkpoints.partition_point(|c| c.utf8 < utf8);
                let cp = *d.checkpoints.get(i.checked_sub(1)?)?;
                let walk = self.walk_from(d, cp, |w| w.place() < utf8);
                loop {
                    if let Some(last) = &walk.last
                        && last.utf8.start < utf8
                        && utf8 <= last.utf8.end
                    {
                        return Some(last.orig.end);
                    }
                    walk.last = Some(walk.next_span()?);
                }
            }
        }
    }

    /// See [`Transcoder::original_range`].
    pub fn original_range(&mut self, utf8: Range<usize>) -> Option<Range<usize>> {
        if utf8.start > utf8.end {
            return None;
        }
        let start = self.original_start(utf8.start)?;
        if utf8.is_empty() {
            return Some(start..start);
        }
        let end = self.original_end(utf8.end)?;
        Some(start..end)
    }

    /// The length of the ISO-2022-JP escape back to ASCII (`ESC ( B`)
    /// that begins at input offset `at`, if the input has one there and
    /// its bytes are still held; 0 otherwise, and in every other encoding.
    /// A hit's span takes it in (docs/rules.md §1.5), so that replacing the
    /// span leaves the rest of the document in the state it was read in.
    pub(crate) fn escape_to_ascii_at(&self, at: usize) -> usize {
        const ESCAPE: &[u8] = b"\x1b(B";
        match &self.transcoder.engine {
            Engine::Decode(d) if d.family == Family::Iso2022Jp => {
                let held = at
                    .checked_sub(d.retained_base)
                    .and_then(|i| d.retained.get(i..i + ESCAPE.len()));
                if held == Some(ESCAPE) {
                    ESCAPE.len()
                } else {
                    0
                }
            }
            _ => 0,
        }
    }
}

/// A whole input decoded to UTF-8, with its offset map: the result of
/// [`transcode`].
pub struct Transcoded<'a> {
    utf8: Cow<'a, [u8]>,
    transcoder: Transcoder,
}

/// Decodes a whole input: one [`Transcoder::push`] with `last = true`.
/// For UTF-8 the text is the input itself (after the BOM), borrowed.
///
/// ```
/// use iriscan::{detect, transcode};
/// let raw = b"\xff\xfeh\x00t\x00t\x00p\x00:\x00/\x00/\x00a\x00.\x00b\x00/\x00=\xd8\x00\xde";
/// let doc = transcode(raw, &detect(raw, true));
/// assert_eq!(doc.utf8(), "http://a.b/😀".as_bytes());
/// // The BOM counts: the text starts at byte 2; the emoji is a surrogate pair.
/// assert_eq!(doc.original_range(0..doc.utf8().len()), Some(2..raw.len()));
/// assert_eq!(doc.original_start(11), Some(24));
/// ```
pub fn transcode<'a>(input: &'a [u8], charset: &Charset) -> Transcoded<'a> {
    let mut transcoder = Transcoder::new(charset);
    let mut out = Vec::new();
    let len = transcoder.push(input, true, &mut out).len();
    let utf8 = if transcoder.is_identity() {
        Cow::Borrowed(&input[input.len() - len..])
    } else {
        Cow::Owned(out)
    };
    Transcoded { utf8, transcoder }
}

impl<'a> Transcoded<'a> {
    /// The text, as UTF-8 (for a UTF-8 input, the input bytes themselves,
    /// which may be invalid UTF-8).
    pub fn utf8(&self) -> &[u8] {
        &self.utf8
    }

    /// The text, taking it out.
    pub fn into_utf8(self) -> Cow<'a, [u8]> {
        self.utf8
    }

    /// The transcoder, with the offset map and the counts.
    pub fn transcoder(&self) -> &Transcoder {
        &self.transcoder
    }

    /// The charset of the input.
    pub fn charset(&self) -> &Charset {
        self.transcoder.charset()
    }

    /// How many U+FFFD replaced malformed input (see
    /// [`Transcoder::replacements`]).
    pub fn replacements(&self) -> u64 {
        self.transcoder.replacements()
    }

    /// See [`Transcoder::original_start`].
    pub fn original_start(&self, utf8: usize) -> Option<usize> {
        self.transcoder.original_start(utf8)
    }

    /// See [`Transcoder::original_end`].
    pub fn original_end(&self, utf8: usize) -> Option<usize> {
        self.transcoder.original_end(utf8)
    }

    /// See [`Transcoder::original_range`].
    pub fn original_range(&self, utf8: Range<usize>) -> Option<Range<usize>> {
        self.transcoder.original_range(utf8)
    }

    /// See [`Transcoder::mapper`].
    pub fn mapper(&self) -> OffsetMapper<'_> {
        self.transcoder.mapper()
    }
}

impl std::fmt::Debug for Transcoded<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transcoded")
            .field("utf8_len", &self.utf8.len())
            .field("transcoder", &self.transcoder)
            .finish()
    }
}

/// Counts the invalid sequences of a UTF-8 stream as the UTF-8 decoder of
/// the Encoding Standard replaces them: one U+FFFD per maximal subpart of
/// an ill-formed sequence (Unicode §3.9, which `std::str::Utf8Error`
/// follows), also across chunk boundaries.
#[derive(Default)]
struct Utf8Errors {
    /// An incomplete sequence at the end of the previous chunk.
    pending: [u8; 4],
    len: usize,
}

impl Utf8Errors {
    fn count(&mut self, mut input: &[u8], last: bool) -> u64 {
        let mut count = 0;
        while self.len > 0 {
            let Some((&b, rest)) = input.split_first() else {
                if last {
                    self.len = 0;
                    count += 1;
                }
                return count;
            };
            let mut seq = self.pending;
            seq[self.len] = b;
            match std::str::from_utf8(&seq[..=self.len]) {
                Ok(_) => {
                    self.len = 0;
                    input = rest;
                }
                Err(e) if e.error_len().is_none() => {
                    self.pending = seq;
                    self.len += 1;
                    input = rest;
                }
                Err(_) => {
                    // The pending bytes are a maximal subpart; `b` starts
                    // afresh.
                    self.len = 0;
                    count += 1;
                }
            }
        }
        // The common case, valid UTF-8, checked with SIMD (std's validator
        // is several times slower on non-ASCII text, and this runs over every
        // byte of every UTF-8 input); errors are then located exactly.
        // A chunk may end inside a character: check up to its start, and
        // leave those few bytes to the exact path below.
        let tail = incomplete_tail(input);
        if simdutf8::basic::from_utf8(&input[..input.len() - tail]).is_ok() {
            if tail == 0 {
                return count;
            }
            input = &input[input.len() - tail..];
        }
        loop {
            match std::str::from_utf8(input) {
                Ok(_) => return count,
                Err(e) => {
                    let valid = e.valid_up_to();
                    match e.error_len() {
                        Some(n) => {
                            count += 1;
                            input = &input[valid + n..];
                        }
                        None => {
                            let tail = &input[valid..];
                            if last {
                                return count + 1;
                            }
                            self.pending[..tail.len()].copy_from_slice(tail);
                            self.len = tail.len();
                            return count;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charset::detect::charset_for_label;
    use proptest::prelude::*;

    /// Every encoding of the WHATWG Encoding Standard (one list, shared
    /// with the integration tests' `support::ALL_ENCODINGS`).
    const ALL: &[&Encoding] = include!("every_encoding.in");

    /// The decoders with state worth stressing.
    const STATEFUL: &[&Encoding] = &[
        encoding_rs::GB18030,
        encoding_rs::BIG5,
        encoding_rs::EUC_JP,
        encoding_rs::ISO_2022_JP,
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_KR,
        encoding_rs::UTF_16BE,
        encoding_rs::UTF_16LE,
        encoding_rs::WINDOWS_1253,
    ];

    fn charset(e: &'static Encoding) -> Charset {
        Charset::given(e, b"")
    }

    /// Bytes that drive the decoders through their states: escape
    /// sequences, leads, trails, digits, surrogates.
    fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
        tricky_bytes_up_to(200)
    }

    fn tricky_bytes_up_to(pieces: usize) -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            Just(0x1Bu8),
            Just(b'$'),
            Just(b'('),
            Just(b'B'),
            Just(b'J'),
            Just(b'I'),
            Just(b'@'),
            0x21u8..0x7F,
            0x30u8..0x3A,
            0x80u8..=0xFF,
            0xD8u8..0xE0,
            any::<u8>(),
        ];
        // The first and last values of every range the decoders test.
        let edge = prop::sample::select(
            &[
                0x00u8, 0x0E, 0x1B, 0x21, 0x24, 0x28, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x42,
                0x49, 0x4A, 0x5F, 0x60, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0x9F, 0xA0, 0xA1, 0xDB,
                0xDC, 0xDF, 0xE0, 0xEF, 0xFC, 0xFD, 0xFE, 0xFF, 0xD8,
            ][..],
        );
        let piece = prop_oneof![
            prop::collection::vec(byte, 1..4),
            prop::collection::vec(edge, 1..6),
            Just(b"\x1b$B".to_vec()),
            Just(b"\x1b$@".to_vec()),
            Just(b"\x1b(B".to_vec()),
            Just(b"\x1b(I".to_vec()),
            Just(b"\x1b(J".to_vec()),
            Just(b"\x81\x30\x81\x30".to_vec()),
            Just(b"\x8f\xa2\xaf".to_vec()),
            Just(b"\x3d\xd8\x00\xde".to_vec()),
            Just(b"\x88\x62".to_vec()),
        ];
        prop::collection::vec(piece, 0..pieces).prop_map(|v| v.concat())
    }

    /// The whole decoding by encoding_rs, the reference.
    fn reference(e: &'static Encoding, bytes: &[u8]) -> String {
        e.decode_without_bom_handling(bytes).0.into_owned()
    }

    /// How many malformed sequences the decoder reports in one go.
    fn malformed(e: &'static Encoding, bytes: &[u8]) -> u64 {
        let mut d = e.new_decoder_without_bom_handling();
        let (mut n, mut sink, mut src) = (0, vec![0; 4 * bytes.len() + 16], bytes);
        loop {
            let (result, read, _) = d.decode_to_utf8_without_replacement(src, &mut sink, true);
            src = &src[read..];
            match result {
                DecoderResult::Malformed(..) => n += 1,
                _ => return n,
            }
        }
    }

    fn fresh_decode(e: &'static Encoding, prefix: &[u8], bytes: &[u8]) -> Vec<u8> {
        let mut d = e.new_decoder_without_bom_handling();
        let mut scratch = vec![0; SCRATCH_LEN];
        let mut sink = Vec::new();
        let mut n = 0;
        decode_into(&mut d, &mut scratch, prefix, false, &mut sink, &mut 0);
        let skip = sink.len();
        decode_into(&mut d, &mut scratch, bytes, true, &mut sink, &mut n);
        sink.split_off(skip)
    }

    /// All spans, from the first checkpoint.
    fn spans(t: &Transcoder) -> Vec<Span> {
        let Engine::Decode(d) = &t.engine else {
            return Vec::new();
        };
        let mut walk = Walk::new(d, d.checkpoints[0], t.consumed, t.finished);
        std::iter::from_fn(|| walk.next_span()).collect()
    }

    fn checkpoints(t: &Transcoder) -> Vec<Checkpoint> {
        match &t.engine {
            Engine::Decode(d) => d.checkpoints.iter().copied().collect(),
            _ => Vec::new(),
        }
    }

    fn check_document(e: &'static Encoding, bytes: &[u8]) -> Result<(), TestCaseError> {
        let doc = transcode(bytes, &charset(e));
        let text = doc.utf8();
        if e != encoding_rs::UTF_8 {
            let expected = reference(e, bytes);
            prop_assert_eq!(text, expected.as_bytes());
        }
        let t = doc.transcoder();
        // Every checkpoint is a place where a fresh decoder reproduces
        // the rest of the output.
        for cp in checkpoints(t) {
            let rest = fresh_decode(e, cp.resume.prefix(), &bytes[cp.orig..]);
            prop_assert_eq!(&rest[..], &text[cp.utf8..], "checkpoint {:?}", cp);
        }
        // The spans tile the output, move forward through the input, and
        // (except for ISO-2022-JP, whose bytes need their escape sequence)
        // decode on their own to their output.
        let spans = spans(t);
        let mut utf8 = 0;
        let mut orig = 0;
        for s in &spans {
            prop_assert_eq!(s.utf8.start, utf8);
            prop_assert!(
                s.orig.start >= orig && s.orig.start <= s.orig.end,
                "{:?}",
                s
            );
            utf8 = s.utf8.end;
            orig = s.orig.end;
            if e == encoding_rs::ISO_2022_JP && &text[s.utf8.clone()] != REPLACEMENT_CHARACTER {
                // In the character set of the last escape sequence before it.
                let escape = (0..s.orig.start.saturating_sub(2))
                    .rev()
                    .find(|&i| crate::charset::resume_points::is_jis_escape(&bytes[i..]))
                    .map_or(&b""[..], |i| &bytes[i..i + 3]);
                let alone = fresh_decode(e, escape, &bytes[s.orig.clone()]);
                prop_assert_eq!(
                    &alone[..],
                    &text[s.utf8.clone()],
                    "span {:?} after {:?}",
                    s,
                    escape
                );
            } else if e != encoding_rs::ISO_2022_JP && e != encoding_rs::REPLACEMENT {
                let alone = fresh_decode(e, b"", &bytes[s.orig.clone()]);
                prop_assert_eq!(
                    &alone[..],
                    &text[s.utf8.clone()],
                    "{} span {:?} bytes {:x?} prev {:?}",
                    e.name(),
                    s,
                    &bytes[s.orig.start.saturating_sub(6)..(s.orig.end + 3).min(bytes.len())],
                    spans.iter().rev().find(|p| p.utf8.end <= s.utf8.start)
                );
            }
        }
        if e != encoding_rs::UTF_8 && e != encoding_rs::REPLACEMENT {
            prop_assert_eq!(utf8, text.len());
            prop_assert!(orig <= bytes.len());
        }
        // Replacements are counted per malformed sequence.
        prop_assert_eq!(doc.replacements(), malformed(e, bytes));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(64)
    })]

        #[test]
        fn checkpoints_and_spans_are_exact(bytes in tricky_bytes(), which in 0..STATEFUL.len()) {
            check_document(STATEFUL[which], &bytes)?;
        }

        #[test]
        fn every_encoding_is_exact(bytes in prop::collection::vec(any::<u8>(), 0..600), which in 0..ALL.len()) {
            check_document(ALL[which], &bytes)?;
        }

    }

    /// The state mirrors, at every position (see
    /// `every_position_resumes_exactly`).
    fn check_every_position(e: &'static Encoding, bytes: &[u8]) -> Result<(), TestCaseError> {
        let family = Family::of(e).unwrap();
        let full = reference(e, bytes).into_bytes();
        // The output length after each prefix, fed one byte at a time.
        let mut d = e.new_decoder_without_bom_handling();
        let mut scratch = vec![0; SCRATCH_LEN];
        let mut out = Vec::new();
        let mut out_len = vec![0];
        for &b in bytes {
            decode_into(&mut d, &mut scratch, &[b], false, &mut out, &mut 0);
            out_len.push(out.len());
        }
        let mut multi = MultiByteState::default();
        let mut jis = JisState2022::default();
        for q in 0..=bytes.len() {
            if q > 0 {
                match family {
                    Family::MultiByte(kind) => multi.step(kind, bytes[q - 1]),
                    Family::Iso2022Jp => {
                        jis.step(bytes[q - 1]);
                        let mut bulk = JisState2022::default();
                        bulk.step_all(&bytes[..q]);
                        prop_assert_eq!(bulk, jis);
                    }
                    _ => {}
                }
            }
            let (from, resume) = match family {
                Family::MultiByte(_) => (q - multi.pending(), Resume::Fresh),
                Family::Utf16 { big_endian } => {
                    (q - utf16_pending(&bytes[..q], big_endian), Resume::Fresh)
                }
                Family::Iso2022Jp => {
                    let (pending, r) = jis.resume_point();
                    (q - pending, r)
                }
                Family::SingleByte => (q, Resume::Fresh),
            };
            let rest = fresh_decode(e, resume.prefix(), &bytes[from..]);
            prop_assert_eq!(&rest[..], &full[out_len[q]..], "{} at {}", e.name(), q);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(1024)
    })]

        /// The state mirrors, at every position (not only where the
        /// checkpoints happen to fall): the pending bytes (or the
        /// ISO-2022-JP resume prefix) let a fresh decoder reproduce the rest
        /// of the output exactly.
        #[test]
        fn every_position_resumes_exactly(bytes in tricky_bytes_up_to(30), which in 0..STATEFUL.len()) {
            check_every_position(STATEFUL[which], &bytes)?;
        }
    }

    /// `Utf8Errors` fed `bytes` cut at `cuts` (in order) counts what the
    /// decoder counts.
    fn check_utf8_errors(bytes: &[u8], cuts: &[usize]) -> Result<(), TestCaseError> {
        let expected = malformed(encoding_rs::UTF_8, bytes);
        let mut errors = Utf8Errors::default();
        let mut n = 0;
        let mut from = 0;
        for &c in cuts {
            n += errors.count(&bytes[from..c], false);
            from = c;
        }
        n += errors.count(&bytes[from..], true);
        prop_assert_eq!(n, expected);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(64)
    })]

        #[test]
        fn chunking_changes_nothing(
            bytes in tricky_bytes(),
            which in 0..STATEFUL.len(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            let e = STATEFUL[which];
            let whole = transcode(&bytes, &charset(e));
            let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            cuts.sort_unstable();
            let mut t = Transcoder::new(&charset(e));
            let mut out = Vec::new();
            let mut from = 0;
            for c in cuts {
                t.push(&bytes[from..c], false, &mut out);
                from = c;
            }
            t.push(&bytes[from..], true, &mut out);
            prop_assert_eq!(&out[..], whole.utf8());
            prop_assert_eq!(checkpoints(&t), checkpoints(whole.transcoder()));
            prop_assert_eq!(t.replacements(), whole.replacements());
        }

        #[test]
        fn utf8_errors_match_the_decoder(
            bytes in prop::collection::vec(prop_oneof![any::<u8>(), 0x80u8..0xC0, 0xE0u8..0xF5], 0..300),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            cuts.sort_unstable();
            check_utf8_errors(&bytes, &cuts)?;
        }
    }

    /// Every string of up to three (ISO-2022-JP: four) bytes drawn from the
    /// boundary values of the decoders' ranges, followed by probes that
    /// expose a wrong state: the state mirror at the end of the string
    /// must let a fresh decoder go on exactly like the running one.
    #[test]
    fn state_mirrors_are_exact_on_all_short_strings() {
        const EDGE: &[u8] = &[
            0x00, 0x1B, 0x2F, 0x30, 0x39, 0x3A, 0x40, 0x41, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F,
            0x9F, 0xA0, 0xA1, 0xDB, 0xDC, 0xDF, 0xE0, 0xFC, 0xFD, 0xFE, 0xFF, 0xD8,
        ];
        const JIS: &[u8] = &[
            0x1B, b'$', b'(', b'B', b'J', b'I', b'@', b'D', 0x21, 0x7E, 0x7F, 0x80, 0x0E, b' ',
        ];
        const PROBES: &[&[u8]] = &[
            b"\x30\x81\x30A",
            b"\xa1\xa1\xa1A",
            b"\x41\x42\x43",
            b"\x00\xdc\x41",
            b"\x21\x21\x1b(BA",
            b"\x1b$BA",
            b"\x1b(B\x1b(J",
        ];
        fn strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
            let mut all = vec![Vec::new()];
            let mut last = vec![Vec::new()];
            for _ in 0..max {
                last = last
                    .iter()
                    .flat_map(|s: &Vec<u8>| alphabet.iter().map(move |&b| [&s[..], &[b]].concat()))
                    .collect();
                all.extend(last.iter().cloned());
            }
            all
        }
        let mut d_scratch = vec![0; SCRATCH_LEN];
        for &e in STATEFUL {
            let family = Family::of(e).unwrap();
            let (alphabet, max) = if family == Family::Iso2022Jp {
                (JIS, 4)
            } else {
                (EDGE, 3)
            };
            for s in strings(alphabet, max) {
                let (from, resume) = match family {
                    Family::MultiByte(kind) => {
                        let mut m = MultiByteState::default();
                        s.iter().for_each(|&b| m.step(kind, b));
                        (s.len() - m.pending(), Resume::Fresh)
                    }
                    Family::Utf16 { big_endian } => {
                        (s.len() - utf16_pending(&s, big_endian), Resume::Fresh)
                    }
                    Family::Iso2022Jp => {
                        let mut j = JisState2022::default();
                        s.iter().for_each(|&b| j.step(b));
                        let (pending, r) = j.resume_point();
                        (s.len() - pending, r)
                    }
                    Family::SingleByte => (s.len(), Resume::Fresh),
                };
                let mut d = e.new_decoder_without_bom_handling();
                let mut head = Vec::new();
                decode_into(&mut d, &mut d_scratch, &s, false, &mut head, &mut 0);
                for probe in PROBES {
                    let whole = reference(e, &[&s[..], probe].concat()).into_bytes();
                    let rest = fresh_decode(e, resume.prefix(), &[&s[from..], probe].concat());
                    assert_eq!(
                        rest,
                        &whole[head.len()..],
                        "{} {:x?} + {:x?}",
                        e.name(),
                        s,
                        probe
                    );
                }
            }
        }
    }

    #[test]
    fn long_stretches_without_sync_bytes_still_get_checkpoints() {
        // 0x81 0x81 ... is a run of Shift_JIS pairs; 0xD8 0xD8 ... in
        // UTF-16 is a run of high surrogates (each one pending); neither
        // has a byte below 0x30 or a point with nothing pending.
        for (e, unit) in [
            (encoding_rs::SHIFT_JIS, &b"\x81"[..]),
            (encoding_rs::GB18030, b"\x81\x30"),
            (encoding_rs::UTF_16BE, b"\xd8"),
            (encoding_rs::EUC_JP, b"\x8f\xa1"),
            // Never between characters at a byte boundary.
            (encoding_rs::ISO_2022_JP, b"\x1b("),
            (encoding_rs::ISO_2022_JP, b"\x1b$B\x1b(B"),
        ] {
            let bytes = unit.repeat(5000);
            check_document(e, &bytes).unwrap();
            let doc = transcode(&bytes, &charset(e));
            let cps = checkpoints(doc.transcoder());
            assert!(
                cps.len() >= bytes.len() / CHECKPOINT_INTERVAL,
                "{}",
                e.name()
            );
            assert!(
                cps.windows(2)
                    .all(|w| w[1].orig - w[0].orig <= CHECKPOINT_INTERVAL + 3)
            );
        }
        // A long JIS X 0208 run: checkpoints inside it carry the state.
        let mut bytes = b"\x1b$B".to_vec();
        bytes.extend(b"%\"".repeat(3000));
        bytes.extend(b"\x1b(B");
        check_document(encoding_rs::ISO_2022_JP, &bytes).unwrap();
        let doc = transcode(&bytes, &charset(encoding_rs::ISO_2022_JP));
        let cps = checkpoints(doc.transcoder());
        assert!(cps.len() > 40);
        assert!(cps.iter().skip(1).all(|c| matches!(
            c.resume,
            Resume::Jis {
                mode: crate::charset::resume_points::JisMode::LeadByte,
                output_flag: false
            }
        )));
    }

    #[test]
    fn release_keeps_later_lookups_and_drops_memory() {
        let e = charset_for_label("shift_jis").unwrap();
        let text = "日本語のテキスト http://例え.jp/検索?q=東京 と ascii.\n".repeat(2000);
        let (bytes, _, _) = e.encode(&text);
        let whole = transcode(&bytes, &charset(e));
        let mut t = Transcoder::new(&charset(e));
        let mut out = Vec::new();
        let mut max_retained = 0;
        let mut asked = 0;
        for chunk in bytes.chunks(1000) {
            t.push(chunk, false, &mut out);
            // Map the hits of the output so far, then let them go.
            let mut m = t.mapper();
            for (i, _) in text[asked..out.len()].match_indices("http") {
                let u = asked + i;
                assert_eq!(m.original_start(u), whole.original_start(u));
                assert_eq!(m.original_end(u + 4), whole.original_end(u + 4));
            }
            asked = out.len() - out.len().min(200);
            while !text.is_char_boundary(asked) {
                asked -= 1;
            }
            t.release(asked);
            if let Engine::Decode(d) = &t.engine {
                max_retained = max_retained.max(d.retained.len());
                assert!(d.checkpoints.len() < 200);
            }
        }
        t.push(&[], true, &mut out);
        assert_eq!(out, whole.utf8());
        assert!(max_retained < 20_000, "{max_retained}");
        // Offsets before the released point are not answered.
        assert_eq!(t.original_start(0), None);
        assert_eq!(t.original_end(out.len()), Some(bytes.len()));
    }

    // The fast walk against the byte-at-a-time one.

    /// A mapper that takes the byte-at-a-time walk for every decoder.
    fn slow_mapper(t: &Transcoder) -> OffsetMapper<'_> {
        let mut m = t.mapper();
        m.slow = true;
        m
    }

    /// All spans of the fast walk from the first checkpoint (`None` for the
    /// decoders without one).
    fn fast_spans(t: &Transcoder) -> Option<Vec<Piece>> {
        let Engine::Decode(d) = &t.engine else {
            return None;
        };
        let mut m = t.mapper();
        let walk = m.fast_walk(d)?;
        let cp = d.checkpoints[0];
        (walk.pos, walk.utf8, walk.placed) = (cp.orig, cp.utf8, true);
        let mut pieces = Vec::new();
        while let Some(p) = walk.advance(walk.utf8) {
            pieces.push(p);
        }
        Some(pieces)
    }

    /// What the byte-at-a-time walk answers for every offset of the output.
    fn reference_map(t: &Transcoder) -> (Vec<Option<usize>>, Vec<Option<usize>>) {
        let mut slow = slow_mapper(t);
        let n = t.output_len();
        let starts = (0..=n).map(|u| slow.original_start(u)).collect();
        let ends = (0..=n).map(|u| slow.original_end(u)).collect();
        (starts, ends)
    }

    /// The fast walk gives the same spans as the byte-at-a-time one, and
    /// the same answer at every offset: in order through one mapper, in
    /// reverse, with a new mapper each time, and in the order of
    /// `lookups` (offsets, `true` for `original_end`) through one mapper.
    fn check_fast_walk(t: &Transcoder, lookups: &[(usize, bool)]) -> Result<(), TestCaseError> {
        if let Some(fast) = fast_spans(t) {
            let slow: Vec<Piece> = spans(t)
                .into_iter()
                .map(|s| Piece::new(s.orig, s.utf8.start, s.utf8.len()))
                .collect();
            prop_assert_eq!(fast, slow, "{}", t.charset().encoding().name());
        }
        let (starts, ends) = reference_map(t);
        let n = t.output_len();
        let mut forward = t.mapper();
        for u in 0..=n {
            prop_assert_eq!(forward.original_start(u), starts[u], "start {}", u);
            prop_assert_eq!(forward.original_end(u), ends[u], "end {}", u);
            prop_assert_eq!(t.mapper().original_start(u), starts[u], "new start {}", u);
            prop_assert_eq!(t.mapper().original_end(u), ends[u], "new end {}", u);
        }
        let mut backward = t.mapper();
        for u in (0..=n).rev() {
            prop_assert_eq!(backward.original_end(u), ends[u], "end {}", u);
            prop_assert_eq!(backward.original_start(u), starts[u], "start {}", u);
        }
        let mut m = t.mapper();
        for &(u, end) in lookups {
            let u = u % (n + 1);
            if end {
                prop_assert_eq!(m.original_end(u), ends[u], "end {}", u);
            } else {
                prop_assert_eq!(m.original_start(u), starts[u], "start {}", u);
            }
        }
        prop_assert_eq!(t.mapper().original_start(n + 1), None);
        prop_assert_eq!(t.mapper().original_end(n + 1), None);
        Ok(())
    }

    /// Text in each script the encodings cover, encoded in `e` (characters
    /// it cannot encode become numeric references), with random bytes
    /// spliced in: characters for the tables, malformed bytes for the
    /// decoder.
    fn text_with_noise() -> impl Strategy<Value = (Vec<u8>, Vec<(prop::sample::Index, u8)>)> {
        const PIECES: &[&str] = &[
            "http://例え.jp/検索?q=東京 ",
            "ｶﾀｶﾅ と ひらがな、カタカナ。",
            "我们明天在北京开会 ",
            "오늘 회의는 ",
            "Привет, мир ",
            "Ελληνικά ± × ÷ § ",
            "Ê̄ ê̌ 𠀋 𝄞 😀 ",
            "€ café naïve ",
            "\u{FFFD}\u{80}\u{FF61}",
            "\u{E000}\u{E7C7}\u{10FFFF}",
            "ascii only, with some length. ",
        ];
        (
            prop::collection::vec(prop::sample::select(PIECES), 0..24)
                .prop_map(|v| v.concat().into_bytes()),
            prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
        )
    }

    fn noisy(e: &'static Encoding, text: &[u8], noise: &[(prop::sample::Index, u8)]) -> Vec<u8> {
        let text = std::str::from_utf8(text).expect("the pieces are UTF-8");
        let mut bytes = if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE {
            let be = e == encoding_rs::UTF_16BE;
            text.encode_utf16()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() })
                .collect()
        } else {
            e.encode(text).0.into_owned()
        };
        for (at, b) in noise {
            let at = at.index(bytes.len() + 1);
            bytes.insert(at, *b);
        }
        bytes
    }

    fn lookups() -> impl Strategy<Value = Vec<(usize, bool)>> {
        prop::collection::vec((0usize..4000, any::<bool>()), 0..40).prop_map(|mut v| {
            // Mostly in order, like the searcher's (line start, hit start,
            // hit end), with some steps back.
            v.sort_unstable_by_key(|&(u, _)| u);
            if v.len() > 4 {
                v.swap(1, 3);
            }
            v
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(96)
    })]

        #[test]
        fn fast_walk_matches_the_slow_walk_on_any_bytes(
            bytes in prop::collection::vec(any::<u8>(), 0..400),
            which in 0..ALL.len(),
            lookups in lookups(),
        ) {
            let doc = transcode(&bytes, &charset(ALL[which]));
            check_fast_walk(doc.transcoder(), &lookups)?;
        }

        #[test]
        fn fast_walk_matches_the_slow_walk_on_tricky_bytes(
            bytes in tricky_bytes_up_to(120),
            which in 0..STATEFUL.len(),
            lookups in lookups(),
        ) {
            let doc = transcode(&bytes, &charset(STATEFUL[which]));
            check_fast_walk(doc.transcoder(), &lookups)?;
        }

        #[test]
        fn fast_walk_matches_the_slow_walk_on_text_with_malformed_bytes(
            (text, noise) in text_with_noise(),
            which in 0..ALL.len(),
            lookups in lookups(),
        ) {
            let e = ALL[which];
            let bytes = noisy(e, &text, &noise);
            let doc = transcode(&bytes, &charset(e));
            check_fast_walk(doc.transcoder(), &lookups)?;
        }

        /// While the input streams in: the end of the output before the end
        /// of the input (pending bytes), with and without a BOM.
        #[test]
        fn fast_walk_matches_the_slow_walk_while_streaming(
            (text, noise) in text_with_noise(),
            which in 0..STATEFUL.len(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
            bom in any::<bool>(),
        ) {
            let e = STATEFUL[which];
            let mut bytes = noisy(e, &text, &noise);
            let mut cs = charset(e);
            if bom && (e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE) {
                let mark: &[u8] = if e == encoding_rs::UTF_16LE { b"\xff\xfe" } else { b"\xfe\xff" };
                bytes.splice(0..0, mark.iter().copied());
                cs = Charset::given(e, &bytes);
                prop_assert_eq!(cs.bom_len(), 2);
            }
            let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            cuts.sort_unstable();
            cuts.push(bytes.len());
            let mut t = Transcoder::new(&cs);
            let mut out = Vec::new();
            let mut from = 0;
            for (k, &c) in cuts.iter().enumerate() {
                t.push(&bytes[from..c], k + 1 == cuts.len(), &mut out);
                from = c;
                check_fast_walk(&t, &[])?;
            }
        }
    }

    /// Every byte and every pair of bytes of each multi-byte encoding (and
    /// the three- and four-byte forms around them), back to back, so that
    /// the walk meets each table entry both at a resume point and out of
    /// step after an error.
    #[test]
    fn fast_walk_matches_the_slow_walk_on_every_pair() {
        let mut pairs = Vec::new();
        for lead in 0x80..=0xFFu8 {
            for trail in 0..=0xFFu8 {
                pairs.extend([lead, trail]);
            }
            // GB18030 four-byte and EUC-JP JIS X 0212 sequences.
            pairs.extend([lead, 0x30, lead, 0x39, 0x8F, lead, 0xA1, 0x8F, 0xA1, lead]);
        }
        for e in [
            encoding_rs::SHIFT_JIS,
            encoding_rs::EUC_JP,
            encoding_rs::EUC_KR,
            encoding_rs::BIG5,
            encoding_rs::GBK,
            encoding_rs::GB18030,
            encoding_rs::UTF_16LE,
            encoding_rs::UTF_16BE,
            encoding_rs::WINDOWS_1253,
            encoding_rs::X_USER_DEFINED,
        ] {
            for shift in 0..2 {
                let bytes = &pairs[shift..];
                let doc = transcode(bytes, &charset(e));
                let t = doc.transcoder();
                let fast = fast_spans(t).expect("a fast walk");
                let slow: Vec<Piece> = spans(t)
                    .into_iter()
                    .map(|s| Piece::new(s.orig, s.utf8.start, s.utf8.len()))
                    .collect();
                assert_eq!(fast.len(), slow.len(), "{}", e.name());
                for (f, s) in fast.iter().zip(&slow) {
                    assert_eq!(
                        f,
                        s,
                        "{} at {:x?}",
                        e.name(),
                        &bytes[s.orig_start..s.orig_end]
                    );
                }
            }
        }
    }

    /// The tables know the characters of real text: the fast walk decodes
    /// nothing but the GB18030 four-byte and EUC-JP three-byte ones.
    #[test]
    fn tables_cover_the_characters_of_real_text() {
        let text = "東京都の天気予報、ｶﾀｶﾅ。\u{3000}丂我们明天在北京开会。오늘 회의는 Привет Ελληνικά ± × § ¥ € http://例え.jp/";
        for e in [
            encoding_rs::SHIFT_JIS,
            encoding_rs::EUC_JP,
            encoding_rs::EUC_KR,
            encoding_rs::BIG5,
            encoding_rs::GBK,
            encoding_rs::GB18030,
        ] {
            let Some(Lengths::MultiByte(tables)) = Lengths::of(e, Family::of(e).unwrap()) else {
                panic!("{} has tables", e.name());
            };
            for c in text.chars() {
                let mut buf = [0; 4];
                let (bytes, _, unmappable) = e.encode(c.encode_utf8(&mut buf));
                if unmappable {
                    continue;
                }
                let (out, malformed) = e.decode_without_bom_handling(&bytes);
                assert!(!malformed);
                let four_byte = e == encoding_rs::GB18030 && bytes.len() == 4;
                let jis0212 = e == encoding_rs::EUC_JP && bytes.len() == 3;
                let expected = (!four_byte && !jis0212).then_some((bytes.len(), out.len()));
                assert_eq!(tables.next(&bytes), expected, "{} {c}", e.name());
            }
        }
        // Big5 codes that decode to two characters are one span.
        let Some(Lengths::MultiByte(big5)) =
            Lengths::of(encoding_rs::BIG5, Family::of(encoding_rs::BIG5).unwrap())
        else {
            unreachable!()
        };
        assert_eq!(big5.next(b"\x88\x62"), Some((2, 4)));
        // A lead byte alone, or before a byte that ends it, is left to the
        // decoder.
        assert_eq!(big5.next(b"\x88"), None);
        assert_eq!(big5.next(b"\x88 "), None);
        // Single-byte encodings: every byte, U+FFFD for the unmapped ones.
        let Some(Lengths::SingleByte(lens)) =
            Lengths::of(encoding_rs::WINDOWS_1253, Family::SingleByte)
        else {
            unreachable!()
        };
        assert_eq!(
            (lens[b'a' as usize], lens[0xE1], lens[0x80], lens[0xAA]),
            (1, 2, 3, 3)
        );
    }

    /// In-order lookups through one mapper (a line start, a hit's start and
    /// end, the next hit) go on from the walk's place; only a lookup behind
    /// it, or past the next checkpoint, starts over.
    #[test]
    fn in_order_lookups_reuse_the_walk() {
        let text = "日本語のテキスト http://例え.jp/検索 と ascii.\n".repeat(200);
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
        let doc = transcode(&bytes, &charset(encoding_rs::SHIFT_JIS));
        let Engine::Decode(d) = &doc.transcoder().engine else {
            unreachable!()
        };
        let mut m = doc.mapper();
        let mut lookups = 0;
        for (line, _) in text.match_indices("日本語") {
            let hit = line + text[line..].find("http").unwrap();
            let end = hit + text[hit..].find(' ').unwrap();
            assert_eq!(m.original_start(line), doc.original_start(line));
            assert_eq!(m.original_start(hit), doc.original_start(hit));
            assert_eq!(m.original_end(end), doc.original_end(end));
            // The end again and the start again: the span at hand answers.
            assert_eq!(m.original_end(end), doc.original_end(end));
            lookups += 3;
        }
        let restarts = m.fast.as_ref().unwrap().restarts;
        // A line is 60 bytes; a walk restarts only to skip a checkpoint
        // interval, at most once per interval.
        assert!(
            restarts <= bytes.len() / CHECKPOINT_INTERVAL + 1,
            "{restarts}"
        );
        assert!(restarts * 2 < lookups, "{restarts} of {lookups}");
        // A lookup behind the walk's place starts over.
        let before = m.fast.as_ref().unwrap().restarts;
        m.original_start(10);
        assert_eq!(m.fast.as_ref().unwrap().restarts, before + 1);
        assert!(d.checkpoints.len() > 10);
    }

    // Failures proptest once found and shrank, kept as plain tests (the
    // policy: tests/tests.rs). Their seeds were persisted for the module's
    // old path, src/transcode.rs, and do not say which property failed:
    // `check_seed` checks every property that takes `(bytes, which)`.

    /// The properties that take `(bytes, which)`: `checkpoints_and_spans_are_exact`
    /// and `every_position_resumes_exactly` (`STATEFUL[which]`), and
    /// `every_encoding_is_exact` (`ALL[which]`).
    fn check_seed(bytes: &[u8], which: usize) {
        if let Some(&e) = STATEFUL.get(which) {
            check_document(e, bytes).unwrap();
            check_every_position(e, bytes).unwrap();
        }
        check_document(ALL[which], bytes).unwrap();
    }

    /// UTF-16BE (or ISO-8859-6) over escape sequences and EUC-JP three-byte codes.
    // Seed cc 3287ac06748cadf0, which = 6.
    #[test]
    fn utf16be_on_escapes_and_three_byte_euc_jp_codes() {
        check_seed(
            &[
                27, 27, 27, 143, 162, 175, 143, 162, 175, 143, 162, 175, 143, 162, 175, 143, 162,
                175, 27, 27, 27, 143, 162, 175, 27, 27, 27, 27, 27, 27, 27, 27, 36, 66, 27, 27,
                138, 27, 40, 66, 27, 40, 66, 57, 217, 27, 40, 66,
            ],
            6,
        );
    }

    /// UTF-16LE over random bytes (the seed's `which` is 38: only `ALL` has it).
    // Seed cc 59c65768074153c6, which = 38.
    #[test]
    fn utf16le_on_random_bytes() {
        check_seed(
            &[
                216, 14, 76, 111, 126, 32, 236, 20, 47, 250, 184, 33, 172, 82, 155, 169, 106, 170,
                157, 117, 97, 134, 155, 105, 97, 114, 222, 131, 162, 66, 167, 170, 103, 156, 145,
                182, 198, 65, 7, 78, 100, 21, 249, 4, 28, 58, 165, 97, 124, 175, 178, 165, 50, 226,
                120, 68, 192, 12, 77, 13, 147, 177, 183, 4, 233, 79, 103, 183, 169, 165, 94, 234,
                37, 124, 131, 52, 136, 224, 14, 113, 203, 139, 75, 71, 75, 75, 168, 61, 86, 129,
                67, 5, 150, 253, 13, 77, 130, 137, 208, 192, 132, 10, 73, 10, 112, 183, 147, 178,
                106, 203, 94, 174, 91, 171, 120, 161, 246, 110, 142, 250, 26, 202, 133, 113, 227,
                247, 105, 216, 246, 70, 209, 113, 196, 212, 72, 76, 224, 76, 55, 60, 99, 28, 113,
                157, 128, 124, 214, 217, 62, 10, 175, 212, 29, 147, 243, 105, 214, 52, 43, 239,
                126, 219, 95, 81, 170, 67, 36, 181, 175, 74, 124, 39, 159, 26, 145, 240, 37, 255,
                249, 226, 153, 121, 43, 230, 243, 107, 215, 33, 172, 167, 161, 190, 182, 9, 126,
                221, 201, 6, 133, 169, 110, 190, 73, 148, 3, 114, 118, 213, 183, 225, 13, 194, 209,
                77, 75, 183, 15, 195, 198, 171, 45, 4, 189, 117, 226, 85, 73, 127, 199, 94, 122,
                86, 20, 11, 17, 195, 129, 50, 141, 17, 221, 136, 32, 252, 11, 230, 177, 99, 74,
                136, 53, 170, 146, 123, 161, 127, 122, 128, 123, 87, 43, 121, 98, 193, 242, 9, 105,
                251, 153, 46, 104, 227, 196, 140, 206, 76, 33, 167, 33, 184, 104, 49, 201, 201,
                155, 95, 150, 100, 175, 23, 33, 131, 60, 79, 101, 237, 176, 83, 23, 164, 152, 251,
                129, 235, 150, 87, 227, 121, 125, 238, 89,
            ],
            38,
        );
    }

    /// UTF-16LE: 209 NUL units, then U+FFFD itself (FD FF).
    // Seed cc d1d891f2dee8eda8, which = 38.
    #[test]
    fn utf16le_replacement_character_after_many_nuls() {
        let bytes = [vec![0; 418], vec![0xFD, 0xFF]].concat();
        check_seed(&bytes, 38);
    }

    /// EUC-JP (or ISO-8859-2) over escapes, GB18030 four-byte codes and UTF-16 surrogate pairs.
    // Seed cc 15ab6e6dea03f4bb, which = 2.
    #[test]
    fn euc_jp_on_escapes_and_gb18030_and_utf16_pieces() {
        check_seed(
            &[
                27, 27, 27, 129, 48, 129, 48, 129, 48, 129, 48, 61, 216, 0, 222, 68, 36, 66, 61,
                216, 0, 222, 136, 98, 143, 162, 175, 27, 36, 66, 27, 40, 66, 66, 40, 61, 216, 0,
                222, 136, 98, 61, 216, 0, 222, 27, 40, 66, 129, 48, 129, 48, 27, 40, 66, 129, 48,
                129, 48, 27, 64, 40, 27, 40, 66, 27, 40, 66, 27, 36, 66, 61, 216, 0, 222, 143, 162,
                175, 27, 36, 66, 27, 40, 66, 27, 36, 66, 136, 98, 61, 216, 0, 222, 220, 27, 57, 40,
                66, 61, 216, 0, 222, 61, 216, 0, 222, 71, 221, 52, 74, 51, 40, 54, 143, 162, 175,
                117, 27, 61, 216, 0, 222, 143, 162, 175, 61, 216, 0, 222, 136, 98, 136, 98, 129,
                48, 129, 48, 61, 216, 0, 222, 27, 36, 66, 27, 40, 66, 129, 48, 129, 48, 143, 162,
                175, 129, 48, 129, 48, 27, 40, 66, 129, 48, 129, 48, 136, 98, 27, 36, 66, 143, 162,
                175, 143, 162, 175, 27, 40, 66, 27, 36, 66, 136, 98, 129, 48, 129, 48, 40, 136, 98,
                27, 40, 66, 129, 48, 129, 48, 27, 36, 66, 136, 98, 64, 143, 162, 175, 129, 48, 129,
                48, 84, 27, 40, 66, 136, 98, 27, 36, 66, 143, 162, 175, 136, 98, 136, 98, 143, 162,
                175, 61, 216, 0, 222, 136, 98, 27, 40, 66, 143, 162, 175, 27, 40, 66, 136, 98, 66,
                74, 136, 98, 143, 162, 175, 143, 162, 175,
            ],
            2,
        );
    }

    /// ISO-2022-JP (or ISO-8859-3): runs of escape sequences with stray bytes between them.
    // Seed cc 926b455ef1b5cbf9, which = 3.
    #[test]
    fn iso_2022_jp_on_repeated_escapes_and_stray_bytes() {
        check_seed(
            &[
                27, 27, 27, 27, 36, 66, 27, 36, 66, 27, 36, 66, 129, 48, 129, 48, 61, 216, 0, 222,
                41, 40, 61, 216, 0, 222, 136, 98, 55, 27, 36, 66, 129, 48, 129, 48, 136, 98, 61,
                216, 0, 222, 27, 36, 66, 27, 36, 66, 129, 48, 129, 48, 27, 40, 66, 27, 40, 66, 61,
                216, 0, 222, 27, 36, 66, 61, 216, 0, 222, 143, 162, 175, 229, 200, 143, 162, 175,
                136, 98, 61, 216, 0, 222, 143, 162, 175, 27, 36, 66, 143, 162, 175, 136, 98, 27,
                40, 66, 27, 40, 66, 27, 36, 66, 129, 48, 129, 48, 129, 48, 129, 48, 143, 162, 175,
                27, 40, 66, 27, 36, 66, 27, 36, 66, 40, 36, 27, 36, 66, 27, 36, 66,
            ],
            3,
        );
    }

    /// UTF-16LE (or ISO-8859-7) over GB18030 four-byte codes, surrogate pairs and escapes.
    // Seed cc ee6d6fb7179d806f, which = 7.
    #[test]
    fn utf16le_on_gb18030_and_surrogate_pieces() {
        check_seed(
            &[
                129, 48, 129, 48, 61, 216, 0, 222, 129, 48, 129, 48, 129, 48, 129, 48, 129, 48,
                129, 48, 61, 216, 0, 222, 27, 40, 66, 66, 70, 157, 27, 40, 66, 143, 162, 175, 136,
                98, 27, 40, 66, 27, 40, 66, 136, 98, 143, 162, 175, 129, 48, 129, 48, 27, 40, 66,
                129, 48, 129, 48, 61, 216, 0, 222, 27, 40, 66, 129, 48, 129, 48, 136, 98, 61, 216,
                0, 222, 129, 48, 129, 48, 136, 98, 143, 162, 175, 129, 48, 129, 48, 27, 36, 66, 61,
                216, 0, 222, 27, 36, 66, 40, 61, 216, 0, 222, 129, 173, 27, 143, 162, 175, 66, 196,
                151, 27, 36, 66, 143, 162, 175, 61, 216, 0, 222, 61, 216, 0, 222, 27, 36, 66, 27,
                36, 66, 216, 74, 40, 129, 48, 129, 48, 129, 48, 129, 48, 143, 162, 175, 136, 98,
                27, 36, 66, 27, 40, 66, 143, 162, 175, 129, 48, 129, 48, 44, 27, 36, 61, 216, 0,
                222, 27, 36, 66, 129, 48, 129, 48, 27, 36, 66, 136, 98, 143, 162, 175, 129, 48,
                129, 48, 27, 40, 66, 27, 40, 66, 27, 40, 66, 136, 98, 27, 40, 66, 136, 98, 27, 40,
                66, 143, 162, 175, 27, 36, 66, 61, 216, 0, 222, 136, 98, 143, 162, 175, 143, 162,
                175, 136, 98, 143, 162, 175, 55, 49, 74, 136, 98, 136, 98, 136, 98, 143, 162, 175,
                143, 162, 175, 73, 36, 129, 48, 129, 48, 136, 98, 61, 216, 0, 222, 27, 36, 66, 27,
                36, 66, 27, 40, 66, 27, 40, 66, 27, 36, 66, 27, 221, 143, 162, 175, 27, 40, 66, 36,
                66, 27, 40, 66, 136, 98,
            ],
            7,
        );
    }

    /// Shift_JIS (or ISO-8859-4): a lone F0, a lead byte with no trail.
    // Seed cc c7dd72e64b38aca9, which = 4.
    #[test]
    fn shift_jis_lone_lead_byte_at_the_end() {
        check_seed(&[240], 4);
    }

    /// Big5 (or IBM866): a lone FE, a lead byte with no trail.
    // Seed cc d027b7a54f8dbbdc, which = 1.
    #[test]
    fn big5_lone_lead_byte_at_the_end() {
        check_seed(&[254], 1);
    }

    /// GB18030 (or UTF-8): 81 39, the first half of a four-byte code.
    // Seed cc c541756ee838dff6, which = 0.
    #[test]
    fn gb18030_four_byte_code_cut_after_two_bytes() {
        check_seed(&[129, 57], 0);
    }

    /// ISO-2022-JP (or ISO-8859-3): ESC ( I (half-width katakana), then bytes outside its range.
    // Seed cc d39e1991f91a0aae, which = 3.
    #[test]
    fn iso_2022_jp_katakana_escape_then_bytes_out_of_range() {
        check_seed(&[27, 40, 73, 61, 216, 0, 222], 3);
    }

    /// EUC-JP (or ISO-8859-2): a lone FE, a lead byte with no trail.
    // Seed cc 4f1dca755d615685, which = 2.
    #[test]
    fn euc_jp_lone_lead_byte_at_the_end() {
        check_seed(&[254], 2);
    }

    /// ISO-2022-JP (or ISO-8859-3) over every escape sequence and malformed bytes.
    // Seed cc 63ec6eca428cedb4, which = 3.
    #[test]
    fn iso_2022_jp_on_mixed_escapes_and_malformed_bytes() {
        check_seed(
            &[
                0, 0, 0, 27, 36, 66, 58, 159, 129, 129, 48, 129, 48, 129, 48, 129, 48, 27, 36, 64,
                27, 40, 74, 129, 48, 129, 48, 61, 216, 0, 222, 61, 216, 0, 222, 27, 36, 66, 61,
                216, 0, 222, 61, 216, 0, 222, 143, 162, 175, 27, 40, 66, 129, 48, 129, 48, 129, 48,
                129, 48, 27, 36, 64, 27, 36, 64, 61, 216, 0, 222, 82, 129, 48, 129, 48, 64, 36,
                222, 27, 36, 66, 143, 162, 175, 27, 40, 74, 255, 65, 160, 95, 128, 143, 162, 175,
                74, 159, 239, 129, 27, 36, 66, 143, 162, 175, 27, 36, 66, 33, 33, 47, 128, 27, 36,
                66, 27, 36, 66, 136, 98, 61, 216, 0, 222, 27, 40, 73, 61, 216, 0, 222, 61, 216, 0,
                222, 129, 48, 129, 48, 27, 36, 64, 64, 61, 216, 0, 222, 129, 48, 129, 48, 143, 162,
                175, 74, 40, 61, 216, 0, 222, 136, 98, 255, 159, 126, 27, 36, 64, 27, 36, 66, 143,
                162, 175, 61, 216, 0, 222, 48, 73, 195, 74, 143, 162, 175, 40, 128, 73, 223, 159,
                27, 40, 66, 27, 36, 66, 27, 40, 73, 27, 36, 66, 61, 216, 0, 222, 143, 162, 175, 27,
                36, 66, 129, 48, 129, 48, 27, 40, 74, 27, 40, 66, 129, 48, 129, 48, 27, 36, 66, 27,
                40, 74, 27, 36, 66, 27, 40, 74, 61, 216, 0, 222, 61, 216, 0, 222, 27, 40, 66, 136,
                98, 27, 36, 64, 136, 98, 27, 36, 66,
            ],
            3,
        );
    }

    /// ISO-2022-JP (or ISO-8859-3): ESC $ B, a lone ~, ESC $ B again.
    // Seed cc 3bf745c9326677f6, which = 3.
    #[test]
    fn iso_2022_jp_lone_byte_between_two_jis0208_escapes() {
        check_seed(&[27, 36, 66, 126, 27, 36, 66], 3);
    }

    /// EF BF BD is U+FFFD itself, well-formed: no error to count.
    // Seed cc 27a78f12e3a30c2d of `utf8_errors_match_the_decoder`, no cuts.
    #[test]
    fn utf8_replacement_character_is_no_error() {
        check_utf8_errors(&[0xEF, 0xBF, 0xBD], &[]).unwrap();
    }
}
