//! Property tests of [`iriscan::parse`]: it never panics, it agrees with a
//! naive transcription of the RFC 3987bis §2.2 ABNF (the oracle below) in
//! every rule and syntax, and the syntaxes nest as documented.
//!
//! The oracle is deliberately dumb, in the memchr tradition: each ABNF rule
//! is a function from a start position to the *set* of positions where a
//! match can end, combined exactly as the ABNF reads (alternatives are
//! unions, so "first-match-wins" does not matter for membership). It is
//! polynomial, fine for the short strings proptest makes, and shares no
//! code with the table-driven validator.

use std::collections::BTreeSet;
use std::rc::Rc;

use iriscan::{Rule, Syntax, parse};
use proptest::prelude::*;

type Ends = BTreeSet<usize>;
type P = Rc<dyn Fn(&[char], usize) -> Ends>;

fn ch(pred: impl Fn(char) -> bool + 'static) -> P {
    Rc::new(move |s, i| {
        s.get(i)
            .filter(|&&c| pred(c))
            .map(|_| i + 1)
            .into_iter()
            .collect()
    })
}

/// A case-insensitive literal (RFC 5234 §2.3).
fn lit(l: &'static str) -> P {
    Rc::new(move |s, i| {
        let n = l.chars().count();
        let ok = s.len() >= i + n
            && l.chars()
                .zip(&s[i..i + n])
                .all(|(a, b)| a.eq_ignore_ascii_case(b));
        if ok { [i + n].into() } else { Ends::new() }
    })
}

fn seq(ps: Vec<P>) -> P {
    Rc::new(move |s, i| {
        let mut cur: Ends = [i].into();
        for p in &ps {
            cur = cur.iter().flat_map(|&j| p(s, j)).collect();
            if cur.is_empty() {
                break;
            }
        }
        cur
    })
}

fn alt(ps: Vec<P>) -> P {
    Rc::new(move |s, i| ps.iter().flat_map(|p| p(s, i)).collect())
}

/// `min*max element` (max `None` = unbounded).
fn rep(p: P, min: usize, max: Option<usize>) -> P {
    Rc::new(move |s, i| {
        let mut out = Ends::new();
        let mut cur: Ends = [i].into();
        let mut k = 0;
        loop {
            if k >= min {
                out.extend(cur.iter().copied());
            }
            if Some(k) == max || cur.is_empty() {
                break;
            }
            let mut next: Ends = cur.iter().flat_map(|&j| p(s, j)).collect();
            if k >= min {
                // Reached before with fewer repetitions: nothing new follows.
                next.retain(|j| !out.contains(j));
            }
            cur = next;
            k += 1;
        }
        out
    })
}

fn star(p: P) -> P {
    rep(p, 0, None)
}

fn opt(p: P) -> P {
    rep(p, 0, Some(1))
}

fn empty() -> P {
    Rc::new(|_, i| [i].into())
}

/// The grammar of one syntax: its three start rules.
struct Grammar {
    iri: P,
    iri_reference: P,
    absolute_iri: P,
}

fn grammar(syntax: Syntax) -> Grammar {
    let ucschar_3987bis = |c: char| {
        let c = c as u32;
        matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
            || ((0x10000..=0xDFFFF).contains(&c) && (c & 0xFFFF) <= 0xFFFD)
    };
    let iprivate_3987bis = |c: char| matches!(c as u32, 0xE000..=0xF8FF | 0xE0000..=0xE0FFF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
    // RFC 3987 §4.1 (the [Bidi] restriction that 3987bis §6.1 lifts for LEIRIs).
    let bidi =
        |c: char| matches!(c as u32, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069);
    let leiri_ucschar = |c: char| {
        " <>\"{}|\\^`".contains(c)
            || (c as u32) < 0x20
            || matches!(c as u32, 0x7F..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
    };
    // ucschar, iprivate, and what Text adds to userinfo/path/query/fragment.
    let (ucschar, iprivate, extra): (P, P, P) = match syntax {
        Syntax::Uri => (ch(|_| false), ch(|_| false), ch(|_| false)),
        Syntax::Iri => (
            ch(move |c| ucschar_3987bis(c) && !bidi(c)),
            ch(iprivate_3987bis),
            ch(|_| false),
        ),
        Syntax::Text => (
            ch(move |c| ucschar_3987bis(c) && !bidi(c)),
            ch(iprivate_3987bis),
            ch(|c| "{}^[]".contains(c)),
        ),
        Syntax::Leiri => (ch(leiri_ucschar), ch(leiri_ucschar), ch(|_| false)),
    };

    let alpha = || ch(|c| c.is_ascii_alphabetic());
    let digit = || ch(|c| c.is_ascii_digit());
    let hexdig = || ch(|c| c.is_ascii_hexdigit());
    let one_of = |set: &'static str| ch(move |c| set.contains(c));
    let unreserved = || alt(vec![alpha(), digit(), one_of("-._~")]);
    let sub_delims = || one_of("!$&'()*+,;=");
    let iunreserved = alt(vec![alpha(), digit(), one_of("-._~"), ucschar]);
    let pct_form = seq(vec![lit("%"), hexdig(), hexdig()]);
    let ipchar = alt(vec![
        iunreserved.clone(),
        pct_form.clone(),
        sub_delims(),
        lit(":"),
        lit("@"),
        extra.clone(),
    ]);
    let iquery = star(alt(vec![ipchar.clone(), iprivate, lit("/"), lit("?")]));
    // Text also takes a second `#` inside the fragment (docs/rules.md §1.2).
    let fragment_hash = if syntax == Syntax::Text {
        lit("#")
    } else {
        ch(|_| false)
    };
    let ifragment = star(alt(vec![ipchar.clone(), lit("/"), lit("?"), fragment_hash]));
    let isegment = star(ipchar.clone());
    let isegment_nz = rep(ipchar.clone(), 1, None);
    let isegment_nz_nc = rep(
        alt(vec![
            iunreserved.clone(),
            pct_form.clone(),
            sub_delims(),
            lit("@"),
            extra.clone(),
        ]),
        1,
        None,
    );
    let slash_segments = star(seq(vec![lit("/"), isegment]));
    let ipath_abempty = slash_segments.clone();
    let ipath_absolute = seq(vec![
        lit("/"),
        opt(seq(vec![isegment_nz.clone(), slash_segments.clone()])),
    ]);
    let ipath_noscheme = seq(vec![isegment_nz_nc, slash_segments.clone()]);
    let ipath_rootless = seq(vec![isegment_nz, slash_segments]);

    let dec_octet = alt(vec![
        digit(),
        seq(vec![one_of("123456789"), digit()]),
        seq(vec![lit("1"), digit(), digit()]),
        seq(vec![lit("2"), one_of("01234"), digit()]),
        seq(vec![lit("25"), one_of("012345")]),
    ]);
    let ipv4address = seq(vec![
        dec_octet.clone(),
        lit("."),
        dec_octet.clone(),
        lit("."),
        dec_octet.clone(),
        lit("."),
        dec_octet,
    ]);
    let h16 = rep(hexdig(), 1, Some(4));
    let h16c = seq(vec![h16.clone(), lit(":")]);
    let ls32 = alt(vec![
        seq(vec![h16.clone(), lit(":"), h16.clone()]),
        ipv4address.clone(),
    ]);
    let n = |k: usize| rep(h16c.clone(), k, Some(k));
    let upto = |k: usize| opt(seq(vec![rep(h16c.clone(), 0, Some(k)), h16.clone()]));
    let ipv6address = alt(vec![
        seq(vec![n(6), ls32.clone()]),
        seq(vec![lit("::"), n(5), ls32.clone()]),
        seq(vec![opt(h16.clone()), lit("::"), n(4), ls32.clone()]),
        seq(vec![upto(1), lit("::"), n(3), ls32.clone()]),
        seq(vec![upto(2), lit("::"), n(2), ls32.clone()]),
        seq(vec![
            upto(3),
            lit("::"),
            h16.clone(),
            lit(":"),
            ls32.clone(),
        ]),
        seq(vec![upto(4), lit("::"), ls32]),
        seq(vec![upto(5), lit("::"), h16.clone()]),
        seq(vec![upto(6), lit("::")]),
    ]);
    let ipvfuture = seq(vec![
        lit("v"),
        rep(hexdig(), 1, None),
        lit("."),
        rep(alt(vec![unreserved(), sub_delims(), lit(":")]), 1, None),
    ]);
    let ip_literal = seq(vec![lit("["), alt(vec![ipv6address, ipvfuture]), lit("]")]);
    let ireg_name = star(alt(vec![
        iunreserved.clone(),
        pct_form.clone(),
        sub_delims(),
    ]));
    let ihost = alt(vec![ip_literal, ipv4address, ireg_name]);
    let port = star(digit());
    let iuserinfo = star(alt(vec![
        iunreserved,
        pct_form,
        sub_delims(),
        lit(":"),
        extra,
    ]));
    let iauthority = seq(vec![
        opt(seq(vec![iuserinfo, lit("@")])),
        ihost,
        opt(seq(vec![lit(":"), port])),
    ]);
    let authority_path = seq(vec![lit("//"), iauthority, ipath_abempty]);
    let ihier_part = alt(vec![
        authority_path.clone(),
        ipath_absolute.clone(),
        ipath_rootless,
        empty(),
    ]);
    let irelative_part = alt(vec![
        authority_path,
        ipath_absolute,
        ipath_noscheme,
        empty(),
    ]);
    let scheme = seq(vec![
        alpha(),
        star(alt(vec![alpha(), digit(), one_of("+-.")])),
    ]);
    let query = opt(seq(vec![lit("?"), iquery]));
    let fragment = opt(seq(vec![lit("#"), ifragment]));
    let absolute_iri = seq(vec![scheme, lit(":"), ihier_part, query.clone()]);
    let iri = seq(vec![absolute_iri.clone(), fragment.clone()]);
    let irelative_ref = seq(vec![irelative_part, query, fragment]);
    Grammar {
        iri_reference: alt(vec![iri.clone(), irelative_ref]),
        iri,
        absolute_iri,
    }
}

fn oracle(g: &Grammar, rule: Rule, s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    let p = match rule {
        Rule::Iri => &g.iri,
        Rule::IriReference => &g.iri_reference,
        Rule::AbsoluteIri => &g.absolute_iri,
    };
    p(&chars, 0).contains(&chars.len())
}

const RULES: [Rule; 3] = [Rule::Iri, Rule::IriReference, Rule::AbsoluteIri];
const SYNTAXES: [Syntax; 4] = [Syntax::Uri, Syntax::Iri, Syntax::Text, Syntax::Leiri];

/// Pieces that IRIs, and near-misses of IRIs, are made of.
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
    "01",
    "1.2.3.4",
    "ffff",
    "12345",
    "é",
    "例",
    "\u{A0}",
    "\u{E000}",
    "\u{E0001}",
    "\u{F0000}",
    "\u{200E}",
    "\u{202E}",
    "\u{FDD0}",
    "\u{FFFD}",
    "\u{FFFE}",
    "\u{10FFFF}",
    "\u{1F600}",
    " ",
    "\t",
    "\u{0}",
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

/// Bracketed hosts built from the pieces of IPv6 and IPvFuture: either
/// shaped like an address (pieces, an optional `::`, an optional IPv4
/// tail) or any jumble of those pieces.
fn ip_literals() -> impl Strategy<Value = String> {
    let h16 = || {
        // Mostly good pieces, some bad ones.
        prop::sample::select(
            &[
                "0", "1", "ab", "FFFF", "0000", "7", "c0de", "9", "12345", "g", "",
            ][..],
        )
    };
    let v4 = prop::option::of(prop::sample::select(
        &["1.2.3.4", "255.0.0.1", "01.2.3.4", "1.2.3", "256.1.1.1"][..],
    ));
    let shaped = (
        prop::collection::vec(h16(), 0..9),
        prop::bool::weighted(0.7),
        prop::collection::vec(h16(), 0..5),
        v4,
    )
        .prop_map(|(left, elide, right, v4)| {
            let mut s = left.join(":");
            if elide {
                s += "::";
                s += &right.join(":");
            }
            if let Some(v4) = v4 {
                if !s.is_empty() && !s.ends_with(':') {
                    s += ":";
                }
                s += v4;
            }
            s
        });
    let piece = prop::sample::select(
        &[
            "1",
            "ab",
            "FFFF",
            "0000",
            "12345",
            ":",
            "::",
            ".",
            "1.2.3.4",
            "255.0.0.1",
            "01",
            "256",
            "v",
            "7",
            "x",
            "%25",
            "g",
        ][..],
    );
    let jumble = prop::collection::vec(piece, 0..12).prop_map(|v| v.concat());
    let tail = prop::sample::select(&["", "", "", ":80", ":x", "]"][..]);
    (prop_oneof![shaped, jumble], tail).prop_map(|(lit, tail)| format!("http://[{lit}]{tail}/p"))
}

fn check_against_oracle(s: &str) -> Result<(), TestCaseError> {
    thread_local! {
        static GRAMMARS: Vec<Grammar> = SYNTAXES.iter().map(|&x| grammar(x)).collect();
    }
    GRAMMARS.with(|gs| {
        for (g, &syntax) in gs.iter().zip(&SYNTAXES) {
            for rule in RULES {
                let fast = parse(s, rule, syntax);
                prop_assert_eq!(
                    fast.is_ok(),
                    oracle(g, rule, s),
                    "{:?} {:?} {:?}: parse says {:?}",
                    s,
                    rule,
                    syntax,
                    fast.err().map(|e| e.to_string())
                );
            }
        }
        Ok(())
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn agrees_with_the_abnf_oracle(s in tokens(14)) {
        check_against_oracle(&s)?;
    }

    #[test]
    fn agrees_with_the_abnf_oracle_on_ip_literals(s in ip_literals()) {
        check_against_oracle(&s)?;
    }

    #[test]
    fn agrees_with_the_abnf_oracle_after_a_scheme(s in tokens(10)) {
        check_against_oracle(&format!("http://{s}"))?;
        check_against_oracle(&format!("s:{s}"))?;
    }
}

/// `parse` never panics; an error points into the input, at a character
/// boundary, and names a rule; a success gives the components `split`
/// gives.
fn check_errors_point_into_the_input(s: &str) -> Result<(), TestCaseError> {
    for syntax in SYNTAXES {
        for rule in RULES {
            match parse(s, rule, syntax) {
                Ok(c) => prop_assert_eq!(c, iriscan::Components::split(s)),
                Err(e) => {
                    prop_assert!(e.position() <= s.len());
                    prop_assert!(s.is_char_boundary(e.position()));
                    prop_assert!(!e.rule().is_empty() && !e.to_string().is_empty());
                }
            }
        }
    }
    Ok(())
}

/// URI ⊂ IRI ⊂ Text and IRI ⊂ LEIRI, in every rule.
fn check_syntaxes_nest(s: &str) -> Result<(), TestCaseError> {
    for rule in RULES {
        if parse(s, rule, Syntax::Iri).is_ok() {
            prop_assert!(parse(s, rule, Syntax::Text).is_ok(), "Text rejects {:?}", s);
            prop_assert!(
                parse(s, rule, Syntax::Leiri).is_ok(),
                "Leiri rejects {:?}",
                s
            );
        }
        // And URI ⊂ IRI.
        if parse(s, rule, Syntax::Uri).is_ok() {
            prop_assert!(parse(s, rule, Syntax::Iri).is_ok(), "Iri rejects {:?}", s);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_and_errors_point_into_the_input(s in any::<String>()) {
        check_errors_point_into_the_input(&s)?;
    }

    #[test]
    fn uri_and_iri_agree_on_ascii(s in "[\\x00-\\x7F]{0,40}", t in tokens(12)) {
        for s in [s, t.chars().filter(char::is_ascii).collect()] {
            for rule in RULES {
                prop_assert_eq!(parse(&s, rule, Syntax::Uri), parse(&s, rule, Syntax::Iri), "{:?}", s);
            }
        }
    }

    #[test]
    fn iri_is_a_subset_of_text_and_leiri(s in tokens(14)) {
        check_syntaxes_nest(&s)?;
    }
}

/// The generators must produce valid strings often enough for the
/// properties above to mean something.
#[test]
fn generators_reach_valid_iris() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut valid, mut ip_valid) = (0, 0);
    for _ in 0..1000 {
        let s = tokens(14).new_tree(&mut runner).unwrap().current();
        valid += usize::from(parse(&s, Rule::IriReference, Syntax::Iri).is_ok());
        let s = ip_literals().new_tree(&mut runner).unwrap().current();
        ip_valid += usize::from(parse(&s, Rule::Iri, Syntax::Iri).is_ok());
    }
    assert!(
        valid > 50,
        "only {valid}/1000 generated references are valid"
    );
    assert!(
        ip_valid > 20,
        "only {ip_valid}/1000 generated IP literals are valid"
    );
}

#[test]
fn oracle_sanity() {
    let g = grammar(Syntax::Iri);
    assert!(oracle(&g, Rule::Iri, "http://[::ffff:1.2.3.4]:80/a?b#c"));
    assert!(oracle(&g, Rule::IriReference, "../a:b"));
    assert!(!oracle(&g, Rule::IriReference, "1a:b"));
    assert!(!oracle(&g, Rule::Iri, "http://[1:2:3:4:5:6:7]/"));
    assert!(oracle(&g, Rule::Iri, "http://[1:2:3:4:5:6:7::]/"));
    assert!(!oracle(&g, Rule::AbsoluteIri, "a:b#"));
}

// Failures proptest once found and shrank, kept as plain tests (the
// policy: tests/tests.rs).

/// `[0:0:0:0:0:0:0:0::]`: eight pieces and a `::`, which stands for at least
/// one more: too many for an IPv6 address.
// Found by `agrees_with_the_abnf_oracle_on_ip_literals`: seed cc 8f1c89752915dbbf.
#[test]
fn eight_ipv6_pieces_and_a_double_colon_are_too_many() {
    let s = "http://[0:0:0:0:0:0:0:0::]/p";
    check_against_oracle(s).unwrap();
    assert!(parse(s, Rule::Iri, Syntax::Iri).is_err());
}

/// A lone U+200E LEFT-TO-RIGHT MARK: a bidi formatting character, which an
/// IRI (and text) may not hold and a LEIRI may.
// Two seeds, cc ac62b3a89c2cde08 and cc bd8e9847754f55d0, which do not say
// which property they failed: every property of one string is checked.
#[test]
fn a_lone_left_to_right_mark() {
    let s = "\u{200E}";
    for t in [s.to_string(), format!("http://{s}"), format!("s:{s}")] {
        check_against_oracle(&t).unwrap();
        check_errors_point_into_the_input(&t).unwrap();
        check_syntaxes_nest(&t).unwrap();
    }
    assert!(parse(s, Rule::IriReference, Syntax::Iri).is_err());
    assert!(parse(s, Rule::IriReference, Syntax::Text).is_err());
    assert!(parse(s, Rule::IriReference, Syntax::Leiri).is_ok());
}
