//! Games from the literature: each checked against a brute force written here, in Rust, or a
//! published table with its source; never Loony against itself.

use crate::common;

/// Runs a program and returns its printed lines.
fn lines(src: &str) -> Vec<String> {
    common::run_named("literature.cgt", src)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The smallest natural number not in `seen`.
fn mex(seen: impl IntoIterator<Item = u32>) -> u32 {
    let mut marks = Vec::new();
    for v in seen {
        let v = v as usize;
        if v >= marks.len() {
            marks.resize(v + 1, false);
        }
        marks[v] = true;
    }
    marks.iter().position(|m| !m).unwrap_or(marks.len()) as u32
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
