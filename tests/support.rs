//! Helpers shared by the test modules.

use std::path::PathBuf;

/// The path of a file in `tests/suites/`.
pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites")
        .join(name)
}

/// A suite file of `tests/suites/`, parsed.
#[allow(dead_code)]
pub fn suite(name: &str) -> serde_json::Value {
    let path = suite_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `cases` array of a suite file.
#[allow(dead_code)]
pub fn cases(name: &str) -> Vec<serde_json::Value> {
    suite(name)["cases"]
        .as_array()
        .expect("cases array")
        .clone()
}
