// The bit-parallel indexes of a board that splits (ir::CellIndex).
//
// Families: moves are grouped by shape, the cells they need and read taken
// relative to the lowest cell they read (the anchor). With every move in a
// few families, the moves legal on a board are, per family, the anchors whose
// needed cells are all set (one shift and one `and` per needed cell), and the
// part grown from a set of cells is found a word at a time
// (runtime/Components.h).
//
// Images: each orientation of the grid moves a cell to a column and row;
// shifted so the board's cells start at column 0 and row 0, a part's image is
// the `or` of its nibbles' images, a table of 16 entries per nibble.
#include "compiler/ir/CellIndex.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

namespace gdsl::ir {
namespace {

// The cells of `cells` as a list into `out`, or false past 8 cells.
bool offsets(uint64_t cells, std::array<uint8_t, 8>& out, uint8_t& count) {
  count = 0;
  for (uint64_t rest = cells; rest; rest &= rest - 1) {
    if (count == 8) return false;
    out[count++] = static_cast<uint8_t>(std::countr_zero(rest));
  }
  return true;
}

std::vector<CellFamily> findFamilies(const CellMoves& moves, bool& repeatedMoves) {
  std::map<std::pair<uint64_t, uint64_t>, size_t> byShape;
  std::vector<CellFamily> families;
  for (size_t i = 0; i < moves.require.size(); ++i) {
    int anchor = std::countr_zero(moves.support[i]);
    std::pair<uint64_t, uint64_t> shape{moves.require[i] >> anchor, moves.support[i] >> anchor};
    auto [at, added] = byShape.emplace(shape, families.size());
    if (added) {
      if (families.size() == CellIndex::kMaxFamilies) return {};
      CellFamily f;
      if (!offsets(shape.first, f.need, f.needCount) || !offsets(shape.second, f.span, f.spanCount))
        return {};
      families.push_back(f);
    }
    uint64_t& anchors = families[at->second].anchors;
    repeatedMoves = repeatedMoves || ((anchors >> anchor) & 1) != 0;
    anchors |= uint64_t{1} << anchor;
  }
  return families;
}

// Fills index.images and index.frames, or leaves them empty when an
// orientation's frame does not fit in a word.
void findImages(const CellGrid& grid, CellIndex& index) {
  if (grid.orientations == 0) return;
  std::vector<uint64_t> images(static_cast<size_t>(grid.orientations) * 16 * 16, 0);
  std::vector<uint8_t> frames;
  for (int k = 0; k < grid.orientations; ++k) {
    const int8_t* xs = grid.x.data() + 64 * k;
    const int8_t* ys = grid.y.data() + 64 * k;
    int minX = 127, minY = 127, maxX = -128, maxY = -128;
    for (uint64_t rest = grid.cells; rest; rest &= rest - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(rest));
      minX = std::min(minX, static_cast<int>(xs[c]));
      minY = std::min(minY, static_cast<int>(ys[c]));
      maxX = std::max(maxX, static_cast<int>(xs[c]));
      maxY = std::max(maxY, static_cast<int>(ys[c]));
    }
    const int frame = maxX - minX + 1;
    if (frame * (maxY - minY + 1) > 64) return;
    frames.push_back(static_cast<uint8_t>(frame));
    uint64_t placed[64] = {};
    for (uint64_t rest = grid.cells; rest; rest &= rest - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(rest));
      placed[c] = uint64_t{1} << ((ys[c] - minY) * frame + xs[c] - minX);
    }
    for (int j = 0; j < 16; ++j)
      for (int v = 0; v < 16; ++v) {
        uint64_t image = 0;
        for (int b = 0; b < 4; ++b)
          if ((v >> b) & 1) image |= placed[4 * j + b];
        images[static_cast<size_t>((16 * k + j) * 16 + v)] = image;
      }
  }
  index.images = std::move(images);
  index.frames = std::move(frames);
  for (int c = 0; c < 64; ++c) {
    index.rowOf[static_cast<size_t>(c)] = static_cast<uint8_t>(c / grid.width);
    if (c % grid.width == 0) index.firstColumn |= uint64_t{1} << c;
  }
}

}  // namespace

CellIndex indexCellMoves(const CellMoves& moves) {
  CellIndex index;
  index.families = findFamilies(moves, index.repeatedMoves);
  index.pairFamilies =
      !index.families.empty() && std::all_of(index.families.begin(), index.families.end(),
                                             [](const CellFamily& f) { return f.spanCount == 2; });
  findImages(moves.grid, index);
  return index;
}

}  // namespace gdsl::ir
