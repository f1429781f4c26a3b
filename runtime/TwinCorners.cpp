// Twin corners of a two-cell placement game (see TwinCorners.h).
#include "runtime/TwinCorners.h"

#include <bit>

#include "runtime/Components.h"

namespace gdsl {

TwinCorners::TwinCorners(const ir::CellMoves& moves) : moves_(moves) {
  if (moves.require.empty()) return;
  for (size_t i = 0; i < moves.require.size(); ++i) {
    const uint64_t m = moves.require[i];
    if (m != moves.clear[i] || std::popcount(m) != 2) return;
    const int x = std::countr_zero(m), y = 63 - std::countl_zero(m);
    partners_[x] |= uint64_t{1} << y;
    partners_[y] |= uint64_t{1} << x;
  }
  applies_ = true;
}

int TwinCorners::pieces(uint64_t part, uint64_t* out) const {
  // The cells with exactly two partners on the part: counted a word at a
  // time through the move families where there are some.
  uint64_t corners = 0;
  const std::vector<ir::CellFamily>& families = moves_.index.families;
  if (!families.empty() && !moves_.index.repeatedMoves) {
    uint64_t once = 0, twice = 0, thrice = 0;
    for (const ir::CellFamily& family : families) {
      const uint64_t legal = legalAnchors(family, part);
      for (int k = 0; k < family.spanCount; ++k) {
        const uint64_t at = legal << family.span[k];
        thrice |= twice & at;
        twice |= once & at;
        once |= at;
      }
    }
    corners = twice & ~thrice;
  } else {
    for (uint64_t rest = part; rest; rest &= rest - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(rest));
      if (std::popcount(partners_[c] & part) == 2) corners |= uint64_t{1} << c;
    }
  }
  if (std::popcount(corners) < 2) return 0;
  // cut[c]: the partners of c whose move is cut.
  uint64_t cut[64];
  uint64_t touched = 0, used = 0;
  for (uint64_t rest = corners; rest; rest &= rest - 1) {
    auto a = static_cast<unsigned>(std::countr_zero(rest));
    const uint64_t pair = partners_[a] & part;
    if ((used >> a) & 1 || (pair & used) != 0) continue;
    // b: another corner with the same two partners, so a partner of both
    // (the moves are symmetric: c is a partner of r when r is one of c).
    const unsigned r = static_cast<unsigned>(std::countr_zero(pair));
    const unsigned l = static_cast<unsigned>(63 - std::countl_zero(pair));
    uint64_t twins = corners & ~used & ~(uint64_t{1} << a) & partners_[r] & partners_[l];
    uint64_t b = 0;
    for (uint64_t t = twins; t; t &= t - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(t));
      if ((partners_[c] & part) == pair) {
        b = uint64_t{1} << c;
        break;
      }
    }
    if (b == 0) continue;
    const unsigned bCell = static_cast<unsigned>(std::countr_zero(b));
    for (unsigned c : {a, bCell, r, l})
      if (((touched >> c) & 1) == 0) {
        cut[c] = 0;
        touched |= uint64_t{1} << c;
      }
    cut[a] |= uint64_t{1} << r;
    cut[r] |= uint64_t{1} << a;
    cut[bCell] |= uint64_t{1} << l;
    cut[l] |= b;
    used |= (uint64_t{1} << a) | b | pair;
  }
  if (touched == 0) return 0;
  // The components without the cut moves.
  int n = 0;
  for (uint64_t rest = part; rest;) {
    uint64_t piece = rest & (0 - rest), frontier = piece;
    while (frontier) {
      auto c = static_cast<unsigned>(std::countr_zero(frontier));
      frontier &= frontier - 1;
      uint64_t next = partners_[c] & part & ~piece;
      if ((touched >> c) & 1) next &= ~cut[c];
      piece |= next;
      frontier |= next;
    }
    if (piece == part) return 0;
    out[n++] = piece;
    rest &= ~piece;
  }
  return n;
}

}  // namespace gdsl
