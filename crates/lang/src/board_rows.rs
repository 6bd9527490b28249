//! The rows of the built-ins of bits, sets, boards and graphs (`boards.rs` answers them). They
//! stand beside `boards.rs` rather than in it, which is being reworked on its own.

use crate::boards;
use crate::catalog::{BoardOp, Builtin, Impl, Rows, distributed_slice};

/// The rows of bits, sets, boards and graphs.
#[distributed_slice(crate::catalog::ROWS)]
static BOARDS: Rows = Rows {
    section: "Bits, sets, boards and graphs",
    order: 20,
    rows: &[
        Builtin {
            name: "popcount",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Popcount, a)),
            signature: "popcount(x)",
            arity: (1, 1),
            doc: "The number of 1 bits of the integer `x` (from 0; a negative `x` is an error, having \
             infinitely many).",
            example: "popcount(13)",
            result: "3",
            record: None,
        },
        Builtin {
            name: "bit",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Bit, a)),
            signature: "bit(x, i)",
            arity: (2, 2),
            doc: "Whether bit `i` (from 0, the units) of the integer `x` is 1: `x >> i & 1 == 1`. With \
             the operators `&`, `|`, `xor` (also `^^`), `<<` and `>>`, an integer is a set of small \
             numbers (a bit set): a board of up to 62 cells is one integer.",
            example: "[bit(6, i) for i in 0..3]",
            result: "[false, true, true]",
            record: None,
        },
        Builtin {
            name: "bits",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Bits, a)),
            signature: "bits(x)",
            arity: (1, 1),
            doc: "The positions of the 1 bits of the non-negative integer `x`, from the lowest: the \
             members of a bit set.",
            example: "bits(13)",
            result: "[0, 2, 3]",
            record: None,
        },
        Builtin {
            name: "set",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Set, a)),
            signature: "set(xs, i, v)",
            arity: (3, 3),
            doc: "A copy of the list `xs` with item `i` (from 0) replaced by `v`; of the board `xs` with \
             the cell `i` (a `(row, column)` pair or an index), or every cell of a list of cells, \
             set to `v` (a one-character string). The original is unchanged.",
            example: "set([1, 2, 3], 1, 7)",
            result: "[1, 7, 3]",
            record: None,
        },
        Builtin {
            name: "union",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Union, a)),
            signature: "union(a, b)",
            arity: (2, 2),
            doc: "The union of two sets: of two lists, the sorted list of what either holds (each once); \
             of two integers (bit sets), `a | b`.",
            example: "union([3, 1], [2, 3])",
            result: "[1, 2, 3]",
            record: None,
        },
        Builtin {
            name: "intersection",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Intersection, a)),
            signature: "intersection(a, b)",
            arity: (2, 2),
            doc: "What both sets hold: of two lists, a sorted list, each once; of two integers, `a & b`.",
            example: "intersection([3, 1, 2], [2, 3, 5])",
            result: "[2, 3]",
            record: None,
        },
        Builtin {
            name: "difference",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Difference, a)),
            signature: "difference(a, b)",
            arity: (2, 2),
            doc: "What `a` holds and `b` does not: of two lists, a sorted list, each once; of two \
             integers, the bits of `a` not in `b`.",
            example: "difference([1, 2, 3], [2])",
            result: "[1, 3]",
            record: None,
        },
        Builtin {
            name: "board",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Board, a)),
            signature: "board(picture), board(rows, cols), board(rows, cols, cell)",
            arity: (1, 3),
            doc: "A board of cells, each one printable character: read from a picture whose rows are \
             separated by `|` or line breaks (`board(\"..#|...\")`, `.` free and `#` blocked by \
             convention), or `rows × cols` cells of `cell` (`.` when left out). `b[(r, c)]` is a \
             cell as a one-character string (`(0, 0)` the top left; an index `r * cols + c` also \
             works). A board alone prints as its picture, inside a list as `board(\"…\")`; boards \
             may be ruleset arguments.",
            example: "board(\"..#|...\")[(0, 2)]",
            result: "#",
            record: None,
        },
        Builtin {
            name: "shape",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Shape, a)),
            signature: "shape(b)",
            arity: (1, 1),
            doc: "The board's rows and columns, as a pair.",
            example: "shape(board(2, 5))",
            result: "(2, 5)",
            record: None,
        },
        Builtin {
            name: "cells",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Cells, a)),
            signature: "cells(b), cells(b, v)",
            arity: (1, 2),
            doc: "The cells of the board, as `(row, column)` pairs in reading order; with `v`, only \
             those holding `v`.",
            example: "cells(board(\"..#|#..\"), \"#\")",
            result: "[(0, 2), (1, 0)]",
            record: None,
        },
        Builtin {
            name: "neighbours",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Neighbours, a)),
            signature: "neighbours(b, cell), neighbours(g, v)",
            arity: (2, 2),
            doc: "A board cell's orthogonal neighbours on the board (up, left, right, down, as \
             `(row, column)` pairs), or a graph vertex's neighbours in increasing order.",
            example: "neighbours(board(2, 3), (0, 0))",
            result: "[(0, 1), (1, 0)]",
            record: None,
        },
        Builtin {
            name: "adjacent_pairs",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::AdjacentPairs, a)),
            signature: "adjacent_pairs(b, v)",
            arity: (2, 2),
            doc: "The pairs of orthogonally adjacent cells that both hold `v`, each pair once (the \
             second cell right of or below the first): the places of a domino (Cram).",
            example: "adjacent_pairs(board(\".#|..\"), \".\")",
            result: "[((0, 0), (1, 0)), ((1, 0), (1, 1))]",
            record: None,
        },
        Builtin {
            name: "regions",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Regions, a)),
            signature: "regions(b)",
            arity: (1, 1),
            doc: "The connected regions (orthogonal neighbours) of the cells that are not `#`, each a \
             board cropped to its bounding box with its other cells `#`, in reading order of their \
             first cells. A ruleset whose moves never reach across `#` splits by it: \
             `split by regions(b)`.",
            example: "regions(board(\"..#.\"))",
            result: "[board(\"..\"), board(\".\")]",
            record: None,
        },
        Builtin {
            name: "canonical",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Canonical, a)),
            signature: "canonical(b), canonical(g)",
            arity: (1, 1),
            doc: "One representative of a class of symmetric positions. Of a board: the least of its \
             eight images under rotations and reflections (boards compare by rows, columns, then \
             cells). Of a graph: a canonical labelling, so isomorphic graphs give the same graph \
             (colour refinement and a search over the ties, skipping twin vertices; past 20 000 \
             refinements it keeps the best labelling found, still the same graph). A ruleset names \
             it in `canonical by canonical(b)`.",
            example: "canonical(board(\"#.|..\")) == canonical(board(\"..|.#\"))",
            result: "true",
            record: None,
        },
        Builtin {
            name: "rotate",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Rotate, a)),
            signature: "rotate(b)",
            arity: (1, 1),
            doc: "The board turned a quarter clockwise.",
            example: "rotate(board(\"ab|cd|ef\"))",
            result: "eca\nfdb",
            record: None,
        },
        Builtin {
            name: "reflect",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Reflect, a)),
            signature: "reflect(b)",
            arity: (1, 1),
            doc: "The board mirrored left to right.",
            example: "reflect(board(\"ab|cd\"))",
            result: "ba\ndc",
            record: None,
        },
        Builtin {
            name: "transpose",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Transpose, a)),
            signature: "transpose(b)",
            arity: (1, 1),
            doc: "The board mirrored in its main diagonal (rows become columns).",
            example: "transpose(board(\"ab|cd\"))",
            result: "ac\nbd",
            record: None,
        },
        Builtin {
            name: "graph",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Graph, a)),
            signature: "graph(n, edges)",
            arity: (2, 2),
            doc: "The simple graph on the vertices 0 to n - 1 with these edges, a list of pairs \
             `(a, b)` (either way round; a repeat counts once; a loop is an error). It prints as it \
             is written, and may be a ruleset argument.",
            example: "graph(3, [(1, 0), (1, 2)])",
            result: "graph(3, [(0, 1), (1, 2)])",
            record: None,
        },
        Builtin {
            name: "vertices",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Vertices, a)),
            signature: "vertices(g)",
            arity: (1, 1),
            doc: "The graph's vertices, `0..n`, as a list.",
            example: "vertices(graph(3, []))",
            result: "[0, 1, 2]",
            record: None,
        },
        Builtin {
            name: "edges",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Edges, a)),
            signature: "edges(g)",
            arity: (1, 1),
            doc: "The graph's edges, each once as a pair `(a, b)` with `a < b`, sorted.",
            example: "edges(graph(3, [(2, 1)]))",
            result: "[(1, 2)]",
            record: None,
        },
        Builtin {
            name: "degree",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Degree, a)),
            signature: "degree(g, v)",
            arity: (2, 2),
            doc: "The number of neighbours of vertex `v`.",
            example: "degree(graph(3, [(0, 1), (0, 2)]), 0)",
            result: "2",
            record: None,
        },
        Builtin {
            name: "remove_vertices",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::RemoveVertices, a)),
            signature: "remove_vertices(g, vs)",
            arity: (2, 2),
            doc: "The graph without the vertices of the list `vs` and their edges, the rest numbered \
             from 0 in their order (a Node Kayles move removes a vertex and its neighbours).",
            example: "remove_vertices(graph(4, [(0, 1), (1, 2), (2, 3)]), [1])",
            result: "graph(3, [(1, 2)])",
            record: None,
        },
        Builtin {
            name: "components",
            imp: Impl::Plain(|cx, _, a| boards::call(cx, BoardOp::Components, a)),
            signature: "components(g)",
            arity: (1, 1),
            doc: "The connected components, each a graph numbered from 0 in the order of its vertices, \
             in the order of their least vertices (an isolated vertex is `graph(1, [])`). A ruleset \
             on graphs whose moves stay inside a component splits by them: \
             `split by components(g)`.",
            example: "components(graph(4, [(0, 2)]))",
            result: "[graph(2, [(0, 1)]), graph(1, []), graph(1, [])]",
            record: None,
        },
    ],
};
