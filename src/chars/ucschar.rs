//! The non-ASCII code point classes of RFC 3987bis §2.2 and §6.1.
//!
//! Written as explicit ranges, as the ABNF gives them, so that the table is
//! small, checkable against the draft line by line, and independent of the
//! Unicode version of any library.

/// `ucschar` (§2.2): the non-ASCII characters allowed anywhere an
/// `iunreserved` character is. Excludes the C1 controls, surrogates,
/// private use (see [`is_iprivate`]), the non-characters U+FDD0–FDEF and
/// U+xFFFE–xFFFF, the specials U+FFF0–FFFF and the tags U+E0000–E0FFF.
pub fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    matches!(c,
        0xA0..=0xD7FF
        | 0xF900..=0xFDCF
        | 0xFDF0..=0xFFEF
        | 0xE1000..=0xEFFFD)
        // %x10000-1FFFD / %x20000-2FFFD / … / %xD0000-DFFFD: planes 1 to 13
        // without the last two code points of each plane.
        || ((0x10000..=0xDFFFF).contains(&c) && (c & 0xFFFF) <= 0xFFFD)
}

/// `iprivate` (§2.2): private use code points and (new in 3987bis) the tag
/// characters U+E0000–E0FFF, allowed only in `iquery`.
pub fn is_iprivate(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xE0000..=0xE0FFF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// The non-ASCII part of the Legacy Extended IRI `ucschar` (§6.1):
/// `%x7F-D7FF / %xE000-FFFD / %x10000-10FFFF` — every Unicode scalar value
/// above U+007E except U+FFFE and U+FFFF.
pub fn is_leiri_ucschar(c: char) -> bool {
    let c = c as u32;
    c >= 0x7F && c != 0xFFFE && c != 0xFFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucschar_bounds_follow_the_abnf() {
        for (c, yes) in [
            ('\u{9F}', false),
            ('\u{A0}', true),
            ('\u{D7FF}', true),
            ('\u{E000}', false),
            ('\u{F8FF}', false),
            ('\u{F900}', true),
            ('\u{FDCF}', true),
            ('\u{FDD0}', false),
            ('\u{FDEF}', false),
            ('\u{FDF0}', true),
            ('\u{FFEF}', true),
            ('\u{FFF0}', false),
            ('\u{FFFD}', false),
            ('\u{10000}', true),
            ('\u{1FFFD}', true),
            ('\u{1FFFE}', false),
            ('\u{2FFFF}', false),
            ('\u{DFFFD}', true),
            ('\u{E0000}', false),
            ('\u{E0FFF}', false),
            ('\u{E1000}', true),
            ('\u{EFFFD}', true),
            ('\u{EFFFE}', false),
            ('\u{F0000}', false),
            ('\u{10FFFD}', false),
        ] {
            assert_eq!(is_ucschar(c), yes, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn iprivate_is_the_three_private_use_areas() {
        assert!(is_iprivate('\u{E000}') && is_iprivate('\u{F8FF}'));
        assert!(is_iprivate('\u{F0000}') && is_iprivate('\u{10FFFD}'));
        assert!(!is_iprivate('\u{F900}') && !is_iprivate('\u{FFFFE}'));
        assert!(!is_iprivate('\u{10FFFE}'));
        assert!(is_iprivate('\u{E0001}') && is_iprivate('\u{E0FFF}') && !is_iprivate('\u{E1000}'));
    }

    #[test]
    fn leiri_ucschar_admits_controls_and_private_use() {
        assert!(is_leiri_ucschar('\u{7F}') && is_leiri_ucschar('\u{85}'));
        assert!(is_leiri_ucschar('\u{E000}') && is_leiri_ucschar('\u{FFFD}'));
        assert!(!is_leiri_ucschar('\u{FFFE}') && !is_leiri_ucschar('~'));
    }
}
