//! `-z`/`--search-zip` (docs/rules.md §4): gzip (every member), bzip2, xz
//! and zstd inputs, told by their first bytes, are decompressed as they are
//! read — named, walked or on standard input — and everything printed is
//! about the decompressed bytes. The archives are made here, with the
//! compressing side of the crates the program decompresses with.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

mod support;

use support::{BIN, TempDir, run_in};

// ---------------------------------------------------------------------------
// Making archives.

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

/// A compressor: bytes → the archive.
type Compress = fn(&[u8]) -> Vec<u8>;

/// Each format, with its usual extension and its compressor.
const FORMATS: &[(&str, Compress)] = &[("gz", gzip), ("bz2", bzip2), ("xz", xz), ("zst", zstd)];

/// Text in several scripts over several lines, with CRLF line ends, a
/// wrapped `<…>` IRI, an e-mail address and an invalid candidate.
const TEXT: &str = "日本語の説明：https://ja.wikipedia.org/wiki/東京都。詳しくは info@例え.jp まで。\r\n\
العربية: راجع https://ar.wikipedia.org/wiki/القاهرة، شكرا\r\n\
Wrapped: <https://example.org/a/very/long/\r\n   path/東京> end. \
Also www.example.com/wiki/Blur_[band].\r\n\
bad: http://a.com/%zz end\r\n";

/// Many lines, more than a scan's block: `n` hits, each with a token that
/// does not compress (so that the archives are over 64 KiB, where a
/// compressed file is scanned on several threads).
fn long_text(n: usize) -> String {
    let mut token: u64 = 1;
    (0..n)
        .map(|i| {
            token = token
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("line {i}: see https://example.org/page/{i}?q=東京&t={token:016x} and more\n")
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Hits.

#[test]
fn each_format_gives_the_hits_of_the_plain_file_with_its_offsets() {
    let dir = TempDir::new("formats");
    let long = long_text(8_000);
    for (name, text) in [("short", TEXT), ("long", long.as_str())] {
        dir.write(&format!("{name}.txt"), text);
        for (ext, compress) in FORMATS {
            let archive = compress(text.as_bytes());
            if name == "long" {
                assert!(archive.len() > 64 << 10, "{ext}: {}", archive.len());
            }
            dir.write(&format!("{name}.txt.{ext}"), archive);
        }
    }
    for name in ["short", "long"] {
        for threads in ["1", "2"] {
            let plain_file = format!("{name}.txt");
            let plain = run_in(
                dir.path(),
                &["--json", "--invalid", "-j", threads, "-z", &plain_file],
                b"",
            );
            assert_eq!(plain.status, 0, "{plain:?}");
            assert!(plain.hits().len() >= 5, "{plain:?}");
            for (ext, _) in FORMATS {
                let file = format!("{name}.txt.{ext}");
                let r = run_in(
                    dir.path(),
                    &["--json", "--invalid", "-j", threads, "-z", &file],
                    b"",
                );
                assert_eq!(r.status, 0, "{file} -j {threads}: {}", r.stderr);
                assert_eq!(r.stderr, "", "{file} -j {threads}");
                assert!(r.hits() == plain.hits(), "{file} -j {threads}");
                assert!(r.stdout.contains(&format!("\"path\":\"{file}\"")));
            }
        }
    }
}

#[test]
fn every_member_of_a_gzip_file_is_read() {
    let dir = TempDir::new("members");
    // As a WARC file: one member per record, concatenated.
    let records = [
        "WARC/1.0\r\nWARC-Target-URI: http://one.example/\r\n\r\n",
        "WARC/1.0\r\nWARC-Target-URI: http://two.example/\r\n\r\n",
        "WARC/1.0\r\nWARC-Target-URI: http://three.example/\r\n\r\n",
    ];
    let joined: Vec<u8> = records.iter().flat_map(|r| gzip(r.as_bytes())).collect();
    dir.write("crawl.warc.gz", &joined);
    dir.write("crawl.warc", records.concat());
    // Read as text: this is about the members (these records are too
    // short to be WARC records, which `--format warc` would report).
    let r = run_in(
        dir.path(),
        &["-z", "--json", "--format", "text", "crawl.warc.gz"],
        b"",
    );
    let plain = run_in(
        dir.path(),
        &["--json", "--format", "text", "crawl.warc"],
        b"",
    );
    assert_eq!(r.status, 0, "{r:?}");
    assert_eq!(r.hits().len(), 3, "{r:?}");
    assert_eq!(r.hits(), plain.hits());
    // The offsets run on across members: the third is after the first two.
    let start = r.hits()[2]["start"].as_u64().unwrap();
    assert_eq!(
        start as usize,
        records[0].len() + records[1].len() + records[2].find("http").unwrap()
    );
    // bzip2, xz and zstd concatenated too.
    for (ext, compress) in &FORMATS[1..] {
        let joined: Vec<u8> = records
            .iter()
            .flat_map(|r| compress(r.as_bytes()))
            .collect();
        let file = format!("crawl.warc.{ext}");
        dir.write(&file, &joined);
        let r = run_in(
            dir.path(),
            &["-z", "--json", "--format", "text", &file],
            b"",
        );
        assert_eq!(r.hits(), plain.hits(), "{file}: {r:?}");
    }
}

#[test]
fn the_format_is_told_by_the_first_bytes_not_the_name() {
    let dir = TempDir::new("magic");
    dir.write("crawl.warc", gzip(b"see http://inside.example/ here\n"));
    dir.write("plain.gz", "see http://plain.example/ here\n");
    dir.write("short.txt", "BZ");
    let r = run_in(
        dir.path(),
        &["-z", "crawl.warc", "plain.gz", "short.txt"],
        b"",
    );
    assert_eq!(
        (r.status, r.lines(), r.stderr.as_str()),
        (
            0,
            vec![
                "crawl.warc:http://inside.example/",
                "plain.gz:http://plain.example/"
            ],
            ""
        )
    );
}

#[test]
fn without_z_a_compressed_file_is_scanned_as_it_is() {
    let dir = TempDir::new("no-z");
    dir.write("a.txt.gz", gzip(b"see http://inside.example/ here\n"));
    dir.write("d/a.txt.gz", gzip(b"see http://inside.example/ here\n"));
    // Named: binary (gzip's header has NUL bytes), scanned with a warning.
    let r = run_in(dir.path(), &["a.txt.gz"], b"");
    assert_eq!(r.status, 1, "{r:?}");
    assert!(!r.stdout.contains("inside.example"), "{r:?}");
    assert!(r.stderr.contains("warning: binary file"), "{r:?}");
    // Walked: skipped as binary.
    let r = run_in(dir.path(), &["d"], b"");
    assert_eq!(r.status, 1, "{r:?}");
    assert!(r.stderr.contains("binary file skipped"), "{r:?}");
}

#[test]
fn a_walked_directory_decompresses_what_it_finds() {
    let dir = TempDir::new("walk");
    dir.write("d/a.txt", "http://a.example/\n");
    dir.write("d/b.txt.gz", gzip(b"http://b.example/\n"));
    dir.write("d/c/c.xz", xz(b"http://c.example/\n"));
    // Binary once decompressed: a walk skips it, as a binary file.
    dir.write("d/e.bin.gz", gzip(b"http://e.example/\0\x01\x02"));
    for threads in ["1", "2"] {
        let r = run_in(dir.path(), &["-z", "-j", threads, "d"], b"");
        assert_eq!(r.status, 0, "{r:?}");
        assert_eq!(
            r.lines(),
            [
                "d/a.txt:http://a.example/",
                "d/b.txt.gz:http://b.example/",
                "d/c/c.xz:http://c.example/"
            ],
            "-j {threads}"
        );
        assert_eq!(
            r.stderr,
            "iriscan: d/e.bin.gz: binary file skipped (NUL byte at offset 17; -a scans it as text)\n",
            "-j {threads}"
        );
        // --each-line too.
        let r = run_in(
            dir.path(),
            &["-z", "-j", threads, "--each-line", "-g", "!a.txt", "d"],
            b"",
        );
        assert_eq!(
            r.lines(),
            ["d/b.txt.gz:http://b.example/", "d/c/c.xz:http://c.example/"],
            "-j {threads}"
        );
        assert_eq!(
            r.stderr,
            "iriscan: d/e.bin.gz: binary file skipped (NUL byte at offset 17; -a scans it as text)\n",
            "-j {threads}"
        );
        // Named, it is scanned with a warning (offset in the decompressed bytes).
        let r = run_in(dir.path(), &["-z", "-j", threads, "d/e.bin.gz"], b"");
        assert_eq!(r.lines(), ["http://e.example/"]);
        assert!(
            r.stderr
                .contains("warning: binary file (NUL byte at offset 17)"),
            "{r:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Standard input.

#[test]
fn z_reads_standard_input_compressed_or_not() {
    for (ext, compress) in FORMATS {
        let r = run_in(
            &std::env::temp_dir(),
            &["-z", "-n"],
            &compress(TEXT.as_bytes()),
        );
        let plain = run_in(&std::env::temp_dir(), &["-n"], TEXT.as_bytes());
        assert_eq!(r.status, 0, "{ext}: {r:?}");
        assert_eq!(r.lines(), plain.lines(), "{ext}");
    }
    // Not compressed: as it is (also shorter than a magic number, or empty).
    let r = run_in(&std::env::temp_dir(), &["-z"], TEXT.as_bytes());
    assert_eq!(r.lines().len(), 5, "{r:?}");
    for short in [&b"\x1f"[..], b"", b"BZh9"] {
        let r = run_in(&std::env::temp_dir(), &["-z"], short);
        assert_eq!((r.status, r.stderr.as_str()), (1, ""), "{short:?}");
    }
    // --each-line too.
    let r = run_in(
        &std::env::temp_dir(),
        &["-z", "--each-line"],
        &gzip("http://a.example/東\nhttp://b.example/\n".as_bytes()),
    );
    assert_eq!(
        r.lines(),
        ["http://a.example/%E6%9D%B1", "http://b.example/"],
        "{r:?}"
    );
}

/// The program reading a pipe, with its output read as it comes.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run iriscan");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
        }
    }

    fn next_line(&self) -> Option<String> {
        self.lines.recv_timeout(Duration::from_secs(20)).ok()
    }

    fn wait(mut self) -> i32 {
        drop(self.stdin.take());
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

#[test]
fn a_pipe_with_z_shows_each_hit_as_it_arrives() {
    // Plain text: its first byte tells it is not compressed.
    let mut live = Live::start(&["-z", "--line-buffered"]);
    let stdin = live.stdin.as_mut().unwrap();
    stdin.write_all(b"h http://a.example/1\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(live.next_line().as_deref(), Some("http://a.example/1"));
    assert_eq!(live.wait(), 0);
    // gzip, flushed after each line (as a logger compressing as it goes).
    let mut live = Live::start(&["-z", "--line-buffered"]);
    let mut gz =
        flate2::write::GzEncoder::new(live.stdin.take().unwrap(), flate2::Compression::default());
    gz.write_all(b"first http://a.example/1\n").unwrap();
    gz.flush().unwrap();
    assert_eq!(live.next_line().as_deref(), Some("http://a.example/1"));
    gz.write_all(b"second http://a.example/2\n").unwrap();
    gz.flush().unwrap();
    assert_eq!(live.next_line().as_deref(), Some("http://a.example/2"));
    drop(gz.finish().unwrap());
    assert_eq!(live.wait(), 0);
}

// ---------------------------------------------------------------------------
// Failures.

#[test]
fn a_truncated_archive_is_reported_after_its_hits_and_the_others_are_scanned() {
    let dir = TempDir::new("truncated");
    let text = long_text(8000);
    let gz = gzip(text.as_bytes());
    // Over 64 KiB: with -j 2, scanned on several threads.
    let cut = &gz[..gz.len() * 2 / 3];
    assert!(cut.len() > 64 << 10, "{}", cut.len());
    dir.write("cut.gz", cut);
    dir.write("next.txt", "http://next.example/\n");
    for threads in ["1", "2"] {
        let r = run_in(
            dir.path(),
            &["-z", "-j", threads, "cut.gz", "next.txt"],
            b"",
        );
        assert_eq!(r.status, 2, "-j {threads}: {}", r.stderr);
        let lines = r.lines();
        // The hits decompressed before the cut are printed, in order.
        assert!(lines.len() > 100, "-j {threads}: {} hits", lines.len());
        // (The last of them may be cut short.)
        for (i, line) in lines[..lines.len() - 2].iter().enumerate() {
            assert!(
                line.starts_with(&format!("cut.gz:https://example.org/page/{i}?")),
                "{line}"
            );
        }
        assert_eq!(lines.last(), Some(&"next.txt:http://next.example/"));
        // The message names the format and the decompressed byte reached.
        let message = r.stderr.trim_end();
        let prefix = "iriscan: cut.gz: gzip input corrupt or truncated after decompressed byte ";
        let at: usize = message
            .strip_prefix(prefix)
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{message}"));
        assert!(at > 0 && at < text.len(), "{message}");
        // Every line before that byte gave its hit.
        let whole_lines = text[..at].matches('\n').count();
        let hits_before = lines.len() - 1;
        assert!(hits_before >= whole_lines, "{message}: {hits_before}");
    }
    // Cut inside the header, on standard input, with --each-line, in JSON.
    let r = run_in(dir.path(), &["-z"], &gz[..5]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.starts_with(
            "iriscan: <stdin>: gzip input corrupt or truncated after decompressed byte 0: "
        ),
        "{r:?}"
    );
    let r = run_in(dir.path(), &["-z", "--each-line", "cut.gz"], b"");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("cut.gz: gzip input corrupt"), "{r:?}");
}

#[test]
fn corrupt_data_in_each_format_is_reported_with_its_name() {
    let dir = TempDir::new("corrupt");
    let text = long_text(2000);
    for (ext, compress) in FORMATS {
        let mut bytes = compress(text.as_bytes());
        // Past the header, the data scrambled.
        let from = 20;
        for b in &mut bytes[from..from + 200] {
            *b ^= 0x5a;
        }
        let file = format!("bad.{ext}");
        dir.write(&file, &bytes);
        let r = run_in(dir.path(), &["-z", &file], b"");
        assert_eq!(r.status, 2, "{file}: {r:?}");
        let name = match *ext {
            "gz" => "gzip",
            "bz2" => "bzip2",
            "xz" => "xz",
            _ => "zstd",
        };
        assert!(
            r.stderr.starts_with(&format!(
                "iriscan: {file}: {name} input corrupt or truncated after decompressed byte "
            )),
            "{file}: {}",
            r.stderr
        );
    }
}

/// An xz file whose block header asks for a 4 GiB dictionary (LZMA2
/// property byte 40): the decoder refuses it at its memory limit instead of
/// allocating it, and the input fails like any other corrupt one.
#[test]
fn an_xz_header_asking_for_gigabytes_is_refused() {
    let crc = |b: &[u8]| {
        let mut c = flate2::Crc::new();
        c.update(b);
        c.sum().to_le_bytes()
    };
    // Stream header: magic, flags (CRC32 check), CRC32 of the flags.
    let mut xz = vec![0xFD, b'7', b'z', b'X', b'Z', 0x00, 0x00, 0x01];
    xz.extend(crc(&[0x00, 0x01]));
    // Block header of 12 bytes: size, flags (one filter), LZMA2 (0x21)
    // with one property byte, 40 (a 4 GiB dictionary), padding, CRC32.
    let block = [0x02, 0x00, 0x21, 0x01, 40, 0x00, 0x00, 0x00];
    xz.extend(block);
    xz.extend(crc(&block));
    xz.extend([0u8; 64]);
    let dir = TempDir::new("xz-memory");
    dir.write("huge.xz", &xz);
    dir.write("ok.txt", "see http://after.example/\n");
    let r = run_in(dir.path(), &["-z", "huge.xz", "ok.txt"], b"");
    assert_eq!(r.status, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(
            "iriscan: huge.xz: xz input corrupt or truncated after decompressed byte 0"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.to_lowercase().contains("memory"), "{}", r.stderr);
    assert_eq!(r.stdout, "ok.txt:http://after.example/\n");
}

// ---------------------------------------------------------------------------
// --stats.

#[test]
fn stats_count_the_decompressed_bytes() {
    let dir = TempDir::new("stats");
    let text = long_text(500);
    dir.write("a.txt.gz", gzip(text.as_bytes()));
    let r = run_in(dir.path(), &["-z", "--stats", "-c", "a.txt.gz"], b"");
    assert_eq!(r.status, 0, "{r:?}");
    assert!(
        r.stdout
            .contains(&format!("\n{} bytes searched\n", text.len())),
        "{}",
        r.stdout
    );
}

// ---------------------------------------------------------------------------
// Signals.

#[test]
fn a_signal_stops_a_decompressed_file_at_its_next_read() {
    let dir = TempDir::new("signal");
    // 1 GiB decompressed: 1,024 gzip members of 1 MiB each (made once;
    // a few megabytes on disk), more than a release build reads in the
    // half second before the signal.
    let line = "see http://a.example/ and more words on the line\n";
    let mib: String = line.repeat((1 << 20) / line.len());
    let member = gzip(mib.as_bytes());
    let members = 1024;
    dir.write("big.gz", member.repeat(members));
    let total = members * mib.matches("http").count();
    let child = Command::new(BIN)
        .args(["-z", "-c", "big.gz"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iriscan");
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    // What was found is written out: fewer than the whole file holds.
    let stdout = String::from_utf8(out.stdout).unwrap();
    let found: usize = stdout.trim().parse().unwrap_or_else(|_| panic!("{stdout}"));
    assert!(found < total, "{found} of {total}");
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}
