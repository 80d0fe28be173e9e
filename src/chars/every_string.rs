//! For exhaustive tests: every string made of up to so many pieces from
//! an alphabet of pieces (bytes, characters, or longer byte strings), each
//! handed to a check in turn, so that a test holds two readings to each
//! other on all short inputs rather than on samples.

use std::ops::RangeInclusive;

/// Calls `check` with every concatenation of `lengths` pieces (each piece
/// any of `alphabet`, repeats allowed), the shorter strings first.
pub(crate) fn for_every_string<P: AsRef<[u8]>>(
    alphabet: &[P],
    lengths: RangeInclusive<u32>,
    mut check: impl FnMut(&[u8]),
) {
    let n = alphabet.len();
    let mut hay = Vec::new();
    for len in lengths {
        for mut k in 0..n.pow(len) {
            hay.clear();
            for _ in 0..len {
                hay.extend_from_slice(alphabet[k % n].as_ref());
                k /= n;
            }
            check(&hay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_comes_once() {
        let mut seen = Vec::new();
        for_every_string(&["a", "bc"], 0..=2, |s| seen.push(s.to_vec()));
        let want: [&[u8]; 7] = [b"", b"a", b"bc", b"aa", b"bca", b"abc", b"bcbc"];
        assert_eq!(seen, want.map(<[u8]>::to_vec));
    }
}
