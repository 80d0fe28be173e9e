//! The scan of one thread over a roll buffer: decide every trigger the
//! bytes at hand decide, deliver the candidates in order (placed as hits,
//! or only judged when counting), roll the undecided tail to the front.
//! The [`Searcher`](crate::Searcher) fills it from a reader, the
//! [`PushScanner`](crate::PushScanner) from pushed chunks.

use crate::find::scanner::{LOOKAHEAD, LOOKBEHIND, MIN_MAX_LEN, Options, ScanState, Scanner};
use crate::stream::locating::{Found, Lines};
use crate::stream::roll_buffer::RollBuffer;
use crate::stream::settled::Settled;
use crate::stream::source::Source;

/// The scan of one thread over a roll buffer, between fills: the bytes at
/// hand, where the scan is, the lines counted so far. The searcher fills
/// it from a reader, the [`PushScanner`](crate::PushScanner) from the
/// chunks it is given.
pub(super) struct RollScan {
    opts: Options,
    /// The least a roll drops (see [`MIN_ROLL`]).
    min_roll: usize,
    /// Bytes after the scan bound that a decision may need.
    margin: usize,
    /// The decoded input from offset `base` on.
    pub(super) buf: RollBuffer,
    base: usize,
    state: ScanState,
    lines: Lines,
    /// With [`Searcher::incremental`](crate::Searcher::incremental): what
    /// the bytes at hand settle before the general rule does.
    settled: Option<Settled>,
    /// Hits delivered.
    pub(super) hits: u64,
    /// The most bytes the buffers held.
    pub(super) peak: usize,
}

impl RollScan {
    /// `incremental`: also decide what the bytes at hand settle (see
    /// [`Settled`]), for input read as it arrives.
    pub(super) fn new(
        opts: Options,
        block: usize,
        line_numbers: bool,
        incremental: bool,
    ) -> RollScan {
        RollScan {
            opts,
            min_roll: block.min(MIN_ROLL),
            // (The scanner reads as far as the least maximum length it
            // takes, whatever `opts` says.)
            margin: opts.max_len.max(MIN_MAX_LEN) + LOOKAHEAD,
            buf: RollBuffer::default(),
            base: 0,
            state: ScanState::default(),
            lines: Lines::new(line_numbers),
            settled: incremental.then(Settled::default),
            hits: 0,
            peak: 0,
        }
    }

    /// Hands every candidate that the bytes at hand decide (all of them
    /// when `at_end`) to `deliver`, in order, to be placed as a hit or only
    /// judged; returns whether to go on.
    pub(super) fn scan<R, E>(
        &mut self,
        source: &Source<R>,
        at_end: bool,
        deliver: &mut impl FnMut(Found<'_, '_, '_>) -> Result<bool, E>,
    ) -> Result<bool, E> {
        self.peak = self.peak.max(self.buf.capacity() + source.held());
        let mut to = decided_up_to(self.buf.len(), at_end, self.margin);
        if let Some(settled) = &mut self.settled
            && !at_end
        {
            to = to.max(settled.decided_up_to(self.buf.bytes(), self.base));
        }
        let mut result = Ok(true);
        if to > self.state.pos {
            let window = self.buf.bytes();
            let (lines, hits, base) = (&mut self.lines, &mut self.hits, self.base);
            let mut mapper = source.mapper();
            Scanner::new(window, self.opts).scan(&mut self.state, to, &mut |candidate| {
                *hits += 1;
                // (Only an answer that stops the scan is kept: storing
                // every `Ok(true)` over the last answer cost a drop of the
                // last one, a test of its error, for every hit.)
                match deliver(Found {
                    candidate: &candidate,
                    window,
                    base,
                    lines,
                    mapper: &mut mapper,
                }) {
                    Ok(true) => true,
                    stop => {
                        result = stop;
                        false
                    }
                }
            });
        }
        result
    }

    /// Rolls: keeps the undecided tail and the context before it — once
    /// there is enough to drop, so that tiny blocks do not move the tail
    /// for every byte — and lets the decoder forget what no hit still
    /// needs.
    pub(super) fn roll<R>(&mut self, source: &mut Source<R>) {
        let keep = self
            .state
            .pos
            .saturating_sub(LOOKBEHIND)
            .min(self.buf.len());
        if keep >= self.min_roll {
            self.lines.advance(
                self.buf.bytes(),
                self.base,
                self.base + keep,
                &mut source.mapper(),
            );
            self.buf.drop_front(keep);
            self.base += keep;
            self.state.shift(keep);
            source.release(self.lines.released(self.base));
        }
    }
}

/// Where to scan triggers up to in `len` bytes at hand: every trigger whose
/// outcome they decide (all of them at the end of the input; else those
/// with `margin` bytes after them).
pub(super) fn decided_up_to(len: usize, at_end: bool, margin: usize) -> usize {
    if at_end {
        len
    } else {
        len.saturating_sub(margin)
    }
}

/// The least a roll drops (unless the block is smaller).
const MIN_ROLL: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::scanner::{Kind, Scanner, WWW_RUN_UNITS};
    use proptest::prelude::*;

    /// A candidate as the tests compare it: offsets in the whole input.
    type Span = (usize, usize, Kind, bool);

    /// The candidates of a scan of the whole of `text` at once.
    fn whole(text: &[u8], opts: Options) -> Vec<Span> {
        let mut out = Vec::new();
        Scanner::new(text, opts).scan(&mut ScanState::default(), text.len(), &mut |c| {
            out.push((c.start, c.end, c.kind(), c.truncated()));
            true
        });
        out
    }

    /// The candidates a roll scan delivers when `text` arrives in blocks
    /// of `block` bytes, each scanned, then rolled, as the push scanner
    /// does.
    fn rolled(text: &[u8], opts: Options, block: usize, incremental: bool) -> Vec<Span> {
        let mut scan = RollScan::new(opts, block, false, incremental);
        let mut source = Source::with_prefix(
            (),
            RollBuffer::default(),
            false,
            0,
            Some(encoding_rs::UTF_8),
        );
        let mut out = Vec::new();
        let mut chunks = text.chunks(block).peekable();
        while let Some(chunk) = chunks.next() {
            let at_end = chunks.peek().is_none();
            source.push(chunk, at_end, &mut scan.buf);
            let go_on = scan.scan(&source, at_end, &mut |found: Found<'_, '_, '_>| {
                let c = found.candidate;
                out.push((
                    found.base + c.start,
                    found.base + c.end,
                    c.kind(),
                    c.truncated(),
                ));
                Ok::<bool, ()>(true)
            });
            assert_eq!(go_on, Ok(true));
            scan.roll(&mut source);
        }
        out
    }

    /// Options with `www.` hosts and e-mail addresses, at `max_len`.
    fn options(max_len: usize) -> Options {
        Options {
            www: true,
            email: true,
            max_len,
        }
    }

    /// Asserts that a roll scan of `text` in blocks of each of `blocks`
    /// (`incremental` each way given) finds `expected`.
    fn assert_rolls_to(
        text: &str,
        opts: Options,
        blocks: &[usize],
        incremental: &[bool],
        expected: &[Span],
        what: &str,
    ) {
        for &block in blocks {
            for &incremental in incremental {
                assert_eq!(
                    rolled(text.as_bytes(), opts, block, incremental),
                    expected,
                    "{what}, blocks of {block}"
                );
            }
        }
    }

    /// Pieces that put triggers, truncated candidates and characters of
    /// two to four bytes (which a block may cut) every few bytes.
    const UNITS: &[&str] = &[
        "www.a.b-",
        "www.ab例",
        "www.a.b.c,",
        "例",
        "ą",
        "😀",
        "@",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        " ",
        "\n",
        ",",
        ".",
        "-",
        "'",
        "‘",
        "’",
        "<",
        ">",
        "x",
        "a",
        "/",
        ":",
        "a@b.c",
        "http://a.b/",
        "http://[",
        "x:",
        "mailto:a",
        // Escapes before a scheme (`\nhttp`): their backslashes are
        // counted back.
        "\\",
        "\\\\\\\\",
        "nms-settings-airplanemode:x",
        "n",
        // Runs of scheme and local-part characters up to and past
        // `MAX_RUN` (read back from a `:` or `@`), and what may come
        // before a candidate's start (`<URL:`, quotes).
        "abcdefghijklmnopqrstuvwxyz012345",
        "+",
        "_",
        "<URL:",
        "\"",
        "git@a.bc:x",
        // Characters of four bytes: a letter of a spaceless script and
        // one of another, which a local part, a host or a path may hold.
        "𠀀",
        "𝒜",
        // Authorities the glances reject or read far into, and what ends
        // or cuts a host.
        "http://-a/",
        "ftp://",
        // A `?` after a long `www.` host, which trimming may take back
        // into the host (see
        // `a_host_failed_before_a_trimmed_query_condemns_no_later_host`).
        "?",
        "-?",
        "!?",
        "https://a.b?",
        "#",
        "%",
        "!",
        "~",
        ":8",
        "www.",
        "WWW.",
        "w",
        "1",
        "\t",
        "\r\n",
        "[1]",
        "urn:x",
        "magnet:?",
        // `www.` runs where prose is glued to a label (`www_past_limit`).
        "www.a.b.c例[",
        "www.a.b.c例",
    ];

    /// A few favourite units repeated (with others now and then) up to a
    /// few kilobytes: runs longer than a maximum IRI length, cut by blocks.
    fn text() -> impl Strategy<Value = String> {
        let unit = || {
            prop::sample::select(
                UNITS
                    .iter()
                    .chain(WWW_RUN_UNITS)
                    .copied()
                    .collect::<Vec<_>>(),
            )
        };
        (
            prop::collection::vec(unit(), 1..5),
            prop::collection::vec((0..10u8, unit(), any::<prop::sample::Index>()), 1..1500),
        )
            .prop_map(|(favourites, picks)| {
                let mut t = String::new();
                for (odds, other, which) in picks {
                    let unit = if odds < 8 {
                        which.get(&favourites)
                    } else {
                        &other
                    };
                    t.push_str(unit);
                }
                t
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// However the input is cut into blocks, the roll scan finds what
        /// the scan of the whole input finds.
        #[test]
        fn any_blocks_give_the_whole_scans_candidates(
            t in text(),
            max_len in prop::sample::select(vec![512usize, 600, 765, 8192]),
            block in 1..2000usize,
            incremental: bool,
        ) {
            let opts = options(max_len);
            prop_assert_eq!(
                rolled(t.as_bytes(), opts, block, incremental),
                whole(t.as_bytes(), opts),
                "{:?}", t
            );
        }
    }

    /// The rest of a truncated candidate's run is skipped to its end even
    /// when a block ends inside one of its characters: the scan waits for
    /// the character rather than taking the cut for the end of the run.
    /// (With one-byte blocks the skip resumes only once `max_len` +
    /// `LOOKAHEAD` bytes more are at hand, so the padding moves `例` over
    /// the window ends the skip stops at.)
    // Found by a windowed driver over `www.` units in the review of issue
    // 12 (a `Searcher` with 600-byte buffers gave one more hit than with
    // 4096-byte ones).
    #[test]
    fn a_truncated_run_goes_on_over_a_character_a_block_cuts() {
        let opts = options(512);
        for pad in 1030..1080 {
            let text = format!("www.a.b/{}例www.b.c", "a".repeat(pad));
            let expected = whole(text.as_bytes(), opts);
            assert_eq!(expected, [(0, 512, Kind::Www, true)], "{pad}");
            let what = format!("padding {pad}");
            assert_rolls_to(&text, opts, &[1, 2, 3], &[false, true], &expected, &what);
        }
    }

    /// Whether `\n` before a scheme is an escape (so that the scheme
    /// starts after the `n`) depends on the parity of up to 64 backslashes
    /// before it, which the roll must keep: with 70 (even) no link starts,
    /// and a window keeping only the last 55 to 63 of them found
    /// `ms-settings-airplanemode:x` (the run `nms-settings-…` is no
    /// scheme, the run after the escape is).
    #[test]
    fn the_backslashes_before_an_escape_stay_in_the_window() {
        let opts = options(512);
        for backslashes in 55..80 {
            for padding in [0, 1, 100] {
                let text = format!(
                    "{}{}nms-settings-airplanemode:x {}",
                    " ".repeat(padding),
                    "\\".repeat(backslashes),
                    " ".repeat(600)
                );
                let expected = whole(text.as_bytes(), opts);
                let odd = backslashes.min(64) % 2 == 1;
                assert_eq!(
                    expected.len(),
                    usize::from(odd),
                    "{backslashes}: {expected:?}"
                );
                let what = format!("{backslashes} backslashes after {padding} spaces");
                assert_rolls_to(&text, opts, &[1, 2, 3, 5], &[false], &expected, &what);
            }
        }
    }

    /// A `www.` host that fails its checks where its authority ends at a
    /// `?` condemns no later `www.` candidate inside it while the `?` and
    /// what precedes it may still be trimmed away: in
    /// `www.a.b.c%www.a.b.c%…-?`, the candidate that starts 250 bytes
    /// before the `-` is a link (`-?` trimmed, a host of 250 bytes), as
    /// the reference scanner finds. The scan of the whole input rejects it
    /// (the memo of failed hosts, `www_dead_*`, was recorded from an
    /// earlier candidate's host `…c%-`, or `…c%!`, checked before its
    /// trimming), and a roll scan finds it or not by where its windows
    /// fall (54 units in blocks of 5 bytes: found), as the memo is kept or
    /// forgotten. 26 units: the host checked at the `?` (`host_ok` in
    /// `candidate_in` before `host_is_final`); 100: the host checked
    /// after an earlier candidate was truncated right after the `?`.
    #[test]
    fn a_host_failed_before_a_trimmed_query_condemns_no_later_host() {
        let opts = options(512);
        for units in [26, 54, 100] {
            for tail in ["-?", "!?"] {
                let text = format!("{}{tail}{}", "www.a.b.c%".repeat(units), " ".repeat(600));
                let end = 10 * units;
                let expected = [(end - 250, end, Kind::Www, false)];
                assert_eq!(
                    whole(text.as_bytes(), opts),
                    expected,
                    "{units} units, {tail:?}"
                );
                let what = format!("{units} units, {tail:?}");
                assert_rolls_to(
                    &text,
                    opts,
                    &[1, 2, 3, 5, 7, 600],
                    &[false],
                    &expected,
                    &what,
                );
            }
        }
    }

    /// A maximum length under the least one the scanner takes is read as
    /// that least one, by the scanner and by the roll alike: a candidate
    /// truncated at 512 bytes is decided with 512 + 16 bytes after its
    /// trigger, not 100 + 16.
    #[test]
    fn a_maximum_length_under_the_least_is_the_least() {
        let opts = options(100);
        let text = format!("http://a.example/{} www.b.example x", "a".repeat(700));
        let expected = whole(text.as_bytes(), opts);
        assert_eq!(expected[0], (0, 512, Kind::Iri, true), "{expected:?}");
        assert_rolls_to(
            &text,
            opts,
            &[1, 7, 64, 600],
            &[false],
            &expected,
            "max_len 100",
        );
    }
}
