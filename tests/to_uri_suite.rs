//! `tests/suites/iri.to_uri.json` (RFC 3987 examples, iri-string, python
//! rfc3986, Django) against [`iriscan::to_uri`].
//!
//! Cases are chosen by `host_mapping` (suites README §4):
//! `percent-encode` runs with [`HostMapping::PercentEncode`], `idna` with
//! [`HostMapping::Idna`], `any` and `n/a` with both (the host choice must
//! not matter), and `idna2008` / `idna2003` — other libraries' flavours of
//! IDNA — with [`HostMapping::Idna`] (UTS #46 non-transitional), keeping the
//! cases where that flavour disagrees in [`KNOWN_DIFFERENCES`]. The list is a
//! ratchet: a listed case that starts to agree, or an unlisted case that
//! disagrees, fails the test.
//!
//! `expected_error` cases: `to_uri` never fails. Where IDNA fails we assert
//! what we do instead — the host is percent-encoded (§3.4.1) and the
//! result carries a [`MapWarning::Idna`].

use iriscan::IriOptions;
use iriscan::{HostMapping, IdnaFailure, MapWarning, UriOptions, to_iri, to_uri};

use crate::support::cases;

/// `(input, host_mapping, our output, why we differ)`.
const KNOWN_DIFFERENCES: &[(&str, &str, &str, &str)] = &[
    (
        "http://♥.net",
        "idna2008",
        "http://xn--g6h.net",
        "expected_error in python idna (strict IDNA2008, where symbols are DISALLOWED); \
         UTS #46 keeps U+2665 valid (status 'valid; NV8', like IDNA2003), and browsers \
         and the idna crate map it",
    ),
    (
        "http://㛼.com",
        "idna2008",
        "http://xn--snl.com",
        "expected_error in the python rfc3986 test; U+36FC is a CJK Extension A ideograph \
         (Lo), PVALID under RFC 5892 and valid under UTS #46, so we map it",
    ),
    (
        "%&",
        "n/a",
        "%25&",
        "Django keeps a lone '%'; we write it %25 so that the result is a URI (a lone '%' \
         is not a pct-encoded triplet, RFC 3986 §2.1) and the mapping stays idempotent",
    ),
    (
        "red&♥ros%#red",
        "n/a",
        "red&%E2%99%A5ros%25#red",
        "Django keeps a lone '%' (see '%&')",
    ),
];

fn known(
    input: &str,
    host_mapping: &str,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str)> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|k| k.0 == input && k.1 == host_mapping)
}

fn options_for(host_mapping: &str) -> Vec<UriOptions> {
    let idna = UriOptions::new().host_mapping(HostMapping::Idna);
    let pct = UriOptions::new().host_mapping(HostMapping::PercentEncode);
    match host_mapping {
        "percent-encode" => vec![pct],
        "idna" | "idna2008" | "idna2003" => vec![idna],
        "any" | "n/a" => vec![idna, pct],
        other => panic!("unknown host_mapping {other:?}"),
    }
}

#[test]
fn to_uri_suite() {
    let cases = cases("iri.to_uri.json");
    let (mut agree, mut differ, mut warned, mut runs, mut roundtrips) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut seen_known = std::collections::HashSet::new();
    for case in &cases {
        let input = case["input"].as_str().unwrap();
        let hm = case["host_mapping"].as_str().unwrap();
        let expected = case["expected"].as_str();
        let expected_error = case["expected_error"].as_bool().unwrap_or(false);
        let k = known(input, hm);
        if k.is_some() {
            seen_known.insert((input, hm));
        }
        for opts in options_for(hm) {
            runs += 1;
            let m = to_uri(input, &opts);
            // Idempotence holds for every case, whatever the suite says.
            let again = to_uri(&m.uri, &opts);
            if again.uri != m.uri {
                failures.push(format!(
                    "not idempotent: {input:?} -> {:?} -> {:?}",
                    m.uri, again.uri
                ));
            }
            assert!(m.uri.is_ascii(), "{input:?} -> {:?}", m.uri);
            match (expected_error, k) {
                (_, Some(&(_, _, ours, _))) => {
                    if Some(&*m.uri) == expected {
                        failures.push(format!(
                            "{input:?} [{hm}] now agrees: remove it from KNOWN_DIFFERENCES"
                        ));
                    } else if m.uri != ours {
                        failures.push(format!(
                            "{input:?} [{hm}]: listed as {ours:?}, got {:?}",
                            m.uri
                        ));
                    } else {
                        differ += 1;
                    }
                }
                (true, None) => {
                    // What we do instead of failing: percent-encode the host
                    // and say why IDNA failed.
                    let pct = to_uri(input, &opts.host_mapping(HostMapping::PercentEncode));
                    let ok = m.uri == pct.uri
                        && matches!(m.warnings.as_slice(), [MapWarning::Idna { .. }]);
                    if ok {
                        warned += 1;
                    } else {
                        failures.push(format!(
                            "{input:?} [{hm}] expects an error; got {:?} with {:?}",
                            m.uri, m.warnings
                        ));
                    }
                }
                (false, None) => {
                    if Some(&*m.uri) == expected && m.warnings.is_empty() {
                        agree += 1;
                    } else {
                        failures.push(format!(
                            "{input:?} [{hm}, {:?}]: expected {expected:?}, got {:?} {:?}",
                            opts.host_mapping_method(),
                            m.uri,
                            m.warnings
                        ));
                    }
                }
            }
            // Django's complementarity: uri_to_iri(iri_to_uri(iri)) == iri.
            if case["roundtrip"].as_bool() == Some(true) && k.is_none() {
                roundtrips += 1;
                let back = to_iri(&m.uri, &IriOptions::new());
                if back != input {
                    failures.push(format!("round trip {input:?} -> {:?} -> {back:?}", m.uri));
                }
            }
        }
    }
    for k in KNOWN_DIFFERENCES {
        assert!(
            seen_known.contains(&(k.0, k.1)),
            "stale KNOWN_DIFFERENCES entry {:?}",
            k.0
        );
    }
    println!(
        "iri.to_uri.json: {} cases, {runs} runs: {agree} agree, {warned} expected errors \
         answered with a warning, {differ} known differences ({} listed); {roundtrips} round trips",
        cases.len(),
        KNOWN_DIFFERENCES.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(agree >= 50, "suite selection shrank: {agree}");
}

/// The one expected-error case UTS #46 also rejects: U+0378 is unassigned.
#[test]
fn unassigned_code_point_host_falls_back_with_reason() {
    let m = to_uri("http://\u{378}.net", &UriOptions::new());
    assert_eq!(m.uri, "http://%CD%B8.net");
    assert_eq!(
        m.warnings,
        vec![MapWarning::Idna {
            host: "\u{378}.net".into(),
            at: 7,
            reason: IdnaFailure::InvalidLabel {
                label: "\u{378}".into()
            },
        }]
    );
    assert!(
        m.warnings[0]
            .to_string()
            .contains("UTS #46 rejects the label")
    );
}
