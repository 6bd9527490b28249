//! The requests the server answers, each from a document's analysis (`loony_lang::resolve`):
//! hover, completion, go to definition, references, rename, document symbols and semantic
//! tokens.
//!
//! Hover on a name-free game literal (`*3`, `{0, *, *2 | 0, *, *2}`) shows its value, found
//! by the interpreter under a budget (`loony_lang::literal`); nothing else is ever evaluated
//! (see `mod.rs`).

use super::Links;
use super::position::{offset, range};
use super::shipped::Shipped;
use crate::repl::complete::{Completions, KEYWORDS, matching_fields};
use loony_lang::catalog::{self, Builtin, Impl};
use loony_lang::resolve::{DefId, DefKind, Target, Workspace};
use lsp_server::ErrorCode;
use lsp_types::*;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A request that cannot be answered: the JSON-RPC error to send.
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
}

impl Failure {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Failure {
            code,
            message: message.into(),
        }
    }
}

/// What a request is asked about: its document, its analysis, and those of the other open
/// documents.
pub struct Context<'a> {
    pub uri: &'a Uri,
    pub ws: &'a Workspace,
    pub all: &'a [(Uri, Rc<Workspace>)],
    pub shipped: &'a Shipped,
}

impl Context<'_> {
    fn links<'b>(&'b self, root: &'b Uri) -> Links<'b> {
        Links {
            root,
            shipped: self.shipped,
        }
    }

    fn text(&self) -> &str {
        self.ws.modules.first().map_or("", |m| self.ws.text(m.file))
    }

    fn offset(&self, pos: Position) -> usize {
        offset(self.text(), pos)
    }

    fn range(&self, span: &std::ops::Range<usize>) -> Range {
        range(self.text(), span)
    }
}

/// The parameters of a request about one document.
pub trait OnDocument {
    fn document(&self) -> &Uri;
}

macro_rules! on_document {
    ($($t:ty => |$p:ident| $e:expr),* $(,)?) => {
        $(impl OnDocument for $t {
            fn document(&self) -> &Uri {
                let $p = self;
                &$e.uri
            }
        })*
    };
}

on_document! {
    HoverParams => |p| p.text_document_position_params.text_document,
    CompletionParams => |p| p.text_document_position.text_document,
    GotoDefinitionParams => |p| p.text_document_position_params.text_document,
    ReferenceParams => |p| p.text_document_position.text_document,
    RenameParams => |p| p.text_document_position.text_document,
    TextDocumentPositionParams => |p| p.text_document,
    DocumentSymbolParams => |p| p.text_document,
    SemanticTokensParams => |p| p.text_document,
}

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "/".into()]),
            ..Default::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: vec![SemanticTokenModifier::DECLARATION],
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

/// The semantic token types, in the legend's order (a token's type is its index here).
const TOKEN_TYPES: [SemanticTokenType; 5] = [
    SemanticTokenType::FUNCTION,
    // A ruleset: a type of games.
    SemanticTokenType::TYPE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    // A built-in.
    SemanticTokenType::MACRO,
];

/// What each name is, as the resolver found it: the grammar colours words, these colour
/// meanings (a parameter, a ruleset, a built-in shadowed by a local…).
pub fn semantic_tokens(
    cx: &Context<'_>,
    _: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>, Failure> {
    let Some(root) = cx.ws.modules.first() else {
        return Ok(None);
    };
    let text = cx.text();
    let mut refs: Vec<&loony_lang::resolve::Ref> = root.refs.iter().collect();
    refs.sort_by_key(|r| r.span.start);
    let mut data = Vec::with_capacity(refs.len());
    let mut last = Position::new(0, 0);
    for r in refs {
        let (kind, declaration) = match r.target {
            Target::Builtin(_) => (4, false),
            Target::Def(id) => {
                let def = cx.ws.def(id);
                let kind = match def.kind {
                    DefKind::Fn => 0,
                    DefKind::Ruleset => 1,
                    DefKind::Param => 2,
                    DefKind::Let | DefKind::Local | DefKind::Label => 3,
                };
                (kind, id.module == 0 && def.span == r.span)
            }
        };
        let start = super::position::position(text, r.span.start);
        let length: usize = text[r.span.clone()].chars().map(char::len_utf16).sum();
        let delta_line = start.line - last.line;
        let delta_start = if delta_line == 0 {
            start.character - last.character
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: u32::try_from(length).unwrap_or(u32::MAX),
            token_type: kind,
            token_modifiers_bitset: u32::from(declaration),
        });
        last = start;
    }
    Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
        result_id: None,
        data,
    })))
}

fn markdown(value: String) -> HoverContents {
    HoverContents::Markup(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// A built-in's row of the table: signature, doc, and its example with what Loony prints.
fn builtin_text(b: &Builtin) -> String {
    let mut s = format!("```loony\n{}\n```\n\n{}", b.signature, b.doc);
    if !b.example.is_empty() {
        s.push_str(&format!("\n\n```loony\n> {}\n{}\n```", b.example, b.result));
    }
    s
}

/// A definition: how it is written, the comment lines right above a top-level one, and the
/// module it comes from when not this file.
fn def_text(ws: &Workspace, id: DefId) -> String {
    let def = ws.def(id);
    let module = &ws.modules[id.module];
    let head = match (def.kind, &def.signature) {
        (DefKind::Fn, Some(sig)) => format!("fn {sig}"),
        (DefKind::Ruleset, Some(sig)) => format!("ruleset {sig}"),
        (DefKind::Let, _) => format!("let {}", def.name),
        (DefKind::Param, _) => format!("{} (parameter)", def.name),
        (DefKind::Label, _) => format!("{} (the labelled form, in its options)", def.name),
        _ => format!("{} (local)", def.name),
    };
    let mut s = format!("```loony\n{head}\n```");
    if matches!(def.kind, DefKind::Let | DefKind::Fn | DefKind::Ruleset) {
        let text = ws.text(module.file);
        let before = &text[..def.whole.start.min(text.len())];
        let before = &before[..before.rfind('\n').map_or(0, |i| i + 1)];
        let mut comment: Vec<&str> = before
            .lines()
            .rev()
            .take_while(|l| l.trim_start().starts_with('#'))
            .map(|l| l.trim_start().trim_start_matches('#').trim())
            .collect();
        comment.reverse();
        if !comment.is_empty() {
            s.push_str("\n\n");
            s.push_str(&comment.join("\n"));
        }
    }
    if id.module != 0 {
        s.push_str(&format!("\n\nfrom `{}`", module.name));
    }
    s
}

pub fn hover(cx: &Context<'_>, p: HoverParams) -> Result<Option<Hover>, Failure> {
    let at = cx.offset(p.text_document_position_params.position);
    let Some(r) = cx.ws.at(at) else {
        return Ok(literal_hover(cx, at));
    };
    let value = match r.target {
        Target::Builtin(b) => builtin_text(b),
        Target::Def(id) => def_text(cx.ws, id),
    };
    Ok(Some(Hover {
        contents: markdown(value),
        range: Some(cx.range(&r.span)),
    }))
}

/// On a name-free game literal: its normal-play value, when the interpreter finds it within
/// the budget. The literal is the outermost name-free one around `at` (the resolver lists only
/// those): on `*2` in `{0, *, *2 | 0, *, *2} + x` it is `{0, *, *2 | 0, *, *2}`.
fn literal_hover(cx: &Context<'_>, at: usize) -> Option<Hover> {
    let span = cx
        .ws
        .modules
        .first()?
        .literals
        .iter()
        .find(|s| s.start <= at && at <= s.end)?;
    let value = loony_lang::literal::value(cx.text().get(span.clone())?)?;
    Some(Hover {
        contents: markdown(format!(
            "```loony\n{value}\n```\n\nthe value of this literal (normal play)"
        )),
        range: Some(cx.range(span)),
    })
}

/// The definition a name at `at` refers to.
fn target_at(cx: &Context<'_>, at: usize) -> Option<(DefId, std::ops::Range<usize>)> {
    let r = cx.ws.at(at)?;
    match r.target {
        Target::Def(id) => Some((id, r.span.clone())),
        Target::Builtin(_) => None,
    }
}

pub fn definition(
    cx: &Context<'_>,
    p: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>, Failure> {
    let at = cx.offset(p.text_document_position_params.position);
    let links = cx.links(cx.uri);
    // On an import's path: the module's first line.
    if let Some(m) = cx.ws.modules.first().and_then(|m| {
        m.imports
            .iter()
            .find(|i| i.path_span.start <= at && at <= i.path_span.end)
    }) {
        let found = m
            .module
            .and_then(|k| links.location(cx.ws, cx.ws.modules[k].file, &(0..0)));
        return Ok(found.map(GotoDefinitionResponse::Scalar));
    }
    let Some((id, _)) = target_at(cx, at) else {
        return Ok(None);
    };
    let def = cx.ws.def(id);
    let file = cx.ws.modules[id.module].file;
    Ok(links
        .location(cx.ws, file, &def.span)
        .map(GotoDefinitionResponse::Scalar))
}

/// What identifies a definition across analyses: its module's key and where its name is.
type Identity = (String, usize, usize);

fn identity(ws: &Workspace, id: DefId) -> Identity {
    let span = &ws.def(id).span;
    (ws.modules[id.module].key.clone(), span.start, span.end)
}

/// Every use and definition of `target` in the open documents and what they import, each once;
/// `true` with the places where it is defined.
fn occurrences(cx: &Context<'_>, target: &Identity) -> Vec<(Location, bool)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (uri, ws) in cx.all {
        let links = cx.links(uri);
        for (mi, m) in ws.modules.iter().enumerate() {
            for r in &m.refs {
                let Target::Def(id) = r.target else { continue };
                if identity(ws, id) != *target {
                    continue;
                }
                let Some(loc) = links.location(ws, m.file, &r.span) else {
                    continue;
                };
                let key = (loc.uri.as_str().to_string(), r.span.start);
                if seen.insert(key) {
                    let is_def = id.module == mi && ws.def(id).span == r.span;
                    out.push((loc, is_def));
                }
            }
        }
    }
    out
}

pub fn references(cx: &Context<'_>, p: ReferenceParams) -> Result<Option<Vec<Location>>, Failure> {
    let at = cx.offset(p.text_document_position.position);
    let Some((id, _)) = target_at(cx, at) else {
        return Ok(None);
    };
    let all = occurrences(cx, &identity(cx.ws, id));
    let keep = p.context.include_declaration;
    Ok(Some(
        all.into_iter()
            .filter(|(_, is_def)| keep || !is_def)
            .map(|(l, _)| l)
            .collect(),
    ))
}

/// The definition at `at` if the user may rename it: not a built-in, not a shipped module's.
fn renamable(cx: &Context<'_>, at: usize) -> Result<(DefId, std::ops::Range<usize>), Failure> {
    let refuse = |why: &str| Err(Failure::new(ErrorCode::InvalidRequest, why));
    match cx.ws.at(at).map(|r| r.target) {
        None => refuse("there is no name here to rename"),
        Some(Target::Builtin(b)) => refuse(&format!("`{}` is a built-in", b.name)),
        Some(Target::Def(id)) => {
            let m = &cx.ws.modules[id.module];
            let shipped =
                m.key.starts_with("std/") || cx.shipped.holds(std::path::Path::new(&m.key));
            if shipped {
                return refuse(&format!(
                    "`{}` is defined in the shipped module {}",
                    cx.ws.def(id).name,
                    m.name
                ));
            }
            let span = cx.ws.at(at).map(|r| r.span.clone()).unwrap_or_default();
            Ok((id, span))
        }
    }
}

pub fn prepare_rename(
    cx: &Context<'_>,
    p: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>, Failure> {
    let (_, span) = renamable(cx, cx.offset(p.position))?;
    Ok(Some(PrepareRenameResponse::Range(cx.range(&span))))
}

/// Whether `name` lexes as one plain name (not a keyword, not two tokens).
fn is_name(name: &str) -> bool {
    use logos::Logos;
    use loony_syntax::lexer::Tok;
    let mut lex = Tok::lexer(name);
    matches!(lex.next(), Some(Ok(Tok::Ident(s))) if s == name) && lex.next().is_none()
}

// `WorkspaceEdit::changes` is lsp-types' map by `Uri`, whose inner cell only caches parsing.
#[allow(clippy::mutable_key_type)]
pub fn rename(cx: &Context<'_>, p: RenameParams) -> Result<Option<WorkspaceEdit>, Failure> {
    if !is_name(&p.new_name) {
        return Err(Failure::new(
            ErrorCode::InvalidParams,
            format!("`{}` is not a name", p.new_name),
        ));
    }
    let (id, _) = renamable(cx, cx.offset(p.text_document_position.position))?;
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (loc, _) in occurrences(cx, &identity(cx.ws, id)) {
        changes.entry(loc.uri).or_default().push(TextEdit {
            range: loc.range,
            new_text: p.new_name.clone(),
        });
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }))
}

pub fn symbols(
    cx: &Context<'_>,
    _: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>, Failure> {
    let Some(root) = cx.ws.modules.first() else {
        return Ok(None);
    };
    let out = root
        .defs
        .iter()
        .filter_map(|d| {
            let kind = match d.kind {
                DefKind::Fn => SymbolKind::FUNCTION,
                DefKind::Ruleset => SymbolKind::CLASS,
                DefKind::Let => SymbolKind::VARIABLE,
                _ => return None,
            };
            #[allow(deprecated)]
            Some(DocumentSymbol {
                name: d.name.to_string(),
                detail: d.signature.clone(),
                kind,
                tags: None,
                deprecated: None,
                range: cx.range(&d.whole),
                selection_range: cx.range(&d.span),
                children: None,
            })
        })
        .collect();
    Ok(Some(DocumentSymbolResponse::Nested(out)))
}

pub fn completion(
    cx: &Context<'_>,
    p: CompletionParams,
) -> Result<Option<CompletionResponse>, Failure> {
    let text = cx.text();
    let at = cx.offset(p.text_document_position.position);
    if let Some((start, b)) = super::fields::before_dot(cx.ws, text, at) {
        return Ok(Some(CompletionResponse::Array(field_items(
            cx,
            b,
            start..at,
        ))));
    }
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    // What each name is, for the list's icons and details.
    let mut known: HashMap<String, (CompletionItemKind, Option<String>)> = HashMap::new();
    for b in catalog::BUILTINS {
        let kind = match b.imp {
            Impl::Constant(_) => CompletionItemKind::CONSTANT,
            _ => CompletionItemKind::FUNCTION,
        };
        known.insert(b.name.into(), (kind, Some(b.signature.into())));
    }
    for k in KEYWORDS {
        known.insert(k.to_string(), (CompletionItemKind::KEYWORD, None));
    }
    if let Some(root) = cx.ws.modules.first() {
        for (name, g) in &root.exports {
            let detail = g.call.as_ref().map(|(s, _)| s.to_string());
            let kind = match g.target {
                Target::Def(id) if cx.ws.def(id).kind == DefKind::Ruleset => {
                    CompletionItemKind::CLASS
                }
                Target::Def(id) if cx.ws.def(id).kind == DefKind::Fn => {
                    CompletionItemKind::FUNCTION
                }
                _ => CompletionItemKind::VARIABLE,
            };
            known.insert(name.to_string(), (kind, detail));
        }
        // The names bound inside the definition the cursor is in, before it.
        let around = root.defs.iter().find(|d| {
            matches!(d.kind, DefKind::Fn | DefKind::Ruleset | DefKind::Let)
                && d.whole.start <= at
                && at <= d.whole.end
        });
        if let Some(outer) = around {
            for d in &root.defs {
                let local = matches!(d.kind, DefKind::Param | DefKind::Local | DefKind::Label);
                if local && outer.whole.start <= d.span.start && d.span.end <= at {
                    known.insert(d.name.to_string(), (CompletionItemKind::VARIABLE, None));
                }
            }
        }
    }
    let mut names: Vec<String> = known.keys().cloned().collect();
    names.sort();
    let completions = Completions {
        names,
        fields: Vec::new(),
    };
    let folder = super::position::uri_path(cx.uri)
        .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
        .unwrap_or_default();
    let line = &text[line_start..line_end];
    // `:commands` are the REPL's; in a file, a line never starts one.
    if line.trim_start().starts_with(':') {
        return Ok(Some(CompletionResponse::Array(Vec::new())));
    }
    let (start, candidates) = completions.complete_in(line, at - line_start, &folder);
    let edit_range = cx.range(&(line_start + start..at));
    let items = candidates
        .into_iter()
        .map(|c| {
            let (kind, detail) = known.get(&c.replacement).cloned().unwrap_or((
                if c.replacement.ends_with('/') {
                    CompletionItemKind::FOLDER
                } else {
                    CompletionItemKind::MODULE
                },
                None,
            ));
            CompletionItem {
                label: c.display,
                kind: Some(kind),
                detail,
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range: edit_range,
                    new_text: c.replacement,
                })),
                ..Default::default()
            }
        })
        .collect();
    Ok(Some(CompletionResponse::Array(items)))
}

/// The fields and functions of the record `b` returns that match the word in `word`.
fn field_items(cx: &Context<'_>, b: &Builtin, word: std::ops::Range<usize>) -> Vec<CompletionItem> {
    let Some(shape) = b.record else {
        return Vec::new();
    };
    let typed = cx.text().get(word.clone()).unwrap_or("");
    let edit_range = cx.range(&word);
    let fields = matching_fields(shape.fields, typed)
        .into_iter()
        .map(|f| (f, CompletionItemKind::FIELD));
    let methods = matching_fields(shape.methods, typed)
        .into_iter()
        .map(|m| (m, CompletionItemKind::METHOD));
    fields
        .chain(methods)
        .map(|(name, kind)| CompletionItem {
            label: name.to_string(),
            kind: Some(kind),
            detail: Some(b.name.to_string()),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range: edit_range,
                new_text: name.to_string(),
            })),
            ..Default::default()
        })
        .collect()
}
