//! Counting hits without making them ([`Searcher::count_reader`],
//! [`Searcher::count_file`]).
//!
//! A hit is a candidate placed in the input (original offsets, line,
//! column) with its IRI's verdict. A count needs the verdict only: each
//! candidate the scanner decides is judged (`found_iri::candidate_is_valid`:
//! valid at once where the scanner proved it so as it read it — a plain
//! link, an e-mail address — and by the validator otherwise, the very
//! judgement a [`Hit`] keeps, so the counts are those of [`Hit::is_valid`]
//! over the hits), and is added to [`Counts`]. Nothing is placed, no line
//! is counted, nothing is allocated per candidate. Everything else is the scan of
//! [`Searcher::scan_reader`]: the same reads, charset, decoding, buffers
//! and threads (on several, each window's pieces are judged on the pool),
//! and the same [`Summary`].
//!
//! [`Searcher::count_reader`]: crate::Searcher::count_reader
//! [`Searcher::count_file`]: crate::Searcher::count_file
//! [`Searcher::scan_reader`]: crate::Searcher::scan_reader
//! [`Hit`]: crate::Hit
//! [`Hit::is_valid`]: crate::Hit::is_valid

use std::io;
use std::ops::{Add, AddAssign};

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::charset::detect::Charset;
#[cfg(feature = "parallel")]
use crate::find::found_iri::candidate_is_valid;
#[cfg(feature = "parallel")]
use crate::find::scanner::Candidate;
use crate::stream::delivery::Delivery;
#[cfg(feature = "parallel")]
use crate::stream::delivery::Locate;
use crate::stream::locating::Found;
use crate::stream::summary::Summary;

/// How many hits a scan found: those whose IRI is valid, and the rejected
/// candidates ([`Hit::is_valid`](crate::Hit::is_valid) false). Counts add
/// up (`+`, `+=`), to total several inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Hits whose IRI is valid.
    pub valid: u64,
    /// Hits whose IRI is not (rejected candidates).
    pub invalid: u64,
}

impl Counts {
    /// Every hit, valid and invalid.
    pub fn total(&self) -> u64 {
        self.valid + self.invalid
    }

    /// Counts one hit.
    #[inline]
    fn add_one(&mut self, valid: bool) {
        if valid {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
    }
}

impl Add for Counts {
    type Output = Counts;

    fn add(self, other: Counts) -> Counts {
        Counts {
            valid: self.valid + other.valid,
            invalid: self.invalid + other.invalid,
        }
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        *self = *self + other;
    }
}

/// Fewer candidates than this in a block are judged without the pool.
#[cfg(feature = "parallel")]
const FEW: usize = 256;

/// The candidates judged and added to the counts, never placed.
pub(super) struct Counting<'c>(pub(super) &'c mut Counts);

impl Delivery for Counting<'_> {
    const PLACES: bool = false;

    type Error = io::Error;

    fn begin(&mut self, _: &Charset) -> io::Result<bool> {
        Ok(true)
    }

    #[inline]
    fn one(&mut self, found: Found<'_, '_, '_>) -> io::Result<bool> {
        self.0.add_one(found.is_valid());
        Ok(true)
    }

    fn finish(&mut self, _: &Summary) -> io::Result<()> {
        Ok(())
    }

    #[cfg(feature = "parallel")]
    type Located<'h> = Counts;

    /// Judges the pieces' candidates on the pool, a job a piece (as
    /// locating runs them), and sums; a few candidates (a block of text
    /// with few links or none) are judged on this thread, which is sooner
    /// than a round on the pool.
    #[cfg(feature = "parallel")]
    fn locate(&self, pieces: &[Vec<Candidate>], ctx: &mut Locate<'_, '_>) -> Counts {
        let window = ctx.window;
        let judged = |cands: &[Candidate]| {
            let mut counts = Counts::default();
            for c in cands {
                counts.add_one(candidate_is_valid(window, c));
            }
            counts
        };
        if pieces.iter().map(Vec::len).sum::<usize>() < FEW {
            return pieces
                .iter()
                .map(|p| judged(p))
                .fold(Counts::default(), Counts::add);
        }
        ctx.pool.install(|| {
            pieces
                .par_iter()
                .with_max_len(1)
                .map(|p| judged(p))
                .reduce(Counts::default, Counts::add)
        })
    }

    #[cfg(feature = "parallel")]
    type Kept = ();

    #[cfg(feature = "parallel")]
    fn keep(&mut self, located: Counts) -> io::Result<(bool, Option<()>)> {
        *self.0 += located;
        Ok((true, None))
    }

    #[cfg(feature = "parallel")]
    fn flush(&mut self, (): ()) -> io::Result<bool> {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up() {
        let mut a = Counts::default();
        a.add_one(true);
        a.add_one(false);
        a.add_one(true);
        assert_eq!(
            a,
            Counts {
                valid: 2,
                invalid: 1
            }
        );
        a += Counts {
            valid: 1,
            invalid: 4,
        };
        assert_eq!((a.valid, a.invalid, a.total()), (3, 5, 8));
    }
}
