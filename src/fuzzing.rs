//! The checks behind the fuzz targets (`fuzz/fuzz_targets/`), one function
//! a target: each takes the fuzzer's bytes, runs two independent ways to
//! the same answer, and panics when they differ or when a promise breaks.
//!
//! | target | what must hold |
//! |---|---|
//! | [`scanner`] | the fast scanner finds exactly what the naive reference scanner finds (docs/rules.md §1) |
//! | [`grammar`] | [`parse`] and the [`GrammarAutomaton`] give the same verdict in every rule and syntax (§1.6) |
//! | [`streaming`] | the hits of an input read whole equal those of the same input read by two threads, a few bytes at a time, incrementally, and pushed in pieces cut anywhere, in six charsets and with detection (§1.5, §3) |
//! | [`mapping`] | `to_uri` gives ASCII and is idempotent, `to_iri`/`leiri_to_iri` never panic, `normalize` is idempotent and gives a valid reference (§2) |
//!
//! Two runners call them: libFuzzer through cargo-fuzz on a nightly
//! toolchain (`cargo +nightly fuzz run scanner`, see `fuzz/README.md`), and
//! `cargo test` on stable, which feeds every check a fixed number of inputs
//! from a seeded generator (the tests at the bottom) so that CI exercises
//! them on every run. Every input a fuzzer found to fail is kept as a named
//! test below.
//!
//! The module is hidden: it is compiled for the crate's tests and with the
//! `fuzzing` feature only, and is not part of the API.

use std::borrow::Cow;
use std::io::Read;
use std::sync::OnceLock;

use crate::find::reference_scanner::{fast, naive_scan};
use crate::{
    Finder, GrammarAutomaton, Hit, HostMapping, IriOptions, NormalForm, NormalizationLevel,
    NormalizeOptions, Rule, Searcher, Syntax, UriOptions, leiri_to_iri, normalize, parse, to_iri,
    to_uri,
};

/// Texts longer than this are cut before the scanner check: the reference
/// scanner is quadratic in places.
const SCANNER_MAX: usize = 4096;

/// The longest input of the streaming check (it scans each input a dozen
/// ways).
const STREAMING_MAX: usize = 16 << 10;

/// The first `max` bytes of `text`, cut at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The fast scanner against the reference scanner. The first byte sets
/// the options (bit 0 `www.` hosts, bit 1 e-mail addresses, bits 2–3 the
/// maximum length); the rest, read as UTF-8 with U+FFFD for what is not,
/// is the text.
pub fn scanner(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let text = cut(&text, SCANNER_MAX);
    let (www, email) = (flags & 1 != 0, flags & 2 != 0);
    let max_len = [8192, 512, 600, 1024][usize::from((flags >> 2) & 3)];
    assert_eq!(
        fast(text, www, email, max_len),
        naive_scan(text, www, email, max_len),
        "text {text:?}, www {www}, email {email}, max_len {max_len}"
    );
}

const RULES: [Rule; 3] = [Rule::Iri, Rule::IriReference, Rule::AbsoluteIri];
const SYNTAXES: [Syntax; 4] = [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri];

/// The twelve automata, built once.
fn automata() -> &'static [(Rule, Syntax, GrammarAutomaton)] {
    static ALL: OnceLock<Vec<(Rule, Syntax, GrammarAutomaton)>> = OnceLock::new();
    ALL.get_or_init(|| {
        SYNTAXES
            .iter()
            .flat_map(|&syntax| {
                RULES
                    .iter()
                    .map(move |&rule| (rule, syntax, GrammarAutomaton::new(rule, syntax)))
            })
            .collect()
    })
}

/// The validator against the grammar automaton, on the bytes read as UTF-8
/// (U+FFFD for what is not), in every rule and syntax.
pub fn grammar(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    for (rule, syntax, automaton) in automata() {
        let verdict = parse(&s, *rule, *syntax);
        assert_eq!(
            verdict.is_ok(),
            automaton.is_match(&s),
            "{s:?} as {rule:?} over {syntax:?}: parse says {:?}",
            verdict.err().map(|e| e.to_string())
        );
    }
}

/// Everything a hit reports, as plain data.
type Row = (
    usize,
    usize,
    u64,
    u64,
    String,
    String,
    bool,
    Vec<&'static str>,
);

fn row(h: &Hit<'_>) -> Row {
    (
        h.start(),
        h.end(),
        h.line(),
        h.column(),
        h.text().to_string(),
        h.iri().to_string(),
        h.is_valid(),
        h.warnings().map(|w| w.as_str()).collect(),
    )
}

/// A reader that hands out at most `chunk` bytes a read.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The rows of `input` read by `searcher` from `reader`.
fn read_rows(searcher: &Searcher, reader: impl Read) -> Vec<Row> {
    let mut rows = Vec::new();
    searcher
        .scan_reader(reader, |h: &Hit<'_>| {
            rows.push(row(h));
            Ok(true)
        })
        .expect("in-memory reads do not fail");
    rows
}

/// One input, read whole, by two threads, a few bytes at a time, and
/// pushed in pieces cut anywhere: the same hits. The first byte chooses the charset (none,
/// UTF-8, windows-1252, Shift_JIS, UTF-16LE, ISO-2022-JP, EUC-KR, or
/// detection), the second the read size, the third and fourth where the
/// pushed pieces are cut; the rest is the input.
pub fn streaming(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let (head, input) = data.split_at(4);
    let input = &input[..input.len().min(STREAMING_MAX)];
    let encoding = [
        None,
        Some(encoding_rs::UTF_8),
        Some(encoding_rs::WINDOWS_1252),
        Some(encoding_rs::SHIFT_JIS),
        Some(encoding_rs::UTF_16LE),
        Some(encoding_rs::ISO_2022_JP),
        Some(encoding_rs::EUC_KR),
        None,
    ][usize::from(head[0] & 7)];
    let searcher = Searcher::new(Finder::new())
        .encoding(encoding)
        .buffer_size(1024)
        .threads(1);
    let whole = read_rows(&searcher, input);
    #[cfg(feature = "parallel")]
    {
        // Two threads over small blocks: the pieces' seams fall anywhere.
        let parallel = read_rows(&searcher.clone().threads(2).buffer_size(512), input);
        assert_eq!(whole, parallel, "two threads");
    }
    let chunk = usize::from(head[1]) % 64 + 1;
    let trickled = read_rows(&searcher, Trickle { data: input, chunk });
    assert_eq!(whole, trickled, "read {chunk} bytes at a time");
    if encoding.is_some() {
        // Read as it arrives, the charset is detected in the first read,
        // not in the first 64 KiB (docs/rules.md §3): only a given charset
        // makes the two the same.
        let incremental = read_rows(
            &searcher.clone().incremental(true),
            Trickle { data: input, chunk },
        );
        assert_eq!(
            whole, incremental,
            "read incrementally, {chunk} bytes at a time"
        );
    }
    // Pushed in three pieces, cut anywhere (inside characters too).
    let a = usize::from(head[2]) * input.len() / 256;
    let b = a + (input.len() - a) * usize::from(head[3]) / 256;
    let mut pusher = searcher.push_scanner();
    let mut pushed: Vec<Row> = Vec::new();
    for piece in [&input[..a], &input[a..b], &input[b..]] {
        pushed.extend(pusher.push(piece).iter().map(row));
    }
    pushed.extend(pusher.finish().iter().map(row));
    assert_eq!(whole, pushed, "pushed in pieces cut at {a} and {b}");
}

/// The normalization options of every rung and form.
fn normalize_options() -> impl Iterator<Item = NormalizeOptions> {
    [
        NormalizationLevel::Simple,
        NormalizationLevel::Syntax,
        NormalizationLevel::Scheme,
    ]
    .into_iter()
    .flat_map(|level| {
        [NormalForm::Iri, NormalForm::Uri]
            .into_iter()
            .flat_map(move |form| {
                [false, true]
                    .into_iter()
                    .map(move |nfc| NormalizeOptions::new().level(level).form(form).nfc(nfc))
            })
    })
}

/// The mapping and normalization promises, on the bytes read as UTF-8.
pub fn mapping(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    for opts in [
        UriOptions::new(),
        UriOptions::new().host_mapping(HostMapping::PercentEncode),
    ] {
        let once = to_uri(&s, &opts);
        assert!(once.uri.is_ascii(), "{s:?} -> {:?}", once.uri);
        let twice = to_uri(&once.uri, &opts);
        assert_eq!(twice.uri, once.uri, "to_uri is not idempotent on {s:?}");
        assert!(matches!(twice.uri, Cow::Borrowed(_)));
    }
    let _ = to_iri(&s, &IriOptions::new());
    let _ = to_iri(&s, &IriOptions::new().decode_punycode(true));
    let _ = leiri_to_iri(&s);
    let valid = parse(&s, Rule::IriReference, Syntax::Iri).is_ok();
    for opts in normalize_options() {
        match normalize(&s, &opts) {
            Ok(once) => {
                assert!(valid, "{s:?} is invalid but normalizes to {once:?}");
                let twice = normalize(&once, &opts)
                    .unwrap_or_else(|e| panic!("{s:?} -> {once:?}, which fails: {e} ({opts:?})"));
                assert_eq!(
                    twice, once,
                    "normalize is not idempotent on {s:?} ({opts:?})"
                );
            }
            Err(_) => assert!(!valid, "{s:?} is valid but does not normalize ({opts:?})"),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The stable runner: every check on inputs from a seeded generator —
    //! dictionary tokens (IRI pieces, brackets and punctuation of many
    //! scripts, bytes that are not UTF-8) mixed with random bytes — a
    //! fixed number of inputs each, the same on every run. The regression
    //! inputs fuzzers found are the named tests after it.

    use super::*;

    /// The fuzz targets' dictionary (also `fuzz/iri.dict`).
    const TOKENS: &[&[u8]] = &[
        b"http://",
        b"https://",
        b"mailto:",
        b"www.",
        b"ftp:",
        b"urn:",
        b"file:///",
        b"//",
        b"/",
        b"?",
        b"#",
        b"@",
        b":",
        b"[",
        b"]",
        b"[::1]",
        b"%",
        b"%41",
        b"%zz",
        b"%C3%A9",
        b".",
        b"..",
        b"-",
        b"_",
        b"~",
        b"(",
        b")",
        b"<",
        b">",
        b"<URL:",
        b"\"",
        b"'",
        b"{",
        b"}",
        b"^",
        b"|",
        b"\\",
        b" ",
        b"\n",
        b"\r\n",
        b"\t",
        b",",
        b";",
        b"!",
        b"=",
        b"&",
        b"a",
        b"Z",
        b"1",
        b"255",
        b"127.0.0.1",
        b"example",
        b"com",
        b"xn--",
        b"a@b.c",
        "例え".as_bytes(),
        "テスト".as_bytes(),
        "。".as_bytes(),
        "「".as_bytes(),
        "」".as_bytes(),
        "（".as_bytes(),
        "é".as_bytes(),
        "ж".as_bytes(),
        "ไทย".as_bytes(),
        "«".as_bytes(),
        "…".as_bytes(),
        "\u{A0}".as_bytes(),
        "\u{200F}".as_bytes(),
        "\u{202E}".as_bytes(),
        "\u{E000}".as_bytes(),
        "\u{FFFD}".as_bytes(),
        "😀".as_bytes(),
        b"\xff",
        b"\xe6\x9d",
        b"\x80",
        b"\x1b$B",
        b"\x1b(B",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xff\xfe",
    ];

    /// xorshift64*: a generator that needs no crate and repeats exactly.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// `cases` inputs of up to `max_tokens` pieces each.
    fn inputs(seed: u64, cases: usize, max_tokens: usize) -> Vec<Vec<u8>> {
        let mut rng = Rng(seed);
        (0..cases)
            .map(|_| {
                let mut v: Vec<u8> = (0..4).map(|_| rng.next() as u8).collect();
                for _ in 0..rng.below(max_tokens + 1) {
                    if rng.below(8) == 0 {
                        v.push(rng.next() as u8);
                    } else {
                        v.extend_from_slice(TOKENS[rng.below(TOKENS.len())]);
                    }
                }
                v
            })
            .collect()
    }

    #[test]
    fn scanner_on_generated_inputs() {
        for input in inputs(1, 3000, 40) {
            scanner(&input);
        }
    }

    #[test]
    fn grammar_on_generated_inputs() {
        for input in inputs(2, 5000, 12) {
            grammar(&input[4..]);
        }
    }

    #[test]
    fn streaming_on_generated_inputs() {
        for input in inputs(3, 400, 120) {
            streaming(&input);
        }
    }

    #[test]
    fn mapping_on_generated_inputs() {
        for input in inputs(4, 1500, 10) {
            mapping(&input[4..]);
        }
    }

    #[test]
    fn the_generator_reaches_hits_and_valid_iris() {
        let (mut hits, mut valid) = (0, 0);
        for input in inputs(1, 300, 40) {
            let text = String::from_utf8_lossy(&input);
            hits += usize::from(Finder::new().find_iter(text.as_bytes()).next().is_some());
        }
        for input in inputs(2, 1000, 12) {
            let text = String::from_utf8_lossy(&input[4..]);
            valid += usize::from(parse(&text, Rule::IriReference, Syntax::Iri).is_ok());
        }
        assert!(
            hits > 100 && valid > 50,
            "{hits} inputs with hits, {valid} valid"
        );
    }

    #[test]
    fn short_and_empty_inputs_are_no_case() {
        for f in [scanner, grammar, streaming, mapping] {
            f(b"");
            f(b"\x03");
        }
    }
}
