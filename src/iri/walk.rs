//! The one-pass validator: a single left-to-right walk over the bytes of a
//! string that finds the boundaries of its components *and* checks each
//! byte against the class of the component it is in.
//!
//! # Why one pass
//!
//! [`crate::parse`] used to split first ([`Components::split`], several
//! searches for delimiters) and then read each component again against its
//! rule. Scanning link-dense text validates every hit, and the two passes
//! were its largest single cost. The walk reads each byte once:
//!
//! ```text
//! https://例え.jp:8080/wiki/東京?q=ü#top
//! └─┬─┘   └──┬───┘ └┬─┘└────┬───┘ └┬┘ └┬┘
//! scheme   host   port   path  query fragment
//! ```
//!
//! Each component is one *run*: the bytes of its class are stepped over,
//! eight at a time where they are all in it, the bytes of the common
//! non-ASCII letters (most of Latin, Greek, Cyrillic, Hebrew, Indic, Thai,
//! CJK, Hangul) among them; a `%` over its triplet; any other non-ASCII
//! character after decoding it (Arabic's U+0600–063F after a glance at its
//! second byte). The run stops at the
//! first byte it cannot step over, and that byte must be one of the
//! delimiters that may end the component (`?` or `#` after a path, `#`
//! after a query, the end of the string after a fragment); anything else is
//! a fault.
//!
//! # Why the boundaries are the split's
//!
//! [`Components::split`] cuts at the first `:/?#` (the scheme), the first
//! `/?#` after a `//` (the authority) and the first `?#` after that (the
//! path). No component's class holds the delimiters that end it, so the
//! run of a valid component stops exactly where the split cuts, and the
//! walk returns exactly the split's components (`parse` checks it in debug
//! builds, and a property test on random strings checks it always).
//!
//! The authority needs care, because a forward walk cannot know whether an
//! `@` is still to come: see [`Walk::authority`].
//!
//! # What it does not do
//!
//! It never builds an error. At the first fault it gives up, and `parse`
//! runs the precise two-pass validator, which finds the same fault and
//! names its position and rule. Faults are rare among the strings a scan
//! validates, so the error's cost does not matter; its exactness does.
//!
//! Nor does it build [`Components`]: it writes where each component ends
//! into [`PackedComponents`] (28 bytes), the form a hit of a scan keeps
//! ([`crate::iri::parse::parse_packed`]); `parse` unpacks it.
//!
//! # The class table
//!
//! [`WALK`] gives every byte one bit per (component class, repertoire):
//! `ireg-name`, `iuserinfo`, the first segment of an `ipath-noscheme`, the
//! rest of a path, and `iquery`/`ifragment`, each in URI's repertoire, in
//! IRI's (RFC 3987bis §2.2), with the `{}^[]` of [`Syntax::Text`], and with
//! the ASCII of LEIRI's `ucschar`. With one bit per class, eight bytes are
//! in a class when the AND of their eight entries has its bit. The table
//! is computed when the crate is compiled from the crate's one ASCII table
//! ([`crate::chars::ascii`]) and the lead bytes of the common letters
//! ([`is_common_letter_byte`]); tests hold it to the classes of the
//! precise validator, byte by byte and character by character.

use crate::chars::ascii::{
    ASCII, AT, COLON, LEIRI_EXTRA, QMARK, SCHEME, SLASH, SUB_DELIM, TEXT_EXTRA, UNRESERVED,
};
use crate::chars::byte_search::find_byte;
use crate::chars::end_of_iri::{BIDI_FORMAT, is_bidi_format};
use crate::chars::ucschar::{is_iprivate, is_leiri_ucschar, is_ucschar};
#[cfg(test)]
use crate::iri::components::Components;
use crate::iri::components::{ABSENT, PackedComponents};
use crate::iri::ip_literal;
use crate::iri::parse::{NonAscii, Rule, Syntax};
use crate::iri::percent::is_triplet;

/// The component classes of the walk, as ASCII classes of the crate's
/// table (without `pct-encoded` and non-ASCII, which the run handles), in
/// the order of their bits in [`WALK`].
const CLASS_MASKS: [u32; 5] = [
    // ireg-name
    UNRESERVED | SUB_DELIM,
    // iuserinfo
    UNRESERVED | SUB_DELIM | COLON,
    // isegment-nz-nc
    UNRESERVED | SUB_DELIM | AT,
    // ipchar / "/": a path after its first segment
    UNRESERVED | SUB_DELIM | AT | COLON | SLASH,
    // iquery, ifragment
    UNRESERVED | SUB_DELIM | AT | COLON | SLASH | QMARK,
];

/// The ASCII each repertoire adds to each class of [`CLASS_MASKS`]: none
/// (URI, IRI); `{}^[]` except in the host (Text); the ASCII of LEIRI's
/// `ucschar` everywhere (LEIRI).
const EXTRA_MASKS: [[u32; 5]; 4] = [
    [0; 5],
    [0; 5],
    [0, TEXT_EXTRA, TEXT_EXTRA, TEXT_EXTRA, TEXT_EXTRA],
    [LEIRI_EXTRA; 5],
];

/// Whether each repertoire of [`EXTRA_MASKS`] has the bytes of the
/// [`common letters`](is_common_letter_byte) in every class: all but URI's.
const LETTERS: [bool; 4] = [false, true, true, true];

/// The bit of class `class` (an index into [`CLASS_MASKS`]) under the
/// repertoire `extra` (an index into [`EXTRA_MASKS`]).
const fn bit(extra: usize, class: usize) -> u32 {
    1 << (extra * CLASS_MASKS.len() + class)
}

/// Whether byte `x` may be part of a *common letter*: a character of
/// U+00C0–05FF or U+0640–07FF (Latin letters with diacritics, Greek,
/// Cyrillic, Hebrew, most of Arabic…), U+0800–1FFF or U+3000–D7FF (Indic
/// scripts, Thai, kana, CJK, Hangul…). (U+0600–063F, lead byte `D8`, holds
/// U+061C, a bidi formatting character: those are checked one at a time,
/// by a glance at their second byte in `non_ascii_len`.) It is a
/// continuation byte (`80`–`BF`) or the
/// lead byte of such a character: `C3`–`DF` but `D8`, `E0`, `E1`,
/// `E3`–`ED` (a `&str` holds no surrogate, so `ED` starts U+D000–D7FF
/// only).
///
/// Every common letter is in every component of every repertoire but URI's:
/// it is `ucschar` (whose first range is U+00A0–D7FF), a LEIRI `ucschar`
/// (U+007F up), and no bidi formatting character. The bidi formatting
/// characters are U+061C (`D8 9C`) and characters of U+2000–206F (lead
/// byte `E2`); U+0080–00BF (lead byte `C2`) holds the C1 controls; so none
/// of these lead bytes is here, and neither are `EE`–`F4` (private use,
/// non-characters, the planes beyond the first).
const fn is_common_letter_byte(x: u8) -> bool {
    matches!(x, 0x80..=0xBF | 0xC3..=0xD7 | 0xD9..=0xDF | 0xE0 | 0xE1 | 0xE3..=0xED)
}

/// The walk's class table: for every byte, one bit per class and
/// repertoire ([`bit`]). An ASCII byte has the bit of each class it is
/// in; `%` has none; a byte from `80` up has every class bit of the
/// repertoires with [`LETTERS`] if it [may be part of a common
/// letter](is_common_letter_byte), and none otherwise.
///
/// So a run steps over common letters as it steps over ASCII, a byte at a
/// time (eight while all are in the class), without decoding them: where a
/// valid `&str` has a lead byte of one, the continuation bytes of that
/// character follow, and they are all in. It stops only at a byte without
/// the bit, never a continuation byte, so always at the start of a
/// character; a non-ASCII one there is decoded and looked up
/// ([`Walk::non_ascii_len`]).
pub(super) static WALK: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let mut extra = 0;
        while extra < EXTRA_MASKS.len() {
            let mut class = 0;
            while class < CLASS_MASKS.len() {
                let ascii = ASCII[b] & (CLASS_MASKS[class] | EXTRA_MASKS[extra][class]) != 0;
                let letter = LETTERS[extra] && is_common_letter_byte(b as u8);
                if ascii || letter {
                    t[b] |= bit(extra, class);
                }
                class += 1;
            }
            extra += 1;
        }
        b += 1;
    }
    t
};

/// The classes of the components under one repertoire: bits of [`WALK`],
/// and which non-ASCII characters each allows.
pub(super) struct Classes {
    pub(super) reg_name: u32,
    pub(super) userinfo: u32,
    pub(super) segment_nc: u32,
    pub(super) path: u32,
    /// `iquery` and `ifragment`.
    pub(super) query: u32,
    /// Non-ASCII in every class but the query's.
    pub(super) ucs: NonAscii,
    /// Non-ASCII in `iquery` (`iprivate` too).
    pub(super) ucs_query: NonAscii,
    /// A `#` inside the fragment is allowed ([`Syntax::Text`]: a second
    /// `#`, as Matrix and single-page applications write, docs/rules.md
    /// §1.2).
    pub(super) fragment_hash: bool,
}

const fn classes_of(
    extra: usize,
    ucs: NonAscii,
    ucs_query: NonAscii,
    fragment_hash: bool,
) -> Classes {
    Classes {
        reg_name: bit(extra, 0),
        userinfo: bit(extra, 1),
        segment_nc: bit(extra, 2),
        path: bit(extra, 3),
        query: bit(extra, 4),
        ucs,
        ucs_query,
        fragment_hash,
    }
}

static URI: Classes = classes_of(0, NonAscii::No, NonAscii::No, false);
static IRI: Classes = classes_of(1, NonAscii::Ucs, NonAscii::UcsPrivate, false);
static TEXT: Classes = classes_of(2, NonAscii::Ucs, NonAscii::UcsPrivate, true);
static LEIRI: Classes = classes_of(3, NonAscii::Leiri, NonAscii::Leiri, false);

/// The classes of `syntax`.
pub(super) fn classes(syntax: Syntax) -> &'static Classes {
    match syntax {
        Syntax::Uri => &URI,
        Syntax::Iri => &IRI,
        Syntax::Text => &TEXT,
        Syntax::Leiri => &LEIRI,
    }
}

/// The components of `s` if it matches `rule` over `syntax`: exactly
/// those of [`Components::split`]. `None` at the first fault, or for a
/// string that does not match. (For tests: `parse` uses [`walk_packed`].)
#[cfg(test)]
pub(super) fn walk(s: &str, rule: Rule, syntax: Syntax) -> Option<Components> {
    walk_packed(s, rule, syntax).map(|c| c.unpack(s.len()))
}

/// [`walk`], with the components packed as the walk writes them: where
/// each ends ([`PackedComponents`], 28 bytes, rather than nine ranges
/// built, returned and packed again). `s` must be shorter than
/// [`ABSENT`] bytes, so that every offset fits in 32 bits.
#[inline(always)]
pub(super) fn walk_packed(s: &str, rule: Rule, syntax: Syntax) -> Option<PackedComponents> {
    let mut c = PackedComponents::NONE;
    walk_packed_into(s, rule, syntax, &mut c).then_some(c)
}

/// [`walk_packed`] into `c`, which must be [`PackedComponents::NONE`]:
/// whether `s` matches (`c` then holds its components). For a caller that
/// returns them, walked in place rather than moved.
#[inline(always)]
pub(super) fn walk_packed_into(
    s: &str,
    rule: Rule,
    syntax: Syntax,
    c: &mut PackedComponents,
) -> bool {
    debug_assert!(s.len() < ABSENT as usize && *c == PackedComponents::NONE);
    let w = Walk {
        s,
        b: s.as_bytes(),
        k: classes(syntax),
    };
    w.walk(rule, c).is_some()
}

/// One walk: the string and the classes of its repertoire.
struct Walk<'a> {
    s: &'a str,
    b: &'a [u8],
    k: &'static Classes,
}

impl Walk<'_> {
    /// Walks the whole string into `c` ([`PackedComponents::NONE`] when
    /// called): `None` at the first fault. Offsets are written as `u32`,
    /// which [`walk_packed`] makes sure they fit in.
    #[inline(always)]
    fn walk(&self, rule: Rule, c: &mut PackedComponents) -> Option<()> {
        let (b, k) = (self.b, self.k);
        // `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` and ":".
        let i = scheme_len(b);
        let has_scheme = i > 0 && b.get(i) == Some(&b':');
        let pos = if has_scheme {
            c.scheme_end = i as u32;
            i + 1
        } else if rule == Rule::IriReference {
            // An irelative-ref: bytes 0..i, scheme characters, are in its
            // first segment, whose walk goes on from `i`.
            0
        } else {
            return None;
        };
        let mut j = pos;
        if b[pos..].starts_with(b"//") {
            j = self.authority(pos + 2, c)?;
        } else if !has_scheme {
            // `isegment-nz-nc`: no ':' before the first '/'. A path that
            // starts with '/' stops this run at once.
            j = self.run(i, k.segment_nc, k.ucs);
            if b.get(j) == Some(&b':') {
                return None;
            }
        }
        // The path: `ipath-abempty`, `-absolute`, `-rootless` or the rest
        // of `-noscheme`, all of one class.
        j = self.run(j, k.path, k.ucs);
        c.path_end = j as u32;
        if b.get(j) == Some(&b'?') {
            let end = self.run(j + 1, k.query, k.ucs_query);
            c.query_end = end as u32;
            j = end;
        }
        if b.get(j) == Some(&b'#') {
            if rule == Rule::AbsoluteIri {
                return None;
            }
            let mut end = self.run(j + 1, k.query, k.ucs);
            while k.fragment_hash && b.get(end) == Some(&b'#') {
                end = self.run(end + 1, k.query, k.ucs);
            }
            c.fragment = true;
            j = end;
        }
        (j == b.len()).then_some(())
    }

    /// Walks the authority that starts at `start` (after the `//`), fills
    /// in its components and returns its end; `None` if it is not valid.
    ///
    /// The walk cannot know whether an `@` is still to come, so it runs
    /// with the `ireg-name` class (inside `iuserinfo`'s) and keeps what the
    /// host part needs: the first `:` since the host part began (the
    /// port's: a host holds none) and whether a byte of `iuserinfo` outside
    /// `ireg-name` was seen. An `@` ends the userinfo and starts the host
    /// part afresh; a second `@` is a fault. An `IP-literal` host is walked
    /// by [`Walk::ip_literal`]; a `[` that does not start one may still
    /// open a userinfo of [`Syntax::Text`] (`[a]@host`).
    #[inline(always)]
    fn authority(&self, start: usize, c: &mut PackedComponents) -> Option<usize> {
        let (b, k) = (self.b, self.k);
        let mut colon: Option<usize> = None;
        let mut not_host = false;
        if b.get(start) == Some(&b'[')
            && let Some(end) = self.ip_literal(start, c)
        {
            return Some(end);
        }
        let mut i = start;
        loop {
            i = self.run(i, k.reg_name, k.ucs);
            match b.get(i) {
                None | Some(b'/' | b'?' | b'#') => break,
                // A second ':' lands in the port, which holds digits only.
                Some(b':') => colon = colon.or(Some(i)),
                Some(b'@') => {
                    if c.userinfo_end != ABSENT {
                        return None;
                    }
                    c.userinfo_end = i as u32;
                    (colon, not_host) = (None, false);
                    if b.get(i + 1) == Some(&b'[') {
                        return self.ip_literal(i + 1, c);
                    }
                }
                Some(&x) if WALK[usize::from(x)] & k.userinfo != 0 => not_host = true,
                Some(_) => return None,
            }
            i += 1;
        }
        if not_host {
            return None;
        }
        c.authority_end = i as u32;
        // The host ends at the port's ':', if any, and the port after it.
        c.host_end = match colon {
            Some(colon) => {
                if !b[colon + 1..i].iter().all(u8::is_ascii_digit) {
                    return None;
                }
                colon as u32
            }
            None => i as u32,
        };
        Some(i)
    }

    /// An `IP-literal` host at `host_start` (a `[`), an optional port, and
    /// the end of the authority; `None` if any of it does not match.
    fn ip_literal(&self, host_start: usize, c: &mut PackedComponents) -> Option<usize> {
        let b = self.b;
        let close = host_start + 1 + find_byte(b']', &b[host_start + 1..])?;
        let inner = &b[host_start + 1..close];
        let valid = if matches!(inner.first(), Some(b'v' | b'V')) {
            ip_literal::ipv_future(inner).is_ok()
        } else {
            ip_literal::ipv6_address(inner).is_ok()
        };
        if !valid {
            return None;
        }
        // Neither address form admits "/?#@", so the authority goes on
        // past the "]".
        let mut end = close + 1;
        if b.get(end) == Some(&b':') {
            end += 1 + b[end + 1..]
                .iter()
                .take_while(|x| x.is_ascii_digit())
                .count();
        }
        if !matches!(b.get(end), None | Some(b'/' | b'?' | b'#')) {
            return None;
        }
        // A port, if any, is what lies between the host and this end.
        c.authority_end = end as u32;
        c.host_end = (close + 1) as u32;
        Some(end)
    }

    /// Steps from `i` over the bytes of a component of class `class` (a
    /// bit of [`WALK`]) — its ASCII and common letters, `pct-encoded`, the
    /// other non-ASCII characters `non_ascii` allows — and returns the
    /// offset of the first byte it cannot step over (the length at the
    /// end): a delimiter, or a fault. The walk's one inner loop.
    #[inline(always)]
    fn run(&self, mut i: usize, class: u32, non_ascii: NonAscii) -> usize {
        let b = self.b;
        let at = |x: u8| WALK[usize::from(x)];
        loop {
            // Eight bytes at a time while all are in the class, then one
            // at a time to the first that is not.
            let all_in = |w: &[u8; 8]| w.iter().fold(class, |all, &x| all & at(x)) != 0;
            while let Some(w) = b[i..].first_chunk::<8>()
                && all_in(w)
            {
                i += 8;
            }
            // Fewer than eight bytes to the end (most often of a path):
            // the last eight of the string, some of them before `i`, are
            // all in the class only if those from `i` are, and then the
            // run ends at the end.
            if b.len() - i < 8
                && i < b.len()
                && let Some(w) = b.last_chunk::<8>()
                && all_in(w)
            {
                return b.len();
            }
            while let Some(&x) = b.get(i)
                && at(x) & class != 0
            {
                i += 1;
            }
            // At the start of a character (see [`WALK`]).
            debug_assert!(self.s.is_char_boundary(i));
            match b.get(i) {
                Some(b'%') if is_triplet(b, i) => i += 3,
                Some(&x) if x >= 0x80 => match self.non_ascii_len(i, non_ascii) {
                    Some(n) => i += n,
                    None => return i,
                },
                _ => return i,
            }
        }
    }

    /// The length of the non-ASCII character at `i` (a lead byte) if
    /// `non_ascii` allows it (and, but in LEIRI, it is no bidi formatting
    /// character, RFC 3987 §4.1).
    #[inline(always)]
    fn non_ascii_len(&self, i: usize, non_ascii: NonAscii) -> Option<usize> {
        // U+0600–063F but U+061C (`D8 9C`): Arabic letters, whose lead
        // byte [`WALK`] leaves out for U+061C's sake, told by its second.
        if non_ascii != NonAscii::No && self.b[i] == 0xD8 && self.b.get(i + 1) != Some(&0x9C) {
            return Some(2);
        }
        let (c, n) = char_at(self.s, i)?;
        let ok = match non_ascii {
            NonAscii::No => false,
            NonAscii::Ucs => is_ucs(c),
            // No private use character is a bidi formatting one.
            NonAscii::UcsPrivate => is_ucs(c) || is_iprivate(c),
            NonAscii::Leiri => is_leiri_ucschar(c),
        };
        ok.then_some(n)
    }
}

/// `ucschar` without the bidi formatting characters. The first range of
/// `ucschar`, U+00A0–D7FF, holds the letters of most scripts and is
/// checked first.
#[inline(always)]
fn is_ucs(c: char) -> bool {
    let u = c as u32;
    if (0xA0..=0xD7FF).contains(&u) {
        !maybe_bidi_format(c)
    } else {
        is_ucschar(c) && !maybe_bidi_format(c)
    }
}

/// The length of the scheme that starts `b`: an ASCII letter, then
/// letters, digits, `+`, `-` and `.` (0 if `b` does not start with a
/// letter). `https://`, `http://` and `mailto:`, most of a scan's hits,
/// are told by one comparison of eight bytes each.
#[inline(always)]
fn scheme_len(b: &[u8]) -> usize {
    if let Some(head) = b.first_chunk::<8>() {
        let head = u64::from_le_bytes(*head);
        if head == u64::from_le_bytes(*b"https://") {
            return 5;
        }
        // The first seven bytes.
        let head7 = head & 0x00FF_FFFF_FFFF_FFFF;
        if head7 == u64::from_le_bytes(*b"http://\0") {
            return 4;
        }
        if head7 == u64::from_le_bytes(*b"mailto:\0") {
            return 6;
        }
    }
    if !b.first().is_some_and(u8::is_ascii_alphabetic) {
        return 0;
    }
    1 + b[1..]
        .iter()
        .take_while(|&&x| ASCII[usize::from(x)] & SCHEME != 0)
        .count()
}

/// The character that starts at byte `i` of `s`, a non-ASCII lead byte,
/// and its length. A `&str` is valid UTF-8 and the walk steps over whole
/// characters, so the bits only need putting together; [`decode_at`]
/// (which checks every byte range, for bytes that may not be UTF-8) agrees
/// in debug builds. `None` only if `i` is not a character's start.
///
/// [`decode_at`]: crate::chars::utf8::decode_at
#[inline(always)]
fn char_at(s: &str, i: usize) -> Option<(char, usize)> {
    let b = s.as_bytes();
    let lead = u32::from(b[i]);
    let cont = |k: usize| b.get(i + k).map(|&x| u32::from(x & 0x3F));
    let (u, n) = if lead < 0xE0 {
        (((lead & 0x1F) << 6) | cont(1)?, 2)
    } else if lead < 0xF0 {
        (((lead & 0x0F) << 12) | (cont(1)? << 6) | cont(2)?, 3)
    } else {
        let u = ((lead & 0x07) << 18) | (cont(1)? << 12) | (cont(2)? << 6) | cont(3)?;
        (u, 4)
    };
    debug_assert_eq!(
        crate::chars::utf8::decode_at(b, i),
        char::from_u32(u).map(|c| (c, n)),
        "{s:?} at {i}"
    );
    char::from_u32(u).map(|c| (c, n))
}

/// Whether `c` is a bidi formatting character ([`is_bidi_format`]), the
/// table read only between its first and last entries: most non-ASCII
/// letters (accented Latin, Cyrillic, CJK) are outside and cost two
/// comparisons.
#[inline(always)]
fn maybe_bidi_format(c: char) -> bool {
    let u = c as u32;
    let (first, last) = (BIDI_FORMAT[0].0, BIDI_FORMAT[BIDI_FORMAT.len() - 1].1);
    (first..=last).contains(&u) && is_bidi_format(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_at_decodes_every_character() {
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let s = format!("a{c}b");
            assert_eq!(
                char_at(&s, 1),
                Some((c, c.len_utf8())),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn is_ucs_is_ucschar_without_bidi_formatting() {
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(
                is_ucs(c),
                is_ucschar(c) && !is_bidi_format(c),
                "U+{:04X}",
                c as u32
            );
            assert_eq!(
                maybe_bidi_format(c),
                is_bidi_format(c),
                "U+{:04X}",
                c as u32
            );
        }
    }

    /// The bytes of a character from U+0080 up in [`WALK`]: in a class
    /// either all or none of its lead byte (so that a run stops at the
    /// start of a character), and all of them only if the character is in
    /// the repertoire's non-ASCII of every component, bidi formatting
    /// characters excluded. URI has no non-ASCII byte at all.
    #[test]
    fn walk_steps_over_whole_characters_of_the_repertoire() {
        for syntax in [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri] {
            let k = classes(syntax);
            let allowed = |c: char| {
                let n = c.len_utf8();
                let s = c.to_string();
                let w = Walk {
                    s: &s,
                    b: s.as_bytes(),
                    k,
                };
                w.non_ascii_len(0, k.ucs) == Some(n) && w.non_ascii_len(0, k.ucs_query) == Some(n)
            };
            for class in [k.reg_name, k.userinfo, k.segment_nc, k.path, k.query] {
                for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
                    let mut buf = [0; 4];
                    let bytes = c.encode_utf8(&mut buf).as_bytes();
                    let has = |x: &u8| WALK[usize::from(*x)] & class != 0;
                    if has(&bytes[0]) {
                        assert!(bytes.iter().all(has), "{syntax:?} U+{:04X}", c as u32);
                        assert!(allowed(c), "{syntax:?} U+{:04X}", c as u32);
                        assert!(syntax != Syntax::Uri);
                    }
                }
                // The lead bytes of the common letters, exactly.
                let leads: Vec<u8> = (0xC0..=0xFFu8)
                    .filter(|x| WALK[usize::from(*x)] & class != 0)
                    .collect();
                let expected: Vec<u8> = if syntax == Syntax::Uri {
                    vec![]
                } else {
                    (0xC3..=0xEDu8)
                        .filter(|x| !matches!(x, 0xD8 | 0xE2))
                        .collect()
                };
                assert_eq!(leads, expected, "{syntax:?}");
            }
        }
    }

    #[test]
    fn scheme_len_is_the_scheme_rule() {
        let by_rule = |b: &[u8]| {
            if !b.first().is_some_and(u8::is_ascii_alphabetic) {
                return 0;
            }
            b.iter()
                .take_while(|&&x| x.is_ascii_alphanumeric() || matches!(x, b'+' | b'-' | b'.'))
                .count()
        };
        for s in [
            "https://a",
            "https://",
            "http://a",
            "http://",
            "https:/",
            "http:/a",
            "http:a/b",
            "https:",
            "httpsx://a",
            "http2://a",
            "HTTPS://a",
            "http+x://a",
            "hxxp://a",
            "h",
            "",
            "1a:",
            ":",
            "a.b-c+d:",
            "é:",
            "mailto:a@b",
            "mailto:",
            "mailto:ab",
            "mailtox:a@b",
            "mailt:a@b",
        ] {
            assert_eq!(scheme_len(s.as_bytes()), by_rule(s.as_bytes()), "{s:?}");
        }
    }

    #[test]
    fn runs_step_over_blocks_and_stop_at_the_first_fault() {
        // A fault at every offset of a long ASCII run, so that it falls in
        // each lane of the eight-byte step and in the tail.
        let k = classes(Syntax::Iri);
        for len in 0..40 {
            for fault in 0..=len {
                let mut s = "a".repeat(len);
                if fault < len {
                    s.replace_range(fault..fault + 1, " ");
                }
                let w = Walk {
                    s: &s,
                    b: s.as_bytes(),
                    k,
                };
                assert_eq!(w.run(0, k.path, k.ucs), fault, "{s:?}");
            }
        }
        // A run that starts after bytes outside its class, with fewer than
        // eight bytes to the end: the last eight bytes of the string hold
        // some of those.
        for before in 0..10 {
            for len in 0..10 {
                for fault in 0..=len {
                    let mut s = " ".repeat(before) + &"a".repeat(len);
                    if fault < len {
                        s.replace_range(before + fault..before + fault + 1, " ");
                    }
                    let w = Walk {
                        s: &s,
                        b: s.as_bytes(),
                        k,
                    };
                    assert_eq!(w.run(before, k.path, k.ucs), before + fault, "{s:?}");
                }
            }
        }
        // Percent triplets and runs of non-ASCII characters are stepped
        // over, common letters or not; a cut triplet, a bidi mark and
        // private use (outside the query) stop the run.
        for (s, stop) in [
            ("a%41b", 5),
            ("a%4", 1),
            ("東京大阪x", 13),
            ("東京\u{200F}x", 6),
            ("é\u{E000}", 2),
            ("ab?c", 2),
            ("ab\u{61C}", 2),
            ("ab\u{61B}\u{61D}", 6),
            ("ab\u{A0}\u{9F}", 4),
            ("—ü—ü—ü—ü", 20),
            ("𝔸\u{1FFFE}", 4),
            ("ꯍ\u{E000}", 3),
            ("ab\u{202E}", 2),
        ] {
            let w = Walk {
                s,
                b: s.as_bytes(),
                k,
            };
            assert_eq!(w.run(0, k.path, k.ucs), stop, "{s:?}");
        }
    }
}
