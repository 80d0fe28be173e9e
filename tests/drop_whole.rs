//! Drop, never shorten (docs/rules.md §1.6): no valid hit is a strict
//! prefix of a candidate that failed validation. A candidate ends only by
//! the rules of §1.1–§1.4; a template such as
//! `http://user:secret@host:port/` fails validation and is dropped whole,
//! never reported as `http://user:secret@host`.
//!
//! The oracle, [`check_no_cut`], looks at what follows each valid hit: the
//! run of ASCII IRI characters after it would have been part of the same
//! candidate unless an end rule explains why it is not — trimmed
//! punctuation (§1.3), a closer that closes nothing in the hit, an opener
//! `[` `{` that nothing closes, a `[digits]` footnote mark (§1.2), a `,`
//! ending a DNS host (§1.1). Anything else right after a hit (`:port/`,
//! `x/`, `{port}/`, `{n}.example.org`) means the candidate was cut. It is
//! run on generated templates of manuals and code, and on the texts of the
//! existing cases (the extraction suites and the corpus).

use iriscan::{Finder, Kind};
use proptest::prelude::*;

use crate::extract_suites::SUITES;
use crate::support::cases;

/// Trimmed from the end of a candidate whatever precedes it (§1.3), the
/// opening bracket `(` among them, and `'` and `-`, which may be.
fn is_trimmed(c: char) -> bool {
    ".,;:!?*'-(".contains(c)
}

/// An ASCII character a candidate may span (IRI and LEIRI characters).
fn is_run_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#@!$&'()*+,;=%{}[]^".contains(c)
}

/// Whether the opener `open` is left unclosed in `s` (counting, which is
/// what matters for a hit whose brackets nest).
fn unclosed(s: &str, open: char, close: char) -> bool {
    s.matches(open).count() > s.matches(close).count()
}

/// Whether the opener that starts `s` is still open where a candidate
/// reading `s` would stop: at its end, or at a closer that closes nothing
/// (brackets nest).
fn opener_unclosed(s: &str) -> bool {
    let mut stack = Vec::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.last() != Some(&open) {
                    break;
                }
                stack.pop();
                if stack.is_empty() {
                    return false;
                }
            }
            _ => {}
        }
    }
    !stack.is_empty()
}

/// Why the valid hit `hit` (its text) followed by `rest` is not a strict
/// prefix of a longer candidate, or an error naming the cut.
fn explained(hit: &str, rest: &str) -> Result<(), String> {
    let run: String = rest.chars().take_while(|&c| is_run_char(c)).collect();
    // A `,` ending a DNS host: the hit ends in its authority.
    if run.starts_with(',')
        && !hit
            .split_once("//")
            .is_some_and(|(_, a)| a.contains(['/', '?', '#']))
    {
        return Ok(());
    }
    let after_trim = run.trim_start_matches(is_trimmed);
    let Some(c) = after_trim.chars().next() else {
        // Nothing, or only trimmed punctuation, follows.
        return Ok(());
    };
    match c {
        // An opener that nothing closes after it, or a footnote mark.
        '[' | '{' => {
            let tail = &after_trim[1..];
            let footnote = c == '['
                && tail
                    .split_once(']')
                    .is_some_and(|(d, _)| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            if footnote || opener_unclosed(after_trim) {
                return Ok(());
            }
        }
        ')' if !unclosed(hit, '(', ')') => return Ok(()),
        ']' if !unclosed(hit, '[', ']') => return Ok(()),
        '}' if !unclosed(hit, '{', '}') => return Ok(()),
        _ => {}
    }
    Err(format!("{hit:?} is cut from {hit}{run}"))
}

/// Checks every valid `scheme:` or `www.` hit of `text` against
/// [`explained`].
fn check_no_cut(text: &str) -> Result<(), String> {
    for h in Finder::new().find_iter(text.as_bytes()) {
        if !h.is_valid() || h.is_truncated() || h.kind() == Kind::Email {
            continue;
        }
        explained(h.text(), &text[h.end()..]).map_err(|e| format!("{e} in {text:?}"))?;
    }
    Ok(())
}

const SCHEMES: &[&str] = &["http", "https", "ftp", "git", "ssh", "foo", "ws", "HTTP"];
const USERINFO: &[&str] = &[
    "",
    "user@",
    "user:secret@",
    "user:pass@",
    "{user}@",
    "[[user][:pass]@]",
    "[user@]",
    "$USER@",
    "%s@",
    "${user}:${pass}@",
];
const HOSTS: &[&str] = &[
    "host",
    "example.org",
    "a.example",
    "{host}",
    "mirror{n}.example.org",
    "$HOST",
    "%s",
    "HOSTNAME",
    "[::1]",
    "[host]",
    "${host}",
    "localhost",
    "www.example.com",
    "host.example,mirror.example",
    "127.0.0.1",
];
const PORTS: &[&str] = &[
    "", ":port", ":{port}", ":80", ":80x", ":$PORT", ":%d", "[:port]", ":8080", ":PORT", ":8%30",
    ":${port}", ":<port>",
];
const PATHS: &[&str] = &[
    "",
    "/",
    "/path",
    "/{path}",
    "/[path]",
    "/%s",
    "/$1",
    "/x?q={q}",
    "/#/#room:example.org",
    "/x[1]",
    "/a[b",
    "/{a",
    "/(x)",
    "/x.",
    "/file.tar.gz",
];
const BEFORE: &[&str] = &[
    "", "see ", "f\"", "'", "(", "<", "`", "\\n", "[", "{", "URL: ",
];
const AFTER: &[&str] = &[
    "", " ", ".", "\"", "'", ")", ">", "`", ", more", "]", "}", ":",
];

/// A template as manuals and code write them, in some context.
fn template() -> impl Strategy<Value = String> {
    (
        prop::sample::select(BEFORE),
        prop::sample::select(SCHEMES),
        prop::sample::select(USERINFO),
        prop::sample::select(HOSTS),
        prop::sample::select(PORTS),
        prop::sample::select(PATHS),
        prop::sample::select(AFTER),
        any::<bool>(),
    )
        .prop_map(|(b, s, u, h, p, path, a, www)| {
            if www && u.is_empty() {
                format!("{b}www.{h}{p}{path}{a}")
            } else {
                format!("{b}{s}://{u}{h}{p}{path}{a}")
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(4000),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_hit_is_a_strict_prefix_of_a_failed_candidate(t in template(), u in template()) {
        let text = format!("{t} {u}");
        prop_assert!(check_no_cut(&text).is_ok(), "{}", check_no_cut(&text).unwrap_err());
    }
}

/// The issue's templates, each no link at all.
#[test]
fn the_issues_templates() {
    for t in [
        "http://user:secret@host:port/",
        "ftp://[[user][:pass]@]host[:port]/",
        "f\"http://localhost:{port}/\"",
        "https://mirror{n}.example.org",
        "http://example.com:80x/",
    ] {
        check_no_cut(t).unwrap();
        assert!(
            Finder::new().find_iter(t.as_bytes()).all(|h| !h.is_valid()),
            "{t}"
        );
    }
}

/// The oracle itself catches the cuts iriscan used to make.
#[test]
fn the_oracle_sees_cuts() {
    for (hit, rest) in [
        ("http://user:secret@host", ":port/"),
        ("http://example.com:80", "x/"),
        ("http://localhost", ":{port}/\""),
        ("https://mirror", "{n}.example.org"),
        ("ftp://[[user][:pass]@", "]host[:port]/"),
    ] {
        assert!(explained(hit, rest).is_err(), "{hit}{rest}");
    }
    for (hit, rest) in [
        ("http://a.example", ",b.example"),
        ("http://a.example/b", ".) c"),
        ("http://a.example/", "{x y"),
        ("http://example.org", "[1]."),
        ("http://a.example/(b", "[c)d]"),
        ("http://a.example/x", ".{ y"),
    ] {
        assert!(explained(hit, rest).is_ok(), "{hit}{rest}");
    }
}

/// The texts of the existing cases: the seven extraction suites and the
/// corpus documents.
#[test]
fn existing_cases_have_no_cut_hits() {
    let mut checked = 0;
    for suite in SUITES {
        for case in cases(suite) {
            let text = case["text"].as_str().unwrap_or_default();
            check_no_cut(text).unwrap_or_else(|e| panic!("{suite}: {e}"));
            checked += 1;
        }
    }
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut docs = vec![root.join("example.txt")];
    for e in std::fs::read_dir(root.join("charsets")).expect("corpus/charsets") {
        let p = e.expect("entry").path();
        if p.to_string_lossy().ends_with(".utf8.txt") {
            docs.push(p);
        }
    }
    for p in docs {
        let text =
            String::from_utf8_lossy(&std::fs::read(&p).expect("corpus document")).into_owned();
        check_no_cut(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        checked += 1;
    }
    assert!(checked > 900, "{checked}");
}
