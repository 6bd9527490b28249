//! Brute forces and helpers the tests share: values computed here, in Rust, by the games'
//! rules over bit masks, never by Loony.

/// The smallest natural number not in `seen`.
pub fn mex(seen: impl IntoIterator<Item = u32>) -> u32 {
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

/// `*n` as Loony prints it.
pub fn nim(n: u32) -> String {
    match n {
        0 => "0".into(),
        1 => "*".into(),
        n => format!("*{n}"),
    }
}

/// Grundy values (and misère wins) of a game on bit masks whose moves are given by `moves`
/// (each move a mask of what it removes, playable when all of it is present), by a plain memo
/// over the whole mask: no splitting, no symmetry.
pub struct MaskGame {
    moves: Vec<u64>,
    memo: std::collections::HashMap<u64, u32>,
    misere: std::collections::HashMap<u64, bool>,
}

impl MaskGame {
    pub fn new(moves: Vec<u64>) -> MaskGame {
        MaskGame {
            moves,
            memo: Default::default(),
            misere: Default::default(),
        }
    }

    /// The options of `free`, as in the game's rule (`take[i]` what playing move `i`
    /// removes).
    pub fn options(&self, free: u64, take: &[u64]) -> Vec<u64> {
        self.moves
            .iter()
            .zip(take)
            .filter(|&(&m, _)| free & m == m)
            .map(|(_, &t)| free & !t)
            .collect()
    }

    pub fn grundy(&mut self, free: u64, take: &[u64]) -> u32 {
        if let Some(&v) = self.memo.get(&free) {
            return v;
        }
        let opts = self.options(free, take);
        let v = mex(opts.into_iter().map(|o| self.grundy(o, take)));
        self.memo.insert(free, v);
        v
    }

    /// Whether the player to move wins under misère play (who cannot move wins).
    pub fn misere_wins(&mut self, free: u64, take: &[u64]) -> bool {
        if let Some(&v) = self.misere.get(&free) {
            return v;
        }
        let opts = self.options(free, take);
        let v = opts.is_empty() || opts.into_iter().any(|o| !self.misere_wins(o, take));
        self.misere.insert(free, v);
        v
    }
}

/// Cram's moves on a `rows × cols` board: dominoes across and down.
pub fn cram_moves(rows: usize, cols: usize) -> Vec<u64> {
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if c + 1 < cols {
                out.push(1 << i | 1 << (i + 1));
            }
            if r + 1 < rows {
                out.push(1 << i | 1 << (i + cols));
            }
        }
    }
    out
}

/// A board's picture with the cells of `free` empty and the rest blocked.
pub fn picture(rows: usize, cols: usize, free: u64) -> String {
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

/// A fixed-seed generator for the random cases.
pub fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}
