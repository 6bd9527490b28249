//! The built-ins' rows: Values, outcomes, moves and list helpers (answered in `builtins`).

use super::row::*;

pub(super) const ROWS: [Builtin; 28] = [
    Builtin {
        name: "outcome",
        imp: Impl::Core(CoreOp::Outcome),
        signature: "outcome(g)",
        arity: (1, 1),
        doc: "The outcome class of `g` under normal play: `P` (the previous player wins), `N` (the \
         next player wins), `D` (a draw: neither player can force a win; only loopy games \
         draw), or `L`/`R` when `g` contains `∞`/`∞̄` and Left/Right wins whoever starts. Found \
         from the value where the theory gives one, otherwise by an exact search.",
        example: "outcome(*3 + *3)",
        result: "P",
        record: None,
    },
    Builtin {
        name: "value",
        imp: Impl::Core(CoreOp::Value),
        signature: "value(g)",
        arity: (1, 1),
        doc: "The value of an impartial game: a nimber `*n`, the moon `☾` or a special moon `⟫(n)` \
         for games with entailing or carry-on moves, `∞(A)` for a loopy game that can escape \
         to the nim-values `A`. A bare game prints its value, so `value(g)` is mostly useful \
         for comparing and storing. An error (with the outcome found by search) where no \
         theory gives a value.",
        example: "value(a{a, * | a, *})",
        result: "∞(1)",
        record: None,
    },
    Builtin {
        name: "nimber",
        imp: Impl::Core(CoreOp::Nimber),
        signature: "nimber(g)",
        arity: (1, 1),
        doc: "The Sprague–Grundy value of `g` as an integer; an error when the value of `g` is not \
         a nimber (a moon or a loopy value).",
        example: "nimber(*2 + *3)",
        result: "1",
        record: None,
    },
    Builtin {
        name: "grundy_value",
        imp: Impl::Core(CoreOp::GrundyValue),
        signature: "grundy_value(g)",
        arity: (1, 1),
        doc: "Another name for `nimber`: the Sprague–Grundy value of `g` as an integer.",
        example: "grundy_value({0, * | 0, *})",
        result: "2",
        record: None,
    },
    Builtin {
        name: "affine_value",
        imp: Impl::Core(CoreOp::AffineValue),
        signature: "affine_value(g)",
        arity: (1, 1),
        doc: "The value of `g` in the theory of affine impartial games (seed 000: entailing and \
         carry-on moves, `∞`, `∞̄`): a nimber or `☾`. An error for loopy games.",
        example: "affine_value({∞ | ∞̄})",
        result: "☾",
        record: None,
    },
    Builtin {
        name: "explain",
        imp: Impl::Core(CoreOp::Explain),
        signature: "explain(g)",
        arity: (1, 1),
        doc: "How the affine engine valued `g`: its immediate nimbers `S` (the values of its plain \
         options), its protected nimbers `P` (those its entailing options protect against, \
         `nim∖X` meaning every nimber but `X`), and the rule that gives the value: \
         `mex(S ∪ P)`, or `☾` when `S ∪ P` is every nimber.",
        example: "explain({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "S = {0}, P = nim∖{0}: S ∪ P = nim, so G = ☾",
        record: None,
    },
    Builtin {
        name: "outcome_by_search",
        imp: Impl::Core(CoreOp::OutcomeBySearch),
        signature: "outcome_by_search(g)",
        arity: (1, 1),
        doc: "The outcome of `g` by exhaustive search of its positions, using no value theory (a \
         check on `outcome`; exponential in the number of components of a sum).",
        example: "outcome_by_search(*2 + *2)",
        result: "P",
        record: None,
    },
    Builtin {
        name: "winning_moves",
        imp: Impl::Core(CoreOp::WinningMoves),
        signature: "winning_moves(g)",
        arity: (1, 1),
        doc: "The options of `g` that win for the player who takes them (empty when `g` is lost or \
         drawn for the mover). Entailing and carry-on options are judged with the opponent's \
         forced reply.",
        example: "winning_moves(* + *2)",
        result: "[* + *]",
        record: None,
    },
    Builtin {
        name: "drawing_moves",
        imp: Impl::Core(CoreOp::DrawingMoves),
        signature: "drawing_moves(g)",
        arity: (1, 1),
        doc: "The options of a loopy game `g` that keep a draw (to a `D` position) for the mover.",
        example: "drawing_moves(a{a, * | a, *})",
        result: "[a{a, * | a, *}]",
        record: None,
    },
    Builtin {
        name: "options",
        imp: Impl::Core(CoreOp::Options),
        signature: "options(g)",
        arity: (1, 1),
        doc: "The options of `g`, each distinct option once. For an impartial game these are both \
         players' options; for a game with entailing moves they are Left's (see \
         `left_options`, `right_options`); for a misère form, its canonical options in \
         CGSuite's order.",
        example: "options(*3)",
        result: "[0, *, *2]",
        record: None,
    },
    Builtin {
        name: "left_options",
        imp: Impl::Core(CoreOp::LeftOptions),
        signature: "left_options(g)",
        arity: (1, 1),
        doc: "Left's options of `g`. Impartial games with entailing moves are written with the two \
         sides mirrored (`{∞ | 0}` for Left is `{0 | ∞̄}` for Right), so the sides differ.",
        example: "left_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "[0, {∞ | 0}]",
        record: None,
    },
    Builtin {
        name: "right_options",
        imp: Impl::Core(CoreOp::RightOptions),
        signature: "right_options(g)",
        arity: (1, 1),
        doc: "Right's options of `g` (see `left_options`).",
        example: "right_options({{∞ | 0}, 0 | {0 | ∞̄}, 0})",
        result: "[0, {0 | ∞̄}]",
        record: None,
    },
    Builtin {
        name: "top_entails_value",
        imp: Impl::Core(CoreOp::TopEntailsValue),
        signature: "top_entails_value(n)",
        arity: (1, 1),
        doc: "The value of a Top Entails stack of `n` coins by the Theorem-41 recurrence \
         (Larsson–Nowakowski–Santos), without building the game; `n` up to 10 000 000, at a \
         cost that grows as `n²` (`n²/4` look-ups of pairs, shared by the cores: 10⁵ stacks \
         take about 2 s, 6·10⁵ a quarter of a minute to a minute on two cores, 10⁷ hours). \
         The session keeps one run and extends it, so asking stack after stack costs one \
         run. The ruleset itself is `std/top_entails`.",
        example: "top_entails_value(3)",
        result: "☾",
        record: None,
    },
    Builtin {
        name: "top_entails_moons",
        imp: Impl::Core(CoreOp::TopEntailsMoons),
        signature: "top_entails_moons(n)",
        arity: (1, 1),
        doc: "The Top Entails stacks of at most `n` coins whose value is `☾` (fast path, as \
         `top_entails_value`).",
        example: "top_entails_moons(3000)",
        result: "[1, 3, 2403, 2505]",
        record: None,
    },
    Builtin {
        name: "len",
        imp: Impl::Core(CoreOp::Len),
        signature: "len(xs)",
        arity: (1, 1),
        doc: "The length of a list, tuple or nim-sequence, or the number of characters of a string.",
        example: "len([*, *2, *3])",
        result: "3",
        record: None,
    },
    Builtin {
        name: "size",
        imp: Impl::Core(CoreOp::Size),
        signature: "size(x)",
        arity: (1, 1),
        doc: "How many characters `x` prints in, as the REPL would print it (with `:ascii`, in \
         ASCII): the size of a large misère form or list without printing it.",
        example: "size([*, *2, *3])",
        result: "11",
        record: None,
    },
    Builtin {
        name: "sum",
        imp: Impl::Core(CoreOp::Sum),
        signature: "sum(xs)",
        arity: (1, 1),
        doc: "The sum of a list: of integers, an integer; of games, their disjunctive sum; of \
         misère forms, their misère sum.",
        example: "sum([*1, *2, *3])",
        result: "0",
        record: None,
    },
    Builtin {
        name: "mex",
        imp: Impl::Core(CoreOp::Mex),
        signature: "mex(xs)",
        arity: (1, 1),
        doc: "The least nonnegative integer not in the list (negative entries are ignored).",
        example: "mex([0, 1, 3])",
        result: "2",
        record: None,
    },
    Builtin {
        name: "min",
        imp: Impl::Core(CoreOp::Min),
        signature: "min(xs)",
        arity: (1, 1),
        doc: "The least integer of a nonempty list.",
        example: "min([4, 2, 9])",
        result: "2",
        record: None,
    },
    Builtin {
        name: "max",
        imp: Impl::Core(CoreOp::Max),
        signature: "max(xs)",
        arity: (1, 1),
        doc: "The greatest integer of a nonempty list.",
        example: "max([4, 2, 9])",
        result: "9",
        record: None,
    },
    Builtin {
        name: "sorted",
        imp: Impl::Core(CoreOp::Sorted),
        signature: "sorted(xs)",
        arity: (1, 1),
        doc: "A list of integers in increasing order.",
        example: "sorted([3, 1, 2])",
        result: "[1, 2, 3]",
        record: None,
    },
    Builtin {
        name: "reverse",
        imp: Impl::Core(CoreOp::Reverse),
        signature: "reverse(xs)",
        arity: (1, 1),
        doc: "The list in reverse order.",
        example: "reverse([1, 2, 3])",
        result: "[3, 2, 1]",
        record: None,
    },
    Builtin {
        name: "contains",
        imp: Impl::Core(CoreOp::Contains),
        signature: "contains(xs, x)",
        arity: (2, 2),
        doc: "Whether the list holds `x` (integers, strings, booleans, outcomes and games by \
         identity).",
        example: "contains([1, 2], 2)",
        result: "true",
        record: None,
    },
    Builtin {
        name: "remove",
        imp: Impl::Core(CoreOp::Remove),
        signature: "remove(xs, i)",
        arity: (2, 2),
        doc: "The list without its entry at index `i` (counting from 0).",
        example: "remove([5, 6, 7], 1)",
        result: "[5, 7]",
        record: None,
    },
    Builtin {
        name: "append",
        imp: Impl::Core(CoreOp::Append),
        signature: "append(xs, x)",
        arity: (2, 2),
        doc: "The list with `x` added at the end.",
        example: "append([1], 2)",
        result: "[1, 2]",
        record: None,
    },
    Builtin {
        name: "abs",
        imp: Impl::Core(CoreOp::Abs),
        signature: "abs(n)",
        arity: (1, 1),
        doc: "The absolute value of an integer.",
        example: "abs(-4)",
        result: "4",
        record: None,
    },
    Builtin {
        name: "save_table",
        imp: Impl::Core(CoreOp::SaveTable),
        signature: "save_table(file)",
        arity: (1, 1),
        doc: "Writes what pruned search learned (its table, and the nimbers it found of the parts \
         of rulesets that split) to `file`, positions stored by their arguments and their \
         ruleset's name and a hash of its definition, the file ending in a checksum; written to \
         a temporary file and renamed, so a save stopped half-way leaves the last whole file. \
         The number of positions written. `load_table` reads it back, in this session or \
         another; `loony --table FILE` loads at start and saves at exit.",
        example: "",
        result: "",
        record: None,
    },
    Builtin {
        name: "load_table",
        imp: Impl::Core(CoreOp::LoadTable),
        signature: "load_table(file)",
        arity: (1, 1),
        doc: "Reads a table that `save_table` wrote into this session's table (and its nimbers \
         into the memo), so a long search resumes where the saved one stopped. Its rulesets \
         must be defined first, with the text they had when it was saved. A file cut short, \
         altered, or saved for other rulesets is an error, and nothing of it is loaded. The \
         number of positions read.",
        example: "",
        result: "",
        record: None,
    },
];
