"""Row (f): three-row Chomp, every position a >= b >= c (1 <= a <= N) below Chomp(N, N, N), in a
dict keyed by (a, b, c) filled bottom-up for increasing a, b, c (every option is
lexicographically smaller, so already known; a recursive memo would be 3N deep). The options
of each position go into a set, then the mex."""
import sys

from common import report


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    g = {}
    for a in range(1, N + 1):
        for b in range(a + 1):
            for c in range(b + 1):
                opts = set()
                for x in range(1, a):
                    opts.add(g[(x, min(b, x), min(c, x))])
                for x in range(b):
                    opts.add(g[(a, x, min(c, x))])
                for x in range(c):
                    opts.add(g[(a, b, x)])
                m = 0
                while m in opts:
                    m += 1
                g[(a, b, c)] = m
    report(g[(N, N, N)] if N >= 1 else 0,
           (g[(a, b, c)] for a in range(1, N + 1) for b in range(a + 1) for c in range(b + 1)))


main()
