//! `loony sweep`: a census's lines agree with the language run alone and with published
//! periods, shards merge to the unsharded sweep, a killed sweep resumes to the same lines, and
//! a job past its limits is a line of its own.

use loony::eval::Interp;
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("loony-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `loony sweep ARGS` in `dir()`: (stdout, stderr), asserting success.
fn sweep(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .arg("sweep")
        .args(args)
        .current_dir(dir())
        .output()
        .expect("runs");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    assert!(out.status.success(), "sweep {args:?}: {e}");
    (o, e)
}

/// Code → (status, result) of a file's lines (times and memory differ from run to run).
fn results(text: &str) -> BTreeMap<String, (String, Value)> {
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            (
                v["code"].as_str().unwrap().to_string(),
                (
                    v["status"].as_str().unwrap().to_string(),
                    v["result"].clone(),
                ),
            )
        })
        .collect()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// Period and preperiod of `periodicity(heap(code), heaps)` in this process.
fn alone(code: &str, heaps: u64) -> (Value, Value) {
    let code = code.to_string();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut interp = Interp::new();
            interp.cx.out.json = true;
            let mut lines = Vec::new();
            interp
                .run(
                    "p.cgt",
                    &format!("periodicity(heap(\"{code}\"), {heaps})"),
                    &mut |s| lines.push(s),
                )
                .unwrap();
            let v: Value = serde_json::from_str(&lines[0]).unwrap();
            (v["period"].clone(), v["preperiod"].clone())
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn octal_2_agrees_with_the_language_and_guy_smith() {
    sweep(&["octal:2", "--task", "periodicity:3000", "--out", "o2.jsonl"]);
    let r = results(&read("o2.jsonl"));
    assert_eq!(r.len(), 56, "7·8 two-digit codes");
    for (code, (status, result)) in &r {
        assert_eq!(status, "ok", "{code}");
        assert_eq!(
            (result["period"].clone(), result["preperiod"].clone()),
            alone(code, 3000),
            "{code}"
        );
    }
    // Guy and Smith: Dawson's Kayles (0.07) and Kayles (0.77) have periods 34 and 12.
    assert_eq!(r["0.07"].1["period"], 34);
    assert_eq!(r["0.77"].1["period"], 12);
    assert_eq!(r["0.77"].1["preperiod"], 71);
    assert_eq!(r["0.77"].1["certified"], true);
    let report = sweep(&["report", "o2.jsonl"]).0;
    assert!(
        report.contains("| 0.77 | ok | 12 | 71 | true |"),
        "{report}"
    );
    assert!(report.ends_with("56 games: 56 ok\n"), "{report}");
}

#[test]
#[ignore = "slow tier: .ci/run runs it; cargo test -- --ignored"]
fn octal_3_agrees_with_the_language_run_alone() {
    sweep(&["octal:3", "--task", "periodicity:2000", "--out", "o3.jsonl"]);
    let r = results(&read("o3.jsonl"));
    assert_eq!(r.len(), 448, "7·8² three-digit codes");
    for (code, (status, result)) in &r {
        assert_eq!(status, "ok", "{code}");
        assert_eq!(
            (result["period"].clone(), result["preperiod"].clone()),
            alone(code, 2000),
            "{code}"
        );
    }
    // Guy and Smith: 0.137 (Dawson's chess is 0.137) has period 34, as 0.07.
    assert_eq!(r["0.137"].1["period"], 34);
}

#[test]
fn shards_merge_to_the_whole_and_a_killed_sweep_resumes() {
    let task = ["--task", "periodicity:500", "--jobs", "2"];
    let whole = {
        let mut a = vec!["octal:2", "--out", "whole.jsonl"];
        a.extend(task);
        sweep(&a);
        results(&read("whole.jsonl"))
    };
    let mut names = Vec::new();
    for i in 0..4 {
        let (shard, out) = (format!("{i}/4"), format!("s{i}.jsonl"));
        let mut a = vec!["octal:2", "--shard", &shard, "--out", &out];
        a.extend(task);
        sweep(&a);
        names.push(out);
    }
    let mut merge = vec!["merge"];
    merge.extend(names.iter().map(String::as_str));
    let (merged, note) = sweep(&merge);
    assert_eq!(results(&merged), whole);
    assert!(note.contains("56 codes of octal:2, none missing"), "{note}");
    // Each code in exactly one shard.
    let sizes: Vec<usize> = names.iter().map(|n| read(n).lines().count()).collect();
    assert_eq!(sizes.iter().sum::<usize>(), 56, "{sizes:?}");
    // Killed halfway, in the middle of writing a line: resumed, the same results.
    let text = read("whole.jsonl");
    let cut = text.len() / 2;
    std::fs::write(dir().join("killed.jsonl"), &text[..cut]).unwrap();
    let mut a = vec!["octal:2", "--out", "killed.jsonl", "--resume"];
    a.extend(task);
    sweep(&a);
    let resumed = read("killed.jsonl");
    assert_eq!(results(&resumed), whole);
    assert_eq!(resumed.lines().count(), 56, "no code twice");
    // A merge of the shard files with the whole drops the duplicates.
    let (twice, _) = sweep(&["merge", "whole.jsonl", "s0.jsonl", "s1.jsonl"]);
    assert_eq!(twice.lines().count(), 56);
}

#[test]
fn a_job_past_its_limits_is_a_line_and_the_next_runs() {
    // 0.3122 has no finite Q_7 (Weimerskirch): its quotient grows until a limit stops it.
    std::fs::write(dir().join("codes.txt"), "# two games\n0.3122\n0.75\n").unwrap();
    sweep(&[
        "@codes.txt",
        "--task",
        "quotient",
        "--job-time",
        "1s",
        "--jobs",
        "1",
        "--out",
        "t.jsonl",
    ]);
    let r = results(&read("t.jsonl"));
    assert_eq!(r["0.3122"].0, "timeout");
    assert_eq!(r["0.75"].0, "ok");
    assert_eq!(r["0.75"].1["order"], 8, "R8");
    assert_eq!(r["0.75"].1["p_count"], 2);
    sweep(&[
        "@codes.txt",
        "--task",
        "quotient",
        "--job-memory",
        "64M",
        "--out",
        "m.jsonl",
    ]);
    let text = read("m.jsonl");
    let r = results(&text);
    assert_eq!(r["0.3122"].0, "memory", "{text}");
    assert!(text.contains("\"code\":\"E0404\""), "{text}");
    assert_eq!(r["0.75"].0, "ok");
}

#[test]
fn bad_families_and_tasks_are_refused() {
    for (args, says) in [
        (vec!["octal:0", "--task", "periodicity"], "out of range"),
        (vec!["binary:2", "--task", "periodicity"], "unknown family"),
        (vec!["octal:2", "--task", "nimbers"], "unknown task"),
        (
            vec!["octal:2", "--task", "periodicity", "--shard", "4/4"],
            "I/N",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_loony"))
            .arg("sweep")
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn four_shards_under_gnu_parallel_merge_to_the_whole() {
    // Debian's GNU parallel, pinned, installed by the project's script when missing.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/install-test-tools.sh");
    let installed = Command::new("bash")
        .arg(script)
        .output()
        .expect("bash runs");
    assert!(
        installed.status.success(),
        "scripts/install-test-tools.sh could not install GNU parallel: {}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let task = ["--task", "periodicity:400", "--jobs", "1"];
    let mut a = vec!["octal:2", "--out", "gnu-whole.jsonl"];
    a.extend(task);
    sweep(&a);
    let whole = results(&read("gnu-whole.jsonl"));
    // `--sshlogin :` runs the shards on this machine, as a login file of nodes would elsewhere.
    let out = Command::new("parallel")
        .args([
            "--will-cite",
            "--halt",
            "now,fail=1",
            "--sshlogin",
            ":",
            "-j",
            "2",
        ])
        .arg(env!("CARGO_BIN_EXE_loony"))
        .args([
            "sweep",
            "octal:2",
            "--shard",
            "{}/4",
            "--out",
            "gnu-{}.jsonl",
        ])
        .args(task)
        .args([":::", "0", "1", "2", "3"])
        .current_dir(dir())
        .output()
        .expect("parallel runs");
    assert!(
        out.status.success(),
        "parallel: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (merged, note) = sweep(&[
        "merge",
        "gnu-0.jsonl",
        "gnu-1.jsonl",
        "gnu-2.jsonl",
        "gnu-3.jsonl",
    ]);
    assert_eq!(results(&merged), whole);
    assert!(note.contains("none missing"), "{note}");
}

/// The nimber of a game on a bit mask, by the brute force of `crate::brute`: a move needs
/// the first mask of a pair wholly free and clears the second (a Cram domino clears itself,
/// a Node Kayles vertex its closed neighbourhood).
fn mask_nimber(free: u64, moves: &[(u64, u64)]) -> u32 {
    let (need, take): (Vec<u64>, Vec<u64>) = moves.iter().copied().unzip();
    crate::brute::MaskGame::new(need).grundy(free, &take)
}

fn nim_text(v: u32) -> Value {
    match v {
        0 => Value::from(0),
        1 => Value::from("*"),
        v => Value::from(format!("*{v}")),
    }
}

/// Board families: Cram's values and Node Kayles's outcomes agree with a brute force over
/// bit masks written here, each board once (turned boards are the same game), and a sweep
/// resumed after its file lost lines ends with the same lines.
#[test]
fn board_families_agree_with_a_brute_force() {
    sweep(&["cram:1-3:1-6", "--task", "value", "--out", "cram.jsonl"]);
    let r = results(&read("cram.jsonl"));
    // 1×1..6, 2×2..6, 3×3..6: turned boards once.
    assert_eq!(r.len(), 6 + 5 + 4, "{:?}", r.keys());
    for rows in 1..=3u32 {
        for cols in rows..=6u32 {
            let mut moves = Vec::new();
            for i in 0..rows * cols {
                let d = if (i % cols) + 1 < cols {
                    vec![1]
                } else {
                    vec![]
                };
                let down = if i + cols < rows * cols {
                    vec![cols]
                } else {
                    vec![]
                };
                for step in d.into_iter().chain(down) {
                    let m = 1u64 << i | 1 << (i + step);
                    moves.push((m, m));
                }
            }
            let v = mask_nimber((1 << (rows * cols)) - 1, &moves);
            let code = format!("cram({rows:02}, {cols:02})");
            assert_eq!(
                r[&code],
                (
                    "ok".to_string(),
                    serde_json::json!({ "value": nim_text(v) })
                ),
                "{code}"
            );
        }
    }
    // Node Kayles on the documented random graphs (a 64-bit LCG, Knuth's constants, its high
    // bits; edges drawn until 15 are distinct).
    sweep(&[
        "node-kayles:10:15:6",
        "--task",
        "outcome",
        "--out",
        "nk.jsonl",
    ]);
    let r = results(&read("nk.jsonl"));
    assert_eq!(r.len(), 6);
    for seed in 1..=6u64 {
        let mut s = seed;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        let mut closed = [0u64; 10];
        for (v, c) in closed.iter_mut().enumerate() {
            *c = 1 << v;
        }
        let mut edges = std::collections::BTreeSet::new();
        while edges.len() < 15 {
            let (a, b) = (next() % 10, next() % 10);
            if a != b {
                edges.insert((a.min(b), a.max(b)));
            }
        }
        for (a, b) in edges {
            closed[a as usize] |= 1 << b;
            closed[b as usize] |= 1 << a;
        }
        let moves: Vec<(u64, u64)> = (0..10).map(|v| (1 << v, closed[v])).collect();
        let v = mask_nimber((1 << 10) - 1, &moves);
        let code = format!("node-kayles(10, 15, seed {seed:06})");
        let want = if v == 0 { "P" } else { "N" };
        assert_eq!(
            r[&code],
            ("ok".to_string(), serde_json::json!({ "outcome": want })),
            "{code}"
        );
    }
    // Resume: drop the last four lines; the resumed file has every board again, once.
    let whole = read("cram.jsonl");
    let kept: Vec<&str> = whole.lines().take(11).collect();
    std::fs::write(dir().join("cram.jsonl"), kept.join("\n") + "\n").unwrap();
    sweep(&[
        "cram:1-3:1-6",
        "--task",
        "value",
        "--out",
        "cram.jsonl",
        "--resume",
    ]);
    assert_eq!(results(&read("cram.jsonl")), results(&whole));
    assert_eq!(read("cram.jsonl").lines().count(), 15);
}
