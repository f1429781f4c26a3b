"""The Jupyter kernel's time for a cell against `gdsl eval` of the same text.

    /usr/bin/python3 bench/jupyter_latency.py [--gdsl build/gdsl] [--runs 30] [--heaps 1000]

A cell that defines a game and prints its table (`game SubK(n) { take {1, 3, 4} }` and
`table SubK(0..N)`, K new each run so that the kernel computes the table afresh as
`gdsl eval` does) is timed from the execute request to the reply, through a kernel client
as a notebook sends it, and `gdsl eval FILE` of the same text from the start of the
process to its end. The two alternate, run by run; the medians and their difference are
printed (the issue's target: at most 20 ms more for the kernel).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("--gdsl", default="build/gdsl")
parser.add_argument("--runs", type=int, default=30)
parser.add_argument("--heaps", type=int, default=1000)
args = parser.parse_args()
gdsl = os.path.abspath(args.gdsl)

work = tempfile.mkdtemp(prefix="gdsl-jupyter-bench-")
for name in ("JUPYTER_RUNTIME_DIR", "IPYTHONDIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR"):
    os.environ[name] = os.path.join(work, name.lower())
os.environ["JUPYTER_PATH"] = os.path.join(work, "prefix", "share", "jupyter")
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
subprocess.run([gdsl, "jupyter", "install", "--prefix", os.path.join(work, "prefix")],
               check=True, capture_output=True)

from jupyter_client.manager import start_new_kernel  # noqa: E402


def text(k):
    return "game Sub%d(n) {\n  take {1, 3, 4}\n}\ntable Sub%d(0..%d)\n" % (k, k, args.heaps)


km, kc = start_new_kernel(kernel_name="gdsl")
kernel_times, eval_times = [], []
try:
    kc.execute_interactive(text(0), timeout=60, output_hook=lambda msg: None)  # warm-up
    path = os.path.join(work, "cell.game")
    for k in range(1, args.runs + 1):
        started = time.perf_counter()
        reply = kc.execute_interactive(text(k), timeout=60, output_hook=lambda msg: None)
        kernel_times.append(time.perf_counter() - started)
        assert reply["content"]["status"] == "ok", reply
        with open(path, "w") as f:
            f.write(text(k))
        started = time.perf_counter()
        subprocess.run([gdsl, "eval", path], check=True, stdout=subprocess.DEVNULL)
        eval_times.append(time.perf_counter() - started)
finally:
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    del kc, km  # (before the interpreter's teardown, which their destructors dislike)

kernel_ms = statistics.median(kernel_times) * 1e3
eval_ms = statistics.median(eval_times) * 1e3
print("cell: game + table of %d heaps, %d runs each, alternating" % (args.heaps + 1, args.runs))
print("kernel (execute to reply): median %.1f ms (min %.1f, max %.1f)"
      % (kernel_ms, min(kernel_times) * 1e3, max(kernel_times) * 1e3))
print("gdsl eval (process start to end): median %.1f ms (min %.1f, max %.1f)"
      % (eval_ms, min(eval_times) * 1e3, max(eval_times) * 1e3))
print("kernel - eval: %+.1f ms" % (kernel_ms - eval_ms))
sys.exit(0)
