//! Percent-encoding (RFC 3986 §2.1): reading and writing `%HH` triplets.
//!
//! A triplet is `%` and two hex digits, either case; it stands for one
//! octet. Every conversion of the crate reads or writes them: the IRI → URI
//! mapping writes the UTF-8 octets of a character as triplets, the URI →
//! IRI conversion and normalization decode them, the host mapping decodes
//! them before IDNA (RFC 3987bis §3.4.2), and the validator checks that a
//! `%` starts one. This module is the one place that knows their shape.
//!
//! Triplets are written with upper-case hex, as RFC 3986 §2.1 recommends
//! and RFC 3987bis §3.3 step 2 asks; reading accepts both cases.
//!
//! ```text
//! "caf%C3%A9"   is_triplet(b, 3) = true    triplet_value(b, 3) = 0xC3
//! push_pct(out, 0xE9)  appends "%E9"
//! ```

/// The hex digits a triplet is written with (upper case).
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Whether `b[i..]` starts with a `%HH` triplet.
#[inline]
pub(crate) fn is_triplet(b: &[u8], i: usize) -> bool {
    b.len() > i + 2 && b[i] == b'%' && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit()
}

/// The value of one hex digit, either case; the caller checked that `x` is
/// one.
#[inline]
fn hex_value(x: u8) -> u8 {
    match x {
        b'0'..=b'9' => x - b'0',
        b'a'..=b'f' => x - b'a' + 10,
        _ => x - b'A' + 10,
    }
}

/// The octet of the `%HH` triplet at `b[i..]`; the caller checked
/// [`is_triplet`].
#[inline]
pub(crate) fn triplet_value(b: &[u8], i: usize) -> u8 {
    hex_value(b[i + 1]) << 4 | hex_value(b[i + 2])
}

/// Whether `s` holds a triplet of an octet from 0x80 up: a percent-encoded
/// piece of a non-ASCII character, which makes an ASCII host not "US-ASCII
/// only" (RFC 3987 §5.3.2.1) and which IDNA must see decoded (§3.4.2).
pub(crate) fn has_non_ascii_triplet(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| is_triplet(b, i) && triplet_value(b, i) >= 0x80)
}

/// Appends `%HH` (upper-case hex, §3.3 step 2) for one octet.
#[inline]
pub(crate) fn push_pct(out: &mut String, b: u8) {
    out.push('%');
    out.push(HEX_UPPER[(b >> 4) as usize] as char);
    out.push(HEX_UPPER[(b & 0xF) as usize] as char);
}

/// Appends `%HH` for each octet.
pub(crate) fn push_pct_bytes(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        push_pct(out, b);
    }
}

/// Decodes every `%HH` triplet of `s`, of ASCII octets too, and keeps every
/// other byte (a lone `%` included). The result need not be UTF-8.
pub(crate) fn decode_all(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if is_triplet(b, i) {
            out.push(triplet_value(b, i));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplet_value_reads_both_cases() {
        assert_eq!(triplet_value(b"%aF", 0), 0xAF);
        assert_eq!(triplet_value(b"x%7e", 1), 0x7E);
    }

    #[test]
    fn every_octet_round_trips_in_upper_case() {
        for b in 0..=255u8 {
            let mut s = String::new();
            push_pct(&mut s, b);
            assert_eq!(s, format!("%{b:02X}"));
            assert!(is_triplet(s.as_bytes(), 0));
            assert_eq!(triplet_value(s.as_bytes(), 0), b);
            let lower = s.to_ascii_lowercase();
            assert_eq!(triplet_value(lower.as_bytes(), 0), b);
        }
    }

    #[test]
    fn a_triplet_needs_two_hex_digits() {
        for s in ["%", "%4", "%4g", "%g4", "4%1", "%%41"] {
            assert!(!is_triplet(s.as_bytes(), 0), "{s}");
        }
        assert!(is_triplet(b"%%41", 1));
    }

    #[test]
    fn decode_all_decodes_every_triplet_and_keeps_the_rest() {
        assert_eq!(decode_all("a%2Fb%c3%A9%%4"), b"a/b\xC3\xA9%%4");
        assert!(has_non_ascii_triplet("r%C3%A9sum%C3%A9"));
        assert!(!has_non_ascii_triplet("a%2F%7e%"));
    }
}
