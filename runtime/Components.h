// The parts of a board: a game over a set of cells whose moves each need some
// cells and clear some (ir::CellMoves, found by compiler/ir/CellMoves.cpp) is
// the sum of its components, and its value the xor of theirs. A component
// grows from its lowest cell through the supports of the moves legal on the
// whole board; a component in which no move is legal is worth 0 and left out.
// The engine's search and both backends' native searches value a successor
// of such a game this way, so each part is memoized once, whatever else is on
// the board, under its least image by the board's symmetries (a part moved,
// turned or reflected on the board is the same game), and two equal parts
// cancel.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "compiler/ir/Ir.h"

namespace gdsl {

// The most parts a board of 63 cells has.
inline constexpr int kMaxComponents = 63;

// Calls each(part) for every component of `cells` (>= 0) in which a move is
// legal, lowest cell first.
template <typename Each>
inline void forEachComponent(const ir::CellMoves& moves, uint64_t cells, Each&& each) {
  const uint64_t* require = moves.require.data();
  const uint64_t* support = moves.support.data();
  const uint32_t* start = moves.touchStart.data();
  const uint32_t* touching = moves.touching.data();
  uint64_t rest = cells;
  while (rest) {
    uint64_t part = rest & (0 - rest);
    uint64_t frontier = part;
    bool live = false;
    while (frontier) {
      auto c = static_cast<unsigned>(std::countr_zero(frontier));
      frontier &= frontier - 1;
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        uint32_t i = touching[k];
        if ((cells & require[i]) != require[i]) continue;
        live = true;
        uint64_t added = support[i] & cells & ~part;
        part |= added;
        frontier |= added;
      }
    }
    if (live) each(part);
    rest &= ~part;
  }
}

// The least image of `part` under the board's symmetries (ir::CellGrid):
// each orientation's image, shifted to the first row and column, when it is
// on the board. A part and its image are games with the same moves
// (compiler/ir/CellSymmetry.cpp), so the same value.
// The least column and row of `part`'s cells turned by orientation k of
// `grid` (before any shift).
inline void orientedCorner(const ir::CellGrid& grid, int k, uint64_t part, int& minX, int& minY) {
  const int8_t* xs = grid.x.data() + 64 * k;
  const int8_t* ys = grid.y.data() + 64 * k;
  minX = minY = 127;
  for (uint64_t rest = part; rest; rest &= rest - 1) {
    auto c = static_cast<unsigned>(std::countr_zero(rest));
    minX = std::min(minX, static_cast<int>(xs[c]));
    minY = std::min(minY, static_cast<int>(ys[c]));
  }
}

inline uint64_t canonicalPart(const ir::CellGrid& grid, uint64_t part) {
  uint64_t best = part;
  for (int k = 0; k < grid.orientations; ++k) {
    const int8_t* xs = grid.x.data() + 64 * k;
    const int8_t* ys = grid.y.data() + 64 * k;
    int minX = 0, minY = 0;
    orientedCorner(grid, k, part, minX, minY);
    uint64_t image = 0;
    for (uint64_t rest = part; rest; rest &= rest - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(rest));
      int x = xs[c] - minX, y = ys[c] - minY;
      if (x >= grid.width || y >= grid.height) {
        image = ~uint64_t{0};  // off the grid
        break;
      }
      image |= uint64_t{1} << (y * grid.width + x);
    }
    if ((image & ~grid.cells) == 0 && image < best) best = image;
  }
  return best;
}

// The components of board `cells` into `out` (room for kMaxComponents), each
// as its least image under the board's symmetries (`canonical(part)`, by
// default canonicalPart), in increasing order, with pairs of equal ones left
// out (a part plus the same part is worth 0); their number, or -1 when the
// board is valued whole: negative, or holding a cell outside moves.safe.
template <typename Canonical>
inline int splitComponents(const ir::CellMoves& moves, int64_t board, int64_t* out,
                           Canonical&& canonical) {
  if (board < 0 || (static_cast<uint64_t>(board) & ~moves.safe) != 0) return -1;
  auto cells = static_cast<uint64_t>(board);
  int n = 0;
  forEachComponent(moves, cells,
                   [&](uint64_t part) { out[n++] = static_cast<int64_t>(canonical(part)); });
  if (n < 2) return n;
  std::sort(out, out + n);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    if (i + 1 < n && out[i] == out[i + 1]) {
      ++i;  // x + x = 0
      continue;
    }
    out[kept++] = out[i];
  }
  return kept;
}

inline int splitComponents(const ir::CellMoves& moves, int64_t board, int64_t* out) {
  return splitComponents(moves, board, out,
                         [&](uint64_t part) { return canonicalPart(moves.grid, part); });
}

}  // namespace gdsl
