// The hash tables of the pruning search for boards (runtime/CellSearch.h),
// each in zeroed pages made resident at once (runtime/ZeroedPages.h):
//  - DirectMapped: a cache of one thread (the least images of parts);
//  - SharedBuckets: the values each part is known not to have;
//  - ValueTable: exact values, when the memo no longer grows or while
//    several threads search.
// The last two are shared by the threads of one search.
//  - A SharedBuckets entry is two words, the second its data and the first
//    the part xored with the data, each read and written whole
//    (std::atomic_ref, relaxed). A reader keeps an entry only when the two
//    words give back the part it asks about, so an entry half written by
//    another thread reads as absent, never as another part's (R. Hyatt and
//    T. Mann, "A lock-less transposition table implementation for parallel
//    search chess engines", ICGA Journal 25, 2002; here the data is mixed
//    first, see SharedBuckets::mix). A slot of two zero words holds part 0,
//    which no search asks about (a part asked about has a legal move, so a
//    cell).
//  - A ValueTable entry is one word, read and written whole: half the
//    memory per value, so half the pages a large table's look-ups reach.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "runtime/ZeroedPages.h"

namespace gdsl {

// A word shared by threads, read and written whole (relaxed: each entry's
// own check says whether what was read belongs together).
inline uint64_t loadShared(uint64_t& word) {
  return std::atomic_ref<uint64_t>(word).load(std::memory_order_relaxed);
}
inline void storeShared(uint64_t& word, uint64_t value) {
  std::atomic_ref<uint64_t>(word).store(value, std::memory_order_relaxed);
}

// A direct-mapped cache of T, keyed by T's first field `part` (0 marks an
// empty slot), for one thread. It starts small and doubles, keeping its
// entries, as the search grows, up to 2^maxBits slots: a small search
// touches few pages (clearing 4 MiB of slots up front was most of the time
// of `eval` on a 4 x 5 board), and a table that doubles is touched all over
// by the entries it keeps, so its pages are made in one call, not a fault
// each.
template <typename T, uint64_t kMultiplier>
class DirectMapped {
 public:
  DirectMapped(int bits, int maxBits) : maxBits_(maxBits) { allocate(bits); }
  T& slot(uint64_t part) { return entries()[index(part)]; }
  // Asks the processor to bring the slot of `part` into the cache.
  void prefetch(uint64_t part) const { __builtin_prefetch(entries() + index(part)); }
  // Doubles the table (up to 2^maxBits slots), keeping every entry that
  // still has a slot of its own.
  void grow() {
    if (bits_ >= maxBits_) return;
    ZeroedPages old = std::move(pages_);
    const T* oldEntries = static_cast<const T*>(old.data());
    const size_t oldSize = size_t{1} << bits_;
    allocate(bits_ + 1);
    for (size_t i = 0; i < oldSize; ++i)
      if (oldEntries[i].part != 0) slot(oldEntries[i].part) = oldEntries[i];
  }

 private:
  static_assert(std::is_trivially_copyable_v<T>);
  size_t index(uint64_t part) const { return (part * kMultiplier) >> (64 - bits_); }
  T* entries() const { return static_cast<T*>(pages_.data()); }
  void allocate(int bits) {
    bits_ = bits;
    pages_ = ZeroedPages(sizeof(T) << bits, true);
  }
  ZeroedPages pages_;
  int bits_ = 0, maxBits_;
};

// Buckets of two entries of (part xor mix(data), data), shared by threads (see
// the top of this file). A part is in either slot of its bucket; a new part
// takes the place of the one with fewer cells (the cheaper to learn again).
class SharedBuckets {
 public:
  struct Entry {
    uint64_t check = 0, data = 0;  // part ^ data, data
  };
  SharedBuckets() = default;
  explicit SharedBuckets(int bits) { allocate(bits); }
  int bits() const { return bits_; }
  bool empty() const { return pages_.empty(); }
  size_t bytes() const { return pages_.bytes(); }

  // The data of `part`, or false.
  bool find(uint64_t part, uint64_t& data) const {
    Entry* b = bucket(part);
    for (int k = 0; k < 2; ++k) {
      const uint64_t d = loadShared(b[k].data), check = loadShared(b[k].check);
      if ((check ^ mix(d)) == part) {
        data = d;
        return true;
      }
    }
    return false;
  }
  // Writes `data` for `part`: over its own entry, or over the entry of the
  // part with fewer cells.
  void put(uint64_t part, uint64_t data) {
    Entry* b = bucket(part);
    const uint64_t held0 = partOf(b[0]), held1 = partOf(b[1]);
    Entry& slot = held0 == part                                  ? b[0]
                  : held1 == part                                ? b[1]
                  : std::popcount(held0) <= std::popcount(held1) ? b[0]
                                                                 : b[1];
    storeShared(slot.data, data);
    storeShared(slot.check, part ^ mix(data));
  }
  void prefetch(uint64_t part) const { __builtin_prefetch(bucket(part)); }
  // The same entries in 2^bits slots (one thread only): each keeps its
  // place in its new bucket while there is room.
  void resize(int bits) {
    SharedBuckets old = std::move(*this);
    allocate(bits);
    if (old.empty()) return;
    Entry* e = old.entries();
    for (size_t i = 0; i < (size_t{1} << old.bits_); ++i)
      if (uint64_t part = partOf(e[i]); part != 0) put(part, e[i].data);
  }

 private:
  // A bijection of the words that keeps 0 (the finalizer of SplitMix64):
  // two writers' halves mixed in one slot give a part at random, not one a
  // few bits from a part of the board.
  static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  static uint64_t partOf(Entry& e) { return loadShared(e.check) ^ mix(loadShared(e.data)); }
  Entry* entries() const { return static_cast<Entry*>(pages_.data()); }
  Entry* bucket(uint64_t part) const {
    return entries() + (((part * 0xff51afd7ed558ccdull) >> (64 - bits_)) & ~uint64_t{1});
  }
  void allocate(int bits) {
    bits_ = bits;
    pages_ = ZeroedPages(sizeof(Entry) << bits, true);
  }
  ZeroedPages pages_;
  int bits_ = 0;
};

// Exact values of parts, shared by threads, one word per entry. A part's
// key is the part times an odd number (a bijection of the words): its high
// bits choose a bucket of four entries (32 bytes, within one cache line),
// and the entry keeps the key's other bits and the value plus one (0: an
// empty entry), so the bucket and the entry give the key, and the part,
// back exactly. A new part takes the place of the entry whose part has the
// fewest cells (the cheapest to learn again), an empty one first. A value
// too large for its entry's field (2^(bits - 2) - 1 or more: none below
// 255 from 2^10 entries on) is not kept; the search computes it again.
class ValueTable {
 public:
  static constexpr size_t kEntryBytes = sizeof(uint64_t);
  ValueTable() = default;
  // 2^bits entries (at least 8).
  explicit ValueTable(int bits) { allocate(bits); }
  int bits() const { return bits_; }
  bool empty() const { return pages_.empty(); }
  size_t bytes() const { return pages_.bytes(); }

  // The value of `part`, or false.
  bool find(uint64_t part, uint32_t& value) const {
    const uint64_t key = part * kMultiplier;
    uint64_t* b = bucket(key);
    const uint64_t rest = key & restMask();
    for (int k = 0; k < kBucket; ++k) {
      const uint64_t e = loadShared(b[k]);
      if ((e & restMask()) == rest && (e >> restBits_) != 0) {
        value = static_cast<uint32_t>((e >> restBits_) - 1);
        return true;
      }
    }
    return false;
  }
  // Keeps `value` for `part` (see the top of the class).
  void put(uint64_t part, uint32_t value) { putKey(part * kMultiplier, value); }
  void prefetch(uint64_t part) const { __builtin_prefetch(bucket(part * kMultiplier)); }
  // The same entries in 2^bits entries (one thread only), each kept while
  // its new bucket has room.
  void resize(int bits) {
    ValueTable old = std::move(*this);
    allocate(bits);
    if (old.empty()) return;
    const uint64_t* e = old.entries();
    for (size_t i = 0; i < (size_t{1} << old.bits_); ++i) {
      if ((e[i] >> old.restBits_) == 0) continue;
      const uint64_t key = ((i / kBucket) << old.restBits_) | (e[i] & old.restMask());
      putKey(key, static_cast<uint32_t>((e[i] >> old.restBits_) - 1));
    }
  }

 private:
  static constexpr int kBucket = 4;
  static constexpr uint64_t kMultiplier = 0xff51afd7ed558ccdull;
  static constexpr uint64_t kInverse = 0x4f74430c22a54005ull;  // kMultiplier * kInverse = 1
  uint64_t restMask() const { return (uint64_t{1} << restBits_) - 1; }
  int cellsOf(uint64_t entry, const uint64_t* b) const {
    const auto at = static_cast<uint64_t>(b - entries()) / kBucket;
    return std::popcount((((at << restBits_) | (entry & restMask())) * kInverse));
  }
  void putKey(uint64_t key, uint32_t value) {
    const uint64_t field = uint64_t{value} + 1;
    if ((field >> (64 - restBits_)) != 0) return;  // too large to keep
    uint64_t* b = bucket(key);
    const uint64_t rest = key & restMask();
    int slot = 0, fewest = 65;
    for (int k = 0; k < kBucket; ++k) {
      const uint64_t e = loadShared(b[k]);
      if ((e >> restBits_) == 0) {
        if (fewest > 0) slot = k, fewest = 0;
        continue;
      }
      if ((e & restMask()) == rest) {
        slot = k;
        break;
      }
      if (const int cells = cellsOf(e, b); cells < fewest) slot = k, fewest = cells;
    }
    storeShared(b[slot], (field << restBits_) | rest);
  }
  uint64_t* entries() const { return static_cast<uint64_t*>(pages_.data()); }
  uint64_t* bucket(uint64_t key) const { return entries() + (key >> restBits_) * kBucket; }
  void allocate(int bits) {
    bits_ = std::max(bits, 3);  // two buckets at least: a key bit chooses
    restBits_ = 64 - (bits_ - 2);
    pages_ = ZeroedPages(kEntryBytes << bits_, true);
  }
  ZeroedPages pages_;
  int bits_ = 0, restBits_ = 63;
};

}  // namespace gdsl
