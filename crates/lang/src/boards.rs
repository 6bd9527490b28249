//! The built-ins of bits, sets, boards and graphs: what board, graph and coin games are
//! written with. The boards and graphs themselves live in `loony_core` ([`Board`], [`Graph`]);
//! this file reads the arguments, reports bad ones, and makes the values.

use super::args::Args;
use super::catalog::{BoardOp, Builtin, Impl, Rows, distributed_slice};
use crate::cx::Cx;
use crate::error::{ArgumentError, EvalError, Wanted};
use crate::value::Value;
use loony_core::board::Board;
use loony_core::diag::Error;
use loony_core::graphs::Graph;
use std::rc::Rc;

/// What the built-ins of this family read from their arguments, besides what every family
/// reads (`Args::int`, `Args::list`, `Args::span`).
impl Args<'_> {
    fn not_a(&self, cx: &Cx, i: usize, wanted: Wanted) -> Error {
        cx.err(
            EvalError::BadArgument(ArgumentError::NotA {
                function: self.name.into(),
                wanted,
                found: self.vals[i].type_name(),
            }),
            self.span(i),
        )
    }

    /// A non-negative integer (a bit set, a bit's place).
    fn natural(&self, cx: &Cx, i: usize) -> Result<i64, Error> {
        match &self.vals[i] {
            Value::Int(n) if *n >= 0 => Ok(*n),
            _ => Err(self.not_a(cx, i, Wanted::Natural)),
        }
    }

    fn board(&self, cx: &Cx, i: usize) -> Result<Rc<Board>, Error> {
        match &self.vals[i] {
            Value::Board(b) => Ok(b.clone()),
            _ => Err(self.not_a(cx, i, Wanted::Board)),
        }
    }

    fn graph(&self, cx: &Cx, i: usize) -> Result<Rc<Graph>, Error> {
        match &self.vals[i] {
            Value::Graph(g) => Ok(g.clone()),
            _ => Err(self.not_a(cx, i, Wanted::Graph)),
        }
    }

    /// A cell of `b`: `(row, column)` or an index, on the board.
    fn cell_of(&self, cx: &Cx, b: &Board, v: &Value, i: usize) -> Result<usize, Error> {
        cell(b, v).map_err(|detail| {
            cx.err(
                EvalError::Board {
                    detail,
                    label: "not a cell of the board",
                },
                self.span(i),
            )
        })
    }

    /// A cell's value: a one-character string.
    fn cell_value(&self, cx: &Cx, i: usize) -> Result<u8, Error> {
        match &self.vals[i] {
            Value::Str(s) if s.len() == 1 && loony_core::board::is_cell(s.as_bytes()[0]) => {
                Ok(s.as_bytes()[0])
            }
            Value::Str(s) => Err(cx.err(
                EvalError::Board {
                    detail: format!(
                        "a cell holds one printable ASCII character other than `|`, not {}",
                        loony_syntax::lexer::quote(s)
                    ),
                    label: "not one character",
                },
                self.span(i),
            )),
            _ => Err(self.not_a(cx, i, Wanted::CellValue)),
        }
    }

    /// A vertex of `g`.
    fn vertex(&self, cx: &Cx, g: &Graph, v: &Value, i: usize) -> Result<u32, Error> {
        match v {
            Value::Int(n) if (0..g.order() as i64).contains(n) => Ok(*n as u32),
            Value::Int(n) => Err(cx.err(
                EvalError::Graph {
                    detail: loony_core::graphs::GraphError::MissingVertex {
                        vertex: *n,
                        n: g.order(),
                    }
                    .to_string(),
                    label: "not a vertex of the graph",
                },
                self.span(i),
            )),
            _ => Err(self.not_a(cx, i, Wanted::Vertex)),
        }
    }
}

/// The index of cell `v` (`(row, column)` or an index) of `b`, or why it is not one.
pub(crate) fn cell(b: &Board, v: &Value) -> Result<usize, String> {
    let (rows, cols) = (b.rows(), b.cols());
    let off = |what: String| format!("{what} is not on the {rows} × {cols} board");
    match v {
        Value::Tuple(xs) | Value::List(xs) if xs.len() == 2 => match (&xs[0], &xs[1]) {
            (Value::Int(r), Value::Int(c)) => b
                .index(*r, *c)
                .ok_or_else(|| off(format!("the cell ({r}, {c})"))),
            _ => Err("a cell is a pair of integers (row, column)".into()),
        },
        Value::Int(i) if (0..(rows * cols) as i64).contains(i) => Ok(*i as usize),
        Value::Int(i) => Err(off(format!("the cell index {i}"))),
        other => Err(format!(
            "a cell is (row, column) or an index, not {}",
            other.type_name()
        )),
    }
}

/// The pair `(row, column)` of cell `i`.
fn pair(b: &Board, i: usize) -> Value {
    let (r, c) = (i / b.cols(), i % b.cols());
    if r < CACHED && c < CACHED {
        return CELLS.with_borrow_mut(|cells| {
            let k = r * CACHED + c;
            if cells.is_empty() {
                cells.resize(CACHED * CACHED, Value::Int(0));
            }
            if !matches!(cells[k], Value::Tuple(_)) {
                cells[k] = cell_pair(r, c);
            }
            cells[k].clone()
        });
    }
    cell_pair(r, c)
}

fn cell_pair(r: usize, c: usize) -> Value {
    Value::Tuple(Rc::new(vec![Value::Int(r as i64), Value::Int(c as i64)]))
}

/// Rows and columns whose `(row, column)` pairs are made once per thread and shared: a
/// board game's rules list cells on every move, and a shared pair costs no allocation.
const CACHED: usize = 32;

thread_local! {
    static CELLS: std::cell::RefCell<Vec<Value>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn ints(xs: impl IntoIterator<Item = i64>) -> Value {
    Value::List(Rc::new(xs.into_iter().map(Value::Int).collect()))
}

fn boards(xs: Vec<Board>) -> Value {
    Value::List(Rc::new(
        xs.into_iter().map(|b| Value::Board(Rc::new(b))).collect(),
    ))
}

fn graphs(xs: Vec<Graph>) -> Value {
    Value::List(Rc::new(
        xs.into_iter().map(|g| Value::Graph(Rc::new(g))).collect(),
    ))
}

/// The items of a list used as a set, sorted and each once (integers only: a set of
/// anything else is a list, kept as `contains` reads it).
fn int_set(a: &Args<'_>, cx: &Cx, i: usize) -> Result<Vec<i64>, Error> {
    let mut out = a.ints(cx, i)?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

pub(crate) fn call(cx: &mut Cx, op: BoardOp, a: Args<'_>) -> Result<Value, Error> {
    use BoardOp::*;
    match op {
        Popcount | Bit | Bits | Set | Union | Intersection | Difference => {
            bits_and_sets(cx, op, &a)
        }
        Board | Shape | Cells | Neighbours | AdjacentPairs | CentreFirst | Quadrant | Regions
        | Canonical | Rotate | Reflect | Transpose => boards_op(cx, op, &a),
        Graph | Vertices | Edges | Degree | RemoveVertices | Components => graphs_op(cx, op, &a),
    }
}

/// Bits of integers, sets (bit sets and sorted lists) and `set` of a list or board.
fn bits_and_sets(cx: &mut Cx, op: BoardOp, a: &Args<'_>) -> Result<Value, Error> {
    Ok(match op {
        BoardOp::Popcount => Value::Int(i64::from(a.natural(cx, 0)?.count_ones())),
        BoardOp::Bit => {
            let (x, i) = (a.int(cx, 0)?, a.natural(cx, 1)?);
            Value::Bool(x >> i.min(63) & 1 == 1)
        }
        BoardOp::Bits => {
            let x = a.natural(cx, 0)?;
            ints((0..63).filter(|i| x >> i & 1 == 1))
        }
        BoardOp::Set => match &a.vals[0] {
            Value::Board(b) => {
                let v = a.cell_value(cx, 2)?;
                let at = match &a.vals[1] {
                    // A list of cells (a list of pairs or of indices), or one cell.
                    Value::List(xs) if !is_pair(&a.vals[1]) => {
                        let mut at = smallvec::SmallVec::<[usize; 4]>::new();
                        for x in xs.iter() {
                            at.push(a.cell_of(cx, b, x, 1)?);
                        }
                        at
                    }
                    one => smallvec::smallvec![a.cell_of(cx, b, one, 1)?],
                };
                Value::Board(Rc::new(b.with(&at, v)))
            }
            Value::List(xs) => {
                let i = a.index(cx, 1, xs.len())?;
                let mut v = (**xs).clone();
                v[i] = a.vals[2].clone();
                Value::List(Rc::new(v))
            }
            _ => return Err(a.not_a(cx, 0, Wanted::ListOrBoard)),
        },
        BoardOp::Union | BoardOp::Intersection | BoardOp::Difference => {
            if let (Value::Int(x), Value::Int(y)) = (&a.vals[0], &a.vals[1]) {
                let (x, y) = (*x, *y);
                return Ok(Value::Int(match op {
                    BoardOp::Union => x | y,
                    BoardOp::Intersection => x & y,
                    _ => x & !y,
                }));
            }
            let (x, y) = (int_set(a, cx, 0)?, int_set(a, cx, 1)?);
            let keep = |n: &i64| match op {
                BoardOp::Intersection => y.binary_search(n).is_ok(),
                _ => y.binary_search(n).is_err(),
            };
            let mut out: Vec<i64> = x.iter().copied().filter(keep).collect();
            if op == BoardOp::Union {
                out = x.iter().chain(y.iter()).copied().collect();
                out.sort_unstable();
                out.dedup();
            }
            ints(out)
        }
        _ => unreachable!("not a built-in of bits and sets"),
    })
}

/// Boards, and `neighbours` and `canonical`, which take a board or a graph.
fn boards_op(cx: &mut Cx, op: BoardOp, a: &Args<'_>) -> Result<Value, Error> {
    let board_err = |cx: &Cx, e: loony_core::board::BoardError, i: usize| {
        let label = match e {
            loony_core::board::BoardError::BadSize { .. } => "not a board's size",
            _ => "not a board's picture",
        };
        cx.err(
            EvalError::Board {
                detail: e.to_string(),
                label,
            },
            a.span(i),
        )
    };
    Ok(match op {
        BoardOp::Board => match a.vals.len() {
            1 => match &a.vals[0] {
                Value::Str(s) => {
                    Value::Board(Rc::new(Board::parse(s).map_err(|e| board_err(cx, e, 0))?))
                }
                _ => return Err(a.not_a(cx, 0, Wanted::BoardPicture)),
            },
            n => {
                let (r, c) = (a.int(cx, 0)?, a.int(cx, 1)?);
                let fill = if n == 3 { a.cell_value(cx, 2)? } else { b'.' };
                Value::Board(Rc::new(
                    Board::filled(r, c, fill).map_err(|e| board_err(cx, e, 0))?,
                ))
            }
        },
        BoardOp::Shape => {
            let b = a.board(cx, 0)?;
            Value::Tuple(Rc::new(vec![
                Value::Int(b.rows() as i64),
                Value::Int(b.cols() as i64),
            ]))
        }
        BoardOp::Cells => {
            let b = a.board(cx, 0)?;
            let only = if a.vals.len() == 2 {
                Some(a.cell_value(cx, 1)?)
            } else {
                None
            };
            let out = (0..b.cells().len())
                .filter(|&i| only.is_none_or(|v| b.get(i) == v))
                .map(|i| pair(&b, i))
                .collect();
            Value::List(Rc::new(out))
        }
        BoardOp::Neighbours => match &a.vals[0] {
            Value::Graph(g) => {
                let v = a.vertex(cx, g, &a.vals[1], 1)?;
                ints(g.neighbours(v).into_iter().map(i64::from))
            }
            Value::Board(b) => {
                let i = a.cell_of(cx, b, &a.vals[1], 1)?;
                Value::List(Rc::new(b.neighbours(i).map(|j| pair(b, j)).collect()))
            }
            _ => return Err(a.not_a(cx, 0, Wanted::BoardOrGraph)),
        },
        BoardOp::AdjacentPairs => {
            let b = a.board(cx, 0)?;
            let v = a.cell_value(cx, 1)?;
            let out = b
                .adjacent_pairs(v)
                .into_iter()
                .map(|(i, j)| Value::Tuple(Rc::new(vec![pair(&b, i), pair(&b, j)])))
                .collect();
            Value::List(Rc::new(out))
        }
        BoardOp::CentreFirst => {
            let b = a.board(cx, 0)?;
            let xs = a.list(cx, 1)?;
            let mut keyed = Vec::with_capacity(xs.len());
            let mut at = Vec::new();
            for x in xs.iter() {
                at.clear();
                // A pair of integers is a cell; any other tuple or list, a group of cells.
                let is_cell =
                    |ys: &[Value]| ys.len() == 2 && ys.iter().all(|y| matches!(y, Value::Int(_)));
                match x {
                    Value::Tuple(ys) | Value::List(ys) if !ys.is_empty() && !is_cell(ys) => {
                        for y in ys.iter() {
                            at.push(a.cell_of(cx, &b, y, 1)?);
                        }
                    }
                    _ => at.push(a.cell_of(cx, &b, x, 1)?),
                }
                keyed.push((b.centre_distance(&at), x.clone()));
            }
            // Stable: items as far from the centre keep their order.
            keyed.sort_by(|x, y| loony_core::board::Board::nearer_centre(x.0, y.0));
            Value::List(Rc::new(keyed.into_iter().map(|(_, x)| x).collect()))
        }
        BoardOp::Quadrant => {
            let b = a.board(cx, 0)?;
            let i = a.cell_of(cx, &b, &a.vals[1], 1)?;
            Value::List(Rc::new(b.quadrant(i).map(|j| pair(&b, j)).collect()))
        }
        BoardOp::Regions => boards(a.board(cx, 0)?.regions()),
        BoardOp::Canonical => match &a.vals[0] {
            Value::Board(b) => Value::Board(Rc::new(b.canonical())),
            Value::Graph(g) => Value::Graph(Rc::new(g.canonical())),
            _ => return Err(a.not_a(cx, 0, Wanted::BoardOrGraph)),
        },
        BoardOp::Rotate => Value::Board(Rc::new(a.board(cx, 0)?.rotate())),
        BoardOp::Reflect => Value::Board(Rc::new(a.board(cx, 0)?.reflect())),
        BoardOp::Transpose => Value::Board(Rc::new(a.board(cx, 0)?.transpose())),
        _ => unreachable!("not a built-in of boards"),
    })
}

/// Graphs.
fn graphs_op(cx: &mut Cx, op: BoardOp, a: &Args<'_>) -> Result<Value, Error> {
    Ok(match op {
        BoardOp::Graph => {
            let n = a.int(cx, 0)?;
            let xs = a.list(cx, 1)?;
            let mut edges = Vec::with_capacity(xs.len());
            for x in xs.iter() {
                match x {
                    Value::Tuple(p) | Value::List(p) if p.len() == 2 => match (&p[0], &p[1]) {
                        (Value::Int(u), Value::Int(v)) => edges.push((*u, *v)),
                        _ => return Err(a.not_a(cx, 1, Wanted::Edges)),
                    },
                    _ => return Err(a.not_a(cx, 1, Wanted::Edges)),
                }
            }
            let g = Graph::new(n, &edges).map_err(|e| {
                let (label, at) = match e {
                    loony_core::graphs::GraphError::BadOrder { .. } => ("not a vertex count", 0),
                    loony_core::graphs::GraphError::Loop { .. } => ("a loop among the edges", 1),
                    _ => ("an edge to a vertex not in the graph", 1),
                };
                cx.err(
                    EvalError::Graph {
                        detail: e.to_string(),
                        label,
                    },
                    a.span(at),
                )
            })?;
            Value::Graph(Rc::new(g))
        }
        BoardOp::Vertices => ints(0..a.graph(cx, 0)?.order() as i64),
        BoardOp::Edges => {
            let g = a.graph(cx, 0)?;
            let out = g
                .edges()
                .iter()
                .map(|&(x, y)| {
                    Value::Tuple(Rc::new(vec![
                        Value::Int(i64::from(x)),
                        Value::Int(i64::from(y)),
                    ]))
                })
                .collect();
            Value::List(Rc::new(out))
        }
        BoardOp::Degree => {
            let g = a.graph(cx, 0)?;
            let v = a.vertex(cx, &g, &a.vals[1], 1)?;
            Value::Int(g.neighbours(v).len() as i64)
        }
        BoardOp::RemoveVertices => {
            let g = a.graph(cx, 0)?;
            let mut keep = vec![true; g.order()];
            for x in a.list(cx, 1)?.iter() {
                keep[a.vertex(cx, &g, x, 1)? as usize] = false;
            }
            Value::Graph(Rc::new(g.induced(&keep)))
        }
        BoardOp::Components => graphs(a.graph(cx, 0)?.components()),
        _ => unreachable!("not a built-in of graphs"),
    })
}

/// `(r, c)`: one cell, not a list of two cells.
fn is_pair(v: &Value) -> bool {
    matches!(v, Value::List(xs) | Value::Tuple(xs)
        if xs.len() == 2 && xs.iter().all(|x| matches!(x, Value::Int(_))))
}

/// The rows of bits, sets, boards and graphs.
#[distributed_slice(crate::catalog::ROWS)]
static BOARDS: Rows = Rows {
    section: "Bits, sets, boards and graphs",
    order: 20,
    rows: &[
        Builtin {
            name: "popcount",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Popcount, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Bit, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Bits, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Set, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Union, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Intersection, a)),
            signature: "intersection(a, b)",
            arity: (2, 2),
            doc: "What both sets hold: of two lists, a sorted list, each once; of two integers, `a & b`.",
            example: "intersection([3, 1, 2], [2, 3, 5])",
            result: "[2, 3]",
            record: None,
        },
        Builtin {
            name: "difference",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Difference, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Board, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Shape, a)),
            signature: "shape(b)",
            arity: (1, 1),
            doc: "The board's rows and columns, as a pair.",
            example: "shape(board(2, 5))",
            result: "(2, 5)",
            record: None,
        },
        Builtin {
            name: "cells",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Cells, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Neighbours, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::AdjacentPairs, a)),
            signature: "adjacent_pairs(b, v)",
            arity: (2, 2),
            doc: "The pairs of orthogonally adjacent cells that both hold `v`, each pair once (the \
             second cell right of or below the first): the places of a domino (Cram).",
            example: "adjacent_pairs(board(\".#|..\"), \".\")",
            result: "[((0, 0), (1, 0)), ((1, 0), (1, 1))]",
            record: None,
        },
        Builtin {
            name: "centre_first",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::CentreFirst, a)),
            signature: "centre_first(b, xs)",
            arity: (2, 2),
            doc: "The list `xs` of cells of board `b`, or of tuples of cells (a domino's pair), \
             nearest the board's centre first: by the distance (rows plus columns) of each \
             item's centre from the board's centre, items as far keeping their order. A rule \
             that loops over it lists its options in this order, which pruned search keeps among \
             options of equal weight: in Cram a move near the centre is most often the one that \
             wins, and trying it first spares searching the others (`std/cram`).",
            example: "centre_first(board(1, 5), cells(board(1, 5)))",
            result: "[(0, 2), (0, 1), (0, 3), (0, 0), (0, 4)]",
            record: None,
        },
        Builtin {
            name: "quadrant",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Quadrant, a)),
            signature: "quadrant(b, cell)",
            arity: (2, 2),
            doc: "The cells of board `b` at or below and right of `cell`: every `(i', j')` with \
             `i' >= i` and `j' >= j` for `cell` = `(i, j)`, in reading order. A bite in Chomp \
             takes them (`std/chomp`); a rule that sets them to `#` is run on bit masks.",
            example: "quadrant(board(2, 3), (0, 1))",
            result: "[(0, 1), (0, 2), (1, 1), (1, 2)]",
            record: None,
        },
        Builtin {
            name: "regions",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Regions, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Canonical, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Rotate, a)),
            signature: "rotate(b)",
            arity: (1, 1),
            doc: "The board turned a quarter clockwise.",
            example: "rotate(board(\"ab|cd|ef\"))",
            result: "eca\nfdb",
            record: None,
        },
        Builtin {
            name: "reflect",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Reflect, a)),
            signature: "reflect(b)",
            arity: (1, 1),
            doc: "The board mirrored left to right.",
            example: "reflect(board(\"ab|cd\"))",
            result: "ba\ndc",
            record: None,
        },
        Builtin {
            name: "transpose",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Transpose, a)),
            signature: "transpose(b)",
            arity: (1, 1),
            doc: "The board mirrored in its main diagonal (rows become columns).",
            example: "transpose(board(\"ab|cd\"))",
            result: "ac\nbd",
            record: None,
        },
        Builtin {
            name: "graph",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Graph, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Vertices, a)),
            signature: "vertices(g)",
            arity: (1, 1),
            doc: "The graph's vertices, `0..n`, as a list.",
            example: "vertices(graph(3, []))",
            result: "[0, 1, 2]",
            record: None,
        },
        Builtin {
            name: "edges",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Edges, a)),
            signature: "edges(g)",
            arity: (1, 1),
            doc: "The graph's edges, each once as a pair `(a, b)` with `a < b`, sorted.",
            example: "edges(graph(3, [(2, 1)]))",
            result: "[(1, 2)]",
            record: None,
        },
        Builtin {
            name: "degree",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Degree, a)),
            signature: "degree(g, v)",
            arity: (2, 2),
            doc: "The number of neighbours of vertex `v`.",
            example: "degree(graph(3, [(0, 1), (0, 2)]), 0)",
            result: "2",
            record: None,
        },
        Builtin {
            name: "remove_vertices",
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::RemoveVertices, a)),
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
            imp: Impl::Plain(|cx, _, a| call(cx, BoardOp::Components, a)),
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
