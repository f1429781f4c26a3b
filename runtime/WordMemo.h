// A packed memo for a game whose positions are one word (one integer
// parameter) and are not tabled: a board written as a bitmask, or a heap game
// with a normalize rule. Open addressing with linear probing over 12-byte
// slots (the word, then its value + 1; 0 while unknown, kDenseOnStack while a
// native search expands it), at most three quarters full, so 12 to 24 bytes
// per position. The JIT's native search probes it inline (backend/jit).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

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
  static constexpr uint64_t kEmpty = UINT64_MAX;  // positions are never negative
  static constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;

  // At most `maxEntries` positions (--max-states).
  explicit WordMemo(uint64_t maxEntries);

  static uint64_t home(uint64_t key, uint32_t shift) { return (key * kMultiplier) >> shift; }
  // The value cell of `key`, or null when it was never inserted.
  uint32_t* find(uint64_t key);
  // The value cell of `key`, inserted (unknown) when absent; null when the
  // memo holds maxEntries positions already. Inserting may move every slot.
  uint32_t* insert(uint64_t key);
  bool known(uint64_t key, uint32_t& value) const;

  WordSlot* slots() { return slots_.get(); }
  uint64_t mask() const { return mask_; }
  uint32_t shift() const { return shift_; }
  uint64_t size() const { return count_; }
  int64_t knownCount() const;
  uint64_t bytes() const { return (mask_ + 1) * sizeof(WordSlot); }

 private:
  struct Free {
    void operator()(WordSlot* p) const { std::free(p); }
  };
  void rehash(uint32_t bits);

  std::unique_ptr<WordSlot[], Free> slots_;
  uint64_t mask_ = 0;
  uint32_t shift_ = 64;
  uint64_t count_ = 0;
  uint64_t maxEntries_;
};

}  // namespace gdsl
