//! Value engines, one per theory.

pub mod normal;
