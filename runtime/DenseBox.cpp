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
  cells_.reset(static_cast<uint32_t*>(std::calloc(count, sizeof(uint32_t))));
  if (!cells_) throw std::bad_alloc();
}

bool DenseBox::covers(std::span<const int64_t> words) const {
  if (words.size() != extent_.size()) return false;
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] < 0 || words[i] >= extent_[i]) return false;
  return true;
}

uint32_t& DenseBox::at(std::span<const int64_t> words) {
  int64_t index = 0;
  for (size_t i = 0; i < words.size(); ++i) index += words[i] * stride_[i];
  return cells_[static_cast<size_t>(index)];
}

bool DenseBox::known(std::span<const int64_t> words, uint32_t& value) const {
  if (!covers(words)) return false;
  int64_t index = 0;
  for (size_t i = 0; i < words.size(); ++i) index += words[i] * stride_[i];
  uint32_t cell = cells_[static_cast<size_t>(index)];
  if (cell == 0 || cell == kDenseOnStack) return false;
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
  std::unique_ptr<uint32_t[], Free> old = std::move(cells_);
  allocate(grownExtent(words));
  // Copy every old cell to its place in the new box, one row (the last
  // dimension) at a time.
  size_t k = oldExtent.size();
  std::vector<int64_t> at(k, 0);
  int64_t row = oldExtent[k - 1];
  for (;;) {
    int64_t from = 0, to = 0;
    for (size_t i = 0; i + 1 < k; ++i) {
      from += at[i] * oldStride[i];
      to += at[i] * stride_[i];
    }
    std::copy(old.get() + from, old.get() + from + row, cells_.get() + to);
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
  for (uint64_t i = 0; i < cellCount_; ++i) n += cells_[i] != 0 && cells_[i] != kDenseOnStack;
  return n;
}

}  // namespace gdsl
