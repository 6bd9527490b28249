"""Helpers of the tests' brute forces, shared by the test files."""

from functools import lru_cache


def mex(xs):
    """The least natural number not among `xs`."""
    xs = set(xs)
    n = 0
    while n in xs:
        n += 1
    return n


def node_kayles_brute(n, edges):
    """Node Kayles by brute force over sets of remaining vertices (bit masks)."""
    nbr = [1 << v for v in range(n)]
    for a, b in edges:
        nbr[a] |= 1 << b
        nbr[b] |= 1 << a

    @lru_cache(maxsize=None)
    def g(mask):
        return mex(g(mask & ~nbr[v]) for v in range(n) if mask >> v & 1)

    return g((1 << n) - 1)
