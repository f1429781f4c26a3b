// The mex (minimum excludant) of the values of a position's moves: the least
// value not among them. It is at most the number of values, so one pass over
// a bitmap of that size finds it; `marks` is scratch space kept by the caller
// between calls. The engine's search and the interpreter's native search use
// it (the JIT's kernels and searches mark epoch stamps instead).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gdsl {

inline uint32_t mex(std::span<const uint32_t> values, std::vector<uint8_t>& marks) {
  marks.assign(values.size() + 1, 0);
  for (uint32_t v : values)
    if (v < marks.size()) marks[v] = 1;
  uint32_t m = 0;
  while (marks[m]) ++m;
  return m;
}

}  // namespace gdsl
