"""Row (b): Grundy's game by the plain method; g(0..N) bottom-up, every unequal split."""
import sys

from common import report


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    g = [0] * (N + 1)
    for n in range(N + 1):
        opts = set(g[a] ^ g[n - a] for a in range(1, (n + 1) // 2))
        m = 0
        while m in opts:
            m += 1
        g[n] = m
    report(g[N], g)


main()
