//! Value engines, one per theory.

pub mod heap;
pub mod normal;
