fn main() {
    let src = std::env::args().nth(1).unwrap_or_default();
    let mut interp = loony::eval::Interp::new();
    let r = interp.run("<arg>", &src, &mut |s| println!("{s}"));
    if let Err(e) = r {
        eprint!("{}", e.render_plain(&interp.cx.files));
    }
}
