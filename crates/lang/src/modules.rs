//! `import`: shipped modules (embedded in the binary) and files relative to the importing file.

use super::Cx;
use crate::error::EvalError;
use loony_core::diag::Error;
use loony_core::game::Store;
use loony_syntax::ast::Span;
use std::path::{Path, PathBuf};

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
];

impl Cx {
    pub(crate) fn import(
        &mut self,
        store: &mut Store,
        path: &str,
        span: &Span,
    ) -> Result<(), Error> {
        let (key, name, src) = self.resolve(path, span)?;
        if self.loader.loaded.contains(&key) {
            return Ok(());
        }
        if self.loader.loading.contains(&key) {
            return Err(self.err(
                EvalError::ImportCycle {
                    path: path.to_string(),
                },
                span,
            ));
        }
        if self.loader.loading.is_empty() {
            self.loader.import_site = Some(loony_core::diag::Loc {
                file: self.scope.file,
                span: span.clone(),
            });
        }
        let file = self.files.add(name, src.clone());
        let program =
            loony_syntax::parse_program(&src).map_err(|e| super::syntax_error(e, file))?;
        self.loader.loading.push(key.clone());
        let saved = (self.scope.file, self.scope.frame, self.scope.locals.len());
        let mut result = Ok(());
        for stmt in &program.stmts {
            self.scope.file = file;
            self.scope.frame = self.scope.locals.len();
            if let Err(e) = self.exec(store, stmt, file) {
                result = Err(e);
                break;
            }
        }
        self.scope.file = saved.0;
        self.scope.frame = saved.1;
        self.scope.locals.truncate(saved.2);
        self.loader.loading.pop();
        result?;
        self.loader.loaded.push(key);
        Ok(())
    }

    /// (identity key, file name for diagnostics, source).
    fn resolve(&mut self, path: &str, span: &Span) -> Result<(String, String, String), Error> {
        let bare = path.strip_suffix(".cgt").unwrap_or(path);
        if let Some((name, src)) = STD.iter().find(|(n, _)| *n == bare) {
            return Ok((name.to_string(), format!("{name}.cgt"), src.to_string()));
        }
        let base = self
            .files
            .get(self.scope.file)
            .ok()
            .map(|f| PathBuf::from(f.name()))
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let mut tried = Vec::new();
        let candidates = if path.ends_with(".cgt") {
            vec![base.join(path)]
        } else {
            vec![base.join(format!("{path}.cgt")), base.join(path)]
        };
        for c in &candidates {
            tried.push(c.display().to_string());
            if c.is_file() {
                let bytes = std::fs::read(c).map_err(|e| {
                    self.err(
                        EvalError::Io {
                            path: c.display().to_string(),
                            message: e.to_string(),
                        },
                        span,
                    )
                })?;
                let src = match String::from_utf8(bytes) {
                    Ok(src) => src,
                    Err(e) => {
                        let name = c.display().to_string();
                        // Adding the bytes reports where they stop being UTF-8.
                        let err = super::add_source(&mut self.files, &name, e.into_bytes())
                            .err()
                            .unwrap_or_else(|| {
                                self.err(
                                    EvalError::Io {
                                        path: name.clone(),
                                        message: "it is not UTF-8 text".into(),
                                    },
                                    span,
                                )
                            });
                        return Err(err.with_note(format!("imported as \"{path}\"")));
                    }
                };
                let src = match src.strip_prefix('\u{feff}') {
                    Some(rest) => rest.to_string(),
                    None => src,
                };
                let key = c
                    .canonicalize()
                    .unwrap_or_else(|_| c.clone())
                    .display()
                    .to_string();
                return Ok((key, c.display().to_string(), src));
            }
        }
        if let Some(dir) = candidates.iter().find(|c| c.is_dir()) {
            let mut inside: Vec<String> = std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|n| n.ends_with(".cgt"))
                        .collect()
                })
                .unwrap_or_default();
            inside.sort();
            return Err(self.err(
                EvalError::ImportDirectory {
                    path: dir.display().to_string(),
                    inside,
                },
                span,
            ));
        }
        if bare.starts_with("std/") {
            tried = STD.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            return Err(self
                .err(
                    EvalError::ImportNotFound {
                        path: path.to_string(),
                        tried: vec![],
                    },
                    span,
                )
                .with_note(format!("the shipped modules are {}", tried.join(", "))));
        }
        Err(self.err(
            EvalError::ImportNotFound {
                path: path.to_string(),
                tried,
            },
            span,
        ))
    }
}

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
                            defines.push(super::show::signature(&r.name.name, &r.params))
                        }
                        Stmt::Fn(f) => {
                            defines.push(super::show::signature(&f.name.name, &f.params))
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
