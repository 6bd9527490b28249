//! The REPL session through its string front end: bindings survive errors, commands work, and
//! unfinished input waits for the next line.

use loony::repl::{Reply, Session, run_lines};

fn transcript(lines: &[&str]) -> Vec<Reply> {
    let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut s = Session::new();
            let mut out = Vec::new();
            run_lines(&mut s, lines.into_iter(), &mut |r| out.push(r));
            out
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn session_keeps_bindings_after_errors() {
    let out = transcript(&[
        "ruleset s(n) {",
        "  for k in [1, 3, 4] if k <= n => s(n - k)",
        "}",
        "s(7) + oops",
        "[s(n) for n in 0..5]",
        ":quit",
        "*2",
    ]);
    assert!(matches!(&out[0], Reply::Error(e) if e.contains("unknown name `oops`")));
    assert_eq!(out[1], Reply::Value("[0, *, 0, *, *2]".into()));
    assert_eq!(out[2], Reply::Quit);
    assert_eq!(out.len(), 3);
}

#[test]
fn incomplete_input_continues() {
    assert!(Session::is_incomplete("{0, *"));
    assert!(Session::is_incomplete("<0 | "));
    assert!(Session::is_incomplete("let x ="));
    assert!(!Session::is_incomplete("{0, *}"));
    assert!(!Session::is_incomplete(":help"));
}

#[test]
fn commands() {
    let out = transcript(&[":help", ":ascii", "{∞ | ∞̄}", ":frob"]);
    assert!(matches!(&out[0], Reply::Info(s) if s.contains(":load")));
    assert_eq!(out[2], Reply::Value("moon".into()));
    assert!(matches!(&out[3], Reply::Error(e) if e.contains("unknown command")));
}

#[test]
fn less_than_and_if_across_lines() {
    // `<` after an operand compares: nothing is left open.
    assert!(!Session::is_incomplete("1 < 2"));
    assert!(!Session::is_incomplete("1 < 2\n"));
    assert!(!Session::is_incomplete("if 1 < 2 then 3 else 4\n"));
    // An `if` without its `then` or `else` waits, piped (trailing newline) or typed (none).
    for src in [
        "if 1 < 2",
        "if 1 < 2\n",
        "if 1 < 2\nthen 3",
        "if 1 < 2\nthen 3\n",
    ] {
        assert!(Session::is_incomplete(src), "{src:?}");
    }
    assert!(Session::is_incomplete("if 1 < 2 # why\n\n"));
    let out = transcript(&[
        "if 1 < 2",
        "then 3",
        "else 4",
        "let x = 5",
        "if x > 2 then *1",
        "else *2",
        "1 < 2",
    ]);
    assert_eq!(
        out,
        vec![
            Reply::Value("3".into()),
            Reply::Value("*".into()),
            Reply::Value("true".into())
        ]
    );
}
