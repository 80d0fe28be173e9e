//! Charset detection and transcoding with exact offsets (docs/rules.md §3),
//! on the corpus in `corpus/charsets/` (see its README for how each file
//! was made) and on arbitrary bytes.

use std::ops::Range;
use std::path::PathBuf;

use encoding_rs::Encoding;
use iriscan::{
    Charset, CharsetSource, DETECTION_PREFIX_LEN, Transcoder, charset_for_label, detect, transcode,
};
use proptest::prelude::*;

use crate::support::ALL_ENCODINGS;

/// One corpus file: its name (without `.txt`), the encoding detection must
/// choose and by which rule, and the number of replacements.
struct Doc {
    stem: &'static str,
    encoding: &'static str,
    source: CharsetSource,
    replacements: u64,
}

const fn doc(stem: &'static str, encoding: &'static str, source: CharsetSource) -> Doc {
    Doc {
        stem,
        encoding,
        source,
        replacements: 0,
    }
}

use CharsetSource::{Bom, Declaration, Detector, Label, Utf8};

/// The well-formed corpus. Declarations: XML in ja.euc-jp, a MIME header
/// in ja-mail.iso-2022-jp, `<meta charset>` in zh.gb18030, `<meta
/// http-equiv>` in ko.euc-kr; the others have none and are detected.
/// zh-news.gb18030 is detected as GBK: chardetng reports GBK, whose decoder
/// *is* the gb18030 decoder in the Encoding Standard (§10.1.2), so the
/// decoding is the same. ru.koi8-r is detected as KOI8-U: chardetng has one
/// candidate for the KOI8 family, KOI8-U, which differs from KOI8-R only in
/// Ukrainian and Belarusian letters and box-drawing pieces; Russian text
/// decodes the same (checked against the twin).
const CORPUS: &[Doc] = &[
    doc("hi.utf-8", "UTF-8", Utf8),
    doc("zh.utf-16le", "UTF-16LE", Bom),
    doc("vi.utf-16be", "UTF-16BE", Bom),
    doc("ja.shift_jis", "Shift_JIS", Detector),
    doc("ja.euc-jp", "EUC-JP", Declaration),
    doc("ja-mail.iso-2022-jp", "ISO-2022-JP", Declaration),
    doc("ja-note.iso-2022-jp", "ISO-2022-JP", Detector),
    doc("zh.gb18030", "gb18030", Declaration),
    doc("zh-news.gb18030", "GBK", Detector),
    doc("zh-tw.big5", "Big5", Detector),
    doc("ko.euc-kr", "EUC-KR", Declaration),
    doc("ru.koi8-r", "KOI8-U", Detector),
    doc("uk.windows-1251", "windows-1251", Detector),
    doc("fr.windows-1252", "windows-1252", Detector),
    doc("cs.windows-1250", "windows-1250", Detector),
    doc("el.windows-1253", "windows-1253", Detector),
    doc("he.windows-1255", "windows-1255", Detector),
    doc("ar.windows-1256", "windows-1256", Detector),
    doc("th.windows-874", "windows-874", Detector),
    doc("pl.iso-8859-2", "ISO-8859-2", Detector),
];

/// The malformed corpus, decoded with the encoding given as a label.
const MALFORMED: &[Doc] = &[
    Doc {
        stem: "bad-truncated.shift_jis",
        encoding: "Shift_JIS",
        source: Label,
        replacements: 1,
    },
    Doc {
        stem: "bad-middle.euc-jp",
        encoding: "EUC-JP",
        source: Label,
        replacements: 2,
    },
    Doc {
        stem: "bad.utf-8",
        encoding: "UTF-8",
        source: Label,
        replacements: 3,
    },
    Doc {
        stem: "bad.utf-16le",
        encoding: "UTF-16LE",
        source: Label,
        replacements: 3,
    },
    Doc {
        stem: "bad.iso-2022-jp",
        encoding: "ISO-2022-JP",
        source: Label,
        replacements: 3,
    },
    Doc {
        stem: "bad.gb18030",
        encoding: "gb18030",
        source: Label,
        replacements: 1,
    },
];

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/charsets")
}

fn read(name: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn raw(d: &Doc) -> Vec<u8> {
    read(&format!("{}.txt", d.stem))
}

fn twin(d: &Doc) -> String {
    String::from_utf8(read(&format!("{}.utf8.txt", d.stem))).expect("twins are UTF-8")
}

/// The charset a document is decoded in: detected, or the label.
fn charset_of(d: &Doc, bytes: &[u8]) -> Charset {
    if d.source == Label {
        Charset::given(charset_for_label(d.encoding).unwrap(), bytes)
    } else {
        detect(bytes, true)
    }
}

fn all_docs() -> impl Iterator<Item = &'static Doc> {
    CORPUS.iter().chain(MALFORMED)
}

/// The text of the output (for UTF-8, the identity, invalid sequences
/// shown as U+FFFD as a decoder would).
fn text_of(utf8: &[u8]) -> String {
    String::from_utf8_lossy(utf8).into_owned()
}

/// The offsets of the output where a character starts, and its end.
fn boundaries(utf8: &[u8]) -> Vec<usize> {
    match std::str::from_utf8(utf8) {
        Ok(s) => (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect(),
        // The identity of invalid UTF-8: every byte is a boundary.
        Err(_) => (0..=utf8.len()).collect(),
    }
}

/// What `raw[range]` decodes to in `encoding`: with a fresh decoder, except
/// that ISO-2022-JP bytes are read in the character set of the last escape
/// sequence before them (its state at `range.start`).
fn decode_in_context(encoding: &'static Encoding, raw: &[u8], range: Range<usize>) -> String {
    let mut bytes = Vec::new();
    if encoding == encoding_rs::ISO_2022_JP
        && let Some(i) = (0..range.start.saturating_sub(2)).rev().find(|&i| {
            matches!(
                &raw[i..],
                [0x1B, b'(', b'B' | b'J' | b'I', ..] | [0x1B, b'$', b'@' | b'B', ..]
            )
        })
    {
        bytes.extend_from_slice(&raw[i..i + 3]);
    }
    bytes.extend_from_slice(&raw[range]);
    if encoding == encoding_rs::UTF_8 {
        return text_of(&bytes);
    }
    encoding.decode_without_bom_handling(&bytes).0.into_owned()
}

#[test]
fn corpus_detection_picks_the_right_encoding() {
    for d in CORPUS {
        let bytes = raw(d);
        let c = detect(&bytes, true);
        assert_eq!(
            (c.name(), c.source()),
            (d.encoding, d.source),
            "{}: detected {c}",
            d.stem
        );
        // The same from a prefix that is not the whole input (cut in the
        // middle of the document, mostly mid-character).
        let cut = &bytes[..bytes.len() * 2 / 3];
        let c = detect(cut, false);
        assert_eq!(
            (c.name(), c.source()),
            (d.encoding, d.source),
            "{} prefix",
            d.stem
        );
    }
}

#[test]
fn corpus_decodes_to_its_twin() {
    for d in all_docs() {
        let bytes = raw(d);
        let doc = transcode(&bytes, &charset_of(d, &bytes));
        assert_eq!(doc.charset().name(), d.encoding, "{}", d.stem);
        assert_eq!(text_of(doc.utf8()), twin(d), "{}", d.stem);
        assert_eq!(doc.replacements(), d.replacements, "{}", d.stem);
        // The UTF-8 document is the zero-cost path: the text is the input.
        assert_eq!(doc.transcoder().is_identity(), d.encoding == "UTF-8");
    }
}

/// The offset map, exhaustively: between every two consecutive character
/// boundaries u < u' of the output, the input bytes
/// `original_start(u)..original_end(u')` decode to exactly `utf8[u..u']`.
#[test]
fn corpus_offset_map_is_exact_for_every_character() {
    for d in all_docs() {
        let bytes = raw(d);
        let doc = transcode(&bytes, &charset_of(d, &bytes));
        let enc = doc.charset().encoding();
        let utf8 = doc.utf8();
        let b = boundaries(utf8);
        let mut mapper = doc.mapper();
        let starts: Vec<usize> = b
            .iter()
            .map(|&u| mapper.original_start(u).unwrap())
            .collect();
        let mut mapper = doc.mapper();
        let ends: Vec<usize> = b.iter().map(|&u| mapper.original_end(u).unwrap()).collect();
        for i in 0..b.len() - 1 {
            let (u, v) = (b[i], b[i + 1]);
            let range = starts[i]..ends[i + 1];
            let expected = text_of(&utf8[u..v]);
            // An ISO-2022-JP escape sequence directly followed by another
            // is an error only because of the second one: its U+FFFD maps
            // to it, but it cannot be decoded as an error on its own.
            let useless_escape = enc == encoding_rs::ISO_2022_JP
                && expected == "\u{FFFD}"
                && bytes[range.clone()].starts_with(b"\x1b");
            if !useless_escape {
                let got = decode_in_context(enc, &bytes, range.clone());
                assert_eq!(got, expected, "{}: utf8 {u}..{v} -> {range:?}", d.stem);
            }
            // Lookups one by one agree with the mapper.
            assert_eq!(doc.original_range(u..v), Some(range));
        }
        // The text begins after the BOM and ends at the end of the input
        // (for ISO-2022-JP, before the escape sequence back to ASCII).
        assert_eq!(ends[0], doc.charset().bom_len());
        let end = *ends.last().unwrap();
        assert!(end == bytes.len() || (enc == encoding_rs::ISO_2022_JP && bytes[end] == 0x1B));
    }
}

/// The spans a scanner would report — every link and address of the twin —
/// slice the raw file to bytes that decode, with a fresh decoder, to
/// exactly the link.
#[test]
fn corpus_links_slice_the_raw_file_exactly() {
    let mut checked = 0;
    for d in all_docs() {
        let bytes = raw(d);
        let doc = transcode(&bytes, &charset_of(d, &bytes));
        let enc = doc.charset().encoding();
        // (The identity of invalid UTF-8 is covered by the exhaustive test.)
        let Ok(text) = std::str::from_utf8(doc.utf8()) else {
            continue;
        };
        let mut mapper = doc.mapper();
        for (start, _) in text.match_indices("http").chain(text.match_indices("@")) {
            // Links and addresses: from the scheme (or the local part) to
            // the next white space.
            let start = if text[start..].starts_with('@') {
                text[..start]
                    .rfind(|c: char| c.is_whitespace() || c == '（' || c == '：')
                    .map_or(0, |i| i + text[i..].chars().next().unwrap().len_utf8())
            } else {
                start
            };
            let end = text[start..]
                .find(|c: char| c.is_whitespace() || c == '）')
                .map_or(text.len(), |i| start + i);
            let range = mapper.original_range(start..end).unwrap();
            let decoded = enc.decode_without_bom_handling(&bytes[range.clone()]).0;
            assert_eq!(decoded, &text[start..end], "{}: {range:?}", d.stem);
            checked += 1;
        }
    }
    assert!(checked >= 100, "{checked}");
}

/// Split invariance (the encoding_rs habit): pushing the input in chunks of
/// every size 1..=64, and in two pieces split at every byte, gives the same
/// output, the same offset map and the same replacement count.
#[test]
fn corpus_is_split_invariant() {
    std::thread::scope(|scope| {
        for d in all_docs() {
            scope.spawn(move || {
                let bytes = raw(d);
                let charset = charset_of(d, &bytes);
                let whole = transcode(&bytes, &charset);
                let b = boundaries(whole.utf8());
                let map = |t: &Transcoder| -> Vec<(Option<usize>, Option<usize>)> {
                    let mut starts = t.mapper();
                    let mut ends = t.mapper();
                    b.iter()
                        .map(|&u| (starts.original_start(u), ends.original_end(u)))
                        .collect()
                };
                let expected = map(whole.transcoder());
                let check = |pieces: &mut dyn Iterator<Item = &[u8]>, what: &str| {
                    let mut t = Transcoder::new(&charset);
                    let mut out = Vec::new();
                    let mut text = Vec::new();
                    for piece in pieces {
                        text.extend_from_slice(t.push(piece, false, &mut out));
                    }
                    text.extend_from_slice(t.push(&[], true, &mut out));
                    assert_eq!(text, whole.utf8(), "{} {what}", d.stem);
                    assert_eq!(t.replacements(), whole.replacements(), "{} {what}", d.stem);
                    assert_eq!(map(&t), expected, "{} {what}", d.stem);
                };
                for size in 1..=64 {
                    check(&mut bytes.chunks(size), &format!("chunks of {size}"));
                }
                for at in 0..=bytes.len() {
                    let (a, z) = bytes.split_at(at);
                    check(&mut [a, z].into_iter(), &format!("split at {at}"));
                }
            });
        }
    });
}

#[test]
fn labels() {
    // Every WHATWG label form: case, white space, aliases.
    for (label, name) in [
        ("utf-8", "UTF-8"),
        ("UTF8", "UTF-8"),
        ("unicode-1-1-utf-8", "UTF-8"),
        ("  sjis\t", "Shift_JIS"),
        ("ms_kanji", "Shift_JIS"),
        ("csiso2022jp", "ISO-2022-JP"),
        ("x-euc-jp", "EUC-JP"),
        ("gb2312", "GBK"),
        ("GB18030", "gb18030"),
        ("big5-hkscs", "Big5"),
        ("ks_c_5601-1987", "EUC-KR"),
        ("koi8-r", "KOI8-R"),
        ("cp1251", "windows-1251"),
        ("iso-8859-1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("iso-8859-8", "ISO-8859-8"),
        ("tis-620", "windows-874"),
        ("utf-16", "UTF-16LE"),
        ("unicodefffe", "UTF-16BE"),
        ("x-user-defined", "x-user-defined"),
    ] {
        assert_eq!(
            charset_for_label(label).map(|e| e.name()),
            Ok(name),
            "{label}"
        );
    }
    for label in ["", "utf-9", "shift jis", "latin-1", "auto", "utf8 x"] {
        let e = charset_for_label(label).unwrap_err();
        assert_eq!(e.label(), label);
        assert!(e.to_string().contains(&format!("{label:?}")), "{e}");
        assert!(e.to_string().starts_with("unknown encoding label"), "{e}");
    }
    for label in ["iso-2022-kr", "hz-gb-2312", "iso-2022-cn", "replacement"] {
        let e = charset_for_label(label).unwrap_err();
        assert!(e.to_string().contains("replacement encoding"), "{e}");
    }
}

#[test]
fn a_label_overrides_detection_and_keeps_only_its_own_bom() {
    let koi8 = charset_for_label("koi8-r").unwrap();
    let bytes = b"\xef\xbb\xbfabc";
    let c = Charset::given(koi8, bytes);
    assert_eq!((c.source(), c.bom_len()), (Label, 0));
    // The UTF-8 BOM is text in KOI8-R: three characters.
    let text = String::from_utf8(transcode(bytes, &c).into_utf8().into_owned()).unwrap();
    assert_eq!(text.chars().count(), 6);
    assert!(text.ends_with("abc"));
    let utf16 = charset_for_label("utf-16be").unwrap();
    let c = Charset::given(utf16, b"\xfe\xff\x00a");
    assert_eq!(c.bom_len(), 2);
    assert_eq!(transcode(b"\xfe\xff\x00a", &c).utf8(), b"a");
    assert_eq!(c.to_string(), "UTF-16BE (given)");
}

#[test]
fn bom_is_stripped_but_counted() {
    for (bytes, name, bom, e_acute) in [
        (&b"\xef\xbb\xbfa\xc3\xa9"[..], "UTF-8", 3, 4..6),
        (b"\xff\xfea\x00\xe9\x00", "UTF-16LE", 2, 4..6),
        (b"\xfe\xff\x00a\x00\xe9", "UTF-16BE", 2, 4..6),
    ] {
        let c = detect(bytes, true);
        assert_eq!((c.name(), c.source(), c.bom_len()), (name, Bom, bom));
        assert_eq!(c.to_string(), format!("{name} (BOM)"));
        let doc = transcode(bytes, &c);
        assert_eq!(doc.utf8(), "aé".as_bytes());
        assert_eq!(doc.original_start(0), Some(bom));
        assert_eq!(doc.original_end(0), Some(bom));
        assert_eq!(doc.original_range(1..3), Some(e_acute));
        // Pushed a byte at a time, the BOM is still skipped.
        let mut t = Transcoder::new(&c);
        let mut out = Vec::new();
        let mut text = Vec::new();
        for &b in bytes {
            text.extend_from_slice(t.push(&[b], false, &mut out));
        }
        t.push(&[], true, &mut out);
        assert_eq!(text, "aé".as_bytes());
        assert_eq!(t.input_len(), bytes.len());
    }
    // A BOM beats a declaration.
    let c = detect(b"\xef\xbb\xbf<meta charset=koi8-r>", true);
    assert_eq!((c.name(), c.source()), ("UTF-8", Bom));
}

#[test]
fn declarations_in_each_form() {
    for (doc, name) in [
        (&b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<a>\x82\xa0</a>"[..], "Shift_JIS"),
        (b"<!doctype html><meta charset=\"big5\"><p>\xa4\xa4", "Big5"),
        (
            b"<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=euc-kr\">",
            "EUC-KR",
        ),
        (
            b"Received: from x\r\nContent-Type: text/plain;\r\n\tcharset=\"koi8-r\"\r\n\r\n\xf0\xd2",
            "KOI8-R",
        ),
        (b"Content-Type: text/plain; charset=ISO-2022-JP\n\n\x1b$B$\"\x1b(B", "ISO-2022-JP"),
        // HTML's corrections: a UTF-16 declaration in ASCII bytes is UTF-8.
        (b"<meta charset=utf-16le>caf\xe9", "UTF-8"),
        (b"<meta charset=x-user-defined>caf\xe9", "windows-1252"),
    ] {
        let c = detect(doc, true);
        assert_eq!((c.name(), c.source()), (name, Declaration), "{}", String::from_utf8_lossy(doc));
        assert_eq!(c.to_string(), format!("{name} (declared)"));
    }
    // Declarations that are ignored: the replacement encoding, unknown
    // labels, a <meta> past the HTML prescan window. Detection goes on.
    for doc in [
        &b"<meta charset=iso-2022-kr>plain"[..],
        b"<meta charset=klingon>plain",
        &[&b" ".repeat(1024)[..], b"<meta charset=big5>"].concat(),
    ] {
        let c = detect(doc, true);
        assert_eq!((c.name(), c.source()), ("UTF-8", Utf8));
    }
}

#[test]
fn valid_utf8_beats_a_declaration_which_is_then_reported() {
    // A file converted to UTF-8 but not relabelled (docs/rules.md §3).
    for doc in [
        "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<p>嵐山 https://photos.example.org/アルバム/嵐山</p>",
        "<meta charset=\"windows-1251\"><p>Привет https://ru.example/мир</p>",
        "Content-Type: text/plain; charset=iso-8859-1\n\nCafé: https://fr.example/café",
    ] {
        let c = detect(doc.as_bytes(), true);
        assert_eq!((c.name(), c.source()), ("UTF-8", Utf8), "{doc}");
        assert!(c.overridden_declaration().is_some(), "{doc}");
    }
    let c = detect(
        std::fs::read(corpus_dir().join("ja.euc-jp.utf8.txt"))
            .unwrap()
            .as_slice(),
        true,
    );
    assert_eq!(
        (c.name(), c.overridden_declaration()),
        ("UTF-8", Some(encoding_rs::EUC_JP))
    );
    // Without non-ASCII UTF-8 the declaration decides: ASCII reads alike in
    // every declared charset, and 7-bit ISO-2022-JP is ASCII bytes.
    let c = detect(
        b"Content-Type: text/plain; charset=ISO-2022-JP\n\n\x1b$B$\"\x1b(B",
        true,
    );
    assert_eq!((c.name(), c.source()), ("ISO-2022-JP", Declaration));
    assert_eq!(c.overridden_declaration(), None);
    // Legacy bytes under their declaration are not UTF-8.
    let c = detect(
        b"<meta charset=\"windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>",
        true,
    );
    assert_eq!((c.name(), c.source()), ("windows-1251", Declaration));
}

#[test]
fn utf8_with_junk_lines_is_still_utf8() {
    let good = |i: usize| format!("{i} https://ja.wikipedia.org/wiki/東京都{i}\n");
    let junk: Vec<u8> = (0..1000u32).map(|i| 0x80 + (i * 37 % 128) as u8).collect();
    // A first line of 1,000 high bytes, then good lines.
    let mut a = junk.clone();
    a.push(b'\n');
    (0..2000).for_each(|i| a.extend(good(i).as_bytes()));
    // A junk line every 50 lines.
    let mut b = Vec::new();
    for i in 0..2000 {
        if i % 50 == 0 {
            b.extend(&junk[..40]);
            b.push(b'\n');
        }
        b.extend(good(i).as_bytes());
    }
    for (name, doc) in [("first line", &a), ("every 50 lines", &b)] {
        let c = detect(&doc[..doc.len().min(DETECTION_PREFIX_LEN)], false);
        assert_eq!((c.name(), c.source()), ("UTF-8", Utf8), "{name}");
        assert!(!c.is_guess());
    }
    // Text in a legacy charset stays the detector's, and says it guessed.
    let text: String = (0..500).map(good).collect();
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    let c = detect(&sjis, true);
    assert_eq!((c.name(), c.source()), ("Shift_JIS", Detector));
    assert!(c.is_guess());
}

#[test]
fn utf8_and_the_whole_input() {
    // Valid UTF-8 wins over the detector, ASCII included.
    let c = detect("Ünïcödé http://例え.jp/".as_bytes(), true);
    assert_eq!((c.name(), c.source()), ("UTF-8", Utf8));
    assert_eq!(c.to_string(), "UTF-8 (validated)");
    assert!(c.is_utf8());
    assert_eq!(detect(b"", true).source(), Utf8);
    assert_eq!(detect(b"plain ascii", true).source(), Utf8);
    // A prefix cut inside a character is still UTF-8 if more follows...
    let s = "見てください http://例え.jp/".as_bytes();
    for cut in 1..s.len() {
        assert_eq!(detect(&s[..cut], false).source(), Utf8, "cut {cut}");
    }
    // ...and if it is the whole input, cut inside its last character (a
    // truncated download): UTF-8 with one replacement, not a legacy
    // charset that would garble every character before the cut.
    for cut in 1..s.len() {
        assert_eq!(detect(&s[..cut], true).source(), Utf8, "whole, cut {cut}");
    }
    assert_eq!(detect(b"http://a.example/\xe6\x9d", true).source(), Utf8);
    // Invalid bytes anywhere make it the detector's call.
    let c = detect(b"caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade", true);
    assert_eq!((c.name(), c.source()), ("windows-1252", Detector));
    assert_eq!(c.to_string(), "windows-1252 (detected)");
    // ANSI escape codes in an ASCII log are not ISO-2022-JP.
    let c = detect(b"\x1b[31merror\x1b[0m: see http://example.com/", true);
    assert_eq!((c.name(), c.source()), ("UTF-8", Utf8));
    // The detector sees at most DETECTION_PREFIX_LEN bytes anyway; a
    // longer prefix gives the same answer.
    let long = "Привет мир. ".repeat(10_000);
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&long);
    assert!(cp1251.len() > DETECTION_PREFIX_LEN);
    assert_eq!(
        detect(&cp1251[..DETECTION_PREFIX_LEN], false).name(),
        "windows-1251"
    );
}

#[test]
fn identity_for_utf8() {
    let bytes = "\u{feff}a\u{FFFD}b http://例え.jp/ \u{FFFD}".as_bytes();
    let c = detect(bytes, true);
    let mut t = Transcoder::new(&c);
    assert!(t.is_identity());
    let mut out = Vec::new();
    // No copy: the chunk itself comes back.
    let chunk = &bytes[..10];
    let back = t.push(chunk, false, &mut out);
    assert_eq!(back.as_ptr(), chunk[3..].as_ptr());
    t.push(&bytes[10..], true, &mut out);
    assert!(out.is_empty());
    // Real U+FFFD in the input are not replacements.
    assert_eq!(t.replacements(), 0);
    assert_eq!(t.original_range(0..5), Some(3..8));
    assert_eq!(t.original_start(t.output_len()), Some(bytes.len()));
    assert_eq!(t.original_start(t.output_len() + 1), None);
}

#[test]
fn real_replacement_characters_are_not_counted() {
    let text = "a\u{FFFD}b";
    for (e, bytes) in [
        (encoding_rs::UTF_16LE, &b"a\x00\xfd\xffb\x00"[..]),
        (encoding_rs::UTF_16BE, b"\x00a\xff\xfd\x00b"),
        // gb18030 encodes U+FFFD in four bytes.
        (encoding_rs::GB18030, b"a\x84\x31\xa4\x37b"),
        (encoding_rs::UTF_8, text.as_bytes()),
    ] {
        let doc = transcode(bytes, &Charset::given(e, bytes));
        assert_eq!(doc.utf8(), text.as_bytes());
        assert_eq!(doc.replacements(), 0, "{}", e.name());
    }
}

#[test]
fn iso_2022_jp_ranges_exclude_the_escape_sequences_around_a_hit() {
    let raw = b"see \x1b$B8!:w\x1b(Bhttp://x.jp/\x1b$B8!:w\x1b(B end";
    let c = Charset::given(encoding_rs::ISO_2022_JP, raw);
    let doc = transcode(raw, &c);
    let text = std::str::from_utf8(doc.utf8()).unwrap();
    assert_eq!(text, "see 検索http://x.jp/検索 end");
    let hit = text.find("http").unwrap()..text.find(" end").unwrap();
    let range = doc.original_range(hit.clone()).unwrap();
    // Starts at `h` (after ESC ( B), ends after the last JIS byte (before
    // ESC ( B), keeps the escape sequences inside.
    assert_eq!(&raw[range.clone()], b"http://x.jp/\x1b$B8!:w");
    assert_eq!(
        encoding_rs::ISO_2022_JP
            .decode_without_bom_handling(&raw[range])
            .0,
        &text[hit]
    );
    // The empty range at the end of the output lies after the final escape.
    assert_eq!(doc.original_start(text.len()), Some(raw.len()));
    assert_eq!(doc.original_end(4), Some(4));
    assert_eq!(doc.original_start(4), Some(7));
}

#[test]
fn offsets_inside_a_character_cover_the_whole_character() {
    // 0x88 0x62 in Big5 decodes to two characters, Ê and U+0304.
    let raw = b"a\x88\x62b";
    let doc = transcode(raw, &Charset::given(encoding_rs::BIG5, raw));
    assert_eq!(doc.utf8(), "aÊ\u{304}b".as_bytes());
    // Between the two characters of the pair, and inside each.
    for u in 2..5 {
        assert_eq!(doc.original_start(u), Some(1), "{u}");
        assert_eq!(doc.original_end(u), Some(3), "{u}");
    }
    assert_eq!(doc.original_range(1..5), Some(1..3));
}

#[test]
fn lookups_beyond_the_output_are_none() {
    let raw = b"\x82\xa0";
    let mut t = Transcoder::new(&Charset::given(encoding_rs::SHIFT_JIS, raw));
    let mut out = Vec::new();
    t.push(&raw[..1], false, &mut out);
    // The lead byte is pending: no output yet; the next character will
    // start at 0.
    assert_eq!(t.output_len(), 0);
    assert_eq!(t.original_start(0), Some(0));
    assert_eq!(t.original_start(1), None);
    t.push(&raw[1..], true, &mut out);
    assert_eq!(out, "あ".as_bytes());
    assert_eq!(t.original_range(0..3), Some(0..2));
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = 3..0;
    assert_eq!(t.original_range(reversed), None);
    assert_eq!(t.original_end(4), None);
    // Input after the end is ignored.
    assert!(t.push(b"more", false, &mut out).is_empty());
    assert_eq!(t.input_len(), 2);
}

/// Transcoding `bytes` in `encoding` (after a BOM if `with_bom`), pushed
/// in pieces cut at `cuts` (indices into the bytes, BOM included): no
/// panic, the same output as the whole-input path, and an offset map that
/// is monotonic and within the input.
fn check_any_chunking(
    encoding: &'static Encoding,
    mut bytes: Vec<u8>,
    cuts: &[prop::sample::Index],
    with_bom: bool,
) -> Result<(), TestCaseError> {
    let e = encoding;
    if with_bom {
        let bom: &[u8] = match e.name() {
            "UTF-16LE" => b"\xff\xfe",
            "UTF-16BE" => b"\xfe\xff",
            _ => b"\xef\xbb\xbf",
        };
        bytes.splice(0..0, bom.iter().copied());
    }
    let charset = Charset::given(e, &bytes);
    let whole = transcode(&bytes, &charset);
    if e != encoding_rs::UTF_8 {
        let reference = e.decode_without_bom_handling(&bytes[charset.bom_len()..]).0;
        prop_assert_eq!(whole.utf8(), reference.as_bytes());
    }
    let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut t = Transcoder::new(&charset);
    let mut out = Vec::new();
    let mut text = Vec::new();
    let mut from = 0;
    for c in cuts {
        text.extend_from_slice(t.push(&bytes[from..c], false, &mut out));
        from = c;
    }
    text.extend_from_slice(t.push(&bytes[from..], true, &mut out));
    prop_assert_eq!(&text[..], whole.utf8());
    prop_assert_eq!(t.replacements(), whole.replacements());

    let mut starts = t.mapper();
    let mut ends = t.mapper();
    let (mut last_start, mut last_end) = (0, 0);
    for u in boundaries(&text) {
        let s = starts.original_start(u).unwrap();
        let e = ends.original_end(u).unwrap();
        prop_assert!(s >= last_start && e >= last_end, "not monotonic at {}", u);
        // The end of the character before u is not after the start of
        // the one at u — unless u lies between the two characters that
        // one Big5 code decodes to, where both cover the code.
        let pair = e > s
            && e - s == 2
            && encoding == encoding_rs::BIG5
            && encoding_rs::BIG5
                .decode_without_bom_handling(&bytes[s..e])
                .0
                .chars()
                .count()
                == 2;
        prop_assert!(e <= s || pair, "end {} after start {} at {}", e, s, u);
        prop_assert!(
            charset.bom_len() <= e && s <= bytes.len(),
            "out of bounds at {}",
            u
        );
        prop_assert_eq!(Some(s), whole.original_start(u));
        prop_assert_eq!(Some(e), whole.original_end(u));
        (last_start, last_end) = (s, e);
    }
    prop_assert_eq!(t.original_start(text.len() + 1), None);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(256)
    })]

    /// Arbitrary bytes × any encoding × arbitrary chunking: no panic, the
    /// same output as the whole-input path, and an offset map that is
    /// monotonic and within the input.
    #[test]
    fn any_bytes_any_encoding_any_chunking(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        which in 0..ALL_ENCODINGS.len(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..10),
        with_bom in any::<bool>(),
    ) {
        check_any_chunking(ALL_ENCODINGS[which], bytes, &cuts, with_bom)?;
    }
}

/// Big5 88 64 is one code for two characters (Ê̌: U+00CA U+030C): the
/// offset map gives both the code's two bytes, so the end of the first is
/// after the start of the second.
// Found by `any_bytes_any_encoding_any_chunking`: seed cc b7a709e389a60da0
// (`which` 31 is Big5; no cuts, no BOM).
#[test]
fn a_big5_code_for_two_characters_maps_both_to_its_bytes() {
    check_any_chunking(encoding_rs::BIG5, vec![0, 0x88, 0x64], &[], false).unwrap();
}

/// Pieces of declarations (and BOMs, escapes, cut UTF-8) to build inputs
/// for the detector from.
const DECLARATION_PIECES: &[&[u8]] = &[
    b"<meta ",
    b"charset",
    b"=",
    b"\"",
    b"'",
    b"http-equiv=content-type ",
    b"content=\"text/html; ",
    b">",
    b"<!--",
    b"-->",
    b"<?xml ",
    b"encoding=",
    b"?>",
    b"\nContent-Type:",
    b" text/plain; ",
    b"\r\n\t",
    b"gbk",
    b"utf-16",
    b"iso-2022-kr",
    b"\x1b$B",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x82\xa0",
    b"\xe6\x97",
    b"a",
];

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(512)
    })]

    /// Detection never panics, whatever the bytes (declaration syntax cut
    /// anywhere included), and only a BOM gives a BOM length.
    #[test]
    fn detection_takes_any_bytes(
        pieces in prop::collection::vec(prop::sample::select(DECLARATION_PIECES), 0..40),
        noise in prop::collection::vec(any::<u8>(), 0..20),
        is_whole in any::<bool>(),
    ) {
        let mut bytes = pieces.concat();
        bytes.extend(noise);
        let c = detect(&bytes, is_whole);
        prop_assert!(c.bom_len() <= bytes.len());
        prop_assert_eq!(c.bom_len() > 0, c.source() == Bom);
        prop_assert_eq!(c.source() == Bom, Encoding::for_bom(&bytes).is_some());
        prop_assert!(c.encoding() != encoding_rs::REPLACEMENT);
        // And the document can be transcoded in it.
        let doc = transcode(&bytes, &c);
        prop_assert!(doc.original_range(0..doc.utf8().len()).is_some());
    }

    #[test]
    fn labels_take_any_string(label in ".{0,20}") {
        match charset_for_label(&label) {
            Ok(e) => prop_assert_eq!(Some(e), Encoding::for_label_no_replacement(label.as_bytes())),
            Err(err) => prop_assert_eq!(err.label(), label),
        }
    }
}

/// ISO-2022-JP (docs/rules.md §1.5): a hit's span takes in the escape back
/// to ASCII that directly follows its text, so that cutting the span out
/// leaves both the span and the rest decodable with a fresh decoder, to
/// the hit's text and to the rest of the document.
#[test]
fn iso_2022_jp_spans_end_after_the_escape_back_to_ascii() {
    let mut taken_in = 0;
    for stem in ["ja-mail.iso-2022-jp", "ja-note.iso-2022-jp"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("corpus/charsets")
            .join(format!("{stem}.txt"));
        let bytes = std::fs::read(&path).unwrap();
        let fresh = |b: &[u8]| {
            encoding_rs::ISO_2022_JP
                .decode_without_bom_handling(b)
                .0
                .into_owned()
        };
        let mut hits = Vec::new();
        iriscan::Searcher::new(iriscan::Finder::new())
            .encoding(Some(encoding_rs::ISO_2022_JP))
            .scan_reader(&bytes[..], |h: &iriscan::Hit| {
                hits.push((h.start(), h.end(), h.text().to_string()));
                Ok(true)
            })
            .unwrap();
        assert!(hits.len() >= 3, "{stem}");
        for (start, end, text) in hits {
            assert_eq!(fresh(&bytes[start..end]), text, "{stem} {start}..{end}");
            if !text.is_ascii() && !text.ends_with(|c: char| c.is_ascii()) {
                assert!(bytes[..end].ends_with(b"\x1b(B"), "{stem}: {text}");
                taken_in += 1;
            }
            // The rest, read from the span's end in ASCII, is what the
            // whole document has after the hit.
            let whole = fresh(&bytes);
            let before = fresh(&bytes[..end]);
            assert_eq!(
                format!("{before}{}", fresh(&bytes[end..])),
                whole,
                "{stem} {end}"
            );
        }
    }
    assert!(taken_in >= 4, "{taken_in}");
}
