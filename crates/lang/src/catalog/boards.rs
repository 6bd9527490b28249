//! The built-ins' rows: Bits, sets, boards and graphs (answered in `boards`).

use super::row::*;

pub(super) const ROWS: [Builtin; 23] = [
    Builtin {
        name: "popcount",
        imp: Impl::Boards(BoardOp::Popcount),
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
        imp: Impl::Boards(BoardOp::Bit),
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
        imp: Impl::Boards(BoardOp::Bits),
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
        imp: Impl::Boards(BoardOp::Set),
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
        imp: Impl::Boards(BoardOp::Union),
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
        imp: Impl::Boards(BoardOp::Intersection),
        signature: "intersection(a, b)",
        arity: (2, 2),
        doc: "What both sets hold: of two lists, a sorted list, each once; of two integers, `a & b`.",
        example: "intersection([3, 1, 2], [2, 3, 5])",
        result: "[2, 3]",
        record: None,
    },
    Builtin {
        name: "difference",
        imp: Impl::Boards(BoardOp::Difference),
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
        imp: Impl::Boards(BoardOp::Board),
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
        imp: Impl::Boards(BoardOp::Shape),
        signature: "shape(b)",
        arity: (1, 1),
        doc: "The board's rows and columns, as a pair.",
        example: "shape(board(2, 5))",
        result: "(2, 5)",
        record: None,
    },
    Builtin {
        name: "cells",
        imp: Impl::Boards(BoardOp::Cells),
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
        imp: Impl::Boards(BoardOp::Neighbours),
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
        imp: Impl::Boards(BoardOp::AdjacentPairs),
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
        imp: Impl::Boards(BoardOp::Regions),
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
        imp: Impl::Boards(BoardOp::Canonical),
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
        imp: Impl::Boards(BoardOp::Rotate),
        signature: "rotate(b)",
        arity: (1, 1),
        doc: "The board turned a quarter clockwise.",
        example: "rotate(board(\"ab|cd|ef\"))",
        result: "eca\nfdb",
        record: None,
    },
    Builtin {
        name: "reflect",
        imp: Impl::Boards(BoardOp::Reflect),
        signature: "reflect(b)",
        arity: (1, 1),
        doc: "The board mirrored left to right.",
        example: "reflect(board(\"ab|cd\"))",
        result: "ba\ndc",
        record: None,
    },
    Builtin {
        name: "transpose",
        imp: Impl::Boards(BoardOp::Transpose),
        signature: "transpose(b)",
        arity: (1, 1),
        doc: "The board mirrored in its main diagonal (rows become columns).",
        example: "transpose(board(\"ab|cd\"))",
        result: "ac\nbd",
        record: None,
    },
    Builtin {
        name: "graph",
        imp: Impl::Boards(BoardOp::Graph),
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
        imp: Impl::Boards(BoardOp::Vertices),
        signature: "vertices(g)",
        arity: (1, 1),
        doc: "The graph's vertices, `0..n`, as a list.",
        example: "vertices(graph(3, []))",
        result: "[0, 1, 2]",
        record: None,
    },
    Builtin {
        name: "edges",
        imp: Impl::Boards(BoardOp::Edges),
        signature: "edges(g)",
        arity: (1, 1),
        doc: "The graph's edges, each once as a pair `(a, b)` with `a < b`, sorted.",
        example: "edges(graph(3, [(2, 1)]))",
        result: "[(1, 2)]",
        record: None,
    },
    Builtin {
        name: "degree",
        imp: Impl::Boards(BoardOp::Degree),
        signature: "degree(g, v)",
        arity: (2, 2),
        doc: "The number of neighbours of vertex `v`.",
        example: "degree(graph(3, [(0, 1), (0, 2)]), 0)",
        result: "2",
        record: None,
    },
    Builtin {
        name: "remove_vertices",
        imp: Impl::Boards(BoardOp::RemoveVertices),
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
        imp: Impl::Boards(BoardOp::Components),
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
];
