//! Mail (docs/rules.md §5): MIME messages taken apart and every text piece
//! scanned by the text path's finder, hits placed by message, part and
//! source; mbox files split as they stream; hostile messages cheap; bad
//! parts reported with their position while the rest is scanned. (The
//! real messages of `corpus/mail/` are checked in `mail/corpus.rs`.)

use iriscan::{
    Finder, MailErrorKind, MailScanner, MboxReader, MessageScan, StructuredHit, mail_parser,
};

use crate::support::{FailingAfter, Trickle};

fn scanner() -> MailScanner {
    MailScanner::new(Finder::new())
}

/// `(part, source, iri)` of the valid hits.
fn found(scan: &MessageScan) -> Vec<(String, String, String)> {
    scan.hits()
        .iter()
        .filter(|h| h.hit().is_valid())
        .map(|h| {
            (
                h.origin().part().to_string(),
                h.origin().source().to_string(),
                h.hit().iri().to_string(),
            )
        })
        .collect()
}

fn triple(part: &str, source: &str, iri: &str) -> (String, String, String) {
    (part.into(), source.into(), iri.into())
}

/// Every hit with raw offsets slices exactly its text out of `input`.
fn assert_raw_slices(input: &[u8], hits: &[StructuredHit<'_>]) {
    for h in hits {
        if let Some(raw) = h.raw_range() {
            assert_eq!(
                &input[raw.start as usize..raw.end as usize],
                h.hit().text().as_bytes(),
                "{h:?}"
            );
        }
    }
}

#[test]
fn quoted_printable_link_is_whole_again() {
    // The example: a soft line break inside the link, `=3D` and
    // UTF-8 bytes written `=C3=A9`.
    let message = b"From: a@example.org\n\
        Content-Type: text/plain; charset=UTF-8\n\
        Content-Transfer-Encoding: quoted-printable\n\
        \n\
        Lisez https://fr.wikipedia.org/wiki/Caf=C3=A9_(boisson)?utm_source=3Dnewsletter&u=\n\
        tm_medium=3Demail demain.\n";
    let scan = scanner().scan_message(message, 0);
    assert_eq!(
        found(&scan),
        [triple(
            "1",
            "text/plain",
            "https://fr.wikipedia.org/wiki/Café_(boisson)?utm_source=newsletter&utm_medium=email"
        )]
    );
    let hit = &scan.hits()[0];
    // Offsets into the decoded text; none into the message (it is encoded).
    assert_eq!((hit.start(), hit.raw_range()), ("Lisez ".len(), None));
    assert!(scan.errors().is_empty());
}

#[test]
fn identity_encoded_utf8_body_has_offsets_into_the_message() {
    let message = "Subject: hi\r\nContent-Type: text/plain; charset=utf-8\r\n\
        Content-Transfer-Encoding: 8bit\r\n\r\n\
        読む: https://ja.wikipedia.org/wiki/東京都。\r\n"
        .as_bytes();
    let scan = scanner().scan_message(message, 0);
    assert_eq!(
        found(&scan),
        [triple(
            "1",
            "text/plain",
            "https://ja.wikipedia.org/wiki/東京都"
        )]
    );
    let raw = scan.hits()[0].raw_range().expect("verbatim body");
    assert_eq!(
        &message[raw.start as usize..raw.end as usize],
        "https://ja.wikipedia.org/wiki/東京都".as_bytes()
    );
    // A body in another charset is decoded: no offsets into the message.
    let latin1 = b"Content-Type: text/plain; charset=iso-8859-1\n\nhttps://exemple.fr/caf\xe9\n";
    let scan = scanner().scan_message(latin1, 0);
    assert_eq!(
        found(&scan),
        [triple("1", "text/plain", "https://exemple.fr/café")]
    );
    assert_eq!(scan.hits()[0].raw_range(), None);
}

#[test]
fn link_headers_are_scanned_where_they_are() {
    // A `<…>` list folded over two lines, as list servers write it.
    let message = b"From: list@example.org\r\n\
        List-Unsubscribe: <mailto:list-request@example.org?subject=unsubscribe>,\r\n\
        \t<https://lists.example.org/mailman/options/list>\r\n\
        List-Archive: <https://lists.example.org/pipermail/list/>\r\n\
        List-Id: Example list <list.example.org>\r\n\
        Message-ID: <abc@mail.example.org>\r\n\
        \r\n\
        no links here\r\n";
    let scan = scanner().scan_message(message, 3);
    assert_eq!(
        found(&scan),
        [
            triple(
                "",
                "header:List-Unsubscribe",
                "mailto:list-request@example.org?subject=unsubscribe"
            ),
            triple(
                "",
                "header:List-Unsubscribe",
                "https://lists.example.org/mailman/options/list"
            ),
            triple(
                "",
                "header:List-Archive",
                "https://lists.example.org/pipermail/list/"
            ),
        ]
    );
    assert_raw_slices(message, scan.hits());
    assert!(scan.hits().iter().all(|h| h.raw_range().is_some()));
    assert_eq!(scan.index(), 3);
    assert_eq!(scan.message_id(), Some("abc@mail.example.org"));
    assert!(
        scan.hits()
            .iter()
            .all(|h| h.origin().index() == 3 && h.origin().id() == Some("abc@mail.example.org"))
    );
}

#[test]
fn encoded_word_subject_is_decoded() {
    let message = b"Subject: =?UTF-8?Q?Voir_https://exemple.fr/=C3=A9t=C3=A9?=\r\n\
        Comments: plain https://example.org/c\r\n\r\nbody\r\n";
    let scan = scanner().scan_message(message, 0);
    assert_eq!(
        found(&scan),
        [
            triple("", "header:Subject", "https://exemple.fr/été"),
            triple("", "header:Comments", "https://example.org/c"),
        ]
    );
    // The decoded Subject has no raw offsets; the plain Comments has.
    assert_eq!(scan.hits()[0].raw_range(), None);
    assert!(scan.hits()[1].raw_range().is_some());
    assert_raw_slices(message, scan.hits());
}

#[test]
fn iso_2022_jp_and_utf7_parts_are_decoded() {
    // "詳細は https://例え.jp/案内 を" in ISO-2022-JP, base64; and
    // "Café https://example.org/ü" in UTF-7.
    let jis = encoding_rs::ISO_2022_JP
        .encode("詳細は https://例え.jp/案内 を参照。")
        .0;
    let b64 = base64(&jis);
    let message = format!(
        "Content-Type: multipart/mixed; boundary=\"XX\"\n\n--XX\n\
         Content-Type: text/plain; charset=ISO-2022-JP\n\
         Content-Transfer-Encoding: base64\n\n{b64}\n--XX\n\
         Content-Type: text/plain; charset=UTF-7\n\n\
         Caf+AOk- https://example.org/+APw-\n--XX--\n"
    );
    let scan = scanner().scan_message(message.as_bytes(), 0);
    assert_eq!(
        found(&scan),
        [
            triple("1", "text/plain", "https://例え.jp/案内"),
            triple("2", "text/plain", "https://example.org/ü"),
        ]
    );
    assert!(scan.errors().is_empty(), "{:?}", scan.errors());
}

#[test]
fn each_part_gets_the_charset_rules_of_plain_text() {
    // Declared ISO-8859-1, but the bytes are UTF-8: UTF-8 (and verbatim,
    // so with offsets into the message).
    let message = "Content-Type: text/plain; charset=iso-8859-1\n\nhttps://exemple.fr/café\n";
    let scan = scanner().scan_message(message.as_bytes(), 0);
    assert_eq!(
        found(&scan),
        [triple("1", "text/plain", "https://exemple.fr/café")]
    );
    assert_raw_slices(message.as_bytes(), scan.hits());
    assert!(scan.hits()[0].raw_range().is_some());

    // No declaration and not UTF-8: the body's own <meta> declaration, or
    // the detector, instead of UTF-8 with replacement characters.
    let html = "<meta charset=\"shift_jis\"><p>詳細は https://例え.jp/案内 を参照</p>";
    let mut message = b"Content-Type: text/html\n\n".to_vec();
    message.extend_from_slice(&encoding_rs::SHIFT_JIS.encode(html).0);
    let scan = scanner().scan_message(&message, 0);
    assert_eq!(
        found(&scan),
        [triple("1", "text/html", "https://例え.jp/案内")]
    );
    assert_eq!(
        scan.hits()[0].hit().document_encoding(),
        encoding_rs::SHIFT_JIS
    );
    let prose = "ロシア語の記事は https://ru.wikipedia.org/wiki/Москва にあります。\
        モスクワはロシアの首都であり、最大の都市です。人口は千二百万人を超えています。\
        歴史は古く、十二世紀に最初の記録があります。";
    let mut message = b"Subject: undeclared\n\n".to_vec();
    message.extend_from_slice(&encoding_rs::EUC_JP.encode(prose).0);
    let scan = scanner().scan_message(&message, 0);
    assert_eq!(
        found(&scan),
        [triple(
            "1",
            "text/plain",
            "https://ru.wikipedia.org/wiki/Москва"
        )]
    );
    assert_eq!(
        scan.hits()[0].hit().document_encoding(),
        encoding_rs::EUC_JP
    );

    // The part's charset is the document charset of its hits: an http
    // query is mapped in it (docs/rules.md §2).
    let message = b"Content-Type: text/plain; charset=windows-1252\n\
        Content-Transfer-Encoding: quoted-printable\n\n\
        http://example.org/search?q=3Dcaf=E9\n";
    let scan = scanner().scan_message(message, 0);
    let uri = scan.hits()[0].hit().to_uri(&iriscan::UriOptions::new()).uri;
    assert_eq!(uri, "http://example.org/search?q=caf%E9");
}

#[test]
fn part_paths_follow_imap_numbering() {
    let message = b"Subject: nest\n\
        Content-Type: multipart/mixed; boundary=\"outer\"\n\n\
        --outer\n\
        Content-Type: multipart/alternative; boundary=\"alt\"\n\n\
        --alt\n\
        Content-Type: text/plain\n\n\
        plain https://example.org/1.1\n\
        --alt\n\
        Content-Type: text/html\n\n\
        <p>html https://example.org/1.2</p>\n\
        --alt--\n\
        --outer\n\
        Content-Type: application/pdf\n\
        Content-Transfer-Encoding: base64\n\n\
        aHR0cHM6Ly9leGFtcGxlLm9yZy9za2lwcGVk\n\
        --outer\n\
        Content-Type: message/rfc822\n\n\
        Subject: inner https://example.org/2h\n\
        Content-Type: multipart/mixed; boundary=\"in\"\n\n\
        --in\n\
        Content-Type: text/plain\n\n\
        https://example.org/3.1\n\
        --in--\n\
        --outer--\n";
    let scan = scanner().scan_message(message, 0);
    assert_eq!(
        found(&scan),
        [
            triple("1.1", "text/plain", "https://example.org/1.1"),
            triple("1.2", "text/html", "https://example.org/1.2"),
            // Part 2 is a PDF (its base64 holds a link): skipped.
            triple("3", "header:Subject", "https://example.org/2h"),
            triple("3.1", "text/plain", "https://example.org/3.1"),
        ]
    );
    // Every part here is verbatim: every hit has offsets into the message,
    // but the HTML part's, whose text is what a reader sees of it.
    assert!(
        scan.hits()
            .iter()
            .all(|h| h.raw_range().is_some() == (h.origin().source().to_string() != "text/html"))
    );
    assert_raw_slices(message, scan.hits());
}

#[test]
fn html_parts_are_read_as_a_reader_sees_them() {
    // References decoded, link attributes taken, scripts dropped: the
    // issue's `&amp;` and `&eacute;`.
    let message = b"Content-Type: text/html; charset=utf-8\n\
        Content-Transfer-Encoding: quoted-printable\n\n\
        <p><a href=3D\"https://example.com/a?x=3D1&amp;y=3D2\">ici</a>\n\
        https://ex.org/caf&eacute; <script>var u =3D 'https://tracker.example/';</script>\n\
        <img src=3D\"https://img.example/p.png\"></p>\n";
    let scan = scanner().scan_message(message, 0);
    assert_eq!(
        found(&scan),
        [
            triple("1", "text/html", "https://example.com/a?x=1&y=2"),
            triple("1", "text/html", "https://ex.org/café"),
            triple("1", "text/html", "https://img.example/p.png"),
        ]
    );
}

#[test]
fn a_parsed_message_is_scanned_as_the_bytes_are() {
    let message = b"Subject: x https://example.org/s\n\nbody https://example.org/b\n";
    let parsed = mail_parser::MessageParser::default()
        .parse(message)
        .unwrap();
    assert_eq!(
        scanner().scan_parsed(&parsed, 0),
        scanner().scan_message(message, 0)
    );
}

/// `depth` multiparts, each the only part of the one before, a link at the
/// bottom.
fn nested_multiparts(depth: usize) -> Vec<u8> {
    let mut m = String::from("Subject: bomb\r\n");
    for i in 0..depth {
        m.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        ));
    }
    m.push_str("Content-Type: text/plain\r\n\r\nhttps://deep.example/\r\n");
    for i in (0..depth).rev() {
        m.push_str(&format!("--b{i}--\r\n"));
    }
    m.into_bytes()
}

/// `depth` attached messages, each the body of the one before.
fn nested_messages(depth: usize) -> Vec<u8> {
    let mut m = String::new();
    for _ in 0..depth {
        m.push_str("Subject: x\r\nContent-Type: message/rfc822\r\n\r\n");
    }
    m.push_str("Subject: y\r\n\r\nhttps://deep.example/\r\n");
    m.into_bytes()
}

#[test]
fn nesting_is_scanned_up_to_the_limit() {
    let shallow = scanner().max_depth(8);
    let scan = shallow.scan_message(&nested_multiparts(7), 0);
    assert_eq!(
        found(&scan),
        [triple(
            "1.1.1.1.1.1.1",
            "text/plain",
            "https://deep.example/"
        )]
    );
    assert!(scan.errors().is_empty());
    let scan = shallow.scan_message(&nested_multiparts(9), 0);
    assert!(found(&scan).is_empty());
    assert_eq!(scan.errors().len(), 1);
    assert_eq!(
        scan.errors()[0].kind(),
        &MailErrorKind::TooDeep { limit: 8 }
    );
}

#[test]
fn mime_bombs_are_parsed_in_one_pass() {
    // Tens of thousands of nested multiparts and attached messages: a
    // parse or a walk that went back over the input per level would take
    // minutes here (and a recursive one would overflow the stack); the
    // deep parts are reported once, as too deep.
    for bomb in [nested_multiparts(30_000), nested_messages(50_000)] {
        let scan = scanner().scan_message(&bomb, 0);
        assert!(scan.hits().is_empty());
        assert_eq!(scan.errors().len(), 1, "{:?}", scan.errors());
        assert!(matches!(
            scan.errors()[0].kind(),
            MailErrorKind::TooDeep { .. }
        ));
    }
}

#[test]
fn broken_parts_are_reported_and_the_rest_is_scanned() {
    let message = b"Content-Type: multipart/mixed; boundary=\"B\"\n\n\
        --B\n\
        Content-Type: text/plain\n\
        Content-Transfer-Encoding: base64\n\n\
        aHR0cHM6Ly9leGFtcGxlLm9yZy9h!!!!\n\
        --B\n\
        Content-Type: text/plain\n\n\
        after https://example.org/after\n\
        --B--\n";
    let scan = scanner().scan_message(message, 5);
    assert!(
        found(&scan).contains(&triple("2", "text/plain", "https://example.org/after")),
        "{:?}",
        found(&scan)
    );
    let e = &scan.errors()[0];
    assert_eq!(
        (e.message(), e.part(), e.kind()),
        (5, Some("1"), &MailErrorKind::Undecodable)
    );
    // The position is the start of the broken part's body.
    let body = memchr::memmem::find(message, b"aHR0").unwrap() as u64;
    assert_eq!(e.position(), body);
    assert!(
        e.to_string()
            .starts_with(&format!("message 5 at byte {body}, part 1"))
    );

    // A multipart whose boundary never comes: scanned as text, reported.
    let message = b"Content-Type: multipart/mixed; boundary=\"never\"\n\n\
        --other\n\nhttps://example.org/x\n";
    let scan = scanner().scan_message(message, 0);
    assert_eq!(found(&scan)[0].2, "https://example.org/x");
    assert_eq!(scan.errors()[0].kind(), &MailErrorKind::BoundaryNotFound);
}

#[test]
fn a_message_of_unscanned_headers_is_still_a_message() {
    // The parser skips the header fields the walk does not read; a
    // message that has only those still has its body scanned.
    for message in [
        &b"X-Mailer: x\n\nhttps://example.org/a\n"[..],
        b"From: a@b.example\nDate: now\n\nhttps://example.org/a\n",
    ] {
        let scan = scanner().scan_message(message, 0);
        assert_eq!(
            found(&scan),
            [triple("1", "text/plain", "https://example.org/a")]
        );
        assert!(scan.errors().is_empty());
    }
}

#[test]
fn not_a_message_and_too_large() {
    let scan = scanner().scan_message(b"", 0);
    assert_eq!(scan.errors()[0].kind(), &MailErrorKind::NotAMessage);
    let big = format!("Subject: x\n\n{}https://example.org/\n", "a ".repeat(600));
    let scan = scanner()
        .max_message_size(1000)
        .scan_message(big.as_bytes(), 2);
    assert!(scan.hits().is_empty());
    assert_eq!(
        (scan.errors()[0].message(), scan.errors()[0].kind()),
        (2, &MailErrorKind::TooLarge { limit: 1000 })
    );
}

const MBOX: &[u8] = b"From alice@example.org Mon Jan  1 00:00:00 2024\n\
    Subject: first\n\
    \n\
    see https://example.org/one\n\
    >From the archive: https://example.org/two\n\
    >>From twice quoted\n\
    From inside a line is text\n\
    \n\
    From bob@example.org Mon Jan  1 00:00:01 2024\n\
    Subject: second https://example.org/subject\n\
    \n\
    https://example.org/three\n";

#[test]
fn mbox_messages_are_split_and_unquoted() {
    let messages: Vec<_> = MboxReader::new(MBOX).map(Result::unwrap).collect();
    assert_eq!(messages.len(), 2);
    assert_eq!(
        messages[0].bytes(),
        b"Subject: first\n\nsee https://example.org/one\n\
          From the archive: https://example.org/two\n\
          >From twice quoted\nFrom inside a line is text\n"
    );
    assert_eq!(
        messages[1].bytes(),
        b"Subject: second https://example.org/subject\n\nhttps://example.org/three\n"
    );
    // Offsets in a message map to offsets in the mbox, past the `>`s
    // taken out.
    for m in &messages {
        for (i, &b) in m.bytes().iter().enumerate() {
            assert_eq!(
                MBOX[m.input_offset(i) as usize],
                b,
                "message {} byte {i}",
                m.index()
            );
        }
    }
}

#[test]
fn mbox_hits_have_offsets_into_the_mbox() {
    let mut scans = Vec::new();
    let count = scanner().scan_mbox(MBOX, |s| scans.push(s)).unwrap();
    assert_eq!(count, 2);
    let all: Vec<_> = scans.iter().flat_map(found).collect();
    assert_eq!(
        all,
        [
            triple("1", "text/plain", "https://example.org/one"),
            triple("1", "text/plain", "https://example.org/two"),
            triple("", "header:Subject", "https://example.org/subject"),
            triple("1", "text/plain", "https://example.org/three"),
        ]
    );
    for s in &scans {
        assert!(s.hits().iter().all(|h| h.raw_range().is_some()));
        assert_raw_slices(MBOX, s.hits());
    }
    assert_eq!(scans[1].hits()[0].origin().index(), 1);
}

#[test]
fn mbox_reads_alike_in_any_chunks() {
    let whole: Vec<_> = MboxReader::new(MBOX).map(Result::unwrap).collect();
    for chunk in [1, 2, 3, 5, 7, 64] {
        let trickled: Vec<_> = MboxReader::new(Trickle { data: MBOX, chunk })
            .map(Result::unwrap)
            .collect();
        assert_eq!(trickled, whole, "chunk {chunk}");
    }
}

#[test]
fn mbox_edge_lines() {
    // CRLF lines; no From_ line first (a lone message); a message cut at
    // the end of the input in the middle of a held-back `>Fro`.
    let mbox = b"Subject: lone\r\n\r\nbody\r\n\r\nFrom x Mon\r\nSubject: b\r\n\r\n>Fro";
    let messages: Vec<_> = MboxReader::new(&mbox[..]).map(Result::unwrap).collect();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0].bytes(), b"Subject: lone\r\n\r\nbody\r\n");
    assert_eq!(messages[1].bytes(), b"Subject: b\r\n\r\n>Fro");
    // Only white space before the first From_ line: no message.
    let mbox = b"\n\nFrom x\nSubject: a\n\nb\n";
    let messages: Vec<_> = MboxReader::new(&mbox[..]).map(Result::unwrap).collect();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].offset(), 9);
    // An empty input: no message.
    assert_eq!(MboxReader::new(&b""[..]).count(), 0);
}

#[test]
fn a_message_too_large_is_skipped_and_the_next_is_read() {
    let big = format!(
        "From a\nSubject: big\n\n{}\n\nFrom b\nSubject: small\n\nhttps://example.org/after\n",
        "x".repeat(5000)
    );
    let items: Vec<_> = MboxReader::new(Trickle {
        data: big.as_bytes(),
        chunk: 100,
    })
    .max_message_size(1000)
    .collect();
    assert_eq!(items.len(), 2);
    let e = items[0].as_ref().unwrap_err();
    assert_eq!(
        (e.message(), e.position(), e.kind()),
        (0, 7, &MailErrorKind::TooLarge { limit: 1000 })
    );
    assert_eq!(items[1].as_ref().unwrap().index(), 1);

    let mut scans = Vec::new();
    scanner()
        .max_message_size(1000)
        .scan_mbox(big.as_bytes(), |s| scans.push(s))
        .unwrap();
    assert_eq!(scans.len(), 2);
    assert_eq!(
        scans[0].errors()[0].kind(),
        &MailErrorKind::TooLarge { limit: 1000 }
    );
    assert_eq!(found(&scans[1])[0].2, "https://example.org/after");
}

#[test]
fn a_read_error_ends_the_mbox_after_the_messages_before_it() {
    let mut scans = Vec::new();
    let failing = FailingAfter {
        data: MBOX,
        ok: MBOX.len() - 10,
    };
    let e = scanner().scan_mbox(failing, |s| scans.push(s)).unwrap_err();
    assert!(matches!(e.kind(), MailErrorKind::Read(_)));
    assert_eq!(scans.len(), 1);
    assert_eq!(e.message(), 1);
}

/// Standard base64 with line breaks every 76 characters.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, chunk) in bytes.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | b as u32) << (8 * (3 - chunk.len()));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

mod corpus;
