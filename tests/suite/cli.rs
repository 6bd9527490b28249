//! The `loony` binary's public contract: -e, scripts, exit codes, --ascii, --json, piped stdin.

use std::io::Write;
use std::process::{Command, Stdio};

fn loony(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_loony"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run loony");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn eval_prints_each_result() {
    let (out, err, code) = loony(&["-e", "*2 + *3\nlet x = *4\nx\n{ | }"], None);
    assert_eq!(out, "*\n*4\n0\n");
    assert_eq!(err, "");
    assert_eq!(code, 0);
}

#[test]
fn error_exits_1_and_keeps_printed_results() {
    let (out, err, code) = loony(&["-e", "*2\nnope\n*3"], None);
    assert_eq!(out, "*2\n");
    assert!(err.contains("error[E0101]: unknown name `nope`"), "{err}");
    assert_eq!(code, 1);
}

#[test]
fn ascii_spellings() {
    let (out, _, _) = loony(&["--ascii", "-e", "{∞ | ∞̄}\n∞\n-inf\n*2"], None);
    assert_eq!(out, "moon\ninf\n-inf\n*2\n");
    let (out, _, _) = loony(&["-e", "moon\ninf\n-inf"], None);
    assert_eq!(out, "☾\n∞\n∞̄\n");
}

#[test]
fn json_output() {
    let (out, _, code) = loony(
        &[
            "--json",
            "-e",
            "nim_sequence(heap(\"0.77\"), 0..5)\n[*2, 3]\nperiodicity(subtraction([1, 3, 4])).period",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(out, "{\"start\":0,\"values\":[0,1,2,3,1]}\n[\"*2\",3]\n7\n");
}

#[test]
fn script_file_and_missing_file() {
    let (out, _, code) = loony(&["examples/nim.cgt"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("[0, *, *2"), "{out}");
    let (_, err, code) = loony(&["no/such/file.cgt"], None);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn piped_stdin_is_a_repl_session() {
    let input = "let g = {0, *\n  | 0, *}\ng + *\nnope\ng\n:budget 7\n";
    let (out, err, code) = loony(&[], Some(input));
    assert_eq!(out, "*3\n*2\nposition budget: 7\n");
    assert!(err.contains("unknown name `nope`"), "{err}");
    assert_eq!(code, 1);
}

#[test]
fn ascii_spells_loopy_values_and_special_moons() {
    let src = "inf(1,2,3)\ninf(0) + inf(1)\nmoon(3) + *1\n∞(∅)\n⟫(2) + inf(0,1)\noutcome(a{a | a})";
    let (out, err, code) = loony(&["--ascii", "-e", src], None);
    assert_eq!(out, "inf(1,2,3)\ninf()\nmoon(2)\ninf()\ninf(2,3)\nD\n");
    assert_eq!((err.as_str(), code), ("", 0));
    let (out, _, _) = loony(&["-e", src], None);
    assert_eq!(out, "∞(1,2,3)\n∞(∅)\n⟫(2)\n∞(∅)\n∞(2,3)\nD\n");
}

#[test]
fn misere_values_as_json_and_in_help() {
    let (out, _, code) = loony(
        &[
            "--json",
            "-e",
            "[*[[2], 0], genus(*[[2], 0]), misere_outcome(*2 + *2)]",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(out, "[\"*[2#0]\",\"1^2\",\"P\"]\n");
    // `:help` names every built-in.
    let (out, _, _) = loony(&[], Some(":help\n"));
    let words: Vec<&str> = out
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for b in loony::eval::catalog::BUILTINS {
        assert!(words.contains(&b.name), "{} missing from :help", b.name);
    }
}

#[test]
fn a_full_stderr_still_exits_1() {
    // Writing the diagnostic to a full device once panicked (exit 101).
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full on this system
    };
    let status = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["-e", "nope"])
        .stdout(Stdio::null())
        .stderr(full)
        .status()
        .expect("run loony");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn piped_invalid_utf8_is_reported_and_the_rest_runs() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"let a = *3\na\n\xff\xfe\na + *1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "*3\n*2\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[E0009]: line 3 is not valid UTF-8"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_script_with_invalid_utf8_names_line_and_byte() {
    let dir = std::env::temp_dir().join(format!("loony-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.cgt");
    std::fs::write(&path, b"*1\n*2 + \xc3(\n").unwrap();
    let (_, err, code) = loony(&[path.to_str().unwrap()], None);
    assert!(
        err.contains("error[E0009]: line 2 is not valid UTF-8 (at byte 6 of the line)"),
        "{err}"
    );
    assert!(err.contains("bad.cgt:2:6"), "{err}");
    assert_eq!(code, 1);
    let (_, err, code) = loony(&[dir.join("missing.cgt").to_str().unwrap()], None);
    assert!(err.starts_with("error[E0303]: cannot read"), "{err}");
    assert_eq!(code, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn memory_flag_sets_the_budget() {
    let (_, err, code) = loony(&["--memory", "64M", "-e", "len(0..100000000)"], None);
    assert!(err.contains("error[E0213]"), "{err}");
    assert!(err.contains("budget of 64 MiB"), "{err}");
    assert_eq!(code, 1);
    let (_, err, code) = loony(&["--memory", "lots", "-e", "0"], None);
    assert!(err.contains("not a size"), "{err}");
    assert_eq!(code, 2);
}

/// `rare_values` and `write_sequence` reserve what their kernel holds: two bytes a heap where
/// the record kernel takes the game (Grundy's game), four where it cannot (0.77 has two
/// splitting moves). Four for every game refused Grundy's game at 2^32 under the default
/// budget (11.8 GiB on a 24 GB machine), which two bytes a heap (8 GiB) fits.
#[test]
fn a_record_run_reserves_two_bytes_a_heap() {
    // 2^21 heaps: 4 MiB at two bytes a heap, 8 MiB at four, over the budget (the session
    // itself holds one to two).
    let budget = ["--memory", "7M", "-e"];
    let run = |src: &str| loony(&[&budget[..], &[src]].concat(), None);
    let (out, err, code) = run("rare_values(heap(\"4!.0\"), 2^21).count");
    assert_eq!(code, 0, "{err}");
    assert!(out.trim().parse::<u32>().is_ok_and(|n| n > 1000), "{out}");
    let (_, err, code) = run("rare_values(heap(\"0.77\"), 2^21)");
    assert!(err.contains("error[E0213]"), "{err}");
    assert_eq!(code, 1);
    let dir = std::env::temp_dir().join(format!("loony-reserve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("grundy.u16");
    let src = format!(
        "write_sequence(heap(\"4!.0\"), 2^21, {:?}).heaps",
        file.to_str().unwrap()
    );
    let (out, err, code) = run(&src);
    assert_eq!((out.as_str(), code), ("2097153\n", 0), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn source_may_start_with_a_dash() {
    assert_eq!(
        loony(&["-e", "-*3"], None),
        ("*3\n".into(), String::new(), 0)
    );
    assert_eq!(loony(&["-e", "-1 + 3"], None).0, "2\n");
}

#[test]
fn budget_flag_is_validated_like_the_command() {
    for bad in ["0", "-5", "abc"] {
        let (out, err, code) = loony(&["--budget", bad, "-e", "*1"], None);
        assert_eq!((out.as_str(), code), ("", 2), "--budget {bad}");
        assert!(err.contains("the budget must be"), "{err}");
    }
    // The budget reaches the interpreter: a ruleset of 12 positions runs past a budget of 5.
    let src = "ruleset r(n) { if n > 0 => r(n - 1) }\nr(11)";
    assert_eq!(loony(&["--budget", "20", "-e", src], None).0, "*\n");
    let (_, err, code) = loony(&["--budget", "5", "-e", src], None);
    assert_eq!(code, 1);
    assert!(err.contains("more than 5 positions"), "{err}");
}

#[test]
fn help_shows_defaults_and_repl_commands() {
    let (out, _, code) = loony(&["--help"], None);
    assert_eq!(code, 0);
    assert!(out.contains("[default: 5000000]"), "{out}");
    for command in loony::repl::COMMANDS {
        let shown = command.synopsis();
        assert!(out.contains(&shown), "{shown} missing from --help");
    }
}

#[test]
fn ascii_reaches_explanations_and_diagnostics() {
    let (out, err, code) = loony(
        &[
            "--ascii",
            "-e",
            "explain({inf, 0 | -inf, 0})\nexplain(*2 + {{inf | 0}, 0 | {0 | -inf}, 0})",
        ],
        None,
    );
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "S = {0}, P = nim: inf is an option, so G = moon\n\
         a sum: *2 = *2, {0, {inf | 0} | 0, {0 | -inf}} = moon; nim-sum (moon absorbing) = moon\n"
    );
    for src in [
        "inf + -inf",
        "misere_outcome({inf | 0})",
        "quotient(heap(\"0.3122\"), 2000000)",
    ] {
        let (_, err, code) = loony(&["--ascii", "-e", src], None);
        assert_eq!(code, 1, "{src}");
        assert!(err.starts_with("error[E"), "{err}");
        assert!(
            err.is_ascii(),
            "non-ASCII in the diagnostic of {src}:\n{err}"
        );
    }
    // The REPL's `:ascii on` does the same.
    let (_, err, _) = loony(&[], Some(":ascii on\ninf + -inf\n"));
    assert!(
        err.contains("inf and -inf meet in this sum") && err.is_ascii(),
        "{err}"
    );
}

#[test]
fn json_absent_values_are_null() {
    let src = "periodicity(heap(\"0.6\"), 100)\nquotient(heap(\"0.07\"), 10).name";
    let (out, _, code) = loony(&["--json", "-e", src], None);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"period\":null,\"preperiod\":null,\"last_exceptional\":null,\"saltus\":null,\
         \"certified\":false,\"certified_at\":null,\"checked_up_to\":100}\nnull\n"
    );
    // In the language the absent value is `none`, not `false`.
    let src = "let p = periodicity(heap(\"0.6\"), 100)\np.period\np.period == none\np.period == false\n\
               periodicity(heap(\"0.77\")).period == none";
    assert_eq!(loony(&["-e", src], None).0, "none\ntrue\nfalse\nfalse\n");
}

#[test]
fn json_game_zero_is_always_the_number_0() {
    let src = "[0, { | }, *0, *2 + *2, value(0), heap(\"0.07\")(1), *]\noptions(*1)\n*2 + *2";
    let (out, _, code) = loony(&["--json", "-e", src], None);
    assert_eq!(code, 0);
    assert_eq!(out, "[0,0,0,0,0,0,\"*\"]\n[0]\n0\n");
}

#[test]
fn json_errors_are_objects_on_stderr() {
    let (out, err, code) = loony(&["--json", "-e", "*2\nnope"], None);
    assert_eq!((out.as_str(), code), ("\"*2\"\n", 1));
    assert_eq!(
        err,
        "{\"code\":\"E0101\",\"message\":\"unknown name `nope`\",\"span\":{\"file\":\"<-e>\",\
         \"start\":3,\"end\":7,\"line\":2,\"column\":1,\"end_line\":2,\"end_column\":5},\
         \"label\":\"not defined\",\"notes\":[]}\n"
    );
    // Piped into the REPL, and for a file that cannot be read (no span).
    let (_, err, _) = loony(&["--json"], Some("{0 | *\n"));
    assert!(err.starts_with("{\"code\":\"E0002\",\"message\":\"unclosed `{`\",\"span\":{\"file\":\"<repl:1>\",\"start\":0,\"end\":1,"), "{err}");
    let (_, err, _) = loony(&["--json", "no/such.cgt"], None);
    assert!(
        err.starts_with("{\"code\":\"E0303\",\"message\":\"cannot read `no/such.cgt`: "),
        "{err}"
    );
    assert!(err.contains("\"span\":null"), "{err}");
}

#[test]
fn strings_escape_and_print_quoted_in_lists() {
    let src = r#""say \"hi\"\\"
["a, b", "q\"", ("t\tu",), 1]
"x\ny"
"#;
    let (out, err, code) = loony(&["-e", src], None);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "say \"hi\"\\\n[\"a, b\", \"q\\\"\", (\"t\\tu\",), 1]\nx\ny\n"
    );
    let (_, err, code) = loony(&["-e", r#""bad \q""#], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[E0008]: unknown escape `\\q` in a string"),
        "{err}"
    );
}

#[test]
fn load_expands_home() {
    let home = std::env::temp_dir().join(format!("loony-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("g.cgt"), "*1 + *2\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .env("HOME", &home)
        .env("XDG_STATE_HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b":load ~/g.cgt\n:load \"~/g.cgt\"\n")?;
            c.wait_with_output()
        })
        .unwrap();
    std::fs::remove_dir_all(&home).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "*3\n*3\n");
}

#[test]
fn readme_shows_what_the_tour_prints() {
    let (out, err, code) = loony(&["--echo", "examples/tour.cgt"], None);
    assert_eq!((err.as_str(), code), ("", 0));
    let readme = std::fs::read_to_string("README.md").unwrap();
    let marker = "<!-- tour output:";
    let block = readme
        .split_once(marker)
        .and_then(|(_, rest)| rest.split_once("```text\n"))
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(block, _)| block)
        .expect("the README has the tour's output after the setup");
    assert_eq!(block, out);
    let (plain, _, _) = loony(&["examples/tour.cgt"], None);
    let results: Vec<&str> = out.lines().filter(|l| !l.starts_with("> ")).collect();
    assert_eq!(plain.lines().collect::<Vec<_>>(), results);
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "slow tier (12 s in a test build): .ci/run runs it; cargo test -- --ignored"]
fn a_deep_error_gives_its_stack_back() {
    // Recursing until the 4 GiB stack runs out touches gigabytes of it; after the error the
    // REPL gives those pages back instead of keeping its peak size.
    use std::io::{BufRead, BufReader};
    // A budget past the stack's 4 GiB, so the stack runs out before the budget does.
    // On a busy machine the recursion can pass the statement watch's 15 s: its "still
    // running" line is not what this test reads, so the watch is set to stay quiet.
    let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["--memory", "16G"])
        .env("LOONY_LOG_EVERY", "3600")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"ruleset r(n) { if n > 0 for m in options(r(n - 1)) => 0 }\nr(100000000)\n")
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.contains("error[E0206]"), "{first}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    drop(stdin);
    child.wait().unwrap();
    assert!(rss_kb < 1 << 20, "resident after the error: {rss_kb} kB");
}

#[test]
fn shadowing_warns_on_stderr_and_goes_on() {
    let (out, err, code) = loony(&["-e", "let heap = 3\nheap + 1"], None);
    assert_eq!((out.as_str(), code), ("4\n", 0));
    assert!(
        err.starts_with("warning[W0001]: `heap` shadows the built-in"),
        "{err}"
    );
    assert!(err.contains("<-e>:1:5"), "{err}");
    // Under --json the warning is a JSON object marked as one.
    let (out, err, code) = loony(&["--json", "-e", "let sum = 1\nsum"], None);
    assert_eq!((out.as_str(), code), ("1\n", 0));
    assert!(err.starts_with("{\"code\":\"W0001\""), "{err}");
    assert!(
        err.trim_end().ends_with(",\"severity\":\"warning\"}"),
        "{err}"
    );
    // Piped into the REPL: the warning on stderr, the session goes on, exit 0.
    let (out, err, code) = loony(&[], Some("fn P(x) = x\nP(*2)\n"));
    assert_eq!((out.as_str(), code), ("*2\n", 0));
    assert!(err.contains("warning[W0001]: `P` shadows"), "{err}");
}

/// The call bound counts calls, not nested expressions: a linear recursion a million calls
/// deep fits in the binary's stack (about 2 GB of it, touched once).
#[test]
#[ignore = "slow tier (6 s in a test build): .ci/run runs it; cargo test -- --ignored"]
fn a_million_nested_calls_work() {
    let src = "fn f(n) = if n == 0 then 0 else f(n - 1)\nf(1000000)";
    // The touched stack counts against the memory budget: give it room on any machine.
    let (out, err, code) = loony(&["--memory", "8G", "-e", src], None);
    assert_eq!((out.as_str(), err.as_str(), code), ("0\n", "", 0));
}

#[test]
fn explain_prints_a_code_s_explanation() {
    let (out, err, code) = loony(&["--explain", "E0110"], None);
    assert_eq!((err.as_str(), code), ("", 0));
    assert!(
        out.starts_with("E0110\n\nA range of heaps that gives no heaps"),
        "{out}"
    );
    assert!(out.contains("`0..0` is empty"), "{out}");
    // Lines are broken for a terminal.
    assert!(out.lines().all(|l| l.chars().count() <= 88), "{out}");
    // The code may be written in lower case or without its letter.
    let (out2, _, code) = loony(&["--explain", "e0110"], None);
    assert_eq!((out2.as_str(), code), (out.as_str(), 0));
    let (out3, _, _) = loony(&["--explain", "0110"], None);
    assert_eq!(out3, out);
    // Warnings too; --ascii applies.
    let (out, _, code) = loony(&["--explain", "W0001"], None);
    assert!(out.starts_with("W0001\n\nA `let`"), "{out}");
    assert_eq!(code, 0);
    let (out, _, _) = loony(&["--ascii", "--explain", "E0205"], None);
    assert!(out.contains("inf + -inf") && out.is_ascii(), "{out}");
    // An unknown code is an error, with exit code 2 like a bad argument.
    let (out, err, code) = loony(&["--explain", "E9999"], None);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.contains("`E9999` is not a Loony diagnostic code"),
        "{err}"
    );
}

/// `loony` with stdout going to `/dev/full` (every write fails with "no space left").
#[cfg(target_os = "linux")]
fn loony_to_full(args: &[&str], stdin: Option<&str>) -> (String, i32) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().expect("wait");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A result that cannot be written is an error on stderr and exit code 1 (scripts, `-e`,
/// `--json`, piped sessions and `--explain` alike), never a silent success.
#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_an_error() {
    let dir = std::env::temp_dir().join(format!("loony-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("s.cgt");
    std::fs::write(&script, "*3\n*4\n").unwrap();
    let script = script.to_str().unwrap();
    let runs: [(&[&str], Option<&str>); 5] = [
        (&["-e", "*3"], None),
        (&["--json", "-e", "*3"], None),
        (&[script], None),
        (&[], Some("*3\n*4\n")),
        (&["--explain", "E0110"], None),
    ];
    for (args, stdin) in runs {
        let (err, code) = loony_to_full(args, stdin);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("E0702"), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
    }
    let (err, _) = loony_to_full(&["-e", "*3"], None);
    insta::assert_snapshot!("full_stdout", err);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// When the reader of a pipe goes away (`loony … | head -1`), Loony stops quietly.
#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["-e", "[i for i in 0..200000]\n[i for i in 0..200000]"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

/// `--echo` shows every input, bindings and definitions too, one statement a line.
#[test]
fn echo_shows_every_input() {
    let (out, err, code) = loony(
        &["--echo", "-e", "let x = 3; x + 1\nfn f(n) = n * 2\nf(x)"],
        None,
    );
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "> let x = 3\n> x + 1\n4\n> fn f(n) = n * 2\n> f(x)\n6\n"
    );
}

/// `len` counts a string's characters (not bytes), and `size` how many characters a value
/// prints in, under the session's notation.
#[test]
fn len_of_strings_and_size_of_values() {
    let src = "len(\"abc\")\nlen(\"∞̄☾\")\nsize(moon + *3)\nsize([0, *, *2])\n\
               size(nim_sequence(heap(\"0.07\"), 10))";
    let (out, err, code) = loony(&["-e", src], None);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out, "3\n3\n1\n10\n21\n");
    let (out, _, _) = loony(&["--ascii", "-e", "size(moon)"], None);
    assert_eq!(out, "4\n");
}

/// The peak resident memory of a live process, in kB.
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// `--memory` bounds resident memory, stack included: a recursion a million calls deep (about
/// 3.6 GB of stack in a release build) and nested explorations of a ruleset stop with E0213
/// near the budget, and the session goes on.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_budget_counts_the_stack() {
    use std::io::{BufRead, BufReader};
    for (def, run) in [
        (
            "fn l(n) = if n == 0 then 0 else (l(n - 1), 1)",
            "len(l(1000000))",
        ),
        ("ruleset r(n) { for m in options(r(n - 1)) => 0 }", "r(0)"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
            .args(["--memory", "256M"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run loony");
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{def}\n{run}\n*1 + *2").unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert_eq!(line, "*3\n", "the session goes on after the error");
        let peak = peak_kb(child.id());
        drop(stdin);
        let rest = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&rest.stderr);
        assert!(err.contains("error[E0213]"), "{run}: {err}");
        assert!(
            peak < (256 + 128) << 10,
            "{run}: peak {peak} kB for a 256 MiB budget"
        );
    }
}

/// `loony ARGS` under `ulimit -v KB` (through the shell, which sets the limit for the child).
#[cfg(target_os = "linux")]
fn loony_limited(kb: u64, args: &str) -> (String, String, i32) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kb} && exec \"$0\" {args}"))
        .arg(env!("CARGO_BIN_EXE_loony"))
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The process's own limits decide the default budget and bound `--memory`; a limit too low
/// for the 4 GiB stack runs on a smaller one, with a warning.
#[cfg(target_os = "linux")]
#[test]
fn the_process_limits_shape_the_budget() {
    let (out, err, code) = loony_limited(4_200_000, "-e '*2 + *3'");
    assert_eq!((out.as_str(), code), ("*\n", 0), "{err}");
    assert!(err.starts_with("warning: the address-space limit"), "{err}");
    // A list far past what a 10 GB address space holds is a diagnostic, not an abort.
    let (_, err, code) = loony_limited(10_000_000, "-e 'len([0..100000000 for i in 0..10])'");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[E0213]"), "{err}");
    let (_, err, code) = loony_limited(10_000_000, "--memory 50G -e '*1'");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is more than this process may use"), "{err}");
}

/// Positions of a ruleset the session has replaced print with a prime, so they never read as
/// positions of the new one (`--ascii`: `r'(4)`).
#[test]
fn positions_of_a_replaced_ruleset_are_primed() {
    let src = "ruleset r(n) { if n > 0 => r(n - 1) }\nlet a = r(5)\n\
               ruleset r(n) { if n > 1 => r(n - 2) }\nwinning_moves(a)\nwinning_moves(r(3))\n\
               ruleset r(n) { }\nwinning_moves(a)";
    let (out, err, code) = loony(&["-e", src], None);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(out, "[r′(4)]\n[r(1)]\n[r′′(4)]\n");
    let (out, _, _) = loony(&["--ascii", "-e", src], None);
    assert_eq!(out, "[r'(4)]\n[r(1)]\n[r''(4)]\n");
}

/// Runs `loony -e SRC` off a terminal with `LOONY_LOG_EVERY` set to `every` seconds: the
/// output, its stdout and its stderr.
fn logged(every: &str, src: &str) -> (std::process::Output, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_loony"))
        .env("LOONY_LOG_EVERY", every)
        .args(["-e", src])
        .stdin(Stdio::null())
        .output()
        .expect("run loony");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, err)
}

/// Off a terminal, a statement that runs long says now and then that it is still running (its
/// file and line); a quick one says nothing. `LOONY_LOG_EVERY` sets how often (10 s unless
/// set): a game whose graph takes minutes to build printed nothing until its error.
#[test]
fn a_long_statement_says_it_is_still_running() {
    let (out, stdout, err) = logged(
        "0.05",
        "*2 + *3\nlen([i for i in 0..20000000 if i % 7 == 0])",
    );
    assert_eq!(stdout, "*\n2857143\n");
    assert!(err.contains("<-e>:2: still running ("), "{err}");
    assert!(err.contains("Ctrl-C stops it)"), "{err}");
    assert!(!err.contains("<-e>:1:"), "{err}");
    assert!(out.status.success());
}

/// Off a terminal, a long pruned search writes its table's fill and hit rate now and then,
/// and where it is: its depth, and the option of its root it is looking at.
#[test]
fn a_long_pruned_search_logs_its_table() {
    let (out, stdout, err) = logged("0.01", "import \"std/cram\"\noutcome(cram(3, 11))");
    // 3 × 11 Cram is 0 (Uiterwijk's table; igsolve agrees).
    assert_eq!(stdout, "P\n");
    let line = err
        .lines()
        .find(|l| l.starts_with("pruned search: "))
        .unwrap_or_else(|| panic!("no progress line in {err}"));
    assert!(
        line.contains("entries (") && line.contains("% full)") && line.contains("lookups hit"),
        "{line}"
    );
    // How far it has come: questions open, and the root's question and option.
    assert!(
        line.contains("; depth ") && line.contains(", is it 0: option "),
        "{line}"
    );
    assert!(out.status.success());
}

/// The questions the last `:table` line of `out` counts.
fn questions(out: &str) -> u64 {
    let at = out.rfind(" replaced, ").expect("the table's line") + " replaced, ".len();
    out[at..].split(' ').next().unwrap().parse().unwrap()
}

/// A fresh table file of `name` in the tests' scratch folder.
fn table_file(name: &str) -> String {
    let dir = format!("{}/target/pruned-table-tests", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{dir}/{name}");
    let _ = std::fs::remove_file(&file);
    file
}

/// `--table FILE` saves pruned search's table at the end and loads it at the next start (as
/// its rulesets are defined); a torn file stops the run before anything overwrites it, and a
/// Ctrl-C (SIGINT) that stops a script still saves what it learned.
#[test]
fn the_table_flag_saves_and_loads_the_table() {
    let dir = format!("{}/target/pruned-table-tests", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{dir}/flag.tbl");
    let _ = std::fs::remove_file(&file);
    // 3 × 9 Cram is * (igsolve agrees): an N-position. A board with an even side would be
    // answered by std/cram's half-turn hint, with no search to save.
    let input = "import \"std/cram\"\noutcome(cram(3, 9))\n:table\n";
    let (out, err, code) = loony(&["--table", &file], Some(input));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.starts_with("N\npruned search's table: "), "{out}");
    assert!(questions(&out) > 100, "{out}");
    let (again, err, code) = loony(&["--table", &file], Some(input));
    assert_eq!((code, err.as_str()), (0, ""), "{again}");
    assert!(again.starts_with("N\n"), "{again}");
    assert_eq!(questions(&again), 0, "{again}");
    // A torn file: an error at start, and the file is left as it was.
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let (_, err, code) = loony(&["--table", &file, "-e", "1"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error[E0307]"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap().len(), bytes.len() / 2);
    // Ctrl-C stops a long script, and the table is saved.
    let _ = std::fs::remove_file(&file);
    let script = format!("{dir}/long.cgt");
    std::fs::write(&script, "import \"std/cram\"\ncram(5, 7)\n").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["--table", &file, &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[E0501]"), "{err}");
    let (out, err, code) = loony(
        &["--table", &file],
        Some("import \"std/cram\"\ncram(2, 2)\n:table\n"),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(!out.contains("table: 0 of"), "{out}");
}

/// A `--table` file keeps what it holds of rulesets a session does not define (or defines
/// otherwise) through that session's saves, even a save over the file itself before anything
/// is loaded from it, and a later session that defines them asks no question again.
#[test]
fn a_table_file_carries_what_a_session_does_not_load() {
    let file = table_file("carried.tbl");
    // 3 × 9 Cram is an N-position (igsolve); Node Kayles on a path of 12 vertices is
    // Dawson's Chess, 0.137, heap 12: *2 (OEIS A002187).
    let cram = "import \"std/cram\"\noutcome(cram(3, 9))\n";
    let nk = "import \"std/node_kayles\"\nnode_kayles(12, [(i, i + 1) for i in 0..11])\n";
    let ok = |args: &[&str], input: &str| {
        let (out, err, code) = loony(args, Some(input));
        assert_eq!((code, err.as_str()), (0, ""), "{input}\n{out}");
        out
    };
    let out = ok(&["--table", &file], &format!("{cram}{nk}:table\n"));
    assert!(out.starts_with("N\n*2\n"), "{out}");
    assert!(questions(&out) > 100, "{out}");
    // Cram only: its part is loaded, Node Kayles's is carried to the save at the end.
    let out = ok(&["--table", &file], &format!("{cram}:table\n"));
    assert_eq!(questions(&out), 0, "{out}");
    assert!(out.contains("positions not loaded"), "{out}");
    // Cram defined otherwise: refused (its part carried), and Node Kayles carried too.
    let edited = "ruleset cram_board(b) split by regions(b) {\n  \
                  for (p, q) in adjacent_pairs(b, \".\") => cram_board(set(b, [p, q], \"x\"))\n}\n\
                  cram_board(board(3, 3))\n";
    let (_, err, _) = loony(&["--table", &file], Some(edited));
    assert!(err.contains("error[E0308]"), "{err}");
    // A save over the file before anything is loaded from it, then a search that loads.
    let save = format!("save_table(\"{file}\")\n");
    let out = ok(&["--table", &file], &format!("{save}{nk}:table\n"));
    assert!(out.contains("\n*2\n"), "{out}");
    assert_eq!(questions(&out), 0, "{out}");
    // Both, from the file that all those sessions left.
    let out = ok(&["--table", &file], &format!("{cram}{nk}:table\n"));
    assert!(out.starts_with("N\n*2\n"), "{out}");
    assert_eq!(questions(&out), 0, "{out}");
    assert!(!out.contains("not loaded"), "{out}");
}

/// Under `--table FILE`, a search stopped by Ctrl-C saves the table at once, while the session
/// goes on (here a REPL reading a pipe that stays open).
#[test]
fn a_stopped_search_saves_its_table_at_once() {
    let dir = format!("{}/target/pruned-table-tests", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{dir}/stopped.tbl");
    let _ = std::fs::remove_file(&file);
    let mut child = Command::new(env!("CARGO_BIN_EXE_loony"))
        .args(["--table", &file])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run loony");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"import \"std/cram\"\ncram(5, 7)\n")
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let mut saved = false;
    for _ in 0..100 {
        if std::fs::metadata(&file).is_ok_and(|m| m.len() > 1000) {
            saved = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(saved, "no table saved while the session runs");
    stdin.write_all(b"*2 + *3\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "*\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[E0501]"));
}

/// Waits up to ten seconds for `file` to hold a saved table; whether it does.
fn table_saved(file: &str) -> bool {
    for _ in 0..200 {
        if std::fs::metadata(file).is_ok_and(|m| m.len() > 1000) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

/// The number of entries `:table` shows after `cram(2, 2)` loaded a table file's Cram part.
fn loaded_entries(file: &str) -> u64 {
    let (out, err, code) = loony(
        &["--table", file],
        Some("import \"std/cram\"\ncram(2, 2)\n:table\n"),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let at = out.find("table: ").expect("the table's line") + "table: ".len();
    out[at..].split(' ').next().unwrap().parse().unwrap()
}

/// `--save-every` saves the table while a search runs, so a process killed without warning
/// (SIGKILL) leaves what it had learned by its last save for the next session; SIGTERM (a
/// batch system's time limit) stops the search and saves at once, as Ctrl-C does.
#[test]
fn a_killed_search_leaves_its_last_save() {
    let dir = format!("{}/target/pruned-table-tests", env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let script = format!("{dir}/long-kill.cgt");
    std::fs::write(&script, "import \"std/cram\"\ncram(5, 7)\n").unwrap();
    for (signal, every) in [(libc::SIGKILL, Some("1")), (libc::SIGTERM, None)] {
        let file = format!("{dir}/killed-{signal}.tbl");
        let _ = std::fs::remove_file(&file);
        let mut args = vec!["--table", &file];
        if let Some(s) = every {
            args.extend(["--save-every", s]);
        }
        args.push(&script);
        let child = Command::new(env!("CARGO_BIN_EXE_loony"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run loony");
        if signal == libc::SIGKILL {
            // No save at the end: only a save during the search leaves a file.
            assert!(table_saved(&file), "no table saved while the search ran");
        } else {
            std::thread::sleep(std::time::Duration::from_millis(1500));
        }
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(child.id() as i32, signal) };
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if signal == libc::SIGTERM {
            assert_eq!(out.status.code(), Some(1), "{err}");
            assert!(err.contains("error[E0501]"), "{err}");
        }
        assert!(loaded_entries(&file) > 100, "signal {signal}");
    }
    // `--save-every` needs `--table`.
    let (_, err, code) = loony(&["--save-every", "5", "-e", "1"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--table"), "{err}");
}
