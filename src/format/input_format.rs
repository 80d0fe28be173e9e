//! Which reader an input needs: running text, mail, an HTML page or a web
//! archive, told from its first bytes and its name (docs/rules.md §4, "Formats").
//!
//! A crawler hands over files named `.warc.gz`, a mail client an `.eml`, a
//! pipe has no name at all: so the content decides first where it can
//! (magic bytes: `WARC/1.`, a gzip member holding one), then the name's
//! extension (a `.html` fragment that does not start with a tag), then the
//! content again (a header block, an HTML start tag). What is none of
//! these is text.
//!
//! [`InputFormat::sniff`] looks at as few bytes as it can: on a pipe, the
//! first line of a log already says "text", so a reader that waits for
//! more would hold back the hits of `tail -f`. It answers `None` while
//! what it has could still be the start of a structured format and more
//! may come.

use std::fmt;
use std::str::FromStr;

/// How far [`InputFormat::sniff`] looks at most: past this, what is not
/// yet decided is decided on what was seen.
pub const SNIFF_MAX: usize = 4096;

/// The reader an input needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// Running text (the text path).
    Text,
    /// An RFC 5322 message or an mbox of them.
    Mail,
    /// An HTML page.
    Html,
    /// A WARC or WET file, plain or gzip-compressed.
    Warc,
}

impl InputFormat {
    /// The name `--format` takes: `text`, `mail`, `html`, `warc`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Text => "text",
            InputFormat::Mail => "mail",
            InputFormat::Html => "html",
            InputFormat::Warc => "warc",
        }
    }

    /// The format an input's name says, by its extension (case ignored,
    /// after a compression suffix `.gz`, `.bz2`, `.xz`, `.zst`):
    /// `.eml`, `.mbox`, `.mbx` mail; `.html`, `.htm`, `.xhtml`, `.shtml`
    /// HTML; `.warc`, `.wet` a web archive. `None` for any other name.
    pub fn by_name(name: &[u8]) -> Option<InputFormat> {
        let base = name.rsplit(|&b| b == b'/').next().unwrap_or(name);
        let lower = base.to_ascii_lowercase();
        let mut stem: &[u8] = &lower;
        for suffix in [&b".gz"[..], b".bz2", b".xz", b".zst"] {
            if let Some(s) = stem.strip_suffix(suffix) {
                stem = s;
                break;
            }
        }
        let ext = stem.rsplit(|&b| b == b'.').next()?;
        if ext.len() == stem.len() {
            return None;
        }
        match ext {
            b"eml" | b"mbox" | b"mbx" => Some(InputFormat::Mail),
            b"html" | b"htm" | b"xhtml" | b"shtml" => Some(InputFormat::Html),
            b"warc" | b"wet" => Some(InputFormat::Warc),
            _ => None,
        }
    }

    /// The format of an input that starts with `head` and is named `name`
    /// (`None` for standard input); `complete` says `head` is the whole
    /// input. `None` when more bytes are needed to tell (see the module
    /// docs); with `complete`, or `head` of [`SNIFF_MAX`] bytes or more,
    /// the answer is always `Some`.
    pub fn sniff(head: &[u8], complete: bool, name: Option<&[u8]>) -> Option<InputFormat> {
        InputFormat::told(head, complete, name).map(|(format, _)| format)
    }

    /// [`sniff`](InputFormat::sniff), with what told the format: a tool
    /// announces a format told by the content alone, which is a guess.
    pub fn told(head: &[u8], complete: bool, name: Option<&[u8]>) -> Option<(InputFormat, ToldBy)> {
        let decided = complete || head.len() >= SNIFF_MAX;
        let by_name = name.and_then(InputFormat::by_name);
        // 1. Magic bytes.
        match magic(head, decided) {
            Magic::Warc => return Some((InputFormat::Warc, ToldBy::Magic)),
            Magic::NeedMore => return None,
            // A gzip member that holds no WARC file: text (binary,
            // without `-z`).
            Magic::Gzip => return Some((InputFormat::Text, ToldBy::Magic)),
            Magic::GzipUnreadable => {
                // Its first bytes do not decode: its name may still say
                // it is an archive (the reader reports what is wrong).
                return Some(match by_name {
                    Some(InputFormat::Warc) => (InputFormat::Warc, ToldBy::Name),
                    _ => (InputFormat::Text, ToldBy::Default),
                });
            }
            Magic::None => {}
        }
        // 2. The name (but a web archive always starts with its magic
        // bytes: a `.warc` that does not is no archive).
        if let Some(format) = by_name.filter(|&f| f != InputFormat::Warc) {
            return Some((format, ToldBy::Name));
        }
        // 3. The content.
        match html_start(head) {
            Looks::Yes => return Some((InputFormat::Html, ToldBy::Content)),
            Looks::Maybe if !decided => return None,
            _ => {}
        }
        match mail_start(head, decided) {
            Looks::Yes => Some((InputFormat::Mail, ToldBy::Content)),
            Looks::Maybe if !decided => None,
            _ => Some((InputFormat::Text, ToldBy::Default)),
        }
    }
}

/// What told an input's format ([`InputFormat::told`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToldBy {
    /// Magic bytes: `WARC/`, a gzip member.
    Magic,
    /// The name's extension.
    Name,
    /// The first lines: a header block, an HTML start tag (a guess).
    Content,
    /// Nothing: text.
    Default,
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name `--format` does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown format {:?} (known: text, mail, html, warc)",
            self.0
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for InputFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<InputFormat, UnknownFormat> {
        match s.to_ascii_lowercase().as_str() {
            "text" => Ok(InputFormat::Text),
            "mail" => Ok(InputFormat::Mail),
            "html" => Ok(InputFormat::Html),
            "warc" => Ok(InputFormat::Warc),
            _ => Err(UnknownFormat(s.to_string())),
        }
    }
}

enum Magic {
    Warc,
    Gzip,
    GzipUnreadable,
    None,
    NeedMore,
}

const WARC_MAGIC: &[u8] = b"WARC/";
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];

fn magic(head: &[u8], decided: bool) -> Magic {
    if head.starts_with(WARC_MAGIC) {
        return Magic::Warc;
    }
    if head.starts_with(GZIP_MAGIC) {
        return match gzip_holds_warc(head) {
            Some(true) => Magic::Warc,
            Some(false) => Magic::Gzip,
            None if decided => Magic::GzipUnreadable,
            None => Magic::NeedMore,
        };
    }
    let n = head.len().min(WARC_MAGIC.len());
    let could_be = |m: &[u8]| head.len() < m.len() && m.starts_with(&head[..n.min(m.len())]);
    if !decided && (could_be(WARC_MAGIC) || could_be(GZIP_MAGIC)) {
        return Magic::NeedMore;
    }
    Magic::None
}

/// Whether the gzip member `head` starts decodes to a WARC file's start;
/// `None` when `head` is too short to tell.
#[cfg(feature = "warc")]
fn gzip_holds_warc(head: &[u8]) -> Option<bool> {
    use std::io::Read;
    let mut out = [0u8; 5];
    let mut got = 0;
    let mut decoder = flate2::read::GzDecoder::new(head);
    while got < out.len() {
        match decoder.read(&mut out[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            // Cut short by the end of `head`, or not gzip at all.
            Err(_) => break,
        }
    }
    if got == out.len() {
        Some(out == *WARC_MAGIC)
    } else if got > 0 && !WARC_MAGIC.starts_with(&out[..got]) {
        Some(false)
    } else {
        None
    }
}

/// Without the `warc` feature no reader could read it anyway.
#[cfg(not(feature = "warc"))]
fn gzip_holds_warc(_head: &[u8]) -> Option<bool> {
    Some(false)
}

#[derive(Debug, PartialEq, Eq)]
enum Looks {
    Yes,
    No,
    Maybe,
}

/// Whether `head` starts as an HTML page does: after a BOM, white space,
/// comments and an XML declaration, `<!doctype html`, or the start tag of `html`, `head`,
/// `body`, `meta`, `title` or `link`.
fn html_start(head: &[u8]) -> Looks {
    let mut rest = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    'skip: loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            return Looks::Maybe;
        }
        // Comments and an XML declaration (XHTML) come before the page.
        for (open, close) in [(&b"<!--"[..], &b"-->"[..]), (b"<?", b"?>")] {
            if rest.starts_with(open) {
                match memchr::memmem::find(rest, close) {
                    Some(end) => rest = &rest[end + close.len()..],
                    None => return Looks::Maybe,
                }
                continue 'skip;
            }
        }
        if rest[0] != b'<' {
            return Looks::No;
        }
        break;
    }
    const STARTS: [&[u8]; 7] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<body",
        b"<meta",
        b"<title",
        b"<link",
    ];
    let probe = &rest[..rest.len().min(16)];
    let lower = probe.to_ascii_lowercase();
    for start in STARTS {
        if lower.len() > start.len() {
            if lower.starts_with(start) {
                // A tag name ends at white space, `>` or `/`.
                let after = lower[start.len()];
                if start == b"<!doctype html"
                    || matches!(after, b'>' | b'/')
                    || after.is_ascii_whitespace()
                {
                    return Looks::Yes;
                }
            }
        } else if start.starts_with(&lower) {
            return Looks::Maybe;
        }
    }
    Looks::No
}

/// Header fields a message has and other `Name: value` files rarely do.
const MAIL_FIELDS: [&[u8]; 14] = [
    b"from",
    b"to",
    b"subject",
    b"date",
    b"message-id",
    b"received",
    b"return-path",
    b"mime-version",
    b"delivered-to",
    b"reply-to",
    b"sender",
    b"dkim-signature",
    b"authentication-results",
    b"x-mailer",
];

/// Whether `head` starts as a message or an mbox does: an mbox's
/// `From ` line followed by a header field, or a header block of at least
/// two fields, one of them a field every message has ([`MAIL_FIELDS`]).
/// `decided`: no more bytes will come to look at.
fn mail_start(head: &[u8], decided: bool) -> Looks {
    let mut rest = head;
    let mut fields = 0;
    let mut known = false;
    let mut first = true;
    loop {
        let Some(end) = memchr::memchr(b'\n', rest) else {
            // An unfinished line.
            if decided || rest.is_empty() {
                break;
            }
            let line = rest;
            let could_go_on = (first && (b"From ".starts_with(&line[..line.len().min(5)])))
                || field_name(line, true).is_some()
                || (fields > 0 && matches!(line[0], b' ' | b'\t'));
            return if could_go_on { Looks::Maybe } else { Looks::No };
        };
        let line = &rest[..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        rest = &rest[end + 1..];
        if first && line.starts_with(b"From ") {
            first = false;
            continue;
        }
        first = false;
        if line.is_empty() {
            // The end of the header block.
            break;
        }
        if matches!(line[0], b' ' | b'\t') && fields > 0 {
            continue;
        }
        match field_name(line, false) {
            Some(name) => {
                fields += 1;
                known |= MAIL_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(name));
            }
            None => return Looks::No,
        }
    }
    if fields >= 2 && known {
        Looks::Yes
    } else {
        Looks::No
    }
}

/// The name of the header field `line` starts with (printable ASCII but
/// `:`, up to 76 bytes, then `:`); with `partial`, a line that could still
/// become one gives its bytes so far.
fn field_name(line: &[u8], partial: bool) -> Option<&[u8]> {
    let n = line
        .iter()
        .take(77)
        .position(|&b| !(33..=126).contains(&b) || b == b':')
        .unwrap_or(line.len().min(77));
    if n > 0 && n <= 76 && line.get(n) == Some(&b':') {
        return Some(&line[..n]);
    }
    (partial && n == line.len() && n <= 76).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use InputFormat::*;

    fn sniffed(head: &[u8]) -> Option<InputFormat> {
        InputFormat::sniff(head, true, None)
    }

    #[test]
    fn magic_bytes_decide_first() {
        assert_eq!(sniffed(b"WARC/1.0\r\nWARC-Type: warcinfo\r\n"), Some(Warc));
        // Magic bytes win over the name.
        assert_eq!(
            InputFormat::sniff(b"WARC/1.1\r\n", true, Some(b"crawl.txt")),
            Some(Warc)
        );
    }

    #[cfg(feature = "warc")]
    #[test]
    fn a_gzip_member_is_looked_into() {
        use std::io::Write;
        let gz = |data: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        };
        let warc = gz(b"WARC/1.0\r\nWARC-Type: response\r\n\r\n");
        assert_eq!(sniffed(&warc), Some(Warc));
        // Its first bytes alone do not tell yet.
        assert_eq!(InputFormat::sniff(&warc[..4], false, None), None);
        let text = gz(b"just some text\n");
        assert_eq!(sniffed(&text), Some(Text));
        assert_eq!(
            InputFormat::sniff(&text, true, Some(b"x.warc.gz")),
            Some(Text)
        );
        // A gzip member whose start does not decode: the name decides.
        let broken = [&warc[..10], &[0xff; 32][..]].concat();
        assert_eq!(
            InputFormat::sniff(&broken, true, Some(b"x.warc.gz")),
            Some(Warc)
        );
        assert_eq!(InputFormat::sniff(&broken, true, Some(b"x.gz")), Some(Text));
    }

    #[test]
    fn names_say_what_content_does_not() {
        assert_eq!(InputFormat::by_name(b"dir/page.HTML"), Some(Html));
        assert_eq!(InputFormat::by_name(b"a/b.warc.gz"), Some(Warc));
        assert_eq!(InputFormat::by_name(b"x.wet"), Some(Warc));
        assert_eq!(InputFormat::by_name(b"in.mbox.xz"), Some(Mail));
        assert_eq!(InputFormat::by_name(b"m.eml"), Some(Mail));
        assert_eq!(InputFormat::by_name(b"readme"), None);
        assert_eq!(InputFormat::by_name(b"html"), None);
        assert_eq!(InputFormat::by_name(b"notes.txt"), None);
        assert_eq!(
            InputFormat::sniff(b"just a fragment <b>x</b>", true, Some(b"f.htm")),
            Some(Html)
        );
        // A web archive starts with its magic bytes, whatever its name.
        assert_eq!(
            InputFormat::sniff(b"see http://ex.org/\n", true, Some(b"crawl.warc")),
            Some(Text)
        );
    }

    #[test]
    fn html_by_its_first_tag() {
        assert_eq!(sniffed(b"<!DOCTYPE html>\n<html>"), Some(Html));
        assert_eq!(
            sniffed(b"\xef\xbb\xbf  <!-- hi --> <HTML lang=fr>"),
            Some(Html)
        );
        assert_eq!(sniffed(b"<head><title>x"), Some(Html));
        assert_eq!(sniffed(b"<html>"), Some(Html));
        assert_eq!(
            sniffed(
                b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\">"
            ),
            Some(Html)
        );
        assert_eq!(sniffed(b"<?xml version=\"1.0\"?><rss>"), Some(Text));
        assert_eq!(sniffed(b"<htmlx>"), Some(Text));
        assert_eq!(sniffed(b"<p>no page start</p>"), Some(Text));
        assert_eq!(sniffed(b"<https://example.org/>"), Some(Text));
        // More may come.
        assert_eq!(InputFormat::sniff(b"  <!DOC", false, None), None);
        assert_eq!(InputFormat::sniff(b"<!-- long", false, None), None);
    }

    #[test]
    fn mail_by_its_header_block() {
        let message = b"Return-Path: <a@ex.org>\r\nReceived: from x\r\n\tby y\r\n\
            Subject: hi\r\nX-Custom: 1\r\n\r\nbody http://ex.org/\r\n";
        assert_eq!(sniffed(message), Some(Mail));
        let mbox = b"From a@ex.org Mon Jan  1 00:00:00 2024\nFrom: a@ex.org\nTo: b@ex.org\n\nhi\n";
        assert_eq!(sniffed(mbox), Some(Mail));
        // `Name: value` files that are no message.
        assert_eq!(
            sniffed(b"Package: iriscan\nVersion: 1.0\n\nx\n"),
            Some(Text)
        );
        assert_eq!(sniffed(b"name: x\nversion: 2\n"), Some(Text));
        assert_eq!(sniffed(b"Subject: only one field\n\nbody\n"), Some(Text));
        assert_eq!(sniffed(b"From here on, prose.\n"), Some(Text));
        assert_eq!(
            sniffed(b"HTTP/1.1 200 OK\r\nDate: x\r\nServer: y\r\n"),
            Some(Text)
        );
    }

    #[test]
    fn a_pipe_is_not_held_back_once_a_line_says_text() {
        // A log line: not a header field (a space before any `:`).
        assert_eq!(
            InputFormat::sniff(
                b"127.0.0.1 - - [01/Jan/2024] \"GET http://ex.org/\"\n",
                false,
                None
            ),
            Some(Text)
        );
        assert_eq!(InputFormat::sniff(b"see http", false, None), Some(Text));
        // A header block not yet ended may still be a message.
        assert_eq!(
            InputFormat::sniff(b"From: a@ex.org\nTo: b", false, None),
            None
        );
        assert_eq!(InputFormat::sniff(b"Fro", false, None), None);
        assert_eq!(InputFormat::sniff(b"WAR", false, None), None);
        assert_eq!(InputFormat::sniff(b"", false, None), None);
        assert_eq!(InputFormat::sniff(b"", true, None), Some(Text));
    }

    #[test]
    fn past_the_limit_it_decides() {
        let mut head = b"From: a@ex.org\nTo: b@ex.org\n".to_vec();
        while head.len() < SNIFF_MAX {
            head.extend_from_slice(b"X-Long: header\n");
        }
        assert_eq!(InputFormat::sniff(&head, false, None), Some(Mail));
    }

    #[test]
    fn what_told_the_format_is_said() {
        let told = |head: &[u8], name: Option<&[u8]>| InputFormat::told(head, true, name);
        assert_eq!(told(b"WARC/1.0\r\n", None), Some((Warc, ToldBy::Magic)));
        assert_eq!(told(b"x", Some(b"a.eml")), Some((Mail, ToldBy::Name)));
        assert_eq!(told(b"<html>", None), Some((Html, ToldBy::Content)));
        assert_eq!(
            told(b"From: a\nTo: b\n\n", None),
            Some((Mail, ToldBy::Content))
        );
        assert_eq!(told(b"plain", None), Some((Text, ToldBy::Default)));
    }

    #[test]
    fn names_parse() {
        assert_eq!("WARC".parse::<InputFormat>(), Ok(Warc));
        assert_eq!("text".parse::<InputFormat>(), Ok(Text));
        assert!("pdf".parse::<InputFormat>().is_err());
        assert_eq!(Html.to_string(), "html");
    }
}
