//! The charset of a MIME text part: the rules of docs/rules.md §3 applied
//! to each part, with the part's `charset=` parameter as its declaration.
//!
//! The parser decodes every text part with the charset the part declares
//! (or as UTF-8 when it declares none). That is right for almost every
//! part, and the check here is cheap for them: a part declared UTF-8, or
//! one without a declaration whose text decoded cleanly, is left as the
//! parser gave it. Two cases are decided again on the part's bytes (its
//! transfer encoding undone):
//!
//! - a part declared in a legacy charset whose bytes are valid UTF-8 with
//!   non-ASCII characters is UTF-8: legacy text almost never forms valid
//!   UTF-8 by chance, and mailers that re-encode a body without relabelling
//!   it are common (§3: valid UTF-8 comes before a declaration);
//! - a part that declares nothing (or a label no one knows) and is not
//!   UTF-8 is read with the charset that the document's own declaration
//!   (an HTML `<meta charset>`) or the detector gives, instead of UTF-8
//!   with replacement characters.
//!
//! The charset chosen is also the document charset of the part's hits, so
//! that an `http` query is mapped in it (§2).

use encoding_rs::{Encoding, UTF_8};
use mail_parser::decoders::base64::base64_decode;
use mail_parser::decoders::quoted_printable::quoted_printable_decode;
use mail_parser::{MessagePart, MimeHeaders};

use crate::charset::detect::{Charset, CharsetSource, detect};

/// How a part's text is to be read: the parser's text, or the part decoded
/// again; and the charset it is in.
pub(crate) struct PartText {
    /// The text decoded again, when the rules chose another charset than
    /// the parser did.
    pub(crate) redecoded: Option<String>,
    /// The part's charset and the rule that chose it (UTF-8 for UTF-7,
    /// which the Encoding Standard does not know: its IRIs are mapped as
    /// UTF-8).
    pub(crate) charset: Charset,
}

/// Chooses the charset of a text part whose parser-decoded text is
/// `parsed`; `raw` is the bytes of the message the part is in.
pub(crate) fn part_text(part: &MessagePart<'_>, raw: &[u8], parsed: &str) -> PartText {
    let declared_label = part
        .content_type()
        .and_then(|ct| ct.attribute("charset"))
        .map(str::trim);
    let declared = declared_label.and_then(|l| Encoding::for_label(l.as_bytes()));
    let keep = |encoding, source| PartText {
        redecoded: None,
        charset: Charset::chosen(encoding, source),
    };
    let utf7 = declared_label.is_some_and(|l| l.eq_ignore_ascii_case("utf-7"));
    if declared == Some(UTF_8) || utf7 {
        return keep(UTF_8, CharsetSource::Declaration);
    }
    if let Some(declared) = declared {
        // Declared in a legacy charset: UTF-8 only if the bytes are valid
        // UTF-8 with non-ASCII characters (a part whose text is ASCII had
        // ASCII bytes, unless the charset is a 7-bit one like ISO-2022-JP,
        // whose bytes are never UTF-8 with non-ASCII characters).
        if parsed.is_ascii() {
            return keep(declared, CharsetSource::Declaration);
        }
        return match transfer_decoded(part, raw) {
            Some(bytes) if !bytes.is_ascii() => match String::from_utf8(bytes) {
                Ok(utf8) => PartText {
                    redecoded: Some(utf8),
                    charset: Charset::chosen(UTF_8, CharsetSource::Utf8).overriding(declared),
                },
                Err(_) => keep(declared, CharsetSource::Declaration),
            },
            _ => keep(declared, CharsetSource::Declaration),
        };
    }
    if !parsed.contains(['\u{FFFD}', '\u{1B}']) {
        // No declaration, and valid UTF-8 (or ASCII): read as such.
        return keep(UTF_8, CharsetSource::Utf8);
    }
    let Some(bytes) = transfer_decoded(part, raw) else {
        return keep(UTF_8, CharsetSource::Utf8);
    };
    // No declaration and not UTF-8: the part's own declaration (an HTML
    // <meta>) or the detector.
    let found = detect(&bytes, true);
    let chosen = found.encoding();
    if chosen == UTF_8 {
        return keep(UTF_8, found.source());
    }
    let text = &bytes[found.bom_len()..];
    let (decoded, _) = chosen.decode_without_bom_handling(text);
    PartText {
        redecoded: Some(decoded.into_owned()),
        charset: Charset::chosen(chosen, found.source()),
    }
}

/// The part's body bytes with the transfer encoding undone, or `None` if
/// it does not decode (the parser then kept the bytes as they are, and so
/// does the caller).
fn transfer_decoded(part: &MessagePart<'_>, raw: &[u8]) -> Option<Vec<u8>> {
    let body = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    match part.encoding {
        mail_parser::Encoding::None => Some(body.to_vec()),
        mail_parser::Encoding::QuotedPrintable => quoted_printable_decode(body),
        mail_parser::Encoding::Base64 => base64_decode(body),
    }
}
