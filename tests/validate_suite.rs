//! `tests/suites/iri.validate.json` (oxiri, iri-string, Jena, rfc3987-syntax,
//! rfc3987 data; see the suite README §2) against [`iriscan::parse`].
//!
//! Every entry's `valid_iri` and `valid_iri_reference` must agree with
//! `parse(_, Rule::Iri / Rule::IriReference, Syntax::Iri)`; the other flags
//! a source asserts (`valid_uri`, `valid_absolute_iri`, `valid_irelative_ref`,
//! …) are checked against the matching rule and syntax, and `components`
//! against ours. Deliberate disagreements are listed in [`KNOWN`] with the
//! reason; a listed entry that starts agreeing fails the test (a ratchet, as
//! in rust-url's expected-failure lists), so the list can only shrink.

use iriscan::{Components, Rule, Syntax, parse};
use serde_json::Value;

use crate::support::cases;

/// (input, flag, why we differ from the source). Empty: 3987bis §2.2 and
/// the sources agree on every entry of the suite.
const KNOWN: &[(&str, &str, &str)] = &[];

/// The rule, syntax and "must be relative" of a suite flag.
fn flag_rule(flag: &str) -> Option<(Rule, Syntax, bool)> {
    Some(match flag {
        "valid_iri" => (Rule::Iri, Syntax::Iri, false),
        "valid_iri_reference" => (Rule::IriReference, Syntax::Iri, false),
        "valid_absolute_iri" => (Rule::AbsoluteIri, Syntax::Iri, false),
        "valid_irelative_ref" => (Rule::IriReference, Syntax::Iri, true),
        "valid_uri" => (Rule::Iri, Syntax::Uri, false),
        "valid_uri_reference" => (Rule::IriReference, Syntax::Uri, false),
        "valid_absolute_uri" => (Rule::AbsoluteIri, Syntax::Uri, false),
        "valid_relative_ref" => (Rule::IriReference, Syntax::Uri, true),
        _ => return None,
    })
}

fn verdict(input: &str, rule: Rule, syntax: Syntax, relative: bool) -> bool {
    match parse(input, rule, syntax) {
        Ok(c) => !relative || c.scheme.is_none(),
        Err(_) => false,
    }
}

/// Our component named as the suite names it (`user`/`password` are the
/// userinfo split at its first ':').
fn component<'a>(s: &'a str, c: &Components, name: &str) -> Option<&'a str> {
    let get = |r: &Option<std::ops::Range<usize>>| r.clone().map(|r| &s[r]);
    let userinfo = get(&c.userinfo);
    match name {
        "scheme" => get(&c.scheme),
        "authority" => get(&c.authority),
        "userinfo" => userinfo,
        "user" => userinfo.map(|u| u.split_once(':').map_or(u, |(a, _)| a)),
        "password" => userinfo.and_then(|u| u.split_once(':').map(|(_, b)| b)),
        "host" => get(&c.host),
        "port" => get(&c.port),
        "path" => Some(&s[c.path.clone()]),
        "query" => get(&c.query),
        "fragment" => get(&c.fragment),
        other => panic!("unknown component name {other:?} in the suite"),
    }
}

/// What one run over the suite found.
#[derive(Default)]
struct Report {
    /// flag → (entries carrying it, entries agreeing).
    checked: std::collections::BTreeMap<String, (usize, usize)>,
    /// Unlisted disagreements, listed entries that now agree, stale list rows.
    problems: Vec<String>,
    components_checked: usize,
}

fn run(cases: &[Value], known: &[(&str, &str, &str)]) -> Report {
    let mut report = Report::default();
    let mut known_seen = vec![false; known.len()];

    for case in cases {
        let input = case["input"].as_str().expect("input");
        let obj = case.as_object().expect("case object");
        for (flag, expected) in obj {
            let Some((rule, syntax, relative)) = flag_rule(flag) else {
                continue;
            };
            let expected = expected.as_bool().expect("boolean flag");
            let got = verdict(input, rule, syntax, relative);
            let entry = report.checked.entry(flag.clone()).or_default();
            entry.0 += 1;
            let listed = known.iter().position(|(i, f, _)| *i == input && f == flag);
            if let Some(k) = listed {
                known_seen[k] = true;
            }
            match (got == expected, listed) {
                (true, None) => entry.1 += 1,
                (true, Some(k)) => report.problems.push(format!(
                    "{input:?} {flag}: listed as a known difference ({}) but now agrees; \
                     remove it from KNOWN",
                    known[k].2
                )),
                (false, Some(_)) => {}
                (false, None) => {
                    let why = parse(input, rule, syntax)
                        .err()
                        .map_or("parsed".to_string(), |e| e.to_string());
                    report.problems.push(format!(
                        "{input:?} {flag}: expected {expected}, got {got} ({why}) [{}]",
                        case["source"]
                    ));
                }
            }
        }

        if let Some(Value::Object(want)) = case.get("components") {
            let c = parse(input, Rule::IriReference, Syntax::Iri)
                .unwrap_or_else(|e| panic!("{input:?} has components but fails: {e}"));
            for (name, value) in want {
                let got = component(input, &c, name);
                let want = value.as_str();
                if got != want {
                    report.problems.push(format!(
                        "{input:?} component {name}: expected {want:?}, got {got:?}"
                    ));
                }
            }
            report.components_checked += 1;
        }
    }
    for (k, seen) in known_seen.iter().enumerate() {
        if !seen {
            report
                .problems
                .push(format!("KNOWN row {:?} matches no suite entry", known[k]));
        }
    }
    report
}

#[test]
fn validate_suite_agrees_with_the_abnf() {
    let cases = cases("iri.validate.json");
    assert_eq!(cases.len(), 705, "suite size changed; review KNOWN");
    let report = run(&cases, KNOWN);
    for (flag, (n, agree)) in &report.checked {
        println!("{flag}: {agree}/{n} agree");
    }
    println!(
        "components: {} entries compared; {} known differences",
        report.components_checked,
        KNOWN.len()
    );
    assert!(
        report.problems.is_empty(),
        "{} problems:\n{}",
        report.problems.len(),
        report.problems.join("\n")
    );
    // The two flags every entry carries were all checked, and agree.
    assert_eq!(report.checked["valid_iri"], (705, 705));
    assert_eq!(report.checked["valid_iri_reference"], (705, 705));
    assert_eq!(report.components_checked, 206);
}

#[test]
fn ratchet_fails_when_a_listed_difference_starts_agreeing() {
    let cases: Vec<Value> = serde_json::from_str(
        r#"[{"input": "http://a/", "valid_iri": true, "valid_iri_reference": true},
            {"input": "http://a/ b", "valid_iri": true, "valid_iri_reference": false}]"#,
    )
    .unwrap();
    // Listed, but agrees: reported (besides the unlisted difference).
    let r = run(&cases, &[("http://a/", "valid_iri", "test")]);
    assert_eq!(r.problems.len(), 2, "{:?}", r.problems);
    assert!(r.problems[0].contains("now agrees"));
    // Listed and still differing: accepted; unlisted difference: reported.
    let r = run(&cases, &[("http://a/ b", "valid_iri", "test")]);
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let r = run(&cases, &[]);
    assert_eq!(r.problems.len(), 1);
    // A stale row is reported.
    let r = run(&cases, &[("nowhere", "valid_iri", "test")]);
    assert!(
        r.problems
            .iter()
            .any(|p| p.contains("matches no suite entry"))
    );
}
