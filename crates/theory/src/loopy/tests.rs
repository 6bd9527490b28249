//! γ against independent definitions: Smith's iteration (seed 001, Def. 10–11) on random
//! digraphs with cycles and self-loops, the counter conditions A–C, and the outcome read off γ
//! (Theorem 3) against plain retrograde analysis.

use super::gamma::{INF, gamma};
use loony_graph::Csr;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_graph(rng: &mut Rng, n: usize, density: u64) -> Csr {
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|_| {
            (0..n as u32)
                .filter(|_| rng.below(100) < density)
                .collect::<Vec<u32>>()
        })
        .collect();
    Csr::from_lists(&lists)
}

const BIG: u32 = u32::MAX;

fn mex(values: impl Iterator<Item = u32>) -> u32 {
    let mut v: Vec<u32> = values.collect();
    v.sort();
    v.dedup();
    let mut m = 0;
    for x in v {
        if x == m {
            m += 1;
        }
    }
    m
}

/// Seed 001 Definition 10, iterated until nothing changes for many rounds; Definition 11 reads
/// off γ and A. Returns (value or BIG, A).
fn smith_iteration(g: &Csr) -> Vec<(u32, Vec<u32>)> {
    let n = g.len();
    let mut cur: Vec<u32> = (0..n as u32)
        .map(|u| if g.options(u).is_empty() { 0 } else { BIG })
        .collect();
    let rounds = 8 * n + 20;
    let mut history = Vec::new();
    for _ in 0..rounds {
        let next: Vec<u32> = (0..n as u32)
            .map(|u| {
                let m = mex(g.options(u).iter().map(|&v| cur[v as usize]));
                let ok = g.options(u).iter().all(|&v| {
                    cur[v as usize] <= m || g.options(v).iter().any(|&w| cur[w as usize] == m)
                });
                if ok { m } else { BIG }
            })
            .collect();
        history.push(next.clone());
        cur = next;
    }
    // "for enough large n": the last rounds must agree.
    let tail = &history[history.len() - n - 2..];
    assert!(
        tail.iter().all(|h| *h == cur),
        "Smith's iteration did not settle"
    );
    (0..n as u32)
        .map(|u| {
            let v = cur[u as usize];
            let mut a: Vec<u32> = g
                .options(u)
                .iter()
                .map(|&w| cur[w as usize])
                .filter(|&x| x != BIG)
                .collect();
            a.sort();
            a.dedup();
            if v == BIG { (BIG, a) } else { (v, vec![]) }
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum O {
    P,
    N,
    D,
}

/// Retrograde analysis: terminal = P; an option in P makes N; all options in N makes P; the
/// rest is a draw (seed 001, Defs. 7–8).
fn retrograde(g: &Csr) -> Vec<O> {
    let n = g.len();
    let pred = g.reversed();
    let mut out = vec![None; n];
    let mut left: Vec<usize> = (0..n as u32).map(|u| g.options(u).len()).collect();
    let mut queue: Vec<u32> = (0..n as u32).filter(|&u| left[u as usize] == 0).collect();
    for &u in &queue {
        out[u as usize] = Some(O::P);
    }
    while let Some(v) = queue.pop() {
        for &u in pred.options(v) {
            if out[u as usize].is_some() {
                continue;
            }
            if out[v as usize] == Some(O::P) {
                out[u as usize] = Some(O::N);
                queue.push(u);
            } else {
                left[u as usize] -= 1;
                if left[u as usize] == 0 {
                    out[u as usize] = Some(O::P);
                    queue.push(u);
                }
            }
        }
    }
    out.into_iter().map(|o| o.unwrap_or(O::D)).collect()
}

#[test]
fn gamma_equals_smiths_iteration_on_random_digraphs() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut infinite = 0;
    for case in 0..3000 {
        let n = 2 + (case % 9);
        let density = [10, 20, 30, 45][case % 4];
        let g = random_graph(&mut rng, n, density);
        let want = smith_iteration(&g);
        let got = gamma(&g, &mut || false).expect("not interrupted");
        for u in 0..n as u32 {
            let (v, a) = &want[u as usize];
            assert_eq!(got.label[u as usize], *v, "case {case}, vertex {u}: {g:?}");
            if *v == BIG {
                infinite += 1;
                assert_eq!(got.a(u), &a[..], "A of vertex {u} in case {case}");
            }
        }
    }
    assert!(infinite > 1000, "the sample should have many ∞ vertices");
}

#[test]
fn counter_conditions_hold() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..2000 {
        let n = 2 + (case % 12);
        let g = random_graph(&mut rng, n, [15, 25, 40][case % 3]);
        let gm = gamma(&g, &mut || false).expect("not interrupted");
        let lab = |u: u32| gm.label[u as usize];
        for u in 0..n as u32 {
            let opts = g.options(u);
            if lab(u) != INF {
                // A: γ(u) is the mex of its options' values.
                assert_eq!(
                    lab(u),
                    mex(opts.iter().map(|&v| lab(v)).filter(|&x| x != INF))
                );
                assert!(opts.iter().all(|&v| lab(v) != lab(u)));
                // B: an option above is answered by a return of smaller counter.
                for &v in opts {
                    if lab(v) > lab(u) {
                        assert!(
                            g.options(v).iter().any(|&w| lab(w) == lab(u)
                                && gm.counter[w as usize] < gm.counter[u as usize]),
                            "condition B fails at {u} → {v} in case {case}"
                        );
                    }
                }
            } else {
                // C: some ∞ option has no option with value mex of u's finite options.
                let m = mex(opts.iter().map(|&v| lab(v)).filter(|&x| x != INF));
                assert!(
                    opts.iter()
                        .any(|&v| lab(v) == INF && g.options(v).iter().all(|&w| lab(w) != m)),
                    "condition C fails at {u} in case {case}"
                );
            }
        }
    }
}

#[test]
fn outcome_read_off_gamma_is_retrograde_analysis() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for case in 0..2000 {
        let n = 2 + (case % 14);
        let g = random_graph(&mut rng, n, [12, 20, 35][case % 3]);
        let gm = gamma(&g, &mut || false).expect("not interrupted");
        let ret = retrograde(&g);
        for u in 0..n as u32 {
            // Seed 001 Theorem 3.
            let from_gamma = match gm.label[u as usize] {
                0 => O::P,
                INF if gm.a(u).contains(&0) => O::N,
                INF => O::D,
                _ => O::N,
            };
            assert_eq!(from_gamma, ret[u as usize], "case {case}, vertex {u}");
        }
    }
}

#[test]
fn cgt_small_windup_values() {
    // WindUp(n, S): from i ≠ 0 move to (i − m) mod n. Values printed in cgt-tools' own tests.
    let windup = |n: u32, s: &[u32]| {
        let lists: Vec<Vec<u32>> = (0..n)
            .map(|i| {
                if i == 0 {
                    vec![]
                } else {
                    s.iter().map(|&m| (i + n - m % n) % n).collect()
                }
            })
            .collect();
        Csr::from_lists(&lists)
    };
    let show = |g: &Csr| {
        let gm = gamma(g, &mut || false).expect("not interrupted");
        (0..g.len() as u32)
            .map(|u| match gm.label[u as usize] {
                INF if gm.a(u).is_empty() => "∞".to_string(),
                INF => format!(
                    "∞({})",
                    gm.a(u)
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                k => k.to_string(),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(show(&windup(4, &[2])), ["0", "∞", "1", "∞"]);
    assert_eq!(
        show(&windup(5, &[1, 3])),
        ["0", "∞(0)", "∞(0)", "∞(0)", "0"]
    );
    assert_eq!(show(&windup(6, &[2, 3])), ["0", "1", "1", "2", "0", "0"]);
    assert_eq!(
        show(&windup(7, &[1, 2, 5])),
        ["0", "1", "2", "0", "1", "2", "0"]
    );
}

/// The sum of two graphs: vertex (x, y) moves in one coordinate.
fn product(g: &Csr, h: &Csr) -> Csr {
    let (n, m) = (g.len() as u32, h.len() as u32);
    let lists: Vec<Vec<u32>> = (0..n * m)
        .map(|v| {
            let (x, y) = (v / m, v % m);
            let mut o: Vec<u32> = g.options(x).iter().map(|&x2| x2 * m + y).collect();
            o.extend(h.options(y).iter().map(|&y2| x * m + y2));
            o
        })
        .collect();
    Csr::from_lists(&lists)
}

#[test]
fn theorem_5_holds_on_product_graphs() {
    // seed 001 Theorem 5: *a + *b = *(a⊕b), *n + ∞(A) = ∞(n⊕A), ∞(A) + ∞(B) = ∞(∅); the γ of
    // the sum's own graph must be exactly that (A included).
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut kinds = [0usize; 3];
    for case in 0..600 {
        let g = random_graph(&mut rng, 2 + case % 6, [15, 25, 35][case % 3]);
        let h = random_graph(&mut rng, 2 + (case / 6) % 6, [20, 30][case % 2]);
        let (gg, gh) = (
            gamma(&g, &mut || false).expect("labels"),
            gamma(&h, &mut || false).expect("labels"),
        );
        let p = product(&g, &h);
        let gp = gamma(&p, &mut || false).expect("labels");
        let m = h.len() as u32;
        for x in 0..g.len() as u32 {
            for y in 0..m {
                let (a, b) = (gg.label[x as usize], gh.label[y as usize]);
                let v = x * m + y;
                let got = (gp.label[v as usize], gp.a(v).to_vec());
                let want = match (a, b) {
                    (INF, INF) => {
                        kinds[2] += 1;
                        (INF, vec![])
                    }
                    (INF, k) | (k, INF) => {
                        kinds[1] += 1;
                        let set = if a == INF { gg.a(x) } else { gh.a(y) };
                        let mut s: Vec<u32> = set.iter().map(|&e| e ^ k).collect();
                        s.sort();
                        (INF, s)
                    }
                    (a, b) => {
                        kinds[0] += 1;
                        (a ^ b, vec![])
                    }
                };
                assert_eq!(got, want, "case {case}, vertex ({x}, {y})");
            }
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 200),
        "every row of Theorem 5 is exercised: {kinds:?}"
    );
}

#[test]
fn labelling_stops_when_polled_true() {
    // A large cycle (WindUp(200 000, {1, 2})): asking to stop returns None, not a label.
    let n = 200_000u32;
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|i| {
            if i == 0 {
                vec![]
            } else {
                vec![(i + n - 1) % n, (i + n - 2) % n]
            }
        })
        .collect();
    let g = Csr::from_lists(&lists);
    let mut calls = 0;
    let r = gamma(&g, &mut || {
        calls += 1;
        calls > 1
    });
    assert!(r.is_none());
    assert!(gamma(&g, &mut || false).is_some());
}
