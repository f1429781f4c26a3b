"""Row (e): Node Kayles on the W x 5 grid, the free cells as the bits of an int: a dict memo
and recursion (at most W * 5 deep). Prints the full board's value and a checksum over the
values of its options."""
import sys

from common import report

sys.setrecursionlimit(10000)
H = 5
W = int(sys.argv[1]) if len(sys.argv) > 1 else 7
CELLS = W * H
NB = []
for v in range(CELLS):
    x, y = v % W, v // W
    m = 1 << v
    if x > 0:
        m |= 1 << (v - 1)
    if x < W - 1:
        m |= 1 << (v + 1)
    if y > 0:
        m |= 1 << (v - W)
    if y < H - 1:
        m |= 1 << (v + W)
    NB.append(m)
memo = {}


def grundy(board):
    g = memo.get(board)
    if g is not None:
        return g
    opts = set()
    for v in range(CELLS):
        if (board >> v) & 1:
            opts.add(grundy(board & ~NB[v]))
    m = 0
    while m in opts:
        m += 1
    memo[board] = m
    return m


full = (1 << CELLS) - 1
top = grundy(full)
report(top, [grundy(full & ~m) for m in NB])
