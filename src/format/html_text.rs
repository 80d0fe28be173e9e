//! The text of an HTML mail part as the finder is shown it, for now: the
//! words a reader sees, with character references decoded, and the values
//! of the attributes that hold links.
//!
//! Scanning HTML as plain text gets links wrong: `href="…?a=1&amp;b=2"`
//! is the link `…?a=1&b=2`, and `caf&eacute;` is `café`. This pass makes
//! the text a reader would see, in one walk over the HTML, linear in its
//! length whatever it holds (an unterminated tag or comment ends at the
//! end of the input):
//!
//! - character references are decoded: numeric ones (`&#233;`, `&#xE9;`)
//!   and the named ones of HTML 4 for markup and Latin-1 (`&amp;`, `&lt;`,
//!   `&nbsp;`, `&eacute;`, …); others are left as they are;
//! - a tag becomes a space; the value of a link attribute (`href`, `src`,
//!   `action`, `cite`, `background`, `longdesc`, `poster`) is written as a
//!   word of its own, decoded the same way;
//! - comments, `<script>` and `<style>` are dropped.
//!
//! It is no HTML parser: the HTML reader of a later step replaces it (and
//! gives offsets into the HTML). Hits in this text have offsets into it
//! (docs/rules.md §5.1).

/// The attributes whose value is a link (HTML 4 and 5).
const LINK_ATTRIBUTES: [&str; 7] = [
    "href",
    "src",
    "action",
    "cite",
    "background",
    "longdesc",
    "poster",
];

/// The HTML 4 names of U+00A0 to U+00FF, in order.
const LATIN1: [&str; 96] = [
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf",
    "laquo", "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro",
    "para", "middot", "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
    "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave", "Eacute",
    "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve", "Oacute",
    "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute",
    "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
    "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml", "eth", "ntilde",
    "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave", "uacute", "ucirc",
    "uuml", "yacute", "thorn", "yuml",
];

/// The text of `html` a reader sees, with the link attributes' values.
#[cfg_attr(not(feature = "mail"), allow(dead_code))]
pub(crate) fn html_text(html: &str) -> String {
    html_text_resolving(html, None)
}

/// [`html_text`], with relative link attribute values resolved against
/// `base` (a WARC record's target URI), or against the page's own
/// `<base href>` when it has one.
pub(crate) fn html_text_resolving(html: &str, base: Option<&str>) -> String {
    let mut base = base.map(str::to_string);
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len());
    let mut i = 0;
    while i < bytes.len() {
        // Up to the next markup or reference, copied as it is.
        let next = memchr::memchr2(b'<', b'&', &bytes[i..]).map_or(bytes.len(), |n| i + n);
        out.push_str(&html[i..next]);
        i = next;
        if i >= bytes.len() {
            break;
        }
        if bytes[i] == b'&' {
            i = push_reference(html, i, &mut out);
            continue;
        }
        let rest = &bytes[i + 1..];
        if rest.starts_with(b"!--") {
            i = find_from(bytes, i + 4, b"-->").map_or(bytes.len(), |end| end + 3);
            out.push(' ');
        } else if rest
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || b"/!?".contains(b))
        {
            let (end, name_is) = tag(html, i, &mut out, &mut base);
            i = end;
            // The content of a script or a style is not text.
            for element in ["script", "style"] {
                if name_is(element) {
                    i = closing_tag(bytes, i, element);
                }
            }
        } else {
            out.push('<');
            i += 1;
        }
    }
    out
}

/// Reads the tag at `start` (a `<`), writing a space and the values of its
/// link attributes to `out`; returns the end of the tag and a test of its
/// name.
fn tag<'h>(
    html: &'h str,
    start: usize,
    out: &mut String,
    base: &mut Option<String>,
) -> (usize, impl Fn(&str) -> bool + 'h) {
    let bytes = html.as_bytes();
    let is_name = |b: u8| !(b.is_ascii_whitespace() || b"/>=\"'".contains(&b));
    let mut i = start + 1;
    let name_start = i;
    while i < bytes.len() && is_name(bytes[i]) {
        i += 1;
    }
    let name = &html[name_start..i];
    out.push(' ');
    // Attributes: name, optionally `=` and a value, quoted or not.
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b'>' {
            break;
        }
        let attr_start = i;
        while i < bytes.len() && is_name(bytes[i]) {
            i += 1;
        }
        if i == attr_start {
            // A stray quote or `=`: step over it.
            i += 1;
            continue;
        }
        let attr = &html[attr_start..i];
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if j >= bytes.len() || bytes[j] != b'=' {
            continue;
        }
        j += 1;
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        let (value_start, value_end, next) = match bytes.get(j) {
            Some(&q @ (b'"' | b'\'')) => {
                let end = memchr::memchr(q, &bytes[j + 1..]).map_or(bytes.len(), |n| j + 1 + n);
                (j + 1, end, (end + 1).min(bytes.len()))
            }
            _ => {
                let mut end = j;
                while end < bytes.len() && !(bytes[end].is_ascii_whitespace() || bytes[end] == b'>')
                {
                    end += 1;
                }
                (j, end, end)
            }
        };
        if LINK_ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(attr)) {
            let value = &html[value_start..value_end];
            let mut decoded = String::with_capacity(value.len());
            let mut k = 0;
            while k < value.len() {
                let amp =
                    memchr::memchr(b'&', &value.as_bytes()[k..]).map_or(value.len(), |n| k + n);
                decoded.push_str(&value[k..amp]);
                k = if amp < value.len() {
                    push_reference(value, amp, &mut decoded)
                } else {
                    amp
                };
            }
            let resolved = base.as_deref().and_then(|b| resolved(b, decoded.trim()));
            if name.eq_ignore_ascii_case("base") && attr.eq_ignore_ascii_case("href") {
                *base = resolved
                    .clone()
                    .or_else(|| Some(decoded.trim().to_string()));
            }
            out.push_str(resolved.as_deref().unwrap_or(&decoded));
            out.push(' ');
        }
        i = next;
    }
    let end = (i + 1).min(bytes.len());
    (end, move |element: &str| name.eq_ignore_ascii_case(element))
}

/// A relative reference resolved against `base`; `None` for an absolute
/// one (the finder reads it as it is), a fragment of the page itself, an
/// empty one, or one that does not resolve.
fn resolved(base: &str, reference: &str) -> Option<String> {
    let scheme_len = reference
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b"+-.".contains(&b)));
    let has_scheme = reference
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        && scheme_len.is_some_and(|n| reference.as_bytes()[n] == b':');
    if has_scheme || reference.is_empty() || reference.starts_with('#') {
        return None;
    }
    // A browser percent-encodes what a URL cannot hold (a space in a
    // file name); the reference is read the same way.
    let mut escaped = String::with_capacity(reference.len());
    for c in reference.chars() {
        match c {
            ' ' | '"' | '<' | '>' | '`' | '{' | '}' | '|' | '^' => {
                escaped.push_str(&format!("%{:02X}", c as u32));
            }
            c if c.is_ascii_control() => escaped.push_str(&format!("%{:02X}", c as u32)),
            c => escaped.push(c),
        }
    }
    crate::resolve(base, &escaped).ok()
}

/// Decodes the character reference at `start` (an `&`) into `out`, or
/// copies the `&` when there is none; returns where the text goes on.
fn push_reference(text: &str, start: usize, out: &mut String) -> usize {
    let bytes = text.as_bytes();
    // Names and numbers are short: a `;` further than this ends no reference.
    let window = &bytes[start + 1..bytes.len().min(start + 1 + 32)];
    let decoded = memchr::memchr(b';', window).and_then(|semi| {
        let body = &text[start + 1..start + 1 + semi];
        let ch = if let Some(number) = body.strip_prefix('#') {
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => number.parse::<u32>().ok(),
            }?;
            Some(
                char::from_u32(code)
                    .filter(|&c| c != '\0')
                    .unwrap_or('\u{FFFD}'),
            )
        } else {
            named(body)
        }?;
        Some((ch, start + 2 + semi))
    });
    match decoded {
        Some((ch, next)) => {
            out.push(ch);
            next
        }
        None => {
            out.push('&');
            start + 1
        }
    }
}

/// The character of a named reference this pass knows.
fn named(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let i = LATIN1.iter().position(|&n| n == name)?;
            char::from_u32(0xA0 + i as u32)?
        }
    })
}

/// The position of `needle` in `bytes` from `from` on.
fn find_from(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes.get(from..)?, needle).map(|n| from + n)
}

/// The end of the closing tag `</element …>` after `from`, or the end of
/// the input.
fn closing_tag(bytes: &[u8], from: usize, element: &str) -> usize {
    let mut i = from;
    while let Some(at) = find_from(bytes, i, b"</") {
        let name = &bytes[at + 2..];
        if name.len() >= element.len()
            && name[..element.len()].eq_ignore_ascii_case(element.as_bytes())
        {
            return find_from(bytes, at, b">").map_or(bytes.len(), |end| end + 1);
        }
        i = at + 2;
    }
    bytes.len()
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
    fn relative_links_are_resolved_against_the_base() {
        let html = "<a href=\"../b?x=1&amp;y=2\">b</a> <a href='#top'>t</a> \
                    <a href=\"mailto:a@ex.org\">m</a><base href=\"/docs/\"><img src=i.png>";
        assert_eq!(
            html_text_resolving(html, Some("http://ex.org/a/c.html")),
            " http://ex.org/b?x=1&y=2 b   #top t   mailto:a@ex.org m  http://ex.org/docs/  http://ex.org/docs/i.png "
        );
        assert_eq!(
            html_text_resolving(
                "<img src=\"g/Thailand 2011/i.jpg\">",
                Some("http://ex.org/p/")
            ),
            " http://ex.org/p/g/Thailand%202011/i.jpg "
        );
        // No base: as before.
        assert_eq!(html_text("<a href=\"../b\">b</a>"), " ../b b ");
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
