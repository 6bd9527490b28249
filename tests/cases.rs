//! Language cases and error cases: each `tests/cases/**/*.cgt` file runs and its output (results
//! and diagnostics, rendered without colour under a fixed name) is a reviewed snapshot.

mod common;

#[test]
fn cases() {
    insta::glob!("cases/**/*.cgt", |path| {
        let src = std::fs::read_to_string(path).expect("read case");
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        insta::assert_snapshot!(common::transcript(&rel, &src));
    });
}
