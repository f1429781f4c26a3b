#!/usr/bin/python3
"""gdsl's backends against each other, from tiny to full size: is `auto` (the default backend,
no --backend flag) ever slower than the faster of the interpreter and the JIT by more than the
cost of compiling?

    /usr/bin/python3 bench/tiers.py [--rows a,b,c,d,e,f] [--runs 3] [--quick] [--gdsl PATH]
                                    [--timeout 120] [--output bench/TIERS.md]

For each row of bench/run.py (the same games and the same commands) at several sizes, runs
`--backend interp`, `--backend jit` and no flag (auto), interleaved, --runs times, in two states
of gdsl's JIT code cache: `cold` (a fresh empty GDSL_CACHE_DIR before every run, so that the JIT
compiles) and `warm` (a cache filled by one untimed jit run first). A line passes when auto's
median is at most max(1.10 x the faster median, the faster median + 0.050 s). See
bench/README.md ("Tiers"). Writes bench/TIERS.md (unless --no-write) and prints the same table.
"""

import argparse
import os
import shlex
import shutil
import statistics
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
sys.dont_write_bytecode = True  # importing run.py leaves no __pycache__ in bench/
sys.path.insert(0, BENCH)
import run as bench  # noqa: E402 - bench/run.py: the rows, their commands and the helpers

# The sizes of each row, from tiny to run.py's full size.
SIZES = {
    "a": [2000, 8000, 20000, 50000],
    "b": [5000, 20000, 60000, 100000],
    "c": [50, 150, 300, 600],
    "d": [6, 10, 15, 20],
    "e": [4, 5, 6, 7],
    "f": [20, 60, 100, 140, 160, 180, 190, 200],
}

BACKENDS = ["interp", "jit", "auto"]  # the order of each round
STATES = ["cold", "warm"]
SLACK_FACTOR = 1.10  # auto may be 10% slower than the faster backend ...
SLACK_SECONDS = 0.050  # ... or 50 ms, whichever is more: about the cost of compiling


def limit_for(best):
    return max(SLACK_FACTOR * best, best + SLACK_SECONDS)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", default=",".join(SIZES), help="rows to run, e.g. a,f")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per backend (median)")
    ap.add_argument("--quick", action="store_true", help="only the two smallest sizes per row")
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"),
                    help="the gdsl binary (default build/gdsl)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="per run, seconds; a run that times out counts as this time and fails "
                         "its line, and its backend is skipped at the row's larger sizes")
    ap.add_argument("--output", default=os.path.join(BENCH, "TIERS.md"))
    ap.add_argument("--no-write", action="store_true", help="do not write TIERS.md")
    args = ap.parse_args()

    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    for r in rows:
        if r not in SIZES:
            ap.error("unknown row %r (rows: %s)" % (r, ",".join(SIZES)))
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    gdsl = os.path.abspath(args.gdsl)
    if not os.path.exists(gdsl):
        sys.exit("tiers.py: %s does not exist; build it with `ninja -C build`" % gdsl)

    info = bench.machine_info(gdsl)
    print("gdsl tiers: %s, %s CPUs (%s), load %s" % (info["date"], info["nproc"], info["cpu"],
                                                      info["load"]), flush=True)
    tmp = tempfile.mkdtemp(prefix="gdsl-tiers-")
    bench.TMP = tmp
    lines = []  # one per (row, size, state)
    commands = {}  # exact commands, in order, without duplicates
    fresh = [0]

    def new_cache(name):
        fresh[0] += 1
        path = os.path.join(tmp, "%s-%d" % (name, fresh[0]))
        os.mkdir(path)
        return path

    def shown(cmd, state):
        """The command as TIERS.md shows it, the cache directory named by its state."""
        return bench.cmd_text(cmd, {"GDSL_CACHE_DIR": "<%s cache>" % state})

    try:
        for r in rows:
            row = bench.ROWS[r]
            sizes = SIZES[r][:2] if args.quick else SIZES[r]
            skipped = {}  # backend -> the size where it timed out
            for n in sizes:
                what = row["what"] % n
                print("\n== (%s) %s, %s" % (r, row["short"], what), flush=True)
                cmds = {b: bench.gdsl_command(gdsl, r, n, b, tmp) for b in BACKENDS}
                for state in STATES:
                    slots = {b: dict(walls=[], answer=None, error=None, timeout=False,
                                     skipped=skipped[b] if skipped.get(b, n) < n else None)
                             for b in BACKENDS}
                    warm = None
                    if state == "warm":
                        warm = new_cache("warm")
                        # Filled by one jit run, unless jit timed out at a smaller size (the
                        # fill would too; the warm runs then start from an empty cache).
                        if slots["jit"]["skipped"] is None:
                            fill = bench.run(cmds["jit"], env={"GDSL_CACHE_DIR": warm},
                                             timeout=args.timeout)
                            commands.setdefault(shown(cmds["jit"], "warm") +
                                                "    # untimed: fills the warm cache", None)
                            print("   warm cache filled by one jit run: %s" % (
                                "%.3f s" % fill.wall if fill.rc == 0 else
                                "timed out" if fill.rc is None else "exit %s" % fill.rc),
                                flush=True)
                    for k in range(args.runs):
                        for b in BACKENDS:
                            slot = slots[b]
                            if slot["skipped"] is not None or slot["error"] or slot["timeout"]:
                                continue
                            cache = warm if warm else new_cache("cold")
                            commands.setdefault(shown(cmds[b], state), None)
                            res = bench.run(cmds[b], env={"GDSL_CACHE_DIR": cache},
                                            timeout=args.timeout)
                            if not warm:
                                shutil.rmtree(cache, ignore_errors=True)
                            if res.rc is None:  # timed out
                                slot["timeout"] = True
                                slot["walls"].append(args.timeout)
                                skipped.setdefault(b, n)
                                print("   %-6s %s run %d: timed out after %.0f s" % (
                                    b, state, k + 1, args.timeout), flush=True)
                                continue
                            if res.rc != 0:
                                msg = bench.first_line(res.err if res.err.strip() else res.out)
                                slot["error"] = "exit %s: %s" % (res.rc, msg)
                                print("   %-6s %s run %d: %s" % (b, state, k + 1, slot["error"]),
                                      flush=True)
                                continue
                            try:
                                ans = bench.parse_gdsl(res.out)
                            except Exception as e:  # noqa: BLE001 - report, do not crash
                                slot["error"] = "bad output: %s" % e
                                continue
                            if slot["answer"] is not None and ans != slot["answer"]:
                                slot["error"] = "answers differ between runs"
                            slot["answer"] = ans
                            slot["walls"].append(res.wall)
                            print("   %-6s %s run %d: %7.3f s wall, %7.3f s cpu   value=%s" % (
                                b, state, k + 1, res.wall, res.cpu, ans[0]), flush=True)
                    if warm:
                        shutil.rmtree(warm, ignore_errors=True)
                    lines.append(judge(r, what, state, slots))
                    t = lines[-1]
                    print("   %s: interp %s, jit %s, auto %s, auto / min %s: %s" % (
                        state, t["interp"], t["jit"], t["auto"], t["ratio"], t["verdict"]),
                        flush=True)
        end_load = " ".join(open("/proc/loadavg").read().split()[:3])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # ---- The table
    head = ("row", "size", "cache", "interp s", "jit s", "auto s", "auto / min", "limit s",
            "verdict")
    fmt = "%-4s %-9s %-5s %10s %10s %10s %10s %9s  %s"
    print("\n" + fmt % head)
    for t in lines:
        print(fmt % (t["row"], t["size"], t["state"], t["interp"], t["jit"], t["auto"],
                     t["ratio"], t["limit"], t["verdict"]))
    fails = [t for t in lines if not t["verdict"].startswith("PASS")]
    print("\n%d of %d lines pass (auto <= max(%.2f x min(interp, jit), min + %.3f s))" % (
        len(lines) - len(fails), len(lines), SLACK_FACTOR, SLACK_SECONDS))

    if args.no_write:
        return
    argv = " ".join(shlex.quote(a) for a in sys.argv[1:])
    out = []
    w = out.append
    w("# gdsl's backends against each other (tiers)")
    w("")
    w("Generated by `bench/tiers.py`; do not edit by hand (see `bench/README.md`, \"Tiers\").")
    w("")
    w("Command: `/usr/bin/python3 bench/tiers.py%s` (from the repository root)" %
      (" " + argv if argv else ""))
    w("")
    out += bench.machine_rows(info, gdsl, end_load, compiler=False)
    w("| runs | %d per backend, cache state and size, interleaved; median wall time |" % args.runs)
    w("| timeout | %.0f s per run |" % args.timeout)
    w("")
    w("## Times")
    w("")
    w("Median wall-clock seconds of fresh processes (start-up, parsing and compiling "
      "included). `auto` is gdsl with no `--backend` flag, as a user runs it; `interp` and "
      "`jit` name the backend. `cold`: a fresh, empty code cache (`GDSL_CACHE_DIR`) before "
      "every run, so the JIT compiles every time (and auto whenever it moves to the JIT); "
      "`warm`: a cache filled by one untimed jit run first, as a user's second run of the same "
      "game. `min` is the faster of `interp` and `jit`; a line passes when auto <= max(%.2f x "
      "min, min + %.3f s) (`limit`), the cost of compiling it may pay. A run that timed out "
      "counts as the timeout (`>=`) and fails its line; its backend is then skipped at the "
      "row's larger sizes. The three backends' answers (the value of the last position, and "
      "for tables a checksum of every value) are checked equal." % (
          SLACK_FACTOR, SLACK_SECONDS))
    w("")
    w("| row | size | cache | interp s | jit s | auto s | auto / min | limit s | verdict | "
      "runs (s): interp; jit; auto |")
    w("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for t in lines:
        w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            t["row"], t["size"], t["state"], t["interp"], t["jit"], t["auto"], t["ratio"],
            t["limit"], "**%s**" % t["verdict"] if not t["verdict"].startswith("PASS")
            else t["verdict"], t["runs"]))
    w("")
    w("%d of %d lines pass." % (len(lines) - len(fails), len(lines)))
    w("")
    w("## Exact commands")
    w("")
    w("`<cold cache>` is a new empty directory for every run; `<warm cache>` one directory per "
      "row, size and state, filled by the untimed jit run listed first.")
    w("")
    w("```")
    for c in commands:
        w(c)
    w("```")
    w("")
    w("`<tmp>` is a temporary directory the harness deletes at the end.")
    w("")
    with open(args.output, "w") as f:
        f.write("\n".join(out))
    path = os.path.abspath(args.output)
    print("\nwrote %s" % (os.path.relpath(path, REPO) if path.startswith(REPO + os.sep) else path))


def judge(r, what, state, slots):
    """One line of the table: the three medians, auto / min(interp, jit) and the verdict. A
    timed-out run counts as the timeout; a timeout, a backend skipped after one, an error or a
    disagreement fails the line."""
    med = {b: statistics.median(s["walls"]) if s["walls"] else None for b, s in slots.items()}

    def shown(b):
        slot = slots[b]
        if slot["skipped"] is not None:
            return "skipped"
        if med[b] is None:
            return "error"
        return (">=" if slot["timeout"] else "") + bench.fmt_s(med[b])

    problems = []
    for b, slot in slots.items():
        if slot["skipped"] is not None:
            problems.append("%s skipped: timed out at %s" % (b, ROW_WHAT[r] % slot["skipped"]))
        elif slot["timeout"]:
            problems.append("%s timed out" % b)
        if slot["error"]:
            problems.append("%s %s" % (b, slot["error"]))
    answers = {b: s["answer"] for b, s in slots.items() if s["answer"] is not None}
    if len(set(answers.values())) > 1:
        problems.append("answers disagree: " + ", ".join(
            "%s value %s checksum %s" % (b, a[0], a[1]) for b, a in answers.items()))
    times = [med[b] for b in ("interp", "jit") if med[b] is not None]
    best = min(times) if times else None
    auto = med["auto"]
    ratio = auto / best if (auto is not None and best) else None
    limit = limit_for(best) if best is not None else None
    if problems:
        verdict = "FAIL (%s)" % "; ".join(problems)
    elif ratio is None:
        verdict = "n/a"
    else:
        verdict = "PASS" if auto <= limit else "FAIL"
    runs = "; ".join(", ".join(bench.fmt_s(x) for x in slots[b]["walls"]) or "-"
                     for b in BACKENDS)
    ratio_text = "-" if ratio is None else (
        (">=" if slots["auto"]["timeout"] else "") + bench.fmt_ratio(ratio))
    return dict(row=r, size=what, state=state, interp=shown("interp"), jit=shown("jit"),
                auto=shown("auto"), ratio=ratio_text, limit=bench.fmt_s(limit), verdict=verdict,
                runs=runs)


ROW_WHAT = {r: bench.ROWS[r]["what"] for r in SIZES}


if __name__ == "__main__":
    main()
