//! Value engines, one per theory: `normal` (mex), `loopy` (generalized Sprague–Grundy
//! labelling), `affine` (entailing and carry-on moves), `classify` (which engine a component
//! calls for, and Table 1 sums), `exact` (retrograde analysis of sums), `heap` (take-and-break
//! codes), `misere` (canonical forms and genus) and `quotient` (misère quotients). They read
//! games through the position-graph layer (`loony_graph`) and never name the interpreter.

pub mod affine;
pub mod classify;
pub mod error;
pub mod exact;
pub mod heap;
pub mod loopy;
pub mod misere;
pub mod nimfield;
pub mod normal;
pub mod pruned;
pub mod quotient;

pub use error::TheoryError;
