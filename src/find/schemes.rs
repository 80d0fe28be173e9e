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
    let mut word = [0u8; 8];
    word.get_mut(..scheme.len())?.copy_from_slice(scheme);
    word.make_ascii_lowercase();
    Some(u64::from_le_bytes(word))
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
        return SHORT.binary_search(&word).is_ok();
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
    if word == word_of(b"file") {
        return rest.first() != Some(&b'/');
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
