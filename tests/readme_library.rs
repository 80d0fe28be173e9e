//! README.md § Library shows the code of `examples/library_tour.rs` (which
//! `cargo test` builds): the copy must stay equal to the program.

use std::path::Path;

#[test]
fn the_readme_library_tour_is_the_example_that_builds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let example = std::fs::read_to_string(root.join("examples/library_tour.rs")).unwrap();
    let section = &readme[readme.find("## Library\n").expect("README § Library")..];
    let start = section.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let shown = &section[start..start + section[start..].find("```\n").unwrap()];
    let begin = example.find("// README: begin\n").unwrap() + "// README: begin\n".len();
    let end = example.find("    // README: end").unwrap();
    let program: String = example[begin..end]
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        shown, program,
        "README § Library differs from examples/library_tour.rs"
    );
}
