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
    let Some(first) = scheme.bytes().next().filter(u8::is_ascii_alphabetic) else {
        return false;
    };
    let letter = &LETTERS[(first.to_ascii_lowercase() - b'a') as usize];
    if scheme.len() >= 64 || letter.lengths & (1 << scheme.len()) == 0 {
        return false;
    }
    // Lower case, on the stack (no allocation).
    let mut lower = [0u8; 64];
    let lower = &mut lower[..scheme.len()];
    lower.copy_from_slice(scheme.as_bytes());
    lower.make_ascii_lowercase();
    SCHEMES[letter.entries.clone()]
        .binary_search_by(|e| e.as_bytes().cmp(lower))
        .is_ok()
}

/// The schemes whose own syntax requires an authority (docs/rules.md
/// §1.1): found only in the `://` form. `http:/x` is a typo, `git:commit`
/// a script name, `irc:://host` a typo, `ssh:foo` a host name in a
/// command. (`file` is apart: `file:/path` is RFC 8089's local form.)
const AUTHORITY_SCHEMES: &[&str] = &[
    "http", "https", "ftp", "ws", "wss", "git", "irc", "ircs", "ssh", "sftp", "telnet", "ldap",
    "ldaps", "rtsp", "nfs", "smb",
];

/// Whether `scheme` (any case), without `//` after its colon, starts no
/// IRI at a colon followed by `rest`: a scheme that requires an authority
/// ([`AUTHORITY_SCHEMES`]), or `file` not followed by `/` (RFC 8089:
/// `file:/etc/hosts` is a link, `file:glob` in a search syntax is not).
pub(crate) fn needs_slashes(scheme: &[u8], rest: &[u8]) -> bool {
    // Lower case on the stack; the longest name is 6 bytes.
    let mut lower = [0u8; 6];
    let Some(lower) = lower.get_mut(..scheme.len()) else {
        return false;
    };
    lower.copy_from_slice(scheme);
    lower.make_ascii_lowercase();
    if lower == b"file" {
        return rest.first() != Some(&b'/');
    }
    AUTHORITY_SCHEMES.iter().any(|s| s.as_bytes() == &*lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_that_need_an_authority() {
        for s in ["git", "IRC", "ssh", "Telnet", "smb", "http"] {
            assert!(needs_slashes(s.as_bytes(), b"x"), "{s}");
        }
        assert!(needs_slashes(b"file", b"glob"));
        assert!(!needs_slashes(b"FILE", b"/etc/hosts"));
        for s in ["urn", "mailto", "news", "gitx", "fil"] {
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
