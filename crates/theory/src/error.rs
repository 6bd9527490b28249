//! The theory layer's errors, as the engines' callers report them: a game the theory gives
//! no value (or no class), a heap code or heap game an engine cannot read, a misère quotient
//! past its limits, a misère operation outside its domain. Games are named by their printed
//! forms, since a diagnostic outlives the store's ids.

use crate::misere::Limited;
use loony_core::diag::{Diagnose, Place, Report};
use std::ops::Range;

#[derive(Debug, Clone, PartialEq)]
pub enum TheoryError {
    // --- values of games ---
    NotImpartial {
        form: String,
        detail: String,
    },
    /// A sum whose part recurs inside one of its own followers: infinitely many positions.
    InfiniteGame {
        position: String,
        follower: String,
    },
    /// Right's options are not the conjugates of Left's.
    NotAffine {
        form: String,
        detail: String,
    },
    /// No nim-value: `reason` says which rule of the theory rules one out.
    NoValue {
        form: String,
        reason: String,
    },
    /// The theory gives the game no value (its outcome is still known).
    Undetermined {
        form: String,
        reason: String,
        outcome: Option<String>,
    },
    /// The exact solver met more states than the budget allows.
    SearchBudget {
        budget: usize,
    },
    // --- heap games, the nim field and misère quotients ---
    /// A take-and-break code that does not parse (`at` is in the code's own text).
    BadHeapCode {
        code: String,
        message: String,
        at: Range<usize>,
    },
    NotHeapGame {
        found: String,
        detail: String,
    },
    /// A move of a would-be heap game that is not a sum of smaller heaps (`option` empty: the
    /// game itself is not one).
    NotSumOfHeaps {
        game: String,
        option: String,
        reason: String,
    },
    QuotientTooLarge {
        game: String,
        heap: usize,
        order: usize,
        elements: usize,
        /// The ceiling passed, and the memory budget the ceilings came from (`None` when a
        /// host set them).
        grew: crate::quotient::Grew,
        memory: Option<usize>,
    },
    NoCertificate {
        game: String,
    },
    BadHeapBound {
        value: i64,
        max: i64,
    },
    /// `nim_inverse(0)`, `nim_div(a, 0)`: division by the nimber 0.
    NimZeroDivisor {
        op: String,
    },
    /// A nim-field operation given a negative integer.
    NimNegative {
        op: String,
        value: i64,
    },
    // --- misère play ---
    /// `*[…]` with an element that is not an integer, a list or a game.
    MisereSpecifier {
        found: String,
    },
    /// `link(g, h)` of games that are not linked (CGSuite's wording).
    MisereNotLinked {
        g: String,
        h: String,
    },
    /// `misere_minus(g, h)` where `h` is not a part of `g` (CGSuite's wording).
    MisereNotSubtractable {
        g: String,
        h: String,
    },
    /// A misère function given a game with ∞, ∞̄, `entail` or `carry`.
    MisereEntailing {
        form: String,
    },
    /// `distinguisher(g, g)`.
    MisereIdentical {
        game: String,
    },
    /// A nim heap or a printed string past the misère engine's limits.
    MisereTooLarge {
        what: Limited,
        size: u64,
        limit: u64,
    },
    /// One misère computation created more games than its budget allows.
    MisereBudget {
        limit: usize,
    },
    /// A string that is not CGSuite's misère notation (`at` is in the string).
    MisereNotation {
        text: String,
        message: String,
        at: usize,
    },
    /// A misère function called while the misère engine is converting a ruleset position.
    MisereBusy,
}

impl Diagnose for TheoryError {
    fn report(&self) -> Report {
        use TheoryError as T;
        match self {
            T::NotImpartial { .. }
            | T::InfiniteGame { .. }
            | T::NotAffine { .. }
            | T::NoValue { .. }
            | T::Undetermined { .. }
            | T::SearchBudget { .. } => self.value_report(),
            T::BadHeapCode { .. }
            | T::NotHeapGame { .. }
            | T::NotSumOfHeaps { .. }
            | T::QuotientTooLarge { .. }
            | T::NoCertificate { .. }
            | T::BadHeapBound { .. }
            | T::NimZeroDivisor { .. }
            | T::NimNegative { .. } => self.heap_report(),
            T::MisereSpecifier { .. }
            | T::MisereNotLinked { .. }
            | T::MisereNotSubtractable { .. }
            | T::MisereEntailing { .. }
            | T::MisereIdentical { .. }
            | T::MisereTooLarge { .. }
            | T::MisereBudget { .. }
            | T::MisereNotation { .. }
            | T::MisereBusy => self.misere_report(),
        }
    }
}

impl TheoryError {
    /// Games the theory gives no value: not impartial, not affine, infinite, undetermined, or
    /// past the exact search's budget.
    fn value_report(&self) -> Report {
        use TheoryError as T;
        match self {
            T::NotImpartial { form, detail } => {
                Report::new(NOT_IMPARTIAL, format!("`{form}` is not impartial"), detail)
            }
            T::InfiniteGame { position, follower } => Report::new(
                INFINITE_GAME,
                format!("this game has infinitely many positions: `{position}` keeps recurring"),
                "the positions of this game grow without end",
            )
            .note(format!(
                "`{position}` is a part of its own follower `{follower}`, so the sums met \
             in play grow without end; Loony values games with finitely many positions"
            )),
            T::NotAffine { form, detail } => Report::new(
                NOT_AFFINE,
                format!("`{form}` is not an affine impartial game"),
                detail,
            )
            .note(
                "an affine impartial game has Right's options the conjugates of Left's, and so \
             do its quiet followers",
            ),
            T::NoValue { form, reason } => {
                Report::new(NO_VALUE, format!("`{form}` has no nim-value"), reason)
            }
            T::Undetermined {
                form,
                reason,
                outcome,
            } => Report::new(
                UNDETERMINED,
                format!("the value of `{form}` is not determined"),
                "no value in the theory",
            )
            .note(reason)
            .notes(
                outcome
                    .iter()
                    .map(|o| format!("its outcome is {o} (exact search); `outcome(…)` gives it")),
            ),
            T::SearchBudget { budget } => Report::new(
                SEARCH_BUDGET,
                format!("the exact search of this sum passed {budget} states without finishing"),
                "too many states to search",
            )
            .note(format!(
                "the theory gives no value here, so every state of the sum is searched; \
             raise the budget (now {budget}) with `--budget N` or `:budget N`"
            )),
            _ => unreachable!("`report` sends only these here"),
        }
    }

    /// Heap codes and games, quotients and their bounds, and the nim-field's arithmetic.
    fn heap_report(&self) -> Report {
        use TheoryError as T;
        match self {
            T::BadHeapCode { code, message, at } => Report::new(
                BAD_HEAP_CODE,
                format!("bad heap code \"{code}\": {message}"),
                "in this code",
            )
            .place(Place::InString(at.clone())),
            T::NotHeapGame { found, detail } => Report::new(
                NOT_HEAP_GAME,
                format!("`quotient` needs a heap game, not {found}"),
                detail,
            )
            .note(
                "heap games are heap(\"0.07\"), subtraction([…]), allbut([…]), and rulesets of \
             one heap size whose moves are sums of smaller heaps",
            ),
            T::NotSumOfHeaps {
                game,
                option,
                reason,
            } => Report::new(
                NOT_SUM_OF_HEAPS,
                if option.is_empty() {
                    format!("`{game}` is not a heap game")
                } else {
                    format!("the move from `{game}` to `{option}` is not a sum of smaller heaps")
                },
                reason,
            )
            .note("a heap game's moves replace a heap by a sum of smaller heaps of the same game"),
            T::QuotientTooLarge {
                game,
                heap,
                order,
                elements,
                grew,
                memory,
            } => {
                use crate::quotient::Grew;
                let what = match grew {
                    Grew::Product => "a candidate",
                    Grew::Reduced => "a reduced candidate",
                    Grew::Antichain => "the verification's antichain",
                    Grew::Search => "the search",
                };
                let mut r = Report::new(
                    QUOTIENT_TOO_LARGE,
                    format!("the misère quotient of {game} outgrew its size limit at heap {heap}"),
                    format!("{what} for Q_{heap} reached {elements} elements"),
                );
                if *heap > 1 {
                    r = r.note(format!(
                    "the last quotient computed, Q_{}, has order {order}; a heap bound of {} gives it",
                    heap - 1,
                    heap - 1
                ));
                }
                if let Some(bytes) = memory {
                    r = r.note(format!(
                        "the size limits come from the memory budget ({}): a larger one \
                     (`--memory` or `:memory`) lets {what} grow further",
                        loony_core::memory::show_size(*bytes)
                    ));
                }
                r
            }
            T::NoCertificate { game } => Report::new(
                NO_CERTIFICATE,
                format!(
                    "the misère quotient of {game} cannot be certified, so it needs a heap bound"
                ),
                "no heap bound given",
            )
            .note(
                "the periodicity theorem applies to take-and-break codes without `!`, `?`, `=`, \
             subtraction and all-but games; `quotient(G, n)` computes the partial quotient Q_n",
            ),
            T::BadHeapBound { value, max } => Report::new(
                BAD_HEAP_BOUND,
                format!("a heap bound must be from 0 to {max}, not {value}"),
                "this bound",
            ),
            T::NimZeroDivisor { op } => Report::new(
                NIM_ZERO_DIVISOR,
                format!("`{op}` divides by the nimber 0, which has no inverse"),
                "this is 0",
            ),
            T::NimNegative { op, value } => Report::new(
                NIM_NEGATIVE,
                format!("`{op}` works on nimbers, numbered 0, 1, 2, …, not on {value}"),
                "this is negative",
            ),
            _ => unreachable!("`report` sends only these here"),
        }
    }

    /// The misère engine: its specifiers, notation, limits and operations.
    fn misere_report(&self) -> Report {
        use TheoryError as T;
        match self {
        T::MisereSpecifier { found } => Report::new(
            MISERE_SPECIFIER,
            "Invalid misere game specifier: must be a `List` of `Integer`s or `MisereCanonicalGame`s",
            format!("this holds {found}"),
        )
        .note(
            "integers are nim heaps, lists are games with those options, and games may be any impartial game",
        ),
        T::MisereNotLinked { g, h } => Report::new(
            MISERE_NOT_LINKED,
            format!("Those misere games are not linked: {g}, {h}"),
            "one of these games is an option of the other",
        )
        .note("two games are linked exactly when neither is an option of the other"),
        T::MisereNotSubtractable { g, h } => Report::new(
            MISERE_NOT_SUBTRACTABLE,
            format!("Those misere games are not subtractable: {g}, {h}"),
            "the second game is not a part of the first",
        )
        .note("see `parts(g)` for the games that can be subtracted"),
        T::MisereEntailing { form } => Report::new(
            MISERE_ENTAILING,
            format!("`{form}` has entailing moves, which misère play does not cover"),
            "∞, ∞̄, `entail` or `carry` is reachable from here",
        )
        .note(
            "misère canonical forms exist for short impartial games: no ∞, ∞̄, `entail` or `carry`",
        ),
        T::MisereIdentical { game } => Report::new(
            MISERE_IDENTICAL,
            format!("no game distinguishes {game} from itself"),
            "these games are equal",
        ),
        T::MisereTooLarge { what, size, limit } => {
            let message = match what {
                Limited::NimHeap => format!(
                    "the nim heap *{size} is too large for the misère engine (at most *{limit})"
                ),
                Limited::Printed => format!(
                    "this misère game's CGSuite string would have {size} characters (at most {limit})"
                ),
                Limited::DayListed => {
                    format!("the day to list games of is too large: {size} (at most {limit})")
                }
                Limited::DayCounted => {
                    format!("the day to count games of is too large: {size} (at most {limit})")
                }
                Limited::Enumerated => format!(
                    "the number of games to enumerate option sets of is too large: {size} (at most {limit})"
                ),
            };
            let report = Report::new(MISERE_TOO_LARGE, message, "too large");
            if *what == Limited::Printed {
                report.note(
                    "genus, birthday, outcome and the predicates do not need the printed form",
                )
            } else {
                report
            }
        }
        T::MisereBudget { limit } => Report::new(
            MISERE_TOO_LARGE,
            format!("this misère computation created more than {limit} games"),
            "too large",
        )
        .note(format!(
            "sums of large games have large canonical forms; raise the budget (now {limit}) with `--budget N` or `:budget N`"
        )),
        T::MisereNotation { text, message, at } => Report::new(
            MISERE_NOTATION,
            format!("bad misère notation \"{text}\": {message}"),
            "in this string",
        )
        .place(Place::InString(*at..*at + 1)),
        T::MisereBusy => Report::new(
            MISERE_BUSY,
            "misère functions cannot be called from a ruleset while its positions are being converted to misère forms",
            "called here",
        )
        .note("compute misère values outside the ruleset's rules"),
            _ => unreachable!("`report` sends only these here"),
        }
    }
}

loony_core::codes! {
    /// The `--explain` texts of this layer's codes.
    pub CODES;
    NOT_IMPARTIAL = "E0201",
        "A game that is not impartial: some position gives Left and Right different options, \
         as in `{0, * | 0}`.\n\n\
         Loony computes values of impartial games, where both players have the same moves at \
         every position (the conjugate of each option, for entailing games). The diagnostic \
         shows the first position found whose options differ.";
    INFINITE_GAME = "E0202",
        "A game with infinitely many positions: a ruleset position recurs inside one of its \
         own followers as part of a larger sum (`grow(n) => grow(n) + *`), so the sums keep \
         growing.\n\n\
         Loopy games are fine when the same positions recur; sums that grow each time around \
         are not finite graphs.";
    NOT_AFFINE = "E0204",
        "A game that is not an affine impartial game: some Right option is not the conjugate \
         of a Left option (with ∞/∞̄ swapped), so the affine theory gives it no value.\n\n\
         Affine impartial games (entailing moves `{∞ | X}` and their conjugates) are the games \
         `affine_value` and `explain` handle.";
    NO_VALUE = "E0207",
        "A game that has no nim-value where one is needed: a position of a ruleset whose value \
         is a moon or loopy (in `nim_sequence`), a game given to nim-field arithmetic that is \
         not a nimber, or an affine game whose entailing moves lie on a cycle.\n\n\
         `value(g)` shows what the game's value is instead.";
    UNDETERMINED = "E0208",
        "The theory gives this game no value: a loopy game with entailing moves whose value is \
         not determined by the known results.\n\n\
         Its outcome is still known (the note gives it, found by an exact search); \
         `outcome(g)` answers.";
    SEARCH_BUDGET = "E0209",
        "The exact search of a sum (used where the theory gives no value) met more states than \
         the budget allows.\n\n\
         Raise the budget with `--budget N` or `:budget N`.";
    BAD_HEAP_CODE = "E0401",
        "A take-and-break code that is not CGSuite's notation: a digit out of range, an \
         unclosed `[` period or `{` set, a code with endless play.\n\n\
         Codes are written `d0.d1d2d3…` (octal games like \"0.07\"), with hexadecimal digits, \
         `&…;` for large digits, `[…]` for a repeating tail and `{…}` sets; `!`, `?` and `=` \
         mark variants. The label points at the character.";
    NOT_HEAP_GAME = "E0402",
        "A game that is not a heap game where one is needed (for `quotient`, \
         `nim_sequence`, `periodicity`).\n\n\
         Heap games are `heap(\"0.07\")`, `subtraction([…])`, `allbut([…])`, and rulesets of \
         one heap size whose moves are sums of smaller heaps.";
    NOT_SUM_OF_HEAPS = "E0403",
        "A ruleset used as a heap game has a move that is not a sum of smaller heaps of the \
         same ruleset.\n\n\
         A heap game's moves replace a heap by a sum of smaller heaps; the message shows the \
         offending option.";
    QUOTIENT_TOO_LARGE = "E0404",
        "A misère quotient grew past the limits on its size while being computed: an \
         unreduced or reduced candidate, or the antichain that verifies one.\n\n\
         The limits follow the session's memory budget (`--memory`, `:memory`): each \
         structure may take about a quarter of it. The note gives the last quotient completed; \
         `quotient(g, n)` with a smaller heap bound computes a partial quotient, and a larger \
         budget lets the candidate grow further.";
    NO_CERTIFICATE = "E0405",
        "`quotient(g)` without a heap bound for a game whose periodicity cannot be certified \
         (codes with `!`, `?`, `=`, and some others).\n\n\
         Give a bound: `quotient(g, n)` computes the partial quotient Q_n.";
    BAD_HEAP_BOUND = "E0406",
        "A heap bound for `quotient` out of range (negative, or larger than the maximum).\n\n\
         The message gives the range.";
    NIM_ZERO_DIVISOR = "E0407",
        "Nim division by 0: `nim_inverse(0)`, `nim_div(a, 0)`.\n\n\
         Every nonzero nimber has a nim-inverse; 0 has none.";
    NIM_NEGATIVE = "E0408",
        "A nim-field built-in (`nim_sum`, `nim_product`, `nim_inverse`, `nim_div`) given a \
         negative integer.\n\n\
         They take nonnegative integers or nimbers.";
    MISERE_SPECIFIER = "E0601",
        "A misère literal `*[…]` with an element that is not an integer, a list or a game.\n\n\
         Integers are nim heaps, lists are games with those options: `*[2, [1]]`.";
    MISERE_NOT_LINKED = "E0602",
        "`link(g, h)` of games that are not linked: one is an option of the other.\n\n\
         Two games are linked exactly when neither is an option of the other \
         (`is_linked(g, h)` tests it).";
    MISERE_NOT_SUBTRACTABLE = "E0603",
        "`misere_minus(g, h)` where `h` is not a part of `g`.\n\n\
         `parts(g)` lists the games that can be subtracted.";
    MISERE_ENTAILING = "E0604",
        "A misère function given a game with ∞, ∞̄, `entail` or `carry` reachable.\n\n\
         Misère canonical forms exist for short impartial games only.";
    MISERE_IDENTICAL = "E0605",
        "`distinguisher(g, g)`: equal games have no distinguisher.\n\n\
         A distinguisher is a game `x` with `g + x` and `h + x` of different misère \
         outcomes; it exists exactly when `g` and `h` differ.";
    MISERE_TOO_LARGE = "E0606",
        "A nim heap or a printed string past the misère engine's limits.\n\n\
         The message gives the limit.";
    MISERE_NOTATION = "E0607",
        "A string that is not CGSuite's misère notation (in `misere_form(\"…\")`).\n\n\
         It is the notation `misere_form` prints, like `*[2#0]`; the label points at the \
         character where reading stopped.";
    MISERE_BUSY = "E0608",
        "A misère function called inside a ruleset's rules while the misère engine is \
         converting a position of that ruleset.\n\n\
         Compute misère values outside the rules.";
}
