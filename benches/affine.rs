//! Benchmarks of the affine impartial engine.
//!
//! * the generic engine on Top Entails, through a lazily expanded literal-form
//!   graph (`n = { ℓ+m, {∞ | (n−1)^R} | ℓ+m, {(n−1)^L | ∞̄} }`), n = 2000;
//! * the Theorem-41 fast path up to 600 000 (Nowakowski's loony stacks).

/// Allocations are counted as in the `loony` binary, so timings include what it pays.
#[global_allocator]
static GLOBAL: loony::memory::Counting = loony::memory::Counting;

use std::collections::HashMap;
use std::convert::Infallible;
use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use loony::theory::affine::{AffineEngine, AffineGraph, AffineValue, Shape, top_entails_moons};

/// Positions of Top Entails, expanded only when the engine asks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    LeftWin,
    RightWin,
    /// The literal stack `n` (`0 = {∞̄ | ∞}`).
    Stack(u32),
    /// `{∞ | (n−1)^R}`, Left's top-coin removal from `n`.
    LeftEntail(u32),
    /// `{(n−1)^L | ∞̄}`.
    RightEntail(u32),
    /// `*k`.
    Nim(u32),
    /// A sum of atoms (sorted, at least two).
    Sum(Vec<u32>),
}

#[derive(Default)]
struct LazyTopEntails {
    nodes: Vec<Node>,
    index: HashMap<Node, u32>,
}

impl LazyTopEntails {
    fn new() -> Self {
        let mut g = LazyTopEntails::default();
        g.intern(Node::LeftWin);
        g.intern(Node::RightWin);
        g
    }

    fn intern(&mut self, n: Node) -> u32 {
        if let Some(&i) = self.index.get(&n) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(n.clone());
        self.index.insert(n, i);
        i
    }

    fn stack(&mut self, n: u32) -> u32 {
        self.intern(Node::Stack(n))
    }

    fn add(&mut self, parts: &[u32]) -> u32 {
        let mut flat = Vec::new();
        let (mut l, mut r) = (false, false);
        for &p in parts {
            match &self.nodes[p as usize] {
                Node::Sum(ps) => flat.extend(ps.iter().copied()),
                Node::LeftWin => l = true,
                Node::RightWin => r = true,
                Node::Nim(0) => {}
                _ => flat.push(p),
            }
        }
        assert!(!(l && r), "∞ + ∞̄ never arises in Top Entails");
        if l {
            return 0;
        }
        if r {
            return 1;
        }
        flat.sort_unstable();
        match flat.len() {
            0 => self.intern(Node::Nim(0)),
            1 => flat[0],
            _ => self.intern(Node::Sum(flat)),
        }
    }

    fn options(&mut self, g: u32, left: bool, out: &mut Vec<u32>) {
        match self.nodes[g as usize].clone() {
            Node::LeftWin | Node::RightWin => {}
            Node::Stack(0) => out.push(if left { 1 } else { 0 }),
            Node::Stack(n) => {
                for l in 1..=n / 2 {
                    let (a, b) = (self.stack(l), self.stack(n - l));
                    out.push(self.add(&[a, b]));
                }
                out.push(self.intern(if left {
                    Node::LeftEntail(n)
                } else {
                    Node::RightEntail(n)
                }));
            }
            Node::LeftEntail(n) => {
                if left {
                    out.push(0);
                } else {
                    let p = self.stack(n - 1);
                    self.options(p, false, out);
                }
            }
            Node::RightEntail(n) => {
                if left {
                    let p = self.stack(n - 1);
                    self.options(p, true, out);
                } else {
                    out.push(1);
                }
            }
            Node::Nim(k) => {
                for j in 0..k {
                    out.push(self.intern(Node::Nim(j)));
                }
            }
            Node::Sum(parts) => {
                let mut sub = Vec::new();
                for i in 0..parts.len() {
                    sub.clear();
                    self.options(parts[i], left, &mut sub);
                    for &o in &sub {
                        let mut p = parts.clone();
                        p[i] = o;
                        out.push(self.add(&p));
                    }
                }
            }
        }
    }
}

impl AffineGraph for LazyTopEntails {
    type Id = u32;
    type Error = Infallible;

    fn shape(&mut self, g: u32) -> Result<Shape<u32>, Infallible> {
        Ok(match &self.nodes[g as usize] {
            Node::LeftWin => Shape::LeftWin,
            Node::RightWin => Shape::RightWin,
            Node::Sum(p) => Shape::Sum(p.clone()),
            _ => Shape::Form,
        })
    }
    fn left_options(&mut self, g: u32, out: &mut Vec<u32>) -> Result<(), Infallible> {
        self.options(g, true, out);
        Ok(())
    }
    fn right_options(&mut self, g: u32, out: &mut Vec<u32>) -> Result<(), Infallible> {
        self.options(g, false, out);
        Ok(())
    }
    fn conjugate(&mut self, g: u32) -> Result<u32, Infallible> {
        Ok(match self.nodes[g as usize].clone() {
            Node::LeftWin => 1,
            Node::RightWin => 0,
            Node::LeftEntail(n) => self.intern(Node::RightEntail(n)),
            Node::RightEntail(n) => self.intern(Node::LeftEntail(n)),
            Node::Sum(parts) => {
                let c: Vec<u32> = parts
                    .iter()
                    .map(|&p| self.conjugate(p).unwrap_or(p))
                    .collect();
                self.add(&c)
            }
            // Stacks and nimbers are symmetric.
            _ => g,
        })
    }
    fn nimber(&mut self, n: u32) -> u32 {
        self.intern(Node::Nim(n))
    }
    fn sum(&mut self, parts: &[u32]) -> Result<u32, Infallible> {
        Ok(self.add(parts))
    }
}

/// Values of stacks 0..=n through the generic engine.
fn generic_top_entails(n: u32) -> Vec<AffineValue> {
    let mut graph = LazyTopEntails::new();
    let mut engine = AffineEngine::new();
    (0..=n)
        .map(|k| {
            let s = graph.stack(k);
            match engine.value(&mut graph, s) {
                Ok(v) => v,
                Err(e) => panic!("{e}"),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    // One-shot timings of the big runs (too slow for criterion's sampling).
    let t = Instant::now();
    let generic = generic_top_entails(2000);
    let generic_time = t.elapsed();
    let fast = loony::theory::affine::top_entails_values(2000);
    assert_eq!(generic, fast, "generic engine and Theorem 41 disagree");
    println!("generic engine, Top Entails n ≤ 2000 (lazy literal forms): {generic_time:?}");

    let t = Instant::now();
    let moons = top_entails_moons(600_000);
    println!("top_entails_moons(600000) = {moons:?} in {:?}", t.elapsed());
    assert_eq!(moons, vec![1, 3, 2403, 2505, 33243]);

    let mut group = c.benchmark_group("affine");
    group.sample_size(10);
    group.bench_function("generic top entails n=300", |b| {
        b.iter(|| generic_top_entails(black_box(300)))
    });
    group.bench_function("fast top entails n=20000", |b| {
        b.iter(|| top_entails_moons(black_box(20_000)))
    });
    // A session asking stack after stack: the fast path resumes one run instead of starting
    // each over, and the ruleset path reads what earlier queries valued (the affine engine's
    // remembered sets) instead of walking every stack's chain of entailing moves again.
    let session = |src: &'static str| {
        move || {
            let mut session = loony::eval::Interp::new();
            let mut out = String::new();
            session
                .run("bench.cgt", src, &mut |s| out = s)
                .expect("runs");
            out
        }
    };
    let fast = session("len([outcome(top_entails_value(n)) for n in 0..=5000])");
    group.bench_function("session [top_entails_value(n) for n in 0..=5000]", |b| {
        b.iter(fast)
    });
    let ruleset =
        session("import \"std/top_entails\"\nlen([outcome(top_entails(n)) for n in 0..=2000])");
    assert_eq!(ruleset(), "2001");
    group.bench_function(
        "session [top_entails(n) for n in 0..=2000] by its ruleset",
        |b| b.iter(ruleset),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
