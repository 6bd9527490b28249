//! The shipped modules (`import "std/NAME"`, embedded in the binary) and what their own
//! source says of them: a summary and the names they define.

/// The shipped modules, by import name.
pub const STD: &[(&str, &str)] = &[
    ("std/kayles", include_str!("std/kayles.cgt")),
    ("std/subtraction", include_str!("std/subtraction.cgt")),
    ("std/nim", include_str!("std/nim.cgt")),
    ("std/grundy", include_str!("std/grundy.cgt")),
    ("std/nimstring", include_str!("std/nimstring.cgt")),
    ("std/top_entails", include_str!("std/top_entails.cgt")),
    ("std/keep_nim", include_str!("std/keep_nim.cgt")),
    ("std/turn_keep_nim", include_str!("std/turn_keep_nim.cgt")),
    ("std/tripiece", include_str!("std/tripiece.cgt")),
    ("std/wythoff", include_str!("std/wythoff.cgt")),
    ("std/mock_turtles", include_str!("std/mock_turtles.cgt")),
    ("std/chomp", include_str!("std/chomp.cgt")),
    ("std/dawson_chess", include_str!("std/dawson_chess.cgt")),
    ("std/token_walk", include_str!("std/token_walk.cgt")),
    ("std/cram", include_str!("std/cram.cgt")),
    ("std/node_kayles", include_str!("std/node_kayles.cgt")),
];

/// A shipped module as documentation: its leading comment and the names it defines.
pub struct ModuleDoc {
    pub path: &'static str,
    pub summary: String,
    /// `name(params)` of each ruleset and function, and each `let` name.
    pub defines: Vec<String>,
}

/// The shipped module that defines `name` (a ruleset, function or binding at its top level),
/// for the hint of an unknown name: `kayles` is `import "std/kayles"` away.
pub fn shipped_definer(name: &str) -> Option<&'static str> {
    module_docs()
        .into_iter()
        .find(|m| m.defines.iter().any(|d| d.split('(').next() == Some(name)))
        .map(|m| m.path)
}

/// The shipped modules, described from their own source.
pub fn module_docs() -> Vec<ModuleDoc> {
    use loony_syntax::ast::Stmt;
    STD.iter()
        .map(|&(path, src)| {
            let summary = src
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| l.trim_start_matches('#').trim())
                .collect::<Vec<_>>()
                .join(" ");
            let mut defines = Vec::new();
            if let Ok(program) = loony_syntax::parse_program(src) {
                for stmt in &program.stmts {
                    match stmt {
                        Stmt::Ruleset(r) => {
                            defines.push(crate::words::signature(&r.name.name, &r.params))
                        }
                        Stmt::Fn(f) => {
                            defines.push(crate::words::signature(&f.name.name, &f.params))
                        }
                        Stmt::Let { name, .. } => defines.push(name.name.to_string()),
                        _ => {}
                    }
                }
            }
            ModuleDoc {
                path,
                summary,
                defines,
            }
        })
        .collect()
}
