//! The IANA URI scheme registry, as shipped in `data/uri-schemes.tsv`.
//!
//! docs/rules.md §1.1: a scheme that is not followed by `://` only starts an
//! IRI in running text when it is registered (`urn:`, `mailto:`, `tel:`,
//! `news:`), so that prose such as `Note: x` or `key:value` is not a link.

use std::ops::Range;
use std::sync::LazyLock;

/// The registry file: one `scheme<TAB>status` line per scheme, `#` comments.
const REGISTRY: &str = include_str!("../../data/uri-schemes.tsv");

/// The registered schemes, lower case, sorted for binary search.
static SCHEMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut v: Vec<&str> = REGISTRY
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
});

/// The registered schemes of eight bytes or fewer (most of them, and every
/// one prose meets: `mailto`, `urn`, `tel`, `news`, `data`), each packed
/// into a word (see [`packed`]), sorted: a lookup compares words, not
/// strings.
static SHORT: LazyLock<Vec<u64>> = LazyLock::new(|| {
    let mut v: Vec<u64> = SCHEMES
        .iter()
        .filter_map(|s| packed(s.as_bytes()))
        .collect();
    v.sort_unstable();
    v
});

/// [`SHORT`] as an open-addressing hash table of [`SHORT_SLOTS`] words
/// (0 for an empty slot: no scheme packs to 0), probed linearly from
/// [`short_slot`]: a lookup reads a slot or two where the binary search
/// read nine (`ab:ab:…`, every trigger a word to look up, spent a third of
/// its instructions there).
static SHORT_TABLE: LazyLock<Box<[u64; SHORT_SLOTS]>> = LazyLock::new(|| {
    let mut table = Box::new([0u64; SHORT_SLOTS]);
    for &word in SHORT.iter() {
        let mut i = short_slot(word);
        while table[i] != 0 {
            i = (i + 1) % SHORT_SLOTS;
        }
        table[i] = word;
    }
    table
});

/// The slots of [`SHORT_TABLE`]: a power of two, about three times the
/// short schemes, so that most lookups of a word that is no scheme end
/// at the first slot.
const SHORT_SLOTS: usize = 1024;

/// Where a packed word's probe starts in [`SHORT_TABLE`]: the top bits of
/// a multiplicative hash.
#[inline]
fn short_slot(word: u64) -> usize {
    (word.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHORT_SLOTS.trailing_zeros())) as usize
}

/// Whether the packed word is one of [`SHORT`].
#[inline]
fn is_short_scheme(word: u64) -> bool {
    let table = &**SHORT_TABLE;
    let mut i = short_slot(word);
    loop {
        match table[i] {
            0 => return false,
            w if w == word => return true,
            _ => i = (i + 1) % SHORT_SLOTS,
        }
    }
}

/// `scheme` of eight bytes or fewer in lower case as a word, its bytes in
/// order from the lowest and zeros after them. No registered scheme holds
/// a zero byte, so a word is one scheme's only; bytes that end with a zero
/// byte (`mailto\0` would pack as `mailto`) are not packed, and are then in
/// no entry.
#[inline]
fn packed(scheme: &[u8]) -> Option<u64> {
    if scheme.last() == Some(&0) {
        return None;
    }
    if scheme.len() > 8 {
        return None;
    }
    // A byte at a time: a copy of a length not known ahead was a call of
    // `memcpy`.
    let mut word = 0u64;
    for (i, &b) in scheme.iter().enumerate() {
        word |= u64::from(b.to_ascii_lowercase()) << (8 * i);
    }
    Some(word)
}

/// Whether a scheme of eight bytes or fewer, packed as [`packed`] packs
/// it (lower case), is registered: [`is_registered`] for a word the caller
/// already holds (the scanner packs the bytes before a colon from one
/// load).
#[inline]
pub(crate) fn is_registered_word(word: u64) -> bool {
    is_short_scheme(word)
}

/// The registry's entries by first letter.
struct Letter {
    /// The scheme lengths (1–63) that occur: a one-step rejection of the
    /// words before `:` in prose (`Note:`, `Re:`).
    lengths: u64,
    /// Where the entries are in [`SCHEMES`] (sorted, so they are
    /// together): the binary search looks at a dozen entries, not at all of
    /// them.
    entries: Range<usize>,
}

static LETTERS: LazyLock<[Letter; 26]> = LazyLock::new(|| {
    std::array::from_fn(|i| {
        let letter = b'a' + i as u8;
        let start = SCHEMES.partition_point(|s| s.as_bytes()[0] < letter);
        let end = SCHEMES.partition_point(|s| s.as_bytes()[0] <= letter);
        Letter {
            lengths: SCHEMES[start..end]
                .iter()
                .fold(0, |t, s| t | 1 << s.len().min(63)),
            entries: start..end,
        }
    })
});

/// Whether `scheme` (any case) is in the IANA URI scheme registry that
/// iriscan ships (`data/uri-schemes.tsv`, permanent, provisional and a few
/// widely used unofficial schemes).
///
/// ```
/// assert!(iriscan::is_registered_scheme("URN"));
/// assert!(iriscan::is_registered_scheme("mailto"));
/// assert!(!iriscan::is_registered_scheme("note"));
/// ```
pub fn is_registered_scheme(scheme: &str) -> bool {
    is_registered(scheme.as_bytes())
}

/// [`is_registered_scheme`] of bytes (a scheme the scanner read is ASCII;
/// other bytes are in no entry).
pub(crate) fn is_registered(scheme: &[u8]) -> bool {
    let Some(&first) = scheme.first().filter(|b| b.is_ascii_alphabetic()) else {
        return false;
    };
    let letter = &LETTERS[(first.to_ascii_lowercase() - b'a') as usize];
    if scheme.len() >= 64 || letter.lengths & (1 << scheme.len()) == 0 {
        return false;
    }
    if let Some(word) = packed(scheme) {
        return is_short_scheme(word);
    }
    // Lower case, on the stack (no allocation).
    let mut lower = [0u8; 64];
    let lower = &mut lower[..scheme.len()];
    lower.copy_from_slice(scheme);
    lower.make_ascii_lowercase();
    SCHEMES[letter.entries.clone()]
        .binary_search_by(|e| e.as_bytes().cmp(lower))
        .is_ok()
}

/// The schemes whose own syntax requires an authority (docs/rules.md
/// §1.1): found only in the `://` form. `http:/x` is a typo, `git:commit`
/// a script name, `irc:://host` a typo, `ssh:foo` a host name in a
/// command. (`file` is apart: `file:/path` is RFC 8089's local form.)
/// Packed into words as [`packed`] packs them (they are lower case).
const AUTHORITY_SCHEMES: [u64; 16] = {
    let names: [&[u8]; 16] = [
        b"http", b"https", b"ftp", b"ws", b"wss", b"git", b"irc", b"ircs", b"ssh", b"sftp",
        b"telnet", b"ldap", b"ldaps", b"rtsp", b"nfs", b"smb",
    ];
    let mut words = [0u64; 16];
    let mut i = 0;
    while i < names.len() {
        words[i] = word_of(names[i]);
        i += 1;
    }
    words
};

/// A lower-case name of eight bytes or fewer as [`packed`] packs it: its
/// bytes in order from the lowest, zeros after them (for constants).
pub(crate) const fn word_of(name: &[u8]) -> u64 {
    assert!(name.len() <= 8);
    let mut word = 0u64;
    let mut i = 0;
    while i < name.len() {
        word |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    word
}

/// Whether `scheme` (any case), without `//` after its colon, starts no
/// IRI at a colon followed by `rest`: a scheme that requires an authority
/// ([`AUTHORITY_SCHEMES`]), or `file` not followed by `/` (RFC 8089:
/// `file:/etc/hosts` is a link, `file:glob` in a search syntax is not).
pub(crate) fn needs_slashes(scheme: &[u8], rest: &[u8]) -> bool {
    // As a word (the longest name is 6 bytes).
    let Some(word) = packed(scheme) else {
        return false;
    };
    word_needs_slashes(word, rest.first().copied())
}

/// [`needs_slashes`] of a packed scheme, `next` the byte after its colon.
#[inline]
pub(crate) fn word_needs_slashes(word: u64, next: Option<u8>) -> bool {
    if word == word_of(b"file") {
        return next != Some(b'/');
    }
    AUTHORITY_SCHEMES.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_that_need_an_authority() {
        for s in [
            "http", "HTTPS", "ftp", "ws", "wss", "git", "IRC", "ircs", "ssh", "sftp", "Telnet",
            "ldap", "ldaps", "rtsp", "nfs", "smb",
        ] {
            assert!(needs_slashes(s.as_bytes(), b"x"), "{s}");
        }
        assert!(needs_slashes(b"file", b"glob"));
        assert!(!needs_slashes(b"FILE", b"/etc/hosts"));
        for s in [
            "urn", "mailto", "news", "gitx", "fil", "htt", "httpss", "telnets",
        ] {
            assert!(!needs_slashes(s.as_bytes(), b"x"), "{s}");
        }
    }

    #[test]
    fn registry_is_loaded_and_case_insensitive() {
        assert!(SCHEMES.len() > 200);
        for s in [
            "http",
            "HTTPS",
            "Urn",
            "tel",
            "news",
            "about",
            "z39.50r",
            "iris.beep",
        ] {
            assert!(is_registered_scheme(s), "{s}");
        }
        for s in ["note", "re", "key", "localhost", "std", "c", ""] {
            assert!(!is_registered_scheme(s), "{s}");
        }
    }

    /// Words pack only schemes of eight bytes or fewer, distinctly.
    #[test]
    fn short_schemes_pack_into_distinct_words() {
        assert_eq!(packed(b"MailTo"), packed(b"mailto"));
        assert_ne!(packed(b"ab"), packed(b"abc"));
        assert_eq!(packed(b"z39.50r"), Some(u64::from_le_bytes(*b"z39.50r\0")));
        assert_eq!(packed(b"iris.beep"), None);
        // A zero byte at the end would pack as a shorter scheme.
        assert_eq!(packed(b"mailto\0"), None);
        assert!(!is_registered(b"mailto\0") && !is_registered(b"tel\0\0"));
        assert!(!is_registered_scheme("urn\0") && !needs_slashes(b"http\0", b"x"));
        let short = SCHEMES.iter().filter(|s| s.len() <= 8).count();
        assert!(short > 150);
        assert_eq!(SHORT.len(), short);
        assert!(SHORT.windows(2).all(|w| w[0] < w[1]));
        // The hash table holds each of them once, and room to spare.
        let held: Vec<u64> = SHORT_TABLE.iter().copied().filter(|&w| w != 0).collect();
        assert_eq!(held.len(), short);
        assert!(SHORT.iter().all(|&w| is_short_scheme(w)));
        assert!(
            3 * short < SHORT_SLOTS * 2,
            "{short} schemes in {SHORT_SLOTS} slots"
        );
    }

    /// Every entry is found through its first letter's range, in any
    /// case, and a near miss of each is not.
    #[test]
    fn every_registered_scheme_is_found() {
        for s in SCHEMES.iter() {
            assert!(is_registered_scheme(s), "{s}");
            assert!(is_registered_scheme(&s.to_ascii_uppercase()), "{s}");
            let longer = format!("{s}q");
            assert_eq!(
                is_registered_scheme(&longer),
                SCHEMES.contains(&longer.as_str())
            );
        }
    }
}
