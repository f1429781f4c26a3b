// A packed memo for a game whose positions are one word (one integer
// parameter, or one list packed by runtime/ListKey.h) and are not tabled: a
// board written as a bitmask, a heap game with a normalize rule, a list game.
// Open addressing with linear probing, at most three quarters full. A slot
// holds the word and its cell (runtime/MemoCell.h: value + 1, 0 while
// unknown, kCellOnStack while a native search expands it). Slots are narrow while every word is
// below 2^40 - 1 and every cell below 2^24 - 1: 8 bytes, the word in the top 40 bits and the cell
// in the low 24 (all ones there: on the stack); the first word or value past that widens the table
// to 12-byte slots (the word, then the cell). The JIT's native search probes it inline
// (backend/jit/CodegenSearch.cpp).
#pragma once

#include <cstdint>

#include "compiler/support/Hash.h"
#include "runtime/MemoCell.h"
#include "runtime/ZeroedPages.h"

namespace gdsl {

#pragma pack(push, 4)
struct WordSlot {
  uint64_t key;
  uint32_t value;
};
#pragma pack(pop)
static_assert(sizeof(WordSlot) == 12);

class WordMemo {
 public:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // a free slot, narrow or wide
  static constexpr uint64_t kMultiplier = kGoldenRatio64;
  // Narrow slots: key << kCellBits | cell.
  static constexpr int kCellBits = 24;
  static constexpr uint64_t kNarrowCell = (uint64_t{1} << kCellBits) - 1;  // mask; on the stack
  static constexpr uint64_t kNarrowKeys = (uint64_t{1} << 40) - 1;         // narrow words are below

  // At most `maxEntries` positions (--max-states).
  explicit WordMemo(uint64_t maxEntries);

  static uint64_t home(uint64_t key, uint32_t shift) { return (key * kMultiplier) >> shift; }
  // The cell of `key`: 0 when it is absent or unknown.
  uint32_t get(uint64_t key) const;
  // Adds `key` (unknown) when absent; false when the memo holds maxEntries
  // positions already. May move every slot.
  bool insert(uint64_t key);
  // Sets the cell of `key`, which is present. May move every slot.
  void set(uint64_t key, uint32_t cell);
  // Makes `key` unknown, if present.
  void forget(uint64_t key);
  bool known(uint64_t key, uint32_t& value) const;
  // Asks the processor to bring the home slot of `key` into the cache, for
  // a look-up soon after.
  void prefetch(uint64_t key) const {
    __builtin_prefetch(slotData() + home(key, shift_) * slotBytes());
  }
  // Whether adding a word now would find the memo at maxEntries, or make
  // it grow past `maxBytes` (0: no bound).
  bool full(uint64_t maxBytes) const {
    if (count_ >= maxEntries_) return true;
    return maxBytes > 0 && 4 * (count_ + 1) > 3 * (mask_ + 1) && 2 * bytes() > maxBytes;
  }

  bool narrow() const { return narrow_; }
  uint8_t* slots() { return slotData(); }
  uint64_t mask() const { return mask_; }
  uint32_t shift() const { return shift_; }
  uint64_t size() const { return count_; }
  uint64_t maxEntries() const { return maxEntries_; }
  int64_t knownCount() const;
  // Calls each(key, cell) for every word the table holds, in slot order.
  template <typename Each>
  void forEachEntry(Each&& each) const {
    for (uint64_t i = 0; i <= mask_; ++i)
      if (uint64_t key = keyAt(i); key != kEmpty) each(key, cellAt(i));
  }
  size_t slotBytes() const { return narrow_ ? sizeof(uint64_t) : sizeof(WordSlot); }
  uint64_t bytes() const { return (mask_ + 1) * slotBytes(); }

 private:
  static constexpr uint64_t kAbsent = UINT64_MAX;
  // The slot index of `key`, or kAbsent.
  uint64_t find(uint64_t key) const;
  uint64_t keyAt(uint64_t i) const;
  uint32_t cellAt(uint64_t i) const;
  void put(uint64_t i, uint64_t key, uint32_t cell);
  void rehash(uint32_t bits, bool narrow);

  // The slots, in their own mapping made resident in one call, in huge
  // pages from 2 MiB (runtime/ZeroedPages.h): a large memo is probed at
  // random, and with 4 KiB pages each probe missed the TLB too (Cram 4 x 13:
  // the memo's look-ups were 45% of the time).
  ZeroedPages pages_;
  uint8_t* slotData() const { return static_cast<uint8_t*>(pages_.data()); }
  bool narrow_ = true;
  uint64_t mask_ = 0;
  uint32_t shift_ = 64;
  uint64_t count_ = 0;
  uint64_t maxEntries_;
};

}  // namespace gdsl
