//! A mail client's view of a plain-text body: the body as HTML, every
//! valid IRI in it an anchor whose `href` is its URI, everything else
//! escaped.
//!
//! ```text
//! cargo run --example mail_to_html                # a built-in multilingual body
//! cargo run --example mail_to_html -- body.txt    # a file, in any charset
//! cargo run --example mail_to_html -- - < body.txt  # standard input
//! ```
//!
//! The body's charset is detected as the searcher does it (a BOM, a
//! declaration, valid UTF-8 or a guess), and the queries of `http(s)` URIs
//! are mapped in that charset (RFC 3987bis §3.5). Candidates that are not
//! valid IRIs stay text. `cargo test` runs the tests at the end of this
//! file.

use std::io::{Read, Write};

use iriscan::{Finder, UriOptions, detect, to_uri, transcode};

/// A body in several scripts, as a mail client might receive it.
const SAMPLE: &str = "\
Bonjour à tous,

Le programme est en ligne : https://exemple.fr/été/programme?jour=lundi&salle=B
(version imprimable : <https://exemple.fr/été/programme.pdf>).
Photos : www.exemple.fr/album — questions à marie.dupont@exemple.fr.

東京の会場はこちら：https://例え.jp/会場/地図。
Карта: http://пример.рф/карта?город=Москва, а в Каире — https://ar.wikipedia.org/wiki/القاهرة.
This one is broken and stays text: http://example.org/%zz.

<script>alert(\"not a tag\")</script> & 'quotes' stay text too.
";

/// `text` with `& < > " '` escaped for HTML text and attribute values.
fn escape(text: &str, out: &mut String) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
}

/// The body as HTML: each valid IRI an `<a href="URI">text</a>`, the rest
/// escaped. `opts` maps the IRIs to URIs (the document's charset for
/// queries, IDNA for hosts).
fn body_to_html(body: &str, opts: &UriOptions) -> String {
    let mut html = String::with_capacity(body.len() + body.len() / 4);
    let mut done = 0;
    for span in Finder::new().spans(body) {
        if !span.is_valid() {
            continue;
        }
        escape(&body[done..span.start()], &mut html);
        html.push_str("<a href=\"");
        escape(&to_uri(&span.iri(), opts).uri, &mut html);
        html.push_str("\">");
        escape(span.as_str(), &mut html);
        html.push_str("</a>");
        done = span.end();
    }
    escape(&body[done..], &mut html);
    html
}

/// A body's bytes as text in UTF-8, and the options that map its IRIs to
/// URIs in its charset.
fn decode(bytes: &[u8]) -> (String, UriOptions) {
    let prefix = &bytes[..bytes.len().min(iriscan::DETECTION_PREFIX_LEN)];
    let charset = detect(prefix, prefix.len() == bytes.len());
    let text = String::from_utf8_lossy(transcode(bytes, &charset).utf8()).into_owned();
    (text, UriOptions::new().query_encoding(charset.encoding()))
}

fn main() -> std::io::Result<()> {
    let bytes = match std::env::args_os().nth(1) {
        None => SAMPLE.as_bytes().to_vec(),
        Some(arg) if arg == "-" => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes)?;
            bytes
        }
        Some(path) => std::fs::read(path)?,
    };
    let (body, opts) = decode(&bytes);
    let mut out = std::io::stdout().lock();
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(
        out,
        "<html><head><meta charset=\"utf-8\"><title>Message</title></head><body>"
    )?;
    writeln!(
        out,
        "<div style=\"white-space: pre-wrap\">{}</div>",
        body_to_html(&body, &opts)
    )?;
    writeln!(out, "</body></html>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(body: &str) -> String {
        body_to_html(body, &UriOptions::new())
    }

    #[test]
    fn valid_iris_become_anchors_to_their_uris() {
        assert_eq!(
            html("voir https://例え.jp/パス?q=東京&x=1."),
            "voir <a href=\"https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%E6%9D%B1%E4%BA%AC&amp;x=1\">\
             https://例え.jp/パス?q=東京&amp;x=1</a>."
        );
        assert_eq!(
            html("écrire à marie@exemple.fr ou www.exemple.fr"),
            "écrire à <a href=\"mailto:marie@exemple.fr\">marie@exemple.fr</a> ou \
             <a href=\"http://www.exemple.fr\">www.exemple.fr</a>"
        );
    }

    #[test]
    fn everything_else_is_escaped() {
        assert_eq!(
            html("<b>\"x\" & 'y'</b>"),
            "&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;"
        );
        assert_eq!(
            html("<https://a.example/>"),
            "&lt;<a href=\"https://a.example/\">https://a.example/</a>&gt;"
        );
        // An invalid candidate is text, escaped like the rest.
        assert_eq!(html("bad: http://a/%zz<"), "bad: http://a/%zz&lt;");
    }

    #[test]
    fn the_queries_of_a_legacy_body_are_mapped_in_its_charset() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("検索：http://例え.jp/検索?q=東京 です。");
        let (body, opts) = decode(&sjis);
        assert_eq!(body, "検索：http://例え.jp/検索?q=東京 です。");
        assert!(body_to_html(&body, &opts).contains(
            "<a href=\"http://xn--r8jz45g.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E\">http://例え.jp/検索?q=東京</a>"
        ));
    }

    #[test]
    fn the_sample_links_every_valid_iri_and_nothing_else() {
        let out = html(SAMPLE);
        let valid: Vec<_> = Finder::new()
            .spans(SAMPLE)
            .filter(|s| s.is_valid())
            .collect();
        assert_eq!(valid.len(), 7);
        assert_eq!(out.matches("<a href=\"").count(), valid.len());
        assert_eq!(out.matches("</a>").count(), valid.len());
        assert!(out.contains("http://example.org/%zz."));
        // Outside the anchors' own markup, no character HTML would read.
        let mut rest = out.clone();
        for span in &valid {
            let iri = span.iri();
            let mut href = String::new();
            escape(&to_uri(&iri, &UriOptions::new()).uri, &mut href);
            rest = rest.replacen(&format!("<a href=\"{href}\">"), "", 1);
        }
        rest = rest.replace("</a>", "");
        assert!(!rest.contains(['<', '>', '"', '\'']), "{rest}");
        // Removing the markup and unescaping gives the body back.
        let back = rest
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&");
        assert_eq!(back, SAMPLE);
    }
}
