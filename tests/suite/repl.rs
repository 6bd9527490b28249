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
    // A bracket whose closer is in a comment is never finished by another line.
    assert!(!Session::is_incomplete("*[2#0]"));
}

#[test]
fn a_bracket_closed_in_a_comment_does_not_swallow_the_next_line() {
    // CGSuite's printed misère form typed back: the error comes at once, and the next line is
    // a statement of its own (it was read as the bracket's continuation).
    let out = transcript(&["*[2#0]", "*2 + *3"]);
    assert!(
        matches!(&out[0], Reply::Error(e) if e.contains("its `]` is in a comment")),
        "{out:?}"
    );
    assert_eq!(out[1], Reply::Value("*".into()));
    assert_eq!(out.len(), 2);
}

#[test]
fn commands() {
    let out = transcript(&[":help", ":ascii", "{∞ | ∞̄}", ":frob"]);
    assert!(matches!(&out[0], Reply::Info(s) if s.contains(":load")));
    assert_eq!(out[2], Reply::Value("moon".into()));
    assert!(matches!(&out[3], Reply::Error(e) if e.contains("unknown command")));
}

/// Every spelling of every command, written out here rather than read from the table, reaches
/// the command `:help` shows for it; and no spelling names two rows (the first would shadow
/// the second without a word).
#[test]
fn each_command_answers_to_its_names() {
    let spellings = [
        ("help", ":help [NAME]"),
        ("h", ":help [NAME]"),
        ("load", ":load FILE"),
        ("l", ":load FILE"),
        ("memory", ":memory [SIZE]"),
        ("budget", ":budget [N]"),
        ("table", ":table [clear|capacity N]"),
        ("ascii", ":ascii [on|off]"),
        ("quit", ":quit"),
        ("q", ":quit"),
        ("exit", ":quit"),
    ];
    let inputs: Vec<String> = spellings
        .iter()
        .map(|(s, _)| format!(":help :{s}"))
        .collect();
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = session_replies(&inputs, |_| {});
    for ((spelling, synopsis), replies) in spellings.iter().zip(&out) {
        let first = info_of(replies).lines().next();
        assert_eq!(first, Some(*synopsis), ":{spelling}");
    }
    let table: Vec<&str> = loony::repl::COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .collect();
    assert_eq!(table.len(), spellings.len(), "{table:?}");
    for (spelling, _) in spellings {
        assert_eq!(
            table.iter().filter(|t| **t == spelling).count(),
            1,
            ":{spelling}"
        );
    }
    assert_eq!(session_replies(&[":q"], |_| {})[0], vec![Reply::Quit]);
    assert_eq!(session_replies(&[":exit"], |_| {})[0], vec![Reply::Quit]);
}

/// The replies of a fresh session to each input, on a big stack like the binary's.
fn session_replies(inputs: &[&str], setup: fn(&mut Session)) -> Vec<Vec<Reply>> {
    let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut s = Session::new();
            setup(&mut s);
            inputs.iter().map(|i| s.eval(i)).collect()
        })
        .unwrap()
        .join()
        .unwrap()
}

fn error_of(replies: &[Reply]) -> &str {
    match replies {
        [Reply::Error(e)] => e,
        other => panic!("expected one error, got {other:?}"),
    }
}

fn info_of(replies: &[Reply]) -> &str {
    match replies {
        [Reply::Info(s)] => s,
        other => panic!("expected one info line, got {other:?}"),
    }
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

#[test]
fn budget_is_validated() {
    let out = session_replies(
        &[
            ":budget abc",
            ":budget -5",
            ":budget 0",
            ":budget",
            ":budget 7",
            ":budget",
        ],
        |_| {},
    );
    for (r, arg) in out[..3].iter().zip(["abc", "-5", "0"]) {
        let e = error_of(r);
        assert!(e.starts_with("error[E0701]"), "{e}");
        assert!(e.contains(&format!(":budget {arg}")), "{e}");
    }
    let default = loony::eval::DEFAULT_BUDGET;
    assert!(info_of(&out[3]).starts_with(&format!("position budget: {default} ")));
    assert_eq!(info_of(&out[4]), "position budget: 7");
    assert!(info_of(&out[5]).starts_with("position budget: 7 "));
}

/// `:table` shows pruned search's table as the search left it, `:table clear` empties it, and
/// a bad argument is a diagnostic at the argument.
#[test]
fn table_shows_clears_and_caps_the_pruned_table() {
    let out = session_replies(
        &[
            ":table",
            "import \"std/cram\"",
            "outcome(cram(4, 5))",
            ":table",
            ":table capacity 16",
            "cram(3, 5)",
            ":table",
            ":table clear",
            ":table capacity lots",
            ":table frob",
        ],
        |_| {},
    );
    assert!(
        info_of(&out[0]).starts_with("pruned search's table: 0 of "),
        "{:?}",
        out[0]
    );
    assert_eq!(out[2], vec![Reply::Value("N".into())]);
    let after = info_of(&out[3]);
    assert!(
        !after.contains(": 0 of") && after.contains("lookups hit"),
        "{after}"
    );
    assert!(info_of(&out[4]).contains(" of 16 entries"), "{:?}", out[4]);
    assert_eq!(out[5], vec![Reply::Value("*".into())]);
    assert!(info_of(&out[6]).contains(" of 16 entries"), "{:?}", out[6]);
    assert_eq!(info_of(&out[7]), "pruned search's table cleared");
    for (r, arg) in out[8..].iter().zip(["capacity lots", "frob"]) {
        let e = error_of(r);
        assert!(e.starts_with("error[E0701]"), "{e}");
        assert!(e.contains(&format!(":table {arg}")), "{e}");
    }
}

#[test]
fn quit_and_ascii_arguments() {
    let out = session_replies(
        &[
            ":quit now",
            ":ascii on",
            "{∞ | ∞̄}",
            ":ascii on",
            ":ascii off",
            "{∞ | ∞̄}",
            ":ascii maybe",
            ":ascii",
            "∞",
            ":q",
        ],
        |_| {},
    );
    assert!(error_of(&out[0]).contains("`:quit` takes no arguments"));
    assert_eq!(info_of(&out[1]), "ascii output on");
    assert_eq!(out[2], vec![Reply::Value("moon".into())]);
    assert_eq!(info_of(&out[3]), "ascii output on");
    assert_eq!(info_of(&out[4]), "ascii output off");
    assert_eq!(out[5], vec![Reply::Value("☾".into())]);
    assert!(error_of(&out[6]).contains("`:ascii` takes `on` or `off`, not `maybe`"));
    assert_eq!(info_of(&out[7]), "ascii output on");
    assert_eq!(out[8], vec![Reply::Value("inf".into())]);
    assert_eq!(out[9], vec![Reply::Quit]);
}

/// The games from the literature: `:help NAME` shows each module's header (the game, its
/// moves, an example) and what it defines.
#[test]
fn help_for_the_literature_modules() {
    let cases = [
        (
            "wythoff",
            "the same positive number from both",
            "ruleset wythoff(a, b)",
        ),
        (
            "mock_turtles",
            "the rightmost of which must go",
            "fn mock_turtles(n)",
        ),
        ("chomp", "poisoned", "fn chomp(rows, cols)"),
        (
            "dawson_chess",
            "a player who can capture must",
            "fn dawson_chess(n)",
        ),
        ("token_walk", "inf(A)", "ruleset token_walk(arcs, v)"),
    ];
    let inputs: Vec<String> = cases.iter().map(|(m, _, _)| format!(":help {m}")).collect();
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = session_replies(&inputs, |_| {});
    for ((module, header, defines), replies) in cases.iter().zip(&out) {
        let text = info_of(replies);
        assert!(text.starts_with(&format!("module std/{module}")), "{text}");
        assert!(text.contains(header), "{text}");
        assert!(text.contains("Example"), "{text}");
        assert!(text.contains(defines), "{text}");
    }
}

#[test]
fn help_for_one_name() {
    let out = session_replies(
        &[
            ":help load",
            ":help :q",
            ":help kayles",
            ":help std/tripiece",
            ":help is_restive",
            ":help quotient",
            ":help nope",
            "fn f(a, (b, c)) = a",
            ":help f",
        ],
        |_| {},
    );
    assert!(info_of(&out[0]).starts_with(":load FILE\n"), "{:?}", out[0]);
    assert!(info_of(&out[1]).starts_with(":quit\n"), "{:?}", out[1]);
    // A module: its header comment and what it defines, read from the shipped source.
    let kayles = info_of(&out[2]);
    assert!(kayles.starts_with("module std/kayles"), "{kayles}");
    assert!(kayles.contains("knock down one pin"), "{kayles}");
    assert!(kayles.contains("ruleset kayles(n)"), "{kayles}");
    let tripiece = info_of(&out[3]);
    assert!(tripiece.contains("ruleset round(x, y)"), "{tripiece}");
    assert!(tripiece.contains("fn tripiece(pieces)"), "{tripiece}");
    assert!(tripiece.contains("imports: std/keep_nim"), "{tripiece}");
    // Built-ins, from the catalog.
    assert!(
        info_of(&out[4]).starts_with("is_restive(g)\n"),
        "{:?}",
        out[4]
    );
    assert!(info_of(&out[5]).starts_with("quotient(g), quotient(g, n)\n"));
    let e = error_of(&out[6]);
    assert!(
        e.contains("no built-in, module, command or binding is named `nope`"),
        "{e}"
    );
    assert_eq!(
        info_of(&out[8]),
        "fn f(a, (b, c)) (defined in this session)"
    );
}

#[test]
fn help_reads_every_builtin_from_the_catalog() {
    let names: Vec<&str> = loony::eval::catalog::BUILTINS
        .iter()
        .map(|b| b.name)
        .collect();
    let inputs: Vec<String> = names.iter().map(|n| format!(":help {n}")).collect();
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = session_replies(&inputs, |_| {});
    for (b, reply) in loony::eval::catalog::BUILTINS.iter().zip(&out) {
        let text = info_of(reply);
        assert!(text.starts_with(&format!("{}\n  ", b.signature)), "{text}");
        assert!(text.contains(b.doc), "{text}");
    }
    // Written out once, so the format itself is checked.
    assert_eq!(
        info_of(&out[names.iter().position(|n| *n == "nim_inverse").unwrap()]),
        "nim_inverse(a)\n  The inverse of `a` under nim multiplication: the `b` with \
         `nim_product(a, b) == 1`. An error for 0, which has none.\n  example: nim_inverse(2)  →  3"
    );
}

#[test]
fn load_takes_quotes_and_home() {
    let dir = std::env::temp_dir().join(format!("loony-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two words.cgt");
    std::fs::write(&file, "*2 + *3\n").unwrap();
    let path = file.display().to_string();
    let (dq, sq) = (format!(":load \"{path}\""), format!(":load '{path}'"));
    // Without its extension, as `import` finds a module.
    let bare = format!(":load \"{}\"", path.trim_end_matches(".cgt"));
    let inputs: Vec<&str> = vec![&dq, &sq, &bare];
    let out = session_replies(&inputs, |_| {});
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out[0], vec![Reply::Value("*".into())]);
    assert_eq!(out[1], vec![Reply::Value("*".into())]);
    assert_eq!(out[2], vec![Reply::Value("*".into())]);
    let home = std::env::var("HOME").unwrap_or_default();
    if !home.is_empty() {
        assert_eq!(
            loony::repl::complete::expand_home("~/x.cgt"),
            format!("{home}/x.cgt")
        );
        assert_eq!(loony::repl::complete::expand_home("~"), home);
    }
    assert_eq!(loony::repl::complete::expand_home("a~/b"), "a~/b");
}

#[test]
fn command_errors_are_diagnostics() {
    let out = session_replies(&[":budget 0", ":frob"], |_| {});
    insta::assert_snapshot!(
        "command_errors",
        format!("{}{}", error_of(&out[0]), error_of(&out[1]))
    );
}

/// Runs `setup` in a session, then completes `line` with the cursor at its end.
fn complete(setup: &[&str], line: &str) -> (usize, Vec<String>) {
    let setup: Vec<String> = setup.iter().map(|s| s.to_string()).collect();
    let line = line.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut s = Session::new();
            for i in &setup {
                s.eval(i);
            }
            let (start, found) = s.completions().complete(&line, line.len());
            (start, found.into_iter().map(|c| c.replacement).collect())
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn completes_record_fields() {
    let setup = ["let p = periodicity(heap(\"0.6\"), 100)"];
    assert_eq!(
        complete(&setup, "p.per"),
        (2, vec!["period".to_string(), "preperiod".to_string()])
    );
    assert_eq!(
        complete(&setup, "1 + p.cert"),
        (6, vec!["certified".to_string(), "certified_at".to_string()])
    );
    // Not a record: nothing after the dot, rather than every name.
    assert_eq!(complete(&setup, "heap.per"), (5, vec![]));
    // A range is not a field access.
    let (start, names) = complete(&setup, "0..p");
    assert_eq!(start, 3);
    assert!(names.contains(&"p".to_string()) && names.contains(&"periodicity".to_string()));
}

#[test]
fn completes_after_a_character_wider_than_a_byte() {
    // The word starts after `∞` (three bytes), not one byte into it.
    let (start, names) = complete(&["let kay = 1"], "∞kay");
    assert_eq!((start, names.contains(&"kay".to_string())), (3, true));
    let setup = ["let p = periodicity(heap(\"0.6\"), 100)"];
    assert_eq!(complete(&setup, "☾p.pre").0, 5);
}

#[test]
fn completes_every_name_on_an_empty_line() {
    let (start, names) = complete(&["let mine = 3"], "");
    assert_eq!(start, 0);
    for n in [
        "mine",
        "heap",
        "misere_outcome",
        "quotient",
        "let",
        "ruleset",
    ] {
        assert!(names.contains(&n.to_string()), "{n} missing");
    }
}

/// Completion offers every built-in of the catalog (the one table dispatch also reads).
#[test]
fn completes_every_builtin_of_the_catalog() {
    let (_, names) = complete(&[], "");
    for b in loony::eval::catalog::BUILTINS {
        assert!(names.iter().any(|n| n == b.name), "{} missing", b.name);
    }
    assert_eq!(
        complete(&[], "nim_p").1,
        vec!["nim_product".to_string()],
        "a built-in that had no entry before"
    );
}

#[test]
fn completes_files_and_modules() {
    let dir = std::env::temp_dir().join(format!("loony-complete-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for f in ["game.cgt", "gamma.cgt", "notes.txt"] {
        std::fs::write(dir.join(f), "").unwrap();
    }
    let d = dir.display().to_string();
    let load = complete(&[], &format!(":load {d}/"));
    let load_quoted = complete(&[], &format!(":load \"{d}/ga"));
    let import = complete(&[], &format!("import \"{d}/"));
    std::fs::remove_dir_all(&dir).unwrap();
    let at = 7 + d.len();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(load, (at, strings(&["game.cgt", "gamma.cgt", "sub/"])));
    assert_eq!(load_quoted, (at + 1, strings(&["game.cgt", "gamma.cgt"])));
    assert_eq!(import, (at + 2, strings(&["game", "gamma", "sub/"])));
    let (start, std) = complete(&[], "import \"std/");
    assert_eq!(start, 12);
    let shipped: Vec<String> = loony::eval::modules::STD
        .iter()
        .map(|(n, _)| n.trim_start_matches("std/").to_string())
        .collect();
    for m in &shipped {
        assert!(std.contains(m), "{m} missing from {std:?}");
    }
    assert_eq!(
        complete(&[], "let g = 1\nimport \"std/ka"),
        (22, vec!["kayles".to_string()])
    );
    // Outside an import string, a quote is just a string.
    assert_eq!(complete(&[], "heap(\"0.").1, Vec::<String>::new());
}

#[test]
fn a_shadowing_definition_warns_and_the_session_goes_on() {
    let out = session_replies(&["let len = 3", "len + 1", "let len = 4"], |_| {});
    match &out[0][..] {
        [Reply::Warning(w)] => assert!(w.starts_with("warning[W0001]: `len` shadows"), "{w}"),
        other => panic!("expected one warning, got {other:?}"),
    }
    assert_eq!(out[1], vec![Reply::Value("4".into())]);
    // Rebinding in the session that made the binding: a built-in is still shadowed, so it
    // warns again, but no W0002 (the session replaces its own definition).
    assert!(matches!(&out[2][..], [Reply::Warning(w)] if w.contains("W0001")));
}

#[test]
fn a_loaded_file_s_warnings_come_with_its_load() {
    let dir = std::env::temp_dir().join(format!("loony-warn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shadow.cgt");
    std::fs::write(&file, "let mex = 2\nmex + 1\n").unwrap();
    let load = format!(":load \"{}\"", file.display());
    let inputs = [load.as_str(), "1"];
    let out = session_replies(&inputs, |_| {});
    std::fs::remove_dir_all(&dir).ok();
    match &out[0][..] {
        [Reply::Value(v), Reply::Warning(w)] => {
            assert_eq!(v, "3");
            assert!(w.contains("`mex` shadows"), "{w}");
        }
        other => panic!("expected the value and the warning, got {other:?}"),
    }
    assert_eq!(out[1], vec![Reply::Value("1".into())]);
}

/// Ctrl-C while a long result prints: the writer stops between two pieces once the flag is
/// raised, instead of writing tens of megabytes first.
#[test]
fn printing_stops_when_interrupted() {
    use std::sync::atomic::{AtomicBool, Ordering};
    struct RaiseAfterFirst<'a> {
        written: usize,
        flag: &'a AtomicBool,
    }
    impl std::io::Write for RaiseAfterFirst<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.written += buf.len();
            self.flag.store(true, Ordering::Relaxed);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let flag = AtomicBool::new(false);
    let mut out = RaiseAfterFirst {
        written: 0,
        flag: &flag,
    };
    let long = "*1, ".repeat(5_000_000);
    let all = loony::repl::write_interruptible(&mut out, &long, &flag).unwrap();
    assert!(!all);
    assert!(out.written > 0 && out.written <= 1 << 16, "{}", out.written);
    flag.store(false, Ordering::Relaxed);
    let mut sink = Vec::new();
    assert!(loony::repl::write_interruptible(&mut sink, &long, &flag).unwrap());
    assert_eq!(sink.len(), long.len());
}
