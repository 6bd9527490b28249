#!/usr/bin/env python3
"""File-level module arrows inside crates/lang and their strongly connected components.

An arrow A -> B means A's code (comments stripped) names `crate::B...` or `super::B...`
(a `use` or a path in place; a `use crate::{a, b::c}` group names each). Files are nodes: a
path resolves to the deepest file it reaches (`crate::catalog::row::X` is catalog/row.rs,
`crate::catalog::X` is catalog/mod.rs); a file declaring `mod x;` names its child. `lib.rs` is left out (it declares every module).
Usage: scripts/lang-modules.py [--edges] [DIR]  (DIR defaults to crates/lang/src)
"""
import os, re, sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "crates/lang/src")
root = os.path.normpath(root)

def modpath(rel):  # "catalog/row.rs" -> ["catalog", "row"]; "compile/mod.rs" -> ["compile"]
    parts = rel[:-3].split("/")
    return parts[:-1] if parts[-1] == "mod" else parts

files = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if f.endswith(".rs"):
            rel = os.path.relpath(os.path.join(d, f), root)
            if rel != "lib.rs":
                files[tuple(modpath(rel))] = rel

def resolve(path):  # longest prefix naming a file
    for n in range(len(path), 0, -1):
        if tuple(path[:n]) in files:
            return files[tuple(path[:n])]
    return None

def strip(src):
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    src = re.sub(r'"(?:\\.|[^"\\])*"', '""', src)
    return re.sub(r"//[^\n]*", "", src)

def expand(group):  # "a, b::{c, d}, e::f" -> [["a"], ["b","c"], ["b","d"], ["e","f"]]
    out, depth, cur = [], 0, ""
    items = []
    for ch in group:
        if ch == "{": depth += 1
        if ch == "}": depth -= 1
        if ch == "," and depth == 0:
            items.append(cur); cur = ""
        else:
            cur += ch
    items.append(cur)
    for it in items:
        it = it.strip()
        if not it: continue
        m = re.match(r"([\w:]*?)::\{(.*)\}$", it, re.S)
        if m:
            head = [p for p in m.group(1).split("::") if p]
            for sub in expand(m.group(2)):
                out.append(head + sub)
        else:
            out.append([p for p in it.split(" as ")[0].split("::") if p])
    return out

edges = {}
for mp, rel in files.items():
    src = strip(open(os.path.join(root, rel)).read())
    targets = set()
    def add(prefix, rest):
        if prefix == "crate":
            full = rest
        else:  # super: the parent of this file's module
            full = list(mp[:-1]) + rest
        t = resolve(full)
        if t and t != rel:
            targets.add(t)
    for m in re.finditer(r"^\s*(?:pub(?:\(\w+\))?\s+)?mod\s+(\w+)\s*;", src, re.M):
        add("crate", list(mp) + [m.group(1)])  # a parent names its child modules
    for m in re.finditer(r"\b(crate|super)::\{([^;]*?)\}\s*;", src, re.S):
        for p in expand(m.group(2)):
            add(m.group(1), p)
    for m in re.finditer(r"\b(crate|super)::((?:\w+::)*\w+)", src):
        add(m.group(1), m.group(2).split("::"))
    edges[rel] = targets

def sccs(g):
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index: visit(v)
    return out

if "--edges" in sys.argv:
    for f in sorted(edges):
        print(f, "->", " ".join(sorted(edges[f])))
n = sum(len(t) for t in edges.values())
cyc = [c for c in sccs(edges) if len(c) > 1]
print(f"{len(edges)} files, {n} arrows, {len(cyc)} circle(s)")
for c in cyc:
    print(f"  {len(c)} files:", " ".join(c))
sys.exit(1 if cyc else 0)
