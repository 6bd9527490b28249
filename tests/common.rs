//! Shared by the test binaries: run Loony source in-process on a thread with a big stack, as the
//! `loony` binary does, and render what it prints (stdout lines, then any diagnostic).

use loony::eval::Interp;

pub fn run_named(name: &str, src: &str) -> String {
    let (name, src) = (name.to_string(), src.to_string());
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            let mut out = String::new();
            let r = interp.run(&name, &src, &mut |s| {
                out.push_str(&s);
                out.push('\n');
            });
            if let Err(e) = r {
                out.push_str(&e.render_plain(&interp.cx.files));
            }
            out
        })
        .expect("spawn")
        .join()
        .expect("interpreter thread panicked")
}
