//! The families a sweep runs over, each code once in standard form, and the deterministic
//! share of one shard.

use loony_theory::heap::Code;

/// One game of a family: its code as the lines name it, and the expression that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub code: String,
    pub expr: String,
}

/// Why a family could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum FamilyError {
    /// Not `octal:D`, `hex:D`, `subtraction:MAX:K` or `@FILE`.
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
            FamilyError::Unknown(s) => write!(
                f,
                "unknown family `{s}`: octal:D, hex:D, subtraction:MAX:K or @FILE"
            ),
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
    })
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
