//! Host rules of the scanner (docs/rules.md §1.1): is the host of a candidate a
//! plausible DNS name, and where does prose glued to a host begin?
//!
//! These are *detection* heuristics, applied before validation: a candidate
//! whose host fails them is not a link at all (`http://#`, `http://-a.com`,
//! `ldap://でなければなりません`), rather than an invalid IRI.

use crate::chars::ascii::{ASCII, DNS_HOST, LDH, TEXT_EXTRA, ascii_is};
use crate::chars::byte_mask::{ByteMasks, contains_byte};
use crate::chars::byte_search::rfind_byte;
use crate::chars::utf8::{decode_at, is_continuation};
use crate::find::prose_chars::is_cjk;

/// Why a host is not plausible, and where: the start of the rightmost label
/// at fault, or `None` when the fault concerns the host as a whole (too few
/// labels). The scanner uses the position to skip `www.` triggers that
/// would fail for the same reason (linear time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Implausible {
    /// Byte offset (into the haystack) of the rightmost bad label, if the
    /// fault is a label.
    pub label: Option<usize>,
    /// Byte offset of the last label (a truncated host's last label is
    /// incomplete, so a fault found there says nothing about longer hosts).
    pub last_label: usize,
    /// Without a bad label: the host is too long in its ASCII form (else it
    /// has too few labels). A shorter host, as a later `www.` inside this
    /// one has, may not be.
    pub too_long: bool,
}

/// The longest DNS name in its ASCII form (RFC 1035 §2.3.4, RFC 1123 §2.1).
pub(crate) const MAX_HOST_LEN: usize = 253;

/// Scripts written without spaces between words: an ASCII host label or
/// e-mail local part running into one of them is prose glued to the link.
/// docs/rules.md §1.1 names Han, Kana and Hangul; Thai, Lao, Khmer and Myanmar
/// are written the same way.
pub(crate) fn is_spaceless_script(c: char) -> bool {
    is_cjk(c) || matches!(c as u32, 0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1780..=0x17FF)
}

/// Where the last label of the host `hay[start..end]` switches from ASCII
/// letters and digits to a spaceless script (`www.scriptics.com参照`): the
/// offset of the switch, where the IRI ends. `None` if there is no switch.
#[inline(always)]
pub(crate) fn glued_prose_at(hay: &[u8], start: usize, end: usize) -> Option<usize> {
    // A last label of bytes of other scripts only (`пример.рф`,
    // `例え.テスト`) starts with no ASCII letter to switch from, and one of
    // ASCII bytes only (`bücher.de`) switches to no other script: told
    // from the bytes before the end, without a call. (The reference
    // scanner asks `glued_prose_in_last_label`, and a test holds the two
    // together. One walk back over the bytes of the last byte's kind,
    // tried in place of these two, took link-dense text 1.03 of the time
    // and `http://-a/` 1.06: a jump the compiler made of it mispredicted.)
    let mut i = end;
    while i > start && hay[i - 1] >= 0x80 {
        i -= 1;
    }
    if i == end {
        while i > start && hay[i - 1] < 0x80 && hay[i - 1] != b'.' {
            i -= 1;
        }
        if i < end && (i == start || hay[i - 1] == b'.') {
            return None;
        }
    } else if i == start || hay[i - 1] == b'.' {
        return None;
    }
    glued_prose_in_last_label(hay, start, end)
}

/// [`glued_prose_at`]'s answer for any host, from the start of its last
/// label: what `glued_prose_at` asks when that label mixes ASCII and other
/// bytes, or is empty.
pub(crate) fn glued_prose_in_last_label(hay: &[u8], start: usize, end: usize) -> Option<usize> {
    // Only a last label holding a non-ASCII byte can switch (its search
    // is a byte loop for a short host, memrchr for a long one).
    let label_start = start + rfind_byte(b'.', &hay[start..end]).map_or(0, |i| i + 1);
    if hay[label_start..end].is_ascii() {
        return None;
    }
    let mut i = label_start;
    while i < end && ascii_is(hay[i], LDH) {
        i += 1;
    }
    if i == label_start || i == end || !hay[i - 1].is_ascii_alphabetic() {
        return None;
    }
    match decode_at(hay, i) {
        Some((c, _)) if is_spaceless_script(c) => Some(i),
        _ => None,
    }
}

/// Where a `,` in the host `hay[h0..h1]` of a DNS scheme ends the IRI
/// (docs/rules.md §1.1): no DNS name holds one, and
/// `http://a.example,b.example` is a list of sites. An IP-literal is left
/// to the validator.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn dns_comma_cut(hay: &[u8], h0: usize, h1: usize) -> Option<usize> {
    if hay.get(h0) == Some(&b'[') {
        return None;
    }
    memchr::memchr(b',', &hay[h0..h1]).map(|i| h0 + i)
}

/// The last character of the host `host` of a DNS scheme that no DNS name
/// holds and that the validator would let through: an ASCII sub-delimiter
/// or `~` (`http://example.org'/`, `www.a!b.example`). Such a host is not
/// plausible (docs/rules.md §1.1): the candidate is no link. The Legacy
/// Extended characters `{ } [ ] ^` are not counted: the validator rejects
/// them in a host, with their position (`http://{host}:{port}/`). An
/// IP-literal is the validator's business.
pub(crate) fn last_non_dns_char(host: &[u8]) -> Option<usize> {
    if host.first() == Some(&b'[') {
        return None;
    }
    host.iter()
        .rposition(|&b| b < 0x80 && ASCII[b as usize] & (DNS_HOST | TEXT_EXTRA) == 0)
}

/// The length of a label in its ASCII form: itself if ASCII, else
/// `xn--` + its Punycode (RFC 3492), as DNS will see it.
fn ascii_len(label: &[u8]) -> usize {
    if label.is_ascii() {
        return label.len();
    }
    match std::str::from_utf8(label)
        .ok()
        .and_then(idna::punycode::encode_str)
    {
        Some(p) => 4 + p.len(),
        None => usize::MAX,
    }
}

/// An upper bound of [`ascii_len`] without encoding: Punycode spends at
/// most 7 digits on a non-basic code point in a label this short (deltas
/// stay below 36^7), plus the delimiter and `xn--`.
fn ascii_len_bound(label: &[u8]) -> usize {
    let (mut basic, mut other) = (0, 0);
    for &b in label {
        if b < 0x80 {
            basic += 1;
        } else if !is_continuation(b) {
            other += 1;
        }
    }
    if other == 0 {
        basic
    } else {
        4 + basic + 1 + 7 * other
    }
}

/// Whether the host `hay[start..end]` of a DNS scheme (http, https, ftp, ws,
/// wss, `www.` hits) is plausible (docs/rules.md §1.1): an IP-literal, or a
/// name (an IPv4 address is one of digit labels) with no empty label (a single trailing dot, the DNS
/// root, is allowed), no label starting or ending with `-`, no `_` in the
/// last label, every label at most 63 bytes in its ASCII form.
/// `min_labels` is 3 for `www.` hits (`www.` plus "at least one more dot").
#[inline]
pub(crate) fn check_dns_host(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
) -> Result<(), Implausible> {
    check_dns_host_masked(hay, start, end, min_labels, None)
}

/// [`check_dns_host`], given the masks of the bytes from `start` when the
/// caller made them already (at least up to `end`; the bytes after it
/// may be in them).
#[inline(always)]
pub(crate) fn check_dns_host_masked(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
    masks: Option<ByteMasks>,
) -> Result<(), Implausible> {
    if short_name_passes(hay, start, end, min_labels, masks) {
        debug_assert_eq!(
            check_dns_host_fully(hay, start, end, min_labels),
            Ok(()),
            "{:?}",
            String::from_utf8_lossy(&hay[start..end])
        );
        return Ok(());
    }
    check_dns_host_fully(hay, start, end, min_labels)
}

/// Whether `hay[start..end]` is a name of at most 32 bytes (with a root
/// dot, 33) whose labels are at most [`UNMEASURED_LABEL`] bytes long, that
/// [`check_dns_host`] lets through, when the blocks of sixteen bytes that
/// hold it can be read whole: most hosts of links and e-mail addresses,
/// ASCII or not (`пример.рф`, `例え.テスト`), for which the masks of one or
/// two SSE2 loads answer without the rest of the checks. False says
/// nothing: the full checks decide (and give the reasons of a host that
/// fails). What is checked is [`short_host`]'s rule for such a name: no
/// empty label, no label starting or ending with `-`, no `_` in the last
/// label, at least `min_labels` labels. No label or name that short is too
/// long, in its ASCII form either: a label of at most 16 bytes, each lead
/// byte followed by a continuation byte, is at most 61 bytes long in its
/// ASCII form (`ascii_len_bound`: `xn--`,
/// `-` and 7 digits for each of at most 8 characters), and a name of at
/// most 32 bytes in such labels at most 155 (a label of `L` bytes and its
/// dot count at most 6 + 3.5·L, and the labels and dots hold 33 bytes at
/// most), below the 253 of a name.
#[inline(always)]
fn short_name_passes(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
    masks: Option<ByteMasks>,
) -> bool {
    let n = end.saturating_sub(start);
    if n == 0 || n > 33 || hay[start] == b'[' {
        return false;
    }
    // The body: without one root dot, at least one byte, not ending with
    // a dot.
    let n = if hay[end - 1] == b'.' { n - 1 } else { n };
    if n == 0 || n > 32 {
        return false;
    }
    let mut m = match masks {
        Some(m) => m,
        None => match ByteMasks::of_sixteen(hay, start) {
            Some(m) => m,
            None => return false,
        },
    };
    if masks.is_none() && n > 16 {
        let Some(high) = ByteMasks::of_sixteen(hay, start + 16) else {
            return false;
        };
        m.add(high, u64::MAX, 16);
    }
    let all = (1u64 << n) - 1;
    if (m.dots & all) >> (n - 1) != 0 {
        return false;
    }
    // A name of non-ASCII bytes with a label longer than 16 bytes (a run
    // of 17 bytes without a dot) is measured by the full checks, and so is
    // one with a lead byte not followed by a continuation byte in the body:
    // the bound counts a character a lead byte, and only a lead byte with
    // its own continuation after it keeps them to 8 in 16 bytes. (The
    // scanner's hosts are UTF-8, but this is asked of any bytes.)
    if m.non_ascii & all != 0 {
        let continuations = m.non_ascii & !m.leads & all;
        if (n > UNMEASURED_LABEL && has_run_of_17(!m.dots & all))
            || ((m.leads & all) << 1) & !continuations != 0
        {
            return false;
        }
    }
    let faults = LabelFaults::of(&m, n);
    faults.bad == 0 && enough_labels(m.dots & all, min_labels)
}

/// Whether `x` has 17 set bits in a row (`UNMEASURED_LABEL` + 1): each step
/// keeps the bits that start a run twice as long as the step before.
#[inline(always)]
fn has_run_of_17(x: u64) -> bool {
    const _: () = assert!(UNMEASURED_LABEL == 16);
    let mut r = x & (x >> 1);
    r &= r >> 2;
    r &= r >> 4;
    r &= r >> 8;
    r & (x >> 16) != 0
}

/// [`check_dns_host`] without the shortcut.
fn check_dns_host_fully(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
) -> Result<(), Implausible> {
    let host = &hay[start..end];
    let whole = Err(Implausible {
        label: None,
        last_label: start,
        too_long: false,
    });
    if host.is_empty() {
        return whole;
    }
    if host[0] == b'[' {
        // IP-literal: its syntax is the validator's business.
        return if host.ends_with(b"]") { Ok(()) } else { whole };
    }
    // An IPv4 address passes as a name of digit labels. A single trailing
    // dot (the DNS root) is not a label.
    let body = host
        .strip_suffix(b".")
        .filter(|b| !b.is_empty())
        .unwrap_or(host);
    let body_end = start + body.len();
    // A host of more than 4 × 253 bytes is too long in any form (a
    // character is at most 4 bytes and at least one ASCII byte): that is
    // the verdict, without reading the labels of a host that may be
    // kilobytes long (`www.ąwww.ąwww.…`). A bad label among its last
    // bytes would let the scanner's memo skip a few more `www.` triggers,
    // but finding it costs more than those triggers' reading does: the
    // scanner then reads each byte of a host that runs to the maximum
    // length about 1.14 times (the memo's 4 × 254 bytes again in each
    // 8 KiB), at about 8 instructions a byte, and looking for the bad
    // label in those 4 × 254 bytes took 18 a byte (`www.ąwww.…`: 18% of
    // its instructions).
    if host.len() > 4 * MAX_HOST_LEN {
        return Err(Implausible {
            label: None,
            last_label: start,
            too_long: true,
        });
    }
    if let Some(verdict) = short_host(hay, start, body_end, min_labels) {
        debug_assert_eq!(verdict, labels_verdict(hay, start, body_end, min_labels));
        return verdict;
    }
    labels_verdict(hay, start, body_end, min_labels)
}

/// [`check_dns_host`] of a name whose body (without a root dot) is
/// `hay[start..end]`, label by label.
fn labels_verdict(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
) -> Result<(), Implausible> {
    let body = &hay[start..end];
    let Labels {
        count: labels,
        mut total,
        least,
        bad,
        last_label,
    } = Labels::of(hay, start, end, true);
    if bad.is_some() {
        return Err(Implausible {
            label: bad,
            last_label: last_label.0,
            too_long: false,
        });
    }
    // RFC 1035 §2.3.4: 253 bytes in the ASCII form, without the root dot.
    // The bound may overshoot: measure exactly before calling it too long.
    // (A host of more than 4 × 253 bytes is too long in any form: a
    // character is at most 4 bytes and at least one ASCII byte.)
    // (The caller has turned away bodies of more than 4 × 253 bytes.)
    // Where even the lower bound is too long (`www.ąwww.www.ąwww.…` up to
    // 4 × 253 bytes), nothing needs encoding: measuring each label took
    // that input 6% of its instructions.
    if least - 1 > MAX_HOST_LEN {
        total = least;
    } else if total - 1 > MAX_HOST_LEN && body.len() <= 4 * MAX_HOST_LEN && !body.is_ascii() {
        total = body
            .split(|&b| b == b'.')
            .map(|l| ascii_len(l).saturating_add(1))
            .fold(0, usize::saturating_add);
    }
    if labels < min_labels || total - 1 > MAX_HOST_LEN {
        return Err(Implausible {
            label: None,
            last_label: last_label.0,
            too_long: total - 1 > MAX_HOST_LEN,
        });
    }
    Ok(())
}

/// [`check_dns_host`] of a short name whose body (without a root dot) is
/// `hay[start..end]`, from the masks of its dots, hyphens, underscores and
/// non-ASCII bytes ([`ByteMasks`]), without a loop over its bytes; `None`
/// where it does not apply (a body of more than 63 bytes or ending with a
/// dot; an IDN label whose ASCII form may be too long, or an IDN whose
/// may), for [`labels_verdict`] to answer.
///
/// The answer is the label loop's, bit for bit, by the rules on masks of
/// [`LabelFaults`]. The rightmost bad label is the one holding the highest
/// bad bit: the highest start at or below it. No ASCII
/// label of 63 bytes or fewer is too long, nor is any such name. An IDN
/// label's ASCII form is bounded as the loop bounds it
/// (`ascii_len_bound`), from the counts of its non-ASCII bytes and of the
/// characters they start; where every bound and their sum are within the
/// limits the loop too finds nothing too long, and where one is not, the
/// loop measures exactly.
#[inline]
fn short_host(
    hay: &[u8],
    start: usize,
    end: usize,
    min_labels: usize,
) -> Option<Result<(), Implausible>> {
    let body = &hay[start..end];
    let n = body.len();
    if n == 0 || n > 63 || body[n - 1] == b'.' {
        return None;
    }
    let m = ByteMasks::of(hay, start, end)?;
    if m.non_ascii != 0 && !idn_within_limits(&m, n) {
        return None;
    }
    let faults = LabelFaults::of(&m, n);
    let highest = |x: u64| 63 - x.leading_zeros() as usize;
    let label = (faults.bad != 0)
        .then(|| start + highest(faults.starts & ((2 << highest(faults.bad)) - 1)));
    let few = !enough_labels(m.dots, min_labels);
    let last = faults.last;
    Some(if label.is_some() || few {
        Err(Implausible {
            label,
            last_label: start + last,
            too_long: false,
        })
    } else {
        Ok(())
    })
}

/// The label rules on the masks of a name's body of `n` bytes (1 to 64,
/// not ending with a dot), as [`short_host`] and the shortcut of
/// [`check_dns_host`] apply them: with `S` the label starts (bit 0 and
/// every bit after a dot) and `E` the label ends (every bit before a dot
/// and the last), a label is empty where a start is a dot, and starts or
/// ends with `-` where a start or an end is a hyphen; the last label is
/// the highest start, bad if it holds a `_`.
struct LabelFaults {
    /// `S`.
    starts: u64,
    /// The last label's start.
    last: usize,
    /// The bad bits: a bad label holds one (the rightmost bad label is the
    /// highest start at or below the highest bad bit).
    bad: u64,
}

impl LabelFaults {
    #[inline(always)]
    fn of(m: &ByteMasks, n: usize) -> LabelFaults {
        let all = u64::MAX >> (64 - n);
        let (dots, hyphens) = (m.dots & all, m.hyphens & all);
        let starts = ((dots << 1) | 1) & all;
        let ends = (dots >> 1) | (1 << (n - 1));
        let last = 63 - starts.leading_zeros() as usize;
        let mut bad = (starts & (dots | hyphens)) | (ends & hyphens);
        if (m.underscores & all) >> last != 0 {
            bad |= 1 << last;
        }
        LabelFaults { starts, last, bad }
    }
}

/// Whether `dots` (of a name's body) make at least `min_labels` labels:
/// that many dots but one (a dot cleared at a time, not a population
/// count, which x86-64 lacks by default).
#[inline(always)]
fn enough_labels(mut dots: u64, min_labels: usize) -> bool {
    for _ in 1..min_labels {
        if dots == 0 {
            return false;
        }
        dots &= dots - 1;
    }
    true
}

/// Whether every label of the non-ASCII name of `n` bytes (at most 63)
/// whose masks are `m` is at most 63 bytes long in its ASCII form, and the
/// name at most `MAX_HOST_LEN`, by `ascii_len_bound`'s bound of each
/// label: `xn--`, its ASCII bytes, `-` and 7 digits a character.
fn idn_within_limits(m: &ByteMasks, n: usize) -> bool {
    let mut total = 0;
    let mut from = 0;
    loop {
        // The label from `from` to the next dot or the end.
        let to = ((m.dots >> from).trailing_zeros() as usize + from).min(n);
        let label = ((1u64 << (to - from)) - 1) << from;
        let non_ascii = (m.non_ascii & label).count_ones() as usize;
        let len = if non_ascii == 0 {
            to - from
        } else {
            let chars = (m.leads & label).count_ones() as usize;
            4 + (to - from - non_ascii) + 1 + 7 * chars
        };
        if len > 63 {
            return false;
        }
        total += len + 1;
        if to >= n {
            return total - 1 <= MAX_HOST_LEN;
        }
        from = to + 1;
    }
}

/// The labels of a host name whose body (without a root dot) is
/// `hay[start..end]`, or the last of them if `start` follows a dot of it,
/// as [`check_dns_host`] counts them.
struct Labels {
    count: usize,
    /// An upper bound of the length in the ASCII form, plus one.
    total: usize,
    /// A lower bound of it (where measured): an IDN label's ASCII form
    /// has `xn--`, its ASCII bytes, `-` if it has any, and at least one
    /// digit for each other character (RFC 3492 §6.3).
    least: usize,
    /// The start of the rightmost bad label, if any.
    bad: Option<usize>,
    last_label: (usize, usize),
}

/// Labels of this many bytes or fewer are never longer than 63 bytes in
/// their ASCII form (the bound is at most `xn--`, `-` and 7 digits for
/// each of 8 two-byte characters: 61).
const UNMEASURED_LABEL: usize = 16;

impl Labels {
    /// `measure`: compute `total`; without it, labels of
    /// [`UNMEASURED_LABEL`] bytes or fewer are not measured.
    ///
    /// One pass over the bytes (this runs for every host of a DNS scheme,
    /// `www.` hit and e-mail address): each byte counts towards its
    /// label's non-ASCII bytes and characters, from which the bound of
    /// [`ascii_len_bound`] follows at the label's end.
    fn of(hay: &[u8], start: usize, end: usize, measure: bool) -> Labels {
        let mut labels = Labels {
            count: 0,
            total: 0,
            least: 0,
            bad: None,
            last_label: (start, start),
        };
        let (mut label_start, mut non_ascii, mut chars) = (start, 0, 0);
        for (i, &b) in (start..).zip(&hay[start..end]) {
            if b != b'.' {
                non_ascii += usize::from(b >= 0x80);
                chars += usize::from(b >= 0xC0);
                continue;
            }
            labels.end_label(hay, label_start, i, non_ascii, chars, measure);
            (label_start, non_ascii, chars) = (i + 1, 0, 0);
        }
        labels.end_label(hay, label_start, end, non_ascii, chars, measure);
        let (l0, l1) = labels.last_label;
        // A loop, not `contains`: a label is a few bytes, and memchr's
        // setup costs more than reading them (2.6% of link-dense text).
        #[allow(clippy::manual_contains)]
        let underscore = hay[l0..l1].iter().any(|&b| b == b'_');
        if underscore {
            labels.bad = Some(l0);
        }
        labels
    }

    /// Counts the label `hay[start..end]`, of which `non_ascii` bytes are
    /// not ASCII and `chars` of those start a character.
    fn end_label(
        &mut self,
        hay: &[u8],
        start: usize,
        end: usize,
        non_ascii: usize,
        chars: usize,
        measure: bool,
    ) {
        let label = &hay[start..end];
        self.count += 1;
        self.last_label = (start, end);
        let mut fault = label.first().is_none_or(|&b| b == b'-') || label.last() == Some(&b'-');
        if measure || label.len() > UNMEASURED_LABEL {
            // The bound of `ascii_len_bound`, from the counts.
            let mut len = if non_ascii == 0 {
                label.len()
            } else {
                4 + (label.len() - non_ascii) + 1 + 7 * chars
            };
            debug_assert_eq!(len, ascii_len_bound(label));
            let least = if non_ascii == 0 {
                label.len()
            } else {
                let basic = label.len() - non_ascii;
                4 + basic + usize::from(basic > 0) + chars
            };
            if len > 63 {
                len = ascii_len(label);
            }
            // (`ascii_len` is `usize::MAX` for bytes that are no UTF-8:
            // any count is a lower bound of it.)
            debug_assert!(least <= len, "{least} > {len}");
            self.total = self.total.saturating_add(len).saturating_add(1);
            self.least += least + 1;
            fault |= len > 63;
        }
        if fault {
            self.bad = Some(start);
        }
    }
}

/// Whether a host without a dot contains non-ASCII characters
/// (`ldap://でなければなりません`): real non-ASCII hosts are IDNs with a dot,
/// single-label hosts in running text are ASCII (docs/rules.md §1.1).
pub(crate) fn is_dotless_non_ascii(host: &[u8]) -> bool {
    // (`contains_byte`: sixteen bytes at a time; `contains` is a call to
    // a general memchr, 65 instructions on an IDN host of link-dense text.)
    !host.is_ascii() && !contains_byte(host, b'.') && !host.starts_with(b"[")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chars::every_string::for_every_string;

    fn dns(h: &str) -> bool {
        check_dns_host(h.as_bytes(), 0, h.len(), 1).is_ok()
    }

    /// Every name of up to six characters over the characters that decide
    /// a label's fate (a root dot, `[`, `%` and a digit among them), and
    /// longer ones across the edges of the sixteen-byte blocks, in a
    /// haystack with and without bytes after the name, and names of other
    /// scripts with labels of up to and over 16 bytes: the shortcut passes
    /// only what the full checks pass, and passes every name of up to 32
    /// bytes that they pass whose labels are ASCII or at most 16 bytes.
    #[test]
    fn the_shortcut_passes_what_the_full_checks_pass() {
        let alphabet = [b'a', b'.', b'-', b'_', b'1', b'[', b'%'].map(|b| [b]);
        let mut names: Vec<Vec<u8>> = Vec::new();
        for_every_string(&alphabet, 1..=6, |name| names.push(name.to_vec()));
        for base in ["a.b", "ex-ample.jp", "www.example.com", "a_b.c-d.e", "x.y"] {
            for len in (10..=19).chain(28..=37) {
                let mut name: Vec<u8> = base.bytes().cycle().take(len).collect();
                names.push(name.clone());
                name.push(b'.');
                names.push(name.clone());
                name.insert(3, b'_');
                names.push(name);
            }
        }
        names.push("é.a".into());
        names.push("a.é".into());
        // Names with non-ASCII labels of up to and over 16 bytes, cut at
        // every character boundary of 1 to 37 bytes.
        for base in [
            "пример.рф",
            "例え.テスト",
            "bücher-x.de",
            "éééééééé.a",
            "ééééééééx.a",
            "a.ééééééééé",
            "ü-.日本",
            "東京_都.jp",
            "ａｂｃｄｅｆ.x",
            "é..a",
            "-é.a.b.c",
            "п.-рф.ю",
            "é.a-",
        ] {
            let mut name = String::new();
            for c in base.chars().cycle() {
                if name.len() + c.len_utf8() > 37 {
                    break;
                }
                name.push(c);
                names.push(name.clone().into_bytes());
                names.push(format!("{name}.").into_bytes());
            }
        }
        let mut passed = 0;
        for name in &names {
            for tail in [
                &b""[..],
                b"/path-after-the-host",
                b"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
            ] {
                let mut hay = b"http://".to_vec();
                hay.extend_from_slice(name);
                let end = hay.len();
                hay.extend_from_slice(tail);
                for min_labels in 1..=3 {
                    let fast = short_name_passes(&hay, 7, end, min_labels, None);
                    let full = check_dns_host_fully(&hay, 7, end, min_labels).is_ok();
                    let text = String::from_utf8_lossy(name);
                    assert!(!fast || full, "passed, fails: {text:?} {min_labels}");
                    let blocks = if name.len() > 16 { 32 } else { 16 };
                    let body = name.strip_suffix(b".").unwrap_or(name);
                    let short_labels = body.split(|&b| b == b'.').all(|l| l.len() <= 16);
                    if full
                        && (name.is_ascii() || short_labels)
                        && body.len() <= 32
                        && hay.len() >= 7 + blocks
                    {
                        assert!(fast, "fails, passes: {text:?} {min_labels}");
                    }
                    // A label of other scripts longer than 16 bytes is
                    // never judged by the shortcut: its bound of the ASCII
                    // form no longer proves it short enough.
                    if !name.is_ascii() && !short_labels {
                        assert!(!fast, "passed unmeasured: {text:?} {min_labels}");
                    }
                    passed += usize::from(fast);
                }
            }
        }
        assert!(passed > 10_000, "{passed}");
    }

    /// Lead bytes without a continuation byte after them in a short name
    /// send it to the full checks, which measure what the bound cannot
    /// (nine lone lead bytes in a label) and do not overflow doing it.
    #[test]
    fn a_short_name_of_bytes_that_are_no_utf8_is_measured() {
        for name in [
            b"\xC0\x80\xC0\x80\xC0\x80\xC0\x80\xC0\x80\xC0\x80\xC0\x80\xC0\x80\xC0\x80.a".to_vec(),
            [vec![0xC3; 12], b".ab".to_vec()].concat(),
            [vec![0xC3; 16], b".ab".to_vec()].concat(),
            [vec![0xC3; 9], b".ab".to_vec()].concat(),
        ] {
            let mut hay = b"http://".to_vec();
            hay.extend_from_slice(&name);
            let end = hay.len();
            hay.extend_from_slice(&[b'/'; 40]);
            assert!(!short_name_passes(&hay, 7, end, 1, None), "{name:x?}");
            assert_eq!(
                check_dns_host(&hay, 7, end, 1).is_ok(),
                check_dns_host_fully(&hay, 7, end, 1).is_ok()
            );
        }
        // Nine lone lead bytes: more characters than the bound allows.
        let mut hay = b"http://".to_vec();
        hay.extend_from_slice(&[vec![0xC3; 9], b".ab".to_vec()].concat());
        let end = hay.len();
        hay.extend_from_slice(&[b'/'; 40]);
        assert!(check_dns_host(&hay, 7, end, 1).is_err());
    }

    /// `has_run_of_17` against the longest run counted bit by bit, on
    /// every mask of 18 bits and on those moved up to the top of the word.
    #[test]
    fn a_run_of_17_is_found_where_there_is_one() {
        let longest = |x: u64| {
            let (mut best, mut run) = (0, 0);
            for i in 0..64 {
                run = if x >> i & 1 == 1 { run + 1 } else { 0 };
                best = best.max(run);
            }
            best
        };
        for x in 0..1u64 << 18 {
            for shift in [0, 23, 46] {
                let x = x << shift;
                assert_eq!(has_run_of_17(x), longest(x) >= 17, "{x:#x}");
            }
        }
    }

    /// Every host of up to seven characters over the characters that
    /// decide a label's fate: the masks answer as the label loop does,
    /// error and all.
    #[test]
    fn masks_judge_every_short_host_as_the_label_loop_does() {
        let alphabet = ["a", ".", "-", "_", "é"];
        let mut judged = 0;
        for_every_string(&alphabet, 1..=7, |host| {
            for min_labels in 1..=3 {
                if let Some(fast) = short_host(host, 0, host.len(), min_labels) {
                    judged += 1;
                    assert_eq!(
                        fast,
                        labels_verdict(host, 0, host.len(), min_labels),
                        "{:?}",
                        String::from_utf8_lossy(host)
                    );
                }
            }
        });
        // Only bodies ending with a dot are left to the loop.
        assert!(judged > 3 * 5usize.pow(7) * 3 / 4, "{judged}");
        let long = [b'a'; 64];
        assert_eq!(short_host(&long, 0, 64, 1), None);
        // IDN labels: judged from the masks where their bound is within
        // the limits, left to the loop where not (it measures exactly).
        for (host, judged) in [
            ("é.a", true),
            ("пример.рф", true),
            ("例え.テスト", true),
            ("-é.a", true),
            ("é-.a_", true),
            ("é..a", true),
            ("xn--é.a", true),
            // Eight characters of two bytes: `xn--`, the ASCII bytes, `-`
            // and 56 digits, 63 with two ASCII bytes.
            ("éééééééé12.a", true),
            ("éééééééé123.a", false),
            (&"ü".repeat(31), false),
        ] {
            let b = host.as_bytes();
            for min_labels in 1..=3 {
                let fast = short_host(b, 0, b.len(), min_labels);
                assert_eq!(fast.is_some(), judged, "{host}");
                if let Some(fast) = fast {
                    assert_eq!(fast, labels_verdict(b, 0, b.len(), min_labels), "{host}");
                }
            }
        }
    }

    #[test]
    fn plausible_dns_hosts() {
        for h in [
            "example.com",
            "intranet",
            "a.b",
            "例え.テスト",
            "bürgerentscheid-krankenhäuser.de",
            "_dmarc.example.com",
            "192.168.0.1",
            "[::1]",
            "example.com.",
            "xn--rsum-bpad.example",
        ] {
            assert!(dns(h), "{h}");
        }
    }

    #[test]
    fn implausible_dns_hosts() {
        let long = format!("{}.com", "a".repeat(64));
        for h in [
            "", ".a.com", "-a.com", "a-.com", "a.com_", "a..b", "a.com..", &long, "[::1",
        ] {
            assert!(!dns(h), "{h}");
        }
        // 63 is the limit, counted in the ASCII (punycode) form.
        assert!(dns(&format!("{}.com", "a".repeat(63))));
        assert!(!dns(&format!("{}.com", "ü".repeat(60))));
    }

    /// A name of IDN labels is too long by its ASCII form, 253 bytes: at
    /// the limit and one over, whether the lower bound already says so
    /// (`xn--` and a digit for each `ą` of many labels) or only the exact
    /// measure does, and the verdict says too long only then.
    #[test]
    fn idn_names_are_too_long_by_their_ascii_form() {
        let exact = |h: &str| -> usize {
            h.split('.')
                .map(|l| ascii_len(l.as_bytes()) + 1)
                .sum::<usize>()
                - 1
        };
        let too_long = |h: &str| match check_dns_host(h.as_bytes(), 0, h.len(), 1) {
            Ok(()) => false,
            Err(e) => {
                assert!(e.label.is_none(), "{h}");
                e.too_long
            }
        };
        // `ąwww.` is 5 bytes, `xn--www-…` in ASCII; `www.` is 4.
        for n in 1..=90 {
            for tail in ["com", "ab", "a"] {
                for labels in ["ąwww.www.", "ą."] {
                    let h = format!("{}{tail}", labels.repeat(n));
                    let want = exact(&h) > MAX_HOST_LEN;
                    assert_eq!(too_long(&h), want, "{h}: {}", exact(&h));
                }
            }
        }
        // Both sides of the limit are reached.
        assert!(!too_long(&format!("{}com", "ąwww.www.".repeat(10))));
        assert!(too_long(&format!("{}com", "ąwww.www.".repeat(30))));
    }

    #[test]
    fn www_hosts_need_one_more_dot() {
        let h = "www.example";
        assert!(check_dns_host(h.as_bytes(), 0, h.len(), 3).is_err());
        let h = "www.example.com";
        assert!(check_dns_host(h.as_bytes(), 0, h.len(), 3).is_ok());
    }

    #[test]
    fn rightmost_bad_label_is_reported() {
        let h = "www.-a.b.c_";
        assert_eq!(
            check_dns_host(h.as_bytes(), 0, h.len(), 3),
            Err(Implausible {
                label: Some(9),
                last_label: 9,
                too_long: false,
            })
        );
        let h = format!("www.{}", "a.".repeat(130));
        assert_eq!(
            check_dns_host(h.as_bytes(), 0, h.len(), 3)
                .unwrap_err()
                .label,
            None
        );
    }

    #[test]
    fn glued_prose_is_found_in_the_last_label_only() {
        let h = "www.scriptics.com参照";
        assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), Some(17));
        let h = "abc例え.jp";
        assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), None);
        let h = "example.jp";
        assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), None);
        let h = "naver.com에서";
        assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), Some(9));
        let h = "例え.テスト";
        assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), None);
        // The last label told from its end (of one kind of bytes only)
        // and read from its start (of both), in a haystack that goes on.
        for (h, glued) in [
            ("bücher.de", None),
            ("参照", None),
            ("de", None),
            ("a.bc参照", Some(4)),
            ("a.bc参照de", Some(4)),
            ("a.参照bc", None),
            ("bc参照.", None),
            ("x.a1参照", None),
            ("ü.a-参照", None),
        ] {
            let hay = format!("{h} 参照");
            assert_eq!(glued_prose_at(hay.as_bytes(), 0, h.len()), glued, "{h}");
        }
        // Long hosts and labels (the label is found with memrchr there).
        let long = "a".repeat(100);
        for (h, glued) in [
            (format!("{long}.com参照"), Some(104)),
            (format!("x.{long}参照"), Some(102)),
            (format!("x.{long}"), None),
            (format!("{long}参照.{long}"), None),
            (format!("x.参照{long}"), None),
        ] {
            assert_eq!(glued_prose_at(h.as_bytes(), 0, h.len()), glued, "{h}");
        }
    }

    /// The shortcut of `glued_prose_at` (a last label of one kind of
    /// bytes, told from its end) answers as the reading of the last label
    /// does: every string of up to four bytes over ASCII letters, digits,
    /// `-`, `.`, a space, the bytes of `é`, `参` and `ก`, and bytes that
    /// start or continue no character, every start and end; and strings
    /// of up to five whole characters.
    #[test]
    fn glued_prose_is_told_from_the_end_as_from_the_start() {
        let check = |hay: &[u8]| {
            for s in 0..=hay.len() {
                for e in s..=hay.len() {
                    assert_eq!(
                        glued_prose_at(hay, s, e),
                        glued_prose_in_last_label(hay, s, e),
                        "{hay:x?} {s} {e}"
                    );
                }
            }
        };
        let bytes = [
            b'a', b'1', b'-', b'.', b' ', 0xC3, 0xA9, 0xE5, 0x8F, 0x82, 0xE0, 0xB8, 0x81, 0x80,
            0xFF,
        ];
        let chars: [&[u8]; 8] = [
            b"a",
            b"1",
            b"-",
            b".",
            "é".as_bytes(),
            "参".as_bytes(),
            "ก".as_bytes(),
            b"\xFF",
        ];
        for_every_string(&bytes.map(|b| [b]), 0..=4, check);
        for_every_string(&chars, 0..=5, check);
    }

    /// Only a `,` ends a DNS host; the port is the validator's (a port
    /// of letters is a template, dropped whole: docs/rules.md §1.6).
    #[test]
    fn dns_hosts_end_at_a_comma_only() {
        let cut = |s: &str, h1: usize| dns_comma_cut(s.as_bytes(), 0, h1);
        assert_eq!(cut("example.org'", 12), None);
        assert_eq!(cut("a.com,http:", 10), Some(5));
        assert_eq!(cut("a'b,c", 5), Some(3));
        assert_eq!(cut("例え.jp", "例え.jp".len()), None);
        assert_eq!(cut("%E4%BE%8B.jp", 12), None);
        assert_eq!(cut("[a,b]", 5), None);
    }

    #[test]
    fn hosts_with_characters_no_dns_name_holds() {
        assert_eq!(last_non_dns_char(b"example.org'"), Some(11));
        assert_eq!(last_non_dns_char(b"a!b.c*d"), Some(5));
        assert_eq!(last_non_dns_char(b"a~b"), Some(1));
        assert_eq!(last_non_dns_char("例え_x-1.%41".as_bytes()), None);
        // The validator rejects these with their position.
        assert_eq!(last_non_dns_char(b"{host}"), None);
        assert_eq!(last_non_dns_char(b"mirror{n}.example.org"), None);
        assert_eq!(last_non_dns_char(b"[::1]"), None);
    }

    #[test]
    fn dotless_non_ascii_hosts() {
        assert!(is_dotless_non_ascii("でなければなりません".as_bytes()));
        assert!(!is_dotless_non_ascii(b"intranet"));
        assert!(!is_dotless_non_ascii("例え.jp".as_bytes()));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn labels_found_without_measuring_short_ones(host in "[a\\-._ąé例a]{0,80}") {
            let b = host.as_bytes();
            let (m, q) = (Labels::of(b, 0, b.len(), true), Labels::of(b, 0, b.len(), false));
            proptest::prop_assert_eq!((m.bad, m.last_label), (q.bad, q.last_label), "{:?}", host);
        }

        #[test]
        fn short_labels_are_never_too_long(label in "(a|é|ą|ж|ب|例|😀|[\u{80}-\u{10FFFF}]){1,40}") {
            // What `Labels::of` relies on when it does not measure: cut
            // to at most UNMEASURED_LABEL bytes at a character boundary.
            let cut = label
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .take_while(|&e| e <= UNMEASURED_LABEL)
                .last()
                .unwrap_or(0);
            let b = &label.as_bytes()[..cut];
            proptest::prop_assert!(ascii_len_bound(b) <= 63 && ascii_len(b) <= 63, "{:?}", label);
        }

        #[test]
        fn masks_judge_short_hosts_as_the_label_loop_does(
            host in "[a\\-._0é例]{1,70}",
            min_labels in 1usize..4,
        ) {
            // Up to past the 63 bytes the masks take, IDN labels whose bound
            // is within the limits and some that are not.
            let b = host.as_bytes();
            // (From the second byte only where a character starts: a host
            // always does.)
            let second = if host.is_char_boundary(1) { 1.min(b.len()) } else { 0 };
            for (s, e) in [(0, b.len()), (second, b.len())] {
                if let Some(fast) = short_host(b, s, e, min_labels) {
                    proptest::prop_assert_eq!(
                        fast,
                        labels_verdict(b, s, e, min_labels),
                        "{:?} {}..{}",
                        host,
                        s,
                        e
                    );
                }
            }
        }

        #[test]
        fn punycode_bound_is_an_upper_bound(label in "[a-z0-9\u{80}-\u{10FFFF}]{1,40}") {
            let b = label.as_bytes();
            proptest::prop_assert!(ascii_len_bound(b) >= ascii_len(b), "{:?}", label);
        }

        /// The lower bound `labels_verdict` trusts when it alone is too
        /// long: measured over whole names, it never exceeds the sum of
        /// the labels' exact lengths.
        #[test]
        fn the_lower_bound_is_a_lower_bound(host in "([a-z0-9]{0,5}[\u{80}-\u{10FFFF}]{0,4}[a-z]{0,3}\\.){1,6}[a-z]{2,3}") {
            let b = host.as_bytes();
            let labels = Labels::of(b, 0, b.len(), true);
            let exact: usize = b.split(|&x| x == b'.').map(|l| ascii_len(l) + 1).sum();
            proptest::prop_assert!(labels.least <= exact, "{:?}: {} > {}", host, labels.least, exact);
        }
    }
}
