//! The policy for property tests (see `tests.rs`): no regression files,
//! and persistence off in every `proptest!` block, in the library, its
//! tests and the command line.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, recursively, except build output and git's.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_proptest_regression_files() {
    let mut all = Vec::new();
    files(&root(), &mut all);
    let stale: Vec<_> = all
        .iter()
        .filter(|p| {
            p.to_string_lossy().ends_with(".proptest-regressions")
                || p.components()
                    .any(|c| c.as_os_str() == "proptest-regressions")
        })
        .collect();
    assert!(
        stale.is_empty(),
        "regression files are not read; make each `cc` line a named test: {stale:?}"
    );
}

#[test]
fn every_property_test_block_turns_persistence_off() {
    // Spelt in two pieces so that this file holds no block opener itself.
    let opener = ["proptest", "! {"].concat();
    let mut all = Vec::new();
    for dir in ["src", "tests", "benches", "examples", "cli"] {
        files(&root().join(dir), &mut all);
    }
    let mut blocks = 0;
    for path in all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices(&opener) {
            blocks += 1;
            // The block's config: what comes before its first test.
            let head = &text[at..];
            let head = &head[..head.find("#[test]").unwrap_or(head.len())];
            let line = text[..at].lines().count() + 1;
            assert!(
                head.contains("#![proptest_config(") && head.contains("failure_persistence: None"),
                "{}:{line}: a property test block without `failure_persistence: None`",
                path.strip_prefix(root()).unwrap_or(path).display()
            );
        }
    }
    assert!(blocks >= 10, "only {blocks} property test blocks found");
}
