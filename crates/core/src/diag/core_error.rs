//! The core layer's errors: what stops any computation (Ctrl-C, the memory budget, a full
//! table of the store), a sum the store cannot form, and a bug caught at the session boundary.

use super::{Diagnose, Report};
use crate::memory::show_size;

#[derive(Debug, Clone, PartialEq)]
pub enum CoreError {
    /// Ctrl-C, or a budget that asked the work to stop (see [`crate::memory`]).
    Interrupted,
    /// `∞ + ∞̄`: both players would have already won.
    InfinitiesCollide,
    /// The statement needed more memory than the session's budget.
    MemoryBudget {
        budget: usize,
        what: String,
        /// What the session held when the statement began.
        held: usize,
    },
    /// A table of the interpreter would outgrow its indices (`what` names it).
    Capacity { what: String, limit: String },
    /// A panic caught at the session boundary: a bug in Loony.
    Internal { message: String },
}

impl Diagnose for CoreError {
    fn report(&self) -> Report {
        match self {
            CoreError::Interrupted => Report::new(
                INTERRUPTED,
                "interrupted",
                "the computation was stopped here",
            ),
            CoreError::InfinitiesCollide => Report::new(
                INFINITIES_COLLIDE,
                "`∞ + ∞̄` has no value: both players would have already won",
                "∞ and ∞̄ meet in this sum",
            ),
            CoreError::MemoryBudget { budget, what, held } => {
                let mut r = Report::new(
                    MEMORY_BUDGET,
                    format!(
                        "this needs more memory than the session's budget of {}",
                        show_size(*budget)
                    ),
                    format!("stopped while building {what}"),
                );
                if *held > budget / 2 {
                    r = r.note(format!(
                        "the session already held {} when this began (the games, positions and \
                         values met so far)",
                        show_size(*held)
                    ));
                }
                r.note(format!(
                    "raise the budget (now {}) with `--memory SIZE` or `:memory SIZE`",
                    show_size(*budget)
                ))
            }
            CoreError::Capacity { what, limit } => Report::new(
                CAPACITY,
                format!("too many {what}: Loony's tables hold at most {limit}"),
                "building this needed more",
            )
            .note("split the computation into smaller ones"),
            CoreError::Internal { message } => Report::new(
                INTERNAL,
                "internal error: Loony failed while running this",
                "while running this",
            )
            .note(format!("the cause: {message}"))
            .note(
                "this is a bug in Loony: please report it with the input that caused it; \
                 the session goes on, but values computed by this input may be incomplete",
            )
            .bare(),
        }
    }
}

crate::codes! {
    /// The `--explain` texts of these codes.
    pub(super) CODES;
    INTERRUPTED = "E0501",
        "The computation was interrupted by Ctrl-C.\n\n\
         The session goes on with everything computed before the statement; the interrupted \
         statement left no binding.";
    INFINITIES_COLLIDE = "E0205",
        "`∞ + ∞̄`: a sum in which both players would already have won has no value.\n\n\
         ∞ is a game Left has won and ∞̄ one Right has won; they cannot both be parts of one \
         sum.";
    MEMORY_BUDGET = "E0213",
        "The statement needed more memory than the session's budget (by default half of the \
         machine's memory).\n\n\
         Raise it with `--memory SIZE` or `:memory SIZE` (e.g. 8G); the note says what was \
         being built and how much the session already held.";
    CAPACITY = "E0212",
        "A table of the interpreter would outgrow its 32-bit indices (more than about four \
         billion games, positions or argument lists), or a ruleset has more than 255 \
         parameters (a position's key counts its words in one byte).\n\n\
         Split the computation into smaller ones; pass many parameters together, as one tuple \
         or list.";
    INTERNAL = "E0901",
        "An internal error: a bug in Loony, caught so that the session goes on.\n\n\
         Please report it with the input that caused it. Values computed by that input may be \
         incomplete.";
}
