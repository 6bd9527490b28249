//! The stdio transport: `Content-Length` framed JSON-RPC, read and written by two threads that
//! hand `lsp_server::Message`s to the server loop through an `lsp_server::Connection`.
//!
//! Written here rather than taken from `lsp_server::Connection::stdio`, whose reader stops at
//! the first body that is not a message: a well-framed body that is not JSON (or not UTF-8)
//! gets a JSON-RPC parse error back and the server reads on. Only a broken frame (no length,
//! a header that is not text) ends the reader, as does the end of input; the loop then sees the
//! connection close and exits.

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// A message body larger than this is refused (the frame is skipped, and answered).
const MOST_BODY: usize = 256 << 20;

/// What the writer thread sends: a message, or the parse error for a body that was not one;
/// `Stop` once everything is written.
enum Out {
    Message(Message),
    ParseError(String),
    Stop,
}

pub struct Threads {
    forward: JoinHandle<()>,
    writer: JoinHandle<()>,
    stop: Sender<Out>,
}

impl Threads {
    /// Once the connection is dropped: writes what the server sent, then returns. The reader
    /// is not waited for (it may be blocked on a client that keeps its end open); the
    /// process ends it.
    pub fn finish(self) {
        // The forwarder ends when the connection's sender is gone, having passed everything on.
        let _ = self.forward.join();
        let _ = self.stop.send(Out::Stop);
        let _ = self.writer.join();
    }
}

/// The connection over stdin and stdout.
pub fn stdio() -> io::Result<(Connection, Threads)> {
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_writer, writer_in) = unbounded::<Out>();
    let (to_client, outgoing) = unbounded::<Message>();
    let parse_errors = to_writer.clone();
    let stop = to_writer.clone();
    let reader = std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || read_loop(&mut io::stdin().lock(), &to_server, &parse_errors))?;
    // Messages of the server go to the writer thread through a channel of their own, so the
    // connection's sender is plain `lsp_server::Message`s.
    let forward = std::thread::Builder::new()
        .name("lsp-forward".into())
        .spawn(move || {
            for m in outgoing {
                if to_writer.send(Out::Message(m)).is_err() {
                    break;
                }
            }
        })?;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || write_loop(&mut io::stdout().lock(), &writer_in))?;
    let conn = Connection {
        sender: to_client,
        receiver: from_client,
    };
    // The reader runs on its own; it ends with the input.
    drop(reader);
    Ok((
        conn,
        Threads {
            forward,
            writer,
            stop,
        },
    ))
}

fn write_loop(out: &mut impl Write, messages: &Receiver<Out>) {
    for m in messages {
        let r = match m {
            Out::Stop => break,
            Out::Message(m) => m.write(out),
            Out::ParseError(why) => {
                let body = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": {"code": -32700, "message": why},
                })
                .to_string();
                write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())
                    .and_then(|_| out.flush())
            }
        };
        // The client is gone: nothing more can be said.
        if r.is_err() {
            break;
        }
    }
}

/// Reads frames until the input ends or a frame is broken.
fn read_loop(input: &mut impl BufRead, to_server: &Sender<Message>, errors: &Sender<Out>) {
    loop {
        let body = match read_frame(input) {
            Ok(Some(Frame::Body(b))) => b,
            Ok(Some(Frame::TooLarge(n))) => {
                let _ = errors.send(Out::ParseError(format!(
                    "a message of {n} bytes is more than the server reads"
                )));
                continue;
            }
            Ok(None) | Err(_) => return,
        };
        match serde_json::from_slice::<Message>(&body) {
            Ok(m) => {
                let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                if to_server.send(m).is_err() || exit {
                    return;
                }
            }
            Err(e) => {
                let _ = errors.send(Out::ParseError(format!("not a JSON-RPC message: {e}")));
            }
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    /// A body past [`MOST_BODY`], skipped.
    TooLarge(usize),
}

/// One frame: its headers (only `Content-Length` matters) and body. `None` at the end of input
/// between frames; an error for a frame that cannot be read.
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length = None;
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        // A header line longer than this is no header.
        let n = input.by_ref().take(8192).read_until(b'\n', &mut line)?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        first = false;
        let text = std::str::from_utf8(&line).map_err(|_| io::ErrorKind::InvalidData)?;
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        let (name, value) = text.split_once(':').ok_or(io::ErrorKind::InvalidData)?;
        if name.trim().eq_ignore_ascii_case("content-length") {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| io::ErrorKind::InvalidData)?,
            );
        }
    }
    let length = length.ok_or(io::ErrorKind::InvalidData)?;
    if length > MOST_BODY {
        let skipped = io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        if skipped < length as u64 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        return Ok(Some(Frame::TooLarge(length)));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(Frame::Body(body)))
}
