"""Nim-sequences to NumPy, against a Python brute force of octal games."""

from functools import lru_cache

import numpy
import pytest

import loony
from brute import mex


def octal_sequence(code, n):
    """Nim-values of heaps 0..n of the octal game `code` ("0.07"), by brute force."""
    digits = [int(d) for d in code.split(".")[1]]

    @lru_cache(maxsize=None)
    def g(h):
        opts = set()
        for k, d in enumerate(digits, start=1):
            if k > h:
                break
            rest = h - k
            if d & 1 and rest == 0:
                opts.add(0)
            if d & 2 and rest > 0:
                opts.add(g(rest))
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    opts.add(g(a) ^ g(rest - a))
        return mex(opts)

    return [g(h) for h in range(n + 1)]


@pytest.mark.parametrize("code", ["0.07", "0.137", "0.77", "0.6", "0.351"])
def test_nim_sequence_to_numpy_matches_brute_force(s, code):
    seq = s.eval(f'nim_sequence(heap("{code}"), 120)')
    a = seq.to_numpy()
    assert isinstance(a, numpy.ndarray)
    assert a.dtype == numpy.uint8
    assert a.tolist() == octal_sequence(code, 120)
    assert seq.nim_values() == a.tolist()
    assert seq.start == 0


def test_wide_values_take_a_wider_type(s):
    # Nim itself (heap n has value n): 300 needs two bytes, 70 000 four.
    s.run("fn nim(n) = *n")
    for copy in (False, True):
        a = s.eval("nim_sequence(nim, 300)").to_numpy(copy=copy)
        assert a.dtype == numpy.uint16 and a.tolist() == list(range(301))
        b = s.eval("nim_sequence(nim, 69990..70010)")
        assert b.start == 69990
        assert b.to_numpy(copy=copy).dtype == numpy.uint32
        assert b.to_numpy(copy=copy).tolist() == list(range(69990, 70010))
        assert b.nim_values() == list(range(69990, 70010))


def test_only_sequences_convert(s):
    with pytest.raises(TypeError):
        s.eval("*3").to_numpy()


def test_sequences_show_html_as_in_the_notebook(s):
    html = s.eval('nim_sequence(heap("0.07"), 30)')._repr_html_()
    assert html.startswith("<table") and "heaps 0–30" in html
    assert s.eval("*3")._repr_html_() is None


def test_a_global_sequence_converts_without_being_printed(s):
    # s["q"] reads the global in place; its printed form is made only if asked for.
    s.run('let q = nim_sequence(heap("0.07"), 3000)')
    q = s["q"]
    assert q.to_numpy().tolist() == octal_sequence("0.07", 3000)
    text = str(q)  # Loony's layout: rows of 20 values, each after its first heap
    assert [int(x) for line in text.splitlines() for x in line.split(":")[1].split()] == (
        octal_sequence("0.07", 3000)
    )
    assert str(q) == text and repr(q).startswith("loony.Value(")
    with pytest.raises(TypeError) as e:
        int(q)
    assert len(str(e.value)) < 200  # names the value cut short, not its 3001 values


def test_arrays_are_read_only_views_unless_copied(s):
    import gc

    # The Value is dropped at once: the view keeps it (and the session's values) alive.
    a = s.eval('nim_sequence(heap("0.07"), 500)').to_numpy()
    gc.collect()
    s.run("let junk = [[i, i] for i in 0..100000]")  # memory freed would be reused here
    assert a.tolist() == octal_sequence("0.07", 500)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0] = 7
    b = s.eval('nim_sequence(heap("0.07"), 500)').to_numpy(copy=True)
    assert b.flags.writeable and b.tolist() == a.tolist()
    b[0] = 7
    assert a[0] == 0 and s.eval('nim_sequence(heap("0.07"), 500)').nim_values()[0] == 0
    assert s.eval('nim_sequence(heap("0.07"), 0)').to_numpy().tolist() == [0]
