//! Warnings for a definition that hides something: a built-in (out of reach while the name is
//! bound), or a definition made elsewhere (the user's `kayles` after `import "std/kayles"`, or
//! an import that replaces the user's own `kayles`).
//!
//! Redefining a name where it was defined (the same program, the same module) is ordinary
//! and silent: a REPL session redefines its own names all the time. A shipped module's own
//! definitions never warn about built-ins (they are written on purpose, and a test keeps
//! them clear of built-in names); when one replaces a user's definition, the warning points
//! at the user's `import`.

use crate::cx::Cx;
use loony_core::diag::{Loc, Warning, WarningKind};
use loony_syntax::ast::Ident;
use std::rc::Rc;

impl Cx {
    /// Called by `let`, `fn` and `ruleset` statements before they bind `name`.
    pub(crate) fn defining(&mut self, name: &Ident) {
        let module: Option<Rc<str>> = self.loader.loading.last().map(|key| {
            if key.starts_with("std/") {
                Rc::from(key.as_str())
            } else {
                // A file: the name it was imported as, not its canonical path.
                let shown = self.files.get(self.scope.file).map(|f| f.name().clone());
                Rc::from(shown.unwrap_or_else(|_| key.clone()).as_str())
            }
        });
        let shipped = self
            .loader
            .loading
            .last()
            .is_some_and(|key| key.starts_with("std/"));
        let at = if shipped {
            self.loader.import_site.clone()
        } else {
            Some(Loc {
                file: self.scope.file,
                span: name.span.clone(),
            })
        };
        let Some(at) = at else { return };
        if !shipped && let Some(b) = super::catalog::find(&name.name) {
            self.warn(Warning {
                kind: WarningKind::ShadowsBuiltin {
                    name: name.name.to_string(),
                    signature: b.signature.to_string(),
                },
                loc: at.clone(),
            });
        }
        let previous = self
            .loader
            .origins
            .insert(name.name.to_string(), module.clone());
        if let Some(previous) = previous
            && previous != module
            && self.globals.contains_key(&*name.name)
        {
            let shown = |m: &Option<Rc<str>>| match m {
                Some(m) => format!("\"{m}\""),
                None => "this program".to_string(),
            };
            let by = match &module {
                Some(m) => format!("importing \"{m}\""),
                None => "this definition".to_string(),
            };
            self.warn(Warning {
                kind: WarningKind::Replaces {
                    name: name.name.to_string(),
                    from: shown(&previous),
                    by,
                },
                loc: at,
            });
        }
    }

    /// Shows a warning now (`on_warning`) or keeps it for the front end.
    pub(crate) fn warn(&mut self, w: Warning) {
        match self.out.on_warning.as_mut() {
            Some(show) => show(&w, &self.files),
            None => self.out.warnings.push(w),
        }
    }
}
