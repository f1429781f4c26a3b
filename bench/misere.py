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
prints `code=CODE heaps=N order=Q p=P seconds=S` and a line `phi=` with each heap's
element (bench/MISERE.md says how it was built). `--codes all` takes every octal code
of up to three digits; Φ is compared up to naming the elements. gdsl runs with
GDSL_CACHE_DIR=off, so that no run reads a quotient kept by an earlier one. Times are whole-process medians of --runs runs; MisereSolver's include the
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


# gdsl computes every quotient afresh: the quotients it keeps between runs
# (docs/misere.md) would answer every run after the first.
ENV = dict(os.environ, GDSL_CACHE_DIR="off")


def timed(cmd, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=ENV)
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
    phi = re.search(r"^phi=(.*)$", p.stdout, re.M)
    return {"heaps": int(m.group(1)), "order": int(m.group(2)), "p": int(m.group(3)),
            "phi": phi.group(1).split() if phi else None}, seconds


def same_phi(a, b):
    """Whether two pretending functions are equal up to naming the elements: a bijection
    between the names that maps one onto the other (then their periods are equal too)."""
    if a is None or b is None or len(a) != len(b):
        return False
    there, back = {}, {}
    for x, y in zip(a, b):
        if there.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return False
    return True


def all_codes():
    """Every octal code 0.d1, 0.d1d2, 0.d1d2d3 with its last digit not 0: 511 codes."""
    codes = []
    for n in range(1, 512):
        digits = "%03o" % n
        code = "0." + digits.rstrip("0")
        if code not in codes:
            codes.append(code)
    return codes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    ap.add_argument("--miseresolver", required=True)
    ap.add_argument("--heaps", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--codes", default=",".join(DEFAULT_CODES),
                    help="comma list, or 'all': every code of up to three digits")
    ap.add_argument("--open-timeout", type=float, default=None,
                    help="MisereSolver's limit on codes gdsl did not prove final (default: --timeout)")
    ap.add_argument("--output")
    args = ap.parse_args()
    codes = all_codes() if args.codes == "all" else args.codes.split(",")
    if args.open_timeout is None:
        args.open_timeout = args.timeout
    rows, ratios, open_ratios, summary = [], [], [], {"codes": len(codes), "final": 0, "agree": 0, "phi": 0,
                                     "peer_timeout": 0, "open": 0, "no_answer": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for code in codes:
            path = os.path.join(tmp, "g.game")
            with open(path, "w") as f:
                f.write('game G = octal "%s"\n' % code)
            g, gs = run_gdsl(args.gdsl, path, args.heaps, args.timeout)
            if g is None:
                summary["no_answer"] += 1
                rows.append((code, "", "timeout", "", "", "", "", ""))
                continue
            reached = g["heaps"]
            if g["final_heap"] is None:
                summary["open"] += 1
            else:
                summary["final"] += 1
            peer_limit = args.timeout if g["final_heap"] is not None else args.open_timeout
            ms, mss = run_ms(args.miseresolver, code, reached, peer_limit)
            gtimes, mtimes = [gs], [mss]
            if ms is not None:
                for _ in range(args.runs - 1):
                    gtimes.append(run_gdsl(args.gdsl, path, args.heaps, args.timeout)[1])
                    mtimes.append(run_ms(args.miseresolver, code, reached, peer_limit)[1])
            gt, mt = statistics.median(gtimes), statistics.median(mtimes)
            note = "final at %d" % g["final_heap"] if g["final_heap"] is not None else (
                "stopped: %s" % g["stopped"] if g["stopped"] else "")
            if ms is None:
                summary["peer_timeout"] += 1
                rows.append((code, reached, "%d / %d" % (g["order"], g["p_portion"]),
                             "%.2f" % gt, "did not finish in %.0f s" % peer_limit, "", "", note))
                print(rows[-1], file=sys.stderr)
                continue
            if g["final_heap"] is None:
                # Not final: gdsl's time above includes the heap it could not finish (or its
                # time limit); both are timed again to the heap both finished.
                gtimes = [run_gdsl(args.gdsl, path, reached, args.timeout)[1]
                          for _ in range(args.runs)]
                gt = statistics.median(gtimes)
                note += "; both timed to heap %d" % reached
            agree = ms["order"] == g["order"] and ms["p"] == g["p_portion"]
            phi = same_phi(g.get("phi"), ms["phi"])
            summary["agree"] += agree
            summary["phi"] += phi
            (ratios if g["final_heap"] is not None else open_ratios).append((gt / mt, code))
            rows.append((code, reached, "%d / %d" % (g["order"], g["p_portion"]), "%.2f" % gt,
                         "%d / %d, %.2f s" % (ms["order"], ms["p"], mt),
                         ("%.2f" % (gt / mt)) + ("" if agree else " DIFFERENT"),
                         "yes" if phi else "NO", note))
            print(rows[-1], file=sys.stderr)
    lines = ["| code | heaps | gdsl \\|Q\\| / \\|P\\| | gdsl s | MisereSolver \\|Q\\| / \\|P\\|, s "
             "| gdsl / MisereSolver | same Φ | |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    text = "\n".join(lines) + "\n"
    if ratios:
        ratios.sort()
        over = [c for r, c in ratios if r > 0.5]
        text += ("\n%d codes: %d proved final by gdsl, %d not, %d without an answer; MisereSolver "
                 "finished %d of the others (%d did not within its limit); the same |Q| and |P| "
                 "on %d, the same Φ on %d. "
                 "On the %d final codes both finished: gdsl / MisereSolver median %.3f, "
                 "largest %.3f (%s); over 0.5: %s\n" % (
                     summary["codes"], summary["final"], summary["open"], summary["no_answer"],
                     summary["codes"] - summary["no_answer"] - summary["peer_timeout"],
                     summary["peer_timeout"], summary["agree"], summary["phi"], len(ratios),
                     statistics.median(r for r, _ in ratios), ratios[-1][0], ratios[-1][1],
                     ", ".join(over) if over else "none"))
    if open_ratios:
        open_ratios.sort()
        text += ("On the %d codes not proved final, timed to the heap both finished: median %.3f, "
                 "largest %.3f (%s)\n" % (len(open_ratios),
                                          statistics.median(r for r, _ in open_ratios),
                                          open_ratios[-1][0], open_ratios[-1][1]))
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
