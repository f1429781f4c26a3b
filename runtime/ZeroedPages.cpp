// Zeroed blocks made resident in one call (see ZeroedPages.h).
#include "runtime/ZeroedPages.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace gdsl {

namespace {
constexpr size_t kPageBytes = size_t{4} << 10;
constexpr size_t kHugeBytes = size_t{2} << 20;
}  // namespace

ZeroedPages::ZeroedPages(size_t bytes, bool populate) {
  bytes = (std::max(bytes, kPageBytes) + kPageBytes - 1) & ~(kPageBytes - 1);
  const bool huge = bytes >= kHugeBytes;
  // A huge page must be aligned on 2 MiB: map that much more and start there.
  mappingBytes_ = huge ? bytes + kHugeBytes : bytes;
  mapping_ =
      mmap(nullptr, mappingBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  auto start = reinterpret_cast<uintptr_t>(mapping_);
  if (huge) {
    start = (start + kHugeBytes - 1) & ~(kHugeBytes - 1);
    madvise(reinterpret_cast<void*>(start), bytes, MADV_HUGEPAGE);
  }
  data_ = reinterpret_cast<void*>(start);
  bytes_ = bytes;
  // (A kernel before 5.14 has no MADV_POPULATE_WRITE: the pages then come
  // as they are touched, as without `populate`.)
  if (populate) madvise(data_, bytes_, MADV_POPULATE_WRITE);
}

ZeroedPages::~ZeroedPages() {
  if (mapping_) munmap(mapping_, mappingBytes_);
}

}  // namespace gdsl
