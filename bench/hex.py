#!/usr/bin/python3
"""Hexadecimal games against the plain method (issue 38).

    /usr/bin/python3 bench/hex.py [--gdsl build/gdsl] [--small 3000] [--large 100000]
                                  [--runs 3] [--codes 0.8,0.B1] [--output bench/HEX.md]

Every hexadecimal code with one or two digits after the point, `0.d` and `0.d1d2` (d2 not
0): 255 codes, each `game G = hex "CODE"` run as users run it,
`gdsl table FILE 'G(0..N)' --json` (the default backend), against the plain method written
by hand from the definition, bench/baselines/hex_naive.cpp (every split into one, two or
three heaps marked in one reused array of flags, then the mex).

- Every code, both programs side by side, checked by checksum: g(0..LARGE) for the codes
  without three-heap splits, g(0..SMALL) for the codes with them (the naive program's
  three-heap splits cost n^2 / 12 per heap: SMALL is the size at which it runs them all).
  Once each, and where gdsl was not faster, again --runs times interleaved (medians).
- The codes with three-heap splits whose period gdsl proves by SMALL, to LARGE: gdsl
  runs; the naive program's time is its time at SMALL scaled by its split count (marked
  ~: at full size it takes hours); the values past the proof are the theorem's
  (docs/heaps.md: Guy and Smith's for periods, gdsl's own for arithmetic periods). The other codes with three-heap splits are not run to LARGE: the
  report lists them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as harness  # noqa: E402  (the same checksum, parsing and formatting)

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
HEX = "0123456789ABCDEF"


def all_codes():
    return ["0." + d for d in HEX[1:]] + ["0." + a + b for a in HEX for b in HEX[1:]]


def digits(code):
    return [int(code[0], 16)] + [int(c, 16) for c in code[2:]]


def three(code):
    return any(d & 8 for d in digits(code))


def naive_work(code, n):
    """Pairs and triples the naive program marks for g(0..n) (they dominate its time)."""
    work = 0
    for k, d in enumerate(digits(code)):
        for m in range(k, n + 1):
            r = m - k
            if d & 4:
                work += r // 2
            if d & 8:
                work += (r * r + 6) // 12
    return work


class Runner:
    def __init__(self, gdsl, naive, tmp):
        self.gdsl, self.naive, self.tmp = gdsl, naive, tmp

    def game_file(self, code):
        return harness.code_game(self.tmp, "hex", code)

    def once(self, who, code, n):
        """(wall seconds, (value, checksum, count))."""
        if who == "gdsl":
            r = harness.run([self.gdsl, "table", self.game_file(code), "G(0..%d)" % n, "--json"])
            if r.rc != 0:
                sys.exit("gdsl failed on %s: %s" % (code, r.err))
            return r.wall, harness.parse_gdsl(r.out)
        r = harness.run([self.naive, code, str(n)],
                        env={"GLIBC_TUNABLES": harness.CPP_TUNABLES})
        if r.rc != 0:
            sys.exit("hex_naive failed on %s" % code)
        return r.wall, harness.parse_baseline(r.out)

    def medians(self, code, n, runs, who=("gdsl", "naive")):
        walls = {w: [] for w in who}
        answers = {}
        for _ in range(runs):
            for w in who:
                wall, answers[w] = self.once(w, code, n)
                walls[w].append(wall)
        return {w: (statistics.median(v), answers[w]) for w, v in walls.items()}

    def period(self, code, n):
        r = harness.run([self.gdsl, "period", self.game_file(code), "G(0..%d)" % n, "--json"])
        objs = [json.loads(l) for l in r.out.splitlines() if l.startswith("{")]
        return objs[-1] if objs else {}

    def method(self, code, n):
        err = harness.run([self.gdsl, "table", self.game_file(code), "G(0..%d)" % n,
                           "--verbose"]).err
        said = [l for l in err.splitlines() if l.startswith("gdsl: G:")]
        return said[0].split("; ", 1)[1] if said and "; " in said[0] else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    ap.add_argument("--small", type=int, default=3000)
    ap.add_argument("--large", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--codes", default="", help="only these codes (comma-separated)")
    ap.add_argument("--output", default=os.path.join(BENCH, "HEX.md"))
    args = ap.parse_args()
    codes = args.codes.split(",") if args.codes else all_codes()
    tmp = tempfile.mkdtemp(prefix="gdsl-hex-")
    naive = os.path.join(tmp, "hex_naive")
    subprocess.run(["g++", "-O2", "-std=c++20", "-o", naive,
                    os.path.join(BENCH, "baselines", "hex_naive.cpp")], check=True)
    runner = Runner(os.path.abspath(args.gdsl), naive, tmp)
    info = harness.machine_info(runner.gdsl)
    command = "/usr/bin/python3 bench/hex.py%s%s%s%s" % (
        " --small %d" % args.small if args.small != 3000 else "",
        " --large %d" % args.large if args.large != 100000 else "",
        " --runs %d" % args.runs if args.runs != 3 else "",
        " --codes %s" % args.codes if args.codes else "")
    lines = ["# Hexadecimal games (issue 38)", "",
             "Generated by `%s` on %s, %s CPUs (%s), load %s; gdsl at %s." % (
                 command, info["date"], info["nproc"], info["cpu"], info["load"], info["git"]),
             "", "Seconds, whole process. gdsl: `gdsl table FILE 'G(0..N)' --json` with "
             "`game G = hex \"CODE\"`, the default backend. naive: "
             "`bench/baselines/hex_naive.cpp`, the plain method by hand (g++ -O2). "
             "See the script's docstring for what each part measures.", ""]

    # ---- every code side by side: LARGE without three-heap splits, else SMALL
    measured = {}
    slower, mismatch = [], []
    total = {"gdsl": 0.0, "naive": 0.0}
    for code in codes:
        n = args.small if three(code) else args.large
        got = runner.medians(code, n, 1)
        if got["gdsl"][0] >= got["naive"][0]:
            got = runner.medians(code, n, args.runs)
        if got["gdsl"][1] != got["naive"][1]:
            mismatch.append(code)
        for w in total:
            total[w] += got[w][0]
        if got["gdsl"][0] >= got["naive"][0]:
            slower.append(code)
        proved = runner.period(code, n) if three(code) else {}
        measured[code] = (n, got, proved)
        print("%s to %d: gdsl %.3f s, naive %.3f s%s" % (
            code, n, got["gdsl"][0], got["naive"][0],
            ", proved" if proved.get("proved") else ""), file=sys.stderr, flush=True)

    def ratio(code):
        got = measured[code][1]
        return got["naive"][0] / got["gdsl"][0]

    ratios = [ratio(c) for c in codes]
    worst = sorted(codes, key=ratio)[:12]
    lines += ["## Every code, side by side", "",
              "%d codes: g(0..%d) for the %d without three-heap splits, g(0..%d) for the %d "
              "with them (the naive program's n^2 / 12 triples per heap). Once each, again %d "
              "times interleaved (medians) where gdsl was not faster. Total seconds: gdsl "
              "%.2f, naive %.2f: **%s**. Per code, naive / gdsl: median %s, smallest %s." % (
                  len(codes), args.large, sum(not three(c) for c in codes), args.small,
                  sum(three(c) for c in codes), args.runs, total["gdsl"], total["naive"],
                  harness.fmt_ratio(total["naive"] / total["gdsl"]),
                  harness.fmt_ratio(statistics.median(ratios)), harness.fmt_ratio(min(ratios))),
              "", "Checksums: %s. Codes where gdsl was not faster: %s." % (
                  "all equal" if not mismatch else "MISMATCH on " + ", ".join(mismatch),
                  ", ".join(slower) if slower else "none"), "",
              "The %d codes with the smallest ratio:" % len(worst), "",
              "| code | N | gdsl | naive | naive / gdsl | gdsl --verbose |",
              "| --- | ---: | ---: | ---: | ---: | --- |"]
    for code in worst:
        n, got, _ = measured[code]
        lines.append("| %s | %d | %s | %s | %s | %s |" % (
            code, n, harness.fmt_s(got["gdsl"][0]), harness.fmt_s(got["naive"][0]),
            harness.fmt_ratio(ratio(code)), runner.method(code, n)))
    lines.append("")

    # ---- three-heap codes with a proved period, to LARGE
    rows, left = [], []
    total = {"gdsl": 0.0, "naive": 0.0}
    for code in codes:
        n, got, proved = measured[code]
        if not three(code):
            continue
        if not proved.get("proved"):
            left.append(code)
            continue
        g_wall, _ = runner.once("gdsl", code, args.large)
        n_wall = got["naive"][0] * naive_work(code, args.large) / max(1, naive_work(code, n))
        total["gdsl"] += g_wall
        total["naive"] += n_wall
        saltus = proved.get("saltus") or 0
        rows.append("| %s | %s | ~%s | %s | period %s from %s%s proved at heap %s |" % (
            code, harness.fmt_s(g_wall), harness.fmt_s(n_wall),
            harness.fmt_ratio(n_wall / g_wall), proved.get("period"), proved.get("preperiod"),
            ", saltus %d," % saltus if saltus else "",
            proved.get("proof_heap", proved.get("checked_to"))))
        print(rows[-1], file=sys.stderr, flush=True)
    lines += ["## Three-heap codes to g(0..%d)" % args.large, "",
              "%d codes with three-heap splits whose period gdsl proves by heap %d: gdsl run "
              "to %d heaps (every value past the proof is the theorem's, docs/heaps.md); the "
              "naive time is its time to %d scaled by its split count (~: at full size it "
              "takes hours). Total seconds: gdsl %.2f, naive ~%.0f." % (
                  len(rows), args.small, args.large, args.small, total["gdsl"], total["naive"]),
              "", "Not run to %d heaps: %d codes with three-heap splits and no period proved "
              "by %d (most have values that grow with the heap: a heap costs (n / 3) W word "
              "operations, W the pair sets' words, and a table to %d would take hours): %s." % (
                  args.large, len(left), args.small, args.large, ", ".join(left)), "",
              "| code | gdsl | naive | naive / gdsl | proof |",
              "| --- | ---: | ---: | ---: | --- |"] + rows + [""]
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
