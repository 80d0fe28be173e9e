//! `--unique`: remembers what was printed, so that each key is printed once.
//!
//! Memory grows with the number of distinct keys, not with the input.

use std::collections::HashSet;

/// The keys seen so far, valid and invalid apart (an invalid IRI can map to
/// the same URI as a valid one; it must not hide it).
#[derive(Default)]
pub struct Seen {
    valid: HashSet<Box<str>>,
    invalid: HashSet<Box<str>>,
}

impl Seen {
    /// Whether `key` is new (and remembers it).
    pub fn first(&mut self, valid: bool, key: &str) -> bool {
        let set = if valid {
            &mut self.valid
        } else {
            &mut self.invalid
        };
        if set.contains(key) {
            return false;
        }
        set.insert(key.into());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

    #[test]
    fn first_occurrence_only_and_validity_apart() {
        let mut s = Seen::default();
        assert!(s.first(true, "http://a.example/"));
        assert!(!s.first(true, "http://a.example/"));
        assert!(s.first(false, "http://a.example/"));
        assert!(!s.first(false, "http://a.example/"));
        assert!(s.first(true, "http://b.example/"));
    }
}
