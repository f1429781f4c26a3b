#!/usr/bin/python3
"""Misère quotients against Siegel's MisereSolver (issue 37).

    /usr/bin/python3 bench/misere.py --miseresolver DIR [--gdsl build/gdsl] [--heaps 100]
                                     [--timeout 120] [--codes 0.77,0.07] [--output FILE]

For each octal code, `game G = octal "CODE"` is run as users run it,
`gdsl quotient FILE G --max HEAPS --json` (whole process, wall clock), up to HEAPS or
until gdsl proves the quotient final. MisereSolver is then run to the same heap, so the
two answers are for the same set of heaps: the order |Q| and the P-portion |P| must
agree. MisereSolver is not part of gdsl: DIR holds its classes compiled outside the
repository with a small driver `Main CODE HEAPS` that calls `next()` heap by heap and
prints `code=CODE heaps=N order=Q p=P seconds=S` (bench/MISERE.md says how it was
built). Times are whole-process medians of --runs runs; MisereSolver's include the
JVM's start.
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

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)

DEFAULT_CODES = ["0.77", "0.07", "0.31", "0.52", "0.75", "0.35", "0.54", "0.165", "0.137",
                 "0.4", "0.6"]


def timed(cmd, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start
    return p, time.perf_counter() - start


def run_gdsl(gdsl, path, heaps, timeout):
    p, seconds = timed([gdsl, "quotient", path, "G", "--max", str(heaps), "--json",
                        "--timeout", str(timeout)], timeout + 10)
    if p is None:
        return None, seconds
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            if d.get("kind") == "quotient":
                return d, seconds
    return None, seconds


def run_ms(classes, code, heaps, timeout):
    p, seconds = timed(["java", "-cp", classes, "Main", code, str(heaps)], timeout)
    if p is None:
        return None, seconds
    m = re.search(r"heaps=(\d+) order=(\d+) p=(\d+)", p.stdout)
    if not m:
        return None, seconds
    return {"heaps": int(m.group(1)), "order": int(m.group(2)), "p": int(m.group(3))}, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    ap.add_argument("--miseresolver", required=True)
    ap.add_argument("--heaps", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--codes", default=",".join(DEFAULT_CODES))
    ap.add_argument("--output")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for code in args.codes.split(","):
            path = os.path.join(tmp, "g.game")
            with open(path, "w") as f:
                f.write('game G = octal "%s"\n' % code)
            g, gs = run_gdsl(args.gdsl, path, args.heaps, args.timeout)
            if g is None:
                rows.append((code, "", "timeout", "", "", "", ""))
                continue
            reached = g["heaps"]
            ms, mss = run_ms(args.miseresolver, code, reached, args.timeout)
            gtimes, mtimes = [gs], [mss]
            if ms is not None:
                for _ in range(args.runs - 1):
                    gtimes.append(run_gdsl(args.gdsl, path, args.heaps, args.timeout)[1])
                    mtimes.append(run_ms(args.miseresolver, code, reached, args.timeout)[1])
            gt, mt = statistics.median(gtimes), statistics.median(mtimes)
            note = "final at %d" % g["final_heap"] if g["final_heap"] is not None else (
                "stopped: %s" % g["stopped"] if g["stopped"] else "")
            if ms is None:
                rows.append((code, reached, "%d / %d" % (g["order"], g["p_portion"]),
                             "%.2f" % gt, "did not finish in %.0f s" % args.timeout, "", note))
                continue
            agree = ms["order"] == g["order"] and ms["p"] == g["p_portion"]
            rows.append((code, reached, "%d / %d" % (g["order"], g["p_portion"]), "%.2f" % gt,
                         "%d / %d, %.2f s" % (ms["order"], ms["p"], mt),
                         ("%.2f" % (gt / mt)) + ("" if agree else " DIFFERENT"), note))
            print(rows[-1], file=sys.stderr)
    lines = ["| code | heaps | gdsl \\|Q\\| / \\|P\\| | gdsl s | MisereSolver \\|Q\\| / \\|P\\|, s "
             "| gdsl / MisereSolver | |", "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
