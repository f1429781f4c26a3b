// A 64-bit FNV-1a hash: checkpoint contents and rule fingerprints.
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

}  // namespace gdsl
