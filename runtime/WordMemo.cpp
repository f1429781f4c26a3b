// The packed memo of one-word positions (see WordMemo.h).
#include "runtime/WordMemo.h"

#include <cstring>

namespace gdsl {

WordMemo::WordMemo(uint64_t maxEntries) : maxEntries_(maxEntries) {
  rehash(10, true);
}

namespace {

// Slot i of a table of either layout.
uint64_t keyIn(const uint8_t* slots, bool narrow, uint64_t i) {
  if (narrow) {
    uint64_t slot;
    std::memcpy(&slot, slots + i * sizeof slot, sizeof slot);
    return slot == WordMemo::kEmpty ? WordMemo::kEmpty : slot >> WordMemo::kCellBits;
  }
  WordSlot slot;
  std::memcpy(&slot, slots + i * sizeof slot, sizeof slot);
  return slot.key;
}

uint32_t cellIn(const uint8_t* slots, bool narrow, uint64_t i) {
  if (narrow) {
    uint64_t slot;
    std::memcpy(&slot, slots + i * sizeof slot, sizeof slot);
    uint64_t cell = slot & WordMemo::kNarrowCell;
    return cell == WordMemo::kNarrowCell ? kCellOnStack : static_cast<uint32_t>(cell);
  }
  WordSlot slot;
  std::memcpy(&slot, slots + i * sizeof slot, sizeof slot);
  return slot.value;
}

void putIn(uint8_t* slots, bool narrow, uint64_t i, uint64_t key, uint32_t cell) {
  if (narrow) {
    uint64_t slot =
        key << WordMemo::kCellBits | (cell == kCellOnStack ? WordMemo::kNarrowCell : cell);
    std::memcpy(slots + i * sizeof slot, &slot, sizeof slot);
    return;
  }
  WordSlot slot{key, cell};
  std::memcpy(slots + i * sizeof slot, &slot, sizeof slot);
}

}  // namespace

uint64_t WordMemo::keyAt(uint64_t i) const {
  return keyIn(slotData(), narrow_, i);
}
uint32_t WordMemo::cellAt(uint64_t i) const {
  return cellIn(slotData(), narrow_, i);
}
void WordMemo::put(uint64_t i, uint64_t key, uint32_t cell) {
  putIn(slotData(), narrow_, i, key, cell);
}

void WordMemo::rehash(uint32_t bits, bool narrow) {
  uint64_t size = uint64_t{1} << bits;
  size_t slotBytes = narrow ? sizeof(uint64_t) : sizeof(WordSlot);
  ZeroedPages freshPages(size * slotBytes, true);
  auto* fresh = static_cast<uint8_t*>(freshPages.data());
  std::memset(fresh, 0xFF, size * slotBytes);  // all ones: empty in either layout
  uint32_t shift = 64 - bits;
  for (uint64_t i = 0; !pages_.empty() && i <= mask_; ++i) {
    uint64_t key = keyAt(i);
    if (key == kEmpty) continue;
    uint64_t j = home(key, shift);
    while (keyIn(fresh, narrow, j) != kEmpty) j = (j + 1) & (size - 1);
    putIn(fresh, narrow, j, key, cellAt(i));
  }
  pages_ = std::move(freshPages);
  narrow_ = narrow;
  mask_ = size - 1;
  shift_ = shift;
}

uint64_t WordMemo::find(uint64_t key) const {
  for (uint64_t i = home(key, shift_);; i = (i + 1) & mask_) {
    uint64_t k = keyAt(i);
    if (k == key) return i;
    if (k == kEmpty) return kAbsent;
  }
}

uint32_t WordMemo::get(uint64_t key) const {
  uint64_t i = find(key);
  return i == kAbsent ? 0 : cellAt(i);
}

bool WordMemo::insert(uint64_t key) {
  if (narrow_ && key >= kNarrowKeys) rehash(64 - shift_, false);
  if (find(key) != kAbsent) return true;
  if (count_ >= maxEntries_) return false;
  if (4 * (count_ + 1) > 3 * (mask_ + 1)) rehash(64 - shift_ + 1, narrow_);
  uint64_t i = home(key, shift_);
  while (keyAt(i) != kEmpty) i = (i + 1) & mask_;
  put(i, key, 0);
  ++count_;
  return true;
}

void WordMemo::set(uint64_t key, uint32_t cell) {
  if (narrow_ && cell != kCellOnStack && cell >= kNarrowCell) rehash(64 - shift_, false);
  put(find(key), key, cell);
}

void WordMemo::forget(uint64_t key) {
  uint64_t i = find(key);
  if (i != kAbsent) put(i, key, 0);
}

bool WordMemo::known(uint64_t key, uint32_t& value) const {
  uint32_t cell = get(key);
  if (!cellHoldsValue(cell)) return false;
  value = valueOfCell(cell);
  return true;
}

int64_t WordMemo::knownCount() const {
  int64_t n = 0;
  forEachEntry([&](uint64_t, uint32_t cell) { n += cellHoldsValue(cell); });
  return n;
}

}  // namespace gdsl
