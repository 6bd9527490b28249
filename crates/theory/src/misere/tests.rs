//! Engine tests against the digest's tables (strings and values CGSuite prints) and against
//! brute force written here.

use super::*;

fn body(s: &mut MisereStore, g: Mid) -> String {
    s.to_cgsuite_body(g).unwrap()
}

fn full(s: &mut MisereStore, g: Mid) -> String {
    s.to_cgsuite(g).unwrap()
}

fn p(s: &mut MisereStore, text: &str) -> Mid {
    s.parse_cgsuite(text).unwrap()
}

/// `{opts}` from the bodies of its options.
fn game_of(s: &mut MisereStore, opts: &[&str]) -> Mid {
    let v: Vec<Mid> = opts.iter().map(|o| p(s, o)).collect();
    s.construct(&v)
}

/// Canonical forms of heaps 0..=n of a heap game given by its moves (each move: the heaps left).
fn heaps(s: &mut MisereStore, n: usize, moves: impl Fn(usize) -> Vec<Vec<usize>>) -> Vec<Mid> {
    let mut out: Vec<Mid> = Vec::new();
    for k in 0..=n {
        let mut opts = Vec::new();
        for m in moves(k) {
            let parts: Vec<Mid> = m.iter().map(|&h| out[h]).collect();
            opts.push(s.sum(&parts).unwrap());
        }
        out.push(s.construct(&opts));
    }
    out
}

pub(super) fn kayles_moves(n: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for t in 1..=2usize {
        if t <= n {
            for a in 0..=(n - t) {
                v.push(vec![a, n - t - a]);
            }
        }
    }
    v
}

pub(super) fn dawson_moves(n: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    if n >= 2 {
        for a in 0..=(n - 2) {
            v.push(vec![a, n - 2 - a]);
        }
    }
    v
}

pub(super) fn grundy_moves(n: usize) -> Vec<Vec<usize>> {
    (1..n)
        .filter(|&a| 2 * a < n)
        .map(|a| vec![a, n - a])
        .collect()
}

#[test]
fn day_four_in_canonical_order() {
    let mut s = MisereStore::new();
    let games = s.born_by(4).unwrap();
    let names: Vec<String> = games.iter().map(|&g| body(&mut s, g)).collect();
    assert_eq!(
        names.join(", "),
        "0, 1, 2, 3, 2#, 2[#1], 3#, 2##, 2[2], 2#2, 2#0, 2#1, 2#32, 2#30, 2#20, 2#31, 2#21, \
         2#320, 2#210, 2#321, 4, 2#3210"
    );
}

#[test]
fn counts_born_by_day_up_to_four() {
    let mut s = MisereStore::new();
    let counts: Vec<u64> = (0..=4).map(|n| s.count_born_by(n).unwrap()).collect();
    assert_eq!(counts, [1, 2, 3, 5, 22]);
    let even: Vec<usize> = (0..=4)
        .map(|n| s.born_by(n).unwrap().iter().filter(|g| !g.is_odd()).count())
        .collect();
    assert_eq!(even, [1, 1, 2, 3, 19]);
}

/// Day 5: the simplification rules on all 2²² option sets of the day-4 games (under a second;
/// timed in benches/misere.rs).
#[test]
fn count_born_by_day_five() {
    let mut s = MisereStore::new();
    assert_eq!(s.count_born_by(5).unwrap(), 4_171_780);
}

#[test]
fn strings_of_the_digest_table() {
    let mut s = MisereStore::new();
    let two = s.nim(2).unwrap();
    let cases: Vec<(Mid, &str)> = {
        let a = game_of(&mut s, &["2"]);
        let b = {
            let x = game_of(&mut s, &["2"]);
            s.construct(&[x])
        };
        let c = s.add(two, two).unwrap();
        let d = game_of(&mut s, &["4", "2"]);
        let e = {
            let x = game_of(&mut s, &["4", "2"]);
            let o = [x, s.nim(4).unwrap(), s.nim(3).unwrap(), Mid::STAR];
            s.construct(&o)
        };
        let f = game_of(&mut s, &["2#", "2", "1", "0"]);
        let star = Mid::STAR;
        let two_sharp = game_of(&mut s, &["2"]);
        let g = s.add(two_sharp, star).unwrap();
        let three = s.nim(3).unwrap();
        let h = s.add(two_sharp, three).unwrap();
        let i = s.sum(&[two, two, two]).unwrap();
        let j = s.add(two_sharp, two_sharp).unwrap();
        let four = s.nim(4).unwrap();
        let six = s.nim(6).unwrap();
        let five = s.nim(5).unwrap();
        let k = s.add(four, six).unwrap();
        let l = s.add(five, three).unwrap();
        let two_sharp_zero = game_of(&mut s, &["2#", "0"]);
        let m = s.add(two_sharp_zero, star).unwrap();
        let n = s.construct(&[m]);
        let o = game_of(&mut s, &["2##", "2#", "0"]);
        let q = s.misere_minus(two_sharp, two).unwrap();
        let two_sharp_two = game_of(&mut s, &["2#", "2"]);
        let r = s.misere_minus(two_sharp_two, two).unwrap();
        let ten = s.nim(10).unwrap();
        vec![
            (a, "*[2#]"),
            (b, "*[2##]"),
            (c, "*[2[2]]"),
            (d, "*[42]"),
            (e, "*[(42)431]"),
            (f, "*[2#210]"),
            (g, "*[2[#1]]"),
            (h, "*[2[#3]]"),
            (i, "*[2[22]]"),
            (j, "*[2[#2#]]"),
            (k, "*[6[4]]"),
            (l, "*[4[2]]"),
            (m, "*[(2#0)[1]]"),
            (n, "*[(2#0)[1#]]"),
            (o, "*[2##2#0]"),
            (q, "*[2[#-2]]"),
            (r, "*[(2#2)[-2]]"),
            (ten, "*[&10;]"),
        ]
    };
    for (g, want) in cases {
        assert_eq!(full(&mut s, g), want);
        // And the string reads back as the same game.
        assert_eq!(p(&mut s, want), g, "{want}");
    }
    // {2#} + {2#} equals {2# + *2}.
    let two_sharp = p(&mut s, "2#");
    let j = s.add(two_sharp, two_sharp).unwrap();
    let x = s.add(two_sharp, two).unwrap();
    assert_eq!(j, s.construct(&[x]));
}

#[test]
fn genus_examples() {
    let mut s = MisereStore::new();
    for (g, want) in [
        ("2#", "0^0"),
        ("2#0", "1^2"),
        ("2#1", "2^1420"),
        ("2##1", "0^2"),
        ("2##0", "2^0420"),
        ("0", "0"),
        ("1", "1"),
        ("2", "2"),
    ] {
        let x = p(&mut s, g);
        assert_eq!(s.genus(x).to_string(), want, "{g}");
    }
    // The digest lists `*[12]+*[[2]]` as 13^(13); its G⁺ is 12 ⊕ 0 = 12, so that line must be
    // about *13 + 2#. Both are checked here.
    let two_sharp = p(&mut s, "2#");
    let twelve = s.nim(12).unwrap();
    let x = s.add(twelve, two_sharp).unwrap();
    assert_eq!(s.genus(x).to_string(), "12^(12)");
    let thirteen = s.nim(13).unwrap();
    let x = s.add(thirteen, two_sharp).unwrap();
    assert_eq!(s.genus(x).to_string(), "13^(13)");
}

#[test]
fn heap_games_of_the_digest() {
    let mut s = MisereStore::new();
    let k = heaps(&mut s, 27, kayles_moves);
    assert_eq!(full(&mut s, k[5]), "*[2[2]321]");
    assert_eq!(s.genus(k[5]).to_string(), "4^146");
    assert_eq!(full(&mut s, k[8]), "*[2[3]]");
    assert_eq!(s.genus(k[8]).to_string(), "1^1");
    assert_eq!(s.genus(k[16]).to_string(), "1^13");
    assert_eq!(s.genus(k[21]).to_string(), "4^64");
    assert_eq!(s.genus(k[25]).to_string(), "1^731");
    assert_eq!(s.genus(k[27]).to_string(), "8^(8,10)");
    let d = heaps(&mut s, 33, dawson_moves);
    assert_eq!(s.genus(d[21]).to_string(), "0^02");
    assert_eq!(s.genus(d[27]).to_string(), "1^431");
    assert_eq!(s.genus(d[33]).to_string(), "7^14875");
    let minus: Vec<u32> = d[..=12].iter().map(|&g| s.nim_minus(g)).collect();
    assert_eq!(minus, [1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0]);
    let g = heaps(&mut s, 50, grundy_moves);
    assert_eq!(g[0], Mid::ZERO);
    assert_eq!(g[1], Mid::ZERO);
    assert_eq!(g[2], Mid::ZERO);
    assert_eq!(g[5], s.nim(2).unwrap());
    assert_eq!(s.genus(g[5]).to_string(), "2");
    assert_eq!(full(&mut s, g[13]), "*[2[2]21]");
    assert_eq!(s.genus(g[13]).to_string(), "3^1431");
    assert_eq!(s.genus(g[36]).to_string(), "4^02");
    assert_eq!(s.genus(g[38]).to_string(), "2^475");
    assert_eq!(s.genus(g[50]).to_string(), "0^0431");
    // The digest gives Grundy(22) as birthday 10 with 5 options (checked) and "117 characters";
    // the string below is 76. The difference is not in the game: every step of it reads back
    // (parsing recomputes each `+ *n` and part) and the digest's other lengths are off by the
    // same ~40 characters (Grundy(30): 20,861 there, 20,821 here), so it looks like a constant
    // overhead in the digest's measurement. Reported; pinned here as a regression.
    let g22 = full(&mut s, g[22]);
    assert_eq!(
        g22,
        "*[(((2[2]21)[2](2[2]21)20)(2[2]21)3)((2[2]21)[2](2[2]21)20)(2[2]21)[1]2[2]1]"
    );
    assert_eq!(s.birthday(g[22]), 10);
    assert_eq!(s.num_options(g[22]), 5);
    assert_eq!(p(&mut s, &g22), g[22]);
    let g30 = heaps(&mut s, 30, grundy_moves)[30];
    let text = full(&mut s, g30);
    assert_eq!(text.len(), 20_821);
    assert_eq!(p(&mut s, &text), g30);
}

#[test]
fn phyla_and_predicates() {
    let mut s = MisereStore::new();
    let check = |s: &mut MisereStore, g: &str, ph: Phylum, genus: &str| {
        let x = p(s, g);
        assert_eq!(s.phylum(x), ph, "{g}");
        assert_eq!(s.genus(x).to_string(), genus, "{g}");
    };
    check(&mut s, "3", Phylum::NimHeap, "3");
    check(&mut s, "2#", Phylum::HalfTame, "0^0");
    check(&mut s, "3#", Phylum::HalfTame, "0^0");
    check(&mut s, "(2#0)#", Phylum::ReversiblyTame, "0^0");
    check(&mut s, "((2#30)2[#1]2#)(2#1)[1]", Phylum::Tameable, "0^120");
    check(&mut s, "2#0", Phylum::HalfRestive, "1^2");
    check(&mut s, "2##1", Phylum::HalfRestive, "0^2");
    check(&mut s, "(2#21)2#0", Phylum::ReversiblyRestive, "1^2");
    check(&mut s, "2#1", Phylum::Restless, "2^1420");
    check(&mut s, "2##0", Phylum::Restless, "2^0420");
    check(&mut s, "(2#0)2#", Phylum::Wild, "2^13");
    let x = p(&mut s, "2#0");
    assert!(s.is_half_tame(x).unwrap());
    let x = p(&mut s, "(2#0)2#");
    assert!(s.is_half_tame(x).unwrap());
    let x = p(&mut s, "2#");
    assert!(!s.is_half_tame(x).unwrap());
    // Even and odd.
    for (g, even) in [
        ("0", true),
        ("2", true),
        ("2#", true),
        ("1", false),
        ("2[#1]", false),
    ] {
        let x = p(&mut s, g);
        assert_eq!(s.is_even(x), even, "{g}");
    }
    // Extraverted: 0 and 2# yes; 2#0 and 2#2 no.
    for (g, e) in [("0", true), ("2#", true), ("2#0", false), ("2#2", false)] {
        let x = p(&mut s, g);
        assert_eq!(s.is_extraverted(x).unwrap(), e, "{g}");
    }
    let x = p(&mut s, "2");
    assert!(s.is_prime(x).unwrap());
    let x = p(&mut s, "2#");
    assert!(!s.is_prime(x).unwrap());
    assert!(!s.is_prime(Mid::ZERO).unwrap() && !s.is_prime(Mid::STAR).unwrap());
    assert!(s.is_introverted(Mid::ZERO) && s.is_introverted(Mid::STAR));
    let x = p(&mut s, "2");
    assert!(!s.is_introverted(x));
}

#[test]
fn mates_parts_and_differences() {
    let mut s = MisereStore::new();
    let x = p(&mut s, "0");
    assert_eq!(s.mate(x).unwrap(), Mid::STAR);
    assert_eq!(s.mate(Mid::STAR).unwrap(), Mid::ZERO);
    let x = p(&mut s, "2#0");
    let m = s.mate(x).unwrap();
    assert_eq!(body(&mut s, m), "2#1");
    let x = p(&mut s, "2#");
    assert_eq!(s.mate(x).unwrap(), x);
    let parts = s.parts(x).unwrap();
    let names: Vec<String> = parts.iter().map(|&g| full(&mut s, g)).collect();
    assert_eq!(names, ["*[2]", "*[2[#-2]]"]);
    // (2# + *4) − *4 = 2#; 3# − *3 = 3[#-3]; 2## − 2# = 2[##-2]0; 2## − 4# fails.
    let four = s.nim(4).unwrap();
    let y = s.add(x, four).unwrap();
    assert_eq!(s.misere_minus(y, four).unwrap(), x);
    let three_sharp = p(&mut s, "3#");
    let three = s.nim(3).unwrap();
    let d = s.misere_minus(three_sharp, three).unwrap();
    assert_eq!(full(&mut s, d), "*[3[#-3]]");
    let tt = p(&mut s, "2##");
    let d = s.misere_minus(tt, x).unwrap();
    assert_eq!(full(&mut s, d), "*[2[##-2]0]");
    let four_sharp = p(&mut s, "4#");
    assert_eq!(
        s.misere_minus(tt, four_sharp),
        Err(MisereError::NotSubtractable(tt, four_sharp))
    );
    // Norton's example.
    let four = s.nim(4).unwrap();
    let two = s.nim(2).unwrap();
    let n = s.add(four, two).unwrap();
    let g = s.construct(&[n]);
    let ps = s.partitions(g).unwrap();
    let shown: Vec<Vec<String>> = ps
        .iter()
        .map(|p| p.iter().map(|&x| full(&mut s, x)).collect())
        .collect();
    assert_eq!(
        shown,
        [
            vec!["*[2]".to_string(), "*[4[2#-2]]".to_string()],
            vec!["*[4]".to_string(), "*[4[2#-4]]".to_string()]
        ]
    );
    assert_eq!(s.partitions(Mid::ZERO).unwrap(), vec![Vec::<Mid>::new()]);
    assert_eq!(s.partitions(Mid::STAR).unwrap(), vec![vec![Mid::STAR]]);
}

#[test]
fn links_and_distinguishers() {
    let mut s = MisereStore::new();
    let a = p(&mut s, "2#0");
    let two = s.nim(2).unwrap();
    let d = s.distinguisher(a, two).unwrap();
    assert_eq!(full(&mut s, d), "*[2#1]");
    let b = p(&mut s, "2#");
    let c = p(&mut s, "3#");
    let d = s.distinguisher(b, c).unwrap();
    assert_eq!(full(&mut s, d), "*[((3#1)31)2]");
    let tt = s.add(two, two).unwrap();
    let l = s.link(c, tt).unwrap();
    assert_eq!(full(&mut s, l), "*[3#]");
    let l = s.link(a, two).unwrap();
    assert_eq!(full(&mut s, l), "*[2]");
    let x = p(&mut s, "2##");
    assert!(s.is_linked(x, tt));
    assert!(!s.is_linked(x, b));
    assert_eq!(s.link(x, b), Err(MisereError::NotLinked(x, b)));
    assert_eq!(s.distinguisher(b, b), Err(MisereError::Identical(b)));
}

/// Independent brute force: games as plain option lists (no simplification), sums as multisets
/// of components, outcomes and misère nim values by exhaustive search of the game tree.
mod brute {
    use rustc_hash::FxHashMap;

    #[derive(Default)]
    pub struct Forms {
        pub opts: Vec<Vec<usize>>,
        minus: FxHashMap<Vec<usize>, u32>,
    }

    impl Forms {
        pub fn add(&mut self, opts: Vec<usize>) -> usize {
            self.opts.push(opts);
            self.opts.len() - 1
        }

        /// G⁻ of the sum of `parts`: 1 when no move is left, otherwise the mex over moves.
        pub fn minus(&mut self, parts: &[usize]) -> u32 {
            let mut key: Vec<usize> = parts
                .iter()
                .copied()
                .filter(|&p| !self.opts[p].is_empty())
                .collect();
            key.sort_unstable();
            if let Some(&v) = self.minus.get(&key) {
                return v;
            }
            let mut seen = Vec::new();
            for i in 0..key.len() {
                for j in 0..self.opts[key[i]].len() {
                    let mut next = key.clone();
                    next[i] = self.opts[key[i]][j];
                    seen.push(self.minus(&next));
                }
            }
            let v = if seen.is_empty() {
                1
            } else {
                (0..).find(|v| !seen.contains(v)).unwrap()
            };
            self.minus.insert(key, v);
            v
        }

        /// Misère P-position: the player to move loses.
        pub fn is_p(&mut self, parts: &[usize]) -> bool {
            self.minus(parts) == 0
        }

        /// Normal-play nim value of one form.
        pub fn plus(&self, g: usize) -> u32 {
            let mut memo = vec![None; self.opts.len()];
            self.plus_in(g, &mut memo)
        }

        fn plus_in(&self, g: usize, memo: &mut Vec<Option<u32>>) -> u32 {
            if let Some(v) = memo[g] {
                return v;
            }
            let seen: Vec<u32> = self.opts[g]
                .iter()
                .map(|&o| self.plus_in(o, memo))
                .collect();
            let v = (0..).find(|v| !seen.contains(v)).unwrap();
            memo[g] = Some(v);
            v
        }

        pub fn nim(&mut self, n: usize) -> usize {
            let heaps: Vec<usize> = (0..n).map(|k| self.nim(k)).collect();
            self.add(heaps)
        }
    }
}

use brute::Forms;

/// A random set of forms: form i has options among forms 0..i.
fn random_forms(seed: u64, n: usize, max_opts: usize) -> Forms {
    let mut f = Forms::default();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    f.add(vec![]);
    for i in 1..n {
        let k = next() % (max_opts + 1);
        let opts: Vec<usize> = (0..k).map(|_| next() % i).collect();
        f.add(opts);
    }
    f
}

/// The canonical forms of all forms, built bottom-up.
fn canonical(s: &mut MisereStore, f: &Forms) -> Vec<Mid> {
    let mut out: Vec<Mid> = Vec::new();
    for opts in &f.opts {
        let v: Vec<Mid> = opts.iter().map(|&o| out[o]).collect();
        out.push(s.construct(&v));
    }
    out
}

/// A canonical game copied into the brute-force forms.
fn export(s: &MisereStore, f: &mut Forms, g: Mid, memo: &mut FxHashMap<Mid, usize>) -> usize {
    if let Some(&i) = memo.get(&g) {
        return i;
    }
    let opts: Vec<usize> = s
        .options(g)
        .to_vec()
        .into_iter()
        .map(|o| export(s, f, o, memo))
        .collect();
    let i = f.add(opts);
    memo.insert(g, i);
    i
}

use rustc_hash::FxHashMap;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Outcomes and nim values from canonical forms against search, on random forms and sums
    /// of three of them.
    #[test]
    fn outcomes_of_random_sums_agree_with_search(seed in any::<u64>(), n in 4usize..16) {
        let mut f = random_forms(seed, n, 4);
        let mut s = MisereStore::new();
        let c = canonical(&mut s, &f);
        for a in 0..n {
            let b = (a * 7 + seed as usize % 5) % n;
            let d = (a * 3 + 1) % n;
            let sum = s.sum(&[c[a], c[b], c[d]]).unwrap();
            prop_assert_eq!(s.outcome(sum) == MisereOutcome::P, f.is_p(&[a, b, d]));
            prop_assert_eq!(s.nim_minus(c[a]), f.minus(&[a]));
            prop_assert_eq!(s.nim_plus(c[a]), f.plus(a));
        }
    }

    /// Two forms with one canonical form have the same outcome beside every form of the set;
    /// two with different canonical forms are told apart by the distinguisher (by search).
    #[test]
    fn canonical_forms_decide_equality(seed in any::<u64>()) {
        let mut f = random_forms(seed, 12, 3);
        let mut s = MisereStore::new();
        let c = canonical(&mut s, &f);
        let n = f.opts.len();
        let mut memo = FxHashMap::default();
        for g in 0..n {
            for h in (g + 1)..n {
                if c[g] == c[h] {
                    for x in 0..n {
                        prop_assert_eq!(f.is_p(&[g, x]), f.is_p(&[h, x]));
                    }
                } else if s.birthday(c[g]) + s.birthday(c[h]) <= 9 {
                    let d = s.distinguisher(c[g], c[h]).unwrap();
                    let dx = export(&s, &mut f, d, &mut memo);
                    prop_assert!(f.is_p(&[g, dx]) && !f.is_p(&[h, dx]));
                }
            }
        }
    }

    /// Cancellation: G + X = H + X exactly when G = H.
    #[test]
    fn sums_cancel(seed in any::<u64>(), g in 0usize..12, h in 0usize..12, x in 0usize..12) {
        let f = random_forms(seed, 12, 3);
        let mut s = MisereStore::new();
        let c = canonical(&mut s, &f);
        let gx = s.add(c[g], c[x]).unwrap();
        let hx = s.add(c[h], c[x]).unwrap();
        prop_assert_eq!(gx == hx, c[g] == c[h]);
    }

    /// The mate property and b(G + *) = b(G) ± 1, on random forms.
    #[test]
    fn mates_and_plus_star(seed in any::<u64>()) {
        let mut f = random_forms(seed, 10, 3);
        let mut s = MisereStore::new();
        let c = canonical(&mut s, &f);
        let mut memo = FxHashMap::default();
        for (i, &g) in c.iter().enumerate() {
            let m = s.mate(g).unwrap();
            let mr = export(&s, &mut f, m, &mut memo);
            prop_assert!(f.is_p(&[i, mr]));
            let star = f.nim(1);
            let plus = s.add(g, Mid::STAR).unwrap();
            let (b, b1) = (s.birthday(g), s.birthday(plus));
            prop_assert!(b1 == b + 1 || b1 + 1 == b);
            // And G + * as a sum of forms has the outcome of its canonical form.
            prop_assert_eq!(s.outcome(plus) == MisereOutcome::P, f.is_p(&[i, star]));
        }
    }
}

#[test]
fn links_mates_and_parity_against_search() {
    let mut s = MisereStore::new();
    let games = s.born_by(4).unwrap();
    let mut f = Forms::default();
    let mut memo = FxHashMap::default();
    let raw: Vec<usize> = games
        .iter()
        .map(|&g| export(&s, &mut f, g, &mut memo))
        .collect();
    for (i, &g) in games.iter().enumerate() {
        let m = s.mate(g).unwrap();
        let mr = export(&s, &mut f, m, &mut memo);
        assert!(f.is_p(&[raw[i], mr]), "mate of {i}");
        let plus = s.add(g, Mid::STAR).unwrap();
        let (b, b1) = (s.birthday(g), s.birthday(plus));
        assert!(b1 == b + 1 || b1 + 1 == b, "b(G + *) = b(G) ± 1");
        assert_eq!(s.is_even(g), b < b1);
        for (j, &h) in games.iter().enumerate() {
            if s.is_linked(g, h) {
                let l = s.link(g, h).unwrap();
                let lr = export(&s, &mut f, l, &mut memo);
                assert!(
                    f.is_p(&[raw[i], lr]) && f.is_p(&[raw[j], lr]),
                    "link {i} {j}"
                );
            } else {
                // One is an option of the other: from a P-position beside X the mover could
                // reach the other sum, so no X makes both P (checked on every day-4 game).
                for &x in &raw {
                    assert!(!(f.is_p(&[raw[i], x]) && f.is_p(&[raw[j], x])));
                }
            }
        }
    }
}

#[test]
fn genus_agrees_with_its_definition() {
    // γn = G⁻(G + n copies of *2), by search, for the day-4 games and their sums with *.
    let mut s = MisereStore::new();
    let mut games = s.born_by(4).unwrap();
    let extra: Vec<Mid> = games.iter().map(|&g| s.add(g, games[5]).unwrap()).collect();
    games.extend(extra);
    let mut f = Forms::default();
    let two = f.nim(2);
    let mut memo = FxHashMap::default();
    for &g in &games {
        let r = export(&s, &mut f, g, &mut memo);
        for n in 0..7 {
            let mut parts = vec![r];
            parts.extend(std::iter::repeat_n(two, n));
            assert_eq!(
                s.gamma(g, n),
                f.minus(&parts),
                "γ{n} of {}",
                body(&mut s, g)
            );
        }
        assert_eq!(s.genus(g).base, f.plus(r));
    }
}

#[test]
fn differences_and_parts_are_complete_on_sums() {
    let mut s = MisereStore::new();
    let games = s.born_by(4).unwrap();
    for &a in &games[2..] {
        for &b in &games[2..] {
            let c = s.add(a, b).unwrap();
            assert_eq!(s.misere_minus(c, a).unwrap(), b);
            for pair in s.two_partitions(c).unwrap().chunks(2) {
                assert_eq!(s.add(pair[0], pair[1]).unwrap(), c.even_part());
            }
            // Every prime partition sums back to the game.
            for p in s.partitions(c).unwrap() {
                assert_eq!(s.sum(&p).unwrap(), c);
            }
        }
    }
}

#[test]
fn notation_reads_back() {
    let mut s = MisereStore::new();
    let games = s.born_by(4).unwrap();
    let mut all = games.clone();
    for &a in &games {
        for &b in &games {
            all.push(s.add(a, b).unwrap());
            all.push(s.construct(&[a, b]));
        }
    }
    for g in all {
        let t = full(&mut s, g);
        assert_eq!(p(&mut s, &t), g, "{t}");
    }
}

/// The moves of an octal game `0.d1d2d3` written out here (independent of `theory::heap`): digit
/// `dk` lets a player remove `k` tokens leaving no heap (bit 1), one heap (bit 2) or two (bit 4).
fn octal_moves(digits: &[u8], n: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        let k = i + 1;
        if k > n {
            break;
        }
        let rest = n - k;
        if d & 1 != 0 && rest == 0 {
            v.push(vec![]);
        }
        if d & 2 != 0 && rest > 0 {
            v.push(vec![rest]);
        }
        if d & 4 != 0 && rest >= 2 {
            for a in 1..=rest / 2 {
                v.push(vec![a, rest - a]);
            }
        }
    }
    v
}

fn octal_137(n: usize) -> Vec<Vec<usize>> {
    octal_moves(&[1, 3, 7], n)
}

fn octal_77(n: usize) -> Vec<Vec<usize>> {
    octal_moves(&[7, 7], n)
}

fn octal_6(n: usize) -> Vec<Vec<usize>> {
    octal_moves(&[6], n)
}

#[test]
fn octal_moves_are_kayles_and_dawson() {
    let mut s = MisereStore::new();
    assert_eq!(heaps(&mut s, 20, octal_77), heaps(&mut s, 20, kayles_moves));
    let d = heaps(&mut s, 20, |n| octal_moves(&[0, 7], n));
    assert_eq!(d, heaps(&mut s, 20, dawson_moves));
}

#[test]
fn heap_sums_agree_with_search() {
    // Misère outcomes of sums of up to three heaps, by search over multisets of heap sizes.
    for moves in [
        kayles_moves,
        dawson_moves,
        grundy_moves,
        octal_137,
        octal_77,
        octal_6,
    ] {
        let mut s = MisereStore::new();
        let h = heaps(&mut s, 14, moves);
        let mut memo: FxHashMap<Vec<usize>, bool> = FxHashMap::default();
        fn p_position(
            heaps: Vec<usize>,
            moves: fn(usize) -> Vec<Vec<usize>>,
            memo: &mut FxHashMap<Vec<usize>, bool>,
        ) -> bool {
            let mut key: Vec<usize> = heaps.into_iter().filter(|&x| x > 0).collect();
            key.sort_unstable();
            if let Some(&v) = memo.get(&key) {
                return v;
            }
            let mut any_move = false;
            let mut to_p = false;
            for i in 0..key.len() {
                for m in moves(key[i]) {
                    any_move = true;
                    let mut next = key.clone();
                    next.remove(i);
                    next.extend(m);
                    if p_position(next, moves, memo) {
                        to_p = true;
                    }
                }
            }
            // No move: the player to move wins (N). Otherwise P iff every move reaches N.
            let v = any_move && !to_p;
            memo.insert(key, v);
            v
        }
        for a in 0..=14 {
            for b in a..=14 {
                for c in [0usize, 1, 3, 6] {
                    let sum = s.sum(&[h[a], h[b], h[c]]).unwrap();
                    assert_eq!(
                        s.outcome(sum) == MisereOutcome::P,
                        p_position(vec![a, b, c], moves, &mut memo),
                        "heaps {a} {b} {c}"
                    );
                }
            }
        }
    }
}

#[test]
fn folding_makes_forms_and_adds_sums() {
    let mut s = MisereStore::new();
    let two = s.fold(Shape::Nim(2)).unwrap();
    assert_eq!(two, s.nim(2).unwrap());
    let two_sharp = s.fold(Shape::Options(&[two])).unwrap();
    assert_eq!(two_sharp, s.construct(&[two]));
    let sum = s.fold(Shape::Sum(&[two_sharp, two])).unwrap();
    assert_eq!(sum, s.add(two_sharp, two).unwrap());
    // `{0, *} = *2` and `{ } = 0`: folding simplifies as `construct` does.
    let (zero, star) = (s.nim(0).unwrap(), s.nim(1).unwrap());
    assert_eq!(s.fold(Shape::Options(&[zero, star])).unwrap(), two);
    assert_eq!(s.fold(Shape::Options(&[])).unwrap(), zero);
}

#[test]
fn long_sums_stop_when_interrupted() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let mut s = MisereStore::new();
    let k = heaps(&mut s, 31, kayles_moves);
    s.set_cancel(Some(Arc::new(AtomicBool::new(true))));
    assert_eq!(s.add(k[30], k[31]), Err(MisereError::Interrupted));
    // The store is still usable, and the sum completes once the flag is cleared.
    s.set_cancel(None);
    let g = s.add(k[30], k[31]).unwrap();
    assert_eq!(s.add(k[31], k[30]).unwrap(), g);
    assert_eq!(s.nim_plus(g), s.nim_plus(k[30]) ^ s.nim_plus(k[31]));
}

#[test]
fn nim_heaps_are_their_birthdays() {
    let mut s = MisereStore::new();
    let games = s.born_by(4).unwrap();
    let mut all = games.clone();
    for &a in &games {
        for &b in &games {
            all.push(s.add(a, b).unwrap());
        }
    }
    for g in all {
        let heap = s.nim(u64::from(s.birthday(g))).unwrap();
        assert_eq!(s.is_nim_heap(g), g == heap);
    }
}
