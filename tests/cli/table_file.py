#!/usr/bin/env python3
"""--table-file end to end: Grundy's game computed into a table file by runs
killed with SIGKILL after flushes and resumed, the file's values (read here
from its documented layout) equal to an uninterrupted in-memory run, whose
small heaps equal a brute force of this script's own; SIGTERM flushes and
exits with 143; a second run on a file in use, a file of other rules, a
damaged and a truncated file are refused with exit status 1 and left byte for
byte as they were.

usage: table_file.py GDSL WORKDIR
"""
import hashlib
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import scripted  # noqa: E402

GDSL, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
GAME, OTHER = scripted.grundy_games(WORK)
TAB = os.path.join(WORK, "grundy.tab")
SCALE = max(1, int(os.environ.get("GDSL_TEST_SCALE", "1")))
N = 200000
BIG = max(600000, 3000000 // SCALE)  # the killed runs' target: a few seconds
HEADER = 4096
check = scripted.Checks()


def run(args):
    return scripted.run(GDSL, args)


def header(path):
    """The header's fields (docs/reference.md, section 8.6)."""
    with open(path, "rb") as f:
        raw = f.read(HEADER)
    if len(raw) < 64:
        return None
    fields = struct.unpack("<8sIIQIIQQQ", raw[:56])
    keys = ("magic", "version", "fingerprint_version", "fingerprint", "width", "name_size",
            "count", "values_hash", "header_hash")
    h = dict(zip(keys, fields))
    h["name"] = raw[64:64 + h["name_size"]].decode()
    return h


def file_values(path):
    h = header(path)
    with open(path, "rb") as f:
        f.seek(HEADER)
        data = f.read(h["count"] * h["width"])
    return list(struct.unpack("<%d%s" % (h["count"], "H" if h["width"] == 2 else "I"), data))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def printed(stdout):
    """The values of a table line `Grundy(0..N): v v v ...`."""
    return [int(v) for v in stdout.split(":", 1)[1].split()]


def brute_grundy(n):
    """Grundy's game by definition: split a heap into two unequal heaps."""
    g = [0] * (n + 1)
    for m in range(1, n + 1):
        options = {g[a] ^ g[m - a] for a in range(1, (m + 1) // 2)}
        v = 0
        while v in options:
            v += 1
        g[m] = v
    return g


# The uninterrupted in-memory runs, and the brute force for small heaps.
reference = run(["table", GAME, "Grundy(0..%d)" % N])
check(reference.returncode == 0, "the in-memory run succeeds: " + reference.stderr)
reference_big = run(["table", GAME, "Grundy(0..%d)" % BIG])
big = printed(reference_big.stdout)
check(len(big) == BIG + 1 and big[:N + 1] == printed(reference.stdout),
      "the in-memory runs agree")
check(big[:1501] == brute_grundy(1500), "the in-memory run equals the brute force to 1500")

# Runs towards BIG, each killed at a random moment after a flush of its own,
# each resuming from the count the last one flushed.
rng = random.Random(int(os.environ.get("GDSL_TEST_SEED", time.time())))
EVAL = ["eval", GAME, "-e", "Grundy(%d)" % BIG, "--table-file", TAB, "--verbose"]
counts, resumed = [0], []
for attempt in range(3):
    proc = subprocess.Popen([GDSL] + EVAL + ["--table-file-every", "0.05"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        h = header(TAB) if os.path.exists(TAB) else None
        if h and h["count"] > counts[-1]:
            break
        time.sleep(0.01)
    time.sleep(rng.uniform(0, 0.4))
    if proc.poll() is not None:
        break  # finished before the kill
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate()
    check(proc.returncode == -signal.SIGKILL, "run %d was killed" % attempt)
    resumed += [int(n) for n in re.findall(r"resumed (\d+) values from table file", err)]
    counts.append(header(TAB)["count"])
check(len(counts) >= 3, "at least two runs were killed mid-way: %s" % counts)
check(counts == sorted(counts) and counts[-1] < BIG + 1,
      "each kill left more values, fewer than all: %s" % counts)
check(resumed == counts[1:len(resumed) + 1],
      "each run resumed from the count the last one flushed: %s %s" % (resumed, counts))
check(not os.path.exists(TAB + ".tmp"), "no temporary file is left")

final = run(EVAL)
check(final.returncode == 0, "the last run finishes: " + final.stderr)
check("resumed %d values" % counts[-1] in final.stderr, "it resumed: " + final.stderr)
h = header(TAB)
check(h["magic"] == b"GDSLTAB1" and h["width"] == 2 and h["name"] == "Grundy"
      and h["count"] == BIG + 1, "the header counts every value: %s" % h)
check(os.path.getsize(TAB) == HEADER + 2 * (BIG + 1), "the file is cut to its values")
check(file_values(TAB) == big, "the file holds the values of the uninterrupted run")
again = run(["table", GAME, "Grundy(0..%d)" % N, "--table-file", TAB])
check(again.returncode == 0 and again.stdout == reference.stdout,
      "a table read from the file prints the in-memory values")

# SIGTERM: the values so far are flushed, exit status 143.
TERM = os.path.join(WORK, "term.tab")
proc = subprocess.Popen([GDSL, "eval", GAME, "-e", "Grundy(%d)" % BIG, "--table-file", TERM,
                         "--table-file-every", "60"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
time.sleep(0.5)
while proc.poll() is None and (not os.path.exists(TERM) or header(TERM) is None):
    time.sleep(0.01)
# Meanwhile a second run on the same file is refused: the file is in use.
second = run(["eval", GAME, "-e", "Grundy(10)", "--table-file", TERM])
check(second.returncode == 1 and "is in use by another gdsl run" in second.stderr,
      "a second run on a file in use is refused: " + second.stderr)
proc.send_signal(signal.SIGTERM)
_, err = proc.communicate()
m = re.search(r"stopped by SIGTERM; table file '.*' holds (\d+) values", err)
check(proc.returncode == 143 and m is not None, "SIGTERM flushes and exits 143: " + err)
if m:
    held = int(m.group(1))
    check(0 < held < BIG + 1 and header(TERM)["count"] == held,
          "the header counts the values flushed at the signal: %d" % held)
    check(file_values(TERM) == big[:held], "the flushed values are right")
    resume = run(["table", GAME, "Grundy(0..%d)" % N, "--table-file", TERM, "--verbose"])
    check(resume.stdout == reference.stdout and
          ("resumed %d values" % held) in resume.stderr, "a run resumes from them")

# Refusals: exit status 1, a message naming the file, the file unchanged.
def refused(args, path, expected, what):
    before = digest(path)
    r = run(args)
    check(r.returncode == 1 and expected in r.stderr and path in r.stderr,
          "%s is refused: %s" % (what, r.stderr))
    check(digest(path) == before, "%s is left as it was" % what)


refused(["table", OTHER, "Grundy(0..100)", "--table-file", TAB], TAB,
        "holds the table of Grundy for other rules", "a file of other rules")
refused(["eval", OTHER, "-e", "Grundy(100)", "--table-file", TAB], TAB,
        "holds the table of Grundy for other rules", "a file of other rules (eval)")
DAMAGED = os.path.join(WORK, "damaged.tab")
shutil.copy(TAB, DAMAGED)
with open(DAMAGED, "r+b") as f:
    f.seek(HEADER + 2 * 1000)
    low = f.read(1)[0]
    f.seek(HEADER + 2 * 1000)
    f.write(bytes([low ^ 1]))
refused(["table", GAME, "Grundy(0..100)", "--table-file", DAMAGED], DAMAGED,
        "is damaged: its values do not match the checksum", "a damaged file")
CUT = os.path.join(WORK, "cut.tab")
shutil.copy(TAB, CUT)
with open(CUT, "r+b") as f:
    f.truncate(HEADER + 1000)
refused(["table", GAME, "Grundy(0..100)", "--table-file", CUT], CUT, "is damaged: it is cut short",
        "a truncated file")

check.finish("kills at", counts[1:], "resumed at", resumed)
