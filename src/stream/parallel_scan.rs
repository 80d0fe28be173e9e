//! Scanning one window of the input on several threads.
//!
//! The window is cut into pieces just after bytes that stop every backward
//! scan (an ASCII byte that is neither a scheme nor an e-mail local-part
//! character, typically white space). Each piece is scanned on the rayon
//! pool for the triggers inside it, reading past its end where a candidate
//! goes on, and building its hits (validation included) there. The pieces
//! are then joined in order: a piece is taken as computed unless the
//! previous piece's last candidate reached into it (a `<…>` IRI wrapped
//! over lines, a truncated run); then it is scanned again, sequentially,
//! from where that candidate ended. The result is exactly the sequential
//! scan's (the tests compare them).

use rayon::prelude::*;

use crate::chars::ascii::{EMAIL_LOCAL, SCHEME, ascii_is};
use crate::find::scanner::{Candidate, Options, ScanState, Scanner};

/// Pieces smaller than this are not worth a task.
pub(crate) const MIN_PIECE: usize = 64 * 1024;

/// Whether a piece may start right after `b`: no backward scan (scheme,
/// e-mail local part, `www.` glue check) crosses such a byte — an ASCII
/// byte that is neither a scheme character nor one of an e-mail local part.
fn is_cut_byte(b: u8) -> bool {
    b.is_ascii() && !ascii_is(b, SCHEME | EMAIL_LOCAL)
}

/// Cut points strictly inside `from..to`, about `n` pieces of even size.
fn cuts(hay: &[u8], from: usize, to: usize, n: usize) -> Vec<usize> {
    let mut cuts = vec![from];
    for k in 1..n {
        let target = from + (to - from) * k / n;
        let last = *cuts.last().unwrap_or(&from);
        if target <= last {
            continue;
        }
        // White space first: no candidate crosses it (but a `<…>` wrapped
        // over lines), so the pieces rarely need scanning again. Other cut
        // bytes (`/`, `:`) are often inside links.
        let near = (target + (64 << 10)).min(to);
        let found = memchr::memchr3(b' ', b'\n', b'\t', &hay[target..near])
            .or_else(|| hay[target..to].iter().position(|&b| is_cut_byte(b)));
        if let Some(i) = found {
            let cut = target + i + 1;
            if cut < to && cut > last {
                cuts.push(cut);
            }
        }
    }
    cuts.push(to);
    cuts
}

fn scan_piece(
    hay: &[u8],
    opts: Options,
    state: &mut ScanState,
    to: usize,
    out: &mut Vec<Candidate>,
) {
    out.clear();
    Scanner::new(hay, opts).scan(state, to, &mut |c| {
        out.push(c);
        true
    });
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
    let from = state.pos.min(to);
    let n = pieces.min((to - from) / min_piece.max(1)).max(1);
    let cuts = cuts(hay, from, to, n);
    let count = cuts.len() - 1;
    out.resize_with(count.max(out.len()), Vec::new);
    out.truncate(count);
    if count == 1 {
        scan_piece(hay, opts, state, to, &mut out[0]);
        return;
    }
    let first = state.clone();
    let states: Vec<ScanState> = out
        .par_iter_mut()
        .zip(cuts.par_windows(2))
        .enumerate()
        // Each piece a job of its own: rayon's adaptive splitting would hand
        // out runs of pieces, and the window would end with one thread
        // waiting for the other's last run.
        .with_max_len(1)
        .map(|(i, (piece, w))| {
            let mut st = if i == 0 {
                first.clone()
            } else {
                ScanState::at(w[0])
            };
            scan_piece(hay, opts, &mut st, w[1], piece);
            st
        })
        .collect();
    let mut cur = first;
    for (i, st) in states.into_iter().enumerate() {
        if i > 0 && (cur.pos > cuts[i] || cur.skipping) {
            // The previous piece's last candidate reached into this one:
            // this piece's own scan started from a wrong state.
            scan_piece(hay, opts, &mut cur, cuts[i + 1], &mut out[i]);
            continue;
        }
        let work = cur.work;
        cur = st;
        cur.work += work;
    }
    *state = cur;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_cut_after_ascii_bytes_no_backward_scan_crosses() {
        let cut: String = (0u8..=255)
            .filter(|&b| is_cut_byte(b))
            .map(char::from)
            .collect();
        let kept: String = (0u8..128)
            .filter(|&b| !is_cut_byte(b))
            .map(char::from)
            .collect();
        assert_eq!(
            kept,
            "%+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
        );
        assert_eq!(cut.len(), 128 - kept.len());
    }
    use proptest::prelude::*;

    fn sequential(hay: &[u8], opts: Options) -> Vec<Candidate> {
        let mut out = Vec::new();
        Scanner::new(hay, opts).scan(&mut ScanState::default(), hay.len(), &mut |c| {
            out.push(c);
            true
        });
        out
    }

    const TOKENS: &[&str] = &[
        "http://",
        "https://",
        "mailto:",
        "urn:x",
        "www.",
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
        " ",
        "\n",
        "\n  ",
        "例え",
        "。",
        "é",
        "?",
        "#",
        "%zz",
        "ą",
        "x@y.example",
    ];

    proptest! {
        #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

        /// 1 to 8 pieces of any size give the sequential scan's candidates.
        #[test]
        fn pieces_agree_with_the_sequential_scan(
            parts in prop::collection::vec(prop::sample::select(TOKENS), 0..300),
            pieces in 1usize..=8,
            max_len in prop::sample::select(vec![512usize, 8192]),
        ) {
            let text = parts.concat();
            let hay = text.as_bytes();
            let opts = Options { max_len, ..Options::default() };
            let mut state = ScanState::default();
            let mut out = Vec::new();
            scan_window(hay, opts, &mut state, hay.len(), pieces, 1, &mut out);
            let got: Vec<Candidate> = out.into_iter().flatten().collect();
            prop_assert_eq!(got, sequential(hay, opts));
        }
    }

    #[test]
    fn a_wrapped_iri_across_a_cut_is_scanned_again() {
        let text = format!(
            "{}<http://a.example/b\n   c/d> {}",
            "x ".repeat(40),
            "y ".repeat(40)
        );
        let hay = text.as_bytes();
        let opts = Options::default();
        for pieces in 1..=8 {
            let mut state = ScanState::default();
            let mut out = Vec::new();
            scan_window(hay, opts, &mut state, hay.len(), pieces, 1, &mut out);
            let got: Vec<Candidate> = out.into_iter().flatten().collect();
            assert_eq!(got, sequential(hay, opts), "{pieces} pieces");
        }
    }

    /// `http://` eleven times, no white space to cut at: one candidate
    /// over the whole text (host `http`), which two pieces must not split.
    // Found by `pieces_agree_with_the_sequential_scan` (seed cc fb066639,
    // persisted for the module's old path, src/parallel.rs).
    #[test]
    fn http_repeated_without_white_space_in_two_pieces() {
        let text = "http://".repeat(11);
        let hay = text.as_bytes();
        let opts = Options {
            max_len: 512,
            ..Options::default()
        };
        let mut state = ScanState::default();
        let mut out = Vec::new();
        scan_window(hay, opts, &mut state, hay.len(), 2, 1, &mut out);
        let got: Vec<Candidate> = out.into_iter().flatten().collect();
        assert_eq!(got, sequential(hay, opts));
    }
}
