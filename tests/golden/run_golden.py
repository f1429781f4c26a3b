#!/usr/bin/env python3
"""Golden tests: runs gdsl on one case and compares stdout, stderr and the exit
status with the expected files beside it.

A case is tests/golden/<category>/<name>.game (run as `gdsl eval <file>`) or
<name>.cmd (gdsl's arguments on one line, split as a shell would, with quotes;
{root} is the repository root, {case} the case's .game file; lines starting
with // are comments). Beside it:
  <name>.out   expected standard output (empty when missing)
  <name>.err   expected standard error; its presence means exit status 1,
               unless the .cmd line ends with `# exit N`, or it holds only
               warnings (exit status 0)
  <name>.in    standard input (for gdsl repl and gdsl play); none when missing
Every case runs on every backend given with --backend, against
the same .out. Run with --update to rewrite the expected files, then read the
diff before committing.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

GOLDEN = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(GOLDEN))


def only_warnings(err):
    """Whether expected standard error holds warnings only: every line that is not a
    source line or caret (indented) is a `file:line:col: warning:` header."""
    heads = [line for line in err.splitlines() if line and not line.startswith(" ")]
    return bool(heads) and all(re.match(r"^\S+:\d+:\d+: warning: ", h) for h in heads)


def command(case):
    base, ext = os.path.splitext(case)
    rel = os.path.relpath(case, GOLDEN)
    if ext == ".cmd":
        lines = [l for l in open(case).read().splitlines() if not l.lstrip().startswith("//")]
        line = " ".join(lines).strip()
        code = None
        if "# exit" in line:
            line, _, tail = line.partition("# exit")
            code = int(tail.strip())
        rel_root = os.path.relpath(ROOT, GOLDEN)
        args = line.replace("{root}", rel_root).replace("{case}", os.path.splitext(rel)[0] + ".game")
        args = shlex.split(args)
        return args, code
    return ["eval", rel], None


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdsl", required=True)
    ap.add_argument("--backend", action="append", default=None)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("cases", nargs="+")
    opts = ap.parse_args()
    backends = opts.backend or ["interp"]
    if os.sep in opts.gdsl:  # a path, not a name on PATH: the cases run with cwd=GOLDEN
        opts.gdsl = os.path.abspath(opts.gdsl)
    failed = 0
    for case in opts.cases:
        case = os.path.abspath(case)
        base = os.path.splitext(case)[0]
        args, code = command(case)
        runs = backends  # errors too: both backends must report the same message
        for backend in runs:
            full = [opts.gdsl] + args
            if args and args[0] in ("eval", "table", "period") and "--backend" not in args:
                full += ["--backend", backend]
            stdin = read(base + ".in") if os.path.exists(base + ".in") else None
            proc = subprocess.run(full, cwd=GOLDEN, input=stdin, capture_output=True, text=True,
                                  timeout=300, stdin=None if stdin is not None else subprocess.DEVNULL)
            if opts.update:
                with open(base + ".out", "w") as f:
                    f.write(proc.stdout)
                if proc.stderr or proc.returncode != 0:
                    with open(base + ".err", "w") as f:
                        f.write(proc.stderr)
                elif os.path.exists(base + ".err"):
                    os.remove(base + ".err")
                break
            want_code = code if code is not None else (
                1 if os.path.exists(base + ".err") and not only_warnings(read(base + ".err"))
                else 0)
            problems = []
            if proc.stdout != read(base + ".out"):
                problems.append("stdout differs:\n--- expected\n%s--- got\n%s" % (read(base + ".out"), proc.stdout))
            if proc.stderr != read(base + ".err"):
                problems.append("stderr differs:\n--- expected\n%s--- got\n%s" % (read(base + ".err"), proc.stderr))
            if proc.returncode != want_code:
                problems.append("exit status %d, expected %d" % (proc.returncode, want_code))
            if problems:
                failed += 1
                print("FAIL %s [%s]: %s" % (os.path.relpath(case, GOLDEN), backend, " ".join(full)))
                for p in problems:
                    print(p)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
