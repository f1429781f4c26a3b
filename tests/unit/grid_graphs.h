// Grids for tests of games on boards written as bitmasks: cell (x, y) of a
// w x h grid is bit y * w + x.
#pragma once

#include <cstdint>
#include <vector>

namespace testing {

// The closed neighbourhood of each cell of the w x h grid (the cell and its
// left, right, upper and lower neighbours), as a bitmask.
inline std::vector<uint64_t> gridNeighbourhoods(int w, int h) {
  std::vector<uint64_t> nb;
  for (int v = 0; v < w * h; ++v) {
    int x = v % w, y = v / w;
    uint64_t m = uint64_t{1} << v;
    if (x > 0) m |= uint64_t{1} << (v - 1);
    if (x < w - 1) m |= uint64_t{1} << (v + 1);
    if (y > 0) m |= uint64_t{1} << (v - w);
    if (y < h - 1) m |= uint64_t{1} << (v + w);
    nb.push_back(m);
  }
  return nb;
}

}  // namespace testing
