// A growable table of nim values g(0), g(1), ... stored in 16 bits per heap
// and widened to 32 bits the first time a value does not fit. The memory is
// an anonymous mapping grown with mremap, so growing never copies and never
// holds two tables at once: the resident size is 2 bytes per heap (4 after
// widening) plus at most one page. A table can instead live in a file
// (runtime/TableFile.h), which then grows and widens it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gdsl {

// What a kernel reads: the values g(0..n-1) of one game, 16 or 32 bits each.
struct TableView {
  const void* data = nullptr;
  bool wide = false;  // 32-bit entries

  uint32_t operator[](int64_t i) const {
    return wide ? static_cast<const uint32_t*>(data)[i] : static_cast<const uint16_t*>(data)[i];
  }
};

// Where a table's entries live when not in its own anonymous mapping: the
// table asks it for more room and for 32-bit entries. It owns that memory.
class TableStorage {
 public:
  struct Room {
    void* data;
    size_t bytes;
  };
  virtual ~TableStorage() = default;
  // Room for at least `bytes` bytes of entries, the current ones kept.
  virtual Room grow(size_t bytes) = 0;
  // Room for at least `bytes` bytes of 32-bit entries holding the `count`
  // 16-bit entries at `narrow`, widened.
  virtual Room widen(const uint16_t* narrow, int64_t count, size_t bytes) = 0;
};

class NimTable {
 public:
  NimTable() = default;
  NimTable(const NimTable&) = delete;
  NimTable& operator=(const NimTable&) = delete;
  NimTable(NimTable&& other) noexcept;
  NimTable& operator=(NimTable&& other) noexcept;
  ~NimTable();

  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool wide() const { return wide_; }
  uint32_t operator[](int64_t i) const {
    return wide_ ? static_cast<const uint32_t*>(data_)[i] : static_cast<const uint16_t*>(data_)[i];
  }
  TableView view() const { return TableView{data_, wide_}; }
  const uint16_t* narrowData() const { return static_cast<const uint16_t*>(data_); }
  const uint32_t* wideData() const { return static_cast<const uint32_t*>(data_); }

  void push(uint32_t value) {
    if (size_ == capacity_ || (!wide_ && value > UINT16_MAX)) grow(value);
    if (wide_)
      static_cast<uint32_t*>(data_)[size_++] = value;
    else
      static_cast<uint16_t*>(data_)[size_++] = static_cast<uint16_t>(value);
  }
  // Room for `count` entries of the current width, made at once: one call
  // instead of a page fault per page as a table filled at once is written.
  void reserve(int64_t count);
  // Appends `count` values of `source` from index `from` (`source` may be
  // this table, with from + count <= size()).
  void append(const NimTable& source, int64_t from, int64_t count);
  // Drops the values of heaps `count` and above.
  void truncate(int64_t count) {
    if (count < size_) size_ = count;
  }
  // Bytes mapped for the table (what it costs in memory).
  size_t bytes() const { return bytes_; }

  // From now on the entries are the `size` entries (32-bit when `wide`) at
  // `room` in `storage`, which outlives the table; the table's own are dropped.
  void useStorage(TableStorage* storage, TableStorage::Room room, int64_t size, bool wide);
  const TableStorage* storage() const { return storage_; }

 private:
  void grow(uint32_t value);
  // Room for at least `least` bytes of entries, the current ones kept;
  // `populate`: the new pages made at once (see reserve).
  void growBytes(size_t least, bool populate = false);
  void release();

  void* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  size_t bytes_ = 0;
  bool wide_ = false;
  TableStorage* storage_ = nullptr;
};

}  // namespace gdsl
