"""Calls of Loony functions from Python (made in place, without source) and repeated evals (their
parse kept): the same errors, limits, Ctrl-C and threads as any statement."""

import os
import signal
import threading
import time

import pytest

import loony
from test_session import FIB, signal_once_busy


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_calls_give_what_python_computes(s):
    s.run("fn f(x) = x\nfn add3(a, b, c) = a + b + c\nfn pair(a, b) = (b, [a])\nfn zero() = 0")
    f, add3, pair, zero = s["f"], s["add3"], s["pair"], s["zero"]
    for x in [0, -7, 2**62, True, "héllo", [1, [2, "x"]], (3, False)]:
        assert f(x) == x
    assert add3(1, 20, 300) == 321
    assert pair(1, "b") == ("b", [1])
    assert zero() == 0
    assert str(f(s.eval("*3 + *5"))) == "*6"  # 3 xor 5


def test_an_error_in_a_call_points_into_the_function_and_keeps_the_session(s):
    s.run("fn g(x) = x * 2 + [x]\nfn f(x) = x")
    g, f = s["g"], s["f"]
    with pytest.raises(loony.LoonyError) as e:
        g(3)
    # docs/language.md: an integer plus a list is a type error, shown where it was written.
    assert e.value.code.startswith("E0")
    assert "integer" in e.value.message and "list" in e.value.message
    assert "fn g(x) = x * 2 + [x]" in str(e.value)
    with pytest.raises(loony.LoonyError) as e:
        f(1, 2)
    assert "takes 1 argument, but 2 were given" in e.value.message
    assert "usage: f(x)" in str(e.value)  # the rendered diagnostic gives the signature
    with pytest.raises(loony.LoonyError) as e:
        s["nimber"]("x")
    assert "string" in e.value.message
    assert f(5) == 5


def test_calls_keep_the_budget():
    s = loony.Session(budget=100)
    s.run("ruleset count(n) { for k in [1] if k <= n => count(n - k) }")
    s.run("fn go(n) = outcome(count(n))")
    go = s["go"]
    with pytest.raises(loony.LoonyError) as e:
        go(10000)
    assert e.value.code.startswith("E")
    assert str(go(5)) == "N"  # count(5): five moves in a row, the first player makes the last


def test_calls_keep_the_memory_budget():
    s = loony.Session(memory="64M")
    s.run("fn big(n) = len([i for i in 0..n])")
    big = s["big"]
    with pytest.raises(loony.LoonyError) as e:
        big(10**8)
    assert e.value.code == "E0213"
    assert big(1000) == 1000


def test_ctrl_c_stops_a_call_and_keeps_the_session(s, watchdog):
    s.run(FIB)
    f = s["fib"]
    t, sent = signal_once_busy(s, lambda: os.kill(os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        f(60)
    stopped = time.monotonic()
    t.join()
    assert stopped - sent[0] < 1.0
    assert not s.busy
    assert [f(n) for n in range(15)] == [fib(n) for n in range(15)]


def test_calls_from_many_threads_each_get_their_own_result(s):
    s.run("fn f(x) = x\nfn sq(x) = x * x")
    f, sq = s["f"], s["sq"]
    bad = []

    def work(k):
        for i in range(1500):
            x = k * 100000 + i
            if f(x) != x or sq(i) != i * i or s.eval(f"{x} + 1") != x + 1:
                bad.append((k, i))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_a_repeated_eval_sees_the_globals_of_its_time(s):
    for n in range(5):
        s.run(f"let a = {n}")
        assert s.eval("a * 10 + 1") == n * 10 + 1
    for _ in range(2):  # a syntax error is raised every time, never kept as a program
        with pytest.raises(loony.LoonyError) as e:
            s.eval("1 +")
        assert e.value.code.startswith("E0")
    # Many different short sources: each still gives its own value.
    assert [s.eval(f"{i} * 2") for i in range(600)] == [2 * i for i in range(600)]
    assert [s.eval(f"{i} * 2") for i in range(600)] == [2 * i for i in range(600)]
