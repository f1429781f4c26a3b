#!/usr/bin/env python3
"""gdsl census (docs/census.md) as a whole: the same database rows (time and memory
columns aside) from --jobs 1, --jobs 2, mpirun with three ranks, and two shards merged,
for the octal codes '0.??' and for a .game file with mixed rules; a census SIGKILLed at
random moments (and one whose MPI worker is killed) resumes to the rows of an
uninterrupted run, keeping every row written before the kill; a census to a larger N
continues from its checkpoints with the values of a fresh run; report's Markdown, CSV
and --open; misère quotients (--quotient) equal to `gdsl quotient`'s; MPI's errors when the plugin is missing or wrong. The rows' values are
checked against a brute force in tests/unit/census_test.cpp.

usage: census.py GDSL
"""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

GDSL = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def env(extra=None):
    e = dict(os.environ)
    e["GDSL_CACHE_DIR"] = "off"
    e.update(MPI_ENV)
    e.update(extra or {})
    return e


def run(args, extra_env=None, timeout=300):
    return subprocess.run([GDSL] + args, capture_output=True, text=True, env=env(extra_env),
                          timeout=timeout)


def mpi_env():
    """Under the sanitizers (scripts/sanitize.sh), MPI ranks run without LeakSanitizer: Open MPI
    keeps its allocations until exit and unloads its components first, so their stacks cannot
    even be named for a suppression. AddressSanitizer's other checks stay on, and the same
    census code is leak-checked by the runs without MPI."""
    e = env()
    e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return e


def mpirun(np, args, timeout=300):
    return subprocess.run(["mpirun", "-np", str(np), "--oversubscribe", GDSL] + args,
                          capture_output=True, text=True, env=mpi_env(), timeout=timeout)


def rows(db, how=True):
    """Every row without its time and memory columns, sorted; without `how`, also without
    the columns that say how the values were computed (method, rare heaps), which for a
    game resumed from a checkpoint describe the resumed run (docs/census.md)."""
    con = sqlite3.connect(db)
    out = sorted(con.execute(
        "SELECT game, rules, n, checked_to, period, preperiod, saltus, proved, proof_heap, "
        "max_value, checksum, version" + (", method, rare_heaps" if how else "") +
        " FROM results"))
    con.close()
    return out


tmp = tempfile.mkdtemp(prefix="gdsl-census-")
os.chdir(tmp)

MIXED = os.path.join(tmp, "mixed.game")
with open(MIXED, "w") as f:
    f.write("""// One-heap games of several kinds, and one that is not one-heap.
game Kayles = octal "0.77"
game Sub(n) {
  take {1, 3, 4}
}
game Halving(n) {
  move half(k in 1..n / 2) -> Halving(n - k)
}
game Splits(n) {
  move cut(a in 1..n - 1 when a <= n - a) -> Splits(a) + Splits(n - a)
  move grab(k in 1..2 when k <= n) -> Splits(n - k)
}
game Lasker(n) {
  take 1..n
  split
}
game Board(w, h) {
  move cut(k in 1..w - 1) -> Board(k, h)
}
""")

# 1. The same rows however the census is spread.
# The sanitized build (GDSL_TEST_SCALE=4) runs a quarter of the heaps here and below.
SCALE = int(os.environ.get("GDSL_TEST_SCALE", "1"))
for family, n, games in [("0.??", 3000 // SCALE, 63), (MIXED, 2000 // SCALE, 5)]:
    r1 = run(["census", family, "--to", str(n), "--db", "j1.db", "--jobs", "1"])
    check(r1.returncode == 0, f"{family}: --jobs 1 succeeds: {r1.stderr[-400:]}")
    base = rows("j1.db")
    check(len(base) == games, f"{family}: {games} rows, got {len(base)}")
    # One line per finished game when standard error is not a terminal.
    check(sum(line.startswith("census: [") for line in r1.stderr.splitlines()) == games,
          f"{family}: a progress line per game")
    if family == MIXED:  # Lasker's nim: g(4k+3) = 4k+4, g(4k+4) = 4k+3, else n
        lasker = [r for r in base if r[0] == "Lasker"]
        # Proved at heap 60 (docs/heaps.md, "Amounts without bound"), where the table stops:
        # max_value is g(59) = 60, the largest of g(0..checked_to).
        check(len(lasker) == 1 and lasker[0][3:10] == (60, 4, 1, 4, 1, 60, 60),
              f"Lasker's nim is arithmetic-periodic: period 4 from 1, saltus 4, proved: {lasker}")
        check("1 arithmetic-periodic" in r1.stderr, "the summary counts it")
    r2 = run(["census", family, "--to", str(n), "--db", "j2.db", "--jobs", "2"])
    check(r2.returncode == 0 and rows("j2.db") == base, f"{family}: --jobs 2 gives the same rows")
    rm = mpirun(3, ["census", family, "--to", str(n), "--db", "m3.db"])
    check(rm.returncode == 0, f"{family}: mpirun -np 3 succeeds: {rm.stdout[-400:]} {rm.stderr[-400:]}")
    check(os.path.exists("m3.db") and rows("m3.db") == base,
          f"{family}: mpirun -np 3 gives the same rows")
    for k in (1, 2):
        rs = run(["census", family, "--to", str(n), "--db", f"s{k}.db", "--shard", f"{k}/2"])
        check(rs.returncode == 0, f"{family}: shard {k}/2 succeeds")
    check(len(rows("s1.db")) + len(rows("s2.db")) == games, f"{family}: the shards split the games")
    rmg = run(["census", "merge", "s1.db", "s2.db", "-o", "merged.db"])
    check(rmg.returncode == 0 and rows("merged.db") == base,
          f"{family}: two shards merged give the same rows")
    # Again: nothing is computed twice, nothing merged twice.
    again = run(["census", family, "--to", str(n), "--db", "j1.db"])
    check(f"0 computed, {games} already" in again.stderr, f"{family}: a finished census computes nothing")
    check(rows("j1.db") == base, f"{family}: and its rows stay")
    rmg = run(["census", "merge", "s1.db", "s2.db", "-o", "merged.db"])
    check(rmg.returncode == 0 and rows("merged.db") == base, f"{family}: merging twice adds nothing")
    for db in os.listdir("."):
        if db.endswith(".db") or db.endswith(".checkpoints"):
            shutil.rmtree(db) if os.path.isdir(db) else os.remove(db)

# 2. Report: Markdown, CSV, --open.
run(["census", "0.??", "--to", "3000", "--db", "r.db"])
all_rows = rows("r.db")
open_rows = [r for r in all_rows if not r[7]]
md = run(["census", "report", "r.db"])
check(md.returncode == 0 and md.stdout.startswith("| game | N |"), "report prints a Markdown table")
# The census put the file back in rollback mode: the report (read-only) made no
# -wal and -shm files, which a reader could not have removed.
check(not os.path.exists("r.db-wal") and not os.path.exists("r.db-shm"),
      "report leaves no r.db-wal or r.db-shm beside the database")
check(sum(line.startswith("| 0.") for line in md.stdout.splitlines()) == len(all_rows),
      "report has a line per row")
csv = run(["census", "report", "r.db", "--csv"])
lines = csv.stdout.strip().splitlines()
check(lines[0].startswith("game,rules,n,") and len(lines) == len(all_rows) + 1, "report --csv")
kayles = [line for line in lines if line.startswith("0.77,")]
check(len(kayles) == 1 and ",12,71,0,1," in kayles[0], f"Kayles' row in CSV: {kayles}")
op = run(["census", "report", "r.db", "--open", "--csv"])
check(len(op.stdout.strip().splitlines()) == len(open_rows) + 1 and open_rows,
      f"--open lists the {len(open_rows)} games whose period is not proved")

srt = run(["census", "report", "r.db", "--sort", "period"]).stdout.splitlines()
periods = [int(line.split("|")[4]) for line in srt if line.startswith("| 0.") and line.split("|")[4].strip()]
check(periods and periods == sorted(periods, reverse=True) and periods[0] == max(r[4] or 0 for r in all_rows),
      "report --sort period puts the longest period first")

# 3. A larger N continues from the checkpoints, with the values of a fresh run.
SMALL, LARGE = 20000 // SCALE, 40000 // SCALE
run(["census", "0.16,0.56,0.106", "--to", str(SMALL), "--db", "grow.db"])
run(["census", "0.16,0.56,0.106", "--to", str(LARGE), "--db", "grow.db"])
run(["census", "0.16,0.56,0.106", "--to", str(LARGE), "--db", "fresh.db"])
grown = [r for r in rows("grow.db", how=False) if r[2] == LARGE]
check(len(rows("grow.db")) == 6 and grown == rows("fresh.db", how=False),
      "a census to a larger N keeps the smaller N's rows and equals a fresh run")
check(os.path.isdir("grow.db.checkpoints") and len(os.listdir("grow.db.checkpoints")) == 3,
      "checkpoints beside the database, one per game")

# 4. SIGKILL at random moments, then resume: the rows of an uninterrupted run.
FAMILY, N = "0.???", 10000 // SCALE
run(["census", FAMILY, "--to", str(N), "--db", "whole.db", "--jobs", "2"])
whole = rows("whole.db", how=False)
check(len(whole) == 511, f"'0.???' is 511 codes, got {len(whole)}")
rng = random.Random(16)
kills = 0
# The sanitized suite (SCALE > 1) kills two runs, not four: each is a census of 511 games.
for attempt in range(4 if SCALE == 1 else 2):
    p = subprocess.Popen([GDSL, "census", FAMILY, "--to", str(N), "--db", "killed.db", "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    time.sleep(rng.uniform(0.3, 2.0))
    before = rows("killed.db") if os.path.exists("killed.db") else []
    if p.poll() is None:
        p.send_signal(signal.SIGKILL)
        kills += 1
    p.wait()
    after = rows("killed.db") if os.path.exists("killed.db") else []
    check(set(before) <= set(after), "a kill loses no row written before it")
    check(set(rows("killed.db", how=False) if after else []) <= set(whole),
          "every row written before a kill is a row of the whole run")
check(kills >= (2 if SCALE == 1 else 1), "the census was killed while it ran")
resumed = run(["census", FAMILY, "--to", str(N), "--db", "killed.db", "--jobs", "2"])
check(resumed.returncode == 0 and rows("killed.db", how=False) == whole,
      "a killed census resumes to the rows of an uninterrupted run")

# 4b. SIGTERM and SIGINT: the census ends its games, keeps its rows, exits with 143 or 130,
# leaves no game running, and resumes like after a kill.
# The sanitized suite (SCALE > 1) sends SIGTERM only: both take the same path, and each round
# is two runs of 511 games, every game a forked process.
STOPS = ((signal.SIGTERM, 143), (signal.SIGINT, 130))
for sig, status in (STOPS[:1] if SCALE > 1 else STOPS):
    db = f"stopped-{status}.db"
    p = subprocess.Popen([GDSL, "census", FAMILY, "--to", str(N), "--db", db, "--jobs", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env())
    time.sleep(rng.uniform(0.5, 1.0))
    p.send_signal(sig)
    err = p.communicate(timeout=60)[1]
    check(p.returncode == status and f"census stopped by {signal.Signals(sig).name}" in err,
          f"{signal.Signals(sig).name}: exit {status} and says so: {p.returncode} {err[-300:]}")
    left = []
    for pid in os.listdir("/proc"):
        try:
            if db.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                left.append(pid)
        except OSError:
            pass
    check(not left, f"{signal.Signals(sig).name}: no game left running: {left}")
    check(set(rows(db, how=False)) <= set(whole), "the rows kept are rows of the whole run")
    resumed = run(["census", FAMILY, "--to", str(N), "--db", db, "--jobs", "2"])
    check(resumed.returncode == 0 and rows(db, how=False) == whole,
          f"{signal.Signals(sig).name}: the census resumes to an uninterrupted run's values")

# 5. An MPI worker killed: the run stops; run again, it resumes to the same rows.
# The sanitized suite (SCALE > 1) leaves it out: MPI ranks run there without LeakSanitizer, and
# the resume after a kill is checked above.
def mpi_worker_killed():
    p = subprocess.Popen(["mpirun", "-np", "3", "--oversubscribe", GDSL, "census", FAMILY, "--to",
                          str(N), "--db", "mpikill.db"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=mpi_env(), start_new_session=True)
    victim = None
    deadline = time.time() + 30
    while victim is None and time.time() < deadline and p.poll() is None:
        time.sleep(0.2)
        for pid in os.listdir("/proc"):
            try:
                environ = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
                cmd = open(f"/proc/{pid}/cmdline", "rb").read()
            except OSError:
                continue
            if b"OMPI_COMM_WORLD_RANK=1" in environ and cmd.startswith(GDSL.encode()) \
                    and os.getppid() != int(pid):
                victim = int(pid)
    time.sleep(rng.uniform(0.3, 1.5))
    check(victim is not None, "found MPI rank 1")
    if victim:
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        check(False, "mpirun ends after a worker is killed")
    resumed = mpirun(3, ["census", FAMILY, "--to", str(N), "--db", "mpikill.db"])
    check(resumed.returncode == 0 and rows("mpikill.db", how=False) == whole,
          "after a killed MPI worker, the census resumes to the rows of an uninterrupted run")


if SCALE == 1:
    mpi_worker_killed()

# 6. MPI's plugin missing, not a library, or not gdsl's.
launched = {"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "0"}
r = run(["census", "0.1", "--to", "10", "--db", "x.db"],
        dict(launched, GDSL_MPI_PLUGIN="/nonexistent/libgdsl-mpi.so"))
check(r.returncode == 1 and "this gdsl was built without MPI" in r.stderr
      and "apt-get install openmpi-bin libopenmpi-dev" in r.stderr, f"no plugin: {r.stderr}")
r = run(["census", "0.1", "--to", "10", "--db", "x.db"], dict(launched, GDSL_MPI_PLUGIN=MIXED))
check(r.returncode == 1 and "the MPI plugin could not be loaded" in r.stderr, f"not a library: {r.stderr}")
jit = os.path.join(os.path.dirname(GDSL), "libgdsl-jit.so")
r = run(["census", "0.1", "--to", "10", "--db", "x.db"], dict(launched, GDSL_MPI_PLUGIN=jit))
check(r.returncode == 1 and "is not a gdsl MPI plugin" in r.stderr, f"another library: {r.stderr}")
check(not os.path.exists("x.db"), "no database is made when MPI cannot start")

# 7. Misère quotients (--quotient HEAPS): each game's columns equal `gdsl quotient --json`
# for the same game and heaps; a game whose quotient cannot be found says where it stopped;
# a second run computes nothing, larger limits recompute the quotients (the values rows stay);
# merge keeps them; a database made before the quotients table reads and gains it.
def quotient_rows(db):
    con = sqlite3.connect(db)
    out = {r[0]: r[1:] for r in con.execute(
        "SELECT game, max_heap, heaps, q_order, p_portion, tame, final_heap, phi_period, "
        "phi_preperiod, stopped FROM quotients")}
    con.close()
    return out


def quotient_json(code, heaps):
    with open("one.game", "w") as f:
        f.write(f'game G = octal "{code}"\n')
    r = run(["quotient", "one.game", "G", "--max", str(heaps), "--json"])
    return json.loads(r.stdout)


# 0.6's quotient cannot be found at heap 17, after 3.7 s (Release), and 4.7's to heap 24
# takes 18 s under the sanitizers: both only in the Release suite.
QSCALE = SCALE
QCODES = ["0.77", "0.137", "0.51"] + (["4.7", "0.6"] if QSCALE == 1 else [])
r = run(["census", ",".join(QCODES), "--to", "300", "--db", "q.db", "--quotient", "24",
         "--quotient-seconds", "300"])
check(r.returncode == 0 and r.stderr.count("misère quotient") == len(QCODES),
      f"census --quotient succeeds, a quotient per game: {r.stderr[-600:]}")
got = quotient_rows("q.db")
check(sorted(got) == sorted(QCODES), f"a quotient row per game: {sorted(got)}")
for code in QCODES:
    j = quotient_json(code, 24)
    q = got.get(code)
    want = (24, j["heaps"], j["order"], j["p_portion"], int(j["tame"]), j["final_heap"],
            j["phi_period"], j["phi_preperiod"], j["stopped"] or "")
    check(q == want, f"{code}: the census's quotient is gdsl quotient's: {q} against {want}")
check(QSCALE > 1 or (got.get("0.6", (0, 0))[1] == 16 and
                    "could not be found at heap 17" in got["0.6"][8]),
      f"0.6 says where its quotient stopped: {got.get('0.6')}")
md = run(["census", "report", "q.db"]).stdout
check("misère quotient |" in md.splitlines()[0] and "| 0.51 | 300 | 5 | 1 | 1 | 0 | yes | 5 | 1 |  | \\|Q\\| = 2, \\|P\\| = 1, tame, final at heap 4 |" in md,
      f"report has the quotient column: {md[:600]}")
csv = run(["census", "report", "q.db", "--csv"]).stdout.splitlines()
check(csv[0].endswith(",q_stopped,q_seconds") and all(len(l.split(",")) >= 25 for l in csv[1:]),
      f"report --csv has the quotient columns: {csv[:2]}")
values = rows("q.db")
again = run(["census", ",".join(QCODES), "--to", "300", "--db", "q.db", "--quotient", "24",
             "--quotient-seconds", "300"])
check(f"0 computed, {len(QCODES)} already" in again.stderr, "the same limits compute nothing")
more = run(["census", "0.77,0.51", "--to", "300", "--db", "q.db", "--quotient", "30",
            "--quotient-seconds", "300"])
grown = quotient_rows("q.db")
check(more.returncode == 0 and grown["0.77"][:2] == (30, 30) and grown["0.137"] == got["0.137"]
      and rows("q.db") == values, f"a larger --quotient recomputes only the quotient: {grown}")
plain = run(["census", "0.77", "--to", "300", "--db", "plain.db"])
check("misère" not in run(["census", "report", "plain.db"]).stdout,
      "without quotients the report has no quotient column")
con = sqlite3.connect("plain.db")
con.execute("DROP TABLE quotients")
con.commit()
con.close()
old = run(["census", "report", "plain.db"])
check(old.returncode == 0 and "| 0.77 | 300 |" in old.stdout,
      f"a database without the quotients table reads: {old.stderr}")
run(["census", "0.77", "--to", "300", "--db", "plain.db", "--quotient", "24",
     "--quotient-seconds", "300"])
check(quotient_rows("plain.db").get("0.77") == got["0.77"],
      "a census with --quotient adds the table to an older database")
mg = run(["census", "merge", "q.db", "plain.db", "-o", "qm.db"])
check(mg.returncode == 0 and quotient_rows("qm.db") == quotient_rows("q.db"),
      "merge keeps the quotient that went furthest")

shutil.rmtree(tmp)
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("census: all checks passed")
