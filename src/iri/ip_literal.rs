//! The IP address forms of a host (RFC 3986 §3.2.2, unchanged in RFC
//! 3987bis §2.2): `IPv4address`, and inside the brackets of an `IP-literal`
//! either `IPv6address` or `IPvFuture`.
//!
//! Each validator walks its input once, left to right, and reports the
//! offset of the first byte at which no continuation can match the rule, so
//! that [`crate::ParseError`] can point at it. No zone identifiers
//! (RFC 6874 `%25eth0`): 3987bis §2.2 says "This syntax does not support
//! IPv6 scoped addressing zone identifiers."

use crate::chars::ascii::{COLON, SUB_DELIM, UNRESERVED, ascii_is};

/// Why an IP address does not match its rule; the offset is relative to
/// the slice given to the validator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IpFault {
    /// The byte at this offset (or the end of the slice, if the offset is
    /// its length) cannot continue the rule.
    Unexpected(usize),
    /// An `h16` with a fifth hex digit, at the offset of that digit.
    H16TooLong(usize),
    /// More 16-bit pieces than the 8 an address has (7 besides a `::`),
    /// at the offset of the first piece too many.
    TooManyPieces(usize),
    /// Fewer than 8 pieces and no `::` to stand for the missing ones; the
    /// offset is the end of the address.
    TooFewPieces(usize),
    /// A second `::`, at the offset of its first colon.
    SecondElision(usize),
}

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// Matches `dec-octet "." dec-octet "." dec-octet "." dec-octet` at the
/// start of `b`, returning the offset just past it. The caller decides
/// what may follow.
///
/// `dec-octet` has no leading zeros (`0` but not `01`) and is at most 255.
fn ipv4_prefix(b: &[u8]) -> Result<usize, usize> {
    let mut i = 0;
    for octet in 0..4 {
        if octet > 0 {
            if b.get(i) != Some(&b'.') {
                return Err(i);
            }
            i += 1;
        }
        let start = i;
        let mut value: u32 = 0;
        while i < b.len() && i - start < 3 && b[i].is_ascii_digit() {
            // A leading "0" is the whole octet (dec-octet = DIGIT / %x31-39 …).
            if i > start && b[start] == b'0' {
                return Err(i);
            }
            value = value * 10 + u32::from(b[i] - b'0');
            if value > 255 {
                return Err(i);
            }
            i += 1;
        }
        if i == start {
            return Err(i);
        }
    }
    Ok(i)
}

/// Whether all of `b` is an `IPv4address`.
pub(crate) fn is_ipv4(b: &[u8]) -> bool {
    ipv4_address(b).is_ok()
}

/// Validates all of `b` as an `IPv4address`; the error is the offset of the
/// first byte that cannot continue it.
pub(crate) fn ipv4_address(b: &[u8]) -> Result<(), usize> {
    match ipv4_prefix(b)? {
        end if end == b.len() => Ok(()),
        end => Err(end),
    }
}

/// Validates all of `b` (the text between `[` and `]`) as an `IPv6address`.
///
/// The nine alternatives of the ABNF come down to: 16-bit pieces (`h16`,
/// 1 to 4 hex digits) separated by `:`, the last two of which may be an
/// `IPv4address` (`ls32`), and at most one `::` standing for one or more
/// zero pieces. Without `::` there are exactly 8 pieces; with it at most 7.
pub(crate) fn ipv6_address(b: &[u8]) -> Result<(), IpFault> {
    let mut pieces = 0usize;
    let mut elided = false;
    let mut i = 0;
    if b.starts_with(b"::") {
        elided = true;
        i = 2;
        if i == b.len() {
            return Ok(());
        }
    }
    loop {
        // One piece: h16, or the IPv4address of ls32.
        let start = i;
        while i < b.len() && i - start < 4 && is_hex(b[i]) {
            i += 1;
        }
        if i == start {
            return Err(IpFault::Unexpected(i));
        }
        if b.get(i) == Some(&b'.') {
            // ls32 as an IPv4address: the last thing in the address, and
            // worth two pieces.
            let end =
                start + ipv4_prefix(&b[start..]).map_err(|e| IpFault::Unexpected(start + e))?;
            if end != b.len() {
                return Err(IpFault::Unexpected(end));
            }
            pieces += 2;
            if pieces > if elided { 7 } else { 8 } {
                return Err(IpFault::TooManyPieces(start));
            }
            break;
        }
        if i < b.len() && is_hex(b[i]) {
            return Err(IpFault::H16TooLong(i));
        }
        pieces += 1;
        if pieces > if elided { 7 } else { 8 } {
            return Err(IpFault::TooManyPieces(start));
        }
        if i == b.len() {
            break;
        }
        if b[i] != b':' {
            return Err(IpFault::Unexpected(i));
        }
        if b.get(i + 1) == Some(&b':') {
            if elided {
                return Err(IpFault::SecondElision(i));
            }
            // "::" stands for at least one piece, so 8 before it is too many.
            if pieces > 7 {
                return Err(IpFault::TooManyPieces(i));
            }
            elided = true;
            i += 2;
            if i == b.len() {
                break;
            }
        } else {
            // A single ':' must be followed by another piece.
            i += 1;
        }
    }
    if !elided && pieces < 8 {
        return Err(IpFault::TooFewPieces(b.len()));
    }
    Ok(())
}

/// Validates all of `b` (the text between `[` and `]`) as an `IPvFuture`:
/// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`. ABNF literals are
/// case-insensitive (RFC 5234 §2.3), so `V` is as good as `v`, and `HEXDIG`
/// takes `a-f` too.
pub(crate) fn ipv_future(b: &[u8]) -> Result<(), usize> {
    if !matches!(b.first(), Some(b'v' | b'V')) {
        return Err(0);
    }
    let mut i = 1;
    while i < b.len() && is_hex(b[i]) {
        i += 1;
    }
    if i == 1 || b.get(i) != Some(&b'.') {
        return Err(i);
    }
    i += 1;
    let tail = i;
    while i < b.len() && is_future_char(b[i]) {
        i += 1;
    }
    if i == tail || i != b.len() {
        return Err(i);
    }
    Ok(())
}

/// `unreserved / sub-delims / ":"` (ASCII only: IPvFuture is a URI rule,
/// 3987bis did not widen it).
fn is_future_char(b: u8) -> bool {
    ascii_is(b, UNRESERVED | SUB_DELIM | COLON)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(s: &str) -> Result<(), IpFault> {
        ipv6_address(s.as_bytes())
    }

    #[test]
    fn dec_octet_edges() {
        for good in [
            "0.0.0.0",
            "9.9.9.9",
            "10.99.100.199",
            "200.249.250.255",
            "255.255.255.255",
            "1.2.3.4",
        ] {
            assert!(is_ipv4(good.as_bytes()), "{good}");
        }
        for (bad, at) in [
            ("256.1.1.1", 2),
            ("1.2.3.256", 8),
            ("300.1.1.1", 2),
            ("01.1.1.1", 1),
            ("1.00.1.1", 3),
            ("1.2.3.04", 7),
            ("1.2.3", 5),
            ("1.2.3.", 6),
            ("1.2.3.4.", 7),
            ("1.2.3.4.5", 7),
            ("1..3.4", 2),
            (".1.2.3", 0),
            ("1.2.3.4a", 7),
            ("1234.1.1.1", 3),
            ("", 0),
            ("a.b.c.d", 0),
        ] {
            assert_eq!(ipv4_address(bad.as_bytes()), Err(at), "{bad}");
        }
    }

    #[test]
    fn ipv6_every_elision_form_of_the_abnf() {
        for good in [
            // 6( h16 ":" ) ls32
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "FFFF:ffff:0:00:000:0000:abcd:EF01",
            // "::" 5( h16 ":" ) ls32
            "::2:3:4:5:6:7:8",
            "::2:3:4:5:6:1.2.3.4",
            // [ h16 ] "::" 4( h16 ":" ) ls32
            "1::3:4:5:6:7:8",
            "::3:4:5:6:7:8",
            "1::3:4:5:6:1.2.3.4",
            // [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
            "1:2::4:5:6:7:8",
            // [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
            "1:2:3::5:6:7:8",
            // [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
            "1:2:3:4::6:7:8",
            "1:2:3:4::6:1.2.3.4",
            // [ *4( h16 ":" ) h16 ] "::" ls32
            "1:2:3:4:5::7:8",
            "1:2:3:4:5::1.2.3.4",
            "::1.2.3.4",
            "::ffff:192.0.2.128",
            // [ *5( h16 ":" ) h16 ] "::" h16
            "1:2:3:4:5:6::8",
            "::8",
            "::1",
            // [ *6( h16 ":" ) h16 ] "::"
            "1:2:3:4:5:6:7::",
            "1::",
            "::",
            "2001:db8::7",
            "fe80::1",
        ] {
            assert_eq!(v6(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn ipv6_bad_forms_point_at_the_fault() {
        use IpFault::*;
        for (bad, fault) in [
            ("", Unexpected(0)),
            (":", Unexpected(0)),
            (":1:2:3:4:5:6:7", Unexpected(0)),
            ("1:2:3:4:5:6:7:8:9", TooManyPieces(16)),
            ("1:2:3:4:5:6:7:1.2.3.4", TooManyPieces(14)),
            ("1:2:3:4:5:6:7:8::", TooManyPieces(15)),
            ("1:2:3:4:5:6:7::8", TooManyPieces(15)),
            ("::1:2:3:4:5:6:7:8", TooManyPieces(16)),
            ("::1:2:3:4:5:6:1.2.3.4", TooManyPieces(14)),
            ("1:2:3:4:5:6:7", TooFewPieces(13)),
            ("1:2:3:4:5:1.2.3.4", TooFewPieces(17)),
            ("1::2::3", SecondElision(4)),
            ("::1::", SecondElision(3)),
            (":::", Unexpected(2)),
            ("1:::2", Unexpected(3)),
            ("12345::", H16TooLong(4)),
            ("1:", Unexpected(2)),
            ("1:2:3:4:5:6:7:", Unexpected(14)),
            ("g::", Unexpected(0)),
            ("::1.2.3", Unexpected(7)),
            ("::1.2.3.4:5", Unexpected(9)),
            ("::1.2.3.4::", Unexpected(9)),
            ("::01.2.3.4", Unexpected(3)),
            ("::256.2.3.4", Unexpected(4)),
            ("::1a.2.3.4", Unexpected(3)),
            // RFC 6874 zone identifiers are not 3987bis syntax.
            ("fe80::1%25eth0", Unexpected(7)),
            ("fe80::1%eth0", Unexpected(7)),
            ("2010:836B:4179::836B:4179 ", Unexpected(25)),
        ] {
            assert_eq!(v6(bad), Err(fault), "{bad}");
        }
    }

    #[test]
    fn ipv_future_form() {
        for good in ["v1.x", "V7.a:b", "vFe.!$&'()*+,;=:-._~", "va1.0"] {
            assert_eq!(ipv_future(good.as_bytes()), Ok(()), "{good}");
        }
        for (bad, at) in [
            ("v.x", 1),
            ("v1x", 2),
            ("v1.", 3),
            ("v1.x/", 4),
            ("v1.x y", 4),
            ("vg.x", 1),
            ("w1.x", 0),
            ("", 0),
            ("v1.[", 3),
            ("v1.%41", 3),
        ] {
            assert_eq!(ipv_future(bad.as_bytes()), Err(at), "{bad}");
        }
        // Non-ASCII is not `unreserved`.
        assert_eq!(ipv_future("v1.\u{582}".as_bytes()), Err(3));
    }
}
