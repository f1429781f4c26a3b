#!/usr/bin/python3
"""gdsl benchmark harness: gdsl as a user runs it (its default backend), its JIT and its
interpreter, hand-written C++ (the reference: the rule's own loops, arrays reused; tuned loops, for
information; contest style with a vector per position) and plain Python, side by side on the same
rules, in one run.

    /usr/bin/python3 bench/run.py [--runs 3] [--rows a,b,c,d] [--impls auto,jit,cpp,cpp-vector]

See bench/README.md. Writes bench/RESULTS.md (unless --no-write) and prints the same table.
"""

import argparse
import datetime
import itertools
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

# glibc's allocator returns the top of the heap to the kernel whenever more than
# M_TRIM_THRESHOLD is free there. A vector of options that grows past that size and is freed
# at every position then costs a brk() pair and fresh page faults per position, which made the
# vector baselines of rows (a) and (b) 10-20x slower on the machine this was written on (most
# of it system time). The C++ baselines (`cpp`, which allocates nothing per position, and
# `cpp-tuned` and `cpp-vector`) run with the trim and mmap thresholds raised, so that they measure the code and
# not that pathology; `cpp-glibc` runs the vector baseline with glibc's defaults, for
# information.
CPP_TUNABLES = "glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432"

P61 = (1 << 61) - 1


def checksum(values):
    h = 0
    n = 0
    for v in values:
        h = (h * 1000003 + v) % P61
        n += 1
    return h, n


# ---------------------------------------------------------------------------------------------
# Rows. `work(n)` counts the inner-loop steps (moves considered) plus positions, so a Python run
# at a smaller size can be extrapolated to the full size.


def work_a(n):  # heap m enumerates k in 1..m
    return n * (n + 1) // 2 + (n + 1)


def work_b(n):  # heap m has floor((m - 1) / 2) unequal splits
    return sum((m - 1) // 2 for m in range(1, n + 1)) + (n + 1)


def work_c(n):  # sheet w <= h has (w - 3) + (h - 3) cuts (when positive)
    return sum(max(0, w - 3) + max(0, h - 3) + 1 for w in range(2, n + 1) for h in range(w, n + 1))


def work_d(n):  # not extrapolated; every sorted 4-tuple of heaps 0..n
    return sum(sum(t) + sum(a * b for a, b in itertools.combinations(t, 2)) + 1
               for t in itertools.combinations_with_replacement(range(n + 1), 4))


def work_e(n):  # not extrapolated: the reachable boards are only known by searching them
    return None


def work_f(n):  # position (a, b, c), a >= b >= c, has (a - 1) + b + c moves
    return sum((b + 1) * (a + b) + b * (b + 1) // 2 for a in range(1, n + 1) for b in range(a + 1))


NK_ROWS = 5  # row (e)'s grid is W x 5


def moore_all_file(h, tmp):
    """A .game that imports row (d)'s game and evaluates every sorted four-heap position."""
    path = os.path.join(tmp, "d_moore_all.game")
    with open(path, "w") as f:
        f.write('import "%s"\n' % os.path.join(BENCH, "games", "d_moore.game"))
        for t in itertools.combinations_with_replacement(range(h + 1), 4):
            f.write("eval M([%s])\n" % ", ".join(map(str, t)))
    return path


def chomp_all_file(n, tmp):
    """Every Chomp position 1 <= a <= N, b <= a, c <= b, in lexicographic order: one
    `table Chomp(a, b, 0..b)` per (a, b) (about N^2 / 2 statements rather than N^3 / 6 evals)."""
    path = os.path.join(tmp, "f_chomp_all.game")
    with open(path, "w") as f:
        f.write('import "%s"\n' % os.path.join(BENCH, "games", "f_chomp.game"))
        for a in range(1, n + 1):
            for b in range(a + 1):
                f.write("table Chomp(%d, %d, 0..%d)\n" % (a, b, b))
    return path


def nodekayles_masks(w):
    """The closed neighbourhood of each cell of the w x 5 grid, as a bitmask."""
    masks = []
    for v in range(w * NK_ROWS):
        x, y = v % w, v // w
        m = 1 << v
        if x > 0:
            m |= 1 << (v - 1)
        if x < w - 1:
            m |= 1 << (v + 1)
        if y > 0:
            m |= 1 << (v - w)
        if y < NK_ROWS - 1:
            m |= 1 << (v + w)
        masks.append(m)
    return masks


def nodekayles_game(w, tmp):
    """Row (e)'s program for the w x 5 grid, as a user writes it: the neighbourhoods pasted
    in as a constant list."""
    masks = nodekayles_masks(w)
    path = os.path.join(tmp, "e_nodekayles_%d.game" % w)
    with open(path, "w") as f:
        f.write("// Row (e): Node Kayles on the %d x %d grid. The free cells are the bits of b; a\n"
                "// move picks a free cell and removes it and its free neighbours (NB[v]).\n"
                % (w, NK_ROWS))
        f.write("const NB = [%s]\n" % ", ".join(map(str, masks)))
        f.write("game NK(b) {\n  move pick(v in 0..%d) when ((b >> v) & 1) == 1 -> "
                "NK(b ^ (b & NB[v]))\n}\n" % (len(masks) - 1))
    return path


def nodekayles_options_file(w, tmp):
    """Every option of the full board, for the untimed check of row (e)."""
    masks = nodekayles_masks(w)
    full = (1 << len(masks)) - 1
    path = os.path.join(tmp, "e_nodekayles_options_%d.game" % w)
    with open(path, "w") as f:
        f.write('import "%s"\n' % nodekayles_game(w, tmp))
        for m in masks:
            f.write("eval NK(%d)\n" % (full & ~m))
    return path


ROWS = {
    "a": dict(
        title="(a) take k in 1..n when k % 3 != 0, g(0..N)",
        short="take k%3!=0",
        game="a_take.game", base="a_take", size=50000, quick=5000, probe=10000,
        gdsl=lambda n: ["table", "T(0..%d)" % n],
        what="N = %d",
        complexity="O(N^2)", work=work_a,
        auto_target=1.25, interp_target=15.0, python_target=100.0,
    ),
    "b": dict(
        title="(b) Grundy's game (split unequal), plain method, g(0..N)",
        short="Grundy's game",
        game="b_grundy.game", base="b_grundy", size=100000, quick=5000, probe=10000,
        # --plain: every value by the kernel (by default Grundy's game, a take-and-break
        # game, is computed natively with sparse space: see bench/heaps.py).
        gdsl=lambda n: ["table", "Grundy(0..%d)" % n, "--plain"],
        what="N = %d",
        complexity="O(N^2)", work=work_b,
        auto_target=1.25, interp_target=15.0, python_target=100.0,
    ),
    "c": dict(
        title="(c) cutting game, every Cut(2..W, 2..W)",
        short="Cut(2..W, 2..W)",
        game="c_cut.game", base="c_cut", size=600, quick=100, probe=150,
        gdsl=lambda n: ["table", "Cut(2..%d, 2..%d)" % (n, n)],
        what="W = %d",
        complexity="O(W^3)", work=work_c,
        auto_target=1.5, interp_target=10.0, python_target=20.0,
    ),
    "d": dict(
        title="(d) Moore's Nim_2, four heaps of 0..H: M([H, H, H, H]) and its reachable set",
        short="Moore Nim_2",
        game="d_moore.game", base="d_moore", size=20, quick=6, probe=12,
        gdsl=lambda n: ["eval", "-e", "M([%d, %d, %d, %d])" % (n, n, n, n)],
        what="H = %d",
        complexity="O(H^6)", work=work_d,
        auto_target=1.5, interp_target=None, python_target=20.0,
        verify=moore_all_file,
    ),
    "e": dict(
        title="(e) Node Kayles on the W x 5 grid, the free cells as a bitmask: NK(full board)",
        short="Node Kayles",
        make_game=nodekayles_game, base="e_nodekayles", size=7, quick=4, probe=None,
        gdsl=lambda n: ["eval", "-e", "NK(%d)" % ((1 << (NK_ROWS * n)) - 1)],
        what="W = %d",
        complexity="", work=work_e,
        auto_target=1.0, interp_target=10.0, python_target=20.0, memory_target=1.0,
        verify=nodekayles_options_file,
    ),
    "f": dict(
        title="(f) three-row Chomp: Chomp(N, N, N) and every position below it",
        short="3-row Chomp",
        game="f_chomp.game", base="f_chomp", size=200, quick=30, probe=100,
        gdsl=lambda n: ["eval", "-e", "Chomp(%d, %d, %d)" % (n, n, n)],
        what="N = %d",
        complexity="O(N^4)", work=work_f,
        auto_target=1.5, interp_target=None, python_target=20.0,
        verify=chomp_all_file,
    ),
}

# `auto` is gdsl with no --backend flag, as a user runs it (its default backend); `jit` and
# `interp` name the backend. `cpp` is the reference C++ (baselines/*.cpp: the rule as the game file
# writes it, arrays reused, nothing allocated per position); `cpp-tuned` (baselines/tuned/*.cpp,
# only for the rows that have one, for information and never a target) the same with hand
# transformations of the loops that the rule does not state; `cpp-vector` the contest-style C++
# (baselines/vector/*.cpp: a vector of options per position), all three with the same
# GLIBC_TUNABLES; `cpp-glibc` the vector baseline with glibc's allocator defaults.
IMPLS = ["auto", "jit", "interp", "cpp", "cpp-tuned", "cpp-vector", "cpp-glibc", "python"]
DEFAULT_IMPLS = ["auto", "jit", "interp", "cpp", "cpp-vector", "python"]
GDSL_IMPLS = ("auto", "jit", "interp")
NO_TUNED = "no tuned baseline"  # the status of `cpp-tuned` on a row without baselines/tuned/<base>.cpp


def backend_args(impl):
    """gdsl's command-line flags for an implementation: none for `auto`."""
    return [] if impl == "auto" else ["--backend", impl]


def row_game(r, n, tmp):
    """The .game file of row r at size n (row (e)'s is written into tmp)."""
    row = ROWS[r]
    return row["make_game"](n, tmp) if row.get("make_game") else os.path.join(BENCH, "games",
                                                                             row["game"])


def code_game(tmp, kind, code):
    """A .game file in tmp declaring `game G = KIND "CODE"` (kind: octal or hex), written once."""
    path = os.path.join(tmp, "%s_%s.game" % (kind, code))
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write('game G = %s "%s"\n' % (kind, code))
    return path


def gdsl_command(gdsl, r, n, impl, tmp):
    """The command that times row r at size n on gdsl implementation impl (auto, jit, interp)."""
    args = ROWS[r]["gdsl"](n)
    return [gdsl] + args[:1] + [row_game(r, n, tmp)] + args[1:] + backend_args(impl) + ["--json"]


# ---------------------------------------------------------------------------------------------
# Running one command


class Result:
    def __init__(self, wall, cpu, rc, out, err, rss_mib=0.0):
        self.wall, self.cpu, self.rc, self.out, self.err = wall, cpu, rc, out, err
        self.rss_mib = rss_mib  # the child's peak resident memory


def run(cmd, env=None, timeout=None, cwd=REPO):
    """Runs cmd; wall time from fork to reap, CPU time (user + sys) of the child."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, env=full_env, cwd=cwd)
        deadline = None if timeout is None else t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if deadline is not None and time.perf_counter() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                wall = time.perf_counter() - t0
                return Result(wall, ru.ru_utime + ru.ru_stime, None, "",
                              "timed out after %.0f s" % timeout, ru.ru_maxrss / 1024)
            time.sleep(0.002)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out = fo.read().decode(errors="replace")
        err = fe.read().decode(errors="replace")
    return Result(wall, ru.ru_utime + ru.ru_stime, p.returncode, out, err, ru.ru_maxrss / 1024)


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


# ---------------------------------------------------------------------------------------------
# Answers: every implementation yields (value, checksum, count)


def parse_baseline(out):
    line = first_line(out)
    fields = dict(kv.split("=", 1) for kv in line.split())
    return int(fields["value"]), int(fields["checksum"]), int(fields["count"])


def parse_gdsl(out):
    """The answer from gdsl's JSON Lines: a table gives all values, an eval one value."""
    objs = [json.loads(line) for line in out.splitlines() if line.strip().startswith("{")]
    for o in objs:
        if o.get("kind") == "error":
            raise RuntimeError("gdsl error: " + o.get("message", "?"))
    for o in objs:
        if o.get("kind") == "table":
            vals = o["values"]
            flat = [v for row in vals for v in row] if vals and isinstance(vals[0], list) else vals
            h, n = checksum(flat)
            return flat[-1], h, n
    for o in objs:
        if o.get("kind") == "eval":
            return o["grundy"], None, None
    raise RuntimeError("no table or eval result in gdsl's output")


def eval_values(out):
    """The values of the eval and one-range table statements in gdsl's JSON Lines, in order."""
    vals = []
    for line in out.splitlines():
        if not line.strip().startswith("{"):
            continue
        o = json.loads(line)
        if o.get("kind") == "eval":
            vals.append(o["grundy"])
        elif o.get("kind") == "table":
            vals.extend(o["values"])
    return vals


# ---------------------------------------------------------------------------------------------


def fmt_s(x):
    if x is None:
        return "-"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3f" % x


def fmt_ratio(x):
    if x is None:
        return "-"
    if x >= 100:
        return "%.0fx" % x
    if x >= 10:
        return "%.1fx" % x
    return "%.2fx" % x


TMP = None  # the harness's temporary directory, shown as <tmp>


def cmd_text(cmd, env=None):
    if TMP:
        cmd = [c.replace(TMP, "<tmp>") for c in cmd]
    parts = []
    if env:
        parts += ["%s=%s" % (k, v.replace(TMP, "<tmp>") if TMP else v) for k, v in env.items()]
    parts += [shlex.quote(os.path.relpath(c, REPO)) if os.path.isabs(c) and c.startswith(REPO)
              else shlex.quote(c) for c in cmd]
    return " ".join(parts)


def machine_info(gdsl):
    info = {}
    info["date"] = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")
    info["nproc"] = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    cpu = "?"
    mem = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = "%.1f GiB" % (int(line.split()[1]) / 1048576)
                break
    except OSError:
        pass
    info["cpu"] = cpu
    info["mem"] = mem
    info["kernel"] = platform.release()
    info["gxx"] = first_line(subprocess.run(["g++", "--version"], capture_output=True,
                                            text=True).stdout)
    info["python"] = subprocess.run([PY, "--version"], capture_output=True,
                                    text=True).stdout.strip()
    git = subprocess.run(["git", "-C", REPO, "describe", "--always", "--dirty"],
                         capture_output=True, text=True).stdout.strip()
    info["git"] = git or "?"
    try:
        info["gdsl_mtime"] = datetime.datetime.fromtimestamp(os.path.getmtime(gdsl)).strftime(
            "%Y-%m-%d %H:%M:%S")
    except OSError:
        info["gdsl_mtime"] = "?"
    info["load"] = " ".join(open("/proc/loadavg").read().split()[:3])
    return info


CACHE_NOTE = ("gdsl's JIT code cache starts empty for each row, and auto and jit share it: the "
              "first auto run and the first jit run of a row (the first of `runs`) may compile "
              "(auto only when it moves to the JIT; jit may link what auto stored), the others "
              "link the code stored, as a second run of the same game does "
              "(docs/architecture.md, \"The code cache\").")
NO_CACHE_NOTE = ("gdsl's JIT code cache was off: every jit run, and every auto run that moved to "
                 "the JIT, compiled.")


def machine_rows(info, gdsl, end_load, compiler=True):
    """The lines of a results file's table of the machine, the binary and the load (RESULTS.md,
    TIERS.md)."""
    rows = ["| | |", "| --- | --- |",
            "| date | %s |" % info["date"],
            "| CPU | %s (`nproc` = %s) |" % (info["cpu"], info["nproc"]),
            "| memory | %s |" % info["mem"],
            "| kernel | %s |" % info["kernel"]]
    if compiler:
        rows.append("| compiler | %s, `-O2 -std=c++20` |" % info["gxx"])
    rows += ["| python | %s |" % info["python"],
             "| gdsl | `%s`, source `%s`, binary built %s |" % (cmd_text([gdsl]), info["git"],
                                                              info["gdsl_mtime"]),
             "| load average | %s at the start, %s at the end |" % (info["load"], end_load)]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="timed runs per implementation (median)")
    ap.add_argument("--rows", default=",".join(ROWS), help="rows to run, e.g. a,c")
    ap.add_argument("--impls", default=",".join(DEFAULT_IMPLS),
                    help="comma list of %s, or 'all'" % ",".join(IMPLS))
    ap.add_argument("--gdsl", default=os.path.join(REPO, "build", "gdsl"),
                    help="the gdsl binary (default build/gdsl)")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes (a smoke test; results are not comparable)")
    ap.add_argument("--size", action="append", default=[], metavar="ROW=N",
                    help="override a row's size, e.g. --size a=20000")
    ap.add_argument("--python-limit", type=float, default=120.0,
                    help="run Python at full size only when a probe predicts at most this many "
                         "seconds; otherwise time it at the probe size and extrapolate")
    ap.add_argument("--timeout", type=float, default=1800.0, help="per command, seconds")
    ap.add_argument("--output", default=os.path.join(BENCH, "RESULTS.md"))
    ap.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    ap.add_argument("--no-code-cache", action="store_true",
                    help="run gdsl with its JIT code cache off (GDSL_CACHE_DIR=off), so that "
                    "every JIT run (and every auto run that moves to the JIT) compiles")
    args = ap.parse_args()

    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    for r in rows:
        if r not in ROWS:
            ap.error("unknown row %r (rows: %s)" % (r, ",".join(ROWS)))
    impls = IMPLS if args.impls == "all" else [i.strip() for i in args.impls.split(",")]
    for i in impls:
        if i not in IMPLS:
            ap.error("unknown implementation %r (%s)" % (i, ",".join(IMPLS)))
    sizes = {r: (ROWS[r]["quick"] if args.quick else ROWS[r]["size"]) for r in ROWS}
    for s in args.size:
        r, _, n = s.partition("=")
        if r not in ROWS or not n.isdigit():
            ap.error("bad --size %r" % s)
        sizes[r] = int(n)
    gdsl = os.path.abspath(args.gdsl)
    if any(i in GDSL_IMPLS for i in impls) and not os.path.exists(gdsl):
        sys.exit("run.py: %s does not exist; build it with `ninja -C build`" % gdsl)

    info = machine_info(gdsl)
    print("gdsl bench: %s, %s CPUs (%s), load %s" % (info["date"], info["nproc"], info["cpu"],
                                                      info["load"]), flush=True)

    global TMP
    tmp = tempfile.mkdtemp(prefix="gdsl-bench-")
    # gdsl's JIT code cache (docs/architecture.md, "The code cache"): a directory of this
    # run's own, emptied before each row, so that the first auto and jit runs of a row may
    # compile (auto only when it moves to the JIT; the two share the cache, so the first jit run
    # may link what the first auto run stored) and the others link the code stored.
    code_cache = "off" if args.no_code_cache else os.path.join(tmp, "jit-cache")
    gdsl_env = {"GDSL_CACHE_DIR": code_cache}
    TMP = tmp
    compile_cmds = []
    try:
        # Build the baselines: bins[r] the reference C++ (baselines/), tbins[r] the tuned
        # baseline (baselines/tuned/, only the rows that have one), vbins[r] the vector baseline
        # (baselines/vector/).
        bins = {}
        tbins = {}
        vbins = {}
        kinds = []
        if any(i.startswith("cpp") for i in impls):
            kinds.append(("", bins))  # `cpp` also checks Python's runs at the probe size
        if "cpp-tuned" in impls:
            kinds.append(("tuned", tbins))
        if any(i in ("cpp-vector", "cpp-glibc") for i in impls):
            kinds.append(("vector", vbins))
        for sub, out in kinds:
            if sub:
                os.makedirs(os.path.join(tmp, sub), exist_ok=True)
            for r in rows:
                src = os.path.join(BENCH, "baselines", sub, ROWS[r]["base"] + ".cpp")
                if sub == "tuned" and not os.path.exists(src):
                    continue  # no tuned baseline for this row: `cpp-tuned` skips it
                exe = os.path.join(tmp, sub, ROWS[r]["base"])
                cmd = ["g++", "-O2", "-std=c++20", "-o", exe, src]
                compile_cmds.append(cmd_text(cmd))
                res = run(cmd)
                if res.rc != 0:
                    sys.exit("run.py: compiling %s failed:\n%s" % (src, res.err))
                out[r] = exe

        # Start-up: a trivial position, so that short rows can be read net of it.
        startup = {}
        for impl in GDSL_IMPLS:
            if impl not in impls:
                continue
            scmd = [gdsl, "eval", os.path.join(BENCH, "games", "d_moore.game"), "-e",
                    "M([1])"] + backend_args(impl) + ["--json"]
            walls = []
            for _ in range(max(args.runs, 3)):
                res = run(scmd, env=gdsl_env, timeout=60)
                if res.rc != 0:
                    break
                walls.append(res.wall)
            if walls:
                startup[impl] = (statistics.median(walls), cmd_text(scmd, gdsl_env))
                print("   %-9s start-up (trivial eval): %.3f s" % (impl, startup[impl][0]),
                      flush=True)
        if any(i.startswith("cpp") for i in impls) and rows:
            b0 = bins[rows[0]]
            walls = [run([b0, "0"]).wall for _ in range(max(args.runs, 3))]
            startup["cpp"] = (statistics.median(walls), cmd_text([b0, "0"]))

        results = {}  # (row, impl) -> dict
        for r in rows:
            row = ROWS[r]
            n = sizes[r]
            print("\n== %s, %s" % (row["title"], row["what"] % n), flush=True)
            plans = {}
            for impl in impls:
                plan = dict(n=n, env=None, note="", extrapolate=1.0)
                if impl in GDSL_IMPLS:
                    plan["cmd"] = gdsl_command(gdsl, r, n, impl, tmp)
                    plan["env"] = gdsl_env
                elif impl == "cpp-tuned" and r not in tbins:
                    plan["cmd"] = None
                    plan["skip"] = NO_TUNED
                    print("   %-9s skipped: %s" % (impl, NO_TUNED), flush=True)
                elif impl in ("cpp", "cpp-tuned", "cpp-vector", "cpp-glibc"):
                    plan["cmd"] = [{"cpp": bins, "cpp-tuned": tbins}.get(impl, vbins)[r], str(n)]
                    if impl != "cpp-glibc":
                        plan["env"] = {"GLIBC_TUNABLES": CPP_TUNABLES}
                elif impl == "python":
                    script = os.path.join(BENCH, "python", row["base"] + ".py")
                    plan["cmd"] = [PY, script, str(n)]
                    probe = row["probe"]
                    if probe and probe < n:
                        pcmd = [PY, script, str(probe)]
                        pres = run(pcmd, timeout=args.timeout)
                        if pres.rc == 0:
                            est = pres.wall * row["work"](n) / row["work"](probe)
                            print("   python probe at %s: %.2f s, full size predicted %.0f s"
                                  % (row["what"] % probe, pres.wall, est), flush=True)
                            if est > args.python_limit:
                                plan["cmd"] = pcmd
                                plan["n"] = probe
                                plan["extrapolate"] = row["work"](n) / row["work"](probe)
                                plan["note"] = ("run at %s, scaled by the move count (x%.1f, %s)"
                                                % (row["what"] % probe, plan["extrapolate"],
                                                   row["complexity"]))
                plans[impl] = plan
                results[(r, impl)] = dict(walls=[], cpus=[], rss=[], answer=None, error=None,
                                          plan=plan, positions=None)

            if code_cache != "off":
                shutil.rmtree(code_cache, ignore_errors=True)
            for k in range(args.runs):
                for impl in impls:
                    res_slot = results[(r, impl)]
                    plan = plans[impl]
                    if res_slot["error"] or plan.get("skip"):
                        continue
                    res = run(plan["cmd"], env=plan["env"], timeout=args.timeout)
                    if res.rc != 0:
                        msg = first_line(res.err) if res.err.strip() else first_line(res.out)
                        if res.rc is None:
                            msg = res.err
                        res_slot["error"] = "exit %s: %s" % (res.rc, msg)
                        print("   %-9s unavailable: %s" % (impl, res_slot["error"]), flush=True)
                        continue
                    try:
                        ans = (parse_gdsl(res.out) if impl in GDSL_IMPLS
                               else parse_baseline(res.out))
                    except Exception as e:  # noqa: BLE001 - report, do not crash
                        res_slot["error"] = "bad output: %s" % e
                        print("   %-9s %s" % (impl, res_slot["error"]), flush=True)
                        continue
                    res_slot["answer"] = ans
                    res_slot["walls"].append(res.wall)
                    res_slot["cpus"].append(res.cpu)
                    res_slot["rss"].append(res.rss_mib)
                    m = re.search(r"\bpositions=(\d+)", res.out)
                    if m:
                        res_slot["positions"] = int(m.group(1))
                    print("   %-9s run %d: %7.3f s wall, %7.3f s cpu   value=%s%s" % (
                        impl, k + 1, res.wall, res.cpu, ans[0],
                        "" if ans[1] is None else " checksum=%d" % ans[1]), flush=True)

            # Rows (d), (e) and (f): gdsl's timed run answers one position (M([H,H,H,H]), the
            # full board, Chomp(N,N,N)); one untimed run evaluates the positions the baselines'
            # checksum covers (every sorted position, the board's options, every Chomp position
            # below) and is checked against it.
            if row.get("verify"):
                for impl in GDSL_IMPLS:
                    slot = results.get((r, impl))
                    if not slot or slot["error"] or slot["answer"] is None:
                        continue
                    vcmd = ([gdsl, "eval", row["verify"](n, tmp)] + backend_args(impl) +
                            ["--json"])
                    res = run(vcmd, env=gdsl_env, timeout=args.timeout)
                    vals = eval_values(res.out) if res.rc == 0 else []
                    if res.rc != 0 or not vals:
                        slot["error"] = "verification run failed: " + first_line(res.err)
                        continue
                    h, cnt = checksum(vals)
                    slot["answer"] = (slot["answer"][0], h, cnt)
                    slot["verify_cmd"] = cmd_text(vcmd, gdsl_env)

            # Check that every implementation agrees (at the same size).
            ref = None
            for impl in impls:
                slot = results[(r, impl)]
                if slot["answer"] is None or slot["plan"]["n"] != n:
                    continue
                if ref is None:
                    ref = (impl, slot["answer"])
                elif slot["answer"] != ref[1]:
                    slot["error"] = "DISAGREES with %s: %s vs %s" % (ref[0], slot["answer"],
                                                                      ref[1])
                    print("   %-9s %s" % (impl, slot["error"]), flush=True)
            # A Python run at the probe size is checked against the C++ baseline at that size.
            py = results.get((r, "python"))
            if py and py["answer"] and py["plan"]["n"] != n and r in bins:
                res = run([bins[r], str(py["plan"]["n"])],
                          env={"GLIBC_TUNABLES": CPP_TUNABLES})
                if res.rc == 0 and parse_baseline(res.out) != py["answer"]:
                    py["error"] = "DISAGREES with cpp at %s" % (row["what"] % py["plan"]["n"])
                elif res.rc == 0:
                    py["plan"]["note"] += "; agrees with cpp at that size"
            for impl in impls:
                slot = results[(r, impl)]
                slot["agree"] = (slot["answer"] is not None and not slot["error"])
        end_load = " ".join(open("/proc/loadavg").read().split()[:3])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # ---- Summaries
    def med(slot, key="walls"):
        if slot is None or slot["error"] or not slot[key]:
            return None
        return statistics.median(slot[key]) * slot["plan"]["extrapolate"]

    def peak(slot):  # the largest resident memory of its runs, MiB
        if slot is None or slot["error"] or not slot["rss"] or slot["plan"]["extrapolate"] != 1:
            return None
        return max(slot["rss"])

    table = []  # rows of the main table
    checks = []  # target lines
    for r in rows:
        row = ROWS[r]
        cpp = med(results.get((r, "cpp")))
        # Positions memoized, as the C++ baseline counts them (row (e)).
        positions = (results.get((r, "cpp")) or {}).get("positions")
        for impl in impls:
            slot = results[(r, impl)]
            m = med(slot)
            mc = med(slot, "cpus")
            if slot["plan"].get("skip"):
                status = "skipped: " + slot["plan"]["skip"]
            elif slot["error"]:
                status = "unavailable: " + slot["error"] if "DISAGREES" not in slot["error"] \
                    else slot["error"]
            else:
                status = "ok"
                if slot["plan"]["extrapolate"] != 1.0:
                    status = "extrapolated (%s)" % slot["plan"]["note"]
                elif r in ("d", "f") and impl in GDSL_IMPLS and slot.get("verify_cmd"):
                    status = "ok (all %d positions checked)" % slot["answer"][2]
                elif r == "e" and impl in GDSL_IMPLS and slot.get("verify_cmd"):
                    status = "ok (the full board's %d options checked)" % slot["answer"][2]
            walls = ", ".join(fmt_s(w) for w in slot["walls"]) if not slot["error"] else ""
            pk = peak(slot)
            table.append(dict(row=r, impl=impl, n=row["what"] % slot["plan"]["n"], med=m,
                              cpu=mc, ratio=(m / cpp if (m and cpp) else None), walls=walls,
                              status=status, answer=slot["answer"], peak=pk,
                              bpp=(pk * 1048576 / positions if pk and positions else None)))

        def target(label, got, limit, kind):
            if got is None:
                checks.append((r, label, "%s %s" % ("<=" if kind == "le" else ">=",
                                                    fmt_ratio(limit)), "-", "n/a"))
                return
            ok = got <= limit if kind == "le" else got >= limit
            checks.append((r, label, "%s %s" % ("<=" if kind == "le" else ">=", fmt_ratio(limit)),
                           fmt_ratio(got), "PASS" if ok else "FAIL"))

        def note(label, got):  # not a target; for information
            if got is not None:
                checks.append((r, label + " (info)", "", fmt_ratio(got), ""))

        auto = med(results.get((r, "auto")))
        jit = med(results.get((r, "jit")))
        interp = med(results.get((r, "interp")))
        pyt = med(results.get((r, "python")))
        tuned = med(results.get((r, "cpp-tuned")))
        if "auto" in impls:
            target("auto / cpp", auto / cpp if auto and cpp else None, row["auto_target"], "le")
        note("auto / cpp-tuned", auto / tuned if auto and tuned else None)
        if "jit" in impls:
            note("jit / cpp", jit / cpp if jit and cpp else None)
        # The interpreter's targets were set against the contest-style C++ (before the
        # reference baselines): they stay against it.
        vec = med(results.get((r, "cpp-vector")))
        if row["interp_target"] and "interp" in impls:
            target("interp / cpp-vector", interp / vec if interp and vec else None,
                   row["interp_target"], "le")
            note("interp / cpp", interp / cpp if interp and cpp else None)
        if "python" in impls:
            target("python / jit", pyt / jit if pyt and jit else None, row["python_target"],
                   "ge")
        if row.get("memory_target"):
            pc = peak(results.get((r, "cpp")))
            pa, pj = peak(results.get((r, "auto"))), peak(results.get((r, "jit")))
            if "auto" in impls:
                target("auto / cpp peak memory", pa / pc if pa and pc else None,
                       row["memory_target"], "le")
            note("jit / cpp peak memory", pj / pc if pj and pc else None)
        note("python / interp", pyt / interp if interp and pyt else None)

    # Print the table.
    def fmt_mib(x):
        return "-" if x is None else "%.0f" % x

    print("\n%-4s %-10s %-9s %10s %10s %10s %9s %7s  %s" % (
        "row", "impl", "size", "median s", "cpu s", "vs cpp", "peak MiB", "B/pos", "status"))
    for t in table:
        print("%-4s %-10s %-9s %10s %10s %10s %9s %7s  %s" % (
            t["row"], t["impl"], t["n"], fmt_s(t["med"]), fmt_s(t["cpu"]),
            fmt_ratio(t["ratio"]), fmt_mib(t["peak"]), fmt_mib(t["bpp"]), t["status"]))
    if any(i in ("auto", "jit") for i in impls):
        print("\n%s" % (NO_CACHE_NOTE if args.no_code_cache else CACHE_NOTE))
    print("\ntargets:")
    for c in checks:
        print("  (%s) %-30s %-9s %-9s %s" % c)

    if args.no_write:
        return
    argv = " ".join(shlex.quote(a) for a in sys.argv[1:])
    lines = []
    w = lines.append
    w("# gdsl benchmark results")
    w("")
    w("Generated by `bench/run.py`; do not edit by hand (see `bench/README.md`).")
    w("")
    w("Command: `/usr/bin/python3 bench/run.py%s` (from the repository root)" %
      (" " + argv if argv else ""))
    w("")
    lines += machine_rows(info, gdsl, end_load)
    w("| runs | %d per implementation, median wall time |" % args.runs)
    w("")
    w("## Times")
    w("")
    w("Median wall-clock seconds of %d runs (each a fresh process, so gdsl's times include "
      "start-up, parsing and, for the JIT, compilation); `cpu` is the median user + system "
      "time; `vs cpp` is the median divided by the reference C++ baseline's (`cpp`, arrays "
      "reused, the rule's own loops and tests; `cpp-tuned`, where a row has one, adds hand "
      "transformations of the loops that the rule does not state, for information; "
      "`cpp-vector` is the contest-style baseline with a vector per position). `auto` "
      "is gdsl with its default backend (no `--backend`), `jit` and `interp` name one. %s" % (
          args.runs, NO_CACHE_NOTE if args.no_code_cache else CACHE_NOTE))
    w("")
    w("| row | impl | size | median s | cpu s | vs cpp | peak MiB | bytes/position | runs (s) "
      "| value | status |")
    w("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |")
    for t in table:
        val = "-" if t["answer"] is None else str(t["answer"][0])
        med_txt = fmt_s(t["med"])
        cpu_txt = fmt_s(t["cpu"])
        if t["status"].startswith("extrapolated"):
            med_txt = "~" + med_txt
            cpu_txt = "~" + cpu_txt
            t["walls"] += " (at the smaller size)"
        w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            t["row"], t["impl"], t["n"], med_txt, cpu_txt, fmt_ratio(t["ratio"]),
            fmt_mib(t["peak"]), fmt_mib(t["bpp"]), t["walls"], val,
            t["status"].replace("|", "\\|")))
    w("")
    if startup:
        w("Start-up, the median wall time of a trivial run (included in every time above): " +
          ", ".join("%s %s s (`%s`)" % (k, fmt_s(v[0]), v[1]) for k, v in startup.items()) +
          ".")
        w("")
    w("## Targets")
    w("")
    w("| row | ratio | target | measured | |")
    w("| --- | --- | --- | ---: | --- |")
    for c in checks:
        w("| %s | %s | %s | %s | %s |" % c)
    w("")
    w("## Agreement")
    w("")
    w("Every implementation prints the value of the row's last position and a checksum over "
      "all values of the row (`h = (h * 1000003 + v) mod (2^61 - 1)`, in table order); the "
      "harness computes the same checksum from gdsl's `--json` output. Row (d) times "
      "`M([H, H, H, H])` alone; an untimed second gdsl run evaluates every sorted position "
      "and is checked against the baselines. Row (e) times the full board alone; the "
      "checksum is over the values of its options, which an untimed gdsl run evaluates. "
      "Row (f) times `Chomp(N, N, N)` alone; an untimed gdsl run tables every position "
      "`a >= b >= c` below it (lexicographic order), checked against the baselines. "
      "Peak memory is the process's maximum resident set; bytes per position divide it "
      "by the positions the C++ baseline memoizes (row (e)).")
    w("")
    for r in rows:
        seen = {}
        for impl in impls:
            slot = results[(r, impl)]
            if slot["answer"] is not None and not slot["error"]:
                seen.setdefault((slot["plan"]["n"], slot["answer"]), []).append(impl)
        parts = ["%s: value %s, checksum %s over %s values (%s)" % (
            ROWS[r]["what"] % n_, a[0], a[1], a[2], ", ".join(ims))
            for (n_, a), ims in seen.items()]
        bad = [impl for impl in impls if results[(r, impl)]["error"]
               and "DISAGREES" in results[(r, impl)]["error"]]
        w("- (%s) %s%s" % (r, "; ".join(parts) or "no answers",
                           ("; **disagreeing: %s**" % ", ".join(bad)) if bad else ""))
    w("")
    w("## Exact commands")
    w("")
    w("```")
    for c in compile_cmds:
        w(c)
    for r in rows:
        for impl in impls:
            slot = results[(r, impl)]
            if slot["plan"]["cmd"] is None:  # cpp-tuned on a row without a tuned baseline
                continue
            w(cmd_text(slot["plan"]["cmd"], slot["plan"]["env"]))
            if slot.get("verify_cmd"):
                w(slot["verify_cmd"] + "    # untimed check of every position")
    w("```")
    w("")
    w("`<tmp>` is a temporary directory the harness deletes at the end.")
    w("")
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print("\nwrote %s" % os.path.relpath(args.output, REPO))


if __name__ == "__main__":
    main()
