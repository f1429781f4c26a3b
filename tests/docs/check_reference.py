#!/usr/bin/env python3
"""Runs every example of docs/reference.md and compares what gdsl prints.

Usage: check_reference.py GDSL [PAGE]   (PAGE defaults to docs/reference.md)

Fenced blocks of the page, by their language tag (fences start at column 0):
  ```gdsl        a complete program. It is saved as example.game in a fresh
                 directory and run there as `gdsl eval example.game`.
  ```gdsl-error  a program that gdsl rejects: the run must exit with status 1.
  ```output      right after a program: exactly its standard output.
  ```stderr      right after a program: exactly its standard error (diagnostics,
                 warnings), file names as printed for example.game. Required
                 after gdsl-error.
  ```console     commands `$ gdsl ARGS`, each followed by exactly its standard
                 output; `# exit status N` at the end of a command expects
                 status N (default 0). Right after a program, the commands run
                 beside its example.game; elsewhere, in a directory of their own.
"Right after" means that only blank lines separate the blocks. A gdsl block with
neither output nor stderr must pass `gdsl check` silently. A gdsl block whose
first line is `// file: NAME.game` is a file for the others to import: it is
checked, and saved as NAME.game beside every example. Programs and the commands
eval, table, period and plot run on every backend (interp, jit, auto; not auto under
GDSL_TEST_SCALE) unless a command names one. Blocks with other tags (none, text) are not run.

Exits 1 with a diff for every example whose output differs.
"""
import concurrent.futures
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The sanitized suite (GDSL_TEST_SCALE > 1, scripts/sanitize.sh) leaves out `auto`, which is
# one or the other on examples this short (docs/testing.md).
BACKENDS = ("interp", "jit") if int(os.environ.get("GDSL_TEST_SCALE", "1")) > 1 else \
    ("interp", "jit", "auto")
PROGRAM_TAGS = ("gdsl", "gdsl-error")
RESULT_TAGS = ("output", "stderr", "console")
RUN_ON_BACKENDS = ("eval", "table", "period", "plot")
FILE_HEADER = re.compile(r"^// file: (\S+\.game)\s*$")


class Block:
    def __init__(self, tag, line, text, gap_before):
        self.tag, self.line, self.text = tag, line, text
        self.gap_before = gap_before  # only blank lines since the previous block


def read_blocks(path):
    """The fenced blocks of the page: tag, first line (1-based) and text."""
    blocks, lines = [], open(path, encoding="utf-8").read().split("\n")
    i, only_blank = 0, False
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            only_blank = only_blank and not lines[i].strip()
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise SystemExit("%s:%d: unterminated code block" % (path, start))
        text = "\n".join(body) + "\n" if body else ""
        blocks.append(Block(m.group(1), start, text, only_blank))
        i += 1
        only_blank = True
    return blocks


class Example:
    def __init__(self, program):
        self.program = program  # a Block, or None for a console block on its own
        self.results = {}


def group(blocks, page):
    """Examples (a program with the result blocks right after it), helper files, errors."""
    examples, helpers, errors = [], {}, []
    current = None
    for b in blocks:
        if b.tag in PROGRAM_TAGS:
            current = Example(b)
            m = FILE_HEADER.match(b.text.split("\n", 1)[0])
            if m:
                if b.tag != "gdsl":
                    errors.append("%s:%d: a file to import must be a gdsl block" % (page, b.line))
                helpers[m.group(1)] = b.text
            examples.append(current)
        elif b.tag in RESULT_TAGS:
            attached = current is not None and b.gap_before
            if not attached and b.tag == "console":
                current = Example(None)
                examples.append(current)
            elif not attached:
                errors.append("%s:%d: a ```%s block must follow a program" % (page, b.line, b.tag))
                continue
            if b.tag in current.results:
                errors.append("%s:%d: a second ```%s block for one program" % (page, b.line, b.tag))
            current.results[b.tag] = b
        else:
            if b.tag.startswith("gdsl"):
                errors.append("%s:%d: unknown block tag '%s'" % (page, b.line, b.tag))
            current = None
    for ex in examples:
        p = ex.program
        if p is not None and p.tag == "gdsl-error" and "stderr" not in ex.results:
            errors.append("%s:%d: a gdsl-error block needs a ```stderr block" % (page, p.line))
    return examples, helpers, errors


def diff(what, expected, actual):
    lines = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                 "expected " + what, "actual " + what)
    return "".join(l if l.endswith("\n") else l + "\n" for l in lines)


def run(gdsl, args, cwd):
    try:
        p = subprocess.run([gdsl] + args, cwd=cwd, capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out after 120 s\n"


def compare(status, want_status, pairs):
    """The mismatches: the status, then each (what, expected, actual) that differs."""
    out = []
    if status != want_status:
        out.append("exit status %s, expected %d" % (status, want_status))
    for what, expected, actual in pairs:
        if expected != actual:
            out.append("%s differs\n%s" % (what, diff(what, expected, actual)))
    return out


def on_backends(failures, label, backends, run_one):
    """Runs run_one(backend) for each backend; a mismatch that several backends share
    is reported once, naming them."""
    found = {}
    for backend in backends:
        for problem in run_one(backend):
            found.setdefault(problem, []).append(backend)
    for problem, where in found.items():
        names = "" if where == [None] else " (--backend %s)" % ", ".join(where)
        failures.append("%s%s: %s" % (label, names, problem))


def console_commands(block, page):
    """(line, args, status, expected stdout) for each `$ gdsl ...` of a console block."""
    commands, current = [], None
    for offset, line in enumerate(block.text.splitlines()):
        if line.startswith("$ "):
            command, _, tail = line[2:].partition("# exit status")
            status = int(tail) if tail.strip() else 0
            args = shlex.split(command)
            if not args or args[0] != "gdsl":
                raise SystemExit("%s:%d: a console command starts with gdsl"
                                 % (page, block.line + offset))
            current = [block.line + offset, args[1:], status, ""]
            commands.append(current)
        elif current is None:
            raise SystemExit("%s:%d: a console block starts with a `$ gdsl` command"
                             % (page, block.line + offset))
        else:
            current[3] += line + "\n"
    return commands


def check(example, helpers, gdsl, page):
    failures = []
    with tempfile.TemporaryDirectory(prefix="gdsl-reference-") as d:
        for name, text in helpers.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        p, results = example.program, example.results
        if p is not None:
            with open(os.path.join(d, "example.game"), "w", encoding="utf-8") as f:
                f.write(p.text)
            label = "%s:%d" % (page, p.line)
            out = results["output"].text if "output" in results else ""
            err = results["stderr"].text if "stderr" in results else ""
            if p.tag == "gdsl" and "output" not in results and "stderr" not in results:
                status, stdout, stderr = run(gdsl, ["check", "example.game"], d)
                failures += ["%s (gdsl check): %s" % (label, problem) for problem in
                             compare(status, 0, [("stdout", "", stdout), ("stderr", "", stderr)])]
            else:
                want = 1 if p.tag == "gdsl-error" else 0

                def program(backend):
                    status, stdout, stderr = run(
                        gdsl, ["eval", "example.game", "--backend", backend], d)
                    return compare(status, want, [("stdout", out, stdout), ("stderr", err, stderr)])
                on_backends(failures, label, BACKENDS, program)
        if "console" in results:
            for line, args, want, expected in console_commands(results["console"], page):
                backends = [None]
                if args and args[0] in RUN_ON_BACKENDS and "--backend" not in args:
                    backends = BACKENDS

                def command(backend):
                    full = args + (["--backend", backend] if backend else [])
                    status, stdout, _ = run(gdsl, full, d)
                    return compare(status, want, [("stdout", expected, stdout)])
                on_backends(failures, "%s:%d (gdsl %s)" % (page, line, " ".join(args)),
                            backends, command)
    return failures


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    gdsl = os.path.abspath(sys.argv[1])
    page = sys.argv[2] if len(sys.argv) == 3 else os.path.join(ROOT, "docs", "reference.md")
    examples, helpers, errors = group(read_blocks(page), os.path.relpath(page))
    for e in errors:
        print(e)
    if errors:
        return 1
    label = os.path.relpath(page)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        reports = list(pool.map(lambda ex: check(ex, helpers, gdsl, label), examples))
    failed = [r for r in reports if r]
    for report in failed:
        print("\n".join(report))
    programs = sum(1 for ex in examples if ex.program is not None)
    commands = sum(len(console_commands(ex.results["console"], label))
                   for ex in examples if "console" in ex.results)
    print("%d programs and %d commands checked, %d examples failed"
          % (programs, commands, len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
