//! The `iriscan` command line (docs/rules.md §4), run as a program: every
//! option, every exit status, the output formats, and the central promise
//! that the offsets printed slice the input to the text printed.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

mod support;

use support::{BIN, Run, TempDir, run_in};

fn run(args: &[&str], stdin: &[u8]) -> Run {
    run_in(&std::env::temp_dir(), args, stdin)
}

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect()
}

fn set<'a>(names: &[&'a str]) -> BTreeSet<&'a str> {
    names.iter().copied().collect()
}

const HIT_FIELDS: &[&str] = &[
    "path",
    "start",
    "end",
    "line",
    "column",
    "text",
    "iri",
    "uri",
    "kind",
    "charset",
    "charset_source",
];

/// A UTF-8 file in several scripts, with CRLF line endings, a `<…>` IRI
/// wrapped over two lines, an e-mail address, a `www.` host with LEIRI
/// characters and an invalid candidate.
const MULTI: &str = "日本語の説明：https://ja.wikipedia.org/wiki/東京都。詳しくは info@例え.jp まで。\r\n\
العربية: راجع https://ar.wikipedia.org/wiki/القاهرة، شكرا\r\n\
Emoji 🎉 party at https://example.org/🎉/party?q=✨ — yes!\r\n\
Wrapped: <https://example.org/a/very/long/\r\n   path/東京> end. \
Also www.example.com/wiki/Blur_[band] and (https://en.wikipedia.org/wiki/Rust_(programming_language)).\r\n\
bad: http://a.com/%zz end\r\n";

// ---------------------------------------------------------------------------
// Offsets, lines and columns.

#[test]
fn offsets_slice_the_input_to_the_text() {
    let dir = TempDir::new("offsets");
    dir.write("multi.txt", MULTI);
    let r = run_in(dir.path(), &["--json", "--invalid", "multi.txt"], b"");
    assert_eq!(r.status, 0, "{r:?}");
    let hits = r.json();
    assert_eq!(hits.len(), 8, "{}", r.stdout);
    let bytes = MULTI.as_bytes();
    for h in &hits {
        let (start, end) = (
            h["start"].as_u64().unwrap() as usize,
            h["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            std::str::from_utf8(&bytes[start..end]).unwrap(),
            h["text"].as_str().unwrap(),
            "{h}"
        );
        // line and column agree with counting by hand from the start.
        let before = &bytes[..start];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        assert_eq!(h["line"], line as u64, "{h}");
        assert_eq!(h["column"], (start - line_start + 1) as u64, "{h}");
    }

    // A few by hand: 7 three-byte characters before the first IRI …
    assert_eq!(
        (&hits[0]["line"], &hits[0]["column"]),
        (&Value::from(1), &Value::from(22))
    );
    assert_eq!(hits[0]["iri"], "https://ja.wikipedia.org/wiki/東京都");
    // … "العربية: راجع " is 11 two-byte letters and 3 ASCII bytes …
    assert_eq!(
        (&hits[2]["line"], &hits[2]["column"]),
        (&Value::from(2), &Value::from(26))
    );
    // … "Emoji 🎉 party at " is 16 ASCII bytes and one four-byte emoji …
    assert_eq!(
        (&hits[3]["line"], &hits[3]["column"]),
        (&Value::from(3), &Value::from(21))
    );
    assert_eq!(hits[3]["iri"], "https://example.org/🎉/party?q=✨");
    // … and the wrapped IRI starts after "Wrapped: <", spans the CRLF, and
    // its IRI is the text without the white space.
    let w = &hits[4];
    assert_eq!(
        (&w["line"], &w["column"]),
        (&Value::from(4), &Value::from(11))
    );
    assert_eq!(
        w["text"],
        "https://example.org/a/very/long/\r\n   path/東京"
    );
    assert_eq!(w["iri"], "https://example.org/a/very/long/path/東京");
    assert_eq!(
        w["uri"],
        "https://example.org/a/very/long/path/%E6%9D%B1%E4%BA%AC"
    );
    // The e-mail address and the www. host get their scheme.
    assert_eq!(hits[1]["kind"], "email");
    assert_eq!(hits[1]["iri"], "mailto:info@例え.jp");
    assert_eq!(hits[5]["kind"], "www");
    assert_eq!(hits[5]["iri"], "http://www.example.com/wiki/Blur_[band]");
    assert_eq!(
        hits[6]["iri"],
        "https://en.wikipedia.org/wiki/Rust_(programming_language)"
    );
    // The invalid candidate: its error offset points at the '%' in the input.
    let bad = &hits[7];
    assert_eq!(bad["valid"], false);
    let at = bad["error_offset"].as_u64().unwrap() as usize;
    assert_eq!(&MULTI[at..at + 3], "%zz");
    assert_eq!(
        (&bad["line"], &bad["column"]),
        (&Value::from(6), &Value::from(6))
    );
}

// ---------------------------------------------------------------------------
// Inputs: standard input, files, directories, prefixes.

#[test]
fn one_file_prints_one_iri_per_line_without_prefix() {
    let dir = TempDir::new("one-file");
    dir.write("a.txt", MULTI);
    let r = run_in(dir.path(), &["a.txt"], b"");
    assert_eq!(r.status, 0);
    assert_eq!(
        r.lines(),
        [
            "https://ja.wikipedia.org/wiki/東京都",
            "mailto:info@例え.jp",
            "https://ar.wikipedia.org/wiki/القاهرة",
            "https://example.org/🎉/party?q=✨",
            "https://example.org/a/very/long/path/東京",
            "http://www.example.com/wiki/Blur_[band]",
            "https://en.wikipedia.org/wiki/Rust_(programming_language)",
        ]
    );
    assert_eq!(r.stderr, "");
}

#[test]
fn standard_input_without_path_or_with_dash() {
    let text = b"see http://example.org/x and bob@example.com\n";
    for args in [&[][..], &["-"][..]] {
        let r = run(args, text);
        assert_eq!(r.status, 0);
        assert_eq!(
            r.lines(),
            ["http://example.org/x", "mailto:bob@example.com"]
        );
    }
    let r = run(&["--json"], text);
    assert!(r.json().iter().all(|h| h["path"] == "<stdin>"));
}

#[test]
fn several_inputs_get_path_prefixes() {
    let dir = TempDir::new("prefixes");
    dir.write("a.txt", "http://a.example/\n");
    dir.write("b.txt", "http://b.example/ and http://b2.example/\n");
    let r = run_in(dir.path(), &["a.txt", "b.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:http://a.example/",
            "b.txt:http://b.example/",
            "b.txt:http://b2.example/"
        ]
    );
    let r = run_in(dir.path(), &["a.txt", "-"], b"http://s.example/");
    assert_eq!(
        r.lines(),
        ["a.txt:http://a.example/", "<stdin>:http://s.example/"]
    );
    // JSON always names the path, with one input too.
    let r = run_in(dir.path(), &["--json", "a.txt"], b"");
    assert_eq!(r.json()[0]["path"], "a.txt");
}

#[test]
fn directories_recurse_in_name_order_without_following_inner_links() {
    let dir = TempDir::new("recurse");
    dir.write("d/b.txt", "http://b.example/\n");
    dir.write("d/a.txt", "http://a.example/\n");
    dir.write("d/Z.txt", "http://z.example/\n");
    dir.write("d/sub/c.txt", "http://c.example/\n");
    dir.write("d/sub/empty.txt", "no links\n");
    dir.write("outside/o.txt", "http://outside.example/\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("../a.txt", dir.path().join("d/sub/link-to-file.txt")).unwrap();
        symlink("../../outside", dir.path().join("d/sub/link-to-dir")).unwrap();
        symlink("..", dir.path().join("d/sub/loop")).unwrap();
    }
    let r = run_in(dir.path(), &["d"], b"");
    assert_eq!(r.status, 0, "{r:?}");
    // Byte order of names: upper case before lower case; a directory
    // takes its place among the files.
    assert_eq!(
        r.lines(),
        [
            "d/Z.txt:http://z.example/",
            "d/a.txt:http://a.example/",
            "d/b.txt:http://b.example/",
            "d/sub/c.txt:http://c.example/",
        ]
    );
    let r = run_in(dir.path(), &["--count", "d"], b"");
    assert_eq!(
        r.lines(),
        [
            "d/Z.txt:1",
            "d/a.txt:1",
            "d/b.txt:1",
            "d/sub/c.txt:1",
            "d/sub/empty.txt:0"
        ]
    );
    // A symbolic link named on the command line is followed.
    #[cfg(unix)]
    {
        let r = run_in(dir.path(), &["d/sub/link-to-file.txt"], b"");
        assert_eq!(r.lines(), ["http://a.example/"]);
        let r = run_in(dir.path(), &["d/sub/link-to-dir"], b"");
        assert_eq!(
            r.lines(),
            ["d/sub/link-to-dir/o.txt:http://outside.example/"]
        );
    }
}

// ---------------------------------------------------------------------------
// Exit status and errors.

#[test]
fn nothing_found_exits_1() {
    let r = run(&[], b"Note: 12:30, std::vec, key:value, localhost:8080.\n");
    assert_eq!(
        (r.status, r.stdout.as_str(), r.stderr.as_str()),
        (1, "", "")
    );
    let r = run(&[], b"");
    assert_eq!(r.status, 1);
}

/// `iriscan f >> f` would read back what it prints, and print the hits in
/// it again, until the disk is full: a file named on the command line (or
/// standard input) that is the file standard output goes to is refused
/// with an error, as GNU grep refuses it, and the other inputs are
/// scanned. `--count` prints one line per input, and scans it.
#[test]
fn an_input_that_is_the_output_is_refused() {
    let dir = TempDir::new("input-is-output");
    let f = dir.write("f.txt", "see http://a.example/x\n");
    let g = dir.write("g.txt", "see http://b.example/\n");
    let append = |path: &Path| std::fs::OpenOptions::new().append(true).open(path).unwrap();
    // `iriscan ARGS` in the directory, its output appended to `out`, its
    // standard input `input` (or none).
    let run = |args: &[&str], out: &Path, input: Option<&Path>| {
        let stdin = input.map_or(Stdio::null(), |p| std::fs::File::open(p).unwrap().into());
        let out = Command::new(BIN)
            .args(args)
            .current_dir(dir.path())
            .stdin(stdin)
            .stdout(append(out))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();

    let (code, stderr) = run(&["f.txt", "g.txt"], &f, None);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "iriscan: f.txt: input file is also the output\n");
    assert_eq!(
        read(&f),
        "see http://a.example/x\ng.txt:http://b.example/\n"
    );

    let (code, stderr) = run(&["--count", "f.txt"], &f, None);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(read(&f).ends_with("\n2\n"));

    let (code, stderr) = run(&[], &g, Some(&g));
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "iriscan: <stdin>: input file is also the output\n");
    assert_eq!(read(&g), "see http://b.example/\n");

    // `--each-line` prints every line (`-q` is refused with it, as `-l`
    // and `-m` are): refused; and so is the file under another name (a
    // hard link).
    let lines = dir.write("lines.txt", "http://c.example/\n");
    let (code, stderr) = run(&["--each-line", "lines.txt"], &lines, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "iriscan: lines.txt: input file is also the output\n"
    );
    let (code, stderr) = run(&["-q", "--each-line", "lines.txt"], &lines, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    std::fs::hard_link(&lines, dir.path().join("other-name.txt")).unwrap();
    let (code, stderr) = run(&["other-name.txt"], &lines, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(read(&lines), "http://c.example/\n");
    std::fs::remove_file(&lines).unwrap();
    std::fs::remove_file(dir.path().join("other-name.txt")).unwrap();

    // A walk skips that file without a word (as ripgrep's does).
    let (code, stderr) = run(&["."], &g, None);
    assert_eq!(code, Some(0), "{stderr}");
    let text = read(&g);
    assert!(text.contains("f.txt:http://a.example/x"), "{text}");
    assert!(!text.contains("g.txt:"), "{text}");
}

/// With output line-buffered (as on a terminal), an unreadable input's
/// message comes at its place among the inputs: after the hits of the
/// small files named before it, which are scanned side by side.
#[test]
fn an_unreadable_input_is_reported_in_its_turn() {
    let dir = TempDir::new("in-its-turn");
    dir.write("a.txt", "http://a.example/\n");
    dir.write("z.txt", "http://z.example/\n");
    let file = std::fs::File::create(dir.path().join("both.out")).unwrap();
    let status = Command::new(BIN)
        .args([
            "--line-buffered",
            "-j",
            "2",
            "a.txt",
            "missing.txt",
            "z.txt",
        ])
        .current_dir(dir.path())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    let both = std::fs::read_to_string(dir.path().join("both.out")).unwrap();
    let lines: Vec<&str> = both.lines().collect();
    assert_eq!(lines.len(), 3, "{both}");
    assert_eq!(lines[0], "a.txt:http://a.example/");
    assert!(lines[1].starts_with("iriscan: missing.txt: "), "{both}");
    assert_eq!(lines[2], "z.txt:http://z.example/");
}

#[test]
fn unreadable_paths_are_reported_and_the_rest_is_scanned() {
    let dir = TempDir::new("unreadable");
    dir.write("a.txt", "http://a.example/\n");
    dir.write("z.txt", "http://z.example/\n");
    let r = run_in(
        dir.path(),
        &["a.txt", "missing.txt", "a.txt/below", "z.txt"],
        b"",
    );
    assert_eq!(r.status, 2, "an error wins over found: {r:?}");
    assert_eq!(
        r.lines(),
        ["a.txt:http://a.example/", "z.txt:http://z.example/"]
    );
    let errors: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{}", r.stderr);
    assert!(
        errors[0].starts_with("iriscan: missing.txt: No such file or directory"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("iriscan: a.txt/below: Not a directory"),
        "{}",
        errors[1]
    );

    // Nothing found and an error: still 2.
    let r = run_in(dir.path(), &["missing.txt"], b"");
    assert_eq!((r.status, r.stdout.as_str()), (2, ""));

    // A file that exists but cannot be read (the kernel refuses to read
    // this one from offset 0, also for root).
    #[cfg(target_os = "linux")]
    {
        let r = run_in(dir.path(), &["/proc/self/mem", "z.txt"], b"");
        assert_eq!(r.status, 2);
        assert_eq!(r.lines(), ["z.txt:http://z.example/"]);
        assert!(
            r.stderr.starts_with("iriscan: /proc/self/mem: "),
            "{}",
            r.stderr
        );
    }

    // Permissions (meaningless for root, who reads everything).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.write("locked.txt", "http://locked.example/\n");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read(&p).is_err() {
            let r = run_in(dir.path(), &["locked.txt", "z.txt"], b"");
            assert_eq!(r.status, 2);
            assert_eq!(r.lines(), ["z.txt:http://z.example/"]);
            assert!(
                r.stderr
                    .contains("locked.txt: cannot open: Permission denied"),
                "{}",
                r.stderr
            );
        }
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["--no-such-option"][..],
        &["--json", "--count"],
        &["--max-len", "100"],
        &["--max-len", "1048577"],
        &["--max-len", "1000000000000"],
        &["--max-len", "many"],
        &["--host-mapping", "punycode"],
        &["--each-line", "--count"],
        &["--each-line", "--to", "url"],
        &["--to", "iri"],
        &["--base", "relative/base"],
        &["--format", "pdf"],
        &["--each-line", "--format", "mail"],
        &["--nfc"],
        &["--normalize=everything"],
        &["--encoding", "no-such-charset"],
        &["--each-line", "--base", "relative/base"],
        &["--each-line", "--invalid"],
        &["--each-line", "--no-www"],
        &["--each-line", "--no-email"],
        &["--each-line", "--max-len", "600"],
    ] {
        let r = run(args, b"http://a.example/\n");
        assert_eq!(r.status, 2, "{args:?}");
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn broken_pipe_ends_quietly_with_status_0() {
    let dir = TempDir::new("pipe");
    let mut big = String::new();
    for i in 0..100_000 {
        big.push_str(&format!("line {i}: http://example.org/{i}\n"));
    }
    dir.write("big.txt", &big);
    let mut child = Command::new(BIN)
        .arg("big.txt")
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "http://example.org/0\n");
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

// ---------------------------------------------------------------------------
// Options.

#[test]
fn uri_prints_the_mapped_uri_and_host_mapping_chooses_the_host_form() {
    let text = "→ http://例え.テスト/パス?q={x} and www.bücher.de/ä\n".as_bytes();
    let r = run(&["--uri"], text);
    assert_eq!(
        r.lines(),
        [
            "http://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?q=%7Bx%7D",
            "http://www.xn--bcher-kva.de/%C3%A4",
        ]
    );
    let r = run(&["--uri", "--host-mapping", "percent"], text);
    assert_eq!(
        r.lines(),
        [
            "http://%E4%BE%8B%E3%81%88.%E3%83%86%E3%82%B9%E3%83%88/%E3%83%91%E3%82%B9?q=%7Bx%7D",
            "http://www.b%C3%BCcher.de/%C3%A4",
        ]
    );
    let r = run(&["--uri", "--host-mapping", "idna"], text);
    assert_eq!(r.lines()[1], "http://www.xn--bcher-kva.de/%C3%A4");
    // JSON carries both, whatever --uri says.
    let r = run(&["--json", "--host-mapping", "percent"], text);
    assert_eq!(r.json()[1]["uri"], "http://www.b%C3%BCcher.de/%C3%A4");
    assert_eq!(r.json()[1]["iri"], "http://www.bücher.de/ä");
}

#[test]
fn json_has_exactly_the_documented_fields() {
    let r = run(&["--json"], b"a http://a.example/x b");
    let hits = r.json();
    assert_eq!(hits.len(), 1);
    assert_eq!(keys(&hits[0]), set(HIT_FIELDS));
    assert_eq!(hits[0]["kind"], "iri");
    assert_eq!(
        (&hits[0]["start"], &hits[0]["end"]),
        (&Value::from(2), &Value::from(20))
    );

    // Warnings only when there are some: LEIRI characters, IDNA failures.
    let r = run(
        &["--json"],
        "q www.example.org/a{b} and http://aא.example/ \n".as_bytes(),
    );
    let hits = r.json();
    let mut with = set(HIT_FIELDS);
    with.insert("warnings");
    assert_eq!(keys(&hits[0]), with);
    assert_eq!(hits[0]["kind"], "www");
    let w = hits[0]["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1);
    assert!(w[0].as_str().unwrap().starts_with("leiri: "), "{w:?}");
    let w = hits[1]["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1);
    assert!(w[0].as_str().unwrap().starts_with("idna: "), "{w:?}");
    assert_eq!(hits[1]["uri"], "http://a%D7%90.example/");
}

#[test]
fn invalid_prints_rejected_candidates_with_reason_and_input_offset() {
    let text = b"ok http://a.example/ then www.exa%mple.com and http://b.example/%zz\n";
    // Dropped by default: only the valid hit, and an input with only
    // invalid candidates has found nothing.
    let r = run(&[], text);
    assert_eq!(r.lines(), ["http://a.example/"]);
    let r = run(&[], b"www.exa%mple.com");
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));

    let r = run(&["--invalid"], text);
    assert_eq!(r.status, 0);
    assert_eq!(
        r.lines(),
        [
            "http://a.example/",
            "http://www.exa%mple.com\tinvalid: '%' at byte 33 is not followed by two hex digits (pct-encoded)",
            "http://b.example/%zz\tinvalid: '%' at byte 64 is not followed by two hex digits (pct-encoded)",
        ]
    );
    assert_eq!(text[33], b'%');
    assert_eq!(text[64], b'%');
    // The rejected IRI is shown as it is, also with --uri.
    let r = run(&["--invalid", "--uri"], text);
    assert_eq!(
        r.lines()[2],
        "http://b.example/%zz\tinvalid: '%' at byte 64 is not followed by two hex digits (pct-encoded)"
    );
    // Only invalid candidates, but printed: something was found.
    let r = run(&["--invalid"], b"www.exa%mple.com");
    assert_eq!(r.status, 0);

    let r = run(&["--json", "--invalid"], text);
    let hits = r.json();
    let mut fields = set(HIT_FIELDS);
    fields.extend(["valid", "error", "error_offset"]);
    for h in &hits {
        assert_eq!(keys(h), fields, "{h}");
    }
    assert_eq!(hits[0]["valid"], true);
    assert_eq!(hits[0]["error"], Value::Null);
    assert_eq!(hits[0]["error_offset"], Value::Null);
    assert_eq!(hits[1]["valid"], false);
    assert_eq!(hits[1]["error_offset"], 33);
    assert_eq!(
        hits[1]["error"],
        "'%' at byte 33 is not followed by two hex digits (pct-encoded)"
    );
    assert_eq!(hits[1]["text"], "www.exa%mple.com");
    assert_eq!(hits[2]["error_offset"], 64);
}

#[test]
fn count_prints_hits_per_input() {
    let dir = TempDir::new("count");
    dir.write(
        "two.txt",
        "http://a.example/ http://a.example/ www.exa%mple.com\n",
    );
    dir.write("none.txt", "nothing\n");
    let r = run_in(dir.path(), &["--count", "two.txt"], b"");
    assert_eq!((r.status, r.lines()), (0, vec!["2"]));
    let r = run_in(dir.path(), &["--count", "none.txt"], b"");
    assert_eq!((r.status, r.lines()), (1, vec!["0"]));
    let r = run_in(dir.path(), &["--count", "two.txt", "none.txt"], b"");
    assert_eq!((r.status, r.lines()), (0, vec!["two.txt:2", "none.txt:0"]));
    // It counts what would be printed: rejected candidates with
    // --invalid, first occurrences with --unique.
    let r = run_in(dir.path(), &["--count", "--invalid", "two.txt"], b"");
    assert_eq!(r.lines(), ["3"]);
    let r = run_in(
        dir.path(),
        &["--count", "--unique", "two.txt", "two.txt"],
        b"",
    );
    assert_eq!(r.lines(), ["two.txt:1", "two.txt:0"]);
    let r = run(&["--count"], b"mail bob@example.com");
    assert_eq!(r.lines(), ["1"]);
}

#[test]
fn unique_prints_each_key_once_first_occurrence_wins() {
    let dir = TempDir::new("unique");
    dir.write(
        "a.txt",
        "http://b.example/ http://a.example/ http://b.example/\n",
    );
    dir.write(
        "b.txt",
        "http://a.example/ http://例え.jp/ http://xn--r8jz45g.jp/\n",
    );
    let r = run_in(dir.path(), &["--unique", "a.txt", "b.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:http://b.example/",
            "a.txt:http://a.example/",
            "b.txt:http://例え.jp/",
            "b.txt:http://xn--r8jz45g.jp/",
        ]
    );
    // With --uri the key is the URI: the IDN and its punycode are one.
    let r = run_in(dir.path(), &["--unique", "--uri", "a.txt", "b.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:http://b.example/",
            "a.txt:http://a.example/",
            "b.txt:http://xn--r8jz45g.jp/"
        ]
    );
    // With --json: the first hit of each key.
    let r = run_in(
        dir.path(),
        &["--unique", "--json", "--uri", "a.txt", "b.txt"],
        b"",
    );
    let hits = r.json();
    assert_eq!(hits.len(), 3);
    assert_eq!(
        (&hits[0]["path"], &hits[0]["start"]),
        (&Value::from("a.txt"), &Value::from(0))
    );
    assert_eq!(hits[2]["iri"], "http://例え.jp/");
    // Without --unique everything is printed.
    let r = run_in(dir.path(), &["a.txt", "b.txt"], b"");
    assert_eq!(r.lines().len(), 6);
}

#[test]
fn no_www_and_no_email() {
    let text = b"www.example.org and bob@example.com and http://x.example/\n";
    let r = run(&[], text);
    assert_eq!(
        r.lines(),
        [
            "http://www.example.org",
            "mailto:bob@example.com",
            "http://x.example/"
        ]
    );
    let r = run(&["--no-www"], text);
    assert_eq!(r.lines(), ["mailto:bob@example.com", "http://x.example/"]);
    let r = run(&["--no-email"], text);
    assert_eq!(r.lines(), ["http://www.example.org", "http://x.example/"]);
    let r = run(
        &["--no-www", "--no-email"],
        b"www.example.org bob@example.com",
    );
    assert_eq!(r.status, 1);
}

#[test]
fn max_len_truncates_with_a_warning() {
    let long = format!("see http://example.org/{} end", "a".repeat(1000));
    let r = run(&["--json"], long.as_bytes());
    let h = &r.json()[0];
    assert_eq!(
        h["iri"].as_str().unwrap().len(),
        "http://example.org/".len() + 1000
    );
    assert!(h.get("warnings").is_none());

    let r = run(&["--json", "--max-len", "600"], long.as_bytes());
    let h = &r.json()[0];
    assert_eq!(h["iri"].as_str().unwrap().len(), 600);
    assert_eq!(
        h["end"].as_u64().unwrap() - h["start"].as_u64().unwrap(),
        600
    );
    let w = h["warnings"].as_array().unwrap();
    assert!(w[0].as_str().unwrap().starts_with("truncated: "), "{w:?}");
}

#[test]
fn help_describes_what_is_found_and_every_option_in_one_line() {
    let r = run(&["--help"], b"");
    assert_eq!(r.status, 0);
    for what in ["scheme", "www.", "e-mail"] {
        assert!(r.stdout.contains(what), "{what} in {}", r.stdout);
    }
    let options = [
        "--uri",
        "--json",
        "--count",
        "--unique",
        "--invalid",
        "--no-www",
        "--no-email",
        "--max-len",
        "--host-mapping",
        "--each-line",
        "--encoding",
        "--threads",
        "--normalize",
        "--nfc",
        "--to",
        "--base",
        "--files-with-matches",
        "--quiet",
        "--max-count",
        "--line-number",
        "--column",
        "--vimgrep",
        "--with-filename",
        "--no-filename",
        "--null",
        "--no-messages",
        "--stats",
        "--line-buffered",
        "--block-buffered",
        "--generate",
    ];
    for opt in options {
        let lines: Vec<&str> = r
            .stdout
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                // A short flag first: `-c, --count`.
                let l = match l.as_bytes() {
                    [b'-', c, b',', b' ', ..] if *c != b'-' => &l[4..],
                    _ => l,
                };
                l.starts_with(opt)
                    && !l[opt.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '-')
            })
            .collect();
        assert_eq!(lines.len(), 1, "{opt}: {lines:?}");
        // The description is on the same line.
        assert!(lines[0].trim().len() > opt.len() + 10, "{opt}: {lines:?}");
    }
}

// ---------------------------------------------------------------------------
// --each-line.

const LINES: &[u8] = b"http://a.example/b\nhttp://a b\n\n../x?y\r\n\xff\xfe\nhttp://\xe4\xbe\x8b\xe3\x81\x88.jp/\n{x}\n";

#[test]
fn each_line_keeps_lines_aligned_and_reports_invalid_ones() {
    let r = run(&["--each-line", "--encoding", "utf-8"], LINES);
    assert_eq!(r.status, 2, "invalid lines are an error");
    assert_eq!(
        r.stdout, "http://a.example/b\n\n\n../x?y\n\nhttp://xn--r8jz45g.jp/\n\n",
        "one output line per input line"
    );
    assert_eq!(
        r.stderr.lines().collect::<Vec<_>>(),
        [
            "<stdin>:2: invalid IRI reference: invalid character U+0020 at byte 8 in ireg-name",
            "<stdin>:5: invalid IRI reference: invalid UTF-8 at byte 0",
            "<stdin>:7: invalid IRI reference: invalid character '{' at byte 0 in ipath-noscheme",
        ]
    );

    // All valid: 0. No line at all: 1. A final line without newline counts.
    let r = run(&["--each-line"], b"http://a.example/\r\nmailto:x@y.z");
    assert_eq!(
        (r.status, r.stdout.as_str(), r.stderr.as_str()),
        (0, "http://a.example/\nmailto:x@y.z\n", "")
    );
    let r = run(&["--each-line"], b"");
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
    // --uri is what --each-line prints anyway; --host-mapping applies.
    let r = run(
        &["--each-line", "--uri", "--host-mapping", "percent"],
        "http://例え.jp/".as_bytes(),
    );
    assert_eq!(r.stdout, "http://%E4%BE%8B%E3%81%88.jp/\n");

    // Several inputs: PATH: on every line, the empty ones too.
    let dir = TempDir::new("each-line");
    dir.write("a.txt", "http://a.example/\nhttp://a b\n");
    dir.write("b.txt", "//b.example/c\n");
    let r = run_in(dir.path(), &["--each-line", "a.txt", "b.txt"], b"");
    assert_eq!(r.status, 2);
    assert_eq!(
        r.lines(),
        ["a.txt:http://a.example/", "a.txt:", "b.txt://b.example/c"]
    );
    assert_eq!(
        r.stderr,
        "a.txt:2: invalid IRI reference: invalid character U+0020 at byte 8 in ireg-name\n"
    );
}

#[test]
fn each_line_json() {
    let r = run(&["--each-line", "--json", "--encoding", "utf-8"], LINES);
    assert_eq!(r.status, 2);
    assert_eq!(r.stderr, "", "JSON records carry the errors");
    let recs = r.json();
    assert_eq!(recs.len(), 7);
    let fields = set(&[
        "path", "line", "input", "valid", "absolute", "error", "iri", "uri",
    ]);
    for (i, rec) in recs.iter().enumerate() {
        assert_eq!(keys(rec), fields, "{rec}");
        assert_eq!(rec["line"], i as u64 + 1);
        assert_eq!(rec["path"], "<stdin>");
    }
    let row = |i: usize| {
        let r = &recs[i];
        (
            r["input"].as_str().unwrap(),
            r["valid"].as_bool().unwrap(),
            r["absolute"].as_bool().unwrap(),
            r["iri"].as_str(),
            r["uri"].as_str(),
        )
    };
    assert_eq!(
        row(0),
        (
            "http://a.example/b",
            true,
            true,
            Some("http://a.example/b"),
            Some("http://a.example/b")
        )
    );
    assert_eq!(recs[0]["error"], Value::Null);
    // Invalid: no iri, but the URI the mapping gives (it is total).
    assert_eq!(
        row(1),
        ("http://a b", false, false, None, Some("http://a%20b"))
    );
    assert_eq!(
        recs[1]["error"],
        "invalid character U+0020 at byte 8 in ireg-name"
    );
    assert_eq!(row(2), ("", true, false, Some(""), Some("")));
    assert_eq!(
        row(3),
        ("../x?y", true, false, Some("../x?y"), Some("../x?y"))
    );
    // Not UTF-8: shown with U+FFFD, no URI.
    assert_eq!(row(4), ("\u{FFFD}\u{FFFD}", false, false, None, None));
    assert_eq!(recs[4]["error"], "invalid UTF-8 at byte 0");
    assert_eq!(
        row(5),
        (
            "http://例え.jp/",
            true,
            true,
            Some("http://例え.jp/"),
            Some("http://xn--r8jz45g.jp/")
        )
    );
    assert_eq!(row(6), ("{x}", false, false, None, Some("%7Bx%7D")));

    // A mapping warning appears as in hit output.
    let r = run(
        &["--each-line", "--json"],
        "http://aא.example/\n".as_bytes(),
    );
    let rec = &r.json()[0];
    assert!(
        rec["warnings"][0].as_str().unwrap().starts_with("idna: "),
        "{rec}"
    );
    assert_eq!(r.status, 0);
}

#[test]
fn paths_are_printed_as_given() {
    let dir = TempDir::new("as-given");
    dir.write("d/x.txt", "http://x.example/\n");
    let abs = dir.path().join("d");
    let abs = abs.to_str().unwrap();
    let r = run_in(dir.path(), &["--json", abs], b"");
    assert_eq!(r.json()[0]["path"], format!("{abs}/x.txt"));
    let r = run_in(dir.path(), &["./d/", "-"], b"");
    assert_eq!(r.lines(), ["./d/x.txt:http://x.example/"]);
}

#[test]
fn threads_give_the_same_output_for_many_files_and_one_large_file() {
    let dir = TempDir::new("threads");
    for i in 0..40 {
        dir.write(
            &format!("d/f{i:02}.txt"),
            format!(
                "file {i}: http://f{i}.example/パス and a{i}@b.example\nwww.w{i}.example.org/x\n"
            )
            .repeat(i + 1),
        );
    }
    // A large file, so that one input is cut into pieces too.
    let mut big = String::new();
    let mut n = 0;
    while big.len() < 3 << 20 {
        big.push_str(&format!(
            "line {n} <http://big.example/{n}\n  /tail> see https://例え.テスト/{n}。\n"
        ));
        n += 1;
    }
    dir.write("d/zz-big.txt", &big);
    let one = run_in(dir.path(), &["--json", "--threads", "1", "d"], b"");
    assert_eq!(one.status, 0, "{}", one.stderr);
    assert!(one.lines().len() > 2 * n);
    for threads in ["2", "3", "8"] {
        let r = run_in(dir.path(), &["--json", "--threads", threads, "d"], b"");
        assert_eq!((r.status, r.stderr.as_str()), (0, ""));
        assert!(
            r.stdout == one.stdout,
            "--threads {threads} differs from --threads 1"
        );
    }
    // Standard input goes through the streaming, parallel path as well.
    let piped = run_in(dir.path(), &["--json", "--threads", "2"], big.as_bytes());
    let file = run_in(
        dir.path(),
        &["--json", "--threads", "1", "d/zz-big.txt"],
        b"",
    );
    assert_eq!(piped.lines().len(), file.lines().len());
    assert_eq!(
        piped.stdout.replace("\"<stdin>\"", "\"d/zz-big.txt\""),
        file.stdout
    );
}

#[test]
fn no_progress_display_on_a_pipe() {
    let big = "some words and http://a.example/x\n".repeat(200_000);
    let r = run(&["--count"], big.as_bytes());
    assert_eq!(
        (r.status, r.stdout.trim(), r.stderr.as_str()),
        (0, "200000", "")
    );
}

#[test]
fn each_line_reports_overlong_lines_and_goes_on() {
    let mut input = "http://a.example/\n".to_string();
    input.push_str(&"x".repeat(2 << 20));
    input.push_str("\nhttp://b.example/\n");
    let r = run(&["--each-line"], input.as_bytes());
    assert_eq!(r.status, 2);
    assert_eq!(r.lines(), ["http://a.example/", "", "http://b.example/"]);
    assert!(
        r.stderr
            .contains("<stdin>:2: invalid IRI reference: line longer than 1048576 bytes"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------
// Charsets.

#[test]
fn valid_utf8_under_a_stale_declaration_is_read_as_utf8_and_announced() {
    let dir = TempDir::new("stale-declaration");
    dir.write(
        "ja.xml",
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<p>写真: https://photos.example.org/アルバム/嵐山</p>\n",
    );
    let r = run_in(dir.path(), &["ja.xml"], b"");
    assert_eq!(r.stdout, "https://photos.example.org/アルバム/嵐山\n");
    assert_eq!(
        r.stderr,
        "iriscan: ja.xml: warning: declared EUC-JP, but the bytes are UTF-8: read as UTF-8 (--encoding sets the charset)\n"
    );
}

#[test]
fn utf8_with_a_junk_first_line_is_not_garbled() {
    let dir = TempDir::new("junk-line");
    let mut doc: Vec<u8> = (0..1000u32).map(|i| 0x80 + (i * 37 % 128) as u8).collect();
    doc.push(b'\n');
    for i in 0..3000 {
        doc.extend(format!("{i} https://ja.wikipedia.org/wiki/東京都{i}\n").as_bytes());
    }
    dir.write("log.txt", &doc);
    let r = run_in(dir.path(), &["--count", "log.txt"], b"");
    assert_eq!(r.stdout, "3000\n");
    let r = run_in(dir.path(), &["log.txt"], b"");
    assert!(
        r.stdout
            .starts_with("https://ja.wikipedia.org/wiki/東京都0\n"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("malformed byte sequence"), "{}", r.stderr);
    assert!(!r.stderr.contains("guessed"), "{}", r.stderr);
}

#[test]
fn legacy_charsets_give_offsets_into_the_raw_bytes_and_map_queries_in_the_charset() {
    let dir = TempDir::new("charsets");
    let text = "東京の天気予報を見るには、次のページをご覧ください。\n検索: http://example.jp/検索?q=東京 です。\nメール: info@example.jp\n"
        .repeat(8);
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(!unmappable);
    let path = dir.write("ja.txt", &sjis);
    for args in [
        vec!["--json", "ja.txt"],
        vec!["--json", "--encoding", "sjis", "ja.txt"],
    ] {
        let r = run_in(dir.path(), &args, b"");
        // A guess is announced; a charset given is not.
        let stderr = if args.contains(&"--encoding") {
            ""
        } else {
            "iriscan: ja.txt: warning: charset guessed: Shift_JIS (--encoding sets the charset)\n"
        };
        assert_eq!((r.status, r.stderr.as_str()), (0, stderr));
        let hits = r.json();
        assert_eq!(hits.len(), 16);
        let raw = std::fs::read(&path).unwrap();
        for h in &hits {
            assert_eq!(h["charset"], "Shift_JIS");
            let (s, e) = (
                h["start"].as_u64().unwrap() as usize,
                h["end"].as_u64().unwrap() as usize,
            );
            let (decoded, _, _) = encoding_rs::SHIFT_JIS.decode(&raw[s..e]);
            assert_eq!(
                decoded,
                h["text"].as_str().unwrap(),
                "raw[start..end] encodes text"
            );
        }
        assert_eq!(hits[0]["iri"], "http://example.jp/検索?q=東京");
        // RFC 3987bis §3.5: the query in the document charset, the path in UTF-8.
        assert_eq!(
            hits[0]["uri"],
            "http://example.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E"
        );
        assert_eq!(hits[1]["uri"], "mailto:info@example.jp");
    }
    // --each-line decodes too.
    let (lines, _, _) = encoding_rs::SHIFT_JIS.encode("http://example.jp/検索?q=東京\n");
    dir.write("lines.txt", &lines);
    let r = run_in(
        dir.path(),
        &["--each-line", "--encoding", "shift_jis", "lines.txt"],
        b"",
    );
    assert_eq!(
        r.lines(),
        ["http://example.jp/%E6%A4%9C%E7%B4%A2?q=%E6%9D%B1%E4%BA%AC"]
    );
}

#[test]
fn unknown_encoding_labels_are_an_error() {
    let r = run(&["--encoding", "klingon"], b"http://a.example/");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("klingon"), "{}", r.stderr);
}

#[test]
fn malformed_bytes_are_counted_in_a_warning() {
    let r = run(
        &["--encoding", "utf-8"],
        b"http://a.example/\xff b http://b.example/\xfe\n",
    );
    assert_eq!(r.status, 0);
    assert_eq!(r.lines(), ["http://a.example/", "http://b.example/"]);
    assert!(
        r.stderr
            .contains("warning: 2 malformed byte sequences for UTF-8"),
        "{}",
        r.stderr
    );
}

// ---------------------------------------------------------------------------
// Normalization, resolution, conversion.

#[test]
fn each_line_normalizes_resolves_converts_and_deduplicates() {
    let input = "http://EXAMPLE.com:80/a/./b/../c\nHTTP://example.com/a/c\n../x/%7euser\nhttps://résumé.example/\nhttps://xn--rsum-bpad.example/\n";
    let r = run(
        &[
            "--each-line",
            "--normalize",
            "--unique",
            "--base",
            "http://example.com/dir/",
        ],
        input.as_bytes(),
    );
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.lines(),
        [
            "http://example.com/a/c",
            "http://example.com/x/~user",
            "https://xn--rsum-bpad.example/"
        ]
    );
    // In IRI form the IDN host is Unicode, and one key still.
    let r = run(
        &["--each-line", "--normalize", "--unique", "--to", "iri"],
        input.as_bytes(),
    );
    assert_eq!(
        r.lines(),
        [
            "http://example.com/a/c",
            "../x/~user",
            "https://résumé.example/"
        ]
    );
    // --to iri decodes what RFC 3987bis §4 allows, and only that.
    let r = run(
        &["--each-line", "--to", "iri"],
        b"http://a.example/D%C3%BCrst?%2F%e2%80%ae\n",
    );
    assert_eq!(r.lines(), ["http://a.example/Dürst?%2F%E2%80%AE"]);
    // The syntax level keeps the default port; JSON carries `normalized`.
    let r = run(
        &["--each-line", "--json", "--normalize=syntax"],
        b"HTTP://Example.COM:80/%7e\n",
    );
    let rec = &r.json()[0];
    assert_eq!(rec["normalized"], "http://example.com:80/~");
    assert_eq!(rec["iri"], "HTTP://Example.COM:80/%7e");
    // A reference that cannot be resolved is an invalid line.
    let r = run(
        &["--each-line", "--base", "http://a.example/b/c"],
        b"g;x\n../../../g\n",
    );
    assert_eq!(r.lines(), ["http://a.example/b/g;x", "http://a.example/g"]);
}

#[test]
fn normalize_in_running_text_prints_and_keys_on_the_normal_form() {
    let text = "see HTTP://Example.COM:80/a/../b and http://example.com/b, then https://résumé.example and https://xn--rsum-bpad.example\n";
    let r = run(&["--normalize", "--unique"], text.as_bytes());
    assert_eq!(
        r.lines(),
        ["http://example.com/b", "https://résumé.example/"]
    );
    let r = run(&["--normalize", "--unique", "--uri"], text.as_bytes());
    assert_eq!(
        r.lines(),
        ["http://example.com/b", "https://xn--rsum-bpad.example/"]
    );
    let r = run(&["--json", "--normalize"], text.as_bytes());
    let hits = r.json();
    assert_eq!(hits.len(), 4);
    assert_eq!(hits[0]["normalized"], "http://example.com/b");
    assert_eq!(hits[0]["iri"], "HTTP://Example.COM:80/a/../b");
}

// ---------------------------------------------------------------------------
// The directory walk (ripgrep's) and binary files.

/// The hits of a walk, without the prefixes' directory.
fn walked(dir: &TempDir, args: &[&str]) -> Run {
    run_in(dir.path(), args, b"")
}

#[test]
fn walks_skip_what_ignore_files_ignore_and_hidden_files_as_ripgrep_does() {
    let dir = TempDir::new("walk-ignore");
    // A git repository: its .gitignore files count (as in ripgrep, not
    // outside one), and `.git` itself is hidden.
    std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    dir.write("repo/.git/packed", "http://git.example/\n");
    dir.write("repo/.gitignore", "target/\n*.log\n");
    dir.write("repo/.ignore", "scratch.txt\n");
    dir.write("repo/sub/.gitignore", "local.txt\n");
    dir.write("repo/a.txt", "http://a.example/\n");
    dir.write("repo/run.log", "http://log.example/\n");
    dir.write("repo/scratch.txt", "http://scratch.example/\n");
    dir.write("repo/target/debug/build.txt", "http://target.example/\n");
    dir.write("repo/sub/local.txt", "http://local.example/\n");
    dir.write("repo/sub/kept.txt", "http://kept.example/\n");
    dir.write("repo/.env.txt", "http://hidden.example/\n");
    dir.write("repo/.cache/c.txt", "http://cache.example/\n");
    let r = walked(&dir, &["repo"]);
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.lines(),
        [
            "repo/a.txt:http://a.example/",
            "repo/sub/kept.txt:http://kept.example/"
        ]
    );
    let ignored = [
        "repo/a.txt:http://a.example/",
        "repo/run.log:http://log.example/",
        "repo/scratch.txt:http://scratch.example/",
        "repo/sub/kept.txt:http://kept.example/",
        "repo/sub/local.txt:http://local.example/",
        "repo/target/debug/build.txt:http://target.example/",
    ];
    assert_eq!(walked(&dir, &["--no-ignore", "repo"]).lines(), ignored);
    assert_eq!(walked(&dir, &["-u", "repo"]).lines(), ignored);
    assert_eq!(
        walked(&dir, &["--hidden", "repo"]).lines(),
        [
            "repo/.cache/c.txt:http://cache.example/",
            "repo/.env.txt:http://hidden.example/",
            "repo/.git/packed:http://git.example/",
            "repo/a.txt:http://a.example/",
            "repo/sub/kept.txt:http://kept.example/",
        ]
    );
    let everything = walked(&dir, &["-uu", "repo"]);
    assert_eq!(everything.lines().len(), 9, "{everything:?}");
    assert_eq!(
        walked(&dir, &["--no-ignore", "--hidden", "repo"]).stdout,
        everything.stdout
    );
    // Named on the command line, an ignored or hidden file is scanned.
    let r = walked(&dir, &["repo/run.log", "repo/.env.txt"]);
    assert_eq!(
        r.lines(),
        [
            "repo/run.log:http://log.example/",
            "repo/.env.txt:http://hidden.example/"
        ]
    );
    // So is a hidden or ignored directory, with the rules inside it.
    let r = walked(&dir, &["repo/target", "repo/.cache"]);
    assert_eq!(
        r.lines(),
        [
            "repo/target/debug/build.txt:http://target.example/",
            "repo/.cache/c.txt:http://cache.example/"
        ]
    );
    // Outside a git repository, .gitignore files do not count; .ignore do.
    std::fs::remove_dir_all(dir.path().join("repo/.git")).unwrap();
    let r = walked(&dir, &["repo"]);
    assert_eq!(
        r.lines(),
        [
            "repo/a.txt:http://a.example/",
            "repo/run.log:http://log.example/",
            "repo/sub/kept.txt:http://kept.example/",
            "repo/sub/local.txt:http://local.example/",
            "repo/target/debug/build.txt:http://target.example/",
        ]
    );
}

#[test]
fn the_walk_is_in_path_order_whatever_the_threads() {
    let dir = TempDir::new("walk-order");
    let mut expected = Vec::new();
    for a in ["b", "a", "B", "a.d", "a-"] {
        for f in ["z.txt", "a.txt", "Z.txt", "m/x.txt"] {
            let path = format!("d/{a}/{f}");
            dir.write(&path, format!("http://{}.example/\n", expected.len()));
            expected.push(path);
        }
    }
    dir.write("d/a.txt", "http://file-beside-dir-a.example/\n");
    expected.push("d/a.txt".to_string());
    // A directory's files come where its name sorts, by path component.
    expected.sort_by(|a, b| Path::new(a).cmp(Path::new(b)));
    let expected: Vec<String> = expected.iter().map(|p| format!("{p}:1")).collect();
    assert_eq!(expected[0], "d/B/Z.txt:1");
    assert_eq!(expected[8], "d/a-/Z.txt:1");
    assert!(
        expected.iter().position(|p| p == "d/a/z.txt:1")
            < expected.iter().position(|p| p == "d/a.d/Z.txt:1")
    );
    for threads in ["1", "2", "8"] {
        let r = walked(&dir, &["--count", "--threads", threads, "d"]);
        assert_eq!(r.lines(), expected, "--threads {threads}");
    }
}

#[test]
fn globs_choose_the_walked_files() {
    let dir = TempDir::new("walk-glob");
    dir.write("d/a.txt", "http://a.example/\n");
    dir.write("d/b.txt", "http://b.example/\n");
    dir.write("d/c.md", "http://c.example/\n");
    dir.write("d/sub/d.txt", "http://d.example/\n");
    dir.write("d/sub/e.md", "http://e.example/\n");
    let r = walked(&dir, &["-g", "*.md", "d"]);
    assert_eq!(
        r.lines(),
        ["d/c.md:http://c.example/", "d/sub/e.md:http://e.example/"]
    );
    let r = walked(&dir, &["-g", "!*.md", "--glob", "!b.txt", "d"]);
    assert_eq!(
        r.lines(),
        ["d/a.txt:http://a.example/", "d/sub/d.txt:http://d.example/"]
    );
    // A glob with a slash is relative to the current directory; `!` on a
    // directory leaves it out whole.
    let r = walked(&dir, &["-g", "d/sub/*.txt", "d"]);
    assert_eq!(r.lines(), ["d/sub/d.txt:http://d.example/"]);
    let r = walked(&dir, &["-g", "!sub", "d"]);
    assert_eq!(r.lines().len(), 3);
    // Files named on the command line are scanned whatever the globs.
    let r = walked(&dir, &["-g", "*.md", "d/a.txt"]);
    assert_eq!(r.lines(), ["http://a.example/"]);
    // A glob that does not parse is a bad argument.
    let r = walked(&dir, &["-g", "a[", "d"]);
    assert_eq!((r.status, r.stdout.as_str()), (2, ""));
    assert!(r.stderr.starts_with("iriscan: --glob: "), "{}", r.stderr);
}

#[test]
fn max_depth_limits_the_walk() {
    let dir = TempDir::new("walk-depth");
    dir.write("d/1.txt", "http://one.example/\n");
    dir.write("d/a/2.txt", "http://two.example/\n");
    dir.write("d/a/b/3.txt", "http://three.example/\n");
    let depth = |n: &str| walked(&dir, &["--max-depth", n, "d"]);
    assert_eq!(depth("1").lines(), ["d/1.txt:http://one.example/"]);
    assert_eq!(depth("2").lines().len(), 2);
    assert_eq!(depth("3").lines().len(), 3);
    let r = depth("0");
    assert_eq!(
        (r.status, r.stdout.as_str(), r.stderr.as_str()),
        (1, "", "")
    );
    // A file named on the command line has no depth.
    let r = walked(&dir, &["--max-depth", "0", "d/a/b/3.txt"]);
    assert_eq!(r.lines(), ["http://three.example/"]);
    assert_eq!(walked(&dir, &["--max-depth", "deep", "d"]).status, 2);
}

#[cfg(unix)]
#[test]
fn follow_takes_symbolic_links_inside_directories() {
    use std::os::unix::fs::symlink;
    let dir = TempDir::new("walk-follow");
    dir.write("d/a.txt", "http://a.example/\n");
    dir.write("outside/o.txt", "http://outside.example/\n");
    symlink("../outside", dir.path().join("d/link-to-dir")).unwrap();
    symlink("a.txt", dir.path().join("d/link-to-file.txt")).unwrap();
    let r = walked(&dir, &["d"]);
    assert_eq!(r.lines(), ["d/a.txt:http://a.example/"]);
    for follow in ["-L", "--follow"] {
        let r = walked(&dir, &[follow, "d"]);
        assert_eq!((r.status, r.stderr.as_str()), (0, ""));
        assert_eq!(
            r.lines(),
            [
                "d/a.txt:http://a.example/",
                "d/link-to-dir/o.txt:http://outside.example/",
                "d/link-to-file.txt:http://a.example/",
            ]
        );
    }
    // A loop is reported (an error) and walked once.
    std::fs::create_dir(dir.path().join("d/sub")).unwrap();
    symlink("..", dir.path().join("d/sub/up")).unwrap();
    let r = walked(&dir, &["-L", "d"]);
    assert_eq!(r.status, 2);
    assert_eq!(r.lines().len(), 3, "{r:?}");
    assert_eq!(
        r.stderr,
        "iriscan: d/sub/up: file system loop: a link to its ancestor d\n"
    );
}

#[test]
fn max_filesize_skips_larger_walked_files() {
    let dir = TempDir::new("walk-size");
    dir.write("d/small.txt", "http://small.example/\n");
    dir.write(
        "d/k.txt",
        format!("http://k.example/\n{}", "x".repeat(2000)),
    );
    dir.write(
        "d/m.txt",
        format!("http://m.example/\n{}", "x\n".repeat(600_000)),
    );
    let size = |n: &str| walked(&dir, &["--max-filesize", n, "d"]);
    assert_eq!(size("100").lines(), ["d/small.txt:http://small.example/"]);
    assert_eq!(size("1K").lines(), ["d/small.txt:http://small.example/"]);
    assert_eq!(size("2K").lines().len(), 2);
    assert_eq!(size("1M").lines().len(), 2);
    assert_eq!(size("2M").lines().len(), 3);
    assert_eq!(size("1G").lines().len(), 3);
    // Named on the command line, a file is scanned whatever its size.
    let r = walked(&dir, &["--max-filesize", "10", "d/k.txt"]);
    assert_eq!(r.lines(), ["http://k.example/"]);
    for bad in ["10T", "K", "-1", "1.5M"] {
        assert_eq!(size(bad).status, 2, "{bad}");
    }
}

/// An executable's first bytes, with a link among them.
const ELF: &[u8] = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0 see http://bin.example/ \0\x01\x02\n";

#[test]
fn walked_binary_files_are_skipped_with_a_note() {
    let dir = TempDir::new("binary-walk");
    dir.write("d/a.txt", "http://a.example/\n");
    dir.write("d/app", ELF);
    // UTF-16 text is NUL bytes half through: text, by its byte order mark.
    let utf16: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain(
            "see http://u16.example/\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    dir.write("d/utf16.txt", &utf16);
    // A NUL after the first 64 KiB is not looked for: scanned as text.
    let mut late = b"see http://late.example/\n".to_vec();
    late.extend(b"text line\n".repeat(7000));
    late.extend(b"\0 http://after.example/\n");
    dir.write("d/late.txt", &late);
    let note = "iriscan: d/app: binary file skipped (NUL byte at offset 7; -a scans it as text)\n";
    let text = [
        "d/a.txt:http://a.example/",
        "d/late.txt:http://late.example/",
        "d/late.txt:http://after.example/",
        "d/utf16.txt:http://u16.example/",
    ];
    // Small files side by side, and one at a time.
    for threads in ["1", "2"] {
        let r = walked(&dir, &["--threads", threads, "d"]);
        assert_eq!(
            (r.status, r.stderr.as_str()),
            (0, note),
            "--threads {threads}"
        );
        assert_eq!(r.lines(), text);
        // Not scanned, so not counted.
        let r = walked(&dir, &["--count", "--threads", threads, "d"]);
        assert_eq!(r.lines(), ["d/a.txt:1", "d/late.txt:2", "d/utf16.txt:1"]);
    }
    // Skipping is no error: nothing else found is still status 1.
    std::fs::create_dir(dir.path().join("only-binary")).unwrap();
    std::fs::copy(dir.path().join("d/app"), dir.path().join("only-binary/app")).unwrap();
    let r = walked(&dir, &["only-binary"]);
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
    assert!(r.stderr.contains("only-binary/app: binary file skipped"));
    // With --each-line too.
    let r = walked(&dir, &["--each-line", "only-binary"]);
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
    assert!(r.stderr.contains("only-binary/app: binary file skipped"));
    // -a scans them as text, silently; --binary and -uuu with a warning.
    let r = walked(&dir, &["-a", "d"]);
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    assert_eq!(r.lines()[1], "d/app:http://bin.example/");
    assert_eq!(r.lines().len(), 5);
    for args in [
        &["--binary", "d"][..],
        &["-uuu", "d"],
        &["--threads", "1", "--binary", "d"],
    ] {
        let r = walked(&dir, args);
        assert_eq!(r.status, 0);
        assert_eq!(r.lines()[1], "d/app:http://bin.example/", "{args:?}");
        assert_eq!(
            r.stderr,
            "iriscan: d/app: warning: binary file (NUL byte at offset 7), scanned as text\n"
        );
    }
}

#[test]
fn named_binary_inputs_are_scanned_with_a_warning() {
    let dir = TempDir::new("binary-named");
    dir.write("app", ELF);
    let warning = "iriscan: app: warning: binary file (NUL byte at offset 7), scanned as text\n";
    for threads in ["1", "2"] {
        let r = walked(&dir, &["--threads", threads, "app"]);
        assert_eq!((r.status, r.stderr.as_str()), (0, warning));
        assert_eq!(r.lines(), ["http://bin.example/"]);
    }
    let r = walked(&dir, &["--each-line", "app"]);
    assert!(r.stderr.ends_with(warning), "{}", r.stderr);
    // Standard input too, as it is read.
    let r = run(&[], ELF);
    assert_eq!(r.lines(), ["http://bin.example/"]);
    assert_eq!(
        r.stderr,
        "iriscan: <stdin>: warning: binary file (NUL byte at offset 7), scanned as text\n"
    );
    // -a: silently.
    let r = walked(&dir, &["-a", "app"]);
    assert_eq!((r.status, r.stderr.as_str()), (0, ""));
    let r = run(&["--text"], ELF);
    assert_eq!(
        (r.lines(), r.stderr.as_str()),
        (vec!["http://bin.example/"], "")
    );
}

#[cfg(unix)]
#[test]
fn the_walk_skips_the_file_the_output_goes_to() {
    let dir = TempDir::new("walk-stdout");
    dir.write("d/a.txt", "http://a.example/\n");
    let out = std::fs::File::create(dir.path().join("d/out.txt")).unwrap();
    let status = Command::new(BIN)
        .arg("d")
        .current_dir(dir.path())
        .stdout(out)
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::fs::read_to_string(dir.path().join("d/out.txt")).unwrap();
    assert_eq!(out, "d/a.txt:http://a.example/\n");
}

#[test]
fn help_lists_the_walk_options() {
    let r = run(&["--help"], b"");
    for opt in [
        "--hidden",
        "--no-ignore",
        "-u, --unrestricted...",
        "-g, --glob <GLOB>",
        "--max-depth <NUM>",
        "-L, --follow",
        "--max-filesize <NUM+SUFFIX?>",
        "--binary",
        "-a, --text",
    ] {
        let lines: Vec<&str> = r
            .stdout
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                l.starts_with(opt) && l[opt.len()..].starts_with(' ')
            })
            .collect();
        assert_eq!(lines.len(), 1, "{opt}: {}", r.stdout);
        assert!(lines[0].trim().len() > opt.len() + 10, "{opt}: {lines:?}");
    }
}

// ---------------------------------------------------------------------------
// Output as it happens, interrupts (issue 13 item 3).

/// A running `iriscan` fed line by line, its output read as it comes.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run iriscan");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
        }
    }

    fn write(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line, if one comes within `secs` seconds.
    fn next_line(&self, secs: u64) -> Option<String> {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(secs))
            .ok()
    }

    /// Sends `signal` (a `kill` name) to the program.
    fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }

    fn wait(mut self) -> (i32, Vec<String>) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.lines.iter().collect();
        (status.code().unwrap_or(-1), rest)
    }
}

#[test]
fn line_buffered_output_shows_each_hit_as_its_line_arrives() {
    for args in [
        &["--line-buffered"][..],
        &["--line-buffered", "-n", "-j", "2"],
    ] {
        let mut live = Live::start(args);
        live.write("first line http://a.example/1 and more\n");
        // The second line is not written before the first hit is out.
        let first = live.next_line(20);
        assert!(
            first
                .as_deref()
                .is_some_and(|l| l.ends_with("http://a.example/1")),
            "{args:?}: {first:?}"
        );
        live.write("second <http://a.example/2>\n");
        let second = live.next_line(20);
        assert!(
            second
                .as_deref()
                .is_some_and(|l| l.ends_with("http://a.example/2")),
            "{args:?}: {second:?}"
        );
        let (status, rest) = live.wait();
        assert_eq!((status, rest.len()), (0, 0), "{args:?}");
    }
    // Block-buffered (the default on a pipe): everything at the end.
    let mut live = Live::start(&["--block-buffered"]);
    live.write("first line http://a.example/1\n");
    assert_eq!(live.next_line(1), None);
    let (status, rest) = live.wait();
    assert_eq!((status, rest), (0, vec!["http://a.example/1".to_string()]));
}

#[test]
fn a_signal_writes_out_the_hits_found_and_exits_128_plus_its_number() {
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        for args in [&[][..], &["--count"], &["-j", "1"]] {
            let mut live = Live::start(args);
            // The last hit waits for the bytes after it (no line end).
            live.write("a http://a.example/1 b http://a.example/2");
            std::thread::sleep(std::time::Duration::from_millis(500));
            live.signal(signal);
            let child_status = live.child.wait().unwrap();
            let out: Vec<String> = live.lines.iter().collect();
            assert_eq!(child_status.code(), Some(status), "{signal} {args:?}");
            let expected: &[&str] = if args == ["--count"] {
                &["2"]
            } else {
                &["http://a.example/1", "http://a.example/2"]
            };
            assert_eq!(out, expected, "{signal} {args:?}");
        }
    }
    // Files named after the signal are not read.
    let dir = TempDir::new("signal-files");
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        dir.write("z.txt", "http://z.example/\n");
        let child = Command::new(BIN)
            .args([fifo.to_str().unwrap(), "z.txt"])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        writer.write_all(b"see http://f.example/\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        let ok = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(143));
        let fifo_line = format!("{}:http://f.example/\n", fifo.display());
        assert_eq!(String::from_utf8_lossy(&out.stdout), fifo_line);
        drop(writer);
    }
}

// ---------------------------------------------------------------------------
// ripgrep's short flags (issue 13 item 9).

#[test]
fn short_flags_count_threads_and_encoding() {
    let text = "a http://a.example/1\nb http://a.example/2\n";
    assert_eq!(run(&["-c"], text.as_bytes()).stdout, "2\n");
    assert_eq!(
        run(&["-j", "2"], text.as_bytes()).lines(),
        ["http://a.example/1", "http://a.example/2"]
    );
    let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("é http://a.example/é\n");
    let r = run(&["-E", "latin1", "--uri"], &latin1);
    assert_eq!(r.lines(), ["http://a.example/%C3%A9"]);
}

#[test]
fn files_with_matches_prints_each_path_once() {
    let dir = TempDir::new("files-with-matches");
    dir.write("a.txt", "http://a.example/1 http://a.example/2\n");
    dir.write("b.txt", "nothing\n");
    dir.write("c:d.txt", "mailto:x@c.example\n");
    let r = run_in(dir.path(), &["-l", "a.txt", "b.txt", "c:d.txt"], b"");
    assert_eq!((r.status, r.lines()), (0, vec!["a.txt", "c:d.txt"]));
    let r = run_in(dir.path(), &["-l", "-0", "a.txt", "b.txt", "c:d.txt"], b"");
    assert_eq!(r.stdout, "a.txt\0c:d.txt\0");
    let r = run_in(dir.path(), &["-l", "b.txt"], b"");
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
}

#[test]
fn line_numbers_columns_and_vimgrep() {
    let dir = TempDir::new("line-numbers");
    dir.write(
        "a.txt",
        "x\n  see http://a.example/1\néé https://b.example/ü\n",
    );
    let r = run_in(dir.path(), &["-n", "a.txt"], b"");
    assert_eq!(r.lines(), ["2:http://a.example/1", "3:https://b.example/ü"]);
    let r = run_in(dir.path(), &["--column", "-H", "a.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:2:7:http://a.example/1",
            "a.txt:3:6:https://b.example/ü"
        ]
    );
    let r = run_in(dir.path(), &["--vimgrep", "a.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:2:7:http://a.example/1",
            "a.txt:3:6:https://b.example/ü"
        ]
    );
    // -0: a NUL after the path, so that `c:d.txt:2:…` cannot be misread.
    dir.write("c:d.txt", "\nhttp://c.example/\n");
    let r = run_in(dir.path(), &["-n", "-0", "c:d.txt", "a.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "c:d.txt\u{0}2:http://c.example/",
            "a.txt\u{0}2:http://a.example/1",
            "a.txt\u{0}3:https://b.example/ü"
        ]
    );
    let r = run_in(dir.path(), &["-c", "-0", "c:d.txt"], b"");
    assert_eq!(r.stdout, "1\n", "one input: no path");
    let r = run_in(dir.path(), &["-c", "-0", "-H", "c:d.txt"], b"");
    assert_eq!(r.stdout, "c:d.txt\u{0}1\n");
    for conflict in [
        &["-n", "--json"][..],
        &["--column", "--count"],
        &["-n", "-l"],
    ] {
        assert_eq!(run(conflict, b"").status, 2, "{conflict:?}");
    }
}

#[test]
fn with_and_without_file_names() {
    let dir = TempDir::new("with-filename");
    dir.write("a.txt", "http://a.example/\n");
    dir.write("b.txt", "http://b.example/\n");
    let r = run_in(dir.path(), &["-H", "a.txt"], b"");
    assert_eq!(r.lines(), ["a.txt:http://a.example/"]);
    let r = run_in(dir.path(), &["-I", "a.txt", "b.txt"], b"");
    assert_eq!(r.lines(), ["http://a.example/", "http://b.example/"]);
    // The last of the two wins, as in ripgrep.
    let r = run_in(dir.path(), &["-I", "-H", "a.txt"], b"");
    assert_eq!(r.lines(), ["a.txt:http://a.example/"]);
    let r = run(&["-H"], b"http://s.example/\n");
    assert_eq!(r.lines(), ["<stdin>:http://s.example/"]);
}

#[test]
fn max_count_stops_each_input_after_n_hits() {
    let dir = TempDir::new("max-count");
    dir.write(
        "a.txt",
        "http://a.example/1 http://a.example/2 http://a.example/3\n",
    );
    dir.write("b.txt", "http://b.example/1 http://b.example/2\n");
    let r = run_in(dir.path(), &["-m", "2", "a.txt", "b.txt"], b"");
    assert_eq!(
        r.lines(),
        [
            "a.txt:http://a.example/1",
            "a.txt:http://a.example/2",
            "b.txt:http://b.example/1",
            "b.txt:http://b.example/2"
        ]
    );
    let r = run_in(dir.path(), &["-m", "1", "-c", "a.txt", "b.txt"], b"");
    assert_eq!(r.lines(), ["a.txt:1", "b.txt:1"]);
    // Invalid hits count only when they are printed.
    let r = run(&["-m", "1"], b"http://a.example/%zz http://a.example/ok\n");
    assert_eq!(r.lines(), ["http://a.example/ok"]);
    let r = run(&["-m", "0"], b"http://a.example/\n");
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
    // A large input read as it comes stops early too.
    let big = "http://a.example/x\n".repeat(200_000);
    let r = run(&["-m", "3"], big.as_bytes());
    assert_eq!(r.lines().len(), 3);
}

#[test]
fn quiet_prints_nothing_and_says_by_its_status() {
    let dir = TempDir::new("quiet");
    dir.write("a.txt", "http://a.example/\n");
    dir.write("b.txt", "nothing\n");
    let r = run_in(dir.path(), &["-q", "b.txt", "a.txt"], b"");
    assert_eq!((r.status, r.stdout.as_str()), (0, ""));
    let r = run_in(dir.path(), &["-q", "b.txt"], b"");
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
    // It stops at the first hit: standard input still open does not hold it.
    let mut live = Live::start(&["-q"]);
    live.write("http://a.example/ and more\n");
    let mut child = live.child;
    let mut ended = None;
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            ended = status.code();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    assert_eq!(ended, Some(0));
}

#[test]
fn no_messages_silences_what_concerns_inputs() {
    let dir = TempDir::new("no-messages");
    dir.write("a.txt", "http://a.example/\n");
    let r = run_in(dir.path(), &["-s", "missing.txt", "a.txt"], b"");
    assert_eq!(r.status, 2);
    assert_eq!(r.lines(), ["a.txt:http://a.example/"]);
    assert_eq!(r.stderr, "");
    let text = "東京の天気 http://a.example/\n".repeat(20);
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(!run(&[], &sjis).stderr.is_empty(), "the charset is guessed");
    assert_eq!(run(&["-s"], &sjis).stderr, "");
}

#[test]
fn stats_summarize_the_run_after_the_hits() {
    let dir = TempDir::new("stats");
    dir.write("a.txt", "http://a.example/1 http://a.example/2\n");
    dir.write("b.txt", "nothing here\n");
    let r = run_in(dir.path(), &["--stats", "a.txt", "b.txt"], b"");
    assert_eq!(r.status, 0);
    let lines = r.lines();
    assert_eq!(
        lines[..7],
        [
            "a.txt:http://a.example/1",
            "a.txt:http://a.example/2",
            "",
            "2 hits",
            "1 input contained hits",
            "2 inputs searched",
            "50 bytes printed",
        ]
    );
    assert_eq!(lines[7], "51 bytes searched");
    assert!(
        lines[8].ends_with(" seconds")
            && lines[8].split(' ').next().unwrap().parse::<f64>().is_ok(),
        "{}",
        lines[8]
    );
    assert_eq!(lines.len(), 9);
    assert_eq!(run(&["--stats", "--json"], b"").status, 2);
}

#[test]
fn generate_prints_a_man_page_and_completions() {
    let r = run(&["--generate", "man"], b"");
    assert_eq!(r.status, 0);
    assert!(
        r.stdout.starts_with(".ie") || r.stdout.contains(".TH iriscan"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("files\\-with\\-matches"), "every option");
    for (shell, marker) in [
        ("complete-bash", "complete -F"),
        ("complete-zsh", "#compdef iriscan"),
        ("complete-fish", "complete -c iriscan"),
        ("complete-powershell", "Register-ArgumentCompleter"),
    ] {
        let r = run(&["--generate", shell], b"");
        assert_eq!(r.status, 0, "{shell}");
        assert!(r.stdout.contains(marker), "{shell}: {}", r.stdout);
        assert!(r.stdout.contains("--line-buffered"), "{shell}");
    }
    assert_eq!(run(&["--generate", "man", "a.txt"], b"").status, 2);
    assert_eq!(run(&["--generate", "tcsh"], b"").status, 2);
}

// ---------------------------------------------------------------------------
// Messages (issue 13 items 5 and 8).

#[test]
fn a_truncated_hit_is_announced_in_plain_output() {
    let long = format!("see http://example.org/{} end", "a".repeat(1000));
    let r = run(&["--max-len", "600"], long.as_bytes());
    assert_eq!(r.lines()[0].len(), 600);
    assert_eq!(
        r.stderr,
        "iriscan: <stdin>: warning: IRI at byte 4 truncated at --max-len 600\n"
    );
    let r = run(&[], long.as_bytes());
    assert_eq!(r.stderr, "");
    // JSON carries it as a warning instead; -s silences it.
    assert_eq!(
        run(&["--max-len", "600", "--json"], long.as_bytes()).stderr,
        ""
    );
    assert_eq!(run(&["--max-len", "600", "-s"], long.as_bytes()).stderr, "");
}

#[test]
fn help_states_the_limits() {
    let help = run(&["--help"], b"").stdout;
    assert!(help.contains("512 to 1048576"), "--max-len bounds");
    assert!(
        help.contains("longer than 1 MiB"),
        "--each-line's line limit"
    );
}

#[cfg(unix)]
#[test]
fn a_file_that_cannot_be_opened_says_so() {
    let dir = TempDir::new("cannot-open");
    dir.write("z.txt", "http://z.example/\n");
    // A socket exists but cannot be opened (also for root).
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
    for threads in ["1", "2"] {
        let r = run_in(dir.path(), &["-j", threads, "sock", "z.txt"], b"");
        assert_eq!(r.status, 2);
        assert_eq!(r.lines(), ["z.txt:http://z.example/"]);
        assert!(
            r.stderr.starts_with("iriscan: sock: cannot open: "),
            "{threads}: {}",
            r.stderr
        );
    }
}

#[test]
fn normalize_with_a_space_before_its_level_is_refused() {
    let r = run(&["--normalize", "syntax"], b"http://A.example/\n");
    assert_eq!((r.status, r.stdout.as_str()), (2, ""));
    assert!(r.stderr.contains("--normalize=simple"), "{}", r.stderr);
    assert!(r.stderr.contains("`syntax`"), "{}", r.stderr);
    // A path that exists is a path.
    let dir = TempDir::new("normalize-path");
    dir.write("syntax", "HTTP://A.example/\n");
    let r = run_in(dir.path(), &["--normalize", "syntax"], b"");
    assert_eq!(r.lines(), ["http://a.example/"]);
    let r = run(&["--normalize=syntax"], b"HTTP://A.example/\n");
    assert_eq!(r.lines(), ["http://a.example/"]);
}

#[test]
fn utf16_without_a_bom_gets_a_hint() {
    let text = "see https://example.org/ and www.example.com\n";
    for (le, label) in [(true, "utf-16le"), (false, "utf-16be")] {
        let bytes: Vec<u8> = text
            .encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect();
        let r = run(&[], &bytes);
        assert_eq!(r.status, 1);
        assert!(
            r.stderr.contains(&format!(
                "UTF-16 without a byte order mark (try --encoding {label})"
            )),
            "{}",
            r.stderr
        );
        let r = run(&["--encoding", label], &bytes);
        assert_eq!(
            r.lines(),
            ["https://example.org/", "http://www.example.com"]
        );
        assert_eq!(r.stderr, "");
    }
    assert_eq!(run(&[], text.as_bytes()).stderr, "");
}

// ---------------------------------------------------------------------------
// The walk's binary files with ripgrep's flags (both halves of issue 13).

#[test]
fn binary_files_with_quiet_stats_and_the_output_modes() {
    let dir = TempDir::new("binary-flags");
    dir.write("d/a.txt", "http://a.example/1 http://a.example/2\n");
    dir.write("d/app", ELF);
    for threads in ["1", "2"] {
        let j = ["-j", threads];
        // -s silences the note of a skipped file and the warning of a
        // scanned one.
        let r = walked(&dir, &[&j[..], &["-s", "d"]].concat());
        assert_eq!((r.status, r.stderr.as_str()), (0, ""));
        assert_eq!(
            r.lines(),
            ["d/a.txt:http://a.example/1", "d/a.txt:http://a.example/2"]
        );
        let r = walked(&dir, &[&j[..], &["-s", "d/app", "d/a.txt"]].concat());
        assert_eq!((r.status, r.stderr.as_str()), (0, ""));
        assert_eq!(r.lines()[0], "d/app:http://bin.example/");
        let r = walked(&dir, &[&j[..], &["-s", "--binary", "d"]].concat());
        assert_eq!((r.status, r.stderr.as_str(), r.lines().len()), (0, "", 3));
        // A skipped binary file was not searched: --stats leaves it out.
        let r = walked(&dir, &[&j[..], &["--stats", "d"]].concat());
        let lines = r.lines();
        assert_eq!(
            lines[2..7],
            [
                "",
                "2 hits",
                "1 input contained hits",
                "1 input searched",
                "54 bytes printed"
            ],
            "{lines:?}"
        );
        assert_eq!(lines[7], "38 bytes searched");
        // Scanned, it counts.
        let r = walked(&dir, &[&j[..], &["--stats", "-a", "d"]].concat());
        assert!(r.stdout.contains("\n2 inputs searched\n"), "{}", r.stdout);
        // -l, -c, -m and -q on a walk: the binary file is not there.
        let r = walked(&dir, &[&j[..], &["-l", "d"]].concat());
        assert_eq!((r.lines(), r.status), (vec!["d/a.txt"], 0));
        let r = walked(&dir, &[&j[..], &["-l", "-a", "d"]].concat());
        assert_eq!(r.lines(), ["d/a.txt", "d/app"]);
        let r = walked(&dir, &[&j[..], &["-c", "d"]].concat());
        assert_eq!(r.lines(), ["d/a.txt:2"]);
        let r = walked(&dir, &[&j[..], &["-m", "1", "-a", "d"]].concat());
        assert_eq!(
            r.lines(),
            ["d/a.txt:http://a.example/1", "d/app:http://bin.example/"]
        );
        let r = walked(&dir, &[&j[..], &["-q", "d"]].concat());
        assert_eq!((r.status, r.stdout.as_str()), (0, ""));
        let r = walked(&dir, &[&j[..], &["-q", "-s", "d/app"]].concat());
        assert_eq!(
            (r.status, r.stdout.as_str(), r.stderr.as_str()),
            (0, "", "")
        );
    }
    // Only a binary file: nothing searched, nothing found.
    let r = walked(&dir, &["-q", "-g", "app", "d"]);
    assert_eq!((r.status, r.stdout.as_str()), (1, ""));
}

#[test]
fn utf16_without_a_bom_is_binary_to_a_walk_and_hinted_when_named() {
    let dir = TempDir::new("binary-utf16");
    let bytes: Vec<u8> = "see https://example.org/ and www.example.com\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    dir.write("d/u.txt", &bytes);
    let hint = "UTF-16 without a byte order mark (try --encoding utf-16le)";
    for threads in ["1", "2"] {
        // Walked: skipped as binary.
        let r = walked(&dir, &["-j", threads, "d"]);
        assert_eq!((r.status, r.stdout.as_str()), (1, ""));
        assert_eq!(
            r.stderr,
            "iriscan: d/u.txt: binary file skipped (NUL byte at offset 1; -a scans it as text)\n"
        );
        // Named: scanned with the warning, and the hint from its head.
        let r = walked(&dir, &["-j", threads, "d/u.txt"]);
        assert_eq!(r.status, 1);
        assert!(
            r.stderr
                .contains("d/u.txt: warning: binary file (NUL byte at offset 1)"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(hint), "{}", r.stderr);
        // Read as UTF-16LE, it is text, walked or named.
        for path in ["d", "d/u.txt"] {
            let r = walked(&dir, &["-j", threads, "-E", "utf-16le", "-I", path]);
            assert_eq!(
                (r.lines(), r.stderr.as_str()),
                (vec!["https://example.org/", "http://www.example.com"], "")
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Raw paths, JSON charset, progress (issue 13 items 6, 7)

#[test]
fn json_says_how_the_charset_was_chosen() {
    let dir = TempDir::new("charset-source");
    let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(
        "Le café crème brûlé de l'été, voir http://example.fr/menu?plat=crème et à bientôt.\n",
    );
    dir.write("guessed.txt", &latin);
    dir.write(
        "declared.xml",
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<p>写真: https://photos.example.org/アルバム</p>\n",
    );
    dir.write("bom.txt", b"\xef\xbb\xbfhttp://example.org/bom\n");
    dir.write("plain.txt", "東京 http://example.org/東京\n");
    /// A file, extra arguments, then `charset`, `charset_source` and
    /// `charset_declared`.
    type Case<'a> = (&'a str, &'a [&'a str], &'a str, &'a str, Option<&'a str>);
    let cases: &[Case] = &[
        ("guessed.txt", &[], "windows-1252", "detected", None),
        ("declared.xml", &[], "UTF-8", "validated", Some("EUC-JP")),
        ("bom.txt", &[], "UTF-8", "BOM", None),
        ("plain.txt", &[], "UTF-8", "validated", None),
        (
            "guessed.txt",
            &["-E", "latin1"],
            "windows-1252",
            "given",
            None,
        ),
        ("plain.txt", &["-E", "utf-8"], "UTF-8", "given", None),
    ];
    for threads in ["1", "2"] {
        for &(file, extra, charset, source, declared) in cases {
            let mut args = vec!["--json", "-j", threads];
            args.extend_from_slice(extra);
            args.push(file);
            let r = run_in(dir.path(), &args, b"");
            let hits = r.json();
            assert_eq!((r.status, hits.len()), (0, 1), "{args:?}: {r:?}");
            let h = &hits[0];
            assert_eq!(
                (&h["charset"], &h["charset_source"]),
                (&Value::from(charset), &Value::from(source)),
                "{args:?}"
            );
            let mut fields = set(HIT_FIELDS);
            if let Some(declared) = declared {
                assert_eq!(h["charset_declared"], declared, "{args:?}");
                fields.insert("charset_declared");
            }
            assert_eq!(keys(h), fields, "{args:?}");
            // Standard error tells the same to a person: a guess and an
            // overridden declaration, nothing else.
            let told = match source {
                "detected" => r.stderr.contains("charset guessed: windows-1252"),
                _ if declared.is_some() => r.stderr.contains("declared EUC-JP"),
                _ => r.stderr.is_empty(),
            };
            assert!(told, "{args:?}: {}", r.stderr);
        }
    }
    // Standard input too, read as it arrives.
    let r = run_in(dir.path(), &["--json", "--line-buffered"], &latin);
    assert_eq!(r.json()[0]["charset_source"], "detected");
}

/// Runs the program in `dir` with arguments that need not be UTF-8;
/// returns the exit status, standard output's bytes and standard error.
#[cfg(unix)]
fn run_os(dir: &Path, args: &[&std::ffi::OsStr]) -> (i32, Vec<u8>, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run iriscan");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    (out.status.code().expect("exited"), out.stdout, stderr)
}

#[cfg(unix)]
#[test]
fn paths_that_are_not_utf8_are_printed_as_their_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = TempDir::new("raw-paths");
    let raw = OsStr::from_bytes(b"d/a\xffb.txt");
    std::fs::create_dir_all(dir.path().join("d")).unwrap();
    if std::fs::write(dir.path().join(raw), "x http://a.example/1\n").is_err() {
        // A file system that takes UTF-8 names only: nothing to test.
        return;
    }
    dir.write("d/ok.txt", "y http://b.example/2\n");
    let (d, ok) = (OsStr::new("d"), OsStr::new("d/ok.txt"));
    let os = |s: &'static str| OsStr::new(s);
    for threads in ["1", "2"] {
        let j = [os("-j"), os(threads)];
        let with = |args: &[&OsStr], paths: &[&OsStr]| {
            let mut all = j.to_vec();
            all.extend_from_slice(args);
            all.extend_from_slice(paths);
            run_os(dir.path(), &all)
        };
        // Walked and named, the same bytes.
        for paths in [vec![d], vec![raw, ok]] {
            let (status, out, err) = with(&[], &paths);
            assert_eq!((status, err.as_str()), (0, ""));
            assert_eq!(
                out,
                b"d/a\xffb.txt:http://a.example/1\nd/ok.txt:http://b.example/2\n"
            );
            let (_, out, _) = with(&[os("-l")], &paths);
            assert_eq!(out, b"d/a\xffb.txt\nd/ok.txt\n");
            let (_, out, _) = with(&[os("-l"), os("-0")], &paths);
            assert_eq!(out, b"d/a\xffb.txt\0d/ok.txt\0");
            let (_, out, _) = with(&[os("-0")], &paths);
            assert_eq!(
                out,
                b"d/a\xffb.txt\0http://a.example/1\nd/ok.txt\0http://b.example/2\n"
            );
            let (_, out, _) = with(&[os("-c")], &paths);
            assert_eq!(out, b"d/a\xffb.txt:1\nd/ok.txt:1\n");
            // JSON: bytes in base64 when not UTF-8, a string else.
            let (_, out, _) = with(&[os("--json")], &paths);
            let hits: Vec<Value> = out
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).unwrap())
                .collect();
            assert_eq!(hits.len(), 2);
            assert_eq!(
                hits[0]["path"],
                serde_json::json!({"bytes": "ZC9h/2IudHh0"})
            );
            assert_eq!(hits[1]["path"], "d/ok.txt");
        }
        // One file named alone, with -H.
        let (_, out, _) = with(&[os("-H")], &[raw]);
        assert_eq!(out, b"d/a\xffb.txt:http://a.example/1\n");
        // --each-line: plain and JSON.
        let (_, out, _) = with(&[os("--each-line"), os("-H")], &[raw]);
        assert_eq!(out, b"d/a\xffb.txt:\n");
        let (_, out, err) = with(&[os("--each-line"), os("--json")], &[raw]);
        let line: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(line["path"], serde_json::json!({"bytes": "ZC9h/2IudHh0"}));
        assert_eq!(err, "");
        // Messages on standard error stay text: U+FFFD for the byte.
        let (_, _, err) = with(&[os("--each-line")], &[raw]);
        assert!(
            err.starts_with("d/a\u{fffd}b.txt:1: invalid IRI reference"),
            "{err}"
        );
    }
}

#[test]
fn no_progress_display_on_a_pipe_even_after_the_delay() {
    // Input that arrives over more than the second after which a terminal
    // would show progress: on a pipe, standard error stays empty.
    let mut child = Command::new(BIN)
        .args(["--line-buffered"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iriscan");
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"a http://a.example/1\n").unwrap();
    input.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1300));
    input.write_all(b"b http://b.example/2\n").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).as_ref(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(0), "http://a.example/1\nhttp://b.example/2\n", "")
    );
}

// --match and --host (issue 16 item 4)

#[test]
fn match_and_host_keep_only_the_hits_they_name() {
    let text = "a https://ja.wikipedia.org/wiki/東京 b www.example.com/x\n\
                c mailto:Joe@Example.COM d http://[::1]:80/ bob@例え.jp\n";
    let host = run(&["--host", r"(^|\.)example\.com$"], text.as_bytes());
    assert_eq!(
        (host.status, host.stdout.as_str()),
        (0, "http://www.example.com/x\nmailto:Joe@Example.COM\n")
    );
    let matched = run(&["--match", "wiki/東", "-c"], text.as_bytes());
    assert_eq!((matched.status, matched.stdout.as_str()), (0, "1\n"));
    // Both: a hit must match both; none left is exit 1, as ripgrep's.
    let both = run(
        &["--match", "^https:", "--host", "example"],
        text.as_bytes(),
    );
    assert_eq!((both.status, both.stdout.as_str()), (1, ""));
    // With several threads and in JSON: the same hits.
    let json = run(&["--json", "-j", "2", "--host", "例え"], text.as_bytes());
    let iris: Vec<String> = json
        .json()
        .iter()
        .map(|v| v["iri"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(iris, ["mailto:bob@例え.jp"]);
    // Rejected candidates with --invalid are filtered too.
    let invalid = run(&["--invalid", "--match", "zzz"], b"http://a.example/a^b\n");
    assert_eq!((invalid.status, invalid.stdout.as_str()), (1, ""));
}

#[test]
fn a_bad_pattern_is_an_error_naming_the_option() {
    let r = run(&["--match", "a(b"], b"http://a.example/\n");
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .starts_with("iriscan: --match: invalid pattern \"a(b\""),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty());
    let r = run(&["--host", "["], b"http://a.example/\n");
    assert!(
        r.status == 2 && r.stderr.starts_with("iriscan: --host: "),
        "{}",
        r.stderr
    );
}
