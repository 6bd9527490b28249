//! `loony lsp` end to end over stdio, and the static resolver under it (`eval::resolve`).
//!
//! The server is spawned as the built binary and spoken to in `lsp-types` messages. Its answers
//! are checked against something else: the CLI's `--json` diagnostics for the same file (ranges
//! converted here from the CLI's byte offsets), the built-in table, the shipped modules' text,
//! the words of the files themselves, and the CLI's output after a rename. The resolver is
//! checked against the interpreter running the same source.

use loony::eval::resolve::{self, Problem};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request as req;
use lsp_types::*;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long any one answer may take before the test gives up (generous: a busy CI machine).
const PATIENCE: Duration = Duration::from_secs(30);

/// A folder of its own for each test, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("loony-lsp-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("make the test folder");
        // Canonical, as the server finds imported files.
        Dir(d.canonicalize().expect("canonical folder"))
    }

    fn write(&self, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("write a test file");
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn uri(path: &Path) -> Uri {
    // The test folders' paths are plain (no characters a URI would escape).
    format!("file://{}", path.display())
        .parse()
        .expect("a file URI")
}

/// A client: the spawned server, and its messages read on a thread of their own.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: mpsc::Receiver<Value>,
    next_id: i32,
    /// Diagnostics notifications not yet looked at.
    published: Vec<PublishDiagnosticsParams>,
}

impl Client {
    fn start(dir: &Dir) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
            .arg("lsp")
            .current_dir(&dir.0)
            // The shipped modules are written under the test's folder.
            .env("XDG_CACHE_HOME", dir.0.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn loony lsp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_message(&mut r) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut c = Client {
            child,
            stdin,
            messages: rx,
            next_id: 0,
            published: Vec::new(),
        };
        let init: InitializeResult = c.request::<req::Initialize>(InitializeParams::default());
        assert!(init.capabilities.hover_provider.is_some());
        c.notify::<note::Initialized>(InitializedParams {});
        c
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend(body.as_bytes());
        self.send_raw(&frame);
    }

    fn notify<N: lsp_types::notification::Notification>(&mut self, params: N::Params) {
        self.send(json!({"jsonrpc": "2.0", "method": N::METHOD, "params": params}));
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .expect("the server answered in time")
    }

    /// The answer to request `id`, keeping diagnostics that come before it.
    fn response(&mut self, id: Value) -> Value {
        loop {
            let m = self.next();
            if m.get("id") == Some(&id) && m.get("method").is_none() {
                return m;
            }
            self.keep(m);
        }
    }

    fn keep(&mut self, m: Value) {
        if m["method"] == note::PublishDiagnostics::METHOD {
            self.published
                .push(serde_json::from_value(m["params"].clone()).expect("diagnostics"));
        }
    }

    fn request_raw<R: lsp_types::request::Request>(&mut self, params: R::Params) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": R::METHOD, "params": params}));
        self.response(json!(id))
    }

    fn request<R: lsp_types::request::Request>(&mut self, params: R::Params) -> R::Result {
        let m = self.request_raw::<R>(params);
        assert!(m.get("error").is_none(), "{} failed: {m}", R::METHOD);
        serde_json::from_value(m["result"].clone()).expect("a result of the right shape")
    }

    fn open(&mut self, path: &Path, text: &str) {
        self.notify::<note::DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem::new(uri(path), "loony".into(), 1, text.into()),
        });
    }

    fn change(&mut self, path: &Path, version: i32, text: &str) {
        self.notify::<note::DidChangeTextDocument>(DidChangeTextDocumentParams {
            text_document: VersionedTextDocumentIdentifier::new(uri(path), version),
            content_changes: vec![TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: text.into(),
            }],
        });
    }

    /// The diagnostics published for `path` at `version`.
    fn diagnostics(&mut self, path: &Path, version: i32) -> Vec<Diagnostic> {
        let want = uri(path);
        loop {
            if let Some(i) = self
                .published
                .iter()
                .position(|p| p.uri == want && p.version == Some(version))
            {
                return self.published.remove(i).diagnostics;
            }
            let m = self.next();
            self.keep(m);
        }
    }

    fn at(path: &Path, line: u32, character: u32) -> TextDocumentPositionParams {
        TextDocumentPositionParams::new(
            TextDocumentIdentifier::new(uri(path)),
            Position::new(line, character),
        )
    }

    /// Shuts the server down as the protocol asks: it must exit with 0.
    fn shutdown(mut self) {
        self.request_raw::<req::Shutdown>(());
        self.notify::<note::Exit>(());
        self.stdin = None;
        let status = wait(&mut self.child);
        assert!(status.success(), "exit after shutdown: {status:?}");
    }
}

/// Waits for the child, killing it past [`PATIENCE`].
/// The markdown of a hover at a place of a file.
fn hover_markdown(c: &mut Client, file: &Path, line: u32, character: u32) -> String {
    let h = c
        .request::<req::HoverRequest>(HoverParams {
            text_document_position_params: Client::at(file, line, character),
            work_done_progress_params: Default::default(),
        })
        .expect("a hover");
    let HoverContents::Markup(m) = h.contents else {
        panic!("markdown hover")
    };
    m.value
}

/// How the server ended, once it has; its stderr must not hold a panic's message.
fn exit_without_panic(child: &mut Child) -> std::process::ExitStatus {
    let status = wait(child);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut err)
        .expect("stderr reads");
    assert!(!err.contains("panicked"), "{err}");
    status
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("the server did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// What `loony --json FILE` reports: its diagnostics (one JSON object a line on stderr).
fn cli_diagnostics(dir: &Dir, file: &Path) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .arg("--json")
        .arg(file)
        .current_dir(&dir.0)
        .output()
        .expect("run loony");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("a JSON diagnostic"))
        .collect()
}

/// The zero-based line and UTF-16 column of a byte offset, computed here on its own.
fn utf16_position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].encode_utf16().count();
    Position::new(line as u32, column as u32)
}

/// The range of a CLI diagnostic's span.
fn cli_range(text: &str, d: &Value) -> Range {
    let (start, end) = (d["span"]["start"].as_u64(), d["span"]["end"].as_u64());
    let (start, end) = (start.expect("start") as usize, end.expect("end") as usize);
    Range::new(utf16_position(text, start), utf16_position(text, end))
}

fn code(d: &Diagnostic) -> String {
    match &d.code {
        Some(NumberOrString::String(s)) => s.clone(),
        other => panic!("a diagnostic without a code: {other:?}"),
    }
}

/// The text a range covers.
fn text_at(text: &str, r: &Range) -> String {
    let offset = |p: Position| {
        let line_start: usize = text
            .split_inclusive('\n')
            .take(p.line as usize)
            .map(str::len)
            .sum();
        let line = &text[line_start..];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= p.character as usize {
                return line_start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    text[offset(r.start)..offset(r.end)].to_string()
}

#[test]
fn diagnostics_are_the_clis_and_clear_when_fixed() {
    let dir = Dir::new("diagnostics");
    // An unknown name after wide characters (an astral one: two UTF-16 units), then a syntax
    // error. The CLI stops at the syntax error; before it, it reports the unknown name.
    let head = "let a = 1\n[\"☾∞𝔾\", a, nope]\n";
    let text = format!("{head}let c = = 3\n\"after\"\n");
    let file = dir.write("broken.cgt", &text);
    let prefix = dir.write("prefix.cgt", head);
    let mut expected: Vec<(String, Range)> = Vec::new();
    for (f, t) in [(&file, text.as_str()), (&prefix, head)] {
        let cli = cli_diagnostics(&dir, f);
        assert_eq!(cli.len(), 1, "the CLI gives one error for {t:?}: {cli:?}");
        expected.push((
            cli[0]["code"].as_str().unwrap().into(),
            cli_range(t, &cli[0]),
        ));
    }
    assert_eq!(expected[0].0, "E0004");
    assert_eq!(expected[1].0, "E0101");

    let mut c = Client::start(&dir);
    c.open(&file, &text);
    let got = c.diagnostics(&file, 1);
    let mut got: Vec<(String, Range)> = got.iter().map(|d| (code(d), d.range)).collect();
    got.sort_by_key(|(_, r)| (r.start.line, r.start.character));
    expected.sort_by_key(|(_, r)| (r.start.line, r.start.character));
    assert_eq!(got, expected);

    let fixed = "let a = 1\n[\"☾∞𝔾\", a, a]\nlet c = 3\n\"after\"\n";
    let fixed_file = dir.write("fixed.cgt", fixed);
    assert!(cli_diagnostics(&dir, &fixed_file).is_empty());
    c.change(&file, 2, fixed);
    assert!(c.diagnostics(&file, 2).is_empty());
    c.shutdown();
}

#[test]
fn hover_completion_symbols() {
    let dir = Dir::new("hover");
    let text = "# Moves of one or two.\nruleset two(n) {\n  for k in [1, 2] if k <= n => two(n - k)\n}\nfn twice(x) = x + x\nlet s = nim_sequence(two, 10)\nimport \"std/\n";
    let file = dir.write("h.cgt", text);
    let mut c = Client::start(&dir);
    c.open(&file, text);

    // A built-in: its row of the table.
    let row = loony::eval::catalog::find("nim_sequence").expect("nim_sequence is a built-in");
    let m = hover_markdown(&mut c, &file, 5, 10);
    assert!(m.contains(row.doc), "{}", m);
    assert!(m.contains(row.signature));
    // A user ruleset: its signature and the comment above it.
    let m = hover_markdown(&mut c, &file, 5, 23);
    assert!(m.contains("ruleset two(n)"), "{}", m);
    assert!(m.contains("Moves of one or two."), "{}", m);

    // Module paths inside `import "std/`: the shipped modules.
    let items = c.request::<req::Completion>(CompletionParams {
        text_document_position: Client::at(&file, 6, 12),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    });
    let Some(CompletionResponse::Array(items)) = items else {
        panic!("completion items")
    };
    let mut got: Vec<String> = items.iter().map(|i| i.label.clone()).collect();
    got.sort();
    let mut shipped: Vec<String> = loony::eval::modules::STD
        .iter()
        .map(|(n, _)| n.strip_prefix("std/").expect("std/").to_string())
        .collect();
    shipped.sort();
    assert_eq!(got, shipped);

    // Names: the file's definitions and the built-ins, by prefix.
    let items = c.request::<req::Completion>(CompletionParams {
        text_document_position: Client::at(&file, 5, 10),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    });
    let Some(CompletionResponse::Array(items)) = items else {
        panic!("completion items")
    };
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert!(labels.contains(&"nim_sequence"), "{labels:?}");

    // Symbols: the file's `ruleset`, `fn` and `let` statements, found here by their lines.
    let syms = c.request::<req::DocumentSymbolRequest>(DocumentSymbolParams {
        text_document: TextDocumentIdentifier::new(uri(&file)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(DocumentSymbolResponse::Nested(syms)) = syms else {
        panic!("nested symbols")
    };
    let got: Vec<(String, u32)> = syms
        .iter()
        .map(|s| (s.name.clone(), s.selection_range.start.line))
        .collect();
    let expected: Vec<(String, u32)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let rest = ["ruleset ", "fn ", "let "]
                .iter()
                .find_map(|k| l.strip_prefix(k))?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            Some((name, i as u32))
        })
        .collect();
    assert_eq!(got, expected);

    // Semantic tokens: what each name is (the legend's index), found by the words' places.
    let tokens = c.request::<req::SemanticTokensFullRequest>(SemanticTokensParams {
        text_document: TextDocumentIdentifier::new(uri(&file)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(SemanticTokensResult::Tokens(tokens)) = tokens else {
        panic!("semantic tokens")
    };
    let (mut line, mut col) = (0, 0);
    let mut decoded = Vec::new();
    for t in &tokens.data {
        if t.delta_line > 0 {
            col = 0;
        }
        line += t.delta_line;
        col += t.delta_start;
        decoded.push((
            Position::new(line, col),
            t.length,
            t.token_type,
            t.token_modifiers_bitset,
        ));
    }
    let lines: Vec<&str> = text.lines().collect();
    // (line, word, legend index: 0 fn, 1 ruleset, 2 parameter, 3 variable, 4 built-in, declared)
    let expect = [
        (1, "two", 1, 1),
        (1, "n", 2, 1),
        (2, "k", 3, 1),
        (2, "n", 2, 0),
        (4, "twice", 0, 1),
        (5, "s", 3, 1),
        (5, "nim_sequence", 4, 0),
        (5, "two", 1, 0),
    ];
    for (l, word, kind, declared) in expect {
        let at = occurrences(lines[l], word)[0].start;
        let token = decoded
            .iter()
            .find(|(p, ..)| p.line == l as u32 && p.character == at.character)
            .unwrap_or_else(|| panic!("no token for {word} on line {l}: {decoded:?}"));
        assert_eq!(
            (token.1, token.2, token.3),
            (word.len() as u32, kind, declared),
            "{word} on line {l}"
        );
    }
    c.shutdown();
}

/// Hover on a name-free game literal shows its value (on the outermost such literal around the
/// cursor); completion after a record's dot offers its fields, whether the record is a `let`
/// bound to a built-in's call or the call itself.
#[test]
fn literal_values_on_hover_and_record_fields_on_completion() {
    let dir = Dir::new("literal");
    let text = "fn f(x) = {0, *, *2 | 0, *, *2} + x\n{*, *2 | *, *2}\n*5\n{1 | }\n\
                let q = quotient(heap(\"0.75\"))\nlet p = periodicity(heap(\"0.07\"))\n\
                let n = nim_sequence(heap(\"0.07\"), 5)\n\
                q.\np.per\nn.\nquotient(heap(\"0.75\")).ph\n";
    let file = dir.write("l.cgt", text);
    let lines: Vec<&str> = text.lines().collect();
    let mut c = Client::start(&dir);
    c.open(&file, text);
    let col = |l: usize, word: &str| lines[l].find(word).expect("the word") as u32;

    // (line, where the cursor is, the value shown, the literal it is of)
    let cases = [
        (0, "*2", "*3", "{0, *, *2 | 0, *, *2}"),
        (0, "0,", "*3", "{0, *, *2 | 0, *, *2}"),
        (1, "*2", "0", "{*, *2 | *, *2}"),
        (2, "*5", "*5", "*5"),
    ];
    for (l, at, value, literal) in cases {
        let h = c
            .request::<req::HoverRequest>(HoverParams {
                text_document_position_params: Client::at(&file, l as u32, col(l, at)),
                work_done_progress_params: Default::default(),
            })
            .unwrap_or_else(|| panic!("no hover on {at} of line {l}"));
        let HoverContents::Markup(m) = h.contents else {
            panic!("markdown hover")
        };
        assert!(
            m.value.starts_with(&format!("```loony\n{value}\n```")),
            "{}",
            m.value
        );
        let range = h.range.expect("the literal's range");
        assert_eq!(text_at(text, &range), literal);
    }
    // A name in the line is hovered as before.
    let m = hover_markdown(&mut c, &file, 0, col(0, "+ x") + 2);
    assert!(m.contains("x (parameter)"), "{m}");
    // A literal that is an error (`1` is no game) shows nothing.
    let none = c.request::<req::HoverRequest>(HoverParams {
        text_document_position_params: Client::at(&file, 3, 1),
        work_done_progress_params: Default::default(),
    });
    assert!(none.is_none(), "{none:?}");

    let mut complete = |l: usize, character: usize| {
        let items = c.request::<req::Completion>(CompletionParams {
            text_document_position: Client::at(&file, l as u32, character as u32),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        });
        let Some(CompletionResponse::Array(items)) = items else {
            panic!("completion items")
        };
        items
    };
    // `q.`: every field of the quotient's record, then its functions.
    let items = complete(7, 2);
    let shape = &loony::eval::quotient::QUOTIENT;
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    let all: Vec<&str> = shape.fields.iter().chain(shape.methods).copied().collect();
    assert_eq!(labels, all);
    assert!(
        labels.contains(&"phi") && labels.contains(&"is_p"),
        "{labels:?}"
    );
    for i in &items {
        let kind = if shape.methods.contains(&i.label.as_str()) {
            CompletionItemKind::METHOD
        } else {
            CompletionItemKind::FIELD
        };
        assert_eq!(
            (i.kind, i.detail.as_deref()),
            (Some(kind), Some("quotient"))
        );
    }
    // `p.per`: those starting with the word, then those containing it.
    let items = complete(8, 5);
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["period", "preperiod"]);
    assert_eq!(items[0].detail.as_deref(), Some("periodicity"));
    // `n.`: `nim_sequence` returns no record.
    assert!(complete(9, 2).is_empty());
    // After the call itself, the word replaced.
    let items = complete(10, lines[10].len());
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["phi"]);
    let Some(CompletionTextEdit::Edit(edit)) = &items[0].text_edit else {
        panic!("a text edit")
    };
    assert_eq!(text_at(text, &edit.range), "ph");
    c.shutdown();
}

/// Where a word occurs in a text, as whole words.
fn occurrences(text: &str, word: &str) -> Vec<Range> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .filter(|(i, _)| {
            !text[..*i].chars().next_back().is_some_and(is_word)
                && !text[i + word.len()..].chars().next().is_some_and(is_word)
        })
        .map(|(i, _)| {
            Range::new(
                utf16_position(text, i),
                utf16_position(text, i + word.len()),
            )
        })
        .collect()
}

#[test]
fn definition_references_and_rename_across_imports() {
    let dir = Dir::new("navigate");
    let lib = "ruleset sub12(n) {\n  for k in [1, 2] if k <= n => sub12(n - k)\n}\n";
    let main = "import \"lib\"\nimport \"std/kayles\"\n[sub12(n) + kayles(n) for n in 0..6]\nsub12(3)\nlen([sub12(1)])\n";
    let lib_path = dir.write("lib.cgt", lib);
    let main_path = dir.write("main.cgt", main);
    let before = Command::new(env!("CARGO_BIN_EXE_loony"))
        .arg(&main_path)
        .output()
        .expect("run loony");
    assert!(before.status.success());

    let mut c = Client::start(&dir);
    c.open(&main_path, main);
    let definition = |c: &mut Client, line, character| match c.request::<req::GotoDefinition>(
        GotoDefinitionParams {
            text_document_position_params: Client::at(&main_path, line, character),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        },
    ) {
        Some(GotoDefinitionResponse::Scalar(l)) => l,
        other => panic!("one location: {other:?}"),
    };
    // A ruleset of a user file.
    let l = definition(&mut c, 2, 2);
    assert_eq!(l.uri, uri(&lib_path));
    assert_eq!(text_at(lib, &l.range), "sub12");
    assert_eq!(l.range.start.line, 0);
    // A ruleset of a shipped module: a file holding the shipped text.
    let l = definition(&mut c, 2, 14);
    let path = PathBuf::from(l.uri.as_str().strip_prefix("file://").expect("a file URI"));
    let shown = std::fs::read_to_string(&path).expect("the shipped module's file");
    let (_, shipped) = loony::eval::modules::STD
        .iter()
        .find(|(n, _)| *n == "std/kayles")
        .expect("std/kayles is shipped");
    assert_eq!(shown, *shipped);
    assert_eq!(text_at(&shown, &l.range), "kayles");
    let line = shown.lines().nth(l.range.start.line as usize).unwrap();
    assert!(line.starts_with("ruleset kayles"), "{line}");

    // References: every whole word `sub12` of both files.
    let refs = c
        .request::<req::References>(ReferenceParams {
            text_document_position: Client::at(&main_path, 3, 1),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: ReferenceContext {
                include_declaration: true,
            },
        })
        .expect("references");
    let key = |l: &Location| (l.uri.as_str().to_string(), l.range.start, l.range.end);
    let mut got: Vec<_> = refs.iter().map(key).collect();
    let mut expected: Vec<_> = occurrences(main, "sub12")
        .into_iter()
        .map(|r| Location::new(uri(&main_path), r))
        .chain(
            occurrences(lib, "sub12")
                .into_iter()
                .map(|r| Location::new(uri(&lib_path), r)),
        )
        .map(|l| key(&l))
        .collect();
    let order = |a: &(String, Position, Position)| (a.0.clone(), a.1.line, a.1.character);
    got.sort_by_key(order);
    expected.sort_by_key(order);
    assert_eq!(got, expected);

    // Rename: applied to both files, the program prints what it printed before.
    let edit = c
        .request::<req::Rename>(RenameParams {
            text_document_position: Client::at(&main_path, 3, 1),
            new_name: "take12".into(),
            work_done_progress_params: Default::default(),
        })
        .expect("an edit");
    for (u, edits) in edit.changes.expect("changes") {
        let path = PathBuf::from(u.as_str().strip_prefix("file://").unwrap());
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut edits = edits;
        edits.sort_by_key(|e| std::cmp::Reverse((e.range.start.line, e.range.start.character)));
        for e in edits {
            let r = &e.range;
            let start = text_offset(&text, r.start);
            let end = text_offset(&text, r.end);
            text.replace_range(start..end, &e.new_text);
        }
        std::fs::write(&path, text).unwrap();
    }
    let renamed = std::fs::read_to_string(&main_path).unwrap();
    assert!(
        !renamed.contains("sub12") && renamed.contains("take12"),
        "{renamed}"
    );
    assert!(
        std::fs::read_to_string(&lib_path)
            .unwrap()
            .contains("ruleset take12")
    );
    let after = Command::new(env!("CARGO_BIN_EXE_loony"))
        .arg(&main_path)
        .output()
        .expect("run loony");
    assert_eq!(after.stdout, before.stdout);
    assert!(after.status.success());

    // A shipped module's ruleset and a built-in are not renamed.
    for at in [(2, 14), (4, 1)] {
        let m = c.request_raw::<req::Rename>(RenameParams {
            text_document_position: Client::at(&main_path, at.0, at.1),
            new_name: "x".into(),
            work_done_progress_params: Default::default(),
        });
        assert!(m.get("error").is_some(), "{m}");
    }
    c.shutdown();
}

/// An open module is read from its editor's buffer, not the disk: changing it changes what its
/// importers see (as the CLI sees the same text saved); closing it goes back to the disk.
#[test]
fn an_open_module_is_read_from_its_buffer() {
    let dir = Dir::new("buffers");
    let lib = "ruleset sub12(n) {\n  for k in [1, 2] if k <= n => sub12(n - k)\n}\n";
    let main = "import \"lib\"\nsub12(3)\n";
    let lib_path = dir.write("lib.cgt", lib);
    let main_path = dir.write("main.cgt", main);
    let edited = lib.replace("sub12", "take12");
    // The CLI on the edited text, saved elsewhere.
    let other = Dir::new("buffers-saved");
    other.write("lib.cgt", &edited);
    let saved_main = other.write("main.cgt", main);
    let cli = cli_diagnostics(&other, &saved_main);
    assert_eq!(cli.len(), 1, "{cli:?}");

    let mut c = Client::start(&dir);
    c.open(&main_path, main);
    c.open(&lib_path, lib);
    assert!(c.diagnostics(&main_path, 1).is_empty());
    assert!(c.diagnostics(&lib_path, 1).is_empty());
    c.change(&lib_path, 2, &edited);
    assert!(c.diagnostics(&lib_path, 2).is_empty());
    // The importer is analysed again (each open document is, after any change): its
    // diagnostics come to be the CLI's for the edited text.
    let want = vec![(
        cli[0]["code"].as_str().unwrap().to_string(),
        cli_range(main, &cli[0]),
    )];
    let got = loop {
        let d = c.diagnostics(&main_path, 1);
        if !d.is_empty() {
            break d;
        }
    };
    let got: Vec<(String, Range)> = got.iter().map(|d| (code(d), d.range)).collect();
    assert_eq!(got, want);
    c.published.clear();
    c.notify::<note::DidCloseTextDocument>(DidCloseTextDocumentParams {
        text_document: TextDocumentIdentifier::new(uri(&lib_path)),
    });
    let cleared = loop {
        let m = c.next();
        c.keep(m);
        if let Some(i) = c.published.iter().position(|p| p.uri == uri(&lib_path)) {
            break c.published.remove(i);
        }
    };
    assert!(cleared.diagnostics.is_empty());
    assert!(c.diagnostics(&main_path, 1).is_empty());
    c.shutdown();
}

fn text_offset(text: &str, p: Position) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(p.line as usize)
        .map(str::len)
        .sum();
    line_start
        + text[line_start..]
            .chars()
            .scan(0, |units, c| {
                let here = *units;
                *units += c.len_utf16();
                Some((here, c.len_utf8()))
            })
            .take_while(|(u, _)| *u < p.character as usize)
            .map(|(_, b)| b)
            .sum::<usize>()
}

#[test]
fn a_long_file_and_a_long_computation_do_not_hold_diagnostics_up() {
    let dir = Dir::new("long");
    let mut text = String::new();
    for i in 0..1250 {
        text.push_str(&format!(
            "ruleset r{i}(n) {{\n  for k in [1, 2] if k <= n => r{i}(n - k) + *{i}\n}}\nlet v{i} = [r{i}(n) for n in 0..5]\n"
        ));
    }
    // A top level that would compute for a very long time if run.
    text.push_str("nim_sequence(heap(\"0.6\"), 10^8)\n");
    assert!(text.lines().count() > 5000);
    let file = dir.write("long.cgt", &text);
    let mut c = Client::start(&dir);
    c.open(&file, &text);
    assert!(c.diagnostics(&file, 1).is_empty());
    let changed = text.replace("let v7 =", "let v7 = v1250 +");
    let start = Instant::now();
    c.change(&file, 2, &changed);
    let d = c.diagnostics(&file, 2);
    let took = start.elapsed();
    eprintln!(
        "diagnostics of a {}-line file after a change: {took:?}",
        text.lines().count()
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0101");
    // Speed targets belong to benchmarks; this bound only catches a server that hangs.
    assert!(took < Duration::from_secs(10), "{took:?}");
    c.shutdown();
}

#[test]
fn survives_garbage_and_invalid_utf8_and_exits_when_the_client_leaves() {
    let dir = Dir::new("garbage");
    // A module that is not UTF-8: the CLI's diagnostic for importing it.
    dir.write("bad.cgt", b"let x = \"\xff\xfe\"\n");
    let main = "import \"bad\"\n";
    let main_path = dir.write("main.cgt", main);
    let cli = cli_diagnostics(&dir, &main_path);
    assert_eq!(cli.len(), 1, "{cli:?}");

    let mut c = Client::start(&dir);
    // Well framed, but not JSON; then a body that is not UTF-8.
    c.send(json!("just a string"));
    c.send_raw(b"Content-Length: 9\r\n\r\n{{{{{{{{{");
    c.send_raw(b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc");
    for _ in 0..3 {
        let m = c.next();
        assert_eq!(m["error"]["code"], json!(-32700), "{m}");
    }
    // Still serving: the import's diagnostic is the CLI's.
    c.open(&main_path, main);
    let d = c.diagnostics(&main_path, 1);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), cli[0]["code"].as_str().unwrap());
    // The client goes away without a word: the server exits, without panicking.
    c.stdin = None;
    let status = exit_without_panic(&mut c.child);
    assert_eq!(status.code(), Some(1), "exit without shutdown: {status:?}");

    // A frame that is no frame: the server stops reading and exits cleanly.
    let mut c = Client::start(&dir);
    c.send_raw(b"this is not a header\r\n\r\n");
    let status = exit_without_panic(&mut c.child);
    assert!(status.code().is_some(), "{status:?}");
}

/// What an error says of itself, without the notes evaluation adds on the way out ("while
/// exploring `r(2)`"): code, message, label, where, and the error's own notes.
type Said = (
    String,
    String,
    String,
    Option<std::ops::Range<usize>>,
    Vec<String>,
);

fn said(e: &loony::diag::Error) -> Said {
    let r = e.report();
    let at = e.loc.as_ref().map(|l| l.span.clone());
    (r.code.into(), r.message, r.label, at, r.notes)
}

/// The resolver's errors for `src`.
fn resolver_errors(name: &str, src: &str) -> Vec<Said> {
    let ws = resolve::analyze(name, src, &|_| None);
    ws.modules[0]
        .problems
        .iter()
        .filter_map(|p| match p {
            Problem::Error { error, .. } => Some(said(error)),
            Problem::Warning(_) => None,
        })
        .collect()
}

/// The error of running `src` in the interpreter, if any.
fn interpreter_error(name: &str, src: &str) -> Option<Said> {
    let (name, src) = (name.to_string(), src.to_string());
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = loony::eval::Interp::new();
            let r = interp.run(&name, &src, &mut |_| {});
            r.err().map(|e| said(&e))
        })
        .expect("spawn")
        .join()
        .expect("the interpreter thread")
}

/// The resolver agrees with the interpreter: where running the source fails with a name,
/// arity or import error, the resolver gives that very error (code, message, label, span and
/// notes) among its own; where it runs, the resolver finds nothing.
#[test]
fn the_resolver_agrees_with_the_interpreter() {
    let cases = [
        // Scopes the interpreter accepts.
        "fn f(x) = x + 1\nf(2)",
        "[k * k for k in 1..4 if k > 1]",
        "[a + b for a in 0..3 for b in 0..a]",
        "ruleset r(n) {\n  for k in [1, 2] if k <= n => r(n - k)\n}\nr(3)",
        "ruleset r((a, b)) {\n  for k in [1] if k <= a => r((a - k, b))\n  for j in [1] if j <= b => r((a, b - j))\n}\nr((1, 2))",
        "a{0, a | 0, a}",
        "fn g((a, b), c) = a + b + c\ng((1, 2), 3)",
        "let t = 1 in t + 1",
        "fn late() = later + 1\nlet later = 2\nlate()",
        "fn f(x) = x\nfn f(x, y) = x\nf(1, 2)",
        "let len2 = 3\nlen([len2])",
        "import \"std/kayles\"\nkayles(3)",
        "if not false then *0 else *[2] + *[2]",
        // Errors the interpreter reports.
        "[y for x in 0..3]",
        "(let t = 1 in t) + t",
        "fn h() = q\n[h() for q in 0..2]",
        "let a = b\nlet b = 1",
        "b{0, a | 0}",
        "len(1, 2)",
        "fn f(x) = x\nf(1, 2)",
        "ruleset r(n) {\n  for k in [1] if k <= n => r(n - k)\n}\nr()",
        "ruleset r(n) {\n  for k in [1] if k <= n => r(n - k) + nope\n}\nr(2)",
        "kayles(3)",
        "let kayle = 2\nkayls",
        "import \"std/nope\"",
        "import \"nowhere\"",
        "outcome(*1, *2)",
        // A body never called is read all the same; the run stops at the later statement.
        "fn h() = q\nnope",
        // Type errors of literals, known without running.
        "if 3 then 1 else 2",
        "not \"yes\"",
        "*\"a\"",
        "*true",
        "*9999999999",
        "3(1)",
        "[k for k in 5]",
        "[k for k in [1] if \"no\"]",
        "ruleset r(n) {\n  for k in 5 if k <= n => r(n - k)\n}\nr(2)",
        "ruleset r(n) {\n  if 1 => r(n - 1)\n}\nr(2)",
        "ruleset r(n) {\n  for k in [1] if k <= n => *\"x\"\n}\nr(2)",
        "ruleset r(n) {\n  for k in [1] if k <= n => r(n - k) + *none\n}\nr(2)",
    ];
    for src in cases {
        let name = "case.cgt";
        let errors = resolver_errors(name, src);
        match interpreter_error(name, src) {
            Some(e) => assert!(
                errors.contains(&e),
                "the interpreter stops at {e:?} in {src:?}; the resolver says {errors:?}"
            ),
            None => assert!(
                errors.is_empty(),
                "{src:?} runs, but the resolver says {errors:?}"
            ),
        }
    }
    // A branch the run does not take is still read: a mistake there is reported.
    let src = "if true then 1 else nope";
    assert!(interpreter_error("case.cgt", src).is_none());
    let errors = resolver_errors("case.cgt", src);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].0, "E0101", "{errors:?}");
}

/// Imports that fail further down: a cycle, a module whose own import is missing, a module that
/// is not UTF-8, one that does not parse. Running the file fails with an error of the same
/// code and message as the resolver's first; the resolver shows it at the file's own import.
#[test]
fn the_resolver_agrees_on_failing_imports() {
    let dir = Dir::new("imports");
    dir.write("a.cgt", "import \"b\"\n1\n");
    dir.write("b.cgt", "import \"a\"\n2\n");
    dir.write("c.cgt", "import \"d\"\n3\n");
    dir.write("d.cgt", "import \"missing\"\n");
    dir.write("e.cgt", "import \"bad\"\n");
    dir.write("bad.cgt", b"let x = \"\xff\"\n");
    dir.write("f.cgt", "import \"g\"\n");
    dir.write("g.cgt", "let = 3\n");
    for root in ["a.cgt", "c.cgt", "e.cgt", "f.cgt"] {
        let path = dir.0.join(root);
        let name = path.to_str().expect("a UTF-8 path").to_string();
        let src = std::fs::read_to_string(&path).expect("read");
        let run = interpreter_error(&name, &src).expect("the run fails");
        let ws = resolve::analyze(&name, &src, &|_| None);
        let (error, via) = ws.modules[0]
            .problems
            .iter()
            .find_map(|p| match p {
                Problem::Error { error, via } => Some((error, via)),
                Problem::Warning(_) => None,
            })
            .unwrap_or_else(|| panic!("the resolver finds nothing in {root}"));
        let got = said(error);
        assert_eq!((&got.0, &got.1), (&run.0, &run.1), "for {root}");
        let first_import = 0..src.lines().next().unwrap().len();
        let at = via
            .clone()
            .or_else(|| error.loc.as_ref().map(|l| l.span.clone()));
        assert_eq!(at, Some(first_import), "for {root}");
    }
}

/// A chain of modules each importing the next, longer than a small stack holds: the resolver
/// stops at the interpreter's stack guard with E0206, shown at the file's own import.
#[test]
fn a_chain_of_imports_longer_than_the_stack_ends_in_a_diagnostic() {
    let dir = Dir::new("chain");
    let n = 5000;
    for i in 0..n {
        dir.write(&format!("m{i}.cgt"), format!("import \"m{}\"\n", i + 1));
    }
    dir.write(&format!("m{n}.cgt"), "let last = 1\n");
    let root = dir.0.join("m0.cgt");
    let name = root.to_str().expect("a UTF-8 path").to_string();
    let src = std::fs::read_to_string(&root).expect("read");
    let import = 0..src.trim_end().len();
    let first = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let ws = resolve::analyze(&name, &src, &|_| None);
            ws.modules[0].problems.first().map(|p| match p {
                Problem::Error { error, via } => (said(error), via.clone()),
                Problem::Warning(w) => panic!("a warning: {w:?}"),
            })
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow");
    let ((code, message, ..), via) = first.expect("an error");
    assert_eq!(code, "E0206", "{message}");
    assert_eq!(via, Some(import));
}

/// The walk keeps its own stack: nesting far past what a native recursion would survive on a
/// small stack is resolved, and an unknown name at the bottom is found.
#[test]
fn the_resolver_takes_deep_nesting() {
    let depth = 200_000;
    let src = format!("{}deep{}", "[".repeat(depth), "]".repeat(depth));
    // The syntax tree is freed by recursion (as in the interpreter): a big stack for that.
    let errors = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || resolver_errors("deep.cgt", &src))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].1, "unknown name `deep`", "{errors:?}");
}

/// Every use and definition the resolver gives lies on the text's character boundaries, and
/// every error is placed inside the text: what the server turns into positions.
fn check_spans(src: &str) {
    let ws = resolve::analyze("fuzz.cgt", src, &|_| None);
    let m = &ws.modules[0];
    let inside = |s: &std::ops::Range<usize>| {
        s.start <= s.end
            && s.end <= src.len()
            && src.is_char_boundary(s.start)
            && src.is_char_boundary(s.end)
    };
    for r in &m.refs {
        assert!(inside(&r.span), "{:?} in {src:?}", r.span);
    }
    for d in &m.defs {
        assert!(inside(&d.span) && inside(&d.whole), "{d:?} in {src:?}");
    }
    for l in &m.literals {
        assert!(inside(l), "{l:?} in {src:?}");
    }
    for p in &m.problems {
        if let Problem::Error { error, via: None } = p
            && let Some(l) = &error.loc
            && l.file == m.file
        {
            assert!(inside(&l.span), "{error:?} in {src:?}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Text made of Loony's tokens and some that are not, in any order: resolved without a
    /// panic, its spans inside the text.
    #[test]
    fn the_resolver_takes_any_text(
        src in "(let |fn |ruleset |import |for |in |if |then |else |x|n|r|len|\\*|\\*\\[|\\{|\\}|\\(|\\)|\\[|\\]|<|>|\\||,|=|=>|\\+|-|0|7|\"s\"|\"|#c|☾|∞̄|\n|\t| ){0,60}"
    ) {
        check_spans(&src);
    }

    /// An example with a piece cut out (what an editor holds halfway through a change).
    #[test]
    fn the_resolver_takes_examples_cut_anywhere(which in 0usize..64, a in 0usize..1 << 16, len in 0usize..200) {
        let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
            .expect("examples")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "cgt"))
            .collect();
        files.sort();
        let text = std::fs::read_to_string(&files[which % files.len()]).expect("an example");
        let mut a = a % (text.len() + 1);
        while !text.is_char_boundary(a) {
            a -= 1;
        }
        let mut b = (a + len).min(text.len());
        while !text.is_char_boundary(b) {
            b -= 1;
        }
        let cut = format!("{}{}", &text[..a], &text[b..]);
        check_spans(&cut);
    }
}

/// `loony lsp` is the server only when no file of that name is in the working folder: a file
/// named `lsp` is still a script. The server takes no arguments.
#[test]
fn a_file_named_lsp_is_a_script() {
    let dir = Dir::new("script");
    dir.write("lsp", "*2 + *3\n");
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .arg("lsp")
        .current_dir(&dir.0)
        .output()
        .expect("run loony");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "*\n");
    let other = Dir::new("script-args");
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["lsp", "--stdio-please"])
        .current_dir(&other.0)
        .stdin(Stdio::null())
        .output()
        .expect("run loony");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes no arguments"));
}
