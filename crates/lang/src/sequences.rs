//! The family of nim-sequences (`nim_sequence(g, n)`): packed values from a first heap,
//! equal when they start at the same heap and hold the same values, printed in rows. See
//! [`crate::family`].

use super::family::{At, Family, cannot_compare};
use super::{Cx, Value};
use loony_core::diag::Error;
use loony_core::game::Store;

pub(crate) struct Sequences;

impl Family for Sequences {
    fn equal(cx: &mut Cx, _store: &mut Store, a: &Value, b: &Value, at: At) -> Result<bool, Error> {
        match (a, b) {
            (Value::Sequence(x), Value::Sequence(y)) => {
                Ok(x.start == y.start && x.values == y.values)
            }
            _ => Err(cannot_compare(cx, a, b, at)),
        }
    }

    fn show(_cx: &mut Cx, _store: &mut Store, v: &Value) -> Result<String, Error> {
        let Value::Sequence(s) = v else {
            unreachable!("nim-sequences only")
        };
        Ok(super::show::sequence(s.start, &s.values.to_vec()))
    }
}
