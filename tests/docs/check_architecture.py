#!/usr/bin/env python3
"""Every source file of the repository is named in docs/architecture.md.

A source file is a C++ file, a grammar, a Python or shell script, a CMake file,
the CI entry point or the fuzzing dictionary, anywhere but in build trees and
in the data folders (golden cases, the fuzz corpus and regressions, .game
programs). It counts as named when its path from the repository root occurs on
the page, or matches a `pattern` written in backticks with a `*` in it (such as
`bench/baselines/*.cpp`). Paths named on the page that do not exist fail too,
so the page cannot name files that are gone.

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
    print("%d source files, %d named, %d missing, %d named but gone" %
          (len(files), len(files) - len(missing), len(missing), len(gone)))
    return 1 if missing or gone else 0


if __name__ == "__main__":
    sys.exit(main())
