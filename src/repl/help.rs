//! `:help` and `:help NAME`: the REPL's commands, and one built-in, shipped module, command or
//! binding of the session by name.

use crate::eval::Value;
use crate::eval::modules::STD;
use crate::syntax::ast::{Pattern, Stmt};

/// The documentation of one built-in: its name, its signature and one paragraph.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub name: String,
    pub signature: String,
    pub doc: String,
}

/// Where `:help NAME` finds a built-in's documentation.
pub type DocLookup = fn(&str) -> Option<Doc>;

/// The built-in documentation written so far: the `HELP` tables of the misère and quotient
/// built-ins, whose signature column may name several functions (`is_tame(g), is_restive(g)`).
pub fn builtin_doc(name: &str) -> Option<Doc> {
    let tables = crate::eval::misere::HELP
        .iter()
        .chain(crate::eval::quotient::HELP);
    for (signature, doc) in tables {
        if top_level_items(signature)
            .iter()
            .any(|item| callee(item) == Some(name))
        {
            return Some(Doc {
                name: name.to_string(),
                signature: signature.to_string(),
                doc: doc.to_string(),
            });
        }
    }
    None
}

/// `a(x, y), b(z)` → `["a(x, y)", "b(z)"]`: the commas outside brackets separate items.
fn top_level_items(s: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(s[start..].trim());
    items
}

/// The function an item like `quotient(G, n)` calls.
fn callee(item: &str) -> Option<&str> {
    let (name, _) = item.split_once('(')?;
    let ok = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    ok.then_some(name)
}

/// The text of `:help` without a name.
pub fn general() -> String {
    let mut s = String::from(
        "Type a game or an expression to see its value; `let`, `fn`, `ruleset` and `import` bind names.\nCommands:\n",
    );
    for (c, what) in super::COMMANDS {
        s.push_str(&format!("  {c:<16} {what}\n"));
    }
    s.push_str("Misère play (the player who cannot move wins):\n");
    for (f, what) in crate::eval::misere::HELP {
        s.push_str(&format!("  {f:<46} {what}\n"));
    }
    s.push_str("Misère quotients of heap games:\n");
    for (f, what) in crate::eval::quotient::HELP {
        s.push_str(&format!("  {f:<46} {what}\n"));
    }
    s.push_str(&format!(
        "Shipped modules (import \"std/NAME\"): {}\n",
        STD.iter()
            .map(|(n, _)| n.trim_start_matches("std/"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s.push_str("Examples: *2 + *3   {0, * | 0, *}   outcome(*3 + *3)   [kayles(n) for n in 0..12] after import \"std/kayles\"");
    s
}

/// The help of a command, by name with or without its colon (`load`, `:l`).
fn command(name: &str) -> Option<String> {
    let bare = name.trim_start_matches(':');
    let full = super::command_name(bare)?;
    let (usage, what) = super::COMMANDS
        .iter()
        .find(|(c, _)| c.trim_start_matches(':').split(' ').next() == Some(full))?;
    Some(format!("{usage}\n  {what}"))
}

/// A shipped module's header comment and the names it defines.
fn module(name: &str) -> Option<String> {
    let key = if name.starts_with("std/") {
        name.to_string()
    } else {
        format!("std/{name}")
    };
    let (path, src) = STD.iter().find(|(n, _)| *n == key)?;
    let mut out = format!("module {path} (import \"{path}\")\n");
    for line in src.lines() {
        match line.strip_prefix('#') {
            Some(text) => out.push_str(&format!("  {}\n", text.trim())),
            None => break,
        }
    }
    let program = crate::syntax::parse_program(src).ok()?;
    let mut defines = Vec::new();
    let mut imports = Vec::new();
    for stmt in &program.stmts {
        match stmt {
            Stmt::Let { name, .. } => defines.push(name.name.to_string()),
            Stmt::Fn(f) => defines.push(format!("fn {}", signature(&f.name.name, &f.params))),
            Stmt::Ruleset(r) => {
                defines.push(format!("ruleset {}", signature(&r.name.name, &r.params)))
            }
            Stmt::Import { path, .. } => imports.push(path.clone()),
            Stmt::Expr(_) => {}
        }
    }
    out.push_str(&format!("  defines: {}", defines.join(", ")));
    if !imports.is_empty() {
        out.push_str(&format!("\n  imports: {}", imports.join(", ")));
    }
    Some(out)
}

fn signature(name: &str, params: &[Pattern]) -> String {
    fn pattern(p: &Pattern) -> String {
        match p {
            Pattern::Name(id) => id.name.to_string(),
            Pattern::Tuple(ps, _) => format!(
                "({})",
                ps.iter().map(pattern).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    format!(
        "{name}({})",
        params.iter().map(pattern).collect::<Vec<_>>().join(", ")
    )
}

/// `:help NAME`: every built-in, module, command and session binding of that name, or `None`.
pub fn lookup(name: &str, builtin_doc: DocLookup, binding: Option<&Value>) -> Option<String> {
    let mut sections = Vec::new();
    if let Some(v) = binding {
        sections.push(match v {
            Value::Func(c) => format!(
                "fn {} (defined in this session)",
                signature(&c.def.name.name, &c.def.params)
            ),
            Value::Ruleset(r) => format!(
                "ruleset {} (defined in this session)",
                signature(&r.def.name.name, &r.def.params)
            ),
            other => format!("{name} is {} (bound in this session)", other.type_name()),
        });
    }
    if crate::eval::builtins::lookup(name).is_some() {
        sections.push(match builtin_doc(name) {
            Some(d) => format!("{}\n  {}", d.signature, d.doc),
            None => format!("{name} is a built-in; its documentation is not written yet"),
        });
    }
    if let Some(m) = module(name) {
        sections.push(m);
    }
    if let Some(c) = command(name) {
        sections.push(c);
    }
    (!sections.is_empty()).then(|| sections.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_split_at_top_level_commas() {
        assert_eq!(
            top_level_items("distinguisher(g, h), *[[2], 0]"),
            vec!["distinguisher(g, h)", "*[[2], 0]"]
        );
        assert_eq!(callee("quotient(G, n)"), Some("quotient"));
        assert_eq!(callee("*[2#0]"), None);
    }
}
