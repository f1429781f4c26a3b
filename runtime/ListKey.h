// Packs a list position into one word, the key of the packed table of words
// (runtime/WordMemo.h) for games whose one parameter is a list. A list of n <= 15
// numbers, each in 0 .. 2^w - 1 with w = 59 / n bits, packs as n in bits 0-3
// and element i in bits 4 + i*w up; so four numbers below 16384, eight below 128,
// fifteen below 8. Bit 63 stays clear, so a key is never WordMemo::kEmpty.
// A list that does not pack is searched with the hashed memo instead. The
// JIT's native search packs inline, the same way (backend/jit/CodegenSearch.cpp).
#pragma once

#include <cstdint>

namespace gdsl {

inline constexpr int64_t kListKeyMaxLength = 15;
inline constexpr int kListKeyLengthBits = 4;

// The bits per element of a packed list of `length` numbers (1 <= length <= 15).
constexpr int listKeyWidth(int64_t length) {
  return static_cast<int>(59 / length);
}

// Packs the list position `words` (its length, then its elements) into
// `key`; false when it does not pack.
inline bool packListKey(const int64_t* words, uint64_t& key) {
  int64_t length = words[0];
  if (length < 0 || length > kListKeyMaxLength) return false;
  key = static_cast<uint64_t>(length);
  if (length == 0) return true;
  int width = listKeyWidth(length);
  uint64_t limit = uint64_t{1} << width;
  for (int64_t i = 0; i < length; ++i) {
    auto e = static_cast<uint64_t>(words[1 + i]);  // a negative number is huge
    if (e >= limit) return false;
    key |= e << (kListKeyLengthBits + i * width);
  }
  return true;
}

// The key of a one-word position in a table of words: its one integer, or
// its list packed when `list`; false when the list does not pack.
inline bool wordKey(const int64_t* words, bool list, uint64_t& key) {
  if (list) return packListKey(words, key);
  key = static_cast<uint64_t>(words[0]);
  return true;
}

}  // namespace gdsl
