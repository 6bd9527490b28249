//! `write_sequence` and `read_sequence`: a streamed file holds exactly the nim-sequence, in
//! both formats and from every path that computes it (the record kernel, the sequential and
//! general kernels, a certified period, a ruleset), and a stopped one says it is partial.

use crate::common::run_named;
use loony::eval::Interp;
use loony::theory::heap::{Code, Control, HeapRules};
use std::sync::atomic::Ordering;
use std::time::Duration;

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("loony-seqfiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

/// The values in a file, read here rather than by `read_sequence`.
fn values_in(path: &str) -> (Vec<u32>, bool) {
    let bytes = std::fs::read(path).unwrap();
    if path.ends_with(".u16") {
        assert_eq!(&bytes[..8], b"LOONYSEQ");
        let complete = bytes[12] & 1 == 1;
        let v = bytes[32..]
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
            .collect();
        return (v, complete);
    }
    let text = String::from_utf8(bytes).unwrap();
    let complete = !text.lines().any(|l| l.starts_with("# partial"));
    let v = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect();
    (v, complete)
}

fn plain(code: &str, n: usize) -> Vec<u32> {
    let rules = HeapRules::from(Code::parse(code).unwrap());
    rules.nim_sequence(n, &Control::default()).unwrap()
}

#[test]
fn a_streamed_file_holds_the_sequence() {
    // 0.6 and 4!.0 past 2^16 go through the record kernel, 0.166 through the sequential one,
    // 4.7 the general one, and 0.07's certified period writes most of its heaps.
    for (code, n) in [
        ("0.6", 70_000),
        ("4!.0", 70_000),
        ("0.166", 5_000),
        ("4.7", 3_000),
        ("0.07", 300_000),
    ] {
        let want = if code == "0.07" {
            // Dawson's kayles: period 34 from heap 52 (Guy–Smith), extended past 2000 heaps
            // computed plainly (the kernel alone is quadratic in 0.07).
            let mut v = plain(code, 2000);
            for k in v.len()..=n {
                v.push(v[k - 34]);
            }
            v
        } else {
            plain(code, n)
        };
        for ext in ["txt", "u16"] {
            let path = temp(&format!("{code}.{ext}"));
            let out = run_named(
                "w.cgt",
                &format!(
                    "write_sequence(heap(\"{code}\"), {n}, \"{path}\").heaps\n\
                     read_sequence(\"{path}\") == nim_sequence(heap(\"{code}\"), {n})"
                ),
            );
            assert_eq!(out, format!("{}\ntrue\n", n + 1), "{code}.{ext}");
            let (got, complete) = values_in(&path);
            assert!(complete, "{code}.{ext}");
            assert_eq!(got.len(), want.len(), "{code}.{ext}");
            assert!(got == want, "{code}.{ext}: values differ");
            std::fs::remove_file(&path).unwrap();
        }
    }
}

#[test]
fn ranges_and_rulesets_stream_too() {
    let path = temp("r.txt");
    let out = run_named(
        "w.cgt",
        &format!(
            "ruleset s(n) {{ for k in [1, 3, 4] if k <= n => s(n - k) }}\n\
             write_sequence(s, 10..30, \"{path}\").last\n\
             let r = read_sequence(\"{path}\")\n\
             r == nim_sequence(subtraction([1, 3, 4]), 10..30)"
        ),
    );
    assert_eq!(out, "29\ntrue\n");
    // Subtraction {1, 3, 4}: period 7, values 0 1 0 1 2 3 2.
    let (got, _) = values_in(&path);
    let want: Vec<u32> = (10..30).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
    assert_eq!(got, want);
}

#[test]
fn ctrl_c_leaves_a_partial_file() {
    let path = temp("stopped.txt");
    let src = format!("write_sequence(heap(\"0.6\"), 2^31 - 1, \"{path}\")");
    let (err, after) = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            let flag = interp.cx.limits.interrupt.clone();
            let waker = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(1500));
                flag.store(true, Ordering::Relaxed);
            });
            let err = interp
                .run("long.cgt", &src, &mut |_| {})
                .expect_err("interrupted");
            waker.join().unwrap();
            let mut after = String::new();
            interp
                .run("after.cgt", "*2 + *3", &mut |s| after = s)
                .expect("the session goes on");
            (err.render_plain(&interp.cx.files), after)
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(err.contains("E0501"), "{err}");
    assert!(err.contains("and is marked partial"), "{err}");
    assert_eq!(after, "*");
    let (got, complete) = values_in(&path);
    assert!(!complete);
    assert!(got.len() > 1000, "{} heaps written", got.len());
    assert!(
        got == plain("0.6", got.len() - 1),
        "the heaps written are right"
    );
    let out = run_named("r.cgt", &format!("len(read_sequence(\"{path}\"))"));
    assert!(out.starts_with(&format!("{}\n", got.len())), "{out}");
    assert!(out.contains("warning[W0003]"), "{out}");
    std::fs::remove_file(&path).unwrap();
}

/// A nim-sequence is held packed (one to four bytes a heap); read by index, slice, `len` and
/// `for`, it gives the kernel's values as a plain list of them, on codes drawn at random.
#[test]
fn packed_sequences_read_as_the_kernel_values() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut digit = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 8) as u8
    };
    let mut codes: Vec<String> = (0..12)
        .map(|_| format!("0.{}{}{}", digit(), digit(), 1 + digit() % 7))
        .collect();
    // Values past 255 (two bytes a heap) and the record kernel's own array.
    codes.push("4!.0".into());
    for code in codes {
        let n = if code == "4!.0" { 70_000 } else { 2_000 };
        let want = plain(&code, n);
        let list = |v: &[u32]| {
            let items: Vec<String> = v.iter().map(u32::to_string).collect();
            format!("[{}]", items.join(", "))
        };
        let (a, b) = (n / 3, n / 2);
        let out = run_named(
            "p.cgt",
            &format!(
                "let s = nim_sequence(heap(\"{code}\"), {n})\n\
                 len(s)\n\
                 s[{a}]\n\
                 [v for (k, v) in s[{a}..{b}]]\n\
                 [k for (k, v) in s if k % 1000 == 999]\n\
                 sum([v for (k, v) in s])"
            ),
        );
        let every: Vec<u32> = (0..=n as u32).filter(|k| k % 1000 == 999).collect();
        let expected = format!(
            "{}\n{}\n{}\n{}\n{}\n",
            n + 1,
            want[a],
            list(&want[a..b]),
            list(&every),
            want.iter().map(|&v| u64::from(v)).sum::<u64>()
        );
        assert_eq!(out, expected, "{code}");
    }
}
