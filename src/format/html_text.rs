//! The text of an HTML mail part as the finder is shown it: the words a
//! reader sees, with character references decoded, and the values of the
//! attributes that hold links, as one string.
//!
//! Scanning HTML as plain text gets links wrong: `href="…?a=1&amp;b=2"`
//! is the link `…?a=1&b=2`, and `caf&eacute;` is `café`. The page is read
//! by the HTML reader ([`html_tokens`](super::html_tokens): a WHATWG
//! tokenizer, every named reference, scripts, styles and comments
//! dropped), and what it hands over is written out:
//!
//! - text content as it is, decoded;
//! - a tag as a space, so that no link spans markup;
//! - the value of a link attribute (`href`, `src`, `srcset`, …) as a word
//!   of its own, decoded.
//!
//! A mail part has no base: a relative link is no IRI, and the finder
//! finds only the absolute ones. Hits in this text have offsets into it
//! (docs/rules.md §5.1); the HTML reader with offsets into the page is
//! [`HtmlScanner`](crate::HtmlScanner).

use std::ops::Range;

use crate::format::html_tokens::{PageVisitor, read_page};

/// Writes what the reader hands over into a string.
struct TextWriter<'o> {
    out: &'o mut String,
}

impl PageVisitor for TextWriter<'_> {
    fn text(&mut self, text: &[u8], _raw: Range<usize>, _verbatim: bool) {
        self.out.push_str(&String::from_utf8_lossy(text));
    }

    fn boundary(&mut self) {
        self.out.push(' ');
    }

    fn link(&mut self, _tag: &[u8], _name: &str, value: &[u8], _raw: Range<usize>, complete: bool) {
        if complete {
            self.out.push_str(&String::from_utf8_lossy(value));
            self.out.push(' ');
        }
    }

    fn end(&mut self, _calls: u64, _held: usize) {}
}

/// The text of `html` a reader sees, with the link attributes' values.
pub(crate) fn html_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let writer = TextWriter { out: &mut out };
    // A mail part is held whole anyway: values are kept up to its length.
    read_page(html.as_bytes(), writer, html.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_decoded_and_link_attributes_taken() {
        let html = "<p class=x>Voir <a href=\"https://ex.org/a?x=1&amp;y=2\">le caf&eacute;</a> \
                    &#x4E2D;&#25991; &bogus; a&b <img src='http://img.example/i.png' alt=\"http://no.example/alt\"></p>";
        assert_eq!(
            html_text(html),
            " Voir  https://ex.org/a?x=1&y=2 le café  中文 &bogus; a&b  http://img.example/i.png  "
        );
    }

    #[test]
    fn comments_scripts_and_styles_are_dropped() {
        let html = "a<!-- http://c.example -->b<script>x = 'http://s.example'</script>c\
                    <STYLE>p{background:url(http://st.example)}</Style>d";
        assert_eq!(html_text(html), "a b c d");
    }

    #[test]
    fn unterminated_markup_ends_at_the_end() {
        for html in [
            "<a href=\"http://x.example",
            "<!-- never",
            "<script>x",
            "x <",
            "&#",
            "&#x110000;",
        ] {
            // No panic, and nothing read twice (each ends within one pass).
            let _ = html_text(html);
        }
        assert_eq!(html_text("&#x110000; &#0;"), "\u{FFFD} \u{FFFD}");
    }

    #[test]
    fn long_hostile_html_is_linear() {
        // A megabyte attribute value, a megabyte of `<a` without `>`, of
        // `&` without `;`, of `</` without `script`: one pass each.
        let n = 1 << 20;
        let inputs = [
            format!("<a href=\"{}", "x".repeat(n)),
            "<a ".repeat(n / 3),
            "&".repeat(n),
            format!("<script>{}", "</".repeat(n / 2)),
            "<a b=".repeat(n / 5),
        ];
        for html in &inputs {
            assert!(html_text(html).len() <= 2 * html.len() + 2);
        }
    }
}
