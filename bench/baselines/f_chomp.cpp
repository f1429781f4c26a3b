// Row (f), the reference C++ (`cpp` in bench/run.py): three-row Chomp, every position
// a >= b >= c (1 <= a <= N) below Chomp(N, N, N). Rows of a >= b >= c squares; a move takes a
// square and every square above and right of it, never the poisoned bottom-left one. A flat
// (N+1)^3 array of 16-bit values, g[(a * S + b) * S + c], filled for increasing a, b, c (every
// option is lexicographically smaller, so already known); no allocation per position: one
// `seen` array reused for every mex, stamped with a counter instead of cleared (a value is at
// most the number of moves, below 3N + 3, so 4S entries). The loops are the rule's own
// (games/f_chomp.game): one per row of the board, each option with the rule's min(), e.g.
// Chomp(x, min(b, x), min(c, x)) for the bottom row. tuned/f_chomp.cpp splits these loops where
// the min() changes (`cpp-tuned`, for information), and vector/f_chomp.cpp is the contest-style
// version (a std::vector of options per position).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 200;
  const long S = N + 1;
  std::vector<uint16_t> g(S * S * S, 0);
  std::vector<uint32_t> seen(4 * S, 0);
  auto at = [S](long a, long b, long c) { return (a * S + b) * S + c; };
  uint32_t stamp = 0;
  for (int a = 1; a <= N; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) {
        ++stamp;
        for (int x = 1; x < a; ++x) seen[g[at(x, std::min(b, x), std::min(c, x))]] = stamp;
        for (int x = 0; x < b; ++x) seen[g[at(a, x, std::min(c, x))]] = stamp;
        for (int x = 0; x < c; ++x) seen[g[at(a, b, x)]] = stamp;
        uint32_t m = 0;
        while (seen[m] == stamp) ++m;
        g[at(a, b, c)] = m;
      }
  Checksum ck;  // every position 1 <= a <= N, 0 <= b <= a, 0 <= c <= b, in lexicographic order
  for (int a = 1; a <= N; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) ck.add(g[at(a, b, c)]);
  report(N >= 1 ? g[at(N, N, N)] : 0, ck);
}
