#!/usr/bin/python3
"""Octal games against the plain method and other programs (issue 14).

    /usr/bin/python3 bench/octal.py [--runs 3] [--gdsl build/gdsl] [--peer NAME=PATH ...]
                                    [--all-codes N] [--output bench/OCTAL.md]

Rows: the eight codes whose values spread evenly over 0..7 (0.104, 0.106, 0.205, 0.207,
0.215, 0.217, 0.324, 0.325), g(0..N) for N = 2*10^5 and 10^6, by
`gdsl table FILE 'G(0..N)' --json` with `game G = octal "CODE"`, against the hand-written
plain method bench/baselines/octal_naive.cpp (run at --naive-probe heaps and scaled by its
move count, marked ~: at full size it takes minutes per row) and against any other program
given with --peer NAME=PATH, run as `PATH CODE N` and printing
`value=V checksum=H count=C` as the baselines do. gdsl and the peers run interleaved,
--runs times each; the tables show medians. Every answer is checked by checksum: gdsl
against the naive program to the probe size, and against each peer at full size.

--all-codes N also runs every code 0.d1d2d3 and 4.d1d2d3 to N heaps, gdsl and each peer
(once; the codes where gdsl is not faster than the fastest peer again --runs times), checks
the checksums and lists the codes where gdsl is slower.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as harness  # noqa: E402  (the same checksum, parsing and formatting)

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
HARD = ["0.104", "0.106", "0.205", "0.207", "0.215", "0.217", "0.324", "0.325"]


def naive_work(code, n):
    """Splits the naive program considers for g(0..n) (they dominate its time)."""
    digits = [int(code[0])] + [int(c) for c in code[2:]]
    splits = [k for k, d in enumerate(digits) if d & 4]
    return sum(max(0, (m - k) // 2) for k in splits for m in range(n + 1))


class Runner:
    def __init__(self, gdsl, peers, tmp):
        self.gdsl, self.peers, self.tmp = gdsl, peers, tmp

    def game_file(self, code):
        return harness.code_game(self.tmp, "octal", code)

    def gdsl_cmd(self, code, n):
        return [self.gdsl, "table", self.game_file(code), "G(0..%d)" % n, "--json"]

    def once(self, who, code, n, timeout=None):
        """(wall seconds, (value, checksum, count)) of one run; a peer past the timeout
        gives (timeout, None)."""
        if who == "gdsl":
            r = harness.run(self.gdsl_cmd(code, n))
            if r.rc != 0:
                sys.exit("gdsl failed on %s: %s" % (code, r.err))
            return r.wall, harness.parse_gdsl(r.out)
        r = harness.run([self.peers[who], code, str(n)], timeout=timeout)
        if r.rc is None:
            return timeout, None
        if r.rc != 0:
            return None, None
        return r.wall, harness.parse_baseline(r.out)

    def medians(self, code, n, runs, patience=None):
        """{who: (median wall, answer)} for gdsl and every peer, interleaved. With
        `patience`, a peer is stopped after that many times gdsl's time (at least 0.5 s):
        it is slower, by at least that much (its answer is then None)."""
        walls = {w: [] for w in ["gdsl"] + list(self.peers)}
        answers = {}
        for _ in range(runs):
            for who in walls:
                timeout = None
                if patience and who != "gdsl" and walls["gdsl"]:
                    timeout = max(0.5, patience * walls["gdsl"][-1])
                wall, answer = self.once(who, code, n, timeout)
                if wall is None:
                    continue
                walls[who].append(wall)
                answers[who] = answer
        return {w: (statistics.median(v), answers[w]) for w, v in walls.items() if v}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"))
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--naive-probe", type=int, default=100000)
    ap.add_argument("--sizes", default="200000,1000000")
    ap.add_argument("--all-codes", type=int, default=0, metavar="N")
    ap.add_argument("--codes", default="", help="with --all-codes: only these codes (comma-separated)")
    ap.add_argument("--patience", type=float, default=20.0,
                    help="with --all-codes: stop a peer after this many times gdsl's time "
                         "(at least 0.5 s); 1 asks only whether the peer is faster")
    ap.add_argument("--output", default=os.path.join(BENCH, "OCTAL.md"))
    ap.add_argument("--note", action="append", default=[],
                    help="a paragraph for the report (say what each peer is and how it was built)")
    args = ap.parse_args()
    peers = dict(p.split("=", 1) for p in args.peer)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    tmp = tempfile.mkdtemp(prefix="gdsl-octal-")
    naive = os.path.join(tmp, "octal_naive")
    subprocess.run(["g++", "-O2", "-std=c++20", "-o", naive,
                    os.path.join(BENCH, "baselines", "octal_naive.cpp")], check=True)
    env = {"GLIBC_TUNABLES": harness.CPP_TUNABLES}
    runner = Runner(os.path.abspath(args.gdsl), peers, tmp)
    info = harness.machine_info(runner.gdsl)
    command = "/usr/bin/python3 bench/octal.py --runs %d%s%s%s%s" % (
        args.runs, "".join(" --peer %s=PATH" % p for p in peers),
        " --sizes '%s'" % args.sizes if args.sizes != "200000,1000000" else "",
        " --all-codes %d" % args.all_codes if args.all_codes else "",
        " --codes %s" % args.codes if args.codes else "")
    lines = ["# Octal games (issue 14)", "",
             "Generated by `%s` on %s, %s CPUs (%s), load %s; gdsl at %s." % (
                 command, info["date"], info["nproc"], info["cpu"], info["load"], info["git"]),
             "", "Seconds, whole process, medians of %d interleaved runs. The naive program "
             "(the plain method by hand) runs at %d heaps and is scaled by its move count "
             "(marked ~)." % (args.runs, args.naive_probe), ""]
    for note in args.note:
        lines += [note, ""]
    print("\n".join(lines), flush=True)
    head = ["code", "N", "gdsl"] + list(peers) + ["naive C++", "naive / gdsl"] + \
        ["%s / gdsl" % p for p in peers] + ["check", "gdsl --verbose"]
    table = ["| " + " | ".join(head) + " |",
             "| --- | ---: | ---: | " + "---: | " * (len(peers) * 2 + 2) + "--- | --- |"]
    for code in HARD if sizes else []:
        probe_wall = None
        for n in sizes:
            got = runner.medians(code, n, args.runs)
            g_wall, g_answer = got["gdsl"]
            checks = []
            if probe_wall is None:
                r = harness.run([naive, code, str(args.naive_probe)], env=env)
                probe_wall = r.wall
                small = runner.once("gdsl", code, args.naive_probe)[1]
                checks.append("naive = gdsl to %d" % args.naive_probe
                              if harness.parse_baseline(r.out) == small else "MISMATCH naive")
            n_wall = probe_wall * naive_work(code, n) / naive_work(code, args.naive_probe)
            for p in peers:
                if p in got:
                    checks.append("%s = gdsl" % p if got[p][1] == g_answer else "MISMATCH " + p)
            verbose = harness.run(runner.gdsl_cmd(code, n) + ["--verbose"]).err
            said = [l for l in verbose.splitlines() if l.startswith("gdsl: G:")]
            said = said[0].split("; ", 1)[1] if said and "; " in said[0] else "-"
            cells = [code, "%d" % n, harness.fmt_s(g_wall)]
            cells += [harness.fmt_s(got[p][0]) if p in got else "failed" for p in peers]
            cells += ["~" + harness.fmt_s(n_wall), harness.fmt_ratio(n_wall / g_wall)]
            cells += [harness.fmt_ratio(got[p][0] / g_wall) if p in got else "-" for p in peers]
            cells += [", ".join(checks), said]
            table.append("| " + " | ".join(cells) + " |")
            print(table[-1], flush=True)
    if sizes:
        lines += table + [""]

    if args.all_codes and peers:
        n = args.all_codes
        codes = ["%s.%d%d%d" % (h, d // 64, d // 8 % 8, d % 8) for h in "04" for d in range(512)]
        if args.codes:
            codes = args.codes.split(",")
        slower, mismatch, stopped, total = [], [], [], {w: 0.0 for w in ["gdsl"] + list(peers)}
        for code in codes:
            got = runner.medians(code, n, 1, patience=args.patience)
            fastest = min(got[p][0] for p in peers if p in got)
            if got["gdsl"][0] > fastest:  # measure again, interleaved
                got = runner.medians(code, n, args.runs, patience=args.patience)
                fastest = min(got[p][0] for p in peers if p in got)
            for w in got:
                total[w] += got[w][0]
            for p in peers:
                if p in got and got[p][1] is None:
                    stopped.append("%s (%s)" % (code, p))
                elif p in got and got[p][1] != got["gdsl"][1]:
                    mismatch.append("%s (%s)" % (code, p))
            print("%s: %s" % (code, ", ".join("%s %.3f s" % (w, got[w][0]) for w in got)),
                  file=sys.stderr, flush=True)
            if got["gdsl"][0] > fastest:
                slower.append((code, got["gdsl"][0], fastest))
                print("slower: %s gdsl %.3f s, fastest peer %.3f s" % slower[-1], flush=True)
        lines += ["## %s, g(0..%d)" % ("Chosen codes" if args.codes else
                                         "Every code of up to three digits", n), "",
                  "%s, once each (again %d times, interleaved, "
                  "where gdsl was not faster); total seconds: %s." % (
                      "The %d codes %s" % (len(codes), ", ".join(codes)) if args.codes else
                      "All %d codes 0.d1d2d3 and 4.d1d2d3" % len(codes), args.runs,
                      ", ".join("%s %.1f" % (w, t) for w, t in total.items())), "",
                  "Checksums: %s." % ("all equal" if not mismatch else
                                      "MISMATCH on " + ", ".join(mismatch)),
                  "Peers stopped after %g times gdsl's time (at least 0.5 s; counted at that "
                  "time in the totals, values not checked): %s." % (
                      args.patience, ", ".join(stopped) if stopped else "none"),
                  "Codes where gdsl is slower than the fastest peer: %s." % (
                      ", ".join("%s (%.3f s vs %.3f s)" % s for s in slower) if slower else
                      "none"), ""]
        print("\n".join(lines[-7:]), flush=True)
    with open(args.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", args.output)


if __name__ == "__main__":
    main()
