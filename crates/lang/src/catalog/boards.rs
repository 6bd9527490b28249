//! The operations of bits, sets, boards and graphs, which `boards.rs` answers by this enum
//! (their rows are in `boards.rs` too); here because compiled clauses name some of them.

/// Bits, sets, boards and graphs, answered in `boards`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardOp {
    Popcount,
    Bit,
    Bits,
    Set,
    Union,
    Intersection,
    Difference,
    Board,
    Shape,
    Cells,
    Neighbours,
    AdjacentPairs,
    CentreFirst,
    Quadrant,
    Regions,
    Canonical,
    Rotate,
    Reflect,
    Transpose,
    Graph,
    Vertices,
    Edges,
    Degree,
    RemoveVertices,
    Components,
}

impl BoardOp {
    /// The operation of the built-in of this name that a ruleset's `split by` or `canonical
    /// by` clause runs in place (`compile/norm.rs`), if it is one.
    pub fn native(name: &str) -> Option<BoardOp> {
        match name {
            "regions" => Some(BoardOp::Regions),
            "components" => Some(BoardOp::Components),
            "canonical" => Some(BoardOp::Canonical),
            _ => None,
        }
    }
}
