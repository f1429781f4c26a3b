// Interning of positions: each distinct position gets a dense id. An
// open-addressing table of ids with their hashes (linear probing, at most half
// full) in front of a vector of positions: one cache line per look-up in the
// common case, where a node-based map costs two or three.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/Position.h"

namespace gdsl {

class PositionTable {
 public:
  // The id of `position`; `added` says whether it was new.
  uint32_t intern(const Position& position, bool& added);
  // The id of `position` if it was interned.
  std::optional<uint32_t> find(const Position& position) const;
  // Valid until the next intern that adds a position.
  const Position& at(uint32_t id) const { return positions_[id]; }
  size_t size() const { return positions_.size(); }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t idPlusOne = 0;  // 0: empty
  };
  void rehash(size_t slots);

  std::vector<Position> positions_;
  std::vector<Slot> slots_;
};

}  // namespace gdsl
