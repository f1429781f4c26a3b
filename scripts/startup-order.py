#!/usr/bin/env python3
"""Writes cli/startup-order.txt: the functions of the gdsl executable that short
runs execute, in the order they are first met, one mangled name per line. The
link puts them first and together (CMakeLists.txt, GDSL_ORDER_STARTUP), so that a
short run touches a few pages of code instead of pages all over the executable
(docs/architecture.md, "Start-up"; bench/README.md, "Start-up").

usage: scripts/startup-order.py [BUILD]   (BUILD defaults to build)

Needs valgrind (callgrind lists every function a run executes). A list made
from an older build still works: names that no longer exist are ignored, and
functions not on the list are placed after the listed ones. Run it again when
the start-up path changes much, and commit the list.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
GDSL = os.path.join(BUILD, "gdsl")
OUT = os.path.join(ROOT, "cli", "startup-order.txt")

# Short runs of the kinds users make: an octal game's value, a rule game's table,
# a standard-library position, a check, the version.
WORK = tempfile.mkdtemp(prefix="gdsl-order-")
with open(os.path.join(WORK, "K.game"), "w") as f:
    f.write('game K = octal "0.77"\n')
with open(os.path.join(WORK, "N.game"), "w") as f:
    f.write("game N(n) { take 1..n }\neval N(3) + N(5)\n")
RUNS = [
    ["eval", "K.game", "-e", "K(100000)"],
    ["eval", "N.game"],
    ["table", "N.game", "N(0..20)"],
    ["eval", "--stdlib-only", "-e", "Nim(3) + Nim(5)"],
    ["check", "K.game"],
    ["--version"],
]


def executed(args, out_file):
    """Runs gdsl under callgrind; returns the executable's functions it executed."""
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                    "--callgrind-out-file=" + out_file, GDSL] + args,
                   cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    # Names are compressed: "fn=(7) name" the first time, "fn=(7)" after; a
    # called function ("cfn=") may be named first. "ob="/"cob=" give the object.
    objects, names, order = {}, {}, []
    obj = called_obj = None
    for line in open(out_file, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, number, name = m.groups()
            if name:
                objects[number] = name
            if kind == "ob":
                obj = objects.get(number)
            else:
                called_obj = objects.get(number)
            continue
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, number, name = m.groups()
            if name:
                names[number] = name
            owner = obj if kind == "fn" else (called_obj or obj)
            name = names.get(number, "")
            if kind == "fn":
                called_obj = None
            if owner and os.path.realpath(owner) == os.path.realpath(GDSL) and name:
                name = name.split("'")[0]  # callgrind marks recursion levels with '2
                if not name.startswith("("):
                    order.append(name)
    return order


def main():
    seen, order = set(), []
    for i, args in enumerate(RUNS):
        for name in executed(args, os.path.join(WORK, "callgrind.%d" % i)):
            if name not in seen:
                seen.add(name)
                order.append(name)
    if len(order) < 100:
        sys.exit("startup-order: only %d functions found; is %s built?" % (len(order), GDSL))
    with open(OUT, "w") as f:
        f.write("\n".join(order) + "\n")
    print("startup-order: %d functions written to %s" % (len(order), OUT))


main()
