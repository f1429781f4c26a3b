// MappedArray<T>: a growable array of a trivially copyable T in an anonymous
// mapping that doubles with mremap, as NimTable's does (runtime/NimTable.h):
// growing moves pages instead of copying bytes, never holds the old and the
// new array at once, and a page is touched (made resident) only when an
// entry on it is first written. New entries are zero. For the arrays of
// millions of entries a search grows one position at a time (the position
// table's, the loopy solver's), where std::vector's copies on each doubling
// and the page faults of each new copy cost a third of the time.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace gdsl {

template <class T>
class MappedArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  MappedArray() = default;
  MappedArray(const MappedArray& other) { *this = other; }
  MappedArray(MappedArray&& other) noexcept { swap(other); }
  MappedArray& operator=(const MappedArray& other) {
    if (this != &other) {
      clear();
      reserve(other.size_);
      if (other.size_) std::memcpy(data_, other.data_, other.size_ * sizeof(T));
      size_ = other.size_;
    }
    return *this;
  }
  MappedArray& operator=(MappedArray&& other) noexcept {
    MappedArray gone(std::move(other));
    swap(gone);
    return *this;
  }
  ~MappedArray() {
    if (data_) munmap(data_, bytes_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& back() { return data_[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ * sizeof(T) == bytes_) reserve(size_ + 1);
    data_[size_++] = value;
  }
  // New entries are zero: fresh pages are, and entries dropped by a smaller
  // resize or clear() are zeroed again.
  void resize(size_t n) {
    if (n > size_) {
      reserve(n);
    } else if (n < size_) {
      std::memset(static_cast<void*>(data_ + n), 0, (size_ - n) * sizeof(T));
    }
    size_ = n;
  }
  void clear() { resize(0); }
  // Room for `n` entries without moving.
  void reserve(size_t n) {
    size_t want = bytes_ ? bytes_ : kFirstBytes;
    while (want < n * sizeof(T)) want *= 2;
    if (want == bytes_) return;
    void* p = data_
                  ? mremap(data_, bytes_, want, MREMAP_MAYMOVE)
                  : mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Large arrays in huge pages where the system gives them on request
    // (transparent_hugepage "madvise"): a fault per 2 MiB instead of per
    // 4 KiB. Where it does not, nothing changes.
    if (want >= kHugeBytes) madvise(p, want, MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
    bytes_ = want;
  }
  void swap(MappedArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(bytes_, other.bytes_);
  }

 private:
  static constexpr size_t kFirstBytes = size_t{64} << 10;
  static constexpr size_t kHugeBytes = size_t{2} << 20;
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t bytes_ = 0;  // the mapping's size
};

}  // namespace gdsl
