//! Normal play: the minimum excluded value. The mex rule itself runs inside the classifier
//! (a position on no cycle whose options are nimbers takes the mex of their values); this is the
//! word-parallel mex used there and by the `mex` built-in.

/// Minimum excluded value of `values`, using a word mask while values are small.
pub fn mex(values: &[u32], scratch: &mut Vec<u64>) -> u32 {
    let mut small = 0u64;
    let mut any_big = false;
    for &v in values {
        if v < 64 {
            small |= 1 << v;
        } else {
            any_big = true;
        }
    }
    if small != u64::MAX || !any_big {
        return (!small).trailing_zeros();
    }
    scratch.clear();
    scratch.resize(values.len() / 64 + 1, 0);
    for &v in values {
        let v = v as usize;
        if v / 64 < scratch.len() {
            scratch[v / 64] |= 1 << (v % 64);
        }
    }
    for (i, w) in scratch.iter().enumerate() {
        if *w != u64::MAX {
            return (i * 64) as u32 + (!w).trailing_zeros();
        }
    }
    (scratch.len() * 64) as u32
}

#[cfg(test)]
mod tests {
    use super::mex;

    #[test]
    fn mex_against_a_scan() {
        let cases: &[&[u32]] = &[&[], &[0], &[1, 2], &[0, 1, 2, 4], &[3, 0, 1, 2]];
        for &c in cases {
            let want = (0..)
                .find(|k| !c.contains(k))
                .expect("some value is missing");
            assert_eq!(mex(c, &mut Vec::new()), want, "{c:?}");
        }
        let all: Vec<u32> = (0..200).filter(|&k| k != 150).collect();
        assert_eq!(mex(&all, &mut Vec::new()), 150);
    }
}
