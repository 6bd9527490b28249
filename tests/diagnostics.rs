//! One tiny snapshot per kind of diagnostic, rendered without colour with a fixed file name.

mod common;

fn diag(src: &str) -> String {
    common::run_named("test.cgt", src)
}

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
    ruleset_cycle,
    "ruleset loop(n) {\n  if n > 0 => loop(n - 1)\n  if n == 0 => loop(2)\n}\nloop(3)"
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
diagnostic!(index_out_of_range, "[1, 2, 3][3]");
diagnostic!(not_callable, "let x = 3\nx(2)");
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
