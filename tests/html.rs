//! HTML (docs/rules.md §6): pages tokenized as a browser does, text
//! content scanned with character references decoded, link attributes
//! resolved against the page's base, raw offsets into the page as given,
//! and hostile pages read in bounded memory and linear work. (The real
//! pages of `corpus/html/` are checked in `html/corpus.rs`.)

use iriscan::{Finder, HtmlScanner, Kind, StructuredHit, TEXT_FLUSH};

mod corpus;

fn scan(page: &str, base: Option<&str>) -> Vec<StructuredHit<'static>> {
    HtmlScanner::new(Finder::new())
        .base(base)
        .scan(page.as_bytes(), None)
}

/// `(source, kind, iri)` of the valid hits.
fn found(hits: &[StructuredHit<'_>]) -> Vec<(String, &'static str, String)> {
    hits.iter()
        .filter(|h| h.hit().is_valid())
        .map(|h| {
            (
                h.origin().source().to_string(),
                h.hit().kind().as_str(),
                h.hit().iri().to_string(),
            )
        })
        .collect()
}

fn t(source: &str, kind: &'static str, iri: &str) -> (String, &'static str, String) {
    (source.to_string(), kind, iri.to_string())
}

#[test]
fn character_references_are_decoded_in_text_and_attributes() {
    let page = "<p>https://ex.org/caf&eacute;?a=1&amp;b=2 and https://ex.org/&#x4E2D;&#25991; \
                https://ex.org/&Uuml;ber&NotNestedLessLess;x</p>\
                <a href=\"https://ex.org/a?x=1&amp;y=2&copy\">x</a>";
    assert_eq!(
        found(&scan(page, None)),
        [
            t("text/html", "iri", "https://ex.org/café?a=1&b=2"),
            t("text/html", "iri", "https://ex.org/中文"),
            // A WHATWG name HTML 4 did not have: one character of its own.
            t("text/html", "iri", "https://ex.org/Über\u{2AA1}\u{338}x"),
            // In an attribute, a legacy reference without `;` is decoded.
            t("attr:href", "href", "https://ex.org/a?x=1&y=2©"),
        ]
    );
}

#[test]
fn scripts_styles_and_comments_are_not_text() {
    let page = "<script>var u = 'http://script.example/';</script>\
                <style>p { background: url(http://style.example/) }</style>\
                <!-- http://comment.example/ --><noscript>http://noscript.example/</noscript>\
                <title>http://title.example/</title><textarea>http://textarea.example/</textarea>\
                <p>http://text.example/</p>";
    assert_eq!(
        found(&scan(page, None)),
        [
            t("text/html", "iri", "http://title.example/"),
            t("text/html", "iri", "http://textarea.example/"),
            t("text/html", "iri", "http://text.example/"),
        ]
    );
}

#[test]
fn link_attributes_resolve_against_the_base() {
    let page = r##"<head><base href="/doc/v2/"></head>
        <a href="../guide/intro.html#start">x</a> <img src="img/logo.png"
        srcset="a.png 1x, https://cdn.example/b.png 2x,c.png 3x"> <form action="?q=1"></form>
        <blockquote cite="//other.example/q"></blockquote> <video poster="p.jpg"></video>
        <object data="o.svg"></object> <button formaction="/go"></button>
        <img longdesc="d.html"> <html manifest="app.appcache"> <body background="bg.gif">
        <a href="  mailto:bob@example.org "></a> <a href="#top"></a> <a href="">"##;
    let base = "https://example.org/doc/v1/page.html";
    assert_eq!(
        found(&scan(page, Some(base))),
        [
            t("attr:href", "href", "https://example.org/doc/v2/"),
            t(
                "attr:href",
                "href",
                "https://example.org/doc/guide/intro.html#start"
            ),
            t(
                "attr:src",
                "href",
                "https://example.org/doc/v2/img/logo.png"
            ),
            t("attr:srcset", "href", "https://example.org/doc/v2/a.png"),
            t("attr:srcset", "href", "https://cdn.example/b.png"),
            t("attr:srcset", "href", "https://example.org/doc/v2/c.png"),
            t("attr:action", "href", "https://example.org/doc/v2/?q=1"),
            t("attr:cite", "href", "https://other.example/q"),
            t("attr:poster", "href", "https://example.org/doc/v2/p.jpg"),
            t("attr:data", "href", "https://example.org/doc/v2/o.svg"),
            t("attr:formaction", "href", "https://example.org/go"),
            t("attr:longdesc", "href", "https://example.org/doc/v2/d.html"),
            t(
                "attr:manifest",
                "href",
                "https://example.org/doc/v2/app.appcache"
            ),
            t(
                "attr:background",
                "href",
                "https://example.org/doc/v2/bg.gif"
            ),
            t("attr:href", "href", "mailto:bob@example.org"),
        ]
    );
}

#[test]
fn what_a_browser_would_not_follow_elsewhere_is_no_link() {
    // A fragment alone names the page itself; script URLs are code.
    let page = r##"<a href="#top">t</a> <a href="#">h</a> <a href=" #x">s</a>
        <a href="javascript:void(0)">j</a> <a href="JavaScript:go('/a')">J</a>
        <a href="vbscript:msgbox">v</a> <a href="javascript-guide.html">g</a>
        <a href="page.html#top">p</a>"##;
    let hits = scan(page, Some("https://example.org/d/i.html"));
    assert_eq!(
        found(&hits),
        [
            t(
                "attr:href",
                "href",
                "https://example.org/d/javascript-guide.html"
            ),
            t("attr:href", "href", "https://example.org/d/page.html#top"),
        ]
    );
    assert_eq!(hits.len(), 2, "no invalid hit either: {hits:?}");
}

#[test]
fn what_a_url_cannot_hold_is_percent_encoded_as_browsers_do() {
    let page = r#"<a href="My Files/r&eacute;sum&eacute; 2024.pdf">cv</a>
        <a href="/q?a=b c&amp;d=<e>">q</a> <a href="https://ex.org/a b">abs</a>"#;
    let hits = scan(page, Some("https://example.org/d/"));
    assert_eq!(
        found(&hits),
        [
            t(
                "attr:href",
                "href",
                "https://example.org/d/My%20Files/résumé%202024.pdf"
            ),
            t(
                "attr:href",
                "href",
                "https://example.org/q?a=b%20c&d=%3Ce%3E"
            ),
            t("attr:href", "href", "https://ex.org/a%20b"),
        ]
    );
    // The hit's text is the value as written (references decoded).
    assert_eq!(hits[0].hit().text(), "My Files/résumé 2024.pdf");
}

#[test]
fn a_relative_link_without_a_base_is_invalid() {
    let hits = scan(
        "<a href=\"guide.html\">x</a><a href=\"https://ex.org/\">y</a>",
        None,
    );
    assert_eq!(hits.len(), 2);
    assert!(!hits[0].hit().is_valid());
    assert_eq!(hits[0].hit().kind(), Kind::Href);
    assert_eq!(found(&hits), [t("attr:href", "href", "https://ex.org/")]);
}

#[test]
fn raw_offsets_slice_the_page() {
    let page = "<p>Voir\r\n  https://ex.org/a?x=1&amp;y=2 ou <a class=x href='/caf&eacute;'>\
                https://ex.org/b</a> http://ex.org/&#x4E2D;</p>";
    let hits = scan(page, Some("https://ex.org/"));
    let raws: Vec<&str> = hits
        .iter()
        .map(|h| {
            let r = h.raw_range().unwrap();
            &page[r.start as usize..r.end as usize]
        })
        .collect();
    assert_eq!(
        raws,
        [
            "https://ex.org/a?x=1&amp;y=2",
            "/caf&eacute;",
            "https://ex.org/b",
            "http://ex.org/&#x4E2D;",
        ]
    );
    // Lines and columns are the page's: the second line, byte 3.
    assert_eq!((hits[0].hit().line(), hits[0].hit().column()), (2, 3));
}

#[test]
fn the_declared_charset_is_honoured_and_offsets_are_into_the_original_bytes() {
    let html = "<meta charset=\"shift_jis\"><p>詳細は https://例え.jp/案内 を参照</p>\
                <a href=\"https://例え.jp/手引き\">x</a>";
    let bytes = encoding_rs::SHIFT_JIS.encode(html).0.into_owned();
    let scanner = HtmlScanner::new(Finder::new());
    let mut hits = Vec::new();
    let summary = scanner.scan_with(&bytes, None, |h| hits.push(h));
    assert_eq!(summary.charset().name(), "Shift_JIS");
    assert_eq!(
        found(&hits),
        [
            t("text/html", "iri", "https://例え.jp/案内"),
            t("attr:href", "href", "https://例え.jp/手引き"),
        ]
    );
    let r = hits[0].raw_range().unwrap();
    let (raw, _, _) = encoding_rs::SHIFT_JIS.decode(&bytes[r.start as usize..r.end as usize]);
    assert_eq!(raw, "https://例え.jp/案内");
    // The query is mapped in the document's charset (docs/rules.md §3).
    assert_eq!(hits[0].hit().document_encoding(), encoding_rs::SHIFT_JIS);
    // A caller's charset wins over the declaration.
    let latin = b"<meta charset=utf-8><p>http://ex.org/caf\xe9</p>";
    let hits = scanner.scan(latin, Some(encoding_rs::WINDOWS_1252));
    assert_eq!(hits[0].hit().iri(), "http://ex.org/café");
    assert_eq!(hits[0].raw_range(), Some(23..41));
}

#[test]
fn a_scanned_unit_is_named_in_the_origin() {
    let hits = HtmlScanner::new(Finder::new())
        .unit(7, Some("urn:uuid:1".into()))
        .scan(b"<p>http://ex.org/</p>", None);
    assert_eq!(hits[0].origin().index(), 7);
    assert_eq!(hits[0].origin().id(), Some("urn:uuid:1"));
}

/// Scans `page`, returning the work and held counters.
fn cost(page: &[u8]) -> (u64, usize, usize) {
    let mut n = 0;
    let summary = HtmlScanner::new(Finder::new())
        .base(Some("https://ex.org/"))
        .scan_with(page, Some(encoding_rs::UTF_8), |_| n += 1);
    (summary.work(), summary.held(), n)
}

/// Makes a page of about `n` bytes.
type PageMaker = fn(usize) -> Vec<u8>;

#[test]
fn hostile_pages_are_linear_and_bounded() {
    let mib = 1 << 18;
    let makers: [(&str, PageMaker); 7] = [
        ("a long attribute value", |n| {
            format!("<a href=\"http://ex.org/{}\">x</a>", "a".repeat(n)).into_bytes()
        }),
        ("an unterminated attribute value", |n| {
            format!("<a href=\"{}", "&amp;".repeat(n / 5)).into_bytes()
        }),
        ("an unterminated comment", |n| {
            format!("<!-- {}", "<a ".repeat(n / 3)).into_bytes()
        }),
        ("unterminated tags", |n| "<a <b ".repeat(n / 6).into_bytes()),
        ("deeply nested tags", |n| "<div>".repeat(n / 5).into_bytes()),
        ("a script that never ends", |n| {
            format!("<script>{}", "</scrip".repeat(n / 7)).into_bytes()
        }),
        ("text without markup", |n| {
            "see http://ex.org/a&amp;b ".repeat(n / 27).into_bytes()
        }),
    ];
    for (what, make) in makers {
        let small = make(mib);
        let large = make(8 * mib);
        let (work_small, held_small, _) = cost(&small);
        let (work_large, held_large, _) = cost(&large);
        // Linear: eight times the input (256 KiB, then 2 MiB), at most
        // nine times the work.
        assert!(
            work_large <= 9 * work_small.max(1) && work_large <= 2 * large.len() as u64,
            "{what}: work {work_small} then {work_large}"
        );
        // Bounded: what is held does not grow with the input.
        let bound = 3 * TEXT_FLUSH + Finder::new().max_iri_len();
        assert!(
            held_large <= bound && held_small <= bound,
            "{what}: held {held_small} then {held_large} (bound {bound})"
        );
    }
}

#[test]
fn a_100_mib_attribute_value_is_held_to_the_maximum_length() {
    let mut page = b"<p>http://before.example/</p><a href=\"http://ex.org/".to_vec();
    page.resize(page.len() + (100 << 20), b'a');
    page.extend_from_slice(b"\">x</a><p>http://after.example/</p>");
    let mut iris = Vec::new();
    let summary = HtmlScanner::new(Finder::new()).scan_with(&page, Some(encoding_rs::UTF_8), |h| {
        iris.push(h.hit().iri().to_string())
    });
    // The value is longer than any IRI reported: no link, and not held.
    assert_eq!(iris, ["http://before.example/", "http://after.example/"]);
    assert!(summary.held() <= Finder::new().max_iri_len() + 3 * TEXT_FLUSH);
}

#[test]
fn a_long_run_of_text_is_scanned_in_pieces_without_losing_a_link() {
    // 1 MiB of text with no markup: scanned in pieces cut at white space.
    let unit = "word https://ex.org/path/to/a/page?q=1 ";
    let n = (1 << 20) / unit.len();
    let page = format!("<p>{}</p>", unit.repeat(n));
    let (_, held, hits) = cost(page.as_bytes());
    assert_eq!(hits, n);
    assert!(held <= 3 * TEXT_FLUSH, "held {held}");
    let hits = scan(&page, None);
    for h in hits.iter().step_by(997) {
        let r = h.raw_range().unwrap();
        assert_eq!(
            &page[r.start as usize..r.end as usize],
            "https://ex.org/path/to/a/page?q=1"
        );
        assert_eq!(h.start() + 3, r.start as usize);
    }
}

#[test]
fn an_attribute_value_that_starts_with_a_reference_is_sliced_without_its_quote() {
    for page in [
        "<a href=\"&#104;ttp://ex.org/\">x</a>",
        "<a href='&#104;ttp://ex.org/'>x</a>",
        "<a href=&#104;ttp://ex.org/>x</a>",
    ] {
        let hits = scan(page, None);
        assert_eq!(hits[0].hit().iri(), "http://ex.org/");
        let r = hits[0].raw_range().unwrap();
        assert_eq!(
            &page[r.start as usize..r.end as usize],
            "&#104;ttp://ex.org/",
            "{page}"
        );
    }
}
