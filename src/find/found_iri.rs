//! A hit: one IRI found in the input, with its span, its IRI and the
//! verdict of the validator.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::chars::byte_search::find_byte;
use crate::charset::detect::Charset;
use crate::find::scanner::{Candidate, Kind};
use crate::iri::components::{Components, PackedComponents};
use crate::iri::parse::{ParseError, Rule, Syntax, parse_packed};
use crate::iri::parsed_iri::Iri;
use crate::iri::to_uri::{Mapped, UriOptions, to_uri};

pub(crate) use crate::find::warnings::Warning;
use crate::find::warnings::Warnings;
use crate::find::warnings::{LazyWarnings, bidi_next_to, iri_warnings};

/// One IRI found in the input.
///
/// `start()..end()` are byte offsets into the scanned bytes, `text()` is
/// exactly those bytes; `iri()` is the IRI they stand for: the text itself,
/// or with `http://` / `mailto:` added for `www.` and e-mail hits, or
/// without the white space of a `<…>` wrapped over lines.
///
/// ```
/// use iriscan::{Finder, Kind};
/// let text = "Voir www.exemple.fr/été ou écrire à marie@exemple.fr.";
/// let hits: Vec<_> = Finder::new().find_iter(text.as_bytes()).collect();
/// assert_eq!(hits[0].text(), "www.exemple.fr/été");
/// assert_eq!(hits[0].iri(), "http://www.exemple.fr/été");
/// assert_eq!(hits[1].kind(), Kind::Email);
/// assert_eq!(hits[1].iri(), "mailto:marie@exemple.fr");
/// assert_eq!(&text.as_bytes()[hits[1].start()..hits[1].end()], b"marie@exemple.fr");
/// assert!(hits.iter().all(|h| h.is_valid()));
/// ```
#[derive(Clone, Debug)]
pub struct Hit<'h> {
    start: usize,
    end: usize,
    kind: Kind,
    text: Cow<'h, str>,
    /// The IRI where it is not the text (`http://` or `mailto:` added,
    /// white space removed), made when first asked for: counting and
    /// filtering valid hits allocates nothing.
    made_iri: OnceLock<Box<str>>,
    /// A `<…>` IRI wrapped over lines, whose IRI is its text without the
    /// white space.
    wrapped: bool,
    leiri: bool,
    truncated: bool,
    /// A bidi formatting character right before or after the span.
    bidi_next: bool,
    /// The warnings computed from the IRI, when first asked for
    /// (docs/rules.md §7): never on the counting path. Two bytes, which
    /// fit beside the flags: a bigger hit costs a `memcpy` per hit.
    iri_warnings: LazyWarnings,
    line: u64,
    column: u64,
    /// The charset of the document, and how it was chosen.
    document: Charset,
    verdict: Verdict,
}

/// Hits are equal when found alike: the IRI and the warnings computed
/// from it follow from the text, made or not yet.
impl PartialEq for Hit<'_> {
    fn eq(&self, other: &Self) -> bool {
        let Hit {
            start,
            end,
            kind,
            text,
            made_iri: _,
            wrapped,
            leiri,
            truncated,
            bidi_next,
            iri_warnings: _,
            line,
            column,
            document,
            verdict,
        } = self;
        // A verdict proven is the verdict with the components it stands
        // for (a hit made from the full reading of the same candidate
        // has them).
        let same_verdict = match (verdict, &other.verdict) {
            (Verdict::Proven, Verdict::Proven) => true,
            (Verdict::Proven, _) | (_, Verdict::Proven) => {
                other.is_valid() && self.components() == other.components()
            }
            (mine, theirs) => mine == theirs,
        };
        same_verdict
            && (start, end, kind, text, wrapped, leiri, truncated, bidi_next)
                == (
                    &other.start,
                    &other.end,
                    &other.kind,
                    &other.text,
                    &other.wrapped,
                    &other.leiri,
                    &other.truncated,
                    &other.bidi_next,
                )
            && (line, column, document) == (&other.line, &other.column, &other.document)
    }
}

impl Eq for Hit<'_> {}

/// The verdict of the validator on a hit's IRI.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Valid, with the components the validation computed.
    Valid(PackedComponents),
    /// Valid, proven so by the scanner's plain reading
    /// ([`Candidate::proven_valid`]) and not validated: its components
    /// are found when asked for ([`plain_link_components`]), so that a
    /// hit only printed never looks for them.
    Proven,
    /// Valid, too long for packed components (split again when asked).
    ValidLong,
    Invalid(Box<ParseError>),
}

impl<'h> Hit<'h> {
    /// Builds the hit for a candidate of `hay` (whose span is valid UTF-8
    /// by construction of the scanner).
    #[inline]
    pub(crate) fn new(hay: &'h [u8], c: Candidate) -> Hit<'h> {
        // Made in place with the flag: setting it on a made hit costs a
        // copy of the hit (1% of `--count` on link-dense text).
        Hit::make(
            candidate_text(hay, &c),
            c,
            bidi_next_to(hay, c.start, c.end),
        )
    }

    /// Builds the hit for a candidate whose text is `text`.
    pub(crate) fn of_text(text: &'h str, c: Candidate) -> Hit<'h> {
        Hit::make(text, c, false)
    }

    /// [`Hit::of_text`], with whether a bidi override or isolate stands
    /// right next to the text.
    fn make(text: &'h str, c: Candidate, bidi_next: bool) -> Hit<'h> {
        let verdict = judge(text, &c);
        Hit {
            start: c.start,
            end: c.end,
            kind: c.kind(),
            text: Cow::Borrowed(text),
            made_iri: OnceLock::new(),
            wrapped: c.wrapped(),
            leiri: c.leiri(),
            truncated: c.truncated(),
            bidi_next,
            iri_warnings: LazyWarnings::new(),
            line: 1,
            column: c.start as u64 + 1,
            document: Charset::utf8_given(),
            verdict,
        }
    }

    /// Builds the hit for an HTML attribute value `text` (references
    /// decoded) that resolved to `iri`, validated as the text path
    /// validates (docs/rules.md §6.2); its offsets are `0..text.len()`.
    #[cfg(feature = "html")]
    pub(crate) fn of_reference(text: &'h str, iri: String) -> Hit<'h> {
        let verdict = match parse_packed(&iri, Rule::Iri, Syntax::Text) {
            Ok(packed) => packed.map_or(Verdict::ValidLong, Verdict::Valid),
            Err(e) => Verdict::Invalid(Box::new(e)),
        };
        // `[ ]` are Legacy Extended IRI characters outside the host only.
        let after_authority = iri.find("://").map_or(0, |at| {
            let from = at + 3;
            iri[from..]
                .find(['/', '?', '#'])
                .map_or(iri.len(), |n| from + n)
        });
        let leiri = iri.bytes().any(|b| matches!(b, b'{' | b'}' | b'^'))
            || iri.as_bytes()[after_authority..]
                .iter()
                .any(|b| matches!(b, b'[' | b']'));
        Hit {
            start: 0,
            end: text.len(),
            kind: Kind::Href,
            text: Cow::Borrowed(text),
            made_iri: OnceLock::from(iri.into_boxed_str()),
            wrapped: false,
            leiri,
            truncated: false,
            bidi_next: false,
            iri_warnings: LazyWarnings::new(),
            line: 1,
            column: 1,
            document: Charset::utf8_given(),
            verdict,
        }
    }

    /// Places the hit in the input: its offsets become `start..end` (for a
    /// transcoded input, offsets into the original bytes), on 1-based
    /// `line` at 1-based byte `column`.
    pub(crate) fn locate(mut self, start: usize, end: usize, line: u64, column: u64) -> Hit<'h> {
        self.start = start;
        self.end = end;
        self.line = line;
        self.column = column;
        self
    }

    /// Records whether a bidi override or isolate stands right next to the
    /// hit (for hits made from a span, which knows its neighbours).
    pub(crate) fn next_to_bidi(mut self, yes: bool) -> Hit<'h> {
        self.bidi_next = yes;
        self
    }

    /// Records the charset of the document the hit was found in.
    pub(crate) fn in_document(mut self, charset: Charset) -> Hit<'h> {
        self.document = charset;
        self
    }

    /// The charset of the document the hit was found in (UTF-8 for the
    /// slice path, which reads UTF-8).
    pub fn document_encoding(&self) -> &'static Encoding {
        self.document.encoding()
    }

    /// The charset of the document the hit was found in and how it was
    /// chosen ([`CharsetSource`](crate::CharsetSource)): a tool can say
    /// which hits come from a guessed charset. The slice path reads UTF-8
    /// because its caller chose it: `UTF-8`, given.
    ///
    /// ```
    /// use iriscan::{CharsetSource, Finder, Hit, Searcher};
    /// let latin1 = b"caf\xe9 cr\xe8me br\xfbl\xe9e: http://example.fr/x \xe6";
    /// let mut charsets = Vec::new();
    /// Searcher::new(Finder::new())
    ///     .scan_reader(&latin1[..], |hit: &Hit| {
    ///         charsets.push(hit.document_charset());
    ///         Ok(true)
    ///     })
    ///     .unwrap();
    /// assert_eq!(charsets[0].source(), CharsetSource::Detector);
    /// ```
    pub fn document_charset(&self) -> Charset {
        self.document
    }

    /// The 1-based line number of the hit's first byte (lines end at `\n`).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The 1-based byte column of the hit's first byte in its line, counted
    /// in bytes of the input as given (as ripgrep's `--column`).
    pub fn column(&self) -> u64 {
        self.column
    }

    /// Byte offset of the hit's first byte in the input.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just after the hit's last byte in the input.
    pub fn end(&self) -> usize {
        self.end
    }

    /// `start()..end()`.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// How the hit was found.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The matched text, as found (it may span line breaks inside `<…>`).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The absolute IRI the text stands for.
    pub fn iri(&self) -> &str {
        if self.kind == Kind::Iri && !self.wrapped {
            return &self.text;
        }
        self.made_iri
            .get_or_init(|| iri_of(&self.text, self.kind, self.wrapped).into())
    }

    /// Calls `f` with [`iri`](Hit::iri), without keeping it: when the IRI
    /// is not the text (`http://` or `mailto:` added, white space
    /// removed) and was not asked for yet, it is built on the stack (on
    /// the heap beyond 1 KiB) for the call. Printing hits one by one
    /// allocates nothing this way; [`iri`](Hit::iri) makes the IRI once
    /// and keeps it, for a caller that asks again.
    ///
    /// ```
    /// use iriscan::Finder;
    /// let hit = Finder::new().find_iter(b"see www.example.org/a".as_slice()).next().unwrap();
    /// let mut out = Vec::new();
    /// hit.with_iri(|iri| out.extend_from_slice(iri.as_bytes()));
    /// assert_eq!(out, b"http://www.example.org/a");
    /// assert_eq!(hit.with_iri(str::len), hit.iri().len());
    /// ```
    #[inline]
    pub fn with_iri<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        if self.kind == Kind::Iri && !self.wrapped {
            return f(&self.text);
        }
        match self.made_iri.get() {
            Some(made) => f(made),
            // Its IRI is made with the hit.
            None if self.kind == Kind::Href => f(self.iri()),
            None => with_iri_of(&self.text, self.kind, self.wrapped, f),
        }
    }

    /// Whether the IRI is valid (RFC 3987bis §2.2 `IRI`, accepting the
    /// Legacy Extended IRI characters of docs/rules.md §1.2).
    pub fn is_valid(&self) -> bool {
        !matches!(self.verdict, Verdict::Invalid(_))
    }

    /// Why the IRI is not valid.
    pub fn error(&self) -> Option<&ParseError> {
        match &self.verdict {
            Verdict::Invalid(e) => Some(e),
            _ => None,
        }
    }

    /// The byte offset in the *input* of the validation error: the error's
    /// position in `iri()` mapped back through the added prefix, `%25` and
    /// removed white space.
    pub fn error_offset(&self) -> Option<usize> {
        let e = self.error()?;
        Some(self.start + self.text_offset(e.position()))
    }

    /// The components of the IRI (byte ranges into `iri()`), if valid: those
    /// the validation computed, not parsed again.
    pub fn components(&self) -> Option<Components> {
        match &self.verdict {
            Verdict::Valid(packed) => Some(packed.unpack(self.iri().len())),
            Verdict::Proven => Some(
                match plain_link_components(&self.text, self.kind, self.wrapped) {
                    Some(Some(packed)) => packed.unpack(self.iri().len()),
                    // (None is proven that is not of that shape; the split
                    // of a valid IRI is its components all the same.)
                    _ => Components::split(self.iri()),
                },
            ),
            Verdict::ValidLong => Some(Components::split(self.iri())),
            Verdict::Invalid(_) => None,
        }
    }

    /// The IRI with its components, if valid (not parsed again).
    ///
    /// ```
    /// use iriscan::Finder;
    /// let hit = Finder::new().find_iter("mail bob@例え.jp".as_bytes()).next().unwrap();
    /// let iri = hit.parsed_iri().unwrap();
    /// assert_eq!((iri.scheme(), iri.path()), (Some("mailto"), "bob@例え.jp"));
    /// ```
    pub fn parsed_iri(&self) -> Option<Iri<'_>> {
        Some(Iri::from_parts(self.iri(), self.components()?))
    }

    /// The warnings of this hit (see [`Warning`], docs/rules.md §7), in
    /// [`Warning::ALL`] order. Those computed from the IRI (all but
    /// `leiri`, `truncated` and a bidi character next to the hit) are
    /// computed on the first call and kept.
    ///
    /// ```
    /// use iriscan::{Finder, Warning};
    /// let text = "Log in at http://www.bank.example@evil.example/login";
    /// let hit = Finder::new().find_iter(text.as_bytes()).next().unwrap();
    /// assert_eq!(hit.warnings().collect::<Vec<_>>(), [Warning::Userinfo]);
    /// assert_eq!(
    ///     hit.warnings().next().unwrap().to_string(),
    ///     "userinfo: the userinfo before @ looks like a host name"
    /// );
    /// ```
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.warning_set().iter()
    }

    /// The warnings of this hit as a set (see [`Hit::warnings`]): for a
    /// filter, `hit.warning_set().intersects(deny)`.
    pub fn warning_set(&self) -> Warnings {
        let mut set = self.iri_warnings.get_or_init(|| {
            let iri = self.iri();
            match self.components() {
                Some(c) => iri_warnings(iri, &c),
                None => iri_warnings(iri, &Components::split(iri)),
            }
        });
        for (on, w) in [
            (self.leiri, Warning::Leiri),
            (self.truncated, Warning::Truncated),
            (self.bidi_next, Warning::Bidi),
        ] {
            if on {
                set.insert(w);
            }
        }
        set
    }

    /// Whether the hit has the warning `w`: for `leiri` and `truncated` a
    /// field read; the others are computed on the first call (see
    /// [`Hit::warnings`]).
    pub fn has_warning(&self, w: Warning) -> bool {
        match w {
            Warning::Leiri => self.leiri,
            Warning::Truncated => self.truncated,
            Warning::Bidi if self.bidi_next => true,
            _ => self.warning_set().contains(w),
        }
    }

    /// The URI of this hit's IRI (RFC 3987bis §3): UTF-8 percent-encoding,
    /// IDNA or percent-encoded host; for http(s) the query in the charset
    /// `opts` names, or else in the document's charset (§3.5: a Shift_JIS
    /// document's query is mapped in Shift_JIS); `{ } ^ [ ]`
    /// percent-encoded (§6.2). IDNA failures come back as warnings on the
    /// result.
    ///
    /// ```
    /// use iriscan::{Finder, UriOptions};
    /// let hit = Finder::new().find_iter("→ http://例え.テスト/パス?q={x}".as_bytes()).next().unwrap();
    /// let mapped = hit.to_uri(&UriOptions::new());
    /// assert_eq!(mapped.uri, "http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?q=%7Bx%7D");
    /// assert!(mapped.warnings.is_empty());
    /// ```
    pub fn to_uri(&self, opts: &UriOptions) -> Mapped<'_> {
        let document = self.document.encoding();
        if opts.document_encoding().is_none() && document != encoding_rs::UTF_8 {
            to_uri(self.iri(), &opts.query_encoding(document))
        } else {
            to_uri(self.iri(), opts)
        }
    }

    /// Whether the candidate was cut at the maximum length.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// A copy that owns its text, to keep beyond the input's lifetime.
    pub fn into_owned(self) -> Hit<'static> {
        Hit {
            text: Cow::Owned(self.text.into_owned()),
            ..self
        }
    }

    /// Maps a byte offset in `iri()` to a byte offset in `text()`.
    fn text_offset(&self, iri_pos: usize) -> usize {
        let prefix = match self.kind {
            Kind::Iri => 0,
            Kind::Www => "http://".len(),
            Kind::Email => "mailto:".len(),
            // A resolved reference: its IRI is not its text plus a prefix;
            // positions are mapped as far as the text goes.
            Kind::Href => 0,
        };
        let mut want = iri_pos.saturating_sub(prefix);
        let mut t = 0;
        for (i, ch) in self.text.char_indices() {
            t = i;
            if ch.is_ascii_whitespace() && self.kind != Kind::Email {
                continue;
            }
            let width = if self.kind == Kind::Email && ch == '%' {
                3
            } else {
                ch.len_utf8()
            };
            if want < width {
                return i;
            }
            want -= width;
            t = i + ch.len_utf8();
        }
        t
    }
}

/// The text of candidate `c` of `hay`: its span, which is valid UTF-8 by
/// construction of the scanner.
#[inline]
pub(crate) fn candidate_text<'h>(hay: &'h [u8], c: &Candidate) -> &'h str {
    let span = &hay[c.start..c.end];
    debug_assert!(
        std::str::from_utf8(span).is_ok(),
        "the scanner spanned bytes that are not UTF-8: {span:?}"
    );
    // SAFETY: a candidate's span is valid UTF-8 by construction of the
    // scanner, which is the only maker of `Candidate`s: it starts at a
    // trigger it read as ASCII (a scheme's first letter, `www.`) or at
    // the start of an e-mail local part whose bytes it read backward one
    // ASCII byte or one `decode_before`-checked character at a time; it
    // then extends the span forward only over ASCII bytes and characters
    // that `decode_at` / `decode_two_byte` checked in full, and every
    // end it settles on (trimming, the maximum length, a cut host) is
    // the end of such a character, never inside one (a cut at the
    // maximum length steps back over continuation bytes). So `span` is
    // a run of whole, checked UTF-8 characters. The debug assertion
    // above holds every test to it, the property test
    // `hits_of_arbitrary_bytes_are_utf8` (tests/embedding.rs) among
    // them, on bytes that are not UTF-8. This skips a second UTF-8
    // check of every hit (8% of the time on link-dense text).
    unsafe { std::str::from_utf8_unchecked(span) }
}

/// The verdict on a candidate whose text is `text`, as a [`Hit`] keeps
/// it: for a candidate the plain reading proved valid
/// ([`Candidate::proven_valid`]) that has an authority (`://`, or a
/// `www.` link: [`plain_link_authority`]), valid without validating it,
/// its components left to be found by searching its text for the
/// delimiters when asked for ([`plain_link_components`]); for any other
/// (an e-mail address, a `mailto:` link, which a count takes as proven),
/// the validator's ([`validate`]). A debug assertion holds the first to
/// the second.
#[inline(always)]
fn judge(text: &str, c: &Candidate) -> Verdict {
    if c.proven_valid()
        && plain_link_shape(c.kind(), c.wrapped())
        && plain_link_authority(text.as_bytes(), c.kind()).is_some()
    {
        debug_assert_eq!(
            plain_link_components(text, c.kind(), c.wrapped()).map(Ok),
            Some(validate(text, c)),
            "proven valid: {text:?}"
        );
        return Verdict::Proven;
    }
    let verdict = validate(text, c);
    // A proven e-mail address (its components are the validator's) is
    // held to the proof here too, not only when counted.
    debug_assert!(
        !c.proven_valid() || verdict.is_ok(),
        "proven valid, rejected: {text:?}"
    );
    match verdict {
        Ok(packed) => packed.map_or(Verdict::ValidLong, Verdict::Valid),
        Err(e) => Verdict::Invalid(Box::new(e)),
    }
}

/// The validator's verdict on a candidate whose text is `text`: its IRI
/// ([`with_candidate_iri`]) against RFC 3987bis `IRI` with the Legacy
/// Extended IRI characters of docs/rules.md §1.2, and the components the
/// validation found.
#[inline(always)]
fn validate(text: &str, c: &Candidate) -> Result<Option<PackedComponents>, ParseError> {
    with_candidate_iri(text, c, |iri| parse_packed(iri, Rule::Iri, Syntax::Text))
}

/// The components of the IRI of a candidate the plain reading proved
/// valid ([`Candidate::proven_valid`]), without validating it: a DNS
/// scheme, `://` and a host without userinfo or port, then nothing or
/// `/`, `?` or `#` and what follows ([`PackedComponents::of_plain_link`]).
/// The IRI of a `www.` link is `http://` and its text; that of a link
/// with a scheme, its text. `None` for a candidate not of that shape
/// (none proven valid is).
#[inline]
fn plain_link_components(
    text: &str,
    kind: Kind,
    wrapped: bool,
) -> Option<Option<PackedComponents>> {
    if !plain_link_shape(kind, wrapped) {
        return None;
    }
    let (scheme_len, rest) = plain_link_authority(text.as_bytes(), kind)?;
    Some(PackedComponents::of_plain_link(scheme_len, rest))
}

/// The length of the scheme of a plain link's IRI and its text from the
/// authority on: after `://` for a link with a scheme, the whole of a
/// `www.` link (its IRI is `http://` and its text). `None` for a link
/// without an authority (`mailto:…`, which the plain reading may prove
/// valid too: its components are the validator's).
#[inline]
fn plain_link_authority(b: &[u8], kind: Kind) -> Option<(usize, &[u8])> {
    match kind {
        Kind::Www => Some(("http".len(), b)),
        Kind::Iri => {
            let colon = find_byte(b':', b)?;
            let rest = b.get(colon..)?.strip_prefix(b"://")?;
            Some((colon, rest))
        }
        _ => None,
    }
}

/// Whether a candidate of `kind` may be a plain link: one with a scheme
/// or a `www.` one, not wrapped over lines.
#[inline]
fn plain_link_shape(kind: Kind, wrapped: bool) -> bool {
    matches!(kind, Kind::Iri | Kind::Www) && !wrapped
}

/// Whether the hit candidate `c` of `hay` would make is valid
/// ([`Hit::is_valid`]), without making it: what counting needs (no
/// place, no allocation).
#[inline]
pub(crate) fn candidate_is_valid(hay: &[u8], c: &Candidate) -> bool {
    if c.proven_valid() {
        // The scanner proved it as it read it (a plain link or an e-mail
        // address, see `Candidate::proven_valid`); the validator is held
        // to agree.
        debug_assert!(
            validates(hay, c),
            "proven valid, rejected: {:?}",
            candidate_text(hay, c)
        );
        return true;
    }
    validates(hay, c)
}

/// The validator's judgement of a candidate, out of line: the IRI it
/// builds on the stack would otherwise make every caller's frame large,
/// the count of a proven candidate too.
#[inline(never)]
fn validates(hay: &[u8], c: &Candidate) -> bool {
    validate(candidate_text(hay, c), c).is_ok()
}

/// The IRI a candidate's text stands for: the text itself, without the
/// white space of a `<…>` wrapped over lines, or with `http://` /
/// `mailto:` added.
pub(crate) fn candidate_iri<'t>(text: &'t str, c: &Candidate) -> Cow<'t, str> {
    iri_of(text, c.kind(), c.wrapped())
}

/// [`candidate_iri`] from the kind and wrapping of the candidate.
fn iri_of(text: &str, kind: Kind, wrapped: bool) -> Cow<'_, str> {
    match kind {
        Kind::Iri if wrapped => Cow::Owned(
            text.chars()
                .filter(|ch| !ch.is_ascii_whitespace())
                .collect(),
        ),
        Kind::Iri => Cow::Borrowed(text),
        Kind::Www => Cow::Owned(prefixed(
            "http://",
            text,
            text.split(|ch: char| ch.is_ascii_whitespace()),
            "",
        )),
        // RFC 6068 §2: `%` in an address is written `%25` in a mailto IRI.
        Kind::Email => Cow::Owned(prefixed("mailto:", text, text.split('%'), "%25")),
        // Its IRI is made when the hit is (`Hit::of_reference`).
        Kind::Href => Cow::Borrowed(text),
    }
}

/// Calls `f` with the IRI of a candidate whose text is `text`, built on the
/// stack when it is not the text itself (up to [`STACK_IRI`] bytes; longer
/// ones on the heap): validating a hit allocates nothing.
#[inline]
pub(crate) fn with_candidate_iri<R>(text: &str, c: &Candidate, f: impl FnOnce(&str) -> R) -> R {
    with_iri_of(text, c.kind(), c.wrapped(), f)
}

/// [`with_candidate_iri`] from the kind and wrapping of the candidate.
#[inline]
fn with_iri_of<R>(text: &str, kind: Kind, wrapped: bool, f: impl FnOnce(&str) -> R) -> R {
    // A candidate not wrapped over lines has no white space (it ends an
    // IRI); an address without `%` needs none escaped.
    debug_assert!(
        wrapped
            || !matches!(kind, Kind::Iri | Kind::Www)
            || !text.bytes().any(|b| b.is_ascii_whitespace()),
        "white space in a candidate not wrapped: {text:?}"
    );
    match kind {
        Kind::Iri if !wrapped => return f(text),
        Kind::Www if !wrapped => return with_prefixed("http://", text, f),
        Kind::Email if find_byte(b'%', text.as_bytes()).is_none() => {
            return with_prefixed("mailto:", text, f);
        }
        _ => {}
    }
    with_iri_pieces(text, kind, wrapped, f)
}

/// Calls `f` with `prefix` and `text` joined, on the stack when short (a
/// link's IRI, mostly): [`with_iri_of`]'s common case, without a
/// kilobyte of stack to clear.
#[inline]
fn with_prefixed<R>(prefix: &str, text: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; SHORT_IRI];
    let len = prefix.len() + text.len();
    let Some(made) = buf.get_mut(..len) else {
        return f(&[prefix, text].concat());
    };
    made[..prefix.len()].copy_from_slice(prefix.as_bytes());
    made[prefix.len()..].copy_from_slice(text.as_bytes());
    debug_assert!(std::str::from_utf8(made).is_ok());
    // SAFETY: `made` is the two strings `prefix` and `text` one after the
    // other: UTF-8. The debug assertion above checks it.
    f(unsafe { std::str::from_utf8_unchecked(made) })
}

/// The longest IRI [`with_prefixed`] builds on the stack.
const SHORT_IRI: usize = 256;

/// [`with_iri_of`] for the IRIs made of pieces: white space removed, `%`
/// escaped.
fn with_iri_pieces<R>(text: &str, kind: Kind, wrapped: bool, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; STACK_IRI];
    let mut len = 0;
    let mut push = |piece: &[u8]| {
        let end = len + piece.len();
        let fits = end <= STACK_IRI;
        if fits {
            buf[len..end].copy_from_slice(piece);
        }
        len = end;
        fits
    };
    // Split at ASCII bytes, which are whole characters: every piece is
    // UTF-8.
    let pieces = || text.as_bytes().split(u8::is_ascii_whitespace);
    let fits = match kind {
        Kind::Iri | Kind::Href => pieces().all(&mut push),
        Kind::Www => push(b"http://") && pieces().all(&mut push),
        Kind::Email => {
            push(b"mailto:")
                && text
                    .as_bytes()
                    .split(|&b| b == b'%')
                    .enumerate()
                    .all(|(i, part)| (i == 0 || push(b"%25")) && push(part))
        }
    };
    if !fits {
        return f(&iri_of(text, kind, wrapped));
    }
    let made = &buf[..len];
    debug_assert!(std::str::from_utf8(made).is_ok());
    // SAFETY: `made` is a concatenation of ASCII prefixes, `%25`, and
    // pieces of the UTF-8 `text` split at ASCII bytes (each of which is a
    // whole character, so every piece is whole characters): UTF-8. The
    // debug assertion above checks it; the unit test
    // `stack_iri_is_candidate_iri` holds it equal to `candidate_iri`.
    f(unsafe { std::str::from_utf8_unchecked(made) })
}

/// The longest candidate IRI [`with_candidate_iri`] builds on the stack.
const STACK_IRI: usize = 1024;

/// `prefix`, then the `parts` of `text` joined by `sep`, in one allocation (a hit's
/// IRI: `http://` + a `www.` text without its line breaks, `mailto:` + an
/// address with `%` escaped).
fn prefixed<'a>(
    prefix: &str,
    text: &'a str,
    parts: impl Iterator<Item = &'a str>,
    sep: &str,
) -> String {
    let mut out = String::with_capacity(prefix.len() + text.len());
    out.push_str(prefix);
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::scanner::{Options, ScanState, Scanner};

    /// For every candidate of `hay` the plain reading proved valid, the
    /// components found without validating ([`plain_link_components`])
    /// against the validator's; returns how many were proven.
    fn proven_components_agree(hay: &[u8]) -> usize {
        let mut sc = Scanner::new(hay, Options::default());
        let mut proven = 0;
        sc.scan(&mut ScanState::default(), hay.len(), &mut |c| {
            if c.proven_valid() {
                proven += 1;
                let text = candidate_text(hay, &c);
                let validated = validate(text, &c).expect("proven valid");
                // (An e-mail address is proven valid for a count; a hit
                // of one takes the validator's components.)
                let searched = plain_link_components(text, c.kind(), c.wrapped());
                // (Nor has one without an authority, `mailto:…`.)
                if c.kind() == Kind::Email || (c.kind() == Kind::Iri && !text.contains("://")) {
                    assert_eq!(searched, None, "{text:?}");
                } else {
                    assert_eq!(searched, Some(validated), "{text:?}");
                }
                // And what a hit gives is that, equal to the hit the
                // validator's verdict makes.
                let hit = Hit::new(hay, c);
                let validated = validated.expect("short");
                let iri_len = hit.iri().len();
                assert_eq!(
                    hit.components(),
                    Some(validated.unpack(iri_len)),
                    "{text:?}"
                );
                let unproven = c.with_proven_valid(false);
                assert_eq!(hit, Hit::new(hay, unproven), "{text:?}");
            }
            true
        });
        proven
    }

    #[test]
    fn proven_links_have_the_validators_components() {
        let text = "see http://example.com, http://example.com/ and \
            https://example.org/a/b?c=d#e or www.example.net?q=1#f, \
            www.example.net#top (http://example.org/wiki/Rust_(language)) \
            http://example.com/caf%C3%A9?q=%2f?x#y?z https://ja.wikipedia.org/wiki/東京 \
            http://ex%41mple.com/ \
            ftp://files.example.com/pub/?# http://a.b?#, mailto:info@example.org, \
            <mailto:a@b.example?subject=Hi%20there> urn:isbn:0451450523 (mailto:ü@例え.jp)";
        assert_eq!(proven_components_agree(text.as_bytes()), 13);
    }

    /// Every input of the corpus, scanned as bytes.
    #[test]
    fn proven_links_of_the_corpus_have_the_validators_components() {
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("corpus") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    files(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let mut paths = Vec::new();
        files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
            &mut paths,
        );
        let proven: usize = paths
            .iter()
            .map(|p| proven_components_agree(&std::fs::read(p).expect("read")))
            .sum();
        assert!(proven > 1000, "{proven}");
    }

    /// Pieces of links: delimiters, characters the plain reading proves
    /// and those it leaves to the validator.
    const PIECES: &[&str] = &[
        "a", "b9", "-", ".", "_", "/", "//", "?", "#", "=", "&", "%41", "%", "(", ")", "é", "東",
        "\u{e000}", "€", ".com", " ", ",", "~", "@", ":", "!", "'", "\u{94d}", "ß", "٣",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            cases: 2000,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Links of a scheme or `www.`, a host, then anything: what is
        /// proven has the validator's components.
        #[test]
        fn proven_links_of_generated_text_have_the_validators_components(
            links in proptest::collection::vec(
                (
                    proptest::sample::select(&["http://", "https://", "ftp://", "www.", " www."][..]),
                    proptest::sample::select(
                        &["example.com", "a.b", "xn--d1a.example", "ex-ample.org", "пример.рф", "例え.テスト", "दिल्ली.भारत"][..],
                    ),
                    proptest::collection::vec(proptest::sample::select(PIECES), 0..14),
                ),
                1..5,
            ),
        ) {
            let text: String = links
                .iter()
                .map(|(trigger, host, rest)| format!("{trigger}{host}{} ", rest.concat()))
                .collect();
            proven_components_agree(text.as_bytes());
        }
    }

    fn candidate(text: &str, kind: Kind, wrapped: bool) -> Candidate {
        Candidate::new(0, text.len(), kind).with_wrapped(wrapped)
    }

    #[test]
    fn stack_iri_is_candidate_iri() {
        let long = format!("www.example.com/{}", "é".repeat(600));
        let cases = [
            ("http://a.b/c", Kind::Iri, false),
            ("<http://a.b/c\n  /d>", Kind::Iri, true),
            ("http://a.b/c\r\n\t/d", Kind::Iri, true),
            ("www.例え.jp/パス", Kind::Www, false),
            ("www.example.com\n/a", Kind::Www, true),
            ("www.example.com/a", Kind::Www, false),
            ("bob@example.org", Kind::Email, false),
            ("bob%x%%@example.org", Kind::Email, false),
            ("%@b.c", Kind::Email, false),
            (long.as_str(), Kind::Www, false),
        ];
        for (text, kind, wrapped) in cases {
            let c = candidate(text, kind, wrapped);
            let on_stack = with_candidate_iri(text, &c, str::to_string);
            assert_eq!(on_stack, candidate_iri(text, &c), "{text:?}");
        }
        // The long ones did not fit on the stack.
        assert!(long.len() + 7 > STACK_IRI);
        let wrapped_long = format!("<{long}\n/a>");
        let text = &wrapped_long[1..wrapped_long.len() - 1];
        let c = candidate(text, Kind::Www, true);
        let on_stack = with_candidate_iri(text, &c, str::to_string);
        assert_eq!(on_stack, candidate_iri(text, &c));
        assert_eq!(on_stack, format!("http://{long}/a"));
    }
}
