//! Issue 10: no input crashes Loony, hangs it silently or exhausts memory. Each input here once
//! overflowed the stack, aborted on memory, panicked or printed without bound; now it is a
//! diagnostic (or an answer) and the session goes on.

use loony::repl::{Reply, Session, run_byte_lines, run_lines};

/// Runs REPL lines in one session on a thread with `stack` bytes of stack.
fn session_on(stack: usize, lines: &[&str]) -> Vec<Reply> {
    let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let mut s = Session::new();
            let mut out = Vec::new();
            run_lines(&mut s, lines.into_iter(), &mut |r| out.push(r));
            out
        })
        .unwrap()
        .join()
        .expect("the session thread survives")
}

fn session(lines: &[&str]) -> Vec<Reply> {
    session_on(256 << 20, lines)
}

fn error(r: &Reply) -> &str {
    match r {
        Reply::Error(e) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

fn value(r: &Reply) -> &str {
    match r {
        Reply::Value(v) => v,
        other => panic!("expected a value, got {other:?}"),
    }
}

#[test]
fn a_panic_is_an_internal_error_diagnostic() {
    let e = loony::diag::guard::catch::<()>(|| panic!("walk finished")).unwrap_err();
    let shown = e.render_plain(&Default::default());
    assert!(shown.contains("error[E0901]"), "{shown}");
    assert!(shown.contains("walk finished"), "{shown}");
    assert!(shown.contains("please report it"), "{shown}");
    // The hook is quiet inside the guard and the thread goes on.
    assert_eq!(loony::diag::guard::catch(|| Ok(7)).ok(), Some(7));
}

/// A table of the store that fills up during a statement (its capacity lowered, since the real
/// one takes billions of nodes) ends that statement with E0212 and binds nothing; the session
/// goes on with the games it already holds.
#[test]
fn a_full_store_is_a_diagnostic_and_the_session_goes_on() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut s = Session::new();
            let mut out = Vec::new();
            run_lines(
                &mut s,
                ["let small = *3 + *1".to_string()].into_iter(),
                &mut |r| out.push(r),
            );
            let most = s.interp.store.len() as u32 + 40;
            s.interp.store.set_most_nodes(most);
            let lines = [
                "let big = [*k for k in 0..1000]",
                "len([*k for k in 0..1000])",
                "big",
                "small",
            ];
            run_lines(&mut s, lines.iter().map(|l| l.to_string()), &mut |r| {
                out.push(r)
            });
            assert!(out.len() == 4, "{out:?}");
            for r in &out[..2] {
                let e = error(r);
                assert!(e.contains("error[E0212]"), "{e}");
                let want = format!("too many game nodes: Loony's tables hold at most {most}");
                assert!(e.contains(&want), "{e}");
            }
            assert!(
                error(&out[2]).contains("unknown name `big`"),
                "big was bound: {out:?}"
            );
            assert_eq!(value(&out[3]), "*2");
        })
        .unwrap()
        .join()
        .expect("the session thread survives");
}

#[test]
fn large_nimber_sums_do_not_panic() {
    // Once "walk finished" panics in the normal-play engine. Nim-sums by XOR.
    let out = session(&["*2147483648 + *2147483647", "*4294967293 + *2"]);
    assert_eq!(value(&out[0]), format!("*{}", 2147483648u64 ^ 2147483647));
    assert_eq!(value(&out[1]), format!("*{}", 4294967293u64 ^ 2));
}

#[test]
fn deep_ruleset_queries_stop_before_the_stack_ends() {
    // 16 MiB of stack: each nested `options` takes kilobytes, so this once overflowed.
    let out = session_on(
        16 << 20,
        &[
            "ruleset r(n) { if n > 0 for m in options(r(n - 1)) => 0 }",
            "r(1600000)",
            "r(3)",
        ],
    );
    let e = error(&out[0]);
    assert!(e.contains("error[E0206]"), "{e}");
    // One note per level, collapsed: the first and last few stay.
    assert!(e.contains("more like these"), "{e}");
    assert!(e.contains("while exploring `r(1600000)`"), "{e}");
    assert!(e.lines().count() < 30, "{e}");
    // r(0) has no options, so r(1) iterates over none, and so on: every r(n) is 0.
    assert_eq!(value(&out[1]), "0");
}

#[test]
fn a_deep_comprehension_stops_before_the_stack_ends() {
    // A comprehension where only globals are visible is compiled; its code nests only so
    // deep before leaving the rest to the interpreter, which checks the stack. Without that
    // bound the compiled element ran unchecked: here past the depth where the check stops
    // it, and a few times deeper past the end of the stack.
    let deep = format!(
        "[{}i{} for i in 0..2]",
        "-(".repeat(40000),
        ")".repeat(40000)
    );
    let shallow = format!("[{}i{} for i in 0..2]", "-(".repeat(150), ")".repeat(150));
    let out = session_on(16 << 20, &[&deep, &shallow, "*3"]);
    let e = error(&out[0]);
    assert!(e.contains("error[E0206]"), "{e}");
    assert_eq!(value(&out[1]), "[0, 1]");
    assert_eq!(value(&out[2]), "*3");
}

#[test]
fn endless_descent_through_options_is_too_deep() {
    let out = session_on(
        16 << 20,
        &[
            "ruleset r(n) { for m in options(r(n - 1)) => 0 }",
            "r(0)",
            "*3",
        ],
    );
    assert!(
        error(&out[0]).contains("error[E0206]"),
        "{}",
        error(&out[0])
    );
    assert_eq!(value(&out[1]), "*3");
}

#[test]
fn a_position_asking_about_itself_says_so() {
    let out = session(&[
        "ruleset r(n) { for m in options(r(n)) => r(0) }",
        "r(2)",
        "winning_moves(r(2))",
        "options(r(2) + *1)",
        "nim_sequence(r, 3)",
    ]);
    for r in &out[..3] {
        assert!(
            error(r).contains("`r(2)` depends on its own value"),
            "{r:?}"
        );
    }
    assert!(error(&out[3]).contains("`r(0)` depends on its own value"));
}

#[test]
fn the_memory_budget_stops_large_builds() {
    let out = session(&[
        // A value is two words: at 300M the runaway `gl` reaches the position budget first.
        ":memory 200M",
        "len([0..100000000 for i in 0..10])",
        "nim_sequence(subtraction([1]), 2147483648)",
        "len(options(*4294967293))",
        "fn f(n) = *n",
        "nim_sequence(f, 9223372036854775806)",
        "ruleset gl(xs) { => gl(append(xs, 1)) }",
        "gl([])",
        // What the runaway ruleset met stays in the session: a larger budget goes on.
        ":memory 4G",
        "len(0..1000)",
        // A single huge heap needs no sequence: it is read from the certified period.
        "subtraction([1])(2147483648)",
    ]);
    assert_eq!(out[0], Reply::Info("memory budget: 200 MiB".into()));
    for (r, what) in out[1..6].iter().zip([
        "the list of a range",
        "a nim-sequence",
        "the options of a nimber",
        "a nim-sequence",
        "",
    ]) {
        let e = error(r);
        assert!(e.contains("error[E0213]"), "{e}");
        assert!(e.contains("budget of 200 MiB"), "{e}");
        assert!(e.contains(what), "{e}");
    }
    assert_eq!(value(&out[7]), "1000");
    assert_eq!(value(&out[8]), "0");
}

#[test]
fn a_row_on_a_torus_is_taken_when_its_arrays_fit_the_memory_budget() {
    // WindUp's circle of 5·10^7 needs about 1.5 GB to label at once: it is walked instead, and
    // the walk stops at the budget; a circle of 4·10^6 fits and is labelled.
    let out = session(&[
        ":memory 200M",
        ":budget 100000000",
        "ruleset w(n, i) { if i != 0 for m in [1, 2] => w(n, (i - m + n) % n) }",
        "w(50000000, 5)",
        "w(4000000, 5)",
        "w(1000, 5)",
    ]);
    // (A definition prints nothing.)
    let e = error(&out[2]);
    assert!(
        e.contains("error[E0213]") && e.contains("budget of 200 MiB"),
        "{e}"
    );
    // 5 on a long circle with moves {1, 2} is *2, as in the subtraction game (WindUp against
    // cgt for every circle up to 60: `loopy::windup_agrees_with_cgt_tools`).
    assert_eq!(value(&out[3]), "*2");
    assert_eq!(value(&out[4]), "*2");
}

#[test]
fn a_chain_of_sums_is_one_sum() {
    // 60 000 terms once held every prefix sum (4.3 GB); 100 MiB is plenty for one sum.
    let even = vec!["*1"; 60_000].join(" + ");
    let odd = format!("{even} + *1");
    let out = session(&[
        ":memory 100M",
        &even,
        &odd,
        "1 + 2 - 4",
        "[1] + [2] + [3]",
        "*1 + *2 - *3 + 0",
        "*1 + ∞ + *2 + ∞̄",
    ]);
    assert_eq!(value(&out[1]), "0");
    assert_eq!(value(&out[2]), "*");
    assert_eq!(value(&out[3]), "-1");
    assert_eq!(value(&out[4]), "[1, 2, 3]");
    assert_eq!(value(&out[5]), "0");
    assert!(error(&out[6]).contains("E0205"));
}

#[test]
fn nested_tuples_print_whole() {
    // (…((0, 1), 1)…, 1) with n levels: n "(", "0", n ", 1)".
    let n = 100_000;
    // Building it recurses 100 000 calls deep (about 1 KB of stack per level); the printing
    // under test is flat.
    let out = session_on(
        512 << 20,
        &[
            "fn l(n) = if n == 0 then 0 else (l(n - 1), 1)",
            &format!("l({n})"),
            "l(2)",
        ],
    );
    let s = value(&out[0]);
    assert_eq!(s.len(), 5 * n + 1);
    assert!(s.starts_with("((((") && s.ends_with(", 1), 1)"));
    assert_eq!(value(&out[1]), "((0, 1), 1)");
}

#[test]
fn forms_in_diagnostics_are_clipped() {
    // w(k) has 16 options sharing w(k - 1): written out, w(14)'s form is 16^14 long.
    let w = "fn w(k) = if k == 0 then 0 else let g = w(k - 1) in \
             {g, g + *1, g + *2, g + *3, g + *4, g + *5, g + *6, g + *7 | \
             g, g + *1, g + *2, g + *3, g + *4, g + *5, g + *6, g + *7}";
    let out = session(&[w, "{w(14) | 0}", "{w(3) | 0}"]);
    for r in &out {
        let e = error(r);
        assert!(e.contains("error[E0201]"), "{e}");
        let title = e.lines().next().unwrap();
        assert!(title.chars().count() < 400, "{title}");
        assert!(title.contains('…'), "{title}");
    }
}

#[test]
fn redefining_a_name_keeps_games_already_made() {
    let out = session(&[
        "ruleset r(n) { for k in [1] if k <= n => r(n - k) }",
        "let a = r(5)",
        "ruleset r(n) { for k in [1, 2] if k <= n => r(n - k) }",
        "a",
        "r(5)",
        "fn r(n) = 7",
        "a",
    ]);
    // Subtraction {1}: n mod 2; subtraction {1, 2}: n mod 3.
    assert_eq!(value(&out[0]), "*");
    assert_eq!(value(&out[1]), "*2");
    assert_eq!(value(&out[2]), "*");
}

#[test]
fn invalid_utf8_names_the_line_and_the_rest_runs() {
    let input: Vec<&[u8]> = vec![b"let a = *3", b"a", b"\xff\xfe", b"a + *1"];
    let out = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut s = Session::new();
            let mut out = Vec::new();
            let lines = input.into_iter().map(|l| Ok(l.to_vec()));
            run_byte_lines(&mut s, lines, &mut |r| out.push(r));
            out
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(value(&out[0]), "*3");
    let e = error(&out[1]);
    assert!(e.contains("error[E0009]: line 3 is not valid UTF-8"), "{e}");
    assert_eq!(value(&out[2]), "*2");
}

#[test]
fn a_long_multi_line_list_is_one_input() {
    let mut lines = vec!["[".to_string()];
    lines.extend((0..20_000).map(|i| format!("  {i},")));
    lines.push("]".to_string());
    lines.push("*5".to_string());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&refs);
    let v = value(&out[0]);
    assert!(v.starts_with("[0, 1, 2,") && v.ends_with(", 19999]"), "{v}");
    assert_eq!(v.matches(", ").count(), 19_999);
    assert_eq!(value(&out[1]), "*5");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let out = session(&["\u{feff}*2"]);
    assert_eq!(value(&out[0]), "*2");
}

/// One small snapshot per new diagnostic (the budget is set, so the text is the same on every
/// machine).
#[test]
fn diagnostic_snapshots() {
    let out = session(&[":memory 64M", "len(0..100000000)"]);
    insta::assert_snapshot!("memory_budget", error(&out[1]));
    let e = loony::diag::guard::catch::<()>(|| panic!("an invariant broke")).unwrap_err();
    let shown = e.render_plain(&Default::default());
    // The place of the panic is this file's line, which moves as the file is edited.
    let shown: String = shown
        .lines()
        .map(|l| match l.find(" at tests/") {
            Some(i) => format!("{} at tests/robustness.rs:LINE\n", &l[..i]),
            None => format!("{l}\n"),
        })
        .collect();
    insta::assert_snapshot!("internal_error", shown);
    let mut files = Default::default();
    let e =
        loony::eval::add_source(&mut files, "bad.cgt", b"*1\n*2 + \xc3(\n".to_vec()).unwrap_err();
    insta::assert_snapshot!("invalid_utf8", e.render_plain(&files));
}

#[test]
fn growing_arguments_count_toward_the_budget() {
    // Each position holds a longer tuple or list than the last (or, in the third, a long list
    // that shrinks by one): a few thousand positions hold quadratically many values, so the
    // budget counts their size, not just their number, and the diagnostic says so without
    // claiming they grow.
    for (def, start) in [
        ("ruleset gt(x) { => gt((x, 1)) }", "gt(0)"),
        ("ruleset gl(xs) { => gl(append(xs, 1)) }", "gl([])"),
        (
            "ruleset sh(t) { if len(t) > 0 => sh(remove(t, 0)) }",
            "sh([i for i in 0..100000])",
        ),
    ] {
        let out = session(&[":budget 200000", def, start, "*1 + *2"]);
        let e = error(&out[1]);
        assert!(e.contains("error[E0203]"), "{e}");
        assert!(
            e.contains("most of it went to positions with large arguments"),
            "{e}"
        );
        assert!(!e.contains("growing"), "{e}");
        assert_eq!(value(&out[2]), "*3");
    }
}

#[test]
fn a_sum_built_one_summand_at_a_time_stays_small() {
    // Each level adds one summand to the sum below it; with every summand kept once per level
    // this took 842 MB for n = 20 000 (quadratic), past the 200 MB budget set here.
    let out = session(&[
        ":memory 200M",
        "fn s(n) = if n == 0 then 0 else s(n - 1) + *1",
        "[s(20000), s(20001)]",
        // The repeated summand is still a sum of that many copies, move for move.
        "len(options(s(100)))",
        "outcome(s(70) + *1)",
        "misere_outcome(s(101))",
        "s(100) == s(40) + s(60)",
    ]);
    assert_eq!(value(&out[1]), "[0, *]");
    assert_eq!(value(&out[2]), "1");
    assert_eq!(value(&out[3]), "N");
    // Misère nim with an odd number of heaps of one: the player to move loses.
    assert_eq!(value(&out[4]), "P");
    assert_eq!(value(&out[5]), "true");
}

#[test]
fn periodicity_of_a_long_constant_start_is_quick() {
    // subtraction([1000000]) is 0 on its first million heaps: every shift matched that run,
    // and the certificate scan walked it for each of half a million periods (64 s).
    let out = session(&["periodicity(subtraction([1000000]))"]);
    assert_eq!(value(&out[0]), "not yet periodic up to 1000000");
}
