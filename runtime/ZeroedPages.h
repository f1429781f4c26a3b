// ZeroedPages: a block of zero bytes in its own anonymous mapping, made
// resident in one call instead of a page fault per 4 KiB page as it is first
// touched. For the search's hash tables (runtime/CellSearch.h), which are
// touched all over as soon as they fill: on a virtual machine each page fault
// costs microseconds, and a search that doubles its caches a few times took
// a quarter of its time in faults (Cram 4 x 9: 16,800 faults, 0.3 s of
// system time in 1.3 s). A block of 2 MiB or more is asked for in huge pages
// (transparent huge pages on request; where the system does not give them,
// nothing changes), which also saves the search TLB misses.
#pragma once

#include <cstddef>
#include <utility>

namespace gdsl {

class ZeroedPages {
 public:
  ZeroedPages() = default;
  // `bytes` zero bytes (at least one page); `populate`: made resident now.
  ZeroedPages(size_t bytes, bool populate);
  ZeroedPages(ZeroedPages&& other) noexcept { swap(other); }
  ZeroedPages& operator=(ZeroedPages&& other) noexcept {
    ZeroedPages gone(std::move(other));
    swap(gone);
    return *this;
  }
  ZeroedPages(const ZeroedPages&) = delete;
  ZeroedPages& operator=(const ZeroedPages&) = delete;
  ~ZeroedPages();

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  bool empty() const { return data_ == nullptr; }

 private:
  void swap(ZeroedPages& other) noexcept {
    std::swap(mapping_, other.mapping_);
    std::swap(mappingBytes_, other.mappingBytes_);
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
  }
  void* mapping_ = nullptr;  // what mmap gave (data_ may start later in it)
  size_t mappingBytes_ = 0;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace gdsl
