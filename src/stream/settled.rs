//! How far the bytes at hand settle the scan, for input that arrives as it
//! is written (a pipe from `tail -f`, a terminal): what lets
//! [`Searcher::incremental`](crate::Searcher::incremental) hand a hit on as
//! soon as its line is read, instead of waiting for `max_len` more bytes.
//!
//! The roll buffer's general rule waits until `max_len` + `LOOKAHEAD`
//! bytes follow a trigger, because a candidate may be that long. But a
//! candidate never runs past a *hard ender* — ASCII white space and
//! controls, `"` `<` `>` `\` `` ` `` `|` and DEL (docs/rules.md §1.2) —
//! and the scans that decide a trigger (back to its scheme or local part,
//! forward to its end, the host checks, trimming, the run of a truncated
//! candidate) read nothing past the end of the candidate's run. So every
//! trigger before the last hard ender at hand is decided by the bytes at
//! hand, whatever follows, with one exception: inside `<…>` a line break
//! and the indentation after it may be skipped (a wrapped IRI, §1.4), and
//! so may a single space when a `>` comes before any other white space or
//! character no IRI holds. Only the last `<` can start such a scan that
//! reaches the end of the bytes at hand (a scan from an earlier one stops
//! at the next `<`, an ender), and only when the run after it holds a
//! trigger (`:` `@` `.`) before its first white space and every white
//! space run after that holds a line break or is a single space not yet
//! followed by what decides it: while that may be the case, the settled
//! part ends at that `<`.
//!
//! The bytes are looked at once at most, as they arrive (the state below
//! is kept between fills), so a trickle of one-byte reads costs no more
//! than one large read; of a large read, only the end is looked at (back
//! to its last hard ender), its last `<` found with `memrchr`, and the run
//! after that `<` walked until it is settled.

use crate::chars::ascii::{self, ascii_is};

/// What the bytes seen so far settle. Positions are offsets into the
/// decoded input (not into the roll buffer, which moves).
#[derive(Debug, Default)]
pub(super) struct Settled {
    /// Bytes up to here have been looked at.
    looked: usize,
    /// The last hard ender seen.
    last_ender: Option<usize>,
    /// The last `<` whose `<…>` scan may still reach past the bytes seen.
    open_angle: Option<usize>,
    /// Where the walk after `open_angle` is.
    walk: Walk,
}

/// The walk over the run after an open `<`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Walk {
    /// In the first run after the `<` (a scheme, local part or `www.` must
    /// start right after it); `trigger`: a `:`, `@` or `.` was seen.
    #[default]
    First,
    FirstWithTrigger,
    /// In a later run of non-white-space (after a line break).
    Run,
    /// In white space; `newline`: it holds a line break so far; `single`:
    /// it is one space so far.
    Space {
        newline: bool,
        single: bool,
    },
    /// After a single space: glue if a `>` comes before any other white
    /// space or ASCII character that no IRI or Legacy Extended IRI holds
    /// (as the scanner's `angle_closes_first` reads it), which decides the
    /// scan either way.
    AfterOneSpace,
}

impl Settled {
    /// Looks at the bytes of `window` (which starts at offset `base` of the
    /// decoded input) not looked at yet; returns the position in `window`
    /// before which every trigger is decided, whatever bytes follow.
    pub(super) fn decided_up_to(&mut self, window: &[u8], base: usize) -> usize {
        let from = self.looked.max(base);
        let new = &window[from - base..];
        self.looked = base + window.len();
        if let Some(i) = new.iter().rposition(|&b| is_hard_ender(b)) {
            self.last_ender = Some(from + i);
        }
        // Only the last `<` can still be open: a scan from an earlier one
        // stops at it.
        let walk = match memchr::memrchr(b'<', new) {
            Some(i) => {
                self.open_angle = Some(from + i);
                self.walk = Walk::First;
                &new[i + 1..]
            }
            None => new,
        };
        if self.open_angle.is_some() {
            for &b in walk {
                if self.closes(b) {
                    self.open_angle = None;
                    break;
                }
            }
        }
        let settled = match (self.last_ender, self.open_angle) {
            (Some(e), Some(a)) => e.min(a),
            (Some(e), None) => e,
            (None, _) => return 0,
        };
        settled.saturating_sub(base)
    }

    /// Walks the open `<` over `b` (not a `<`); returns whether its scan
    /// is settled.
    fn closes(&mut self, b: u8) -> bool {
        let ender = is_hard_ender(b);
        let space = is_space(b);
        let newline = b == b'\n' || b == b'\r';
        let single = b == b' ';
        // What ends the look for the `>` after a single space.
        let decides = || b == b'>' || (b < 0x80 && !ascii_is(b, ascii::IRI | ascii::TEXT_EXTRA));
        match self.walk {
            Walk::First | Walk::FirstWithTrigger if space => {
                // Nothing after this `<` can be read as wrapped unless a
                // candidate starts right after it.
                if self.walk == Walk::First {
                    true
                } else {
                    self.walk = Walk::Space { newline, single };
                    false
                }
            }
            Walk::First if matches!(b, b':' | b'@' | b'.') => {
                self.walk = Walk::FirstWithTrigger;
                false
            }
            Walk::Run if space => {
                self.walk = Walk::Space { newline, single };
                false
            }
            Walk::Space { newline: seen, .. } if space => {
                self.walk = Walk::Space {
                    newline: seen || newline,
                    single: false,
                };
                false
            }
            // A single space: `b` is the first byte the look for the `>`
            // reads.
            Walk::Space {
                newline: false,
                single: true,
            } => {
                self.walk = Walk::AfterOneSpace;
                decides()
            }
            Walk::AfterOneSpace => decides(),
            // Other white space without a line break ends a `<…>` scan;
            // with one, the scan may go on (assume it does).
            Walk::Space { newline: seen, .. } => {
                self.walk = Walk::Run;
                !seen || ender
            }
            _ => ender,
        }
    }
}

/// ASCII white space, which `<…>` may skip when it holds a line break.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// A byte that ends every candidate in running text: the ASCII characters
/// no IRI holds, except the `{ } ^` that a candidate may carry as Legacy
/// Extended IRI characters (docs/rules.md §1.2).
fn is_hard_ender(b: u8) -> bool {
    matches!(
        b,
        0x00..=0x20 | 0x7F | b'"' | b'<' | b'>' | b'\\' | b'`' | b'|'
    )
}

#[cfg(test)]
mod tests {
    use super::Settled;

    /// The settled length of `text` read in one piece and one byte at a time.
    fn settled(text: &str) -> usize {
        let mut whole = Settled::default();
        let at_once = whole.decided_up_to(text.as_bytes(), 0);
        let mut bytewise = Settled::default();
        let mut last = 0;
        for n in 1..=text.len() {
            last = bytewise.decided_up_to(&text.as_bytes()[..n], 0);
        }
        assert_eq!(at_once, last, "{text:?}");
        at_once
    }

    #[test]
    fn settled_up_to_the_last_hard_ender() {
        assert_eq!(settled(""), 0);
        assert_eq!(settled("http://a.example/x"), 0);
        assert_eq!(settled("see http://a.example/x"), 3);
        assert_eq!(settled("see http://a.example/x\n"), 22);
        assert_eq!(settled("a \"b\" c|d"), 7);
    }

    #[test]
    fn an_open_angle_that_may_wrap_holds_the_settled_part_back() {
        // A candidate may start right after `<` and wrap at the line break.
        assert_eq!(settled("x\n<http://a.example/\n"), 2);
        assert_eq!(settled("x\n<http://a.example/\n  b\n"), 2);
        // Closed, or ended by white space without a line break.
        assert_eq!(settled("x\n<http://a.example/>\n"), 21);
        assert_eq!(settled("x\n<http://a.example/\n  b c\n"), 26);
        // No candidate can start after this `<`: nothing to wrap.
        assert_eq!(settled("if (a<b)\nnext\n"), 13);
        assert_eq!(settled("x < 5\n"), 5);
        // The `<` of `<URL:` too.
        assert_eq!(settled("y <URL:http://a.example/\n"), 2);
        // One space inside `<…>` is glue when a `>` comes before any other
        // white space: open until that `>` or what rules it out is read.
        assert_eq!(settled("x\n<URL:mailto:# /"), 2);
        assert_eq!(settled("x\n<URL:mailto:# />\n"), 18);
        assert_eq!(settled("x\n<http://a.example/b c"), 2);
        assert_eq!(settled("x\n<http://a.example/b c\nd"), 23);
        assert_eq!(settled("x\n<http://a.example/b c d"), 23);
        assert_eq!(settled("x\n<http://a.example/b c\"d"), 23);
        // Two spaces, or a tab, are prose.
        assert_eq!(settled("x\n<http://a.example/b  c"), 22);
        assert_eq!(settled("x\n<http://a.example/b\tc"), 21);
    }

    #[test]
    fn positions_survive_a_roll() {
        let mut s = Settled::default();
        assert_eq!(s.decided_up_to(b"abc def ghi", 0), 7);
        // The first 4 bytes dropped, 4 new ones read.
        assert_eq!(s.decided_up_to(b"def ghi jk", 4), 7);
        // The last ender dropped: nothing settled in the window.
        assert_eq!(s.decided_up_to(b"jklmn", 12), 0);
    }
}
