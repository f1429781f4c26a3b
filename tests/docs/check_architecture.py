#!/usr/bin/env python3
"""Every source file of the repository is named in docs/architecture.md.

A source file is a C++ file, a grammar, a Python or shell script, a CMake file,
the CI entry point or the fuzzing dictionary, anywhere but in build trees and
in the data folders (golden cases, the fuzz corpus and regressions, .game
programs). It counts as named when its path from the repository root occurs on
the page, or matches a `pattern` written in backticks with a `*` in it (such as
`bench/baselines/*.cpp`). Paths named on the page that do not exist fail too,
so the page cannot name files that are gone.

The page's "Recipes" section (the changes people make most, each as the files to
touch in order) must have a recipe for each of RECIPES, each a numbered list whose
every step names at least one file of the repository that exists.

Run from anywhere; exits 1 with the list of files missing from the page.
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "docs", "architecture.md")

SOURCE_ENDINGS = (".cpp", ".h", ".g4", ".py", ".sh", ".cmake", ".dict")
SOURCE_NAMES = ("CMakeLists.txt", "run")  # run: .ci/run
DATA_FOLDERS = ("tests/golden", "tests/fuzz/corpus", "tests/fuzz/regressions", "docs",
                "examples", "bench/games")


def source_files():
    out = []
    for folder, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(folder, ROOT)
        rel = "" if rel == "." else rel.replace(os.sep, "/")
        dirs[:] = [d for d in dirs
                   if not d.startswith(("build", ".git", "__pycache__"))
                   and not (rel + "/" + d).lstrip("/").startswith(DATA_FOLDERS)]
        for f in files:
            path = (rel + "/" + f).lstrip("/")
            if path == ".ci/run" or (f in SOURCE_NAMES and f != "run") or \
                    f.endswith(SOURCE_ENDINGS):
                out.append(path)
    return sorted(out)


RECIPES = ("Add a built-in", "Add an operator", "Add a move form", "Add a memo",
           "Add a command")


def check_recipes(page):
    """Problems with the Recipes section: a recipe missing, or a step naming no file."""
    problems = []
    m = re.search(r"^## Recipes\n(.*?)(?=^## |\Z)", page, re.S | re.M)
    if not m:
        return ["docs/architecture.md has no '## Recipes' section"]
    section = m.group(1)
    for title in RECIPES:
        r = re.search(r"^### " + re.escape(title) + r"[^\n]*\n(.*?)(?=^### |\Z)", section,
                      re.S | re.M)
        if not r:
            problems.append("Recipes: no recipe '%s'" % title)
            continue
        steps = re.findall(r"^\d+\. (.*?)(?=^\d+\. |^\S|\Z)", r.group(1), re.S | re.M)
        if len(steps) < 2:
            problems.append("Recipes: '%s' has fewer than two numbered steps" % title)
        for step in steps:
            paths = [q for q in re.findall(r"`([^`\s]+)`", step)
                     if "/" in q and os.path.exists(os.path.join(ROOT, q.split(":")[0]))]
            if not paths:
                problems.append("Recipes: a step of '%s' names no existing file: %s" %
                                (title, " ".join(step.split())[:80]))
    return problems


def main():
    page = open(PAGE, encoding="utf-8").read()
    quoted = re.findall(r"`([^`\s]+)`", page)
    patterns = [q for q in quoted if "*" in q]
    files = source_files()
    missing = [f for f in files
               if not re.search(r"(?<![\w/.])" + re.escape(f) + r"(?![\w/])", page)
               and not any(fnmatch.fnmatch(f, p) for p in patterns)]
    # Paths on the page that look like repository files must exist.
    gone = [q for q in quoted
            if "*" not in q and "/" in q and q.endswith(SOURCE_ENDINGS + ("CMakeLists.txt",))
            and not q.startswith(("build", "../"))
            and not os.path.exists(os.path.join(ROOT, q))]
    for f in missing:
        print("docs/architecture.md does not name %s" % f)
    for q in gone:
        print("docs/architecture.md names %s, which does not exist" % q)
    recipes = check_recipes(page)
    for r in recipes:
        print(r)
    print("%d source files, %d named, %d missing, %d named but gone" %
          (len(files), len(files) - len(missing), len(missing), len(gone)))
    return 1 if missing or gone or recipes else 0


if __name__ == "__main__":
    sys.exit(main())
