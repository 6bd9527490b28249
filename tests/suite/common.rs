//! Shared by the test binaries: run Loony source in-process on a thread with a big stack, as the
//! `loony` binary does, and render what it prints (stdout lines, then any diagnostic).

#![allow(dead_code)]

use loony::eval::Interp;

pub fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("interpreter thread panicked")
}

/// What a script prints: one line per result, then any warnings and the diagnostic of an
/// error.
pub fn run_named(name: &str, src: &str) -> String {
    run_compiling(name, src, true)
}

/// As [`run_named`], with comprehensions compiled where it pays (`true`, as always outside
/// tests) or all left to the interpreter.
pub fn run_compiling(name: &str, src: &str, compile: bool) -> String {
    let (name, src) = (name.to_string(), src.to_string());
    on_big_stack(move || {
        let mut interp = Interp::new();
        interp.set_compile_comprehensions(compile);
        let mut out = String::new();
        let r = interp.run(&name, &src, &mut |s| {
            out.push_str(&s);
            out.push('\n');
        });
        // Warnings show too, so no snapshot hides one.
        for w in &interp.cx.out.warnings {
            out.push_str(&w.render(&interp.cx.files, false));
        }
        if let Err(e) = r {
            out.push_str(&e.render_plain(&interp.cx.files));
        }
        out
    })
}

/// A transcript for snapshots: each expression statement (`> input`) beside its result, then
/// the diagnostic of an error.
pub fn transcript(name: &str, src: &str) -> String {
    let (name, src) = (name.to_string(), src.to_string());
    on_big_stack(move || {
        let mut interp = Interp::new();
        let mut out = String::new();
        let r = interp.run_echo(&name, &src, &mut |input, s| {
            for line in input.lines() {
                out.push_str("> ");
                out.push_str(line);
                out.push('\n');
            }
            out.push_str(&s);
            out.push('\n');
        });
        // Warnings show too, so no snapshot hides one.
        for w in &interp.cx.out.warnings {
            out.push_str(&w.render(&interp.cx.files, false));
        }
        if let Err(e) = r {
            out.push_str(&e.render_plain(&interp.cx.files));
        }
        out
    })
}

/// The python of a virtual environment that `script` (under `scripts/`, printing the venv's
/// python last) makes once; panics (so the test fails) with `needs` and the script's stderr
/// when it cannot.
pub fn venv_python(script: &str, needs: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("bash")
        .arg(root.join("scripts").join(script))
        .current_dir(root)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "scripts/{script} failed ({needs} are needed):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let python = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let python = root.join(python);
    assert!(python.is_file(), "no python at {}", python.display());
    python
}

/// The stdout of a finished process, after checking that it succeeded (else a failure with
/// `what`, its status and both streams).
pub fn succeeded(out: &std::process::Output, what: &str) -> String {
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout.into_owned()
}
