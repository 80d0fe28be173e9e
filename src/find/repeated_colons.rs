//! Runs that repeat a colon the scanner rejects for the word before it:
//! `ab:ab:ab:…`, `file:file:…`, `x:/ax:/a…`, `note:a note:a …`.
//!
//! The scan's chain of rejected triggers (`Scanner::skip_rejected`)
//! rejects such a colon after a glance at its word (`colon_word_rejected`):
//! about 190 instructions a trigger, and a trigger every three bytes makes
//! that sixty a byte where prose costs two. The glance cannot be made much
//! cheaper, but in a run that repeats itself the answer need not be asked
//! again.
//!
//! # Why the answer repeats
//!
//! Whether the chain rejects a colon at `x` for its word depends on these
//! bytes and on the floor (the end of the last candidate, before which
//! nothing is read), and on nothing else:
//!
//! - before it: the word, as `scheme_start` finds it, reading back over
//!   the run of scheme characters before the colon, the byte before the
//!   run and the one before that, and, where that byte is a backslash,
//!   the run of backslashes before it; and the eight bytes before the
//!   colon, which the word is packed from;
//! - after it: `//` (two bytes), the byte after the colon
//!   (`word_needs_slashes`), and whether an opaque part starts there
//!   (`opaque_starts_at`: up to `MAX_OPAQUE_PUNCT` bytes of punctuation,
//!   then a character of up to four bytes): [`AHEAD`] bytes.
//!
//! In general the reading back goes up to `2 × MAX_RUN + 2` bytes. But
//! where the byte `p` before the colon is a colon too (`p ≤ MAX_RUN`),
//! every reading back stops at it or after it, as a colon is neither a
//! scheme character nor a backslash: no byte before `x - p - 1` is read,
//! nor before `x - 8`. Call `[x - p - 8, x + AHEAD)` the colon's
//! *window*; where the floor lies at or before its start, the answer
//! depends on the window's bytes alone.
//!
//! Let the chain reject the colon at `c` so, the trigger it rejected just
//! before being a colon `p` bytes back (`l = c - p`), and let the bytes
//! repeat with period `p` from `l - p - 8` to `e`, the floor at or before
//! `l - p - 8`. Then the byte `p` before `l` is a colon (it repeats `l`),
//! and the windows of `l` and `c` hold the same bytes: `l` went the same
//! way (rejected for its word, the search for the next trigger started
//! one byte after it, and found `c`: no trigger lies between). (The
//! triggers that the chain's inner loops pass without that choice are no
//! such colons, and differ from one in bytes the run holds: the colons of
//! `x:x:…` have a `:` two bytes before them, those of `http://[…` a `//`
//! after them, and `a@a@…` passes `@`s. A colon this repetition passed
//! to is one such colon.) The window of every colon `c + k·p` that ends by
//! `e` holds those bytes too: the colon there is rejected alike, and the
//! bytes between two of them hold no trigger, as those between `l` and
//! `c` hold none. The chain goes on after the last of them at once.
//! (Units with two colons or more, `ab:cd:`, are not taken: the period is
//! the distance between two triggers in a row.) Nothing is remembered
//! from one trigger to the next but where the last try failed.
//!
//! # Linear time
//!
//! The repetition is checked eight bytes at a time from `l - p - 8` on,
//! up to the first byte that breaks it. The next try waits until its run
//! starts after that byte and [`RETRY`] bytes after the colon tried, so
//! no byte is checked by two tries: a failed try reads at most `3p + 8 +
//! AHEAD` bytes, once. A try is made only for a period of at most
//! [`MAX_PERIOD`] bytes where the byte before the colon repeats too (most
//! times of a log, `12:30:45`, are not tried; `10:10:10` is).

use super::scanner::MAX_OPAQUE_PUNCT;

/// How far before `l`'s colon the run must repeat beyond one period
/// (see the module docs): the eight bytes the word is packed from.
pub(crate) const BEFORE: usize = 8;

/// How far after a colon its rejection reads: `c + 1` to
/// `c + 1 + MAX_OPAQUE_PUNCT` and a character of up to four bytes there.
pub(crate) const AHEAD: usize = 1 + MAX_OPAQUE_PUNCT + 4;

/// How far after a colon whose run broke the next try's run starts at
/// the earliest: a run that breaks near every colon (`aax:abx:…`, the
/// byte before each colon the same) is tried once in 64 bytes, a few
/// instructions a colon; one that starts to repeat after the break is
/// passed from 64 bytes on.
const RETRY: usize = 64;

/// The longest period tried: a trigger every 32 bytes or more costs
/// less than ten instructions a byte read one by one. (At most
/// `MAX_RUN`: see the module docs.)
pub(crate) const MAX_PERIOD: usize = 32;
const _: () = assert!(MAX_PERIOD <= super::scanner::MAX_RUN);

/// Where the last try found a run broken: a try's run must start after
/// it. A hint only (a stale one delays a chain, changes no answer), kept
/// in the scanner: the chain's loop has no register to spare for it
/// (as a local, 6% more instructions on the access log).
#[derive(Default)]
pub(crate) struct RepeatedColons {
    clear_from: usize,
    /// How many repetitions were passed (for the tests).
    #[cfg(test)]
    pub(crate) jumps: usize,
}

impl RepeatedColons {
    /// For the colon at `c` that the chain rejected for its word, `before`
    /// the byte before it and `last` the trigger the chain rejected just
    /// before it (if any): where the run from there repeats (see the
    /// module docs), the last colon of the repetition before `bound` that
    /// is rejected alike; every trigger between is rejected too. `floor`: where the scan may not read
    /// before. (The scan's work counts the bytes passed; a try reads at
    /// most `3p + 8 + AHEAD` more, once: see the module docs.)
    #[inline(always)]
    pub(crate) fn rejected(
        &mut self,
        hay: &[u8],
        c: usize,
        before: u8,
        last: Option<usize>,
        floor: usize,
        bound: usize,
    ) -> Option<usize> {
        let l = last?;
        // The byte before the colon first: `ab:ab:…` repeats it, words
        // before colons in text (`key:value`, a log's `10:34:41`) mostly
        // do not. (`l - 1` wraps to no byte where `l` is 0.)
        debug_assert_eq!(before, hay[c - 1]);
        if hay.get(l.wrapping_sub(1)) != Some(&before) {
            return None;
        }
        let p = c - l;
        if p > MAX_PERIOD || l < floor.max(self.clear_from) + p + BEFORE {
            return None;
        }
        match try_repeat(hay, c, p, bound) {
            Ok((jump, e)) => {
                #[cfg(test)]
                {
                    self.jumps += 1;
                }
                self.clear_from = e;
                Some(jump)
            }
            Err(clear) => {
                self.clear_from = clear;
                None
            }
        }
    }
}

/// For a colon at `c` rejected for its word right after one `p` bytes
/// before it (see [`RepeatedColons::rejected`]): the last colon `k ≥ 1`
/// periods on, before `bound`, whose window repeats `c`'s, and where the
/// run ends; or where the next try's run may start (after the byte that
/// broke this one, and [`RETRY`] bytes after `c`). Out of line: tried
/// only where the byte before the colon repeats.
#[inline(never)]
fn try_repeat(hay: &[u8], c: usize, p: usize, bound: usize) -> Result<(usize, usize), usize> {
    let start = c - 2 * p - BEFORE;
    // The run must hold the next colon, before the bound, and its window.
    let want = c + p + AHEAD;
    let lim = hay.len().min(bound.saturating_add(AHEAD));
    if want > lim || c + p >= bound {
        return Err(start);
    }
    let e = repeats_until(hay, start, p, lim);
    if e < want {
        // The next try's run starts after the break, and `RETRY` bytes
        // after this colon: it reads none of these bytes again, and
        // runs that break again and again are not tried at every colon.
        return Err((e + 1).max(c + RETRY));
    }
    // The last colon `k` periods on whose window ends by `e`, before
    // `bound`.
    let last = (e - AHEAD).min(bound - 1);
    let k = (last - c) / p;
    debug_assert!(k >= 1 && c + k * p + AHEAD <= e && c + k * p < bound);
    debug_assert!(hay[c + k * p] == hay[c]);
    Ok((c + k * p, e))
}

/// The first `y` in `from + p .. lim` with `hay[y] != hay[y - p]`, or
/// `lim`: `hay[from..result]` repeats with period `p`. Eight bytes at a
/// time (the two slices may overlap: they are only read).
#[inline]
pub(crate) fn repeats_until(hay: &[u8], from: usize, p: usize, lim: usize) -> usize {
    debug_assert!(p >= 1 && lim <= hay.len());
    let mut y = from + p;
    while y + 8 <= lim && hay[y..y + 8] == hay[y - p..y - p + 8] {
        y += 8;
    }
    while y < lim && hay[y] == hay[y - p] {
        y += 1;
    }
    y.min(lim)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `repeats_until` against the definition, on runs broken anywhere.
    #[test]
    fn repeats_until_finds_the_first_break() {
        let naive = |hay: &[u8], from: usize, p: usize, lim: usize| {
            (from + p..lim)
                .find(|&y| hay[y] != hay[y - p])
                .unwrap_or(lim)
        };
        for unit in ["ab:", "file:", "x:/a", "a", "ab:cd:", "é:"] {
            let run = unit.repeat(20).into_bytes();
            for brk in 0..run.len() {
                let mut hay = run.clone();
                hay[brk] ^= 1;
                for p in 1..8 {
                    for from in 0..10 {
                        for lim in [hay.len(), hay.len() - 3, from + p, from] {
                            assert_eq!(
                                repeats_until(&hay, from, p, lim),
                                naive(&hay, from, p, lim),
                                "{unit} break {brk} p {p} from {from} lim {lim}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The colons of `hay` as the chain meets them: each asked with the
    /// one before it, going on after a jump. Returns the jumps, as (from,
    /// to).
    fn chain(hay: &[u8], floor: usize, bound: usize) -> Vec<(usize, usize)> {
        let mut r = RepeatedColons::default();
        let mut jumps = vec![];
        let mut last = None;
        let mut c = 0;
        while c < bound.min(hay.len()) {
            if hay[c] == b':' {
                if let Some(j) = r.rejected(hay, c, hay[c - 1], last, floor, bound) {
                    jumps.push((c, j));
                    c = j;
                }
                last = Some(c);
            }
            c += 1;
        }
        jumps
    }

    /// A repetition is taken from the first colon whose run lies after
    /// the floor, and runs to the last colon whose whole window repeats,
    /// before the bound.
    #[test]
    fn chains_to_the_last_colon_whose_window_repeats() {
        let hay = "ab:".repeat(200).into_bytes();
        let jumps = chain(&hay, 0, hay.len());
        let &[(c, j)] = &jumps[..] else {
            panic!("{jumps:?}")
        };
        // The first colon whose run (two periods and eight bytes before
        // it) lies in the input.
        assert_eq!(c, 14);
        assert_eq!(hay[j], b':');
        assert!(j + AHEAD <= hay.len() && j + 3 + AHEAD > hay.len(), "{j}");
        // A floor: the run starts after it.
        let &[(c, _)] = &chain(&hay, 100, hay.len())[..] else {
            panic!()
        };
        assert!(c - 6 - BEFORE >= 100 && c - 6 - BEFORE < 103, "{c}");
        // A bound: the chain stops before it, wherever it falls (on the
        // colon after the one tried too: no jump then).
        let &[(_, j)] = &chain(&hay, 0, 400)[..] else {
            panic!()
        };
        assert!(j < 400 && j + 3 >= 400, "{j}");
        for bound in 10..60 {
            for (c, j) in chain(&hay, 0, bound) {
                assert!(c < j && j < bound, "{bound}: {c} {j}");
            }
        }
        // A period too long, or the byte before the colon not repeated.
        let long = format!("{}:", "a".repeat(MAX_PERIOD)).repeat(40);
        assert_eq!(chain(long.as_bytes(), 0, long.len()), vec![]);
        let two = "ab:cd:".repeat(100);
        assert_eq!(chain(two.as_bytes(), 0, two.len()), vec![]);
    }

    /// A byte that breaks the repetition stops the chain before the first
    /// window that holds it, and the next chain starts after it.
    #[test]
    fn a_break_stops_the_chain_before_its_window() {
        for brk in [300, 301, 302, 350, 600] {
            let mut hay = "file:".repeat(200).into_bytes();
            hay[brk] = b'x';
            let jumps = chain(&hay, 0, hay.len());
            for &(c, j) in &jumps {
                let run = c - 10 - BEFORE;
                assert!(run > brk || j + AHEAD <= brk, "brk {brk} {jumps:?}");
            }
            let (_, j) = jumps[0];
            assert!(j + 5 + AHEAD > brk, "brk {brk} {jumps:?}");
            if brk + 60 < hay.len() {
                assert_eq!(jumps.len(), 2, "brk {brk} {jumps:?}");
            }
        }
    }
}
