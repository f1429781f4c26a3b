// Row (b), the reference C++ (`cpp` in bench/run.py): Grundy's game (split a heap into two
// unequal non-empty heaps), g(0..N) by the plain O(N^2) method, every split a < n - a of every
// heap. Nothing is allocated per heap: one table g filled bottom-up, and one `seen` array reused
// for every mex by stamping it with the heap's number instead of clearing it (seen[v] == n + 1
// means that v is an option of heap n). A value is at most the number of splits, below N / 2, so
// the xor of two values is below N and `seen` needs N + 2 entries. vector/b_grundy.cpp is the
// contest-style version (a std::vector of options per heap).
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::vector<uint32_t> g(N + 1, 0), seen(N + 2, 0);
  for (int n = 0; n <= N; ++n) {
    const uint32_t stamp = n + 1;
    for (int a = 1; 2 * a < n; ++a) seen[g[a] ^ g[n - a]] = stamp;
    uint32_t m = 0;
    while (seen[m] == stamp) ++m;
    g[n] = m;
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
}
