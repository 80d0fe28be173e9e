//! The IANA URI scheme registry, as shipped in `data/uri-schemes.tsv`.
//!
//! PRODUCT.md §1.1: a scheme that is not followed by `://` only starts an
//! IRI in running text when it is registered (`urn:`, `mailto:`, `tel:`,
//! `news:`), so that prose such as `Note: x` or `key:value` is not a link.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The registry file: one `scheme<TAB>status` line per scheme, `#` comments.
const REGISTRY: &str = include_str!("../data/uri-schemes.tsv");

/// Lower-cased registered schemes.
static SCHEMES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    REGISTRY
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
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
    if scheme.len() > 64 {
        return false;
    }
    if scheme.bytes().any(|b| b.is_ascii_uppercase()) {
        SCHEMES.contains(scheme.to_ascii_lowercase().as_str())
    } else {
        SCHEMES.contains(scheme)
    }
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
