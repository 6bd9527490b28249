//! How values print, and the value of a game (the question most statements ask).

use crate::cx::Cx;
use crate::error::{EvalError, Nesting};
use crate::value::Value;
pub use crate::words::{describe, signature};
use loony_core::diag::{CoreError, Error};
use loony_core::game::Store;
impl Cx {
    /// Points an engine error at the form it is about, if that form was written in source.
    pub(crate) fn locate(&self, e: Error) -> Error {
        match (e.loc.is_none(), e.subject) {
            (true, Some(g)) => match self.span_of(g) {
                Some(loc) => e.or_at(loc.file, loc.span),
                None => e,
            },
            _ => e,
        }
    }

    pub fn show(&mut self, store: &mut Store, v: &Value) -> Result<String, Error> {
        let mut out = String::new();
        self.show_into(store, v, &mut out)?;
        Ok(out)
    }

    /// Writes a value into one buffer, so nested lists and tuples print in linear time.
    fn show_into(&mut self, store: &mut Store, v: &Value, out: &mut String) -> Result<(), Error> {
        let (open, close) = match v {
            Value::List(_) => ('[', "]"),
            Value::Tuple(xs) if xs.len() == 1 => ('(', ",)"),
            Value::Tuple(_) => ('(', ")"),
            other => {
                let s = self.show_one(store, other)?;
                out.push_str(&s);
                return Ok(());
            }
        };
        let (Value::List(xs) | Value::Tuple(xs)) = v else {
            unreachable!("lists and tuples only")
        };
        if super::stack::exhausted() {
            return Err(Error::new(EvalError::TooDeep {
                what: Nesting::List,
                limit: self.scope.depth,
            }));
        }
        out.push(open);
        let mut memo = super::row::PrintMemo::default();
        for (i, x) in xs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.limits.steps = self.limits.steps.wrapping_add(1);
            if self.limits.steps.is_multiple_of(4096) && self.interrupted() {
                return Err(Error::new(CoreError::Interrupted));
            }
            // Strings print quoted inside lists, so `["a, b"]` reads as one string.
            if let Value::Str(s) = x {
                out.push_str(&loony_syntax::lexer::quote(s));
                continue;
            }
            if let Value::Board(b) = x {
                out.push_str("board(");
                out.push_str(&loony_syntax::lexer::quote(&b.compact()));
                out.push(')');
                continue;
            }
            // Games (most often a table's positions) print straight into the list's string.
            if let Value::Game(g) = x {
                if self.print_row_position(store, *g, &mut memo, out) {
                    continue;
                }
                let c = self.game_value(store, *g)?;
                if !c.show_into(self.out.notation.ascii, out) {
                    unreachable!("game_value returns printable classes");
                }
                continue;
            }
            self.scope.depth += 1;
            let r = self.show_into(store, x, out);
            self.scope.depth -= 1;
            r?;
        }
        out.push_str(close);
        Ok(())
    }
}

impl Cx {
    /// A value as JSON, for `--json` pipelines: games as their value strings (the game 0 as the
    /// number 0), sequences as `{"start": n, "values": [...]}`, records as objects, `none` as
    /// `null`. Written by serde_json ([`loony_core::json`]).
    pub fn show_json(&mut self, store: &mut Store, v: &Value) -> Result<String, Error> {
        let json = self.json_of(store, v)?;
        Ok(loony_core::json::to_string(&json))
    }

    fn json_of(&mut self, store: &mut Store, v: &Value) -> Result<Json, Error> {
        if super::stack::exhausted() {
            return Err(Error::new(EvalError::TooDeep {
                what: Nesting::List,
                limit: self.scope.depth,
            }));
        }
        Ok(match v {
            Value::Int(n) => Json::Int(*n),
            Value::Bool(b) => Json::Bool(*b),
            Value::None => Json::Null,
            Value::List(xs) | Value::Tuple(xs) => {
                let mut items = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    items.push(self.json_of(store, x)?);
                }
                Json::List(items)
            }
            Value::Sequence(s) => Json::Sequence(s.clone()),
            Value::Board(b) => Json::Str(b.compact()),
            Value::Record(r) => {
                let mut fields = Vec::with_capacity(r.fields.len());
                for (k, x) in &r.fields {
                    fields.push((*k, self.json_of(store, x)?));
                }
                Json::Object(fields)
            }
            // The game 0 is the integer 0 (`0 == { | }`), so it is the number 0 however it arose;
            // every other game is a string.
            Value::Game(_) | Value::Position(_) => match self.show(store, v)? {
                s if s == "0" => Json::Int(0),
                s => Json::Str(s),
            },
            other => Json::Str(self.show(store, other)?),
        })
    }
}

/// A nim-sequence as the octal-game literature prints it: rows of values, each row labelled by
/// the heap size it starts at.
pub fn sequence(start: u64, values: &[u32]) -> String {
    const ROW: usize = 20;
    if values.len() <= ROW {
        return values
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
    }
    let last = start + values.len() as u64 - 1;
    let width = last.to_string().len();
    let mut out = String::new();
    for (i, row) in values.chunks(ROW).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let n = start + (i * ROW) as u64;
        out.push_str(&format!("{n:>width$}: "));
        out.push_str(&row.iter().map(u32::to_string).collect::<Vec<_>>().join(" "));
    }
    out
}

/// A value as `--json` writes it.
enum Json {
    Int(i64),
    Bool(bool),
    Null,
    Str(String),
    List(Vec<Json>),
    /// A nim-sequence: `{"start": n, "values": [...]}`.
    Sequence(std::rc::Rc<crate::value::Sequence>),
    /// A record's fields, in their order.
    Object(Vec<(&'static str, Json)>),
}

impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Json::Int(n) => s.serialize_i64(*n),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Null => s.serialize_unit(),
            Json::Str(t) => s.serialize_str(t),
            Json::List(items) => s.collect_seq(items),
            Json::Sequence(q) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("start", &q.start)?;
                m.serialize_entry("values", &q.values)?;
                m.end()
            }
            Json::Object(fields) => {
                let mut m = s.serialize_map(Some(fields.len()))?;
                for (k, v) in fields {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}
