// gdsl's hash functions, each defined once: 64-bit FNV-1a (checkpoint contents
// and rule fingerprints), and the golden-ratio mixing of positions, misère
// states, the packed word memo's home slots and table files' checksums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gdsl {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

inline uint64_t fnv1a(const void* data, size_t size, uint64_t hash = kFnvOffset) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// 2^64 divided by the golden ratio: Fibonacci hashing's multiplier (the
// packed word memo's home slot, runtime/WordMemo.h, which the JIT's code
// computes too) and the constant of hashCombine. Values computed with it are
// stored in table files: it must not change.
inline constexpr uint64_t kGoldenRatio64 = 0x9E3779B97F4A7C15ull;

// Mixes `value` into `hash` (boost's hash_combine step, then a multiply by
// MurmurHash3's mixing constant): positions, then sums of them.
constexpr uint64_t hashCombine(uint64_t hash, uint64_t value) {
  hash ^= value + kGoldenRatio64 + (hash << 6) + (hash >> 2);
  return hash * 0xFF51AFD7ED558CCDull;
}

// Mixes `value` into `hash` by one multiply: a table file's checksum of its
// values (runtime/TableFile.h), stored on disk.
constexpr uint64_t hashMultiply(uint64_t hash, uint64_t value) {
  return (hash ^ value) * kGoldenRatio64;
}

// The last step of those hashes: the high bits folded into the low ones.
constexpr uint64_t hashFinish(uint64_t hash) {
  return hash ^ (hash >> 29);
}

}  // namespace gdsl
