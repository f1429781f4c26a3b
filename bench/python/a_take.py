"""Row (a): take k in 1..n tokens with k % 3 != 0; g(0..N), bottom-up (a recursive memo would
be N deep), the options of each heap in a list, then the mex."""
import sys

from common import report


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
    g = [0] * (N + 1)
    for n in range(N + 1):
        opts = set(g[n - k] for k in range(1, n + 1) if k % 3 != 0)
        m = 0
        while m in opts:
            m += 1
        g[n] = m
    report(g[N], g)


main()
