//! `--count` counts without making hits when nothing needs them: its
//! output, its messages and its exit status are those of the way that
//! makes every hit, which options that keep every hit force (`--match ''`
//! matches every IRI, `-m` a count no input reaches), on every kind of
//! input: one or several files, small ones side by side, a large one
//! streamed, standard input, legacy and guessed charsets, UTF-16 without
//! a byte order mark, binary files named or walked, malformed bytes,
//! compressed files (`-z`), and an input that fails midway.

mod support;

use std::io::Write;

use support::{Run, TempDir, run_in};

/// Options that make every hit and keep it: the count is the same.
const FORCE_HITS: &[&[&str]] = &[&["--match", ""], &["-m", "1000000000"]];

/// Runs `args` with `--count` as it is (counting without hits) and with
/// each option of [`FORCE_HITS`]; demands the same output, messages and
/// status of all. `--stats` prints the time last: that line is dropped.
#[track_caller]
fn same_with_and_without_hits(dir: &TempDir, args: &[&str], stdin: &[u8]) -> Run {
    let without_time = |mut r: Run| {
        if args.contains(&"--stats") {
            let cut = r.stdout.trim_end().rfind('\n').map_or(0, |i| i + 1);
            assert!(r.stdout[cut..].ends_with("seconds\n"), "{}", r.stdout);
            r.stdout.truncate(cut);
        }
        r
    };
    let mut counted: Vec<&str> = vec!["--count"];
    counted.extend_from_slice(args);
    let fast = without_time(run_in(dir.path(), &counted, stdin));
    for force in FORCE_HITS {
        let mut forced: Vec<&str> = force.to_vec();
        forced.extend_from_slice(&counted);
        let slow = without_time(run_in(dir.path(), &forced, stdin));
        assert_eq!(
            (fast.status, &fast.stdout, &fast.stderr),
            (slow.status, &slow.stdout, &slow.stderr),
            "{counted:?} against {forced:?}"
        );
    }
    fast
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Valid and rejected candidates of every kind.
const LINKS: &str = "see http://a.example/%zz, www.b.example/ok and <http://c.example/\n  d%g> \
                     or e%f@g.example, mailto:x@y, http://[::1 and https://ok.example/é 例え@例え.jp\n";

#[test]
fn count_is_the_same_without_making_hits() {
    let dir = TempDir::new("count-without-hits");
    dir.write("d/links.txt", LINKS.repeat(500));
    dir.write("d/empty.txt", b"");
    dir.write("d/none.txt", "no links at all\n".repeat(100));
    let french =
        "Café crème à l'été: http://exemple.fr/été?q=crème ou écrire à élodie@exemple.fr\n";
    let french = french.repeat(50);
    let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode(&french);
    dir.write("d/latin1.txt", &latin1);
    let utf16: Vec<u8> = LINKS.encode_utf16().flat_map(u16::to_le_bytes).collect();
    dir.write("d/utf16.txt", &utf16);
    let mut malformed = LINKS.as_bytes().to_vec();
    malformed.extend_from_slice(b"http://x.example/\xFF\xFE more http://y.example/\n");
    dir.write("d/malformed.txt", &malformed);
    let mut binary = LINKS.repeat(3).into_bytes();
    binary.insert(40, 0);
    dir.write("d/binary.bin", &binary);
    dir.write("d/links.txt.gz", gzip(LINKS.repeat(300).as_bytes()));
    // A large file is streamed (not read whole beside others), in pieces
    // on several threads.
    let large = format!("{}{}", "word ".repeat(2000), LINKS).repeat(900);
    assert!(large.len() > 8 << 20);
    dir.write("large.txt", &large);

    for threads in ["1", "2", "3"] {
        for invalid in [&[][..], &["--invalid"]] {
            let with = |args: &[&'static str]| -> Vec<&'static str> {
                let mut all = vec!["-j", threads];
                all.extend_from_slice(invalid);
                all.extend_from_slice(args);
                all
            };
            // A walked directory (the binary file skipped, with a note),
            // its small files side by side with several threads.
            let r = same_with_and_without_hits(&dir, &with(&["d"]), b"");
            assert!(r.stderr.contains("binary file skipped"), "{}", r.stderr);
            assert!(r.stderr.contains("charset guessed"), "{}", r.stderr);
            assert!(r.stdout.contains("d/links.txt:"), "{}", r.stdout);
            // Named, and so scanned though binary (with a warning; UTF-16
            // without a byte order mark, with a hint).
            let named = with(&["d/binary.bin", "d/utf16.txt", "d/none.txt"]);
            let r = same_with_and_without_hits(&dir, &named, b"");
            assert!(r.stderr.contains("scanned as text"), "{}", r.stderr);
            assert!(r.stderr.contains("UTF-16"), "{}", r.stderr);
            assert_eq!(r.status, 0);
            // Malformed bytes for the charset given.
            let r = same_with_and_without_hits(&dir, &with(&["-E", "utf-8", "d"]), b"");
            assert!(r.stderr.contains("malformed byte sequence"), "{}", r.stderr);
            // Nothing found: status 1.
            let r = same_with_and_without_hits(&dir, &with(&["d/none.txt"]), b"");
            assert_eq!((r.status, r.stdout.as_str()), (1, "0\n"));
            same_with_and_without_hits(&dir, &with(&["large.txt"]), b"");
            same_with_and_without_hits(&dir, &with(&["--stats", "-H", "large.txt", "d"]), b"");
            same_with_and_without_hits(&dir, &with(&["-z", "d"]), b"");
            same_with_and_without_hits(&dir, &with(&["--encoding", "latin1", "d/latin1.txt"]), b"");
            same_with_and_without_hits(&dir, &with(&["-0", "--no-www", "--no-email", "d"]), b"");
            // Standard input, read as it comes (also line by line).
            same_with_and_without_hits(&dir, &with(&[]), large.as_bytes());
            same_with_and_without_hits(&dir, &with(&["--line-buffered"]), LINKS.as_bytes());
        }
    }
    // The counts themselves: every valid hit, and the rejected ones with
    // `--invalid`.
    let r = same_with_and_without_hits(&dir, &["d/links.txt"], b"");
    let valid: u64 = r.stdout.trim().parse().unwrap();
    let r = same_with_and_without_hits(&dir, &["--invalid", "d/links.txt"], b"");
    let all: u64 = r.stdout.trim().parse().unwrap();
    assert!(valid >= 4 * 500 && all >= valid + 500, "{valid} {all}");
}

/// An input that fails midway (a compressed file cut short) prints the
/// count of what was read before the failure, and its error.
#[test]
fn count_of_an_input_that_fails_midway_is_the_same_without_hits() {
    let dir = TempDir::new("count-fails-midway");
    let gz = gzip(LINKS.repeat(20_000).as_bytes());
    dir.write("cut.txt.gz", &gz[..gz.len() / 2]);
    for threads in ["1", "2"] {
        let r = same_with_and_without_hits(&dir, &["-j", threads, "-z", "cut.txt.gz"], b"");
        assert_eq!(r.status, 2, "{r:?}");
        let counted: u64 = r.stdout.trim().parse().unwrap();
        assert!(counted > 100, "{r:?}");
    }
}
