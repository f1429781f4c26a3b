// Row (f), a tuned C++ baseline (`cpp-tuned` in bench/run.py), for information only: not the
// reference of any ratio or target (that is ../f_chomp.cpp, `cpp`). Three-row Chomp, every
// position a >= b >= c (1 <= a <= N) below Chomp(N, N, N), exactly as the reference computes it
// (a flat (N+1)^3 array of 16-bit values g[(a * S + b) * S + c] filled for increasing a, b, c;
// one `seen` array of 4S entries stamped with a counter), with one hand transformation of the
// loops that the rule does not state: the moves of each row are split where the rule's min()
// changes (taking from the bottom row at x gives (x, min(b, x), min(c, x)): (x, x, x) below c,
// (x, x, c) below b, (x, b, c) above), so that every loop walks the array with a fixed stride
// and no min() is left. That is worth 0.36 s instead of the reference's 0.54 s at N = 200 on
// the machine of RESULTS.md (1.5 times faster).
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../common.h"

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
        int x = 1;  // bottom row: Chomp(x, min(b, x), min(c, x)) for 1 <= x < a
        for (; x < c; ++x) seen[g[at(x, x, x)]] = stamp;
        for (; x < b; ++x) seen[g[at(x, x, c)]] = stamp;
        for (; x < a; ++x) seen[g[at(x, b, c)]] = stamp;
        for (x = 0; x < c; ++x) seen[g[at(a, x, x)]] = stamp;  // middle row: (a, x, min(c, x))
        for (; x < b; ++x) seen[g[at(a, x, c)]] = stamp;
        for (x = 0; x < c; ++x) seen[g[at(a, b, x)]] = stamp;  // top row: (a, b, x)
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
