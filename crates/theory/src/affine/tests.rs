//! Engine tests against the seed's worked examples, the digest's tables and
//! the brute-force outcome oracle, on the toy store.

use super::toy::{Toy, ToyError};
use super::*;

type Engine = AffineEngine<u32>;

fn nim(n: u32) -> AffineValue {
    AffineValue::Nimber(n)
}

/// `0 = {∞̄ | ∞}`.
fn literal_zero(t: &mut Toy) -> u32 {
    let (i, j) = (t.inf(), t.neg_inf());
    t.form(&[j], &[i])
}

fn explain_str(e: &mut Engine, t: &mut Toy, g: u32) -> String {
    e.explain(t, g).unwrap().to_string()
}

#[test]
fn seed_moon_forms() {
    let mut t = Toy::new();
    let mut e = Engine::new();
    let (inf, ninf) = (t.inf(), t.neg_inf());
    // {∞ | ∞̄}
    let moon = t.form(&[inf], &[ninf]);
    assert_eq!(e.value(&mut t, moon), Ok(AffineValue::Moon));
    assert_eq!(
        explain_str(&mut e, &mut t, moon),
        "S = ∅, P = nim: ∞ is an option, so G = ☾"
    );
    // {{∞ | 0}, 0 | {0 | ∞̄}, 0}, with both zeros.
    for zero in [t.nim(0), literal_zero(&mut t)] {
        let check = t.form(&[inf], &[zero]);
        let g = t.symmetric(&[check, zero]);
        assert_eq!(e.value(&mut t, g), Ok(AffineValue::Moon));
        assert_eq!(
            explain_str(&mut e, &mut t, g),
            "S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾"
        );
    }
    // {*2, {∞ | *2} | *2, {*2 | ∞̄}}
    let s2 = t.nim(2);
    let check = t.form(&[inf], &[s2]);
    let g = t.symmetric(&[s2, check]);
    assert_eq!(
        explain_str(&mut e, &mut t, g),
        "S = {2}, P = nim∖{2}: S ∪ P = nim, so G = ☾"
    );
    assert_eq!(
        format!("{:#}", e.explain(&mut t, g).unwrap()),
        "S = {2}, P = nim\\{2}: S u P = nim, so G = moon"
    );
    // 0 = {∞̄ | ∞}, and the usual mex without infinities.
    let z = literal_zero(&mut t);
    assert_eq!(e.value(&mut t, z), Ok(nim(0)));
    for n in 0..6 {
        let g = t.nim(n);
        assert_eq!(e.value(&mut t, g), Ok(nim(n)));
    }
    let s1 = t.nim(1);
    let s3 = t.nim(3);
    let g = t.symmetric(&[s1, s3]);
    assert_eq!(e.value(&mut t, g), Ok(nim(0)));
    assert_eq!(
        explain_str(&mut e, &mut t, g),
        "S = {1, 3}, P = ∅: mex(S ∪ P) = 0, so G = 0"
    );
}

/// Top Entails stacks `0..=limit` as literal forms:
/// `n = { ℓ+m, {∞ | (n−1)^R} | ℓ+m, {(n−1)^L | ∞̄} }`, `0 = {∞̄ | ∞}`.
fn top_entails_forms(t: &mut Toy, limit: usize) -> Vec<u32> {
    let mut stacks = vec![literal_zero(t)];
    for n in 1..=limit {
        let mut left = Vec::new();
        for l in 1..=n / 2 {
            left.push(t.add(&[stacks[l], stacks[n - l]]).unwrap());
        }
        let mut right = left.clone();
        left.push(t.entail_left(stacks[n - 1]));
        right.push(t.entail_right(stacks[n - 1]));
        stacks.push(t.form(&left, &right));
    }
    stacks
}

const TABLE_40: [(&str, &str, &str); 41] = [
    ("∅", "∅", "0"),
    ("∅", "nim", "☾"),
    ("∅", "∅", "0"),
    ("∅", "nim", "☾"),
    ("{0}", "∅", "*"),
    ("∅", "nim∖{0}", "0"),
    ("{1}", "{0}", "*2"),
    ("{0}", "nim∖{0, 1}", "*"),
    ("{0, 2}", "{1}", "*3"),
    ("{1}", "nim∖{0, 1, 2}", "0"),
    ("{0, 3}", "{0, 2}", "*"),
    ("{0, 2}", "nim∖{0, 2, 3}", "*3"),
    ("{0, 1, 2}", "{3}", "*4"),
    ("{1, 3}", "nim∖{0, 1, 2, 3}", "0"),
    ("{0, 1, 4}", "{0, 2}", "*3"),
    ("{0, 1, 2}", "nim∖{0, 1, 2, 4}", "*4"),
    ("{0, 1, 3, 5}", "{4}", "*2"),
    ("{0, 1, 3, 4}", "nim∖{0, 1, 3, 4, 5}", "*5"),
    ("{0, 2, 6}", "{5}", "*"),
    ("{0, 1, 2, 3, 5}", "nim∖{0, 2, 5, 6}", "*6"),
    ("{0, 1, 3, 4, 7}", "{6}", "*2"),
    ("{2, 3, 4, 6}", "nim∖{0, 1, 3, 4, 6, 7}", "0"),
    ("{0, 2, 5}", "{0, 1, 7}", "*3"),
    ("{0, 1, 3, 7}", "nim∖{0, 1, 2, 5, 7}", "*2"),
    ("{0, 1, 2, 3, 4, 6}", "{2, 5}", "*7"),
    ("{0, 1, 2, 4, 5, 6}", "nim∖{0, 1, 2, 3, 4, 5, 6}", "*3"),
    ("{0, 2, 3, 5, 7}", "{3}", "*"),
    ("{0, 1, 2, 3, 4, 5}", "nim∖{0, 2, 3, 5, 7}", "*7"),
    ("{0, 1, 2, 4, 6}", "{7}", "*3"),
    ("{0, 1, 2, 3, 7}", "nim∖{0, 1, 2, 4, 6, 7}", "*4"),
    ("{0, 1, 3, 5}", "{4, 6}", "*2"),
    ("{1, 2, 3, 4, 6}", "nim∖{0, 1, 3, 4, 5, 6}", "0"),
    ("{0, 1, 2, 3, 4, 6, 7}", "{0, 5}", "*8"),
    ("{0, 2, 3, 4, 5, 7}", "nim∖{0, 1, 2, 3, 4, 5, 6, 7}", "*"),
    ("{0, 1, 2, 3, 4, 6, 7, 8}", "{1, 6}", "*5"),
    ("{1, 2, 3, 4, 6}", "nim∖{0, 1, 2, 3, 4, 6, 7, 8}", "0"),
    ("{0, 2, 3, 4, 5, 7, 9}", "{0, 7, 8}", "*"),
    (
        "{0, 1, 2, 3, 6, 7, 8}",
        "nim∖{0, 2, 3, 4, 5, 7, 8, 9}",
        "*4",
    ),
    ("{0, 1, 2, 3, 4, 5, 6, 10}", "{4, 5, 9}", "*7"),
    (
        "{0, 1, 2, 3, 4, 5, 6, 9}",
        "nim∖{0, 1, 2, 3, 4, 5, 6, 9, 10}",
        "*10",
    ),
    ("{0, 2, 3, 5, 6, 7, 11}", "{10}", "*"),
];

/// Digest §2.3, n = 0..200 (m = ☾).
const SEQ_200: &str =
    "0 m 0 m 1 0 2 1 3 0 1 3 4 0 3 4 2 5 1 6 2 0 3 2 7 3 1 7 3 4 2 0 8 1 5 0 1 4 7 10 1
6 2 9 3 0 5 3 4 2 11 3 2 5 3 6 5 0 6 1 5 10 1 14 5 4 2 0 8 1 12 0 10 1 2 7 9 3 5 9 3
12 2 13 4 2 13 1 11 5 8 3 12 0 16 1 2 5 1 6 2 18 6 0 7 1 4 0 2 3 11 5 15 3 5 7 4 9 2
13 4 6 2 7 3 0 8 18 4 0 13 1 11 5 16 6 5 8 1 9 5 1 4 7 5 13 11 5 13 18 12 7 16 4 2 5
16 6 5 15 6 9 7 1 4 7 10 6 11 5 2 9 12 7 13 3 7 10 4 14 2 13 16 17 2 8 4 0 8 18 9 0
3 14 12 0 16 9 7 8 21";

fn seq_200() -> Vec<AffineValue> {
    SEQ_200
        .split_whitespace()
        .map(|w| match w {
            "m" => AffineValue::Moon,
            n => nim(n.parse().unwrap()),
        })
        .collect()
}

#[test]
fn top_entails_fast_path_matches_tables() {
    let rows = top_entails_rows(40);
    for (n, (row, (s, p, v))) in rows.iter().zip(TABLE_40).enumerate() {
        assert_eq!(
            (
                row.immediate_nimbers.to_string(),
                row.protected_nimbers.to_string(),
                row.value.to_string()
            ),
            (s.to_string(), p.to_string(), v.to_string()),
            "n = {n}"
        );
    }
    let seq = seq_200();
    assert_eq!(seq.len(), 201);
    assert_eq!(top_entails_values(200), seq);
    assert_eq!(top_entails_moons(5000), vec![1, 3, 2403, 2505]);
    assert_eq!(
        top_entails_with(10_000, false, |_| true).map(|_| ()),
        Err(Stop::Interrupted)
    );
}

/// The fast path against the recurrence restated per nim-value: `x` is in
/// `C_n = nim ∖ (S_n ∪ P_n)` iff the run of stacks up to `n` whose `S` misses
/// `x` has odd length (counting a virtual stack −1 that has every value), and
/// `g(n) = min C_n`. A plain scan of every split, no packing, no threads;
/// 12 000 stacks take the fast path through several parallel blocks.
#[test]
fn top_entails_fast_path_matches_per_value_runs() {
    let limit = 12_000;
    let fast = top_entails_values(limit);
    let mut g: Vec<Option<u32>> = Vec::new();
    let mut last_seen: Vec<i64> = vec![-1; 1024];
    for n in 0..=limit {
        for l in 1..=n / 2 {
            if let (Some(a), Some(b)) = (g[l], g[n - l]) {
                last_seen[(a ^ b) as usize] = n as i64;
            }
        }
        let odd_run = |x: usize| (n as i64 - last_seen[x]) % 2 == 1;
        let value = (0..1024).find(|&x| odd_run(x)).map(|x| x as u32);
        // Values beyond the table never occur: a stack −1 leaves them all odd at even n.
        assert!(value.is_some() || n % 2 == 1, "table too small at {n}");
        g.push(value);
    }
    for (n, (f, r)) in fast.iter().zip(&g).enumerate() {
        assert_eq!(f.nimber(), *r, "n = {n}");
    }
    // A resumed run (as a session asks stack after stack), stopped once by an interrupt in the
    // middle, across block boundaries and table growth, gives the same values.
    let mut run = TopEntails::new();
    let mut polls = 0;
    let stopped = run.extend_to(9_000, None, |_| {
        polls += 1;
        polls == 3
    });
    assert_eq!(stopped, Err(Stop::Interrupted));
    assert!(run.len() < 9_000);
    for limit in [0, 1, 5, 63, 64, 2047, 2048, 2049, 5000, 9000, 12_000] {
        run.extend_to(limit, None, |_| false).unwrap();
        assert!(run.len() > limit);
    }
    for (n, r) in g.iter().enumerate() {
        assert_eq!(run.value(n).nimber(), *r, "resumed, n = {n}");
    }
}

#[test]
fn top_entails_seed_worked_values() {
    // A's items n = 1..7 (with "P_6" in item 7 read as P_7).
    let expect = [
        ("∅", "∅", "0"),
        ("∅", "nim", "☾"),
        ("∅", "∅", "0"),
        ("∅", "nim", "☾"),
        ("{0}", "∅", "*"),
        ("∅", "nim∖{0}", "0"),
        ("{1}", "{0}", "*2"),
        ("{0}", "nim∖{0, 1}", "*"),
    ];
    let mut t = Toy::new();
    let stacks = top_entails_forms(&mut t, 7);
    let mut e = Engine::new();
    for (n, (s, p, v)) in expect.iter().enumerate() {
        let x = e.explain(&mut t, stacks[n]).unwrap();
        let Explanation::Form {
            immediate_nimbers,
            protected_nimbers,
            value,
            ..
        } = x
        else {
            panic!("stack {n} is a form")
        };
        assert_eq!(immediate_nimbers.to_string(), *s, "S_{n}");
        assert_eq!(protected_nimbers.to_string(), *p, "P_{n}");
        assert_eq!(value.to_string(), *v, "value of {n}");
    }
}

#[test]
fn top_entails_literal_forms_agree() {
    let limit = 60;
    let mut t = Toy::new();
    let stacks = top_entails_forms(&mut t, limit);
    let mut e = Engine::new();
    let rows = top_entails_rows(limit);
    let seq = seq_200();
    for n in 0..=limit {
        let x = e.explain(&mut t, stacks[n]).unwrap();
        let Explanation::Form {
            immediate_nimbers,
            protected_nimbers,
            value,
            ..
        } = x
        else {
            panic!("stack {n} is a form")
        };
        assert_eq!(value, seq[n], "value of {n}");
        assert_eq!(immediate_nimbers, rows[n].immediate_nimbers, "S_{n}");
        assert_eq!(protected_nimbers, rows[n].protected_nimbers, "P_{n}");
        if n <= 40 {
            assert_eq!(protected_nimbers.to_string(), TABLE_40[n].1, "P_{n}");
        }
    }
    // Sums of stacks add (☾ absorbing).
    for (a, b) in [(4, 6), (7, 8), (1, 9), (12, 30)] {
        let s = t.add(&[stacks[a], stacks[b]]).unwrap();
        assert_eq!(e.value(&mut t, s), Ok(seq[a] + seq[b]));
        let v = e.value_of_sum(&mut t, &[stacks[a], stacks[b]]);
        assert_eq!(v, Ok(seq[a] + seq[b]));
    }
}

#[test]
fn top_entails_brute_force_small() {
    let mut t = Toy::new();
    let stacks = top_entails_forms(&mut t, 12);
    let mut o = OutcomeSearch::new();
    let seq = seq_200();
    for n in 0..=12 {
        assert_eq!(
            o.probe_value(&mut t, stacks[n], 8),
            Ok(Some(seq[n])),
            "n = {n}"
        );
    }
}

/// 3-turn-keep-nim (Suetsugu, Theorem 14): two-heap nim where landing on
/// `a + b = 3` lets the mover carry on: `carry P = {∞ | P}` (Left) and
/// `{P | ∞̄}` (Right).
fn keep_nim(t: &mut Toy, size: usize) -> Vec<Vec<u32>> {
    let mut pos = vec![vec![0u32; size]; size];
    for s in 0..2 * size - 1 {
        for x in 0..size {
            if s < x || s - x >= size {
                continue;
            }
            let y = s - x;
            let mut left = Vec::new();
            let landings = (0..x).map(|a| (a, y)).chain((0..y).map(|b| (x, b)));
            for (a, b) in landings {
                let p = pos[a][b];
                left.push(p);
                if a + b == 3 {
                    let inf = t.inf();
                    left.push(t.form(&[inf], &[p]));
                }
            }
            pos[x][y] = t.symmetric(&left);
        }
    }
    pos
}

#[test]
fn three_turn_keep_nim_theorem_14() {
    let mut t = Toy::new();
    let pos = keep_nim(&mut t, 8);
    let mut e = Engine::new();
    for x in 0..8u32 {
        for y in 0..8u32 {
            let expect = if x + y <= 3 {
                nim(x ^ y)
            } else if x.min(y) <= 3 {
                AffineValue::Moon
            } else {
                nim((x - 4) ^ (y - 4))
            };
            let g = pos[x as usize][y as usize];
            assert_eq!(e.value(&mut t, g), Ok(expect), "({x}, {y})");
        }
    }
    // Brute force for small boards.
    let mut o = OutcomeSearch::new();
    for (x, row) in pos.iter().enumerate().take(6) {
        for (y, &p) in row.iter().enumerate().take(6) {
            if x + y <= 8 {
                let v = e.value(&mut t, p).unwrap();
                assert_eq!(o.probe_value(&mut t, p, 6), Ok(Some(v)), "({x}, {y})");
            }
        }
    }
}

#[test]
fn errors_identify_the_subform() {
    let mut t = Toy::new();
    let mut e = Engine::new();
    let (inf, ninf) = (t.inf(), t.neg_inf());
    let one = t.nim(1);
    let zero = t.nim(0);
    // {0 | } is not symmetric: left option 0 has no conjugate on the right.
    let up = t.form(&[zero], &[]);
    assert_eq!(
        e.value(&mut t, up),
        Err(AffineError::NotSymmetric {
            form: up,
            side: Side::Left,
            option: zero
        })
    );
    let down = t.form(&[], &[one]);
    assert_eq!(
        e.value(&mut t, down),
        Err(AffineError::NotSymmetric {
            form: down,
            side: Side::Right,
            option: one
        })
    );
    // A bad quiet follower deep inside a check: {∞ | {0 | }} as a left option.
    let check = t.form(&[inf], &[up]);
    let g = t.symmetric(&[check]);
    assert_eq!(
        e.value(&mut t, g),
        Err(AffineError::NotSymmetric {
            form: up,
            side: Side::Left,
            option: zero
        })
    );
    // ... also when the check is refuted (Right answers ∞̄ too).
    let check = t.form(&[inf], &[ninf, up]);
    let g = t.symmetric(&[check, one]);
    assert!(
        matches!(e.value(&mut t, g), Err(AffineError::NotSymmetric { form, .. }) if form == up)
    );
    // A bad quiet follower among a check's other left options.
    let check = t.form(&[inf, up], &[one]);
    let g = t.symmetric(&[check]);
    assert!(
        matches!(e.value(&mut t, g), Err(AffineError::NotSymmetric { form, .. }) if form == up)
    );
    // Infinities.
    assert_eq!(
        e.value(&mut t, inf),
        Err(AffineError::Infinite { form: inf })
    );
    assert_eq!(
        e.value_of_sum(&mut t, &[inf, ninf]),
        Err(AffineError::UndefinedSum)
    );
    let mut o = OutcomeSearch::new();
    assert_eq!(
        o.outcome_of_sum(&mut t, &[one, inf, ninf]),
        Err(AffineError::UndefinedSum)
    );
    assert_eq!(o.outcome_of_sum(&mut t, &[one, inf]), Ok(Outcome::L));
    // The error message names the side.
    let msg = AffineError::<u32, ToyError>::NotSymmetric {
        form: 7,
        side: Side::Right,
        option: 3,
    }
    .to_string();
    assert!(msg.contains("right option 3"), "{msg}");
    // Errors leave the engine usable.
    assert_eq!(e.value(&mut t, one), Ok(nim(1)));
}

#[test]
#[ignore = "slow tier (5 s in a test build): .ci/run runs it; cargo test -- --ignored"]
fn deep_forms_do_not_overflow() {
    // G_{k+1} = {G_k | G_k}: value alternates, depth 200 000.
    let mut t = Toy::new();
    let mut g = t.nim(0);
    let depth = 200_000;
    for _ in 0..depth {
        g = t.form(&[g], &[g]);
    }
    let mut e = Engine::new();
    assert_eq!(e.value(&mut t, g), Ok(nim(depth as u32 % 2)));
    let mut o = OutcomeSearch::new();
    assert_eq!(o.outcome(&mut t, g), Ok(Outcome::P));
    // A deep check-upon-check chain: C_{k+1} = {∞ | {C_k | ∞̄}}.
    let (inf, ninf) = (t.inf(), t.neg_inf());
    let z = t.nim(0);
    let mut c = t.form(&[inf], &[z]);
    for _ in 0..50_000 {
        let r = t.form(&[c], &[ninf]);
        c = t.form(&[inf], &[r]);
    }
    let g = t.symmetric(&[c]);
    let v = e.value(&mut t, g).unwrap();
    assert_eq!(o.probe_value(&mut t, g, 4), Ok(Some(v)));
}

/// A tiny seeded generator (xorshift64*), to avoid a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Random affine impartial forms, built bottom-up from a pool: quiet options
/// from the pool (and sums), left-checks `{∞ | …}` whose answers may be
/// counter-checks `{… | ∞̄}` whose answers may be checks again.
struct Gen {
    rng: Rng,
    pool: Vec<u32>,
}

impl Gen {
    fn quiet(&mut self, t: &mut Toy) -> u32 {
        let a = self.pool[self.rng.below(self.pool.len())];
        if self.rng.chance(15) {
            let b = self.pool[self.rng.below(self.pool.len())];
            t.add(&[a, b]).unwrap()
        } else {
            a
        }
    }

    /// A left-check `{∞ | answers}` (depth bounds check upon check).
    fn left_check(&mut self, t: &mut Toy, depth: u32) -> u32 {
        let mut right = Vec::new();
        for _ in 0..self.rng.below(3) + usize::from(self.rng.chance(80)) {
            right.push(self.answer(t, depth, false));
        }
        let mut left = vec![t.inf()];
        if self.rng.chance(10) {
            left.push(self.quiet(t));
        }
        t.form(&left, &right)
    }

    /// An answer to a check: quiet, a counter-check, a still-check, or an infinity.
    fn answer(&mut self, t: &mut Toy, depth: u32, by_left: bool) -> u32 {
        let r = self.rng.below(100);
        if r < 4 {
            if by_left { t.inf() } else { t.neg_inf() }
        } else if r < 8 {
            if by_left { t.neg_inf() } else { t.inf() }
        } else if r < 35 && depth > 0 {
            // A counter-check (or a check continuing the manoeuvre).
            if by_left {
                self.left_check(t, depth - 1)
            } else {
                let l = self.left_check(t, depth - 1);
                t.conj(l)
            }
        } else if r < 40 && depth > 0 {
            // Still a check of the same player: loses to the infinity.
            let c = self.left_check(t, depth - 1);
            if by_left { t.conj(c) } else { c }
        } else {
            self.quiet(t)
        }
    }

    fn form(&mut self, t: &mut Toy) -> u32 {
        let mut left = Vec::new();
        for _ in 0..self.rng.below(4) {
            let r = self.rng.below(100);
            left.push(if r < 2 {
                t.inf()
            } else if r < 4 {
                t.neg_inf()
            } else if r < 35 {
                self.left_check(t, 2)
            } else if r < 40 {
                let c = self.left_check(t, 1);
                t.conj(c)
            } else {
                self.quiet(t)
            });
        }
        t.symmetric(&left)
    }
}

#[test]
fn random_forms_match_brute_force() {
    let mut t = Toy::new();
    let zero = literal_zero(&mut t);
    let mut g = Gen {
        rng: Rng(0x9e37_79b9_7f4a_7c15),
        pool: vec![t.nim(0), zero, t.nim(1), t.nim(2)],
    };
    let mut e = Engine::new();
    let mut o = OutcomeSearch::new();
    let (mut moons, mut nimbers, mut checked) = (0, 0, 0);
    for i in 0..2000 {
        let f = g.form(&mut t);
        let v = e.value(&mut t, f).unwrap();
        // Values here stay small; 10 leaves a margin.
        assert_eq!(o.probe_value(&mut t, f, 10), Ok(Some(v)), "form {f} (#{i})");
        checked += 1;
        match v {
            AffineValue::Moon => moons += 1,
            _ => nimbers += 1,
        }
        // A small pool of shallow forms keeps the brute force fast.
        if g.pool.len() < 20 {
            g.pool.push(f);
        }
    }
    assert!(
        moons > 30 && nimbers > 30,
        "{moons} moons, {nimbers} nimbers of {checked}"
    );
}

#[test]
fn random_sums_add() {
    let mut t = Toy::new();
    let mut g = Gen {
        rng: Rng(0x1234_5678_9abc_def1),
        pool: vec![t.nim(0), t.nim(1), t.nim(2)],
    };
    let mut e = Engine::new();
    let mut o = OutcomeSearch::new();
    let mut forms = Vec::new();
    for _ in 0..60 {
        let f = g.form(&mut t);
        forms.push(f);
        if g.pool.len() < 20 {
            g.pool.push(f);
        }
    }
    for i in 0..300 {
        let a = forms[g.rng.below(forms.len())];
        let b = forms[g.rng.below(forms.len())];
        let s = t.add(&[a, b]).unwrap();
        let va = e.value(&mut t, a).unwrap();
        let vb = e.value(&mut t, b).unwrap();
        let vs = e.value(&mut t, s).unwrap();
        assert_eq!(vs, va + vb);
        if i % 4 == 0 {
            // The sum as one position, by brute force.
            assert_eq!(o.probe_value(&mut t, s, 12), Ok(Some(vs)), "{a} + {b}");
        }
    }
}
