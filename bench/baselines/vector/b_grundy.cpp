// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../b_grundy.cpp, the same computation with its arrays reused.
// Row (b): Grundy's game (split a heap into two unequal non-empty heaps), g(0..N) by the plain
// O(N^2) method: every split of every heap, a vector of options and a mex per heap.
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::vector<int> g(N + 1, 0);
  for (int n = 0; n <= N; ++n) {
    std::vector<int> opts;
    for (int a = 1; 2 * a < n; ++a) opts.push_back(g[a] ^ g[n - a]);
    std::vector<char> seen(opts.size() + 1, 0);
    for (int o : opts)
      if (o < (int)seen.size()) seen[o] = 1;
    int m = 0;
    while (seen[m]) ++m;
    g[n] = m;
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
}
