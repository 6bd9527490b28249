"""Values against references of the tests' own: Python brute forces on small positions."""

from functools import lru_cache

import pytest

import loony
from brute import mex, node_kayles_brute


@lru_cache(maxsize=None)
def kayles(n):
    """Kayles by brute force: remove one or two adjacent pins, splitting the row."""
    opts = []
    for t in (1, 2):
        for a in range(0, n - t + 1):
            opts.append(kayles(a) ^ kayles(n - t - a))
    return mex(opts)


def subtraction(n, moves, memo):
    if n not in memo:
        memo[n] = mex(subtraction(n - k, moves, memo) for k in moves if k <= n)
    return memo[n]


KAYLES = """
ruleset kayles(n) {
  for t in [1, 2] if t <= n for a in 0..=(n - t) => kayles(a) + kayles(n - t - a)
}
"""


def test_kayles_nimbers_match_brute_force(s):
    s.run(KAYLES)
    got = [int(v) for v in s.eval("[kayles(n) for n in 0..20]")]
    assert got == [kayles(n) for n in range(20)]


def test_ruleset_callable_from_python(s):
    s.run(KAYLES)
    k = s["kayles"]
    for n in range(15):
        assert int(k(n)) == kayles(n)


def test_subtraction_game_with_python_list(s):
    s.run("ruleset sub(n, moves) { for k in moves if k <= n => sub(n - k, moves) }")
    sub = s["sub"]
    for moves in ([1, 2], [1, 3, 4], [2, 5, 7]):
        memo = {}
        for n in range(25):
            assert int(sub(n, moves)) == subtraction(n, moves, memo), (moves, n)


def test_sums_follow_xor(s):
    s.run(KAYLES)
    k = s["kayles"]
    for a in range(8):
        for b in range(8):
            g = k(a) + k(b)
            assert int(g) == kayles(a) ^ kayles(b)
            assert g.outcome == ("P" if kayles(a) == kayles(b) else "N")


def test_nimbers_print_add_and_compare(s):
    a, b = s.run("*2\n*3")
    assert (str(a), str(b)) == ("*2", "*3")
    assert str(a + b) == "*"
    assert a + b == s.eval("*1")
    assert a != b
    assert hash(s.eval("*2 + *3")) == hash(s.eval("*1"))
    assert len({s.eval("*2"), s.eval("{0, * | 0, *}"), s.eval("*3")}) == 2
    assert int(s.eval("*5")) == 5
    assert int(s.eval("0")) == 0  # the integer 0, not a game
    assert s.eval("*3 + *3").outcome == "P"


def test_loopy_game_draws(s):
    v = s.eval("a{a | a}")
    assert v.outcome == "D"
    with pytest.raises(TypeError):
        int(v)


def test_moon_is_not_a_nimber(s):
    s.run('import "std/grundy"')
    moon = s.eval("☾")
    assert str(moon) == "☾"
    with pytest.raises(TypeError):
        int(moon)


def test_node_kayles_on_graphs_given_as_edge_lists(s):
    import random

    s.run('import "std/node_kayles"')
    nk = s["node_kayles"]
    rng = random.Random(52)
    for _ in range(25):
        n = rng.randint(1, 8)
        edges = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.35]
        assert int(nk(n, edges)) == node_kayles_brute(n, edges), (n, edges)


def test_options_and_winning_moves(s):
    s.run(KAYLES)
    g = s["kayles"](4) + s["kayles"](3)
    moves = g.winning_moves()
    assert moves and all(m.outcome == "P" for m in moves)
    # Every option of a P-position is an N-position; the options' values are mexed.
    opts = s["kayles"](5).options()
    assert mex(int(o) for o in opts) == kayles(5)
    assert all(isinstance(str(o), str) for o in opts)
