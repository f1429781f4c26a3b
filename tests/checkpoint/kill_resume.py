#!/usr/bin/env python3
"""A table run killed with SIGKILL at several moments resumes from its last
checkpoint and prints exactly the values of an uninterrupted run; a
checkpoint of other rules, or a damaged one, is refused with a message.

usage: kill_resume.py GDSL WORKDIR
"""
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import scripted  # noqa: E402

GDSL, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
GAME, OTHER = scripted.grundy_games(WORK)
CKPT = os.path.join(WORK, "grundy.ckpt")
# The plain method on the interpreter: slow enough to be killed mid-way.
ARGS = ["table", GAME, "Grundy(0..20000)", "--plain", "--backend", "interp"]
check = scripted.Checks()


def run(args):
    return scripted.run(GDSL, args)


reference = run(ARGS)
check(reference.returncode == 0, "the uninterrupted run succeeds")

for path in (CKPT, CKPT + ".tmp"):
    if os.path.exists(path):
        os.remove(path)
rng = random.Random(int(os.environ.get("GDSL_TEST_SEED", time.time())))
resumed = []
for attempt in range(4):
    before = os.path.getmtime(CKPT) if os.path.exists(CKPT) else None
    proc = subprocess.Popen(
        [GDSL] + ARGS + ["--checkpoint", CKPT, "--checkpoint-every", "0.05", "--verbose"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # Wait for a new checkpoint, then kill at a random moment after it.
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if os.path.exists(CKPT) and os.path.getmtime(CKPT) != before:
            break
        time.sleep(0.01)
    time.sleep(rng.uniform(0, 0.08))
    if proc.poll() is not None:
        break  # finished before the kill: nothing left to resume
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate()
    check(proc.returncode == -signal.SIGKILL, "run %d was killed" % attempt)
    for line in err.splitlines():
        if line.startswith("gdsl: resumed "):
            resumed.append(int(line.split()[2]))

final = run(ARGS + ["--checkpoint", CKPT, "--verbose"])
check(final.returncode == 0, "the resumed run succeeds: " + final.stderr)
check(final.stdout == reference.stdout, "the resumed run prints the uninterrupted values")
for line in final.stderr.splitlines():
    if line.startswith("gdsl: resumed "):
        resumed.append(int(line.split()[2]))
check(len(resumed) >= 1 and resumed[0] > 0, "runs resumed from saved values: %s" % resumed)
check(all(0 < n for n in resumed) and resumed == sorted(resumed),
      "each resume starts no earlier than the last: %s" % resumed)
check(resumed and resumed[0] < 20001, "the first resume was mid-way: %s" % resumed)

# A rerun after completion is a look-up of the saved table.
again = run(ARGS + ["--checkpoint", CKPT, "--verbose"])
check(again.stdout == reference.stdout and "resumed 20001 values" in again.stderr,
      "a finished checkpoint holds the whole table")

# Other rules under the same game name: refused, not mixed.
other = run(["table", OTHER, "Grundy(0..100)", "--checkpoint", CKPT])
check(other.returncode == 1 and "different game rules" in other.stderr,
      "a checkpoint of other rules is refused: " + other.stderr)

# A damaged file: refused with a message.
with open(CKPT, "r+b") as f:
    f.seek(100)
    f.write(b"\xff\xff\xff")
damaged = run(ARGS + ["--checkpoint", CKPT])
check(damaged.returncode == 1 and "is damaged" in damaged.stderr,
      "a damaged checkpoint is refused: " + damaged.stderr)

check.finish("resumed at", resumed)
