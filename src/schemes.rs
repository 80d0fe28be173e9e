//! The IANA URI scheme registry, as shipped in `data/uri-schemes.tsv`.
//!
//! PRODUCT.md §1.1: a scheme that is not followed by `://` only starts an
//! IRI in running text when it is registered (`urn:`, `mailto:`, `tel:`,
//! `news:`), so that prose such as `Note: x` or `key:value` is not a link.

use std::cmp::Ordering;
use std::sync::LazyLock;

/// The registry file: one `scheme<TAB>status` line per scheme, `#` comments.
const REGISTRY: &str = include_str!("../data/uri-schemes.tsv");

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

/// For each first letter, the set of scheme lengths (1–63) that occur: a
/// one-step rejection of the words before `:` in prose (`Note:`, `Re:`).
static FIRST_LETTER_LENGTHS: LazyLock<[u64; 26]> = LazyLock::new(|| {
    let mut t = [0u64; 26];
    for s in SCHEMES.iter() {
        if let Some(f) = s.bytes().next().filter(u8::is_ascii_lowercase) {
            t[(f - b'a') as usize] |= 1 << s.len().min(63);
        }
    }
    t
});

/// Compares a lower-case registry entry with a scheme of any case, without
/// allocating (this runs on every `:` in the input).
fn cmp_ignore_case(entry: &str, scheme: &str) -> Ordering {
    entry
        .bytes()
        .cmp(scheme.bytes().map(|b| b.to_ascii_lowercase()))
}

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
    let lengths = FIRST_LETTER_LENGTHS[(first.to_ascii_lowercase() - b'a') as usize];
    scheme.len() < 64
        && lengths & (1 << scheme.len()) != 0
        && SCHEMES
            .binary_search_by(|e| cmp_ignore_case(e, scheme))
            .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
