//! Normalization ([`iriscan::normalize`], [`iriscan::equivalent`]) against
//! `tests/suites/iri.normalize.json` (RFC 3986 §6 and RFC 3987 §5.3
//! examples, iri-string, Jena, python rfc3986, url-normalize; see the suite
//! README §5), plus property tests.
//!
//! Each profile runs under the configuration that matches its convention
//! (see [`config`]). Where a source follows a convention we deliberately do
//! not, the case is in [`DELIBERATE`] with what we give instead and why;
//! that list is a ratchet: a listed case that starts agreeing with the
//! suite, or that stops giving what the row says, fails the test.
//!
//! Every full-IRI case also carries `matches_reference`, the configurations
//! of the suite's own small RFC normalizer (IRI/URI form × syntax /
//! syntax+scheme) that reproduce `expected`; we check that our normalizer
//! gives `expected` under each of them too, except where that reference
//! normalizer itself cannot be followed (it does no IDNA and keeps non-ASCII
//! characters in its URI form; ours writes a URI).

use std::collections::BTreeMap;

use iriscan::{
    Components, HostMapping, IriOptions, NormalForm, NormalizationLevel, NormalizeOptions, Rule,
    Syntax, UriOptions, equivalent, normalize, parse, remove_dot_segments, to_iri, to_uri,
};
use proptest::prelude::*;
use serde_json::Value;

use crate::support::cases;

use NormalForm::{Iri, Uri};
use NormalizationLevel::{Scheme, Simple};

fn opts(level: NormalizationLevel, form: NormalForm, nfc: bool) -> NormalizeOptions {
    NormalizeOptions::new().level(level).form(form).nfc(nfc)
}

const SYNTAX: NormalizationLevel = NormalizationLevel::Syntax;

/// The result, or the error as text (a suite case may expect a string we
/// cannot give because the input is invalid).
fn run(input: &str, o: &NormalizeOptions) -> String {
    match normalize(input, o) {
        Ok(s) => s.into_owned(),
        Err(e) => format!("error: {e}"),
    }
}

// ---------------------------------------------------------------------
// The RFC examples, by name.

#[test]
fn rfc3987_5_3_2_syntax_based_example() {
    let a = "example://a/b/c/%7Bfoo%7D/rosé";
    let b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9";
    for form in [Iri, Uri] {
        assert!(equivalent(a, b, &opts(SYNTAX, form, false)).unwrap());
    }
    assert_eq!(
        normalize(b, &opts(SYNTAX, Iri, false)).unwrap(),
        "example://a/b/c/%7Bfoo%7D/rosé"
    );
    assert_eq!(
        normalize(b, &opts(SYNTAX, Uri, false)).unwrap(),
        "example://a/b/c/%7Bfoo%7D/ros%C3%A9"
    );
    assert!(!equivalent(a, b, &opts(Simple, Iri, false)).unwrap());
}

#[test]
fn rfc3986_6_2_2_1_case_example() {
    assert_eq!(
        normalize("HTTP://www.EXAMPLE.com/", &NormalizeOptions::new()).unwrap(),
        "http://www.example.com/"
    );
}

#[test]
fn rfc3986_6_2_3_four_equivalent_http_forms() {
    let forms = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for form in [Iri, Uri] {
        let o = opts(Scheme, form, false);
        for f in forms {
            assert_eq!(normalize(f, &o).unwrap(), "http://example.com/", "{f}");
        }
        // "/?" and "#" are significant.
        assert!(!equivalent("http://example.com/?", "http://example.com/", &o).unwrap());
        assert!(!equivalent("http://example.com/#", "http://example.com/", &o).unwrap());
        // Protocol-based only (a redirect): not ours.
        assert!(!equivalent("http://example.com/data", "http://example.com/data/", &o).unwrap());
    }
    // Only the scheme rung makes them one.
    let syntax = NormalizeOptions::new();
    assert!(!equivalent(forms[0], forms[1], &syntax).unwrap());
    assert!(!equivalent(forms[2], forms[1], &syntax).unwrap());
    assert!(!equivalent(forms[3], forms[1], &syntax).unwrap());
}

#[test]
fn rfc3987_5_3_2_3_tilde_user() {
    let o = NormalizeOptions::new();
    for s in [
        "http://example.org/~user",
        "http://example.org/%7euser",
        "http://example.org/%7Euser",
    ] {
        assert_eq!(normalize(s, &o).unwrap(), "http://example.org/~user");
    }
}

#[test]
fn rfc3987_5_3_3_resume_idn_equivalence() {
    let (a, b) = (
        "http://résumé.example.org",
        "http://xn--rsum-bpad.example.org",
    );
    for form in [Iri, Uri] {
        assert!(equivalent(a, b, &opts(Scheme, form, false)).unwrap());
        assert!(!equivalent(a, b, &opts(SYNTAX, form, false)).unwrap());
    }
}

#[test]
fn rfc3987_5_3_2_2_nfc_example_only_with_nfc() {
    let nfc = "http://www.example.org/r\u{E9}sum\u{E9}.html";
    let nfd = "http://www.example.org/re\u{301}sume\u{301}.html";
    for form in [Iri, Uri] {
        assert!(!equivalent(nfc, nfd, &opts(SYNTAX, form, false)).unwrap());
        assert!(!equivalent(nfc, nfd, &opts(Scheme, form, false)).unwrap());
        assert!(equivalent(nfc, nfd, &opts(SYNTAX, form, true)).unwrap());
        assert!(equivalent(nfc, nfd, &opts(Scheme, form, true)).unwrap());
    }
}

// ---------------------------------------------------------------------
// The suite.

/// Our configuration for a profile (and the case's `mode`): the one that
/// follows the source's convention.
fn config(case: &Value) -> Option<NormalizeOptions> {
    let mode = case["mode"].as_str();
    Some(match case["profile"].as_str()? {
        // RFC examples: syntax-based, IRI form unless the case is the
        // URI-form comparison key.
        "rfc-syntax" if mode == Some("uri") => opts(SYNTAX, Uri, false),
        "rfc-syntax" => opts(SYNTAX, Iri, false),
        // "also scheme-based normalization for http".
        "rfc-scheme" => opts(Scheme, Iri, false),
        "nfc" => opts(SYNTAX, Iri, true),
        // Syntax-based only; IRI mode decodes UTF-8, URI mode does not.
        "iri-string" if mode == Some("uri") => opts(SYNTAX, Uri, false),
        "iri-string" => opts(SYNTAX, Iri, false),
        // Syntax + scheme-based for http/https.
        "jena-iri3986" => opts(Scheme, Iri, false),
        // A URL canonicalizer: scheme rung, URI output (IDNA hosts,
        // percent-encoded non-ASCII), NFC.
        "url-normalize" => opts(Scheme, Uri, true),
        _ => return None,
    })
}

/// The python rfc3986 cases test helpers that work on one component; we
/// run the component through `normalize` inside a minimal IRI (URI form:
/// those helpers never decode UTF-8) and take it back out. The path cases
/// test `remove_dot_segments`, the step normalization uses.
fn run_component(case: &Value) -> String {
    let input = case["input"].as_str().expect("input");
    let o = opts(SYNTAX, Uri, false);
    match case["component"].as_str().expect("component") {
        "path (remove_dot_segments)" => remove_dot_segments(input),
        "authority" | "host" => {
            let out = run(&format!("s://{input}/"), &o);
            match out.strip_prefix("s://").and_then(|s| s.strip_suffix('/')) {
                Some(x) => x.to_owned(),
                None => out,
            }
        }
        "percent-encoding case" => {
            let out = run(&format!("s:{input}"), &o);
            out.strip_prefix("s:").map_or(out.clone(), str::to_owned)
        }
        "scheme" => {
            let out = run(&format!("{input}:"), &o);
            out.strip_suffix(':').map_or(out.clone(), str::to_owned)
        }
        other => panic!("unknown component {other}"),
    }
}

/// (profile, input, what we give instead, why). One row per case whose
/// convention we deliberately do not follow.
const DELIBERATE: &[(&str, &str, &str, &str)] = &[
    (
        "iri-string",
        "https://example.com:/",
        "https://example.com:/",
        "empty port: RFC 3987 §5.3.3 / RFC 3986 §6.2.3 remove it at the scheme rung (we do, for every scheme), not at the syntax rung",
    ),
    (
        "jena-iri3986",
        "http://host/foobar///",
        "http://host/foobar///",
        "collapsing trailing slashes is not an RFC step: empty segments are significant",
    ),
    (
        "python-rfc3986",
        "[::1%eth0]",
        "error: input is not an IRI reference: invalid character '%' at byte 8 in IPv6address",
        "RFC 6874 zone IDs are not in the RFC 3986/3987 grammar: invalid input",
    ),
    (
        "python-rfc3986",
        "[::1%25]",
        "error: input is not an IRI reference: invalid character '%' at byte 8 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "[::1%%25]",
        "error: input is not an IRI reference: invalid character '%' at byte 8 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "[::1%25%25]",
        "error: input is not an IRI reference: invalid character '%' at byte 8 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "[::Af%Ff]",
        "error: input is not an IRI reference: invalid character '%' at byte 9 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "[::Af%%Ff]",
        "error: input is not an IRI reference: invalid character '%' at byte 9 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "[::Af%25Ff]",
        "error: input is not an IRI reference: invalid character '%' at byte 9 in IPv6address",
        "RFC 6874 zone ID: invalid input",
    ),
    (
        "python-rfc3986",
        "%3athis_should_be_lowercase%DF%ab%4c",
        "%3Athis_should_be_lowercase%DF%ABL",
        "that helper only fixes hex case; percent-encoding normalization also decodes %4C (unreserved 'L', §6.2.2.2)",
    ),
    (
        "url-normalize",
        "//www.foo.com/",
        "//www.foo.com/",
        "a network-path reference takes its scheme from the base; inventing https changes what it identifies",
    ),
    (
        "url-normalize",
        "/foo//",
        "/foo//",
        "collapsing // in paths is not an RFC step: empty segments are significant",
    ),
    (
        "url-normalize",
        "/foo///bar//",
        "/foo///bar//",
        "collapsing // in paths is not an RFC step: empty segments are significant",
    ),
    (
        "url-normalize",
        "http://:@example.com/",
        "http://:@example.com/",
        "userinfo delimiters are significant (RFC 3986 §6.2.3)",
    ),
    (
        "url-normalize",
        "http://@example.com/",
        "http://@example.com/",
        "an empty userinfo's '@' is significant (RFC 3986 §6.2.3)",
    ),
    (
        "url-normalize",
        "http://example.com/#!5753509/hello-world",
        "http://example.com/#!5753509/hello-world",
        "the fragment is never subject to scheme-based normalization (§5.3.3); #! rewriting is a crawler convention",
    ),
    (
        "url-normalize",
        "http://www.example.com./",
        "http://www.example.com./",
        "a trailing root dot is a different host string (HTTP Host, TLS names); not an RFC step",
    ),
    (
        "url-normalize",
        "http://www.foo.com.:81/foo",
        "http://www.foo.com.:81/foo",
        "a trailing root dot is a different host string; not an RFC step",
    ),
    (
        "url-normalize",
        "http://www.foo.com./foo/bar.html",
        "http://www.foo.com./foo/bar.html",
        "a trailing root dot is a different host string; not an RFC step",
    ),
    (
        "url-normalize",
        "пример.испытание/Служебная:Search/Test",
        "%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D0%B8%D1%81%D0%BF%D1%8B%D1%82%D0%B0%D0%BD%D0%B8%D0%B5/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:Search/Test",
        "a relative path, not a host: guessing scheme and host changes what it identifies",
    ),
    (
        "url-normalize",
        "http:example.com",
        "http:example.com",
        "a rootless path is not an authority (RFC 3986 §3); guessing one changes what it identifies",
    ),
    (
        "url-normalize",
        "http:example.com/path",
        "http:example.com/path",
        "a rootless path is not an authority (RFC 3986 §3)",
    ),
    (
        "url-normalize",
        "ftp:test.com/files",
        "ftp:test.com/files",
        "a rootless path is not an authority (RFC 3986 §3)",
    ),
    (
        "url-normalize",
        "https:www.example.com",
        "https:www.example.com",
        "a rootless path is not an authority (RFC 3986 §3)",
    ),
];

/// Equivalence cases we deliberately answer differently: (a, b, why).
/// (`mailto:Joe@Example.COM` ≡ `mailto:Joe@example.com` was one until the
/// scheme rung learnt that a mailto domain is case-insensitive.)
const DELIBERATE_EQUIVALENCE: &[(&str, &str, &str)] = &[];

/// Whether the suite's reference normalizer's configuration `cfg` can be
/// held against ours for this input: it keeps non-ASCII characters in its
/// URI form (ours writes a URI) and does no IDNA (ours does at the scheme
/// rung).
fn reference_comparable(cfg: &str, input: &str) -> bool {
    let uri = cfg.starts_with("uri");
    let scheme = cfg.ends_with("scheme");
    let c = Components::split(input);
    let host = c.host.map_or("", |h| &input[h]);
    (!uri || input.is_ascii()) && (!scheme || host.is_ascii())
}

fn reference_config(cfg: &str) -> NormalizeOptions {
    match cfg {
        "iri_syntax" => opts(SYNTAX, Iri, false),
        "iri_syntax_scheme" => opts(Scheme, Iri, false),
        "uri_syntax" => opts(SYNTAX, Uri, false),
        "uri_syntax_scheme" => opts(Scheme, Uri, false),
        other => panic!("unknown reference configuration {other}"),
    }
}

#[test]
fn normalize_suite() {
    let cases = cases("iri.normalize.json");
    assert_eq!(cases.len(), 238, "suite size changed; review DELIBERATE");
    let mut problems = Vec::new();
    // profile -> (cases, pass, deliberate)
    let mut counts: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut listed_seen = vec![false; DELIBERATE.len()];
    let (mut uri_mode, mut uri_mode_pass) = (0, 0);
    let (mut reference_checks, mut reference_pass, mut reference_skipped) = (0, 0, 0);

    for case in cases.iter().filter(|c| c["kind"] == "normalize") {
        let profile = case["profile"].as_str().expect("profile");
        let input = case["input"].as_str().expect("input");
        let expected = case["expected"].as_str().expect("expected");
        let got = if profile == "python-rfc3986" {
            run_component(case)
        } else {
            run(input, &config(case).expect("known profile"))
        };
        let mut agrees = got == expected;
        // iri-string's URI-mode expectation, where it gives one.
        if let Some(want) = case["expected_uri_mode"].as_str() {
            uri_mode += 1;
            let got_uri = run(input, &opts(SYNTAX, Uri, false));
            if got_uri == want {
                uri_mode_pass += 1;
            } else {
                agrees = false;
                if got == expected {
                    problems.push(format!(
                        "{profile} {input:?}: URI mode gives {got_uri:?}, expected {want:?}"
                    ));
                }
            }
        }
        // The reference normalizer's configurations that reproduce it.
        if let Some(cfgs) = case["matches_reference"].as_array() {
            for cfg in cfgs.iter().map(|c| c.as_str().expect("configuration")) {
                if !reference_comparable(cfg, input) {
                    reference_skipped += 1;
                    continue;
                }
                reference_checks += 1;
                let g = run(input, &reference_config(cfg));
                if g == expected {
                    reference_pass += 1;
                } else {
                    problems.push(format!(
                        "{profile} {input:?} under {cfg}: got {g:?}, expected {expected:?}"
                    ));
                }
            }
        }
        let entry = counts.entry(profile).or_default();
        entry.0 += 1;
        let row = DELIBERATE
            .iter()
            .position(|(p, i, ..)| *p == profile && *i == input);
        match (agrees, row) {
            (true, None) => entry.1 += 1,
            (false, None) => problems.push(format!(
                "{profile} {input:?}: got {got:?}, expected {expected:?}"
            )),
            (true, Some(_)) => problems.push(format!(
                "{profile} {input:?} now agrees with the suite: remove it from DELIBERATE"
            )),
            (false, Some(k)) => {
                entry.2 += 1;
                listed_seen[k] = true;
                if got != DELIBERATE[k].2 {
                    problems.push(format!(
                        "{profile} {input:?}: DELIBERATE says {:?}, got {got:?}",
                        DELIBERATE[k].2
                    ));
                }
            }
        }
    }

    // Equivalence.
    let (mut eq_cases, mut eq_pass, mut eq_deliberate) = (0, 0, 0);
    for case in cases.iter().filter(|c| c["kind"] == "equivalence") {
        eq_cases += 1;
        let a = case["a"].as_str().expect("a");
        let b = case["b"].as_str().expect("b");
        let want = case["equivalent"].as_bool().expect("equivalent");
        let level = case["level"].as_str().expect("level");
        let (lvl, nfc) = match level {
            l if l.starts_with("syntax") => (SYNTAX, false),
            "nfc" => (SYNTAX, true),
            // Protocol-based is out of scope: the highest rung we have must
            // not claim more than the suite.
            l if l.starts_with("scheme") || l == "protocol" => (Scheme, false),
            other => panic!("unknown level {other}"),
        };
        let answers: Vec<bool> = [Iri, Uri]
            .iter()
            .map(|&f| equivalent(a, b, &opts(lvl, f, nfc)).expect("valid inputs"))
            .collect();
        if answers[0] != answers[1] {
            problems.push(format!("{a:?} ~ {b:?}: the IRI and URI forms disagree"));
        }
        let listed = DELIBERATE_EQUIVALENCE
            .iter()
            .any(|(x, y, _)| *x == a && *y == b);
        match (answers[0] == want, listed) {
            (true, false) => eq_pass += 1,
            (false, true) => eq_deliberate += 1,
            (true, true) => problems.push(format!(
                "{a:?} ~ {b:?} now agrees: remove it from DELIBERATE_EQUIVALENCE"
            )),
            (false, false) => problems.push(format!(
                "{a:?} ~ {b:?} at {level}: expected {want}, got {}",
                answers[0]
            )),
        }
        if level == "nfc" {
            // The RFC's point: without NFC they are different.
            assert_ne!(a, b);
            assert!(!equivalent(a, b, &opts(Scheme, Iri, false)).unwrap());
        }
    }

    // is_normalized: normalized exactly when normalization gives the input
    // back (borrowed).
    let (mut isn_cases, mut isn_pass) = (0, 0);
    for case in cases.iter().filter(|c| c["kind"] == "is_normalized") {
        isn_cases += 1;
        let input = case["input"].as_str().expect("input");
        let want = case["is_normalized_default"].as_bool().expect("flag");
        let out = normalize(input, &opts(SYNTAX, Iri, false)).expect("valid");
        let borrowed = matches!(out, std::borrow::Cow::Borrowed(_));
        if (out == input) == want && borrowed == want {
            isn_pass += 1;
        } else {
            problems.push(format!(
                "is_normalized {input:?}: expected {want}, got {out:?}"
            ));
        }
    }

    for (profile, (n, pass, deliberate)) in &counts {
        println!("{profile}: {pass}/{n} pass, {deliberate} deliberate differences");
    }
    println!("iri-string URI mode: {uri_mode_pass}/{uri_mode}");
    println!(
        "reference normalizer configurations: {reference_pass}/{reference_checks} agree \
         ({reference_skipped} not comparable: non-ASCII under its URI form or IDN hosts)"
    );
    println!("equivalence: {eq_pass}/{eq_cases} pass, {eq_deliberate} deliberate");
    println!("is_normalized: {isn_pass}/{isn_cases}");
    for (p, i, instead, why) in DELIBERATE {
        println!("deliberate {p} {i:?} -> {instead:?}: {why}");
    }
    for (a, b, why) in DELIBERATE_EQUIVALENCE {
        println!("deliberate equivalence {a:?} ~ {b:?}: {why}");
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    for (k, seen) in listed_seen.iter().enumerate() {
        assert!(seen, "DELIBERATE row {:?} matches no case", DELIBERATE[k].1);
    }
    let total: usize = counts.values().map(|c| c.0).sum();
    let pass: usize = counts.values().map(|c| c.1).sum();
    let deliberate: usize = counts.values().map(|c| c.2).sum();
    // The ratchet: 24 rows, 25 cases ("[::1%eth0]" is both an authority
    // and a host case).
    assert_eq!((total, pass, deliberate), (212, 187, 25));
    assert_eq!((eq_cases, eq_pass), (22, 22));
    assert_eq!((isn_cases, isn_pass), (4, 4));
    assert_eq!((uri_mode, uri_mode_pass), (71, 70));
    assert_eq!((reference_checks, reference_pass), (589, 589));
}

// ---------------------------------------------------------------------
// Properties.

/// Valid IRI references built from pieces that exercise every step: case,
/// encoded unreserved and reserved characters, UTF-8 that decodes or must
/// not, dot segments, combining marks and characters NFC changes, IDN and
/// punycode hosts, default and empty ports.
fn iri_refs(dots: bool) -> impl Strategy<Value = String> {
    let scheme = prop::option::weighted(
        0.85,
        prop::sample::select(
            &[
                "http", "HTTP", "https", "ftp", "Ws", "wss", "foo", "urn", "s+x",
            ][..],
        ),
    );
    let userinfo = prop::option::weighted(
        0.3,
        prop::sample::select(&["", "u", "U%3aP", "%41b", "é", "%c3%a9", ":"][..]),
    );
    let host = prop::sample::select(
        &[
            "",
            "h",
            "EXAMPLE.com",
            "résumé.example",
            "RÉSUMÉ.example",
            "xn--rsum-bpad.example",
            "XN--RSUM-BPAD.Example",
            "r%C3%A9sum%c3%a9.example",
            "a%2Bb",
            "%41",
            "α.CoM",
            "Alpha%ce%b1",
            "[::A]",
            "[v1.X]",
            "127.0.0.1",
            "xn--a.com",
            "r%E9sum%E9",
            "\u{AD}x.com",
            "ｅｘ.com",
            "faß.de",
            "a%20b",
            "ex.com.",
        ][..],
    );
    let port = prop::option::weighted(
        0.4,
        prop::sample::select(&["", "80", "080", "443", "21", "8080", "0"][..]),
    );
    let authority = prop::option::weighted(0.7, (userinfo, host, port));
    let no_dots: &[&str] = &[
        "",
        "a",
        "A",
        "%7e",
        "%7E",
        "%2F",
        "%2f",
        "%3A",
        "%3a",
        "é",
        "e\u{301}",
        "%C3%A9",
        "%c3",
        "%CC%81",
        "%E2%80%AE",
        "\u{A0}",
        "%C2%A0",
        "%41",
        "%EE%80%80",
        "\u{212A}",
        "\u{37E}",
        "=\u{338}",
        "%25",
        "%CE%CE%B1",
        "~",
        ";p=1",
        "b:c",
        ".x",
    ];
    let with_dots: &[&str] = &[".", "..", "%2e", "%2E%2e", "%2e.", "."];
    let mut pool: Vec<&str> = no_dots.to_vec();
    if dots {
        pool.extend_from_slice(with_dots);
    }
    let segment = prop::sample::select(pool);
    let path = (any::<bool>(), prop::collection::vec(segment, 0..6));
    let qpiece = prop::sample::select(
        &[
            "",
            "q",
            "\u{E000}",
            "%EE%80%80",
            "a=b&c",
            "%3D",
            "é",
            "%7e",
            "/./..",
            "?",
            "%c2%a0",
            "A\u{30A}",
        ][..],
    );
    let query = prop::option::weighted(0.4, prop::collection::vec(qpiece.clone(), 0..3));
    let fragment = prop::option::weighted(0.3, prop::collection::vec(qpiece, 0..3));
    (scheme, authority, path, query, fragment)
        .prop_map(|(s, a, (rooted, segs), q, f)| {
            let mut out = String::new();
            if let Some(s) = s {
                out += s;
                out += ":";
            }
            if let Some((u, h, p)) = a {
                out += "//";
                if let Some(u) = u {
                    out += u;
                    out += "@";
                }
                out += h;
                if let Some(p) = p {
                    out += ":";
                    out += p;
                }
            }
            if rooted {
                out += "/";
            }
            out += &segs.join("/");
            if let Some(q) = q {
                out += "?";
                out += &q.concat();
            }
            if let Some(f) = f {
                out += "#";
                out += &f.concat();
            }
            out
        })
        .prop_filter("a valid IRI reference", |s| {
            parse(s, Rule::IriReference, Syntax::Iri).is_ok()
        })
}

fn all_options() -> Vec<NormalizeOptions> {
    let mut v = Vec::new();
    for level in [Simple, SYNTAX, Scheme] {
        for form in [Iri, Uri] {
            for nfc in [false, true] {
                v.push(opts(level, form, nfc));
            }
        }
    }
    v
}

const RESERVED: &[u8] = b":/?#[]@!$&'()*+,;=";

/// The reserved characters of `s` in order, literal (`/`) or encoded
/// (`%2F`, hex case folded), and `%25`: what normalization must leave alone.
fn reserved_tokens(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let t = s[i + 1..i + 3].to_ascii_uppercase();
            if let Ok(v) = u8::from_str_radix(&t, 16)
                && (RESERVED.contains(&v) || v == b'%')
            {
                out.push(format!("%{t}"));
            }
            i += 3;
            continue;
        }
        if RESERVED.contains(&b[i]) {
            out.push((b[i] as char).to_string());
        }
        i += 1;
    }
    out
}

fn count_encoded(tokens: &[String]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for t in tokens.iter().filter(|t| t.starts_with('%')) {
        *m.entry(t.as_str()).or_default() += 1;
    }
    m
}

fn uri_pct(s: &str) -> String {
    let o = UriOptions::new().host_mapping(HostMapping::PercentEncode);
    to_uri(s, &o).uri.into_owned()
}

fn uri_idna(s: &str) -> String {
    to_uri(s, &UriOptions::new()).uri.into_owned()
}

fn is_known_scheme(s: &str) -> bool {
    let c = Components::split(s);
    c.scheme.is_some_and(|r| {
        ["http", "https", "ws", "wss", "ftp"]
            .iter()
            .any(|k| s[r.clone()].eq_ignore_ascii_case(k))
    })
}

/// The `%HH` octets of the host of `x`.
fn host_triplets(x: &str) -> Vec<u8> {
    let c = Components::split(x);
    let Some(h) = c.host else { return Vec::new() };
    let host = &x[h];
    let b = host.as_bytes();
    (0..b.len().saturating_sub(2))
        .filter(|&i| b[i] == b'%')
        .filter_map(|i| u8::from_str_radix(&host[i + 1..i + 3], 16).ok())
        .collect()
}

/// Whether the host of `x` has a `%HH` of an ASCII octet that
/// normalization keeps encoded (anything but unreserved).
fn host_keeps_ascii_triplet(x: &str) -> bool {
    host_triplets(x)
        .iter()
        .any(|&v| v < 0x80 && !(v.is_ascii_alphanumeric() || b"-._~".contains(&v)))
}

/// The exceptions to `to_uri(normalize_iri(x)) == normalize_uri(to_uri(x))`
/// under the IDNA host mapping (§3.4.2); with the percent-encoding host
/// mapping (§3.4.1) there are none.
///
/// 1. A non-ASCII reg-name host that the scheme rung does not put through
///    IDNA (syntax rung, or a scheme other than the five). `to_uri` with
///    IDNA makes the host ASCII, so the URI side's host is "US-ASCII only"
///    and gets lower-cased (§5.3.2.1), and carries IDNA's own mapping
///    (case folding, NFC, `ß`); the IRI side's host is not ASCII and keeps
///    its case.
/// 2. A host with a percent-encoded ASCII octet (`a%2Bbé`): §3.4.2 decodes
///    every triplet before ToASCII, so `to_uri` turns `%2B` into `+`;
///    normalization never decodes a reserved character, and leaves such a
///    host out of IDNA.
fn idna_exception(x: &str, level: NormalizationLevel) -> bool {
    let c = Components::split(x);
    let Some(h) = c.host else { return false };
    let triplets = host_triplets(x);
    let non_ascii = !x[h].is_ascii() || triplets.iter().any(|&v| v >= 0x80);
    let idna_at_this_rung = level == Scheme && is_known_scheme(x);
    non_ascii && (!idna_at_this_rung || host_keeps_ascii_triplet(x))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_on_any_string(s in any::<String>(), t in "[a-zA-Z:/.?#%é\\[\\]@ 0-9\u{301}]{0,24}") {
        for o in all_options() {
            let _ = normalize(&s, &o);
            let _ = normalize(&t, &o);
            let _ = equivalent(&s, &t, &o);
        }
    }

    #[test]
    fn idempotent_and_valid_on_near_iris(
        x in "([a-zA-Z.:/?#@~=+\\[\\]]|%[0-9a-fA-F]{2}|%[cdefCDEF][0-9a-fA-F]%[89abAB][0-9a-fA-F]|é|\u{301}|\u{A0}|\u{E000}|\u{37E}|xn--){0,16}"
    ) {
        if parse(&x, Rule::IriReference, Syntax::Iri).is_ok() {
            for o in all_options() {
                let once = normalize(&x, &o).unwrap();
                prop_assert_eq!(normalize(&once, &o).unwrap(), once.clone(), "{:?}", o);
                prop_assert!(parse(&once, Rule::IriReference, Syntax::Iri).is_ok(), "{:?}", once);
            }
        } else {
            prop_assert!(normalize(&x, &NormalizeOptions::new()).is_err());
        }
    }

    #[test]
    fn idempotent_at_every_level(x in iri_refs(true)) {
        for o in all_options() {
            let once = normalize(&x, &o).unwrap();
            let twice = normalize(&once, &o).unwrap();
            prop_assert_eq!(&twice, &once, "{:?}", o);
            // And already normalized means borrowed.
            prop_assert!(matches!(twice, std::borrow::Cow::Borrowed(_)));
        }
    }

    #[test]
    fn output_is_a_valid_reference_and_maps_to_a_valid_uri(x in iri_refs(true)) {
        for o in all_options() {
            let n = normalize(&x, &o).unwrap();
            let syntax = if o.normal_form() == Uri && o.normalization_level() != Simple { Syntax::Uri } else { Syntax::Iri };
            prop_assert!(parse(&n, Rule::IriReference, syntax).is_ok(), "{:?} {:?}", n, o);
            let u = uri_idna(&n);
            prop_assert!(parse(&u, Rule::IriReference, Syntax::Uri).is_ok(), "{:?}", u);
            // The scheme and the presence of each component never change.
            let (a, b) = (Components::split(&x), Components::split(&n));
            prop_assert_eq!(a.scheme.is_some(), b.scheme.is_some());
            prop_assert_eq!(a.authority.is_some(), b.authority.is_some());
            prop_assert_eq!(a.query.is_some(), b.query.is_some());
            prop_assert_eq!(a.fragment.is_some(), b.fragment.is_some());
        }
    }

    #[test]
    fn reserved_characters_are_never_decoded_or_encoded(x in iri_refs(false)) {
        // Without dot segments, the syntax rung keeps every reserved
        // character and every encoded one, in order.
        for form in [Iri, Uri] {
            for nfc in [false, true] {
                let n = normalize(&x, &opts(SYNTAX, form, nfc)).unwrap();
                prop_assert_eq!(reserved_tokens(&n), reserved_tokens(&x), "{:?}", n);
            }
        }
    }

    #[test]
    fn encoded_reserved_characters_never_multiply(x in iri_refs(true)) {
        // Dot segments may remove segments (and their %2F), and the scheme
        // rung removes ports and adds "/", but an encoded reserved
        // character is never created.
        let before = reserved_tokens(&x);
        let before = count_encoded(&before);
        for o in all_options() {
            let n = normalize(&x, &o).unwrap();
            let after = reserved_tokens(&n);
            for (t, k) in count_encoded(&after) {
                prop_assert!(k <= before.get(t).copied().unwrap_or(0), "{} in {:?}", t, n);
            }
        }
    }

    /// RFC 3987 §5.2/§5.3.2.3: comparing IRIs on the IRI ladder, or mapping
    /// them to URIs (§3.1) and comparing those on the URI ladder (RFC 3986
    /// §6.2), must agree: `to_uri(normalize_iri(x)) == normalize_uri(to_uri(x))`.
    #[test]
    fn normalization_commutes_with_mapping_to_uri(x in iri_refs(true)) {
        for level in [SYNTAX, Scheme] {
            for nfc in [false, true] {
                let iri = normalize(&x, &opts(level, Iri, nfc)).unwrap();
                // Percent-encoded hosts (§3.4.1): no exception.
                let left = uri_pct(&iri);
                let right = normalize(&uri_pct(&x), &opts(level, Uri, nfc)).unwrap().into_owned();
                if level == SYNTAX || !is_known_scheme(&x) || host_keeps_ascii_triplet(&x) {
                    prop_assert_eq!(&left, &right, "{:?} {:?}", level, nfc);
                } else {
                    // At the scheme rung, known schemes: the URI form's host
                    // is the IDNA one (unless IDNA is skipped for a host
                    // with an encoded ASCII octet); compare against to_uri
                    // with IDNA.
                    prop_assert_eq!(uri_idna(&iri), right.clone(), "{:?} {:?}", level, nfc);
                }
                // IDNA hosts (§3.4.2): equal except idna_exception.
                let left = uri_idna(&iri);
                let right = normalize(&uri_idna(&x), &opts(level, Uri, nfc)).unwrap().into_owned();
                if !idna_exception(&x, level) {
                    prop_assert_eq!(&left, &right, "{:?} {:?} (IDNA)", level, nfc);
                }
            }
        }
    }

    /// An IRI and its URI (and the IRI of that URI) are equivalent at the
    /// syntax rung, in both forms; with IDNA hosts, at the scheme rung for
    /// the schemes we know.
    #[test]
    fn an_iri_is_equivalent_to_its_uri(x in iri_refs(true)) {
        for form in [Iri, Uri] {
            for nfc in [false, true] {
                let o = opts(SYNTAX, form, nfc);
                let u = uri_pct(&x);
                prop_assert!(equivalent(&x, &u, &o).unwrap(), "{:?} {:?}", u, o);
                let back = to_iri(&u, &IriOptions::new());
                prop_assert!(equivalent(&x, &back, &o).unwrap(), "{:?} {:?}", back, o);
                // Exception 2 of idna_exception: to_uri decodes %2B in the
                // host, normalization does not.
                if is_known_scheme(&x) && !host_keeps_ascii_triplet(&x) {
                    let o = opts(Scheme, form, nfc);
                    let u = uri_idna(&x);
                    prop_assert!(equivalent(&x, &u, &o).unwrap(), "{:?} {:?}", u, o);
                }
            }
        }
    }

    /// The IRI form leaves nothing for `to_iri` to decode, and the URI
    /// form nothing for `to_uri` to encode.
    #[test]
    fn forms_are_fixed_points_of_the_mappings(x in iri_refs(true)) {
        for level in [SYNTAX, Scheme] {
            for nfc in [false, true] {
                let i = normalize(&x, &opts(level, Iri, nfc)).unwrap();
                prop_assert_eq!(to_iri(&i, &IriOptions::new()), i.clone());
                let u = normalize(&x, &opts(level, Uri, nfc)).unwrap();
                prop_assert!(u.is_ascii());
                // (With IDNA, to_uri would convert the percent-encoded
                // hosts the URI form keeps at the syntax rung, §3.4.2.)
                prop_assert_eq!(uri_pct(&u), u.clone().into_owned());
            }
        }
    }

    /// The two forms are one key (equivalence does not depend on the form),
    /// and each rung only adds equivalences. `y` is a variant of `x` (so
    /// that equivalent pairs are common) or an unrelated reference.
    #[test]
    fn forms_agree_and_the_ladder_is_monotonic(x in iri_refs(true), z in iri_refs(true), pick in 0..6usize) {
        let y = match pick {
            0 => uri_pct(&x),
            1 => uri_idna(&x),
            2 => normalize(&x, &opts(SYNTAX, Iri, true)).unwrap().into_owned(),
            3 => normalize(&x, &opts(Scheme, Uri, false)).unwrap().into_owned(),
            4 => to_iri(&uri_pct(&x), &IriOptions::new().decode_punycode(true)).into_owned(),
            _ => z,
        };
        let eq = |level, form, nfc| equivalent(&x, &y, &opts(level, form, nfc)).unwrap();
        for level in [Simple, SYNTAX, Scheme] {
            for nfc in [false, true] {
                prop_assert_eq!(eq(level, Iri, nfc), eq(level, Uri, nfc), "{:?} {:?} {:?}", y, level, nfc);
            }
        }
        if eq(Simple, Iri, false) {
            prop_assert!(eq(SYNTAX, Iri, false));
        }
        if eq(SYNTAX, Iri, false) {
            prop_assert!(eq(Scheme, Iri, false) && eq(SYNTAX, Iri, true));
        }
        if eq(SYNTAX, Iri, true) || eq(Scheme, Iri, false) {
            prop_assert!(eq(Scheme, Iri, true));
        }
    }
}

#[test]
fn idna_exception_is_real() {
    // The exception the commutation property allows does happen.
    let x = "foo://Bücher.DE/";
    let iri = normalize(x, &NormalizeOptions::new()).unwrap();
    assert_eq!(iri, "foo://Bücher.DE/");
    assert_eq!(uri_idna(&iri), "foo://xn--bcher-kva.DE/");
    assert_eq!(
        normalize(&uri_idna(x), &opts(SYNTAX, Uri, false)).unwrap(),
        "foo://xn--bcher-kva.de/"
    );
    assert!(idna_exception(x, SYNTAX) && idna_exception(x, Scheme));
    assert!(!idna_exception("http://Bücher.DE/", Scheme));
    // Exception 2.
    let x = "http://a%2Bbé/";
    let scheme = opts(Scheme, Iri, false);
    assert_eq!(normalize(x, &scheme).unwrap(), "http://a%2Bbé/");
    assert_eq!(uri_idna(x), "http://xn--a+b-dma/");
    assert!(idna_exception(x, Scheme));
}
