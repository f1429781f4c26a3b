// TakeBreakSolver: the plain method and sparse space for take-and-break games
// (see TakeBreakSolver.h for why sparse space is exact for any mask).
#include "runtime/TakeBreakSolver.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace gdsl {

TakeBreakSolver::TakeBreakSolver(const ir::TakeBreakShape& shape, SparseOptions options)
    : shape_(shape), options_(options), nextCheck_(options.firstCheck) {
  stamps_.assign(64, 0);
}

std::string TakeBreakSolver::describe() const {
  if (!sparse_) return "plain method";
  return fmt::format("sparse space, mask {:#x}, {} rare heaps", mask_, rareHeaps_.size());
}

void TakeBreakSolver::growStamps(uint32_t v) {
  // Values xor into [0, 2^b) when all values are below 2^b.
  // and the mex of options below 2^b is at most 2^b.
  size_t size = 2 * std::bit_ceil(static_cast<size_t>(v) + 1);
  stamps_.resize(std::max(size, stamps_.size()), 0);
}

uint32_t TakeBreakSolver::next(const NimTable& table) {
  int64_t n = table.size();
  // Every option value is below 2^b when every table value is, and the mex
  // is at most 2^b: the stamps hold 2^(b+1) entries (every value below half
  // their size), so that the loops need no bounds checks.
  for (; scanned_ < n; ++scanned_) {
    uint32_t v = table[scanned_];
    if (v >= stamps_.size() / 2) growStamps(v);
  }
  if (++epoch_ == 0) {
    std::fill(stamps_.begin(), stamps_.end(), 0);
    epoch_ = 1;
  }
  bool splits = !shape_.two.empty() || !shape_.twoUnequal.empty();
  uint32_t v = 0;
  if (table.wide()) {
    if (options_.enabled && splits && n >= nextCheck_) chooseMask(table.wideData(), n);
    v = sparse_ ? sparseValue(table.wideData(), n) : plain(table.wideData(), n);
  } else {
    if (options_.enabled && splits && n >= nextCheck_) chooseMask(table.narrowData(), n);
    v = sparse_ ? sparseValue(table.narrowData(), n) : plain(table.narrowData(), n);
  }
  if (sparse_ && n >= 1 && rare(v)) {
    rareHeaps_.push_back(static_cast<uint32_t>(n));
    rareValues_.push_back(v);
    // Far more rare heaps than when the mask was chosen: choose again.
    if (!options_.always && static_cast<double>(rareHeaps_.size()) >
                                2 * options_.maxRareFraction * static_cast<double>(n))
      nextCheck_ = n + 1;
  }
  return v;
}

template <class T>
void TakeBreakSolver::smallOptions(const T* g, int64_t n) {
  for (int64_t k : shape_.whole)
    if (k == n) stamps_[0] = epoch_;
  for (int64_t k : shape_.one) {
    if (n - k < 1) break;
    stamps_[g[n - k]] = epoch_;
  }
}

template <class T>
uint32_t TakeBreakSolver::plain(const T* g, int64_t n) {
  uint32_t* stamps = stamps_.data();
  const uint32_t epoch = epoch_;
  smallOptions(g, n);
  for (int64_t k : shape_.two) {
    int64_t m = n - k;
    for (int64_t a = 1; 2 * a <= m; ++a) stamps[g[a] ^ g[m - a]] = epoch;
  }
  for (int64_t k : shape_.twoUnequal) {
    int64_t m = n - k;
    for (int64_t a = 1; 2 * a < m; ++a) stamps[g[a] ^ g[m - a]] = epoch;
  }
  uint32_t v = 0;
  while (stamps[v] == epoch) ++v;
  return v;
}

template <class T>
uint32_t TakeBreakSolver::sparseValue(const T* g, int64_t n) {
  uint32_t* stamps = stamps_.data();
  const uint32_t epoch = epoch_;
  smallOptions(g, n);
  // Every common option value: a pair with a rare heap r (either part).
  const size_t rareCount = rareHeaps_.size();
  for (int64_t k : shape_.two) {
    int64_t m = n - k;
    for (size_t i = 0; i < rareCount && rareHeaps_[i] < m; ++i)
      stamps[rareValues_[i] ^ g[m - rareHeaps_[i]]] = epoch;
  }
  for (int64_t k : shape_.twoUnequal) {
    int64_t m = n - k;
    for (size_t i = 0; i < rareCount && rareHeaps_[i] < m; ++i)
      if (2 * static_cast<int64_t>(rareHeaps_[i]) != m)
        stamps[rareValues_[i] ^ g[m - rareHeaps_[i]]] = epoch;
  }
  // The mex, proving each rare value below it by a pair that makes it.
  size_t family = 0;
  const size_t families = shape_.two.size() + shape_.twoUnequal.size();
  int64_t a = 1;
  uint32_t v = 0;
  for (;;) {
    while (stamps[v] == epoch) ++v;
    if (!rare(v)) return v;  // every common option is stamped: v is missing
    bool found = false;
    while (!found && family < families) {
      bool equal = family < shape_.two.size();
      int64_t m = n - (equal ? shape_.two[family] : shape_.twoUnequal[family - shape_.two.size()]);
      int64_t hi = equal ? m / 2 : (m - 1) / 2;
      for (; a <= hi; ++a) {
        uint32_t x = g[a] ^ g[m - a];
        stamps[x] = epoch;
        if (x == v) {
          found = true;
          ++a;
          break;
        }
      }
      if (!found) {
        ++family;
        a = 1;
      }
    }
    if (!found) return v;  // no pair makes v
  }
}

template <class T>
void TakeBreakSolver::chooseMask(const T* g, int64_t n) {
  nextCheck_ = 2 * n;
  std::vector<int64_t> count;
  for (int64_t i = 1; i < n; ++i) {
    if (g[i] >= count.size()) count.resize(std::bit_ceil(static_cast<size_t>(g[i]) + 1), 0);
    ++count[g[i]];
  }
  std::vector<uint32_t> seen;
  for (uint32_t v = 0; v < count.size(); ++v)
    if (count[v]) seen.push_back(v);
  // Masks over the low 12 bits: values that need more are rarer still.
  uint32_t bits = std::min<uint32_t>(12, std::bit_width(static_cast<uint32_t>(count.size() - 1)));
  uint32_t best = 0;
  int64_t bestRare = n;
  for (uint32_t mask = 1; mask < (uint32_t{1} << bits); ++mask) {
    int64_t rareHeaps = 0;
    for (uint32_t v : seen)
      if ((std::popcount(v & mask) & 1) == 0) rareHeaps += count[v];
    if (rareHeaps < bestRare) {
      bestRare = rareHeaps;
      best = mask;
    }
  }
  sparse_ = best != 0 && (options_.always || static_cast<double>(bestRare) <=
                                                 options_.maxRareFraction * static_cast<double>(n));
  mask_ = sparse_ ? best : 0;
  rareHeaps_.clear();
  rareValues_.clear();
  if (!sparse_) return;
  for (int64_t i = 1; i < n; ++i)
    if (rare(g[i])) {
      rareHeaps_.push_back(static_cast<uint32_t>(i));
      rareValues_.push_back(g[i]);
    }
}

}  // namespace gdsl
