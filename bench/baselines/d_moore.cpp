// Row (d), the reference C++ (`cpp` in bench/run.py): Moore's Nim_2 on four heaps of 0..H
// (reduce one heap, or two heaps at once, each by a positive amount), the value of
// M([H, H, H, H]) and of every sorted position a <= b <= c <= d below it. No recursion and no
// allocation per position: a flat (H+1)^4 array of 16-bit values indexed by the sorted heaps,
// filled for the sorted positions in lexicographic order (a move lowers heaps, so each option,
// sorted, is lexicographically smaller and already known); each option is sorted by a
// five-comparison network, and one `seen` array is reused for every mex, stamped with a counter
// instead of cleared (a value is at most the number of options, below 2^16).
// vector/d_moore.cpp is the contest-style version (a memoized recursion with a std::vector of
// options per position).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common.h"

static int S;  // H + 1

// The index of the position with heaps p0..p3, sorted first.
static inline int key(int p0, int p1, int p2, int p3) {
  if (p0 > p1) std::swap(p0, p1);
  if (p2 > p3) std::swap(p2, p3);
  if (p0 > p2) std::swap(p0, p2);
  if (p1 > p3) std::swap(p1, p3);
  if (p1 > p2) std::swap(p1, p2);
  return ((p0 * S + p1) * S + p2) * S + p3;
}

int main(int argc, char** argv) {
  int H = argc > 1 ? std::atoi(argv[1]) : 20;
  S = H + 1;
  std::vector<uint16_t> g(S * S * S * S, 0);
  std::vector<uint32_t> seen(1 << 16, 0);
  uint32_t stamp = 0;
  int p[4];
  for (p[0] = 0; p[0] <= H; ++p[0])
    for (p[1] = p[0]; p[1] <= H; ++p[1])
      for (p[2] = p[1]; p[2] <= H; ++p[2])
        for (p[3] = p[2]; p[3] <= H; ++p[3]) {
          ++stamp;
          int q[4];
          for (int i = 0; i < 4; ++i) {  // one heap reduced
            for (int k = 0; k < 4; ++k) q[k] = p[k];
            for (int x = 0; x < p[i]; ++x) {
              q[i] = x;
              seen[g[key(q[0], q[1], q[2], q[3])]] = stamp;
            }
          }
          for (int i = 0; i < 4; ++i)  // two heaps reduced
            for (int j = i + 1; j < 4; ++j) {
              for (int k = 0; k < 4; ++k) q[k] = p[k];
              for (int x = 0; x < p[i]; ++x)
                for (int y = 0; y < p[j]; ++y) {
                  q[i] = x;
                  q[j] = y;
                  seen[g[key(q[0], q[1], q[2], q[3])]] = stamp;
                }
            }
          uint32_t m = 0;
          while (seen[m] == stamp) ++m;
          g[key(p[0], p[1], p[2], p[3])] = m;
        }
  Checksum c;  // every sorted position a <= b <= c <= d, in lexicographic order
  for (int a = 0; a <= H; ++a)
    for (int b = a; b <= H; ++b)
      for (int cc = b; cc <= H; ++cc)
        for (int d = cc; d <= H; ++d) c.add(g[key(a, b, cc, d)]);
  report(g[key(H, H, H, H)], c);
}
