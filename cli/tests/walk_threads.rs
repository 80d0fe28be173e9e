//! A directory walked with several threads (its small inputs scanned side
//! by side on the pool, each printed at its turn) prints byte for byte what
//! one thread prints: the same standard output, the same messages on
//! standard error in the same order, the same exit status — for every kind
//! of input a walk meets.

use std::io::Write;
use std::process::Command;

mod support;

use support::{BIN, TempDir, corpus};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A directory with one input of each kind, in walk (name) order.
fn mixed_inputs(test: &str) -> TempDir {
    let dir = TempDir::new(test);
    let copy = |from: &str, to: &str| {
        dir.write(to, std::fs::read(corpus().join(from)).unwrap());
    };
    dir.write("d/a-plain.txt", "see http://a.example/x and b@c.example\n");
    copy("html/maint-guide-upload.ja.html", "d/b-page.html");
    copy("mail/dovecot-014.eml", "d/c-message.eml");
    copy("mail/spamassassin-ham.mbox", "d/d-box.mbox");
    copy("warc/cc-main-2014-35-sample.warc", "d/e-archive.warc");
    // Cut inside a record after hits: the WARC reader reports it, but not
    // once the output stopped the scan (`-l`).
    let warc = std::fs::read(corpus().join("warc/cc-main-2014-35-sample.warc")).unwrap();
    dir.write("d/e-cut.warc", &warc[..30000]);
    // Read as mail by its first lines alone: a note says so.
    dir.write(
        "d/f-guessed",
        "From: a@b.example\nSubject: hi\n\nhttp://guessed.example/\n",
    );
    dir.write(
        "d/g-packed.txt.gz",
        gzip("packed http://gz.example/ here\n".repeat(50).as_bytes()),
    );
    // Cut short: with -z, reported as a decompression error.
    let cut = gzip("http://cut.example/ and on\n".repeat(2000).as_bytes());
    dir.write("d/h-cut.gz", &cut[..cut.len() / 2]);
    dir.write("d/i-binary.bin", b"http://bin.example/\0\x01\x02 rest\n");
    // Latin-1: a charset guessed, announced.
    dir.write("d/j-latin1.txt", b"caf\xe9 http://latin.example/caf\xe9\n");
    dir.write("d/k-empty.txt", b"");
    // Larger than what is scanned whole: streamed, in pieces, at its turn.
    let mut large = String::with_capacity(9 << 20);
    let line = format!("{} http://large.example/path\n", "x".repeat(200));
    while large.len() < (8 << 20) + 1000 {
        large.push_str(&line);
    }
    dir.write("d/l-large.txt", &large);
    for i in 0..30 {
        dir.write(
            &format!("d/m-many/{i:02}.txt"),
            format!("file {i} http://m{i}.example/パス\n").repeat(i + 1),
        );
    }
    dir.write("d/z-last.txt", "http://z.example/\n");
    // Unreadable for anyone but root, who reads everything.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.write("d/n-locked.txt", "http://locked.example/\n");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    dir
}

/// Standard output, standard error and the exit status of `iriscan ARGS`.
fn output(dir: &TempDir, args: &[&str]) -> (Vec<u8>, String, Option<i32>) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    (
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_walk_prints_the_same_with_any_number_of_threads() {
    let dir = mixed_inputs("walk-threads");
    // Unreadable inputs among the paths: a missing one, and one the
    // kernel refuses to read from offset 0 (also for root).
    let mut paths = vec!["d", "missing.txt"];
    if cfg!(target_os = "linux") {
        paths.push("/proc/self/mem");
    }
    paths.push("d/z-last.txt");
    for options in [&["--json"][..], &["--count", "-z"], &["-n", "--uri", "-z"]] {
        let args = |threads: &'static str| {
            let mut args = options.to_vec();
            args.extend(["-j", threads]);
            args.extend(&paths);
            args
        };
        let one = output(&dir, &args("1"));
        // Every kind of input was met.
        let stderr = &one.1;
        for said in [
            "missing.txt: No such file or directory",
            "/proc/self/mem: ",
            "i-binary.bin: binary file skipped",
            "f-guessed: note: read as mail",
            "j-latin1.txt: warning: charset guessed",
            "e-cut.warc: record 8 at byte 12786: the input ends inside the record",
        ] {
            assert!(
                stderr.contains(said) || !cfg!(target_os = "linux"),
                "{options:?}: {said:?} not in {stderr}"
            );
        }
        if options.contains(&"-z") {
            assert!(stderr.contains("h-cut.gz: "), "{stderr}");
        }
        let stdout = String::from_utf8_lossy(&one.0);
        for hit in [
            "b-page.html",
            "c-message.eml",
            "d-box.mbox",
            "e-archive.warc",
            "l-large.txt",
        ] {
            assert!(stdout.contains(hit), "{options:?}: no hit in {hit}");
        }
        assert_eq!(one.2, Some(2), "an unreadable input: status 2");
        for threads in ["2", "3"] {
            let more = output(&dir, &args(threads));
            assert!(
                more.0 == one.0,
                "{options:?}: -j {threads}: standard output differs from -j 1"
            );
            assert_eq!(
                (more.1.as_str(), more.2),
                (one.1.as_str(), one.2),
                "{options:?}: -j {threads}: standard error differs from -j 1"
            );
        }
    }
}

/// `-m` and `-l` stop a scan early; what a structured input's reader says
/// after the stop is not reported, with one thread or several.
#[test]
fn a_walk_that_stops_early_prints_the_same_with_any_number_of_threads() {
    let dir = mixed_inputs("walk-threads-stop");
    for options in [&["-m", "1"][..], &["-l"], &["-q"]] {
        let args = |threads: &'static str| {
            let mut args = options.to_vec();
            args.extend(["-z", "-j", threads, "d"]);
            args
        };
        let one = output(&dir, &args("1"));
        if options != ["-q"] {
            assert!(!one.1.contains("e-cut.warc"), "{options:?}: {}", one.1);
        }
        for threads in ["2", "3"] {
            let more = output(&dir, &args(threads));
            assert!(more.0 == one.0, "{options:?}: -j {threads}: stdout differs");
            assert_eq!(
                (more.1.as_str(), more.2),
                (one.1.as_str(), one.2),
                "{options:?}: -j {threads}: stderr differs"
            );
        }
    }
}
