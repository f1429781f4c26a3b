// The mex (minimum excludant) of the values of a position's moves: the least
// value not among them. It is at most the number of values, so one pass over
// a bitmap of that size finds it; `marks` is scratch space kept by the caller
// between calls. The engine's search, the interpreter's native search and the
// JIT's native searches use it (the JIT's kernels mark epoch stamps instead).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gdsl {

// The mex when it is below 64 (most positions of most games): one word of
// bits, no memory written; UINT32_MAX when every value 0..63 is present.
inline uint32_t smallMex(std::span<const uint32_t> values) {
  uint64_t present = 0;
  for (uint32_t v : values) present |= v < 64 ? uint64_t{1} << v : 0;
  return ~present ? static_cast<uint32_t>(__builtin_ctzll(~present)) : UINT32_MAX;
}

inline uint32_t mex(std::span<const uint32_t> values, std::vector<uint8_t>& marks) {
  if (uint32_t m = smallMex(values); m != UINT32_MAX) return m;
  marks.assign(values.size() + 1, 0);
  for (uint32_t v : values)
    if (v < marks.size()) marks[v] = 1;
  uint32_t m = 0;
  while (marks[m]) ++m;
  return m;
}

}  // namespace gdsl
