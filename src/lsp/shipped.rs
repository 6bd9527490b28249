//! The shipped modules as files an editor can open. They live in the binary
//! (`loony_lang::modules::STD`); go to definition needs a `file:` URI every client opens, so the
//! server writes each one, when it starts, to `loony/lsp-VERSION/std/NAME.cgt` under the user's
//! cache folder (`$XDG_CACHE_HOME`, else `~/.cache`, else the temporary folder), rewriting a
//! file only when its text differs.

use super::position::file_uri;
use loony_lang::modules::STD;
use lsp_types::Uri;
use std::path::{Path, PathBuf};

pub struct Shipped {
    /// The folder holding `std/`, when the files could be written.
    dir: Option<PathBuf>,
}

impl Shipped {
    /// Writes the modules; a folder that cannot be written leaves definitions in them out
    /// (and says so on stderr, which clients show as the server's log).
    pub fn write() -> Shipped {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        let dir = base
            .join("loony")
            .join(concat!("lsp-", env!("CARGO_PKG_VERSION")));
        match write_all(&dir) {
            // Canonical, as the resolver keys the files it reads.
            Ok(()) => Shipped {
                dir: Some(dir.canonicalize().unwrap_or(dir)),
            },
            Err(e) => {
                eprintln!(
                    "loony lsp: cannot write the shipped modules to {}: {e}; going to their \
                     definitions is off",
                    dir.display()
                );
                Shipped { dir: None }
            }
        }
    }

    /// The URI of a shipped module by the file name diagnostics give it (`std/kayles.cgt`).
    pub fn uri(&self, name: &str) -> Option<Uri> {
        let stem = name.strip_suffix(".cgt")?;
        STD.iter().find(|(n, _)| *n == stem)?;
        file_uri(&self.dir.as_ref()?.join(name))
    }

    /// Whether `path` is one of the written modules (not to be renamed in).
    pub fn holds(&self, path: &Path) -> bool {
        self.dir.as_ref().is_some_and(|d| path.starts_with(d))
    }
}

fn write_all(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("std"))?;
    for (name, text) in STD {
        let path = dir.join(format!("{name}.cgt"));
        if std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
            // Written whole under another name, then renamed: a reader never sees half a file.
            let tmp = dir.join(format!("{name}.cgt.{}", std::process::id()));
            std::fs::write(&tmp, text)?;
            std::fs::rename(&tmp, &path)?;
        }
    }
    Ok(())
}
