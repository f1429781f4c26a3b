// Dominated cells of a placement game's part (see DominatedCells.h).
#include "runtime/DominatedCells.h"

#include <bit>
#include <unordered_set>

#include "runtime/Components.h"

namespace gdsl {

DominatedCells::DominatedCells(const ir::CellMoves& moves) : moves_(moves) {
  for (size_t i = 0; i < moves_.require.size(); ++i)
    if (moves_.require[i] != moves_.clear[i] || moves_.require[i] == 0) return;
  std::unordered_set<uint64_t> byCells;
  for (size_t i = 0; i < moves_.require.size(); ++i) byCells.insert(moves_.require[i]);
  for (size_t i = 0; i < moves_.require.size(); ++i) {
    swapIndex_.push_back(static_cast<uint32_t>(swapStart_.size()));
    const uint64_t m = moves_.require[i];
    for (uint64_t rest = m; rest; rest &= rest - 1) {
      swapStart_.push_back(static_cast<uint32_t>(swapCells_.size()));
      const uint64_t without = m & ~(rest & (0 - rest));
      for (unsigned t = 0; t < 64; ++t) {
        if ((m >> t) & 1) continue;
        if (byCells.count(without | (uint64_t{1} << t)) != 0)
          swapCells_.push_back(static_cast<uint8_t>(t));
      }
    }
  }
  swapStart_.push_back(static_cast<uint32_t>(swapCells_.size()));
  applies_ = true;
}

bool DominatedCells::dominated(unsigned c, uint64_t p) const {
  const uint64_t* require = moves_.require.data();
  const uint32_t* start = moves_.touchStart.data();
  const uint32_t* touching = moves_.touching.data();
  for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
    const uint32_t i = touching[k];
    const uint64_t m = require[i];
    if ((p & m) != m) continue;
    const int nth = std::popcount(m & ((uint64_t{1} << c) - 1));
    const uint32_t from = swapStart_[swapIndex_[i] + static_cast<uint32_t>(nth)];
    const uint32_t to = swapStart_[swapIndex_[i] + static_cast<uint32_t>(nth) + 1];
    bool swapped = false;
    for (uint32_t s = from; s < to && !swapped; ++s) {
      const unsigned t = swapCells_[s];
      if (((p >> t) & 1) == 0) continue;
      swapped = true;
      for (uint32_t k2 = start[t]; k2 < start[t + 1] && swapped; ++k2) {
        const uint64_t m2 = require[touching[k2]];
        swapped = (p & m2) != m2 || (m2 & m) != 0;
      }
    }
    if (!swapped) return false;
  }
  return true;
}

uint64_t DominatedCells::candidates(uint64_t p) const {
  const std::vector<ir::CellFamily>& families = moves_.index.families;
  if (families.empty() || moves_.index.repeatedMoves) return p;
  uint64_t legal[ir::CellIndex::kMaxFamilies];
  uint64_t once = 0, twice = 0;
  for (size_t f = 0; f < families.size(); ++f) {
    const ir::CellFamily& family = families[f];
    legal[f] = legalAnchors(family, p);
    for (int k = 0; k < family.spanCount; ++k) {
      uint64_t at = legal[f] << family.span[k];
      twice |= once & at;
      once |= at;
    }
  }
  const uint64_t tufts = once & ~twice;
  if (tufts == 0) return 0;
  // The tufts' partners: the other cells of each tuft's one move.
  uint64_t partners = 0;
  for (size_t f = 0; f < families.size(); ++f) {
    const ir::CellFamily& family = families[f];
    for (int k = 0; k < family.spanCount; ++k) {
      uint64_t anchors = legal[f] & (tufts >> family.span[k]);
      for (int j = 0; j < family.spanCount; ++j)
        if (j != k) partners |= anchors << family.span[j];
    }
  }
  // A cell with a legal move through a cell that is not a partner has no
  // swap by a tuft for that move.
  uint64_t without = 0;
  for (size_t f = 0; f < families.size(); ++f) {
    const ir::CellFamily& family = families[f];
    for (int k = 0; k < family.spanCount; ++k) {
      uint64_t outside = 0;
      for (int j = 0; j < family.spanCount; ++j)
        if (j != k) outside |= ~partners >> family.span[j];
      without |= (legal[f] & outside) << family.span[k];
    }
  }
  return p & once & ~without;
}

uint64_t DominatedCells::reduced(uint64_t part) const {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint64_t rest = candidates(part); rest; rest &= rest - 1) {
      auto c = static_cast<unsigned>(std::countr_zero(rest));
      if (dominated(c, part)) {
        part &= ~(uint64_t{1} << c);
        changed = true;
      }
    }
  }
  return part;
}

}  // namespace gdsl
