// NimTable: an mremap-grown array of 16-bit values that widens to 32 bits.
#include "runtime/NimTable.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace gdsl {
namespace {

constexpr size_t kFirstBytes = size_t{64} << 10;

// `populate`: the pages are made at once, in one call, instead of one
// page fault each as they are first written (for a table filled at once).
void* mapBytes(size_t bytes, bool populate = false) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

}  // namespace

NimTable::NimTable(NimTable&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      bytes_(std::exchange(other.bytes_, 0)),
      wide_(std::exchange(other.wide_, false)),
      storage_(std::exchange(other.storage_, nullptr)) {}

NimTable& NimTable::operator=(NimTable&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
    wide_ = std::exchange(other.wide_, false);
    storage_ = std::exchange(other.storage_, nullptr);
  }
  return *this;
}

NimTable::~NimTable() {
  release();
}

void NimTable::release() {
  // Memory of a storage is the storage's.
  if (data_ && !storage_) munmap(data_, bytes_);
}

void NimTable::useStorage(TableStorage* storage, TableStorage::Room room, int64_t size, bool wide) {
  release();
  storage_ = storage;
  data_ = room.data;
  bytes_ = room.bytes;
  size_ = size;
  wide_ = wide;
  capacity_ = static_cast<int64_t>(bytes_ / (wide ? 4 : 2));
}

void NimTable::grow(uint32_t value) {
  size_t entry = wide_ ? 4 : 2;
  if (!wide_ && value > UINT16_MAX) {
    // Widen: copy into a mapping of 32-bit entries of the same capacity.
    size_t bytes = std::max(kFirstBytes, static_cast<size_t>(capacity_) * 4);
    if (storage_) {
      TableStorage::Room room = storage_->widen(narrowData(), size_, bytes);
      data_ = room.data;
      bytes_ = room.bytes;
    } else {
      auto* wider = static_cast<uint32_t*>(mapBytes(bytes));
      const auto* narrow = static_cast<const uint16_t*>(data_);
      for (int64_t i = 0; i < size_; ++i) wider[i] = narrow[i];
      if (data_) munmap(data_, bytes_);
      data_ = wider;
      bytes_ = bytes;
    }
    wide_ = true;
    capacity_ = static_cast<int64_t>(bytes_ / 4);
    if (size_ < capacity_) return;
    entry = 4;
  }
  growBytes(bytes_ + entry);
}

void NimTable::reserve(int64_t count) {
  const size_t least = static_cast<size_t>(count) * (wide_ ? 4 : 2);
  if (count > capacity_) growBytes(least, least > kFirstBytes);
}

void NimTable::growBytes(size_t least, bool populate) {
  if (storage_) {
    TableStorage::Room room = storage_->grow(std::max(kFirstBytes, least));
    data_ = room.data;
    bytes_ = room.bytes;
  } else if (!data_) {
    bytes_ = kFirstBytes;
    while (bytes_ < least) bytes_ *= 2;
    data_ = mapBytes(bytes_, populate);
  } else {
    // Doubling the mapping moves pages, not bytes: nothing is copied.
    size_t bytes = bytes_ * 2;
    while (bytes < least) bytes *= 2;
    void* p = mremap(data_, bytes_, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (populate) madvise(static_cast<char*>(p) + bytes_, bytes - bytes_, MADV_POPULATE_WRITE);
    data_ = p;
    bytes_ = bytes;
  }
  capacity_ = static_cast<int64_t>(bytes_ / (wide_ ? 4 : 2));
}

void NimTable::append(const NimTable& source, int64_t from, int64_t count) {
  if (count <= 0) return;
  if (source.wide_ && !wide_) {
    // The values may need 32 bits: push widens at the first that does.
    for (int64_t i = 0; i < count; ++i) push(source.wideData()[from + i]);
    return;
  }
  if (size_ + count > capacity_) growBytes(static_cast<size_t>(size_ + count) * (wide_ ? 4 : 2));
  // After growing: `source` may be this table, whose data may have moved.
  if (wide_ == source.wide_) {
    const size_t entry = wide_ ? 4 : 2;
    std::memmove(static_cast<char*>(data_) + size_ * entry,
                 static_cast<const char*>(source.data_) + from * entry, count * entry);
  } else {
    const uint16_t* narrow = source.narrowData() + from;
    uint32_t* wide = static_cast<uint32_t*>(data_) + size_;
    for (int64_t i = 0; i < count; ++i) wide[i] = narrow[i];
  }
  size_ += count;
}

}  // namespace gdsl
