//! Which character encoding an input is in (docs/rules.md §3).
//!
//! # Overview
//!
//! Input bytes are UTF-8 unless the input says otherwise. [`detect`] looks at
//! a prefix of the input and decides, in this order of precedence (the
//! first rule that applies wins):
//!
//! 1. **An explicit label from the caller** (`--encoding LABEL`): not done
//!    by [`detect`] but by [`charset_for_label`] + [`Charset::given`], which
//!    accept every label of the WHATWG Encoding Standard.
//! 2. **A byte order mark**: UTF-8 (`EF BB BF`), UTF-16BE (`FE FF`) or
//!    UTF-16LE (`FF FE`). The BOM is not part of the text; its length is
//!    kept in [`Charset::bom_len`] so that offsets still count it.
//! 3. **UTF-8, when the non-ASCII bytes are UTF-8**: the prefix holds at
//!    least one complete multi-byte sequence, and is valid UTF-8 (an
//!    incomplete sequence at the end of a prefix that is not the whole
//!    input is not held against it) or mostly so — a few broken sequences
//!    or lines among many good ones. This beats a declaration: valid UTF-8
//!    under `<meta charset=EUC-JP>` is a file converted but not
//!    relabelled, and [`Charset::overridden_declaration`] names what the
//!    document declared, for the tool to report.
//! 4. **A declaration in the first bytes** of the document, found in
//!    ASCII bytes: an XML declaration at the very start
//!    (`<?xml version="1.0" encoding="EUC-JP"?>`) or an HTML
//!    `<meta charset=…>` / `<meta http-equiv="Content-Type" content="…;
//!    charset=…">` within the first [`META_WINDOW`] bytes (the HTML
//!    prescan limit), or a MIME header line `Content-Type: …; charset=…`
//!    within the first [`MIME_WINDOW`] bytes (mail headers, with their
//!    `Received:` chains, are often longer than 1024 bytes).
//!    Then UTF-8 for ASCII, and for a whole input that is valid UTF-8 but
//!    for its last character, cut short (a truncated download).
//! 5. **The detector**: [`chardetng`] guesses among the legacy encodings.
//!
//! The chosen [`Charset`] says which rule chose it ([`CharsetSource`]); its
//! `Display` form (`Shift_JIS (declared)`) is what the tool reports.
//!
//! # Declarations we trust, and how
//!
//! A declaration is text, so it can only be read where the bytes are
//! ASCII-compatible — which is why it is searched for in the raw bytes, not
//! in a decoding. The HTML standard's rules for a `<meta>` found that way
//! apply to all three forms:
//!
//! * a declared UTF-16 (`utf-16`, `utf-16le`, `utf-16be`) is impossible in
//!   bytes where ASCII text was just read as single bytes, so it means
//!   UTF-8 (HTML §13.2.3.2, "prescan a byte stream");
//! * `x-user-defined` means windows-1252 (same section);
//! * a label naming the WHATWG *replacement* encoding (`iso-2022-kr`,
//!   `hz-gb-2312`, …) is ignored, and detection goes on with the next rule:
//!   the replacement decoder would turn the whole document into one U+FFFD,
//!   which helps nobody looking for links;
//! * ISO-2022-JP is not ASCII-compatible in the Encoding Standard's sense
//!   (it has escape sequences), but it *starts* in ASCII and every Japanese
//!   mail declares it in an ASCII header, so its declarations are trusted,
//!   as in the HTML prescan.
//!
//! # Detection
//!
//! chardetng is a browser's detector; its two switches are set for a tool
//! that reads files and mail, not web pages:
//!
//! * `Iso2022JpDetection::Allow`: browsers deny it because ISO-2022-JP can
//!   smuggle script through escape sequences; we run no script, and
//!   undeclared ISO-2022-JP mail exists.
//! * `guess(None, Utf8Detection::Allow)`: the top-level domain the bytes
//!   came from is unknown (`None` is chardetng's generic `.com`
//!   behaviour). UTF-8 is allowed because the reason browsers deny it — web
//!   authors must not come to rely on UTF-8 sniffing — does not apply to
//!   files; in practice we only ask the detector once the bytes have failed
//!   our own UTF-8 check, so UTF-8 can only come back for ASCII input.
//!
//! One refinement of rule 4: a prefix of pure ASCII that contains an ESC
//! byte may be undeclared ISO-2022-JP (which is 7-bit), so the detector is
//! asked; it answers ISO-2022-JP only if the escape sequences are valid
//! ISO-2022-JP ones (ANSI colour codes in logs are not), else the input is
//! UTF-8 as rule 4 says.
//!
//! The detector sees at most [`DETECTION_PREFIX_LEN`] bytes (64 KiB): more
//! rarely changes its mind and costs time on every input. The decision is
//! final for the whole input: bytes further on that do not fit the chosen
//! encoding become U+FFFD (and are counted, see
//! [`Transcoder::replacements`](crate::Transcoder::replacements)).
//!
//! ```
//! use iriscan::{detect, CharsetSource};
//! let mail = b"Content-Type: text/plain; charset=ISO-2022-JP\r\n\r\n\x1b$B$3$s$K$A$O\x1b(B";
//! let charset = detect(mail, true);
//! assert_eq!(charset.name(), "ISO-2022-JP");
//! assert_eq!(charset.source(), CharsetSource::Declaration);
//! assert_eq!(charset.to_string(), "ISO-2022-JP (declared)");
//!
//! let utf16 = b"\xff\xfeh\x00i\x00";
//! assert_eq!(detect(utf16, true).to_string(), "UTF-16LE (BOM)");
//! assert_eq!(detect(utf16, true).bom_len(), 2);
//! ```

use std::fmt;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::Encoding;

/// How many bytes of the input [`detect`] wants to see (64 KiB): the
/// detector rarely changes its mind after that many bytes.
pub const DETECTION_PREFIX_LEN: usize = 64 * 1024;

/// How far into the input an HTML `<meta>` or an XML declaration is looked
/// for: the HTML standard's prescan limit (1024 bytes).
pub const META_WINDOW: usize = 1024;

/// How far into the input a MIME `Content-Type:` header line is looked for
/// (8 KiB): mail headers routinely exceed 1024 bytes.
pub const MIME_WINDOW: usize = 8 * 1024;

/// Which rule chose a [`Charset`], in the order of precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CharsetSource {
    /// The caller named the encoding (`--encoding LABEL`).
    Label,
    /// A byte order mark at the start of the input.
    Bom,
    /// A declaration in the document: MIME `Content-Type`, HTML `<meta>` or
    /// XML `encoding=`.
    Declaration,
    /// The bytes are valid UTF-8.
    Utf8,
    /// Guessed by the chardetng detector.
    Detector,
}

impl fmt::Display for CharsetSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CharsetSource::Label => "given",
            CharsetSource::Bom => "BOM",
            CharsetSource::Declaration => "declared",
            CharsetSource::Utf8 => "validated",
            CharsetSource::Detector => "detected",
        })
    }
}

/// The character encoding of an input, how it was chosen, and the length of
/// the byte order mark that precedes the text.
///
/// `Display` gives the encoding's WHATWG name and the rule that chose it:
/// `Shift_JIS (declared)`, `UTF-16LE (BOM)`, `windows-1251 (detected)`,
/// `UTF-8 (validated)`, `EUC-KR (given)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charset {
    encoding: &'static Encoding,
    source: CharsetSource,
    bom_len: usize,
    overridden: Option<&'static Encoding>,
}

impl Charset {
    /// The charset the caller named, for an input that starts with
    /// `prefix`. A BOM *of that encoding* at the start of `prefix` is
    /// recognised (and will be skipped by the decoder), as encoding_rs's
    /// `decode_with_bom_removal` does; a BOM of another encoding is text,
    /// because the caller's label takes precedence (docs/rules.md §3).
    ///
    /// ```
    /// use iriscan::{charset_for_label, Charset, CharsetSource};
    /// let sjis = charset_for_label("sjis").unwrap();
    /// let c = Charset::given(sjis, b"abc");
    /// assert_eq!((c.name(), c.source(), c.bom_len()), ("Shift_JIS", CharsetSource::Label, 0));
    /// let utf8 = charset_for_label("utf8").unwrap();
    /// assert_eq!(Charset::given(utf8, b"\xef\xbb\xbfabc").bom_len(), 3);
    /// ```
    pub fn given(encoding: &'static Encoding, prefix: &[u8]) -> Charset {
        let bom_len = match Encoding::for_bom(prefix) {
            Some((bom_encoding, len)) if bom_encoding == encoding => len,
            _ => 0,
        };
        Charset {
            encoding,
            source: CharsetSource::Label,
            bom_len,
            overridden: None,
        }
    }

    /// `encoding`, chosen by the rule `source`, with no byte order mark
    /// and no overridden declaration: what a structured format decides for
    /// a piece of a document (a mail part declared `charset=Shift_JIS`, or
    /// valid UTF-8).
    #[cfg(any(feature = "mail", feature = "warc"))]
    pub(crate) fn chosen(encoding: &'static Encoding, source: CharsetSource) -> Charset {
        Charset {
            encoding,
            source,
            bom_len: 0,
            overridden: None,
        }
    }

    /// The same charset, noting that the bytes overrode a declaration of
    /// `declared` (see [`Charset::overridden_declaration`]).
    #[cfg(any(feature = "mail", feature = "warc"))]
    pub(crate) fn overriding(mut self, declared: &'static Encoding) -> Charset {
        self.overridden = Some(declared);
        self
    }

    /// UTF-8 as the caller's choice: the charset of the hits of the slice
    /// path ([`Finder::find_iter`](crate::Finder::find_iter)), whose input
    /// is UTF-8 by the caller's say.
    pub(crate) fn utf8_given() -> Charset {
        Charset {
            encoding: encoding_rs::UTF_8,
            source: CharsetSource::Label,
            bom_len: 0,
            overridden: None,
        }
    }

    /// The charset a declaration in the document named, when the bytes
    /// said otherwise: valid UTF-8 under a `<meta charset=EUC-JP>` (a file
    /// converted but not relabelled) is read as UTF-8, and this is
    /// `Some(EUC_JP)`. A tool should tell its user.
    ///
    /// ```
    /// use iriscan::{detect, CharsetSource};
    /// let doc = "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<p>東京 https://例え.jp/アルバム</p>";
    /// let c = detect(doc.as_bytes(), true);
    /// assert_eq!((c.name(), c.source()), ("UTF-8", CharsetSource::Utf8));
    /// assert_eq!(c.overridden_declaration(), Some(encoding_rs::EUC_JP));
    /// ```
    pub fn overridden_declaration(&self) -> Option<&'static Encoding> {
        self.overridden
    }

    /// Whether the charset is a guess (the detector's): the tool should
    /// say so, since a wrong guess garbles every non-ASCII character.
    pub fn is_guess(&self) -> bool {
        self.source == CharsetSource::Detector
    }

    /// The charset of an input that starts with `prefix` (its first
    /// [`DETECTION_PREFIX_LEN`] bytes, or all of it when `is_whole_input`):
    /// the `given` encoding if the caller named one ([`Charset::given`]),
    /// else the rules of [`detect`]. Every reader of the library chooses
    /// its charset here.
    ///
    /// ```
    /// use iriscan::{Charset, CharsetSource};
    /// let sjis = encoding_rs::SHIFT_JIS;
    /// assert_eq!(Charset::for_input(b"abc", true, Some(sjis)).source(), CharsetSource::Label);
    /// assert_eq!(Charset::for_input(b"abc", true, None).source(), CharsetSource::Utf8);
    /// ```
    pub fn for_input(
        prefix: &[u8],
        is_whole_input: bool,
        given: Option<&'static Encoding>,
    ) -> Charset {
        match given {
            Some(e) => Charset::given(e, prefix),
            None => detect(prefix, is_whole_input),
        }
    }

    /// The encoding (an encoding_rs static; its `name()` is the WHATWG
    /// name).
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The WHATWG name of the encoding, e.g. `Shift_JIS`, `windows-1252`.
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// Which rule chose the encoding.
    pub fn source(&self) -> CharsetSource {
        self.source
    }

    /// The length of the byte order mark at the start of the input (0, 2 or
    /// 3). The decoder skips it; offsets into the input still count it.
    pub fn bom_len(&self) -> usize {
        self.bom_len
    }

    /// Whether the input is UTF-8, so that it can be scanned as it is (see
    /// [`Transcoder::is_identity`](crate::Transcoder::is_identity)).
    pub fn is_utf8(&self) -> bool {
        self.encoding == encoding_rs::UTF_8
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.encoding.name(), self.source)
    }
}

/// An encoding label that cannot be used.
///
/// Says which label and why: it is not a label of the WHATWG Encoding
/// Standard, or it names the standard's *replacement* encoding (ISO-2022-KR,
/// HZ-GB-2312, ISO-2022-CN, …), which decodes every input to a single
/// U+FFFD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharsetError {
    kind: CharsetErrorKind,
    label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CharsetErrorKind {
    Unknown,
    Replacement,
}

impl CharsetError {
    /// The label as the caller gave it.
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl fmt::Display for CharsetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CharsetErrorKind::Unknown => write!(
                f,
                "unknown encoding label {:?}: expected a label of the WHATWG Encoding \
                 Standard, such as \"utf-8\", \"shift_jis\", \"gb18030\" or \"windows-1252\"",
                self.label
            ),
            CharsetErrorKind::Replacement => write!(
                f,
                "encoding label {:?} names the WHATWG replacement encoding: this \
                 encoding cannot be decoded safely and would turn the input into a \
                 single U+FFFD",
                self.label
            ),
        }
    }
}

impl std::error::Error for CharsetError {}

/// The encoding for a label of the WHATWG Encoding Standard (`utf8`,
/// `sjis`, `Shift_JIS`, `latin1`, `cp1251`, `koi8-r`, `gb2312`, …; case and
/// surrounding ASCII white space do not matter, as the standard says).
///
/// Errors name the label: an unknown label, or one that names the
/// replacement encoding (see [`CharsetError`]).
///
/// ```
/// use iriscan::charset_for_label;
/// assert_eq!(charset_for_label(" Latin1 ").unwrap().name(), "windows-1252");
/// assert_eq!(charset_for_label("x-sjis").unwrap().name(), "Shift_JIS");
/// let err = charset_for_label("klingon").unwrap_err();
/// assert_eq!(err.label(), "klingon");
/// assert!(err.to_string().contains("unknown encoding label \"klingon\""));
/// assert!(charset_for_label("iso-2022-kr").is_err());
/// ```
pub fn charset_for_label(label: &str) -> Result<&'static Encoding, CharsetError> {
    match Encoding::for_label(label.as_bytes()) {
        Some(e) if e == encoding_rs::REPLACEMENT => Err(CharsetError {
            kind: CharsetErrorKind::Replacement,
            label: label.to_owned(),
        }),
        Some(e) => Ok(e),
        None => Err(CharsetError {
            kind: CharsetErrorKind::Unknown,
            label: label.to_owned(),
        }),
    }
}

/// Chooses the charset of an input from its first bytes (see the module
/// documentation for the rules and their order).
///
/// `prefix` is the start of the input — ideally [`DETECTION_PREFIX_LEN`]
/// bytes or all of it if it is shorter; `is_whole_input` says that nothing
/// follows `prefix`. It matters in two places: an incomplete UTF-8 sequence
/// at the end of a prefix that is *not* the whole input is no evidence
/// against UTF-8 (the rest of the sequence is in the next bytes), while at
/// the end of the whole input it is a file cut short — UTF-8 all the same,
/// with its last character replaced — unless the bytes say otherwise
/// before it; and the detector is told whether the stream has ended.
///
/// ```
/// use iriscan::{detect, CharsetSource};
/// // "日本" in UTF-8, cut in the middle of the second character:
/// let cut = &"日本".as_bytes()[..4];
/// assert_eq!(detect(cut, false).source(), CharsetSource::Utf8);
/// assert_eq!(detect(cut, true).source(), CharsetSource::Utf8);
/// // Legacy bytes before the cut are the detector's.
/// assert_eq!(detect(b"caf\xe9 cr\xe8me \xe6", true).source(), CharsetSource::Detector);
///
/// let html = b"<html><head><meta charset=\"windows-1251\"></head>";
/// assert_eq!(detect(html, true).to_string(), "windows-1251 (declared)");
/// ```
pub fn detect(prefix: &[u8], is_whole_input: bool) -> Charset {
    let charset = |encoding, source| Charset {
        encoding,
        source,
        bom_len: 0,
        overridden: None,
    };
    if let Some((encoding, bom_len)) = Encoding::for_bom(prefix) {
        return Charset {
            bom_len,
            ..charset(encoding, CharsetSource::Bom)
        };
    }
    let declared = declared_encoding(prefix);
    // UTF-8 wins over a declaration when the non-ASCII bytes are UTF-8:
    // legacy text almost never forms valid multi-byte sequences by chance,
    // so a declaration over them is stale (a converted file).
    if has_utf8_evidence(prefix)
        && (is_utf8_prefix(prefix, is_whole_input) || is_mostly_utf8(prefix, is_whole_input))
    {
        return Charset {
            overridden: declared.filter(|&e| e != encoding_rs::UTF_8),
            ..charset(encoding_rs::UTF_8, CharsetSource::Utf8)
        };
    }
    if let Some(encoding) = declared {
        return charset(encoding, CharsetSource::Declaration);
    }
    if is_utf8_prefix(prefix, is_whole_input) {
        // 7-bit ISO-2022-JP is valid UTF-8; see the module docs.
        let ascii_with_escape = Encoding::ascii_valid_up_to(prefix) == prefix.len()
            && memchr::memchr(0x1B, prefix).is_some();
        if ascii_with_escape && guess(prefix, is_whole_input) == encoding_rs::ISO_2022_JP {
            return charset(encoding_rs::ISO_2022_JP, CharsetSource::Detector);
        }
        return charset(encoding_rs::UTF_8, CharsetSource::Utf8);
    }
    if is_mostly_utf8(prefix, is_whole_input) || is_cut_utf8(prefix, is_whole_input) {
        return charset(encoding_rs::UTF_8, CharsetSource::Utf8);
    }
    charset(guess(prefix, is_whole_input), CharsetSource::Detector)
}

/// Whether `prefix` holds at least one complete, valid multi-byte UTF-8
/// sequence: the evidence without which valid UTF-8 is only ASCII, which
/// every declared charset reads alike.
fn has_utf8_evidence(prefix: &[u8]) -> bool {
    prefix.utf8_chunks().any(|chunk| !chunk.valid().is_ascii())
}

/// Whether a whole input is valid UTF-8 but for its last character, cut
/// short (a file truncated by a download or a `head -c`): UTF-8 with one
/// replacement, not a legacy charset that would garble the rest.
fn is_cut_utf8(prefix: &[u8], is_whole_input: bool) -> bool {
    is_whole_input && is_utf8_prefix(prefix, false)
}

/// Whether a prefix that is not valid UTF-8 is still UTF-8 with a few
/// broken bytes (a log with one bad line): its non-ASCII bytes form valid
/// multi-byte sequences far more often than not. Text in a legacy charset
/// almost never does (Dürst 1997, cited by RFC 3987bis §4: "the octet
/// patterns of UTF-8 are highly regular"), so decoding it as a legacy
/// charset would only turn every good character into mojibake; as UTF-8,
/// the broken bytes become U+FFFD (counted as replacements).
fn is_mostly_utf8(prefix: &[u8], is_whole_input: bool) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    for chunk in prefix.utf8_chunks() {
        good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if !chunk.invalid().is_empty() {
            bad += 1;
        }
    }
    (good >= 8 && good >= 16 * bad) || mostly_utf8_lines(prefix, is_whole_input)
}

/// Whether most lines that hold non-ASCII bytes are valid UTF-8: a line of
/// junk bytes (a binary blob in a log, a corrupted record) then counts
/// once, however many bytes it has, and the thousands of good lines around
/// it decide. In a legacy charset nearly every such line is invalid UTF-8.
/// A prefix cut inside its last character does not count that line
/// against it.
fn mostly_utf8_lines(prefix: &[u8], is_whole_input: bool) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    let mut lines = prefix.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        if line.is_ascii() {
            continue;
        }
        let last = lines.peek().is_none();
        let valid = match std::str::from_utf8(line) {
            Ok(_) => true,
            Err(e) => last && !is_whole_input && e.error_len().is_none(),
        };
        if valid {
            good += 1;
        } else {
            bad += 1;
        }
    }
    good >= 8 && good >= 8 * bad
}

/// chardetng's guess, with the switches explained in the module docs.
fn guess(prefix: &[u8], is_whole_input: bool) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
    detector.feed(prefix, is_whole_input);
    detector.guess(None, Utf8Detection::Allow)
}

/// Whether `prefix` is valid UTF-8, where an incomplete sequence at the end
/// of a prefix that is not the whole input counts as valid.
fn is_utf8_prefix(prefix: &[u8], is_whole_input: bool) -> bool {
    let valid = Encoding::utf8_valid_up_to(prefix);
    if valid == prefix.len() {
        return true;
    }
    // `error_len() == None` means "unexpected end of input": the rest
    // could be a valid sequence cut short.
    !is_whole_input && std::str::from_utf8(&prefix[valid..]).is_err_and(|e| e.error_len().is_none())
}

/// The encoding declared in the first bytes of the input, after the HTML
/// standard's corrections (module docs), or `None`.
fn declared_encoding(prefix: &[u8]) -> Option<&'static Encoding> {
    let meta_window = &prefix[..prefix.len().min(META_WINDOW)];
    let mime_window = &prefix[..prefix.len().min(MIME_WINDOW)];
    // An XML declaration can only be at the very start (XML 1.0 §2.8).
    let label = xml_declaration(meta_window)
        .or_else(|| {
            // The earlier of a <meta> and a Content-Type line wins: in an
            // HTML mail, the part's header precedes its HTML.
            match (meta_declaration(meta_window), mime_declaration(mime_window)) {
                (Some(m), Some(h)) => Some(if m.0 < h.0 { m } else { h }),
                (m, h) => m.or(h),
            }
        })
        .map(|(_, label)| label)?;
    let encoding = Encoding::for_label(label)?;
    if encoding == encoding_rs::REPLACEMENT {
        None
    } else if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        Some(encoding_rs::UTF_8)
    } else if encoding == encoding_rs::X_USER_DEFINED {
        Some(encoding_rs::WINDOWS_1252)
    } else {
        Some(encoding)
    }
}

/// HTML's "ASCII whitespace" (TAB, LF, FF, CR, SPACE).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn starts_with_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.len() >= needle.len() && haystack[..needle.len()].eq_ignore_ascii_case(needle)
}

fn skip_spaces(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && is_space(s[i]) {
        i += 1;
    }
    i
}

/// `<?xml version="1.0" encoding="LABEL"?>` at the start of `s`: the
/// position and the label.
fn xml_declaration(s: &[u8]) -> Option<(usize, &[u8])> {
    if !s.starts_with(b"<?xml") || !s.get(5).is_some_and(|&b| is_space(b)) {
        return None;
    }
    let end = memchr::memmem::find(s, b"?>")?;
    let decl = &s[..end];
    // The pseudo-attributes are `name = "value"` or `name = 'value'`;
    // `encoding` cannot occur inside the version's value.
    let mut i = memchr::memmem::find(decl, b"encoding")? + b"encoding".len();
    i = skip_spaces(decl, i);
    if decl.get(i) != Some(&b'=') {
        return None;
    }
    i = skip_spaces(decl, i + 1);
    let quote = *decl.get(i).filter(|&&q| q == b'"' || q == b'\'')?;
    let value_start = i + 1;
    let len = memchr::memchr(quote, &decl[value_start..])?;
    Some((0, &decl[value_start..value_start + len]))
}

/// The HTML standard's "algorithm for extracting a character encoding from
/// a meta element", applied to a `content` attribute or a MIME
/// `Content-Type` value: the label after the first `charset=`.
fn charset_parameter(s: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    loop {
        let found = find_ignore_case(&s[from..], b"charset")?;
        let mut i = skip_spaces(s, from + found + b"charset".len());
        if s.get(i) != Some(&b'=') {
            // Not `charset=`; look for the next "charset" after this one.
            from = i;
            continue;
        }
        i = skip_spaces(s, i + 1);
        return match s.get(i) {
            Some(&q) if q == b'"' || q == b'\'' => {
                let len = memchr::memchr(q, &s[i + 1..])?;
                Some(&s[i + 1..i + 1 + len])
            }
            Some(_) => {
                let len = s[i..]
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(s.len() - i);
                Some(&s[i..i + len])
            }
            None => None,
        };
    }
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    // Needles are short lower-case ASCII; a window comparison is linear
    // enough for the declaration windows (≤ 8 KiB × 12 bytes).
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The first `Content-Type:` header line (at the start of a line, with
/// folded continuation lines) that carries a `charset` parameter: its
/// position and the label.
fn mime_declaration(s: &[u8]) -> Option<(usize, &[u8])> {
    let mut line_start = 0;
    while line_start < s.len() {
        let line_end = memchr::memchr(b'\n', &s[line_start..]).map_or(s.len(), |i| line_start + i);
        if starts_with_ignore_case(&s[line_start..], b"content-type") {
            let i = skip_header_spaces(s, line_start + b"content-type".len());
            if s.get(i) == Some(&b':') {
                // The value runs on over continuation lines (RFC 5322
                // §2.2.3 folding: the next line starts with a space or tab).
                let mut value_end = line_end;
                while value_end < s.len()
                    && s.get(value_end + 1)
                        .is_some_and(|&b| b == b' ' || b == b'\t')
                {
                    value_end = memchr::memchr(b'\n', &s[value_end + 1..])
                        .map_or(s.len(), |j| value_end + 1 + j);
                }
                if let Some(label) = charset_parameter(&s[i + 1..value_end]) {
                    return Some((line_start, label));
                }
            }
        }
        line_start = line_end + 1;
    }
    None
}

fn skip_header_spaces(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && (s[i] == b' ' || s[i] == b'\t') {
        i += 1;
    }
    i
}

/// The HTML standard's prescan (§13.2.3.2, "prescan a byte stream to
/// determine its encoding"), restricted to what it returns: the position
/// of the first `<meta>` that declares an encoding, and its label.
/// Comments, other tags (with their attributes, so that a `>` inside a
/// quoted value does not end them) and `<!…>`, `</…>`, `<?…>` constructs
/// are skipped as the standard says.
fn meta_declaration(s: &[u8]) -> Option<(usize, &[u8])> {
    let mut pos = 0;
    while pos < s.len() {
        let rest = &s[pos..];
        if rest.starts_with(b"<!--") {
            // The `-->` may share its dashes with the `<!--`.
            pos = match memchr::memmem::find(&s[pos + 2..], b"-->") {
                Some(i) => pos + 2 + i + 3,
                None => return None,
            };
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            let tag_start = pos;
            pos += 5;
            let mut seen: Vec<&[u8]> = Vec::new();
            let mut got_pragma = false;
            // None: no charset yet; Some(true): from `content`, needs
            // http-equiv; Some(false): from `charset`.
            let mut need_pragma: Option<bool> = None;
            let mut charset: Option<&[u8]> = None;
            while let Some((name, value, next)) = attribute(s, pos) {
                pos = next;
                if seen.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                    continue;
                }
                seen.push(name);
                if name.eq_ignore_ascii_case(b"http-equiv") {
                    got_pragma |= value.eq_ignore_ascii_case(b"content-type");
                } else if name.eq_ignore_ascii_case(b"content") {
                    if charset.is_none()
                        && let Some(label) = charset_parameter(value)
                    {
                        charset = Some(label);
                        need_pragma = Some(true);
                    }
                } else if name.eq_ignore_ascii_case(b"charset") {
                    charset = Some(value);
                    need_pragma = Some(false);
                }
            }
            match (need_pragma, charset) {
                (Some(true), Some(label)) if got_pragma => return Some((tag_start, label)),
                (Some(false), Some(label)) => return Some((tag_start, label)),
                _ => {}
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(|b| b.is_ascii_alphabetic())))
        {
            // A tag: skip its name, then its attributes.
            pos += 1;
            while pos < s.len() && !is_space(s[pos]) && s[pos] != b'>' {
                pos += 1;
            }
            while let Some((_, _, next)) = attribute(s, pos) {
                pos = next;
            }
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos = match memchr::memchr(b'>', rest) {
                Some(i) => pos + i + 1,
                None => return None,
            };
        } else {
            pos += 1;
        }
    }
    None
}

/// The HTML standard's "get an attribute" (prescan): the attribute that
/// starts at or after `pos`, as (name, value, position after it), or
/// `None` at the `>` that ends the tag (or the end of the window). Names
/// are compared case-insensitively by the caller.
fn attribute(s: &[u8], mut pos: usize) -> Option<(&[u8], &[u8], usize)> {
    while pos < s.len() && (is_space(s[pos]) || s[pos] == b'/') {
        pos += 1;
    }
    if pos >= s.len() || s[pos] == b'>' {
        return None;
    }
    let name_start = pos;
    // The name: up to `=` (not as its first byte), space, `/` or `>`.
    loop {
        if pos >= s.len() {
            return None;
        }
        let b = s[pos];
        if (b == b'=' && pos > name_start) || is_space(b) || b == b'/' || b == b'>' {
            break;
        }
        pos += 1;
    }
    let name = &s[name_start..pos];
    pos = skip_spaces(s, pos);
    if s.get(pos) != Some(&b'=') {
        // An attribute without a value.
        return Some((name, &s[pos..pos], pos));
    }
    pos = skip_spaces(s, pos + 1);
    match s.get(pos) {
        None => None,
        Some(&q) if q == b'"' || q == b'\'' => {
            let len = memchr::memchr(q, &s[pos + 1..])?;
            Some((name, &s[pos + 1..pos + 1 + len], pos + 1 + len + 1))
        }
        Some(b'>') => Some((name, &s[pos..pos], pos)),
        Some(_) => {
            let start = pos;
            while pos < s.len() && !is_space(s[pos]) && s[pos] != b'>' {
                pos += 1;
            }
            if pos >= s.len() {
                return None;
            }
            Some((name, &s[start..pos], pos))
        }
    }
}

#[cfg(test)]
mod mostly_utf8_tests {
    use super::*;

    #[test]
    fn utf8_with_a_few_broken_bytes_stays_utf8() {
        let mut text = "東京の天気は晴れです。http://例え.jp/\n"
            .repeat(4)
            .into_bytes();
        text.extend_from_slice(b"bad \xFF byte\n");
        assert_eq!(detect(&text, true).encoding(), encoding_rs::UTF_8);
        // A legacy document is not mistaken for it.
        let ja = "東京の天気は晴れです。".repeat(20);
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&ja);
        assert_eq!(detect(&sjis, true).encoding(), encoding_rs::SHIFT_JIS);
        let fr = "Très élevé, déjà vu à côté ".repeat(20);
        let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(&fr);
        assert_eq!(detect(&latin, true).encoding(), encoding_rs::WINDOWS_1252);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(s: &str) -> Option<&'static str> {
        declared_encoding(s.as_bytes()).map(|e| e.name())
    }

    #[test]
    fn meta_charset_forms() {
        assert_eq!(declared("<meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(declared("<META CHARSET='Big5'/>"), Some("Big5"));
        assert_eq!(declared("<meta charset = \"koi8-r\" >"), Some("KOI8-R"));
        assert_eq!(
            declared(r#"<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">"#),
            Some("EUC-KR")
        );
        // content= without http-equiv is not a declaration (HTML prescan).
        assert_eq!(
            declared(r#"<meta content="text/html; charset=euc-kr">"#),
            None
        );
        // http-equiv after content still counts.
        assert_eq!(
            declared(r#"<meta content="text/html;charset=gbk" http-equiv=content-type>"#),
            Some("GBK")
        );
        // charset= in content, quoted value.
        assert_eq!(
            declared(r#"<meta http-equiv=Content-Type content='text/html; charset="shift_jis"'>"#),
            Some("Shift_JIS")
        );
        // The first of duplicated attributes wins.
        assert_eq!(declared("<meta charset=gbk charset=big5>"), Some("GBK"));
    }

    #[test]
    fn meta_prescan_skips_comments_and_other_tags() {
        assert_eq!(
            declared("<!-- <meta charset=big5> --><meta charset=gbk>"),
            Some("GBK")
        );
        assert_eq!(declared("<!--><meta charset=big5>"), Some("Big5"));
        assert_eq!(
            declared("<p title='<meta charset=big5>'><meta charset=gbk>"),
            Some("GBK")
        );
        assert_eq!(
            declared("<!DOCTYPE html><?php x ?></x><meta charset=gbk>"),
            Some("GBK")
        );
        assert_eq!(declared("<metas charset=big5>"), None);
        assert_eq!(declared("<meta name=x>"), None);
        // Unterminated constructs end the prescan without a panic.
        for s in [
            "<!-- <meta",
            "<meta charset=",
            "<meta charset='gbk",
            "<a href='x",
            "<!x",
        ] {
            assert_eq!(declared(s), None, "{s}");
        }
    }

    #[test]
    fn xml_declaration_forms() {
        assert_eq!(
            declared("<?xml version=\"1.0\" encoding=\"EUC-JP\"?><a/>"),
            Some("EUC-JP")
        );
        assert_eq!(
            declared("<?xml version='1.0' encoding = 'iso-8859-2' ?>"),
            Some("ISO-8859-2")
        );
        // Only at the very start.
        assert_eq!(
            declared(" <?xml version=\"1.0\" encoding=\"EUC-JP\"?>"),
            None
        );
        assert_eq!(declared("<?xml version=\"1.0\"?>"), None);
        assert_eq!(declared("<?xml encoding=\"EUC-JP\""), None);
    }

    #[test]
    fn mime_header_forms() {
        assert_eq!(
            declared(
                "From: a@b.c\r\nContent-Type: text/plain; charset=\"ISO-2022-JP\"\r\n\r\nbody"
            ),
            Some("ISO-2022-JP")
        );
        assert_eq!(
            declared("content-type:text/plain;charset=koi8-r\n"),
            Some("KOI8-R")
        );
        // A folded header.
        assert_eq!(
            declared("Content-Type: text/plain;\r\n\tformat=flowed;\r\n charset=windows-1250\r\n"),
            Some("windows-1250")
        );
        // Not at the start of a line.
        assert_eq!(
            declared("X-Old-Content-Type: text/plain; charset=big5\n"),
            None
        );
        // A multipart header without charset, then the part's header.
        assert_eq!(
            declared(
                "Content-Type: multipart/alternative; boundary=xx\n\n--xx\nContent-Type: text/plain; charset=big5\n"
            ),
            Some("Big5")
        );
        // `charsetx=` is skipped, the next `charset=` is taken.
        assert_eq!(
            declared("Content-Type: a/b; charsetx; charset=gbk\n"),
            Some("GBK")
        );
    }

    #[test]
    fn earliest_declaration_wins() {
        assert_eq!(
            declared("Content-Type: text/html; charset=big5\n\n<meta charset=gbk>"),
            Some("Big5")
        );
        assert_eq!(
            declared("<meta charset=gbk>\nContent-Type: text/html; charset=big5\n"),
            Some("GBK")
        );
    }

    #[test]
    fn html_corrections_of_declared_labels() {
        assert_eq!(declared("<meta charset=utf-16>"), Some("UTF-8"));
        assert_eq!(declared("<meta charset=utf-16be>"), Some("UTF-8"));
        assert_eq!(
            declared("<meta charset=x-user-defined>"),
            Some("windows-1252")
        );
        assert_eq!(declared("<meta charset=iso-2022-kr>"), None);
        assert_eq!(declared("<meta charset=nonsense>"), None);
    }

    #[test]
    fn declaration_windows() {
        let pad = " ".repeat(META_WINDOW);
        assert_eq!(declared(&format!("{pad}<meta charset=gbk>")), None);
        let pad = "X-Pad: x\n".repeat(200); // 1800 bytes of headers
        assert_eq!(
            declared(&format!("{pad}Content-Type: text/plain; charset=gbk\n")),
            Some("GBK")
        );
        let pad = "X-Pad: x\n".repeat(MIME_WINDOW / 9 + 1);
        assert_eq!(
            declared(&format!("{pad}Content-Type: text/plain; charset=gbk\n")),
            None
        );
    }

    #[test]
    fn utf8_prefix_rules() {
        assert!(is_utf8_prefix(b"", true));
        assert!(is_utf8_prefix("é".as_bytes(), true));
        assert!(is_utf8_prefix(b"abc\xe6\x97", false));
        assert!(!is_utf8_prefix(b"abc\xe6\x97", true));
        // An invalid byte is invalid whether or not more follows.
        assert!(!is_utf8_prefix(b"abc\xff", false));
        assert!(!is_utf8_prefix(b"\xe6\x97abc", false));
    }
}
