"""`__doc__` of callables: a built-in's from the table docs/builtins.md is generated from (the
page, reviewed and checked against the table by `cargo test`, is the reference here), a `fn`'s
or ruleset's its signature."""

import pathlib
import pydoc
import re
import sys

import pytest

import loony

BUILTINS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "builtins.md"


def page_entries():
    """Every built-in of docs/builtins.md: name -> (signature, first paragraph, example, result)."""
    text = BUILTINS.read_text(encoding="utf-8").split("\n## Shipped modules")[0]
    entries = {}
    pattern = r"### `([^`]+)`\n\n(.*?)\n(?:\n```\n> (.*?)\n(.*?)\n```\n)?"
    for sig, doc, example, result in re.findall(pattern, text, re.S):
        name = re.match(r"[A-Za-z_][A-Za-z0-9_]*", sig).group(0)
        entries.setdefault(name, (sig, doc, example, result))
    return entries


def test_builtins_have_their_table_row_as_doc(s):
    entries = page_entries()
    assert len(entries) > 80
    checked = 0
    for name, (sig, doc, example, result) in entries.items():
        f = s[name]
        if not isinstance(f, loony.Function):  # P, N, D… are values, not callables
            continue
        assert f.__name__ == name
        assert f.__doc__.startswith(sig + "\n"), name
        assert doc.strip() in f.__doc__, name
        if example:
            assert f"{example}  →  {result}" in f.__doc__, name
        checked += 1
    assert checked > 80


def test_user_fns_and_rulesets_have_their_signature(s):
    s.run("fn add(a, (b, c)) = a + b + c\nruleset take(n) { for k in [1, 2] if k <= n => take(n - k) }")
    add, take = s["add"], s["take"]
    assert (add.__name__, add.__doc__) == ("add", "fn add(a, (b, c))")
    assert (take.__name__, take.__doc__) == ("take", "ruleset take(n)")
    assert add(1, (2, 3)) == 6 and isinstance(add, loony.Value)
    s.run('import "std/node_kayles"')
    assert s["node_kayles"].__doc__ == "fn node_kayles(n, edges)"
    # Values that are not callable keep the class's documentation.
    assert s.eval("*2").__doc__ == loony.Value.__doc__
    assert not isinstance(s.eval("*2"), loony.Function)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="older pydoc documents the class")
def test_help_shows_the_doc(s):
    text = pydoc.render_doc(s["nimber"], renderer=pydoc.plaintext)
    assert "nimber(g)" in text and "Sprague–Grundy value" in text
    assert "nimber(*2 + *3)  →  1" in text
