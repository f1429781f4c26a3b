// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../a_take.cpp, the same computation with its arrays reused.
// Row (a): take k in 1..n tokens with k % 3 != 0. g(0..N), written as a contestant would:
// collect the options of each heap in a vector, then the mex with a seen array.
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 50000;
  std::vector<int> g(N + 1, 0);
  for (int n = 0; n <= N; ++n) {
    std::vector<int> opts;
    for (int k = 1; k <= n; ++k)
      if (k % 3 != 0) opts.push_back(g[n - k]);
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
