// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../d_moore.cpp, the same computation with its arrays reused.
// Row (d): Moore's Nim_2 on four heaps of 0..H: reduce one heap, or two heaps at once, each by
// a positive amount. Memoized recursion on the sorted heaps (a dense (H+1)^4 memo), a vector of
// options and a mex per position. Computes M([H, H, H, H]), which reaches every sorted position.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "../common.h"

using Pos = std::array<int, 4>;
static int H;
static std::vector<int> memo;

static int key(const Pos& p) {
  return ((p[0] * (H + 1) + p[1]) * (H + 1) + p[2]) * (H + 1) + p[3];
}

static int grundy(Pos p) {
  std::sort(p.begin(), p.end());
  int& slot = memo[key(p)];
  if (slot >= 0) return slot;
  std::vector<int> opts;
  for (int i = 0; i < 4; ++i)
    for (int x = 0; x < p[i]; ++x) {
      Pos q = p;
      q[i] = x;
      opts.push_back(grundy(q));
    }
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      for (int x = 0; x < p[i]; ++x)
        for (int y = 0; y < p[j]; ++y) {
          Pos q = p;
          q[i] = x;
          q[j] = y;
          opts.push_back(grundy(q));
        }
  std::vector<char> seen(opts.size() + 1, 0);
  for (int o : opts)
    if (o < (int)seen.size()) seen[o] = 1;
  int m = 0;
  while (seen[m]) ++m;
  slot = m;
  return m;
}

int main(int argc, char** argv) {
  H = argc > 1 ? std::atoi(argv[1]) : 20;
  memo.assign((H + 1) * (H + 1) * (H + 1) * (H + 1), -1);
  int top = grundy({H, H, H, H});
  Checksum c;  // every sorted position a <= b <= c <= d, in lexicographic order
  for (int a = 0; a <= H; ++a)
    for (int b = a; b <= H; ++b)
      for (int cc = b; cc <= H; ++cc)
        for (int d = cc; d <= H; ++d) c.add(grundy({a, b, cc, d}));
  report(top, c);
}
