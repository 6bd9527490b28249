//! Bit operations on integers: `&`, `|`, `xor` (`^^`), `<<`, `>>`, as Python has them on
//! two's-complement integers, within the language's 64-bit integers. One definition for the
//! interpreter, compiled rules and register code, so all three agree on every input.

use loony_syntax::ast::BinOp;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitError {
    /// A shift by a negative amount (Python's `ValueError`).
    NegativeShift,
    /// `<<` that moves a bit out of the 64-bit integer.
    Overflow,
}

/// `x op y` for the five bit operators.
#[inline]
pub fn apply(op: BinOp, x: i64, y: i64) -> Result<i64, BitError> {
    match op {
        BinOp::BitAnd => Ok(x & y),
        BinOp::BitOr => Ok(x | y),
        BinOp::Xor => Ok(x ^ y),
        BinOp::Shl => shl(x, y),
        BinOp::Shr => shr(x, y),
        _ => unreachable!("not a bit operator: {op:?}"),
    }
}

/// `x << y`, exact or an overflow (never a silent wrap).
#[inline]
pub fn shl(x: i64, y: i64) -> Result<i64, BitError> {
    if y < 0 {
        return Err(BitError::NegativeShift);
    }
    if x == 0 {
        return Ok(0);
    }
    if y >= 64 {
        return Err(BitError::Overflow);
    }
    let r = x << y;
    if r >> y == x {
        Ok(r)
    } else {
        Err(BitError::Overflow)
    }
}

/// `x >> y`: floor division by `2^y` (a negative `x` stays negative, as in Python).
#[inline]
pub fn shr(x: i64, y: i64) -> Result<i64, BitError> {
    if y < 0 {
        return Err(BitError::NegativeShift);
    }
    Ok(x >> y.min(63))
}

/// Whether `op` is one of the five.
pub fn is_bit_op(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::BitAnd | BinOp::BitOr | BinOp::Xor | BinOp::Shl | BinOp::Shr
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against Python's results for the same operations (written out here).
    #[test]
    fn agree_with_python() {
        assert_eq!(apply(BinOp::BitAnd, 12, 10), Ok(8));
        assert_eq!(apply(BinOp::BitOr, 12, 10), Ok(14));
        assert_eq!(apply(BinOp::Xor, 12, 10), Ok(6));
        assert_eq!(apply(BinOp::BitAnd, -1, 255), Ok(255));
        assert_eq!(apply(BinOp::Xor, -6, 3), Ok(-7));
        assert_eq!(shl(1, 62), Ok(1 << 62));
        assert_eq!(shl(1, 63), Err(BitError::Overflow));
        assert_eq!(shl(-1, 63), Ok(i64::MIN));
        assert_eq!(shl(3, 100), Err(BitError::Overflow));
        assert_eq!(shl(0, 1000), Ok(0));
        assert_eq!(shr(-7, 1), Ok(-4));
        assert_eq!(shr(7, 100), Ok(0));
        assert_eq!(shr(-7, 100), Ok(-1));
        assert_eq!(shl(1, -1), Err(BitError::NegativeShift));
        assert_eq!(shr(1, -1), Err(BitError::NegativeShift));
    }
}
