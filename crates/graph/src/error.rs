//! The graph layer's errors: labelled forms (`x{0, x | 0, x}`) written so that their graph
//! cannot be read.

use loony_core::diag::{Diagnose, Report};

#[derive(Debug, Clone, PartialEq)]
pub enum GraphError {
    /// A label met while its form is still being built.
    LabelBeforeForm,
    /// A label inside a form that already carries that name.
    LabelShadows { name: String },
    /// A label its form never mentions.
    LabelUnused { name: String },
}

impl Diagnose for GraphError {
    fn report(&self) -> Report {
        match self {
            GraphError::LabelBeforeForm => Report::new(
                BAD_LABEL,
                "a label is used before its form is complete",
                "this labelled form",
            ),
            GraphError::LabelShadows { name } => Report::new(
                BAD_LABEL,
                format!("the label `{name}` is already the name of an enclosing form"),
                "a second label with this name",
            )
            .note("inside a labelled form its name means that form; pick another name"),
            GraphError::LabelUnused { name } => Report::new(
                BAD_LABEL,
                format!("the label `{name}` is never used"),
                "this label names a form that never mentions it",
            )
            .note(format!(
                "a label lets a form refer to itself, as in `{name}{{0, {name} | 0, {name}}}`; \
                 without a use, write the form without it"
            )),
        }
    }
}

loony_core::codes! {
    /// The `--explain` texts of this layer's codes.
    pub CODES;
    BAD_LABEL = "E0109",
        "A label of a labelled (loopy) form that is defined twice, or defined and never used: \
         `a{0, a{a | a} | 0, a}` reuses `a`, and `a{0, * | 0, *}` never mentions `a`.\n\n\
         A label names the form so that its options can reach it again; drop an unused label, \
         and give nested forms different labels.";
}
