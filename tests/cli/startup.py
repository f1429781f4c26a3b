#!/usr/bin/env python3
"""What gdsl maps at start-up (docs/architecture.md, "Start-up"): a trivial `eval`,
`--version` and `check` load neither libsqlite3 nor libedit (nor libLLVM), which are not
linked; `gdsl census` loads libsqlite3 when it opens its database and its rows read back;
the REPL loads libedit on a terminal only (tests/cli/repl_pty.py tests editing, history and
completion through it). Exit statuses and output are those of a normal run. With
RUNTIME `static` (builds without the sanitizers) the C++ runtime and fmt are linked in:
those commands load neither libstdc++, libgcc_s nor libfmt. The executable holds neither
the generated lexer (gdsl lexes with compiler/parse/Lexer.cpp) nor antlr4's XPath lexer,
whose static initializer builds an ATN at every start (compiler/parse/NoXPath.cpp).

With ORDERED `on` (linked by lld with cli/startup-order.txt), the functions on that list
are in gdsl, first in its code and together. With RUNTIME `static`, gdsl exports only what
the libraries it may load use (cli/export-list.sh). With PACKED `on`, its relative
relocations are packed (cli/PackedRelocations.cpp).

usage: startup.py GDSL WORKDIR RUNTIME ORDERED PACKED
       (RUNTIME: static or shared; ORDERED and PACKED: on or off)
"""
import os
import subprocess
import sys

GDSL, WORK, RUNTIME, ORDERED, PACKED = sys.argv[1:6]
os.makedirs(WORK, exist_ok=True)
GAME = os.path.join(WORK, "triv.game")
with open(GAME, "w") as f:
    f.write("game N(n) { take 1..n }\neval N(3) + N(5)\n")
failures = []
ON_DEMAND = ["libsqlite3", "libedit", "libLLVM", "libgdsl-jit", "libgdsl-mpi"]
if RUNTIME == "static":
    ON_DEMAND += ["libstdc++", "libgcc_s", "libfmt"]


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args, stdin=""):
    env = dict(os.environ)
    env["GDSL_CACHE_DIR"] = "off"
    env["LD_DEBUG"] = "files"
    r = subprocess.run([GDSL] + args, capture_output=True, text=True, env=env, input=stdin,
                       timeout=120)
    loaded = [line for line in r.stderr.splitlines() if "file=" in line]
    r.stderr = "\n".join(line for line in r.stderr.splitlines() if "\tfile=" not in line
                         and ":\t" not in line)
    return r, loaded


def mapped(loaded, library):
    return any("file=" + library in line for line in loaded)


for args, out in [(["eval", GAME, "--backend", "interp"], "N(3) + N(5): *6"),
                  (["eval", "--stdlib-only", "-e", "Nim(3) + Nim(5)"], "Nim(3) + Nim(5): *6"),
                  (["--version"], "gdsl "),
                  (["check", GAME], "")]:
    r, loaded = run(args)
    check(r.returncode == 0 and r.stdout.startswith(out),
          "gdsl %s: exit %d, %r" % (" ".join(args), r.returncode, r.stdout))
    check(mapped(loaded, "libc.so"), "LD_DEBUG=files lists the libraries gdsl loads")
    for library in ON_DEMAND:
        check(not mapped(loaded, library), "gdsl %s maps %s" % (" ".join(args), library))

# The JIT loads its plugin and libLLVM (with libstdc++.so, which a static build's
# executable does not map): the plugin's code binds to the executable's C++ runtime
# and gives the interpreter's answer.
r, loaded = run(["eval", GAME, "--backend", "jit"])
check(r.returncode == 0 and r.stdout.startswith("N(3) + N(5): *6"),
      "eval --backend jit: exit %d, %r %r" % (r.returncode, r.stdout, r.stderr))
check(mapped(loaded, "libLLVM"), "eval --backend jit maps libLLVM")

# The REPL on a pipe reads plain lines, without libedit.
r, loaded = run(["repl"], "game Nim(n) { take 1..n }\neval Nim(2) + Nim(2)\n")
check(r.returncode == 0 and "0, P" in r.stdout, "repl on a pipe: %r %r" % (r.stdout, r.stderr))
check(not mapped(loaded, "libedit"), "the REPL on a pipe maps libedit")

# A census loads libsqlite3 for its database, and its report reads the rows back.
db = os.path.join(WORK, "census.db")
for path in [db, db + "-wal", db + "-shm"]:
    if os.path.exists(path):
        os.remove(path)
r, loaded = run(["census", "0.7", "--to", "30", "--db", db])
check(r.returncode == 0, "census: exit %d, %r" % (r.returncode, r.stderr))
check(mapped(loaded, "libsqlite3"), "the census maps libsqlite3")
r, loaded = run(["census", "report", db])
check(r.returncode == 0 and "| 0.7 | 30 |" in r.stdout, "census report: %r" % r.stdout)
check(mapped(loaded, "libsqlite3"), "census report maps libsqlite3")

def sections():
    """gdsl's sections, by name: (address, size), from `readelf -S`."""
    found = {}
    for line in subprocess.run(["readelf", "-SW", GDSL], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[0].startswith("[") and fields[1].startswith("."):
            found[fields[1]] = (int(fields[3], 16), int(fields[5], 16))
    return found


# What is linked: `nm` lists the executable's symbols.
symbols = subprocess.run(["nm", GDSL], capture_output=True, text=True, check=True).stdout.split()
check("_ZN10XPathLexer5_initE" not in symbols, "the XPath lexer's initializer is linked")
check("_ZN10XPathLexerC1EPN6antlr410CharStreamE" in symbols,
      "the XPath lexer's constructor is not in the symbol table: is nm reading gdsl?")
check(not any(s.startswith("_ZN9GdslLexer") for s in symbols), "the generated lexer is linked")

# The start-up order: the listed functions start the code and lie together (the
# default layout spreads them over all of it).
if ORDERED == "on":
    address = {}
    for line in subprocess.run(["nm", "--defined-only", GDSL], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            address.setdefault(fields[2], int(fields[0], 16))
    order = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cli",
                         "startup-order.txt")
    listed = [name.strip() for name in open(order) if name.strip()]
    found = [address[name] for name in listed if name in address]
    text_start, text_size = sections().get(".text", (0, 0))
    check(len(found) >= 0.9 * len(listed),
          "only %d of the %d functions of cli/startup-order.txt are in gdsl: run "
          "scripts/startup-order.py" % (len(found), len(listed)))
    check(text_size > 0 and found and min(found) == text_start,
          "the listed functions do not start gdsl's code")
    check(text_size > 0 and found and max(found) - min(found) < 0.4 * text_size,
          "the listed functions span %.0f%% of gdsl's code" %
          (100.0 * (max(found) - min(found)) / max(text_size, 1)))

# What gdsl exports (static runtime): the symbols the libraries it may load use
# (cli/export-list.sh), among them the engine's functions the JIT plugin calls,
# but not the parser's. The JIT run above checked that the plugin loads.
if RUNTIME == "static":
    exported = [line.split()[-1] for line in subprocess.run(
        ["nm", "-D", "--defined-only", GDSL], capture_output=True, text=True,
        check=True).stdout.splitlines()]
    check(len(exported) < 4000, "gdsl exports %d symbols" % len(exported))
    check("gdsl_jit_move_emit" in exported and "__cxa_throw" in exported,
          "gdsl does not export what the JIT plugin calls")
    check(not any(s.startswith("_ZN6antlr4") for s in exported), "gdsl exports antlr4")

# Packed relocations (PACKED on): the relative ones take a .relr.dyn section, and
# few are left in .rela.dyn.
if PACKED == "on":
    packed = sections()
    relocations = packed.get(".rela.dyn", (0, 0))[1] // 24
    check(".relr.dyn" in packed, "gdsl has no packed relocations")
    check(relocations < 1000, ".rela.dyn holds %d relocations" % relocations)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok")
