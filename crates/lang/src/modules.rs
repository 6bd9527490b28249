//! `import`: shipped modules (embedded in the binary) and files relative to the importing file;
//! source text read as bytes ([`add_source`]) and parse errors as diagnostics.

use crate::cx::Cx;
use crate::error::EvalError;
pub use crate::shipped::{ModuleDoc, STD, module_docs, shipped_definer};
use loony_core::diag::{Error, FileId, Files};
use loony_core::game::Store;
use loony_syntax::ast::Span;
use std::path::{Path, PathBuf};

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
        let program = loony_syntax::parse_program(&src).map_err(|e| syntax_error(e, file))?;
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
        let base = self
            .files
            .get(self.scope.file)
            .ok()
            .map(|f| PathBuf::from(f.name()))
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let found = locate(path, &base, &mut self.files)
            .map_err(|e| e.or_at(self.scope.file, span.clone()))?;
        Ok((found.key, found.name, found.src))
    }
}

/// A module found by [`locate`].
pub struct Found {
    /// What makes two imports the same module: `std/kayles`, or the file's canonical path.
    pub key: String,
    /// The file name diagnostics show: `std/kayles.cgt`, or the path as found.
    pub name: String,
    pub src: String,
}

/// Finds the module `import "path"` names, from a file in the folder `base`: a shipped module,
/// or a `.cgt` file relative to `base`. Its errors have no location but where the bad bytes of
/// a file that is not UTF-8 are (that file is added to `files`); the caller places them at
/// the `import`. The interpreter and the language server both find modules here.
pub fn locate(
    path: &str,
    base: &Path,
    files: &mut loony_core::diag::Files,
) -> Result<Found, Error> {
    let bare = path.strip_suffix(".cgt").unwrap_or(path);
    if let Some((name, src)) = STD.iter().find(|(n, _)| *n == bare) {
        return Ok(Found {
            key: name.to_string(),
            name: format!("{name}.cgt"),
            src: src.to_string(),
        });
    }
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
                Error::new(EvalError::Io {
                    path: c.display().to_string(),
                    message: e.to_string(),
                })
            })?;
            let src = match String::from_utf8(bytes) {
                Ok(src) => src,
                Err(e) => {
                    let name = c.display().to_string();
                    // Adding the bytes reports where they stop being UTF-8.
                    let err = add_source(files, &name, e.into_bytes())
                        .err()
                        .unwrap_or_else(|| {
                            Error::new(EvalError::Io {
                                path: name.clone(),
                                message: "it is not UTF-8 text".into(),
                            })
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
            return Ok(Found {
                key,
                name: c.display().to_string(),
                src,
            });
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
        return Err(Error::new(EvalError::ImportDirectory {
            path: dir.display().to_string(),
            inside,
        }));
    }
    if bare.starts_with("std/") {
        tried = STD.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        return Err(Error::new(EvalError::ImportNotFound {
            path: path.to_string(),
            tried: vec![],
        })
        .with_note(format!("the shipped modules are {}", tried.join(", "))));
    }
    Err(Error::new(EvalError::ImportNotFound {
        path: path.to_string(),
        tried,
    }))
}

/// Adds source text read as bytes to `files`. A leading byte-order mark is skipped; invalid
/// UTF-8 is an error naming its line and byte (the file is added with the bad bytes replaced,
/// so the diagnostic can show the line).
pub fn add_source(files: &mut Files, name: &str, bytes: Vec<u8>) -> Result<FileId, Error> {
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(src) => Ok(files.add(name.to_string(), src)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line_start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            // Up to `at` the text is valid, so offsets there are the same in the lossy copy.
            let file = files.add(
                name.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            );
            Err(Error::at(
                EvalError::InvalidUtf8 {
                    line,
                    byte: at - line_start + 1,
                },
                file,
                at..at + 1,
            ))
        }
    }
}

/// A parse error as a diagnostic at its place in `file`.
pub fn syntax_error(e: loony_syntax::ParseError, file: FileId) -> Error {
    use loony_syntax::ParseError as P;
    let span = match &e {
        P::UnexpectedChar { span, .. }
        | P::IntTooLarge { span }
        | P::UnterminatedString { span }
        | P::BadEscape { span, .. }
        | P::UnexpectedToken { span, .. } => span.clone(),
        P::Unclosed { open, .. } => open.clone(),
        P::MissingBar { form, .. } => form.clone(),
        P::UnexpectedEof { at, .. } => *at..*at,
        P::DecimalNumber { span, .. } => span.clone(),
    };
    Error::at(e, file, span)
}
