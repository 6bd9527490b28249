//! Which record is before a dot being completed: `q.` where `q` is a `let` bound to a call of a
//! built-in that returns a record (`let q = quotient(g)`, as the resolver found), or such a
//! call itself, `quotient(g).`. The fields are then that built-in's row of the table. The line
//! being typed does not parse, so the text before the dot is read with the lexer, and a name
//! that the analysis does not cover means what the definitions above it say.

use logos::Logos;
use loony_lang::catalog::{self, Builtin};
use loony_lang::resolve::{DefKind, Target, Workspace};
use loony_syntax::lexer::Tok;

/// For the cursor at `at` in the first module's `text`: where the word after a dot starts, and
/// the built-in whose record is before the dot. `None` when no record is known there.
pub fn before_dot(ws: &Workspace, text: &str, at: usize) -> Option<(usize, &'static Builtin)> {
    let before = text.get(..at)?;
    let start = crate::repl::complete::word_start(before);
    let dot = before[..start].strip_suffix('.')?.len();
    let line = before[..dot].rfind('\n').map_or(0, |i| i + 1);
    // The tokens of the line up to the dot, with their offsets in `text`.
    let toks: Vec<(Tok<'_>, std::ops::Range<usize>)> = Tok::lexer(&text[line..dot])
        .spanned()
        .filter_map(|(t, s)| Some((t.ok()?, line + s.start..line + s.end)))
        .collect();
    match toks.last()? {
        (Tok::Ident(name), span) => match meaning(ws, name, span)? {
            Target::Def(id) => ws.def(id).record_of.map(|b| (start, b)),
            Target::Builtin(_) => None,
        },
        (Tok::RParen, _) => {
            // Back to the parenthesis this one closes, and the name called before it.
            let mut depth = 0usize;
            let mut i = toks.len();
            while i > 0 {
                i -= 1;
                match toks[i].0 {
                    Tok::RParen => depth += 1,
                    Tok::LParen => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
            if depth != 0 || i == 0 {
                return None;
            }
            let (Tok::Ident(name), span) = &toks[i - 1] else {
                return None;
            };
            match meaning(ws, name, span)? {
                Target::Builtin(b) if b.record.is_some() => Some((start, b)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What the name `name` at `span` refers to: the analysis's answer where the statement
/// parsed; otherwise the last definition of it above (in the file or through an import), or
/// the built-in of that name.
fn meaning(ws: &Workspace, name: &str, span: &std::ops::Range<usize>) -> Option<Target> {
    let root = ws.modules.first()?;
    if let Some(r) = root.refs.iter().find(|r| r.span == *span) {
        return Some(r.target);
    }
    let defined = root
        .defs
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            matches!(d.kind, DefKind::Let | DefKind::Fn | DefKind::Ruleset)
                && &*d.name == name
                && d.whole.end <= span.start
        })
        .map(|(i, d)| {
            let id = loony_lang::resolve::DefId { module: 0, def: i };
            (d.whole.start, Target::Def(id))
        });
    let imported = root
        .imports
        .iter()
        .filter(|i| i.span.end <= span.start)
        .filter_map(|i| {
            let m = &ws.modules[i.module?];
            let (_, g) = m.exports.iter().find(|(n, _)| &**n == name)?;
            Some((i.span.start, g.target))
        });
    match defined.chain(imported).max_by_key(|(at, _)| *at) {
        Some((_, t)) => Some(t),
        None => catalog::find(name).map(Target::Builtin),
    }
}
