#!/usr/bin/env python3
"""Faults while a checkpointed table runs: the machine's errors are reported as
what they are, at once, with the last good checkpoint kept, and never change how
a game is computed; SIGINT and SIGTERM save a last checkpoint and exit with 130
and 143, a second signal at once; a resumed run always prints the values of an
uninterrupted one.

Faults come from a real full tmpfs where one can be mounted (as root), from a
directory removed under the run, from the checkpoint file truncated or replaced
under it, and from the LD_PRELOAD shim tests/faults/FaultInject.cpp (the n-th
write, fsync, close, rename or open of the checkpoint's temporary file fails,
or waits).

usage: checkpoint_faults.py GDSL SHIM WORKDIR
"""
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time

GDSL, SHIM, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
GAME = os.path.join(WORK, "t.game")
with open(GAME, "w") as f:
    f.write("game T(n) {\n  move t(k in 1..n) when k % 3 != 0 -> T(n - k)\n}\n")
# Under sanitizers (GDSL_TEST_SCALE) the interpreter is several times slower. At most a
# quarter of the heaps: the runs must last long enough to be stopped during a save.
SCALE = min(4, max(1, int(os.environ.get("GDSL_TEST_SCALE", "1"))))
N = 20000 // SCALE
ARGS = ["table", GAME, "T(0..%d)" % N, "--plain", "--backend", "interp"]
LONG = ["table", GAME, "T(0..300000)", "--plain", "--backend", "interp"]
failures = []


def check(cond, what):
    print(("ok:   " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def env_with(fault=None):
    env = dict(os.environ)
    if fault:
        env["LD_PRELOAD"] = SHIM
        env["GDSL_FAULT"] = fault
    return env


def run(args, fault=None, timeout=600):
    """Runs gdsl; a run past `timeout` is killed and has status None."""
    start = time.time()
    try:
        p = subprocess.run([GDSL] + args, capture_output=True, text=True, timeout=timeout,
                           env=env_with(fault))
    except subprocess.TimeoutExpired as e:
        p = subprocess.CompletedProcess(e.cmd, None, e.stdout or "", e.stderr or "")
    return p, time.time() - start


def start(args, fault=None):
    return subprocess.Popen([GDSL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env_with(fault))


def wait_for(cond, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if cond():
            return True
        time.sleep(0.005)
    return False


def fresh(name):
    path = os.path.join(WORK, name)
    for p in (path, path + ".tmp"):
        if os.path.exists(p):
            os.remove(p)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def resumed_values(stderr):
    m = re.search(r"resumed (\d+) values", stderr)
    return int(m.group(1)) if m else 0


reference, _ = run(ARGS)
check(reference.returncode == 0 and reference.stdout.startswith("T(0..%d):" % N),
      "the uninterrupted run succeeds")


# ---- the machine's errors -----------------------------------------------------

def expect_write_error(name, fault, reason, existing=False):
    """A long run whose saves fail: it stops at once with the disk's message, exit 1,
    and leaves the checkpoint as it was (none, or the good one written before)."""
    ck = fresh(name)
    before = None
    if existing:
        good, _ = run(["table", GAME, "T(0..2000)", "--plain", "--checkpoint", ck])
        check(good.returncode == 0 and os.path.exists(ck), name + ": a good checkpoint first")
        before = read(ck)
    p, seconds = run(LONG + ["--checkpoint", ck, "--checkpoint-every", "0.05"], fault=fault,
                     timeout=60)
    want = "gdsl: cannot write checkpoint '%s': %s\n" % (ck, reason)
    check(p.returncode == 1, "%s: exit status 1 (got %s)" % (name, p.returncode))
    check(p.stderr == want, "%s: says %r (said %r)" % (name, want, p.stderr))
    check(seconds < 20, "%s: stops at once (%.1f s; the whole run takes minutes)" % (name, seconds))
    check(not os.path.exists(ck + ".tmp"), name + ": no temporary file left")
    if existing:
        check(os.path.exists(ck) and read(ck) == before, name + ": the last good checkpoint kept")
    else:
        check(not os.path.exists(ck), name + ": no checkpoint written")


expect_write_error("full disk", "write:1+:ENOSPC", "No space left on device")
expect_write_error("full disk, earlier checkpoint", "write:1+:ENOSPC", "No space left on device",
                   existing=True)
expect_write_error("fsync fails", "fsync:1:EIO", "Input/output error", existing=True)
# (The first close of the temporary file is the check, at the start, that it can be written.)
expect_write_error("close fails", "close:2:EIO", "Input/output error")
expect_write_error("rename fails", "rename:1:EXDEV", "Invalid cross-device link", existing=True)
expect_write_error("directory unwritable at the first save", "open:2:EACCES", "Permission denied")

# Unwritable from the start: refused before any work.
p, _ = run(ARGS + ["--checkpoint", fresh("refused")], fault="open:1:EACCES")
check(p.returncode == 1 and "cannot write checkpoint" in p.stderr and p.stdout == "",
      "a checkpoint that cannot be written at the start is refused before any work")

# The directory removed while the run goes on.
gone_dir = os.path.join(WORK, "vanishing")
os.makedirs(gone_dir, exist_ok=True)
ck = os.path.join(gone_dir, "ck")
proc = start(LONG + ["--checkpoint", ck, "--checkpoint-every", "0.05"])
check(wait_for(lambda: os.path.exists(ck)), "vanished directory: a first checkpoint")
shutil.rmtree(gone_dir)
t0 = time.time()
out, err = proc.communicate(timeout=120)
check(proc.returncode == 1 and
      err == "gdsl: cannot write checkpoint '%s': No such file or directory\n" % ck,
      "vanished directory: reported as it is (%d, %r)" % (proc.returncode, err))
check(time.time() - t0 < 20, "vanished directory: stops within seconds")

# A real full disk: a 300 KB tmpfs, nearly full, as the issue ran it.
mount = os.path.join(WORK, "tmpfs")
os.makedirs(mount, exist_ok=True)
mounted = os.geteuid() == 0 and subprocess.run(
    ["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", mount],
    capture_output=True).returncode == 0
if not mounted:
    print("skip: cannot mount a tmpfs here; the full disk is injected above")
else:
    try:
        with open(os.path.join(mount, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (290 * 1024))
            except OSError:
                pass
        ck = os.path.join(mount, "ck")
        rss_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        p, seconds = run(LONG + ["--checkpoint", ck, "--checkpoint-every", "1"], timeout=120)
        check(p.returncode == 1 and
              p.stderr == "gdsl: cannot write checkpoint '%s': No space left on device\n" % ck,
              "full tmpfs: the disk's message (%d, %r)" % (p.returncode, p.stderr))
        check(seconds < 20, "full tmpfs: stops within seconds (%.1f s)" % seconds)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        check(peak < 400 * 1024 or peak == rss_before,
              "full tmpfs: memory as on a free disk (peak %d MiB)" % (peak // 1024))
    finally:
        subprocess.run(["umount", mount], capture_output=True)


# ---- the file changed under a run ------------------------------------------------

ck = fresh("changed")
proc = start(ARGS + ["--checkpoint", ck, "--checkpoint-every", "0.05"])
check(wait_for(lambda: os.path.exists(ck)), "changed file: a first checkpoint")
with open(ck, "r+b") as f:
    f.truncate(10)
time.sleep(0.2)
with open(ck + ".new", "wb") as f:
    f.write(b"not a checkpoint at all")
os.replace(ck + ".new", ck)
out, err = proc.communicate(timeout=600)
check(proc.returncode == 0 and out == reference.stdout,
      "changed file: the run goes on and prints the reference values")
p, _ = run(ARGS + ["--checkpoint", ck, "--verbose"])
check(p.returncode == 0 and p.stdout == reference.stdout and resumed_values(p.stderr) == N + 1,
      "changed file: the last save holds the whole table (resumed %d)" % resumed_values(p.stderr))


# ---- signals -----------------------------------------------------------------------

rng = random.Random(int(os.environ.get("GDSL_TEST_SEED", time.time())))


def first_line(proc):
    """The first line of proc's standard error, read byte by byte from its descriptor: a
    buffered readline() may take the following lines too, which communicate(), reading the
    descriptor, would then never see."""
    fd, data = proc.stderr.fileno(), b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace")


def signal_rounds(name, sig, status, rounds=3):
    """Stops a run with `sig` at a random moment each round, then resumes: each resume
    starts exactly at the signal's save, the last prints the reference values."""
    ck = fresh(name.replace(" ", "_"))
    saved = 0
    for round_ in range(rounds):
        proc = start(ARGS + ["--checkpoint", ck, "--checkpoint-every", "0.05", "--verbose"])
        # Its first line ("gdsl: backend ...") comes after the signal handlers are in
        # place: a signal sent before them (under the sanitizers, on a busy machine, a
        # start can take longer than 0.1 s) would end gdsl without a save.
        first = first_line(proc)
        time.sleep(rng.uniform(0.1, 0.6))
        if proc.poll() is not None:
            proc.communicate()
            saved = N + 1  # finished first: its last save holds the whole table
            break
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=600)
        err = first + err
        if proc.returncode == 0:
            saved = N + 1  # finished before the signal, as above
            break
        resumed = resumed_values(err)
        check(resumed == saved, "%s %d: resumed at the last signal's save (%d, saved %d)" %
              (name, round_, resumed, saved))
        m = re.search(r"gdsl: stopped by (\w+); checkpoint '.*' holds (\d+) values\n$", err)
        check(proc.returncode == status and m is not None and m.group(1) == sig.name,
              "%s %d: exit %d with the save's message (%d, %r)" %
              (name, round_, status, proc.returncode, err[-200:]))
        if m:
            check(int(m.group(2)) >= saved, "%s %d: the save only grows" % (name, round_))
            saved = int(m.group(2))
    p, _ = run(ARGS + ["--checkpoint", ck, "--verbose"])
    check(p.returncode == 0 and p.stdout == reference.stdout,
          "%s: the resumed run prints the reference values" % name)
    check(resumed_values(p.stderr) == saved, "%s: the final resume starts at the last save" % name)


signal_rounds("SIGTERM", signal.SIGTERM, 143)
signal_rounds("SIGINT", signal.SIGINT, 130, rounds=1)

# A signal while a save is being written (each write of the temporary file waits 300 ms):
# the save is finished, then the last one, then the exit.
ck = fresh("during_save")
proc = start(ARGS + ["--checkpoint", ck, "--checkpoint-every", "0.05"],
             fault="write:1+:delay=300")
check(wait_for(lambda: os.path.exists(ck + ".tmp")), "during a save: a save under way")
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=600)
check(proc.returncode == 143 and "stopped by SIGTERM" in err,
      "during a save: exit 143 after the saves (%d, %r)" % (proc.returncode, err))
p, _ = run(ARGS + ["--checkpoint", ck])
check(p.returncode == 0 and p.stdout == reference.stdout,
      "during a save: the checkpoint is whole and the resumed run prints the reference values")

# A second signal exits at once, even in the middle of the last save (each write waits 3 s).
ck = fresh("second_signal")
good, _ = run(["table", GAME, "T(0..1000)", "--plain", "--checkpoint", ck])
before = read(ck)
proc = start(ARGS + ["--checkpoint", ck, "--checkpoint-every", "0.05"],
             fault="write:1+:delay=3000")
check(wait_for(lambda: os.path.exists(ck + ".tmp")), "second signal: a save under way")
proc.send_signal(signal.SIGTERM)
time.sleep(0.2)
t0 = time.time()
proc.send_signal(signal.SIGTERM)
out, err = proc.communicate(timeout=60)
check(proc.returncode == 143 and time.time() - t0 < 2,
      "second signal: exit 143 at once (%d after %.1f s)" % (proc.returncode, time.time() - t0))
check(read(ck) == before, "second signal: the checkpoint before the interrupted save is kept")
p, _ = run(ARGS + ["--checkpoint", ck])
check(p.returncode == 0 and p.stdout == reference.stdout,
      "second signal: the resumed run prints the reference values")

if failures:
    print("%d checks failed" % len(failures))
    sys.exit(1)
print("all checks passed")
