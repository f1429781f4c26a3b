// Row (a), a tuned C++ baseline (`cpp-tuned` in bench/run.py), for information only: not the
// reference of any ratio or target (that is ../a_take.cpp, `cpp`). Take k in 1..n tokens with
// k % 3 != 0, every value g(0..N), exactly as the reference computes it (one table g filled
// bottom-up, one `seen` array stamped with the heap's number, N + 2 entries since a value is at
// most the number of options), with one hand transformation of the loop that the rule does not
// state: the test k % 3 != 0 is replaced by the two strided loops k = 1, 4, 7, ... and
// k = 2, 5, 8, ..., which visit the same options without the test. That is worth 0.32 s instead
// of the reference's 0.72 s at N = 50000 on the machine of RESULTS.md (2.2 times faster).
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 50000;
  std::vector<uint32_t> g(N + 1, 0), seen(N + 2, 0);
  for (int n = 0; n <= N; ++n) {
    const uint32_t stamp = n + 1;
    for (int k = 1; k <= n; k += 3) seen[g[n - k]] = stamp;
    for (int k = 2; k <= n; k += 3) seen[g[n - k]] = stamp;
    uint32_t m = 0;
    while (seen[m] == stamp) ++m;
    g[n] = m;
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
}
