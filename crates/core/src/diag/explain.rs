//! `loony --explain CODE`: a longer explanation of each diagnostic code, with an example of
//! what causes it and how to fix it. Each layer keeps the texts of its own codes beside its
//! errors ([`super::Code`]); the front end looks a code up among all of them.

use super::Code;

/// The code among `codes` and its explanation (`E0110`, `e0110` or `0110` find it), or `None`.
pub fn explain(
    code: &str,
    mut codes: impl Iterator<Item = &'static Code>,
) -> Option<(&'static str, &'static str)> {
    let c = code.trim().to_ascii_uppercase();
    let c = if !c.is_empty() && c.chars().all(|ch| ch.is_ascii_digit()) {
        format!("E{c}")
    } else {
        c
    };
    codes
        .find(|k| k.code() == c)
        .map(|k| (k.code(), k.explain()))
}

/// The explanation as `--explain` prints it: the code, then each paragraph broken before
/// `width` columns.
pub fn render(code: &str, text: &str, width: usize) -> String {
    let mut out = format!("{code}\n");
    for para in text.split("\n\n") {
        out.push('\n');
        let mut col = 0;
        for word in para.split_whitespace() {
            let w = word.chars().count();
            if col > 0 && col + 1 + w > width {
                out.push('\n');
                col = 0;
            } else if col > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(word);
            col += w;
        }
        out.push('\n');
    }
    out
}
