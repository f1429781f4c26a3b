// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../c_cut.cpp, the same computation with its arrays reused.
// Row (c): the cutting game, every Cut(w, h) for 2 <= w, h <= W. A cut along a grid line splits
// the sheet in two; no piece may be 1 wide. Positions are normalized to w <= h and filled in an
// order where every option is already known; a vector of options and a mex per position.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int W = argc > 1 ? std::atoi(argv[1]) : 600;
  std::vector<std::vector<int>> g(W + 1, std::vector<int>(W + 1, 0));
  auto get = [&](int w, int h) { return g[std::min(w, h)][std::max(w, h)]; };
  for (int w = 2; w <= W; ++w)
    for (int h = w; h <= W; ++h) {
      std::vector<int> opts;
      for (int a = 2; a <= w - 2; ++a) opts.push_back(get(a, h) ^ get(w - a, h));
      for (int b = 2; b <= h - 2; ++b) opts.push_back(get(w, b) ^ get(w, h - b));
      std::vector<char> seen(opts.size() + 1, 0);
      for (int o : opts)
        if (o < (int)seen.size()) seen[o] = 1;
      int m = 0;
      while (seen[m]) ++m;
      g[w][h] = m;
    }
  Checksum c;
  for (int w = 2; w <= W; ++w)
    for (int h = 2; h <= W; ++h) c.add(get(w, h));
  report(get(W, W), c);
}
