#!/usr/bin/env python3
"""The progress bar: shown on stderr when it is a terminal and a table grows for more than
a second (heaps per second, time left), or a loopy game's positions are listed and
labelled, erased at the end; nothing when stderr is a pipe.

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


def on_terminal(args):
    """Runs args with stderr on a pseudo-terminal and stdout to a file (a pipe nobody reads
    would block); returns the exit status, what the terminal showed and standard output."""
    master, slave = pty.openpty()
    stdout_path = os.path.join(WORK, "stdout.txt")
    stdout_file = open(stdout_path, "wb")
    proc = subprocess.Popen(args, stdout=stdout_file, stderr=slave)
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
        return proc.returncode, screen.decode(errors="replace"), f.read()


status, text, out = on_terminal(ARGS)
check(status == 0, "the run succeeds")
check("Grundy: [" in text and "heaps/s" in text and " left" in text,
      "a bar with speed and time left is drawn: %r" % text[:200])
check(text.endswith("\r\x1b[K"), "the bar is erased at the end: %r" % text[-40:])
check(out.decode().startswith("Grundy(0..%d): 0 0 0 1" % HEAPS), "the values still go to stdout")

piped = subprocess.run(ARGS, capture_output=True)
check(piped.returncode == 0 and piped.stderr == b"", "nothing on stderr when it is a pipe")
check(piped.stdout == out, "the same values either way")

# A loopy game (reference.md section 4.10): the listing of its positions, whose number is not
# known in advance, shows a count and a speed; the labelling a bar. Each position tries 400
# values of k for its move to the right, on the interpreter: a million positions take about three
# seconds there, in 70 MiB; a sixteenth under sanitizers (four seconds there).
SIDE = 1000 // (4 if int(os.environ.get("GDSL_TEST_SCALE", "1")) > 1 else 1)
LOOPY = os.path.join(WORK, "torus.game")
with open(LOOPY, "w") as f:
    f.write("const N = %d\n"
            "loopy game T(a, b) {\n"
            "  move right(k in 1..400) when (a * k + b) %% 401 == 400 -> T((a + 1) %% N, b)\n"
            "  move up when a %% 7 == 3 -> T(a, (b + 1) %% N)\n"
            "}\n" % SIDE)
LOOPY_ARGS = [GDSL, "eval", LOOPY, "-e", "T(1, 0)", "--backend", "interp"]
status, text, out = on_terminal(LOOPY_ARGS)
check(status == 0, "the loopy run succeeds")
check("T, listing positions: " in text and " positions/s" in text,
      "the listing shows its count and speed: %r" % text[:200])
check(text.endswith("\r\x1b[K"), "the loopy game's bar is erased at the end: %r" % text[-40:])
check(out.decode().startswith("T(1, 0): "), "the value still goes to stdout: %r" % out[:80])
piped = subprocess.run(LOOPY_ARGS, capture_output=True)
check(piped.returncode == 0 and piped.stderr == b"" and piped.stdout == out,
      "nothing on stderr when it is a pipe, the same value")

if failures:
    sys.exit(1)
print("ok")
