// Values of a take-and-break game (ir::TakeBreakShape) computed natively from
// its table, by the plain method or with sparse space.
//
// Sparse space: split the values by a bit mask M into "rare" (popcount(v & M)
// even) and "common" (odd). The xor of two values is common exactly when one
// of them is rare, so every common option value of heap n comes from a pair
// that contains a rare heap: walking the few rare heaps finds them all. The
// mex is then the smallest value missing from those options, unless a smaller
// rare value is missing too; each rare value below it needs one pair that
// makes it, found by walking the pairs from the small end until it shows up.
// This is exact for any mask; a good mask (few rare heaps) only makes it
// fast. The mask is chosen from the values so far and re-chosen as the table
// grows; when no mask makes the rare heaps few, the plain method runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "runtime/NimTable.h"

namespace gdsl {

struct SparseOptions {
  bool enabled = true;
  int64_t firstCheck = 512;  // heaps computed by the plain method before a mask is tried
  // Sparse space pays when rare heaps are at most this fraction of the heaps.
  double maxRareFraction = 1.0 / 4;
  bool always = false;  // use the best mask even when it is not worth it (tests)
};

class TakeBreakSolver {
 public:
  TakeBreakSolver(const ir::TakeBreakShape& shape, SparseOptions options);

  // g(n) for n = table.size(), from the values g(0..n-1) in `table`.
  uint32_t next(const NimTable& table);

  // "sparse space, mask 0x1f, 123 rare heaps" or "plain method".
  std::string describe() const;
  bool sparse() const { return sparse_; }

 private:
  // Stamps the options of heap n that leave no heap or one heap.
  template <class T>
  void smallOptions(const T* g, int64_t n);
  template <class T>
  uint32_t plain(const T* g, int64_t n);
  template <class T>
  uint32_t sparseValue(const T* g, int64_t n);
  template <class T>
  void chooseMask(const T* g, int64_t n);
  void mark(uint32_t v) {
    if (v >= stamps_.size()) growStamps(v);
    stamps_[v] = epoch_;
  }
  bool marked(uint32_t v) const { return v < stamps_.size() && stamps_[v] == epoch_; }
  void growStamps(uint32_t v);
  bool rare(uint32_t v) const { return (__builtin_popcount(v & mask_) & 1) == 0; }

  ir::TakeBreakShape shape_;
  SparseOptions options_;
  std::vector<uint32_t> stamps_;  // stamps_[v] == epoch_: v is an option of the current heap
  uint32_t epoch_ = 0;
  int64_t scanned_ = 0;  // table values below this heap fit in the stamps
  bool sparse_ = false;
  uint32_t mask_ = 0;
  std::vector<uint32_t> rareHeaps_;   // heaps >= 1 with a rare value, ascending
  std::vector<uint32_t> rareValues_;  // their values
  int64_t nextCheck_ = 0;             // heap at which the mask is chosen again
};

}  // namespace gdsl
