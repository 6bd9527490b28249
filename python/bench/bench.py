"""Benchmarks of the Python package (issue 52), not timed tests: run by hand on a release build.

    python3 -m venv target/py-release
    target/py-release/bin/pip install maturin==1.16.0 numpy==2.2.6
    VIRTUAL_ENV=$PWD/target/py-release target/py-release/bin/maturin develop --release \\
        --manifest-path python/Cargo.toml
    cargo build --release
    target/py-release/bin/python python/bench/bench.py [--loony target/release/loony]

1. The cost of a call from Python: `s["f"](x)` on a trivial `fn` and `s.eval("*3 + *5")`,
   against the same work inside Loony (a comprehension of a million of them, per element).
   The target: at most 5 µs above. Beside them, a bare trip to the session's thread and back
   (reading an int global).
2. `nim_sequence(heap("0.07"), 10^7)` into a NumPy array against the CLI computing the same
   sequence: wall time and peak resident memory, each in a fresh process (the target: within
   1.2x). Memory is given raw and above each process's baseline (the CLI's for `-e 0`; the
   Python process's after importing loony and NumPy and starting a session).
"""

import argparse
import os
import resource
import subprocess
import sys
import time
import timeit

SEQ = 'nim_sequence(heap("0.07"), 10^7)'


def best_per_call(stmt, number, repeat=5):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def calls():
    import loony

    s = loony.Session()
    s.run("fn f(x) = x\nlet n = 7")
    f = s["f"]
    n = 10**6
    inside_f = min(_timed(s.eval, f"len([f(i) for i in 0..{n}])") for _ in range(3)) / n
    inside_sum = min(_timed(s.eval, f"len([*3 + *5 for i in 0..{n}])") for _ in range(3)) / n
    inside_loop = min(_timed(s.eval, f"len([i for i in 0..{n}])") for _ in range(3)) / n
    py_f = best_per_call(lambda: f(7), 20000)
    py_sum = best_per_call(lambda: s.eval("*3 + *5"), 20000)
    trip = best_per_call(lambda: s["n"], 20000)
    print("per call, best of 5 (µs):")
    print(f"  inside Loony: an empty comprehension step {inside_loop * 1e6:.3f}")
    print(f'  a trip to the session\'s thread and back (s["n"], an int global): {trip * 1e6:.2f}')
    for what, py, inside in [
        ('s["f"](7)       vs f(i)', py_f, inside_f),
        ('s.eval("*3+*5") vs *3 + *5', py_sum, inside_sum),
    ]:
        print(
            f"  {what}: Python {py * 1e6:.2f}, inside Loony {inside * 1e6:.3f}, "
            f"above {(py - inside) * 1e6:.2f} (target <= 5)"
        )


def _timed(fn, *args):
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def numpy_child(how):
    """In a fresh process: the sequence into NumPy; prints seconds, peak KiB, baseline KiB."""
    import numpy  # noqa: F401

    import loony

    s = loony.Session()
    s.eval("0")
    base = rss_kib()
    t = time.perf_counter()
    if how == "eval":  # the statement's result is printed (as the REPL would), then copied
        a = s.eval(SEQ).to_numpy()
    else:  # a global, read in place: nothing printed
        s.run(f"let q = {SEQ}")
        a = s["q"].to_numpy()
    took = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert len(a) == 10**7 + 1
    print(took, peak, base)


def run_measured(cmd):
    """Runs cmd under GNU time (`/usr/bin/time`: the peak of a child forked from this big
    process would count this process's pages); its wall seconds, peak KiB and stdout."""
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd, capture_output=True, check=True)
    took, peak = p.stderr.decode().split()[-2:]
    return float(took), int(peak), p.stdout.decode()


def best(runs):
    """The best time and the largest peak of (seconds, peak KiB, ...) runs."""
    return min(r[0] for r in runs), max(r[1] for r in runs)


def sequences(loony_bin, repeat):
    cli_print, cli_len, py = [], [], {"eval": [], "global": []}
    for _ in range(repeat):
        cli_print.append(run_measured([loony_bin, "-e", SEQ]))
        cli_len.append(run_measured([loony_bin, "-e", f"len({SEQ})"]))
        for how in py:
            out = run_measured([sys.executable, __file__, "--numpy-child", how])[2]
            took, peak, base = out.split()  # its own time, without starting Python
            py[how].append((float(took), int(peak), int(base)))
    cli_base = run_measured([loony_bin, "-e", "0"])[1]
    print(f"{SEQ}: best time and largest peak of {repeat} fresh processes; memory also above")
    print(f"each process's baseline (CLI `-e 0`: {cli_base / 1024:.1f} MiB; Python: after")
    print("importing loony and NumPy and starting a session):")
    rows = {}
    for name, runs in [("CLI, printing it", cli_print), ("CLI, len(...)", cli_len)]:
        t, m = best(runs)
        rows[name] = (t, m, m - cli_base)
    for how, name in [("eval", "Python, s.eval(...).to_numpy()"),
                      ("global", 'Python, let q = ...; s["q"].to_numpy()')]:
        t, m = best(py[how])
        rows[name] = (t, m, m - max(r[2] for r in py[how]))
    for name, (t, m, above) in rows.items():
        print(f"  {name:40} {t:7.3f} s  peak {m / 1024:6.1f} MiB  above baseline {above / 1024:6.1f}")
    for py_name, cli_name in [("Python, s.eval(...).to_numpy()", "CLI, printing it"),
                              ('Python, let q = ...; s["q"].to_numpy()', "CLI, len(...)")]:
        (pt, pm, pa), (ct, cm, ca) = rows[py_name], rows[cli_name]
        print(f"  {py_name} / {cli_name}: time {pt / ct:.2f}x, peak {pm / cm:.2f}x, "
              f"above baseline {pa / max(ca, 1):.2f}x (targets <= 1.2)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--loony", default="target/release/loony")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--numpy-child", choices=["eval", "global"])
    ap.add_argument("--only", choices=["calls", "sequences"])
    a = ap.parse_args()
    if a.numpy_child:
        return numpy_child(a.numpy_child)
    if a.only in (None, "calls"):
        calls()
    if a.only in (None, "sequences"):
        sequences(a.loony, a.repeat)


if __name__ == "__main__":
    main()
