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
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl {

// The most parts a board of 63 cells has.
inline constexpr int kMaxComponents = 63;

// Calls each(part) for every component of `cells` (>= 0) in which a move is
// legal, lowest cell first: cell by cell, through the moves touching each
// (the reference for forEachComponent, and its way when the moves have too
// many shapes to index).
template <typename Each>
inline void forEachComponentByCells(const ir::CellMoves& moves, uint64_t cells, Each&& each) {
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

// The anchors of the moves of `family` legal on `cells`.
inline uint64_t legalAnchors(const ir::CellFamily& family, uint64_t cells) {
  uint64_t anchors = family.anchors;
  for (int k = 0; k < family.needCount; ++k) anchors &= cells >> family.need[k];
  return anchors;
}

// The columns of `cells` laid out in rows of `width`: every row folded onto
// the first (its bits 0..width-1; the bits above are left as they fall).
inline uint64_t foldedRows(uint64_t cells, int width) {
  for (int s = width; s < 64; s *= 2) cells |= cells >> s;
  return cells;
}

// forEachComponent for moves that each read two cells (ir::CellIndex::
// pairFamilies), with `kFamilies` families: a legal move of family f links
// its anchor a with cell a + d_f, so a part grows, per family, by the cells
// d_f above its cells that are anchors and d_f below its cells that are
// anchors' partners, every family in one step: a few word operations per
// step, with no loop over the cells a family reads.
template <size_t kFamilies, typename Each>
inline void forEachPairComponent(const ir::CellMoves& moves, uint64_t cells, Each&& each) {
  const ir::CellFamily* families = moves.index.families.data();
  uint64_t up[kFamilies], down[kFamilies];
  unsigned shift[kFamilies];
  uint64_t live = 0;
  for (size_t f = 0; f < kFamilies; ++f) {
    shift[f] = families[f].span[1];
    up[f] = legalAnchors(families[f], cells);
    down[f] = up[f] << shift[f];
    live |= up[f] | down[f];
  }
  uint64_t rest = cells & live;
  while (rest) {
    uint64_t part = rest & (0 - rest);
    for (;;) {
      uint64_t grown = part;
      for (size_t f = 0; f < kFamilies; ++f)
        grown |= ((part & up[f]) << shift[f]) | ((part & down[f]) >> shift[f]);
      grown &= cells;
      if (grown == part) break;
      part = grown;
    }
    each(part);
    rest &= ~part;
  }
}

// The same components, a word at a time through the move families
// (ir::CellIndex): per family, the anchors of the legal moves; the cells no
// legal move reads are left out at once, and a part grows by the moves
// whose cells meet the cells it gained last.
template <typename Each>
inline void forEachComponent(const ir::CellMoves& moves, uint64_t cells, Each&& each) {
  const std::vector<ir::CellFamily>& families = moves.index.families;
  if (families.empty()) return forEachComponentByCells(moves, cells, each);
  const size_t count = families.size();
  if (moves.index.pairFamilies) {
    switch (count) {
      case 1:
        return forEachPairComponent<1>(moves, cells, each);
      case 2:
        return forEachPairComponent<2>(moves, cells, each);
      case 3:
        return forEachPairComponent<3>(moves, cells, each);
      case 4:
        return forEachPairComponent<4>(moves, cells, each);
      default:
        break;
    }
  }
  uint64_t legal[ir::CellIndex::kMaxFamilies];
  uint64_t live = 0;
  for (size_t f = 0; f < count; ++f) {
    const ir::CellFamily& family = families[f];
    uint64_t anchors = legalAnchors(family, cells);
    legal[f] = anchors;
    for (int k = 0; k < family.spanCount; ++k) live |= anchors << family.span[k];
  }
  uint64_t rest = cells & live;
  while (rest) {
    uint64_t part = rest & (0 - rest);
    uint64_t gained = part;
    while (gained) {
      uint64_t grown = 0;
      for (size_t f = 0; f < count; ++f) {
        const ir::CellFamily& family = families[f];
        uint64_t near = 0;
        for (int k = 0; k < family.spanCount; ++k) near |= gained >> family.span[k];
        uint64_t touched = legal[f] & near;
        if (!touched) continue;
        for (int k = 0; k < family.spanCount; ++k) grown |= touched << family.span[k];
      }
      gained = grown & cells & ~part;
      part |= gained;
    }
    each(part);
    rest &= ~part;
  }
}

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

// `part` turned by orientation k of `grid` and shifted to the first row and
// column, cell by cell (the reference for forEachImage); all ones when it
// is wider or taller than the grid.
inline uint64_t orientedImage(const ir::CellGrid& grid, int k, uint64_t part) {
  const int8_t* xs = grid.x.data() + 64 * k;
  const int8_t* ys = grid.y.data() + 64 * k;
  int minX = 0, minY = 0;
  orientedCorner(grid, k, part, minX, minY);
  uint64_t image = 0;
  for (uint64_t rest = part; rest; rest &= rest - 1) {
    auto c = static_cast<unsigned>(std::countr_zero(rest));
    int x = xs[c] - minX, y = ys[c] - minY;
    if (x >= grid.width || y >= grid.height) return ~uint64_t{0};  // off the grid
    image |= uint64_t{1} << (y * grid.width + x);
  }
  return image;
}

// The least image of `part` under the board's symmetries (ir::CellGrid):
// each orientation's image, shifted to the first row and column, when it is
// on the board. A part and its image are games with the same moves
// (compiler/ir/CellSymmetry.cpp), so the same value.
inline uint64_t canonicalPart(const ir::CellGrid& grid, uint64_t part) {
  uint64_t best = part;
  for (int k = 0; k < grid.orientations; ++k) {
    uint64_t image = orientedImage(grid, k, part);
    if ((image & ~grid.cells) == 0 && image < best) best = image;
  }
  return best;
}

// The bits of `x` in the opposite order (bit i to bit 63 - i).
inline uint64_t reversedBits(uint64_t x) {
  x = __builtin_bswap64(x);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  return ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
}

// `cells` laid out in rows of some width, its column 0 `firstColumn`, in
// columns 0..span, mirrored: column x to column span - x.
inline uint64_t mirroredColumns(uint64_t cells, int span, uint64_t firstColumn) {
  uint64_t out = 0;
  for (int x = 0; x <= span; ++x) out |= ((cells >> x) & firstColumn) << (span - x);
  return out;
}

// Calls each(k, image) for every orientation k of the grid under which
// `part` turned and shifted to the first row and column lies in the grid's
// width and height. The orientations that keep rows as rows (kinds 0, 2, 4
// and 6: compiler/ir/CellSymmetry.cpp) are a few shifts of the whole word,
// from the part's bounding box: the half turn is the word's bits reversed,
// a reflection across a column the part's columns mirrored. A quarter turn
// (odd kind) goes through the orientation's tables
// (ir::CellIndex::images): the `or` of its nibbles' images, its least row
// its lowest cell's, its least column its rows folded onto the first; it
// is skipped at once when the part turned would be wider or taller than
// the grid (on a board that is not square, most parts). Needs
// moves.index.images, and a part with a cell.
template <typename Each>
inline void forEachImage(const ir::CellMoves& moves, uint64_t part, Each&& each) {
  const ir::CellGrid& grid = moves.grid;
  const ir::CellIndex& index = moves.index;
  const int width = grid.width;
  // The bounding box: rows minRow..maxRow, columns minCol..maxCol.
  const int minRow = index.rowOf[static_cast<size_t>(std::countr_zero(part))];
  const int maxRow = index.rowOf[static_cast<size_t>(63 - std::countl_zero(part))];
  const uint64_t partColumns = foldedRows(part, width) & ((uint64_t{2} << (width - 1)) - 1);
  const int minCol = std::countr_zero(partColumns), maxCol = 63 - std::countl_zero(partColumns);
  const int span = maxCol - minCol;
  // The cell at the box's last row and column, where the half turn puts
  // the first: past the word only on a board whose last row is cut short.
  const int corner = maxRow * width + maxCol;
  const bool turnFits = maxRow - minRow < width && span < grid.height;
  uint64_t nibbles[16];  // 16 * index + value (for the tables)
  int n = -1;            // (not gathered yet)
  for (int k = 0; k < grid.orientations; ++k) {
    const int kind = grid.kinds[static_cast<size_t>(k)];
    if (kind == 0) {
      each(k, part >> (minRow * width + minCol));
      continue;
    }
    if (kind == 2) {  // x to -x
      each(k, mirroredColumns(part >> (minRow * width + minCol), span, index.firstColumn));
      continue;
    }
    if ((kind == 4 || kind == 6) && corner < 64) {
      uint64_t halfTurn = reversedBits(part) >> (63 - corner);
      each(k, kind == 6 ? halfTurn : mirroredColumns(halfTurn, span, index.firstColumn));
      continue;
    }
    if ((kind & 1) && !turnFits) continue;
    if (n < 0) {
      n = 0;
      for (uint64_t rest = part; rest;) {
        int j = std::countr_zero(rest) >> 2;
        nibbles[n++] = static_cast<uint64_t>(16 * j) + ((part >> (4 * j)) & 15);
        rest &= ~(uint64_t{15} << (4 * j));
      }
    }
    const uint64_t* table = index.images.data() + 256 * k;
    uint64_t image = 0;
    for (int i = 0; i < n; ++i) image |= table[nibbles[i]];
    const int frame = index.frames[static_cast<size_t>(k)];
    uint64_t columns = foldedRows(image, frame);
    int minX = std::countr_zero(columns);
    image >>= (std::countr_zero(image) / frame) * frame + minX;
    if (frame != width) {
      // Laid out again in rows of the grid's width, when it fits there.
      uint64_t row = (uint64_t{1} << frame) - 1;
      if (((columns & row) >> minX) >> width != 0) continue;
      int rows = (63 - std::countl_zero(image)) / frame + 1;
      if (rows > grid.height) continue;
      uint64_t laid = 0;
      for (int r = 0; r < rows; ++r) laid |= ((image >> (r * frame)) & row) << (r * width);
      image = laid;
    }
    each(k, image);
  }
}

// The most cells of a part whose least image canonicalPart may find
// through tables or cell by cell: every part without moves.index.images;
// else those a quarter turn may fit on the grid (forEachImage's tables),
// at most a square of the grid's shorter side, and none when the grid has
// no quarter turn. A larger part's images are all found by shifts.
inline int mostCellsImagedByTables(const ir::CellMoves& moves) {
  const ir::CellGrid& grid = moves.grid;
  if (moves.index.images.empty()) return 64;
  bool quarterTurns = false;
  for (int k = 0; k < grid.orientations; ++k)
    quarterTurns |= (grid.kinds[static_cast<size_t>(k)] & 1) != 0;
  const int side = std::min(grid.width, grid.height);
  return quarterTurns ? side * side : 0;
}

// canonicalPart, a word at a time (forEachImage).
inline uint64_t canonicalPart(const ir::CellMoves& moves, uint64_t part) {
  if (moves.index.images.empty()) return canonicalPart(moves.grid, part);
  uint64_t best = part;
  forEachImage(moves, part, [&](int, uint64_t image) {
    if ((image & ~moves.grid.cells) == 0 && image < best) best = image;
  });
  return best;
}

// The number of moves legal on `cells` (each move of the table counted,
// two with the same cells too).
inline uint32_t legalMoveCount(const ir::CellMoves& moves, uint64_t cells) {
  uint32_t legal = 0;
  if (moves.index.families.empty() || moves.index.repeatedMoves) {
    const uint64_t* require = moves.require.data();
    for (size_t i = 0; i < moves.require.size(); ++i) legal += (cells & require[i]) == require[i];
    return legal;
  }
  for (const ir::CellFamily& family : moves.index.families)
    legal += static_cast<uint32_t>(std::popcount(legalAnchors(family, cells)));
  return legal;
}

// Sorts the `n` parts of `parts` and leaves out pairs of equal ones (a part
// plus the same part is worth 0); returns how many are left.
inline int cancelPairs(int64_t* parts, int n) {
  if (n < 2) return n;
  std::sort(parts, parts + n);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    if (i + 1 < n && parts[i] == parts[i + 1]) {
      ++i;  // x + x = 0
      continue;
    }
    parts[kept++] = parts[i];
  }
  return kept;
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
  return cancelPairs(out, n);
}

inline int splitComponents(const ir::CellMoves& moves, int64_t board, int64_t* out) {
  return splitComponents(moves, board, out,
                         [&](uint64_t part) { return canonicalPart(moves, part); });
}

}  // namespace gdsl
