// Interning of positions: each distinct position gets a dense id. An
// open-addressing table of ids (linear probing, at most half full) in front of
// the positions by id. A position of a game whose positions are always one
// word (one integer parameter: heaps, boards written as bitmasks) is kept as
// its game and its word, 12 bytes by id, and in its slot, so that a look-up
// confirms it there with one cache miss; any other position keeps its words
// in one flat array of all such words, and its slot holds its hash, confirmed
// against those words (one more miss).
// A one-word position whose word is below kDenseWords (a heap, a cell of a
// graph) is not in the slots at all: an array per game indexed by the word
// holds its id, grown to the largest such word met (at most 16 MiB a game).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/MappedArray.h"
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
  // The position with id `id`.
  Position at(uint32_t id) const;
  uint32_t gameOf(uint32_t id) const { return games_[id]; }
  size_t size() const { return games_.size(); }

 private:
  // A one-word position's slot: its word and its game. Any other's: its hash
  // and kOther | its index among the other positions, so that the position is compared
  // without reading the arrays by id.
  static constexpr uint32_t kOther = 0x80000000u;
  struct Slot {
    uint64_t key = 0;
    uint32_t tag = 0;
    uint32_t idPlusOne = 0;  // 0: empty
  };
  bool oneWord(uint32_t game) const { return game < oneWord_.size() && oneWord_[game]; }
  // Whether `s` holds `position`, whose key is `key` (its word when `one`,
  // else its hash).
  bool holds(const Slot& s, const Position& position, uint64_t key, bool one) const {
    if (s.key != key) return false;
    if (one) return s.tag == position.game;
    return (s.tag & kOther) != 0 && games_[s.idPlusOne - 1] == position.game &&
           otherIs(s.tag & ~kOther, position);
  }
  void rehash(size_t slots);
  // The new id of a position not yet interned (its slot or dense entry is
  // the caller's to fill).
  uint32_t append(const Position& position, bool one, uint64_t key);

  static constexpr uint64_t kDenseWords = uint64_t{1} << 22;
  // By game, by word below kDenseWords: id + 1, 0 for none.
  std::vector<MappedArray<uint32_t>> dense_;

  std::vector<uint8_t> oneWord_;
  // By id: the game, and the word of a one-word position or the index of the
  // position among the other positions.
  MappedArray<uint32_t> games_;
  MappedArray<uint64_t> words_;
  // The words of the k-th other position: otherWords_[otherStart_[k] ..
  // otherStart_[k + 1]), in one flat array (no Position per entry to copy
  // as the table grows or to free at the end).
  MappedArray<int64_t> otherWords_;
  MappedArray<uint64_t> otherStart_;
  size_t others() const { return otherStart_.empty() ? 0 : otherStart_.size() - 1; }
  bool otherIs(uint32_t k, const Position& position) const {
    const uint64_t from = otherStart_[k], to = otherStart_[k + 1];
    return to - from == position.words.size() &&
           std::equal(position.words.begin(), position.words.end(), otherWords_.data() + from);
  }
  std::vector<Slot> slots_;
  size_t hashed_ = 0;  // positions in the slots
};

}  // namespace gdsl
