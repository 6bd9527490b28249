//! Every shipped example runs, and its output is a reviewed snapshot.

mod common;

#[test]
fn examples() {
    insta::glob!("../examples", "*.cgt", |path| {
        let src = std::fs::read_to_string(path).expect("read example");
        let name = format!("examples/{}", path.file_name().unwrap().to_string_lossy());
        insta::assert_snapshot!(common::transcript(&name, &src));
    });
}
