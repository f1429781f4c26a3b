// Finding a board's symmetries from its cell moves (ir::CellGrid).
//
// Lay the cells out in rows of W: cell c at (c % W, c / W). Take a map g of
// the plane, one of the 8 turns and reflections followed by a shift, and a
// position P (a set of cells) whose image g(P) is on the board B too. The
// games P and g(P) have the same moves, so the same value, when
//
//   (C) for every move m whose needed cells g maps onto the board, some move
//       m' needs exactly g(need m) and clears the same cells of B ∩ g(B):
//       clear m' ∩ B ∩ g(B) = g(clear m) ∩ B,
//
// checked for every shift; with g^-1 among the maps kept (the two quarter
// turns are kept together), each move of g(P) comes back the same way. For a
// legal move m of P, the option P \ clear m goes to g(P) \ clear m', which is
// an option of g(P). An orientation is kept
// when (C) holds for it with every shift; a width W when the identity (the
// shifts alone) is kept, and of those widths the one with the most
// orientations (the smallest on ties). The check is bounded by kBudget cell
// visits; past it the board is taken to have no symmetry, which only costs
// memo sharing, never a value.
#include "compiler/ir/CellSymmetry.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gdsl::ir {
namespace {

constexpr int64_t kBudget = 40'000'000;

struct Point {
  int x, y;
};

// Orientation k (0..7): bit 0 swaps the axes, bit 1 negates x, bit 2 y.
Point turned(int k, Point p) {
  if (k & 1) std::swap(p.x, p.y);
  if (k & 2) p.x = -p.x;
  if (k & 4) p.y = -p.y;
  return p;
}

class GridCheck {
 public:
  GridCheck(const CellMoves& moves, uint64_t board, int width, int64_t& budget)
      : moves_(moves), board_(board), width_(width), budget_(budget) {
    int cells = 64 - std::countl_zero(board);
    height_ = (cells + width - 1) / width;
    for (size_t i = 0; i < moves.require.size(); ++i)
      byNeed_[moves.require[i]].push_back(static_cast<uint32_t>(i));
  }

  int height() const { return height_; }

  // Whether (C) holds for orientation k with every shift; false too when
  // the budget runs out.
  bool holds(int k) {
    std::array<Point, 64> at{};
    for (int c = 0; c < 64; ++c) at[static_cast<size_t>(c)] = turned(k, {c % width_, c / width_});
    for (size_t i = 0; i < moves_.require.size(); ++i) {
      uint64_t need = moves_.require[i];
      int minX = 1 << 20, maxX = -(1 << 20), minY = 1 << 20, maxY = -(1 << 20);
      for (uint64_t rest = need; rest; rest &= rest - 1) {
        Point p = at[static_cast<size_t>(std::countr_zero(rest))];
        minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
      }
      for (int dy = -minY; dy + maxY < height_; ++dy)
        for (int dx = -minX; dx + maxX < width_; ++dx) {
          budget_ -= 2 * std::popcount(board_);
          if (budget_ < 0) return false;
          auto image = [&](uint64_t cells, bool all) -> std::optional<uint64_t> {
            uint64_t out = 0;
            for (uint64_t rest = cells; rest; rest &= rest - 1) {
              Point p = at[static_cast<size_t>(std::countr_zero(rest))];
              int x = p.x + dx, y = p.y + dy, c = y * width_ + x;
              bool on =
                  x >= 0 && x < width_ && y >= 0 && y < height_ && c < 63 && ((board_ >> c) & 1);
              if (on)
                out |= uint64_t{1} << c;
              else if (all)
                return std::nullopt;
            }
            return out;
          };
          std::optional<uint64_t> needImage = image(need, true);
          if (!needImage) continue;  // off the board
          uint64_t clearImage = *image(moves_.clear[i], false);
          uint64_t boardImage = *image(board_, false);
          auto found = byNeed_.find(*needImage);
          if (found == byNeed_.end()) return false;
          bool same = false;
          for (uint32_t j : found->second)
            same = same || (moves_.clear[j] & board_ & boardImage) == clearImage;
          if (!same) return false;
        }
    }
    return true;
  }

  CellGrid grid(const std::vector<int>& kept) const {
    CellGrid g;
    g.width = width_;
    g.height = height_;
    g.cells = board_;
    g.orientations = static_cast<int>(kept.size());
    for (int k : kept) {
      g.kinds.push_back(static_cast<uint8_t>(k));
      for (int c = 0; c < 64; ++c) {
        Point p = turned(k, {c % width_, c / width_});
        g.x.push_back(static_cast<int8_t>(p.x));
        g.y.push_back(static_cast<int8_t>(p.y));
      }
    }
    return g;
  }

 private:
  const CellMoves& moves_;
  uint64_t board_;
  int width_, height_ = 0;
  int64_t& budget_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> byNeed_;
};

}  // namespace

CellGrid findCellGrid(const CellMoves& moves) {
  uint64_t board = 0;
  for (uint64_t s : moves.support) board |= s;
  board &= moves.safe;
  if (board == 0) return {};
  int cells = 64 - std::countl_zero(board);
  int64_t budget = kBudget;
  CellGrid best;
  for (int width = 1; width <= cells; ++width) {
    GridCheck check(moves, board, width, budget);
    if (!check.holds(0)) {
      if (budget < 0) break;
      continue;
    }
    std::vector<int> kept{0};
    for (int k = 1; k < 8; ++k)
      if (check.holds(k)) kept.push_back(k);
    if (budget < 0) break;
    // Each kept map's inverse must be kept: the quarter turns 3 and 5 are
    // each other's, every other orientation its own.
    bool turn3 = std::count(kept.begin(), kept.end(), 3) > 0;
    bool turn5 = std::count(kept.begin(), kept.end(), 5) > 0;
    if (turn3 != turn5) std::erase_if(kept, [](int k) { return k == 3 || k == 5; });
    if (static_cast<int>(kept.size()) > best.orientations) best = check.grid(kept);
  }
  return budget < 0 ? CellGrid{} : best;
}

}  // namespace gdsl::ir
