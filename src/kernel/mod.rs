//! `loony kernel`: a Jupyter kernel. One [`Session`] per kernel, as in the REPL: a cell is one
//! input, so bindings, imports, `:budget`, `:memory` and `:ascii` carry over between cells.
//!
//! - `connection`: the connection file;
//! - `wire`: signed multipart messages;
//! - `display`: results, figures and diagnostics as the notebook shows them;
//! - `spec`: `loony kernel install` and `uninstall`.
//!
//! The sockets live on one async thread (tokio, ZeroMQ); the session lives on one worker
//! thread with the interpreter's big stack, and cells run there one at a time in the order
//! they came. So heartbeat, control (interrupt, shutdown) and the quick shell requests
//! (completion, inspection) are answered while a cell computes.

pub mod connection;
pub mod display;
pub mod spec;
pub mod wire;

use crate::repl::{self, Reply, Session, complete::Completions};
use bytes::Bytes;
use connection::Connection;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use tokio::sync::mpsc as amp;
use wire::{Headers, Message, Signer};
use zeromq::{Socket, SocketRecv, SocketSend, ZmqMessage};

#[derive(clap::Parser)]
#[command(
    name = "loony kernel",
    about = "A Jupyter kernel for Loony: started by Jupyter with --connection-file, or \
             installed for it with `loony kernel install`",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    /// The connection file Jupyter wrote (ports and key)
    #[arg(long, value_name = "FILE")]
    connection_file: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Writes the kernelspec (kernel.json and logos) so Jupyter finds this binary as the
    /// "Loony" kernel
    Install(Place),
    /// Removes the kernelspec that `install` wrote
    Uninstall(Place),
}

#[derive(clap::Args)]
struct Place {
    /// In Jupyter's user data directory ($JUPYTER_DATA_DIR, else ~/.local/share/jupyter)
    /// [the default]
    #[arg(long, conflicts_with = "prefix")]
    user: bool,
    /// In DIR/share/jupyter (a virtual environment's or conda's prefix, say)
    #[arg(long, value_name = "DIR")]
    prefix: Option<PathBuf>,
}

/// Writes a line to stderr (Jupyter keeps it in its log); a closed stderr is no reason to stop.
fn log(s: &str) {
    let _ = writeln!(std::io::stderr().lock(), "loony kernel: {s}");
}

/// `loony kernel ARGS`: `args` without the program name and `kernel`; `stacks` the
/// interpreter stack sizes to try, largest first (as the `loony` binary tries them).
pub fn main(args: Vec<OsString>, stacks: &[usize]) -> ExitCode {
    let cli: Cli = match crate::parse_subcommand("kernel", args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let r = match (cli.command, cli.connection_file) {
        (Some(Sub::Install(p)), _) => spec::kernels_dir(p.prefix.as_deref())
            .and_then(|k| spec::install(&k))
            .map(|dir| {
                say(&format!(
                    "installed the Loony kernelspec in {}",
                    dir.display()
                ))
            }),
        (Some(Sub::Uninstall(p)), _) => spec::kernels_dir(p.prefix.as_deref())
            .and_then(|k| spec::uninstall(&k))
            .map(|dir| say(&format!("removed {}", dir.display()))),
        (None, Some(file)) => Connection::read(&file).and_then(|c| serve(c, stacks)),
        (None, None) => Err(
            "--connection-file FILE is needed (Jupyter passes it), or a \
                             subcommand: install, uninstall"
                .to_string(),
        ),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn say(s: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{s}");
}

/// A cell or other work for the session's thread.
enum Job {
    /// A cell, with its number in the order the requests came (see `Shared::received`).
    Execute(Message, u64),
}

/// What completion and inspection need of the session, copied after each cell so they are
/// answered while the next one runs.
#[derive(Default)]
struct Snapshot {
    completions: Completions,
    /// `:help NAME` of each binding of the session.
    bindings: HashMap<String, String>,
}

/// What the socket side and the session's thread share.
struct Shared {
    signer: Signer,
    headers: Headers,
    snapshot: Mutex<Snapshot>,
    /// The session's stop flag (its `cx.limits.interrupt`).
    interrupt: Arc<AtomicBool>,
    /// True while a cell runs: an interrupt between cells is ignored, not left to stop the
    /// next cell.
    running: AtomicBool,
    /// The cell running, while it runs (not silent): where its progress bars show.
    current: Mutex<Option<Message>>,
    /// Whether a progress bar shows in the current cell's output now.
    progress_shown: AtomicBool,
    iopub: amp::UnboundedSender<Message>,
    shell: amp::UnboundedSender<Message>,
    /// The number of the last cell handed to the session's thread (cells are numbered from 1
    /// as they come; stored after the cell is in the channel).
    received: std::sync::atomic::AtomicU64,
}

impl Shared {
    fn publish(&self, parent: Option<&Message>, msg_type: &str, content: Value) {
        // The receiver lives as long as the kernel: a failed send means it is shutting down.
        let _ = self
            .iopub
            .send(self.headers.publish(parent, msg_type, content));
    }

    fn status(&self, parent: &Message, state: &str) {
        self.publish(Some(parent), "status", json!({ "execution_state": state }));
    }

    /// A progress bar's line (or `None`: it was cleared) as the running cell's only output:
    /// each new line replaces the last, and the cell's results replace the bar.
    fn progress(&self, line: Option<&str>) {
        let Ok(current) = self.current.lock() else {
            return;
        };
        let Some(parent) = current.as_ref() else {
            return;
        };
        match line {
            Some(l) => {
                self.progress_shown.store(true, Ordering::SeqCst);
                self.publish(Some(parent), "clear_output", json!({ "wait": true }));
                let text = format!("{l}\n");
                self.publish(
                    Some(parent),
                    "stream",
                    json!({ "name": "stderr", "text": text }),
                );
            }
            None => self.clear_progress(parent),
        }
    }

    fn clear_progress(&self, parent: &Message) {
        if self.progress_shown.swap(false, Ordering::SeqCst) {
            self.publish(Some(parent), "clear_output", json!({ "wait": false }));
        }
    }

    fn interrupt(&self) {
        if self.running.load(Ordering::SeqCst) {
            self.interrupt.store(true, Ordering::SeqCst);
        }
    }
}

/// Runs the kernel until a `shutdown_request`.
fn serve(conn: Connection, stacks: &[usize]) -> Result<(), String> {
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let (iopub_tx, iopub_rx) = amp::unbounded_channel();
    let (shell_tx, shell_rx) = amp::unbounded_channel();
    let (ready_tx, ready_rx) = mpsc::channel();
    let worker = spawn_worker(stacks, job_rx, ready_tx)?;
    let (interrupt, snapshot) = ready_rx
        .recv()
        .map_err(|_| "the session thread failed to start".to_string())?;
    let shared = Arc::new(Shared {
        signer: Signer::new(&conn.key),
        headers: Headers::new(),
        snapshot: Mutex::new(snapshot),
        interrupt,
        running: AtomicBool::new(false),
        current: Mutex::new(None),
        progress_shown: AtomicBool::new(false),
        iopub: iopub_tx,
        shell: shell_tx,
        received: std::sync::atomic::AtomicU64::new(0),
    });
    let _ = worker.send(shared.clone());
    // Progress bars become stream updates of the running cell.
    let on_progress = shared.clone();
    loony_lang::progress::draw_to(Arc::new(move |line| on_progress.progress(line)));
    // Jupyter's interrupt button sends SIGINT (interrupt_mode "signal").
    let on_signal = shared.clone();
    ctrlc::set_handler(move || on_signal.interrupt())
        .map_err(|e| format!("cannot catch SIGINT: {e}"))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    rt.block_on(run(conn, shared, jobs, iopub_rx, shell_rx))
}

/// The session's thread: waits for the [`Shared`] state, then runs jobs until the channel
/// closes. Tries each stack size in turn, as `main` does.
fn spawn_worker(
    stacks: &[usize],
    jobs: mpsc::Receiver<Job>,
    ready: mpsc::Sender<(Arc<AtomicBool>, Snapshot)>,
) -> Result<mpsc::Sender<Arc<Shared>>, String> {
    let (shared_tx, shared_rx) = mpsc::channel::<Arc<Shared>>();
    let work = Arc::new(Mutex::new(Some((jobs, ready, shared_rx))));
    for &size in stacks {
        crate::memory::set_aside(size);
        let work = work.clone();
        let spawned = std::thread::Builder::new()
            .name("loony-session".into())
            .stack_size(size)
            .spawn(move || {
                let taken = work.lock().ok().and_then(|mut w| w.take());
                if let Some((jobs, ready, shared_rx)) = taken {
                    worker(jobs, ready, shared_rx);
                }
            });
        if spawned.is_ok() {
            return Ok(shared_tx);
        }
    }
    Err("the session thread could not start, not even on a 64 MiB stack".to_string())
}

fn worker(
    jobs: mpsc::Receiver<Job>,
    ready: mpsc::Sender<(Arc<AtomicBool>, Snapshot)>,
    shared_rx: mpsc::Receiver<Arc<Shared>>,
) {
    let mut session = Session::new();
    session.ansi = true;
    // Plots without a file name are shown in the notebook, not written; records and
    // sequences get HTML beside their text.
    session.interp.cx.out.figures = Some(Vec::new());
    session.interp.cx.out.html = Some(Vec::new());
    session.interp.cx.set_progress(true);
    let flag = session.interp.cx.limits.interrupt.clone();
    if ready.send((flag, snapshot(&session))).is_err() {
        return;
    }
    let Ok(shared) = shared_rx.recv() else {
        return;
    };
    let mut count = 0u64;
    let mut next = None;
    while let Some(job) = next.take().or_else(|| jobs.recv().ok()) {
        match job {
            Job::Execute(msg, _) => {
                if let Some(upto) = execute(&mut session, &shared, &msg, &mut count) {
                    next = abort_queued(&jobs, &shared, upto);
                }
            }
        }
    }
}

/// After a cell that failed with `stop_on_error` (a notebook's "run all" sends every cell at
/// once), the cells that had come before its reply went out (numbers up to `upto`) are not
/// run but answered `aborted`, as ipykernel does, so they do not fail one after another for
/// want of what the failed cell would have bound. A cell sent after the reply (the front end
/// going on) is run: it is handed back.
fn abort_queued(jobs: &mpsc::Receiver<Job>, shared: &Shared, upto: u64) -> Option<Job> {
    while let Ok(job) = jobs.try_recv() {
        let Job::Execute(msg, n) = &job;
        if *n > upto {
            return Some(job);
        }
        shared.status(msg, "busy");
        let content = json!({ "status": "aborted", "execution_count": null });
        let _ = shared
            .shell
            .send(shared.headers.reply(msg, "execute_reply", content));
        shared.status(msg, "idle");
    }
    None
}

fn snapshot(session: &Session) -> Snapshot {
    let bindings = session
        .interp
        .cx
        .globals
        .iter()
        .filter_map(|(name, v)| Some((name.clone(), repl::help::lookup(name, Some(v))?)))
        .collect();
    Snapshot {
        completions: session.completions(),
        bindings,
    }
}

/// One cell: busy, the input, its outputs, the reply, idle. When it failed and asks for the
/// queue to stop (`stop_on_error`, the default), the number of the last cell received before
/// its reply went out.
fn execute(session: &mut Session, shared: &Shared, msg: &Message, count: &mut u64) -> Option<u64> {
    let code = msg.text("code").to_string();
    let silent = msg.content["silent"].as_bool().unwrap_or(false);
    let store_history = msg.content["store_history"].as_bool().unwrap_or(!silent);
    shared.status(msg, "busy");
    if store_history {
        *count += 1;
    }
    let n = *count;
    if !silent {
        shared.publish(
            Some(msg),
            "execute_input",
            json!({ "code": code, "execution_count": n }),
        );
    }
    shared.interrupt.store(false, Ordering::SeqCst);
    shared.running.store(true, Ordering::SeqCst);
    if !silent && let Ok(mut c) = shared.current.lock() {
        *c = Some(msg.clone());
    }
    let mut replies = Vec::new();
    // Line by line as the REPL reads piped input (a `:command` is one line, a program may
    // span several); the first error ends the cell, as it ends a script.
    let lines = code.lines().map(|l| Ok(l.as_bytes().to_vec()));
    repl::run_byte_lines_while(session, lines, &mut |r| {
        let go_on = !matches!(r, Reply::Error(_));
        replies.push(r);
        go_on
    });
    shared.running.store(false, Ordering::SeqCst);
    if let Ok(mut c) = shared.current.lock() {
        *c = None;
    }
    // A bar left by an interrupted computation goes before the results come.
    shared.clear_progress(msg);
    let figures = session
        .interp
        .cx
        .out
        .figures
        .replace(Vec::new())
        .unwrap_or_default();
    let html = session
        .interp
        .cx
        .out
        .html
        .replace(Vec::new())
        .unwrap_or_default();
    if let Ok(mut s) = shared.snapshot.lock() {
        *s = snapshot(session);
    }

    let stream = |name: &str, text: String| {
        if !silent {
            shared.publish(Some(msg), "stream", json!({ "name": name, "text": text }));
        }
    };
    for f in &figures {
        if !silent {
            shared.publish(
                Some(msg),
                "display_data",
                json!({ "data": display::figure_bundle(f), "metadata": {}, "transient": {} }),
            );
        }
    }
    let mut values: Vec<String> = Vec::new();
    let mut error = None;
    let mut quit = false;
    for r in replies {
        match r {
            Reply::Value(s) => values.push(s),
            Reply::Info(s) => stream("stdout", format!("{s}\n")),
            Reply::Warning(w) => stream("stderr", w),
            Reply::Error(e) => error = Some(e),
            Reply::Quit => quit = true,
        }
    }
    if !values.is_empty() && !silent {
        let mut data = json!({ "text/plain": values.join("\n") });
        if let Some(h) = display::results_html(&values, &html) {
            data["text/html"] = json!(h);
        }
        shared.publish(
            Some(msg),
            "execute_result",
            json!({ "execution_count": n, "data": data, "metadata": {} }),
        );
    }
    let stop_queue = error.is_some() && msg.content["stop_on_error"].as_bool().unwrap_or(true);
    let reply = match error {
        Some(e) => {
            let mut content = display::error_content(&e);
            if !silent {
                shared.publish(Some(msg), "error", content.clone());
            }
            content["status"] = json!("error");
            content["execution_count"] = json!(n);
            content
        }
        None => {
            // `:quit` asks the front end to end the session (jupyter console leaves).
            let payload = if quit {
                json!([{ "source": "ask_exit", "keepkernel": false }])
            } else {
                json!([])
            };
            json!({
                "status": "ok",
                "execution_count": n,
                "payload": payload,
                "user_expressions": {},
            })
        }
    };
    // Taken before the reply leaves: what the front end sends after seeing it is not aborted.
    let upto = shared.received.load(Ordering::SeqCst);
    let _ = shared
        .shell
        .send(shared.headers.reply(msg, "execute_reply", reply));
    shared.status(msg, "idle");
    stop_queue.then_some(upto)
}

/// The sockets: bind all five, then serve until shutdown.
async fn run(
    conn: Connection,
    shared: Arc<Shared>,
    jobs: mpsc::Sender<Job>,
    mut iopub_rx: amp::UnboundedReceiver<Message>,
    mut shell_rx: amp::UnboundedReceiver<Message>,
) -> Result<(), String> {
    let bind_err = |what: &str, port: u16| {
        let what = what.to_string();
        move |e: zeromq::ZmqError| format!("cannot bind the {what} socket to port {port}: {e}")
    };
    let mut shell = zeromq::RouterSocket::new();
    shell
        .bind(&conn.endpoint(conn.shell_port))
        .await
        .map_err(bind_err("shell", conn.shell_port))?;
    let mut control = zeromq::RouterSocket::new();
    control
        .bind(&conn.endpoint(conn.control_port))
        .await
        .map_err(bind_err("control", conn.control_port))?;
    // Loony never asks for input, but clients connect to stdin: it must be there.
    let mut stdin = zeromq::RouterSocket::new();
    stdin
        .bind(&conn.endpoint(conn.stdin_port))
        .await
        .map_err(bind_err("stdin", conn.stdin_port))?;
    let mut iopub = zeromq::PubSocket::new();
    iopub
        .bind(&conn.endpoint(conn.iopub_port))
        .await
        .map_err(bind_err("iopub", conn.iopub_port))?;
    let mut hb = zeromq::RepSocket::new();
    hb.bind(&conn.endpoint(conn.hb_port))
        .await
        .map_err(bind_err("heartbeat", conn.hb_port))?;

    tokio::spawn(async move {
        // Heartbeat: every message straight back.
        loop {
            match hb.recv().await {
                Ok(m) => {
                    if let Err(e) = hb.send(m).await {
                        log(&format!("heartbeat: {e}"));
                    }
                }
                Err(e) => {
                    log(&format!("heartbeat: {e}"));
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            }
        }
    });
    let signer = Arc::clone(&shared);
    tokio::spawn(async move {
        while let Some(m) = iopub_rx.recv().await {
            if let Err(e) = iopub.send(frames(&m, &signer.signer)).await {
                log(&format!("iopub: cannot send {}: {e}", m.msg_type()));
            }
        }
    });
    let (mut shell_send, mut shell_recv) = shell.split();
    let signer = Arc::clone(&shared);
    tokio::spawn(async move {
        while let Some(m) = shell_rx.recv().await {
            if let Err(e) = shell_send.send(frames(&m, &signer.signer)).await {
                log(&format!("shell: cannot send {}: {e}", m.msg_type()));
            }
        }
    });
    let _stdin = stdin;

    let stop = Arc::new(tokio::sync::Notify::new());
    let on_shell = {
        let (shared, stop) = (shared.clone(), stop.clone());
        async move {
            let mut cells = 0u64;
            loop {
                let Some(msg) = receive(&mut shell_recv, &shared.signer, "shell").await else {
                    continue;
                };
                match msg.msg_type() {
                    "execute_request" => {
                        cells += 1;
                        if jobs.send(Job::Execute(msg, cells)).is_err() {
                            log("the session thread has stopped");
                        }
                        // After the send: a cell counted here is in the channel.
                        shared.received.store(cells, Ordering::SeqCst);
                    }
                    _ => {
                        shared.status(&msg, "busy");
                        if let Some(reply) = guarded_answer(&shared, &msg, &stop) {
                            let _ = shared.shell.send(reply);
                        }
                        shared.status(&msg, "idle");
                    }
                }
            }
        }
    };
    let on_control = {
        let (shared, stop) = (shared.clone(), stop.clone());
        async move {
            loop {
                let Some(msg) = receive(&mut control, &shared.signer, "control").await else {
                    continue;
                };
                if let Some(reply) = guarded_answer(&shared, &msg, &stop)
                    && let Err(e) = control.send(frames(&reply, &shared.signer)).await
                {
                    log(&format!("control: cannot send {}: {e}", reply.msg_type()));
                }
            }
        }
    };
    tokio::select! {
        () = on_shell => {}
        () = on_control => {}
        () = stop.notified() => {}
    }
    // The shutdown reply and the last status are queued: give them time to leave.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    Ok(())
}

fn frames(m: &Message, signer: &Signer) -> ZmqMessage {
    let frames = wire::encode(m, signer);
    // `encode` always gives at least the delimiter and five frames, so this never fails.
    ZmqMessage::try_from(frames).unwrap_or_else(|_| ZmqMessage::from(Bytes::new()))
}

/// The next well-formed, correctly signed message of a socket; `None` after logging one that
/// was dropped.
async fn receive(socket: &mut impl SocketRecv, signer: &Signer, name: &str) -> Option<Message> {
    match socket.recv().await {
        Ok(m) => match wire::decode(m.into_vec(), signer) {
            Ok(msg) => Some(msg),
            Err(e) => {
                log(&format!("{name}: dropped a message: {e}"));
                None
            }
        },
        Err(e) => {
            log(&format!("{name}: {e}"));
            // A socket that keeps failing must not spin.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            None
        }
    }
}

/// [`answer`], with a panic (a bug) logged instead of ending the kernel.
fn guarded_answer(shared: &Shared, msg: &Message, stop: &tokio::sync::Notify) -> Option<Message> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(shared, msg, stop)));
    r.unwrap_or_else(|_| {
        log(&format!("internal error answering {}", msg.msg_type()));
        None
    })
}

/// The reply to a request that needs no evaluation (either channel); `None` for one that has
/// no reply (unknown types are logged, as ipykernel does).
fn answer(shared: &Shared, msg: &Message, stop: &tokio::sync::Notify) -> Option<Message> {
    let reply = |t: &str, content: Value| Some(shared.headers.reply(msg, t, content));
    match msg.msg_type() {
        "kernel_info_request" => reply("kernel_info_reply", kernel_info()),
        "complete_request" => reply("complete_reply", complete(shared, msg)),
        "inspect_request" => reply("inspect_reply", inspect(shared, msg)),
        "is_complete_request" => {
            let code = msg.text("code");
            let content = if Session::is_incomplete(code) {
                json!({ "status": "incomplete", "indent": "" })
            } else {
                json!({ "status": "complete" })
            };
            reply("is_complete_reply", content)
        }
        "history_request" => reply("history_reply", json!({ "status": "ok", "history": [] })),
        "comm_info_request" => reply("comm_info_reply", json!({ "status": "ok", "comms": {} })),
        "interrupt_request" => {
            shared.interrupt();
            reply("interrupt_reply", json!({ "status": "ok" }))
        }
        "shutdown_request" => {
            let restart = msg.content["restart"].as_bool().unwrap_or(false);
            // A cell still running stops; the process ends after the reply is out.
            shared.interrupt();
            stop.notify_one();
            reply(
                "shutdown_reply",
                json!({ "status": "ok", "restart": restart }),
            )
        }
        other => {
            log(&format!("ignored a message of type `{other}`"));
            None
        }
    }
}

fn kernel_info() -> Value {
    json!({
        "status": "ok",
        "protocol_version": wire::PROTOCOL_VERSION,
        "implementation": "loony",
        "implementation_version": env!("CARGO_PKG_VERSION"),
        "language_info": {
            "name": "loony",
            "version": env!("CARGO_PKG_VERSION"),
            "mimetype": "text/plain",
            "file_extension": ".cgt",
        },
        "banner": format!(
            "Loony {}: impartial combinatorial games. :help lists the commands and built-ins.",
            env!("CARGO_PKG_VERSION")
        ),
        "help_links": [],
    })
}

/// The byte offset of the `chars`-th character of `s` (Jupyter counts cursor positions in
/// Unicode code points); the end of `s` past its length.
fn byte_at(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)
}

fn chars_before(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

/// `complete_request`: the REPL's completer on the cursor's line.
fn complete(shared: &Shared, msg: &Message) -> Value {
    let code = msg.text("code");
    let cursor = msg.content["cursor_pos"]
        .as_u64()
        .map_or(code.len(), |c| byte_at(code, c as usize));
    let line_start = code[..cursor].rfind('\n').map_or(0, |i| i + 1);
    let line_end = code[cursor..].find('\n').map_or(code.len(), |i| cursor + i);
    let line = &code[line_start..line_end];
    let (start, candidates) = match shared.snapshot.lock() {
        Ok(s) => s.completions.complete(line, cursor - line_start),
        Err(_) => (cursor - line_start, Vec::new()),
    };
    let matches: Vec<String> = candidates.into_iter().map(|c| c.replacement).collect();
    json!({
        "status": "ok",
        "matches": matches,
        "cursor_start": chars_before(code, line_start + start),
        "cursor_end": chars_before(code, cursor),
        "metadata": {},
    })
}

/// `inspect_request`: `:help NAME` of the name at the cursor (a binding of the session, a
/// built-in's row of the table, a module, a command).
fn inspect(shared: &Shared, msg: &Message) -> Value {
    let code = msg.text("code");
    let cursor = msg.content["cursor_pos"]
        .as_u64()
        .map_or(code.len(), |c| byte_at(code, c as usize));
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let start = code[..cursor]
        .char_indices()
        .rev()
        .find(|&(_, c)| !word(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = code[cursor..]
        .find(|c| !word(c))
        .map_or(code.len(), |i| cursor + i);
    let name = &code[start..end];
    let text = if name.is_empty() {
        None
    } else {
        let bound = shared
            .snapshot
            .lock()
            .ok()
            .and_then(|s| s.bindings.get(name).cloned());
        bound.or_else(|| repl::help::lookup(name, None))
    };
    match text {
        Some(t) => json!({
            "status": "ok",
            "found": true,
            "data": { "text/plain": t },
            "metadata": {},
        }),
        None => json!({ "status": "ok", "found": false, "data": {}, "metadata": {} }),
    }
}
