"""The examples of docs/python.md run and print what the page says, and the values the page
shows are checked against the tests' own brute forces."""

import contextlib
import io
import pathlib
import re

from brute import mex, node_kayles_brute

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def examples():
    """Each ```python block of the page with the ```text block after it (what it prints)."""
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```.*?```text\n(.*?)```", text, re.S)


def run(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    return out.getvalue()


def test_docs_examples_print_what_the_page_shows():
    found = examples()
    assert len(found) == 2
    for code, shown in found:
        assert run(code) == shown


def nimber(n):
    """A printed nimber as its number: `0`, `*`, `*3`."""
    return 0 if n == "0" else 1 if n == "*" else int(n[1:])


def test_the_pages_values_match_brute_forces():
    import networkx as nx

    first, table = (shown for _, shown in examples())
    # The first example: Node Kayles on paths and cycles, then Kayles.
    lines = first.splitlines()
    for line in lines[:10]:
        n, path, cycle = line.split()
        n = int(n)
        p = [(i, i + 1) for i in range(n - 1)]
        c = p + [(n - 1, 0)] if n > 2 else p
        assert (nimber(path), nimber(cycle)) == (node_kayles_brute(n, p), node_kayles_brute(n, c))
    kayles = []
    for n in range(12):
        kayles.append(mex(kayles[a] ^ kayles[n - t - a] for t in (1, 2) for a in range(n - t + 1)))
    assert lines[10] == str(kayles)
    assert lines[11] == f"*{kayles[4] ^ kayles[3]} N"
    # The networkx table: the same graphs, numbered as networkx numbers them.
    families = [
        nx.ladder_graph,
        lambda n: nx.grid_2d_graph(3, n),
        lambda n: nx.wheel_graph(n + 1),
        lambda n: nx.complete_bipartite_graph(2, n),
    ]
    rows = table.splitlines()[1:]
    assert len(rows) == 8
    for row in rows:
        n, *values = row.split()
        assert len(values) == len(families)
        for family, value in zip(families, values):
            G = nx.convert_node_labels_to_integers(family(int(n)))
            assert nimber(value) == node_kayles_brute(G.number_of_nodes(), list(G.edges()))
