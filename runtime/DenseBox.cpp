// The dense memo of a game with integer parameters (see DenseBox.h).
#include "runtime/DenseBox.h"

#include <algorithm>
#include <new>

namespace gdsl {

DenseBox::DenseBox(std::span<const int64_t> words) {
  std::vector<int64_t> extent;
  for (int64_t w : words) extent.push_back(w + 1);
  allocate(std::move(extent));
}

void DenseBox::allocate(std::vector<int64_t> extent) {
  extent_ = std::move(extent);
  stride_.assign(extent_.size(), 1);
  uint64_t count = 1;
  for (size_t i = extent_.size(); i-- > 0;) {
    stride_[i] = static_cast<int64_t>(count);
    count *= static_cast<uint64_t>(extent_[i]);
  }
  cellCount_ = count;
  // calloc: the pages are zero (unknown) and only touched ones cost memory.
  cells_.reset(std::calloc(count, wide_ ? sizeof(uint32_t) : sizeof(uint16_t)));
  if (!cells_) throw std::bad_alloc();
}

void DenseBox::widen() {
  if (wide_) return;
  std::unique_ptr<void, Free> old = std::move(cells_);
  cells_.reset(std::calloc(cellCount_, sizeof(uint32_t)));
  if (!cells_) {
    cells_ = std::move(old);
    throw std::bad_alloc();
  }
  const auto* from = static_cast<const uint16_t*>(old.get());
  auto* to = static_cast<uint32_t*>(cells_.get());
  for (uint64_t i = 0; i < cellCount_; ++i)
    if (from[i] != 0) to[i] = from[i] == kNarrowOnStack ? kCellOnStack : from[i];
  wide_ = true;
}

bool DenseBox::covers(std::span<const int64_t> words) const {
  if (words.size() != extent_.size()) return false;
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] < 0 || words[i] >= extent_[i]) return false;
  return true;
}

uint64_t DenseBox::index(std::span<const int64_t> words) const {
  int64_t at = 0;
  for (size_t i = 0; i < words.size(); ++i) at += words[i] * stride_[i];
  return static_cast<uint64_t>(at);
}

bool DenseBox::known(std::span<const int64_t> words, uint32_t& value) const {
  if (!covers(words)) return false;
  uint32_t cell = get(index(words));
  if (cell == 0 || cell == kCellOnStack) return false;
  value = cell - 1;
  return true;
}

std::vector<int64_t> DenseBox::grownExtent(std::span<const int64_t> words) const {
  std::vector<int64_t> extent = extent_;
  for (size_t i = 0; i < extent.size() && i < words.size(); ++i)
    if (words[i] >= extent[i]) {
      // Saturate: a word at INT64_MAX (or an extent past half of it) asks for
      // more cells than any limit, which product() reports as UINT64_MAX.
      int64_t needed = words[i] == INT64_MAX ? INT64_MAX : words[i] + 1;
      int64_t doubled = extent[i] > INT64_MAX / 2 ? INT64_MAX : 2 * extent[i];
      extent[i] = std::max(needed, doubled);
    }
  return extent;
}

uint64_t DenseBox::product(std::span<const int64_t> extent) {
  uint64_t count = 1;
  for (int64_t e : extent) {
    if (count > (uint64_t{1} << 62) / static_cast<uint64_t>(e)) return UINT64_MAX;
    count *= static_cast<uint64_t>(e);
  }
  return count;
}

uint64_t DenseBox::cellsToHold(std::span<const int64_t> words) {
  std::vector<int64_t> extent;
  for (int64_t w : words) {
    if (w == INT64_MAX) return UINT64_MAX;
    extent.push_back(w + 1);
  }
  return product(extent);
}

uint64_t DenseBox::cellsToCover(std::span<const int64_t> words) const {
  return product(grownExtent(words));
}

void DenseBox::grow(std::span<const int64_t> words) {
  std::vector<int64_t> oldExtent = extent_, oldStride = stride_;
  std::unique_ptr<void, Free> old = std::move(cells_);
  allocate(grownExtent(words));
  size_t cellBytes = wide_ ? sizeof(uint32_t) : sizeof(uint16_t);
  const auto* from = static_cast<const char*>(old.get());
  auto* into = static_cast<char*>(cells_.get());
  // Copy every old cell to its place in the new box, one row (the last
  // dimension) at a time.
  size_t k = oldExtent.size();
  std::vector<int64_t> at(k, 0);
  int64_t row = oldExtent[k - 1];
  for (;;) {
    int64_t fromCell = 0, to = 0;
    for (size_t i = 0; i + 1 < k; ++i) {
      fromCell += at[i] * oldStride[i];
      to += at[i] * stride_[i];
    }
    std::copy(from + static_cast<size_t>(fromCell) * cellBytes,
              from + static_cast<size_t>(fromCell + row) * cellBytes,
              into + static_cast<size_t>(to) * cellBytes);
    size_t i = k - 1;
    while (i-- > 0) {
      if (++at[i] < oldExtent[i]) break;
      at[i] = 0;
    }
    if (i == SIZE_MAX) break;
  }
}

int64_t DenseBox::knownCount() const {
  int64_t n = 0;
  if (mirror_.size() == 2 && extent_.size() == 2) {
    // Only the cells of positions in order: the others are their mirrors.
    for (int64_t a = 0; a < extent_[0]; ++a)
      for (int64_t b = 0; b < extent_[1]; ++b) {
        int64_t first = mirror_[0] == 0 ? a : b, second = mirror_[0] == 0 ? b : a;
        if (first > second) continue;
        uint32_t c = get(static_cast<uint64_t>(a * stride_[0] + b));
        n += c != 0 && c != kCellOnStack;
      }
    return n;
  }
  for (uint64_t i = 0; i < cellCount_; ++i) {
    uint32_t c = get(i);
    n += c != 0 && c != kCellOnStack;
  }
  return n;
}

}  // namespace gdsl
