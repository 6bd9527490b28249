//! The families a sweep runs over, each code once in standard form, and the deterministic
//! share of one shard.

use loony_theory::heap::Code;

/// One game of a family: its code as the lines name it, the expression that makes it, and
/// the shipped module that expression needs (board and graph families).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub code: String,
    pub expr: String,
    pub import: Option<&'static str>,
}

impl Game {
    /// A heap game (the heap tasks apply) rather than a game value.
    pub fn is_heap(&self) -> bool {
        self.import.is_none()
    }
}

/// Why a family could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum FamilyError {
    /// Not one of [`FAMILIES`].
    Unknown(String),
    /// A count out of range (`octal:0`, `hex:9`).
    Range {
        family: String,
        most: u32,
    },
    /// A line of an `@FILE` family that is not a heap code.
    BadLine {
        line: usize,
        text: String,
        why: String,
    },
    Io {
        path: String,
        message: String,
    },
}

impl std::fmt::Display for FamilyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FamilyError::Unknown(s) => write!(f, "unknown family `{s}`: {FAMILIES}"),
            FamilyError::Range { family, most } => {
                write!(f, "`{family}` is out of range (at most {most}, at least 1)")
            }
            FamilyError::BadLine { line, text, why } => {
                write!(f, "line {line} (`{text}`) is not a heap code: {why}")
            }
            FamilyError::Io { path, message } => write!(f, "cannot read `{path}`: {message}"),
        }
    }
}

/// The families, as the help and errors name them.
pub const FAMILIES: &str =
    "octal:D, hex:D, subtraction:MAX:K, @FILE, cram:ROWS:COLS or node-kayles:N:M:SEEDS";

/// The games of `family`, sorted by code, each once.
pub fn games(family: &str) -> Result<Vec<Game>, FamilyError> {
    let mut out = if let Some(path) = family.strip_prefix('@') {
        from_file(path)?
    } else {
        let parts: Vec<&str> = family.split(':').collect();
        let count = |s: &str, most: u32| -> Result<u32, FamilyError> {
            match s.parse::<u32>() {
                Ok(n) if (1..=most).contains(&n) => Ok(n),
                _ => Err(FamilyError::Range {
                    family: family.to_string(),
                    most,
                }),
            }
        };
        match parts[..] {
            ["octal", d] => digits(count(d, 6)?, 8),
            ["hex", d] => digits(count(d, 5)?, 16),
            ["subtraction", max, k] => {
                let max = count(max, 64)?;
                subtraction(max, count(k, max)?)
            }
            ["cram", rows, cols] => {
                let range = |s: &str| -> Result<(u32, u32), FamilyError> {
                    match s.split_once('-') {
                        Some((a, b)) => Ok((count(a, 64)?, count(b, 64)?)),
                        None => count(s, 64).map(|n| (n, n)),
                    }
                };
                let boards = cram(range(rows)?, range(cols)?);
                if boards.is_empty() {
                    // Every board of the ranges is over 64 cells.
                    return Err(FamilyError::Range {
                        family: family.to_string(),
                        most: 64,
                    });
                }
                boards
            }
            ["node-kayles", n, m, seeds] => {
                let n = count(n, 64)?;
                let m = count(m, n * (n - 1) / 2)?;
                node_kayles(n, m, count(seeds, 1_000_000)?)
            }
            _ => return Err(FamilyError::Unknown(family.to_string())),
        }
    };
    out.sort_by(|a, b| a.code.cmp(&b.code));
    out.dedup_by(|a, b| a.code == b.code);
    Ok(out)
}

/// Every code `0.d₁…d_D` in base `base` with a nonzero last digit, in standard form.
fn digits(d: u32, base: u32) -> Vec<Game> {
    let mut out = Vec::new();
    let total = base.pow(d);
    for n in 0..total {
        let mut ds = Vec::with_capacity(d as usize);
        let mut x = n;
        for _ in 0..d {
            ds.push(x % base);
            x /= base;
        }
        ds.reverse();
        if ds.last() == Some(&0) {
            continue;
        }
        let text: String = ds
            .iter()
            .map(|&v| {
                char::from_digit(v, base)
                    .expect("a digit")
                    .to_ascii_uppercase()
            })
            .collect();
        if let Some(g) = heap_game(&format!("0.{text}")) {
            out.push(g);
        }
    }
    out
}

/// The game of a heap code, named by its standard form (`04.30` is `4.3`).
fn heap_game(text: &str) -> Option<Game> {
    let code = Code::parse(text).ok()?.to_string();
    Some(Game {
        expr: format!("heap(\"{code}\")"),
        code,
        import: None,
    })
}

/// Cram on every `r × c` board of the ranges (at most 64 cells), each board once: `c × r` is
/// the same game turned, so where both lie in the ranges only `r ≤ c` is kept.
fn cram((r0, r1): (u32, u32), (c0, c1): (u32, u32)) -> Vec<Game> {
    let mut out = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            let turned = (r0..=r1).contains(&c) && (c0..=c1).contains(&r);
            if r * c > 64 || (turned && r > c) {
                continue;
            }
            out.push(Game {
                // Zero-padded, so that codes sort as the table reads.
                code: format!("cram({r:02}, {c:02})"),
                expr: format!("cram({r}, {c})"),
                import: Some("std/cram"),
            });
        }
    }
    out
}

/// Node Kayles on `seeds` random graphs of `n` vertices and `m` distinct edges, seeds
/// `1..=seeds` (the generator of `benches/boards.rs`: a 64-bit LCG, Knuth's constants, its
/// high bits; an edge `(a, b)`, `a < b`, drawn until `m` are distinct).
fn node_kayles(n: u32, m: u32, seeds: u32) -> Vec<Game> {
    (1..=seeds)
        .map(|seed| {
            let edges: Vec<String> = random_graph(u64::from(n), m as usize, u64::from(seed))
                .iter()
                .map(|(a, b)| format!("({a}, {b})"))
                .collect();
            Game {
                code: format!("node-kayles({n}, {m}, seed {seed:06})"),
                expr: format!("node_kayles({n}, [{}])", edges.join(", ")),
                import: Some("std/node_kayles"),
            }
        })
        .collect()
}

/// A random graph of `n` vertices and `m` distinct edges from a fixed seed.
pub fn random_graph(n: u64, m: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut s = seed;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 33
    };
    let mut edges = std::collections::BTreeSet::new();
    while edges.len() < m {
        let (a, b) = (next() % n, next() % n);
        if a != b {
            edges.insert((a.min(b), a.max(b)));
        }
    }
    edges.into_iter().collect()
}

/// Subtraction sets of `k` elements of `1..=max`.
fn subtraction(max: u32, k: u32) -> Vec<Game> {
    let mut out = Vec::new();
    let mut set: Vec<u32> = (1..=k).collect();
    loop {
        let list = set
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        out.push(Game {
            code: format!("subtraction([{list}])"),
            expr: format!("subtraction([{list}])"),
            import: None,
        });
        // The next k-subset in lexicographic order.
        let mut i = k as usize;
        while i > 0 && set[i - 1] == max - (k - i as u32) {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        set[i - 1] += 1;
        for j in i..k as usize {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// One heap code a line; `#` starts a comment, blank lines are skipped.
fn from_file(path: &str) -> Result<Vec<Game>, FamilyError> {
    let text = std::fs::read_to_string(path).map_err(|e| FamilyError::Io {
        path: path.to_string(),
        message: e.to_string(),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        match Code::parse(line) {
            Ok(c) => {
                let code = c.to_string();
                out.push(Game {
                    expr: format!("heap(\"{code}\")"),
                    code,
                    import: None,
                });
            }
            Err(e) => {
                return Err(FamilyError::BadLine {
                    line: i + 1,
                    text: line.to_string(),
                    why: e.to_string(),
                });
            }
        }
    }
    Ok(out)
}

/// Whether `code` belongs to shard `i` of `n`: by a hash of the code itself (FNV-1a), so the
/// share does not depend on the order or the contents of any list.
pub fn in_shard(code: &str, i: u64, n: u64) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in code.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h % n == i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_sizes() {
        // D digits, the last nonzero: 7·8^(D-1) octal codes, 15·16^(D-1) hex ones.
        assert_eq!(games("octal:1").unwrap().len(), 7);
        assert_eq!(games("octal:2").unwrap().len(), 56);
        assert_eq!(games("octal:3").unwrap().len(), 448);
        assert_eq!(games("hex:2").unwrap().len(), 240);
        // C(10, 3).
        assert_eq!(games("subtraction:10:3").unwrap().len(), 120);
        let s = games("subtraction:4:2").unwrap();
        let codes: Vec<&str> = s.iter().map(|g| g.code.as_str()).collect();
        assert!(codes.contains(&"subtraction([1, 4])") && codes.contains(&"subtraction([3, 4])"));
        assert!(games("octal:0").is_err() && games("binary:3").is_err());
        // 1..=3 × 1..=4 with the turned boards once: 1×1..4, 2×2..4, 3×3..4, and no 2×1, 3×1,
        // 3×2 (their turns are there); 4 columns have no turn among the rows.
        let c = games("cram:1-3:1-4").unwrap();
        assert_eq!(c.len(), 9, "{c:?}");
        assert!(c.iter().all(|g| g.import == Some("std/cram")));
        assert_eq!(games("cram:5:3").unwrap()[0].expr, "cram(5, 3)");
        assert!(games("cram:9:9").is_err(), "81 cells");
        let k = games("node-kayles:10:15:4").unwrap();
        assert_eq!(k.len(), 4);
        assert!(k[0].expr.starts_with("node_kayles(10, [("), "{}", k[0].expr);
        assert!(
            games("node-kayles:4:7:1").is_err(),
            "a graph of 4 vertices has 6 edges"
        );
    }

    #[test]
    fn shards_partition_the_family() {
        let all = games("octal:3").unwrap();
        let mut seen = 0;
        let mut sizes = Vec::new();
        for i in 0..4 {
            let n = all.iter().filter(|g| in_shard(&g.code, i, 4)).count();
            sizes.push(n);
            seen += n;
        }
        assert_eq!(seen, all.len());
        // Balanced: each shard within a third of the mean.
        assert!(sizes.iter().all(|&n| n > 448 / 4 * 2 / 3), "{sizes:?}");
    }
}
