//! One tiny snapshot per kind of diagnostic, rendered without colour with a fixed file name.

use crate::common;

fn diag(src: &str) -> String {
    common::run_named("test.cgt", src)
}

/// Runs `src` in a fresh interpreter set up by `setup`, on a thread with `stack` bytes of stack,
/// and renders its error (or says there was none).
fn run_with(
    src: &'static str,
    stack: usize,
    setup: impl FnOnce(&mut loony::eval::Interp) + Send + 'static,
) -> String {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            setup(&mut interp);
            match interp.run("test.cgt", src, &mut |_| {}) {
                Ok(()) => "no error".to_string(),
                Err(e) => e.render_plain(&interp.cx.files),
            }
        })
        .expect("spawn")
        .join()
        .expect("join")
}

/// The warnings a script gives, then its output and any error: for warning snapshots.
fn warnings(src: &str) -> String {
    warnings_with(src, |_| {})
}

/// [`warnings`] in an interpreter set up by `setup`.
fn warnings_with(
    src: &str,
    setup: impl FnOnce(&mut loony::eval::Interp) + Send + 'static,
) -> String {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            setup(&mut interp);
            let mut out = String::new();
            let r = interp.run("test.cgt", &src, &mut |s| {
                out.push_str(&s);
                out.push('\n');
            });
            let mut text: String = interp
                .cx
                .out
                .warnings
                .iter()
                .map(|w| w.render(&interp.cx.files, false))
                .collect();
            text.push_str(&out);
            if let Err(e) = r {
                text.push_str(&e.render_plain(&interp.cx.files));
            }
            text
        })
        .expect("spawn")
        .join()
        .expect("join")
}

macro_rules! warning {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), warnings($src), $src);
        }
    };
}

// A user's definition named like a built-in warns, and the program goes on.
warning!(shadows_builtin, "let heap = 3\nheap + 1");
// The user's `kayles` replaces the imported one; importing replaces the user's.
warning!(
    replaces_imported,
    "import \"std/kayles\"\nruleset kayles(n) { if n > 0 => kayles(n - 1) }\nkayles(2)"
);
warning!(
    import_replaces_own,
    "fn kayles(n) = *n\nimport \"std/kayles\"\nkayles(3)"
);
// The default periodicity search stops at 131 071 heaps for a game with no rare heap (0.106
// has no known period, and none below 131 072 heaps).
warning!(
    dense_periodicity_stops_early,
    "let p = periodicity(heap(\"0.106\"))\n[p.period, p.certified, p.checked_up_to]"
);
// A save of the table while a search runs (`--table F --save-every S`) that fails: the search
// goes on and gives its answer. It tries again each interval (here at every poll), so the
// snapshot keeps the first warning and the answer.
#[test]
fn autosave_failed() {
    // 3 × 11 (0): a board with an even side would be answered by std/cram's hint, unsearched.
    let src = "import \"std/cram\"\noutcome(cram(3, 11))";
    let text = warnings_with(src, |interp| {
        interp
            .cx
            .open_table_file("/nonexistent-loony-dir/t.tbl")
            .expect("a missing file is a new table");
        interp.cx.save_every(std::time::Duration::ZERO);
    });
    let warnings: Vec<&str> = text.split("\nwarning[").collect();
    let (first, last) = (warnings[0], warnings[warnings.len() - 1]);
    let answer = last.rsplit_once("\n\n").map_or("", |(_, a)| a);
    assert_eq!(answer, "P\n", "{text}");
    insta::assert_snapshot!("autosave_failed", format!("{first}\n{answer}"), src);
}

// Redefining one's own name is silent (no warning in this snapshot).
warning!(redefining_is_silent, "let k = 1\nlet k = k + 1\nk");

macro_rules! diagnostic {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), diag($src), $src);
        }
    };
}

diagnostic!(unexpected_character, "*2 @ *3");
diagnostic!(invisible_character, "*1 +\u{200b} *2");
diagnostic!(infinity_with_wrong_mark, "\u{221e}\u{303} + *1");
diagnostic!(unclosed_brace, "let g = {0, * | 0");
diagnostic!(unclosed_angle, "<0, *2 | 0, *2");
diagnostic!(unclosed_paren, "outcome(*2 + *3");
diagnostic!(unclosed_misere_notation, "is_restive(*[2#0])");
diagnostic!(unclosed_closer_in_comment, "let s = [1, 3, 4   # heaps ]");
diagnostic!(missing_bar, "<0, *>");
diagnostic!(set_of_games, "{0, *}");
diagnostic!(unexpected_token, "let = 3");
diagnostic!(unexpected_end, "*2 +");
diagnostic!(
    unknown_name,
    "ruleset kayles(n) { if n >= 1 => kayles(n - 1) }\nkayle(3)"
);
diagnostic!(wrong_arity, "fn f(a, b) = a + b\nf(*1)");
diagnostic!(builtin_arity, "nim_sequence(heap(\"0.07\"))");
// No "did you mean `D`?" for a one-letter name: one edit is the whole name.
diagnostic!(unknown_one_letter, "let y = 1\nx + y");
diagnostic!(unknown_builtin_typo, "nimbr(*3)");
diagnostic!(
    ruleset_arity,
    "ruleset r(n) { if n > 0 => r(n - 1) }\nr(1, 2)"
);
diagnostic!(type_error, "[*1, *2] + *3");
diagnostic!(integer_as_game, "*2 + 3");
diagnostic!(integer_in_form, "{0, 1 | 0, 1}");
diagnostic!(not_impartial, "{0, * | 0}");
diagnostic!(not_impartial_nested, "{{0 | *}, 0 | {0 | *}, 0}");
diagnostic!(
    infinite_game,
    "ruleset grow(n) {\n  if n > 0 => grow(n) + *\n}\ngrow(1)"
);
// Rules over integers run as register code, which hands anything else back to the compiled
// tree: these errors must still be the tree's, pointing into the rule.
diagnostic!(
    rule_division_by_zero,
    "ruleset z(n) { if n > 0 => z(n / (n - 1)) }\nz(1)"
);
diagnostic!(
    rule_list_item_not_integer,
    "ruleset d(s, n) { for m in s if m <= n => d(s, n - m) }\nd([1, (2, 3)], 3)"
);
diagnostic!(
    ruleset_runaway,
    "ruleset up(n) { => up(n + 1) }\nup(0) == 0"
);
diagnostic!(integer_overflow, "let big = 9223372036854775807\nbig + 1");
diagnostic!(integer_too_large, "let n = 99999999999999999999");
diagnostic!(division_by_zero, "let k = 0\n10 / k");
diagnostic!(missing_import, "import \"no/such/module\"");
diagnostic!(missing_std_import, "import \"std/kayle\"");
diagnostic!(infinities_collide, "∞ + ∞̄");
diagnostic!(unterminated_string, "import \"std/kayles");
diagnostic!(bad_escape, "\"a tab \\t, a bell \\a\"");
diagnostic!(index_out_of_range, "[1, 2, 3][3]");
diagnostic!(not_callable, "let x = 3\nx(2)");
diagnostic!(
    loopy_partizan_cycle,
    "ruleset r(n) {\n  => {r(n) | 0}\n}\nr(0)"
);
diagnostic!(bad_loopy_literal, "inf(0, -1) + *2");
diagnostic!(special_moon_without_number, "⟫ + *1");
diagnostic!(duplicate_label, "a{0, a{a | a} | 0, a}");
diagnostic!(unused_label, "a{0, * | 0, *}");
diagnostic!(
    value_not_determined,
    "let g = {*2, *3, {∞ | *2, *3} | *2, *3, {*2, *3 | ∞̄}}\ng + inf(2, 3)"
);
diagnostic!(not_heap_game, "quotient(*3)");
diagnostic!(
    not_sum_of_heaps,
    "ruleset r(n) { if n >= 1 => r(n - 1) + *1 }\nquotient(r, 5)"
);
diagnostic!(bad_heap_bound, "quotient(heap(\"0.77\"), -1)");
diagnostic!(no_certificate, "quotient(heap(\"4!.0\"))");
diagnostic!(
    plot_to_missing_folder,
    "let s = nim_sequence(heap(\"0.07\"), 0..10)\nplot(s, \"no/such/folder/dawson.svg\")"
);
diagnostic!(
    plot_unknown_format,
    "let s = nim_sequence(heap(\"0.07\"), 0..10)\nplot(s, \"dawson.jpg\")"
);

#[test]
fn quotient_too_large() {
    // Ceilings of 2 000 elements: 0.3122 (no finite Q_7, Weimerskirch) outgrows them at once.
    let src = "quotient(heap(\"0.3122\"))";
    let out = run_with(src, 1 << 30, |interp| {
        interp
            .cx
            .set_quotient_limits(loony::theory::quotient::Limits {
                product: 20_000,
                reduced: 2_000,
                antichain_bytes: 1 << 24,
            });
    });
    insta::assert_snapshot!("quotient_too_large", out, src);
}

#[test]
fn quotient_too_large_for_the_memory_budget() {
    // With the ceilings from a 64 MiB budget the note says which budget to raise.
    let src = "quotient(heap(\"0.3122\"))";
    let out = run_with(src, 1 << 30, |interp| {
        interp.cx.limits.memory = 64 << 20;
    });
    insta::assert_snapshot!("quotient_too_large_for_the_memory_budget", out, src);
}

#[test]
fn search_budget() {
    // A budget of 2 000 states, so the search stops at once.
    let src = "ruleset wu(n, i) { if i != 0 for m in [1, 2] => wu(n, (i - m + n) % n) }\n\
               let g = {*2, *3, {∞ | *2, *3} | *2, *3, {*2, *3 | ∞̄}}\n\
               outcome(g + wu(300, 5) + wu(300, 7))";
    let out = run_with(src, 1 << 30, |interp| {
        interp.cx.limits.budget = 2000;
    });
    insta::assert_snapshot!("search_budget", out, src);
}
diagnostic!(explain_loopy, "explain(a{0, a | 0, a})");
diagnostic!(misere_specifier, "*[\"foo\"]");
diagnostic!(misere_not_linked, "link(*[[[2]]], *[[2]])");
diagnostic!(misere_not_subtractable, "misere_minus(*[[[2]]], *[[4]])");
diagnostic!(misere_entailing, "misere_form({∞ | 0})");
diagnostic!(
    misere_entailing_ruleset,
    "ruleset e(n) { if n > 0 => entail e(n - 1) }\ngenus(e(3))"
);
diagnostic!(misere_identical, "distinguisher(*[[2]], *[[2]])");
diagnostic!(misere_nim_heap_too_large, "*[5000]");
diagnostic!(misere_string_too_long, "misere_form(heap(\"0.77\")(40))");
diagnostic!(misere_notation, "misere_form(\"*[2#(0]\")");
diagnostic!(
    misere_busy,
    "ruleset r(n) { if n > 0 and misere_nimber(*[1]) == 0 => r(n - 1) }\ngenus(r(2))"
);
diagnostic!(
    misere_cycle,
    "ruleset loop(n) {\n  if n > 0 => loop(n - 1)\n  if n == 0 => loop(2)\n}\nmisere_form(loop(3))"
);
diagnostic!(misere_not_impartial, "misere_outcome({0, * | 0})");
diagnostic!(misere_negative_heap, "*[[2], -1]");
diagnostic!(nim_inverse_of_zero, "nim_inverse(0)");
diagnostic!(nim_div_by_zero, "nim_div(5, 0)");
diagnostic!(nim_negative, "nim_product(3, -2)");
diagnostic!(heap_code_unclosed_period, "heap(\"0.3[37\")");
diagnostic!(heap_code_endless_play, "heap(\"20.017\")");
diagnostic!(heap_code_braces, "heap(\"0.{1,2+,3}\")");

#[test]
fn a_huge_source_line_is_cut_around_the_error() {
    // A generated one-line script: the diagnostic shows a window, not 15 000 characters.
    let src = format!("{}nope{}", "*1 + ".repeat(3000), " + *1".repeat(3000));
    let out = diag(&src);
    assert!(out.len() < 1000, "{out}");
    insta::assert_snapshot!("huge_line", out);
}

/// Every line of the frame is cut, not only the source line: the carets under a 1 MB string
/// literal and the blanks that place a label under the last of 100 000 brackets.
#[test]
fn long_carets_and_labels_are_cut_too() {
    let string = diag(&format!("\"{}\" + 1", "a".repeat(1 << 20)));
    assert!(string.len() < 1000, "{} bytes", string.len());
    assert!(string.contains("… this is a string"), "{string}");
    let brackets = diag(&"{".repeat(100_000));
    assert!(
        brackets.len() < 1000,
        "{} bytes: {brackets}",
        brackets.len()
    );
    assert!(brackets.contains("opened here"), "{brackets}");
}

/// Every code Loony gives: the layers' tables of codes with their explanations.
fn all_codes() -> Vec<String> {
    loony::codes().map(|c| c.code().to_string()).collect()
}

/// The snapshots of both test binaries, concatenated.
fn all_snapshots() -> String {
    let mut shown = String::new();
    for dir in ["tests/snapshots", "tests/suite/snapshots"] {
        let dir = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&dir).expect("a snapshot folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "snap") {
                shown.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    shown
}

/// Each code has at least one snapshot showing it (one small case per diagnostic, source beside
/// the error): a code no test renders is a message no one has read.
#[test]
fn every_code_has_a_snapshot() {
    let shown = all_snapshots();
    let codes = all_codes();
    assert!(codes.len() > 60, "found only {codes:?}");
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| {
            !shown.contains(&format!("error[{c}]")) && !shown.contains(&format!("warning[{c}]"))
        })
        .collect();
    assert!(missing.is_empty(), "codes without a snapshot: {missing:?}");
}

diagnostic!(decimal_number, "heap(0.07)");
diagnostic!(unknown_shipped_name, "kayles(5)");
diagnostic!(
    subtraction_too_large,
    "subtraction([4611686018427387904])(5)"
);
diagnostic!(empty_range, "nim_sequence(heap(\"0.07\"), 0..0)");
diagnostic!(negative_range, "nim_sequence(heap(\"0.07\"), -3..3)");
diagnostic!(range_with_gap, "nim_sequence(heap(\"0.07\"), [1, 3])");
diagnostic!(heap_game_as_game, "outcome(heap(\"0.07\"))");
diagnostic!(negative_heap_size, "let dk = heap(\"0.07\")\ndk(-1)");
diagnostic!(nimber_too_large, "*99999999999");
diagnostic!(bad_argument, "len(3)");
diagnostic!(
    no_nim_value,
    "ruleset r(n) { if n > 0 => entail r(n - 1) }\nnim_sequence(r, 3)"
);
diagnostic!(not_a_nimber, "nimber(moon)");
diagnostic!(
    self_dependent,
    "ruleset r(n) { if nimber(r(n)) == 0 => r(n - 1) }\nr(1)"
);
// Files beside the test file name: tests/fixtures/import/cycle_a.cgt imports cycle_b, which
// imports cycle_a again.
#[test]
fn import_cycle() {
    let src = "import \"cycle_a\"";
    insta::assert_snapshot!(
        "import_cycle",
        common::run_named("tests/fixtures/import/main.cgt", src),
        src
    );
}

#[test]
fn import_directory() {
    let src = "import \"folder\"";
    insta::assert_snapshot!(
        "import_directory",
        common::run_named("tests/fixtures/import/main.cgt", src),
        src
    );
}

/// A file that cannot be read: `:load` of a missing file in the REPL.
#[test]
fn unreadable_file() {
    let src = ":load \"no/such/file.cgt\"";
    let mut s = loony::repl::Session::new();
    let text: String = s
        .eval(src)
        .into_iter()
        .map(|r| match r {
            loony::repl::Reply::Error(e) => e,
            other => format!("{other:?}\n"),
        })
        .collect();
    insta::assert_snapshot!("unreadable_file", text, src);
}

/// A recursion without end stops at the session's bound on nested calls (lowered here so the
/// test is quick), with the function's name.
#[test]
fn recursion_without_end() {
    let src = "fn f(n) = f(n + 1)\nf(0)";
    let out = run_with(src, 1 << 30, |interp| {
        interp.cx.limits.max_calls = 1000;
    });
    insta::assert_snapshot!("recursion_without_end", out, src);
}

/// Rules that ask about the next position nest explorations until a small stack runs out
/// (how deep, and in which frame, depends on the build: those parts are filtered).
#[test]
fn exploration_too_deep() {
    let src = "ruleset deep(n) { if n > 0 and nimber(deep(n - 1)) >= 0 => deep(n - 1) }\n\
               nimber(deep(1000000))";
    let out = run_with(src, 16 << 20, |_| {});
    insta::with_settings!({filters => vec![
        (r"nested \d+ explorations", "nested N explorations"),
        // Which frame meets the end of the stack first varies: the call or its argument.
        (r"test\.cgt:1:\d+", "test.cgt:1:C"),
        (r"│ +\^+ too deep", "│ ^^^ too deep"),
        (r"deep\(\d+\)`", "deep(K)`"),
        (r"… and \d+ more", "… and M more"),
    ]}, {
        insta::assert_snapshot!("exploration_too_deep", out, src);
    });
}

/// Ctrl-C (the interrupt flag, set from another thread) during a long computation.
#[test]
fn interrupted() {
    let src = "top_entails_value(10000000)";
    let out = run_with(src, 1 << 30, |interp| {
        let flag = interp.cx.limits.interrupt.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
    });
    insta::assert_snapshot!("interrupted", out, src);
}

/// A table outgrowing its indices needs billions of entries, too many for a test to build:
/// the diagnostic is rendered from the error itself (no source).
#[test]
fn capacity() {
    let e = loony::diag::Error::new(loony::diag::CoreError::Capacity {
        what: "ruleset positions".into(),
        limit: "4294967295".into(),
    });
    insta::assert_snapshot!("capacity", e.render_plain(&loony::diag::Files::new()));
}

/// A ruleset of more parameters than a position's key can count is refused where it is
/// defined, at the first parameter too many (the line is long: it is cut around it).
#[test]
fn too_many_parameters() {
    let params: Vec<String> = (0..256).map(|i| format!("p{i}")).collect();
    let src = format!("ruleset r({}) {{ }}\n", params.join(", "));
    insta::assert_snapshot!(
        "too_many_parameters",
        diag(&src),
        "ruleset r(p0, p1, …, p255) { }"
    );
}

/// `loony --explain CODE` has a longer text for every code, once; and every code a snapshot
/// shows is one of them (a code given but left out of its layer's table would have no
/// explanation).
#[test]
fn every_code_has_an_explanation() {
    let codes = all_codes();
    for c in loony::codes() {
        assert!(
            c.explain().len() > 60,
            "{}: too short to explain anything",
            c.code()
        );
        assert_eq!(
            loony::diag::explain::explain(c.code(), loony::codes()).map(|e| e.0),
            Some(c.code())
        );
    }
    let mut keys = codes.clone();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), codes.len(), "a code is explained twice");
    let shown = all_snapshots();
    let mut given: Vec<&str> = shown
        .match_indices("error[")
        .chain(shown.match_indices("warning["))
        .filter_map(|(i, m)| shown.get(i + m.len()..i + m.len() + 5))
        .filter(|c| c[1..].chars().all(|ch| ch.is_ascii_digit()))
        .collect();
    given.sort_unstable();
    given.dedup();
    let unexplained: Vec<&&str> = given
        .iter()
        .filter(|c| !codes.iter().any(|k| k == *c))
        .collect();
    assert!(
        unexplained.is_empty(),
        "codes without an explanation: {unexplained:?}"
    );
}

diagnostic!(negative_exponent, "2^-1");
diagnostic!(
    mixed_quotients,
    "let q = quotient(heap(\"0.75\"))\nlet r = quotient(heap(\"0.31\"))\nq.phi[2] * r.phi[2]"
);
// A sequence file that `write_sequence` did not finish reads as what it holds, with a warning.
warning!(
    partial_sequence_file,
    "len(read_sequence(\"tests/fixtures/partial.txt\"))"
);
diagnostic!(not_a_sequence_file, "read_sequence(\"Cargo.toml\")");

// Bits, boards, graphs and the clauses of rulesets that split.
diagnostic!(negative_shift, "1 << -2");
diagnostic!(ragged_board, "board(\"..#|....\")");
diagnostic!(cell_off_the_board, "board(2, 3)[(2, 0)]");
diagnostic!(edge_to_a_missing_vertex, "graph(3, [(0, 1), (1, 3)])");
// A bound below a part's nimber: the search stops with the part and its nimber.
diagnostic!(
    bound_below_a_nimber,
    "ruleset dots(b) split by regions(b) bound by 0 {\n  \
     for c in cells(b, \".\") => dots(set(b, [c], \"#\"))\n}\ndots(board(1, 3))"
);
diagnostic!(
    split_not_a_list,
    "ruleset r(b) split by 3 { for c in cells(b, \".\") => r(set(b, c, \"#\")) }\nr(board(1, 2))"
);
