#!/usr/bin/env python3
"""Every program's `gdsl check --dump=desugared` parses back to the same IR.

For each program of the repository that checks cleanly (examples/, stdlib/,
bench/games/, the golden cases, those of errors/ that fail only when run), the
desugared text is written beside the program (so that its imports resolve the
same way), checked again, and both programs' `--dump=ir` are compared. The desugared text spells
every sugar (`take`, `split`, `remove`, octal codes) as the `move` rules it
stands for, so what the analyses recognise from the sugar alone is not in it:
the part of a game's header line after `slots:` (the take-and-break shape read
from the sugar) is left out of the comparison. Everything else (every move,
binder, guard, successor, normalize rule and statement) must be equal.

Under the sanitizers (GDSL_TEST_SCALE=N, docs/testing.md), where each of the
three runs per program costs a tenth of a second of start-up, every N-th
program of the sorted list is checked (the same ones in every run); the
Release run checks them all.

Usage: desugared_roundtrip.py GDSL ROOT SCRATCH
"""
import glob
import json
import os
import re
import subprocess
import sys


def run(gdsl, args):
    return subprocess.run([gdsl] + args, capture_output=True, text=True, timeout=120)


def comparable(ir):
    """The IR dump without what comes from sugar alone (see the docstring)."""
    return re.sub(r"^(game .*?slots: \d+ int, \d+ list).*$", r"\1", ir, flags=re.M)


def main():
    gdsl, root, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(scratch, exist_ok=True)
    programs = []
    for pattern in ("examples/*.game", "stdlib/*.game", "bench/games/*.game",
                    "tests/golden/*/*.game"):
        programs += sorted(glob.glob(os.path.join(root, pattern)))
    scale = max(1, int(os.environ.get("GDSL_TEST_SCALE", "1")))
    programs = programs[::scale]
    checked, failures = 0, []
    for program in programs:
        original = run(gdsl, ["check", "--dump=ir", program])
        if original.returncode != 0:
            continue  # a case whose program is an error, or needs its .cmd
        desugared = run(gdsl, ["check", "--dump=desugared", program])
        if desugared.returncode != 0:
            failures.append(f"{program}: --dump=desugared failed:\n{desugared.stderr}")
            continue
        here = os.path.dirname(os.path.abspath(program))
        text = re.sub(r'^import "([^"]*)"',
                      lambda m: "import " + json.dumps(os.path.join(here, m.group(1))),
                      desugared.stdout, flags=re.M)
        copy = os.path.join(scratch, os.path.basename(program))
        with open(copy, "w") as f:
            f.write(text)
        again = run(gdsl, ["check", "--dump=ir", copy])
        if again.returncode != 0:
            failures.append(f"{program}: its desugared text does not check:\n{again.stderr}")
        elif comparable(again.stdout) != comparable(original.stdout):
            a = comparable(original.stdout).splitlines()
            b = comparable(again.stdout).splitlines()
            at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            failures.append(f"{program}: another IR from its desugared text, line {at + 1}:\n"
                            f"  {a[at] if at < len(a) else '(end)'}\n"
                            f"  {b[at] if at < len(b) else '(end)'}")
        checked += 1
    for f in failures:
        print(f)
    print(f"{checked} programs, {len(failures)} failures")
    # The repository has well over a hundred programs that check cleanly.
    if failures or checked < 100 // scale:
        sys.exit(1)


if __name__ == "__main__":
    main()
