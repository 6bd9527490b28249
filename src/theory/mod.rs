//! Value engines, one per theory.

pub mod affine;
pub mod heap;
pub mod misere;
pub mod normal;
