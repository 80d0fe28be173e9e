//! Scanning one window of the input on several threads.
//!
//! # Pieces cut anywhere
//!
//! The window is cut into pieces of about even size, anywhere (right after
//! white space when there is some close by, only because a link rarely
//! spans it). Each piece is scanned on the rayon pool as if the input
//! started at its cut with no candidate in the bytes before it: its
//! backward scans read those bytes, and its forward scans read past its end
//! (up to what the sequential scan would read, `max_len` +
//! [`LOOKAHEAD`] after a trigger). Its scan also notes its state at a few
//! *checkpoints*, 256, 1280, 5376, … bytes after the cut.
//!
//! # Settling the seams
//!
//! The pieces are then joined in order, carrying the sequential scan's
//! state across each cut. A scan's course from a position on depends only
//! on that state: where it stands, whether it is skipping the rest of a
//! truncated candidate's run, and where the last candidate ended — and
//! that only when it ended within [`LOOKBEHIND`] bytes, the farthest a
//! backward scan reads. So where the sequential state at a cut takes the
//! same course as the piece's own start, the piece is taken as computed.
//! Else (a candidate reached over the cut, or ended just before it) the
//! sequential scan goes on over the piece from where it stands, up to the
//! checkpoints one after the other, and joins the piece's own scan at the
//! first checkpoint where both take the same course: its candidates up to
//! there, the piece's from there on. Since no candidate is longer than
//! `max_len`, that is a few hundred bytes after the seam, rarely more. The
//! result is exactly the sequential scan's, wherever the cuts fall (the
//! tests cut at every kind of place and compare).
//!
//! # Runs of a truncated candidate
//!
//! After a candidate longer than `max_len` the scan skips the rest of its
//! run of IRI characters, which may be the whole input (`http://http://…`).
//! A piece's own scan skips only to the end of the bytes it reads; where
//! the sequential scan skips the same run from a position within the
//! piece's skip, it takes the piece's result instead of skipping again, so
//! that the run is read once, in parallel.

use rayon::prelude::*;

use crate::chars::utf8::is_continuation;
use crate::find::scanner::{
    Candidate, LOOKAHEAD, LOOKBEHIND, MIN_MAX_LEN, Options, ScanState, Scanner,
};

/// Pieces smaller than this are not worth a task.
pub(crate) const MIN_PIECE: usize = 64 * 1024;

/// How far a piece's first checkpoint lies after its cut; each next one
/// lies [`CHECKPOINT_GROWTH`] times as far from the one before. The
/// sequential scan carried over a seam usually joins the piece's at the
/// first.
pub(crate) const FIRST_CHECKPOINT: usize = 256;

/// Few checkpoints, since each is a call of the scanner and its searches
/// (twice as many cost prose 2% more instructions), and yet one soon after
/// the longest candidate that can reach over a cut.
const CHECKPOINT_GROWTH: usize = 4;

/// How far after its even-size target a cut looks for white space.
const NEAR_SPACE: usize = 256;

/// Cut points `from`, …, `to`: about `n` pieces of even size.
fn cuts(hay: &[u8], from: usize, to: usize, n: usize) -> Vec<usize> {
    let mut cuts = Vec::with_capacity(n + 1);
    cuts.push(from);
    for k in 1..n {
        let target = from + (to - from) * k / n;
        let near = (target + NEAR_SPACE).min(to);
        let cut = memchr::memchr3(b' ', b'\n', b'\t', &hay[target..near])
            .map_or(target, |i| target + i + 1);
        if cut > cuts[cuts.len() - 1] && cut < to {
            cuts.push(cut);
        }
    }
    cuts.push(to);
    cuts
}

/// The state of a scan after the first `at` bytes, as a piece's own scan
/// assumes it: at its cut, no candidate ending in the bytes before it.
fn fresh(at: usize) -> ScanState {
    let mut state = ScanState::at(at);
    state.last_end = 0;
    state
}

/// Whether scans in states `a` and `b` take the same course from here on:
/// they stand at the same place, skip alike, and their last candidates
/// ended at the same place or both too far back for a backward scan to
/// meet (see the module docs). (The `www.` memo only saves work.)
fn same_course(a: &ScanState, b: &ScanState) -> bool {
    a.pos == b.pos
        && a.skipping == b.skipping
        && (a.last_end == b.last_end || a.last_end.max(b.last_end) + LOOKBEHIND <= a.pos)
}

/// The first character boundary at or after `at`: the bytes a piece's
/// scan reads end there, so that no character is cut in two.
fn char_boundary(hay: &[u8], mut at: usize) -> usize {
    while at < hay.len() && is_continuation(hay[at]) {
        at += 1;
    }
    at
}

/// A piece's own scan at a checkpoint.
#[derive(Clone, Debug)]
pub(crate) struct Checkpoint {
    /// Triggers before this were scanned.
    at: usize,
    /// The scan's state there.
    state: ScanState,
    /// How many candidates it had found by then.
    found: usize,
}

/// Scans the triggers of `hay` in `state.pos..to` in up to `pieces`
/// pieces of at least `min_piece` bytes on the rayon pool, into `out`: the
/// candidates piece by piece, in order (the vectors are reused from window
/// to window, so that scanning a large input does not allocate afresh for
/// every window). Leaves `state` as the sequential scan would.
pub(crate) fn scan_window(
    hay: &[u8],
    opts: Options,
    state: &mut ScanState,
    to: usize,
    pieces: usize,
    min_piece: usize,
    out: &mut Vec<Vec<Candidate>>,
) {
    let cuts = window_cuts(hay, state, to, pieces, min_piece);
    scan_pieces(hay, opts, state, &cuts, FIRST_CHECKPOINT, out);
}

/// The cuts of [`scan_window`]'s pieces: from the scan's position (or
/// `to`) to `to`, in up to `pieces` pieces of at least `min_piece` bytes.
pub(crate) fn window_cuts(
    hay: &[u8],
    state: &ScanState,
    to: usize,
    pieces: usize,
    min_piece: usize,
) -> Vec<usize> {
    let from = state.pos.min(to);
    let n = pieces.min((to - from) / min_piece.max(1)).max(1);
    cuts(hay, from, to, n)
}

/// Scans the pieces between `cuts` (`cuts[0]` at or before `state.pos`,
/// the last one the bound of the scan), the first checkpoint of each
/// `first_checkpoint` bytes after its cut; see [`scan_window`].
fn scan_pieces(
    hay: &[u8],
    opts: Options,
    state: &mut ScanState,
    cuts: &[usize],
    first_checkpoint: usize,
    out: &mut Vec<Vec<Candidate>>,
) {
    let count = cuts.len() - 1;
    out.resize_with(count.max(out.len()), Vec::new);
    out.truncate(count);
    if count == 1 {
        let found = &mut out[0];
        found.clear();
        Scanner::new(hay, opts).scan(state, cuts[1], &mut |c| {
            found.push(c);
            true
        });
        return;
    }
    let pieces = Pieces::new(hay, opts, state, cuts, first_checkpoint);
    let mut marks: Vec<Vec<Checkpoint>> = vec![Vec::new(); count];
    out.par_iter_mut()
        .zip(marks.par_iter_mut())
        .enumerate()
        // Each piece a job of its own: rayon's adaptive splitting would hand
        // out runs of pieces, and the window would end with one thread
        // waiting for the other's last run.
        .with_max_len(1)
        .for_each(|(k, (found, marks))| pieces.scan(k, found, marks));
    pieces.join(state, &marks, out);
}

/// A window's scan in the pieces between its cuts: each piece scanned on
/// its own, on any thread ([`scan`](Pieces::scan)), then joined in order
/// ([`join`](Pieces::join)).
pub(crate) struct Pieces<'a> {
    hay: &'a [u8],
    opts: Options,
    cuts: &'a [usize],
    /// The sequential scan's state at the first cut.
    first: ScanState,
    first_checkpoint: usize,
}

impl<'a> Pieces<'a> {
    /// The pieces of `hay` between `cuts` (`cuts[0]` at or before
    /// `state.pos`, the last one the bound of the scan), the first
    /// checkpoint of each `first_checkpoint` bytes after its cut.
    pub(crate) fn new(
        hay: &'a [u8],
        opts: Options,
        state: &ScanState,
        cuts: &'a [usize],
        first_checkpoint: usize,
    ) -> Pieces<'a> {
        Pieces {
            hay,
            opts,
            cuts,
            first: state.clone(),
            first_checkpoint,
        }
    }

    /// How many pieces.
    pub(crate) fn count(&self) -> usize {
        self.cuts.len().saturating_sub(1)
    }

    /// The bytes piece `k`'s scan reads: what the triggers before its end
    /// need, on a character boundary; the last piece reads the window.
    fn limit(&self, k: usize) -> usize {
        let hay = self.hay;
        if k + 1 == self.count() {
            hay.len()
        } else {
            let reach = self.opts.max_len.max(MIN_MAX_LEN) + LOOKAHEAD;
            char_boundary(hay, (self.cuts[k + 1] + reach).min(hay.len()))
        }
    }

    /// Piece `k`'s own scan: its candidates into `found`, its checkpoints
    /// into `marks` (both cleared first).
    pub(crate) fn scan(&self, k: usize, found: &mut Vec<Candidate>, marks: &mut Vec<Checkpoint>) {
        let (at, end) = (self.cuts[k], self.cuts[k + 1]);
        let mut state = if k == 0 {
            self.first.clone()
        } else {
            fresh(at)
        };
        let mut scanner = Scanner::new(&self.hay[..self.limit(k)], self.opts);
        found.clear();
        marks.clear();
        // The first piece starts in the sequential scan's own state: it
        // needs no checkpoint but its end.
        let mut step = if k == 0 {
            end - at
        } else {
            self.first_checkpoint
        };
        let mut x = at;
        while x < end {
            x = x.saturating_add(step).min(end);
            scanner.scan(&mut state, x, &mut |c| {
                found.push(c);
                true
            });
            marks.push(Checkpoint {
                at: x,
                state: state.clone(),
                found: found.len(),
            });
            step = step.saturating_mul(CHECKPOINT_GROWTH);
        }
    }

    /// Joins the pieces' scans (`marks` and `out`, piece by piece) in
    /// order, settling each seam: `out` becomes the sequential scan's
    /// candidates and `state` its state at the last cut.
    pub(crate) fn join(
        &self,
        state: &mut ScanState,
        marks: &[Vec<Checkpoint>],
        out: &mut [Vec<Candidate>],
    ) {
        let cuts = self.cuts;
        // Every byte read, by every scan (for the tests of linearity).
        let mut work = marks.iter().map(|m| m[m.len() - 1].state.work).sum::<u64>();
        let mut cur = self.first.clone();
        let mut redo = Vec::new();
        for k in 0..self.count() {
            if k == 0 || same_course(&cur, &fresh(cuts[k])) {
                // Every piece has a checkpoint at its end.
                cur = marks[k][marks[k].len() - 1].state.clone();
            } else {
                work += settle(
                    &self.hay[..self.limit(k)],
                    self.opts,
                    &mut cur,
                    &marks[k],
                    &mut out[k],
                    &mut redo,
                );
            }
        }
        cur.work = work;
        *state = cur;
    }
}

/// Carries the sequential scan `cur` over a piece (`hay` ends where the
/// piece's own scan stopped reading) until it takes the same course as the
/// piece's own scan at one of its checkpoints `marks`; `found` becomes the
/// sequential scan's candidates up to there and the piece's after, and
/// `cur` the state at the piece's end. `redo` is a vector to reuse.
/// Returns the work of the sequential scan.
fn settle(
    hay: &[u8],
    opts: Options,
    cur: &mut ScanState,
    marks: &[Checkpoint],
    found: &mut Vec<Candidate>,
    redo: &mut Vec<Candidate>,
) -> u64 {
    let mut scanner = Scanner::new(hay, opts);
    let before = cur.work;
    redo.clear();
    for m in marks {
        let own = &m.state;
        if cur.skipping && own.skipping && own.last_end <= cur.pos && cur.pos <= own.pos {
            // The piece's scan skipped a truncated candidate's run from
            // `own.last_end` to the end of the bytes it read (`own.pos`),
            // and the sequential scan skips the same run from within: it
            // would read the same bytes to the same place.
            cur.pos = own.pos;
        }
        scanner.scan(cur, m.at, &mut |c| {
            redo.push(c);
            true
        });
        if same_course(cur, own) {
            let work = cur.work - before;
            found.splice(..m.found, redo.drain(..));
            *cur = marks[marks.len() - 1].state.clone();
            return work;
        }
    }
    // The sequential scan never met the piece's: it scanned the piece.
    std::mem::swap(found, redo);
    cur.work - before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::scanner::Kind;
    use proptest::prelude::*;

    /// The sequential scan of `hay` up to `to`: its candidates and its
    /// state.
    fn sequential(hay: &[u8], opts: Options, to: usize) -> (Vec<Candidate>, ScanState) {
        let mut out = Vec::new();
        let mut state = ScanState::default();
        Scanner::new(hay, opts).scan(&mut state, to, &mut |c| {
            out.push(c);
            true
        });
        (out, state)
    }

    /// Scans `..start` sequentially, then `start..to` in the pieces between
    /// `cuts` (sorted, deduplicated, clamped into `start..to`); checks the
    /// candidates and the state against the sequential scan's, and returns
    /// the work of the pieces' scans and of the sequential scan.
    fn check(
        hay: &[u8],
        opts: Options,
        start: usize,
        to: usize,
        cuts: &[usize],
        first_checkpoint: usize,
    ) -> (u64, u64) {
        let (mut got, mut state) = sequential(hay, opts, start);
        let from = state.pos.min(to);
        let mut all = vec![from];
        all.extend(cuts.iter().map(|&c| c.clamp(from, to)));
        all.push(to);
        all.sort_unstable();
        all.dedup();
        if all.len() == 1 {
            all.push(to);
        }
        let mut out = Vec::new();
        scan_pieces(hay, opts, &mut state, &all, first_checkpoint, &mut out);
        got.extend(out.into_iter().flatten());
        let (want, end) = sequential(hay, opts, to);
        let text = String::from_utf8_lossy(hay);
        assert_eq!(got, want, "{text:?} cut at {all:?}");
        assert_eq!(state.pos, end.pos, "{text:?} cut at {all:?}");
        assert!(same_course(&state, &end), "{state:?} {end:?}");
        (state.work, end.work)
    }

    /// Cut after every byte, and in two at every byte.
    fn check_every_cut(text: &str, opts: Options) {
        let hay = text.as_bytes();
        for first_checkpoint in [1, 7, FIRST_CHECKPOINT] {
            let every: Vec<usize> = (0..hay.len()).collect();
            check(hay, opts, 0, hay.len(), &every, first_checkpoint);
            for at in 0..hay.len() {
                check(hay, opts, 0, hay.len(), &[at], first_checkpoint);
            }
        }
    }

    const SMALL: Options = Options {
        www: true,
        email: true,
        max_len: MIN_MAX_LEN,
    };

    /// Text made of these, and cuts anywhere: inside a character, a scheme,
    /// `www.`, an e-mail local part, a `<…>` wrapped over lines, a run
    /// longer than the maximum length.
    const TOKENS: &[&str] = &[
        "http://",
        "https://",
        "HTTP://",
        "mailto:",
        "urn:x",
        "a+b-c.d",
        "www.",
        "WwW.",
        "a",
        "b.c",
        ".com",
        "/",
        "@",
        ":",
        "-",
        "'",
        "(",
        ")",
        "<",
        ">",
        "<URL:",
        "<http://a.example/b\n   c/d>",
        " ",
        "\n",
        "\n  ",
        "例え",
        "。",
        "é",
        "😀",
        "ą",
        "?",
        "#",
        "%zz",
        "x@y.example",
        "first.last+tag",
        "first@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com参照x@y.example",
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::with_cases(512)
        })]

        /// Pieces cut anywhere, after a sequential start anywhere, up to
        /// any bound: the sequential scan's candidates and state.
        #[test]
        fn pieces_cut_anywhere_agree_with_the_sequential_scan(
            parts in prop::collection::vec(prop::sample::select(TOKENS), 0..200),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
            start in any::<prop::sample::Index>(),
            tail in 0usize..700,
            first_checkpoint in prop::sample::select(vec![1usize, 3, 16, 64, FIRST_CHECKPOINT]),
            max_len in prop::sample::select(vec![MIN_MAX_LEN, 2000, 8192]),
            www in any::<bool>(),
            email in any::<bool>(),
        ) {
            let text = parts.concat();
            let hay = text.as_bytes();
            let opts = Options { www, email, max_len };
            let to = hay.len().saturating_sub(tail);
            let start = start.index(to + 1);
            let cuts: Vec<usize> = cuts.iter().map(|i| i.index(hay.len() + 1)).collect();
            check(hay, opts, start, to, &cuts, first_checkpoint);
        }

        /// Even pieces as `scan_window` cuts them, 1 to 8.
        #[test]
        fn windows_agree_with_the_sequential_scan(
            parts in prop::collection::vec(prop::sample::select(TOKENS), 0..300),
            pieces in 1usize..=8,
            max_len in prop::sample::select(vec![MIN_MAX_LEN, 8192]),
        ) {
            let text = parts.concat();
            let hay = text.as_bytes();
            let opts = Options { max_len, ..Options::default() };
            let mut state = ScanState::default();
            let mut out = Vec::new();
            scan_window(hay, opts, &mut state, hay.len(), pieces, 1, &mut out);
            let got: Vec<Candidate> = out.into_iter().flatten().collect();
            prop_assert_eq!(got, sequential(hay, opts, hay.len()).0);
        }
    }

    #[test]
    fn a_wrapped_iri_cut_anywhere() {
        let text = format!(
            "{}<http://a.example/b\n   c/d> <URL:https://b.example/\n e> {}",
            "x ".repeat(40),
            "y ".repeat(40)
        );
        check_every_cut(&text, Options::default());
    }

    #[test]
    fn schemes_www_and_addresses_cut_anywhere() {
        let text = "see https://例え.jp/パス?q=1 and www.example.com/a, \
                    mail first.last+tag@example.org or 連絡先はinfo@example.jp; \
                    urn:isbn:0451450523 'http://a.example/it's' (http://b.example/(x))";
        check_every_cut(text, Options::default());
        check_every_cut(
            text,
            Options {
                www: false,
                email: false,
                ..Options::default()
            },
        );
    }

    /// Where a candidate ended decides the backward scans within
    /// [`LOOKBEHIND`] after it: an e-mail local part stops there. Glued
    /// to the address before it, `x` is a local part of its own; cut right
    /// after that address and scanned as if nothing came before, it would
    /// be the end of a run too long for one.
    #[test]
    fn a_candidate_ending_right_before_a_cut() {
        let domain = format!("{}.com", "a".repeat(60));
        let text = format!("first@{domain}参照x@y.example and z@{domain}参照x@y.example");
        let hay = text.as_bytes();
        let (want, _) = sequential(hay, Options::default(), hay.len());
        let emails = want.iter().filter(|c| c.kind() == Kind::Email).count();
        assert_eq!(emails, 4, "{want:?}");
        check_every_cut(&text, Options::default());
        check_every_cut(
            "http://a.example/x@y.example www.a.example@b.example",
            SMALL,
        );
        check_every_cut("x@y.example:urn:x http://a.b/c:d@e.example", SMALL);
    }

    /// `http://` eleven times, no white space: one candidate over the whole
    /// text (host `http`), which no cut may split.
    // Found by `pieces_agree_with_the_sequential_scan` (seed cc fb066639,
    // persisted for the module's old path, src/parallel.rs).
    #[test]
    fn http_repeated_without_white_space() {
        check_every_cut(&"http://".repeat(11), SMALL);
    }

    /// Runs without white space or triggers (`no-space`, `scheme-run`):
    /// pieces cut anywhere, nothing found, each byte read once.
    #[test]
    fn runs_without_white_space_cut_anywhere() {
        for unit in ["abcdefghij", "a+b-c.d", "a.a~", "(((((((((("] {
            let text = unit.repeat(5000);
            let hay = text.as_bytes();
            let cuts: Vec<usize> = (1..64).map(|k| k * hay.len() / 64).collect();
            let (pieces, one) = check(hay, SMALL, 0, hay.len(), &cuts, FIRST_CHECKPOINT);
            assert!(pieces <= one + 64 * 256, "{unit}: {pieces} against {one}");
        }
    }

    /// `http://http://…` far longer than the maximum length: one truncated
    /// candidate, then the rest of the run is skipped — read once in
    /// pieces, not again by the sequential scan at every seam.
    #[test]
    fn a_truncated_run_over_many_pieces_is_read_once() {
        let text = format!("{} end http://x.example", "http://".repeat(20_000));
        let hay = text.as_bytes();
        let cuts: Vec<usize> = (1..64).map(|k| k * hay.len() / 64).collect();
        let (pieces, one) = check(hay, SMALL, 0, hay.len(), &cuts, FIRST_CHECKPOINT);
        // Each piece's own scan reads its piece and `max_len` more, and may
        // find a truncated candidate of its own.
        let slack = 64 * 3 * (MIN_MAX_LEN + LOOKAHEAD) as u64;
        assert!(pieces <= one + slack, "{pieces} against {one}");
    }

    /// A truncated candidate's run ends within the next piece, before the
    /// truncated candidate that piece's own scan found and skipped from:
    /// the sequential scan reads the end of its run itself, and finds the
    /// piece's candidate again.
    #[test]
    fn a_skip_ending_before_the_pieces_own_skip_is_not_taken_over() {
        let text = format!(
            "http://a.example/{} http://b.example/{}",
            "a".repeat(883),
            "b".repeat(5000)
        );
        let hay = text.as_bytes();
        // The first piece's own scan skips up to 300 + 528, the second's
        // from its truncated candidate at 901.
        assert_eq!(SMALL.max_len + LOOKAHEAD, 528);
        let (want, _) = sequential(hay, SMALL, hay.len());
        assert_eq!(want.iter().map(|c| c.start).collect::<Vec<_>>(), [0, 901]);
        check(hay, SMALL, 0, hay.len(), &[300, 4000], 1024);
    }

    #[test]
    fn same_course_needs_the_same_place_the_same_skip_and_floors_alike() {
        let state = |pos, last_end, skipping| {
            let mut s = ScanState::at(pos);
            s.last_end = last_end;
            s.skipping = skipping;
            s
        };
        // A candidate that ended farther back than a backward scan reads,
        // and one within its reach.
        let (far, near) = (1000 - LOOKBEHIND - 20, 1000 - LOOKBEHIND / 2);
        let a = state(1000, far, false);
        assert!(same_course(&a, &state(1000, far, false)));
        assert!(same_course(&a, &state(1000, 0, false)));
        assert!(same_course(&a, &state(1000, 1000 - LOOKBEHIND, false)));
        assert!(!same_course(&a, &state(1000, 1001 - LOOKBEHIND, false)));
        assert!(!same_course(&a, &state(1001, far, false)));
        assert!(!same_course(&a, &state(1000, far, true)));
        assert!(!same_course(
            &state(1000, near, false),
            &state(1000, 0, false)
        ));
    }

    /// Prose cut at white space far from the links: every piece taken as
    /// its own scan computed it, nothing scanned again.
    #[test]
    fn prose_cut_after_white_space_is_scanned_once() {
        let words = "word ".repeat(100);
        let unit = format!("{words}http://a.example/b x@y.example at 12:30 {words}");
        let text = unit.repeat(64);
        let hay = text.as_bytes();
        let cuts = cuts(hay, 0, hay.len(), 16);
        let (pieces, one) = check(
            hay,
            Options::default(),
            0,
            hay.len(),
            &cuts,
            FIRST_CHECKPOINT,
        );
        assert_eq!(pieces, one);
    }

    /// A link ending right before a cut: the sequential scan takes over
    /// for a few bytes after it, up to the piece's first checkpoint.
    #[test]
    fn a_seam_after_a_link_is_settled_at_the_first_checkpoint() {
        let unit = format!(
            "{} http://a.example/b {}{}",
            "word ".repeat(100),
            "at 12:30 ".repeat(20),
            "word ".repeat(100)
        );
        let text = unit.repeat(4);
        let hay = text.as_bytes();
        let cuts: Vec<usize> = text.match_indices(" at").map(|(i, _)| i + 1).collect();
        let cuts: Vec<usize> = cuts.into_iter().filter(|&c| hay[c - 2] == b'b').collect();
        assert_eq!(cuts.len(), 4);
        let (pieces, one) = check(
            hay,
            Options::default(),
            0,
            hay.len(),
            &cuts,
            FIRST_CHECKPOINT,
        );
        assert!(
            pieces > one && pieces <= one + 4 * FIRST_CHECKPOINT as u64,
            "{pieces} against {one}"
        );
    }

    #[test]
    fn cuts_fall_after_white_space_near_the_target_else_at_it() {
        let text = format!("{}{}", "a".repeat(1000), "b ".repeat(500));
        let hay = text.as_bytes();
        assert_eq!(cuts(hay, 0, 2000, 4), [0, 500, 1002, 1502, 2000]);
        assert_eq!(cuts(hay, 0, 1000, 1), [0, 1000]);
    }

    #[test]
    fn the_bytes_a_piece_reads_end_on_a_character_boundary() {
        let hay = "aé日😀".as_bytes();
        assert_eq!(
            (0..=hay.len())
                .map(|at| char_boundary(hay, at))
                .collect::<Vec<_>>(),
            [0, 1, 3, 3, 6, 6, 6, 10, 10, 10, 10]
        );
    }
}
