//! `loony kernel`: the wire format against HMAC's published vectors, the kernelspec as
//! Jupyter reads it, and the running kernel driven by Jupyter's own client (jupyter_client,
//! nbclient, nbformat, pinned; `scripts/install-jupyter-client.sh` makes their venv once):
//! the tour notebook's outputs against `loony -e`, errors, plots, completion, inspection and
//! interrupts (`tests/kernel/drive.py` says what each check is).

use bytes::Bytes;
use loony::kernel::connection::Connection;
use loony::kernel::display::{error_content, error_parts, strip_ansi};
use loony::kernel::spec;
use loony::kernel::wire::{Message, Signer, WireError, civil_from_days, decode, encode};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn sample() -> Message {
    Message {
        identities: vec![Bytes::from_static(b"peer")],
        header: json!({"msg_id": "1", "msg_type": "execute_request"}),
        parent_header: json!({}),
        metadata: json!({}),
        content: json!({"code": "*2 + *3"}),
        buffers: vec![],
    }
}

#[test]
fn kernel_a_signed_message_decodes_back() {
    let s = Signer::new("secret");
    let frames = encode(&sample(), &s);
    assert_eq!(frames[1].as_ref(), b"<IDS|MSG>");
    assert_eq!(decode(frames, &s), Ok(sample()));
}

#[test]
fn kernel_a_wrong_key_or_a_changed_frame_is_refused() {
    let frames = encode(&sample(), &Signer::new("secret"));
    assert_eq!(
        decode(frames.clone(), &Signer::new("other")),
        Err(WireError::BadSignature)
    );
    let mut changed = frames.clone();
    let last = changed.len() - 1;
    changed[last] = Bytes::from_static(br#"{"code": "*3"}"#);
    assert_eq!(
        decode(changed, &Signer::new("secret")),
        Err(WireError::BadSignature)
    );
    let mut not_hex = frames;
    not_hex[2] = Bytes::from_static(b"zz");
    assert_eq!(
        decode(not_hex, &Signer::new("secret")),
        Err(WireError::BadSignature)
    );
}

#[test]
fn kernel_signatures_are_hmac_sha256_in_hex() {
    // RFC 4231, test case 2: the key "Jefe", the data in two frames.
    let s = Signer::new("Jefe");
    assert_eq!(
        s.sign(&[b"what do ya want ", b"for nothing?"]),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
    // An empty key means no signing: empty signatures, and every signature passes.
    assert_eq!(Signer::new("").sign(&[b"x"]), "");
    assert!(Signer::new("").verify(b"anything", &[b"x"]));
}

#[test]
fn kernel_malformed_messages_are_errors_not_panics() {
    let s = Signer::new("");
    assert_eq!(
        decode(vec![Bytes::from_static(b"x")], &s),
        Err(WireError::NoDelimiter)
    );
    let short = vec![Bytes::from_static(b"<IDS|MSG>"), Bytes::from_static(b"")];
    assert_eq!(decode(short, &s), Err(WireError::TooFewFrames(1)));
    let mut frames = encode(&sample(), &s);
    frames[3] = Bytes::from_static(b"[1]");
    assert!(matches!(
        decode(frames.clone(), &s),
        Err(WireError::BadJson {
            which: "header",
            ..
        })
    ));
    frames[3] = Bytes::from_static(b"{not json");
    assert!(decode(frames, &s).is_err());
}

#[test]
fn kernel_header_dates_are_gregorian() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(19_723), (2024, 1, 1));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(civil_from_days(-1), (1969, 12, 31));
}

#[test]
fn kernel_connection_files_are_checked() {
    let text = r#"{"transport": "tcp", "ip": "127.0.0.1", "shell_port": 1, "iopub_port": 2,
        "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": "k",
        "signature_scheme": "hmac-sha256", "kernel_name": "loony"}"#;
    let c = Connection::parse(text).expect("a valid file");
    assert_eq!(c.endpoint(c.hb_port), "tcp://127.0.0.1:5");
    let ipc = text.replace("\"tcp\"", "\"ipc\"");
    assert!(Connection::parse(&ipc).unwrap_err().contains("ipc"));
    let md5 = text.replace("hmac-sha256", "hmac-md5");
    assert!(Connection::parse(&md5).unwrap_err().contains("hmac-md5"));
    assert!(Connection::parse("{}").is_err());
}

#[test]
fn kernel_errors_are_taken_apart_from_the_coloured_diagnostic() {
    let coloured = "\u{1b}[0m\u{1b}[1m\u{1b}[38;5;9merror[E0101]\u{1b}[0m\u{1b}[1m: unknown name \
                    `frob`\u{1b}[0m\n  \u{1b}[0m\u{1b}[36m┌─\u{1b}[0m <repl:1>:1:1\n";
    assert_eq!(
        strip_ansi(coloured),
        "error[E0101]: unknown name `frob`\n  ┌─ <repl:1>:1:1\n"
    );
    assert_eq!(
        error_parts(coloured),
        ("E0101".to_string(), "unknown name `frob`".to_string())
    );
    let c = error_content(coloured);
    assert_eq!(c["traceback"].as_array().map(Vec::len), Some(2));
    assert_eq!(error_parts("odd text").0, "Error");
}

#[test]
fn kernel_a_session_renders_diagnostics_in_colour_only_when_asked() {
    let mut s = loony::repl::Session::new();
    let plain = s.eval("frob(1)");
    s.ansi = true;
    let coloured = s.eval("frob(1)");
    let (loony::repl::Reply::Error(p), loony::repl::Reply::Error(c)) = (&plain[0], &coloured[0])
    else {
        panic!("errors expected: {plain:?} {coloured:?}");
    };
    assert!(!p.contains('\u{1b}') && c.contains("\u{1b}["));
    // Apart from the colours and the input's number, the same diagnostic.
    assert_eq!(strip_ansi(c), p.replace("<repl:1>", "<repl:2>"));
}

fn loony() -> Command {
    Command::new(env!("CARGO_BIN_EXE_loony"))
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("kernel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn kernel_install_writes_a_kernelspec_and_uninstall_removes_it() {
    let prefix = scratch("spec");
    run_ok(loony().args(["kernel", "install", "--prefix"]).arg(&prefix));
    let dir = prefix.join("share/jupyter/kernels/loony");
    let spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("kernel.json")).expect("kernel.json"))
            .expect("JSON");
    let exe = Path::new(env!("CARGO_BIN_EXE_loony"))
        .canonicalize()
        .unwrap();
    assert_eq!(
        spec["argv"],
        json!([exe, "kernel", "--connection-file", "{connection_file}"])
    );
    assert_eq!(spec["language"], "loony");
    assert_eq!(spec["interrupt_mode"], "signal");
    let png = std::fs::read(dir.join("logo-64x64.png")).expect("a logo");
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let info = decoder.read_info().expect("a PNG").info().clone();
    assert_eq!((info.width, info.height), (64, 64));
    roxmltree::Document::parse(spec::LOGO_SVG).expect("the SVG logo parses");

    // --user honours JUPYTER_DATA_DIR.
    let data = scratch("data");
    run_ok(
        loony()
            .args(["kernel", "install", "--user"])
            .env("JUPYTER_DATA_DIR", &data),
    );
    assert!(data.join("kernels/loony/kernel.json").is_file());
    run_ok(
        loony()
            .args(["kernel", "uninstall"])
            .env("JUPYTER_DATA_DIR", &data),
    );
    assert!(!data.join("kernels/loony").exists());

    run_ok(
        loony()
            .args(["kernel", "uninstall", "--prefix"])
            .arg(&prefix),
    );
    assert!(!dir.exists());
    let again = loony()
        .args(["kernel", "uninstall", "--prefix"])
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(!again.status.success());
}

#[test]
fn kernel_a_file_named_kernel_is_still_a_script() {
    let d = scratch("file");
    std::fs::write(d.join("kernel"), "*2 + *3\n").unwrap();
    assert_eq!(run_ok(loony().arg("kernel").current_dir(&d)), "*\n");
}

#[test]
fn kernel_without_a_connection_file_says_what_it_needs() {
    let out = loony().arg("kernel").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--connection-file"));
    let bad = scratch("conn").join("connection.json");
    std::fs::write(&bad, "{\"transport\": \"tcp\"}").unwrap();
    let out = loony()
        .args(["kernel", "--connection-file"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("connection file"));
}

/// The venv's python with the pinned client; panics (so the test fails) when it cannot be
/// installed.
fn jupyter_python() -> PathBuf {
    crate::common::venv_python("install-jupyter-client.sh", "PyPI, python3 and venv")
}

#[test]
fn kernel_runs_under_jupyters_own_client() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = jupyter_python();
    let prefix = scratch("jupyter");
    run_ok(loony().args(["kernel", "install", "--prefix"]).arg(&prefix));
    let started = std::time::Instant::now();
    let out = Command::new(python)
        .arg(root.join("tests/kernel/drive.py"))
        .arg("check")
        .arg(root.join("examples/tour.cgt"))
        .arg(root.join("examples/tour.ipynb"))
        // Only this kernelspec, and nothing of the user's Jupyter setup.
        .env("JUPYTER_PATH", prefix.join("share/jupyter"))
        .env("JUPYTER_DATA_DIR", prefix.join("data"))
        .env("JUPYTER_RUNTIME_DIR", prefix.join("runtime"))
        .env("JUPYTER_CONFIG_DIR", prefix.join("config"))
        .env("LOONY", env!("CARGO_BIN_EXE_loony"))
        .output()
        .expect("python runs");
    let stdout = crate::common::succeeded(&out, "the kernel checks");
    assert!(stdout.contains("all kernel checks passed"), "{stdout}");
    eprintln!("{stdout}(driver: {:.1} s)", started.elapsed().as_secs_f64());
}
