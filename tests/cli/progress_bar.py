#!/usr/bin/env python3
"""The progress bar: shown on stderr when it is a terminal and a table grows for more than
a second (heaps per second, time left), erased at the end; nothing when stderr is a pipe.

usage: progress_bar.py GDSL WORKDIR
"""
import os
import pty
import subprocess
import sys

GDSL, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
GAME = os.path.join(WORK, "grundy.game")
with open(GAME, "w") as f:
    f.write("game Grundy(n) { split unequal }\n")
# The plain method on the interpreter: a few seconds, long enough for a bar. Under
# sanitizers (GDSL_TEST_SCALE=N, docs/testing.md) the same time takes fewer heaps.
# The bar shows after 0.9 s and is updated every 4096 heaps.
HEAPS = max(15000, 30000 // max(1, int(os.environ.get("GDSL_TEST_SCALE", "1"))))
ARGS = [GDSL, "table", GAME, "Grundy(0..%d)" % HEAPS, "--plain", "--backend", "interp"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# stderr on a pseudo-terminal, stdout to a file (a pipe nobody reads would block).
master, slave = pty.openpty()
stdout_path = os.path.join(WORK, "stdout.txt")
stdout_file = open(stdout_path, "wb")
proc = subprocess.Popen(ARGS, stdout=stdout_file, stderr=slave)
os.close(slave)
screen = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    screen += chunk
proc.wait()
stdout_file.close()
os.close(master)
with open(stdout_path, "rb") as f:
    out = f.read()
text = screen.decode(errors="replace")
check(proc.returncode == 0, "the run succeeds")
check("Grundy: [" in text and "heaps/s" in text and " left" in text,
      "a bar with speed and time left is drawn: %r" % text[:200])
check(text.endswith("\r\x1b[K"), "the bar is erased at the end: %r" % text[-40:])
check(out.decode().startswith("Grundy(0..%d): 0 0 0 1" % HEAPS), "the values still go to stdout")

piped = subprocess.run(ARGS, capture_output=True)
check(piped.returncode == 0 and piped.stderr == b"", "nothing on stderr when it is a pipe")
check(piped.stdout == out, "the same values either way")

if failures:
    sys.exit(1)
print("ok")
