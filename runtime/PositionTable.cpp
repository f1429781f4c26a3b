// Open-addressing position interning (see PositionTable.h).
#include "runtime/PositionTable.h"

#include <algorithm>
#include <bit>

#include "compiler/support/Interrupt.h"

namespace gdsl {

uint32_t PositionTable::append(const Position& position, bool one, uint64_t key) {
  games_.push_back(position.game);
  if (one) {
    words_.push_back(key);
  } else {
    if (otherStart_.empty()) otherStart_.push_back(0);
    words_.push_back(others());
    for (int64_t w : position.words) otherWords_.push_back(w);
    otherStart_.push_back(otherWords_.size());
  }
  return static_cast<uint32_t>(games_.size() - 1);
}

uint32_t PositionTable::intern(const Position& position, bool& added) {
  bool one = oneWord(position.game);
  if (one && static_cast<uint64_t>(position.words[0]) < kDenseWords) {
    uint64_t w = static_cast<uint64_t>(position.words[0]);
    if (dense_.size() <= position.game) dense_.resize(position.game + 1);
    MappedArray<uint32_t>& ids = dense_[position.game];
    if (ids.size() <= w) ids.resize(std::max<size_t>(std::bit_ceil(w + 1), 1024));
    added = ids[w] == 0;
    if (added) ids[w] = append(position, true, w) + 1;
    return ids[w] - 1;
  }
  if (2 * (hashed_ + 1) > slots_.size()) rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  uint64_t hash = PositionHash{}(position);
  uint64_t k = one ? static_cast<uint64_t>(position.words[0]) : hash;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.idPlusOne == 0) {
      s.key = k;
      s.tag = one ? position.game : kOther | static_cast<uint32_t>(others());
      s.idPlusOne = append(position, one, k) + 1;
      ++hashed_;
      added = true;
      return s.idPlusOne - 1;
    }
    if (holds(s, position, k, one)) {
      added = false;
      return s.idPlusOne - 1;
    }
  }
}

std::optional<uint32_t> PositionTable::find(const Position& position) const {
  bool one = oneWord(position.game);
  if (one && static_cast<uint64_t>(position.words[0]) < kDenseWords) {
    uint64_t w = static_cast<uint64_t>(position.words[0]);
    if (position.game >= dense_.size() || w >= dense_[position.game].size() ||
        dense_[position.game][w] == 0)
      return std::nullopt;
    return dense_[position.game][w] - 1;
  }
  if (slots_.empty()) return std::nullopt;
  uint64_t hash = PositionHash{}(position);
  uint64_t k = one ? static_cast<uint64_t>(position.words[0]) : hash;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.idPlusOne == 0) return std::nullopt;
    if (holds(s, position, k, one)) return s.idPlusOne - 1;
  }
}

Position PositionTable::at(uint32_t id) const {
  Position p;
  p.game = games_[id];
  if (!oneWord(games_[id])) {
    const uint64_t k = words_[id];
    p.words.assign(otherWords_.data() + otherStart_[k], otherWords_.data() + otherStart_[k + 1]);
    return p;
  }
  p.words.push_back(static_cast<int64_t>(words_[id]));
  return p;
}

// A table of millions of positions takes a while to rehash: a stop asked
// meanwhile (the memory limit, which the new slots may have crossed) is taken
// up here, with the table as it was, instead of after the whole pass.
void PositionTable::rehash(size_t count) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(count, Slot{});
  size_t mask = count - 1;
  for (size_t from = 0; from < old.size(); ++from) {
    if ((from & 0xffff) == 0xffff && interruptReason() != StopReason::None) {
      slots_ = std::move(old);
      checkInterrupt();
    }
    const Slot& s = old[from];
    if (s.idPlusOne == 0) continue;
    uint64_t hash = (s.tag & kOther) ? s.key : PositionHash{}(at(s.idPlusOne - 1));
    size_t i = hash & mask;
    while (slots_[i].idPlusOne != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace gdsl
