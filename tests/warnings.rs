//! Warnings that protect users (docs/rules.md §7): one test per code with
//! the spoofs that were used in the wild or filed against browsers, and
//! ordinary IRIs in twenty scripts that must get none.

use iriscan::{Finder, Hit, IriOptions, UriOptions, Warning, Warnings, to_iri, to_uri};

/// The hits of `text` (valid or not).
fn hits(text: &str) -> Vec<Hit<'_>> {
    Finder::new().find_iter(text.as_bytes()).collect()
}

/// The warnings of the only hit of `text`, which must be `iri`.
#[track_caller]
fn warnings_of(text: &str, iri: &str) -> Vec<Warning> {
    let found = hits(text);
    assert_eq!(found.len(), 1, "{text:?}: {found:?}");
    assert_eq!(found[0].iri(), iri, "{text:?}");
    found[0].warnings().collect()
}

#[track_caller]
fn has(text: &str, iri: &str, w: Warning) {
    let got = warnings_of(text, iri);
    assert!(got.contains(&w), "{text:?}: {got:?}, expected {w:?}");
    let hit = &hits(text)[0];
    assert!(hit.has_warning(w));
    assert!(hit.warning_set().contains(w));
}

#[track_caller]
fn clean(text: &str, iri: &str) {
    let got = warnings_of(text, iri);
    assert!(got.is_empty(), "{text:?}: {got:?}");
}

/// The 2017 Apple homograph (Xudong Zheng; Chromium issue 683314, Firefox
/// bug 1332714): `аррӏе.com` all in Cyrillic, punycode
/// `xn--80ak6aa92e.com`. Also Cyrillic `раураӏ.com` and `сосо.com`.
#[test]
fn confusable_whole_script_homographs() {
    for host in ["аррӏе.com", "xn--80ak6aa92e.com", "раураӏ.com", "сосо.com"] {
        let iri = format!("https://{host}/");
        has(&format!("Sign in: {iri} now"), &iri, Warning::Confusable);
    }
    // The same script under its own top-level domain is what a reader
    // expects there.
    clean("Сайт http://сосо.рф/ тут", "http://сосо.рф/");
}

/// One look-alike letter of another script among Latin ones: the PayPal
/// phishing of 2005 (Shmoo Group, `pаypal.com` with a Cyrillic `а`),
/// Greek omicron in `gοοgle.com`, and the same in punycode.
#[test]
fn mixed_script_labels() {
    let paypal_ace = to_uri("http://pаypal.com/", &UriOptions::new()).uri;
    assert!(paypal_ace.starts_with("http://xn--"), "{paypal_ace}");
    for iri in ["http://pаypal.com/", "https://www.gοοgle.com/", &paypal_ace] {
        has(&format!("Go to {iri} today"), iri, Warning::MixedScript);
    }
    // A mail address's domain too.
    has(
        "Write to help@pаypal.com please",
        "mailto:help@pаypal.com",
        Warning::MixedScript,
    );
    // Latin with Han and kana is Japanese, not a trick.
    clean(
        "見て http://日本語とlatin.jp/ です",
        "http://日本語とlatin.jp/",
    );
}

/// Userinfo dressed as a host: the 2004 Internet Explorer phishing
/// (`http://www.paypal.com:secure@evil.example`, Microsoft KB 834489 then
/// dropped userinfo from http URLs), and its shorter form.
#[test]
fn userinfo_that_looks_like_a_host() {
    for iri in [
        "http://bank.example@evil.example/",
        "http://www.paypal.com:secure@evil.example/login",
        "https://accounts.google.com@203.0.113.7/",
    ] {
        has(&format!("Log in at {iri} now"), iri, Warning::Userinfo);
    }
    clean(
        "ftp://anonymous:guest@ftp.example.org/pub",
        "ftp://anonymous:guest@ftp.example.org/pub",
    );
    clean(
        "ssh://john.doe@git.example.org/repo",
        "ssh://john.doe@git.example.org/repo",
    );
}

/// Overlong UTF-8: the IIS "Unicode directory traversal" of 2000
/// (CVE-2000-0884, `..%c0%af..`), a three-octet overlong `/`, an encoded
/// surrogate and a stray continuation octet. A Latin-1 `é` is not one.
#[test]
fn overlong_utf8() {
    for iri in [
        "http://example.com/scripts/..%c0%af../winnt/system32/cmd.exe?/c+dir",
        "http://example.com/a%E0%80%AFb",
        "http://example.com/%ED%A0%80",
        "http://example.com/a%80b",
    ] {
        has(&format!("{iri} "), iri, Warning::Overlong);
    }
    clean(
        "http://example.com/r%E9sum%E9",
        "http://example.com/r%E9sum%E9",
    );
    clean(
        "http://example.com/%E2%82%AC",
        "http://example.com/%E2%82%AC",
    );
}

/// Schemes a mail client must not open from a link. In running text an
/// unregistered scheme starts an IRI only before `//` (docs/rules.md
/// §1.1), so `javascript:` and `vbscript:` are found in the filter-bypass
/// form `javascript://…%0A…` (the `//` makes a comment, `%0A` ends it).
#[test]
fn dangerous_schemes() {
    for iri in [
        "javascript://example.com/%0Aalert(document.cookie)",
        "JavaScript://x/%0Avoid(0)",
        "vbscript://x/%0Amsgbox(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "file:///etc/passwd",
        "FILE://server/share/x.exe",
    ] {
        has(&format!("click {iri} here"), iri, Warning::Scheme);
    }
    clean("https://example.org/file", "https://example.org/file");
}

/// The RLO file-name trick (used in mail attachments and links since
/// 2011, Trend Micro's "gpj.exe" reports): U+202E after the host makes
/// `…/` RLO `gpj.exe` show as `…/exe.jpg`. The scanner ends the IRI at the
/// override; the warning says it is right there.
#[test]
fn bidi_override_next_to_or_in_the_iri() {
    has(
        "Photo: http://example.com/\u{202E}gpj.exe",
        "http://example.com/",
        Warning::Bidi,
    );
    has(
        "\u{2067}http://evil.example/moc.elgoog\u{2069}",
        "http://evil.example/moc.elgoog",
        Warning::Bidi,
    );
    // Right-to-left marks around a link in Arabic text are ordinary.
    clean(
        "\u{200F}http://example.ae/مقالة\u{200F} جديد",
        "http://example.ae/مقالة",
    );
}

/// Invisible characters: a soft hyphen in the host (UTS #46 maps it to
/// nothing, so `pay­pal.com` goes to paypal.com while it looks like
/// something else), a Hangul filler in the path, tag characters.
#[test]
fn invisible_characters() {
    for iri in [
        "http://pay\u{AD}pal.example/",
        "http://example.com/a\u{3164}b",
        "http://example.com/a\u{AD}b",
    ] {
        has(&format!("see {iri} now"), iri, Warning::Invisible);
    }
    // Persian needs its ZWNJ, Hindi its ZWJ after a virama.
    clean(
        "http://example.ir/می\u{200C}خواهم",
        "http://example.ir/می\u{200C}خواهم",
    );
}

#[test]
fn idna_leiri_and_truncated() {
    has(
        "http://r%E9sum%E9.example.org/",
        "http://r%E9sum%E9.example.org/",
        Warning::Idna,
    );
    has(
        "http://example.com/{x}",
        "http://example.com/{x}",
        Warning::Leiri,
    );
    let long = format!("http://example.com/{}", "a".repeat(600));
    let hit = Finder::new()
        .max_len(512)
        .find_iter(long.as_bytes())
        .next()
        .unwrap();
    assert!(hit.has_warning(Warning::Truncated));
}

/// Each code appears in Display as `code: message`, and parses back.
#[test]
fn codes_are_stable_and_parse() {
    let codes: Vec<&str> = Warning::ALL.iter().map(|w| w.as_str()).collect();
    assert_eq!(
        codes,
        [
            "leiri",
            "truncated",
            "idna",
            "bidi",
            "mixed-script",
            "confusable",
            "userinfo",
            "overlong",
            "scheme",
            "invisible"
        ]
    );
    for w in Warning::ALL {
        assert_eq!(w.to_string(), format!("{}: {}", w.as_str(), w.message()));
        assert_eq!(w.as_str().parse::<Warning>(), Ok(w));
    }
    let deny: Warnings = "bidi, userinfo,".parse().unwrap();
    assert_eq!(
        deny.iter().collect::<Vec<_>>(),
        [Warning::Bidi, Warning::Userinfo]
    );
    let err = "bidi,homograph"
        .parse::<Warnings>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"homograph\"") && err.contains("mixed-script"),
        "{err}"
    );
}

/// Ordinary links in twenty scripts: hosts in the script (under a
/// top-level domain of it where one exists), paths and queries in it, mail
/// addresses. None gets a warning.
#[test]
fn ordinary_iris_in_twenty_scripts_get_none() {
    let iris = [
        // Latin (French, German, Polish, Vietnamese)
        "http://www.exemple.fr/été/crème-brûlée",
        "https://bücher.example/straße?q=größe",
        "http://zażółć.pl/gęślą-jaźń",
        "https://tiếngviệt.vn/trang-chủ",
        // Greek
        "http://παράδειγμα.ελ/σελίδα",
        // Cyrillic
        "http://пример.рф/новости?id=5",
        "https://ru.wikipedia.org/wiki/Москва",
        // Armenian
        "http://օրինակ.հայ/էջ",
        // Georgian
        "http://მაგალითი.გე/გვერდი",
        // Hebrew
        "http://דוגמה.ישראל/עמוד",
        // Arabic
        "http://مثال.مصر/صفحة",
        // Persian (with its ZWNJ)
        "https://fa.wikipedia.org/wiki/می\u{200C}خواهم",
        // Devanagari (with a virama + ZWJ)
        "http://उदाहरण.भारत/पृष्ठ/क्\u{200D}ष",
        // Bengali
        "http://উদাহরণ.ভারত/পাতা",
        // Tamil
        "http://உதாரணம்.இந்தியா/பக்கம்",
        // Thai
        "http://ตัวอย่าง.ไทย/หน้า",
        // Ethiopic
        "http://ምሳሌ.example/ገጽ",
        // Khmer
        "http://ឧទាហរណ៍.example/ទំព័រ",
        // Han (Chinese)
        "http://例子.中国/文档/说明.html",
        // Japanese (Han and kana)
        "https://ja.wikipedia.org/wiki/東京都",
        "http://ドメイン名例.jp/お知らせ",
        // Hangul
        "http://실례.한국/소개",
        // Sinhala
        "http://උදාහරණ.ලංකා/පිටුව",
        // Tibetan
        "http://དཔེ.example/ཤོག",
        // Myanmar
        "http://ဥပမာ.example/စာမျက်နှာ",
    ];
    for iri in iris {
        let text = format!("Voir {iri} ici");
        clean(&text, iri);
    }
    for mail in ["marie@exemple.fr", "почта@пример.рф", "user@例え.jp"] {
        clean(&format!("à {mail} !"), &format!("mailto:{mail}"));
    }
}

/// URI → IRI shows a punycode host in Unicode only when it passes the
/// checks (RFC 3987bis §4 step 4, docs/rules.md §2 and §7.2).
#[test]
fn punycode_hosts_shown_in_unicode_only_when_safe() {
    let p = IriOptions::new().decode_punycode(true);
    assert_eq!(
        to_iri("http://xn--99zt52a.example.org/", &p),
        "http://納豆.example.org/"
    );
    for safe in [
        "http://пример.рф/",
        "http://παράδειγμα.ελ/",
        "http://ドメイン名例.jp/",
    ] {
        let ace = to_uri(safe, &UriOptions::new()).uri;
        assert_ne!(ace, safe);
        assert_eq!(to_iri(&ace, &p), safe, "{ace}");
    }
    for spoof in [
        "http://аррӏе.com/",
        "http://pаypal.com/",
        "http://www.gοοgle.com/",
    ] {
        let ace = to_uri(spoof, &UriOptions::new()).uri;
        assert_eq!(to_iri(&ace, &p), ace, "{spoof}");
    }
    assert_eq!(
        to_iri("http://xn--80ak6aa92e.com/", &p),
        "http://xn--80ak6aa92e.com/"
    );
}

/// Counting hits computes no warning; asking does, once. (The cost rule of
/// docs/rules.md §7.3, seen from outside: equal hits whatever was asked.)
#[test]
fn warnings_do_not_change_hits() {
    let text = "a http://pаypal.com/ b";
    let asked = hits(text);
    let _ = asked[0].warnings().count();
    assert_eq!(asked, hits(text));
}
