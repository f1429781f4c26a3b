// A dense memo for one game whose parameters are all integers: an array
// indexed by the parameters, as a hand-written program would keep it. Cell
// (w0, ..., wk-1) holds the position's value + 1; 0 while unknown, and
// kDenseOnStack while a native search is expanding it (a successor that finds
// that mark has found a cycle). The box starts as the first query's
// parameters + 1 and grows (doubling the dimension that overflowed) when a
// successor falls outside it; its memory is zero-filled on demand, so cells
// never reached cost no memory.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

namespace gdsl {

inline constexpr uint32_t kDenseOnStack = UINT32_MAX;

class DenseBox {
 public:
  // The box just covering `words` (each extent words[i] + 1).
  explicit DenseBox(std::span<const int64_t> words);

  size_t dimensions() const { return extent_.size(); }
  const std::vector<int64_t>& extent() const { return extent_; }
  const std::vector<int64_t>& stride() const { return stride_; }
  uint64_t cellCount() const { return cellCount_; }
  uint32_t* cells() { return cells_.get(); }

  bool covers(std::span<const int64_t> words) const;
  // The cell of `words`, which the box covers.
  uint32_t& at(std::span<const int64_t> words);
  // The value of `words` when the box holds it.
  bool known(std::span<const int64_t> words, uint32_t& value) const;

  // The cells of the box just covering `words` (UINT64_MAX past 2^62).
  static uint64_t cellsToHold(std::span<const int64_t> words);
  // The cells a box grown to cover `words` as well would have: each
  // dimension that does not cover it at least doubles.
  uint64_t cellsToCover(std::span<const int64_t> words) const;
  // Grows to cover `words` (keeping every value); cells() changes.
  void grow(std::span<const int64_t> words);

  // Positions whose values the box holds (a pass over every cell).
  int64_t knownCount() const;

 private:
  struct Free {
    void operator()(uint32_t* p) const { std::free(p); }
  };
  std::vector<int64_t> grownExtent(std::span<const int64_t> words) const;
  // The product of `extent`, UINT64_MAX past 2^62.
  static uint64_t product(std::span<const int64_t> extent);
  void allocate(std::vector<int64_t> extent);

  std::vector<int64_t> extent_;
  std::vector<int64_t> stride_;  // the last parameter varies fastest
  uint64_t cellCount_ = 0;
  std::unique_ptr<uint32_t[], Free> cells_;
};

}  // namespace gdsl
