//! How values and callables are named in messages and documentation.

use crate::value::Value;

/// Short description of a value for error labels.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Int(n) => format!("the integer {n}"),
        other => other.type_name().to_string(),
    }
}

/// How a `fn` or `ruleset` is called: `f(a, (b, c))`.
pub fn signature(name: &str, params: &[loony_syntax::ast::Pattern]) -> String {
    fn pattern(p: &loony_syntax::ast::Pattern) -> String {
        match p {
            loony_syntax::ast::Pattern::Name(id) => id.name.to_string(),
            loony_syntax::ast::Pattern::Tuple(ps, _) => format!(
                "({})",
                ps.iter().map(pattern).collect::<Vec<_>>().join(", ")
            ),
        }
    }
    format!(
        "{name}({})",
        params.iter().map(pattern).collect::<Vec<_>>().join(", ")
    )
}
