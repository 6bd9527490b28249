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
