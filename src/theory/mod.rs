//! Value engines, one per theory.

pub mod affine;
pub mod classify;
pub mod exact;
pub mod heap;
pub mod loopy;
pub mod misere;
pub mod nimfield;
pub mod normal;
pub mod quotient;
pub mod value;
