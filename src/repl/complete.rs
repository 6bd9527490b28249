//! Tab completion: a pure function of the line, the cursor and a snapshot of the session's
//! names, so the terminal front end and the tests ask the same thing.
//!
//! What is completed: `:commands`; file names after `:load `; module paths inside
//! `import "…` (shipped `std/` modules and `.cgt` files); record fields after `name.`; and
//! otherwise the names of bindings, built-ins and keywords (all of them on an empty word).

use logos::Logos;
use loony_lang::modules::STD;
use loony_syntax::lexer::{LexErrorKind, Tok};
use std::path::Path;

/// The words of the language a user may want completed (`inf` and `moon` are the ASCII
/// spellings of `∞` and `☾`).
pub const KEYWORDS: &[&str] = &[
    "let", "fn", "ruleset", "import", "for", "in", "if", "then", "else", "entail", "carry", "true",
    "false", "and", "or", "not", "inf", "moon", "none",
];

/// One completion: what the list shows and what replaces the word.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub display: String,
    pub replacement: String,
}

/// What the session can complete, taken after each input.
#[derive(Debug, Clone, Default)]
pub struct Completions {
    /// Bindings, built-ins and keywords, sorted.
    pub names: Vec<String>,
    /// The field names of each binding that holds a record.
    pub fields: Vec<(String, Vec<&'static str>)>,
}

/// `~` and `~/…` as paths in the home folder; anything else unchanged.
pub fn expand_home(path: &str) -> String {
    let rest = match path.strip_prefix('~') {
        Some(r) if r.is_empty() || r.starts_with('/') => r,
        _ => return path.to_string(),
    };
    match std::env::var_os("HOME") {
        Some(home) => format!("{}{rest}", home.to_string_lossy()),
        None => path.to_string(),
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the word that ends `s` starts (after its last non-word character, which may be wider
/// than a byte: `☾`, `∞`).
pub fn word_start(s: &str) -> usize {
    s.char_indices()
        .rev()
        .find(|&(_, c)| !is_word(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

impl Completions {
    /// The start of the text to replace in `line` and its candidates, for the cursor at `pos`.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<Candidate>) {
        self.complete_in(line, pos, Path::new(""))
    }

    /// As [`Completions::complete`], with relative file and module paths read from `folder`
    /// (the language server's document's folder; the REPL's is the working folder).
    pub fn complete_in(&self, line: &str, pos: usize, folder: &Path) -> (usize, Vec<Candidate>) {
        let before = &line[..pos];
        let lead = before.len() - before.trim_start().len();
        let trimmed = &before[lead..];
        if let Some(cmd) = trimmed.strip_prefix(':') {
            return match cmd.split_once(char::is_whitespace) {
                Some((typed, _)) if super::commands::find(typed).is_some_and(|c| c.file_arg) => {
                    let rest = &before[lead + 1 + typed.len()..];
                    let mut at = pos - rest.trim_start().len();
                    if before[at..].starts_with(['"', '\'']) {
                        at += 1;
                    }
                    files(before, at, false, folder)
                }
                Some(_) => (pos, Vec::new()),
                None => (lead, commands(trimmed)),
            };
        }
        match open_string(before) {
            Some((true, at)) => return files(before, at, true, folder),
            Some((false, _)) => return (pos, Vec::new()),
            None => {}
        }
        let start = word_start(before);
        let word = &before[start..];
        if let Some(target) = before[..start].strip_suffix('.') {
            let name_start = word_start(target);
            let name = &target[name_start..];
            if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                let fields: &[&str] = self
                    .fields
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(&[], |(_, fs)| fs);
                let found = matching_fields(fields, word);
                return (start, found.into_iter().map(plain).collect());
            }
        }
        let out = self
            .names
            .iter()
            .filter(|n| n.starts_with(word))
            .map(|n| plain(n))
            .collect();
        (start, out)
    }
}

/// The fields of a record offered for `word`. A record has few fields: those containing the
/// word are offered too, after those starting with it (`p.per` offers `period` and
/// `preperiod`).
pub fn matching_fields<'a>(fields: &[&'a str], word: &str) -> Vec<&'a str> {
    let starting = fields.iter().filter(|f| f.starts_with(word));
    let inside = fields
        .iter()
        .filter(|f| !f.starts_with(word) && f.contains(word));
    starting.chain(inside).copied().collect()
}

fn plain(s: &str) -> Candidate {
    Candidate {
        display: s.to_string(),
        replacement: s.to_string(),
    }
}

fn commands(typed: &str) -> Vec<Candidate> {
    super::COMMANDS
        .iter()
        .map(|c| format!(":{}", c.name))
        .filter(|c| c.starts_with(typed))
        .map(|c| plain(&c))
        .collect()
}

/// When the cursor is inside an unclosed string: whether it follows `import`, and where its
/// text starts.
fn open_string(before: &str) -> Option<(bool, usize)> {
    let mut prev = None;
    let mut last = None;
    for (tok, span) in Tok::lexer(before).spanned() {
        last = Some((prev.take(), tok.clone(), span.start));
        prev = Some(tok);
    }
    match last? {
        (prev, Err(LexErrorKind::UnterminatedString), at) => {
            Some((prev == Some(Ok(Tok::Import)), at + 1))
        }
        _ => None,
    }
}

/// Paths completing `before[at..]`: the folders and `.cgt` files of its folder (folders with a
/// trailing `/`); for `modules`, `.cgt` is dropped (`import "lib/mine"` loads `lib/mine.cgt`)
/// and the shipped modules are offered under `std/`.
fn files(before: &str, at: usize, modules: bool, folder: &Path) -> (usize, Vec<Candidate>) {
    let typed = &before[at..];
    let (dir, prefix) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let start = at + dir.len();
    let mut out = Vec::new();
    if modules && dir.is_empty() && "std/".starts_with(prefix) {
        out.push(plain("std/"));
    }
    if modules && dir == "std/" {
        let mut shipped: Vec<&str> = STD
            .iter()
            .filter_map(|(n, _)| n.strip_prefix("std/"))
            .filter(|m| m.starts_with(prefix))
            .collect();
        shipped.sort_unstable();
        out.extend(shipped.into_iter().map(plain));
    }
    let expanded = folder.join(expand_home(dir));
    let folder = if expanded.as_os_str().is_empty() {
        Path::new(".")
    } else {
        expanded.as_path()
    };
    if let Ok(entries) = std::fs::read_dir(folder) {
        let mut found = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
                continue;
            }
            if entry.path().is_dir() {
                found.push(format!("{name}/"));
            } else if let Some(stem) = name.strip_suffix(".cgt") {
                found.push(if modules { stem.to_string() } else { name });
            }
        }
        found.sort();
        for f in found {
            if !out.iter().any(|c: &Candidate| c.replacement == f) {
                out.push(plain(&f));
            }
        }
    }
    (start, out)
}
