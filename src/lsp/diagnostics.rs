//! The resolver's problems as protocol diagnostics. Each goes through the one conversion the CLI
//! uses (`Error::to_diagnostic`, `Warning::to_diagnostic`), so code, message, primary span and
//! notes are the CLI's; spans become UTF-16 ranges, notes and secondary labels become related
//! information. A problem located in another file (a module that does not parse) is shown at
//! the `import` that loads it, with its own place as related information.

use super::Links;
use codespan_reporting::diagnostic::{Diagnostic, LabelStyle, Severity};
use loony_core::diag::FileId;
use loony_lang::resolve::{Problem, Workspace};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Uri,
};

/// The diagnostics of the workspace's first module, the document `uri`.
pub fn of(ws: &Workspace, uri: &Uri, links: &Links) -> Vec<lsp_types::Diagnostic> {
    let Some(root) = ws.modules.first() else {
        return Vec::new();
    };
    let text = ws.text(root.file);
    root.problems
        .iter()
        .map(|p| {
            let (d, via) = match p {
                Problem::Error { error, via } => (error.to_diagnostic(), via.clone()),
                Problem::Warning(w) => (w.to_diagnostic(), None),
            };
            convert(ws, root.file, text, uri, d, via, links)
        })
        .collect()
}

fn convert(
    ws: &Workspace,
    root: FileId,
    text: &str,
    uri: &Uri,
    d: Diagnostic<FileId>,
    via: Option<std::ops::Range<usize>>,
    links: &Links,
) -> lsp_types::Diagnostic {
    let here = |span: &std::ops::Range<usize>| super::position::range(text, span);
    let fallback = via.as_ref().map_or(Range::default(), here);
    let mut related = Vec::new();
    let mut range = fallback;
    for label in &d.labels {
        let location = if label.file_id == root {
            Some(Location::new(uri.clone(), here(&label.range)))
        } else {
            links.location(ws, label.file_id, &label.range)
        };
        match (label.style, label.file_id == root) {
            (LabelStyle::Primary, true) => range = here(&label.range),
            _ => related.extend(location.map(|location| DiagnosticRelatedInformation {
                location,
                message: label.message.clone(),
            })),
        }
    }
    let at = Location::new(uri.clone(), range);
    related.extend(d.notes.iter().map(|n| DiagnosticRelatedInformation {
        location: at.clone(),
        message: n.clone(),
    }));
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note | Severity::Help => DiagnosticSeverity::INFORMATION,
            _ => DiagnosticSeverity::ERROR,
        }),
        code: d.code.map(NumberOrString::String),
        source: Some("loony".into()),
        message: d.message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}
