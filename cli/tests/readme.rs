//! The README's command-line examples, run as written.
//!
//! Every fenced block of `README.md` whose first line is a shell prompt
//! (`$ `) holds examples. Their commands run in the README's order, with
//! `bash`, in one directory holding `notes.txt` (the file the README shows),
//! `docs/` (the files in `tests/readme/docs/`, whose contents the
//! README's outputs imply) and `corpus/` (the repository's), with this build's `iriscan` first on `PATH`.
//! The lines after a command are what it prints: its standard output and
//! standard error, each in order (the README shows them as a terminal
//! does, so the two may interleave). A `$ cat FILE` gives the contents of
//! FILE: the lines it shows are written to FILE before it runs (that is how
//! the README gives `links.txt`, twice with different lines).
//!
//! The examples need what they call: `bash`, `head`, `sed`, `cat`, `echo`,
//! `cp`, `cmp`, `gzip` and `iconv`.
//!
//! When this test fails, either the program changed (fix it) or the README
//! is out of date (fix the README).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_iriscan");

/// One `$ command` of a block and the lines shown after it.
#[derive(Debug)]
struct Example {
    /// The README line of the command (1-based).
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The README, read.
fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of `text`: the README line of the opening fence and
/// the lines inside.
fn blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => open = Some((i + 1, Vec::new())),
            }
        } else if let Some((_, lines)) = &mut open {
            lines.push(line);
        }
    }
    assert!(open.is_none(), "README.md: a code block is not closed");
    blocks
}

/// The blocks whose first line is a prompt, cut into examples.
fn sessions(text: &str) -> Vec<Vec<Example>> {
    blocks(text)
        .into_iter()
        .filter(|(_, lines)| lines.first().is_some_and(|l| l.starts_with("$ ")))
        .map(|(fence, lines)| {
            let mut examples: Vec<Example> = Vec::new();
            for (k, line) in lines.iter().enumerate() {
                match line.strip_prefix("$ ") {
                    Some(command) => examples.push(Example {
                        line: fence + 1 + k,
                        command: command.to_string(),
                        shown: Vec::new(),
                    }),
                    None => examples.last_mut().unwrap().shown.push(line.to_string()),
                }
            }
            examples
        })
        .collect()
}

/// The contents of `notes.txt`: the block after the sentence that
/// introduces it.
fn notes_txt(text: &str) -> String {
    let intro = text
        .lines()
        .position(|l| l.ends_with("this file, `notes.txt`:"))
        .expect("README.md introduces notes.txt")
        + 1;
    let (_, lines) = blocks(text)
        .into_iter()
        .find(|&(fence, _)| fence > intro)
        .expect("the block of notes.txt");
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A directory of its own, removed afterwards.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let dir = std::env::temp_dir().join(format!("iriscan-readme-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Lays out `notes.txt`, `docs/` and `corpus/` (the repository's real
/// documents, linked) in `dir`.
fn lay_out(dir: &Path, notes: &str) {
    std::fs::write(dir.join("notes.txt"), notes).unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    std::os::unix::fs::symlink(corpus.canonicalize().unwrap(), dir.join("corpus")).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/readme/docs");
    std::fs::create_dir(dir.join("docs")).unwrap();
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join("docs").join(entry.file_name())).unwrap();
    }
}

/// Runs `command` with `bash` in `dir`, the directory of this build's
/// `iriscan` first on `PATH`; its standard output and standard error.
fn run(dir: &Path, command: &str) -> (String, String) {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

/// Whether `shown` is `a` and `b` interleaved: every line of each, in its
/// order, and nothing else.
fn interleaves(shown: &[String], a: &[&str], b: &[&str]) -> bool {
    if shown.len() != a.len() + b.len() {
        return false;
    }
    // can[j]: whether the first i + j lines shown are a[..i] and b[..j]
    // interleaved, for the current i.
    let mut can = vec![false; b.len() + 1];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            can[j] = if i == 0 && j == 0 {
                true
            } else {
                let line = &shown[i + j - 1];
                (i > 0 && can[j] && a[i - 1] == line) || (j > 0 && can[j - 1] && b[j - 1] == line)
            };
        }
    }
    can[b.len()]
}

/// Runs every example and returns what differs from the README.
fn mismatches(text: &str) -> Vec<String> {
    let dir = TempDir::new();
    lay_out(&dir.0, &notes_txt(text));
    let mut mismatches = Vec::new();
    for session in sessions(text) {
        for example in session {
            if let Some(file) = example.command.strip_prefix("cat ") {
                let contents: String = example.shown.iter().map(|l| format!("{l}\n")).collect();
                std::fs::write(dir.0.join(file), contents).unwrap();
            }
            let (stdout, stderr) = run(&dir.0, &example.command);
            let out: Vec<&str> = stdout.lines().collect();
            let err: Vec<&str> = stderr.lines().collect();
            if !interleaves(&example.shown, &out, &err) {
                mismatches.push(format!(
                    "README.md:{}: $ {}\n--- shown\n{}\n--- standard output\n{}--- standard error\n{}",
                    example.line,
                    example.command,
                    example.shown.join("\n"),
                    stdout,
                    stderr
                ));
            }
        }
    }
    mismatches
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let text = readme();
    let sessions = sessions(&text);
    // Every prompt of the README is in a block of examples, and so is run.
    let prompts = text.lines().filter(|l| l.starts_with("$ ")).count();
    let commands: usize = sessions.iter().map(Vec::len).sum();
    assert_eq!(commands, prompts, "a `$ ` line outside a block of examples");
    assert!(
        sessions
            .iter()
            .flatten()
            .filter(|e| e.command.contains("iriscan"))
            .count()
            >= 10,
        "the README's examples were not found"
    );
    let mismatches = mismatches(&text);
    assert!(
        mismatches.is_empty(),
        "{} README example(s) differ:\n\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn notes_txt_is_the_file_the_readme_shows() {
    let notes = notes_txt(&readme());
    assert!(notes.starts_with("詳細は https://ja.wikipedia.org/wiki/東京都"));
    assert!(notes.ends_with("  long/path>\n"));
    assert_eq!(notes.lines().count(), 5);
}

#[test]
fn interleaving_is_checked_line_by_line() {
    let shown = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(interleaves(&shown(&["a", "e", "b"]), &["a", "b"], &["e"]));
    assert!(interleaves(&shown(&["e", "a", "b"]), &["a", "b"], &["e"]));
    assert!(interleaves(&shown(&[]), &[], &[]));
    // Order within each stream counts, and so does every line.
    assert!(!interleaves(&shown(&["b", "a", "e"]), &["a", "b"], &["e"]));
    assert!(!interleaves(&shown(&["a", "b"]), &["a", "b"], &["e"]));
    assert!(!interleaves(
        &shown(&["a", "b", "e", "x"]),
        &["a", "b"],
        &["e"]
    ));
    assert!(!interleaves(&shown(&["a", "x", "b"]), &["a", "b"], &["e"]));
}
