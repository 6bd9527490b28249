//! Nim-field arithmetic: Conway's multiplication of nimbers on `u64` (the field of order
//! 2^64), with inverses and quotients. Addition is xor.
//!
//! For a Fermat 2-power `F = 2^(2^k)`, numbers below `F²` are `a₁F ⊕ a₀` with `a₁, a₀ < F`,
//! and `F ⊗ F = F ⊕ F/2` (that is `3F/2`). So
//! `(a₁F ⊕ a₀)(b₁F ⊕ b₀) = ((a₁⊕a₀)(b₁⊕b₀) ⊕ a₀b₀) F ⊕ a₀b₀ ⊕ (a₁b₁)(F/2)`:
//! three products in the half field and one by its constant `F/2`, down to bytes, which a
//! 64 KiB table multiplies. The recursion is six levels deep at most.

use std::sync::OnceLock;

/// Products of bytes (the field of order 256), built once by the same split.
fn byte_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u8; 65536]);
        for a in 0..256u64 {
            for b in 0..256u64 {
                table[(a << 8 | b) as usize] = split_mul(a, b, 8) as u8;
            }
        }
        table
    })
}

/// The product of `a, b < 2^bits` (`bits` a power of two) by splitting, bytes from the table
/// once it exists.
fn split_mul(a: u64, b: u64, bits: u32) -> u64 {
    if bits == 1 {
        return a & b;
    }
    if bits == 8
        && let Some(table) = BYTES.get()
    {
        return u64::from(table[(a << 8 | b) as usize]);
    }
    let h = bits / 2;
    let mask = (1u64 << h) - 1;
    let (a1, a0, b1, b0) = (a >> h, a & mask, b >> h, b & mask);
    let low = split_mul(a0, b0, h);
    let high = split_mul(a1, b1, h);
    let cross = split_mul(a1 ^ a0, b1 ^ b0, h);
    ((cross ^ low) << h) | (low ^ split_mul(high, 1 << (h - 1), h))
}

static BYTES: OnceLock<&'static [u8; 65536]> = OnceLock::new();

/// Conway's nim product `a ⊗ b`.
pub fn nim_product(a: u64, b: u64) -> u64 {
    BYTES.get_or_init(byte_table);
    let bits = (64 - (a | b).leading_zeros()).max(1).next_power_of_two();
    split_mul(a, b, bits.clamp(8, 64))
}

/// The multiplicative inverse of `a ≠ 0`: `a^(2^m − 2)` in the smallest field `2^m` holding
/// `a`, that is the product of `a^2, a^4, …, a^(2^(m−1))`.
pub fn nim_inverse(a: u64) -> Option<u64> {
    if a == 0 {
        return None;
    }
    let m = (64 - a.leading_zeros()).next_power_of_two();
    let (mut square, mut result) = (a, 1);
    for _ in 1..m {
        square = nim_product(square, square);
        result = nim_product(result, square);
    }
    Some(result)
}

/// `a ⊘ b` for `b ≠ 0`.
pub fn nim_div(a: u64, b: u64) -> Option<u64> {
    Some(nim_product(a, nim_inverse(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition: `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`.
    fn mex_table(size: usize) -> Vec<Vec<u64>> {
        let mut t = vec![vec![0u64; size]; size];
        for a in 0..size {
            for b in 0..size {
                let mut seen = vec![false; 256.max(4 * size)];
                for a2 in 0..a {
                    for b2 in 0..b {
                        seen[(t[a2][b] ^ t[a][b2] ^ t[a2][b2]) as usize] = true;
                    }
                }
                t[a][b] = seen.iter().position(|&s| !s).unwrap() as u64;
            }
        }
        t
    }

    /// A straightforward reference on bits: the product is bilinear over xor, and for powers
    /// of two `2^i ⊗ 2^j` is the ordinary product when `i, j` share no bit, otherwise with
    /// `F = 2^(2^k)` for their highest common bit `k`, `F ⊗ F = F ⊕ F/2` peels it off.
    fn reference(a: u64, b: u64) -> u64 {
        reference_with(powers(), a, b)
    }

    /// `2^i ⊗ 2^j` for all `i, j < 64`, by `power_product` (memoised: it calls `reference`).
    fn powers() -> &'static [[u64; 64]; 64] {
        static POWERS: std::sync::OnceLock<[[u64; 64]; 64]> = std::sync::OnceLock::new();
        POWERS.get_or_init(|| {
            let mut t = [[0u64; 64]; 64];
            // Exponent sums grow with the common bits; fill by increasing i | j so every
            // product `power_product` needs is already there.
            let mut order: Vec<(u32, u32)> =
                (0..64).flat_map(|i| (0..64).map(move |j| (i, j))).collect();
            order.sort_by_key(|&(i, j)| (i & j, i | j));
            for (i, j) in order {
                t[i as usize][j as usize] = power_product_with(&t, i, j);
            }
            t
        })
    }

    fn reference_with(t: &[[u64; 64]; 64], a: u64, b: u64) -> u64 {
        let mut out = 0;
        for (i, row) in t.iter().enumerate() {
            if a >> i & 1 != 0 {
                for (j, &p) in row.iter().enumerate() {
                    if b >> j & 1 != 0 {
                        out ^= p;
                    }
                }
            }
        }
        out
    }

    fn power_product_with(t: &[[u64; 64]; 64], i: u32, j: u32) -> u64 {
        let common = i & j;
        if common == 0 {
            return 1 << (i | j);
        }
        let k = 31 - common.leading_zeros();
        let f = 1u32 << k; // exponent of F
        let rest = t[(i - f) as usize][(j - f) as usize]; // 2^(i-f) ⊗ 2^(j-f), below F
        // (F ⊕ F/2) ⊗ rest = F·rest (ordinary: rest < F) ⊕ (F/2) ⊗ rest, all below F.
        (rest << f) ^ reference_with(t, 1 << (f - 1), rest)
    }

    #[test]
    fn small_products_match_the_definition() {
        let t = mex_table(32);
        for a in 0..32 {
            for b in 0..32 {
                assert_eq!(nim_product(a, b), t[a as usize][b as usize], "{a} ⊗ {b}");
                assert_eq!(reference(a, b), t[a as usize][b as usize], "{a} ⊗ {b}");
            }
        }
        // Familiar values: 2⊗2 = 3, 4⊗4 = 6, 16⊗16 = 24, 8⊗8 = 13.
        assert_eq!(
            [
                nim_product(2, 2),
                nim_product(4, 4),
                nim_product(16, 16),
                nim_product(8, 8)
            ],
            [3, 6, 24, 13]
        );
    }

    #[test]
    fn fermat_squares() {
        for k in 0..6 {
            let f = 1u64 << (1 << k);
            assert_eq!(nim_product(f, f), 3 * (f / 2), "k = {k}");
        }
    }

    #[test]
    fn inverses_and_zero() {
        assert_eq!(nim_inverse(0), None);
        assert_eq!(nim_div(5, 0), None);
        assert_eq!(nim_inverse(1), Some(1));
        assert_eq!(nim_inverse(2), Some(3)); // 2 ⊗ 3 = 1
        assert_eq!(nim_product(u64::MAX, nim_inverse(u64::MAX).unwrap()), 1);
    }

    proptest! {
        #[test]
        fn product_matches_reference(a: u64, b: u64) {
            prop_assert_eq!(nim_product(a, b), reference(a, b));
        }

        #[test]
        fn field_laws(a: u64, b: u64, c: u64) {
            prop_assert_eq!(nim_product(a, b), nim_product(b, a));
            prop_assert_eq!(nim_product(nim_product(a, b), c), nim_product(a, nim_product(b, c)));
            prop_assert_eq!(
                nim_product(a, b ^ c),
                nim_product(a, b) ^ nim_product(a, c)
            );
            prop_assert_eq!(nim_product(a, 1), a);
            if a != 0 {
                prop_assert_eq!(reference(a, nim_inverse(a).unwrap()), 1);
                prop_assert_eq!(nim_product(nim_div(b, a).unwrap(), a), b);
            }
        }

        /// Within the field of order 2^32 products stay below 2^32 (nimbers are u32).
        #[test]
        fn subfields_are_closed(a: u32, b: u32, k in 0u32..6) {
            let bits = 1u32 << k;
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let (a, b) = (u64::from(a) & mask, u64::from(b) & mask);
            prop_assert!(nim_product(a, b) <= mask);
        }
    }
}
