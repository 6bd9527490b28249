//! A ruleset's hints to pruned search (`bound by`, `order by`, `value by`): they change how
//! much the search does, never a value. Checked against a brute force written here (Cram by
//! bit masks) and against a closed form (a game whose nimber is the parity of its cells).

use crate::brute::{MaskGame, cram_moves, lcg, nim, picture};
use crate::common::on_big_stack;
use loony::eval::Interp;

/// Runs `src` in a fresh session: its lines, its error rendered, and the questions pruned
/// search opened.
fn run(src: &str) -> (Vec<String>, Option<String>, u64) {
    let src = src.to_string();
    on_big_stack(move || {
        let mut interp = Interp::new();
        let mut out = Vec::new();
        let r = interp.run("hints.cgt", &src, &mut |s| out.push(s));
        let err = r.err().map(|e| e.render_plain(&interp.cx.files));
        (out, err, interp.cx.table_stats().opened)
    })
}

/// Cram with every hint: a true bound (a game lasts at most half its free cells, and a
/// nimber is at most the length of the longest play), an order (fewer free cells first) and
/// the nimbers of full strips (Dawson's Kayles, heap("0.07")).
const CRAM_HINTED: &str = "let dawson = nim_sequence(heap(\"0.07\"), 64)
fn free(b) = len(cells(b, \".\"))
fn strip(b) = if min([shape(b)[0], shape(b)[1]]) == 1 and free(b) == shape(b)[0] * shape(b)[1]
  then dawson[free(b)] else none
ruleset cram_h(b) split by regions(b) canonical by canonical(b)
  bound by free(b) / 2
  order by free(b)
  value by strip(b)
{
  for (p, q) in adjacent_pairs(b, \".\") => cram_h(set(b, [p, q], \"#\"))
}
";

#[test]
fn hinted_cram_has_the_brute_force_values() {
    let mut src = CRAM_HINTED.to_string();
    let mut want = Vec::new();
    let mut s = 29;
    for k in 0..24 {
        let (rows, cols) = [(4, 4), (3, 5), (4, 5), (3, 6), (1, 9), (2, 7)][k % 6];
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        let free = if k % 3 == 0 {
            full
        } else {
            (lcg(&mut s) | lcg(&mut s)) & full
        };
        let v = g.grundy(free, &moves);
        let heap = lcg(&mut s) as u32 % 3;
        let p = picture(rows, cols, free);
        src.push_str(&format!("cram_h(board(\"{p}\"))\n"));
        want.push(nim(v));
        src.push_str(&format!("outcome(cram_h(board(\"{p}\")) + *{heap})\n"));
        want.push(if v == heap { "P" } else { "N" }.to_string());
    }
    let (got, err, _) = run(&src);
    assert_eq!(err, None);
    assert_eq!(got, want);
}

/// The half-turn strategy (a region a half turn maps onto itself, fixing no free cell and
/// turning no domino onto itself, is 0), which pruned search takes as known for every rule
/// of the domino form (`std/cram`'s among them), and `std/cram`'s `cram_half_turn`, which
/// says the same in Loony for a `value by` of one's own, against the brute force, on boards
/// a half turn maps onto themselves: in a row-major board cell `i` turns to cell `n - 1 - i`,
/// so each pair gets one random bit. Shapes of every parity, with the centre cell or centre
/// edge free and taken; the search must also answer questions it was not asked for (a sum
/// with a heap).
#[test]
fn std_cram_half_turn_hint_has_the_brute_force_values() {
    let mut src = String::from("import \"std/cram\"\n");
    let mut want = Vec::new();
    let mut s = 41;
    let mut hinted = 0;
    for k in 0..48 {
        let (rows, cols) = [
            (4, 4),
            (3, 5),
            (4, 5),
            (5, 5),
            (2, 6),
            (3, 4),
            (4, 6),
            (3, 7),
        ][k % 8];
        let n = rows * cols;
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let bits = lcg(&mut s) | lcg(&mut s);
        let mut free = 0u64;
        for i in 0..n.div_ceil(2) {
            if bits >> i & 1 == 1 {
                free |= 1 << i | 1 << (n - 1 - i);
            }
        }
        let v = g.grundy(free, &moves);
        hinted += usize::from(v == 0);
        let heap = lcg(&mut s) as u32 % 3;
        let p = picture(rows, cols, free);
        src.push_str(&format!("nimber(cram_board(board(\"{p}\")))\n"));
        want.push(v.to_string());
        src.push_str(&format!("outcome(cram_board(board(\"{p}\")) + *{heap})\n"));
        want.push(if v == heap { "P" } else { "N" }.to_string());
        src.push_str(&format!("cram_half_turn(board(\"{p}\"))\n"));
        want.push(if v == 0 { "0 or none" } else { "none" }.to_string());
    }
    assert!(hinted >= 10, "only {hinted} boards of value 0");
    let (got, err, _) = run(&src);
    assert_eq!(err, None);
    // `cram_half_turn` may say 0 only of a board of value 0, and must say it of some.
    assert_eq!(got.len(), want.len(), "{got:?}");
    let mut said = 0;
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        match w.as_str() {
            "0 or none" => {
                assert!(g == "0" || g == "none", "line {i}: {g}");
                said += usize::from(g == "0");
            }
            _ => assert_eq!(g, w, "line {i}"),
        }
    }
    assert!(said >= 5, "cram_half_turn said 0 of only {said} boards");
}

/// A move blocks one free cell, so a part's nimber is the parity of its cells: at most 1.
fn dots(bound: &str) -> String {
    let mut src = format!(
        "ruleset dots(b) split by regions(b) canonical by canonical(b) {bound} {{\n  \
         for c in cells(b, \".\") => dots(set(b, [c], \"#\"))\n}}\n"
    );
    let mut s = 5;
    for (rows, cols) in [(1, 30), (2, 12), (3, 9), (4, 6)] {
        let full = (1u64 << (rows * cols)) - 1;
        for _ in 0..3 {
            let free = (lcg(&mut s) | lcg(&mut s) | lcg(&mut s)) & full;
            src.push_str(&format!("dots(board(\"{}\"))\n", picture(rows, cols, free)));
        }
    }
    src
}

fn parities() -> Vec<String> {
    let mut s = 5;
    let mut want = Vec::new();
    for (rows, cols) in [(1, 30), (2, 12), (3, 9), (4, 6)] {
        let full = (1u64 << (rows * cols)) - 1;
        for _ in 0..3 {
            let free = (lcg(&mut s) | lcg(&mut s) | lcg(&mut s)) & full;
            want.push(nim(free.count_ones() % 2));
        }
    }
    want
}

#[test]
fn a_bound_saves_questions_and_changes_no_value() {
    let (plain, err, plain_questions) = run(&dots(""));
    assert_eq!(err, None);
    assert_eq!(plain, parities());
    let (bounded, err, bounded_questions) = run(&dots("bound by 1"));
    assert_eq!(err, None);
    assert_eq!(bounded, parities());
    assert!(
        bounded_questions < plain_questions,
        "{bounded_questions} questions with the bound, {plain_questions} without"
    );
}

#[test]
fn a_value_is_taken_as_given() {
    // Parts of one cell are *1 in truth; a ruleset that says they are *2 is believed (the
    // hint is what the search asks first), which shows the hint is used.
    let src = "ruleset dots(b) split by regions(b) canonical by canonical(b)\n  \
               value by if len(cells(b, \".\")) == 1 then 2 else none {\n  \
               for c in cells(b, \".\") => dots(set(b, [c], \"#\"))\n}\n\
               dots(board(\".#.#.\"))\ndots(board(\"..\"))";
    let (got, err, _) = run(src);
    assert_eq!(err, None);
    // Three parts of *2; two cells: its options are one cell (*2 by the hint), so mex is 0.
    assert_eq!(got, ["*2", "0"]);
}

#[test]
fn bad_hints_are_errors_with_the_clause() {
    let rules = "{\n  for c in cells(b, \".\") => dots(set(b, [c], \"#\"))\n}\n";
    for (header, call, says) in [
        (
            "bound by 1",
            "dots(board(1, 3))",
            "which values the rulesets that declare `split by`",
        ),
        (
            "split by regions(b) bound by \"one\"",
            "dots(board(1, 3))",
            "gave a string, not an integer from 0",
        ),
        (
            "split by regions(b) order by -1",
            "dots(board(1, 12))",
            "gave -1, not an integer from 0",
        ),
        (
            "split by regions(b) value by [1]",
            "dots(board(1, 3))",
            "gave a list, not an integer from 0",
        ),
        (
            "split by regions(b) bound by 1",
            "dots(board(\"..\")) + dots(board(\"...\"))",
            "",
        ),
    ] {
        let src = format!("ruleset dots(b) {header} {rules}{call}");
        let (_, err, _) = run(&src);
        if says.is_empty() {
            assert_eq!(err, None, "{src}");
            continue;
        }
        let err = err.unwrap_or_else(|| panic!("no error for {src}"));
        assert!(err.contains("E0121") && err.contains(says), "{src}\n{err}");
    }
}
