#!/usr/bin/env python3
"""The JIT's code cache (backend/jit/JitCache.h; docs/architecture.md, "The code cache"): a
second run of the same games links the objects the first stored, with the same answers as a run that
compiles and as the interpreter; a damaged object is compiled again (and replaced), never
trusted; a cache directory that cannot be written changes nothing but speed; and
GDSL_CACHE_DIR=off turns the cache off; and `auto` takes cached code without loading LLVM.

usage: jit_cache.py GDSL EXAMPLES_DIR WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys

GDSL, EXAMPLES, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, cache):
    env = dict(os.environ)
    env["GDSL_CACHE_DIR"] = cache
    return subprocess.run([GDSL] + args, capture_output=True, text=True, env=env, timeout=300)


def counts(stderr):
    """(functions compiled, of them from the cache) from --verbose, or None."""
    m = re.search(r"compiled (\d+) functions? of \d+ games? in [0-9.]+ ms \(LLVM set-up "
                  r"included; (\d+) of them from the code cache", stderr)
    return (int(m.group(1)), int(m.group(2))) if m else None


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
cache = os.path.join(WORK, "cache")
# Examples with several kinds of compiled function: kernels (subtraction, kayles), a box
# search (wythoff, cutting), a list search (moore), enumerators (every winning move).
GAMES = ["subtraction", "kayles", "wythoff", "cutting", "moore", "tromino", "turtles"]
# The sanitized suite (GDSL_TEST_SCALE > 1, scripts/sanitize.sh) takes every other one: a
# kernel, a box search, a list search and enumerators still.
if int(os.environ.get("GDSL_TEST_SCALE", "1")) > 1:
    GAMES = GAMES[::2]
for name in GAMES:
    path = os.path.join(EXAMPLES, name + ".game")
    interp = run(["eval", path, "--backend", "interp"], "off")
    check(interp.returncode == 0, "%s runs on the interpreter" % name)
    cold = run(["eval", path, "--backend", "jit", "--verbose"], cache)
    warm = run(["eval", path, "--backend", "jit", "--verbose"], cache)
    off = run(["eval", path, "--backend", "jit", "--verbose"], "off")
    for what, r in (("compiling into the cache", cold), ("from the cache", warm),
                    ("with the cache off", off)):
        check(r.returncode == 0 and r.stdout == interp.stdout,
              "%s: the JIT %s answers as the interpreter" % (name, what))
    c, w = counts(cold.stderr), counts(warm.stderr)
    check(c is not None and c[0] > 0, "%s: the first run compiles (%r)" % (name, cold.stderr))
    check(w is not None and c is not None and w == (c[0], c[0]),
          "%s: the second run links every function from the cache (%r then %r)" % (name, c, w))
    check("(from the code cache)" in warm.stderr, "%s: --verbose marks cached functions" % name)
    check("the code cache is off" in off.stderr, "%s: GDSL_CACHE_DIR=off is reported" % name)

objects = sorted(f for f in os.listdir(cache) if f.endswith(".o"))
check(len(objects) > 0, "the cache holds objects")
check(not [f for f in os.listdir(cache) if ".tmp" in f], "no temporary file is left behind")
check((os.stat(cache).st_mode & 0o777) == 0o700, "the cache directory is its user's alone")

# Damage every object three ways (a flipped byte, a cut file, garbage): each is
# compiled again, with the same answers, and stored whole again.
for i, f in enumerate(objects):
    p = os.path.join(cache, f)
    data = bytearray(open(p, "rb").read())
    if i % 3 == 0:
        data[len(data) // 2] ^= 0x40
    elif i % 3 == 1:
        data = data[: len(data) // 2]
    else:
        data = bytearray(b"not an object at all")
    open(p, "wb").write(bytes(data))
for name in GAMES:
    path = os.path.join(EXAMPLES, name + ".game")
    interp = run(["eval", path, "--backend", "interp"], "off")
    again = run(["eval", path, "--backend", "jit", "--verbose"], cache)
    check(again.returncode == 0 and again.stdout == interp.stdout,
          "%s: a damaged cache gives the same answers" % name)
    a = counts(again.stderr)
    check(a is not None and a[1] == 0, "%s: damaged objects are not used (%r)" % (name, a))
    healed = run(["eval", path, "--backend", "jit", "--verbose"], cache)
    h = counts(healed.stderr)
    check(h is not None and h[0] == h[1], "%s: damaged objects are replaced (%r)" % (name, h))

# A cache that cannot be created (under a regular file): answers as before, nothing cached.
blocker = os.path.join(WORK, "a-file")
open(blocker, "w").write("x")
path = os.path.join(EXAMPLES, "wythoff.game")
interp = run(["eval", path, "--backend", "interp"], "off")
for _ in range(2):
    r = run(["eval", path, "--backend", "jit", "--verbose"], os.path.join(blocker, "cache"))
    check(r.returncode == 0 and r.stdout == interp.stdout,
          "an unwritable cache directory changes no answer (%r)" % r.stderr[-300:])
    n = counts(r.stderr)
    check(n is not None and n[1] == 0, "an unwritable cache directory caches nothing")

# auto (the default backend): once the JIT's code for a game is in the cache, a run long
# enough to get the JIT ready (10 ms of the interpreter; these take 0.2 s or more on it) takes
# every function from the cache and never loads LLVM. (The cache is filled by a JIT run, so
# that nothing here depends on how fast LLVM compiles on a busy machine.)
bench = os.path.join(os.path.dirname(os.path.abspath(EXAMPLES)), "bench", "games")
auto_cache = os.path.join(WORK, "auto-cache")
for game, pos in (("f_chomp.game", "Chomp(70, 70, 70)"), ("c_cut.game", "Cut(300, 300)"),
                  ("a_take.game", "T(9000)")):
    path = os.path.join(bench, game)
    interp = run(["eval", path, "-e", pos, "--backend", "interp"], "off")
    fill = run(["eval", path, "-e", pos, "--backend", "jit"], auto_cache)
    auto = run(["eval", path, "-e", pos, "--verbose"], auto_cache)
    for what, r in (("jit", fill), ("auto", auto)):
        check(r.returncode == 0 and r.stdout == interp.stdout,
              "%s: %s answers as the interpreter (%r)" % (pos, what, r.stderr[-300:]))
    check("switched to the JIT" in auto.stderr, "%s: auto switches to the JIT" % pos)
    check("LLVM loaded" not in auto.stderr and "(from the code cache)" in auto.stderr,
          "%s: auto takes its code from the cache without loading LLVM (%r)" % (pos, auto.stderr))

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("jit_cache: all checks passed")
