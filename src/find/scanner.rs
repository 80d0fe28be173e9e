//! The scanner: finds IRI candidates in UTF-8 bytes (docs/rules.md §1).
//!
//! # How it works
//!
//! Like linkify, we do not look at every byte. `memchr` finds the trigger
//! bytes — `:` (a scheme ends here), `@` (an e-mail address) and `.` (after
//! `www`) — and from each trigger we scan *back* for the start and *forward*
//! for the end, decoding a code point only at a non-ASCII lead byte.
//! Triggers are taken left to right; a candidate found consumes its span, and
//! triggers inside it are skipped ("not inside an IRI already found").
//!
//! # Two readings
//!
//! Most links are plain: a host of letters of any script, digits, `-`,
//! `.`, `_` and `%` without user or port, then a path of IRI characters
//! and letters, up to white space or a quote. The plain reading
//! (`plain_link`) reads such a link in one pass, with its host (ASCII or
//! IDN) checked from bit masks, and gives the
//! candidate the full reading (`candidate_in`) would give — proven valid,
//! most of the time, so that a count need not validate it. Anything it
//! does not model — another bracket or a quote, a LEIRI character, a port,
//! a user, white space inside `<…>`, the maximum length, a host that fails,
//! prose glued to a host — makes it give up, and the full reading reads
//! the candidate again, keeping the bookkeeping that brackets, wrapped
//! lines and failed hosts need. A debug assertion holds the plain
//! reading's answer to the full reading's, and its proof to the
//! validator, in every test.
//!
//! An e-mail address is proven valid too, unless it holds a character of
//! four bytes: its IRI is `mailto:` and one path segment, and what the
//! scanner takes in an address (ASCII letters, digits, `. _ + - %`, and
//! the letters, marks and digits of two and three bytes that the plain
//! reading steps over) the grammar allows in a path.
//!
//! # Linear time
//!
//! Every backward scan is bounded (a scheme or an e-mail local part is at
//! most 64 bytes), every forward scan by the maximum IRI length. A forward
//! scan that produces a candidate consumes what it read. The scans that can
//! fail after reading far are the host checks; for `://` candidates the
//! authority ends at the next `/`, so two of them never read the same bytes
//! twice (where a `[` or `{` left open in the authority could still cut the
//! candidate before its failed host, the path is read only when that cut
//! candidate would pass: `cut_in_authority_fails`), and for `www.`
//! candidates we remember how far a failed host check already looked
//! (`www_dead_until`), so that `www.ąwww.ąwww.…` with a bad last label
//! costs one scan, not one per `www` (robinst/linkify#115 is the cautionary
//! tale). That memo does not hold where the host holds a character a later
//! reading could read otherwise (a bracket, a sub-delimiter, a quote);
//! there, runs are read once by other means:
//! - `WwwRun`: a run a `www.` host is read over without stopping
//!   (`www.a[www.a[…`, `www.a.b(…`, as long as the maximum length or not)
//!   is read once, and the candidates in it that fail whatever follows
//!   are rejected unread;
//! - `BracketRun`: a run's unclosed brackets, which cut the later
//!   candidates in it, for paths, `www.` hosts and authorities alike;
//! - `www_prefix_final`: a `www.` host with too few dots before its port
//!   or a character no host holds is rejected there;
//! - `www_comma_final`: a `www.` host cut at a `,` is not read on.
//!
//! Runs of `www.` hosts holding letters of three bytes (where prose glued
//! to a label may cut a host anywhere) still cost the maximum length a
//! trigger, linear only through that bound. The plain reading
//! reads nothing the full reading would not (it goes on only over
//! characters the full reading goes on over too, and stops at a host that
//! fails, before the path), so a candidate costs at most twice what it
//! did. The `work` counter lets tests prove it.
//!
//! Triggers that come every few bytes and are rejected at a glance are
//! chained without the scan's bookkeeping: `:` and `@` in `skip_rejected`
//! (`x:x:…`, `a@a@…`, a DNS authority dead from its first byte), `www.`
//! in `chain_www` (`w.w.w.…`). Where colons rejected for the word before
//! them repeat with the bytes around them (`ab:ab:…`), the whole
//! repetition is passed at once ([`RepeatedColons`]).
//!
//! # Resumable
//!
//! The scan takes its triggers from a range of the haystack and keeps its
//! state (where the last candidate ended, whether we are skipping the rest
//! of a truncated one) in [`ScanState`], so the streaming and parallel
//! drivers can feed it windows of a larger input. A trigger's outcome
//! depends only on the bytes from [`LOOKBEHIND`] before it to
//! `max_len` + [`LOOKAHEAD`] after it, which is what those drivers keep in
//! the window.

use std::cell::Cell;
use std::sync::LazyLock;

use crate::chars::ascii::{self, ASCII, ascii_is};
use crate::chars::byte_mask::ByteMasks;
use crate::chars::byte_search::{EitherByte, either_mask_of_64, find_byte, rfind_byte};
use crate::chars::utf8::{
    decode_at, decode_before, decode_two_byte, is_continuation, sequence_len,
};
use crate::find::host_plausibility::{
    MAX_HOST_LEN, check_dns_host, check_dns_host_masked, glued_prose_at, is_dotless_non_ascii,
    is_spaceless_script, last_non_dns_char,
};
use crate::find::prose_chars::{
    Class, bracket_key, classify, is_trimmed_non_ascii, is_word_char_non_ascii, word_len_at,
};
use crate::find::repeated_colons::RepeatedColons;
use crate::find::schemes::{
    is_registered, is_registered_word, needs_slashes, word_needs_slashes, word_of,
};
use crate::iri::percent::is_triplet;

/// A scheme, or an e-mail local part, longer than this is not one: the run
/// of characters before the `:` or `@` is prose (RFC 5321 limits a local
/// part to 64 octets; no registered scheme comes near).
pub(crate) const MAX_RUN: usize = 64;

/// How far before a trigger the scan may read: the longest scheme or local
/// part (the run before the `:` or `@`, [`MAX_RUN`] + 1 bytes at most),
/// the two characters before it or a `<URL:` prefix, and for a run that
/// starts with the `n`, `r` or `t` of a `\n` escape the backslashes
/// before it ([`after_escape`] counts up to [`MAX_RUN`] of them: an odd
/// count makes an escape). The streaming drivers keep this much before
/// the scan position when they roll.
pub(crate) const LOOKBEHIND: usize = 2 * MAX_RUN + 16;

/// How far beyond the maximum IRI length after a trigger the scan may read
/// (the character that ends a candidate, a footnote mark).
pub(crate) const LOOKAHEAD: usize = 16;

/// The default maximum length of an IRI, in bytes. A longer candidate is
/// reported truncated to this length.
pub const DEFAULT_MAX_LEN: usize = 8 * 1024;

/// The smallest maximum length we accept (a longest e-mail address fits).
pub const MIN_MAX_LEN: usize = 512;

/// What kind of text a candidate was found as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An IRI with its scheme (`https://…`, `urn:…`, `mailto:…`).
    Iri,
    /// A scheme-less `www.` host; the IRI is `http://` + the text.
    Www,
    /// An e-mail address; the IRI is `mailto:` + the text.
    Email,
    /// The value of an HTML attribute that holds a link (`href`, `src`,
    /// …); the text is the value with its character references decoded,
    /// the IRI that value resolved against the document's base.
    Href,
}

impl Kind {
    /// The name used in JSON output: `iri`, `www`, `email` or `href`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Iri => "iri",
            Kind::Www => "www",
            Kind::Email => "email",
            Kind::Href => "href",
        }
    }
}

pub(crate) use crate::find::candidate::Candidate;

/// Scanner options (the public face is [`crate::Finder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    pub www: bool,
    pub email: bool,
    pub max_len: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            www: true,
            email: true,
            max_len: DEFAULT_MAX_LEN,
        }
    }
}

/// What a scan carries from one window of the input to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ScanState {
    /// Next position to look for a trigger at.
    pub pos: usize,
    /// End of the last candidate: nothing may start before it.
    pub last_end: usize,
    /// The last candidate was truncated: skip to the end of its run.
    pub skipping: bool,
    /// `www.` triggers before this position fail (see the module docs).
    www_dead_until: usize,
    /// ... as long as their host would start at or before this position.
    www_dead_from: usize,
    /// The last run read for `www.` candidates, and those it condemns.
    www_run: WwwRun,
    /// Every `www.` trigger from the scan position on and before this one
    /// fails by one of the two memos (see `www_skip_to`).
    www_skip: usize,
    /// The last look for the byte that ends a `www.` authority after a
    /// `,` ([`Scanner::www_comma_final`]): `(from, z, found)`, no such
    /// byte in `from..z`, and `hay[z]` is one if `found` (else the look
    /// stopped there, at a maximum length).
    comma_probe: (usize, usize, bool),
    /// Bytes examined by backward and forward scans (for tests of linearity).
    pub work: u64,
}

impl ScanState {
    #[cfg(feature = "parallel")]
    /// A state for scanning from `pos` with no candidate before it (a
    /// piece of `parallel_scan` lowers `last_end` further, so that its
    /// backward scans read the bytes before its cut).
    pub fn at(pos: usize) -> ScanState {
        ScanState {
            pos,
            last_end: pos,
            ..ScanState::default()
        }
    }

    /// Moves every position back by `by` bytes, for a window whose first
    /// `by` bytes were dropped (everything before `pos - LOOKBEHIND`).
    pub fn shift(&mut self, by: usize) {
        self.pos -= by;
        self.last_end = self.last_end.saturating_sub(by);
        if self.www_dead_from < by || self.www_dead_until < by {
            // The memo concerns dropped bytes; forget it (it only saves work).
            self.www_dead_until = 0;
            self.www_dead_from = 0;
        } else {
            self.www_dead_until -= by;
            self.www_dead_from -= by;
        }
        self.www_run.shift(by);
        self.www_skip = self.www_skip.saturating_sub(by);
        // (What the look found holds of the bytes that stay.)
        let (f, z, found) = self.comma_probe;
        self.comma_probe = (f.saturating_sub(by), z.saturating_sub(by), found && z >= by);
    }

    /// Notes that every `www.` trigger (the `.`) from the scan position on
    /// and before `to` fails, so that the scan need not find them.
    fn www_skip_to(&mut self, to: usize) {
        self.www_skip = self.www_skip.max(to);
    }
}

/// The delimiter context of a candidate: the character just before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    Plain,
    /// After `<` or `<URL:`: ends at `>`, may wrap over lines.
    Angle,
    /// After an opening quote whose closer is an IRI character (`'` … `'`,
    /// `‘` … `’`): ends at that closer.
    Quote(char),
}

/// Why a forward scan stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// At `/`, `?` or `#` (authority scans only).
    Delimiter,
    /// At a character that ends the candidate.
    End,
    /// At the maximum length.
    Limit,
    /// At a byte of the host of a `www.` candidate that is rejected
    /// whatever follows ([`Scanner::www_prefix_final`]).
    Rejected,
    /// At the `,` that cuts the host of a `www.` candidate whatever
    /// follows ([`Scanner::www_comma_final`]).
    Comma,
}

/// What a candidate is being read as.
#[derive(Clone, Copy, Debug)]
struct Spec {
    start: usize,
    /// After `scheme:`, `scheme://`, or at `www.`.
    body: usize,
    /// An authority follows `body`.
    authority: bool,
    /// The host must be a plausible DNS name.
    dns: bool,
    kind: Kind,
    ctx: Context,
}

/// What [`Scanner::www_past_limit`] tells of a `www.` candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PastLimit {
    /// The full reading rejects it.
    Rejected,
    /// The full reading cuts its authority at `.1` (prose glued to its
    /// host) and the candidate at the bracket `.0`, left open before it.
    CutAt(usize, usize),
}

/// The state of one forward scan.
struct Forward<'s> {
    /// Unclosed openers inside the candidate (bracket keys).
    stack: &'s mut Vec<char>,
    /// `'` characters inside the candidate (docs/rules.md §1.3).
    quotes: usize,
    /// The first Legacy Extended IRI character read (`{ } ^ [ ]` outside
    /// the host, a second `#`), `usize::MAX` if none: the candidate is a
    /// LEIRI when it ends after it.
    first_leiri: usize,
    /// A `#` was read outside the authority: a second one is a LEIRI
    /// character (docs/rules.md §1.2).
    hash: bool,
    wrapped: bool,
    /// Where the host of the authority begins (after the last `@`).
    host_start: usize,
    /// The first character read that could make a later scan over it stop
    /// elsewhere or start in another context (brackets, quotes, `@`, `:`,
    /// `/?#`, LEIRI characters): `www_failed` needs none before its bound.
    unclean: usize,
    /// The first ASCII byte from `host_start` on that no DNS host holds
    /// (what `dns_authority_cut` looks for, found on the way).
    non_dns: usize,
    /// The last [`host_range`] asked of this authority: `(host_start,
    /// end)` and the answer (the cut and the host checks both need it).
    host_memo: Cell<((usize, usize), (usize, usize))>,
}

impl<'s> Forward<'s> {
    /// The state of a forward scan from `body` (where a host would start)
    /// with nothing read yet, keeping its brackets on `stack` (empty).
    fn new(stack: &'s mut Vec<char>, body: usize) -> Forward<'s> {
        Forward {
            stack,
            quotes: 0,
            first_leiri: usize::MAX,
            hash: false,
            wrapped: false,
            host_start: body,
            unclean: usize::MAX,
            non_dns: usize::MAX,
            host_memo: Cell::new(((usize::MAX, 0), (0, 0))),
        }
    }

    /// [`host_range`] of the authority read so far, up to `end`.
    fn host_range(&self, hay: &[u8], end: usize) -> (usize, usize) {
        // The forward scan noted the first byte from `host_start` on that
        // no DNS name holds: where there is none before `end`, the host has
        // no port; where it is a `:`, that is the port's. Only an
        // IP-literal or another such byte first needs the search.
        let h0 = self.host_start.min(end);
        if hay.get(h0) != Some(&b'[') {
            debug_assert!(self.non_dns >= h0);
            let quick = if self.non_dns >= end {
                Some((h0, end))
            } else {
                (hay[self.non_dns] == b':').then_some((h0, self.non_dns))
            };
            if let Some(range) = quick {
                debug_assert_eq!(range, host_range(hay, h0, end));
                return range;
            }
        }
        let key = (h0, end);
        let (k, range) = self.host_memo.get();
        if k == key {
            return range;
        }
        let range = host_range(hay, key.0, end);
        self.host_memo.set((key, range));
        range
    }
}

/// The scanner over one haystack.
pub(crate) struct Scanner<'h> {
    hay: &'h [u8],
    opts: Options,
    stack: Vec<char>,
    /// The unclosed `[` and `{` of the last run read to its end (see
    /// [`BracketRun`]): later candidates inside the run find their cut
    /// without reading the run again.
    bracket_run: BracketRun,
    /// For each trigger searcher (`:`/`@`, `w.`, `W.`): the next match at
    /// or after the scan position, and the bound it was searched up to
    /// (`usize::MAX`: none before that bound; a bound of 0, searched for
    /// at once). Each searcher runs once per match, whatever the others
    /// find.
    next: [(usize, usize); 3],
    /// Capital `W`s not followed by `.` are frequent here: `W.` is searched
    /// for with the pair search (see `find_upper_w_dot`).
    upper_w: bool,
    /// The search for the next `:` or `@` (only `:` without e-mail
    /// addresses).
    colon_or_at: EitherByte,
    /// Where the last `www.` candidate that
    /// [`www_two_labels_final`](Scanner::www_two_labels_final) rejected
    /// starts (`usize::MAX` before any): [`chain_www`](Scanner::chain_www)
    /// asks the glance of the trigger it is given only near it, where
    /// such hosts come one after the other (`www.a/[www.a/[…`); a link
    /// elsewhere is not read twice for it (1% of link-dense text's
    /// instructions). A hint only: the answer is the same without it.
    two_labels_at: usize,
    /// `hay[.0..hay.1]` holds no `[` nor `{`: where
    /// [`www_past_limit`](Scanner::www_past_limit) searched last.
    bracket_free: (usize, usize),
    /// Where runs that repeat a rejected colon were found broken (see
    /// [`RepeatedColons`]).
    repeats: RepeatedColons,
    /// How many times [`chain_www`](Scanner::chain_www) ran (for the test
    /// that a run of rejected `www.` hosts takes one).
    #[cfg(test)]
    www_chains: std::cell::Cell<usize>,
}

/// `w.` and `W.`: the end of every `www.` in any case (docs/rules.md §1.1).
/// Searched with memchr's SIMD pair search, which skips prose fast because
/// `w` right before `.` is rare; the two bytes before are checked after.
static W_DOT: LazyLock<[memchr::memmem::Finder<'static>; 2]> = LazyLock::new(|| {
    [
        memchr::memmem::Finder::new(b"w."),
        memchr::memmem::Finder::new(b"W."),
    ]
});

/// The first `W.` in `hay[from..]`. A capital `W` is rare in most text,
/// so memchr finds each one faster than the pair search does; where they
/// are frequent (a few in a row not followed by `.`), the pair search takes
/// over, so that `WWWW…` or `WARN` lines cost no call per `W`.
/// `frequent` is set once that happened, for the rest of the haystack.
fn find_upper_w_dot(hay: &[u8], mut from: usize, frequent: &mut bool) -> Option<usize> {
    if !*frequent {
        for _ in 0..4 {
            let p = from + memchr::memchr(b'W', &hay[from..])?;
            if hay.get(p + 1) == Some(&b'.') {
                return Some(p);
            }
            from = p + 1;
        }
        *frequent = true;
    }
    W_DOT[1].find(&hay[from..]).map(|i| from + i)
}

/// Byte classes for the glances at rejected triggers (`skip_rejected`,
/// `try_scheme`, `dead_dns_authority`) and for the forward scan, over all
/// 256 byte values so that lookups need no bounds check. Computed from the
/// crate's ASCII table when the crate is compiled: each is a class of it,
/// or one narrowed by the scanner's delimiters.
pub(crate) const DENSE_COLON: u8 = 1;
pub(crate) const DENSE_AT: u8 = 2;
/// A letter, digit or `-` (`ascii::LDH`): continues an e-mail domain label.
pub(crate) const DENSE_LABEL: u8 = 4;
/// A `.` or a non-ASCII byte: the domain might be one; `try_email` decides.
pub(crate) const DENSE_DEFER: u8 = 8;
/// A scheme character (`ascii::SCHEME`).
pub(crate) const DENSE_SCHEME: u8 = 16;
/// An ASCII IRI or LEIRI character other than `: @ / ? #`: continues an
/// authority without changing where its host starts or ends.
pub(crate) const DENSE_AUTH: u8 = 32;
/// An ASCII IRI character the forward scan needs to do nothing about but
/// step over: letters, digits and the unreserved and reserved characters
/// other than `/ ? # @ ( ) ' :`.
pub(crate) const DENSE_PLAIN: u8 = 64;
/// An ASCII byte a DNS host may hold (`ascii::DNS_HOST`): letters, digits,
/// `- . _ %` (see `dns_authority_cut`).
pub(crate) const DENSE_HOST: u8 = 128;

/// The `gen-delims` that end an authority or move where its host starts:
/// `: @ / ? #` (the brackets of an IP-literal aside).
const AUTHORITY_DELIMS: u32 = ascii::COLON | ascii::AT | ascii::SLASH | ascii::QMARK | ascii::HASH;

/// `( ) '`: IRI characters the forward scan keeps count of (brackets are
/// balanced, quotes may close the quotation a candidate stands in).
const fn is_counted(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'\'')
}

/// What a character does to a plain link ([`Scanner::plain_link`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// It belongs to the link, and is this many bytes long.
    Go(usize),
    /// It ends the link, in every reading.
    End,
    /// The full reading is needed.
    Full,
}

/// Bytes the forward scan steps over in a host with nothing to note.
const PLAIN_HOST: u8 = DENSE_PLAIN | DENSE_HOST;

pub(crate) static DENSE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let a = ASCII[i];
        let mut f = 0;
        if a & ascii::COLON != 0 {
            f |= DENSE_COLON;
        }
        if a & ascii::AT != 0 {
            f |= DENSE_AT;
        }
        if a & ascii::LDH != 0 {
            f |= DENSE_LABEL;
        }
        if b == b'.' || b >= 0x80 {
            f |= DENSE_DEFER;
        }
        if a & ascii::SCHEME != 0 {
            f |= DENSE_SCHEME;
        }
        if a & (ascii::IRI | ascii::TEXT_EXTRA) != 0 && a & AUTHORITY_DELIMS == 0 {
            f |= DENSE_AUTH;
        }
        if a & ascii::IRI != 0 && a & AUTHORITY_DELIMS == 0 && !is_counted(b) {
            f |= DENSE_PLAIN;
        }
        if a & ascii::DNS_HOST != 0 {
            f |= DENSE_HOST;
        }
        t[i] = f;
        i += 1;
    }
    t
};

// Every byte a DNS host holds is one the forward scan steps over
// (`forward` notes the first byte no host holds before it asks whether
// the byte is plain): checked when the crate is compiled.
const _: () = {
    let mut i = 0;
    while i < 256 {
        assert!(DENSE[i] & DENSE_HOST == 0 || DENSE[i] & DENSE_PLAIN != 0);
        i += 1;
    }
};

/// Where the scheme ending at the colon `hay[c]` starts (docs/rules.md §1.1):
/// in the run of scheme characters before the colon (not before `floor`,
/// at most [`MAX_RUN`]), the longest part that starts with a letter, not
/// glued to a digit nor to a `_` after a letter or digit before the run
/// (`app_scheme://`, not `_https://…_`). A
/// leading `n`, `r` or `t` after a backslash is the string escape of C,
/// gettext and JSON text (`"\nhttps://…"`), not part of the scheme.
/// `None`: there is no scheme. Also returns how many bytes it read (for
/// the work count).
#[inline(always)]
fn scheme_start(hay: &[u8], c: usize, floor: usize) -> (Option<usize>, usize) {
    let lo = floor.max(c.saturating_sub(MAX_RUN + 1)).min(c);
    let run = hay[lo..c]
        .iter()
        .rev()
        .position(|&b| DENSE[b as usize] & DENSE_SCHEME == 0)
        .unwrap_or(c - lo);
    if run > MAX_RUN {
        return (None, MAX_RUN);
    }
    let mut i = c - run;
    // The byte before the run: a `\\` (an escape may start the run) or a
    // `_` (the scheme is glued to an identifier) matter.
    let before = if i > 0 { hay[i - 1] } else { 0 };
    if before == b'\\' && i + 1 < c && matches!(hay[i], b'n' | b'r' | b't') && after_escape(hay, i)
    {
        i += 1;
    }
    let start = match hay[i..c].iter().position(u8::is_ascii_alphabetic) {
        // `app_scheme://`: a `_` after a letter or digit glues the scheme
        // to an identifier; a word-initial `_` is emphasis
        // (`_https://example.org_`).
        Some(0) if before == b'_' && i >= 2 && hay[i - 2].is_ascii_alphanumeric() => None,
        Some(k) if k == 0 || !hay[i + k - 1].is_ascii_digit() => Some(i + k),
        _ => None,
    };
    (start, run)
}

/// Whether `hay[i]` follows a backslash that escapes it: an odd number of
/// backslashes before it (`\\nhttp` is a backslash and `nhttp`). Reads at
/// most [`MAX_RUN`] bytes back.
#[cold]
#[inline(never)]
pub(crate) fn after_escape(hay: &[u8], i: usize) -> bool {
    let n = hay[i.saturating_sub(MAX_RUN)..i]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    n % 2 == 1
}

/// The ASCII IRI and LEIRI characters (`run_end`), over all 256 byte
/// values so that lookups need no bounds check; computed from the ASCII
/// table.
pub(crate) static RUN_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ASCII[i] & (ascii::IRI | ascii::TEXT_EXTRA) != 0;
        i += 1;
    }
    t
};

/// [`Scanner::dead_dns_authority`] where its run of authority bytes ended
/// at `colon` on a byte of [`AUTH_UNSURE`]: if that is a `:`, whether the
/// authority or the candidate ends before `lim` with no `@` (nor white
/// space, nor non-ASCII) first, and then `Some(colon)`. Out of line:
/// inlined, its loop took `http://-a/…` 7% more instructions.
#[cold]
#[inline(never)]
fn dead_after_colon(hay: &[u8], colon: usize, lim: usize) -> Option<usize> {
    if hay[colon] != b':' {
        return None;
    }
    let mut q = colon + 1;
    loop {
        while q < lim && DENSE[hay[q] as usize] & DENSE_AUTH != 0 {
            q += 1;
        }
        match hay.get(q) {
            None => return Some(colon),
            _ if q == lim => return None,
            Some(b':') => q += 1,
            Some(&b) => return (!AUTH_UNSURE[b as usize]).then_some(colon),
        }
    }
}

/// The bytes at which [`Scanner::dead_dns_authority`] gives up, its run of
/// authority bytes ended: non-ASCII, `@` (userinfo) and white space (`<…>`
/// may wrap over lines); and `:`, which it looks at first (a port, or a
/// password if an `@` follows). One lookup
/// instead of four tests, at every trigger of `http://-a/…`.
static AUTH_UNSURE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b >= 0x80 || b == b':' || b == b'@' || ASCII[i] & ascii::SPACE != 0;
        i += 1;
    }
    t
};

/// The bytes that, right before `www.`, make it part of something else: a
/// longer name (a letter, a digit, `.`, `-`, `_`) or an address (`@`).
/// `@` and the ASCII bytes that end any authority (its delimiters `/ ? #`
/// and those that end any candidate: white space, controls, `" < > \ |`
/// and `` ` ``), for [`Scanner::www_comma_final`].
static AUTHORITY_ENDS_OR_AT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let a = ASCII[i];
        t[i] = matches!(i as u8, b'@' | b'/' | b'?' | b'#')
            || a & (ascii::IRI | ascii::TEXT_EXTRA) == 0;
        i += 1;
    }
    t
};

static WWW_GLUED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'@');
        i += 1;
    }
    t
};

/// The bytes [`Scanner::dead_open_ip_literal`] steps over in an authority
/// after its `[`: ASCII letters, digits, `- . _ ~`, `%` and the
/// sub-delimiters but `'`, `(` and `)`.
static OPEN_AUTHORITY_PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = ASCII[i] & (ascii::UNRESERVED | ascii::SUB_DELIM | ascii::PERCENT) != 0
            && b != b'\''
            && b != b'('
            && b != b')';
        i += 1;
    }
    t
};

/// [`Scanner::dead_open_ip_literal`] past its first byte (a `[` at
/// `body`): the plain bytes in a tight loop, `:` noted, `/` or `#` the
/// end, anything else (a `]` among them) gives up. (A `match` on a class
/// of each byte compiled to a jump through a table a byte.)
#[inline(always)]
fn open_authority_rejected(hay: &[u8], body: usize) -> Option<usize> {
    // (One bounds check for the bytes it may read, none a byte.)
    let bytes = &hay[..hay.len().min(body + 256)];
    let mut colon = usize::MAX;
    let mut q = body + 1;
    loop {
        while let Some(&b) = bytes.get(q)
            && OPEN_AUTHORITY_PLAIN[b as usize]
        {
            q += 1;
        }
        match bytes.get(q) {
            Some(b':') => {
                colon = colon.min(q);
                q += 1;
            }
            Some(b'/' | b'#') => return Some(colon.min(q)),
            _ => return None,
        }
    }
}

/// Where the scheme before the `:` at `c` starts when it is certainly
/// `http` or `https` (in any case), as [`scheme_start`] and
/// [`is_dns_scheme`] would find: the name starts at `floor` or right after
/// a byte that is no scheme character (`/http:`, ` https:`), so that
/// [`scheme_start`]'s run is the name itself. `None` when unsure: ask
/// them. Most links of mail, logs and web pages are `http` or `https`; for
/// them this replaces the loop back over the run of scheme characters
/// (whose exit, four or five bytes back by turns, mispredicts) and the
/// lookup of the scheme.
#[inline]
fn http_scheme_before(hay: &[u8], c: usize, floor: usize) -> Option<usize> {
    if c < floor.saturating_add(4) {
        return None;
    }
    let last4 = c - 4;
    // The four bytes before the `:`, lower-cased (`| 0x20` maps only
    // capital letters to letters), read with one bounds check.
    let four: [u8; 4] = hay.get(last4..c)?.try_into().ok()?;
    let word = u32::from_le_bytes(four) | 0x2020_2020;
    let start = if word == u32::from_le_bytes(*b"http") {
        last4
    } else if word == u32::from_le_bytes(*b"ttps") && last4 > floor && hay[last4 - 1] | 0x20 == b'h'
    {
        last4 - 1
    } else {
        return None;
    };
    // `scheme_start` looks at the byte before its run even at `floor`: a
    // `_` there may glue the scheme to an identifier (`a_http://`). (One
    // read of that byte: this runs at every trigger of `http://-a/…`.)
    if start == floor {
        return (start == 0 || hay[start - 1] != b'_').then_some(start);
    }
    let before = hay[start - 1];
    (DENSE[before as usize] & DENSE_SCHEME == 0 && before != b'_').then_some(start)
}

/// The scheme before the `:` at `c` (not before `floor`): where it starts
/// and whether it is a DNS scheme ([`is_dns_scheme`]), or `None` if there
/// is none; and how many bytes were read (the run [`scheme_start`] reads).
/// Before `//` (`slashes`) an `http` or `https` name is told first from one
/// word ([`http_scheme_before`]); elsewhere such a scheme is no link, and
/// the colons of times and dates (`10:23:45`) would pay for the look.
/// (Inlined always: left to the compiler, it stayed a call, and access
/// logs took 7% more instructions, `http://-a/…` 29%.)
#[inline(always)]
fn scheme_before(
    hay: &[u8],
    c: usize,
    floor: usize,
    slashes: bool,
) -> (Option<(usize, bool)>, usize) {
    if slashes && let Some(start) = http_scheme_before(hay, c, floor) {
        return (Some((start, true)), c - start);
    }
    let (start, read) = scheme_start(hay, c, floor);
    (
        start.map(|start| (start, is_dns_scheme_at(hay, start, c))),
        read,
    )
}

/// Whether a scheme is one whose host must be a plausible DNS name:
/// `http`, `https`, `ftp`, `ws`, `wss`, in any case.
#[inline]
fn is_dns_scheme(scheme: &[u8]) -> bool {
    // `| 0x20` lowercases an ASCII letter, and maps no other byte to one.
    let l = |b: u8| b | 0x20;
    match *scheme {
        [w, s] => l(w) == b'w' && l(s) == b's',
        [a, b, c] => matches!([l(a), l(b), l(c)], [b'f', b't', b'p'] | [b'w', b's', b's']),
        [h, t, u, p] => [l(h), l(t), l(u), l(p)] == *b"http",
        [h, t, u, p, s] => [l(h), l(t), l(u), l(p), l(s)] == *b"https",
        _ => false,
    }
}

/// [`is_dns_scheme`] of `hay[start..c]` (`c`: the `:`), from one word of
/// the eight bytes before `c` where there are eight: the scheme's bytes
/// moved to the bottom, lowered, and compared with the five names at once.
/// The `match` on the length in [`is_dns_scheme`] is a jump through a
/// table, which link-dense text (`https`, `http` and `mailto` by turns)
/// kept mispredicting: 62% of the mispredicted indirect jumps on it in a
/// simulated branch profile (cachegrind). With the `run_over` change of
/// the same commit, link-dense text took 5.5% less time and access logs
/// 2.6% (whole processes pinned to one core, forty pairs).
#[inline]
fn is_dns_scheme_at(hay: &[u8], start: usize, c: usize) -> bool {
    let n = c - start;
    let Some(bytes) = c.checked_sub(8).and_then(|b| hay.get(b..c)) else {
        return is_dns_scheme(&hay[start..c]);
    };
    if !(2..=5).contains(&n) {
        return false;
    }
    let lower = lowered_tail(bytes, n);
    (lower == word_of(b"http"))
        | (lower == word_of(b"https"))
        | (lower == word_of(b"ftp"))
        | (lower == word_of(b"wss"))
        | (lower == word_of(b"ws"))
}

/// For a `:` at `c` that `//` does not follow and where an opaque part may
/// start (`Scanner::opaque_starts_at(c + 1)`): whether `try_scheme`
/// rejects it for the word before it alone. That word, as
/// [`scheme_start`] finds it, is no scheme (`2ab:`), a letter (`a:`), not
/// registered (`ab:`, `key:`) or one that needs `//` here
/// ([`word_needs_slashes`]: `http:x`, `file:x`). A word of up to eight
/// bytes is told from one load of the eight bytes before the colon (at
/// the input's start, from a copy); a longer one is looked up as it is
/// (no scheme of more than eight bytes needs `//`). A trigger every three
/// bytes, `ab:ab:…`, took 360 instructions each through the scan and
/// `try_scheme`.
#[inline]
fn colon_word_rejected(hay: &[u8], c: usize, floor: usize) -> bool {
    let Some(start) = scheme_start(hay, c, floor).0 else {
        return true;
    };
    match c - start {
        0 | 1 => true,
        n @ 2..=8 => {
            let lower = match c.checked_sub(8) {
                Some(b) => lowered_tail(&hay[b..c], n),
                None => lowered_tail(&first_eight(hay, c), n),
            };
            !is_registered_word(lower) || word_needs_slashes(lower, hay.get(c + 1).copied())
        }
        _ => !is_registered(&hay[start..c]),
    }
}

/// The bytes before `c` (fewer than eight) at the end of eight bytes,
/// zeros before them: what [`lowered_tail`] reads of a word at the
/// input's start.
#[cold]
fn first_eight(hay: &[u8], c: usize) -> [u8; 8] {
    let mut eight = [0; 8];
    eight[8 - c..].copy_from_slice(&hay[..c]);
    eight
}

/// Where a reading from `from` is cut at `limit` (a byte of `hay`): the
/// last character boundary at or before it, not before `from`.
#[inline]
fn boundary_within(hay: &[u8], from: usize, limit: usize) -> usize {
    let mut p = limit;
    while p > from && is_continuation(hay[p]) {
        p -= 1;
    }
    p
}

/// The last `n` (1–8) of eight bytes as a word, as `packed` in
/// `schemes.rs` packs a lower-case name: moved to the bottom, zeros above,
/// each `| 0x20`, which lowercases an ASCII letter, maps no other byte to
/// one, and leaves the other scheme characters (digits, `+ - .`) as they
/// are.
#[inline(always)]
fn lowered_tail(eight: &[u8], n: usize) -> u64 {
    debug_assert!(eight.len() == 8 && (1..=8).contains(&n));
    let drop = 8 * (8 - n as u32);
    let word = u64::from_le_bytes(eight.try_into().unwrap_or_default()) >> drop;
    word | (0x2020_2020_2020_2020 >> drop)
}

impl<'h> Scanner<'h> {
    pub fn new(hay: &'h [u8], opts: Options) -> Scanner<'h> {
        Scanner {
            hay,
            opts: Options {
                max_len: opts.max_len.max(MIN_MAX_LEN),
                ..opts
            },
            stack: Vec::new(),
            bracket_run: BracketRun::default(),
            next: [(0, 0); 3],
            upper_w: false,
            colon_or_at: EitherByte::new(b':', if opts.email { b'@' } else { b':' }),
            two_labels_at: usize::MAX,
            bracket_free: (0, 0),
            repeats: RepeatedColons::default(),
            #[cfg(test)]
            www_chains: std::cell::Cell::new(0),
        }
    }

    /// Finds the candidates whose triggers lie before `to`, from
    /// `state.pos` on, calling `sink` for each in order; stops early when
    /// `sink` returns false. On return `state.pos` is where to continue.
    pub fn scan(
        &mut self,
        state: &mut ScanState,
        to: usize,
        sink: &mut dyn FnMut(Candidate) -> bool,
    ) {
        let hay = self.hay;
        let to = to.min(hay.len());
        'outer: loop {
            if state.skipping {
                let end = self.run_end(state.pos);
                state.work += (end - state.pos) as u64;
                state.pos = end;
                // The run goes on past the bytes at hand, or may: a
                // character the window's end cuts short is decided by the
                // next window (whole, it may go on with the run).
                if end == hay.len() || end + sequence_len(hay[end]) > hay.len() {
                    return;
                }
                state.skipping = false;
            }
            if state.pos >= to {
                return;
            }
            // The next `:` or `@`, and the next `w.` or `W.` (the end of a
            // `www.`), each found by its own searcher and remembered until
            // passed: `.` is far too frequent in prose to be a trigger.
            // (A memo from a call with a nearer `to` is searched anew, its
            // bound passed: within a call `to` stays.)
            let (n, bound) = self.next[0];
            if n < state.pos || bound < to {
                self.next[0] = (self.find_colon_or_at(state.pos, to), to);
            }
            let mut tw = usize::MAX;
            if self.opts.www {
                // `www.` triggers that the memo already condemns need not
                // be found at all (see `www_skip`).
                let skip = state.pos.max(state.www_skip);
                for k in 1..3 {
                    let (n, bound) = self.next[k];
                    if n < skip || bound < to {
                        // From one byte back: the `w` of a `w.` may lie
                        // before the position, its `.` (the trigger) not.
                        let from = skip.min(to).saturating_sub(1);
                        let found = if k == 1 {
                            W_DOT[0].find(&hay[from..to]).map(|i| from + i + 1)
                        } else {
                            find_upper_w_dot(&hay[..to], from, &mut self.upper_w).map(|i| i + 1)
                        };
                        self.next[k] = (found.unwrap_or(usize::MAX), to);
                    }
                    tw = tw.min(self.next[k].0);
                }
            }
            let mut t = self.next[0].0;
            if t >= tw {
                if tw >= to {
                    state.pos = to;
                    return;
                }
                // `w.w.w.…`, `www.www.…`: see `chain_www`.
                let (t, cand) = match self.chain_www(tw, to.min(self.next[0].0), state) {
                    Ok((t, start)) => (
                        t,
                        self.candidate(start, start, true, true, Kind::Www, state),
                    ),
                    Err(t) => (t, None),
                };
                match cand {
                    Some(c) => {
                        if !self.emit(c, state, sink) {
                            return;
                        }
                    }
                    None => state.pos = t + 1,
                }
                continue;
            }
            // `:` and `@`, possibly a trigger every other byte (`a@a@a@…`,
            // `x:x:x:…`): most are rejected after a glance at their
            // neighbours, and the next one is often where that glance
            // stopped, so rejected triggers are chained here without the
            // bookkeeping above.
            // (After a trigger `try_scheme` rejects too, the next ones go
            // through the chain again: one call over `ab:ab:…` from its
            // first colon, which the chain leaves to `try_scheme`, would
            // otherwise never chain.)
            loop {
                let (n, last) = self.skip_rejected(t, tw, to, state);
                if let Some(last) = last {
                    state.pos = last + 1;
                    self.next[0] = (n, to);
                    if n >= tw || n >= to {
                        continue 'outer;
                    }
                    t = n;
                }
                let r = if hay[t] == b':' {
                    self.try_scheme(t, state)
                } else {
                    self.try_email(t, state)
                };
                match r {
                    Ok(c) => {
                        if !self.emit(c, state, sink) {
                            return;
                        }
                        continue 'outer;
                    }
                    Err(resume) => {
                        state.pos = t + 1;
                        let n = self.find_colon_or_at(resume.max(t + 1), to);
                        self.next[0] = (n, to);
                        if n >= tw || n >= to {
                            continue 'outer;
                        }
                        t = n;
                    }
                }
            }
        }
    }

    /// The next candidate before `to`, if any (the scan stops just after it).
    pub fn next_candidate(&mut self, state: &mut ScanState, to: usize) -> Option<Candidate> {
        let mut found = None;
        self.scan(state, to, &mut |c| {
            found = Some(c);
            false
        });
        found
    }

    /// Records candidate `c`: the scan goes on after it. False if the sink
    /// wants no more.
    #[inline]
    fn emit(
        &self,
        c: Candidate,
        state: &mut ScanState,
        sink: &mut dyn FnMut(Candidate) -> bool,
    ) -> bool {
        state.last_end = c.end;
        state.pos = c.end;
        state.skipping = c.truncated();
        sink(c)
    }

    /// Passes over the `:` and `@` triggers from `t` on (before `tw` and
    /// `to`) that a glance rejects, each exactly as `try_scheme` or
    /// `try_email` would reject it: a `:` without `//` after fewer than two
    /// scheme characters (`x:`, `12:30`), before a character that starts
    /// no opaque part (`Note: x`), or after a word that
    /// [`colon_word_rejected`] rejects (`ab:`, `key:value`; where such
    /// colons repeat with the bytes around them, `ab:ab:…`, the whole
    /// repetition at once: [`RepeatedColons`]); a `:` before
    /// `//-`, `//.` or `//[` whose authority no DNS host can come of
    /// (`http://-a/…`, `http://[…`); an `@` whose domain is a run of
    /// ASCII letters, digits and `-` without a dot (`a@a@…`). Returns the
    /// first trigger not so rejected (`usize::MAX` if none before `to`),
    /// and the last one rejected.
    #[inline]
    fn skip_rejected(
        &mut self,
        mut t: usize,
        tw: usize,
        to: usize,
        state: &mut ScanState,
    ) -> (usize, Option<usize>) {
        let hay = self.hay;
        let floor = state.last_end;
        let mask = self.trigger_mask();
        let mut last = None;
        let mut work = 0;
        while t < tw && t < to {
            let resume = if hay[t] == b':' {
                if hay[t + 1..].starts_with(b"//") {
                    // `http://-a/http://-a/…`: as `try_scheme` rejects it.
                    if !matches!(hay.get(t + 3), Some(b'-' | b'.')) {
                        // `http://[http://[…`, out of this loop's way.
                        if hay.get(t + 3) != Some(&b'[') {
                            break;
                        }
                        match self.dead_open_ip_literal_after(t, floor, tw.min(to)) {
                            Some((chained, q)) => {
                                work += (chained - t) as u64;
                                t = chained;
                                q
                            }
                            None => break,
                        }
                    } else {
                        let dns = scheme_before(hay, t, floor, true).0.map(|(_, dns)| dns);
                        match dns {
                            None => t + 1,
                            Some(true) => match self.dead_dns_authority(t + 3) {
                                Some(q) => q,
                                None => break,
                            },
                            Some(false) => break,
                        }
                    }
                } else {
                    // `x:`, and `Note: x` (no opaque part can follow,
                    // whatever the scheme): see `try_scheme`. Where one
                    // may follow, the word before the colon may decide
                    // (`ab:ab:…`, `key:value`).
                    if let [.., a, b] = hay[floor.min(t)..t]
                        && DENSE[a as usize] & DENSE[b as usize] & DENSE_SCHEME != 0
                        && self.opaque_may_start_at(t + 1)
                    {
                        if !colon_word_rejected(hay, t, floor) {
                            break;
                        }
                        // `ab:ab:…`: a run that repeats repeats the answer.
                        if let Some(j) = self.repeats.rejected(hay, t, b, last, floor, tw.min(to)) {
                            work += (j - t) as u64;
                            t = j;
                        }
                    } else if let [b1, b2, ..] = hay[t + 1..to.max(t + 1)]
                        // `x:x:…`: the next trigger two bytes on.
                        && DENSE[b1 as usize] & mask == 0
                        && DENSE[b2 as usize] & mask != 0
                    {
                        work += 2;
                        last = Some(t);
                        t += 2;
                        // `x:x:x:…` goes on: the first three triggers of
                        // each `:x:x:x:` are rejected alike (a `:` is no
                        // scheme character, and no `//` follows), so they
                        // are passed at once; the fourth is the next.
                        while t + 6 < tw.min(to)
                            && let Some(&[c0, n0, c1, n1, c2, n2, c3]) = hay.get(t..t + 7)
                            && [c0, c1, c2, c3] == [b':'; 4]
                            && DENSE[n0 as usize] & mask == 0
                            && DENSE[n1 as usize] & mask == 0
                            && DENSE[n2 as usize] & mask == 0
                        {
                            work += 6;
                            last = Some(t + 4);
                            t += 6;
                        }
                        continue;
                    }
                    t + 1
                }
            } else {
                // The domain as `try_email` reads it (at most 256 bytes);
                // at a dot or a non-ASCII character, let it decide.
                let lim = hay.len().min(t + 257);
                let mut e = t + 1;
                while e < lim && DENSE[hay[e] as usize] & DENSE_LABEL != 0 {
                    e += 1;
                }
                if e < lim && DENSE[hay[e] as usize] & DENSE_DEFER != 0 {
                    break;
                }
                // `a@a@…`: the byte that ended the domain is the next `@`.
                if e < to && hay[e] == b'@' {
                    work += (e - t) as u64;
                    last = Some(t);
                    t = e;
                    // `a@a@a@…` goes on: the first two triggers of each
                    // `@a@a@` are rejected alike (a dotless domain ended
                    // by the next `@`), so they are passed at once; the
                    // third is the next.
                    while t + 4 < tw.min(to)
                        && let Some(&[a0, d0, a1, d1, a2]) = hay.get(t..t + 5)
                        && [a0, a1, a2] == [b'@'; 3]
                        && DENSE[d0 as usize] & DENSE[d1 as usize] & DENSE_LABEL != 0
                    {
                        work += 4;
                        last = Some(t + 2);
                        t += 4;
                    }
                    continue;
                }
                e
            };
            work += (resume - t) as u64 + 1;
            last = Some(t);
            // The next trigger is often where the glance stopped, or close
            // (a chain too dense for the steps above): a byte loop over the
            // next eight bytes finds it soonest (its exit is predicted, so
            // the scan runs ahead; a word at a time waits for the
            // arithmetic, and so does a look at the next 64 bytes with
            // SSE2: 18% more time on `http://-a/…`), then
            // `find_colon_or_at`.
            let near = to.min(resume + 8);
            // (One bounds check for the window, none a byte.)
            let window = &hay[..near];
            let mut p = resume;
            while let Some(&b) = window.get(p)
                && DENSE[b as usize] & mask == 0
            {
                p += 1;
            }
            t = if p < near {
                p
            } else {
                self.find_colon_or_at(p, to)
            };
        }
        state.work += work;
        (t, last)
    }

    /// The [`DENSE`] bits of the `:`/`@` triggers in use.
    #[inline]
    fn trigger_mask(&self) -> u8 {
        if self.opts.email {
            DENSE_COLON | DENSE_AT
        } else {
            DENSE_COLON
        }
    }

    /// The first `:` (or `@` when e-mail addresses are on) in
    /// `hay[from..to]`, `usize::MAX` if none. The next 64 bytes are looked
    /// at at once (SSE2) before paying for a memchr call: on link-dense
    /// text the next link is mostly that close, and the look took the
    /// whole run 0.95 of the time (pinned to one core, 80 pairs). Within
    /// the last 63 bytes of the haystack (once a window), memchr alone.
    /// The memchr call is out of line
    /// ([`find_colon_or_at_far`](Scanner::find_colon_or_at_far)), so that
    /// the look is inlined where it is asked (link-dense text 1.1% fewer
    /// instructions, access logs 2.6%).
    #[inline(always)]
    fn find_colon_or_at(&self, from: usize, to: usize) -> usize {
        let hay = self.hay;
        if from >= to {
            return usize::MAX;
        }
        if let Some(block) = hay.get(from..).and_then(<[u8]>::first_chunk::<64>) {
            let m = self.colon_or_at.mask_of_64(block);
            if m != 0 {
                let i = from + m.trailing_zeros() as usize;
                return if i < to { i } else { usize::MAX };
            }
        }
        self.find_colon_or_at_far(from, to)
    }

    /// [`find_colon_or_at`](Scanner::find_colon_or_at) past the next 64
    /// bytes (or near the end of the haystack): memchr's search, out of
    /// line.
    #[inline(never)]
    fn find_colon_or_at_far(&self, from: usize, to: usize) -> usize {
        let hay = self.hay;
        let near = if hay.len() >= from + 64 {
            from + 64
        } else {
            from
        };
        if near >= to {
            return usize::MAX;
        }
        self.colon_or_at
            .find(&hay[near..to])
            .map_or(usize::MAX, |i| near + i)
    }

    /// The end of the run of candidate characters starting at `p`, ignoring
    /// bracket rules: where a truncated candidate's text really ends.
    fn run_end(&self, mut p: usize) -> usize {
        let hay = self.hay;
        while p < hay.len() {
            let b = hay[p];
            if b < 0x80 {
                // ASCII runs in a tight loop (this skips up to the whole
                // rest of the input: `http://http://…`).
                p += hay[p..]
                    .iter()
                    .position(|&b| !RUN_BYTE[b as usize])
                    .unwrap_or(hay.len() - p);
                if p < hay.len() && hay[p] < 0x80 {
                    break;
                }
            } else {
                match decode_at(hay, p) {
                    Some((c, n)) if classify(c) != Class::End => p += n,
                    _ => break,
                }
            }
        }
        p
    }

    /// The delimiter context of a candidate starting at `start`: from the
    /// byte before it, and for `‘` (`E2 80 98`) the two before that (the
    /// character that ends there, as `decode_before` would decode it).
    #[inline(always)]
    fn context(&self, start: usize) -> Context {
        let hay = self.hay;
        let Some(&b) = start.checked_sub(1).and_then(|i| hay.get(i)) else {
            return Context::Plain;
        };
        if b == b'<' {
            Context::Angle
        } else if b == b'\'' {
            Context::Quote('\'')
        } else if b == b':'
            && start >= 5
            && hay[start - 5] == b'<'
            && hay[start - 4..start - 1].eq_ignore_ascii_case(b"URL")
        {
            Context::Angle
        } else if b == 0x98 && start >= 3 && hay[start - 3..start - 1] == [0xE2, 0x80] {
            Context::Quote('’')
        } else {
            Context::Plain
        }
    }

    /// A candidate ending at trigger `c` = `:`. When there is none, the
    /// error says where the search for the next `:` or `@` may resume: no
    /// byte between `c` and it is one (the checks read them).
    fn try_scheme(&mut self, c: usize, state: &mut ScanState) -> Result<Candidate, usize> {
        let hay = self.hay;
        let floor = state.last_end;
        let slashes = hay[c + 1..].starts_with(b"//");
        // Without `//` a scheme needs two letters or more (below): with
        // fewer than two scheme characters before the colon (`x:`, `12:30`
        // has `2:`, `::`) there is nothing more to look at.
        let two = c >= floor + 2
            && ascii_is(hay[c - 1], ascii::SCHEME)
            && ascii_is(hay[c - 2], ascii::SCHEME);
        if !slashes && !two {
            state.work += 2;
            return Err(c + 1);
        }
        let (scheme, read) = scheme_before(hay, c, floor, slashes);
        state.work += read as u64;
        let (start, dns) = scheme.ok_or(c + 1)?;
        let scheme = &hay[start..c];
        let body = if slashes {
            if !self.continues_at(c + 3) {
                return Err(c + 1);
            }
            if dns
                && let Some(resume) = self.dead_dns_authority(c + 3).or_else(|| {
                    (hay.get(c + 3) == Some(&b'['))
                        .then(|| self.dead_open_ip_literal(c + 3))
                        .flatten()
                })
            {
                state.work += (resume - c) as u64;
                return Err(resume);
            }
            c + 3
        } else {
            // `http:/x` is a typo, `C:\` a path, `git:commit` a script
            // name: only registered schemes of two letters or more that
            // need no authority go without `//` (`file` with `/`).
            // (The registry first: most words before a colon are in no
            // entry, `key:value`, and a lookup costs less than the look
            // at what follows.)
            if scheme.len() == 1 || dns || !is_registered(scheme) {
                return Err(c + 1);
            }
            if !self.opaque_starts_at(c + 1) || needs_slashes(scheme, &hay[c + 1..]) {
                return Err(c + 1);
            }
            c + 1
        };
        self.candidate(start, body, slashes, dns, Kind::Iri, state)
            .ok_or(c + 1)
    }

    /// For the authority of a DNS scheme at `body` (after `//`): whether
    /// its host starts with `-` or `.`, which no plausible DNS name does
    /// whatever follows (`http://-a/http://-a/…`), so that the candidate is
    /// rejected by its host checks wherever it ends. That holds as long as
    /// the host starts at `body`, that is, no `@` (userinfo) follows in the
    /// authority: this reads the plain ASCII bytes and `:` (a port, or a
    /// password if an `@` follows) up to `/`, `?` or `#` and gives up
    /// (`None`, the full scan decides) at `@`, at white space (`<…>` may
    /// wrap over lines), at non-ASCII and after a few hundred bytes.
    /// `Some(p)`: rejected, and no byte in `body..p` is a `:` or `@` (`p`
    /// is the first `:`, if any: the next trigger). (`ftp://-ftp://-…`, the
    /// `-` a scheme character and so the host `-ftp:`, was read in full at
    /// every trigger, 1,470 instructions.)
    fn dead_dns_authority(&self, body: usize) -> Option<usize> {
        let hay = self.hay;
        if !matches!(hay.get(body), Some(b'-' | b'.')) {
            return None;
        }
        let lim = hay.len().min(body + 256);
        let mut q = body + 1;
        while q < lim && DENSE[hay[q] as usize] & DENSE_AUTH != 0 {
            q += 1;
        }
        match hay.get(q) {
            // The end of the input ends the candidate.
            None => Some(q),
            _ if q == lim => None,
            Some(&b) if AUTH_UNSURE[b as usize] => dead_after_colon(hay, q, lim),
            // `/ ? #` end the authority; any other ASCII character ends
            // the candidate.
            Some(_) => Some(q),
        }
    }

    /// For the authority of a DNS scheme at `body` (after `//`) that starts
    /// with `[` (`http://[http://[…`): whether it holds nothing but ASCII
    /// letters, digits, `- . _ ~`, `%`, `:` and the sub-delimiters but `'`,
    /// `(` and `)`, up to a `/` or `#` within a few hundred bytes (so no `]`: it is no
    /// IP-literal). Then the candidate is rejected wherever it ends, as
    /// the full reading finds it: its host starts with that `[` and holds
    /// no `]`, so the host checks fail it; the `[` is the only bracket of
    /// the authority, so the path either closes it (the host stays) or
    /// leaves it open and the candidate is cut there, empty
    /// ([`cut_in_authority_fails`](Scanner::cut_in_authority_fails)); and
    /// nothing cuts the authority before (no `,` cut in a host that starts
    /// with `[`, no prose glued to an ASCII host) nor makes a userinfo of
    /// it (no `@`), a quote or white space. `Some(p)`: rejected, and no
    /// byte in `body..p` is a `:` or `@` (`p` is the first `:`, if any).
    /// Each such trigger was read in full: 1,600 instructions a trigger.
    #[cold]
    #[inline(never)]
    fn dead_open_ip_literal(&self, body: usize) -> Option<usize> {
        debug_assert_eq!(self.hay.get(body), Some(&b'['));
        open_authority_rejected(self.hay, body)
    }

    /// For `skip_rejected`, at the `:` at `t` before `//[`: if the trigger
    /// is rejected as `try_scheme` rejects it (no scheme, or a DNS scheme
    /// and [`dead_open_ip_literal`](Scanner::dead_open_ip_literal)), the
    /// last trigger so rejected and where the search may resume. The
    /// triggers of `http://[http://[…` come where the authority before
    /// them ended: each one of the same shape before `bound` (a `:` after
    /// `http` or `https` and before `//[`, an authority rejected alike) is
    /// passed here, without the rounds of `skip_rejected` (from 200
    /// instructions a trigger to about 100). Out of line: `http://-a/…`
    /// takes 5% more instructions with it inlined.
    #[cold]
    #[inline(never)]
    fn dead_open_ip_literal_after(
        &self,
        t: usize,
        floor: usize,
        bound: usize,
    ) -> Option<(usize, usize)> {
        let hay = self.hay;
        let mut q = match scheme_before(hay, t, floor, true).0 {
            None => return Some((t, t + 1)),
            Some((_, true)) => open_authority_rejected(hay, t + 3)?,
            Some((_, false)) => return None,
        };
        let mut last = t;
        while q < bound
            && hay.get(q..q + 4) == Some(b"://[")
            && http_scheme_before(hay, q, floor).is_some()
            && let Some(next) = open_authority_rejected(hay, q + 3)
        {
            last = q;
            q = next;
        }
        Some((last, q))
    }

    /// Whether a candidate character that is not trimmed follows the colon
    /// of a registered scheme (`urn:isbn…`, not `Note: x`), directly or
    /// after trimmed punctuation that the IRI then keeps (`magnet:?xt=…`,
    /// `data:,text`; at most [`MAX_OPAQUE_PUNCT`] bytes of it). Not a
    /// second colon (`File::Spec`, `query::dump` are names in code) nor `*`
    /// (`DNS:*.example.org` is a certificate's wildcard name).
    fn opaque_starts_at(&self, mut p: usize) -> bool {
        let hay = self.hay;
        let lim = p + MAX_OPAQUE_PUNCT;
        while p < lim
            && let Some(&b) = hay.get(p)
            && ascii_is(b, ascii::IRI)
            && ascii_is(b, ascii::TRIM)
            && !matches!(b, b'(' | b':' | b'*')
        {
            p += 1;
        }
        match hay.get(p) {
            None => false,
            Some(&b) if b < 0x80 => {
                ascii_is(b, ascii::IRI)
                    && !ascii_is(b, ascii::TRIM)
                    && !matches!(b, b'\'' | b'(' | b')')
            }
            Some(_) => {
                matches!(decode_at(hay, p), Some((ch, _)) if classify(ch) == Class::Iri && !is_trimmed_non_ascii(ch))
            }
        }
    }

    /// [`opaque_starts_at`](Scanner::opaque_starts_at), its common answer
    /// first: an ASCII character that starts an opaque part by itself
    /// (`ab:ab:…` asks at every trigger).
    #[inline(always)]
    fn opaque_may_start_at(&self, p: usize) -> bool {
        match self.hay.get(p) {
            Some(&b) if ascii_is(b, ascii::IRI) && !ascii_is(b, ascii::TRIM) => {
                !matches!(b, b'\'' | b'(' | b')')
            }
            _ => self.opaque_starts_at(p),
        }
    }

    /// Whether the candidate continues at `p` (after `://`).
    fn continues_at(&self, p: usize) -> bool {
        let hay = self.hay;
        match hay.get(p) {
            None => false,
            Some(&b) if b < 0x80 => ascii_is(b, ascii::IRI) || b == b'[',
            Some(_) => matches!(decode_at(hay, p), Some((ch, _)) if classify(ch) != Class::End),
        }
    }

    /// The first `www.` trigger from `t` on (before `end`) that a glance
    /// ([`www_start`](Scanner::www_start), then
    /// [`www_two_labels_final`](Scanner::www_two_labels_final)) does not
    /// reject, with where its candidate starts, or a position up to which
    /// every trigger was rejected. Where `www.` triggers come every few
    /// bytes (`w.w.w.…`, `www.www.…`), most are rejected at a glance and
    /// the next one is
    /// within a few bytes: the next `www.` is looked for in the next 64
    /// bytes at once (a `w.` without `ww` before it is passed over there),
    /// and rejected triggers are chained here, without the scan's
    /// bookkeeping and a pair search for each (which took those inputs
    /// about 180 instructions a trigger, 5–8% of the speed of prose). Out
    /// of line: inlined in the scan, its loop kept reloading what the
    /// scan's other paths hold in registers.
    #[inline(never)]
    fn chain_www(
        &self,
        mut t: usize,
        end: usize,
        state: &mut ScanState,
    ) -> Result<(usize, usize), usize> {
        let hay = self.hay;
        let mut work = 0;
        #[cfg(test)]
        self.www_chains.set(self.www_chains.get() + 1);
        if let Some(start) = self.www_start(t, state) {
            if start.wrapping_sub(self.two_labels_at) > 64 || !self.www_two_labels_final(start) {
                return Ok((t, start));
            }
            work += 8;
        }
        // Blocks of 64 bytes, each from three bytes before the first `.`
        // it looks at: bit `k` of `www` is a `.` at `base + k` after three
        // `w` in any case (`k` ≥ 3), the only triggers `www_start` may
        // take. At least four blocks, and on through every block that holds a
        // trigger; then the scan's pair search takes over.
        let mut base = t.saturating_sub(2);
        // Whether the last block held a trigger: a chain goes on past its
        // fourth block only through blocks that do (`www.a/[…` took 15%
        // more instructions handed back to the scan every four blocks).
        let mut busy = true;
        let found = 'chain: {
            for round in 0.. {
                if round >= 4 && !busy {
                    break 'chain Err(t);
                }
                let Some(block) = hay.get(base..base + 64) else {
                    break;
                };
                let block: &[u8; 64] = block.try_into().expect("64 bytes");
                let w = either_mask_of_64(block, b'w', b'W');
                let mut www = either_mask_of_64(block, b'.', b'.') & (w << 1) & (w << 2) & (w << 3);
                // The triggers up to `t` are passed.
                www &= !((2u64 << (t - base)) - 1);
                busy = www != 0;
                work += 64;
                while www != 0 {
                    let next = base + www.trailing_zeros() as usize;
                    if next >= end {
                        break 'chain Err(end - 1);
                    }
                    if let Some(start) = self.www_chained_masked(next, state, &mut work) {
                        break 'chain Ok((next, start));
                    }
                    www &= www - 1;
                }
                // Every trigger up to the block's last byte was rejected.
                if base + 64 >= end {
                    break 'chain Err(end - 1);
                }
                t = base + 63;
                base += 61;
            }
            // Near the end of the haystack: the next `w.` within eight
            // bytes (its `.` before `end`).
            loop {
                let window = &hay[t..end.min(t + 9).max(t)];
                let next = window
                    .windows(2)
                    .position(|w| w[1] == b'.' && w[0] | 0x20 == b'w');
                work += window.len() as u64;
                match next {
                    Some(i) => t += i + 1,
                    None => break 'chain Err(t),
                }
                if let Some(start) = self.www_chained(t, state, &mut work) {
                    break 'chain Ok((t, start));
                }
            }
        };
        state.work += work;
        found
    }

    /// [`www_start`](Scanner::www_start), then
    /// [`www_two_labels_final`](Scanner::www_two_labels_final): for a
    /// trigger of [`chain_www`](Scanner::chain_www)'s chain, counting the
    /// second glance's work. (Without the count, `www.a/[…` took 12% more
    /// instructions: the compiler laid the chain's loop out otherwise.)
    #[inline(always)]
    fn www_chained(&self, t: usize, state: &ScanState, work: &mut u64) -> Option<usize> {
        let start = self.www_start(t, state)?;
        self.www_two_labels_kept(start, work)
    }

    /// [`www_chained`](Scanner::www_chained) for a trigger the chain's
    /// masks found, three `w` before it (see
    /// [`www_start_after_www`](Scanner::www_start_after_www)).
    #[inline(always)]
    fn www_chained_masked(&self, t: usize, state: &ScanState, work: &mut u64) -> Option<usize> {
        let start = self.www_start_after_www(t, state)?;
        self.www_two_labels_kept(start, work)
    }

    /// `start`, unless [`www_two_labels_final`](Scanner::www_two_labels_final)
    /// rejects the candidate there (its work counted).
    #[inline(always)]
    fn www_two_labels_kept(&self, start: usize, work: &mut u64) -> Option<usize> {
        if self.www_two_labels_final(start) {
            *work += 8;
            return None;
        }
        Some(start)
    }

    /// Where a `www.` candidate at trigger `t` (the `.` after `www`)
    /// starts, unless a glance rejects it: no `www` in any case before the
    /// `.`, a letter, digit, `.`, `-`, `_` or `@` glued before it (a longer
    /// name, an address), or the memo of failed hosts.
    #[inline(always)]
    fn www_start(&self, t: usize, state: &ScanState) -> Option<usize> {
        let hay = self.hay;
        // (`| 0x20` maps only `W` to `w`; the byte nearest the `.` first:
        // `w.w.w.…` fails there.)
        if t < 3
            || hay[t - 2] | 0x20 != b'w'
            || hay[t - 3] | 0x20 != b'w'
            || hay[t - 1] | 0x20 != b'w'
        {
            return None;
        }
        self.www_start_after_www(t, state)
    }

    /// [`www_start`](Scanner::www_start) for a trigger `t` at or after 3
    /// with three `w` in any case before it, as the masks of
    /// [`chain_www`](Scanner::chain_www) find them: the rest of its
    /// glance. (The chain asking the `w` again took `www.a/[…` 12% more
    /// instructions.)
    #[inline(always)]
    fn www_start_after_www(&self, t: usize, state: &ScanState) -> Option<usize> {
        let hay = self.hay;
        debug_assert!(t >= 3 && hay[t - 3..t].iter().all(|&b| b | 0x20 == b'w'));
        let start = t - 3;
        if start < state.last_end {
            return None;
        }
        if start > 0 && WWW_GLUED[hay[start - 1] as usize] {
            return None;
        }
        if t < state.www_dead_until && start <= state.www_dead_from {
            return None;
        }
        if state.www_run.condemns(start) {
            return None;
        }
        Some(start)
    }

    /// Scans forward from `body` (after `scheme:`, `scheme://` or at `www.`)
    /// to the end of the candidate, checks its host, trims it.
    #[inline(always)]
    fn candidate(
        &mut self,
        start: usize,
        body: usize,
        authority: bool,
        dns: bool,
        kind: Kind,
        state: &mut ScanState,
    ) -> Option<Candidate> {
        let ctx = self.context(start);
        let spec = Spec {
            start,
            body,
            authority,
            dns,
            kind,
            ctx,
        };
        if let Some(c) = self.plain_link(&spec, state) {
            #[cfg(debug_assertions)]
            self.check_plain_link(&spec, c, state);
            return Some(c);
        }
        self.candidate_full(spec, state)
    }

    /// The full reading of the candidate `spec` (with its bookkeeping:
    /// brackets, quotes, `<…>` wrapped over lines) where the plain reading
    /// gave up. Out of line, so that [`candidate`](Scanner::candidate),
    /// which is the plain reading and this call, is inlined where a
    /// trigger is tried (the calls' spills and the `Spec` passed in memory
    /// saved): in callgrind, `--count -j 1` on the 8 MiB files of
    /// `examples/compare`, link-dense text took 1.7% fewer instructions,
    /// access logs 1.3%, and link-dense text 2.3% fewer mispredicted
    /// branches in cachegrind's simulation (at 1c93d67, before `context`
    /// was inlined too).
    #[inline(never)]
    fn candidate_full(&mut self, spec: Spec, state: &mut ScanState) -> Option<Candidate> {
        // A `www.` candidate the plain reading gave up on may be in a run
        // that condemns it: read the run first (once: see `WwwRun`).
        if spec.kind == Kind::Www {
            if self.www_two_labels_final(spec.start) {
                self.two_labels_at = spec.start;
                return None;
            }
            let hay = self.hay;
            let run = &mut state.www_run;
            if run.needs_read(spec.start, hay.len()) {
                state.work += run.read(hay, spec.start, self.opts.max_len) as u64;
                // Triggers from this one's on, whose starts are after
                // `dead_from` where it is this start, are condemned up to
                // `dead_until` (one whose `dead_from` is a bracket further
                // on is only asked of each trigger).
                let run = state.www_run;
                if run.dead_from <= spec.start && run.dead_until > spec.start {
                    state.www_skip_to(run.dead_until + 3);
                }
            }
            if state
                .www_run
                .condemns_at(spec.start, spec.ctx == Context::Plain)
            {
                return None;
            }
        }
        let glued = match self.www_past_limit(&spec, state) {
            Some(PastLimit::Rejected) => return None,
            Some(PastLimit::CutAt(o, c)) => Some((o, c)),
            None => None,
        };
        let mut stack = std::mem::take(&mut self.stack);
        let mut run = std::mem::take(&mut self.bracket_run);
        let mut r = self.candidate_in(&spec, &mut stack, &mut run, state, glued);
        if r == Err(Wrap::Unclosed) {
            // `<…>` wrapping only holds when the `>` is there: else read the
            // candidate again as plain text (it then ends at the first space).
            let plain = Spec {
                ctx: Context::Plain,
                ..spec
            };
            r = self.candidate_in(&plain, &mut stack, &mut run, state, None);
        }
        self.stack = stack;
        self.bracket_run = run;
        r.ok()
    }

    /// For a `www.` candidate in plain context inside a run of
    /// [`WwwRun`] bytes (no `/ ? # @ : ,`, no quote, no closer) where
    /// prose may be glued to a label (`www.a.b.c例[www.a.b.c例[…`, which
    /// [`WwwRun`] cannot condemn), and which runs on past the candidate's
    /// maximum length or ends before it at a byte that ends every
    /// candidate (white space, `" < > \ |` and the like) or at `/ ? #`
    /// (the authority's end): the full
    /// reading's answer, told from the host's last label and the first
    /// bracket, without reading the host. (Each such candidate was read
    /// to the maximum length or to the run's end: 8 KiB a trigger, a
    /// second or two a megabyte.)
    ///
    /// The full reading reads the authority without stopping (the run's
    /// bytes do not stop it; a `www.` prefix it rejects on the way, at the
    /// first byte no DNS name holds, lies before the first bracket and is
    /// rejected here alike) up to `end`: the last character boundary
    /// within the maximum length, the candidate then truncated, or the
    /// run's end. Its host is `start..end` (no user, no port, no `,`).
    /// At `/ ? #` only prose glued to that host's last label is taken
    /// here: the authority is then cut there, as at the run's end, before
    /// its host is checked or its path read; without it, the full reading
    /// decides. Then:
    /// - Truncated, and no prose glued to that host's last label: its host
    ///   is too long for DNS, as [`WwwRun`]'s first case says (where the
    ///   maximum length is at least 3 × 254 + 3 bytes): rejected.
    /// - Else the candidate ends at `c`, where prose is glued to that
    ///   label, or at the run's end. No closer is in the run, so its first
    ///   `[` or `{`, `o`, if any, is left open and cuts it there
    ///   (docs/rules.md §1.2): `CutAt(o, c)`, read up to `o` as
    ///   [`BracketRun`]'s cut is, but for prose glued to the last label
    ///   of `start..o`, which cuts nothing: the full reading's last label
    ///   is after `o`.
    /// - With no bracket the candidate is `start..c`, trimmed: not before
    ///   the ASCII letter prose is glued to, and at the run's end over the
    ///   ASCII punctuation candidates are trimmed of. A host of 765 bytes
    ///   or more has more than 253 characters (none takes more than
    ///   three bytes): rejected. Else (a short host) `None`: the full
    ///   reading decides.
    fn www_past_limit(&mut self, spec: &Spec, state: &mut ScanState) -> Option<PastLimit> {
        let hay = self.hay;
        let run = &state.www_run;
        let start = spec.start;
        let limit = start + self.opts.max_len;
        // A host of this many bytes or more has more than 253 characters.
        const TOO_LONG: usize = 3 * (MAX_HOST_LEN + 1) + 3;
        if spec.kind != Kind::Www
            || spec.ctx != Context::Plain
            || !run.glue
            || run.from > start
            || self.opts.max_len < TOO_LONG
        {
            return None;
        }
        // Where the full reading's authority ends: at the last character
        // boundary within the maximum length (see `forward`), or at the
        // byte after the run where that ends every candidate.
        let e = run.end;
        let (end, truncated, delimited) = if e > limit {
            // The reading takes the character the maximum length cuts
            // whole, and is cut at the maximum length only where a byte
            // follows that character; at the input's end it simply ends.
            let mut q = limit;
            while q < e && is_continuation(hay[q]) {
                q += 1;
            }
            if q >= hay.len() {
                return None;
            }
            (boundary_within(hay, start, limit), true, false)
        } else if e < limit
            && !run.open
            && let Some(&b) = hay.get(e)
            && b < 0x80
        {
            if ASCII[b as usize] & (ascii::IRI | ascii::TEXT_EXTRA) == 0 {
                (e, false, false)
            } else if matches!(b, b'/' | b'?' | b'#') {
                (e, false, true)
            } else {
                return None;
            }
        } else {
            return None;
        };
        // (The last label is short where triggers are dense: each
        // `www.` holds a dot.)
        let label = memchr::memrchr(b'.', &hay[start..end]).map_or(start, |i| start + i);
        state.work += (end - label) as u64;
        let glued = glued_prose_at(hay, start, end);
        if truncated && glued.is_none() {
            return Some(PastLimit::Rejected);
        }
        if delimited && glued.is_none() {
            // The host is checked before the path is read: left to the
            // full reading.
            return None;
        }
        let c = glued.unwrap_or(end);
        // The first `[` or `{` from `start` on, before `c`: searched from
        // where the last search left off, if it passed `start` (every
        // candidate of a run without brackets would search the maximum
        // length).
        let (a, b) = self.bracket_free;
        let inside = a <= start && start <= b;
        let from = if inside { b } else { start };
        let open = if from < c {
            let open = memchr::memchr2(b'[', b'{', &hay[from..c]).map(|i| from + i);
            state.work += (open.unwrap_or(c) - from) as u64;
            open
        } else {
            None
        };
        self.bracket_free = (if inside { a } else { start }, open.unwrap_or(c.max(from)));
        if let Some(o) = open {
            return Some(PastLimit::CutAt(o, c));
        }
        // Without a bracket the candidate ends at `c`, trimmed: not before
        // the ASCII letter prose is glued to; at the run's end, over the
        // ASCII punctuation a candidate is trimmed of (a letter, mark or
        // digit of the run is never trimmed).
        let mut t = c;
        if glued.is_none() {
            while t > start
                && hay[t - 1] < 0x80
                && (hay[t - 1] == b'-' || ascii_is(hay[t - 1], ascii::TRIM))
            {
                t -= 1;
            }
        }
        (t - start >= TOO_LONG).then_some(PastLimit::Rejected)
    }

    /// Whether the `www.` candidate at `start` has a host of two labels
    /// that stays its host whatever follows: after `www.`, ASCII letters,
    /// digits and `-` only, then a `/` or `#` (`www.a/[www.a/[…`). A
    /// `www.` host needs three labels, and an authority that ends at `/`
    /// or `#` stays in the candidate ([`host_is_final`]), so the full
    /// reading rejects it — after about 1,800 instructions (the forward
    /// scan, the host checks), which kept `www.a/[` repeated at 4% of the
    /// speed of prose. Within the maximum length only, where the full
    /// reading reads the `/` too. [`chain_www`](Scanner::chain_www) asks
    /// it of the triggers it chains and of those near the last one it
    /// rejected, and chains those it rejects (the candidate's reading and
    /// the scan's round for each kept that input at 6%).
    ///
    /// [`host_is_final`]: Scanner::host_is_final
    fn www_two_labels_final(&self, start: usize) -> bool {
        let hay = self.hay;
        let lim = hay.len().min(start + self.opts.max_len);
        let mut p = start + 4;
        while p < lim && ascii_is(hay[p], ascii::LDH) {
            p += 1;
        }
        p < lim && matches!(hay[p], b'/' | b'#')
    }

    /// Holds [`plain_link`](Scanner::plain_link)'s answer `c` to the full
    /// reading's, on copies: the same candidate, and nothing else the full
    /// reading would have changed (the bracket run, the `www.` memo, the
    /// scan state but for the work counted).
    #[cfg(debug_assertions)]
    fn check_plain_link(&self, spec: &Spec, c: Candidate, state: &ScanState) {
        let mut full = state.clone();
        let mut run = self.bracket_run.clone();
        let r = self.candidate_in(spec, &mut Vec::new(), &mut run, &mut full, None);
        // The text, for a failure only (made for each link, the rest of
        // the haystack would make every test quadratic).
        let text =
            || String::from_utf8_lossy(&self.hay[spec.start..c.end.max(r.map_or(0, |f| f.end))]);
        // Of the two readings only the plain one proves a candidate valid,
        // and what it proves, the validator finds valid.
        let proven = c.proven_valid();
        let c = c.with_proven_valid(false);
        debug_assert!(
            !proven || crate::find::found_iri::candidate_is_valid(self.hay, &c),
            "proven valid, rejected: {:?}",
            text()
        );
        debug_assert_eq!(r, Ok(c), "{:?}", text());
        full.work = state.work;
        // (The look ahead of `www_comma_final` is a cache.)
        full.comma_probe = state.comma_probe;
        debug_assert_eq!(&full, state, "{:?}", text());
        debug_assert!(run.same_run(&self.bracket_run), "{:?}", text());
    }

    /// The candidate of `spec` when it is a plain link — a host of a DNS
    /// scheme or `www.` (the ASCII bytes the forward scan steps over in a
    /// host: letters, digits, `-`, `.`, `_`, `%`; and letters, marks and
    /// digits of two or three bytes, an IDN) without user or port,
    /// then a path, query and fragment of IRI characters
    /// and letters of any script, with `(…)` nested, up to a character
    /// that ends it — read in one pass, without the bookkeeping
    /// [`candidate_in`](Scanner::candidate_in) keeps for other brackets,
    /// quotes, LEIRI characters, wrapped lines and hosts to forget. `None`
    /// for everything else (and for a host that fails its checks), which
    /// `candidate_in` reads; where this answers, it answers as
    /// `candidate_in` does, step for step (a debug assertion holds it to
    /// that in every test). Most links in mail, logs and web pages are
    /// plain. A link with a scheme but without `//` (`mailto:…`, `urn:…`)
    /// has no host to read: it is read from `body` (after the colon) as a
    /// path is.
    ///
    /// Its candidate may come proven valid
    /// ([`Candidate::proven_valid`]), so that a count judges it without
    /// the validator reading it again. What the reading saw proves it:
    /// a DNS scheme and `//` (or `www.`, which becomes `http://www.`), a
    /// host of letters (of any script), digits, `-`, `.`, `_` and `%` (an
    /// `ireg-name`), then
    /// `/`, `?` or `#` and ASCII IRI characters (at most one `#`) and the
    /// letters, marks and digits of two and three bytes `plain_run` steps
    /// over — every one of them in `ucschar`, none a bidi formatting
    /// character, so allowed in a path, a query and a fragment alike. Left
    /// to the validator: a `%` that does not start a `%HH` triplet, and any
    /// other non-ASCII character (a private-use one is allowed in the
    /// query only). A link without `//` is proven the same way: its
    /// scheme is a registered one (`try_scheme` asks), and after the colon
    /// comes no `//` (that would make it a link with an authority), so
    /// what follows is an `ipath-absolute` (`/` then a segment), an
    /// `ipath-rootless` (a first segment, which may hold `:` and `@`) or
    /// an `ipath-empty`, then a query and a fragment — and every character
    /// the reading steps over is allowed in all of them. Tests hold it to
    /// the validator: every character `plain_run` steps over, exhaustively;
    /// generated links; and a debug assertion on every plain link of every
    /// test.
    #[inline]
    fn plain_link(&self, spec: &Spec, state: &mut ScanState) -> Option<Candidate> {
        // The bytes read count as work whether a candidate comes of them
        // or not: the full reading that follows reads them again (see
        // `plain_link_read`).
        let (c, read) = match self.plain_link_read(spec) {
            Ok((c, read)) => (Some(c), read),
            Err(read) => (None, read),
        };
        state.work += read as u64;
        c
    }

    /// [`plain_link`](Scanner::plain_link), and the bytes it read — or
    /// just those. It reads no byte the full reading would not: it reads
    /// on only over characters the full reading reads on over too, and
    /// stops reading a host that fails its checks, as the full reading may.
    #[inline]
    fn plain_link_read(&self, spec: &Spec) -> Result<(Candidate, usize), usize> {
        if spec.authority {
            self.plain_link_read_as::<true>(spec)
        } else {
            self.plain_link_read_as::<false>(spec)
        }
    }

    /// [`plain_link_read`](Scanner::plain_link_read) of a link with an
    /// authority (`AUTHORITY`), or of one with a scheme without `//`
    /// (`mailto:…`), which reads from `body` as a path does: each its own
    /// code, so that the links with an authority, most of them, pay for
    /// no test of which they are.
    #[inline(always)]
    fn plain_link_read_as<const AUTHORITY: bool>(
        &self,
        spec: &Spec,
    ) -> Result<(Candidate, usize), usize> {
        let hay = self.hay;
        let Spec {
            start,
            body,
            dns,
            kind,
            ctx,
            ..
        } = *spec;
        let authority = AUTHORITY;
        // (An authority not of a DNS scheme, `ldap://`, `ssh://`, is left
        // to the full reading, which checks its host as such a host is
        // checked: the plain reading's DNS checks are stricter, so it
        // would answer only where the full reading agrees, for nothing.)
        if authority && !dns {
            return Err(0);
        }
        let limit = start + self.opts.max_len;
        // What the character at `p` (not an ASCII letter, digit or other
        // character that needs no bookkeeping) does to every reading.
        let next = |p: usize, b: u8| -> Next {
            if b < 0x80 {
                return ascii_next(b, ctx);
            }
            let Some((c, n)) = decode_two_byte(hay, p)
                .map(|c| (c, 2))
                .or_else(|| decode_at(hay, p))
            else {
                return Next::End;
            };
            match classify(c) {
                Class::End => Next::End,
                Class::Iri if ctx == Context::Quote(c) => Next::End,
                Class::Iri => Next::Go(n),
                Class::Open | Class::Close => Next::Full,
            }
        };
        // The host: ASCII bytes a DNS name holds and letters of any script
        // (`plain_run`'s bytes), up to `/`, `?`, `#` or the end of the link.
        // A host of more than `MAX_HOST_LEN` bytes is left to the full
        // reading after that many: no ASCII host that long passes (an IDN
        // that long may, and the full reading measures its ASCII form),
        // and in a run of host bytes with a `www.` every few bytes
        // (`www.ąwww.www.ąwww.…`) each `www.` the full reading's memo lets
        // through would otherwise have this read the run up to the maximum
        // length, as the full reading then does again.
        let host_stop = body + MAX_HOST_LEN + 1;
        let stop = limit.min(hay.len()).min(host_stop);
        // A host of ASCII name bytes ending within 32 bytes (most hosts)
        // is found from the masks of one or two SSE2 loads, which then
        // serve its checks too.
        let ascii_first = authority && hay.get(body).is_some_and(|&b| b < 0x80);
        let (from, masks) = match ascii_first.then(|| ByteMasks::of_host_run(hay, body)) {
            Some(Some((n, m))) if body + n < stop => {
                (body + n, (hay[body + n] < 0x80).then_some(m))
            }
            _ => (body, None),
        };
        // (Where the ASCII run ends at a letter of another script, the
        // run goes on.)
        let mut p = if authority {
            plain_host_run(hay, from, stop)
        } else {
            body
        };
        if p == host_stop {
            return Err(p - body);
        }
        let mut path = !authority;
        if authority && let Some(&b) = hay.get(p) {
            // At the maximum length, or a letter across it.
            if p >= limit || (b >= 0x80 && word_len_at(hay, p) > 0) {
                return Err(p - body);
            }
            if matches!(b, b'/' | b'?' | b'#') {
                path = true;
            } else if b != b')' && next(p, b) != Next::End {
                // A port, a user, a character no host name holds…
                return Err(p - body);
            }
        }
        // An IDN (checked below as the full reading checks it).
        let idn = masks.is_none() && !hay[body..p].is_ascii();
        let auth_end = p;
        // Prose glued to the last label of an IDN (`www.scriptics.com参照`):
        // the full reading cuts the link there.
        if idn && glued_prose_at(hay, body, auth_end).is_some() {
            return Err(p - body);
        }
        let min_labels = if kind == Kind::Www { 3 } else { 1 };
        // (A non-ASCII host without a dot is no link, `ldap://でなければ`.)
        let host_ok = |end: usize| plain_host_ok(hay, body, end, idn, min_labels, masks);
        // A host that fails is checked before the path is read: the full
        // reading may then stop at the host (`http://a.com_?http://a.com_?…`
        // would otherwise be read to the maximum length, trigger after
        // trigger).
        // A `www.` host of two labels whose authority ends at `/` or `#`
        // (`www.a/…`): the full reading rejects it at a glance
        // ([`www_two_labels_final`](Scanner::www_two_labels_final)), and
        // the host checks here would cost it more than that.
        if kind == Kind::Www
            && let Some(m) = masks
            && p == from
            && matches!(hay.get(p), Some(b'/' | b'#'))
            // (The masks hold bytes after the host too. A `_` the glance
            // does not take: such a host is checked in full.)
            && let host = (1u64 << (p - body)) - 1
            && (m.dots & host).count_ones() < 2
            && m.underscores & host == 0
        {
            return Err(p - body);
        }
        if authority && path && !host_ok(auth_end) {
            return Err(2 * (p - body));
        }
        // The path, query and fragment.
        let (mut depth, mut hash) = (0usize, false);
        // A character other than ASCII and the letters, marks and digits
        // of two or three bytes that `plain_run` steps over: the IRI
        // grammar may not allow it where it stands (a private-use
        // character outside the query), so the validator judges.
        let mut unproven_char = false;
        // A `%` in the path that starts no `%HH` triplet (the host has none:
        // `plain_host_run`).
        let mut bad_percent = false;
        // Where the last such character ends.
        let mut other_end = 0;
        if path {
            loop {
                p = path_run(hay, p, limit.min(hay.len()));
                let Some(&b) = hay.get(p) else { break };
                if p >= limit {
                    return Err(p - body);
                }
                p += match b {
                    b'(' => {
                        depth += 1;
                        1
                    }
                    b')' if depth == 0 => break,
                    b')' => {
                        depth -= 1;
                        1
                    }
                    b'#' if hash => return Err(p - body),
                    b'#' => {
                        hash = true;
                        1
                    }
                    b'\'' => return Err(p - body),
                    // A `%HH` triplet, and those right after it
                    // (`%E6%9D%B1`, an encoded character), or a `%` that
                    // starts none: the validator will judge the link.
                    b'%' => {
                        // (Triplets that end by the maximum length: one
                        // across it is left to the full reading, as
                        // `path_run` stops there.)
                        let within = &hay[..limit.min(hay.len())];
                        let mut q = p;
                        while is_triplet(within, q) {
                            q += 3;
                        }
                        bad_percent |= q == p;
                        (q - p).max(1)
                    }
                    _ => {
                        // `path_run` took every other ASCII IRI character.
                        debug_assert!(b >= 0x80 || !ascii_is(b, ascii::IRI), "{b:#x}");
                        // (Most paths end at white space: no call.)
                        let next = if b < 0x80 {
                            ascii_next(b, ctx)
                        } else {
                            next(p, b)
                        };
                        match next {
                            Next::Go(n) => {
                                unproven_char = true;
                                other_end = p + n;
                                n
                            }
                            Next::End => break,
                            Next::Full => return Err(p - body),
                        }
                    }
                };
            }
        }
        let read = p - body;
        // Most links end with a letter, a digit or `/`: nothing to trim
        // (`trim` would stop at once). A non-ASCII byte last is the end of
        // a letter, mark or digit `plain_run` stepped over (never trimmed)
        // unless `next` let the character through.
        let end = match hay[..p].last() {
            Some(&b) if p > body && b.is_ascii() && !ascii_is(b, ascii::TRIM) && b != b'-' => p,
            Some(&b) if p > body && b >= 0x80 && p != other_end => p,
            Some(&b)
                if p > body
                    && b >= 0x80
                    && !decode_before(hay, p).is_some_and(|(c, _)| is_trimmed_non_ascii(c)) =>
            {
                p
            }
            // One trimmed ASCII byte (a link ending a sentence, `….html.`)
            // after a letter, digit or `/`, or after a letter, mark or
            // digit of another script that the runs stepped over: `trim`
            // would strip it and stop there.
            Some(&b)
                if p > body + 1 && ascii_is(b, ascii::TRIM) && {
                    let before = hay[p - 2];
                    before.is_ascii_alphanumeric()
                        || before == b'/'
                        || (before >= 0x80 && p - 1 != other_end)
                } =>
            {
                p - 1
            }
            _ => {
                let mut stack = Vec::new();
                let mut fw = Forward::new(&mut stack, body);
                fw.hash = hash;
                self.trim(body, p, &mut fw, Some(auth_end))
            }
        };
        // (A host the full reading checks twice, before and after the
        // trim, is left to it.)
        if end <= body || (path && end < auth_end) {
            return Err(read);
        }
        let read = read + end.min(auth_end) - body;
        if !path && !host_ok(end) {
            return Err(read);
        }
        let c = Candidate::new(start, end, kind).with_proven_valid(!unproven_char && !bad_percent);
        Ok((c, read))
    }

    fn candidate_in(
        &self,
        spec: &Spec,
        stack: &mut Vec<char>,
        run: &mut BracketRun,
        state: &mut ScanState,
        glued: Option<(usize, usize)>,
    ) -> Result<Candidate, Wrap> {
        let hay = self.hay;
        let Spec {
            start,
            body,
            authority,
            kind,
            ctx,
            ..
        } = *spec;
        stack.clear();
        let mut fw = Forward::new(stack, body);
        let limit = start + self.opts.max_len;
        let mut end;
        let mut stop;
        let unclosed = |fw: &Forward, stop: Stop, end: usize| {
            ctx == Context::Angle
                && fw.wrapped
                && (stop != Stop::End || hay.get(end) != Some(&b'>'))
        };
        // The authority, up to the first `/`, `?` or `#` (RFC 3986 §3.2).
        let mut auth_end = None;
        // The authority end whose host already passed the host checks.
        let mut checked = None;
        let mut known_cut = None;
        let mut read_to_end = false;
        if authority {
            // A `www.` host inside a run whose unclosed brackets are known
            // (`www.a[www.a[…`) is read only up to the first of them after
            // `body`, where it is cut, as a path is (see `BracketRun`): a
            // `www.` candidate has no user, and up to that bracket the
            // host holds no character of three bytes or more, so no prose
            // glued to a label cuts it before (only a spaceless script
            // glues, all of whose letters take three bytes; a `,` still
            // may cut it: that cut then comes first, as in the full
            // reading).
            // (Or where the last run of `www.` hosts read holds no letter of
            // three bytes after an ASCII letter from `body` to the bracket:
            // no prose is glued to a label there either.)
            let www_bound = match (kind, ctx) {
                // Cut at `o` whatever the run holds: see `www_past_limit`.
                _ if glued.is_some() => glued.map(|(o, _)| o),
                (Kind::Www, Context::Plain | Context::Quote(_)) => {
                    run.www_cut_for(body).filter(|&o| {
                        o < limit
                            && (!hay[body..o].iter().any(|&b| b >= 0xE0)
                                || state.www_run.glue_free_over(body, o))
                    })
                }
                _ => None,
            };
            (end, stop) = self.forward(
                body,
                &mut fw,
                ctx,
                true,
                kind == Kind::Www,
                www_bound.unwrap_or(limit),
                state,
            );
            if stop == Stop::Rejected {
                return Err(Wrap::Rejected);
            }
            // Ended at the `,` that cuts the host whatever follows: the cut
            // below finds nothing before it, and the candidate ends there
            // as where the full authority was read and cut.
            let comma = stop == Stop::Comma;
            if comma {
                stop = Stop::End;
            }
            if let Some(o) = www_bound
                && stop == Stop::Limit
            {
                debug_assert_eq!(end, o);
                stop = Stop::End;
                known_cut = Some(o);
            }
            // A `www.` host read to the end of its run (not to a `@`, nor
            // cut below): its unclosed brackets are recorded as a path's.
            read_to_end = kind == Kind::Www
                && www_bound.is_none()
                && stop == Stop::End
                && !comma
                && matches!(ctx, Context::Plain | Context::Angle);
            if stop != Stop::Delimiter && unclosed(&fw, stop, end) {
                return Err(Wrap::Unclosed);
            }
            if kind == Kind::Www && stop != Stop::Limit && hay.get(end) == Some(&b'@') {
                // `www.foo.bar@baz.com` is an e-mail address. (An `@` right
                // at the maximum length is not read: the candidate is cut
                // there.)
                self.www_failed(spec, &fw, end, None, state);
                return Err(Wrap::Rejected);
            }
            // Prose glued to the host, or a character no DNS name has in the
            // host of a DNS scheme, ends the IRI there. (Where the full
            // reading's authority is known to end at `c`, past the bracket
            // the candidate is cut at, the host read up to that bracket
            // is not the full reading's: its last label is not that
            // host's, and prose glued to it cuts nothing.)
            debug_assert!(glued.is_none() || stop == Stop::End);
            if !fw.wrapped
                && glued.is_none()
                && let Some(cut) = authority_cut_seen(hay, &fw, end, spec.dns)
            {
                end = cut;
                stop = Stop::End;
                known_cut = None;
                read_to_end = false;
                // Trimming counts the quotes before the cut only
                // (`http://1','`: `http://1`).
                fw.quotes = memchr::memchr_iter(b'\'', &hay[body..end]).count();
            }
            auth_end = Some(glued.map_or(end, |(_, c)| c));
            if stop == Stop::Delimiter && !fw.wrapped {
                // With a `[` or `{` open, the host checked here may not be
                // the candidate's (it may be cut at that bracket and
                // trimmed): its checks then leave no memo (on a copy of
                // the state), as `cut_in_authority_fails` leaves none; the
                // host the candidate ends with is checked on the state.
                // So with a `?`: what follows it may all be trimmed, and
                // trimming go on into the host (`…c%-?`: `…c%`), until
                // `host_is_final` says otherwise — a memo of a failure
                // trimming may undo would condemn later `www.` hosts that
                // pass.
                let open = fw.stack.iter().any(|&o| o == '[' || o == '{');
                let query = hay[end] == b'?';
                let passed = if open || query {
                    self.host_ok(spec, &fw, end, false, &mut state.clone())
                } else {
                    self.host_ok(spec, &fw, end, false, state)
                };
                if passed {
                    checked = Some(end);
                } else if (!open || self.cut_in_authority_fails(spec, &mut fw, end, state))
                    && self.host_is_final(end, &fw, ctx, limit, state)
                {
                    // (An unclosed `[` or `{` in the authority may yet end
                    // the IRI in front of it, host and all: see
                    // `cut_in_authority_fails`.)
                    if query && !open {
                        // Final: now its memo may be kept.
                        self.host_ok(spec, &fw, end, false, state);
                    }
                    return Err(Wrap::Rejected);
                }
            }
        } else {
            end = body;
            stop = Stop::Delimiter;
        }
        // The path (or the whole candidate without an authority). Inside a
        // run whose unclosed brackets are known, it is read only up to the
        // first of them after `body`, where it is cut (see `BracketRun`).
        // A bracket of the authority that the run says nothing closes cuts
        // the candidate there whatever its path holds: the path need not be
        // read (`http://a.b[http://a.b[…`, a link each).
        if stop == Stop::Delimiter
            && ctx != Context::Angle
            && let Some(o) = run.authority_cut_for(body, end, limit)
            && first_unclosed_bracket(hay, body, end) == Some(o)
        {
            stop = Stop::End;
            known_cut = Some(o);
        }
        if stop == Stop::Delimiter {
            let bound = match ctx {
                Context::Angle => None,
                _ => run.cut_for(body, end).filter(|&o| o < limit),
            };
            (end, stop) = self.forward(
                end,
                &mut fw,
                ctx,
                false,
                false,
                bound.unwrap_or(limit),
                state,
            );
            if let Some(o) = bound
                && stop == Stop::Limit
            {
                debug_assert_eq!(end, o);
                stop = Stop::End;
                known_cut = Some(o);
            }
            read_to_end = bound.is_none()
                && stop == Stop::End
                && matches!(ctx, Context::Plain | Context::Angle);
        }
        if unclosed(&fw, stop, end) {
            return Err(Wrap::Unclosed);
        }
        let truncated = stop == Stop::Limit;
        if !truncated {
            // An unclosed `[` or `{` ends the IRI in front of it
            // (docs/rules.md §1.2): `http://a.example/{x` is
            // `http://a.example/`. Only a candidate with LEIRI characters
            // holds one (an IP-literal's brackets are closed).
            let open = known_cut.or_else(|| {
                if fw.first_leiri >= end {
                    return None;
                }
                let open = run.record(hay, body, end, read_to_end);
                debug_assert_eq!(open, first_unclosed_bracket(hay, body, end));
                open
            });
            if let Some(open) = open {
                debug_assert!(
                    known_cut.is_none() || first_unclosed_bracket(hay, body, open).is_none()
                );
                end = open;
                fw.quotes = memchr::memchr_iter(b'\'', &hay[body..end]).count();
            }
            end = self.trim(body, end, &mut fw, auth_end);
        }
        if end <= body {
            return Err(Wrap::Rejected);
        }
        if let Some(a) = auth_end
            && checked != Some(end.min(a))
            && !(if truncated && end > a && hay[a] == b'?' {
                // Cut at the maximum length after its `?`: a later
                // candidate reads on and may trim back into the host (see
                // above), so a failure here leaves no memo.
                self.host_ok(spec, &fw, a, false, &mut state.clone())
            } else {
                self.host_ok(spec, &fw, end.min(a), truncated && end <= a, state)
            })
        {
            return Err(Wrap::Rejected);
        }
        let wrapped = fw.wrapped && hay[start..end].iter().any(|&b| ascii_is(b, ascii::SPACE));
        Ok(Candidate::new(start, end, kind)
            .with_wrapped(wrapped)
            .with_leiri(fw.first_leiri < end)
            .with_truncated(truncated))
    }

    /// With the host of the authority `spec.body..a` failing its checks and
    /// a `[` or `{` left open in it: whether the candidate is rejected
    /// whatever its path holds, so that the path need not be read
    /// (`http://[http://[…` read each candidate to the maximum length, 8
    /// KiB a trigger: half a megabyte a second). The path either closes
    /// every bracket left open in the authority (brackets nest: the host
    /// stays and fails again), or runs to the maximum length (a truncated
    /// candidate is not cut: the same), or leaves the first of them, `o`,
    /// open, and the candidate is cut there (docs/rules.md §1.2). (A closer
    /// is never trimmed, and a `[digits]` footnote mark cannot span the
    /// `/ ? #` that ended the authority, so a closed bracket keeps the
    /// host whole.) This reads that last candidate as the full reading
    /// would, up to `o`, and checks its host on a copy of the scan state
    /// (no memo comes of it). In `<…>` the full reading would read the
    /// candidate again as plain text where its path wraps with no `>`
    /// after it; that reading's authority is this one (no white space in
    /// it), so it is rejected too.
    fn cut_in_authority_fails(
        &self,
        spec: &Spec,
        fw: &mut Forward<'_>,
        a: usize,
        state: &ScanState,
    ) -> bool {
        let hay = self.hay;
        let body = spec.body;
        let Some(o) = first_unclosed_bracket(hay, body, a) else {
            return true;
        };
        let quotes = fw.quotes;
        fw.quotes = memchr::memchr_iter(b'\'', &hay[body..o]).count();
        let end = self.trim(body, o, fw, Some(a));
        fw.quotes = quotes;
        end <= body || !self.host_ok(spec, fw, end.min(a), false, &mut state.clone())
    }

    /// Notes the byte at `p`, which no DNS host holds, in `fw.non_dns`;
    /// true where it is the first of the host of a `www.` candidate from
    /// `from` and rejects it ([`www_prefix_final`](Scanner::www_prefix_final)).
    #[inline(always)]
    fn non_dns_at(
        &self,
        fw: &mut Forward<'_>,
        from: usize,
        p: usize,
        www: bool,
        ctx: Context,
    ) -> bool {
        if www && fw.non_dns > p && self.www_prefix_final(from, p, self.hay[p], ctx) {
            return true;
        }
        fw.non_dns = fw.non_dns.min(p);
        false
    }

    /// For the host of a `www.` candidate from `from` (not in `<…>`) whose
    /// first byte that no DNS name holds is `b` at `p`: whether the
    /// candidate is rejected whatever follows, so that the rest of the
    /// run need not be read (`www.a:www.a:…`, `www.a(www.a(…` read each
    /// candidate to the end of its run: a `:` or `(` keeps the memo of
    /// failed hosts from applying). It is when `b` is a `:` (the host
    /// ends there) or a character that fails any host holding it (`! $ &
    /// ( ) * + ; = ~`: not `,`, which cuts the host, nor a quote, nor a
    /// LEIRI character, which the host checks let through), and the
    /// bytes before it hold fewer than two dots: a host that ends at or
    /// before `p` (cut, trimmed, or at the port) has at most two labels,
    /// and a `www.` host needs three; one that goes on past `p` holds
    /// `b`. (Prose glued to a label, a `,` or a bracket may cut the host
    /// anywhere: at or before `p`, the first case; after it, the second.)
    fn www_prefix_final(&self, from: usize, p: usize, b: u8, ctx: Context) -> bool {
        ctx != Context::Angle
            && matches!(
                b,
                b':' | b'!' | b'$' | b'&' | b'(' | b')' | b'*' | b'+' | b';' | b'=' | b'~'
            )
            && memchr::memchr_iter(b'.', &self.hay[from..p])
                .nth(1)
                .is_none()
    }

    /// For the host of a `www.` candidate from `from` whose first byte that
    /// no DNS name holds is a `,` at `c`: whether the candidate is cut at
    /// `c` whatever follows, so that the rest of the run need not be read
    /// (`www.a.b.c,www.a.b.c,…` read each candidate to the end of its run,
    /// a link each). The full reading cuts a DNS host at its first `,`
    /// after the first byte no DNS name holds, `c` (no port's `:` before
    /// it), or earlier where prose is glued to its last label — which
    /// needs a letter of a spaceless script, of three bytes, before `c`
    /// (past `c`, the cut is after `c`): none may come before it. And it
    /// rejects the candidate where its host ends at an `@` (an address
    /// follows): no `@` may come before the first byte after `c` that ends
    /// any authority (`/ ? #`, white space, `" < > \ |`), or before
    /// the maximum length (the cut applies to a candidate read to it).
    /// Not in `<…>`, where a wrapped line keeps the host whole.
    fn www_comma_final(
        &self,
        from: usize,
        c: usize,
        limit: usize,
        ctx: Context,
        state: &mut ScanState,
    ) -> bool {
        let hay = self.hay;
        if ctx == Context::Angle || hay[from..c].iter().any(|&b| b >= 0xE0) {
            return false;
        }
        state.work += (c - from) as u64;
        let bound = limit.min(hay.len());
        let (f, z, found) = state.comma_probe;
        let inside = f <= c + 1 && c < z;
        let (z, found) = if inside && (found || z >= bound) {
            (z, found)
        } else {
            // Look on from where the last look stopped, if `c` is inside
            // it, else from `c`: every byte is looked at about once.
            let (f, start) = if inside { (f, z) } else { (c + 1, c + 1) };
            let mut p = start;
            while p < bound && !AUTHORITY_ENDS_OR_AT[hay[p] as usize] {
                p += 1;
            }
            state.work += (p - start) as u64;
            state.comma_probe = (f, p, p < bound);
            (p, p < bound)
        };
        !(found && z < bound && hay[z] == b'@')
    }

    /// Host checks on the authority of `spec` ending at `end`: no dotless
    /// non-ASCII host; a plausible DNS host for DNS schemes and `www.`.
    /// `truncated`: the host was cut at the maximum length.
    fn host_ok(
        &self,
        spec: &Spec,
        fw: &Forward,
        end: usize,
        truncated: bool,
        state: &mut ScanState,
    ) -> bool {
        let hay = self.hay;
        let (h0, h1) = fw.host_range(hay, end);
        state.work += (h1 - h0) as u64;
        // A host wrapped over lines is checked without its white space.
        let compact;
        let (host, base) = if fw.wrapped && hay[h0..h1].iter().any(|&b| ascii_is(b, ascii::SPACE)) {
            compact = hay[h0..h1]
                .iter()
                .copied()
                .filter(|&b| !ascii_is(b, ascii::SPACE))
                .collect::<Vec<u8>>();
            (&compact[..], None)
        } else {
            (hay, Some(h0))
        };
        let (c0, c1) = match base {
            Some(_) => (h0, h1),
            None => (0, host.len()),
        };
        if is_dotless_non_ascii(&host[c0..c1]) {
            return false;
        }
        if !spec.dns {
            return true;
        }
        // The forward scan noted the first byte no DNS host holds: only a
        // host with one can hold a character that makes it implausible.
        let suspect = base.is_none() || fw.non_dns < h1;
        if suspect && let Some(x) = last_non_dns_char(&host[c0..c1]) {
            // Every later `www.` whose host starts at or before `x` holds
            // it too. (A host cut at the maximum length was not trimmed,
            // and a later candidate, which reads on past that cut, may end
            // right there and be trimmed back past `x`: unless an ASCII
            // letter, which nothing trims and which ends no candidate,
            // follows `x` in the host or is the byte at the cut.)
            if base.is_some()
                && (!truncated
                    || hay[h0 + x + 1..hay.len().min(h1 + 1)]
                        .iter()
                        .any(u8::is_ascii_alphabetic))
            {
                self.www_failed(spec, fw, h1, Some(h0 + x), state);
            }
            return false;
        }
        let min_labels = if spec.kind == Kind::Www { 3 } else { 1 };
        match check_dns_host(host, c0, c1, min_labels) {
            Ok(()) => true,
            Err(e) => {
                if base.is_some() {
                    let from = match e.label {
                        Some(l) if !(truncated && l == e.last_label) => Some(l),
                        // Too long: every host of 4 × 254 bytes or more has
                        // 254 or more in its ASCII form (≤ 4 bytes a char),
                        // but a shorter one (`www.` + 157 bytes of IDN
                        // labels, the later `www.` inside it) may pass.
                        None if e.too_long || h1 - h0 > MAX_HOST_LEN => {
                            Some(h1.saturating_sub(4 * (MAX_HOST_LEN + 1)))
                        }
                        // Too few labels: a later `www.` inside has fewer.
                        None if !truncated => Some(h1),
                        _ => None,
                    };
                    if let Some(from) = from {
                        self.www_failed(spec, fw, h1, Some(from), state);
                    }
                }
                false
            }
        }
    }

    /// Records that a `www.` candidate failed in a way every later `www.`
    /// trigger before `until` whose host starts at or before `from` (default:
    /// `until`) fails too — provided the host holds no character that could
    /// make a later scan over it stop elsewhere or start in another context
    /// (brackets, quotes, `@`, `:`, `/?#`).
    fn www_failed(
        &self,
        spec: &Spec,
        fw: &Forward,
        until: usize,
        from: Option<usize>,
        state: &mut ScanState,
    ) {
        if spec.kind != Kind::Www || spec.ctx != Context::Plain || fw.wrapped {
            return;
        }
        // The forward scan noted the first character that would make the
        // memo unsound; the unit tests check that note against a reading.
        #[cfg(any(test, feature = "fuzzing"))]
        assert_eq!(fw.unclean >= until, self.plain_host(spec.start, until));
        if fw.unclean < until {
            return;
        }
        state.work += (until - spec.start) as u64;
        state.www_dead_until = until;
        state.www_dead_from = from.unwrap_or(until);
        // Triggers `t < until` with `t - 3 <= from`.
        state.www_skip_to(until.min(state.www_dead_from + 4));
    }

    /// Whether `hay[from..until]` holds no character that could make a scan
    /// over it stop elsewhere or start in another context (what
    /// `Forward::unclean` notes on the way).
    #[cfg(any(test, feature = "fuzzing"))]
    fn plain_host(&self, from: usize, until: usize) -> bool {
        let hay = self.hay;
        let mut p = from;
        while p < until {
            let b = hay[p];
            if b < 0x80 {
                if !ascii_is(b, ascii::IRI) || b"()'@:/?#".contains(&b) {
                    return false;
                }
                p += 1;
            } else {
                match decode_at(hay, p) {
                    Some((c, n)) if classify(c) == Class::Iri && c != '‘' => p += n,
                    _ => return false,
                }
            }
        }
        true
    }

    /// Whether the authority ending at `p` (at `/`, `?` or `#`) stays in
    /// the candidate whatever follows, so that a failed host check is final
    /// and the rest need not be read (this keeps `http://-a/http://-a/…`
    /// linear). `/` and `#` are never trimmed; after `?` the candidate could
    /// still be trimmed back to the authority if all that follows up to its
    /// end is strippable, which we find out by reading just that run.
    fn host_is_final(
        &self,
        p: usize,
        fw: &Forward<'_>,
        ctx: Context,
        limit: usize,
        state: &mut ScanState,
    ) -> bool {
        let hay = self.hay;
        if hay[p] != b'?' {
            return true;
        }
        if ctx == Context::Angle {
            return false;
        }
        // The run of characters that trimming might strip (§1.3), footnote
        // digits and brackets included.
        let mut r = p;
        while r < hay.len() {
            let b = hay[r];
            if b < 0x80 {
                if !(ascii_is(b, ascii::TRIM) || b.is_ascii_digit() || matches!(b, b'\'' | b']')) {
                    break;
                }
                r += 1;
            } else {
                match decode_at(hay, r) {
                    Some((c, n)) if is_trimmed_non_ascii(c) => r += n,
                    _ => break,
                }
            }
        }
        if r >= hay.len() || r >= limit {
            return false;
        }
        // A `[` or `{` in the run that nothing closes would cut the
        // candidate there, and trimming go on from it into the authority
        // (`http://a.com-?[x`: `http://a.com`): not final.
        if hay[p..r].iter().any(|&b| matches!(b, b'[' | b'{')) {
            return false;
        }
        // Does the candidate end within that run? Read it as the forward
        // scan would, on a copy of the bracket stack.
        let mut stack = fw.stack.clone();
        let mut probe = Forward {
            stack: &mut stack,
            quotes: fw.quotes,
            first_leiri: fw.first_leiri,
            hash: fw.hash,
            wrapped: false,
            host_start: fw.host_start,
            unclean: fw.unclean,
            non_dns: fw.non_dns,
            host_memo: fw.host_memo.clone(),
        };
        let (q, stop) = self.forward(p, &mut probe, ctx, false, false, r + 1, state);
        !(stop == Stop::End && q <= r)
    }

    /// The forward scan from `p`: consumes candidate characters, keeping
    /// brackets balanced, until a character that ends the candidate, the
    /// maximum length, or (for an authority) `/`, `?`, `#`.
    #[allow(clippy::too_many_arguments)]
    fn forward(
        &self,
        mut p: usize,
        fw: &mut Forward,
        ctx: Context,
        authority: bool,
        www: bool,
        limit: usize,
        state: &mut ScanState,
    ) -> (usize, Stop) {
        let hay = self.hay;
        let from = p;
        let stop = loop {
            let Some(&b) = hay.get(p) else {
                break Stop::End;
            };
            if p >= limit {
                p = boundary_within(hay, from, limit);
                break Stop::Limit;
            }
            if b < 0x80 {
                // Letters, digits and the like: nothing to keep track of
                // but whether a host may hold them.
                let d = DENSE[b as usize];
                if d & DENSE_PLAIN != 0 {
                    if d & DENSE_HOST == 0 {
                        if www
                            && b == b','
                            && fw.non_dns > p
                            && self.www_comma_final(from, p, limit, ctx, state)
                        {
                            break Stop::Comma;
                        }
                        if self.non_dns_at(fw, from, p, www, ctx) {
                            break Stop::Rejected;
                        }
                    }
                    // The rest of a run of such bytes that a host may
                    // hold, in a tight loop (hosts may be kilobytes long).
                    p = plain_run(hay, p + 1, limit.min(hay.len()));
                    continue;
                }
                // (No byte a host holds is other than plain: a check after
                // `DENSE`.)
                if self.non_dns_at(fw, from, p, www, ctx) {
                    break Stop::Rejected;
                }
                let f = ASCII[b as usize];
                if f & ascii::IRI != 0 {
                    fw.unclean = fw.unclean.min(p);
                    match b {
                        b'/' | b'?' | b'#' if authority => break Stop::Delimiter,
                        b'@' if authority => {
                            if www {
                                break Stop::End;
                            }
                            fw.host_start = p + 1;
                            fw.non_dns = usize::MAX;
                        }
                        b'(' => fw.stack.push('('),
                        b')' => {
                            if fw.stack.last() == Some(&'(') {
                                fw.stack.pop();
                            } else {
                                break Stop::End;
                            }
                        }
                        b'\'' => {
                            if ctx == Context::Quote('\'') {
                                break Stop::End;
                            }
                            fw.quotes += 1;
                        }
                        b'#' => {
                            // A second `#`: in the fragment, a LEIRI
                            // character (`https://matrix.to/#/#room:…`).
                            if fw.hash {
                                fw.first_leiri = fw.first_leiri.min(p);
                            }
                            fw.hash = true;
                        }
                        _ => {}
                    }
                    p += 1;
                } else if f & ascii::TEXT_EXTRA != 0 {
                    fw.unclean = fw.unclean.min(p);
                    if b == b'[' && authority && p == fw.host_start {
                        // IP-literal (RFC 3986 §3.2.2): up to its `]`. One
                        // that no `]` closes (`ftp://[[user]…`) is a bracket
                        // like any other, never a place to cut the
                        // candidate (docs/rules.md §1.6).
                        let close = ip_literal_end(hay, p, limit);
                        if hay[close - 1] == b']' {
                            fw.quotes += memchr::memchr_iter(b'\'', &hay[p..close]).count();
                            p = close;
                            continue;
                        }
                    }
                    match b {
                        b'[' | b'{' => fw.stack.push(b as char),
                        b']' | b'}' => {
                            let open = if b == b']' { '[' } else { '{' };
                            if fw.stack.last() == Some(&open) {
                                fw.stack.pop();
                            } else {
                                break Stop::End;
                            }
                        }
                        _ => {}
                    }
                    fw.first_leiri = fw.first_leiri.min(p);
                    p += 1;
                } else if f & ascii::SPACE != 0 && ctx == Context::Angle {
                    // `<…>` wrapped over lines (RFC 3986 Appendix C), or
                    // with one space inside: skip ASCII white space that
                    // holds a line break, or a single space when no other
                    // white space comes before the `>`, if the IRI goes on
                    // (docs/rules.md §1.4). Other white space is prose:
                    // `<https://a.example/help or write to us>`.
                    let mut q = p;
                    while q < hay.len() && q < limit && ascii_is(hay[q], ascii::SPACE) {
                        q += 1;
                    }
                    let glue = hay[p..q].iter().any(|&b| matches!(b, b'\n' | b'\r'))
                        || (q == p + 1 && b == b' ' && {
                            let (closes, read) = angle_closes_first(hay, q, limit);
                            state.work += read as u64;
                            closes
                        });
                    if glue && q < limit && self.continues_at(q) && hay[q] != b'>' {
                        fw.wrapped = true;
                        p = q;
                    } else {
                        break Stop::End;
                    }
                } else {
                    break Stop::End;
                }
            } else {
                // Letters and digits, and the plain run after them.
                let q = plain_run(hay, p, limit.min(hay.len()));
                if q > p {
                    p = q;
                    continue;
                }
                let two = decode_two_byte(hay, p);
                let Some((c, n)) = two.map(|c| (c, 2)).or_else(|| decode_at(hay, p)) else {
                    break Stop::End;
                };
                match classify(c) {
                    Class::Iri => {
                        if ctx == Context::Quote(c) {
                            break Stop::End;
                        }
                        if c == '‘' {
                            fw.unclean = fw.unclean.min(p);
                        }
                    }
                    Class::End => break Stop::End,
                    Class::Open => {
                        fw.unclean = fw.unclean.min(p);
                        fw.stack.push(bracket_key(c).unwrap_or(c));
                    }
                    Class::Close => {
                        fw.unclean = fw.unclean.min(p);
                        let key = bracket_key(c);
                        if key.is_some() && fw.stack.last().copied() == key {
                            fw.stack.pop();
                        } else {
                            break Stop::End;
                        }
                    }
                }
                p += n;
            }
        };
        state.work += (p - from) as u64;
        (p, stop)
    }

    /// Strips trailing characters (docs/rules.md §1.3), repeatedly.
    fn trim(
        &self,
        body: usize,
        mut end: usize,
        fw: &mut Forward<'_>,
        auth_end: Option<usize>,
    ) -> usize {
        let hay = self.hay;
        while end > body {
            let Some((c, n)) = decode_before(hay, end) else {
                break;
            };
            let strip = match c {
                '-' => auth_end
                    .is_some_and(|a| end <= a && !hay[fw.host_start.min(end)..end].contains(&b':')),
                '\'' => {
                    let odd = fw.quotes % 2 == 1;
                    if odd {
                        fw.quotes -= 1;
                    }
                    odd
                }
                ']' => {
                    // A `[digits]` footnote mark ending the candidate.
                    let mut i = end - 1;
                    while i > body && hay[i - 1].is_ascii_digit() {
                        i -= 1;
                    }
                    if i < end - 1 && i > body && hay[i - 1] == b'[' {
                        end = i - 1;
                        continue;
                    }
                    false
                }
                c if !c.is_ascii() => is_trimmed_non_ascii(c),
                c => ascii_is(c as u8, ascii::TRIM),
            };
            if !strip {
                break;
            }
            end -= n;
        }
        end
    }

    /// An e-mail address around trigger `at` = `@` (docs/rules.md §1.1). When
    /// there is none, the error says where the search for the next `:` or
    /// `@` may resume (after the domain, which holds neither).
    fn try_email(&mut self, at: usize, state: &mut ScanState) -> Result<Candidate, usize> {
        let hay = self.hay;
        // The domain first (`a@a@a@…`: no dot, and the next trigger is
        // where it stops): letters, digits, `-` and `.` of any script.
        // Its ASCII run from the masks of one or two SSE2 loads (which
        // then serve the host checks), the rest (letters of other
        // scripts, a run past 32 bytes) a byte at a time.
        let (mut end, mut dot, masks) = match ByteMasks::of_domain_run(hay, at + 1) {
            Some((n, m)) => (at + 1 + n, m.dots & ((1u64 << n) - 1) != 0, Some(m)),
            None => (at + 1, false, None),
        };
        let ascii_end = end;
        let mut non_ascii = false;
        // A letter of four bytes: the validator judges the address (see
        // `proven_valid` below).
        let mut four = false;
        while end < hay.len() && end - at <= 256 {
            let b = hay[end];
            if b < 0x80 {
                if !ascii_is(b, ascii::DOMAIN) {
                    break;
                }
                dot |= b == b'.';
                end += 1;
            } else {
                match decode_at(hay, end) {
                    Some((c, n)) if is_word_char_non_ascii(c) => {
                        non_ascii = true;
                        four |= n == 4;
                        end += n;
                    }
                    _ => break,
                }
            }
        }
        state.work += (end - at) as u64;
        let miss = end;
        // `a@b.com_` is glued to an identifier, not an address (like
        // `http://a.com_`, docs/rules.md §1.1); a domain needs a dot.
        if !dot || end - at > 254 || hay.get(end) == Some(&b'_') {
            return Err(miss);
        }
        // `git@github.com:user/repo.git` is an scp-style location (user,
        // host, path), not an address (docs/rules.md §1.1).
        if hay.get(end) == Some(&b':') && hay.get(end + 1).is_some_and(|&b| starts_scp_path(b)) {
            return Err(miss);
        }
        // The local part: the run of local characters before `@`, its
        // ASCII end from one SSE2 load (the loop reads on where it ends
        // at a letter of another script, or goes past sixteen bytes).
        let floor = state.last_end;
        // (Never past `at`: were the floor after it, the loop reads nothing.)
        let mut i =
            ByteMasks::local_run_before(hay, at).map_or(at, |n| (at - n).max(floor).min(at));
        let mut spaceless = None;
        while i > floor {
            let b = hay[i - 1];
            if b < 0x80 {
                // ASCII: a table lookup (this runs for every `@`).
                if !ascii_is(b, ascii::EMAIL_LOCAL) {
                    break;
                }
                i -= 1;
            } else {
                let Some((c, n)) = decode_before(hay, i) else {
                    break;
                };
                if !is_word_char_non_ascii(c) {
                    break;
                }
                if spaceless.is_none() && is_spaceless_script(c) {
                    spaceless = Some(i);
                }
                four |= n == 4;
                i -= n;
            }
            if at - i > MAX_RUN {
                state.work += MAX_RUN as u64;
                return Err(miss);
            }
        }
        state.work += (at - i) as u64;
        // Prose in a spaceless script glued to an ASCII address:
        // `連絡先はinfo@example.jp` is `info@example.jp`.
        if let Some(s) = spaceless
            && hay[at - 1].is_ascii()
        {
            i = s;
        }
        while i < at && hay[i] == b'.' {
            i += 1;
        }
        if i == at {
            return Err(miss);
        }
        // (Prose glued to the domain needs a non-ASCII character.)
        if non_ascii && let Some(cut) = glued_prose_at(hay, at + 1, end) {
            end = cut;
        }
        while end > at + 1 && matches!(hay[end - 1], b'.' | b'-') {
            end -= 1;
        }
        // The last label starts with a letter (`?@24.79.92.194` is not an address).
        // (`rfind_byte`: a byte loop for a domain of fewer than 32 bytes,
        // where memrchr's call and set-up cost more than the loop.)
        let Some(dot) = rfind_byte(b'.', &hay[at + 1..end]) else {
            return Err(miss);
        };
        let tld = at + 2 + dot;
        let first = match hay.get(tld) {
            Some(&b) if b < 0x80 => Some(b as char),
            Some(_) => decode_at(hay, tld).map(|(c, _)| c),
            None => None,
        };
        if !first.is_some_and(char::is_alphabetic) {
            return Err(miss);
        }
        // (The masks are the domain's when the byte loop added nothing.)
        let masks = masks.filter(|_| end <= ascii_end);
        if check_dns_host_masked(hay, at + 1, end, 2, masks).is_err() {
            return Err(miss);
        }
        // Its IRI is `mailto:`, the local part with `%` written `%25`, `@`
        // and the domain: one path segment of ASCII letters, digits,
        // `. _ + - @`, `%25`, and letters, marks and digits of other
        // scripts. Those of two and three bytes are the ones `plain_run`
        // steps over, which the grammar allows in a path
        // (`what_plain_run_steps_over_the_grammar_allows_everywhere`); of
        // those of four bytes, some are not `ucschar` (the variation
        // selectors of plane 14).
        Ok(Candidate::new(i, end, Kind::Email).with_proven_valid(!four))
    }
}

/// Why a candidate was not produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrap {
    /// Not a link.
    Rejected,
    /// Read as wrapped in `<…>`, but no `>` closes it.
    Unclosed,
}

/// How much trimmed punctuation (`. , ; ! ?`) may come between the
/// colon of a registered scheme without `//` and the rest of its IRI
/// (`magnet:?xt=…`): a few bytes in real IRIs; the bound keeps the look
/// ahead of every colon short.
pub(crate) const MAX_OPAQUE_PUNCT: usize = 8;

/// Whether `b`, right after `user@host:`, starts the path of an scp-style
/// location (`git@github.com:user/repo.git`, `me@host:~/notes`,
/// `me@host:/etc`, `me@host:8022`) rather than prose after a colon
/// (`write to a@b.com: thanks`, `a@b.com:)`).
pub(crate) fn starts_scp_path(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'/' | b'~' | b'_')
}

/// Where an authority (its host starting at `host_start`, ending at `end`)
/// ends the IRI early by the rules of docs/rules.md §1.1: prose glued to
/// the host's last label, or, for DNS schemes, a `,` in the host. Nothing
/// else cuts a candidate (§1.6): a host or port that is no DNS name's is
/// rejected whole, by the host checks or by the validator.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn authority_cut(hay: &[u8], host_start: usize, end: usize, dns: bool) -> Option<usize> {
    let (h0, h1) = host_range(hay, host_start, end);
    let glued = glued_prose_at(hay, h0, h1);
    let dns_cut = if dns {
        crate::find::host_plausibility::dns_comma_cut(hay, h0, h1)
    } else {
        None
    };
    match (glued, dns_cut) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// [`authority_cut`] for the authority the forward scan `fw` just read up to
/// `end`: the first byte no DNS host holds is known from that scan.
fn authority_cut_seen(hay: &[u8], fw: &Forward<'_>, end: usize, dns: bool) -> Option<usize> {
    let (h0, h1) = fw.host_range(hay, end);
    let glued = glued_prose_at(hay, h0, h1);
    // A `,` is no DNS host byte: none before the first such byte.
    let dns_cut = if dns && hay.get(h0) != Some(&b'[') && fw.non_dns < h1 {
        memchr::memchr(b',', &hay[fw.non_dns..h1]).map(|i| fw.non_dns + i)
    } else {
        None
    };
    let cut = match (glued, dns_cut) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    // The unit tests (the reference scanner's property tests among them)
    // hold the shortcut to the full reading.
    #[cfg(any(test, feature = "fuzzing"))]
    assert_eq!(cut, authority_cut(hay, fw.host_start, end, dns));
    cut
}

/// What the ASCII character `b` (not one `plain_run` or `path_run` steps
/// over) does to a plain link in context `ctx`: it ends the link, or the
/// full reading is needed (white space inside `<…>` may be a wrapped
/// line).
#[inline(always)]
fn ascii_next(b: u8, ctx: Context) -> Next {
    let f = ASCII[b as usize];
    if f & (ascii::IRI | ascii::TEXT_EXTRA) == 0 && (ctx != Context::Angle || f & ascii::SPACE == 0)
    {
        Next::End
    } else {
        Next::Full
    }
}

/// Whether the host `hay[body..end]` of a plain link passes: a host of
/// another script needs a dot (`ldap://でなければ` is no link), and every
/// host the checks of a DNS name (from `masks` when the caller made them).
/// Inlined, not a closure's call: both places it is asked from are on
/// every link's way.
#[inline(always)]
fn plain_host_ok(
    hay: &[u8],
    body: usize,
    end: usize,
    idn: bool,
    min_labels: usize,
    masks: Option<ByteMasks>,
) -> bool {
    !(idn && is_dotless_non_ascii(&hay[body..end]))
        && check_dns_host_masked(hay, body, end, min_labels, masks).is_ok()
}

/// The end of the run from `p` (before `stop`) of what the forward scan has
/// nothing to note for: ASCII bytes that are plain and that a DNS host
/// holds, and letters and digits of two or three bytes (Latin, Greek,
/// Cyrillic, Arabic; CJK, kana, Hangul, Thai, Devanagari…), none of which is
/// a quote, a bracket or a character that ends an IRI. Runs of such text
/// make up most of a link, and a host may be kilobytes long.
#[inline(always)]
fn plain_run(hay: &[u8], p: usize, stop: usize) -> usize {
    run_over(hay, p, stop, |b| {
        DENSE[b as usize] & PLAIN_HOST == PLAIN_HOST
    })
}

/// [`plain_run`] without `%`, for the host of a plain link: a host with a
/// `%` is left to the full reading (rare), so that the triplets of a
/// plain link are all in its path, where the reading checks them.
#[inline(always)]
fn plain_host_run(hay: &[u8], p: usize, stop: usize) -> usize {
    run_over(hay, p, stop, |b| {
        DENSE[b as usize] & PLAIN_HOST == PLAIN_HOST && b != b'%'
    })
}

/// ASCII bytes that a plain link's path, query or fragment steps over with
/// nothing to note: the IRI characters but the brackets `(` `)`, the quote
/// `'`, `#` and `%` (whose triplet the reading checks).
static PATH_PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = ASCII[i] & ascii::IRI != 0 && !is_counted(b) && b != b'#' && b != b'%';
        i += 1;
    }
    t
};

/// [`plain_run`] after a plain link's host: the ASCII bytes of
/// [`PATH_PLAIN`] and the same letters of two or three bytes.
#[inline(always)]
fn path_run(hay: &[u8], p: usize, stop: usize) -> usize {
    run_over(hay, p, stop, |b| PATH_PLAIN[b as usize])
}

/// The end of the run from `p` (before `stop`) of ASCII bytes that are
/// `plain` and of the letters, marks and digits of two or three bytes
/// ([`is_word_char_non_ascii`]).
///
/// `stop` is at most `hay.len()`, and `plain` holds for no byte from 0x80
/// up (both tables' rule: those bytes are characters' and go to the
/// decoders).
///
/// Each step looks at the byte first and goes to the one reading it
/// needs: the ASCII loop, or [`word_len_at`], which tells a letter of two
/// or three bytes from its bytes as they stand (a bit table indexed by
/// them), without decoding it. Trying the ASCII loop, then two bytes,
/// then three, at every character, as this did before, took `www.ąwww.`
/// 11.5% more time (whole processes pinned to one core, forty pairs;
/// 13–17% in turns in one process, which the layout of the code sways)
/// though 8% fewer instructions, and a Thai path 70 instructions a letter
/// instead of 51. Decoding the character and looking it up in the BMP
/// table of pages, as this did until the bit table, took a Thai path 10
/// more instructions a letter, a link-dense text 2% more and `www.ąwww.`
/// 6% more. (A decoder straight into the index of that table, tried twice
/// before, took 3% fewer instructions on link-dense and multilingual
/// text, no less time, and 38% and 20% more time on `www.ąwww.`; and one
/// step for every character whatever its length, ASCII too, without a
/// branch on the length, 16% more instructions and 1.07 of the time.)
#[inline(always)]
fn run_over(hay: &[u8], mut p: usize, stop: usize, plain: impl Fn(u8) -> bool) -> usize {
    debug_assert!(stop <= hay.len());
    // A character must end by `stop`.
    let hay = &hay[..stop];
    while let Some(&b) = hay.get(p) {
        if b < 0x80 {
            if !plain(b) {
                return p;
            }
            p += 1;
            while let Some(&b) = hay.get(p)
                && plain(b)
            {
                p += 1;
            }
        } else {
            match word_len_at(hay, p) {
                0 => return p,
                n => p += n,
            }
        }
    }
    p
}

/// The host within an authority whose host part starts at `host_start` and
/// which ends at `end`: up to the port's `:` (not inside an IP-literal).
pub(crate) fn host_range(hay: &[u8], host_start: usize, end: usize) -> (usize, usize) {
    let h0 = host_start.min(end);
    let after_literal = if hay.get(h0) == Some(&b'[') {
        find_byte(b']', &hay[h0..end]).map_or(end, |i| h0 + i + 1)
    } else {
        h0
    };
    let h1 = find_byte(b':', &hay[after_literal..end]).map_or(end, |i| after_literal + i);
    (h0, h1)
}

/// The ASCII bytes of the runs of [`WwwRun`]: letters, digits,
/// `- . _ ~ %`, the sub-delimiters `! $ & * + ; =`, and `( [ { ^`. None of
/// them ends a forward scan in plain context, whatever its brackets (no
/// closer, no quote, no `@ : / ? #`, no white space), nor cuts an
/// authority (no `,`). (The host checks measure a `%` as the byte it is.)
/// How far a [`WwwRun`] is read at once, in maximum lengths from the
/// candidate that asks: a candidate cut at the maximum length condemns the
/// next `WWW_RUN_READ - 1` maximum lengths of candidates, so that one in
/// so many is read whole.
const WWW_RUN_READ: usize = 16;

/// A run shorter than this is read by [`WwwRun::read`] but not judged: it
/// holds at most a few `www.` candidates, each cheap to read whole (the
/// judging took `www.a/[` repeated 16% more instructions).
const WWW_RUN_SHORT: usize = 32;

static WWW_RUN: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'%'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'*'
                    | b'+'
                    | b';'
                    | b'='
                    | b'('
                    | b'['
                    | b'{'
                    | b'^'
            );
        i += 1;
    }
    t
};

/// A run of [`WWW_RUN`] bytes and of letters, marks and digits of two and
/// three bytes, and the `www.` candidates in it that fail, told from
/// reading it once:
/// every `www.` candidate starting after `dead_from` and before
/// `dead_until` fails. Before the full reading of a `www.` candidate the
/// scanner reads the run from it, unless the candidate is inside the last
/// run read (the plain reading, first, stops at the first bracket or
/// sub-delimiter of a host): `www.a[www.a[…`, `www.a.b(www.a.b(…` read
/// each candidate to the maximum length or to the run's end, and neither
/// the memo of failed hosts (brackets and sub-delimiters may make a later
/// scan stop elsewhere) nor [`BracketRun`] (the run may be longer than
/// the maximum length, or hold no bracket) applies. A candidate inside
/// the last run read does not read it again (it reads on where the window
/// or the bound cut the run), and a new run starts past the last: each
/// byte is read once.
///
/// Prose glued to a label (§1.1) cuts a host only at a letter of a
/// spaceless script, all of which take three bytes, right after an ASCII
/// letter: a run that holds no letter of three bytes after an ASCII one
/// (`glue` false) has no such cut, at least none before its end. Where it
/// has one, only the `@` case below holds; where it holds letters of
/// three bytes, the first case needs a maximum length of at least
/// 3 × 254 + 3 bytes.
///
/// Let `e` be the end of the run and `s` a start in it after its first
/// byte: the byte before `s` is of the run, so `s` is in plain context,
/// and the forward scan from `s` reads the run without stopping (unless a
/// `www.` host is rejected on the way, [`Scanner::www_prefix_final`]:
/// rejected all the same). Then:
/// - `s + max_len < e`, or `s + max_len = e` with a byte there: the
///   candidate is cut at the maximum length, its authority a host (no `:`,
///   no `,`, no prose glued) of at least `max_len - 1` ≥ 511 bytes of
///   characters of at most two bytes, 256 characters or more (or of
///   `max_len - 2` bytes of characters of at most three), each at least
///   one byte of its ASCII form: too long for DNS (253).
/// - `e` holds `@`: the host ends there, before an address (or the
///   candidate is cut at the maximum length first, the case above).
/// - `e` holds a byte that ends every candidate (white space, `" < > \ |`
///   and the like), or the haystack ends: the candidate ends at `e`,
///   unless cut at a `[` or `{` after `s` (none where `s` is past `lo`,
///   the last of them) or at the maximum length (the first case, or none
///   where `s` is past `e - max_len`), and is trimmed to `t` (the same `t`
///   for every `s` before it). Its host `s..t` fails where it holds a sub-delimiter,
///   `~` or `(` (the last one, `x`: `s <= x`), or has 509 bytes or more
///   (254 characters). This holds where the input goes on past the end of
///   a window as well: a scan from `s` then reads on past `e`, and every
///   host it can end with holds `s..t`.
///
/// A run is read up to [`WWW_RUN_READ`] maximum lengths from the
/// candidate that asks; one that goes on past that or past the end of the
/// window is `open`, and is read on from where it stopped when a later
/// candidate inside it needs more (the streaming driver's next window):
/// every byte is read about once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WwwRun {
    /// The run's first byte.
    from: usize,
    /// Where its reading stopped: the run's end, unless `open`.
    end: usize,
    /// The reading stopped at the end of the haystack or at its bound.
    open: bool,
    /// The last `[` or `{` of `from..end`; `from` if none.
    lo: usize,
    /// `from..end` holds a letter of three bytes ...
    three: bool,
    /// ... right after an ASCII letter (where prose may be glued to a
    /// label: see the type).
    glue: bool,
    dead_from: usize,
    dead_until: usize,
}

impl WwwRun {
    /// Whether the run condemns the `www.` candidate at `start`.
    #[inline(always)]
    fn condemns(&self, start: usize) -> bool {
        start > self.dead_from && start < self.dead_until
    }

    /// [`condemns`](WwwRun::condemns), and the candidate at the run's first
    /// byte too where it is in plain context (`plain`), which is all the
    /// rules ask of the byte before the others.
    fn condemns_at(&self, start: usize, plain: bool) -> bool {
        start < self.dead_until
            && (start > self.dead_from
                || (plain && start == self.from && self.dead_from == self.from))
    }

    /// Whether `from..to` lies in the run read so far, which holds no
    /// letter of three bytes right after an ASCII letter (so no prose
    /// glued to a label: only a spaceless script glues, and its letters
    /// all take three bytes).
    fn glue_free_over(&self, from: usize, to: usize) -> bool {
        self.from <= from && to <= self.end && !self.glue
    }

    /// Whether this run reads on from where it stopped for a `www.`
    /// candidate at `start`: it is inside it, and there is more to read.
    fn goes_on_at(&self, start: usize, hay_len: usize) -> bool {
        self.open && self.from < start && start <= self.end && self.end < hay_len
    }

    /// Whether the candidate at `start` needs a reading: it starts past the
    /// run (a new run), or the run goes on at it.
    fn needs_read(&self, start: usize, hay_len: usize) -> bool {
        !(self.from < start && start < self.end) || self.goes_on_at(start, hay_len)
    }

    /// Moves the run back by `by` bytes (see [`ScanState::shift`]): what it
    /// says of the bytes from `from` on holds of those that stay (a start
    /// after the window's new first byte has a byte of the run before it).
    fn shift(&mut self, by: usize) {
        for p in [
            &mut self.from,
            &mut self.end,
            &mut self.lo,
            &mut self.dead_from,
            &mut self.dead_until,
        ] {
            *p = p.saturating_sub(by);
        }
    }

    /// Reads the run of the `www.` candidate at `start` (on from where
    /// this one stopped, where it [`goes_on_at`](WwwRun::goes_on_at)
    /// `start`) and what it condemns. Returns the bytes read.
    fn read(&mut self, hay: &[u8], start: usize, max_len: usize) -> usize {
        if !self.goes_on_at(start, hay.len()) {
            *self = WwwRun {
                from: start,
                end: start,
                open: true,
                lo: start,
                three: false,
                glue: false,
                dead_from: start,
                dead_until: start,
            };
        }
        let cap = hay.len().min(start + WWW_RUN_READ * max_len + 1);
        let run = &hay[..cap.max(self.end)];
        let mut e = self.end;
        while let Some(&b) = run.get(e) {
            if b < 0x80 {
                if !WWW_RUN[b as usize] {
                    break;
                }
                e += 1;
                while let Some(&b) = run.get(e)
                    && WWW_RUN[b as usize]
                {
                    e += 1;
                }
            } else {
                let n = word_len_at(hay, e);
                if n == 0 || e + n > run.len() {
                    break;
                }
                if n == 3 {
                    self.three = true;
                    self.glue |= hay[e - 1].is_ascii_alphabetic();
                }
                e += n;
            }
        }
        let read = e - self.end;
        // (A character the bound or the window's end cuts is not known.)
        let open = e == run.len() || (hay[e] >= 0x80 && e + 4 > run.len());
        if !open && e - self.from < WWW_RUN_SHORT {
            // A short run (`www.a/…`, a link): its candidate's reading
            // costs little, and no other candidate starts in it to be
            // condemned. Recorded only so that it is not read again.
            (self.end, self.open) = (e, false);
            return read;
        }
        let fresh = &hay[self.end..e];
        let lo = if fresh.len() < 64 {
            fresh.iter().rposition(|&b| matches!(b, b'[' | b'{'))
        } else {
            memchr::memrchr2(b'[', b'{', fresh)
        };
        if let Some(i) = lo {
            self.lo = self.end + i;
        }
        (self.end, self.open) = (e, open);
        let (lo, until) = self.dead(hay, max_len);
        (self.dead_from, self.dead_until) = (lo, until);
        read
    }

    /// The range of starts the run read so far condemns (see the type).
    fn dead(&self, hay: &[u8], max_len: usize) -> (usize, usize) {
        let (from, e, lo) = (self.from, self.end, self.lo);
        let present = e < hay.len();
        // A host cut at the maximum length is too long where its characters
        // take at most two bytes, or three and the maximum length is at
        // least 3 × 254 + 3 bytes (the cut may fall two bytes short of it,
        // a root dot is not counted), and no prose glued to a label cut
        // it before.
        let cut_too_long = !self.three || (!self.glue && max_len >= 3 * (MAX_HOST_LEN + 1) + 3);
        let truncated = if cut_too_long {
            (e + usize::from(present)).saturating_sub(max_len)
        } else {
            from
        };
        if self.open && present {
            // Only what lies before the bound is known.
            return (from, truncated);
        }
        if present && hay[e] == b'@' {
            // (A candidate reading to the maximum length first is cut there.)
            return if cut_too_long {
                (from, e)
            } else {
                (from.max(e.saturating_sub(max_len)), e)
            };
        }
        if self.glue
            || present
                && (hay[e] >= 0x80
                    || ASCII[hay[e] as usize] & (ascii::IRI | ascii::TEXT_EXTRA) != 0)
        {
            // A byte that may or may not end a candidate, or a host prose
            // may be glued to.
            return (from, truncated);
        }
        // The end after trimming (ASCII: `-` and the trimmed punctuation;
        // a letter of two bytes is never trimmed, checked below).
        let mut t = e;
        while t > from
            && hay[t - 1] < 0x80
            && (hay[t - 1] == b'-' || ascii_is(hay[t - 1], ascii::TRIM))
        {
            t -= 1;
        }
        if t > from
            && hay[t - 1] >= 0x80
            && decode_before(hay, t).is_none_or(|(c, _)| is_trimmed_non_ascii(c))
        {
            return (from, truncated);
        }
        // Hosts from the 254th character before `t` on are too long (that
        // far back, at most 508 bytes); past that, only one holding `x`
        // fails (looked for where it condemns more).
        let mut long = t;
        let mut chars = 0;
        while long > from && chars <= MAX_HOST_LEN {
            long -= 1;
            chars += usize::from(!is_continuation(hay[long]));
        }
        let long = if chars > MAX_HOST_LEN { long + 1 } else { 0 };
        let floor = long.max(lo).max(truncated);
        let x = hay[floor.min(t)..t]
            .iter()
            .rposition(|&b| {
                b < 0x80 && ASCII[b as usize] & (ascii::DNS_HOST | ascii::TEXT_EXTRA) == 0
            })
            .map_or(0, |i| floor + i + 1);
        let failing = x.max(long);
        // Those rules hold for the starts whose reading gets to `e`: past
        // `lo`, and, where a candidate cut at the maximum length need not
        // be too long, past `e - max_len`.
        let reaching = if cut_too_long {
            lo
        } else {
            lo.max(e.saturating_sub(max_len))
        };
        if reaching < truncated {
            (from, truncated.max(failing))
        } else if truncated > from + 1 {
            (from, truncated)
        } else {
            (reaching, failing)
        }
    }
}

/// Units whose runs [`WwwRun`] reads: brackets, sub-delimiters, LEIRI
/// characters, `%`, letters of two and three bytes (with and without an
/// ASCII letter before one), for the tests of it here and in the
/// reference scanner.
#[cfg(test)]
pub(crate) const WWW_RUN_UNITS: &[&str] = &[
    "www.a[",
    "www.a.b.c(",
    "www.a.b.c^",
    "www.a.b.c%",
    "www.ą[",
    "[www.a",
    "www.a.b.c!",
    "www.é.b.c",
    "www.例.b.c[",
    "www.a例[",
    "www.例.b(",
];

/// The `[` and `{` that no `]` or `}` closes in a run of candidate
/// characters read to its end, so that a later candidate starting inside
/// the run finds where an unclosed bracket cuts it (docs/rules.md §1.2)
/// without reading the rest of the run again: text like
/// `http://a/{http://a/{http://a/{…` would otherwise cost its length
/// times the maximum IRI length.
///
/// Why the cut found so is the cut a full read finds. A forward scan keeps
/// brackets nested and ends at any closer that closes nothing, so all the
/// brackets it reads nest. Let the run be read from `from` to `end` by a
/// scan in plain or `<…>` context whose path part ended there (not at the
/// maximum length, not at a cut of the authority). A later scan from
/// `body` inside the run, whose path starts at or before `o`, the first
/// recorded opener at or after `body`, and that is not in `<…>` context
/// (which would read on over white space):
/// - reads the same bytes with the same brackets up to `o`, or stops
///   earlier (at a closer of a bracket opened before `body`, at a quote
///   closing its context); stopped before `o`, it ended as a full read
///   would;
/// - reaching `o`, it holds no other open bracket there: one opened
///   after `body` and before `o` and still open would enclose `o`, yet it
///   closes before `end` (it is not recorded) and `o` does not;
/// - after `o` it reads what the first scan read, stops no later than
///   `end` (the byte that stopped the first scan stops it too), and never
///   closes `o`. So `o` is its first unclosed bracket: the candidate is
///   cut there, and reading up to `o` is enough.
#[derive(Clone, Debug, Default)]
struct BracketRun {
    /// Where the run's scan started (the candidate's body).
    from: usize,
    /// Where it ended.
    end: usize,
    /// The unclosed `[` and `{` of `hay[from..end]`, in order.
    unclosed: Vec<usize>,
    /// The same for the last candidate read, before it is kept.
    scratch: Vec<usize>,
    /// The last `@` of `hay[from..end]`, if any: a `www.` host ends at an
    /// `@` (and is no link: an address follows), which a path reads on
    /// over, so a `www.` candidate may take a cut only before it
    /// ([`www_cut_for`](BracketRun::www_cut_for)).
    last_at: Option<usize>,
}

impl BracketRun {
    /// The same run known, whatever the scratch space holds.
    #[cfg(debug_assertions)]
    fn same_run(&self, other: &BracketRun) -> bool {
        (self.from, self.end, &self.unclosed, self.last_at)
            == (other.from, other.end, &other.unclosed, other.last_at)
    }

    /// [`cut_for`](BracketRun::cut_for) the host of a `www.` candidate at
    /// `body` (its authority, read as a path is but that it also ends at
    /// `/ ? #` and at `@`): the first unclosed bracket from `body` on, if
    /// no `@` of the run comes at or after it. (An `@` before it ends the
    /// reading before it, as it ends the full reading; `/ ? #` after it
    /// end the authority there, and the candidate is still cut at the
    /// bracket: the host checked at that delimiter either passes or is
    /// not final, `cut_in_authority_fails` finding the same cut.)
    fn www_cut_for(&self, body: usize) -> Option<usize> {
        self.cut_for(body, body)
            .filter(|&o| self.last_at.is_none_or(|a| a < o))
    }

    /// Where the candidate whose body starts at `body` and whose path
    /// starts at `path` is cut, if this run tells it.
    fn cut_for(&self, body: usize, path: usize) -> Option<usize> {
        if body < self.from || body >= self.end {
            return None;
        }
        let i = self.unclosed.partition_point(|&o| o < body);
        self.unclosed.get(i).copied().filter(|&o| o >= path)
    }

    /// The first unclosed bracket of the run from `body` on where it lies in
    /// the authority (before `auth_end`, itself inside the run) of a
    /// candidate whose body is `body` and whose maximum length ends at
    /// `limit`: the candidate is cut there whatever its path holds, where
    /// the caller finds that bracket the first unclosed one of the
    /// authority too. The authority's reading has passed that bracket
    /// without stopping (no closer of a bracket opened before `body`
    /// stopped it) and kept brackets as a path's reading does: an
    /// IP-literal it took whole (`[::1]`) nests as brackets do, and one
    /// holding a parenthesis (`[(]`, taken whole too) would have ended the
    /// run's path reading at that parenthesis or its `]`, inside the
    /// authority. So [`BracketRun`]'s proof holds from there on: the path,
    /// read on, stops no later than the run's end, before `limit` (so the
    /// candidate is not cut at the maximum length instead), and never
    /// closes the bracket.
    fn authority_cut_for(&self, body: usize, auth_end: usize, limit: usize) -> Option<usize> {
        if body < self.from || auth_end >= self.end || self.end >= limit {
            return None;
        }
        let i = self.unclosed.partition_point(|&o| o < body);
        self.unclosed.get(i).copied().filter(|&o| o < auth_end)
    }

    /// [`first_unclosed_bracket`] of `hay[from..to]`; when `read_to_end`
    /// (the run's scan ended at `to` as [`BracketRun`] says), remembers
    /// every unclosed bracket of the run.
    fn record(&mut self, hay: &[u8], from: usize, to: usize, read_to_end: bool) -> Option<usize> {
        unclosed_brackets(hay, from, to, &mut self.scratch);
        let first = self.scratch.first().copied();
        if read_to_end && first.is_some() {
            std::mem::swap(&mut self.scratch, &mut self.unclosed);
            self.from = from;
            self.end = to;
            self.last_at = memchr::memrchr(b'@', &hay[from..to]).map(|i| from + i);
        }
        first
    }
}

/// The first `[` or `{` in `hay[from..to]` that no `]` or `}` closes
/// within it (docs/rules.md §1.2). The forward scan already ended the
/// candidate at any closer that closes nothing, so brackets nest here.
pub(crate) fn first_unclosed_bracket(hay: &[u8], from: usize, to: usize) -> Option<usize> {
    // The bottom of `unclosed_brackets`' stack, without the stack: the
    // opener pushed when it was last empty, if it is not empty at the end.
    let (mut depth, mut bottom) = (0usize, 0);
    for (i, &b) in hay[from..to].iter().enumerate() {
        match b {
            b'[' | b'{' => {
                if depth == 0 {
                    bottom = from + i;
                }
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let first = (depth > 0).then_some(bottom);
    #[cfg(debug_assertions)]
    {
        let mut open = Vec::new();
        unclosed_brackets(hay, from, to, &mut open);
        debug_assert_eq!(first, open.first().copied());
    }
    first
}

/// Fills `open` with the `[` and `{` of `hay[from..to]` that no `]` or `}`
/// closes within it, in order (brackets nest there: see
/// [`first_unclosed_bracket`]).
fn unclosed_brackets(hay: &[u8], from: usize, to: usize, open: &mut Vec<usize>) {
    open.clear();
    for (i, &b) in hay[from..to].iter().enumerate() {
        match b {
            b'[' | b'{' => open.push(from + i),
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
    }
}

/// Whether, from `q` on (before `limit`), a `>` comes before any ASCII
/// white space or other ASCII character that no IRI or Legacy Extended IRI
/// holds: a single space inside `<…>` is then glue (docs/rules.md §1.4).
/// Also returns how many bytes it read.
fn angle_closes_first(hay: &[u8], q: usize, limit: usize) -> (bool, usize) {
    let stop = hay.len().min(limit).max(q);
    for (i, &b) in hay[q..stop].iter().enumerate() {
        if b == b'>' {
            return (true, i + 1);
        }
        if b < 0x80 && !ascii_is(b, ascii::IRI | ascii::TEXT_EXTRA) {
            return (false, i + 1);
        }
    }
    (false, stop - q)
}

/// The end of an IP-literal starting at `hay[p]` = `[`: after its `]`, or
/// where a character that cannot be in one stops it.
fn ip_literal_end(hay: &[u8], p: usize, limit: usize) -> usize {
    let mut i = p + 1;
    while i < hay.len() && i < limit && i - p < 64 {
        let b = hay[i];
        if b == b']' {
            return i + 1;
        }
        // IPv6address, IPvFuture: hex digits, `:` `.`, unreserved, sub-delims.
        if !ascii_is(b, ascii::UNRESERVED | ascii::SUB_DELIM | ascii::COLON) {
            break;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chars::every_string::for_every_string;
    use crate::chars::utf8::decode_three_byte;
    use crate::find::found_iri::candidate_is_valid;
    use crate::iri::parse::{Rule, Syntax, parse_packed};

    /// `context` reads the byte before a candidate (and for `‘` the two
    /// before that) as the character that ends there decodes: the same
    /// context as from `decode_before`, for every string of up to four
    /// bytes over `< : U r L '`, the bytes of `‘`, `é` and `参`, and bytes
    /// that start or continue no character, at every start; and for every
    /// string of two bytes.
    #[test]
    fn the_context_is_that_of_the_character_before() {
        let decoded = |hay: &[u8], start: usize| match (start > 0)
            .then(|| decode_before(hay, start))
            .flatten()
        {
            Some(('<', _)) => Context::Angle,
            Some((':', _))
                if start >= 5
                    && hay[start - 5] == b'<'
                    && hay[start - 4..start - 1].eq_ignore_ascii_case(b"URL") =>
            {
                Context::Angle
            }
            Some(('\'', _)) => Context::Quote('\''),
            Some(('‘', _)) => Context::Quote('’'),
            _ => Context::Plain,
        };
        let check = |alphabet: &[u8], most: u32| {
            let alphabet: Vec<[u8; 1]> = alphabet.iter().map(|&b| [b]).collect();
            for_every_string(&alphabet, 0..=most, |hay| {
                let scanner = Scanner::new(hay, Options::default());
                for start in 0..=hay.len() {
                    assert_eq!(
                        scanner.context(start),
                        decoded(hay, start),
                        "{hay:x?} {start}"
                    );
                }
            });
        };
        check(
            &[
                b'<', b':', b'U', b'r', b'L', b'\'', 0xE2, 0x80, 0x98, 0xF0, b'a', 0xC3, 0xA9,
                0xE5, 0x8F, 0x82, 0x99, 0xBF,
            ],
            4,
        );
        check(&(0..=255).collect::<Vec<u8>>(), 2);
        // `<URL:` in any case, and too near the start.
        for (text, start, want) in [
            ("<URL:x", 5, Context::Angle),
            ("<url:x", 5, Context::Angle),
            ("URL:x", 4, Context::Plain),
            ("<URI:x", 5, Context::Plain),
            ("a‘x", 4, Context::Quote('’')),
            ("‘x", 3, Context::Quote('’')),
        ] {
            let scanner = Scanner::new(text.as_bytes(), Options::default());
            assert_eq!(scanner.context(start), want, "{text}");
            assert_eq!(decoded(text.as_bytes(), start), want, "{text}");
        }
    }

    /// Pieces of text around the edges of what a plain link is: hosts
    /// with bad labels, ports, users, brackets and quotes, a second `#`,
    /// marks and letters of other scripts, quotes and brackets of other
    /// scripts, characters that end an IRI, `<…>` with white space.
    const LINK_PIECES: &[&str] = &[
        "http://",
        "https://",
        "www.",
        "ftp://",
        "a",
        "Z9",
        ".",
        "-",
        "_",
        "/",
        "?",
        "#",
        "(",
        ")",
        "'",
        ":",
        ":80",
        "@",
        " ",
        "\n",
        "<",
        ">",
        "\"",
        ",",
        ";",
        "!",
        "%41",
        "[",
        "]",
        "{",
        "}",
        "^",
        "é",
        "東",
        "\u{94d}",
        "。",
        "、",
        "‘",
        "’",
        "「",
        "」",
        "\u{200f}",
        ".com",
        "ex-ample",
        "-a.",
        "a_b",
        "<URL:",
        "\\",
        // What the validator may reject in a plain link: a `%` without
        // two hex digits, a private-use character (allowed in the query
        // only), characters of four bytes, symbols, a plane's last code
        // points.
        "%",
        "%4",
        "%zz",
        "%E6%9D%B1",
        "\u{e000}",
        "\u{f0000}",
        "\u{1f600}",
        "\u{20000}",
        "€",
        "\u{fffd}",
        "\u{2fffe}",
        "\u{e0100}",
        // A path segment long enough for links to reach the maximum length.
        "/pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp",
    ];

    /// Pieces of hosts, good and bad.
    const HOST_PIECES: &[&str] = &[
        "example",
        ".",
        ".com",
        "-",
        "a",
        "_",
        "9",
        "xn--d1a",
        "é",
        // IDN labels, prose glued to a label, a mark, characters no host
        // name holds.
        "пример",
        ".рф",
        "例え",
        "参照",
        "\u{94d}",
        "€",
        "\u{20000}",
        // Triplets, good and bad (a host with a `%` is the full reading's).
        "%41",
        "%4",
        // Labels of 63 and 64 bytes: the longest allowed, one too long.
        "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
        "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
    ];

    /// For every `http://`, `https://`, `ftp://` and `www.` of `text`,
    /// the plain reading, where it answers, and the full reading; returns
    /// how many the plain reading answered.
    fn plain_links_agree(text: &str, max_len: usize) -> usize {
        let hay = text.as_bytes();
        let opts = Options {
            max_len,
            ..Options::default()
        };
        let sc = Scanner::new(hay, opts);
        let mut answered = 0;
        for start in 0..hay.len() {
            let rest = &hay[start..];
            let (body, kind, authority) = if rest.starts_with(b"www.") {
                (start, Kind::Www, true)
            } else if let Some(n) = [&b"http://"[..], b"https://", b"ftp://"]
                .iter()
                .find(|p| rest.starts_with(p))
                .map(|p| p.len())
            {
                (start + n, Kind::Iri, true)
            } else if let Some(n) = [&b"mailto:"[..], b"urn:"]
                .iter()
                .find(|p| rest.starts_with(p))
                .map(|p| p.len())
            {
                (start + n, Kind::Iri, false)
            } else {
                continue;
            };
            let spec = Spec {
                start,
                body,
                authority,
                dns: authority,
                kind,
                ctx: sc.context(start),
            };
            if let Ok((c, _)) = sc.plain_link_read(&spec) {
                answered += 1;
                // What it proves valid, the validator finds valid.
                let proven = c.proven_valid();
                let c = c.with_proven_valid(false);
                if proven {
                    let span = &text[c.start..c.end];
                    assert!(candidate_is_valid(hay, &c), "{span:?} in {text:?}");
                }
                // The same candidate, and nothing else changed.
                let (mut state, mut run) = (ScanState::default(), BracketRun::default());
                let full = sc.candidate_in(&spec, &mut Vec::new(), &mut run, &mut state, None);
                assert_eq!(full, Ok(c), "{text:?} from {start}");
                state.work = 0;
                assert_eq!(state, ScanState::default(), "{text:?} from {start}");
                assert_eq!(run.unclosed, [], "{text:?} from {start}");
            }
        }
        answered
    }

    /// A `%HH` triplet across the maximum length, at the end of the text:
    /// the plain reading leaves the link to the full reading, which cuts
    /// it at the maximum length (a bug of the first version of the
    /// path's triplet check, which stepped over the whole triplet and
    /// gave a link one or two bytes too long).
    #[test]
    fn a_triplet_across_the_maximum_length_is_not_stepped_over() {
        for prefix in ["http://example.com/", "www.example.com/", "mailto:"] {
            for tail in ["%41", "%41%42", "a%41", "%4", "%"] {
                for back in 0..=4 {
                    // The tail starts `back` bytes before the maximum
                    // length, and the text ends with it.
                    let start = 2;
                    let pad = MIN_MAX_LEN - back - prefix.len();
                    let text = format!("a {prefix}{}{tail}", "x".repeat(pad));
                    plain_links_agree(&text, MIN_MAX_LEN);
                    let found =
                        crate::find::reference_scanner::fast(&text, true, true, MIN_MAX_LEN);
                    let mut sc = Scanner::new(
                        text.as_bytes(),
                        Options {
                            max_len: MIN_MAX_LEN,
                            ..Options::default()
                        },
                    );
                    let c = sc
                        .next_candidate(&mut ScanState::default(), text.len())
                        .expect("a candidate");
                    assert_eq!(c.start, start, "{prefix}…{tail} {back}");
                    assert!(c.end - c.start <= MIN_MAX_LEN, "{prefix}…{tail} {back}");
                    assert_eq!(found.len(), 1, "{prefix}…{tail} {back}");
                    assert_eq!((found[0].start, found[0].end), (c.start, c.end));
                }
            }
        }
    }

    /// Hosts and e-mail domains whose faults (`..`, `-.`, `.-`, `_` in
    /// the last label, `%`, a letter of another script) sit around the
    /// edges of the one or two blocks of sixteen bytes whose masks
    /// both end their ASCII run and check them, ended by every kind of
    /// byte: the scanner finds what the reference scanner finds.
    #[test]
    fn hosts_at_the_edges_of_the_masks_agree_with_the_reference() {
        use crate::find::reference_scanner::{fast, naive_scan};
        let faults = ["..", "-.", ".-", "_", "%41", "é", "例", "A", "-"];
        let ends = [
            " ", "/x", ":", "é", "例 ", "_", "%", ".", "-", ")", "\n", "@a.b",
        ];
        let mut compared = 0;
        for len in [3usize, 13, 14, 15, 16, 17, 18, 29, 30, 31, 32, 33, 34, 40] {
            // Labels of letters and digits, a dot every five bytes.
            let base: String = (0..len)
                .map(|i| {
                    if i % 5 == 4 {
                        '.'
                    } else {
                        (b'a' + (i % 26) as u8) as char
                    }
                })
                .collect();
            for fault in faults {
                for at in [0, len / 2, len.saturating_sub(2), len] {
                    let name = format!("{}{fault}{}.org", &base[..at], &base[at..]);
                    for end in ends {
                        for text in [
                            format!("see http://{name}{end} and"),
                            format!("see www.{name}{end} and"),
                            format!("mail me@{name}{end} and"),
                        ] {
                            assert_eq!(
                                fast(&text, true, true, 8192),
                                naive_scan(&text, true, true, 8192),
                                "{text:?}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    /// An authority of a scheme that is not a DNS one (`ldap://`,
    /// `ssh://`) is the full reading's, whatever it holds: the plain
    /// reading reads nothing of it.
    #[test]
    fn authorities_of_other_schemes_are_left_to_the_full_reading() {
        for text in [
            "ldap://example.com/o=x",
            "ssh://example.com",
            "foo://a.b/c.",
        ] {
            let hay = text.as_bytes();
            let sc = Scanner::new(hay, Options::default());
            let body = text.find("//").expect("//") + 2;
            let spec = Spec {
                start: 0,
                body,
                authority: true,
                dns: false,
                kind: Kind::Iri,
                ctx: Context::Plain,
            };
            assert_eq!(sc.plain_link_read(&spec), Err(0), "{text:?}");
            // (The full reading finds it.)
            assert!(!find(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn plain_links_are_read_as_the_full_reading_reads_them() {
        for (text, answered) in [
            ("see http://example.com/a/b?c=d#e. Next", 1),
            ("(see http://example.org/wiki/Rust_(language)) and", 1),
            ("<https://he.wikipedia.org/wiki/ירושלים>", 1),
            ("https://hi.wikipedia.org/wiki/दिल्ली、次", 1),
            ("www.example.com/x-", 1),
            ("http://example.com-", 1),
            ("http://bücher.example/", 1),
            ("http://пример.рф/новости?id=5", 1),
            ("www.bürgerentscheid-krankenhäuser.de/info", 1),
            ("http://例え.テスト/パス?q=東京。次", 1),
            // A trimmed byte last: after a letter, digit, `/` or letter of
            // another script it alone goes; after others, `trim` decides.
            ("https://ja.wikipedia.org/wiki/東京都.", 1),
            ("http://example.com/a/, and", 1),
            ("http://example.com/x€.", 1),
            ("http://example.com/x….", 1),
            ("http://example.com/x-.", 1),
            ("http://example.com/x*.", 1),
            ("www.example.com!", 0),
            ("http://example-.", 1),
            // Without an authority: read from the colon on as a path is.
            ("write to mailto:info@example.org.", 1),
            ("(mailto:jürgen@beispiel.de?subject=Grüße)", 1),
            ("<mailto:a@b.example?subject=Hi%20there>", 1),
            ("urn:isbn:0451450523, urn:ietf:rfc:3987", 2),
            ("mailto:a@b.example#x#y", 0),
            ("mailto:it's@example.org", 0),
            ("mailto:a@[b].example", 0),
            // Left to the full reading: a port, a user, a quote, a second
            // `#`, a bracket, white space inside `<…>`, a bad host, a
            // non-ASCII host without a dot, prose glued to a host, a host
            // character of four bytes or that is no letter.
            ("http://example.com:80/", 0),
            ("http://user@example.com/", 0),
            ("http://bücher/", 0),
            ("http://bücher.", 0),
            ("www.scriptics.com参照", 0),
            ("http://a.\u{20000}.com/", 0),
            ("http://a€.com/", 0),
            // An IDN host of more than 253 bytes (valid: its ASCII form is
            // shorter) is left to the full reading.
            (
                &format!(
                    "http://{}com/x",
                    "日日日日日日日日日日日日日日日日日日日日.".repeat(5)
                ),
                0,
            ),
            ("http://example.com/it's", 0),
            ("http://example.com/#a#b", 0),
            ("http://example.com/[x]", 0),
            ("<http://example.com/a b>", 0),
            ("http://-a.example/", 0),
            ("www.example/", 0),
        ] {
            assert_eq!(plain_links_agree(text, MIN_MAX_LEN), answered, "{text:?}");
        }
        // At the maximum length the full reading truncates: left to it,
        // in the path or the host, or a character (`é`) across the limit.
        let path = "p".repeat(MIN_MAX_LEN);
        let host = "h.".repeat(MIN_MAX_LEN / 2);
        for (text, answered) in [
            (
                format!("http://example.com/{} x", &path[..MIN_MAX_LEN - 20]),
                1,
            ),
            (
                format!("http://example.com/{} x", &path[..MIN_MAX_LEN - 19]),
                0,
            ),
            // (At the end of the text the link ends before the limit.)
            (
                format!("http://example.com/{}", &path[..MIN_MAX_LEN - 19]),
                1,
            ),
            (
                format!("http://example.com/{}é x", &path[..MIN_MAX_LEN - 21]),
                0,
            ),
            (format!("http://{}com x", &host[..MIN_MAX_LEN - 10]), 0),
        ] {
            assert_eq!(plain_links_agree(&text, MIN_MAX_LEN), answered, "{text:?}");
        }
    }

    /// Whether the plain reading of the link `text` starts with proves it
    /// valid, and whether the validator finds it valid (`None`: the plain
    /// reading leaves the link to the full reading).
    fn proven_and_valid(text: &str) -> Option<(bool, bool)> {
        let hay = text.as_bytes();
        let sc = Scanner::new(hay, Options::default());
        let spec = Spec {
            start: 0,
            body: text.find("//").map_or(0, |i| i + 2),
            authority: true,
            dns: true,
            kind: if text.starts_with("www.") {
                Kind::Www
            } else {
                Kind::Iri
            },
            ctx: sc.context(0),
        };
        let (c, _) = sc.plain_link_read(&spec).ok()?;
        let judged = candidate_is_valid(hay, &c.with_proven_valid(false));
        Some((c.proven_valid(), judged))
    }

    #[test]
    fn the_plain_reading_proves_valid_only_what_it_knows_to_be() {
        for (text, proven, valid) in [
            ("http://example.com/a/b?c=d#e", true, true),
            ("www.example.com/x_(y)~z", true, true),
            ("https://el.wikipedia.org/wiki/Αθήνα", true, true),
            ("https://ko.wikipedia.org/wiki/서울특별시", true, true),
            ("https://hi.wikipedia.org/wiki/दिल्ली", true, true),
            ("http://example.com/caf%C3%A9?q=%2f", true, true),
            ("http://example.com/%E6%9D%B1%E4%BA%AC", true, true),
            ("http://example.com/a%41.", true, true),
            ("http://example.com/(%41)", true, true),
            ("www.example.com/%41#%42", true, true),
            // A `%` without two hex digits: the validator rejects it.
            ("http://example.com/100%", false, false),
            ("http://example.com/%4g", false, false),
            ("http://example.com/%e", false, false),
            ("http://example.com/%%41", false, false),
            ("http://example.com/%41%", false, false),
            ("http://example.com/%E6%9D%B", false, false),
            ("http://example.com/a?q=%zz", false, false),
            ("http://example.com/a#%4", false, false),
            ("http://example.com/%.", false, false),
            // Private use: only in the query.
            ("http://example.com/\u{e000}", false, false),
            ("http://example.com/?\u{e000}", false, true),
            // Four bytes and symbols: left to the validator.
            ("http://example.com/\u{20000}", false, true),
            ("http://example.com/€", false, true),
            ("http://example.com/\u{1f600}", false, true),
        ] {
            assert_eq!(proven_and_valid(text), Some((proven, valid)), "{text:?}");
        }
        // A host with a `%` is left to the full reading: every triplet the
        // plain reading proves is in the path.
        for text in [
            "http://ex%41mple.com/",
            "http://ex%4mple.com/a",
            "www.e%41x.com",
        ] {
            assert_eq!(proven_and_valid(text), None, "{text:?}");
        }
    }

    /// `http_scheme_before` says `http` or `https` only where the scheme
    /// the full reading finds before the `:` is one, in any case, and
    /// wherever it says so of a four-byte word read at once.
    #[test]
    fn http_scheme_before_is_sure_only_of_http() {
        let texts = [
            "http://a",
            "HTTP://a",
            "hTtPs://a",
            "https://a",
            "xhttp://a",
            "_http://a",
            "/http://a",
            " https://a",
            "ttps://a",
            "ttp://a",
            "htt://a",
            "http:",
            "é http://a",
            "Xhttps://a",
            "-http://a",
            "ftp://a",
            "http",
            ":",
            "\\nhttps://a",
            "\\\\https://a",
            "\\https://a",
            "ahttps://a",
            "1https://a",
            "+http://a",
            "a.https://a",
            "Https:http://a",
            "a_http://a",
            "1_https://a",
            "_https://a",
        ];
        for text in texts {
            let hay = text.as_bytes();
            for (c, _) in text.match_indices(':') {
                for floor in 0..=c {
                    let Some(sure) = http_scheme_before(hay, c, floor) else {
                        continue;
                    };
                    let (start, read) = scheme_start(hay, c, floor);
                    let scheme = start.map(|s| hay[s..c].to_ascii_lowercase());
                    assert!(
                        matches!(scheme.as_deref(), Some(b"http" | b"https")),
                        "{text:?} at {c}, floor {floor}: {scheme:?}"
                    );
                    // The same start, and the run `scheme_start` reads
                    // (the work counted) is the name.
                    assert_eq!(start, Some(sure), "{text:?} at {c}, floor {floor}");
                    assert_eq!(read, c - sure, "{text:?} at {c}, floor {floor}");
                }
            }
        }
        assert_eq!(http_scheme_before(b"HTTP://a", 4, 0), Some(0));
        assert_eq!(http_scheme_before(b" hTtPs://a", 6, 0), Some(1));
        assert_eq!(http_scheme_before(b"xhttp://a", 5, 0), None);
        assert_eq!(http_scheme_before(b"ttp://a", 3, 0), None);
        assert_eq!(http_scheme_before(b"\\nhttps://a", 7, 0), None);
    }

    /// An e-mail address is proven valid unless it holds a letter of four
    /// bytes; the validator agrees with every proof.
    #[test]
    fn an_address_is_proven_valid_unless_it_holds_four_bytes() {
        for (text, proven, valid) in [
            ("write to jane.doe+x@example.com.", true, true),
            ("a%b@example.com", true, true),
            ("ünïcödé@exämple.de", true, true),
            ("連絡先はinfo@example.jp", true, true),
            ("用户@例子.广告", true, true),
            ("मेल@उदाहरण.भारत", true, true),
            // Four bytes: CJK of plane 2 (valid), a variation selector of
            // plane 14 (a mark, but no `ucschar`).
            ("\u{20000}@example.com", false, true),
            ("a@b\u{20000}.com", false, true),
            ("a\u{E0100}@example.com", false, false),
        ] {
            let hay = text.as_bytes();
            let mut found = Vec::new();
            Scanner::new(hay, Options::default()).scan(
                &mut ScanState::default(),
                hay.len(),
                &mut |c| {
                    found.push(c);
                    true
                },
            );
            let [c] = found[..] else {
                panic!("{text:?}: {found:?}");
            };
            assert_eq!(c.kind(), Kind::Email, "{text:?}");
            assert_eq!(c.proven_valid(), proven, "{text:?}");
            let unproven = c.with_proven_valid(false);
            assert_eq!(candidate_is_valid(hay, &unproven), valid, "{text:?}");
        }
    }

    /// `plain_run` and `path_run` step character by character: an ASCII
    /// byte of their class, or a letter, mark or digit of two or three
    /// bytes that ends by the bound; held to that loop on text of many
    /// scripts, invalid UTF-8, characters of four bytes and characters cut
    /// by the bound.
    #[test]
    fn runs_step_over_what_a_character_loop_steps_over() {
        fn by_chars(hay: &[u8], mut p: usize, stop: usize, plain: impl Fn(u8) -> bool) -> usize {
            let hay = &hay[..stop];
            while p < hay.len() {
                let b = hay[p];
                // Both decoders, one after the other (independent of
                // `word_len_at`'s choice by the first byte).
                p += if b < 0x80 && plain(b) {
                    1
                } else if decode_two_byte(hay, p).is_some_and(is_word_char_non_ascii) {
                    2
                } else if decode_three_byte(hay, p).is_some_and(is_word_char_non_ascii) {
                    3
                } else {
                    break;
                };
            }
            p
        }
        let host = |b: u8| DENSE[b as usize] & PLAIN_HOST == PLAIN_HOST;
        let path = |b: u8| PATH_PLAIN[b as usize];
        // `run_over`'s rule on its classes: no byte from 0x80 up is plain.
        assert!((0x80..=0xFF).all(|b| !host(b) && !path(b)));
        let pieces: &[&[u8]] = &[
            b"a",
            b"-",
            b".",
            b"/",
            b"(",
            b" ",
            b"%",
            // Letters of two bytes, the first and last lead bytes among
            // them, and two-byte characters that are no letter (`«`, a
            // no-break space, `×`).
            "é".as_bytes(),
            "п".as_bytes(),
            "ا".as_bytes(),
            "ª".as_bytes(),
            "ߐ".as_bytes(),
            "«".as_bytes(),
            "\u{a0}".as_bytes(),
            "×".as_bytes(),
            // Of three bytes, lead bytes E0 to EF, and one that is no
            // letter (`。`).
            "東".as_bytes(),
            "ก".as_bytes(),
            "ุ".as_bytes(),
            "ｱ".as_bytes(),
            "。".as_bytes(),
            "😀".as_bytes(),
            // Invalid: a stray continuation byte, lone and cut lead bytes,
            // a surrogate, overlong forms, bytes no UTF-8 holds.
            b"\x80",
            b"\xd0",
            b"\xe6\x9d",
            b"\xed\xa0\x80",
            b"\xc0\xaf",
            b"\xe0\x80\x80",
            b"\xf0",
            b"\xff",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut hay = Vec::new();
            for _ in 0..12 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                hay.extend_from_slice(pieces[(seed % pieces.len() as u64) as usize]);
            }
            // Every start, past the bound and past the end included.
            for p in 0..=hay.len() + 1 {
                for stop in 0..=hay.len() {
                    assert_eq!(
                        plain_run(&hay, p, stop),
                        by_chars(&hay, p, stop, host),
                        "{hay:x?} {p} {stop}"
                    );
                    assert_eq!(
                        path_run(&hay, p, stop),
                        by_chars(&hay, p, stop, path),
                        "{hay:x?} {p} {stop}"
                    );
                }
            }
        }
    }

    /// Every character the plain reading proves valid without decoding it
    /// for the validator — the letters, marks and digits of two and three
    /// bytes `plain_run` steps over — is one the IRI grammar allows in a
    /// host, a path, a query and a fragment.
    #[test]
    fn what_plain_run_steps_over_the_grammar_allows_everywhere() {
        let valid = |iri: &str| parse_packed(iri, Rule::Iri, Syntax::Text).is_ok();
        let mut stepped = 0;
        for c in (0x80..0x10000).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf);
            // What `plain_run` steps over is what `try_email` takes in an
            // address (the e-mail proof rests on that), for every character
            // of two and three bytes.
            let steps = plain_run(s.as_bytes(), 0, s.len()) == s.len();
            assert_eq!(steps, is_word_char_non_ascii(c), "U+{:04X}", c as u32);
            if !steps {
                continue;
            }
            stepped += 1;
            for iri in [
                format!("http://a{c}.b/"),
                format!("http://a/{c}"),
                format!("http://a/?{c}"),
                format!("http://a/#{c}"),
                // An e-mail address's IRI (`try_email`).
                format!("mailto:a{c}@b{c}.c"),
            ] {
                assert!(valid(&iri), "{c:?} U+{:04X} in {iri:?}", c as u32);
            }
        }
        assert!(stepped > 40_000, "{stepped}");
        // Every ASCII byte it steps over without `%`, in a path, a query
        // and a fragment; and in a host.
        // (A second `#` the plain reading leaves to the full one.)
        for b in (0u8..0x80).filter(|&b| b != b'%') {
            let c = b as char;
            if DENSE[b as usize] & PLAIN_HOST == PLAIN_HOST {
                assert!(valid(&format!("http://a{c}b/")), "{c:?} in a host");
            }
            if ascii_is(b, ascii::EMAIL_LOCAL) {
                assert!(valid(&format!("mailto:a{c}b@c.d")), "{c:?} in a local part");
            }
            if ascii_is(b, ascii::DOMAIN) {
                assert!(valid(&format!("mailto:a@b{c}c.d")), "{c:?} in a domain");
            }
            if ascii_is(b, ascii::IRI) {
                assert!(valid(&format!("http://a/{c}")), "{c:?} in a path");
                assert!(valid(&format!("http://a/?{c}")), "{c:?} in a query");
                assert!(
                    c == '#' || valid(&format!("http://a/#{c}")),
                    "{c:?} in a fragment"
                );
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            cases: 2000,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn plain_links_agree_with_the_full_reading(
            links in proptest::collection::vec(
                (
                    proptest::sample::select(&LINK_PIECES[..4]),
                    proptest::collection::vec(proptest::sample::select(HOST_PIECES), 0..5),
                    proptest::collection::vec(proptest::sample::select(LINK_PIECES), 0..12),
                ),
                1..4,
            ),
            max_len in MIN_MAX_LEN..MIN_MAX_LEN + 300,
        ) {
            // Links mostly: a trigger, a host, then anything.
            let text: String = links
                .iter()
                .map(|(trigger, host, rest)| format!("{trigger}{}{}", host.concat(), rest.concat()))
                .collect();
            plain_links_agree(&text, max_len);
        }
    }

    /// The candidates of `text` as (kind, span text).
    fn find(text: &str) -> Vec<(Kind, String)> {
        let mut out = Vec::new();
        let mut sc = Scanner::new(text.as_bytes(), Options::default());
        let mut st = ScanState::default();
        sc.scan(&mut st, text.len(), &mut |c| {
            out.push((c.kind(), text[c.start..c.end].to_string()));
            true
        });
        out
    }

    /// Checks a text written in the marker style of robinst/linkify:
    /// `|` marks the expected spans (`"(|http://a.b/|)"`).
    #[track_caller]
    fn check(marked: &str) {
        let text = marked.replace('|', "");
        let expected: Vec<String> = marked
            .split('|')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, s)| s.to_string())
            .collect();
        let got: Vec<String> = find(&text).into_iter().map(|(_, s)| s).collect();
        assert_eq!(got, expected, "in {text:?}");
    }

    #[test]
    fn smoke() {
        check("see |http://example.com/| now");
        check("(|https://en.wikipedia.org/wiki/Rust_(programming_language)|)");
        check("|mailto:a@b.example|, |urn:isbn:0451450523|.");
        check("詳細は|http://例え.テスト/パス|。次");
        check("write to |info@example.jp| today");
        check("連絡先は|info@example.jp|まで");
        check("|www.example.com|, or not");
        check("Note: x, Re: y, 12:30, std::vec, key:value, localhost:8080");
    }

    /// One call of the scan over a run that repeats a colon rejected for
    /// its word passes the repetition at once (`RepeatedColons`), also
    /// where the first colon comes too early for the chain of rejected
    /// triggers to judge it (`ab:` at the input's start) and after a
    /// trigger it leaves to `try_scheme`: every trigger that follows goes
    /// through the chain again.
    #[test]
    fn one_scan_passes_repeated_colons_at_once() {
        for text in [
            "ab:".repeat(20_000),
            format!("x{}", "file:".repeat(10_000)),
            format!("see mailto: and 12:30 {}", "x:/a".repeat(10_000)),
        ] {
            for email in [true, false] {
                let opts = Options {
                    email,
                    ..Options::default()
                };
                let mut sc = Scanner::new(text.as_bytes(), opts);
                let mut st = ScanState::default();
                let mut found = 0;
                sc.scan(&mut st, text.len(), &mut |_| {
                    found += 1;
                    true
                });
                assert_eq!(found, 0, "{}", &text[..20]);
                assert!(sc.repeats.jumps >= 1, "{}", &text[..20]);
            }
        }
    }

    /// A run of `www.` hosts each rejected at a glance is chained whole:
    /// the chain goes on through every block that holds a trigger, not
    /// handing back to the scan every four blocks (the same candidates
    /// either way, see `agree_on_dense_triggers`). It still hands back
    /// where the triggers stop, and finds the link after the run.
    #[test]
    fn one_chain_passes_a_run_of_rejected_www_hosts() {
        for unit in ["www.a/[", "www.", "WwW.a#", "www.a-b/"] {
            let text = format!(
                "{} www.example.com/x {}",
                unit.repeat(2_000),
                "x".repeat(600)
            );
            let mut sc = Scanner::new(text.as_bytes(), Options::default());
            let mut st = ScanState::default();
            let mut found = vec![];
            sc.scan(&mut st, text.len(), &mut |c| {
                found.push(&text[c.start..c.end]);
                true
            });
            assert_eq!(found, ["www.example.com/x"], "{unit}");
            assert!(
                sc.www_chains.get() <= 3,
                "{unit}: {} chains",
                sc.www_chains.get()
            );
        }
    }

    /// The bytes examined by a whole scan of `text`.
    fn work(text: &str) -> u64 {
        let mut sc = Scanner::new(text.as_bytes(), Options::default());
        let mut st = ScanState::default();
        sc.scan(&mut st, text.len(), &mut |_| true);
        st.work
    }

    /// Inputs that make naive link finders quadratic (robinst/linkify#115
    /// and friends), as functions of a repetition count.
    pub(crate) const ADVERSARIAL: &[(&str, &str)] = &[
        ("open parens", "("),
        ("close parens", ")"),
        ("a.a~", "a.a~"),
        ("http://", "http://"),
        ("http://-a/", "http://-a/"),
        ("http://-a.com?", "http://-a.com?"),
        ("http://a.com_?", "http://a.com_?"),
        ("www.ąwww.", "www.ąwww."),
        ("ąwww.-a.", "ąwww.-a."),
        ("letters", "abcdefgh"),
        ("scheme chars", "a+b-c.d"),
        ("colons", ":"),
        ("a:", "a:"),
        ("at signs", "@"),
        ("a@", "a@"),
        ("a@b.", "a@b."),
        ("dots", "."),
        ("www.", "www."),
        ("mailto:", "mailto:"),
        ("<http://a\n", "<http://a\n"),
        ("brackets", "([{"),
        ("quotes", "'"),
        ("urn:a'", "urn:a'"),
        ("é:", "é:"),
        ("x://é", "x://é"),
        ("[1]", "[1]"),
        // Issue 18: hosts no DNS name has, templates, escapes, brackets
        // that may end an authority.
        ("www.a!", "www.a!"),
        ("www.a.b;", "www.a.b;"),
        ("http://a:x", "http://a:x"),
        ("http://a.b,", "http://a.b,"),
        ("\\nhttp://", "\\nhttp://"),
        ("a_http://", "a_http://"),
        ("http://-a[/", "http://-a[/"),
        ("http://a{b/", "http://a{b/"),
        ("<a b", "<a b"),
        ("git:", "git:"),
        ("#", "#"),
        // Brackets left open in an authority whose host fails, where a
        // candidate cut at the bracket fails too: each candidate used to
        // be read to the maximum length (8 KiB a trigger).
        ("http://[", "http://["),
        ("http://[::", "http://[::"),
        ("http://a@[", "http://a@["),
        // `www.` triggers every few bytes, rejected at a glance.
        ("w.", "w."),
        ("W.w.", "W.w."),
        ("wwww.", "wwww."),
        // `www.` hosts in runs longer than the maximum length, each
        // candidate cut at it (`WwwRun`).
        ("www.a[", "www.a["),
        ("[www.a", "[www.a"),
        ("www.a.b.c(", "www.a.b.c("),
        ("www.a^", "www.a^"),
        ("www.ą[", "www.ą["),
        ("www.a.b.c%", "www.a.b.c%"),
        ("www.a.b.c,", "www.a.b.c,"),
        ("www.例.b.c[", "www.例.b.c["),
        // Triggers that a lookup or the full reading rejects.
        ("www.a/[", "www.a/["),
        ("www.a#[", "www.a#["),
        ("ab:", "ab:"),
        ("file:", "file:"),
        ("x:/a", "x:/a"),
    ];

    /// Runs of candidate characters, each `unit` `count` times and a
    /// tail (a space): shorter than the maximum IRI length, so that a scan that
    /// reads the rest of the run again for every candidate in it does
    /// work ∝ input × run length, which the bound per byte below catches.
    const ADVERSARIAL_RUNS: &[(&str, &str, usize, &str)] = &[
        // Each candidate is cut at its unclosed bracket (docs/rules.md
        // §1.2); the next one starts right after it.
        ("http://a/{ runs", "http://a/{", 200, " "),
        ("http://a/[ runs", "http://a/[", 200, " "),
        ("http://a/{x}{ runs", "http://a/{x}{", 150, " "),
        // The same for `www.` hosts (`BracketRun::www_cut_for`): rejected
        // when cut, and links when cut.
        ("www.a[ runs", "www.a[", 300, " "),
        ("www.a.b[ runs", "www.a.b[", 250, " "),
        // `www.` hosts that fail at their port or at a character no host
        // holds (`www_prefix_final`).
        ("www.a: runs", "www.a:", 300, " "),
        ("www.a( runs", "www.a(", 300, " "),
        // `www.` hosts whose run ends at white space and holds a
        // sub-delimiter, or is too long to be a host (`WwwRun`); and at
        // an `@`, with the brackets before it.
        ("www.a.b.c( runs", "www.a.b.c(", 700, " "),
        ("www.a.b.c^ runs", "www.a.b.c^", 700, " "),
        ("www.ą.b[ runs", "www.ą.b[", 700, " "),
        ("www.a[@ runs", "www.a[", 1300, "@ "),
        // Links cut at a bracket of their authority that nothing in the
        // run closes (`BracketRun::authority_cut_for`).
        ("http://a.b[ runs", "http://a.b[", 700, " "),
        // `www.` hosts cut at a comma, a link each
        // (`Scanner::www_comma_final`).
        ("www.a.b.c, runs", "www.a.b.c,", 700, " "),
        // Runs longer than the maximum length where prose is glued to a
        // label (`Scanner::www_past_limit`): cut at a bracket, a link
        // each. (Without a bracket, `www.a.b.c例` repeated, the plain
        // reading reads 254 bytes of each host before it gives up: 28
        // bytes of work a byte, linear.)
        ("www.a.b.c例[ runs", "www.a.b.c例[", 1000, " "),
        ("www.例.b.c例[ runs", "www.例.b.c例[", 1000, " "),
        // Runs that repeat a colon rejected for its word, broken within
        // or past the bytes a try reads (`RepeatedColons`: a failed try
        // is not made again over the same bytes).
        ("ab: runs broken", "ab:", 30, "X"),
        ("file: runs broken", "file:", 60, "_"),
    ];

    #[test]
    fn work_is_linear_on_adversarial_inputs() {
        let runs: Vec<(&str, String)> = ADVERSARIAL_RUNS
            .iter()
            .map(|&(name, unit, count, tail)| (name, unit.repeat(count) + tail))
            .collect();
        let units = ADVERSARIAL
            .iter()
            .map(|&(name, unit)| (name, unit))
            .chain(runs.iter().map(|(name, unit)| (*name, unit.as_str())));
        for (name, unit) in units {
            let small = unit.repeat(16 * 1024 / unit.len());
            let large = unit.repeat(8 * 16 * 1024 / unit.len());
            let (ws, wl) = (work(&small), work(&large));
            // Linear: 8 times the input (or as near as whole units come),
            // at most as many times the work (plus one maximum IRI length
            // of slack), and a few bytes of work a byte.
            let times = large.len().div_ceil(small.len()) as u64;
            assert!(
                wl <= times * ws + 2 * DEFAULT_MAX_LEN as u64,
                "{name}: {ws} -> {wl}"
            );
            assert!(
                wl <= 12 * large.len() as u64,
                "{name}: {wl} for {} bytes",
                large.len()
            );
        }
    }

    #[test]
    fn dns_schemes_in_any_case() {
        // Every string of up to 5 bytes over an alphabet of the letters of
        // the DNS schemes in both cases and bytes one bit away from them.
        let alphabet = b"wWsShHtTpPfF7W@`\x13";
        let plain = |s: &[u8]| {
            ["http", "https", "ftp", "ws", "wss"]
                .iter()
                .any(|d| s.eq_ignore_ascii_case(d.as_bytes()))
        };
        let mut words: Vec<Vec<u8>> = vec![vec![]];
        for _ in 0..5 {
            let longer: Vec<Vec<u8>> = words
                .iter()
                .filter(|w| w.len() < 5)
                .flat_map(|w| {
                    alphabet.iter().map(move |&b| {
                        let mut v = w.clone();
                        v.push(b);
                        v
                    })
                })
                .collect();
            words.extend(longer);
            words.sort();
            words.dedup();
        }
        // Words of 6 to 9 bytes, whose last bytes are a DNS scheme.
        words.extend([&b"xhttps"[..], b"Xhttps", b"aaaahttp", b"wwwwhttps"].map(<[u8]>::to_vec));
        let mut dns = 0;
        for w in &words {
            // As a word of the eight bytes before the `:`, after prose and
            // after scheme characters (which are then in the word), and at
            // the start of the haystack (fewer than eight bytes before).
            for before in [
                &b""[..],
                b"see ",
                b"Voir aussi ",
                b"ab+c-d.",
                b"\xc3\xa9\xe6\x9d\xb1",
            ] {
                let hay = [before, w, b"://a.b"].concat();
                let (start, c) = (before.len(), before.len() + w.len());
                assert_eq!(
                    is_dns_scheme_at(&hay, start, c),
                    plain(w),
                    "{:?}",
                    String::from_utf8_lossy(&hay)
                );
            }
            assert_eq!(
                is_dns_scheme(w),
                plain(w),
                "{:?}",
                String::from_utf8_lossy(w)
            );
            dns += usize::from(plain(w));
        }
        // 2^2 + 2^3 + 2^3 + 2^4 + 2^5 case variants.
        assert_eq!(dns, 68);
    }

    #[test]
    fn the_plain_reading_reads_a_host_run_once() {
        // A `www.` every few bytes of one long run of host bytes, no host
        // failing but by its length (the `www-bad-label` input of
        // `examples/compare`): the plain reading reads no more of a host
        // than a DNS name may hold, not the whole run up to the maximum
        // length for every `www.` the full reading lets through.
        for unit in ["www.ąwww.", "www.awww.", "www.ąwww.www.ąwww."] {
            let text = unit.repeat(4000);
            let w = work(&text);
            // (The full reading alone reads about 7 times the text here;
            // without the bound the plain reading took it to 11.)
            assert!(w < 9 * text.len() as u64, "{unit}: {w} for {}", text.len());
        }
    }

    #[test]
    fn www_memo_skips_hosts_that_already_failed() {
        // Every `www.` here shares the bad last label: one host scan, not
        // one per `www` (two: the plain reading's, then the full one's,
        // which keeps the memo).
        let text = format!("{}a_", "www.ąwww.".repeat(2000));
        assert!(work(&text) < 5 * text.len() as u64, "{}", work(&text));
        assert!(find(&text).is_empty());
    }

    /// Whether the full reading of the `www.` candidate at `start`, with
    /// no memo, rejects it.
    fn www_full_reading_rejects(sc: &Scanner<'_>, start: usize) -> bool {
        let spec = Spec {
            start,
            body: start,
            authority: true,
            dns: true,
            kind: Kind::Www,
            ctx: sc.context(start),
        };
        let mut state = ScanState::default();
        let mut run = BracketRun::default();
        match sc.candidate_in(&spec, &mut Vec::new(), &mut run, &mut state, None) {
            Err(Wrap::Unclosed) => {
                let plain = Spec {
                    ctx: Context::Plain,
                    ..spec
                };
                sc.candidate_in(&plain, &mut Vec::new(), &mut run, &mut state, None)
                    .is_err()
            }
            r => r.is_err(),
        }
    }

    /// Every `www.` candidate a `WwwRun` condemns, read from any `www.` of
    /// the text and from a window of it that ends anywhere (the input
    /// goes on past the window), is one the full reading rejects; and the
    /// runs that should condemn most of their candidates do.
    #[test]
    fn a_www_run_condemns_only_candidates_that_fail() {
        let units = WWW_RUN_UNITS
            .iter()
            .chain(&["www.a.b", "www.a-", "www.a.b~c"]);
        let ends = [
            "",
            " x",
            "@b.example",
            ",",
            ")",
            "/",
            "'",
            "|",
            "例",
            "é ",
            "-- ",
            "é.",
        ];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng as usize
        };
        for (unit, max_len) in units.flat_map(|u| [(u, 512), (u, 800)]) {
            for n in [30, 70, 90, 200] {
                for end in ends {
                    let text = format!("{}{end}{}", unit.repeat(n), unit.repeat(2));
                    let hay = text.as_bytes();
                    let sc = Scanner::new(
                        hay,
                        Options {
                            max_len,
                            ..Options::default()
                        },
                    );
                    let starts: Vec<usize> = hay
                        .windows(4)
                        .enumerate()
                        .filter(|(_, w)| w == b"www.")
                        .map(|(i, _)| i)
                        .collect();
                    let mut condemned = 0;
                    for _ in 0..6 {
                        let from = starts[next() % starts.len()];
                        let cut = from + 1 + next() % (hay.len() - from);
                        let mut run = WwwRun::default();
                        run.read(&hay[..cut], from, max_len);
                        // Read on in the whole text, as the next window
                        // would.
                        let later = starts.iter().find(|&&s| s > from && s <= run.end);
                        if let Some(&s) = later
                            && run.goes_on_at(s, hay.len())
                        {
                            run.read(hay, s, max_len);
                        }
                        for &s in &starts {
                            let plain = sc.context(s) == Context::Plain;
                            if run.condemns_at(s, plain) {
                                condemned += 1;
                                assert!(
                                    www_full_reading_rejects(&sc, s),
                                    "{text:?}: {s} from {from} (window {cut}): {run:?}"
                                );
                            }
                        }
                    }
                    let three = unit.bytes().any(|b| b >= 0xE0);
                    if n >= 200
                        && end.is_empty()
                        && !unit.ends_with(['b', 'c', '-'])
                        && (!three || max_len > 765)
                        && *unit != "www.a例["
                    {
                        assert!(condemned > 0, "{text:?}");
                    }
                }
            }
        }
    }

    /// Only a spaceless script glues prose to a label, and none of its
    /// characters takes fewer than three bytes: what `WwwRun` and
    /// `BracketRun::www_cut_for` rely on for hosts of two-byte letters.
    #[test]
    fn no_character_of_two_bytes_is_of_a_spaceless_script() {
        for c in '\u{80}'..='\u{7FF}' {
            assert!(!is_spaceless_script(c), "{c:?}");
        }
    }
}
