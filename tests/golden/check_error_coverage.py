#!/usr/bin/env python3
"""Every error message gdsl can print has a golden test.

Finds the places in gdsl's C++ sources where an error message is written (the
SITES below), takes the text of each message from its string literals, and
checks that the text occurs in an expected output of a case in
tests/golden/errors/ (a .err file, or a .out for messages printed on standard
output, such as JSON errors and gdsl play's answers). docs/errors.md is built
from those cases (scripts/errors-doc.py), so a message with a case is also
documented.

How a message becomes a text to look for:
  - the string literals of the message are read; literals written side by side
    ("abc " "def") are one piece; `+ name +` or fmt::format's `{}` split a piece
    into fragments;
  - the longest fragment of each piece must occur in some expected file, so a
    message built from two alternatives (`a ? "x..." : "y..."`) needs a case
    for each.

When this check fails on a message you added:
  1. add a case that triggers it to tests/golden/errors/ (see docs/testing.md;
     the first line is a // comment saying what it tests), run
     `bash scripts/update-golden.sh` and read the diff; or
  2. if no command line can trigger it (an internal error, an interrupt), add
     a part of its text to ALLOWED below with the reason.

Run with --list to see every message found, where it is written, and which
case covers it.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE_DIRS = ["compiler", "driver", "runtime", "backend", "cli"]
CASES = os.path.join(ROOT, "tests", "golden", "errors")

# Where a message is written. Each pattern matches where the message
# expression starts; the expression runs to the end of the call's parentheses
# (patterns ending in "(") or to the end of the statement (the others).
SITES = [
    (r"\.error\(", "a diagnostic: DiagnosticSink::error(range, message)"),
    (r"\baddNote\(", "a note of a diagnostic: addNote(diagnostic, range, message)"),
    (r"\bRuntimeError\(", "a runtime error: throw RuntimeError(range, message)"),
    (r"\bfail\(", "cli fail(message), exit 1; Evaluator::fail(expr, message)"),
    (r"\busage\(", "cli usage(message), exit 2"),
    (r"\bexpected\(", "cli option check: expected(what the value must be, test)"),
    (r"\bSessionError\(", "an error of the Session API"),
    (r"\b(?:message|error)\s*=(?!=)", "a message built in a variable (message = ..., error = ...)"),
    (r"\berr_\s*<<", "the REPL's own errors (err_ << ...)"),
    (r"\bcase\s+ErrorCode::\w+:\s*return\b", "a runtime error's text (compiler/ir/Errors.cpp)"),
    (r"\bfriendlyTokenNames\(", "a syntax error in gdsl's words (compiler/parse/Parser.cpp)"),
]

# Messages no golden case can trigger, with the reason. A message is allowed
# when one of its string literals contains the text.
ALLOWED = {
    # Internal errors: the program would have to be wrong, not the game file.
    "internal error: {} is not a": "an IR operation of the wrong type reached the evaluator "
                                    "(a compiler bug)",
    "internal error: the generated code does not verify: ":
        "the JIT built invalid LLVM IR (a compiler bug)",
    "the JIT could not compile this game: ": "LLVM failed on a game it was given (a compiler bug)",
    "cannot start the JIT: ": "LLVM's native target could not be set up",
    ", a sum with a position of a loopy game; a loopy game's move must lead to that position "
    "alone": "sema already rejects such a move (errors/loopy_sum_successor); the solver checks "
             "again rather than value a sum it cannot",
    " is not in the code cache": "auto's worker that looks in the code cache only: a miss is "
                                 "never printed, a worker that compiles comes later "
                                 "(tests/unit/tiered_test.cpp)",
    "cannot stand here": "a comprehension or sum() checked in a scope without locals; every "
                         "scope that can hold an expression has them (a compiler bug)",
    # gdsl's linker for the JIT's objects (backend/jit/ObjectLoader.cpp): the objects come
    # from LLVM or from the code cache, whose checksum they passed; damaged and truncated
    # objects are tested by tests/unit/object_loader_test.cpp.
    "the JIT's object cannot be linked: ": "tests/unit/object_loader_test.cpp",
    "the JIT's object does not define ": "LLVM left out the function it compiled (a bug)",
    "cannot compile: ": "gdsl check --dump=llvm when LLVM fails (a compiler bug)",
    "cannot start the ": "the REPL's backend could not be set up (LLVM's native target)",
    "is in use by another gdsl run": "needs two runs at once: tests/cli/table_file.py and "
                                     "tests/unit/table_file_test.cpp",
    "the write failed": "an output that fails without the system saying why",
    # The Session API (driver/Session.h) is for tests and embedding, not the command line.
    "no program is loaded": "Session API only",
    "unknown game ": "Session API only (Session::table); the command line's is covered",
    # Ctrl-C: tests/cli/repl_pty.py sends SIGINT through a terminal.
    "misère search gave up after keeping ": "more than 4 million cached options of the "
                                             "components of one misère search: minutes of work",
    "out of memory": "std::bad_alloc; --max-memory (limit_max_memory) stops long before",
    # gdsl census (driver/CensusRun.cpp, driver/Mpi.cpp): failures of the system, and MPI,
    # which needs mpirun's environment; tests/cli/census.py runs those with it.
    "cannot make a pipe: ": "the process is out of file descriptors",
    "cannot start a process: ": "fork() fails: the system is out of processes or memory",
    "cannot use the database '": "SQLite cannot switch a database it just opened to WAL",
    # Libraries loaded on demand (cli/Repl.cpp's libedit): missing from the system, or not
    # the library gdsl was built against.
    "it has no ": "libedit without one of its readline functions",
    "unknown error": "dlopen failing without dlerror() saying why",
    "this gdsl was built without MPI": "needs mpirun's environment: tests/cli/census.py",
    "); install Open MPI (apt-get install": "the same message: tests/cli/census.py",
    "the MPI plugin could not be loaded: ": "needs mpirun's environment: tests/cli/census.py",
    " is not a gdsl MPI plugin": "needs mpirun's environment: tests/cli/census.py",
    "; no period could be proved": "a heap past 2^27 of a take-and-break game whose period "
                                   "is not proved by heap 2^20: minutes of work",
}


def strip_comments(text):
    """The text with comments blanked out (string and char literals kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expression_end(text, start, in_call):
    """The end of the message expression starting at `start`: the closing
    parenthesis of the call (in_call) or the `;` ending the statement."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif c == ";" and depth == 0 and not in_call:
            return i
        i += 1
    return len(text)


LITERAL_RUN = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*')
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


def pieces(expression):
    """The string pieces of a message expression: runs of adjacent literals."""
    out = []
    for run in LITERAL_RUN.finditer(expression):
        body = "".join(m.group(1) for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', run.group(0)))
        out.append(re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), body))
    return out


def key(piece):
    """The longest fragment of a piece between fmt placeholders ({} or {:...}),
    without surrounding newlines."""
    fragments = re.split(r"(?<!\{)\{[^{}]*\}(?!\})", piece)
    fragments = [f.replace("{{", "{").replace("}}", "}").strip("\n") for f in fragments]
    return max(fragments, key=len)


def sites():
    """Every place a message is written: (file:line, site, [its pieces]).
    Pieces without a letter (an operator's spelling, a quote) are not texts."""
    found = []
    files = []
    for d in SOURCE_DIRS:
        files += glob.glob(os.path.join(ROOT, d, "**", "*.cpp"), recursive=True)
        files += glob.glob(os.path.join(ROOT, d, "**", "*.h"), recursive=True)
    for path in sorted(files):
        text = strip_comments(open(path, encoding="utf-8").read())
        rel = os.path.relpath(path, ROOT)
        for pattern, site in SITES:
            in_call = pattern.endswith(r"\(")
            for m in re.finditer(pattern, text):
                end = expression_end(text, m.end(), in_call)
                texts = [p for p in pieces(text[m.end():end]) if re.search(r"[A-Za-z]", p)]
                if texts:
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(("%s:%d" % (rel, line), site, texts))
    return found


def expected_outputs():
    """Every expected output of the error cases: {relative path: text}."""
    out = {}
    for ext in ("err", "out"):
        for path in glob.glob(os.path.join(CASES, "**", "*." + ext), recursive=True):
            out[os.path.relpath(path, ROOT)] = open(path, encoding="utf-8", errors="replace").read()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="print every message text and its case")
    opts = ap.parse_args()
    outputs = expected_outputs()
    status = {}  # key -> how it is accounted for
    places = {}  # key -> [(file:line, site)]
    missing = []
    used = set()
    for place, site, texts in sites():
        allowed = [a for a in ALLOWED if any(a in t for t in texts)]
        used.update(allowed)
        for k in map(key, texts):
            places.setdefault(k, []).append((place, site))
            if k in status:
                continue
            cases = sorted(path for path, text in outputs.items() if k in text)
            if cases:
                status[k] = "covered by " + cases[0]
            elif allowed:
                status[k] = "allowed (%r): %s" % (allowed[0], ALLOWED[allowed[0]])
            else:
                status[k] = "MISSING"
                missing.append(k)
    if opts.list:
        for k in sorted(status):
            print("%r\n    %s" % (k, status[k]))
            for place, site in places[k]:
                print("    at %s: %s" % (place, site))
    for k in sorted(set(ALLOWED) - used):
        print("note: ALLOWED has %r, but no message in the sources has that text any more; "
              "remove it" % k)
    if missing:
        print("%d error message text(s) without a golden case in tests/golden/errors/:" % len(missing))
        for k in missing:
            for place, site in places[k]:
                print("  %s: %r\n      (%s)" % (place, k, site))
        print("\nAdd a case that prints each one (tests/golden/errors/<name>.game or .cmd, then\n"
              "bash scripts/update-golden.sh), or, when no command line can trigger it, add\n"
              "the text to ALLOWED in %s with the reason." % os.path.relpath(__file__, ROOT))
        sys.exit(1)
    print("%d error message texts: %d covered by a golden case, %d allowed without one"
          % (len(status), sum(v.startswith("covered") for v in status.values()),
             sum(v.startswith("allowed") for v in status.values())))


if __name__ == "__main__":
    main()
