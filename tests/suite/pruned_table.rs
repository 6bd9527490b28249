//! The transposition table of pruned search: a full table still gives the values of a brute
//! force written here (Cram by bit masks), and the table's file (`save_table`, `load_table`)
//! gives the same answers in a fresh session, while a torn, altered or foreign file is an
//! error, never an answer.

use crate::common::on_big_stack;
use loony::eval::Interp;
use std::collections::HashMap;

/// Cram's nimbers by brute force: a board is a bit mask of free cells on `rows × cols`, a
/// move takes two free cells side by side.
struct Cram {
    moves: Vec<u64>,
    memo: HashMap<u64, u32>,
}

impl Cram {
    fn new(rows: usize, cols: usize) -> Cram {
        let mut moves = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                if c + 1 < cols {
                    moves.push(1 << i | 1 << (i + 1));
                }
                if r + 1 < rows {
                    moves.push(1 << i | 1 << (i + cols));
                }
            }
        }
        Cram {
            moves,
            memo: HashMap::new(),
        }
    }

    fn nimber(&mut self, free: u64) -> u32 {
        if let Some(&v) = self.memo.get(&free) {
            return v;
        }
        let opts: Vec<u64> = self
            .moves
            .iter()
            .filter(|&&m| free & m == m)
            .map(|&m| free & !m)
            .collect();
        let mut seen = vec![false; opts.len() + 1];
        for o in opts {
            let v = self.nimber(o) as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        }
        let v = seen.iter().position(|s| !s).expect("a value is missing") as u32;
        self.memo.insert(free, v);
        v
    }
}

/// The board's picture: free cells `.`, the rest `#`.
fn picture(rows: usize, cols: usize, free: u64) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if free >> (r * cols + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("|")
}

fn nim(v: u32) -> String {
    match v {
        0 => "0".into(),
        1 => "*".into(),
        v => format!("*{v}"),
    }
}

fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

/// Queries of random Cram boards (outcomes of sums with a nimber, then values) and what the
/// brute force says they print.
fn cram_cases(seed: u64, count: usize) -> (String, Vec<String>) {
    let mut src = String::from("import \"std/cram\"\n");
    let mut want = Vec::new();
    let mut s = seed;
    for k in 0..count {
        let (rows, cols) = [(4, 4), (3, 5), (4, 5), (3, 6)][k % 4];
        let mut g = Cram::new(rows, cols);
        let full = (1u64 << (rows * cols)) - 1;
        let a = (lcg(&mut s) | lcg(&mut s)) & full;
        let heap = lcg(&mut s) as u32 % 3;
        let p = picture(rows, cols, a);
        src.push_str(&format!("outcome(cram_board(board(\"{p}\")) + *{heap})\n"));
        want.push(if g.nimber(a) == heap { "P" } else { "N" }.to_string());
        src.push_str(&format!("cram_board(board(\"{p}\"))\n"));
        want.push(nim(g.nimber(a)));
    }
    for (rows, cols) in [(4, 5), (3, 6), (5, 4)] {
        let mut g = Cram::new(rows, cols);
        let v = g.nimber((1u64 << (rows * cols)) - 1);
        src.push_str(&format!("outcome(cram({rows}, {cols}))\n"));
        want.push(if v == 0 { "P" } else { "N" }.to_string());
        src.push_str(&format!("cram({rows}, {cols})\n"));
        want.push(nim(v));
    }
    (src, want)
}

/// Runs `src` in `interp`, returning its lines (and the rendered error, if any).
fn run(interp: &mut Interp, name: &str, src: &str) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    let r = interp.run(name, src, &mut |s| out.push(s));
    (out, r.err().map(|e| e.render_plain(&interp.cx.files)))
}

#[test]
fn a_full_table_gives_the_brute_force_values() {
    let (src, want) = cram_cases(17, 24);
    let (got, stats) = on_big_stack(move || {
        let mut interp = Interp::new();
        interp.cx.set_table_capacity(Some(8));
        let (got, err) = run(&mut interp, "full.cgt", &src);
        assert_eq!(err, None);
        (got, interp.cx.table_stats())
    });
    assert_eq!(got, want);
    assert_eq!(stats.capacity, 8);
    assert!(stats.entries <= 8, "{stats:?}");
    assert!(stats.replacements > 100, "the table was full: {stats:?}");
    assert!(stats.opened > 0 && stats.lookups > 0, "{stats:?}");
}

#[test]
fn a_table_of_the_budget_s_share_gives_the_same_values() {
    let (src, want) = cram_cases(29, 12);
    let (got, stats) = on_big_stack(move || {
        let mut interp = Interp::new();
        let (got, err) = run(&mut interp, "share.cgt", &src);
        assert_eq!(err, None);
        (got, interp.cx.table_stats())
    });
    assert_eq!(got, want);
    assert_eq!(stats.replacements, 0, "{stats:?}");
    assert!(stats.hits > 0, "{stats:?}");
}
