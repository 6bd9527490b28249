//! One tiny snapshot per kind of diagnostic, rendered without colour with a fixed file name.

mod common;

fn diag(src: &str) -> String {
    common::run_named("test.cgt", src)
}

/// The warnings a script gives, then its output and any error: for warning snapshots.
fn warnings(src: &str) -> String {
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            let mut out = String::new();
            let r = interp.run("test.cgt", &src, &mut |s| {
                out.push_str(&s);
                out.push('\n');
            });
            let mut text: String = interp
                .cx
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
diagnostic!(unclosed_brace, "let g = {0, * | 0");
diagnostic!(unclosed_angle, "<0, *2 | 0, *2");
diagnostic!(unclosed_paren, "outcome(*2 + *3");
diagnostic!(missing_bar, "{0, *}");
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
    let out = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            interp
                .cx
                .set_quotient_limits(loony::theory::quotient::Limits {
                    product: 20_000,
                    reduced: 2_000,
                    antichain_bytes: 1 << 24,
                });
            match interp.run("test.cgt", src, &mut |_| {}) {
                Ok(()) => "no error".to_string(),
                Err(e) => e.render_plain(&interp.cx.files),
            }
        })
        .expect("spawn")
        .join()
        .expect("join");
    insta::assert_snapshot!("quotient_too_large", out, src);
}

#[test]
fn search_budget() {
    // A budget of 2 000 states, so the search stops at once.
    let src = "ruleset wu(n, i) { if i != 0 for m in [1, 2] => wu(n, (i - m + n) % n) }\n\
               let g = {*2, *3, {∞ | *2, *3} | *2, *3, {*2, *3 | ∞̄}}\n\
               outcome(g + wu(300, 5) + wu(300, 7))";
    let out = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            interp.cx.budget = 2000;
            match interp.run("test.cgt", src, &mut |_| {}) {
                Ok(()) => "no error".to_string(),
                Err(e) => e.render_plain(&interp.cx.files),
            }
        })
        .expect("spawn")
        .join()
        .expect("join");
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
