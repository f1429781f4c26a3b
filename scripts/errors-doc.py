#!/usr/bin/env python3
"""Builds docs/errors.md from the golden error cases (tests/golden/errors), so
that every example in it is a program gdsl is tested on, with its exact output.

  python3 scripts/errors-doc.py           rewrite docs/errors.md
  python3 scripts/errors-doc.py --check   fail when docs/errors.md is not what
                                          the cases give (a ctest test)

Each case is one entry: its first // comment lines are the explanation; the
program, the command and the expected output follow. A case belongs to the
group of the longest prefix of its name in GROUPS; a case whose name has no
prefix there stops the script (add the prefix, or rename the case).
scripts/update-golden.sh runs this after regenerating the expected files.
"""
import argparse
import difflib
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")
CASES = os.path.join(GOLDEN, "errors")
DOC = os.path.join(ROOT, "docs", "errors.md")

# (title, introduction, name prefixes), in the order of the document.
GROUPS = [
    ("Syntax",
     "The file does not parse. Nothing runs; the first mistake of each line is reported.",
     ["syntax_", "int_literal_", "deep_"]),
    ("Names",
     "A name that is defined twice, or used without being defined.",
     ["unknown_", "duplicate_"]),
    ("Types and arity",
     "A value of the wrong type for where it stands, or a call or position with the wrong "
     "number of arguments.",
     ["type_", "arity_", "nonzero_", "normalize_"]),
    ("Rules: sugar, octal codes, amounts",
     "One-heap sugar on a game that is not one heap, malformed octal codes, and `take` or "
     "`remove` amounts that would let a position move to itself.",
     ["sugar_", "octal_", "amount_"]),
    ("Show forms",
     "A game's `show` form that cannot draw its positions: a drawing that is not `board` or "
     "`row`, the wrong number of arguments, symbols that are misplaced, too few or repeated "
     "(see language.md, \"Additions to the language\"). Errors found while a position is "
     "drawn are runtime errors (`runtime_show_...`).",
     ["show_"]),
    ("Statements and constants",
     "A table, period or assert that cannot be run as written, and constants whose value "
     "cannot be computed.",
     ["table_", "period_", "assert_", "const_"]),
    ("Runtime: arithmetic, lists and positions",
     "Errors found while a position is expanded. The message says which position "
     "(`while expanding ...`) and a note points at the statement; the other statements "
     "still run, and the exit status is 1. The interpreter and the JIT report the same text.",
     ["runtime_"]),
    ("Runtime: cycles",
     "A position that can reach itself: the game is not finite. The message shows the "
     "cycle and points at the move that closes it.",
     ["cycle_", "runtime_cycle"]),
    ("Loopy games",
     "A game whose positions may repeat (`loopy game`, reference.md \"Loopy games\"): a game "
     "that is not loopy but moves to one, a move to a sum with a loopy position, an infinite "
     "value where a statement needs a number, and misere play.",
     ["loopy_"]),
    ("Runtime: limits",
     "Work gdsl refuses to start rather than run out of memory.",
     ["limit_"]),
    ("Command line",
     "Bad usage exits with status 2 and a line starting with `gdsl:`. Statements written on "
     "the command line (`-e`, a table's RANGE, a period's GAME) are checked like a file "
     "named `<command line>`; their errors exit with status 1.",
     ["usage_", "cli_", "json_"]),
    ("Files: imports, checkpoints and table files",
     "Files that cannot be read or written, and checkpoints and table files that cannot be used.",
     ["import_", "checkpoint_", "table_file_"]),
    ("gdsl repl and gdsl play",
     "The REPL reports each error and goes on with the next entry; its exit status is 0. "
     "gdsl play asks again when it does not understand a move.",
     ["repl_", "play_"]),
    ("gdsl census",
     "A family that names no game, a database that is not a census database of this "
     "schema (it is then left unchanged), census databases that disagree when merged "
     "(nothing is merged), and bad options (see census.md).",
     ["census_"]),
]

HEADER = """# Errors

Every error gdsl reports, with a program or command that causes it and the exact
output. Each example is a golden test case of `tests/golden/errors` (run from
`tests/golden`, on both backends); this page is generated from them by
`scripts/errors-doc.py`, so do not edit it by hand: change or add a case and run
`bash scripts/update-golden.sh`.

An error in a file is reported as `file:line:col: error: message`, then the source
line and a caret line under the part concerned; notes follow in the same form. Lines
and columns count from 1; a column counts characters, not bytes. Statements written on
the command line are reported as a file named `<command line>` (`<position>` for
`gdsl play`, `<input N>` for the REPL's Nth entry).

Exit status: 0 when everything ran (also for `gdsl repl`, whatever its entries did);
1 for an error in the game file or its statements (syntax, names, types, runtime
errors, a failed `assert`, a checkpoint refused); 2 for bad command-line usage.
Compile errors stop before any statement runs; a runtime error or failed `assert`
stops only its statement, and the exit status is then 1. With `--json` each error is
also a JSON object on standard output (`"kind":"error"`, with `file`, `line`, `col`
and `message`); errors with no place in a file (usage, limits) have `null` there.

A few errors have no example here: an interrupted computation in the REPL (Ctrl-C,
[repl.md](repl.md)); running out of memory below the `--max-memory` limit; and
internal errors (the JIT failing to start or to compile a game), which would be bugs
in gdsl. The limits are described in [limits.md](limits.md). `python3 tests/golden/check_error_coverage.py --list` lists every message of
the sources and the case that shows it.
"""


def read(path):
    return open(path, encoding="utf-8", errors="replace").read() if os.path.exists(path) else ""


def comment(text):
    """The leading // comment lines of a case, as one paragraph."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    return " ".join(lines)


def fence(text):
    """A code fence longer than any run of backticks in `text`."""
    longest, run = 0, 0
    for c in text:
        run = run + 1 if c == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def block(text, lang=""):
    f = fence(text)
    return "%s%s\n%s%s\n" % (f, lang, text if text.endswith("\n") else text + "\n", f)


def code_span(text):
    if "`" not in text:
        return "`%s`" % text
    return "`` %s ``" % text


def title(err, explanation):
    """The entry's heading: the first line of the error output, without its
    place or `gdsl: `; the explanation when nothing goes to standard error."""
    if not err.strip():
        return explanation.rstrip(".")
    first = err.splitlines()[0]
    if ": error: " in first:
        return first.split(": error: ", 1)[1]
    return first[len("gdsl: "):] if first.startswith("gdsl: ") else first


def group_of(name):
    """(group index, prefix index) of the longest prefix of `name` in GROUPS."""
    best, where = "", None
    for i, (_, _, prefixes) in enumerate(GROUPS):
        for j, p in enumerate(prefixes):
            if name.startswith(p) and len(p) > len(best):
                best, where = p, (i, j)
    return where


def entry(name):
    base = os.path.join(CASES, name)
    cmd_path, game_path = base + ".cmd", base + ".game"
    game = read(game_path)
    rel_game = "errors/%s.game" % name
    code = None
    if os.path.exists(cmd_path):
        cmd_text = read(cmd_path)
        explanation = comment(cmd_text)
        line = " ".join(l for l in cmd_text.splitlines() if not l.lstrip().startswith("//"))
        if "# exit" in line:
            line, _, tail = line.partition("# exit")
            code = int(tail.strip())
        args = shlex.split(line.replace("{root}", "../..").replace("{case}", rel_game))
        command = "gdsl " + " ".join(shlex.quote(a) for a in args)
    else:
        explanation = comment(game)
        command = "gdsl eval " + rel_game
    stdin = read(base + ".in")
    if stdin:
        command += " < errors/%s.in" % name
    err, out = read(base + ".err"), read(base + ".out")
    if code is None:
        code = 1 if os.path.exists(base + ".err") else 0
    parts = ["### %s\n" % code_span(title(err, explanation))]
    if explanation:
        parts.append("%s\n" % explanation)
    if game:
        parts.append("`%s`:\n\n%s" % (rel_game, block(game, "gdsl")))
    for imported in re.findall(r'^import "(lib/[^"]+)"', game, re.M):  # the files it imports
        text = read(os.path.join(CASES, imported))
        if text:
            parts.append("`errors/%s`:\n\n%s" % (imported, block(text, "gdsl")))
    if stdin:
        parts.append("`errors/%s.in` (standard input):\n\n%s" % (name, block(stdin)))
    shown = "$ %s\n%s" % (command, err)
    parts.append(block(shown, "console"))
    if out:
        parts.append("Standard output:\n\n%s" % block(out))
    parts.append("Exit status %d.\n" % code)
    return "\n".join(parts)


def build():
    names = set()
    for f in os.listdir(CASES):
        stem, ext = os.path.splitext(f)
        if ext == ".cmd" or (ext == ".game" and not os.path.exists(os.path.join(CASES, stem + ".cmd"))):
            names.add(stem)
    grouped = [[] for _ in GROUPS]
    # Within a group, cases go by the order of their prefixes, then by name.
    for name in sorted(names, key=lambda n: (group_of(n) or (0, 0))[1:] + (n,)):
        where = group_of(name)
        if where is None:
            sys.exit("scripts/errors-doc.py: tests/golden/errors/%s has no group: give it a name "
                     "prefix listed in GROUPS" % name)
        grouped[where[0]].append(name)
    text = [HEADER, "\n"]
    for (heading, _, _), members in zip(GROUPS, grouped):
        if members:
            anchor = "".join(c for c in heading.lower() if c.isalnum() or c in " -").replace(" ", "-")
            text.append("- [%s](#%s) (%d examples)\n" % (heading, anchor, len(members)))
    for (heading, intro, _), members in zip(GROUPS, grouped):
        if not members:
            continue
        text.append("\n## %s\n\n%s\n" % (heading, intro))
        for name in members:
            text.append("\n" + entry(name))
    return "".join(text)


def main():
    ap = argparse.ArgumentParser(description="docs/errors.md from tests/golden/errors")
    ap.add_argument("--check", action="store_true", help="fail when docs/errors.md is stale")
    opts = ap.parse_args()
    text = build()
    if opts.check:
        current = read(DOC)
        if current != text:
            diff = difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                        "docs/errors.md", "generated", n=1)
            sys.stdout.writelines(list(diff)[:60])
            sys.exit("docs/errors.md is not what tests/golden/errors gives: run "
                     "python3 scripts/errors-doc.py (or bash scripts/update-golden.sh)")
        return
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
