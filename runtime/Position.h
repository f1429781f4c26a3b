// Positions of the runtime: a game id plus its parameters flattened into
// 64-bit words (an int is one word; a list is its length then its elements).
// A position in a sum is a component; a sum is a list of components.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "compiler/support/Hash.h"

namespace gdsl {

// The words of a position: up to kInline of them are stored in place (most
// positions have one to four), more on the heap. Positions are created and
// hashed per move, so this saves an allocation each time.
class Words {
 public:
  static constexpr uint32_t kInline = 6;

  Words() = default;
  Words(const Words& o) { assign(o.begin(), o.end()); }
  Words(Words&& o) noexcept { take(o); }
  Words& operator=(const Words& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  Words& operator=(Words&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~Words() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return heap_ ? heap_ : inline_; }
  const int64_t* data() const { return heap_ ? heap_ : inline_; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  int64_t& operator[](size_t i) { return data()[i]; }
  int64_t operator[](size_t i) const { return data()[i]; }

  void clear() { size_ = 0; }
  void push_back(int64_t w) {
    if (size_ == capacity()) grow(2 * capacity());
    data()[size_++] = w;
  }
  template <typename It>
  void assign(It first, It last) {
    size_ = 0;
    auto n = static_cast<uint32_t>(last - first);
    if (n > capacity()) grow(n);
    for (int64_t* out = data(); first != last; ++first) *out++ = *first;
    size_ = n;
  }

  bool operator==(const Words& o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }
  bool operator<(const Words& o) const {
    return std::lexicographical_compare(begin(), end(), o.begin(), o.end());
  }

 private:
  uint32_t capacity() const { return heap_ ? heapCapacity_ : kInline; }
  void grow(uint32_t wanted) {
    auto* fresh = new int64_t[wanted];
    std::copy(begin(), end(), fresh);
    delete[] heap_;
    heap_ = fresh;
    heapCapacity_ = wanted;
  }
  void release() {
    delete[] heap_;
    heap_ = nullptr;
    size_ = 0;
  }
  void take(Words& o) {
    size_ = o.size_;
    if (o.heap_) {
      heap_ = o.heap_;
      heapCapacity_ = o.heapCapacity_;
      o.heap_ = nullptr;
    } else {
      std::copy(o.inline_, o.inline_ + o.size_, inline_);
    }
    o.size_ = 0;
  }

  int64_t inline_[kInline];
  int64_t* heap_ = nullptr;
  uint32_t size_ = 0;
  uint32_t heapCapacity_ = 0;
};

struct Position {
  uint32_t game = 0;
  Words words;

  bool operator==(const Position& o) const { return game == o.game && words == o.words; }
  bool operator<(const Position& o) const {
    return game != o.game ? game < o.game : words < o.words;
  }
};

struct PositionHash {
  size_t operator()(const Position& p) const {
    uint64_t h = kGoldenRatio64 ^ p.game;
    for (int64_t w : p.words) h = hashCombine(h, static_cast<uint64_t>(w));
    return static_cast<size_t>(hashFinish(h));
  }
};

using Sum = std::vector<Position>;

// The size of a position that the runaway checks compare (Engine::recordGrowth,
// LoopySolver): the sum of its words' magnitudes (saturated).
inline uint64_t magnitude(std::span<const int64_t> words) {
  uint64_t size = 0;
  for (int64_t w : words) {
    uint64_t m = w < 0 ? 0 - static_cast<uint64_t>(w) : static_cast<uint64_t>(w);
    size = m > UINT64_MAX - size ? UINT64_MAX : size + m;
  }
  return size;
}

// "Cut(2, 3)", "Moore([1, 2])".
std::string formatPosition(const ir::Program& program, const Position& position);
// "Sub(4) + Sub(5)"; "0" for the empty sum.
std::string formatSum(const ir::Program& program, const Sum& sum);
// The error for a position with a negative parameter ("successor" inside a
// move, "position" in a statement), or "" when every parameter is >= 0.
std::string negativeParameterText(const ir::Program& program, const Position& position,
                                  const char* what);
// A nim value as written in gdsl: 0, *1, *2, ...
std::string formatNimber(uint64_t value);

}  // namespace gdsl
