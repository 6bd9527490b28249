//! The Python package (`python/`, issue 52) under pytest: `scripts/install-python.sh` makes its
//! virtual environment once (every package pinned; under `target/py`) and builds the extension
//! in debug into it, then `python/tests` run there. The
//! tests check values against Python brute forces, conversions both ways, errors, threads and
//! Ctrl-C (`docs/python.md`).
//!
//! The extension is built by Cargo in this same target directory while `cargo test` runs: the
//! build directory's lock is free by then (Cargo holds it while compiling, not while the test
//! binaries run), so the nested build waits for nothing.

use std::path::Path;
use std::process::Command;

#[test]
fn python_package_passes_its_pytest_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let started = std::time::Instant::now();
    let python =
        crate::common::venv_python("install-python.sh", "python3 with venv, PyPI and Rust");
    let installed = started.elapsed();
    let out = Command::new(&python)
        // No .pytest_cache written into the source tree.
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(root)
        .output()
        .expect("python runs");
    let stdout = crate::common::succeeded(&out, "pytest python/tests");
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.contains(" passed"), "{stdout}");
    eprintln!(
        "pytest python/tests: {summary} (install and build {:.1} s, pytest {:.1} s)",
        installed.as_secs_f64(),
        (started.elapsed() - installed).as_secs_f64()
    );
}
