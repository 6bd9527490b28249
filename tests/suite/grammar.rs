//! The TextMate grammar (`editors/loony.tmLanguage.json`): tokenized as VS Code tokenizes it
//! (`vscode-textmate` on Oniguruma, pinned npm packages installed once by
//! `scripts/install-grammar-test.sh`), over every example and a sample of every form; and its
//! built-in names are the built-in table's.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn grammar() -> Value {
    let text = std::fs::read_to_string(root().join("editors/loony.tmLanguage.json"))
        .expect("the grammar file");
    serde_json::from_str(&text).expect("the grammar is JSON")
}

/// The names in a rule's `\b(?:a|b|…)\b`.
fn names_in(rule: &Value) -> Vec<String> {
    let m = rule["match"].as_str().expect("a match rule");
    let inner = m
        .strip_prefix(r"\b(?:")
        .and_then(|s| s.strip_suffix(r")\b"))
        .expect("a list of words");
    let mut v: Vec<String> = inner.split('|').map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn the_grammars_builtins_are_the_tables() {
    use loony::eval::catalog::{BUILTINS, Impl};
    let g = grammar();
    let rules = g["repository"]["builtin"]["patterns"]
        .as_array()
        .expect("builtin patterns");
    let by_scope = |scope: &str| {
        let rule = rules
            .iter()
            .find(|r| r["name"] == scope)
            .unwrap_or_else(|| panic!("a rule named {scope}"));
        names_in(rule)
    };
    let mut constants: Vec<String> = BUILTINS
        .iter()
        .filter(|b| matches!(b.imp, Impl::Constant(_)))
        .map(|b| b.name.to_string())
        .collect();
    let mut functions: Vec<String> = BUILTINS
        .iter()
        .filter(|b| !matches!(b.imp, Impl::Constant(_)))
        .map(|b| b.name.to_string())
        .collect();
    constants.sort();
    functions.sort();
    assert_eq!(by_scope("support.constant.outcome.loony"), constants);
    assert_eq!(by_scope("support.function.builtin.loony"), functions);
}

/// The folder with the pinned packages and the tokenizer; panics (so the test fails) when
/// they cannot be installed.
fn tokenizer() -> PathBuf {
    let out = Command::new("bash")
        .arg(root().join("scripts/install-grammar-test.sh"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "scripts/install-grammar-test.sh could not install vscode-textmate (node, npm and the \
         npm registry are needed): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let dir = root().join(dir);
    assert!(
        dir.join("tokenize.mjs").is_file(),
        "no tokenizer in {}",
        dir.display()
    );
    dir
}

/// Each file's tokens: (line, text, scopes).
fn tokenize(files: &[PathBuf]) -> Vec<Vec<(u64, String, Vec<String>)>> {
    let dir = tokenizer();
    let out = Command::new("node")
        .arg(dir.join("tokenize.mjs"))
        .arg(root().join("editors/loony.tmLanguage.json"))
        .args(files)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "tokenizing failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all: Value = serde_json::from_slice(&out.stdout).expect("the tokens as JSON");
    files
        .iter()
        .map(|f| {
            let tokens = all[f.to_str().expect("a UTF-8 path")]
                .as_array()
                .expect("the file's tokens");
            tokens
                .iter()
                .map(|t| {
                    let scopes = t[2].as_array().expect("scopes");
                    (
                        t[0].as_u64().expect("line"),
                        t[1].as_str().expect("text").to_string(),
                        scopes
                            .iter()
                            .map(|s| s.as_str().expect("scope").to_string())
                            .collect(),
                    )
                })
                .collect()
        })
        .collect()
}

/// The innermost scope of the first token whose text is `text` (on `line`, if given).
fn scope_of(tokens: &[(u64, String, Vec<String>)], text: &str, line: Option<u64>) -> String {
    tokens
        .iter()
        .find(|(l, t, _)| t == text && line.is_none_or(|want| *l == want))
        .and_then(|(_, _, s)| s.last().cloned())
        .unwrap_or_else(|| panic!("no token {text:?}"))
}

#[test]
fn the_grammar_tokenizes_the_examples_and_every_form() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cgt"))
        .collect();
    files.sort();
    let dir = std::env::temp_dir().join(format!("loony-grammar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let sample = dir.join("sample.cgt");
    let text = "# a comment\n\
        import \"std/kayles\"\n\
        ruleset r(n) {\n  for k in [1, 2] if k <= n => entail r(n - k)\n}\n\
        let x = <0, *2 | 0, *2>\n\
        a{0, a | a}\n\
        \"tab\\there \\\"quoted\\\"\"\n\
        [inf, -inf, ∞, ∞̄, ☾, moon(3), ⟫(2), *[[2], 0], *k, true, none]\n\
        outcome(*3) == N\n";
    std::fs::write(&sample, text).expect("write the sample");
    files.push(sample);
    let all = tokenize(&files);
    for (f, tokens) in files.iter().zip(&all) {
        assert!(!tokens.is_empty(), "{} has no tokens", f.display());
        let bad: Vec<_> = tokens
            .iter()
            .filter(|(_, _, s)| s.iter().any(|x| x.starts_with("invalid")))
            .collect();
        assert!(bad.is_empty(), "{}: {bad:?}", f.display());
    }
    let s = all.last().expect("the sample's tokens");
    let expect = [
        ("# a comment", "comment.line.number-sign.loony"),
        ("import", "keyword.control.import.loony"),
        ("ruleset", "storage.type.loony"),
        ("r", "entity.name.function.loony"),
        ("for", "keyword.control.loony"),
        ("entail", "keyword.other.option.loony"),
        ("<", "punctuation.section.form.begin.loony"),
        ("*2", "constant.numeric.nimber.loony"),
        ("|", "punctuation.separator.form.loony"),
        ("a", "entity.name.label.loony"),
        ("\\t", "constant.character.escape.loony"),
        ("\\\"", "constant.character.escape.loony"),
        ("inf", "constant.language.infinity.loony"),
        ("∞̄", "constant.language.infinity.loony"),
        ("☾", "constant.language.moon.loony"),
        ("moon", "constant.language.moon.loony"),
        ("⟫", "constant.language.moon.loony"),
        ("*[", "punctuation.definition.misere-form.begin.loony"),
        ("true", "constant.language.boolean.loony"),
        ("none", "constant.language.none.loony"),
        ("outcome", "support.function.builtin.loony"),
        ("N", "support.constant.outcome.loony"),
    ];
    for (text, scope) in expect {
        assert_eq!(scope_of(s, text, None), scope, "the scope of {text:?}");
    }
    // Inside `<… | …>` and `*[…]` the forms' own scopes hold.
    let in_misere = s
        .iter()
        .filter(|(l, _, _)| *l == 8)
        .skip_while(|(_, t, _)| t != "*[")
        .find(|(_, t, _)| t == "2")
        .expect("2 in the misère form");
    assert!(
        in_misere.2.iter().any(|x| x == "meta.misere-form.loony"),
        "{in_misere:?}"
    );
    let in_loopy = s
        .iter()
        .find(|(l, t, _)| *l == 5 && t == "*2")
        .expect("*2 in the loopy form");
    assert!(
        in_loopy.2.iter().any(|x| x == "meta.form.loopy.loony"),
        "{in_loopy:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
