//! Misère play through the language, end to end: heap positions and sums converted by the
//! evaluator, against a brute-force search written here from the octal digits.

use crate::common;

use std::collections::HashMap;

/// Moves of the octal game `0.d1d2…`: remove k tokens leaving no heap (bit 1), one (bit 2) or
/// two (bit 4).
fn moves(digits: &[u8], n: usize) -> Vec<Vec<usize>> {
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

/// Misère P-position: every move reaches an N-position, and there is a move.
fn is_p(heaps: Vec<usize>, digits: &[u8], memo: &mut HashMap<Vec<usize>, bool>) -> bool {
    let mut key: Vec<usize> = heaps.into_iter().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut any = false;
    let mut to_p = false;
    for i in 0..key.len() {
        for m in moves(digits, key[i]) {
            any = true;
            let mut next = key.clone();
            next.remove(i);
            next.extend(m);
            to_p |= is_p(next, digits, memo);
        }
    }
    let v = any && !to_p;
    memo.insert(key, v);
    v
}

#[test]
fn outcomes_of_heap_sums_match_search() {
    for (code, digits) in [
        ("0.77", &[7u8, 7][..]),
        ("0.07", &[0, 7][..]),
        ("0.137", &[1, 3, 7][..]),
        ("0.6", &[6][..]),
    ] {
        let mut src = format!("let g = heap(\"{code}\")\n");
        let mut want = String::new();
        let mut memo = HashMap::new();
        for a in 0..=9 {
            for b in a..=9 {
                src.push_str(&format!("misere_outcome(g({a}) + g({b}) + g(3))\n"));
                let p = is_p(vec![a, b, 3], digits, &mut memo);
                want.push_str(if p { "P\n" } else { "N\n" });
            }
        }
        assert_eq!(common::run_named("misere.cgt", &src), want, "{code}");
    }
}

#[test]
fn misere_nimbers_of_dawsons_kayles_match_search() {
    // G⁻ by search: 1 with no move, else the mex of the options' values.
    fn minus(heaps: Vec<usize>, memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
        let mut key: Vec<usize> = heaps.into_iter().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..key.len() {
            for m in moves(&[0, 7], key[i]) {
                let mut next = key.clone();
                next.remove(i);
                next.extend(m);
                seen.push(minus(next, memo));
            }
        }
        let v = if seen.is_empty() {
            1
        } else {
            (0..).find(|v| !seen.contains(v)).unwrap()
        };
        memo.insert(key, v);
        v
    }
    let mut memo = HashMap::new();
    let want: Vec<String> = (0..=20)
        .map(|n| minus(vec![n], &mut memo).to_string())
        .collect();
    let out = common::run_named(
        "misere.cgt",
        "[misere_nimber(heap(\"0.07\")(n)) for n in 0..=20]",
    );
    assert_eq!(out, format!("[{}]\n", want.join(", ")));
}
