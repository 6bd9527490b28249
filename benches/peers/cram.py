"""Cram by a plain memo over the bit mask of free cells: the Python a researcher writes first.

The peer of `benches/boards.rs`: `python3 cram.py ROWS COLS` prints the value, the number of
positions in the memo, the seconds of the search (not of starting Python) and the peak
resident memory in kB.
"""
import resource
import sys
import time


def solve(rows, cols):
    moves = []
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols:
                moves.append((1 << i) | (1 << (i + 1)))
            if r + 1 < rows:
                moves.append((1 << i) | (1 << (i + cols)))
    memo = {}

    def g(free):
        v = memo.get(free)
        if v is not None:
            return v
        seen = set()
        for m in moves:
            if free & m == m:
                seen.add(g(free ^ m))
        v = 0
        while v in seen:
            v += 1
        memo[free] = v
        return v

    return g((1 << (rows * cols)) - 1), len(memo)


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    rows, cols = int(sys.argv[1]), int(sys.argv[2])
    start = time.perf_counter()
    value, positions = solve(rows, cols)
    took = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(value, positions, f"{took:.4f}", peak)
