//! Games from the literature: each checked against a brute force written here, in Rust, or a
//! published table with its source; never Loony against itself.

use crate::brute::{MaskGame, cram_moves, lcg, mex, nim, picture};
use crate::common;

/// Runs a program and returns its printed lines.
fn lines(src: &str) -> Vec<String> {
    common::run_named("literature.cgt", src)
        .lines()
        .map(str::to_string)
        .collect()
}

// --- Grundy's game: the rare heaps of the sparse split ---

/// Grundy's game by its rule: split a heap into two unequal nonempty heaps.
fn grundy_values(n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    for m in 0..=n {
        let v = mex((1..m).filter(|&a| 2 * a < m).map(|a| g[a] ^ g[m - a]));
        g.push(v);
    }
    g
}

/// The sparse-space criterion (Gangolli–Plambeck; Flammenkamp's tables count this way): heap
/// `m` is common when `(g(m) << 1 | m % 2) & mask` has an odd number of bits, else rare.
fn is_rare(m: usize, g: u32, mask: u64) -> bool {
    (((u64::from(g) << 1) | (m as u64 & 1)) & mask)
        .count_ones()
        .is_multiple_of(2)
}

#[test]
fn grundys_game_rare_heaps_count_heap_zero() {
    let g = grundy_values(30);
    // OEIS A002188, from heap 0.
    assert_eq!(
        g[..21],
        [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ]
    );
    // 2^14 - 1: the mask is re-chosen when the heap count doubles, so here it saw every heap.
    let n = (1usize << 14) - 1;
    let g = grundy_values(n);
    let out = lines(&format!(
        "let r = rare_values(heap(\"4!.0\"), {n})\nr.mask\nr.count\nr.heaps\nr.values"
    ));
    let mask: u64 = out[0].parse().unwrap();
    let count: usize = out[1].parse().unwrap();
    let rare: Vec<usize> = (0..=n).filter(|&m| is_rare(m, g[m], mask)).collect();
    // Heap 0 (value 0, augmented value 0) is rare under every mask, and counted.
    assert_eq!(rare[0], 0);
    assert_eq!(count, rare.len());
    let show = |xs: Vec<String>| format!("[{}]", xs.join(", "));
    assert_eq!(out[2], show(rare.iter().map(|m| m.to_string()).collect()));
    assert_eq!(
        out[3],
        show(rare.iter().map(|&m| g[m].to_string()).collect())
    );
    // No mask leaves fewer heaps rare (every mask over the augmented values that occur).
    let width = 64 - u64::from(*g.iter().max().unwrap()).leading_zeros() + 1;
    let best = (1..1u64 << width)
        .map(|mask| (0..=n).filter(|&m| is_rare(m, g[m], mask)).count())
        .min()
        .unwrap();
    assert_eq!(count, best);
}

/// A list of games as Loony prints it.
fn nims(values: impl IntoIterator<Item = u32>) -> String {
    let shown: Vec<String> = values.into_iter().map(nim).collect();
    format!("[{}]", shown.join(", "))
}

/// A list of outcomes as Loony prints it, from "the player to move wins".
fn outcomes(wins: impl IntoIterator<Item = bool>) -> String {
    let shown: Vec<&str> = wins
        .into_iter()
        .map(|w| if w { "N" } else { "P" })
        .collect();
    format!("[{}]", shown.join(", "))
}

// --- Wythoff's game ---

/// Grundy values of Wythoff's game on `0..n` x `0..n` by the plain mex recurrence.
fn wythoff_values(n: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; n]; n];
    for a in 0..n {
        for b in 0..n {
            let mut opts = Vec::new();
            opts.extend((0..a).map(|x| g[x][b]));
            opts.extend((0..b).map(|y| g[a][y]));
            opts.extend((1..=a.min(b)).map(|k| g[a - k][b - k]));
            g[a][b] = mex(opts);
        }
    }
    g
}

/// Misère Wythoff by search: the player who cannot move wins.
fn wythoff_misere_wins(n: usize) -> Vec<Vec<bool>> {
    let mut w = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            let mut opts = Vec::new();
            opts.extend((0..a).map(|x| (x, b)));
            opts.extend((0..b).map(|y| (a, y)));
            opts.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
            w[a][b] = opts.is_empty() || opts.iter().any(|&(x, y)| !w[x][y]);
        }
    }
    w
}

#[test]
fn wythoff_matches_the_mex_recurrence_and_the_golden_ratio() {
    const N: usize = 24;
    let g = wythoff_values(N);
    // The P-positions are (⌊kφ⌋, ⌊kφ²⌋) = (a_k, a_k + k) and their mirrors (Wythoff 1907),
    // with ⌊kφ⌋ = ⌊(k + √(5k²)) / 2⌋ in integers.
    let isqrt = |x: u64| {
        let mut r = (x as f64).sqrt() as u64;
        while r * r > x {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= x {
            r += 1;
        }
        r
    };
    let mut p = vec![vec![false; N]; N];
    for k in 0..N as u64 {
        let a = ((k + isqrt(5 * k * k)) / 2) as usize;
        let b = a + k as usize;
        if b < N {
            p[a][b] = true;
            p[b][a] = true;
        }
    }
    for a in 0..N {
        for b in 0..N {
            assert_eq!(g[a][b] == 0, p[a][b], "({a}, {b})");
        }
    }
    let out = lines(&format!(
        "import \"std/wythoff\"\n[[wythoff(a, b) for b in 0..{N}] for a in 0..{N}]"
    ));
    let want: Vec<String> = g.iter().map(|row| nims(row.iter().copied())).collect();
    assert_eq!(out[0], format!("[{}]", want.join(", ")));

    // Misère play, on a smaller board.
    const M: usize = 7;
    let w = wythoff_misere_wins(M);
    let out = lines(&format!(
        "import \"std/wythoff\"\n[[misere_outcome(wythoff(a, b)) for b in 0..{M}] for a in 0..{M}]"
    ));
    let want: Vec<String> = w.iter().map(|row| outcomes(row.iter().copied())).collect();
    assert_eq!(out[0], format!("[{}]", want.join(", ")));
}

// --- Mock Turtles ---

/// Coins at places 1..=n as bits 0..n: the positions reachable from `heads` by Mock Turtles'
/// moves (turn one, two or three coins, the rightmost from heads to tails), with a value for
/// each: the Grundy value (`misere` false) or whether the player to move wins misère play.
struct Turtles {
    grundy: std::collections::HashMap<u32, u32>,
    misere: std::collections::HashMap<u32, bool>,
}

impl Turtles {
    fn new() -> Self {
        Turtles {
            grundy: Default::default(),
            misere: Default::default(),
        }
    }

    fn moves(heads: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for r in 0..32 {
            if heads >> r & 1 == 0 {
                continue;
            }
            let h = heads ^ (1 << r);
            out.push(h);
            for a in 0..r {
                out.push(h ^ (1 << a));
                for b in a + 1..r {
                    out.push(h ^ (1 << a) ^ (1 << b));
                }
            }
        }
        out
    }

    fn grundy(&mut self, heads: u32) -> u32 {
        if let Some(&g) = self.grundy.get(&heads) {
            return g;
        }
        let opts: Vec<u32> = Self::moves(heads)
            .into_iter()
            .map(|h| self.grundy(h))
            .collect();
        let g = mex(opts);
        self.grundy.insert(heads, g);
        g
    }

    fn misere_wins(&mut self, heads: u32) -> bool {
        if let Some(&w) = self.misere.get(&heads) {
            return w;
        }
        let moves = Self::moves(heads);
        let w = moves.is_empty() || moves.into_iter().any(|h| !self.misere_wins(h));
        self.misere.insert(heads, w);
        w
    }
}

/// Places (from 1) of a bit set, as Loony's sorted list.
fn places(heads: u32) -> String {
    let ps: Vec<String> = (0..32)
        .filter(|b| heads >> b & 1 == 1)
        .map(|b| (b + 1).to_string())
        .collect();
    format!("[{}]", ps.join(", "))
}

/// A list of `f(places)` for each set of heads (`f` may open more than one bracket, each closed).
fn calls(sets: &[u32], f: &str) -> String {
    let close = ")".repeat(f.matches('(').count() + 1);
    let shown: Vec<String> = sets
        .iter()
        .map(|&h| format!("{f}({}{close}", places(h)))
        .collect();
    format!("[{}]", shown.join(", "))
}

#[test]
fn mock_turtles_match_a_search_over_coin_sets_and_the_odious_numbers() {
    const N: u32 = 9;
    let mut t = Turtles::new();
    let single: Vec<u32> = (1..=N).map(|n| t.grundy(1 << (n - 1))).collect();
    // The odious numbers (an odd number of 1 bits), from 1: Winning Ways ch. 14.
    let odious: Vec<u32> = (1..)
        .filter(|x: &u32| x.count_ones() % 2 == 1)
        .take(N as usize)
        .collect();
    assert_eq!(single, odious);
    assert_eq!(single[..6], [1, 2, 4, 7, 8, 11]);
    // Rows of several heads: all sets of places in 1..=6, and some longer ones.
    let mut sets: Vec<u32> = (0..1 << 6).collect();
    sets.extend([0b1_0010_0001, 0b1_1000_0110, 0b0_1111_0000]);
    let program = format!(
        "import \"std/mock_turtles\"\n[mock_turtles(n) for n in 1..={N}]\n{}",
        calls(&sets, "turtles")
    );
    let out = lines(&program);
    assert_eq!(out[0], nims(single));
    assert_eq!(out[1], nims(sets.iter().map(|&h| t.grundy(h))));

    // Misère play: every set of places in 1..=5.
    let sets: Vec<u32> = (0..1 << 5).collect();
    let program = format!(
        "import \"std/mock_turtles\"\n{}",
        calls(&sets, "misere_outcome(turtles")
    );
    let out = lines(&program);
    assert_eq!(out[0], outcomes(sets.iter().map(|&h| t.misere_wins(h))));
}

// --- Chomp ---

/// Chomp over Young diagrams (row lengths from the bottom, non-increasing, no zero rows).
fn chomp_moves(rows: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for i in 0..rows.len() {
        for j in 0..rows[i] {
            if i == 0 && j == 0 {
                continue; // the poisoned square
            }
            let next: Vec<usize> = rows
                .iter()
                .enumerate()
                .map(|(k, &r)| if k >= i { r.min(j) } else { r })
                .filter(|&r| r > 0)
                .collect();
            out.push(next);
        }
    }
    out
}

fn chomp_grundy(rows: &[usize], memo: &mut std::collections::HashMap<Vec<usize>, u32>) -> u32 {
    if let Some(&g) = memo.get(rows) {
        return g;
    }
    let opts: Vec<u32> = chomp_moves(rows)
        .iter()
        .map(|r| chomp_grundy(r, memo))
        .collect();
    let g = mex(opts);
    memo.insert(rows.to_vec(), g);
    g
}

fn chomp_misere_wins(
    rows: &[usize],
    memo: &mut std::collections::HashMap<Vec<usize>, bool>,
) -> bool {
    if let Some(&w) = memo.get(rows) {
        return w;
    }
    let moves = chomp_moves(rows);
    let w = moves.is_empty() || moves.iter().any(|r| !chomp_misere_wins(r, memo));
    memo.insert(rows.to_vec(), w);
    w
}

fn show_rows(rows: &[usize]) -> String {
    format!(
        "[{}]",
        rows.iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

#[test]
fn chomp_matches_a_search_over_young_diagrams() {
    let mut memo = Default::default();
    let rects: Vec<(usize, usize)> = (1..=5).flat_map(|r| (1..=6).map(move |c| (r, c))).collect();
    let want: Vec<u32> = rects
        .iter()
        .map(|&(r, c)| chomp_grundy(&vec![c; r], &mut memo))
        .collect();
    // Strategy stealing: every rectangle but 1 x 1 is a first-player win.
    for (&(r, c), &g) in rects.iter().zip(&want) {
        assert_eq!(g == 0, (r, c) == (1, 1), "{r} x {c}");
    }
    let diagrams: Vec<Vec<usize>> = vec![
        vec![1],
        vec![2, 1],
        vec![3, 1],
        vec![4, 2, 2],
        vec![5, 3, 1],
        vec![6, 6, 2, 1],
        vec![3, 3, 3, 3],
    ];
    let program = format!(
        "import \"std/chomp\"\n[{}]\n[{}]\n[{}]",
        rects
            .iter()
            .map(|(r, c)| format!("chomp({r}, {c})"))
            .collect::<Vec<_>>()
            .join(", "),
        rects
            .iter()
            .map(|(r, c)| format!("outcome(chomp({r}, {c}))"))
            .collect::<Vec<_>>()
            .join(", "),
        diagrams
            .iter()
            .map(|d| format!("chomp_rows({})", show_rows(d)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let out = lines(&program);
    assert_eq!(out[0], nims(want.iter().copied()));
    assert_eq!(out[1], outcomes(want.iter().map(|&g| g != 0)));
    assert_eq!(
        out[2],
        nims(diagrams.iter().map(|d| chomp_grundy(d, &mut memo)))
    );

    // Misère play: the player who takes the last square but the poisoned one loses.
    let mut misere = Default::default();
    let small: Vec<(usize, usize)> = (1..=3).flat_map(|r| (1..=4).map(move |c| (r, c))).collect();
    let program = format!(
        "import \"std/chomp\"\n[{}]",
        small
            .iter()
            .map(|(r, c)| format!("misere_outcome(chomp({r}, {c}))"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert_eq!(
        lines(&program)[0],
        outcomes(
            small
                .iter()
                .map(|&(r, c)| chomp_misere_wins(&vec![c; r], &mut misere))
        )
    );
}

// --- A token on a digraph: loopy values ---

/// A vertex's generalized Sprague–Grundy value (Smith 1966; Fraenkel–Yesha): a nimber, or
/// `∞(A)` with `A` the nim-values of its options that have one.
#[derive(Clone, Debug, PartialEq)]
enum Gamma {
    Nim(u32),
    Loop(Vec<u32>),
}

impl Gamma {
    fn show(&self) -> String {
        match self {
            Gamma::Nim(n) => nim(*n),
            Gamma::Loop(a) if a.is_empty() => "∞(∅)".into(),
            Gamma::Loop(a) => format!(
                "∞({})",
                a.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
            ),
        }
    }
}

/// Smith's labelling on any finite digraph (`succ[v]`: the options of `v`): for m = 0, 1, …,
/// label m every unlabelled vertex that has no option labelled m, whose labelled options
/// take every value below m, and each of whose unlabelled options has an option labelled m;
/// repeat until nothing changes. What stays unlabelled is ∞ of its options' labels.
fn smith(succ: &[Vec<usize>]) -> Vec<Gamma> {
    let n = succ.len();
    let mut label: Vec<Option<u32>> = vec![None; n];
    let most = succ.iter().map(Vec::len).max().unwrap_or(0) as u32;
    for m in 0..=most {
        loop {
            let mut changed = false;
            for v in 0..n {
                if label[v].is_some() {
                    continue;
                }
                if mex(succ[v].iter().filter_map(|&w| label[w])) != m {
                    continue;
                }
                let countered = succ[v]
                    .iter()
                    .filter(|&&w| label[w].is_none())
                    .all(|&w| succ[w].iter().any(|&z| label[z] == Some(m)));
                if countered {
                    label[v] = Some(m);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    (0..n)
        .map(|v| match label[v] {
            Some(m) => Gamma::Nim(m),
            None => {
                let mut a: Vec<u32> = succ[v].iter().filter_map(|&w| label[w]).collect();
                a.sort_unstable();
                a.dedup();
                Gamma::Loop(a)
            }
        })
        .collect()
}

fn cgt_vertex(v: &cgt::loopy::impartial::vertex::Vertex) -> Gamma {
    use cgt::loopy::impartial::vertex::Vertex;
    match v {
        Vertex::Value(n) => Gamma::Nim(n.value()),
        Vertex::Loop(a) => Gamma::Loop(a.iter().map(|n| n.value()).collect()),
    }
}

/// The arcs of `succ` as a Loony list, and the program line printing every vertex's value.
fn token_walk_line(succ: &[Vec<usize>]) -> String {
    let arcs: Vec<String> = succ
        .iter()
        .enumerate()
        .flat_map(|(a, bs)| bs.iter().map(move |b| format!("({a}, {b})")))
        .collect();
    format!(
        "[token_walk([{}], v) for v in 0..{}]",
        arcs.join(", "),
        succ.len()
    )
}

#[test]
fn token_walk_matches_smiths_labelling_and_cgt_tools() {
    // WindUp(n, S) as a digraph: from i ≠ 0 to (i − m) mod n. The cgt crate solves it; the
    // labelling above must agree with it, and Loony with both.
    let mut graphs: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut want: Vec<Vec<Gamma>> = Vec::new();
    for (n, set) in [
        (7, vec![1, 3, 4]),
        (9, vec![2, 3]),
        (10, vec![1, 4]),
        (12, vec![3, 5, 7]),
    ] {
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                if i == 0 {
                    vec![]
                } else {
                    set.iter().map(|&m| (i + n - m % n) % n).collect()
                }
            })
            .collect();
        let reference: Vec<Gamma> = cgt::loopy::impartial::games::wind_up::WindUp::new_using_graph(
            n as u32,
            set.iter().map(|&m| m as u32).collect(),
        )
        .graph()
        .iter()
        .map(cgt_vertex)
        .collect();
        assert_eq!(smith(&succ), reference, "WindUp({n}, {set:?})");
        graphs.push(succ);
        want.push(reference);
    }
    // Hand-made: a self-loop, a two-cycle, a cycle with an exit to a sink, a cycle whose
    // exits lead to *1 and to 0, a path into a cycle.
    for succ in [
        vec![vec![0]],
        vec![vec![1], vec![0]],
        vec![vec![0, 1], vec![]],
        vec![vec![1], vec![2], vec![0, 3], vec![]],
        vec![vec![1, 3], vec![0, 4], vec![], vec![2], vec![]],
        vec![vec![1], vec![2], vec![3], vec![1]],
    ] {
        want.push(smith(&succ));
        graphs.push(succ);
    }
    // Random digraphs (a fixed generator): 4 to 9 vertices, cycles and sinks both common.
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |k: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % k
    };
    for _ in 0..40 {
        let n = 4 + next(6) as usize;
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|_| {
                let mut out: Vec<usize> = (0..next(4)).map(|_| next(n as u64) as usize).collect();
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        want.push(smith(&succ));
        graphs.push(succ);
    }
    let loopy = want
        .iter()
        .flatten()
        .filter(|g| matches!(g, Gamma::Loop(_)))
        .count();
    assert!(
        loopy > 20,
        "the random graphs should have many ∞ values, got {loopy}"
    );
    let program = std::iter::once("import \"std/token_walk\"".to_string())
        .chain(graphs.iter().map(|g| token_walk_line(g)))
        .collect::<Vec<_>>()
        .join("\n");
    let out = lines(&program);
    assert_eq!(out.len(), graphs.len(), "{out:?}");
    for ((got, want), succ) in out.iter().zip(&want).zip(&graphs) {
        let want = format!(
            "[{}]",
            want.iter().map(Gamma::show).collect::<Vec<_>>().join(", ")
        );
        assert_eq!(got, &want, "{succ:?}");
    }
}

// --- Dawson's Chess ---

/// Dawson's Chess by the rules of chess: a 3 x n board of cells `3f + r` (file f, rank r
/// from White's side), 0 empty, 1 White, 2 Black; White moves up, Black down; a capture is
/// compulsory. Positions with the side to move. Panics if a pawn would reach its last rank
/// (a promotion, which the game is said never to meet).
struct Chess {
    n: usize,
}

impl Chess {
    fn start(&self) -> Vec<u8> {
        (0..self.n).flat_map(|_| [1, 0, 2]).collect()
    }

    /// The legal plies of `side` (1 White, 2 Black): the captures if any, else the pushes.
    fn plies(&self, b: &[u8], side: u8) -> Vec<Vec<u8>> {
        let (enemy, dir): (u8, isize) = if side == 1 { (2, 1) } else { (1, -1) };
        let at = |f: isize, r: isize| -> Option<u8> {
            ((0..self.n as isize).contains(&f) && (0..3).contains(&r))
                .then(|| b[(3 * f + r) as usize])
        };
        let mv = |from: (isize, isize), to: (isize, isize)| {
            let last = if side == 1 { 2 } else { 0 };
            assert_ne!(to.1, last, "a promotion on {b:?}");
            let mut next = b.to_vec();
            next[(3 * from.0 + from.1) as usize] = 0;
            next[(3 * to.0 + to.1) as usize] = side;
            next
        };
        let pawns: Vec<(isize, isize)> = (0..self.n as isize)
            .flat_map(|f| (0..3).map(move |r| (f, r)))
            .filter(|&(f, r)| at(f, r) == Some(side))
            .collect();
        let mut captures = Vec::new();
        for &(f, r) in &pawns {
            for g in [f - 1, f + 1] {
                if at(g, r + dir) == Some(enemy) {
                    captures.push(mv((f, r), (g, r + dir)));
                }
            }
        }
        if !captures.is_empty() {
            return captures;
        }
        pawns
            .iter()
            .filter(|&&(f, r)| at(f, r + dir) == Some(0))
            .map(|&(f, r)| mv((f, r), (f, r + dir)))
            .collect()
    }

    fn has_capture(&self, b: &[u8], side: u8) -> bool {
        // A capture changes the count of the other side's pawns.
        let count = |b: &[u8]| b.iter().filter(|&&c| c == 3 - side).count();
        self.plies(b, side)
            .first()
            .is_some_and(|next| count(next) < count(b))
    }

    /// Grundy value of the game played ply by ply.
    fn ply_grundy(
        &self,
        b: &[u8],
        side: u8,
        memo: &mut std::collections::HashMap<(Vec<u8>, u8), u32>,
    ) -> u32 {
        if let Some(&g) = memo.get(&(b.to_vec(), side)) {
            return g;
        }
        let opts: Vec<u32> = self
            .plies(b, side)
            .iter()
            .map(|next| self.ply_grundy(next, 3 - side, memo))
            .collect();
        let g = mex(opts);
        memo.insert((b.to_vec(), side), g);
        g
    }

    /// Grundy value with a move being a ply and the captures it forces, every order of them
    /// an option; asserts each exchange ends with the mover's opponent to move.
    fn exchange_grundy(
        &self,
        b: &[u8],
        side: u8,
        memo: &mut std::collections::HashMap<(Vec<u8>, u8), u32>,
    ) -> u32 {
        if let Some(&g) = memo.get(&(b.to_vec(), side)) {
            return g;
        }
        let mut ends = Vec::new();
        let mut stack: Vec<(Vec<u8>, u8)> = self
            .plies(b, side)
            .into_iter()
            .map(|next| (next, 3 - side))
            .collect();
        while let Some((board, to_move)) = stack.pop() {
            if self.has_capture(&board, to_move) {
                for next in self.plies(&board, to_move) {
                    stack.push((next, 3 - to_move));
                }
            } else {
                assert_eq!(
                    to_move,
                    3 - side,
                    "an exchange that ends with the mover to move"
                );
                ends.push(board);
            }
        }
        let opts: Vec<u32> = ends
            .iter()
            .map(|e| self.exchange_grundy(e, 3 - side, memo))
            .collect();
        let g = mex(opts);
        memo.insert((b.to_vec(), side), g);
        g
    }
}

/// Node Kayles on a path of n vertices (a move removes a vertex and its neighbours): the
/// octal game 0.137, by its own mex recurrence.
fn node_kayles_path(n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n);
    for m in 0..n {
        let opts: Vec<u32> = (0..m)
            .map(|i| g[i.saturating_sub(1)] ^ g[(m - i - 1).saturating_sub(1)])
            .collect();
        g.push(mex(opts));
    }
    g
}

#[test]
fn dawson_chess_is_node_kayles_on_a_path_by_the_rules_of_chess() {
    const N: usize = 11;
    let nk = node_kayles_path(N);
    // 0.137 at n is Dawson's Kayles 0.07 at n + 1 (Winning Ways ch. 4; the 0.07 values as
    // tests/suite/plot.rs has them).
    let dawsons_kayles = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2];
    assert_eq!(nk[..], dawsons_kayles[1..=N]);
    // (i) By the rules of chess, side to move and compulsory captures: the first player wins
    // exactly where 0.137 is not 0; and a ply with its forced exchange as one move gives the
    // nimbers of 0.137 (every exchange handing the move to the opponent).
    let mut ply = Vec::new();
    for (n, &want) in nk.iter().enumerate() {
        let chess = Chess { n };
        let mut memo = Default::default();
        let g = chess.ply_grundy(&chess.start(), 1, &mut memo);
        assert_eq!(g != 0, want != 0, "outcome of 3 x {n}");
        ply.push(g);
        let mut memo = Default::default();
        assert_eq!(
            chess.exchange_grundy(&chess.start(), 1, &mut memo),
            want,
            "3 x {n}"
        );
    }
    // (ii) The module: its nimbers are 0.137's; played ply by ply, its outcomes are chess's
    // and its nimbers those of the ply-by-ply game above, which are not 0.137's.
    let out = lines(&format!(
        "import \"std/dawson_chess\"\n[dawson_chess(n) for n in 0..{N}]\n\
         [outcome(dawson_chess(n)) for n in 0..{N}]\n[dawson_chess_plies(n) for n in 0..{N}]"
    ));
    assert_eq!(out[0], nims(nk.iter().copied()));
    assert_eq!(out[1], outcomes(nk.iter().map(|&g| g != 0)));
    assert_eq!(out[2], nims(ply.iter().copied()));
    assert_ne!(ply[5], nk[5]);
}

// --- Cram and Node Kayles: rulesets that split, against plain searches over bit masks ---

#[test]
fn cram_matches_a_search_over_the_whole_board() {
    // Every rectangle up to 4 × 5 and 3 × 6, from the empty board.
    let mut src = String::from("import \"std/cram\"\n");
    let mut want = Vec::new();
    for rows in 1..=4 {
        for cols in 1..=if rows <= 3 { 6 } else { 5 } {
            let moves = cram_moves(rows, cols);
            let mut g = MaskGame::new(moves.clone());
            let full = (1u64 << (rows * cols)) - 1;
            want.push(nim(g.grundy(full, &moves)));
            src.push_str(&format!("cram({rows}, {cols})\n"));
        }
    }
    // Boards with blocked cells: 60 random masks of 4 × 4 and 3 × 5.
    let mut s = 7;
    for k in 0..60 {
        let (rows, cols) = if k % 2 == 0 { (4, 4) } else { (3, 5) };
        let free = lcg(&mut s) & ((1 << (rows * cols)) - 1);
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        want.push(nim(g.grundy(free, &moves)));
        src.push_str(&format!(
            "cram_board(board(\"{}\"))\n",
            picture(rows, cols, free)
        ));
    }
    assert_eq!(lines(&src), want);
}

#[test]
fn cram_winning_moves_and_misere_through_the_same_ruleset() {
    // Misère play of the splitting ruleset: the parts add as misère games, never as nimbers.
    let mut src = String::from("import \"std/cram\"\n");
    let mut want = Vec::new();
    for (rows, cols) in [(1, 5), (2, 3), (2, 4), (3, 3), (3, 4), (2, 5)] {
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        want.push(
            if g.misere_wins(full, &moves) {
                "N"
            } else {
                "P"
            }
            .to_string(),
        );
        src.push_str(&format!("misere_outcome(cram({rows}, {cols}))\n"));
    }
    // A board has winning moves exactly when the plain search finds a move to a P-position.
    for (rows, cols) in [(3, 3), (3, 5), (2, 5), (4, 3)] {
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        let wins = moves.iter().any(|&m| g.grundy(full & !m, &moves) == 0);
        src.push_str(&format!("len(winning_moves(cram({rows}, {cols}))) > 0\n"));
        want.push(wins.to_string());
    }
    assert_eq!(lines(&src), want);
}

/// Node Kayles's moves on a graph: choosing `v` removes its closed neighbourhood.
fn node_kayles_moves(n: usize, edges: &[(usize, usize)]) -> (Vec<u64>, Vec<u64>) {
    let mut closed: Vec<u64> = (0..n).map(|v| 1 << v).collect();
    for &(a, b) in edges {
        closed[a] |= 1 << b;
        closed[b] |= 1 << a;
    }
    ((0..n).map(|v| 1 << v).collect(), closed)
}

#[test]
fn node_kayles_matches_a_search_over_vertex_sets() {
    let mut src = String::from("import \"std/node_kayles\"\n");
    let mut want = Vec::new();
    // Paths: Dawson's Chess, 0.137.
    let path = node_kayles_path(12);
    for (n, &v) in path.iter().enumerate().skip(1) {
        src.push_str(&format!(
            "node_kayles({n}, [(i, i + 1) for i in 0..({n} - 1)])\n"
        ));
        want.push(nim(v));
    }
    // Random graphs of 5 to 12 vertices (values and misère outcomes), and stars and cycles.
    let mut s = 11;
    let mut graphs: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    for _ in 0..40 {
        let n = 5 + lcg(&mut s) as usize % 8;
        let m = lcg(&mut s) as usize % (2 * n);
        let mut edges = Vec::new();
        for _ in 0..m {
            let (a, b) = (lcg(&mut s) as usize % n, lcg(&mut s) as usize % n);
            if a != b {
                edges.push((a, b));
            }
        }
        graphs.push((n, edges));
    }
    for n in 3..9 {
        graphs.push((n + 1, (1..=n).map(|v| (0, v)).collect()));
        graphs.push((n, (0..n).map(|v| (v, (v + 1) % n)).collect()));
    }
    for (n, edges) in &graphs {
        let (take_when, take) = node_kayles_moves(*n, edges);
        let mut g = MaskGame::new(take_when);
        let all = (1u64 << n) - 1;
        let shown: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
        let e = format!("[{}]", shown.join(", "));
        src.push_str(&format!("node_kayles({n}, {e})\n"));
        want.push(nim(g.grundy(all, &take)));
        src.push_str(&format!("misere_outcome(node_kayles({n}, {e}))\n"));
        want.push(if g.misere_wins(all, &take) { "N" } else { "P" }.into());
    }
    assert_eq!(lines(&src), want);
}

// --- pruned search (outcomes and values of sums of parts, asked cold) ---

#[test]
fn pruned_search_outcomes_of_sums_match_the_plain_search() {
    // Outcomes asked before any value is known (the search answers one question of the sum),
    // then the values of the same parts in the same session (its table kept).
    let mut src = String::from("import \"std/cram\"\nimport \"std/node_kayles\"\n");
    let mut want = Vec::new();
    let mut values = Vec::new();
    let mut s = 5;
    for k in 0..40 {
        let (rows, cols) = if k % 2 == 0 { (4, 4) } else { (3, 5) };
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        let (a, b) = (lcg(&mut s) & full, lcg(&mut s) & full | lcg(&mut s) & full);
        let heap = lcg(&mut s) as u32 % 4;
        let x = g.grundy(a, &moves) ^ g.grundy(b, &moves) ^ heap;
        src.push_str(&format!(
            "outcome(cram_board(board(\"{}\")) + cram_board(board(\"{}\")) + *{heap})\n",
            picture(rows, cols, a),
            picture(rows, cols, b)
        ));
        want.push(if x == 0 { "P" } else { "N" }.to_string());
        values.push((
            format!("cram_board(board(\"{}\"))\n", picture(rows, cols, b)),
            nim(g.grundy(b, &moves)),
        ));
    }
    for (rows, cols) in [(4, 5), (3, 6), (2, 7)] {
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        src.push_str(&format!("outcome(cram({rows}, {cols}))\n"));
        want.push(
            if g.grundy(full, &moves) == 0 {
                "P"
            } else {
                "N"
            }
            .to_string(),
        );
    }
    // Random graphs of 8 to 13 vertices, then of 16 to 21, then paths and cycles of 14 to 24:
    // a search keeps its parts of more than 12 vertices as met, not labelled (outside a search
    // every part is labelled); each option of a cycle is one path of three vertices fewer.
    let mut graphs: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    for k in 0..26 {
        let n = if k < 20 { 8 } else { 16 } + lcg(&mut s) as usize % 6;
        let mut edges = Vec::new();
        for _ in 0..n + if k < 20 { n / 2 } else { n / 3 } {
            let (a, b) = (lcg(&mut s) as usize % n, lcg(&mut s) as usize % n);
            if a != b {
                edges.push((a, b));
            }
        }
        graphs.push((n, edges));
    }
    for n in [14, 17, 20, 24] {
        graphs.push((n, (0..n - 1).map(|v| (v, v + 1)).collect()));
        graphs.push((n, (0..n).map(|v| (v, (v + 1) % n)).collect()));
    }
    for (n, edges) in graphs {
        let (take_when, take) = node_kayles_moves(n, &edges);
        let mut g = MaskGame::new(take_when);
        let v = g.grundy((1u64 << n) - 1, &take);
        let shown: Vec<String> = edges.iter().map(|(a, b)| format!("({a}, {b})")).collect();
        let game = format!("node_kayles({n}, [{}])", shown.join(", "));
        src.push_str(&format!("outcome({game})\n"));
        want.push(if v == 0 { "P" } else { "N" }.to_string());
        values.push((format!("{game}\n"), nim(v)));
    }
    for (line, v) in values {
        src.push_str(&line);
        want.push(v);
    }
    assert_eq!(lines(&src), want);
}

#[test]
fn a_loopy_ruleset_that_splits_has_the_values_of_its_twin_that_does_not() {
    // The search meets a part again while searching its options (a cycle of moves) and
    // leaves the game to the loopy engine: the same values as without the clause.
    let rules = |name: &str, clause: &str| {
        format!(
            "ruleset {name}(n) {clause} {{\n  for k in 0..n => {name}(k)\n  \
             for k in [n] if n % 3 == 1 => {name}(n)\n  for k in [n] if n >= 2 => {name}(n - 2)\n}}\n"
        )
    };
    let mut src = rules("plain", "");
    src.push_str(&rules("pieces", "split by [n]"));
    src.push_str("[plain(n) for n in 0..8]\n[pieces(n) for n in 0..8]\n");
    src.push_str("[outcome(plain(n)) for n in 0..8]\n[outcome(pieces(n)) for n in 0..8]\n");
    let out = lines(&src);
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(out[0], out[1]);
    assert_eq!(out[2], out[3]);
    assert!(out[0].contains('∞'), "the game is loopy: {}", out[0]);
}

#[test]
fn a_loopy_part_with_few_options_is_not_ruled_out_by_their_count() {
    // Position 50 has options 0, *, *2 and 100, a loopy part (100 and 101 move to each
    // other) of one option. A nimber is at most the number of options only in a finite
    // game: 100 is no witness against *3 (it has no option *3), so 50 is ∞(0,1,2), as the
    // twin without the clause says. The search took 100's count for a witness and said *3.
    let rules = |name: &str, clause: &str| {
        format!(
            "ruleset {name}(n) {clause} {{\n  for k in 0..3 if n == 50 or n <= 2 and k < n => \
             {name}(k)\n  for k in [100] if n == 50 => {name}(k)\n  \
             for k in [101] if n == 100 => {name}(k)\n  for k in [100] if n == 101 => {name}(k)\n}}\n"
        )
    };
    let mut src = rules("plain", "");
    src.push_str(&rules("pieces", "split by [n]"));
    src.push_str("plain(50)\npieces(50)\npieces(2)\n");
    src.push_str("outcome(plain(50) + *3)\noutcome(pieces(50) + *3)\n");
    let out = lines(&src);
    assert_eq!(out[..3], ["∞(0,1,2)", "∞(0,1,2)", "*2"]);
    assert_eq!(out[3], out[4]);
}

// --- bit operations, in the interpreter, in compiled rules and in register code ---

#[test]
fn bit_operations_match_rust_and_python() {
    let mut s = 5;
    let mut src = String::new();
    let mut want = Vec::new();
    for _ in 0..200 {
        let x = (lcg(&mut s) as i64 - (1 << 30))
            * if lcg(&mut s).is_multiple_of(3) {
                1 << 20
            } else {
                1
            };
        let y = lcg(&mut s) as i64 % 5000 - 2500;
        let k = lcg(&mut s) as i64 % 70;
        src.push_str(&format!(
            "[{x} & {y}, {x} | {y}, {x} xor {y}, {x} ^^ {y}, {x} >> {k}]\n"
        ));
        want.push(format!(
            "[{}, {}, {}, {}, {}]",
            x & y,
            x | y,
            x ^ y,
            x ^ y,
            x >> k.min(63)
        ));
        let small = y.rem_euclid(1 << 20);
        let sh = k % 40;
        src.push_str(&format!("{small} << {sh}\n"));
        want.push((small << sh).to_string());
    }
    // Precedence as documented (Python's): shifts bind tighter than `&`, `&` than `xor`,
    // `xor` than `|`, and all of them looser than `+` and tighter than comparisons.
    src.push_str("1 << 2 + 1\n6 & 3 == 2\n1 | 2 xor 3 & 5\n[x | 1 for x in 0..4]\n");
    want.extend(["8", "true", "3", "[1, 1, 3, 3]"].map(String::from));
    assert_eq!(lines(&src), want);
}

/// Cram on a bit mask written with the operators: the rules run as register code (integers
/// only), and agree with the plain search.
#[test]
fn a_bit_mask_ruleset_matches_the_plain_search() {
    let src = "\
ruleset cm(w, h, free) {
  for i in 0..(w * h) if (free >> i) & 3 == 3 and i % w + 1 < w => cm(w, h, free xor (3 << i))
  for i in 0..(w * h - w) if (free >> i) & 1 == 1 and (free >> (i + w)) & 1 == 1 =>
    cm(w, h, free xor (1 << i | 1 << (i + w)))
}
"
    .to_string();
    let mut prog = src.clone();
    let mut want = Vec::new();
    for (rows, cols) in [(2, 3), (3, 3), (3, 4), (4, 4), (2, 6)] {
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        let full = (1u64 << (rows * cols)) - 1;
        want.push(nim(g.grundy(full, &moves)));
        prog.push_str(&format!("cm({cols}, {rows}, {full})\n"));
    }
    assert_eq!(lines(&prog), want);
}

// --- set literals ---

/// Nimbers of "distinct heaps": a position is a set of positive heap sizes (a bit mask, bit
/// `h` for heap `h`); a move lowers one heap to a size no other heap has (0 removes it).
fn distinct_heaps(mask: u32, memo: &mut std::collections::HashMap<u32, u32>) -> u32 {
    if let Some(&g) = memo.get(&mask) {
        return g;
    }
    let mut seen = Vec::new();
    for x in (1..32).filter(|x| mask >> x & 1 == 1) {
        for y in (0..x).filter(|y| mask >> y & 1 == 0) {
            let next = (mask & !(1 << x)) | if y > 0 { 1 << y } else { 0 };
            seen.push(distinct_heaps(next, memo));
        }
    }
    let g = mex(seen);
    memo.insert(mask, g);
    g
}

/// `{…}` without a bar is the sorted set of its integers, in a statement, in a function (the
/// compiled path) and as a ruleset's position, against Rust's own sets and a brute force.
#[test]
fn set_literals_are_sorted_sets_of_integers() {
    let mut s = 11;
    let (mut src, mut want) = (String::new(), Vec::new());
    src.push_str("fn three(a, b, c) = {a, b, c}\n");
    for _ in 0..60 {
        let xs: Vec<i64> = (0..lcg(&mut s) % 7)
            .map(|_| lcg(&mut s) as i64 % 9 - 4)
            .collect();
        let set: std::collections::BTreeSet<i64> = xs.iter().copied().collect();
        let items: Vec<String> = xs.iter().map(i64::to_string).collect();
        let sorted: Vec<String> = set.iter().map(i64::to_string).collect();
        src.push_str(&format!("{{{}}}\n", items.join(", ")));
        want.push(format!("[{}]", sorted.join(", ")));
        let (a, b, c) = (xs.first(), xs.last(), xs.get(1));
        if let (Some(a), Some(b), Some(c)) = (a, b, c) {
            let three: std::collections::BTreeSet<i64> = [*a, *b, *c].into();
            let three: Vec<String> = three.iter().map(i64::to_string).collect();
            src.push_str(&format!("three({a}, {b}, {c})\n"));
            want.push(format!("[{}]", three.join(", ")));
        }
    }
    src.push_str(
        "ruleset dn(s) {\n  for x in s for y in 0..x if not contains(s, y) =>\n    \
         dn(union(difference(s, {x}), if y > 0 then {y} else {}))\n}\n",
    );
    let mut memo = std::collections::HashMap::new();
    for mask in (0u32..256).step_by(3).map(|m| m << 1) {
        let heaps: Vec<String> = (1..9)
            .filter(|h| mask >> h & 1 == 1)
            .map(|h: u32| h.to_string())
            .collect();
        src.push_str(&format!("dn({{{}}})\n", heaps.join(", ")));
        want.push(nim(distinct_heaps(mask, &mut memo)));
    }
    assert_eq!(lines(&src), want);
}

/// The boards of each sum in a printed list of Cram positions, e.g.
/// `[cram_board(board("..")) + cram_board(board("...")), cram_board(board("#."))]`.
fn printed_sums(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    let mut rest = text;
    while let Some(at) = rest.find("board(\"") {
        let from = at + "board(\"".len();
        let len = rest[from..].find('"').expect("a closing quote");
        out.last_mut()
            .unwrap()
            .push(rest[from..from + len].to_string());
        rest = &rest[from + len..];
        // `"))` then ` + ` (the same sum), `, ` (the next) or `]`.
        rest = &rest[3..];
        if rest.starts_with(", ") {
            out.push(Vec::new());
        }
    }
    out.retain(|v| !v.is_empty());
    out
}

/// The mask, rows and columns of a board picture (`.` free).
fn mask_of(picture: &str) -> (u64, usize, usize) {
    let rows: Vec<&str> = picture.split('|').collect();
    let cols = rows[0].len();
    let mut free = 0u64;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '.' {
                free |= 1 << (r * cols + c);
            }
        }
    }
    (free, rows.len(), cols)
}

/// `winning_moves` of a splitting ruleset asks one pruned question an option: on random
/// boards with blocked cells (so their positions are sums of regions), every move it lists
/// is a sum of parts whose nimbers, by a brute force over each part's mask, add to 0, and it
/// lists one exactly when the brute force finds a move to a P-position.
#[test]
fn cram_winning_moves_by_pruned_questions_match_a_brute_force() {
    let mut src = String::from("import \"std/cram\"\n");
    let mut wins = Vec::new();
    let mut s = 23;
    for k in 0..24 {
        let (rows, cols) = if k % 2 == 0 { (4, 5) } else { (3, 6) };
        let free = lcg(&mut s) | lcg(&mut s) << 8;
        let free = free & ((1 << (rows * cols)) - 1);
        let moves = cram_moves(rows, cols);
        let mut g = MaskGame::new(moves.clone());
        wins.push(
            g.options(free, &moves)
                .into_iter()
                .any(|o| g.grundy(o, &moves) == 0),
        );
        src.push_str(&format!(
            "winning_moves(cram_board(board(\"{}\")))\n",
            picture(rows, cols, free)
        ));
    }
    let out = lines(&src);
    assert_eq!(out.len(), wins.len());
    let mut listed = 0;
    for (text, win) in out.iter().zip(wins) {
        let sums = printed_sums(text);
        assert_eq!(!sums.is_empty(), win, "{text}");
        for parts in sums {
            let total = parts.iter().fold(0, |acc, p| {
                let (f, r, c) = mask_of(p);
                let moves = cram_moves(r, c);
                acc ^ MaskGame::new(moves.clone()).grundy(f, &moves)
            });
            assert_eq!(
                total, 0,
                "a listed move of {text} is not to a P-position: {parts:?}"
            );
            listed += 1;
        }
    }
    assert!(listed > 20, "only {listed} moves listed");
}
