#!/usr/bin/env python3
"""The source folders include only downwards, and backend/jit has no include cycle.

The floors, lowest first: compiler < runtime < backend < driver < cli
(docs/architecture.md). A file of one floor may include files of its own floor
and of those below it, never of one above. Every `#include "..."` line of every
.h and .cpp file under those folders is read; an include is placed by the first
component of its path from the repository root (`runtime/Limits.h`), or, when
it names a file beside the including one, by that file's folder. Other includes
(generated headers such as GdslParser.h) belong to no floor and are not checked.

backend/jit: a module is a header and its .cpp (`JitBackend.h` and
`JitBackend.cpp`); module A depends on B when A.h or A.cpp includes B.h. A
cycle (A on B and B on A, or longer) is reported with the files that make it.

Known exceptions are listed in ALLOWED below, each with the change that removes
it; an entry that no longer matches anything fails too, so that it is deleted.
Run from anywhere; exits 1 with every violation.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOORS = ["compiler", "runtime", "backend", "driver", "cli"]
JIT = "backend/jit"

# Temporary exceptions: (including file, included file) for layering, and the
# sorted modules of a cycle in backend/jit.
ALLOWED_INCLUDES = set()
ALLOWED_CYCLES = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def sources():
    """Every .h and .cpp under the floors, as paths from the root."""
    out = []
    for floor in FLOORS:
        for folder, dirs, files in os.walk(os.path.join(ROOT, floor)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".h", ".cpp")):
                    out.append(os.path.relpath(os.path.join(folder, f), ROOT).replace(os.sep, "/"))
    return out


def includes(path):
    """(line number, included path from the root) of each quoted include of `path`."""
    out = []
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            beside = os.path.normpath(os.path.join(os.path.dirname(path), name)).replace(os.sep, "/")
            if name.split("/")[0] not in FLOORS and os.path.exists(os.path.join(ROOT, beside)):
                name = beside
            out.append((number, name))
    return out


def floor_of(path):
    first = path.split("/")[0]
    return FLOORS.index(first) if first in FLOORS else None


def layering(files, used):
    problems = []
    for path in files:
        mine = floor_of(path)
        for number, name in includes(path):
            theirs = floor_of(name)
            if theirs is None or theirs <= mine:
                continue
            if (path, name) in ALLOWED_INCLUDES:
                used.add((path, name))
                continue
            problems.append("%s:%d: %s includes %s (%s is above %s)" %
                            (path, number, path, name, FLOORS[theirs], FLOORS[mine]))
    return problems


def module(path):
    return os.path.splitext(path)[0]


def jit_cycles(files, used):
    """Cycles between the modules of backend/jit (strongly connected components)."""
    edges = {}  # module -> {module it includes: [(file, line)]}
    for path in files:
        if os.path.dirname(path) != JIT:
            continue
        edges.setdefault(module(path), {})
        for number, name in includes(path):
            if os.path.dirname(name) == JIT and name.endswith(".h") and \
                    module(name) != module(path):
                edges[module(path)].setdefault(module(name), []).append((path, number))
    # Tarjan's algorithm; the graph is a dozen modules.
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(tuple(sorted(component)))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    problems = []
    for component in components:
        # An allowed cycle inside a larger one still occurs; the larger one fails.
        used.update(a for a in ALLOWED_CYCLES if set(a) <= set(component))
        if component in ALLOWED_CYCLES:
            continue
        links = ["%s:%d includes %s.h" % (f, n, w)
                 for v in component for w in sorted(edges[v]) if w in component
                 for f, n in edges[v][w]]
        problems.append("include cycle in %s between %s: %s" %
                        (JIT, ", ".join(component), "; ".join(links)))
    return problems


def main():
    files = sources()
    used = set()
    problems = layering(files, used) + jit_cycles(files, used)
    for entry in sorted(ALLOWED_INCLUDES - used):
        problems.append("allowed include %s -> %s no longer occurs: delete it from ALLOWED_INCLUDES"
                        % entry)
    for entry in sorted(ALLOWED_CYCLES - used):
        problems.append("allowed cycle %s no longer occurs: delete it from ALLOWED_CYCLES"
                        % " <-> ".join(entry))
    for p in problems:
        print(p)
    print("%d files of %s checked, %d problem(s), %d allowed for now" %
          (len(files), " < ".join(FLOORS), len(problems), len(used)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
