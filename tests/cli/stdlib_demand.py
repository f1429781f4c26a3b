#!/usr/bin/env python3
"""`--stdlib-only` without FILE loads only the std modules that the command's statements name
(driver/Stdlib.h): every command answers exactly as with the whole library, which
`--stdlib-only EMPTY.game` still loads (same standard output, standard error and exit status),
for a name of every module, sums across modules, tables, periods, plots, play, --json and
errors (an unknown name's suggestion comes from a module the command does not name). That only
the named modules are loaded is checked by tests/unit/stdlib_demand_test.cpp.

usage: stdlib_demand.py GDSL WORKDIR
"""
import os
import subprocess
import sys

GDSL, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
EMPTY = os.path.join(WORK, "empty.game")
with open(EMPTY, "w") as f:
    f.write("// nothing: --stdlib-only with a FILE loads the whole library\n")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, stdin=""):
    env = dict(os.environ)
    env["GDSL_CACHE_DIR"] = "off"
    return subprocess.run([GDSL] + args, capture_output=True, text=True, env=env, input=stdin,
                          timeout=120)


# (command, arguments after it, standard input); each runs without FILE and with EMPTY.
CASES = [
    ("eval", ["-e", "Nim(3) + Nim(5)"], ""),
    ("eval", ["-e", "Bash(7, 3)", "-e", "Lasker(9) + Grundy(10)"], ""),
    ("eval", ["-e", "Kayles(10) + DawsonChessRow(6)", "-e", "misere Treblecross(7)"], ""),
    ("eval", ["-e", "Crosses(6) + Wythoff(3, 5)", "-e", "Cut(3, 4)"], ""),
    ("eval", ["-e", "Moore([3, 1, 2]) + Staircase([1, 2, 3])", "-e", "Northcott([2, 5])"], ""),
    ("eval", ["-e", "Kayles(5) + Moore([1, 2]) + Crosses(4) + Nim(2)", "--json"], ""),
    ("eval", [], ""),
    ("eval", ["-e", "Nimm(3)"], ""),
    ("eval", ["-e", "Kayles(3) + Wythof(1, 2)", "--json"], ""),
    ("eval", ["-e", "Nim(3)", "-e", "Kayles(1, 2)"], ""),
    ("eval", ["-e", "Nim("], ""),
    ("eval", ["-e", "Moore(3)"], ""),
    ("table", ["Grundy(0..30)"], ""),
    ("table", ["Wythoff(0..5, 0..5)", "--json"], ""),
    ("table", ["Grundyy(0..30)"], ""),
    ("period", ["DawsonChess"], ""),
    ("period", ["Kayle"], ""),
    ("plot", ["Nim(0..20)", "-o", "-"], ""),
    ("play", ["Nim(2) + Nim(3)", "--computer-first", "--seed", "1"], "quit\n"),
    ("play", ["Nimx(2)"], "quit\n"),
]

for command, rest, stdin in CASES:
    alone = run([command, "--stdlib-only"] + rest, stdin)
    whole = run([command, "--stdlib-only", EMPTY] + rest, stdin)
    what = "gdsl %s --stdlib-only %s" % (command, " ".join(rest))
    check(alone.returncode == whole.returncode,
          "%s: exit %d, with the whole library %d" % (what, alone.returncode, whole.returncode))
    check(alone.stdout == whole.stdout,
          "%s: stdout %r, with the whole library %r" % (what, alone.stdout, whole.stdout))
    check(alone.stderr == whole.stderr,
          "%s: stderr %r, with the whole library %r" % (what, alone.stderr, whole.stderr))

r = run(["eval", "--stdlib-only", "-e", "Nimm(3)"])
check(r.returncode == 1 and "did you mean 'Nim'?" in r.stderr,
      "an unknown name is suggested from the whole library: %r" % r.stderr)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok: %d commands answer as with the whole library" % len(CASES))
