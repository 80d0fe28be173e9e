//! `--deny CODE,…` and `--no-warn` (docs/rules.md §7), run as a program.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_iriscan");

/// Runs iriscan with `args` on `input`: (status, stdout, stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run that fails on its arguments exits without reading its input:
    // the write may then find the pipe closed.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const MAIL: &str = "Hello, log in at http://www.paypal.com:secure@evil.example/ or \
                    http://аррӏе.com/ or javascript://x/%0Aalert(1) — or just https://example.org/ok.\n";

#[test]
fn json_lists_the_warnings_as_code_and_message() {
    let (status, out, _) = run(&["--json"], MAIL);
    assert_eq!(status, 0);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let warnings = |i: usize| -> Vec<String> {
        records[i]["warnings"]
            .as_array()
            .map(|a| a.iter().map(|w| w.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default()
    };
    assert_eq!(records.len(), 4, "{out}");
    assert_eq!(
        warnings(0),
        ["userinfo: the userinfo before @ looks like a host name"]
    );
    assert!(
        warnings(1).iter().any(|w| w.starts_with("confusable: ")),
        "{:?}",
        warnings(1)
    );
    assert!(warnings(2).iter().any(|w| w.starts_with("scheme: ")));
    assert!(records[3].get("warnings").is_none());
}

#[test]
fn deny_drops_hits_with_those_warnings() {
    let (status, out, _) = run(&["--deny", "userinfo,confusable,scheme"], MAIL);
    assert_eq!(status, 0);
    assert_eq!(out, "https://example.org/ok\n");
    let (_, out, _) = run(&["--deny=scheme"], MAIL);
    assert_eq!(out.lines().count(), 3, "{out}");
    // Counting counts what is left.
    let (_, out, _) = run(&["--count", "--deny", "userinfo,confusable"], MAIL);
    assert_eq!(out, "2\n");
    // Nothing left: the exit status of no hit.
    let (status, out, _) = run(&["--deny", "scheme"], "javascript://x/%0Aalert(1)\n");
    assert_eq!((status, out.as_str()), (1, ""));
}

#[test]
fn an_unknown_code_is_an_error_listing_the_valid_ones() {
    let (status, out, err) = run(&["--deny", "userinfo,homograph"], MAIL);
    assert_eq!(status, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("homograph"), "{err}");
    for code in [
        "leiri",
        "truncated",
        "idna",
        "bidi",
        "mixed-script",
        "confusable",
        "userinfo",
        "overlong",
        "scheme",
        "invisible",
    ] {
        assert!(err.contains(code), "{code}: {err}");
    }
}

#[test]
fn no_warn_omits_the_warnings() {
    let (_, out, _) = run(&["--json", "--no-warn"], MAIL);
    assert_eq!(out.lines().count(), 4);
    assert!(!out.contains("\"warnings\""), "{out}");
    // Nor the truncation notice of plain output.
    let long = format!("http://example.com/{}\n", "a".repeat(700));
    let (_, _, err) = run(&["--max-len", "512"], &long);
    assert!(err.contains("truncated"), "{err}");
    let (_, out, err) = run(&["--max-len", "512", "--no-warn"], &long);
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.len(), 513);
}
