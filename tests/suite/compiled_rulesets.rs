//! A differential test of the ruleset compiler. Random rulesets (over a list, a tuple of two
//! integers, guards, generators, sums, `entail` and `carry` options) are written as Loony source;
//! a straightforward evaluator here lists every position's options itself and writes each
//! position out as a literal form (`{L | R}`, entailing options spelled `{∞ | …}`), so Loony
//! values those without its ruleset path. The two values must agree for every position.

use crate::common;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Plain,
    Entail,
    Carry,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Plain => "",
            Kind::Entail => "entail ",
            Kind::Carry => "carry ",
        }
    }
}

/// One rule of the generated ruleset `r(s, (x, y))`.
#[derive(Clone, Debug)]
enum Rule {
    /// `for k in s if k <= x => r(s, (x - k, y))` (or on y).
    Take { on_y: bool, kind: Kind },
    /// `for a in 1..x if a <= x - a => r(s, (a, y)) + r(s, (x - a, y))`
    Split { kind: Kind },
    /// `if x + y > c and y >= 1 => r(s, (x, y - 1))`
    Guard { c: i64, kind: Kind },
    /// `if x > y => r(s, (y, x))` (the sum of the pair stays, but only downhill in x − y)
    Swap { kind: Kind },
    /// `for t in 0..y if (t + x) % m == 0 => r(s, (x, t)) + *len(s)`
    Mixed { m: i64, kind: Kind },
}

/// How positions are written: `r(s, (x, y))` (a list and a tuple), `r(x, y)` with the set
/// written out in the rules, `r(s, x, y)` (a list passed on, integers: the rules' register
/// code when no rule needs more), `r(x, y, s)` (the list passed on last, so positions are
/// kept with `y` moved last), `r((x, y), s)` (the tuple kept in place and moved last), or
/// `r(s, [x, y])` (a list kept in place: the rules read `x` and `y` out of it).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Tuple,
    Literal,
    List,
    Last,
    TupleLast,
    ListState,
}

struct Style<'a> {
    form: Form,
    set: &'a [i64],
}

impl Style<'_> {
    fn pos(&self, x: &str, y: &str) -> String {
        match self.form {
            Form::Tuple => format!("r(s, ({x}, {y}))"),
            Form::Literal => format!("r({x}, {y})"),
            Form::List => format!("r(s, {x}, {y})"),
            Form::Last => format!("r({x}, {y}, s)"),
            Form::TupleLast => format!("r(({x}, {y}), s)"),
            Form::ListState => format!("r(s, [{x}, {y}])"),
        }
    }

    fn set(&self) -> String {
        match self.form {
            Form::Literal => format!("{:?}", self.set),
            _ => "s".into(),
        }
    }

    fn head(&self) -> &'static str {
        match self.form {
            Form::Tuple => "r(s, (x, y))",
            Form::Literal => "r(x, y)",
            Form::List => "r(s, x, y)",
            Form::Last => "r(x, y, s)",
            Form::TupleLast => "r((x, y), s)",
            Form::ListState => "r(s, h)",
        }
    }

    fn call(&self, s: &[i64], x: i64, y: i64) -> String {
        match self.form {
            Form::Tuple => format!("r({s:?}, ({x}, {y}))"),
            Form::Literal => format!("r({x}, {y})"),
            Form::List => format!("r({s:?}, {x}, {y})"),
            Form::Last => format!("r({x}, {y}, {s:?})"),
            Form::TupleLast => format!("r(({x}, {y}), {s:?})"),
            Form::ListState => format!("r({s:?}, [{x}, {y}])"),
        }
    }
}

impl Rule {
    fn source(&self, st: &Style) -> String {
        let set = st.set();
        match self {
            Rule::Take { on_y: false, kind } => format!(
                "for k in {set} if k <= x => {}{}",
                kind.prefix(),
                st.pos("x - k", "y")
            ),
            Rule::Take { on_y: true, kind } => format!(
                "for k in {set} if k <= y => {}{}",
                kind.prefix(),
                st.pos("x", "y - k")
            ),
            Rule::Split { kind } => format!(
                "for a in 1..x if a <= x - a => {}({} + {})",
                kind.prefix(),
                st.pos("a", "y"),
                st.pos("x - a", "y")
            ),
            Rule::Guard { c, kind } => format!(
                "if x + y > {c} and y >= 1 => {}{}",
                kind.prefix(),
                st.pos("x", "y - 1")
            ),
            Rule::Swap { kind } => format!("if x > y => {}{}", kind.prefix(), st.pos("y", "x")),
            Rule::Mixed { m, kind } => format!(
                "for t in 0..y if (t + x) % {m} == 0 => {}({} + *len({set}))",
                kind.prefix(),
                st.pos("x", "t")
            ),
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Rule::Take { kind, .. }
            | Rule::Split { kind }
            | Rule::Guard { kind, .. }
            | Rule::Swap { kind }
            | Rule::Mixed { kind, .. } => *kind,
        }
    }
}

/// A rule's source with `x` and `y` read out of the list `h` (`h[0]`, `h[1]`).
fn indexed(rule: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in rule.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(match word.as_str() {
            "x" => "h[0]",
            "y" => "h[1]",
            w => w,
        });
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// An option: its kind and its parts (positions, plus a nim heap).
type Opt = (Kind, Vec<(i64, i64)>, u32);

/// The reference evaluator: the options of position `(x, y)`.
fn options(rules: &[Rule], s: &[i64], x: i64, y: i64) -> Vec<Opt> {
    let mut out = Vec::new();
    for r in rules {
        let kind = r.kind();
        match r {
            Rule::Take { on_y: false, .. } => {
                for &k in s {
                    if k <= x {
                        out.push((kind, vec![(x - k, y)], 0));
                    }
                }
            }
            Rule::Take { on_y: true, .. } => {
                for &k in s {
                    if k <= y {
                        out.push((kind, vec![(x, y - k)], 0));
                    }
                }
            }
            Rule::Split { .. } => {
                for a in 1..x {
                    if a <= x - a {
                        out.push((kind, vec![(a, y), (x - a, y)], 0));
                    }
                }
            }
            Rule::Guard { c, .. } => {
                if x + y > *c && y >= 1 {
                    out.push((kind, vec![(x, y - 1)], 0));
                }
            }
            Rule::Swap { .. } => {
                if x > y {
                    out.push((kind, vec![(y, x)], 0));
                }
            }
            Rule::Mixed { m, .. } => {
                for t in 0..y {
                    if (t + x) % m == 0 {
                        out.push((kind, vec![(x, t)], s.len() as u32));
                    }
                }
            }
        }
    }
    out
}

fn name((x, y): (i64, i64)) -> String {
    format!("p_{x}_{y}")
}

/// An option's game as a Loony expression over the position names.
fn game(parts: &[(i64, i64)], nim: u32) -> String {
    let mut terms: Vec<String> = parts.iter().map(|&p| name(p)).collect();
    if nim > 0 {
        terms.push(format!("*{nim}"));
    }
    if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ")
    }
}

/// The moves of a sum of positions and a nim heap: one part moves (plain options only, as the
/// entailing ones are checks of their own part).
fn sum_moves(rules: &[Rule], s: &[i64], parts: &[(i64, i64)], nim: u32) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..parts.len() {
        let (x, y) = parts[i];
        for (kind, sub, n) in options(rules, s, x, y) {
            let mut rest: Vec<(i64, i64)> = parts.to_vec();
            rest.remove(i);
            rest.extend(sub);
            let g = game(&rest, nim ^ n);
            out.push(match kind {
                Kind::Plain => g,
                // In a sum, a check stays a check of that part: written with the part's form.
                _ => "__check__".to_string(),
            });
        }
    }
    for k in 0..nim {
        out.push(game(parts, k));
    }
    out
}

fn literal(rules: &[Rule], s: &[i64], x: i64, y: i64) -> Option<String> {
    let mut left = Vec::new();
    let mut right = Vec::new();
    for (kind, parts, nim) in options(rules, s, x, y) {
        let g = game(&parts, nim);
        match kind {
            Kind::Plain => {
                left.push(g.clone());
                right.push(g);
            }
            Kind::Carry => {
                left.push(format!("{{∞ | {g}}}"));
                right.push(format!("{{{g} | ∞̄}}"));
            }
            Kind::Entail => {
                // Right must answer inside the option: its answers are the option's moves.
                let moves = sum_moves(rules, s, &parts, nim);
                if moves.iter().any(|m| m == "__check__") {
                    return None;
                }
                let m = moves.join(", ");
                left.push(format!("{{∞ | {m}}}"));
                right.push(format!("{{{m} | ∞̄}}"));
            }
        }
    }
    Some(format!("{{{} | {}}}", left.join(", "), right.join(", ")))
}

#[test]
fn compiled_rulesets_agree_with_a_reference_evaluator() {
    let mut rng = Rng(0x5DEE_CE66_D1CE_B00C);
    let mut compared = 0;
    let mut entailing = 0;
    for case in 0..90 {
        let kinds = [
            Kind::Plain,
            Kind::Plain,
            Kind::Plain,
            Kind::Entail,
            Kind::Carry,
        ];
        let mut kind = || kinds[rng.below(kinds.len() as u64) as usize];
        let mut rules = vec![Rule::Take {
            on_y: false,
            kind: Kind::Plain,
        }];
        let extra: Vec<Rule> = vec![
            Rule::Take {
                on_y: true,
                kind: kind(),
            },
            Rule::Split { kind: kind() },
            Rule::Guard { c: 3, kind: kind() },
            Rule::Swap { kind: kind() },
            Rule::Mixed { m: 2, kind: kind() },
        ];
        for r in extra {
            if rng.below(2) == 0 {
                rules.push(r);
            }
        }
        let s: Vec<i64> = match rng.below(3) {
            0 => vec![1, 2],
            1 => vec![1, 3],
            _ => vec![2, 3, 5],
        };
        let n = 6;
        // The literal forms, smallest first (every option is smaller in x + y, or a swap).
        let mut order: Vec<(i64, i64)> =
            (0..=n).flat_map(|x| (0..=n).map(move |y| (x, y))).collect();
        order.sort_by_key(|&(x, y)| (x + y, (x - y).abs(), x > y));
        let mut defs = String::new();
        let mut ok = true;
        for &(x, y) in &order {
            match literal(&rules, &s, x, y) {
                Some(f) => defs.push_str(&format!("let {} = {f}\n", name((x, y)))),
                None => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let style = Style {
            form: [
                Form::Tuple,
                Form::Literal,
                Form::List,
                Form::Last,
                Form::TupleLast,
                Form::ListState,
            ][case % 6],
            set: &s,
        };
        let body: Vec<String> = rules
            .iter()
            .map(|r| {
                let rule = r.source(&style);
                // A list has no pattern: its elements are bound by one-element generators, or
                // read where they are used.
                match style.form {
                    Form::ListState if case / 6 % 2 == 0 => {
                        format!("  for x in [h[0]] for y in [h[1]] {rule}\n")
                    }
                    Form::ListState => format!("  {}\n", indexed(&rule)),
                    _ => format!("  {rule}\n"),
                }
            })
            .collect();
        let head = style.head();
        // Compare position by position so a failure names it.
        let mut src2 = format!("ruleset {head} {{\n{}}}\n{defs}", body.join(""));
        for &(x, y) in &order {
            let pos = style.call(&s, x, y);
            src2.push_str(&format!("[{pos}, {}]\n", name((x, y))));
        }
        let out = common::run_named("ruleset.cgt", &src2);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), order.len(), "case {case}:\n{src2}\n{out}");
        for (i, l) in lines.iter().enumerate() {
            let inner = l.trim_start_matches('[').trim_end_matches(']');
            let (a, b) = inner.split_once(", ").expect("two values");
            assert_eq!(
                a,
                b,
                "case {case}, position {:?}:\n{}\n{out}",
                order[i],
                body.join("")
            );
            compared += 1;
        }
        if rules.iter().any(|r| r.kind() != Kind::Plain) {
            entailing += 1;
        }
    }
    eprintln!("compared {compared}, entailing rulesets {entailing}");
    assert!(compared > 1500, "compared {compared}");
    assert!(entailing > 10, "entailing rulesets {entailing}");
}

/// The register code's arithmetic against Rust's Euclidean operations: signs on both sides,
/// and remainders within one turn of the divisor (which skip the division) and past it.
#[test]
fn register_code_arithmetic_is_euclidean() {
    let mut src = String::from(
        "ruleset r(a, b, c) {\n  if c == 0 => r(a % b, a / b, 1)\n  \
         if c == 3 => r((a - b + 7) % b, -a * b + a, 2)\n}\n",
    );
    let mut want = String::new();
    for a in -20i64..=20 {
        for b in [-7i64, -3, -1, 1, 2, 3, 5, 9, 20] {
            src.push_str(&format!(
                "options(r({a}, {b}, 0))\noptions(r({a}, {b}, 3))\n"
            ));
            want.push_str(&format!(
                "[r({}, {}, 1)]\n[r({}, {}, 2)]\n",
                a.rem_euclid(b),
                a.div_euclid(b),
                (a - b + 7).rem_euclid(b),
                -a * b + a
            ));
        }
    }
    assert_eq!(common::run_named("arith.cgt", &src), want);
}

/// A comprehension is compiled where it pays (a statement's own, or one walking a long range
/// inside a function: names to slots, ruleset calls to keys, a comparison with a row's
/// position read from the row's table); the interpreter alone evaluates the same program as
/// the reference. Both must print the same values, or the same diagnostic, for each case.
#[test]
fn compiled_comprehensions_agree_with_the_interpreter() {
    let prelude = "\
        ruleset wu(n, s, i) { if i != 0 for m in s => wu(n, s, (i - m + n) % n) }\n\
        ruleset k(n) { for a in 0..n if a <= n - 1 - a => k(a) + k(n - 1 - a)\n\
        for a in 0..n if a <= n - 2 - a => k(a) + k(n - 2 - a) }\n\
        ruleset t(x) { if x > 0 => t(x - 1)\n if x > 1 => entail t(x - 2) }\n\
        ruleset pair(p) { for a in 0..p[0] => pair((a, p[1])) }\n\
        fn twice(x) = 2 * x\n\
        fn zeros(n, s) = [i for i in 0..n if wu(n, s, i) == 0]\n\
        fn kays(n, c) = len([j for j in 0..=n if k(j) == *c])\n\
        fn shift(n, d) = [let d = d + 1 in i * d for i in 0..n if i % 97 == 0]\n\
        fn nested(n) = [[j for j in 0..n if j % 101 == i] for i in 0..3]\n\
        fn short(n) = [i for i in 0..n if wu(n, [1, 2], i) != 0]\n\
        fn bad(n, e) = [i for i in 0..n if i == n - 1 and 1 / e == 0]\n\
        fn odd(n) = [i for i in 0..n if i]\n\
        let m = 7\n\
        let g = *3\n";
    let values = [
        // A row's positions compared with games, both ways round, before and after the row
        // is valued (the first element values it).
        "[i for i in 0..30 if wu(30, [1, 3, 4], i) == 0]",
        "[i for i in 0..30 if wu(30, [1, 3, 4], i) != 0]",
        "[i for i in 0..30 if 0 == wu(30, [1, 3, 4], i)]",
        "[i for i in 0..30 if *2 == wu(30, [1, 2, 5], i)]",
        "[wu(30, [1, 3, 4], i) == wu(30, [1, 3, 4], (i + 1) % 30) for i in 0..30]",
        "[wu(12, [2, 5], i) == g for i in 0..12]",
        "[(i, wu(12, [2, 5], i)) for i in 0..12 if wu(12, [2, 5], i) != wu(12, [5, 2], i)]",
        "[i for i in 0..10 if wu(10, [1, 3], i) == ∞(∅)]",
        "[wu(10, [1, 3], i + 2) for i in 0..3]",
        // Other rulesets: sums, entailing moves, tuples, a row of kayles.
        "[k(n) for n in 0..20]",
        "len([n for n in 0..40 if k(n) == 0])",
        "[n for n in 0..8 if t(n) == ☾]",
        "[t(n) == t(n + 2) for n in 0..6]",
        "[pair((a, b)) for a in 0..3 for b in 0..2 if a != b]",
        "[pair((a, 1)) == *a for a in 0..4]",
        // The language around them: clauses, patterns, guards, let, built-ins, functions,
        // nested comprehensions, globals.
        "[(a, b) for a in 0..=3 for b in [a, m] if (a + b) % 2 == 1]",
        "[a * b for (a, b) in [(1, 2), (3, 4), (5, 6)]]",
        "[let y = x * x in y - m for x in 0..5]",
        "[twice(x) + max([x, m]) for x in 0..10 if x % 3 != 0]",
        "[[j for j in 0..i] for i in 0..4]",
        "[x for x in [i * i for i in 0..6] if x > m]",
        // Inside functions: long ranges are compiled with the function's names in slots,
        // short ones interpreted.
        "zeros(300, [1, 3, 4])",
        "[len(zeros(n, [2, 5])) for n in 290..293]",
        "kays(400, 1)",
        "shift(500, 3)",
        "nested(300)",
        "short(5)",
        "short(300)[0..5]",
        "sum([n for n in 0..1000 if n % 7 == 0])",
        "[*n for n in 0..4]",
        "[-x for x in [1, *2, 3]]",
    ];
    // Errors, each where the interpreter puts it.
    let errors = [
        "bad(300, 0)",
        "odd(300)",
        "zeros(300, \"s\")",
        "[i for i in 0..10 if wu(10, [1, 3], i) == [1]]",
        "[i for i in 0..10 if wu(10, [1, 3], i) == *[0]]",
        "[pair((a, 1)) == a for a in 0..4]",
        "[x for x in \"abc\"]",
        "[i for i in 0..10 if wu(10, [1, 3], i) == \"a\"]",
        "[i for i in 0..10 if \"a\" == wu(10, [1, 3], i)]",
        "[i for i in 0..10 if wu(10, [1, 3], i) == {1 | 0}]",
        "[i for i in 0..10 if wu(10, [1, 3], i) == nosuch]",
        "[i for i in 0..10 if wu(10, \"s\", i) == 0]",
        "[i for i in 0..10 if wu(10, [1, 3], i, 4) == 0]",
        "[i for i in \"a\"..3]",
        "[i for i in 0..\"b\"]",
        "[i for i in 0..=9223372036854775807]",
        "[i for i in 0..3 if i]",
        "[x for (a, b) in [1, 2]]",
        "[zzz for i in 0..3]",
        "[i * 9223372036854775807 for i in 0..3]",
        "[i / 0 for i in 0..3]",
        "[*(-i) for i in 0..3]",
        "[k(n, 1) for n in 0..3]",
        "[k(\"n\") for n in 0..3]",
        "[t(n) + 1 for n in 0..3]",
    ];
    let mut failures = Vec::new();
    for (case, error) in values
        .iter()
        .map(|c| (c, false))
        .chain(errors.iter().map(|c| (c, true)))
    {
        let src = format!("{prelude}{case}\n");
        let compiled = common::run_compiling("c.cgt", &src, true);
        let interpreted = common::run_compiling("c.cgt", &src, false);
        if compiled != interpreted {
            failures.push(format!(
                "{case}\ncompiled:\n{compiled}interpreted:\n{interpreted}"
            ));
        } else if compiled.contains("error[") != error {
            failures.push(format!(
                "{case}: an error was {}expected:\n{compiled}",
                if error { "" } else { "not " }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A domino rule (Cram as `std/cram` writes it) is expanded on bit masks (`compile/domino.rs`);
/// the same rule with a clause that changes nothing (`if true`) runs as written, each with the
/// pairs in reading order and `centre_first`. Their options must be the same parts in the same
/// order: on boards of 1 to 132 cells (past 64 cells on two
/// words, past 128 as written), with two kinds of free cell and with none (both as written);
/// and their nimbers and misère outcomes the same on small boards.
#[test]
fn domino_rules_on_masks_list_the_options_as_written() {
    let mut rng = Rng(0xD0_31_70);
    let rules = "ruleset fast(b) split by regions(b) canonical by canonical(b) {
  for (p, q) in adjacent_pairs(b, \".\") => fast(set(b, [p, q], \"#\"))
}
ruleset slow(b) split by regions(b) canonical by canonical(b) {
  for (p, q) in adjacent_pairs(b, \".\") if true => slow(set(b, [p, q], \"#\"))
}
ruleset fast_centre(b) split by regions(b) canonical by canonical(b) {
  for (p, q) in centre_first(b, adjacent_pairs(b, \".\")) => fast_centre(set(b, [p, q], \"#\"))
}
ruleset slow_centre(b) split by regions(b) canonical by canonical(b) {
  for (p, q) in centre_first(b, adjacent_pairs(b, \".\")) if true => slow_centre(set(b, [p, q], \"#\"))
}
";
    let (mut fast, mut slow) = (rules.to_string(), String::new());
    let shapes = [
        (1, 1),
        (1, 9),
        (3, 4),
        (4, 4),
        (5, 7),
        (8, 8),
        (9, 9),
        (8, 16),
        (11, 12),
    ];
    for k in 0..54 {
        let (rows, cols) = shapes[k % shapes.len()];
        let b = random_board(&mut rng, (rows, cols), k, b"#..");
        fast.push_str(&format!("options(fast({b}))\n"));
        slow.push_str(&format!("options(slow({b}))\n"));
        fast.push_str(&format!("options(fast_centre({b}))\n"));
        slow.push_str(&format!("options(slow_centre({b}))\n"));
        if rows * cols <= 16 {
            for q in ["nimber", "misere_outcome"] {
                fast.push_str(&format!("{q}(fast({b}))\n"));
                slow.push_str(&format!("{q}(slow({b}))\n"));
            }
        }
    }
    same_as_written(rules, &fast, &slow, 60, ") + fast(");
}

/// A Node Kayles rule (as `std/node_kayles` writes it) is expanded on vertex masks
/// (`compile/kayles.rs`); the same rule with a clause that changes nothing (`if true`) runs
/// as written. Their options must be the same parts in the same order, at the top (a graph
/// as met) and one move down (parts found as masks of it): on random graphs of 1 to 140
/// vertices (past 128 as written), and their nimbers and misère outcomes the same on small
/// graphs.
#[test]
fn kayles_rules_on_masks_list_the_options_as_written() {
    let mut rng = Rng(0x4B_A7_1E);
    let rules = "ruleset fast(g) split by components(g) canonical by canonical(g) {
  for v in vertices(g) => fast(remove_vertices(g, append(neighbours(g, v), v)))
}
ruleset slow(g) split by components(g) canonical by canonical(g) {
  for v in vertices(g) if true => slow(remove_vertices(g, append(neighbours(g, v), v)))
}
";
    let (mut fast, mut slow) = (rules.to_string(), String::new());
    let orders = [1, 2, 5, 8, 11, 14, 20, 33, 64, 65, 100, 128, 129, 140];
    for k in 0..42 {
        let n = orders[k % orders.len()];
        let m = rng.below(2 * n + 1) as usize;
        let edges: Vec<String> = (0..m)
            .filter_map(|_| {
                let (a, b) = (rng.below(n), rng.below(n));
                (a != b).then(|| format!("({a}, {b})"))
            })
            .collect();
        let g = format!("graph({n}, [{}])", edges.join(", "));
        fast.push_str(&format!("options(fast({g}))\n"));
        slow.push_str(&format!("options(slow({g}))\n"));
        if n <= 20 {
            fast.push_str(&format!("[options(h) for h in options(fast({g}))]\n"));
            slow.push_str(&format!("[options(h) for h in options(slow({g}))]\n"));
        }
        if n <= 14 {
            for q in ["nimber", "misere_outcome"] {
                fast.push_str(&format!("{q}(fast({g}))\n"));
                slow.push_str(&format!("{q}(slow({g}))\n"));
            }
        }
    }
    same_as_written(rules, &fast, &slow, 80, ") + fast(");
}

/// A bite rule (Chomp as `std/chomp` writes it on boards) is expanded on bit masks
/// (`compile/bite.rs`); the same rule with a clause that changes nothing (`if true`) runs as
/// written, each with the poisoned cell at the corner, elsewhere, off the board and none, and
/// with the corner and `canonical by min([b, transpose(b)])`.
/// Their options must be the same boards in the same order, at the top and one bite down
/// (boards found by their masks): on boards of 1 to 132 cells (past 64 cells on two words,
/// past 128 as written), with two kinds of free cell and with none (both as written); and
/// their nimbers and misère outcomes the same on small boards.
#[test]
fn bite_rules_on_masks_list_the_options_as_written() {
    let mut rng = Rng(0xC4_03_9B);
    let mut rules = String::new();
    for (name, guard, clause) in [
        ("", "if p != (0, 0)", ""),
        ("_far", "if p != (1, 2)", ""),
        ("_off", "if p != (40, 0)", ""),
        ("_free", "", ""),
        (
            "_turned",
            "if p != (0, 0)",
            "canonical by min([b, transpose(b)])",
        ),
    ] {
        for (which, extra) in [("fast", ""), ("slow", "if true")] {
            rules.push_str(&format!(
                "ruleset {which}{name}(b) {clause} {{\n  for p in cells(b, \".\") {guard} {extra} \
                 => {which}{name}(set(b, quadrant(b, p), \"#\"))\n}}\n"
            ));
        }
    }
    let (mut fast, mut slow) = (rules.clone(), String::new());
    let shapes = [
        (1, 1),
        (1, 9),
        (3, 4),
        (4, 4),
        (2, 7),
        (8, 8),
        (9, 9),
        (8, 16),
        (11, 12),
    ];
    for k in 0..90 {
        let (rows, cols) = shapes[k % shapes.len()];
        let b = random_board(&mut rng, (rows, cols), k, b"#...");
        let name = ["", "_far", "_off", "_free", "_turned"][k % 5];
        for which in ["fast", "slow"] {
            let out = if which == "fast" {
                &mut fast
            } else {
                &mut slow
            };
            let g = format!("{which}{name}({b})");
            out.push_str(&format!("options({g})\n"));
            if rows * cols <= 36 {
                out.push_str(&format!("[options(h) for h in options({g})]\n"));
            }
            if rows * cols <= 16 {
                for q in ["nimber", "misere_outcome"] {
                    out.push_str(&format!("{q}({g})\n"));
                }
            }
        }
    }
    same_as_written(&rules, &fast, &slow, 100, "[fast(board(");
}

/// A random board of `rows × cols` as source text: its cells drawn from `usual`, or for every
/// sixth `k` from `#.o` (two kinds of free cell), and the next from `#` (no free cell).
fn random_board(rng: &mut Rng, (rows, cols): (usize, usize), k: usize, usual: &[u8]) -> String {
    let kinds: &[u8] = match k % 6 {
        4 => b"#.o",
        5 => b"#",
        _ => usual,
    };
    let text: Vec<String> = (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| kinds[rng.below(kinds.len() as u64) as usize] as char)
                .collect()
        })
        .collect();
    format!("board(\"{}\")", text.join("|"))
}

/// `fast` (the rulesets `rules` defines, then queries of `fast(…)`) prints what `slow` (the
/// same queries of `slow(…)`) prints, in at least `lines` lines, some of them holding `seen`
/// (a sum of parts, say).
fn same_as_written(rules: &str, fast: &str, slow: &str, lines: usize, seen: &str) {
    let got = common::run_named("fast.cgt", fast);
    let want = common::run_named("slow.cgt", &(rules.to_string() + slow)).replace("slow", "fast");
    assert!(got.lines().count() > lines && got.contains(seen), "{got}");
    assert_eq!(got, want);
}
