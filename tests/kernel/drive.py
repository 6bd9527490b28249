"""Drives `loony kernel` with Jupyter's own client (jupyter_client, nbclient, nbformat).

Run by tests/suite/kernel.rs with the pinned venv's python, JUPYTER_PATH pointing at a
kernelspec installed for the freshly built binary, and LOONY naming that binary:

    python drive.py check examples/tour.cgt examples/tour.ipynb
    python drive.py write examples/tour.cgt examples/tour.ipynb   # regenerate the notebook

Every check prints one line; the first failure raises (a non-zero exit for the Rust test).
"""

import base64
import copy
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import jupyter_client
import nbformat
from jupyter_client.session import Session
from nbclient import NotebookClient

LOONY = os.environ.get("LOONY", "loony")
TIMEOUT = 30


def ok(what):
    print(f"ok: {what}", flush=True)


def check(cond, what, detail=""):
    if not cond:
        raise AssertionError(f"{what}: {detail}")
    ok(what)


def cli(source, *extra):
    """What `loony -e SOURCE` prints on stdout (it must succeed)."""
    r = subprocess.run([LOONY, *extra, "-e", source], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"loony -e failed on {source!r}: {r.stderr}")
    return r.stdout


def tour_notebook(cgt):
    """The tour as a notebook: each run of comment lines a Markdown cell, each run of code
    lines (up to a blank line or a comment) a code cell."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "loony", "display_name": "Loony", "language": "loony"}
    nb.metadata["language_info"] = {"name": "loony", "file_extension": ".cgt", "mimetype": "text/plain"}
    blocks = []  # (kind, lines)
    for line in cgt.splitlines():
        kind = "blank" if not line.strip() else "markdown" if line.startswith("#") else "code"
        if kind == "blank":
            blocks.append(("blank", []))
        elif blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    for kind, lines in blocks:
        if kind == "markdown":
            # Loony's notation is full of Markdown's signs (*2, {0 | *}, <L | R>).
            text = "".join("\\" + ch if ch in MARKDOWN_SIGNS else ch
                           for ch in " ".join(l.lstrip("#").strip() for l in lines))
            heading = "# " if not nb.cells else ""
            nb.cells.append(nbformat.v4.new_markdown_cell(heading + text))
        elif kind == "code":
            nb.cells.append(nbformat.v4.new_code_cell("\n".join(lines)))
    # Ids by position, so that writing the notebook again changes nothing but outputs.
    for i, c in enumerate(nb.cells):
        c.id = f"cell-{i + 1}"
    return nb


MARKDOWN_SIGNS = set("\\`*_{}[]<>#|")


def run_notebook(nb, cwd):
    client = NotebookClient(
        nb, kernel_name="loony", timeout=TIMEOUT, allow_errors=True, record_timing=False,
        resources={"metadata": {"path": cwd}},
    )
    client.execute()
    return nb


def cell_text(cell):
    """What a code cell shows as text: its streams and results, in order, one line each."""
    out = ""
    for o in cell.outputs:
        if o.output_type == "stream" and o.name == "stdout":
            out += o.text
        elif o.output_type == "execute_result":
            out += o.data["text/plain"] + "\n"
    return out


def check_tour(cgt_path, ipynb_path, cwd):
    with open(cgt_path) as f:
        fresh = tour_notebook(f.read())
    with open(ipynb_path) as f:
        stored = nbformat.read(f, as_version=4)
    sources = lambda nb: [(c.cell_type, c.source) for c in nb.cells]
    check(sources(stored) == sources(fresh), f"{ipynb_path} has the cells of {cgt_path}")
    ran = run_notebook(copy.deepcopy(stored), cwd)
    code = [c for c in ran.cells if c.cell_type == "code"]
    check(all(not any(o.output_type == "error" for o in c.outputs) for c in code),
          "the tour runs without an error")
    # Each cell's text against the CLI: what the cells so far print, less what the cells
    # before print (the CLI runs them together so that earlier bindings exist).
    before = ""
    for i, c in enumerate(code):
        upto = cli("\n".join(x.source for x in code[: i + 1]) + "\n")
        want = upto[len(before):]
        check(upto.startswith(before) and cell_text(c) == want,
              f"tour cell {i + 1} shows what loony -e prints",
              f"kernel {cell_text(c)!r}, cli {want!r}")
        before = upto
    stored_code = [c for c in stored.cells if c.cell_type == "code"]
    check([cell_text(c) for c in stored_code] == [cell_text(c) for c in code],
          f"{ipynb_path}'s saved outputs are what the kernel gives now")


def write_tour(cgt_path, ipynb_path, cwd):
    with open(cgt_path) as f:
        nb = tour_notebook(f.read())
    run_notebook(nb, cwd)
    with open(ipynb_path, "w") as f:
        nbformat.write(nb, f)
    print(f"wrote {ipynb_path}")


def check_cells(cwd):
    """Errors, bindings across cells, commands and plots, through nbclient."""
    nb = nbformat.v4.new_notebook()
    sources = [
        "let x = *3",
        "frob(1)",
        "x + *1",
        ":budget 1234",
        ":budget",
        'plot(nim_sequence(heap("0.6"), 40))',
        'let y = 1\nundefined_thing\nlet z = 2',
        "z",
        ":ascii on",
        "moon",
        ":help kayles",
    ]
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    run_notebook(nb, cwd)
    c = nb.cells
    err = [o for o in c[1].outputs if o.output_type == "error"]
    check(len(err) == 1 and err[0].ename == "E0101", "an error cell's ename is its code",
          repr(c[1].outputs))
    check(err[0].evalue == "unknown name `frob`", "its evalue is the message", err[0].evalue)
    tb = "\n".join(err[0].traceback)
    plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", tb)
    check("\x1b[" in tb and "1 │ frob(1)" in plain and "^^^^ not defined" in plain,
          "its traceback is the coloured diagnostic", repr(tb))
    check(cell_text(c[2]) == "*2\n", "the next cell still sees earlier bindings", cell_text(c[2]))
    check(cell_text(c[4]) == "position budget: 1234 (set it with :budget N, N >= 1)\n",
          ":budget carries over between cells", cell_text(c[4]))
    figs = [o for o in c[5].outputs if o.output_type == "display_data"]
    check(len(figs) == 1, "a plot cell displays one figure", repr(c[5].outputs))
    root = ET.fromstring(figs[0].data["image/svg+xml"])
    check(root.tag == "{http://www.w3.org/2000/svg}svg", "its image/svg+xml parses as SVG", root.tag)
    png = base64.b64decode(figs[0].data["image/png"])
    check(png.startswith(b"\x89PNG\r\n\x1a\n"), "its image/png fallback is a PNG")
    check(not os.path.exists(os.path.join(cwd, "nim-sequence.svg")),
          "an inline plot writes no file")
    check(any(o.output_type == "error" for o in c[6].outputs) and
          any(o.output_type == "error" and o.ename == "E0101" for o in c[7].outputs),
          "the first error ends a cell (the lines after it do not run)")
    check(cell_text(c[9]) == cli("moon", "--ascii"), ":ascii carries over between cells",
          cell_text(c[9]))
    repl = subprocess.run([LOONY], input=":help kayles\n", capture_output=True, text=True)
    check(cell_text(c[10]) == repl.stdout, ":help NAME in a cell shows what the REPL shows",
          cell_text(c[10]))


def quiet(msg):
    """An output hook that keeps the outputs off the test's stdout."""


def shell_reply(kc, msg_id):
    """The reply to `msg_id` on shell (replies to earlier requests are skipped)."""
    while True:
        r = kc.get_shell_msg(timeout=TIMEOUT)
        if r["parent_header"].get("msg_id") == msg_id:
            return r


def check_html(cwd):
    """Records and sequences have text/html beside their text, well formed, periods marked."""
    nb = nbformat.v4.new_notebook()
    sources = ['nim_sequence(heap("0.07"), 200)', 'periodicity(heap("0.07"), 300)', "*2 + *3",
               'quotient(heap("0.123"))']
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    run_notebook(nb, cwd)
    for c, src in zip(nb.cells, sources):
        check(cell_text(c) == cli(src), f"{src}: the text is the CLI's", cell_text(c))
    data = [o.data for c in nb.cells for o in c.outputs if o.output_type == "execute_result"]
    seq = ET.fromstring(f"<div>{data[0]['text/html']}</div>")
    cells = [td.text for td in seq.iter("td") if td.text]
    values = [t for t in cli(sources[0]).split() if not t.endswith(":")]  # less row labels
    check(cells == values and len(cells) == 201, "a sequence's grid holds its values in order",
          repr(cells))
    caption = seq.find("table/caption").text
    check("period 34 from heap 53" in caption, "the grid says the period", caption)
    shaded = [td.text for td in seq.iter("td") if "background" in td.get("style", "")]
    check(len(shaded) == 34 * 2 + (201 - 53 - 34 * 4), "every other period is shaded", len(shaded))
    rec = ET.fromstring(f"<div>{data[1]['text/html']}</div>")
    names = [th.text for th in rec.iter("th")]
    check(names[:2] == ["period", "preperiod"] and
          rec.find("table/caption").text == cli(sources[1]).splitlines()[0],
          "a record's table has its fields", repr(names))
    check("text/html" not in data[2], "a game has no HTML, only its text")
    q = ET.fromstring(f"<div>{data[3]['text/html']}</div>").find(".//table[@class='loony-quotient']")
    flat = lambda text: text.replace("[", "").replace("]", "").strip().split(", ")
    let = 'let q = quotient(heap("0.123"))\n'
    elements, table, p = (flat(cli(let + f"q.{f}")) for f in ("elements", "table", "p_portion"))
    rows = q.findall("tr")
    check([th.text for th in rows[0].findall("th")][1:] == elements
          and [th.text for r in rows[1:] for th in r.findall("th")] == elements,
          "a quotient's table is headed by its elements")
    cells = [td for r in rows[1:] for td in r.findall("td")]
    check([td.text for td in cells] == table, "its cells are the products of `q.table`")
    check(all(("bold" in td.get("style")) == (td.text in p) for td in cells),
          "the P-portion's products are in bold")


def iopub_of(kc, msg_id, until=None):
    """The iopub messages about `msg_id` up to its idle status, or up to and with the first
    of type `until` (others are skipped)."""
    out = []
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status":
            if m["content"]["execution_state"] == "idle":
                return out
            continue
        out.append(m)
        if m["msg_type"] == until:
            return out


def check_client(cwd):
    """Completion, inspection, is_complete, a badly signed message, and interrupts."""
    km = jupyter_client.KernelManager(kernel_name="loony")
    km.start_kernel(cwd=cwd)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        info = kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]
        li = info["language_info"]
        check((li["name"], li["file_extension"], li["mimetype"]) == ("loony", ".cgt", "text/plain"),
              "kernel_info gives the language", repr(li))

        t = time.monotonic()
        reply = kc.execute_interactive('import "std/kayles"', output_hook=quiet, timeout=TIMEOUT)
        check(reply["content"]["status"] == "ok", "import in a cell")
        ok(f"cell round trip {1000 * (time.monotonic() - t):.1f} ms")
        comp = kc.complete("kay", 3, reply=True, timeout=TIMEOUT)["content"]
        check("kayles" in comp["matches"] and comp["cursor_start"] == 0 and comp["cursor_end"] == 3,
              "completing `kay` after the import offers kayles", repr(comp))
        comp = kc.complete("∞ + kay", 7, reply=True, timeout=TIMEOUT)["content"]
        check("kayles" in comp["matches"] and comp["cursor_start"] == 4,
              "completion counts the cursor in characters", repr(comp))

        insp = kc.inspect("nim_sequence(g, 10)", 3, reply=True, timeout=TIMEOUT)["content"]
        repl = subprocess.run([LOONY], input=":help nim_sequence\n", capture_output=True, text=True)
        check(insp["found"] and insp["data"]["text/plain"] + "\n" == repl.stdout,
              "inspecting nim_sequence shows its :help", repr(insp))
        insp = kc.inspect("not_a_name_at_all", 3, reply=True, timeout=TIMEOUT)["content"]
        check(not insp["found"], "inspecting an unknown name finds nothing")

        def is_complete(code):
            msg_id = kc.is_complete(code)
            return shell_reply(kc, msg_id)["content"]["status"]
        check(is_complete("{0, * |") == "incomplete" and is_complete("{0, * | 0}") == "complete",
              "is_complete follows the REPL's continuation rule")

        # A message signed with another key is dropped: the binding it asks for never happens.
        bad = Session(key=b"not-the-key")
        bad.send(kc.shell_channel.socket, "execute_request",
                 {"code": "let forged = 1", "silent": False})
        time.sleep(0.3)
        reply = kc.execute_interactive("forged", output_hook=quiet, timeout=TIMEOUT)
        check(reply["content"]["status"] == "error" and reply["content"]["ename"] == "E0101",
              "a badly signed message is dropped", repr(reply["content"]))

        # "Run all": cells queued behind one that fails are aborted, unless stop_on_error is off.
        slow_error = 'len(nim_sequence(heap("0.6"), 20000))\nfrob(1)'
        for stop in (True, False):
            first = kc.execute(slow_error, stop_on_error=stop)
            queued = kc.execute(f"let after_{stop} = 1", stop_on_error=stop)
            r1, r2 = shell_reply(kc, first), shell_reply(kc, queued)
            want = "aborted" if stop else "ok"
            check(r1["content"]["status"] == "error" and r2["content"]["status"] == want,
                  f"a cell queued behind a failing one is {want} (stop_on_error={stop})",
                  repr((r1["content"]["status"], r2["content"])))
        check(kc.hb_channel.is_beating(), "the heartbeat answers")
        # Frames that are no Jupyter message at all are dropped too, and the kernel goes on.
        kc.shell_channel.socket.send_multipart([b"garbage", b"more"])
        kc.shell_channel.socket.send_multipart([b"<IDS|MSG>", b"", b"{", b"{}", b"{}", b"{}"])
        reply = kc.execute_interactive("*1 + *1", output_hook=quiet, timeout=TIMEOUT)
        check(reply["content"]["status"] == "ok", "malformed messages are dropped, not fatal")
        reply = kc.execute_interactive(":quit", output_hook=quiet, timeout=TIMEOUT)
        check(reply["content"]["payload"] == [{"source": "ask_exit", "keepkernel": False}],
              ":quit asks the front end to leave", repr(reply["content"]))

        for how in ("signal", "message"):
            msg_id = kc.execute('nim_sequence(heap("0.6"), 100000000)')
            # Interrupt once the computation shows it runs (its first progress line): an
            # interrupt before a cell starts is ignored, as between cells.
            early = iopub_of(kc, msg_id, until="stream")
            t = time.monotonic()
            if how == "signal":
                km.interrupt_kernel()
            else:
                kc.control_channel.send(kc.session.msg("interrupt_request", {}))
            r = shell_reply(kc, msg_id)
            took = time.monotonic() - t
            shown = early + iopub_of(kc, msg_id)
            kinds = [m["msg_type"] for m in shown]
            bars = [m["content"]["text"] for m in shown if m["msg_type"] == "stream"]
            check(bars and all("/100000000 heaps (eta" in b for b in bars)
                  and kinds.index("error") > max(i for i, k in enumerate(kinds) if k == "stream")
                  and shown[kinds.index("error") - 1]["content"] == {"wait": False},
                  f"the progress bar shows as stream updates, cleared before the error ({how})",
                  repr(kinds))
            check(r["content"]["status"] == "error" and r["content"]["ename"] == "E0501" and took < 2,
                  f"an interrupt ({how}) stops a long cell with E0501 in {took:.2f} s",
                  repr(r["content"]))
            out = []
            reply = kc.execute_interactive("*2 + *3", output_hook=out.append, timeout=TIMEOUT)
            res = [m["content"]["data"]["text/plain"] for m in out if m["msg_type"] == "execute_result"]
            check(reply["content"]["status"] == "ok" and res == ["*"],
                  f"the kernel answers the next cell after the interrupt ({how})", repr(res))
        reply = kc.execute_interactive("kayles(4)", output_hook=quiet, timeout=TIMEOUT)
        check(reply["content"]["status"] == "ok", "the session kept its import through interrupts")
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    check(not km.is_alive(), "shutdown_request ends the kernel")


def main():
    mode, cgt, ipynb = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as cwd:
        if mode == "write":
            write_tour(cgt, ipynb, cwd)
            return
        t = time.monotonic()
        check_tour(cgt, ipynb, cwd)
        check_cells(cwd)
        check_html(cwd)
        check_client(cwd)
        print(f"all kernel checks passed in {time.monotonic() - t:.1f} s")


if __name__ == "__main__":
    main()
