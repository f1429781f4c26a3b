#!/usr/bin/python3
"""Loopy games (issue 36): games/loopy_walk.game against baselines/loopy_walk.cpp.

    /usr/bin/python3 bench/loopy.py [--gdsl build/gdsl] [--runs 5] [--jit]

gdsl as a user runs it (`gdsl table games/loopy_walk.game 'Walk(0..30)'`, the default
backend; with --jit also `--backend jit`) and the hand-written labelling in C++ (built here
with g++ -O2 -march=native into a temporary directory) run in turn --runs times after a
warm-up each; prints the median wall seconds, the median of the ratios pair by pair and
the peak memory (GNU time), after checking that both print the same line. Results:
bench/LOOPY.md.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boards import paired  # noqa: E402  (A and B in turn: medians, ratio, peaks)

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jit", action="store_true", help="also time --backend jit")
    args = p.parse_args()
    game = os.path.join(BENCH, "games", "loopy_walk.game")
    with tempfile.TemporaryDirectory() as tmp:
        baseline = os.path.join(tmp, "loopy_walk")
        subprocess.run(["g++", "-O2", "-march=native", "-o", baseline,
                        os.path.join(BENCH, "baselines", "loopy_walk.cpp")], check=True)
        cpp = [baseline]
        runs = [("gdsl (default)", [args.gdsl, "table", game, "Walk(0..30)"])]
        if args.jit:
            runs.append(("gdsl --backend jit", runs[0][1] + ["--backend", "jit"]))
        expected = subprocess.run(cpp, capture_output=True, text=True, check=True).stdout
        print("| program | gdsl (s) | C++ (s) | gdsl / C++ | gdsl peak MiB | C++ peak MiB |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, cmd in runs:
            got = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            if got != expected:
                sys.exit("different values:\n gdsl %s C++  %s" % (got, expected))
            a, b, ratio, pa, pb = paired(cmd, cpp, args.runs, 600)
            print("| %s | %.2f | %.2f | %.1f | %.0f | %.0f |" % (name, a, b, ratio, pa, pb))


if __name__ == "__main__":
    main()
