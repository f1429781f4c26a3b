// Grids for tests of games on boards written as bitmasks: cell (x, y) of a
// w x h grid is bit y * w + x.
#pragma once

#include <cstdint>
#include <string>
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

// Cram on a w x h grid (a domino on two free cells side by side), written
// the plain way, as the issue that asked for boards writes it.
inline std::string cramSource(int w, int h) {
  return "const W = " + std::to_string(w) + "\nconst H = " + std::to_string(h) +
         "\n"
         "game Cram(b) {\n"
         "  move hor(v in 0..W * H - 1) when v % W < W - 1 and (b >> v) & 3 == 3 -> "
         "Cram(b & ~(3 << v))\n"
         "  move ver(v in 0..W * (H - 1) - 1) when (b >> v) & 1 == 1 and (b >> (v + W)) & 1 == 1\n"
         "    -> Cram(b & ~((1 << v) | (1 << (v + W))))\n"
         "}\n";
}

}  // namespace testing
