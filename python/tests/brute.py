"""Helpers of the tests' brute forces, shared by the test files."""


def mex(xs):
    """The least natural number not among `xs`."""
    xs = set(xs)
    n = 0
    while n in xs:
        n += 1
    return n
