//! `loony lsp`: a language server over stdio, on `lsp-server` and `lsp-types`.
//!
//! Its invariant: **the server never runs the program.** Everything it says comes from the
//! interpreter's parser and the static resolver (`loony_lang::resolve`), whose errors are the
//! interpreter's own and go through the CLI's one conversion to diagnostics; so a file whose
//! top level would compute for hours is answered as fast as any other. The one evaluation is
//! hover's on a name-free game literal (`{0, *, *2 | 0, *, *2}`): bounded by its text (at most
//! `literal::MAX_NODES` nodes) and by a budget of time, memory and positions.
//!
//! `transport` frames the messages, `position` turns byte offsets into UTF-16 positions and
//! paths into URIs, `shipped` writes the std modules where an editor can open them,
//! `diagnostics` converts the resolver's problems, `features` answers the requests and
//! `fields` finds the record before a dot being completed. This
//! file is the loop: documents are kept whole (full sync); a change is analysed once no other
//! change has come for [`DEBOUNCE`], and its diagnostics published.

mod diagnostics;
mod features;
mod fields;
mod position;
mod shipped;
mod transport;

use crossbeam_channel::RecvTimeoutError;
use loony_core::diag::{FileId, guard};
use loony_lang::resolve::{self, Workspace};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{Location, Uri};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long the server waits after a change for the next one before analysing.
const DEBOUNCE: Duration = Duration::from_millis(100);

/// Runs the server on a thread with the largest of `stacks` that can be had: parsing is
/// iterative, but a syntax tree nested a million deep is freed by recursion. It takes no
/// arguments but `--stdio`, which some clients pass to say the transport it always uses.
pub fn main(args: Vec<std::ffi::OsString>, stacks: &[usize]) -> ExitCode {
    if let Some(a) = args.iter().find(|a| *a != "--stdio") {
        eprintln!(
            "loony lsp takes no arguments (got {}); it speaks the Language Server Protocol on \
             stdin and stdout",
            a.to_string_lossy()
        );
        return ExitCode::from(2);
    }
    for &size in stacks {
        let worker = std::thread::Builder::new()
            .name("loony-lsp".into())
            .stack_size(size)
            .spawn(serve);
        if let Ok(h) = worker {
            return h.join().unwrap_or(ExitCode::FAILURE);
        }
    }
    eprintln!("loony lsp: the server thread could not start");
    ExitCode::FAILURE
}

/// The server's life: initialize, the loop, and the exit code the protocol asks for (0 after
/// `shutdown`, 1 when the client leaves without it).
fn serve() -> ExitCode {
    let (conn, threads) = match transport::stdio() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("loony lsp: cannot start the transport: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = match initialize(&conn) {
        Ok(()) => {
            let mut server = Server {
                docs: HashMap::new(),
                shipped: shipped::Shipped::write(),
                closed: Vec::new(),
            };
            server.run(&conn)
        }
        Err(code) => code,
    };
    drop(conn);
    threads.finish();
    code
}

/// Waits for `initialize` and answers it with the capabilities. Until then requests get the
/// protocol's "not initialized" error and notifications are dropped (`exit` ends the server).
/// The `initialized` notification that follows needs no answer; the loop ignores it.
fn initialize(conn: &Connection) -> Result<(), ExitCode> {
    for msg in &conn.receiver {
        match msg {
            Message::Request(r) if r.method == req::Initialize::METHOD => {
                let result = lsp_types::InitializeResult {
                    capabilities: features::capabilities(),
                    server_info: Some(lsp_types::ServerInfo {
                        name: "loony".into(),
                        version: Some(env!("CARGO_PKG_VERSION").into()),
                    }),
                };
                let resp = Response::new_ok(r.id, result);
                return conn.sender.send(resp.into()).map_err(|_| ExitCode::FAILURE);
            }
            Message::Request(r) => {
                let resp = Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized yet".into(),
                );
                conn.sender
                    .send(resp.into())
                    .map_err(|_| ExitCode::FAILURE)?;
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => {
                return Err(ExitCode::FAILURE);
            }
            _ => {}
        }
    }
    Err(ExitCode::FAILURE)
}

/// An open document.
struct Doc {
    uri: Uri,
    text: String,
    version: i32,
    /// When it changed without being analysed since.
    changed: Option<Instant>,
    analysis: Option<Rc<Workspace>>,
}

struct Server {
    /// By URI.
    docs: HashMap<String, Doc>,
    shipped: shipped::Shipped,
    /// Documents closed since the last diagnostics went out: theirs are cleared.
    closed: Vec<Uri>,
}

/// Where the files of one analysis are, for the client.
pub(crate) struct Links<'a> {
    root: &'a Uri,
    shipped: &'a shipped::Shipped,
}

impl Links<'_> {
    fn uri(&self, ws: &Workspace, file: FileId) -> Option<Uri> {
        if file == ws.modules.first()?.file {
            return Some(self.root.clone());
        }
        let name = ws.files.get(file).ok()?.name();
        if let Some(uri) = self.shipped.uri(name) {
            return Some(uri);
        }
        let path = Path::new(name);
        path.is_absolute()
            .then(|| position::file_uri(path))
            .flatten()
    }

    fn location(
        &self,
        ws: &Workspace,
        file: FileId,
        span: &std::ops::Range<usize>,
    ) -> Option<Location> {
        let uri = self.uri(ws, file)?;
        Some(Location::new(uri, position::range(ws.text(file), span)))
    }
}

impl Server {
    fn run(&mut self, conn: &Connection) -> ExitCode {
        loop {
            let wait = self
                .docs
                .values()
                .filter_map(|d| d.changed)
                .map(|t| (t + DEBOUNCE).saturating_duration_since(Instant::now()))
                .min();
            let msg = match wait {
                Some(w) => conn.receiver.recv_timeout(w),
                None => conn
                    .receiver
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match msg {
                Ok(Message::Request(r)) => {
                    if r.method == req::Shutdown::METHOD {
                        let _ = conn.sender.send(Response::new_ok(r.id, ()).into());
                        return wait_for_exit(conn);
                    }
                    let resp = self.request(r);
                    if conn.sender.send(resp.into()).is_err() {
                        return ExitCode::FAILURE;
                    }
                }
                Ok(Message::Notification(n)) => {
                    if n.method == note::Exit::METHOD {
                        return ExitCode::FAILURE;
                    }
                    self.notification(n);
                }
                Ok(Message::Response(_)) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return ExitCode::FAILURE,
            }
            if self.publish_due(conn).is_err() {
                return ExitCode::FAILURE;
            }
        }
    }

    /// Analyses the documents whose last change is [`DEBOUNCE`] old, and sends their diagnostics.
    fn publish_due(&mut self, conn: &Connection) -> Result<(), ()> {
        for uri in std::mem::take(&mut self.closed) {
            let params = lsp_types::PublishDiagnosticsParams {
                uri,
                diagnostics: Vec::new(),
                version: None,
            };
            let n = Notification::new(note::PublishDiagnostics::METHOD.into(), params);
            conn.sender.send(n.into()).map_err(|_| ())?;
        }
        let due: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.changed.is_some_and(|t| t.elapsed() >= DEBOUNCE))
            .map(|(k, _)| k.clone())
            .collect();
        for key in due {
            let ws = self.analysis(&key);
            let Some(doc) = self.docs.get(&key) else {
                continue;
            };
            let links = Links {
                root: &doc.uri,
                shipped: &self.shipped,
            };
            let params = lsp_types::PublishDiagnosticsParams {
                uri: doc.uri.clone(),
                diagnostics: ws.map_or_else(Vec::new, |ws| diagnostics::of(&ws, &doc.uri, &links)),
                version: Some(doc.version),
            };
            let n = Notification::new(note::PublishDiagnostics::METHOD.into(), params);
            conn.sender.send(n.into()).map_err(|_| ())?;
        }
        Ok(())
    }

    /// The document's analysis, made now if its text changed since the last.
    fn analysis(&mut self, key: &str) -> Option<Rc<Workspace>> {
        let doc = self.docs.get(key)?;
        if doc.changed.is_none()
            && let Some(ws) = &doc.analysis
        {
            return Some(ws.clone());
        }
        // Imports see the open documents' text rather than what is saved.
        let open: HashMap<String, String> = self
            .docs
            .values()
            .filter_map(|d| {
                let p = position::uri_path(&d.uri)?.canonicalize().ok()?;
                Some((p.display().to_string(), d.text.clone()))
            })
            .collect();
        let name = file_name(&doc.uri);
        let ws = Rc::new(resolve::analyze(&name, &doc.text, &|k| {
            open.get(k).cloned()
        }));
        let doc = self.docs.get_mut(key)?;
        doc.analysis = Some(ws.clone());
        doc.changed = None;
        Some(ws)
    }

    /// A document changed: every open one is analysed again (one may import another, and
    /// references and rename must not read a stale analysis).
    fn all_changed(&mut self) {
        let now = Instant::now();
        for d in self.docs.values_mut() {
            d.changed = Some(now);
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let d = p.text_document;
                    self.all_changed();
                    self.docs.insert(
                        d.uri.as_str().to_string(),
                        Doc {
                            uri: d.uri,
                            text: d.text,
                            version: d.version,
                            // Analysed at once: nothing is being typed yet.
                            changed: Some(Instant::now() - DEBOUNCE),
                            analysis: None,
                        },
                    );
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str())
                {
                    // Full sync: the last change holds the whole text.
                    if let Some(c) = p.content_changes.into_iter().last() {
                        doc.text = c.text;
                        doc.version = p.text_document.version;
                        self.all_changed();
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.remove(p.text_document.uri.as_str())
                {
                    // Its diagnostics go with it; what imports it now reads the saved file.
                    self.closed.push(doc.uri);
                    self.all_changed();
                }
            }
            _ => {}
        }
    }

    fn request(&mut self, r: Request) -> Response {
        let id = r.id.clone();
        let result = match r.method.as_str() {
            req::HoverRequest::METHOD => self.answer(r, features::hover),
            req::Completion::METHOD => self.answer(r, features::completion),
            req::GotoDefinition::METHOD => self.answer(r, features::definition),
            req::References::METHOD => self.answer(r, features::references),
            req::Rename::METHOD => self.answer(r, features::rename),
            req::PrepareRenameRequest::METHOD => self.answer(r, features::prepare_rename),
            req::DocumentSymbolRequest::METHOD => self.answer(r, features::symbols),
            req::SemanticTokensFullRequest::METHOD => self.answer(r, features::semantic_tokens),
            _ => Err(features::Failure::new(
                ErrorCode::MethodNotFound,
                format!("loony lsp does not answer {}", r.method),
            )),
        };
        match result {
            Ok(v) => Response {
                id,
                response_result: Ok(v),
            },
            Err(f) => Response::new_err(id, f.code as i32, f.message),
        }
    }

    /// Reads a request's parameters, finds its document's analysis and answers.
    fn answer<P: serde::de::DeserializeOwned + features::OnDocument, R: serde::Serialize>(
        &mut self,
        r: Request,
        f: fn(&features::Context<'_>, P) -> Result<R, features::Failure>,
    ) -> Result<serde_json::Value, features::Failure> {
        let params: P = serde_json::from_value(r.params)
            .map_err(|e| features::Failure::new(ErrorCode::InvalidParams, e.to_string()))?;
        let key = params.document().as_str().to_string();
        // The other open documents' analyses, for references and rename across files.
        let keys: Vec<String> = self.docs.keys().cloned().collect();
        let mut all = Vec::new();
        for k in &keys {
            if let (Some(ws), Some(doc)) = (self.analysis(k), self.docs.get(k)) {
                all.push((doc.uri.clone(), ws));
            }
        }
        let Some((uri, ws)) = all.iter().find(|(u, _)| u.as_str() == key).cloned() else {
            return Err(features::Failure::new(
                ErrorCode::InvalidParams,
                format!("{key} is not open"),
            ));
        };
        let cx = features::Context {
            uri: &uri,
            ws: &ws,
            all: &all,
            shipped: &self.shipped,
        };
        // A panic answering is a bug: the request fails, the server goes on.
        let mut out = None;
        if let Err(e) = guard::catch(|| {
            out = Some(f(&cx, params));
            Ok(())
        }) {
            return Err(features::Failure::new(
                ErrorCode::InternalError,
                e.message(),
            ));
        }
        let out =
            out.ok_or_else(|| features::Failure::new(ErrorCode::InternalError, "no answer"))??;
        serde_json::to_value(out)
            .map_err(|e| features::Failure::new(ErrorCode::InternalError, e.to_string()))
    }
}

/// After `shutdown`: only `exit` is awaited (requests get an error, as the protocol says).
fn wait_for_exit(conn: &Connection) -> ExitCode {
    for msg in &conn.receiver {
        match msg {
            Message::Notification(n) if n.method == note::Exit::METHOD => return ExitCode::SUCCESS,
            Message::Request(r) => {
                let resp = Response::new_err(
                    r.id,
                    ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".into(),
                );
                let _ = conn.sender.send(resp.into());
            }
            _ => {}
        }
    }
    // The client left without `exit`.
    ExitCode::FAILURE
}

/// The file name the interpreter would give the document: its path for a `file:` URI (imports
/// are found next to it), else the URI itself.
fn file_name(uri: &Uri) -> String {
    position::uri_path(uri)
        .map(PathBuf::into_os_string)
        .and_then(|p| p.into_string().ok())
        .unwrap_or_else(|| uri.as_str().to_string())
}
