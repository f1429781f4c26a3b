// Interning of positions: each distinct position gets a dense id. An
// open-addressing table of ids (linear probing, at most half full) in front of
// a vector of positions. A position of a game whose positions are always one
// word (one integer parameter: heaps, boards written as bitmasks) is kept in
// its slot as (game, word), so a look-up compares it there with one cache
// miss; any other position's slot holds its hash, and a match is confirmed
// against the vector, one more miss.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/Position.h"

namespace gdsl {

class PositionTable {
 public:
  // `oneWord[g]`: every position of game g is exactly one word.
  explicit PositionTable(const std::vector<bool>& oneWord = {})
      : oneWord_(oneWord.begin(), oneWord.end()) {}

  // The id of `position`; `added` says whether it was new.
  uint32_t intern(const Position& position, bool& added);
  // The id of `position` if it was interned.
  std::optional<uint32_t> find(const Position& position) const;
  // Valid until the next intern that adds a position.
  const Position& at(uint32_t id) const { return positions_[id]; }
  size_t size() const { return positions_.size(); }

 private:
  struct Slot {
    uint64_t key = 0;  // a one-word position's word, else the position's hash
    uint32_t game = 0;
    uint32_t idPlusOne = 0;  // 0: empty
  };
  bool oneWord(uint32_t game) const { return game < oneWord_.size() && oneWord_[game]; }
  // Whether `s` holds `position`, whose key is `key` (its word when `one`,
  // else its hash).
  bool holds(const Slot& s, const Position& position, uint64_t key, bool one) const {
    return s.key == key && s.game == position.game &&
           (one || positions_[s.idPlusOne - 1] == position);
  }
  void rehash(size_t slots);

  std::vector<uint8_t> oneWord_;
  std::vector<Position> positions_;
  std::vector<Slot> slots_;
};

}  // namespace gdsl
