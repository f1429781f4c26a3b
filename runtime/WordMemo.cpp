// The packed memo of one-word positions (see WordMemo.h).
#include "runtime/WordMemo.h"

#include <new>

#include "runtime/DenseBox.h"

namespace gdsl {

WordMemo::WordMemo(uint64_t maxEntries) : maxEntries_(maxEntries) {
  rehash(10);
}

void WordMemo::rehash(uint32_t bits) {
  uint64_t size = uint64_t{1} << bits;
  std::unique_ptr<WordSlot[], Free> fresh(
      static_cast<WordSlot*>(std::malloc(size * sizeof(WordSlot))));
  if (!fresh) throw std::bad_alloc();
  for (uint64_t i = 0; i < size; ++i) fresh[i] = WordSlot{kEmpty, 0};
  uint64_t mask = size - 1;
  uint32_t shift = 64 - bits;
  for (uint64_t i = 0; slots_ && i <= mask_; ++i) {
    if (slots_[i].key == kEmpty) continue;
    uint64_t j = home(slots_[i].key, shift);
    while (fresh[j].key != kEmpty) j = (j + 1) & mask;
    fresh[j] = slots_[i];
  }
  slots_ = std::move(fresh);
  mask_ = mask;
  shift_ = shift;
}

uint32_t* WordMemo::find(uint64_t key) {
  for (uint64_t i = home(key, shift_);; i = (i + 1) & mask_) {
    if (slots_[i].key == key) return &slots_[i].value;
    if (slots_[i].key == kEmpty) return nullptr;
  }
}

uint32_t* WordMemo::insert(uint64_t key) {
  if (uint32_t* cell = find(key)) return cell;
  if (count_ >= maxEntries_) return nullptr;
  if (4 * (count_ + 1) > 3 * (mask_ + 1)) rehash(64 - shift_ + 1);
  uint64_t i = home(key, shift_);
  while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
  slots_[i] = WordSlot{key, 0};
  ++count_;
  return &slots_[i].value;
}

bool WordMemo::known(uint64_t key, uint32_t& value) const {
  for (uint64_t i = home(key, shift_);; i = (i + 1) & mask_) {
    if (slots_[i].key == key) {
      uint32_t cell = slots_[i].value;
      if (cell == 0 || cell == kDenseOnStack) return false;
      value = cell - 1;
      return true;
    }
    if (slots_[i].key == kEmpty) return false;
  }
}

int64_t WordMemo::knownCount() const {
  int64_t n = 0;
  for (uint64_t i = 0; i <= mask_; ++i)
    n += slots_[i].key != kEmpty && slots_[i].value != 0 && slots_[i].value != kDenseOnStack;
  return n;
}

}  // namespace gdsl
