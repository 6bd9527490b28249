"""Conversions both ways, run/eval/load, globals, and errors leaving the session usable."""

import os
import signal
import threading
import time

import pytest

import loony


def test_run_returns_expression_values_only(s):
    assert s.run("let n = 3\nfn f(x) = x * x\nf(n)\nn + 1") == [9, 4]
    assert s.run("let m = 2") == []
    assert s.eval("") is None


def test_plain_values_convert(s):
    assert s.eval("42") == 42 and type(s.eval("42")) is int
    assert s.eval("true") is True
    assert s.eval('"kayles"') == "kayles"
    assert s.eval("[1, [2, 3], (4, true)]") == [1, [2, 3], (4, True)]
    assert s.eval("(1, \"a\")") == (1, "a")


def test_python_arguments_convert(s):
    s.run("fn echo(x) = x")
    echo = s["echo"]
    for x in [0, -7, 2**62, True, False, "é☾", [1, [2, (3, "x")]], (1, 2), [], ()]:
        got = echo(x)
        assert got == x and type(got) is type(x)
    with pytest.raises(TypeError):
        echo(1.5)
    with pytest.raises(ValueError):
        echo(2**70)


def test_values_pass_back_in(s):
    s.run("fn twice(g) = g + g")
    g = s.eval("*5")
    assert str(s["twice"](g)) == "0"
    other = loony.Session().eval("*5")
    with pytest.raises(ValueError):
        s["twice"](other)


def test_globals(s):
    s.run('let n = 7\nlet name = "x"')
    assert s["n"] == 7 and s["name"] == "x"
    assert "n" in s and "nope" not in s
    with pytest.raises(KeyError):
        s["nope"]
    assert s["nimber"](s.eval("*2 + *7")) == 5  # built-ins too


def test_load_and_imports(s, tmp_path):
    p = tmp_path / "game.cgt"
    p.write_text("let k = 4\n*k + *1\n[k, k]\n")
    assert [str(v) if isinstance(v, loony.Value) else v for v in s.load(p)] == ["*5", [4, 4]]
    assert s["k"] == 4
    s.run('import "std/grundy"')
    assert str(s.eval("grundy(5)")) == "*2"


def test_errors_carry_code_and_keep_the_session(s):
    s.run("let n = 3")
    with pytest.raises(loony.LoonyError) as e:
        s.run("n + nope")
    err = e.value
    assert err.code.startswith("E0")
    assert "nope" in err.message
    assert "n + nope" in str(err)  # the rendered diagnostic shows the source line
    assert isinstance(err, Exception)
    with pytest.raises(loony.LoonyError) as e:
        s.run("let x = (")
    assert e.value.code.startswith("E0")
    assert s.eval("n * 2") == 6


def test_budget_error_has_its_code():
    s = loony.Session(budget=100)
    s.run("ruleset count(n) { for k in [1] if k <= n => count(n - k) }")
    with pytest.raises(loony.LoonyError) as e:
        s.run("count(10000)")
    assert e.value.code.startswith("E")
    assert str(s.eval("count(5)")) == "*"


def test_other_threads_run_while_loony_works(s):
    s.run("ruleset count(n) { for k in [1, 2] if k <= n => count(n - k) }")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    started = time.monotonic()
    n = 0
    # Enough work to take a while, with the GIL released meanwhile.
    while time.monotonic() - started < 0.5:
        s.eval(f"count({300000 + n})")
        n += 1
    stop.set()
    t.join()
    assert len(ticks) > 50


FIB = "fn fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)"

# fib(60) makes 10^12 calls: it never ends by itself, so a call of it that returns was stopped.
FOREVER = "let started = true\nfib(60)"


def signal_once_busy(s, send):
    """On another thread: waits until the session runs a call, then a little more, then calls
    `send()`; returns the thread and a list that gets the time of sending."""
    sent = []

    def run():
        deadline = time.monotonic() + 30
        while not s.busy and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(0.1)
        sent.append(time.monotonic())
        send()

    t = threading.Thread(target=run)
    t.start()
    return t, sent


def test_ctrl_c_stops_loony_and_keeps_the_session(s, watchdog):
    s.run(FIB)
    t, sent = signal_once_busy(s, lambda: os.kill(os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        s.run(FOREVER)
    stopped = time.monotonic()
    t.join()
    assert stopped - sent[0] < 1.0  # stopped within a second of Ctrl-C
    assert s["started"] is True  # Loony's work had started when Ctrl-C came
    assert not s.busy
    assert s.eval("fib(10)") == 55


def test_exception_from_a_signal_handler_stops_loony(s, watchdog):
    class Alarm(Exception):
        pass

    def handler(signum, frame):
        raise Alarm()

    s.run(FIB)
    old = signal.signal(signal.SIGALRM, handler)
    try:
        t, sent = signal_once_busy(s, lambda: os.kill(os.getpid(), signal.SIGALRM))
        with pytest.raises(Alarm):
            s.run(FOREVER)
        stopped = time.monotonic()
        t.join()
        assert stopped - sent[0] < 1.0
    finally:
        signal.signal(signal.SIGALRM, old)
    assert s.eval("fib(12)") == 144


def test_a_signal_meant_for_one_call_stops_no_other(s, watchdog):
    # Another thread's call queued behind the interrupted one runs to its end.
    s.run(FIB)
    other = []
    t, sent = signal_once_busy(s, lambda: os.kill(os.getpid(), signal.SIGINT))

    def queue_another():
        while not sent:
            time.sleep(0.005)
        other.append(s.eval("fib(20)"))

    q = threading.Thread(target=queue_another)
    q.start()
    with pytest.raises(KeyboardInterrupt):
        s.run(FOREVER)
    t.join()
    q.join()
    assert other == [6765]


def test_repeated_calls_keep_no_memory(s):
    import resource

    s.run("fn f(x) = x")
    f = s["f"]
    for i in range(5000):
        f(i)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for i in range(50000):
        assert f(i) == i
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    # A source file kept per call was about 190 bytes: 9 MiB here.
    assert grown_kib < 3000


def test_memory_budget_raises_its_code_and_keeps_the_session():
    s = loony.Session(memory="64M")
    with pytest.raises(loony.LoonyError) as e:
        s.eval("len([i for i in 0..10^8])")
    assert e.value.code == "E0213"
    assert "64 MiB" in e.value.message
    assert s.eval("len([i for i in 0..1000])") == 1000
    with pytest.raises(ValueError):
        loony.Session(memory="lots")


def test_sessions_are_independent_and_run_in_parallel_threads():
    results = {}

    def work(k):
        s = loony.Session()
        s.run(f"let k = {k}\nfn f(n) = if n < 2 then n + k else f(n - 1) + f(n - 2)")
        results[k] = s.eval("f(18)")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    def f(n, k):
        a, b = k, 1 + k  # f(0), f(1)
        for _ in range(n - 1):
            a, b = b, a + b
        return b

    assert results == {k: f(18, k) for k in range(4)}


def test_loony_warnings_go_to_pythons_warnings(s):
    import warnings

    # docs/builtins.md: a `let` named like a built-in warns (W0001); an import replacing your
    # own definition warns (W0002).
    with pytest.warns(loony.LoonyWarning) as rec:
        assert s.run("let nimber = 3\nnimber + 1") == [4]
    (w,) = rec
    assert w.message.code == "W0001" and "nimber" in w.message.message
    assert "let nimber = 3" in str(w.message)  # the rendered diagnostic, with its line
    assert issubclass(loony.LoonyWarning, UserWarning)
    with pytest.warns(loony.LoonyWarning) as rec:
        s.run('fn kayles(n) = n\nimport "std/kayles"')
    assert [w.message.code for w in rec] == ["W0002"]
    # A filter may make it an error; the session goes on.
    with warnings.catch_warnings():
        warnings.simplefilter("error", loony.LoonyWarning)
        with pytest.raises(loony.LoonyWarning):
            s.run("let outcome = 1")
    assert s.eval("outcome + 1") == 2
