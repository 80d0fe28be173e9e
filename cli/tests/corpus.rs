//! The command line on the charset corpus (`corpus/charsets/` of the
//! library): the JSON it prints equals the expected output checked in next
//! to each document (`STEM.ENC.expected.jsonl`; `IRISCAN_BLESS=1` rewrites
//! them, to be reviewed by hand).

use std::path::PathBuf;
use std::process::Command;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/charsets")
}

/// The well-formed documents (their stems).
fn documents() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir())
        .expect("corpus/charsets")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".utf8.txt") && !n.starts_with("bad"))
        .map(|n| n.trim_end_matches(".utf8.txt").to_string())
        .collect();
    stems.sort();
    assert!(stems.len() >= 20, "{stems:?}");
    stems
}

#[test]
fn command_line_json_matches_the_expected_output() {
    let bless = std::env::var_os("IRISCAN_BLESS").is_some();
    for stem in documents() {
        let out = Command::new(env!("CARGO_BIN_EXE_iriscan"))
            // The text path's charset rules (`ja-mail` is a message: with
            // `--format auto` it is read as mail, part by part).
            .args([
                "--json",
                "--invalid",
                "--format",
                "text",
                &format!("{stem}.txt"),
            ])
            .current_dir(dir())
            .output()
            .expect("run iriscan");
        assert!(
            out.status.success(),
            "{stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = String::from_utf8(out.stdout).expect("UTF-8 JSON");
        let path = dir().join(format!("{stem}.expected.jsonl"));
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let expected =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            got,
            expected,
            "{stem}: output differs from {}",
            path.display()
        );
    }
}
