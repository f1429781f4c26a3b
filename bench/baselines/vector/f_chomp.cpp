// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../f_chomp.cpp, the same computation with its arrays reused.
// Row (f): three-row Chomp, every position a >= b >= c (1 <= a <= N) below Chomp(N, N, N).
// Rows of a >= b >= c squares; a move takes a square and every square above and right of it,
// never the poisoned bottom-left one. A dense (N+1)^3 array filled for increasing a, b, c
// (every option is lexicographically smaller, so already known); a vector of options and a
// mex per position.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 200;
  const long long S = N + 1;
  std::vector<int> g(S * S * S, 0);
  auto at = [&](int a, int b, int c) -> int& { return g[(a * S + b) * S + c]; };
  for (int a = 1; a <= N; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) {
        std::vector<int> opts;
        for (int x = 1; x < a; ++x) opts.push_back(at(x, std::min(b, x), std::min(c, x)));
        for (int x = 0; x < b; ++x) opts.push_back(at(a, x, std::min(c, x)));
        for (int x = 0; x < c; ++x) opts.push_back(at(a, b, x));
        std::vector<char> seen(opts.size() + 1, 0);
        for (int o : opts)
          if (o < (int)seen.size()) seen[o] = 1;
        int m = 0;
        while (seen[m]) ++m;
        at(a, b, c) = m;
      }
  Checksum c;  // every position 1 <= a <= N, 0 <= b <= a, 0 <= c <= b, in lexicographic order
  for (int a = 1; a <= N; ++a)
    for (int b = 0; b <= a; ++b)
      for (int cc = 0; cc <= b; ++cc) c.add(at(a, b, cc));
  report(N >= 1 ? at(N, N, N) : 0, c);
}
