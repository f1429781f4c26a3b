#!/usr/bin/env python3
"""Misère quotients kept between runs (runtime/QuotientCache.h; docs/misere.md, "Quotients
kept between runs"): a second `gdsl quotient` and a second `eval misere` read the quotient
the first stored, with the same output as a run without the cache; a damaged file is
computed again (and replaced), never trusted; a stored quotient answers a shorter run only
when it is what that run computes; other rules never share a file; GDSL_CACHE_DIR=off
stores nothing.

usage: quotient_cache.py GDSL WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

GDSL, WORK = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, cache):
    env = dict(os.environ)
    env["GDSL_CACHE_DIR"] = cache
    return subprocess.run([GDSL] + args, capture_output=True, text=True, env=env, timeout=300)


def stored(cache):
    folder = os.path.join(cache, "quotients")
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
CACHE = os.path.join(WORK, "cache")
KAYLES = os.path.join(WORK, "kayles.game")
with open(KAYLES, "w") as f:
    f.write('game K = octal "0.77"\n'
            "eval misere K(30) + K(25) + K(21) + K(14) + K(9)\n"
            "eval misere K(12) + K(7) + K(7) + K(3)\n"
            "eval misere K(20) + K(1)\n")
OTHER = os.path.join(WORK, "other.game")
with open(OTHER, "w") as f:
    f.write('game K = octal "0.71"\n')

# 1. gdsl quotient: stored by the first run, read by the second, the same output.
plain = run(["quotient", KAYLES, "K", "--json"], "off")
check(plain.returncode == 0 and json.loads(plain.stdout)["final_heap"] == 166,
      f"Kayles' quotient is final at heap 166: {plain.stdout[:200]} {plain.stderr}")
check(stored(CACHE) == [], "nothing stored before")
first = run(["quotient", KAYLES, "K", "--json"], CACHE)
files = stored(CACHE)
check(first.stdout == plain.stdout and len(files) == 1, f"the first run stores it: {files}")
second = run(["quotient", KAYLES, "K", "--json"], CACHE)
check(second.stdout == plain.stdout, "the second run prints the same quotient")

# 2. A damaged file is not trusted: the quotient is computed again and the file replaced.
path = os.path.join(CACHE, "quotients", files[0])
original = open(path, "rb").read()
middle = len(original) // 2
damaged = original[:middle] + (b"7" if original[middle:middle + 1] != b"7" else b"3") + \
    original[middle + 1:]
open(path, "wb").write(damaged)
third = run(["quotient", KAYLES, "K", "--json"], CACHE)
check(third.stdout == plain.stdout, "a damaged file gives the same quotient")
check(open(path, "rb").read() == original, "and is replaced by a good one")
open(path, "wb").write(original[: len(original) // 3])
check(run(["quotient", KAYLES, "K", "--json"], CACHE).stdout == plain.stdout,
      "a cut file gives the same quotient")

# 3. A final quotient at heap 166 is not what a run to heap 100 computes: that run computes.
short = run(["quotient", KAYLES, "K", "--max", "100", "--json"], CACHE)
short_plain = run(["quotient", KAYLES, "K", "--max", "100", "--json"], "off")
check(short.stdout == short_plain.stdout and json.loads(short.stdout)["final_heap"] is None,
      f"--max 100 is computed to heap 100, not read: {short.stdout[:200]}")

# 4. eval misere: the quotient kept by the first run answers the second, the same answers.
shutil.rmtree(CACHE)
want = run(["eval", KAYLES], "off")
one = run(["eval", KAYLES, "--verbose"], CACHE)
two = run(["eval", KAYLES, "--verbose"], CACHE)
check(want.returncode == 0 and one.stdout == want.stdout and two.stdout == want.stdout,
      f"eval misere answers the same with the cache: {one.stdout} {two.stdout}")
check("kept from an earlier run" not in one.stderr and "kept from an earlier run" in two.stderr,
      f"--verbose says the second run read the quotient: {two.stderr}")

# 5. Other rules, another file; GDSL_CACHE_DIR=off stores nothing.
before = stored(CACHE)
other = run(["quotient", OTHER, "K", "--json"], CACHE)
check(other.returncode == 0 and len(stored(CACHE)) == len(before) + 1 and
      json.loads(other.stdout)["order"] != json.loads(plain.stdout)["order"],
      "0.71 is stored in a file of its own, with its own quotient")
shutil.rmtree(CACHE)
run(["quotient", OTHER, "K", "--json"], "off")
check(not os.path.exists(CACHE), "GDSL_CACHE_DIR=off stores nothing")

shutil.rmtree(WORK, ignore_errors=True)
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("quotient_cache: all checks passed")
