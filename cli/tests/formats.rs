//! `--format` (docs/rules.md §4, "Formats"): mail, HTML pages and web archives read
//! by the library's readers, told apart by `--format auto` from their
//! first bytes and names, named, walked or on standard input; what the
//! command line prints for each corpus document is what the library's
//! reviewed expected output says.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::{BIN, Run, TempDir, corpus, run_in};

/// The fields the command line and the library's expected output share,
/// by the library's names (the command line calls a WARC record's ID
/// `record` and its index `record_index`).
fn projection(v: &Value, from_cli: bool) -> Vec<(String, Value)> {
    let get = |k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    let mut out: Vec<(String, Value)> = [
        "start",
        "end",
        "line",
        "column",
        "text",
        "iri",
        "uri",
        "kind",
        "message",
        "message_id",
        "part",
        "source",
        "raw_start",
        "raw_end",
        "valid",
        "target_uri",
    ]
    .iter()
    .map(|k| (k.to_string(), get(k)))
    .collect();
    if from_cli {
        out.push(("record_id".into(), get("record")));
        out.push(("record".into(), get("record_index")));
    } else {
        out.push(("record_id".into(), get("record_id")));
        out.push(("record".into(), get("record")));
    }
    out
}

/// The corpus documents of `dir` that have an expected output.
fn documents(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| {
            corpus()
                .join(dir)
                .join(format!("{n}.expected.jsonl"))
                .exists()
        })
        .collect();
    names.sort();
    names
}

/// The page address an HTML document's links file gives (`# base: IRI`).
fn html_base(name: &str) -> Option<String> {
    let links =
        std::fs::read_to_string(corpus().join("html").join(format!("{name}.links.txt"))).ok()?;
    links
        .lines()
        .find_map(|l| l.strip_prefix("# base: "))
        .map(str::to_string)
}

#[test]
fn every_corpus_document_gives_the_librarys_expected_output_whatever_the_path() {
    let mut checked = 0;
    for dir in ["mail", "html", "warc"] {
        for name in documents(dir) {
            let file = corpus().join(dir).join(&name);
            let bytes = std::fs::read(&file).unwrap();
            let want: Vec<_> =
                std::fs::read_to_string(corpus().join(dir).join(format!("{name}.expected.jsonl")))
                    .unwrap()
                    .lines()
                    .map(|l| projection(&serde_json::from_str(l).unwrap(), false))
                    .collect();
            let base = html_base(&name);
            let mut args = vec!["--json", "--invalid", "--no-warn"];
            if let Some(b) = &base {
                args.extend(["--base", b.as_str()]);
            }
            let path = file.to_str().unwrap();
            // Named (told by its name and bytes), on one and two threads;
            // on standard input (told by its bytes alone); format given.
            let runs: Vec<(String, Run)> = vec![
                (
                    "-j 1".into(),
                    run_in(
                        Path::new("."),
                        &[&args[..], &["-j", "1", path]].concat(),
                        b"",
                    ),
                ),
                (
                    "-j 2".into(),
                    run_in(
                        Path::new("."),
                        &[&args[..], &["-j", "2", path]].concat(),
                        b"",
                    ),
                ),
                ("stdin".into(), run_in(Path::new("."), &args, &bytes)),
                (
                    "--format".into(),
                    run_in(
                        Path::new("."),
                        &[&args[..], &["--format", dir, path]].concat(),
                        b"",
                    ),
                ),
            ];
            for (how, run) in runs {
                assert_eq!(
                    run.status,
                    if want.is_empty() { 1 } else { 0 },
                    "{name} {how}: {}",
                    run.stderr
                );
                let got: Vec<_> = run.hits().iter().map(|v| projection(v, true)).collect();
                assert_eq!(got.len(), want.len(), "{name} {how}");
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g, w, "{name} {how}: hit {i}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} corpus documents");
}

#[test]
fn text_stays_text() {
    let dir = TempDir::new("formats-text");
    // Header-like lines that are no message, a log, a page fragment.
    dir.write(
        "control",
        "Package: iriscan\nHomepage: https://ex.org/iriscan\n\nDescription: x\n",
    );
    dir.write(
        "access.log",
        "127.0.0.1 - - [01/Jan/2024] \"GET http://ex.org/a?b=1 HTTP/1.1\"\n",
    );
    dir.write(
        "notes.txt",
        "<p>see http://ex.org/p</p> &amp; http://ex.org/q&amp;r\n",
    );
    for file in ["control", "access.log", "notes.txt"] {
        let auto = run_in(dir.path(), &["--json", file], b"");
        let text = run_in(dir.path(), &["--json", "--format", "text", file], b"");
        assert_eq!(auto.stdout, text.stdout, "{file}");
        assert!(!auto.stdout.is_empty(), "{file}");
        assert!(!auto.stdout.contains("\"source\""), "{file}");
    }
}

#[test]
fn a_compressed_archive_is_read_as_the_plain_one() {
    let dir = TempDir::new("formats-gz");
    let plain = std::fs::read(corpus().join("warc/cc-main-2014-35-sample.warc")).unwrap();
    // A gzip member per record, as Common Crawl writes them.
    let mut members = Vec::new();
    let starts: Vec<usize> = plain
        .windows(9)
        .enumerate()
        .filter(|(i, w)| *w == b"WARC/1.0\r" && (*i == 0 || plain[i - 1] == b'\n'))
        .map(|(i, _)| i)
        .collect();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(plain.len());
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&plain[s..e]).unwrap();
        members.extend(gz.finish().unwrap());
    }
    dir.write("crawl.warc.gz", &members);
    dir.write("crawl.warc", &plain);
    let iris = |r: &Run| {
        r.hits()
            .iter()
            .map(|h| (h["record_index"].clone(), h["iri"].clone()))
            .collect::<Vec<_>>()
    };
    let from_plain = run_in(dir.path(), &["--json", "crawl.warc"], b"");
    let from_gz = run_in(dir.path(), &["--json", "crawl.warc.gz"], b"");
    let from_stdin = run_in(dir.path(), &["--json"], &members);
    let with_z = run_in(dir.path(), &["--json", "-z", "crawl.warc.gz"], b"");
    assert!(iris(&from_plain).len() > 1000);
    assert_eq!(iris(&from_gz), iris(&from_plain));
    assert_eq!(iris(&from_stdin), iris(&from_plain));
    assert_eq!(iris(&with_z), iris(&from_plain));
}

#[test]
fn bad_input_is_reported_with_its_position_and_the_rest_is_scanned() {
    let dir = TempDir::new("formats-bad");
    let plain = std::fs::read(corpus().join("warc/cc-main-2014-35-sample.warc")).unwrap();
    // Cut in the middle of the file: a record that never ends.
    dir.write("cut.warc", &plain[..plain.len() / 2]);
    dir.write(
        "b.eml",
        "From: a@ex.org\nTo: b@ex.org\nSubject: x\n\nhttp://after.example/\n",
    );
    let r = run_in(dir.path(), &["cut.warc", "b.eml"], b"");
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("iriscan: cut.warc: record ") && r.stderr.contains(" at byte "),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.lines().any(|l| l.starts_with("cut.warc:http")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("b.eml:http://after.example/"),
        "{}",
        r.stdout
    );
}

#[test]
fn counts_and_stops_work_on_every_format() {
    let mbox = corpus().join("mail/spamassassin-ham.mbox");
    let mbox = mbox.to_str().unwrap();
    let all = run_in(Path::new("."), &[mbox], b"");
    let n = all.lines().len();
    assert!(n > 3);
    let count = run_in(Path::new("."), &["-c", mbox], b"");
    assert_eq!(count.stdout.trim(), n.to_string());
    let two = run_in(Path::new("."), &["-m", "2", mbox], b"");
    assert_eq!(two.lines(), all.lines()[..2]);
    let quiet = run_in(Path::new("."), &["-q", mbox], b"");
    assert_eq!((quiet.status, quiet.stdout.as_str()), (0, ""));
}

#[test]
fn a_pipe_is_not_held_back_by_the_format_guess() {
    // A log line on a pipe that stays open: its hit comes at once.
    let mut child = Command::new(BIN)
        .args(["--line-buffered"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"GET http://ex.org/first\n").unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(20));
    drop(stdin);
    let _ = child.wait();
    assert_eq!(line.as_deref(), Ok("http://ex.org/first\n"));
}

#[test]
fn a_maildir_is_walked_and_each_message_read_as_mail() {
    let dir = TempDir::new("formats-maildir");
    let message = |n: u32| {
        format!(
            "Return-Path: <a@ex.org>\nFrom: a@ex.org\nTo: b@ex.org\nSubject: {n}\n\
             MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\
             Content-Transfer-Encoding: quoted-printable\n\n\
             Voir https://fr.wikipedia.org/wiki/Caf=C3=A9?utm_source=3Dmail{n}&u=\ntm=3D1\n"
        )
    };
    dir.write("Maildir/cur/1700000000.M1P1.host:2,S", message(1));
    dir.write("Maildir/new/1700000001.M2P2.host", message(2));
    dir.write("Maildir/tmp/.keep", "");
    let r = run_in(dir.path(), &["--json", "Maildir"], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    let hits = r.hits();
    let found: Vec<(&str, &str)> = hits
        .iter()
        .map(|h| (h["iri"].as_str().unwrap(), h["source"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "https://fr.wikipedia.org/wiki/Café?utm_source=mail1&utm=1",
                "text/plain"
            ),
            (
                "https://fr.wikipedia.org/wiki/Café?utm_source=mail2&utm=1",
                "text/plain"
            ),
        ]
    );
}

#[test]
fn a_format_told_by_the_first_lines_alone_is_announced() {
    let dir = TempDir::new("formats-guess");
    let message = "From: a@ex.org\nTo: b@ex.org\nSubject: x\n\nhttp://ex.org/m\n";
    dir.write("message", message);
    dir.write("named.eml", message);
    dir.write("page", "<!doctype html><p>http://ex.org/p</p>\n");
    let r = run_in(dir.path(), &["message", "named.eml", "page"], b"");
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.lines().collect::<Vec<_>>(),
        [
            "iriscan: message: note: read as mail: its first lines are a message header (--format text reads it as text)",
            "iriscan: page: note: read as HTML: it starts as an HTML page (--format text reads it as text)",
        ]
    );
    // Not with -s, nor when the format is given.
    let quiet = run_in(dir.path(), &["-s", "message", "page"], b"");
    assert_eq!(quiet.stderr, "");
    let given = run_in(dir.path(), &["--format", "mail", "message"], b"");
    assert_eq!(given.stderr, "");
}
