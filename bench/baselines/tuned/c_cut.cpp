// Row (c), tuned (`cpp-tuned` in bench/run.py, for information, never a target): the cutting
// game, every Cut(w, h) for 2 <= w, h <= W, with a hand transformation the rule does not state:
// only the sheets w <= h are computed and each value is also written to its mirror, so that
// every option is one load from a row with no min/max (Cut(k, h) is sg[h * S + k], Cut(w, k)
// is sg[w * S + k], whichever side is larger). One flat (W+1) x (W+1) array of 16-bit values,
// filled for increasing w and then h (every option has a smaller side, so it is known), one
// `seen` array stamped with a counter instead of cleared. A value is at most the number of
// cuts, below 2W, so the xor of two is below 4W. 0.06-0.08 s against the reference's (the
// seed's program, c_cut.cpp) 0.14-0.19 s at W = 600 on the machine of RESULTS.md.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../common.h"

int main(int argc, char** argv) {
  int W = argc > 1 ? std::atoi(argv[1]) : 600;
  const int S = W + 1;
  std::vector<uint16_t> sg(S * S, 0);
  std::vector<uint32_t> seen(4 * S, 0);
  uint32_t stamp = 0;
  for (int w = 2; w <= W; ++w)
    for (int h = w; h <= W; ++h) {
      ++stamp;
      const uint16_t* rw = &sg[w * S];  // Cut(w, k) for every k
      const uint16_t* rh = &sg[h * S];  // Cut(k, h) for every k < w (the mirrors)
      for (int k = 2; k <= w - 2; ++k) seen[rh[k] ^ rh[w - k]] = stamp;
      for (int k = 2; k <= h - 2; ++k) seen[rw[k] ^ rw[h - k]] = stamp;
      uint32_t m = 0;
      while (seen[m] == stamp) ++m;
      sg[w * S + h] = sg[h * S + w] = m;
    }
  Checksum c;
  for (int w = 2; w <= W; ++w)
    for (int h = 2; h <= W; ++h) c.add(sg[w * S + h]);
  report(sg[W * S + W], c);
}
