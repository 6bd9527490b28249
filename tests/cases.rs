//! The case files and the shipped examples, one test each: every `tests/cases/**/*.cgt` and
//! `examples/*.cgt` runs in-process and its transcript (each input beside its result, then any
//! warning and diagnostic, rendered without colour under a fixed name) is compared with its
//! reviewed snapshot in `tests/snapshots/`. Every failing file is reported, not only the first.

#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

#[path = "suite/common.rs"]
mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

/// The `.cgt` files under `dir`, sorted, recursively.
fn cgt_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cgt_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cgt") {
            out.push(p);
        }
    }
}

/// One trial: run `path` (shown as `shown`) and compare with the snapshot `snapshot`.
fn trial(kind: &str, root: &Path, path: PathBuf, shown: String) -> Trial {
    let rel = path
        .strip_prefix(root)
        .expect("under its root")
        .to_string_lossy()
        .replace('\\', "/");
    // The snapshot names insta's glob! gave these files: `cases@lang__affine.cgt`.
    let snapshot = format!("{kind}@{}", rel.replace('/', "__"));
    Trial::test(format!("{kind}::{rel}"), move || {
        let src = std::fs::read_to_string(&path).map_err(|e| Failed::from(format!("read: {e}")))?;
        let out = common::transcript(&shown, &src);
        insta::with_settings!({ input_file => &path, omit_expression => true }, {
            insta::assert_snapshot!(snapshot, out);
        });
        Ok(())
    })
}

fn main() {
    let args = Arguments::from_args();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut trials = Vec::new();
    let cases = manifest.join("tests/cases");
    let mut files = Vec::new();
    cgt_files(&cases, &mut files);
    for p in files {
        let shown = p
            .strip_prefix(manifest)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        trials.push(trial("cases", &cases, p, shown));
    }
    let examples = manifest.join("examples");
    let mut files = Vec::new();
    cgt_files(&examples, &mut files);
    for p in files {
        let shown = format!("examples/{}", p.file_name().unwrap().to_string_lossy());
        trials.push(trial("examples", &examples, p, shown));
    }
    libtest_mimic::run(&args, trials).exit();
}
