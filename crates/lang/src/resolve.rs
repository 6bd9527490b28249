//! Static name resolution: what a program's names refer to, found without running it, for the
//! language server (diagnostics as the user types, hover, definitions, references, rename).
//!
//! It walks the interpreter's own syntax tree ([`loony_syntax::parse_program`]) with the
//! interpreter's scoping: a `fn` body sees its parameters and the globals (whenever defined,
//! since it runs when called), a ruleset's rules likewise, and a top-level statement sees the
//! globals defined before it. The errors are the interpreter's own
//! ([`EvalError::UnknownName`], [`EvalError::Arity`], the type errors of literals written in
//! place such as `if 3 then` or `*"a"`, the import errors of [`modules::locate`]), so they
//! carry the codes, messages and notes the CLI gives for the same mistake. Nothing is
//! evaluated: a program whose top level computes for hours is resolved as quickly as any other.
//!
//! The walk keeps its own stack of work, so input nested however deep does not grow the native
//! stack. Imports are followed once per module, each inside the one importing it, under the
//! interpreter's stack guard (a cycle is cut where it closes).

use crate::catalog::{self, Builtin, Impl};
use crate::error::{EvalError, Operation};
use crate::modules;
use crate::value::Value;
use loony_core::diag::{Error, FileId, Files, Warning, WarningKind};
use loony_syntax::ParseError;
use loony_syntax::ast::{Clause, Expr, ExprKind, Ident, Pattern, Program, Stmt};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;

pub type Span = Range<usize>;

/// What a name was bound by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefKind {
    /// A top-level `let`.
    Let,
    Fn,
    Ruleset,
    /// A parameter of a `fn` or ruleset.
    Param,
    /// A `for` variable, `let … in`, or a comprehension's variable.
    Local,
    /// The name of a labelled form `a{…}`, bound inside its options.
    Label,
}

/// One binding of a name.
#[derive(Debug, Clone)]
pub struct Def {
    pub name: Rc<str>,
    pub kind: DefKind,
    /// The name where it is bound.
    pub span: Span,
    /// The whole statement, for a top-level definition (the name's span otherwise).
    pub whole: Span,
    /// How a `fn` or ruleset is called, `f(a, (b, c))`.
    pub signature: Option<String>,
    /// The number of parameters of a `fn` or ruleset.
    pub arity: Option<usize>,
    /// For a `let`, the built-in whose record it holds: its value is a call of one that
    /// returns a record (`let q = quotient(g)`), so its fields are known without running.
    pub record_of: Option<&'static Builtin>,
}

/// A definition in some module of a [`Workspace`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DefId {
    pub module: usize,
    pub def: usize,
}

/// What a use of a name refers to.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    Def(DefId),
    Builtin(&'static Builtin),
}

/// A use of a name.
#[derive(Debug, Clone)]
pub struct Ref {
    pub span: Span,
    pub target: Target,
}

/// An `import` statement.
#[derive(Debug, Clone)]
pub struct Import {
    /// The statement.
    pub span: Span,
    /// The string literal of its path, quotes included.
    pub path_span: Span,
    pub path: String,
    /// The module it loads, when found.
    pub module: Option<usize>,
}

/// A problem found in a module: an error or a warning as the CLI gives it. `via` is the
/// `import` of this module it came through when it lies in another file (a module that does
/// not parse, a file that is not UTF-8).
#[derive(Debug, Clone)]
pub enum Problem {
    Error { error: Error, via: Option<Span> },
    Warning(Warning),
}

/// One analysed file.
#[derive(Debug)]
pub struct Module {
    /// What makes two imports the same module (see [`modules::Found::key`]).
    pub key: String,
    /// The file name diagnostics show.
    pub name: String,
    pub file: FileId,
    pub defs: Vec<Def>,
    pub refs: Vec<Ref>,
    pub imports: Vec<Import>,
    pub problems: Vec<Problem>,
    /// The globals defined when the module has run: what an importer sees.
    pub exports: Vec<(Rc<str>, Global)>,
    /// The outermost name-free game literals (`{0, *, *2 | 0, *, *2}`), whose value hover shows.
    pub literals: Vec<Span>,
}

/// A file and every module it imports, directly or not: `modules[0]` is the file.
pub struct Workspace {
    pub files: Files,
    pub modules: Vec<Module>,
    /// A module imported the first module again: the interpreter (which runs the file once
    /// more as a module) reports that at the file's own import that led there.
    cycle_to_root: bool,
}

/// The text to use for a module key instead of the file on disk (an editor's unsaved buffer).
pub type Overlay<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Resolves the program `src`, read from the file `name` (imports are found relative to its
/// folder), and every module it imports.
pub fn analyze(name: &str, src: &str, overlay: Overlay<'_>) -> Workspace {
    let mut w = Workspace {
        files: Files::new(),
        modules: Vec::new(),
        cycle_to_root: false,
    };
    let key = Path::new(name)
        .canonicalize()
        .map_or_else(|_| name.to_string(), |p| p.display().to_string());
    let mut loading = Vec::new();
    w.module(
        key,
        name.to_string(),
        src.to_string(),
        overlay,
        &mut loading,
    );
    w
}

impl Workspace {
    /// The module whose key is `key`, if analysed.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.modules.iter().position(|m| m.key == key)
    }

    pub fn def(&self, id: DefId) -> &Def {
        &self.modules[id.module].defs[id.def]
    }

    /// The text of a file of the workspace.
    pub fn text(&self, file: FileId) -> &str {
        self.files.get(file).map_or("", |f| f.source().as_str())
    }

    /// The innermost use or definition of a name at byte `offset` of the first module.
    pub fn at(&self, offset: usize) -> Option<&Ref> {
        self.modules
            .first()?
            .refs
            .iter()
            .filter(|r| r.span.start <= offset && offset <= r.span.end)
            .min_by_key(|r| r.span.len())
    }

    /// Analyses one module (and, first, what it imports); returns its index.
    fn module(
        &mut self,
        key: String,
        name: String,
        src: String,
        overlay: Overlay<'_>,
        loading: &mut Vec<String>,
    ) -> usize {
        let file = self.files.add(name.clone(), src.clone());
        let index = self.modules.len();
        self.modules.push(Module {
            key: key.clone(),
            name: name.clone(),
            file,
            defs: Vec::new(),
            refs: Vec::new(),
            imports: Vec::new(),
            problems: Vec::new(),
            exports: Vec::new(),
            literals: Vec::new(),
        });
        let Recovered {
            programs,
            errors,
            lost,
        } = parse_recovering(&src);
        for e in errors {
            self.modules[index].problems.push(Problem::Error {
                error: crate::modules::syntax_error(e, file),
                via: None,
            });
        }
        loading.push(key.clone());
        let shipped = key.starts_with("std/");
        let mut walker = Walker {
            module: index,
            file,
            defs: Vec::new(),
            refs: Vec::new(),
            problems: Vec::new(),
            scope: Vec::new(),
            globals: Globals::default(),
            stack: Vec::new(),
            lost,
        };
        let mut bodies: Vec<Body<'_>> = Vec::new();
        let mut imports = Vec::new();
        let base = Path::new(&name)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for program in &programs {
            for stmt in &program.stmts {
                match stmt {
                    Stmt::Let { name, value, span } => {
                        walker.walk(value);
                        let record_of = walker.record_call(value);
                        let def =
                            walker.define_global(name, DefKind::Let, span.clone(), None, shipped);
                        walker.defs[def].record_of = record_of;
                    }
                    Stmt::Fn(def) => {
                        let (name, params) = (&def.name, &def.params);
                        walker.define_callable(name, params, DefKind::Fn, &def.span, shipped);
                        bodies.push(Body::Fn(&def.params, &def.body));
                    }
                    Stmt::Ruleset(def) => {
                        let (name, params) = (&def.name, &def.params);
                        walker.define_callable(name, params, DefKind::Ruleset, &def.span, shipped);
                        bodies.push(Body::Ruleset(def));
                    }
                    Stmt::Import { path, span } => {
                        let found = self.import(path, span, file, &base, overlay, loading);
                        let path_span = string_span(&src, span);
                        let module = match found {
                            Ok(m) => {
                                for (n, g) in self.modules[m].exports.clone() {
                                    walker.globals.insert(n, g);
                                }
                                Some(m)
                            }
                            Err((error, via)) => {
                                walker.problems.push(Problem::Error { error, via });
                                None
                            }
                        };
                        imports.push(Import {
                            span: span.clone(),
                            path_span,
                            path: path.clone(),
                            module,
                        });
                    }
                    Stmt::Expr(e) => walker.walk(e),
                }
            }
        }
        // Bodies run when called: they see every global the module ends up with.
        for body in bodies {
            walker.body(body);
        }
        loading.pop();
        let exports = walker.globals.order.clone();
        let literals = programs
            .iter()
            .flat_map(crate::literal::outermost)
            .collect();
        let m = &mut self.modules[index];
        m.literals = literals;
        m.defs = walker.defs;
        m.refs = walker.refs;
        m.imports = imports;
        m.problems.extend(walker.problems);
        // In the order of the text (bodies are walked last), as a reader meets them.
        m.problems.sort_by_key(|p| match p {
            Problem::Error { via: Some(s), .. } => s.start,
            Problem::Error { error, .. } => error
                .loc
                .as_ref()
                .filter(|l| l.file == file)
                .map_or(0, |l| l.span.start),
            Problem::Warning(w) => w.loc.span.start,
        });
        m.exports = exports;
        index
    }

    /// Finds and analyses the module `import "path"` names (in the file `file`, in the folder
    /// `base`). A failure is the interpreter's error, with the span of the import when it lies
    /// in another file.
    fn import(
        &mut self,
        path: &str,
        span: &Span,
        file: FileId,
        base: &Path,
        overlay: Overlay<'_>,
        loading: &mut Vec<String>,
    ) -> Result<usize, (Error, Option<Span>)> {
        let at = |e: Error| {
            let via = e
                .loc
                .as_ref()
                .filter(|l| l.file != file)
                .map(|_| span.clone());
            (e.or_at(file, span.clone()), via)
        };
        let found = modules::locate(path, base, &mut self.files).map_err(at)?;
        let cycle = || {
            at(Error::new(EvalError::ImportCycle {
                path: path.to_string(),
            }))
        };
        if loading.len() > 1 && loading.first() == Some(&found.key) {
            self.cycle_to_root = true;
            return Ok(0);
        }
        if loading.contains(&found.key) {
            return Err(cycle());
        }
        if let Some(m) = self.find(&found.key) {
            return Ok(m);
        }
        // Each module read inside the one importing it: the interpreter's stack guard stops a
        // chain of files longer than the stack holds.
        if crate::stack::exhausted() {
            return Err(at(Error::new(EvalError::TooDeep {
                what: crate::error::Nesting::Imports,
                limit: loading.len(),
            })));
        }
        let src = overlay(&found.key).unwrap_or(found.src);
        let m = self.module(found.key, found.name, src, overlay, loading);
        if loading.len() == 1 && std::mem::take(&mut self.cycle_to_root) {
            return Err(cycle());
        }
        // A module that does not parse, or whose own imports fail, fails its import, as when
        // the program runs.
        let first = self.modules[m].problems.iter().find_map(|p| match p {
            Problem::Error { error, via } if via.is_some() || fails_import(error) => {
                Some(error.clone())
            }
            _ => None,
        });
        match first {
            Some(e) => Err((e, Some(span.clone()))),
            None => Ok(m),
        }
    }
}

/// Whether an error in a module makes importing it fail, whatever the program: a syntax error,
/// or an import of its own that fails.
fn fails_import(e: &Error) -> bool {
    e.kind::<ParseError>().is_some()
        || matches!(
            e.kind::<EvalError>(),
            Some(
                EvalError::ImportNotFound { .. }
                    | EvalError::ImportCycle { .. }
                    | EvalError::TooDeep {
                        what: crate::error::Nesting::Imports,
                        ..
                    }
                    | EvalError::ImportDirectory { .. }
                    | EvalError::Io { .. }
                    | EvalError::InvalidUtf8 { .. }
            )
        )
}

/// The span of the string literal in an `import` statement.
fn string_span(src: &str, stmt: &Span) -> Span {
    let text = src.get(stmt.clone()).unwrap_or("");
    match (text.find('"'), text.rfind('"')) {
        (Some(a), Some(b)) if b > a => stmt.start + a..stmt.start + b + 1,
        _ => stmt.clone(),
    }
}

/// The program's statements, parsed past syntax errors: the first error is reported as the
/// CLI reports it, and the statements around it still parse. A failed statement is blanked
/// (its bytes become spaces, so every offset stays where it was) and the text parsed again.
/// The names a blanked statement would have defined are returned too: using them is not
/// reported as unknown.
fn parse_recovering(src: &str) -> Recovered {
    let mut text = src.to_string();
    let mut out = Recovered {
        programs: Vec::new(),
        errors: Vec::new(),
        lost: Vec::new(),
    };
    // Each round blanks at least one more line; a few rounds cover what a user types.
    for _ in 0..32 {
        match loony_syntax::parse_program(&text) {
            Ok(p) => {
                out.programs.push(p);
                return out;
            }
            Err(e) => {
                let (start, end) = failed_lines(&text, &e);
                if out.errors.is_empty() {
                    out.errors.push(e);
                }
                if start >= end {
                    break;
                }
                out.lost.extend(defined_in(&text[start..end]));
                text = blank(&text, start..end);
            }
        }
    }
    out
}

struct Recovered {
    programs: Vec<Program>,
    errors: Vec<ParseError>,
    lost: Vec<String>,
}

/// The names after `let`, `fn` and `ruleset` in some text (of statements that do not parse).
fn defined_in(text: &str) -> Vec<String> {
    use logos::Logos;
    use loony_syntax::lexer::Tok;
    let mut out = Vec::new();
    let mut after_def = false;
    for tok in Tok::lexer(text) {
        if after_def && let Ok(Tok::Ident(name)) = &tok {
            out.push(name.to_string());
        }
        after_def = matches!(tok, Ok(Tok::Let | Tok::Fn | Tok::Ruleset));
    }
    out
}

/// The lines to blank for a syntax error: from the line where it is (or its open bracket) to
/// the next line that starts a statement at the left margin.
fn failed_lines(text: &str, e: &ParseError) -> (usize, usize) {
    let at = match e {
        ParseError::UnexpectedChar { span, .. }
        | ParseError::IntTooLarge { span }
        | ParseError::UnterminatedString { span }
        | ParseError::BadEscape { span, .. }
        | ParseError::UnexpectedToken { span, .. }
        | ParseError::DecimalNumber { span, .. } => span.start,
        ParseError::Unclosed { open, .. } => open.start,
        ParseError::MissingBar { form, .. } => form.start,
        ParseError::UnexpectedEof { at, .. } => *at,
    };
    let at = at.min(text.len());
    let bytes = text.as_bytes();
    // Back to a line that is not blank (an error at the end points past the last line).
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    while start > 0
        && text[start..]
            .trim_start_matches([' ', '\t', '\r'])
            .starts_with('\n')
    {
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    if text[start..].trim().is_empty() {
        return (start, start);
    }
    // Forward to a line that starts at the margin with something other than a bracket closing.
    let mut end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    while end < text.len() {
        let c = bytes[end];
        let starts = !matches!(
            c,
            b' ' | b'\t' | b'\r' | b'\n' | b'}' | b')' | b']' | b'>' | b'#'
        ) && !text[end..].starts_with("else")
            && !text[end..].starts_with("then");
        if starts {
            break;
        }
        end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    }
    (start, end)
}

/// `text` with the bytes of `range` (but its line breaks) replaced by spaces.
fn blank(text: &str, range: Span) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..range.start]);
    for c in text[range.clone()].chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out.push_str(&text[range.end..]);
    out
}

/// A global as some point of a program sees it.
#[derive(Debug, Clone)]
pub struct Global {
    pub target: Target,
    /// How it is called (signature, parameters) when it is a `fn` or ruleset and every
    /// definition of its name so far takes as many parameters: only then is a call's arity
    /// known without running.
    pub call: Option<(Rc<str>, usize)>,
}

/// The globals visible at some point: each name's latest definition.
#[derive(Default)]
struct Globals {
    by_name: HashMap<Rc<str>, Global>,
    /// Each name once, where first defined, for an importer.
    order: Vec<(Rc<str>, Global)>,
    /// Where each name is in `order`.
    place: HashMap<Rc<str>, usize>,
}

impl Globals {
    fn insert(&mut self, name: Rc<str>, mut g: Global) {
        if let Some(old) = self.by_name.get(&name) {
            let same = matches!((&old.call, &g.call), (Some(a), Some(b)) if a.1 == b.1);
            if !same {
                g.call = None;
            }
        }
        self.by_name.insert(name.clone(), g.clone());
        match self.place.get(&name) {
            Some(&i) => self.order[i].1 = g,
            None => {
                self.place.insert(name.clone(), self.order.len());
                self.order.push((name, g));
            }
        }
    }
}

/// The value of a literal written in place (an integer, a boolean, a string, `none`): its type
/// is known without running. Nothing else is valued.
fn literal(e: &Expr) -> Option<Value> {
    Some(match &e.kind {
        ExprKind::Int(n) => Value::Int(*n),
        ExprKind::Bool(b) => Value::Bool(*b),
        ExprKind::Str(s) => Value::Str(Rc::new(s.as_str().into())),
        ExprKind::NoneValue => Value::None,
        _ => return None,
    })
}

/// A body the walk leaves for the end of its module.
enum Body<'a> {
    Fn(&'a [Pattern], &'a Expr),
    Ruleset(&'a loony_syntax::ast::RulesetDef),
}

/// The walk's own stack of work (the syntax tree may be nested deeper than the native stack).
enum Work<'a> {
    Expr(&'a Expr),
    Bind(&'a Pattern, DefKind),
    /// A name, with the built-in whose record it is bound to (`let q = quotient(g) in …`).
    BindIdent(&'a Ident, DefKind, Option<&'static Builtin>),
    /// Forget the local names bound past this many.
    Truncate(usize),
    /// A ruleset's rules, once its parameters are bound: each rule's names are its own.
    Rules(&'a [loony_syntax::ast::Rule]),
}

struct Walker<'a> {
    module: usize,
    file: FileId,
    defs: Vec<Def>,
    refs: Vec<Ref>,
    problems: Vec<Problem>,
    /// Local names in scope, innermost last, each with its definition.
    scope: Vec<(Rc<str>, usize)>,
    globals: Globals,
    stack: Vec<Work<'a>>,
    /// Names defined by statements that do not parse: not known, not reported either.
    lost: Vec<String>,
}

impl<'a> Walker<'a> {
    fn add_def(&mut self, def: Def) -> usize {
        self.defs.push(def);
        self.defs.len() - 1
    }

    /// A fn or a ruleset: a global with its signature and arity.
    fn define_callable(
        &mut self,
        name: &Ident,
        params: &[Pattern],
        kind: DefKind,
        whole: &Span,
        shipped: bool,
    ) {
        let sig = crate::words::signature(&name.name, params);
        let sig = Some((sig, params.len()));
        self.define_global(name, kind, whole.clone(), sig, shipped);
    }

    /// Defines a global; returns its definition's index.
    fn define_global(
        &mut self,
        name: &Ident,
        kind: DefKind,
        whole: Span,
        signature: Option<(String, usize)>,
        shipped: bool,
    ) -> usize {
        // The interpreter warns when a definition hides a built-in (never in a shipped module).
        if !shipped && let Some(b) = catalog::find(&name.name) {
            self.problems.push(Problem::Warning(Warning {
                kind: WarningKind::ShadowsBuiltin {
                    name: name.name.to_string(),
                    signature: b.signature.to_string(),
                },
                loc: loony_core::diag::Loc {
                    file: self.file,
                    span: name.span.clone(),
                },
            }));
        }
        let (signature, arity) = match signature {
            Some((s, n)) => (Some(s), Some(n)),
            None => (None, None),
        };
        let def = self.add_def(Def {
            name: name.name.clone(),
            kind,
            span: name.span.clone(),
            whole,
            signature,
            arity,
            record_of: None,
        });
        self.refs.push(Ref {
            span: name.span.clone(),
            target: Target::Def(self.id(def)),
        });
        let call = self.defs[def]
            .signature
            .as_ref()
            .zip(self.defs[def].arity)
            .map(|(s, n)| (Rc::from(s.as_str()), n));
        let target = Target::Def(self.id(def));
        self.globals
            .insert(name.name.clone(), Global { target, call });
        def
    }

    /// The built-in `value` calls, here, when it is one that returns a record.
    fn record_call(&self, value: &Expr) -> Option<&'static Builtin> {
        let ExprKind::Call { callee, .. } = &value.kind else {
            return None;
        };
        let ExprKind::Var(name) = &callee.kind else {
            return None;
        };
        match self.lookup(name)?.target {
            Target::Builtin(b) if b.record.is_some() => Some(b),
            _ => None,
        }
    }

    fn id(&self, def: usize) -> DefId {
        DefId {
            module: self.module,
            def,
        }
    }

    fn bind(&mut self, name: &Ident, kind: DefKind, record_of: Option<&'static Builtin>) {
        let def = self.add_def(Def {
            name: name.name.clone(),
            kind,
            span: name.span.clone(),
            whole: name.span.clone(),
            signature: None,
            arity: None,
            record_of,
        });
        self.refs.push(Ref {
            span: name.span.clone(),
            target: Target::Def(self.id(def)),
        });
        self.scope.push((name.name.clone(), def));
    }

    /// What `name` means here: a local, a global, a built-in, or nothing.
    fn lookup(&self, name: &str) -> Option<Global> {
        if let Some((_, d)) = self.scope.iter().rev().find(|(n, _)| &**n == name) {
            let target = Target::Def(self.id(*d));
            return Some(Global { target, call: None });
        }
        if let Some(g) = self.globals.by_name.get(name) {
            return Some(g.clone());
        }
        catalog::find(name).map(|b| Global {
            target: Target::Builtin(b),
            call: None,
        })
    }

    fn unknown(&mut self, name: &str, span: &Span) {
        let locals = self.scope.iter().map(|(n, _)| &**n);
        let globals = self.globals.by_name.keys().map(|n| &**n);
        let builtins = catalog::BUILTINS.iter().map(|b| -> &str { b.name });
        let e = EvalError::unknown_name(name, locals.chain(globals).chain(builtins));
        self.error(e, span);
    }

    fn body(&mut self, body: Body<'a>) {
        self.scope.clear();
        match body {
            Body::Fn(params, e) => {
                self.stack.push(Work::Expr(e));
                self.stack
                    .extend(params.iter().rev().map(|p| Work::Bind(p, DefKind::Param)));
            }
            Body::Ruleset(def) => {
                self.stack.push(Work::Rules(&def.rules));
                self.stack.extend(
                    def.params
                        .iter()
                        .rev()
                        .map(|p| Work::Bind(p, DefKind::Param)),
                );
            }
        }
        self.run();
        self.scope.clear();
    }

    /// Pushes a sequence of clauses: each `for` binds for those after it.
    fn clauses(&mut self, clauses: &'a [Clause]) {
        for c in clauses.iter().rev() {
            match c {
                Clause::For { pat, iter } => {
                    if let Some(v) = literal(iter) {
                        self.error(
                            EvalError::cannot(Operation::Iterate, v.type_name()),
                            &iter.span,
                        );
                    }
                    self.stack.push(Work::Bind(pat, DefKind::Local));
                    self.stack.push(Work::Expr(iter));
                }
                Clause::If(e) => {
                    self.boolean(e);
                    self.stack.push(Work::Expr(e))
                }
            }
        }
    }

    fn walk(&mut self, e: &'a Expr) {
        self.scope.clear();
        self.stack.push(Work::Expr(e));
        self.run();
    }

    fn run(&mut self) {
        while let Some(w) = self.stack.pop() {
            match w {
                Work::Truncate(n) => self.scope.truncate(n),
                Work::BindIdent(id, kind, record_of) => self.bind(id, kind, record_of),
                Work::Bind(Pattern::Name(id), kind) => self.bind(id, kind, None),
                Work::Bind(Pattern::Tuple(ps, _), kind) => {
                    self.stack
                        .extend(ps.iter().rev().map(|p| Work::Bind(p, kind)));
                }
                Work::Expr(e) => self.expr(e),
                Work::Rules(rules) => {
                    let params = self.scope.len();
                    for rule in rules.iter().rev() {
                        self.stack.push(Work::Truncate(params));
                        self.stack.push(Work::Expr(&rule.option));
                        self.clauses(&rule.clauses);
                    }
                }
            }
        }
    }

    fn expr(&mut self, e: &'a Expr) {
        let mark = self.scope.len();
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::NoneValue
            | ExprKind::Terminal(_)
            | ExprKind::Nimber(None) => {}
            ExprKind::Var(name) => match self.lookup(name) {
                Some(g) => self.refs.push(Ref {
                    span: e.span.clone(),
                    target: g.target,
                }),
                None if self.lost.iter().any(|l| l == name) => {}
                None => self.unknown(name, &e.span),
            },
            ExprKind::Nimber(Some(x)) => {
                match literal(x) {
                    Some(Value::Int(n)) if !(0..=u32::MAX as i64 - 2).contains(&n) => {
                        self.error(crate::error::not_a_nimber(n), &e.span)
                    }
                    Some(Value::Int(_)) | None => {}
                    Some(v) => {
                        self.error(EvalError::cannot(Operation::Nimber, v.type_name()), &x.span)
                    }
                }
                self.stack.push(Work::Expr(x))
            }
            ExprKind::Not(x) => {
                self.boolean(x);
                self.stack.push(Work::Expr(x))
            }
            ExprKind::Neg(x) => self.stack.push(Work::Expr(x)),
            ExprKind::Form { left, right } => {
                self.stack.extend(right.iter().rev().map(Work::Expr));
                self.stack.extend(left.iter().rev().map(Work::Expr));
            }
            ExprKind::Labelled { name, left, right } => {
                self.stack.push(Work::Truncate(mark));
                self.stack.extend(right.iter().rev().map(Work::Expr));
                self.stack.extend(left.iter().rev().map(Work::Expr));
                self.stack.push(Work::BindIdent(name, DefKind::Label, None));
            }
            ExprKind::List(items) | ExprKind::Set(items) | ExprKind::Tuple(items) => {
                self.stack.extend(items.iter().rev().map(Work::Expr));
            }
            ExprKind::Comprehension { elem, clauses } => {
                self.stack.push(Work::Truncate(mark));
                self.stack.push(Work::Expr(elem));
                self.clauses(clauses);
            }
            ExprKind::Range { lo, hi, .. } => {
                self.stack.push(Work::Expr(hi));
                self.stack.push(Work::Expr(lo));
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.stack.push(Work::Expr(rhs));
                self.stack.push(Work::Expr(lhs));
            }
            ExprKind::Call { callee, args } => {
                if let Some(v) = literal(callee) {
                    self.error(
                        EvalError::cannot(Operation::Call, v.type_name()),
                        &callee.span,
                    );
                }
                self.check_arity(callee, args.len(), &e.span);
                self.stack.extend(args.iter().rev().map(Work::Expr));
                self.stack.push(Work::Expr(callee));
            }
            // A field's name is the record's business, known only when the program runs.
            ExprKind::Field { target, .. } => self.stack.push(Work::Expr(target)),
            ExprKind::Index { target, index } => {
                self.stack.push(Work::Expr(index));
                self.stack.push(Work::Expr(target));
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.boolean(cond);
                self.stack.push(Work::Expr(otherwise));
                self.stack.push(Work::Expr(then));
                self.stack.push(Work::Expr(cond));
            }
            ExprKind::Let { name, value, body } => {
                self.stack.push(Work::Truncate(mark));
                self.stack.push(Work::Expr(body));
                // The value sees the scope the name is bound in.
                let record_of = self.record_call(value);
                self.stack
                    .push(Work::BindIdent(name, DefKind::Local, record_of));
                self.stack.push(Work::Expr(value));
            }
        }
    }

    fn error(&mut self, e: EvalError, span: &Span) {
        self.problems.push(Problem::Error {
            error: Error::at(e, self.file, span.clone()),
            via: None,
        });
    }

    /// A condition written as a literal that is not a boolean (`if 3 then …`, `not "a"`).
    fn boolean(&mut self, cond: &Expr) {
        if let Some(v) = literal(cond)
            && !matches!(v, Value::Bool(_))
        {
            self.error(EvalError::expected("a boolean", v.type_name()), &cond.span);
        }
    }

    /// A call of a built-in, or of a `fn` or ruleset whose every definition takes the same
    /// number of parameters, with another number of arguments: the interpreter's E0102.
    fn check_arity(&mut self, callee: &Expr, given: usize, span: &Span) {
        let ExprKind::Var(name) = &callee.kind else {
            return;
        };
        let Some(g) = self.lookup(name) else {
            return;
        };
        let error = match (g.target, g.call) {
            (Target::Builtin(b), _) if !matches!(b.imp, Impl::Constant(_)) => {
                let (lo, hi) = b.arity;
                if (lo..=hi).contains(&given) {
                    return;
                }
                EvalError::arity(b.name, b.arity, given, Some(b.signature.to_string()))
            }
            (Target::Def(_), Some((sig, n))) if n != given => {
                EvalError::arity(name, (n, n), given, Some(sig.to_string()))
            }
            _ => return,
        };
        self.error(error, span);
    }
}
