//! `:help` and `:help NAME`: the REPL's commands, and one built-in, shipped module, command or
//! binding of the session by name.

use loony_lang::Value;
use loony_lang::catalog;
use loony_lang::modules::STD;
use loony_syntax::ast::Stmt;

/// The text of `:help` without a name.
pub fn general() -> String {
    let mut s = String::from(
        "Type a game or an expression to see its value; `let`, `fn`, `ruleset` and `import` bind names.\nCommands:\n",
    );
    for c in super::COMMANDS {
        s.push_str(&c.help_line());
    }
    s.push_str("Built-ins (`:help NAME` shows one):\n");
    for (section, rows) in catalog::BUILTINS.sections() {
        let names: Vec<&str> = rows.iter().map(|b| b.name).collect();
        s.push_str(&wrap(&format!("{section}: {}", names.join(", "))));
    }
    s.push_str("Misère games are written *[2#0] or *[[2], 0] (CGSuite's notation: integers are nim heaps, lists are games).\n");
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

/// One line of `:help`, broken before 100 columns, continuation lines indented.
fn wrap(text: &str) -> String {
    let mut out = String::from(" ");
    let mut width = 1;
    for word in text.split(' ') {
        if width + 1 + word.len() > 100 {
            out.push_str("\n   ");
            width = 3;
        }
        out.push(' ');
        out.push_str(word);
        width += 1 + word.chars().count();
    }
    out.push('\n');
    out
}

/// The help of a command, by name with or without its colon (`load`, `:l`).
fn command(name: &str) -> Option<String> {
    let bare = name.trim_start_matches(':');
    let c = super::commands::find(bare)?;
    Some(format!("{}\n  {}", c.synopsis(), c.doc))
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
    let program = loony_syntax::parse_program(src).ok()?;
    let mut defines = Vec::new();
    let mut imports = Vec::new();
    for stmt in &program.stmts {
        match stmt {
            Stmt::Let { name, .. } => defines.push(name.name.to_string()),
            Stmt::Fn(f) => defines.push(format!(
                "fn {}",
                loony_lang::show::signature(&f.name.name, &f.params)
            )),
            Stmt::Ruleset(r) => defines.push(format!(
                "ruleset {}",
                loony_lang::show::signature(&r.name.name, &r.params)
            )),
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

/// `:help NAME`: every built-in, module, command and session binding of that name, or `None`.
pub fn lookup(name: &str, binding: Option<&Value>) -> Option<String> {
    let mut sections = Vec::new();
    if let Some(v) = binding {
        sections.push(match v {
            Value::Func(c) => format!(
                "fn {} (defined in this session)",
                loony_lang::show::signature(&c.def.name.name, &c.def.params)
            ),
            Value::Ruleset(r) => format!(
                "ruleset {} (defined in this session)",
                loony_lang::show::signature(&r.def.name.name, &r.def.params)
            ),
            other => format!("{name} is {} (bound in this session)", other.type_name()),
        });
    }
    if let Some(b) = catalog::find(name) {
        sections.push(catalog::help(b));
    }
    if let Some(m) = module(name) {
        sections.push(m);
    }
    if let Some(c) = command(name) {
        sections.push(c);
    }
    (!sections.is_empty()).then(|| sections.join("\n"))
}
