// Row (a), the reference C++ (`cpp` in bench/run.py): take k in 1..n tokens with k % 3 != 0,
// every value g(0..N). Written as a good programmer writes it for speed, with nothing allocated
// per heap: one table g filled bottom-up (g[n] needs only g[0..n-1]), and one `seen` array
// reused for every mex by stamping it with the heap's number instead of clearing it (seen[v] ==
// n + 1 means that value v is an option of heap n). A value is at most the number of options,
// so `seen` needs N + 2 entries. The loop and its test are the rule's own (games/a_take.game:
// `k in 1..n when k % 3 != 0`): every k is walked and the test stays a test.
// tuned/a_take.cpp replaces the test by two strided loops (`cpp-tuned`, for information), and
// vector/a_take.cpp is the contest-style version (a std::vector of options per heap).
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 50000;
  std::vector<uint32_t> g(N + 1, 0), seen(N + 2, 0);
  for (int n = 0; n <= N; ++n) {
    const uint32_t stamp = n + 1;
    for (int k = 1; k <= n; ++k)
      if (k % 3 != 0) seen[g[n - k]] = stamp;
    uint32_t m = 0;
    while (seen[m] == stamp) ++m;
    g[n] = m;
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
}
