#!/usr/bin/env python3
"""`gdsl plot`: the SVG it writes parses as a standalone <svg> document with one mark per
heap (or a binned density plot for many heaps) and one cell per grid position, Wythoff's
P-positions in black, a loopy game's infinite values apart; bad usage exits with 2 and errors in the game with 1.

usage: plot_svg.py GDSL REPO WORKDIR
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

GDSL, REPO, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
HEAPS = os.path.join(REPO, "stdlib", "heaps.game")
WYTHOFF = os.path.join(REPO, "examples", "wythoff.game")
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def gdsl(*args):
    return subprocess.run([GDSL, *args], capture_output=True, text=True)


def group(root, gid):
    for g in root.iter(SVG + "g"):
        if g.get("id") == gid:
            return g
    return None


def check_root(root, what):
    check(root.tag == SVG + "svg", what + ": the root is <svg> in the SVG namespace")
    box = (root.get("viewBox") or "").split()
    check(len(box) == 4 and box[:2] == ["0", "0"], what + ": a viewBox from 0 0")
    check(len(box) == 4 and root.get("width") == box[2] and root.get("height") == box[3],
          what + ": width and height match the viewBox")


def texts(root):
    return [t.text for t in root.iter(SVG + "text")]


# A one-heap table with few heaps: one circle per heap, named in its tooltip with the value
# `gdsl table` prints.
out = os.path.join(WORK, "grundy.svg")
for stale in (out, os.path.join(WORK, "wythoff.svg"), os.path.join(WORK, "never.svg")):
    if os.path.exists(stale):
        os.remove(stale)
r = gdsl("plot", HEAPS, "Grundy(0..300)", "-o", out)
check(r.returncode == 0 and r.stdout == "", "plot to a file succeeds and prints nothing: %r" % (r,))
root = ET.parse(out).getroot()
check_root(root, "scatter")
check("Grundy(0..300)" in texts(root), "the table's title")
check("heap" in texts(root) and "nim-value" in texts(root), "the axis names")
marks = group(root, "marks")
circles = list(marks.iter(SVG + "circle")) if marks is not None else []
check(len(circles) == 301, "one circle per heap: %d" % len(circles))
table = gdsl("table", HEAPS, "Grundy(0..300)")
values = table.stdout.split(":", 1)[1].split()
plotted = []
for c in circles:
    m = re.fullmatch(r"Grundy\((\d+)\): (0|\*\d+)", c.find(SVG + "title").text)
    plotted.append(m.group(2).lstrip("*") if m else None)
check(plotted == values, "the marks carry the values of `gdsl table`")
# Higher values are drawn higher up: the circle of a larger value has a smaller cy.
by_value = {}
for c, v in zip(circles, values):
    by_value.setdefault(int(v), set()).add(float(c.get("cy")))
check(all(len(ys) == 1 for ys in by_value.values()), "one height per value")
heights = [by_value[v].pop() for v in sorted(by_value)]
check(heights == sorted(heights, reverse=True), "larger values higher up")

# Many heaps: a density plot with far fewer marks than heaps, written to standard output.
r = gdsl("plot", HEAPS, "Grundy(0..100000)", "-o", "-")
check(r.returncode == 0, "plot -o - succeeds")
check(len(r.stdout.encode()) < 2_000_000, "10^5 heaps make a small file: %d bytes" % len(r.stdout))
root = ET.fromstring(r.stdout)
check_root(root, "density")
rects = list(group(root, "marks").iter(SVG + "rect"))
check(0 < len(rects) < 100000 // 5, "far fewer marks than heaps: %d" % len(rects))
check(not list(group(root, "marks").iter(SVG + "circle")), "no circle per heap")

# A grid: one cell per position, black exactly at Wythoff's P-positions, computed here from
# the complementary sequences a_k = mex of earlier a_j, b_j and b_k = a_k + k.
N = 30
p_positions, used, a = set(), set(), 0
for k in range(N):
    while a in used:
        a += 1
    used.update((a, a + k))
    for x, y in ((a, a + k), (a + k, a)):
        if x <= N and y <= N:
            p_positions.add((x, y))
out = os.path.join(WORK, "wythoff.svg")
r = gdsl("plot", WYTHOFF, "Wythoff(0..%d, 0..%d)" % (N, N), "-o", out, "--backend", "interp")
check(r.returncode == 0, "grid plot succeeds: %r" % (r,))
root = ET.parse(out).getroot()
check_root(root, "grid")
cells = list(group(root, "cells").iter(SVG + "rect"))
check(len(cells) == (N + 1) ** 2, "one cell per position: %d" % len(cells))
black = set()
for c in cells:
    m = re.fullmatch(r"Wythoff\((\d+), (\d+)\): .*", c.find(SVG + "title").text)
    if c.get("fill") == "#000000":
        black.add((int(m.group(1)), int(m.group(2))))
check(len(p_positions) > 10 and black == p_positions,
      "the black cells are the P-positions: %s" % sorted(black ^ p_positions))
check(len(list(group(root, "p-marks").iter(SVG + "circle"))) == len(p_positions),
      "a dot in every P cell")
check(group(root, "legend") is not None, "a legend")

# Heaps at the top of the 64-bit range: axis ticks do not overflow (this hung).
OCTAL = os.path.join(REPO, "stdlib", "octal.game")
top = "Kayles(9223372036854775805..9223372036854775807)"
try:
    r = subprocess.run([GDSL, "plot", OCTAL, top, "-o", "-"], capture_output=True, text=True,
                       timeout=60)
    root = ET.fromstring(r.stdout)
    titles = [c.find(SVG + "title").text for c in group(root, "marks").iter(SVG + "circle")]
    check(titles == ["Kayles(9223372036854775805): *4", "Kayles(9223372036854775806): *7",
                     "Kayles(9223372036854775807): *2"], "the last three heaps: %r" % titles)
except subprocess.TimeoutExpired:
    check(False, "a plot of the last heaps finishes")

# A grid at the top of the 64-bit range: cell titles and axes do not overflow (UBSan found
# lo + n - 1 computed as (lo + n) - 1). G(a, b) is 1 when a is the middle of the last three.
edge = os.path.join(WORK, "edge.game")
with open(edge, "w") as f:
    f.write("game G(a, b) {\n  move m() when a > 9223372036854775805 -> G(a - 1, b)\n}\n")
r = gdsl("plot", edge, "G(9223372036854775805..9223372036854775807, 9223372036854775806..9223372036854775807)",
         "-o", "-")
check(r.returncode == 0, "a grid of the last heaps: %r" % (r,))
if r.returncode == 0:
    root = ET.fromstring(r.stdout)
    titles = [c.find(SVG + "title").text for c in group(root, "cells").iter(SVG + "rect")]
    check(titles[0] == "G(9223372036854775805, 9223372036854775806): 0, P" and
          titles[-1] == "G(9223372036854775807, 9223372036854775807): 0, P" and
          titles[2] == "G(9223372036854775806, 9223372036854775806): *1, N" and len(titles) == 6,
          "the cells of the last heaps: %r" % titles)

# A loopy game (reference.md section 4.10): every heap's tooltip, among the numbers or in
# the strips of infinite wins and draws, gives what `gdsl table` prints, and the outcome
# of an infinite value (D when 0 is not in K) decides its strip.
LOOPY = os.path.join(WORK, "walk.game")
with open(LOOPY, "w") as f:
    f.write("loopy game W(c) {\n"
            "  move down(k in 1..2) when c >= k -> W(c - k)\n"
            "  move jump when c % 10 == 9 -> W((7 * c + 3) % 101)\n"
            "  move stay when c % 13 == 4 -> W(c)\n"
            "}\n")
r = gdsl("plot", LOOPY, "W(0..100)", "-o", "-")
check(r.returncode == 0, "a loopy game's plot: %r" % (r,))
if r.returncode == 0:
    root = ET.fromstring(r.stdout)
    by_heap = {}
    for gid in ("marks", "infinite-wins", "draws"):
        for c in group(root, gid).iter(SVG + "circle"):
            m = re.fullmatch(r"W\((\d+)\): (.*)", c.find(SVG + "title").text)
            by_heap[int(m.group(1))] = (gid, m.group(2).lstrip("*"))  # *3 as table's 3
    values = gdsl("table", LOOPY, "W(0..100)").stdout.split(":", 1)[1].split()
    check(sorted(by_heap) == list(range(101)), "one mark per heap: %r" % sorted(by_heap))
    for n, v in enumerate(values):
        gid, text = by_heap.get(n, (None, None))
        if v.startswith("∞"):
            k = v[2:-1]
            strip = "infinite-wins" if "0" in k.split(",") else "draws"
            want = (strip, "%s, %s" % (v, "N" if strip == "infinite-wins" else "D"))
        else:
            want = ("marks", v)
        check((gid, text) == want, "W(%d): %r, not %r" % (n, (gid, text), want))
    check(any(v.startswith("∞") for v in values) and any(not v.startswith("∞") for v in values),
          "the game has numbers and infinite values: %r" % values[:20])

# Usage errors exit with 2 and write nothing; errors in the game exit with 1.
missing = os.path.join(WORK, "never.svg")
r = gdsl("plot", HEAPS, "Grundy(0..10)")
check(r.returncode == 2 and "-o" in r.stderr, "missing -o is a usage error: %r" % (r,))
for spec in ("Grundy(5)", "Grundy", "3 + 4"):
    r = gdsl("plot", HEAPS, spec, "-o", missing)
    check(r.returncode == 2 and "table range" in r.stderr,
          "%r is not a table range: %r" % (spec, r))
r = gdsl("plot", HEAPS, "Grundy(0..10)", "-o", missing, "--json")
check(r.returncode == 2, "--json is not a plot option: %r" % (r,))
r = gdsl("plot", HEAPS, "Grundy(0..10)", "-o", os.path.join(WORK, "no", "such", "dir.svg"))
check(r.returncode == 2 and "cannot write" in r.stderr, "an unwritable output: %r" % (r,))
r = gdsl("plot", HEAPS, "Nope(0..10)", "-o", missing)
check(r.returncode == 1 and "error:" in r.stderr and "Nope" in r.stderr,
      "an unknown game is an error in the file: %r" % (r,))
r = gdsl("plot", HEAPS, "Grundy(0..3, 0..4)", "-o", missing)
check(r.returncode == 1 and "error:" in r.stderr, "a wrong arity: %r" % (r,))
r = gdsl("plot", WYTHOFF, "Wythoff(0..20000, 0..3)", "-o", missing)
check(r.returncode == 1 and "at most 10000 rows" in r.stderr, "a table too large: %r" % (r,))
check(not os.path.exists(missing), "no file is written after an error")

if failures:
    sys.exit(1)
print("ok")
