#!/usr/bin/python3
"""Boards (issue 35): Cram and Node Kayles on grids, written the plain way, against
Beling's igsolve.

    /usr/bin/python3 bench/boards.py [--gdsl build/gdsl] [--igsolve PATH] [--timeout 60]
                                     [--runs 3] [--only 4x9,5x7] [--output bench/BOARDS.md]

Rows: Cram on 4 x 5 .. 4 x 13, 5 x 5 .. 5 x 9, 6 x 6, 6 x 7, 7 x 7 (bench/games/cram.game
with its two constants set), the value of the empty board by
`gdsl eval FILE -e 'Cram(N)' --json` with N = 2^(W*H) - 1, the full board (the default backend and command line),
against `igsolve --tt hash-map cram H W` (its hash-map table: its default for boards over 40
cells reserves 8 GiB up front); and Node Kayles on 4 x 4 .. 7 x 7
(bench/games/node_kayles.game), which igsolve does not play, gdsl alone. Each program runs
once with the time limit; where both finish, they run in turn --runs times after a warm-up
each (paired()) and the table gives the median wall seconds, the median of the ratios pair by
pair and the peak memory. The values
are checked equal. `--only` keeps the boards it names (W x H, both games). igsolve is built
outside the repository (bench/BOARDS.md says how).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from heaps import timed  # noqa: E402  (one run: wall seconds and peak memory)

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
CRAM = [(4, h) for h in range(5, 14)] + [(5, h) for h in range(5, 10)] + [(6, 6), (6, 7), (7, 7)]
KAYLES = [(w, w) for w in range(4, 8)]


def board_file(tmp, name, w, h):
    """bench/games/NAME.game with W and H set; cell (x, y) is bit y * W + x."""
    with open(os.path.join(BENCH, "games", name + ".game")) as f:
        text = f.read()
    text = re.sub(r"^const W = \d+$", "const W = %d" % w, text, flags=re.M)
    text = re.sub(r"^const H = \d+$", "const H = %d" % h, text, flags=re.M)
    path = os.path.join(tmp, "%s_%dx%d.game" % (name, w, h))
    with open(path, "w") as f:
        f.write(text)
    return path


def once(cmd, timeout):
    """(wall seconds, stdout) of one run, or (None, '') past the time limit."""
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None, ""
    return time.monotonic() - start, out.stdout


def paired(a, b, runs, timeout):
    """A and B in turn, `runs` times after one warm-up each (wall seconds from fork to reap,
    peak memory by GNU time, as bench/heaps.py measures): (A median wall, B median wall,
    median of the ratios A/B pair by pair, A peak MiB, B peak MiB)."""
    timed(a, timeout=timeout)
    timed(b, timeout=timeout)
    walls_a, walls_b, ratios, peaks_a, peaks_b = [], [], [], [], []
    for _ in range(runs):
        ta, pa = timed(a, timeout=timeout)[:2]
        tb, pb = timed(b, timeout=timeout)[:2]
        walls_a.append(ta)
        walls_b.append(tb)
        ratios.append(ta / max(tb, 1e-6))
        peaks_a.append(pa or 0.0)
        peaks_b.append(pb or 0.0)
    return (statistics.median(walls_a), statistics.median(walls_b), statistics.median(ratios),
            max(peaks_a), max(peaks_b))


def gdsl_value(stdout):
    return json.loads(stdout.strip().splitlines()[-1])["grundy"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    p.add_argument("--igsolve", default="/work/peers/igsolve/bin/igsolve")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--output", default=None)
    p.add_argument("--only", default=None, help="boards to run, e.g. 4x9,5x7 (default: all)")
    args = p.parse_args()
    only = None if args.only is None else {tuple(int(x) for x in b.split("x"))
                                           for b in args.only.split(",")}
    cram = [b for b in CRAM if only is None or b in only]
    kayles = [b for b in KAYLES if only is None or b in only]
    lines = ["| board | value | gdsl (s) | igsolve (s) | gdsl / igsolve | gdsl peak MiB | "
             "igsolve peak MiB |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    with tempfile.TemporaryDirectory() as tmp:
        for w, h in cram:
            path = board_file(tmp, "cram", w, h)
            a = [args.gdsl, "eval", path, "-e", "Cram(%d)" % ((1 << (w * h)) - 1), "--json"]
            b = [args.igsolve, "--tt", "hash-map", "cram", str(h), str(w)]
            ta, out_a = once(a, args.timeout)
            tb, out_b = once(b, args.timeout)
            va = gdsl_value(out_a) if ta is not None else None
            m = re.search(r"Nimber of initial position: (\d+)", out_b)
            vb = int(m.group(1)) if m else None
            if va is not None and vb is not None and va != vb:
                sys.exit("cram %dx%d: gdsl says %d, igsolve %d" % (w, h, va, vb))
            value = va if va is not None else vb
            row = "| Cram %d x %d | %s |" % (w, h, "?" if value is None else value)
            if ta is not None and tb is not None:
                wa, wb, ratio, pa, pb = paired(a, b, args.runs, args.timeout)
                row += " %.2f | %.2f | %.2f | %.0f | %.0f |" % (wa, wb, ratio, pa, pb)
            else:
                row += " %s | %s | | | |" % (
                    "> %g" % args.timeout if ta is None else "%.2f" % ta,
                    "> %g" % args.timeout if tb is None else "%.2f" % tb)
            print(row, flush=True)
            lines.append(row)
        lines += ["", "| board | value | gdsl (s) |", "| --- | ---: | ---: |"]
        for w, h in kayles:
            path = board_file(tmp, "node_kayles", w, h)
            a = [args.gdsl, "eval", path, "-e", "NK(%d)" % ((1 << (w * h)) - 1), "--json"]
            ta, out_a = once(a, args.timeout)
            row = "| Node Kayles %d x %d | %s | %s |" % (
                w, h, gdsl_value(out_a) if ta is not None else "?",
                "> %g" % args.timeout if ta is None else "%.2f" % ta)
            print(row, flush=True)
            lines.append(row)
    if args.output:
        with open(args.output, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
