"""Row (d): Moore's Nim_2 on four heaps of 0..H, a recursive memo on the sorted heaps (the
recursion is at most 4H deep). M([H, H, H, H]) reaches every sorted position."""
import sys
from itertools import combinations_with_replacement

from common import report

memo = {}


def grundy(h):
    h = tuple(sorted(h))
    if h in memo:
        return memo[h]
    opts = set()
    k = len(h)
    for i in range(k):
        for x in range(h[i]):
            q = list(h)
            q[i] = x
            opts.add(grundy(q))
    for i in range(k):
        for j in range(i + 1, k):
            for x in range(h[i]):
                for y in range(h[j]):
                    q = list(h)
                    q[i] = x
                    q[j] = y
                    opts.add(grundy(q))
    m = 0
    while m in opts:
        m += 1
    memo[h] = m
    return m


def main():
    H = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    top = grundy((H, H, H, H))
    report(top, (grundy(t) for t in combinations_with_replacement(range(H + 1), 4)))


main()
