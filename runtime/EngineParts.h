// What the engine's files share and no one else uses (private to
// runtime/Engine*.cpp): splitting a board into its parts, and the size of a
// position that the runaway checks compare.
#pragma once

#include <cstdint>
#include <span>

#include "runtime/Components.h"
#include "runtime/Engine.h"

namespace gdsl {

template <typename Each>
bool Engine::forEachPart(const Position& position, Each&& each) {
  const std::optional<ir::CellMoves>& cells = program_.games[position.game].cells;
  if (!cells) return false;
  int64_t parts[kMaxComponents];
  int n = splitComponents(*cells, position.words[0], parts);
  if (n < 0 || (n == 1 && parts[0] == position.words[0])) return false;
  Position part;
  part.game = position.game;
  for (int i = 0; i < n; ++i) {
    part.words.assign(&parts[i], &parts[i] + 1);
    each(part);
  }
  return true;
}

// The size of a position: the sum of its words' magnitudes (saturated).
inline uint64_t magnitude(std::span<const int64_t> words) {
  uint64_t size = 0;
  for (int64_t w : words) {
    uint64_t m = w < 0 ? 0 - static_cast<uint64_t>(w) : static_cast<uint64_t>(w);
    size = m > UINT64_MAX - size ? UINT64_MAX : size + m;
  }
  return size;
}

}  // namespace gdsl
