#!/usr/bin/env python3
"""LLVM on demand (driver/JitLoader.cpp): a run on the interpreter never maps libLLVM and
stays small; the JIT maps it when it compiles, and a run whose functions all come from the
code cache never maps it (nor the plugin), with the same answers; a missing or wrong plugin is a clear error
for --backend jit, and `auto` then stays on the interpreter with the same answers. The JIT
compiles each function on its first use (a table compiles one kernel; a list game its
search for one length and a cold enumerator), and drops libLLVM's code pages from its
resident memory once a function is compiled (backend/jit/LlvmPages.cpp).

usage: jit_plugin.py GDSL
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

GDSL = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, env_extra=None):
    env = dict(os.environ)
    env["GDSL_CACHE_DIR"] = "off"  # every run compiles (tests/cli/jit_cache.py tests the cache)
    env.update(env_extra or {})
    return subprocess.run([GDSL] + args, capture_output=True, text=True, env=env, timeout=120)


def loaded_files(args):
    """The shared objects the dynamic loader opened, from LD_DEBUG=files."""
    r = run(args, {"LD_DEBUG": "files"})
    return r, [line for line in r.stderr.splitlines() if "file=" in line and "needed by" in line
               or "calling init:" in line]


EXPR = ["eval", "--stdlib-only", "-e", "Nim(3) + Nim(5)"]
EXPECTED = "Nim(3) + Nim(5): *6, N, winning move Nim(5) -> Nim(3) by take(k=2)"

r, files = loaded_files(EXPR + ["--backend", "interp"])
check(r.returncode == 0 and r.stdout.strip() == EXPECTED, "the interpreter answers")
check(not any("libLLVM" in f for f in files), "the interpreter does not map libLLVM")
check(not any("libgdsl-jit" in f for f in files), "the interpreter does not load the plugin")

r, files = loaded_files(EXPR + ["--backend", "jit"])
check(r.returncode == 0 and r.stdout.strip() == EXPECTED, "the JIT answers")
check(any("libLLVM" in f for f in files), "the JIT maps libLLVM")

# Code from the cache: the first run compiles (and maps LLVM), the second links only.
warm = tempfile.mkdtemp(prefix="gdsl-jit-warm-")
MOORE = ["eval", "--stdlib-only", "-e", "Moore([3, 1, 2])", "--backend", "jit", "--verbose"]
for attempt in ("cold", "warm"):
    r = subprocess.run([GDSL] + MOORE, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, GDSL_CACHE_DIR=warm, LD_DEBUG="files"))
    maps = [line for line in r.stderr.splitlines() if "file=" in line]
    check(r.returncode == 0 and r.stdout.startswith("Moore([1, 2, 3]): *6, N"),
          "the %s JIT answers Moore (got %r)" % (attempt, r.stdout))
    llvm = any("libLLVM" in line for line in maps)
    plugin = any("libgdsl-jit" in line for line in maps)
    if attempt == "cold":
        check(llvm and plugin, "a run that compiles loads the plugin and libLLVM")
    else:
        check(not llvm and not plugin, "a run whose code is all cached loads neither the plugin "
              "nor libLLVM (%r)" % [l for l in maps if "LLVM" in l or "gdsl-jit" in l])
        check("2 of them from the code cache" in r.stderr, "both functions came from the cache")
shutil.rmtree(warm, ignore_errors=True)

# One function per use: a table of a one-heap game compiles its 16-bit kernel only. (Its
# rule is not affine in the heap, so no take-and-break shape is looked for by
# enumerating its moves.)
squares = tempfile.mkdtemp(prefix="gdsl-jit-plugin-")
with open(os.path.join(squares, "squares.game"), "w") as f:
    f.write("game Sq(n) {\n  move m(k in 1..n) when k * k <= n -> Sq(n - k)\n}\n")
r = run(["table", os.path.join(squares, "squares.game"), "Sq(0..10)", "--backend", "jit",
         "--verbose"])
shutil.rmtree(squares, ignore_errors=True)
check(r.returncode == 0 and "compiled 1 function of 1 game" in r.stderr
      and re.search(r"gdsl_kernel16_\d+ in [0-9.]+ ms\n", r.stderr)
      and "gdsl_enumerate_" not in r.stderr,
      "a table compiles one kernel (got %r)" % r.stderr)
# A list game: the search of its integer game for lists of three (a dense box), and a
# cold enumerator for the winning move.
r = run(["eval", "--stdlib-only", "-e", "Moore([3, 1, 2])", "--backend", "jit", "--verbose"])
check(r.returncode == 0 and r.stdout.startswith("Moore([1, 2, 3]): *6, N")
      and re.search(r"gdsl_search_\d+ in [0-9.]+ ms\n", r.stderr)
      and re.search(r"gdsl_enumerate_\d+ in [0-9.]+ ms \(cold\)", r.stderr)
      and "Moore (lists of 3): 14 positions in a dense memo of 2 x 3 x 4 cells" in r.stderr,
      "a list game compiles the search of its integer game for one length and a cold "
      "enumerator (got %r)" % r.stderr)
# A list whose box would pass --max-states keeps the list game's search for its length.
r = run(["eval", "--stdlib-only", "-e", "Moore([3, 1, 2])", "--backend", "jit", "--verbose",
         "--max-states", "20"])
check(r.returncode == 0 and r.stdout.startswith("Moore([1, 2, 3]): *6, N")
      and re.search(r"gdsl_search_\d+_3 in [0-9.]+ ms", r.stderr)
      and "positions in a packed table of words" in r.stderr,
      "a large list takes the list game's search (got %r)" % r.stderr)


def llvm_code_kib(pid):
    """Resident KiB of libLLVM's executable mapping in process `pid`."""
    kib, mapping = 0, ""
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                fields = line.split()
                mapping = fields[1] + " " + (fields[5] if len(fields) > 5 else "")
            elif line.startswith("Rss:") and mapping.startswith("r-xp") and "libLLVM" in mapping:
                kib += int(line.split()[1])
    return kib


# After a compilation, libLLVM's code is no longer resident (about 49 MiB stayed before):
# a REPL waiting for its next line is looked at from outside. The same after linking a
# function from the code cache (a fresh cache: the first REPL compiles, the second links).
cache_dir = tempfile.mkdtemp(prefix="gdsl-jit-plugin-")
for cache in ("off", cache_dir, cache_dir):
    repl = subprocess.Popen([GDSL, "repl", "--backend", "jit"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, GDSL_CACHE_DIR=cache))
    repl.stdin.write("game T(n) { take 1..3 }\neval T(10)\n")
    repl.stdin.flush()
    answer = repl.stdout.readline()
    code_kib = llvm_code_kib(repl.pid)
    repl.communicate("", timeout=60)
    check(answer.startswith("T(10): *2"), "the REPL answers on the JIT (got %r)" % answer)
    check(code_kib < 8 * 1024, "libLLVM's code is dropped after compiling or linking (%d KiB "
          "resident, cache %s)" % (code_kib, cache))
check(len(os.listdir(cache_dir)) == 1, "the REPL stored its kernel in the code cache")
shutil.rmtree(cache_dir, ignore_errors=True)

# Peak memory of a trivial run on the interpreter, when not built with sanitizers (their
# shadow memory is counted too).
with open(GDSL, "rb") as f:
    sanitized = b"__asan_init" in f.read()
if not sanitized:
    r = subprocess.run(["/usr/bin/time", "-f", "%M", GDSL] + EXPR + ["--backend", "interp"],
                       capture_output=True, text=True)
    peak_kib = int(r.stderr.strip().splitlines()[-1])
    check(peak_kib <= 20 * 1024, "a trivial eval on the interpreter uses at most 20 MiB "
          "(%d KiB)" % peak_kib)

# A plugin that is not there, not a library, or not gdsl's.
cases = [
    ("/nonexistent/libgdsl-jit.so",
     "the JIT plugin libgdsl-jit.so was not found (looked at /nonexistent/libgdsl-jit.so; "
     "set GDSL_JIT_PLUGIN to its path)"),
    ("/etc/hostname", "the JIT plugin could not be loaded: /etc/hostname: "),
]
libc = [l.split()[2] for l in subprocess.run(["ldd", GDSL], capture_output=True,
                                             text=True).stdout.splitlines() if "libc.so" in l]
if libc:
    cases.append((libc[0], libc[0] + " is not a gdsl JIT plugin"))
for path, message in cases:
    r = run(EXPR + ["--backend", "jit"], {"GDSL_JIT_PLUGIN": path})
    check(r.returncode != 0 and message in r.stderr,
          "--backend jit with GDSL_JIT_PLUGIN=%s says %r (got %r)" % (path, message, r.stderr))
    r = run(EXPR + ["--backend", "auto", "--verbose"], {"GDSL_JIT_PLUGIN": path})
    check(r.returncode == 0 and r.stdout.strip() == EXPECTED, "auto still answers (%s)" % path)

if failures:
    sys.exit(1)
print("ok: LLVM is loaded on demand")
