//! Placeholder until the explorer lands in the next step.
pub struct Explorer;
pub struct PosGraph;
pub enum Kind {}
