//! The link-extraction suites of other projects (tests/suites/
//! extract.links.*.json): every case whose expected links all have a
//! scheme. The suites contradict each other in places (`|` inside links,
//! `'s`, unknown schemes, TLD lists), so a fixed list of known differences
//! with a reason each lives in `tests/suites/extract.known-differences.json`;
//! docs/rules.md decides. The list is a ratchet: a listed case that starts
//! passing fails the test, so the list only ever shrinks.

use std::collections::BTreeMap;

use iriscan::{Finder, Kind};
use serde_json::Value;

use crate::support::{cases, suite_path};

/// The link-extraction suites of other projects (their provenance is in
/// `tests/data/`), also read by the drop-whole property test.
pub(crate) const SUITES: &[&str] = &[
    "extract.links.autolinker.json",
    "extract.links.cmark-gfm.json",
    "extract.links.linkify-it.json",
    "extract.links.linkifyjs.json",
    "extract.links.mozilla-txttohtml.json",
    "extract.links.robinst-linkify.json",
    "extract.links.twitter-text.json",
];

/// The finder configured as close to the suite's own conventions as our
/// switches allow (e-mail and `www.` on or off).
fn finder_for(suite: &str, case: &Value) -> Finder {
    let mut f = Finder::new();
    if suite.contains("twitter-text") {
        // twitter-text never extracts e-mail addresses.
        f = f.email(false);
    }
    if let Some(opts) = case.get("options") {
        let kinds: Vec<&str> = opts["kinds"]
            .as_array()
            .map(|k| k.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if !kinds.is_empty() {
            f = f.email(kinds.contains(&"email"));
            if !kinds.contains(&"url") {
                f = f.www(false);
            }
        }
        if opts["url_must_have_scheme"] == Value::Bool(true) {
            f = f.www(false);
        }
    }
    f
}

/// Whether a case is in scope: at least one expected link, all with a
/// scheme, and not one of linkify's ASCII-only (`url_can_be_iri: false`)
/// configurations.
fn in_scope(case: &Value) -> bool {
    let tags = case["link_tags"].as_array().cloned().unwrap_or_default();
    let iri_ok = case
        .get("options")
        .is_none_or(|o| o["url_can_be_iri"] != Value::Bool(false));
    iri_ok && !tags.is_empty() && tags.iter().all(|t| t["has_scheme"] == Value::Bool(true))
}

/// Our valid hits, as text, for a case; URL-only suites ignore e-mail hits
/// of `kinds: [url]` configurations through `finder_for`.
fn found(suite: &str, case: &Value) -> Vec<String> {
    let text = case["text"].as_str().unwrap_or_default();
    finder_for(suite, case)
        .find_iter(text.as_bytes())
        .filter(|h| h.is_valid())
        .filter(|h| !(suite.contains("twitter-text") && h.kind() == Kind::Email))
        .map(|h| h.text().to_string())
        .collect()
}

fn passes(case: &Value, got: &[String]) -> bool {
    let expected: Vec<String> = case["expected"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    match case["match_mode"].as_str() {
        Some("first") => got.first() == expected.first(),
        Some("contains") => expected.iter().all(|e| got.contains(e)),
        Some("none") => got.is_empty(),
        _ => got == expected,
    }
}

/// A case's identity in the known-differences list.
fn key(suite: &str, case: &Value) -> (String, String, String) {
    (
        suite.to_string(),
        case["source"].as_str().unwrap_or_default().to_string(),
        case["text"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn extraction_suites_scheme_cases() {
    let known_path = suite_path("extract.known-differences.json");
    let known: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&known_path).expect("known differences"))
            .expect("known differences JSON");
    let mut listed: BTreeMap<(String, String, String), String> = BTreeMap::new();
    for k in &known {
        let reason = k["reason"].as_str().unwrap_or_default();
        assert!(
            !reason.is_empty(),
            "every known difference has a reason: {k}"
        );
        let id = (
            k["suite"].as_str().unwrap_or_default().to_string(),
            k["source"].as_str().unwrap_or_default().to_string(),
            k["text"].as_str().unwrap_or_default().to_string(),
        );
        assert!(
            listed.insert(id, reason.to_string()).is_none(),
            "listed twice: {k}"
        );
    }

    let (mut total, mut passed) = (0, 0);
    let mut unexpected = Vec::new();
    let mut now_passing = Vec::new();
    let mut seen_listed = 0;
    for suite in SUITES {
        let (mut t, mut p) = (0, 0);
        for case in cases(suite) {
            if !in_scope(&case) {
                continue;
            }
            t += 1;
            let got = found(suite, &case);
            let ok = passes(&case, &got);
            let id = key(suite, &case);
            let is_listed = listed.contains_key(&id);
            seen_listed += usize::from(is_listed);
            match (ok, is_listed) {
                (true, false) => p += 1,
                (true, true) => now_passing.push(format!("{id:?}")),
                (false, true) => {}
                (false, false) => unexpected.push(format!(
                    "{suite} {}: {:?}\n    expected ({}) {}\n    got {:?}",
                    case["source"], case["text"], case["match_mode"], case["expected"], got
                )),
            }
        }
        println!("{suite}: {p}/{t}");
        total += t;
        passed += p;
    }
    println!(
        "scheme-ful cases: {passed}/{total} pass, {} known differences",
        listed.len()
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        now_passing.is_empty(),
        "listed as known differences but passing now — remove them:\n{}",
        now_passing.join("\n")
    );
    assert_eq!(
        seen_listed,
        listed.len(),
        "the known-differences list names cases that are not in scope"
    );
    // The foundation issue's bar: at least 96% of the scheme-ful cases.
    assert!(passed * 100 >= total * 96, "{passed}/{total} is below 96%");
}
