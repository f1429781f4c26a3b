"""The Jupyter kernel (docs/jupyter.md), driven as Jupyter drives it.

    kernel.py GDSL SOURCE_DIR WORK_DIR

Installs the kernelspec with `gdsl jupyter install --prefix`, then
- runs examples/tour.ipynb with nbclient and checks its outputs: the HTML
  tables' cells against brute forces written here (the definitions, plainly),
  the text of eval, moves and `show` boards, the SVG of `plot` (one mark per
  heap), the redefinition message and the new values;
- runs cells that fail (a name error, a syntax error, a failed assertion):
  the error as the command line prints it, the cell named `In [N]`, with its
  caret under the column, and the cell's reply an error;
- through a kernel client: an interrupt stops a long table, the reply says
  so, and the next cells still know the game and its values; completion and
  inspection (Shift-Tab) of a game.
"""

import html
import os
import re
import subprocess
import sys
import time

GDSL, SOURCE, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
for name in ("JUPYTER_RUNTIME_DIR", "IPYTHONDIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR"):
    os.environ[name] = os.path.join(WORK, name.lower())
os.environ["JUPYTER_PATH"] = os.path.join(WORK, "prefix", "share", "jupyter")
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"

import nbclient  # noqa: E402  (after the environment is set)
import nbformat  # noqa: E402
from jupyter_client.manager import start_new_kernel  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


# --- brute forces: the definitions, plainly ---------------------------------


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


def subtraction(n, takes):
    g = []
    for h in range(n + 1):
        g.append(mex({g[h - t] for t in takes if t <= h}))
    return g


def kayles(n):  # octal 0.77: take 1 or 2 pins, leaving 0, 1 or 2 rows
    g = []
    for h in range(n + 1):
        options = set()
        for t in (1, 2):
            for a in range(0, h - t + 1):
                options.add(g[a] ^ g[h - t - a])
        g.append(mex(options))
    return g


def wythoff(n):
    g = [[0] * (n + 1) for _ in range(n + 1)]
    for a in range(n + 1):
        for b in range(n + 1):
            options = {g[a - k][b] for k in range(1, a + 1)}
            options |= {g[a][b - k] for k in range(1, b + 1)}
            options |= {g[a - k][b - k] for k in range(1, min(a, b) + 1)}
            g[a][b] = mex(options)
    return g


def cells(table_html):
    """The <td> cells of an HTML table, in order, as integers."""
    return [int(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td>(.*?)</td>", table_html)]


# --- install -----------------------------------------------------------------

installed = subprocess.run(
    [GDSL, "jupyter", "install", "--prefix", os.path.join(WORK, "prefix")],
    capture_output=True,
    text=True,
)
check(installed.returncode == 0, "gdsl jupyter install: %s" % installed.stderr)
spec_dir = os.path.join(WORK, "prefix", "share", "jupyter", "kernels", "gdsl")
check(os.path.exists(os.path.join(spec_dir, "kernel.json")), "kernel.json written")
check(os.path.exists(os.path.join(spec_dir, "gdsl_kernel.py")), "gdsl_kernel.py written")

# --- the example notebook ------------------------------------------------------

nb = nbformat.read(os.path.join(SOURCE, "examples", "tour.ipynb"), as_version=4)
nbclient.NotebookClient(nb, kernel_name="gdsl", timeout=120).execute()
code = [c for c in nb.cells if c.cell_type == "code"]


def outputs(cell, mime):
    return [o["data"][mime] for o in cell.outputs if "data" in o and mime in o["data"]]


def streams(cell, name):
    return "".join(o["text"] for o in cell.outputs if o.output_type == "stream" and o.name == name)


def cell_with(text):
    found = [c for c in code if text in c.source]
    check(len(found) >= 1, "a cell with %r" % text)
    return found[0]


sub = cell_with("table Sub(0..29)")
tables = outputs(sub, "text/html")
check(len(tables) == 1, "Sub's table is one HTML table")
check(cells(tables[0]) == subtraction(29, (1, 3, 4)), "Sub's HTML cells are its values")
check("<td><b>0</b></td>" in tables[0], "P-positions in bold")

sums = cell_with("eval Sub(4) + Sub(5)")
text = "\n".join(outputs(sums, "text/plain"))
check("Sub(4) + Sub(5): *1, N, winning move Sub(5) -> Sub(4)" in text, "eval's text: " + text)
check("moves of Sub(4) + Sub(5) (*1, N):" in text, "moves' text")

k = cell_with("table Kayles(0..20)")
check(cells(outputs(k, "text/html")[0]) == kayles(20), "Kayles' HTML cells are its values")
check(any("preperiod 71, period 12 (proved" in t for t in outputs(k, "text/plain")), "period")

plot = cell_with("plot Kayles(0..120)")
svgs = outputs(plot, "image/svg+xml")
check(len(svgs) == 1 and svgs[0].lstrip().startswith("<?xml"), "plot gives one SVG")
if svgs:
    titles = re.findall(r"<title>Kayles\((\d+)\): \*?(\d+)</title>", svgs[0])
    check(len(titles) == 121, "one mark per heap: %d" % len(titles))
    g = kayles(120)
    check(all(g[int(h)] == int(v) for h, v in titles), "each mark's value")

w = cell_with("table Wythoff(0..9, 0..9)")
flat = [v for row in wythoff(9) for v in row]
check(cells(outputs(w, "text/html")[0]) == flat, "Wythoff's grid cells are its values")
check(len(outputs(cell_with("plot Wythoff(0..40, 0..40)"), "image/svg+xml")) == 1, "grid plot")

board = "\n".join(outputs(cell_with("show board"), "text/plain"))
check("NK(.###/####/####): *4, N" in board, "a board drawn by show: " + board)

misere = "\n".join(outputs(cell_with("eval misere"), "text/plain"))
check("misere Kayles(1) + Kayles(1): N" in misere, "misere text")

redefined = cell_with("take {1, 2}")
check("Sub redefined: its values are computed afresh" in streams(redefined, "stdout"),
      "the redefinition message")
check(cells(outputs(redefined, "text/html")[0]) == subtraction(9, (1, 2)), "the new Sub's values")
check(all(o.output_type != "error" for c in code for o in c.outputs), "the tour has no error")

# --- cells that fail ----------------------------------------------------------

bad = nbformat.v4.new_notebook(
    cells=[
        nbformat.v4.new_code_cell("game Sub(n) { take 1..3 }"),
        nbformat.v4.new_code_cell("eval Sub(x)"),
        nbformat.v4.new_code_cell("game Broken(n) {\n  take 1..\n}"),
        nbformat.v4.new_code_cell("assert Sub(4) == *1"),
        nbformat.v4.new_code_cell("eval Sub(5)"),
        # nbclient interrupts a cell past its time (3 s here), as a user would.
        nbformat.v4.new_code_cell("game W(a, b) {\n  move l(k in 1..a) -> W(a - k, b)\n"
                                  "  move r(k in 1..b) -> W(a, b - k)\n}\n"
                                  "table W(0..3000, 0..3000)"),
        nbformat.v4.new_code_cell("eval W(3, 5)\n:stats"),
    ],
    metadata={"kernelspec": {"name": "gdsl", "display_name": "gdsl", "language": "gdsl"}},
)
nbclient.NotebookClient(
    bad,
    kernel_name="gdsl",
    timeout=60,
    timeout_func=lambda cell: 3 if "3000" in cell.source else 60,
    interrupt_on_timeout=True,
    allow_errors=True,
).execute()
name_error = streams(bad.cells[1], "stderr")
check("In [2]:1:10: error: unknown name 'x'\n  eval Sub(x)\n           ^" in name_error,
      "the name error as the CLI prints it: %r" % name_error)
check(any(o.output_type == "error" for o in bad.cells[1].outputs), "an error reply")
syntax = streams(bad.cells[2], "stderr")
check(syntax.startswith("In [3]:") and "error:" in syntax and "^" in syntax,
      "the syntax error: %r" % syntax)
failed = streams(bad.cells[3], "stderr")
check("In [4]:1:1: error: assertion failed: Sub(4) has value 0, not *1" in failed,
      "a failed assertion: %r" % failed)
check("Sub(5): *1, N" in "\n".join(outputs(bad.cells[4], "text/plain")),
      "the session goes on after errors")

interrupted = [o for o in bad.cells[5].outputs if o.output_type == "error"]
check(len(interrupted) == 1 and interrupted[0]["ename"] == "Interrupted",
      "nbclient's interrupt stops the table: %r" % bad.cells[5].outputs)
after = "\n".join(outputs(bad.cells[6], "text/plain")) + streams(bad.cells[6], "stdout")
memo = re.search(r"(\d+) values memoized", after)
check("W(3, 5): *6, N" in after and memo is not None and int(memo.group(1)) > 1000,
      "after nbclient's interrupt, the values are kept: %r" % after)

# --- interrupt, completion, inspection -----------------------------------------

km, kc = start_new_kernel(kernel_name="gdsl")
try:

    def shell_reply(msg_id, timeout=60):
        """The reply to request `msg_id`. (Replies to other requests are skipped:
        on a slow start the client asks for kernel_info more than once.)"""
        while True:
            msg = kc.get_shell_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg["content"]

    def run(source, timeout=60):
        """Executes `source`; returns the reply and the outputs' text."""
        msg_id = kc.execute(source)
        texts = []
        while True:
            msg = kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                texts.append(content["text"])
            elif kind == "display_data":
                texts.append(content["data"].get("text/plain", ""))
            elif kind == "status" and content["execution_state"] == "idle":
                break
        return shell_reply(msg_id, timeout), "\n".join(texts)

    def memoized(text):
        found = re.search(r"(\d+) values memoized", text)
        return int(found.group(1)) if found else -1

    reply, text = run("game W(a, b) {\n  move l(k in 1..a) -> W(a - k, b)\n"
                      "  move r(k in 1..b) -> W(a, b - k)\n}\neval W(3, 5)\n:stats")
    check(reply["status"] == "ok", "W defined")
    before = memoized(text)
    started = time.monotonic()
    msg_id = kc.execute("table W(0..3000, 0..3000)")
    time.sleep(2)
    km.interrupt_kernel()
    reply = shell_reply(msg_id)
    took = time.monotonic() - started
    check(reply["status"] == "error" and reply.get("ename") == "Interrupted",
          "the interrupted cell's reply: %r" % reply)
    check(took < 30, "the interrupt was taken up (%.1f s)" % took)
    # (Jupyter aborts what was sent just after an error reply.)
    time.sleep(1)
    reply, text = run("eval W(3, 5)\n:stats")
    check(reply["status"] == "ok" and "W(3, 5): *6, N" in text, "the game is still known: " + text)
    check(memoized(text) > max(before, 0),
          "the values computed before the interrupt are kept (%d before): %s" % (before, text))

    run("game Wythoff(a, b) {\n  move left(k in 1..a) -> Wythoff(a - k, b)\n}")
    matches = shell_reply(kc.complete("eval Wyt", 8))
    check("Wythoff" in matches["matches"] and matches["cursor_start"] == 5,
          "completion: %r" % matches)
    run("const Limit = 9")
    matches = shell_reply(kc.complete("eval Wythoff(Lim", 16))
    check("Limit" in matches["matches"], "constants complete")
    check("max" in shell_reply(kc.complete("eval ma", 7))["matches"], "built-ins complete")

    run("game Sub(n) { take {1, 3, 4} }")
    about = shell_reply(kc.inspect("eval Sub(3)", 7))
    shown = about.get("data", {}).get("text/plain", "")
    check(about["found"] and shown.startswith("Sub(n)"), "inspection: %r" % about)
    first = " ".join(str(v) for v in subtraction(15, (1, 3, 4)))
    check("Sub(0..15): " + first in shown, "inspection shows the first values: %r" % shown)
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    del kc, km  # (before the interpreter's teardown, which their destructors dislike)

if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
print("the Jupyter kernel: every check passed")
