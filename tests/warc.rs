//! WARC and WET (docs/rules.md §8): records read one at a time, plain or
//! gzip-compressed (member per record or one for all); payloads taken out
//! of their HTTP responses (chunked, gzip) and scanned by content type and
//! charset, relative links resolved against `WARC-Target-URI`; bad input
//! reported with its record and position while the records after it are
//! read. (The real files of `corpus/warc/` are checked in
//! `warc/corpus.rs`.)

use std::io::Write;

use iriscan::{Finder, RecordScan, WarcError, WarcErrorKind, WarcReader, WarcRecord, WarcScanner};

use crate::support::{FailingAfter, Trickle};

/// A record: version 1.1, these header fields, then `Content-Length` and
/// the block.
fn record(kind: &str, id: &str, uri: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn text_record(id: &str, text: &str) -> Vec<u8> {
    record(
        "resource",
        id,
        &format!("http://ex.org/{id}"),
        "text/plain",
        text.as_bytes(),
    )
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn scan_all(input: &[u8]) -> Vec<RecordScan> {
    let mut scans = Vec::new();
    WarcScanner::new(Finder::new())
        .scan_warc(input, |s| scans.push(s))
        .unwrap();
    scans
}

/// `(record, iri)` of the valid hits.
fn found(scans: &[RecordScan]) -> Vec<(u64, String)> {
    scans
        .iter()
        .flat_map(|s| {
            s.hits()
                .iter()
                .filter(|h| h.hit().is_valid())
                .map(|h| (s.index(), h.hit().iri().to_string()))
        })
        .collect()
}

fn errors(scans: &[RecordScan]) -> Vec<WarcError> {
    scans.iter().flat_map(|s| s.errors().to_vec()).collect()
}

fn pairs(list: &[(u64, &str)]) -> Vec<(u64, String)> {
    list.iter().map(|&(i, s)| (i, s.to_string())).collect()
}

/// Three text records with one link each.
fn three() -> (Vec<Vec<u8>>, Vec<(u64, String)>) {
    let records = vec![
        text_record("a", "see https://a.example/1 now"),
        text_record("b", "and http://b.example/2."),
        text_record("c", "last <https://c.example/3>"),
    ];
    let want = pairs(&[
        (0, "https://a.example/1"),
        (1, "http://b.example/2"),
        (2, "https://c.example/3"),
    ]);
    (records, want)
}

#[test]
fn records_are_read_one_at_a_time_in_any_chunking() {
    let (records, _) = three();
    let warc = records.concat();
    for chunk in [1, 3, 7, 64, 1 << 20] {
        let read: Vec<WarcRecord> = WarcReader::new(Trickle { data: &warc, chunk })
            .map(Result::unwrap)
            .collect();
        assert_eq!(read.len(), 3, "chunk {chunk}");
        assert_eq!(read[1].record_id(), Some("urn:uuid:b"));
        assert_eq!(read[1].target_uri(), Some("http://ex.org/b"));
        assert_eq!(read[1].block(), b"and http://b.example/2.");
        assert_eq!(read[1].offset(), records[0].len() as u64);
        let at = read[2].block_offset() as usize;
        assert_eq!(&warc[at..at + 4], b"last");
        assert!(!read[0].is_compressed());
        assert_eq!(read[0].version(), "WARC/1.1");
    }
}

#[test]
fn hits_name_their_record_and_slice_the_file() {
    let (records, want) = three();
    let warc = records.concat();
    let scans = scan_all(&warc);
    assert_eq!(found(&scans), want);
    for s in &scans {
        for h in s.hits() {
            assert_eq!(h.origin().id(), s.record_id());
            assert_eq!(h.origin().target_uri(), s.target_uri());
            assert_eq!(h.origin().source().to_string(), "text/plain");
            let raw = h.raw_range().expect("a verbatim text block");
            assert_eq!(
                &warc[raw.start as usize..raw.end as usize],
                h.hit().text().as_bytes()
            );
        }
    }
}

#[test]
fn gzip_per_record_and_whole_give_the_same_links() {
    let (records, want) = three();
    let per_record: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    let members = per_record.concat();
    let whole = gzip(&records.concat());
    for (name, input) in [("per record", &members), ("whole", &whole)] {
        let scans = scan_all(input);
        assert_eq!(found(&scans), want, "{name}");
        assert!(errors(&scans).is_empty(), "{name}");
        // Decoded bytes are not the file: no raw offsets.
        assert!(
            scans
                .iter()
                .all(|s| s.hits().iter().all(|h| h.raw_range().is_none()))
        );
    }
    // A record that starts a member knows the member's offset.
    let read: Vec<WarcRecord> = WarcReader::new(&members[..]).map(Result::unwrap).collect();
    let offsets: Vec<Option<u64>> = read.iter().map(WarcRecord::gzip_offset).collect();
    let first = per_record[0].len() as u64;
    let second = first + per_record[1].len() as u64;
    assert_eq!(offsets, [Some(0), Some(first), Some(second)]);
    assert!(read[0].is_compressed());
    let read: Vec<WarcRecord> = WarcReader::new(&whole[..]).map(Result::unwrap).collect();
    let offsets: Vec<Option<u64>> = read.iter().map(WarcRecord::gzip_offset).collect();
    assert_eq!(offsets, [Some(0), None, None]);
}

#[test]
fn a_wrong_content_length_is_reported_and_the_next_records_read() {
    let (records, want) = three();
    for delta in [-5i64, 9, 40] {
        // Record 1 says it is longer or shorter than it is.
        let text = String::from_utf8(records[1].clone()).unwrap();
        let length = "and http://b.example/2.".len() as i64;
        let broken = text.replace(
            &format!("Content-Length: {length}\r\n"),
            &format!("Content-Length: {}\r\n", length + delta),
        );
        let warc = [records[0].clone(), broken.into_bytes(), records[2].clone()].concat();
        let scans = scan_all(&warc);
        let errs = errors(&scans);
        assert_eq!(errs.len(), 1, "{delta}: {errs:?}");
        assert_eq!(errs[0].record(), 1);
        assert_eq!(*errs[0].kind(), WarcErrorKind::WrongLength);
        let got = found(&scans);
        assert!(
            got.contains(&want[0]) && got.contains(&want[2]),
            "{delta}: {got:?}"
        );
        // The record after it keeps its index.
        assert_eq!(scans.last().unwrap().index(), 2, "{delta}");
    }
}

#[test]
fn garbage_between_records_is_skipped_with_its_position() {
    let (records, want) = three();
    let junk = b"this is not a record\nnor http://junk.example/\n";
    let warc = [
        records[0].clone(),
        junk.to_vec(),
        records[1].clone(),
        records[2].clone(),
    ]
    .concat();
    let scans = scan_all(&warc);
    assert_eq!(found(&scans), want);
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].record(), 1);
    assert_eq!(errs[0].position(), records[0].len() as u64);
    assert_eq!(
        *errs[0].kind(),
        WarcErrorKind::Garbage {
            length: junk.len() as u64
        }
    );
    assert!(errs[0].to_string().starts_with("record 1 at byte "));
}

#[test]
fn a_broken_gzip_member_drops_its_record_only() {
    let (records, want) = three();
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    // The middle member cut in half, then damaged in its deflate data.
    let mut cut = members[1].clone();
    cut.truncate(cut.len() / 2);
    let mut damaged = members[1].clone();
    for b in &mut damaged[12..20] {
        *b ^= 0x55;
    }
    for (name, middle) in [("truncated", cut), ("damaged", damaged)] {
        let input = [members[0].clone(), middle, members[2].clone()].concat();
        let scans = scan_all(&input);
        let errs = errors(&scans);
        // The decoder may take the next member's bytes for more of the
        // cut one (what it decoded from them is no record) before it
        // fails; the reader then goes back to the member after the broken
        // one's start.
        let gzip: Vec<&WarcError> = errs
            .iter()
            .filter(|e| matches!(e.kind(), WarcErrorKind::Gzip(_)))
            .collect();
        assert_eq!(gzip.len(), 1, "{name}: {errs:?}");
        assert_eq!(
            gzip[0].gzip_offset(),
            Some(members[0].len() as u64),
            "{name}"
        );
        assert!(errs.iter().all(|e| e.record() >= 1), "{name}: {errs:?}");
        let got = found(&scans);
        assert_eq!(got.first(), Some(&want[0]), "{name}");
        assert_eq!(
            got.last().map(|(_, iri)| iri.as_str()),
            Some("https://c.example/3"),
            "{name}: {got:?}"
        );
        assert!(
            !got.iter().any(|(_, iri)| iri.contains("b.example")),
            "{name}"
        );
    }
    // The last member cut: the records before it are read.
    let mut input = [members[0].clone(), members[1].clone()].concat();
    input.extend_from_slice(&members[2][..members[2].len() / 2]);
    let scans = scan_all(&input);
    assert_eq!(found(&scans)[..2], want[..2]);
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].record(), 2);
}

#[test]
fn a_record_too_large_is_read_past() {
    let (records, want) = three();
    let big = text_record("big", &format!("http://big.example/ {}", "x".repeat(5000)));
    let warc = [records[0].clone(), big, records[1].clone()].concat();
    let mut scans = Vec::new();
    WarcScanner::new(Finder::new())
        .max_record_size(1000)
        .scan_warc(&warc[..], |s| scans.push(s))
        .unwrap();
    assert_eq!(
        found(&scans),
        [want[0].clone(), (2, "http://b.example/2".to_string())]
    );
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].record(), 1);
    assert_eq!(errs[0].position(), records[0].len() as u64);
    assert_eq!(*errs[0].kind(), WarcErrorKind::TooLarge { limit: 1000 });
}

#[test]
fn bad_headers_and_truncation_are_reported() {
    let (records, want) = three();
    let no_length = b"WARC/1.0\r\nWARC-Type: resource\r\n\r\nhttp://lost.example/\r\n\r\n";
    let warc = [records[0].clone(), no_length.to_vec(), records[1].clone()].concat();
    let scans = scan_all(&warc);
    assert_eq!(
        found(&scans),
        [want[0].clone(), (2, "http://b.example/2".into())]
    );
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(matches!(errs[0].kind(), WarcErrorKind::BadHeader(_)));
    assert_eq!(errs[0].record(), 1);
    // Cut inside the last record's block.
    let warc = [
        records[0].clone(),
        records[1][..records[1].len() - 10].to_vec(),
    ]
    .concat();
    let scans = scan_all(&warc);
    assert_eq!(found(&scans), want[..1]);
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1);
    assert_eq!(*errs[0].kind(), WarcErrorKind::Truncated);
    assert_eq!(errs[0].position(), records[0].len() as u64);
}

#[test]
fn a_read_error_ends_the_input_after_the_records_before() {
    let (records, want) = three();
    let warc = records.concat();
    let mut scans = Vec::new();
    let end = WarcScanner::new(Finder::new()).scan_warc(
        FailingAfter {
            data: &warc,
            ok: records[0].len() + records[1].len() + 5,
        },
        |s| scans.push(s),
    );
    assert!(matches!(end.unwrap_err().kind(), WarcErrorKind::Read(_)));
    assert_eq!(found(&scans), want[..2]);
}

#[test]
fn http_responses_are_decoded_by_their_headers() {
    // Chunked, gzip content coding, ISO-8859-1 from the HTTP header,
    // relative links resolved against the target URI, <base href> after.
    let html = b"<p>caf\xe9 <a href=\"../r\xe9sum\xe9?a=1&amp;b=2\">cv</a>\
        <base href=\"http://cdn.example/s/\"><img src=\"i.png\"></p>";
    let body = gzip(html);
    let mut http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\
        Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
        .to_vec();
    for chunk in body.chunks(10) {
        http.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        http.extend_from_slice(chunk);
        http.extend_from_slice(b"\r\n");
    }
    http.extend_from_slice(b"0\r\n\r\n");
    let warc = [
        record(
            "request",
            "q",
            "http://ex.org/a/b.html",
            "application/http; msgtype=request",
            b"GET /a/b.html HTTP/1.1\r\nReferer: http://not.scanned.example/\r\n\r\n",
        ),
        record(
            "response",
            "r",
            "http://ex.org/a/b.html",
            "application/http; msgtype=response",
            &http,
        ),
        record(
            "response",
            "img",
            "http://ex.org/i.png",
            "application/http; msgtype=response",
            b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\nhttp://not.text.example/",
        ),
    ]
    .concat();
    let scans = scan_all(&warc);
    assert!(errors(&scans).is_empty());
    assert_eq!(
        found(&scans),
        pairs(&[
            (1, "http://ex.org/résumé?a=1&b=2"),
            (1, "http://cdn.example/s/"),
            (1, "http://cdn.example/s/i.png"),
        ])
    );
    let hit = &scans[1].hits()[0];
    assert_eq!(hit.origin().source().to_string(), "attr:href");
    assert_eq!(hit.origin().id(), Some("urn:uuid:r"));
    assert_eq!(hit.hit().document_encoding().name(), "windows-1252");
}

#[test]
fn a_payload_that_does_not_decode_is_reported() {
    let warc = record(
        "response",
        "r",
        "http://ex.org/",
        "application/http; msgtype=response",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\n\x0b\x02",
    );
    let scans = scan_all(&warc);
    let errs = errors(&scans);
    assert_eq!(errs.len(), 1);
    assert!(matches!(errs[0].kind(), WarcErrorKind::Payload(_)));
    assert_eq!(errs[0].record(), 0);
}

#[test]
fn the_parallel_scan_equals_record_by_record() {
    // More than one batch of records.
    let mut warc = Vec::new();
    for i in 0..3000 {
        warc.extend(text_record(
            &i.to_string(),
            &format!("x https://h{i}.example/p y"),
        ));
    }
    let scanner = WarcScanner::new(Finder::new());
    let one_by_one: Vec<RecordScan> = WarcReader::new(&warc[..])
        .map(|r| scanner.scan_record(&r.unwrap()))
        .collect();
    let mut all = Vec::new();
    let count = scanner.scan_warc(&warc[..], |s| all.push(s)).unwrap();
    assert_eq!(count, 3000);
    assert_eq!(all, one_by_one);
}

#[test]
fn hostile_input_is_read_in_one_pass() {
    // A megabyte line with no end, a megabyte of version-line lookalikes,
    // a header block that never ends, a huge Content-Length: each read to
    // its end, with its errors, and the record after it still found.
    let n = 1 << 20;
    let tail = text_record("t", "https://tail.example/");
    let inputs: Vec<Vec<u8>> = vec![
        "x".repeat(n).into_bytes(),
        "WARC/1.\n".repeat(n / 8).into_bytes(),
        format!("WARC/1.1\r\n{}", "X-A: b\r\n".repeat(n / 8)).into_bytes(),
        b"WARC/1.1\r\nContent-Length: 99999999999999\r\n\r\nabc".to_vec(),
        "WARC/1.1\r\n\r\n".repeat(n / 12).into_bytes(),
    ];
    for (i, input) in inputs.iter().enumerate() {
        let warc = [input.clone(), b"\r\n".to_vec(), tail.clone()].concat();
        let scans = scan_all(&warc);
        let got = found(&scans);
        if i != 3 {
            // (A huge Content-Length swallows what follows: truncated.)
            assert_eq!(
                got.last().map(|(_, iri)| iri.as_str()),
                Some("https://tail.example/"),
                "input {i}"
            );
        }
        assert!(!errors(&scans).is_empty(), "input {i}");
    }
}

mod corpus;
