//! The validator against the grammar automaton ([`iriscan::GrammarAutomaton`],
//! RFC 3987bis §2.2 transcribed rule by rule into a regular expression and
//! compiled to a DFA by `regex-automata`): the two share no code, and must
//! give the same verdict on every rule and syntax — on the RFC 3987 suite,
//! on the suites' other inputs, and on generated strings far longer than
//! the combinator oracle of `parse_props.rs` can judge (the automaton is
//! linear).

use std::sync::OnceLock;

use iriscan::{GrammarAutomaton, Rule, Syntax, parse};
use proptest::prelude::*;

use crate::support::cases;

const RULES: [Rule; 3] = [Rule::Iri, Rule::IriReference, Rule::AbsoluteIri];
const SYNTAXES: [Syntax; 4] = [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri];

/// The twelve automata, built once for every test thread.
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

fn check(s: &str) -> Result<(), TestCaseError> {
    for (rule, syntax, automaton) in automata() {
        let fast = parse(s, *rule, *syntax);
        prop_assert_eq!(
            fast.is_ok(),
            automaton.is_match(s),
            "{:?} {:?} {:?}: parse says {:?}",
            s,
            rule,
            syntax,
            fast.err().map(|e| e.to_string())
        );
    }
    Ok(())
}

/// Every input of every suite that holds strings to validate, map or
/// resolve (valid or not), in all twelve rules and syntaxes.
#[test]
fn agrees_on_the_suites() {
    let mut inputs: Vec<String> = Vec::new();
    for case in cases("iri.validate.json") {
        inputs.push(case["input"].as_str().expect("input").to_string());
    }
    for file in ["iri.to_uri.json", "uri.to_iri.json"] {
        for case in cases(file) {
            for key in ["input", "output", "iri", "uri"] {
                if let Some(s) = case.get(key).and_then(|v| v.as_str()) {
                    inputs.push(s.to_string());
                }
            }
        }
    }
    assert!(inputs.len() > 705, "{} inputs", inputs.len());
    let mut failures = Vec::new();
    for s in &inputs {
        if let Err(e) = check(s) {
            failures.push(e.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pieces of IRIs and of near-misses, with every class boundary of the
/// repertoires.
const TOKENS: &[&str] = &[
    "http",
    "s",
    "a",
    "Z",
    "1",
    "09",
    ":",
    "::",
    "//",
    "/",
    "?",
    "#",
    "@",
    "[",
    "]",
    "%",
    "%4",
    "%41",
    "%g1",
    ".",
    "..",
    "-",
    "+",
    "~",
    "_",
    "!",
    "=",
    "'",
    "v1",
    "V",
    "255",
    "256",
    "0",
    "1.2.3.4",
    "ffff",
    "12345",
    "é",
    "例",
    "\u{A0}",
    "\u{9F}",
    "\u{D7FF}",
    "\u{E000}",
    "\u{F8FF}",
    "\u{F900}",
    "\u{FDCF}",
    "\u{FDD0}",
    "\u{FDF0}",
    "\u{FFEF}",
    "\u{FFF0}",
    "\u{FFFD}",
    "\u{FFFE}",
    "\u{1FFFD}",
    "\u{1FFFE}",
    "\u{E0001}",
    "\u{E0FFF}",
    "\u{E1000}",
    "\u{F0000}",
    "\u{10FFFD}",
    "\u{10FFFF}",
    "\u{1F600}",
    "\u{61C}",
    "\u{200E}",
    "\u{202E}",
    "\u{2066}",
    " ",
    "\t",
    "\u{0}",
    "\u{1F}",
    "\u{7F}",
    "\u{85}",
    "{",
    "}",
    "^",
    "|",
    "\\",
    "`",
    "<",
    ">",
    "\"",
];

fn tokens(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..max).prop_map(|v| v.concat())
}

/// Tokens that every syntax but `Uri` allows in a path, for strings that
/// are valid often enough, with now and then any token.
fn mostly_good(max: usize) -> impl Strategy<Value = String> {
    const GOOD: &[&str] = &[
        "a", "Z", "1", "/", "%41", ".", "-", "~", "!", "=", "é", "例", ":", "@",
    ];
    let token = prop_oneof![
        20 => prop::sample::select(GOOD),
        1 => prop::sample::select(TOKENS),
    ];
    prop::collection::vec(token, 0..max).prop_map(|v| v.concat())
}

/// Shaped like IRIs: a scheme or none, an authority or none (sometimes a
/// bracketed host), then a path, query and fragment made of tokens.
fn iri_shaped() -> impl Strategy<Value = String> {
    let scheme = prop::sample::select(&["", "http:", "s:", "urn:", "1a:", "a+b-c.d:"][..]);
    let host = prop_oneof![
        mostly_good(6),
        prop::sample::select(
            &[
                "[::1]",
                "[1:2:3:4:5:6:7:8]",
                "[1:2:3:4:5:6:7]",
                "[::ffff:1.2.3.4]",
                "[v1.x]",
                "[v.x]",
                "[::1]]",
                "1.2.3.4",
                "256.1.1.1",
                "例え.jp",
            ][..]
        )
        .prop_map(str::to_string),
    ];
    let authority = prop::option::of((mostly_good(3), host, mostly_good(2)).prop_map(
        |(u, h, p)| {
            let user = if u.is_empty() {
                String::new()
            } else {
                format!("{u}@")
            };
            let port = if p.is_empty() {
                String::new()
            } else {
                format!(":{p}")
            };
            format!("//{user}{h}{port}")
        },
    ));
    let part = |max| prop_oneof![4 => mostly_good(max), 1 => tokens(max)];
    (scheme, authority, part(20), part(8), part(8)).prop_map(
        |(scheme, authority, path, query, fragment)| {
            format!(
                "{scheme}{}{path}?{query}#{fragment}",
                authority.unwrap_or_default()
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn agrees_on_token_strings(s in tokens(40)) {
        check(&s)?;
    }

    #[test]
    fn agrees_on_iri_shaped_strings(s in iri_shaped()) {
        check(&s)?;
        // Without the query or the fragment, and without both.
        let no_fragment = s.rsplit_once('#').map_or(s.as_str(), |(a, _)| a);
        check(no_fragment)?;
        check(no_fragment.rsplit_once('?').map_or(no_fragment, |(a, _)| a))?;
    }

    #[test]
    fn agrees_on_any_string(s in any::<String>()) {
        check(&s)?;
    }
}

/// Long inputs are judged in one linear pass: a 1 MB path, a 100 KB
/// IP-literal jumble, and a fault at the very end of a long valid IRI.
#[test]
fn agrees_on_long_inputs() {
    let long_path = format!("http://example.org/{}", "a/例/%41/".repeat(100_000));
    let jumble = format!("http://[{}]/", "1:".repeat(50_000));
    let late_fault = format!("{long_path}%4");
    for s in [&long_path, &jumble, &late_fault] {
        check(s).unwrap();
    }
    let (rule, syntax, iri) = &automata()[3];
    assert_eq!((*rule, *syntax), (Rule::Iri, Syntax::Iri));
    assert!(iri.is_match(&long_path) && !iri.is_match(&jumble) && !iri.is_match(&late_fault));
}

/// The generators reach both verdicts often enough to mean something.
#[test]
fn generators_reach_both_verdicts() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let iri = GrammarAutomaton::new(Rule::IriReference, Syntax::Text);
    let mut valid = 0;
    for _ in 0..1000 {
        let s = iri_shaped().new_tree(&mut runner).unwrap().current();
        valid += usize::from(iri.is_match(&s));
    }
    assert!(
        (150..900).contains(&valid),
        "{valid}/1000 shaped strings are valid"
    );
}
