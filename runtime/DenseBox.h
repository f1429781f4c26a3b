// A dense memo for one game whose parameters are all integers: an array
// indexed by the parameters, as a hand-written program would keep it. Cell
// (w0, ..., wk-1) holds the cell of runtime/MemoCell.h: the position's value
// + 1, 0 while unknown, kCellOnStack while a native search expands it. The cells are 16 bits wide
// (values below 65534, the mark all ones) until a value does not fit: the search that finds one
// stops (NativeStatus::Wide) and the engine widens the box to 32-bit cells, keeping every value, as
// a hand-written program sizes its array for the values it expects (three-row Chomp to 200: 16 MiB
// instead of 32, and the search runs faster for it). The box starts as the first query's parameters
// + 1 and grows (doubling the dimension that overflowed) when a successor falls
// outside it; its memory is zero-filled on demand, so cells never reached cost
// no memory.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "runtime/MemoCell.h"

namespace gdsl {

class DenseBox {
 public:
  // The largest cell a 16-bit box holds (value 65533); all ones is the mark.
  static constexpr uint32_t kNarrowMaxCell = 0xfffe;
  static constexpr uint16_t kNarrowOnStack = 0xffff;

  // The box just covering `words` (each extent words[i] + 1), 16-bit cells.
  explicit DenseBox(std::span<const int64_t> words);

  size_t dimensions() const { return extent_.size(); }
  const std::vector<int64_t>& extent() const { return extent_; }
  const std::vector<int64_t>& stride() const { return stride_; }
  uint64_t cellCount() const { return cellCount_; }
  // 32-bit cells (else 16-bit), and their memory.
  bool wide() const { return wide_; }
  void* cells() { return cells_.get(); }
  uint64_t bytes() const { return cellCount_ * (wide_ ? 4 : 2); }

  bool covers(std::span<const int64_t> words) const;
  // The cell index of `words`, which the box covers.
  uint64_t index(std::span<const int64_t> words) const;
  // Cell `i` as a 32-bit cell (kCellOnStack for the mark).
  uint32_t get(uint64_t i) const {
    if (wide_) return static_cast<const uint32_t*>(cells_.get())[i];
    uint16_t c = static_cast<const uint16_t*>(cells_.get())[i];
    return c == kNarrowOnStack ? kCellOnStack : c;
  }
  // Whether `cell` fits the box's cells (else widen() first).
  bool fits(uint32_t cell) const { return wide_ || cell <= kNarrowMaxCell || cell == kCellOnStack; }
  // Sets cell `i`; the cell fits.
  void set(uint64_t i, uint32_t cell) {
    if (wide_)
      static_cast<uint32_t*>(cells_.get())[i] = cell;
    else
      static_cast<uint16_t*>(cells_.get())[i] =
          cell == kCellOnStack ? kNarrowOnStack : static_cast<uint16_t>(cell);
  }
  // Makes the cells 32 bits wide, keeping every value; cells() changes.
  void widen();
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

  // The game sorts its two parameters (normalize -> G(min(a, b), max(a, b)),
  // ir::normalizedOrder): a position's parameters are in the order `order`
  // (order[0]'s <= order[1]'s), and the JIT also writes each value to the
  // mirror cell, with the two swapped, which knownCount does not count.
  void setMirror(std::vector<size_t> order) { mirror_ = std::move(order); }
  // Sets the value cell of `words` (which the box covers) and, in a box with
  // mirror cells, the mirror's when the box holds it: what every search
  // does once a position is valued, so that the JIT reads either.
  void setValue(std::span<const int64_t> words, uint32_t cell) {
    set(index(words), cell);
    if (mirror_.size() == 2 && words.size() == 2 && words[0] != words[1] && words[1] < extent_[0] &&
        words[0] < extent_[1])
      set(static_cast<uint64_t>(words[1] * stride_[0] + words[0]), cell);
  }

 private:
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::vector<int64_t> grownExtent(std::span<const int64_t> words) const;
  // The product of `extent`, UINT64_MAX past 2^62.
  static uint64_t product(std::span<const int64_t> extent);
  void allocate(std::vector<int64_t> extent);

  std::vector<int64_t> extent_;
  std::vector<int64_t> stride_;  // the last parameter varies fastest
  uint64_t cellCount_ = 0;
  bool wide_ = false;
  std::vector<size_t> mirror_;  // see setMirror
  std::unique_ptr<void, Free> cells_;
};

}  // namespace gdsl
