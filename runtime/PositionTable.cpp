// Open-addressing position interning (see PositionTable.h).
#include "runtime/PositionTable.h"

#include "compiler/support/Interrupt.h"

namespace gdsl {

uint32_t PositionTable::intern(const Position& position, bool& added) {
  if (2 * (games_.size() + 1) > slots_.size()) rehash(slots_.empty() ? 1024 : 2 * slots_.size());
  uint64_t hash = PositionHash{}(position);
  bool one = oneWord(position.game);
  uint64_t k = one ? static_cast<uint64_t>(position.words[0]) : hash;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.idPlusOne == 0) {
      s.key = k;
      s.idPlusOne = static_cast<uint32_t>(games_.size() + 1);
      games_.push_back(position.game);
      if (one) {
        s.tag = position.game;
        words_.push_back(k);
      } else {
        s.tag = kOther | static_cast<uint32_t>(others_.size());
        words_.push_back(others_.size());
        others_.push_back(position);
      }
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
  if (slots_.empty()) return std::nullopt;
  uint64_t hash = PositionHash{}(position);
  bool one = oneWord(position.game);
  uint64_t k = one ? static_cast<uint64_t>(position.words[0]) : hash;
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.idPlusOne == 0) return std::nullopt;
    if (holds(s, position, k, one)) return s.idPlusOne - 1;
  }
}

Position PositionTable::at(uint32_t id) const {
  if (!oneWord(games_[id])) return others_[words_[id]];
  Position p;
  p.game = games_[id];
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
