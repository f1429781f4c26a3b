"""Row (c): the cutting game, every Cut(w, h) for 2 <= w, h <= W, with a memo dict keyed by the
normalized (min, max) sheet. Filled bottom-up (w <= h) so that every option is already known."""
import sys

from common import report


def main():
    W = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    memo = {}

    def get(w, h):
        return memo[(w, h) if w <= h else (h, w)]

    for w in range(2, W + 1):
        for h in range(w, W + 1):
            opts = set()
            for a in range(2, w - 1):
                opts.add(get(a, h) ^ get(w - a, h))
            for b in range(2, h - 1):
                opts.add(get(w, b) ^ get(w, h - b))
            m = 0
            while m in opts:
                m += 1
            memo[(w, h)] = m
    report(get(W, W), (get(w, h) for w in range(2, W + 1) for h in range(2, W + 1)))


main()
