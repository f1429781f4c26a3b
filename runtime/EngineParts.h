// What the engine's files share and no one else uses (private to
// runtime/Engine*.cpp): splitting a board into its parts.
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

}  // namespace gdsl
