//! Misère quotients against published results (digest `misere-quotients.md` §3–4, §6) and
//! against independent proofs written here:
//! - the printed presentation, P-portion and Φ are re-read by a small rewriting interpreter
//!   (below, not the library's) and the transition-algebra condition `x ∈ P ⇔ S ≠ ∅ and
//!   S ∩ P = ∅` is checked on every sum of heaps up to a bound;
//! - misère outcomes from Φ are compared with plain game-tree search over every position of at
//!   most 30 tokens, for tame and wild games;
//! - the group facts of §2 hold for every quotient computed here.

use loony::theory::heap::{Code, HeapRules};
use loony::theory::quotient::{Bipartite, Control, Limits, Quotient, solve};
use std::collections::{HashMap, HashSet};

fn code(c: &str) -> HeapRules {
    HeapRules::from(Code::parse(c).expect("valid code"))
}

fn quotient(rules: &HeapRules, bound: Option<usize>) -> Quotient {
    let mut g = rules.clone();
    solve(&mut g, bound, Limits::default(), &Control::default()).expect("computes")
}

// ---------------------------------------------------------------------------------------------
// Published results.

/// Digest §3: game, |Q|, presentation, P, Φ listing, preperiod, period, certified at.
type Solved = (
    &'static str,
    usize,
    &'static str,
    &'static [&'static str],
    &'static str,
    usize,
    usize,
    usize,
);

const SOLVED: &[Solved] = &[
    ("0.1", 2, "<a | a2=1>", &["a"], "a (1)", 2, 1, 8),
    ("0.3", 2, "<a | a2=1>", &["a"], "(1 a) from heap 0", 0, 2, 6),
    ("0.51", 2, "<a | a2=1>", &["a"], "(a)", 1, 1, 7),
    (
        "0.31",
        6,
        "<a,b | a2=1,b3=b>",
        &["a", "b2"],
        "a b (b2 ab2)",
        3,
        2,
        13,
    ),
    (
        "0.75",
        8,
        "<a,b,c | a2=1,b3=b,bc=ab,c2=b2>",
        &["a", "b2"],
        "a b a b c b c (b ab2)",
        8,
        2,
        23,
    ),
    (
        "0.34",
        12,
        "<a,b,c | a2=1,b4=b2,b2c=b3,c2=1>",
        &["a", "b2", "ac"],
        "a 1 a b 1 a (1 ab a c a b 1 ac)",
        7,
        8,
        33,
    ),
    (
        "0.123",
        20,
        "<a,b,c,d | a2=1,b4=b2,b2c=b3,c2=1,b2d=d,cd=bd,d3=ad2>",
        &["a", "b2", "ac", "bd", "d2"],
        "a 1 b b (a d2 1 c d)",
        5,
        5,
        24,
    ),
];

#[test]
fn solved_games_match_the_digest() {
    for &(game, order, pres, p, phi, n0, period, at) in SOLVED {
        let q = quotient(&code(game), None);
        assert_eq!(q.order(), order, "{game}");
        assert_eq!(q.monoid().presentation(), pres, "{game}");
        assert_eq!(q.bipartite.p_words(), p, "{game}");
        assert_eq!(q.phi_listing(), phi, "{game}");
        let pp = q.period.expect("certified");
        assert_eq!((pp.preperiod, pp.period), (n0, period), "{game}");
        assert_eq!(q.certified_at, Some(at), "{game}");
    }
}

#[test]
fn names_of_the_small_quotients() {
    let name = |g: &str| quotient(&code(g), None).name();
    assert_eq!(name("0.1").as_deref(), Some("T1"));
    assert_eq!(name("0.31").as_deref(), Some("T2"));
    assert_eq!(name("0.75").as_deref(), Some("R8"));
    assert_eq!(name("0.34"), None);
    // Misère Nim on heaps up to 2^k − 1 is T_{k+1}: order 2^(k+1) + 2 [digest §2].
    let nim = HeapRules::all_but([]);
    for (heaps, t, order) in [(1, "T1", 2), (3, "T2", 6), (7, "T3", 10), (15, "T4", 18)] {
        let q = quotient(&nim, Some(heaps));
        assert_eq!(
            (q.name().as_deref(), q.order()),
            (Some(t), order),
            "nim ≤ {heaps}"
        );
        assert!(!q.certified());
    }
}

#[test]
fn r8_table_and_sums_of_0_75() {
    let q = quotient(&code("0.75"), None);
    let m = q.monoid();
    // Digest §3, rows in its element order.
    let order = ["1", "a", "b", "c", "ab", "ac", "b2", "ab2"];
    let rows = [
        "1 a b c ab ac b2 ab2",
        "a 1 ab ac b c ab2 b2",
        "b ab b2 ab ab2 b b ab",
        "c ac ab b2 b ab2 ab2 b2",
        "ab b ab2 b b2 ab ab b",
        "ac c b ab2 ab b2 b2 ab2",
        "b2 ab2 b ab2 ab b2 b2 ab2",
        "ab2 b2 ab b2 b ab2 ab2 b2",
    ];
    let elem: HashMap<String, u32> = (0..8).map(|x| (m.word(x), x)).collect();
    for (x, row) in order.iter().zip(rows) {
        let got: Vec<String> = order
            .iter()
            .map(|y| m.word(m.mul(elem[*x], elem[*y])))
            .collect();
        assert_eq!(got.join(" "), row, "row {x}");
    }
    for p in [[2, 2].as_slice(), &[5, 5], &[3, 3, 3]] {
        assert_eq!(q.is_p(p), Some(true), "{p:?}");
    }
    for n in [[2, 5].as_slice(), &[1, 1], &[1, 2, 2]] {
        assert_eq!(q.is_p(n), Some(false), "{n:?}");
    }
}

/// The heaps n ≤ N (N from the computed quotient) at which |Q_n| changes, with the new order.
fn changes(q: &Quotient) -> Vec<(usize, usize)> {
    let o = &q.orders;
    (1..o.len())
        .filter(|&n| o[n] != o[n - 1])
        .map(|n| (n, o[n]))
        .collect()
}

#[test]
fn kayles_is_solved_with_the_published_orders() {
    let q = quotient(&code("0.77"), None);
    assert_eq!((q.order(), q.bipartite.p_count()), (40, 9));
    let p = q.period.expect("certified");
    assert_eq!((p.preperiod, p.period, q.certified_at), (71, 12, Some(169)));
    let c = changes(&q);
    assert_eq!(&c[..5], [(1, 2), (2, 6), (5, 12), (9, 18), (12, 24)]);
    // Single-heap P-positions ≤ 40: 1 4 9 12 20 (digest §6).
    let singles: Vec<usize> = (1..=40).filter(|&n| q.is_p(&[n]) == Some(true)).collect();
    assert_eq!(singles, [1, 4, 9, 12, 20]);
}

#[test]
fn dawsons_kayles_partial_quotients() {
    let q = quotient(&code("0.07"), Some(30));
    assert_eq!(
        changes(&q),
        [
            (2, 2),
            (4, 6),
            (10, 12),
            (14, 24),
            (25, 144),
            (27, 176),
            (30, 360)
        ]
    );
    assert!(!q.certified());
    // Misère P single heaps (digest §4), those within Q_30.
    let singles: Vec<usize> = (1..=30).filter(|&n| q.is_p(&[n]) == Some(true)).collect();
    assert_eq!(singles, [2, 3, 7, 8, 12, 16, 17, 21, 22, 26, 30]);
    // Beyond heap 30 an uncertified quotient does not answer.
    assert_eq!(q.is_p(&[31]), None);
}

#[test]
fn dawsons_kayles_q33_has_order_638() {
    let q = quotient(&code("0.07"), Some(33));
    assert_eq!(q.order(), 638);
    assert_eq!(&q.orders[30..], [360, 520, 552, 638]);
}

/// Q_34(0.07) has no published value. Every candidate for it that the solver rejects is proved
/// right below its least failure, and the failures climb for ever: the proved outcomes show
/// a·H_34 + b·H_30 + H_25 is a misère P-position iff b ≥ a and b ≡ a (mod 2) (a ≥ 2), so the
/// positions a·H_34 + H_25 are pairwise distinguishable as far as the candidates reach — if the
/// pattern goes on, Q_34 is infinite. This checks the pattern on every proved entry up to
/// a = `A` (set `Q34_A`, default 8; the default ceilings reach 10) and that all were proved.
#[test]
#[ignore = "tens of seconds even in release; cargo test --release -- --ignored q34"]
fn dawsons_kayles_q34_climbs_a_diagonal() {
    use loony::theory::quotient::Solver;
    use std::cell::RefCell;
    use std::sync::atomic::{AtomicBool, Ordering};
    let a_max: u32 = std::env::var("Q34_A")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let b_max: u32 = a_max + 8;
    let proved: RefCell<HashMap<(u32, u32), bool>> = RefCell::new(HashMap::new());
    let stop = AtomicBool::new(false);
    let mut g = code("0.07");
    let limits = Limits {
        product: 1 << 23,
        reduced: 1 << 17,
        antichain_bytes: 1 << 31,
    };
    let mut solver = Solver::new(&mut g, limits);
    for _ in 0..33 {
        solver.step(&|| false).expect("Q_33");
    }
    assert_eq!(solver.order(), 638);
    solver.observe(|probe| {
        let mut t = proved.borrow_mut();
        for a in 0..=a_max {
            for b in 0..=b_max {
                let mut w = vec![34; a as usize];
                w.extend(std::iter::repeat_n(30, b as usize));
                w.push(25);
                if let Some(p) = probe.proved_p(&w) {
                    t.insert((a, b), p);
                }
            }
        }
        let reached = probe.failure.iter().filter(|&&h| h == 34).count() as u32;
        eprintln!(
            "candidate of order {}: fails at {:?}",
            probe.order, probe.failure
        );
        if reached > a_max {
            stop.store(true, Ordering::Relaxed);
        }
    });
    let r = solver.step(&|| stop.load(Ordering::Relaxed));
    assert!(r.is_err(), "Q_34 was found: {} elements", solver.order());
    drop(solver);
    let t = proved.into_inner();
    // Every proved entry follows the pattern …
    for (&(a, b), &p) in &t {
        if a >= 2 {
            assert_eq!(p, b >= a && (b - a) % 2 == 0, "a = {a}, b = {b}");
        }
    }
    // … and the whole rectangle up to a_max was proved.
    for a in 2..=a_max {
        for b in 0..=b_max {
            assert!(t.contains_key(&(a, b)), "not proved: a = {a}, b = {b}");
        }
    }
}

#[test]
fn single_heap_p_positions_of_solved_games() {
    let singles = |g: &str, upto: usize| -> Vec<usize> {
        let q = quotient(&code(g), None);
        (1..=upto).filter(|&n| q.is_p(&[n]) == Some(true)).collect()
    };
    assert_eq!(singles("0.75", 40), [1, 3]);
    assert_eq!(
        singles("0.31", 40),
        (1..=40).filter(|n| n % 2 == 1).collect::<Vec<_>>()
    );
    assert_eq!(
        singles("0.34", 40),
        [1, 3, 6, 9, 11, 14, 17, 19, 22, 25, 27, 30, 33, 35, 38]
    );
    assert_eq!(
        singles("0.71", 40),
        (1..=40)
            .filter(|n| n % 6 == 1 || n % 6 == 3)
            .collect::<Vec<_>>()
    );
}

#[test]
fn isomorphic_presentations() {
    let a = quotient(&code("0.123"), None);
    let b = quotient(&code("0.1331"), None);
    assert_ne!(a.monoid().presentation(), b.monoid().presentation());
    assert_eq!(a.bipartite.isomorphic(&b.bipartite, &|| false), Some(true));
    let c = quotient(&code("0.34"), None);
    assert_eq!(a.bipartite.isomorphic(&c.bipartite, &|| false), Some(false));
}

// ---------------------------------------------------------------------------------------------
// Independent proof 1: the printed presentation, re-read by a rewriting interpreter.

/// A monoid given by a complete rewriting system over exponent vectors.
struct Rewriting {
    k: usize,
    rules: Vec<(Vec<u32>, Vec<u32>)>,
}

fn read_word(s: &str, k: usize) -> Vec<u32> {
    let mut e = vec![0u32; k];
    if s == "1" {
        return e;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let g = (b[i] - b'a') as usize;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        e[g] += if start == i {
            1
        } else {
            s[start..i].parse::<u32>().unwrap()
        };
    }
    e
}

impl Rewriting {
    fn read(pres: &str) -> Rewriting {
        let inner = &pres[1..pres.len() - 1];
        let (gens, rels) = inner.split_once(" | ").unwrap();
        let k = gens.split(',').count();
        let rules = rels
            .split(',')
            .map(|r| {
                let (l, r) = r.split_once('=').unwrap();
                (read_word(l, k), read_word(r, k))
            })
            .collect();
        Rewriting { k, rules }
    }

    fn normal(&self, mut w: Vec<u32>) -> Vec<u32> {
        while let Some((l, r)) = self
            .rules
            .iter()
            .find(|(l, _)| l.iter().zip(&w).all(|(a, b)| a <= b))
        {
            for j in 0..self.k {
                w[j] = w[j] - l[j] + r[j];
            }
        }
        w
    }

    fn mul(&self, a: &[u32], b: &[u32]) -> Vec<u32> {
        self.normal(a.iter().zip(b).map(|(x, y)| x + y).collect())
    }
}

/// All multisets of heaps in `1..=max_heap` with at most `tokens` tokens, largest first.
fn positions(max_heap: usize, tokens: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    let mut i = 0;
    while i < out.len() {
        let p: Vec<usize> = out[i].clone();
        let sum: usize = p.iter().sum();
        let top = p.last().copied().unwrap_or(max_heap);
        for h in 1..=top.min(tokens - sum) {
            let mut q = p.clone();
            q.push(h);
            out.push(q);
        }
        i += 1;
    }
    out
}

/// Checks Φ (as printed words, periodic beyond N when certified) against the transition
/// algebra on every sum of heaps ≤ `max_heap` with ≤ `tokens` tokens; also 1 ∉ P, and that
/// the Φ values generate the monoid.
fn check_transition_algebra(rules: &HeapRules, q: &Quotient, max_heap: usize, tokens: usize) {
    let pres = q.monoid().presentation();
    let rw = Rewriting::read(&pres);
    let p: HashSet<Vec<u32>> = q
        .bipartite
        .p_words()
        .iter()
        .map(|w| read_word(w, rw.k))
        .collect();
    let phi: Vec<Vec<u32>> = (0..=max_heap)
        .map(|n| read_word(&q.monoid().word(q.phi_of(n).unwrap()), rw.k))
        .collect();
    let one = vec![0u32; rw.k];
    assert!(!p.contains(&one), "1 ∈ P");
    let value = |heaps: &[usize]| {
        heaps
            .iter()
            .fold(one.clone(), |acc, &h| rw.mul(&acc, &phi[h]))
    };
    let mut opts = Vec::new();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for pos in positions(max_heap, tokens) {
        seen.insert(value(&pos));
        let x = value(&pos);
        let mut any = false;
        let mut to_p = false;
        for (i, &h) in pos.iter().enumerate() {
            rules.options(h, &mut opts);
            let rest: Vec<usize> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
            for o in &opts {
                any = true;
                let mut v = rest.clone();
                v.extend(o);
                if p.contains(&value(&v)) {
                    to_p = true;
                }
            }
        }
        assert_eq!(p.contains(&x), any && !to_p, "{pos:?} in {pres}");
    }
    // The heap values generate Q: their closure under the rewriting product has |Q| elements.
    let mut closure: HashSet<Vec<u32>> = HashSet::from([one.clone()]);
    let mut stack = vec![one.clone()];
    while let Some(x) = stack.pop() {
        for g in &phi {
            let y = rw.mul(&x, g);
            if closure.insert(y.clone()) {
                stack.push(y);
            }
        }
    }
    assert_eq!(closure.len(), q.order(), "{pres}: Φ does not generate Q");
    assert!(seen.len() <= q.order());
}

#[test]
#[ignore = "slow tier (18 s in a test build): .ci/run runs it; cargo test -- --ignored"]
fn printed_presentations_satisfy_the_transition_algebra() {
    for &(game, ..) in SOLVED {
        let rules = code(game);
        let q = quotient(&rules, None);
        // Twice the certified heap: the periodic tail is checked too.
        let max = 2 * q.certified_at.unwrap();
        check_transition_algebra(&rules, &q, max, 34);
    }
    let kayles = code("0.77");
    check_transition_algebra(&kayles, &quotient(&kayles, None), 200, 28);
}

// ---------------------------------------------------------------------------------------------
// Independent proof 2: brute-force misère play.

/// Misère outcomes (true = P) of every multiset of heaps with at most `tokens` tokens, by
/// game-tree search in an order where every option comes first.
fn brute_force(rules: &HeapRules, tokens: usize) -> HashMap<Vec<usize>, bool> {
    let mut all = positions(tokens, tokens);
    // Options have fewer tokens, or as many in more heaps (splits that remove nothing).
    all.sort_by_key(|p| (p.iter().sum::<usize>(), usize::MAX - p.len()));
    let mut out: HashMap<Vec<usize>, bool> = HashMap::with_capacity(all.len());
    let mut opts = Vec::new();
    for pos in all {
        let mut any = false;
        let mut to_p = false;
        for (i, &h) in pos.iter().enumerate() {
            rules.options(h, &mut opts);
            for o in &opts {
                any = true;
                let mut v: Vec<usize> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
                v.extend(o);
                v.sort_unstable_by(|a, b| b.cmp(a));
                if out[&v] {
                    to_p = true;
                }
            }
        }
        out.insert(pos, any && !to_p);
    }
    out
}

fn compare_with_brute_force(name: &str, rules: &HeapRules, bound: Option<usize>) {
    let q = quotient(rules, bound);
    assert!(q.certified() || q.heap >= 30, "{name}");
    for (pos, p) in brute_force(rules, 30) {
        assert_eq!(q.is_p(&pos), Some(p), "{name} {pos:?}");
    }
}

#[test]
fn outcomes_from_phi_agree_with_brute_force_tame() {
    for g in ["0.1", "0.3", "0.51", "0.31", "0.52", "0.F"] {
        compare_with_brute_force(g, &code(g), None);
    }
    compare_with_brute_force(
        "subtraction(1,2,3)",
        &HeapRules::subtraction([1, 2, 3]),
        None,
    );
    compare_with_brute_force("subtraction(2,3)", &HeapRules::subtraction([2, 3]), None);
    compare_with_brute_force("nim", &HeapRules::all_but([]), Some(30));
    compare_with_brute_force("allbut(2)", &HeapRules::all_but([2]), Some(30));
}

#[test]
#[ignore = "slow tier (5 s in a test build): .ci/run runs it; cargo test -- --ignored"]
fn outcomes_from_phi_agree_with_brute_force_wild() {
    for g in [
        "0.75", "0.34", "0.123", "0.1331", "0.77", "0.72", "0.53", "0.144",
    ] {
        compare_with_brute_force(g, &code(g), None);
    }
    for g in ["0.07", "0.54", "4.C"] {
        compare_with_brute_force(g, &code(g), Some(30));
    }
}

// ---------------------------------------------------------------------------------------------
// Group facts (digest §2).

#[test]
fn group_facts_hold_for_every_computed_quotient() {
    let mut by_order: HashMap<usize, Vec<Bipartite>> = HashMap::new();
    let games = [
        "0.1", "0.3", "0.51", "0.31", "0.75", "0.34", "0.123", "0.1331", "0.77", "0.07", "0.72",
        "0.53", "0.144", "0.54", "0.52", "0.71", "4.C",
    ];
    for g in games {
        let rules = code(g);
        for n in 1..=16 {
            let q = quotient(&rules, Some(n));
            let order = q.order();
            assert!(
                order == 1 || order.is_multiple_of(2),
                "{g} Q_{n} has odd order {order}"
            );
            assert_ne!(order, 4, "{g} Q_{n}");
            assert!(q.bipartite.is_reduced(), "{g} Q_{n}");
            if q.bipartite.p_count() == 2 {
                let two = |k: usize| k.is_power_of_two();
                assert!(
                    two(order - 2) || (order > 4 && two(order - 4)),
                    "{g} Q_{n}: |P| = 2 but |Q| = {order}"
                );
            }
            if matches!(order, 1 | 2 | 6 | 8) {
                by_order.entry(order).or_default().push(q.bipartite);
            }
        }
    }
    for (order, qs) in &by_order {
        for q in &qs[1..] {
            assert_eq!(
                qs[0].isomorphic(q, &|| false),
                Some(true),
                "two quotients of order {order}"
            );
        }
    }
    assert!(
        by_order.contains_key(&8),
        "an order-8 quotient was computed"
    );
}

// ---------------------------------------------------------------------------------------------
// The language: Ctrl-C stops a long computation cleanly and the session goes on.

#[test]
fn ctrl_c_stops_quotient_and_the_session_goes_on() {
    use std::sync::atomic::Ordering;
    let out = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let mut interp = loony::eval::Interp::new();
            let flag = interp.cx.limits.interrupt.clone();
            let waker = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(300));
                flag.store(true, Ordering::Relaxed);
            });
            // Dawson's Kayles never certifies: only Ctrl-C (or the ceiling) ends this.
            let err = interp
                .run("long.cgt", "quotient(heap(\"0.07\"))", &mut |_| {})
                .expect_err("interrupted");
            waker.join().expect("waker");
            let mut after = String::new();
            interp
                .run("after.cgt", "quotient(heap(\"0.75\")).order", &mut |s| {
                    after = s
                })
                .expect("the session goes on");
            (err.render_plain(&interp.cx.files), after)
        })
        .expect("spawn")
        .join()
        .expect("join");
    assert!(out.0.contains("E0501"), "{}", out.0);
    assert_eq!(out.1, "8");
}

#[test]
fn json_prints_a_quotient_as_an_object() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["--json", "-e", "quotient(heap(\"0.31\"))"])
        .output()
        .expect("run loony");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    for field in [
        r#""order":6"#,
        r#""p_portion":["a","b2"]"#,
        r#""presentation":"<a,b | a2=1,b3=b>""#,
        r#""period":2"#,
        r#""preperiod":3"#,
        r#""phi":["1","a","b","b2","ab2","b2","ab2","b2","ab2","b2","ab2","b2","ab2","b2"]"#,
        r#""certified":true"#,
        r#""certified_at":13"#,
        r#""name":"T2""#,
        r#""table":"#,
    ] {
        assert!(text.contains(field), "{field} missing in {text}");
    }
}

/// Ctrl-C stops a quotient between two heaps even when the heaps have no moves to search
/// (`subtraction([k])` below heap k): the flag raised after heap 10 stops it at heap 11.
#[test]
fn a_quotient_of_heaps_without_moves_stops_when_interrupted() {
    use loony::theory::quotient::{Progress, Stop};
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = AtomicBool::new(false);
    let raise = |p: Progress| {
        if let Progress::Heap { heap: 10, .. } = p {
            flag.store(true, Ordering::Relaxed);
        }
    };
    let ctl = Control::default().with_cancel(&flag).with_progress(&raise);
    let mut g = HeapRules::subtraction([2000]);
    match solve(&mut g, None, Limits::default(), &ctl) {
        Err(h) => {
            assert!(matches!(h.stop, Stop::Interrupted), "{}", h.stop);
            assert_eq!(h.heap, 11);
        }
        Ok(q) => panic!("ran to the end: Q of order {}", q.order()),
    }
}

// ---------------------------------------------------------------------------------------------
// Quotient elements as values in the language, against brute-force misère play.

/// `q.is_p` of the product of heaps' images, computed in the language with `*` on elements,
/// against the game-tree search above, for every position of at most 14 tokens; and the
/// table's rows against `*`.
#[test]
fn element_arithmetic_in_the_language_agrees_with_brute_force() {
    for g in ["0.75", "0.77", "0.31"] {
        let truth = brute_force(&code(g), 14);
        let mut positions: Vec<&Vec<usize>> = truth.keys().filter(|p| !p.is_empty()).collect();
        positions.sort();
        let products: Vec<String> = positions
            .iter()
            .map(|p| {
                let factors: Vec<String> = p.iter().map(|h| format!("q.phi[{h}]")).collect();
                format!("q.is_p({})", factors.join(" * "))
            })
            .collect();
        let src = format!(
            "let q = quotient(heap(\"{g}\"), 14)\n[{}]\n\
             len([0 for i in 0..q.order for j in 0..q.order if q.table[i][j] != q.elements[i] * q.elements[j]]) == 0\n\
             q.element(\"1\") == q.phi[0]",
            products.join(", ")
        );
        let out = crate::common::run_named("e.cgt", &src);
        let want: Vec<&str> = positions
            .iter()
            .map(|p| if truth[*p] { "true" } else { "false" })
            .collect();
        assert_eq!(out, format!("[{}]\ntrue\ntrue\n", want.join(", ")), "{g}");
    }
}

/// Above the order whose table a record holds (lowered here from 1 000 to 10, so that
/// Kayles's order 40 is above it), `q.table` is made when it is read: the rows a record that
/// holds them gives, each agreeing with `*` (which the test above checks by brute force).
#[test]
fn a_table_above_the_records_order_is_made_when_read() {
    let src = "let q = quotient(heap(\"0.77\"))\nq.order\nq.table\n\
               len([0 for i in 0..q.order for j in 0..q.order if q.table[i][j] != q.elements[i] * q.elements[j]]) == 0\n";
    let run = |table_in_record: Option<usize>| {
        crate::common::on_big_stack(move || {
            let mut interp = loony::eval::Interp::new();
            if let Some(order) = table_in_record {
                interp.cx.set_table_in_record(order);
            }
            let mut out = String::new();
            interp
                .run("t.cgt", src, &mut |s| {
                    out.push_str(&s);
                    out.push('\n');
                })
                .expect("the program runs");
            out
        })
    };
    let (made, held) = (run(Some(10)), run(None));
    assert!(made.starts_with("40\n[[1, a, b, "), "{made}");
    assert!(made.ends_with("]]\ntrue\n"), "{made}");
    assert_eq!(made, held);
}

// ---------------------------------------------------------------------------------------------
// MisereSolver's frontier on wild games (the orders it publishes), under the ceilings a 4 GiB
// memory budget gives.

fn frontier(rules: &HeapRules, heap: usize) -> Quotient {
    let mut g = rules.clone();
    solve(
        &mut g,
        Some(heap),
        Limits::within(4 << 30),
        &Control::default(),
    )
    .expect("computes")
}

/// Q_heap(game) has MisereSolver's `order`, this solver's `p` P-elements (MisereSolver
/// publishes orders only), and every position of at most 26 tokens on heaps ≤ `heap` has the
/// outcome a brute-force search gives it.
fn reaches_frontier(game: &str, heap: usize, order: usize, p: usize) {
    let rules = code(game);
    let q = frontier(&rules, heap);
    assert_eq!((q.order(), q.bipartite.p_count()), (order, p), "{game}");
    for (pos, p) in brute_force(&rules, 26) {
        if pos.iter().all(|&h| h <= heap) {
            assert_eq!(q.is_p(&pos), Some(p), "{game} {pos:?}");
        }
    }
}

// One test a game, so that they run side by side and each failure shows. Times are for a test
// build (the engines at opt-level 3) on one 2 GHz core.

/// The fixed ceilings stopped at heap 80. About 20 s.
#[test]
#[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
fn frontier_q114_of_0_54() {
    reaches_frontier("0.54", 114, 646, 152);
}

/// Keeping old values as factors stopped at heap 37 on a candidate of 179 528 elements.
/// About 9 s.
#[test]
#[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
fn frontier_q40_of_0_142() {
    reaches_frontier("0.142", 40, 1324, 128);
}

/// The fixed ceilings stopped at heap 37 (a candidate of 34 060 elements). About 100 s.
#[test]
#[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
fn frontier_q44_of_4_7() {
    reaches_frontier("4.7", 44, 770, 192);
}

/// Nothing printed in 5 minutes before the ceilings came from the budget; most of the time
/// goes to heaps 69 and 73. About 220 s, the slow tier's longest test.
#[test]
#[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
fn frontier_q79_of_0_57() {
    reaches_frontier("0.57", 79, 622, 155);
}
