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


def test_ctrl_c_stops_loony_and_keeps_the_session(s):
    s.run(FIB)
    # fib(34) takes seconds in the interpreter; SIGINT after 0.3 s stops it.
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        s.eval("fib(34)")
    assert time.monotonic() - started < 1.5
    assert s.eval("fib(10)") == 55


def test_exception_from_a_signal_handler_stops_loony(s):
    class Alarm(Exception):
        pass

    def handler(signum, frame):
        raise Alarm()

    s.run(FIB)
    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        started = time.monotonic()
        with pytest.raises(Alarm):
            s.eval("fib(34)")
        assert time.monotonic() - started < 1.5
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert s.eval("fib(12)") == 144


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
