// TakeBreakSolver: the plain method and sparse space over classes of value
// bits and heap parity, chosen by cost, for take-and-break games (see
// TakeBreakSolver.h for why sparse space is exact for any class).
#include "runtime/TakeBreakSolver.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "runtime/PairScan.h"

namespace gdsl {

namespace {

// Pair steps per heap are measured over windows of this many heaps.
constexpr int64_t kWindow = 1024;
// Classes look at the low bits of the values only (a mask over more bits
// is rarely better: larger values are rare anyway).
constexpr uint32_t kClassBits = 16;
// Heaps per block of rare-heap stamps, the fewest rare heaps that make a block
// pay (a block clears kBlock rows), and the widest row (values below 1024).
constexpr int64_t kBlock = 32;
constexpr size_t kBlockMinRare = 48;
constexpr size_t kBlockMaxStride = 2048;
// Bytes past the small bound in a row of marks (the mex may be the bound).
constexpr size_t kRowPad = 64;
// The low bytes of the table are kept for at most this many heaps (1 GiB), so
// that a table larger than memory (in a table file) is not copied into it.
constexpr int64_t kSmallHeaps = int64_t{1} << 30;

// The first index of `heaps` (ascending) with heaps[i] >= x.
size_t lowerBound(const std::vector<int64_t>& heaps, int64_t x) {
  return static_cast<size_t>(std::lower_bound(heaps.begin(), heaps.end(), x) - heaps.begin());
}

// Rows j = 0..kBlock-1 (Stride bytes apart) get w ^ src[j]. With values
// below 256 or 512 a row has a constant size: the unrolled loop is a load,
// an xor and a store per heap.
template <size_t Stride, class T>
void stampBlockFixed(uint8_t* block, const T* src, uint32_t w) {
#pragma GCC unroll 32
  for (int64_t j = 0; j < kBlock; ++j) block[static_cast<size_t>(j) * Stride + (w ^ src[j])] = 1;
}

// The rare heaps i in [lo, hi) of a block whose heaps split into m0 .. m0 +
// kBlock - 1: rows j get values[i] ^ g[m0 - heaps[i] + j]. Four rare heaps
// at a time, their stores interleaved row by row: a quarter faster than one
// at a time (docs/heaps.md, "Inner loops").
template <size_t Stride, class T>
void stampRareFixed(uint8_t* block, const T* g, int64_t m0, const int64_t* heaps,
                    const uint32_t* values, size_t lo, size_t hi) {
  size_t i = lo;
  for (; i + 4 <= hi; i += 4) {
    const T *s0 = g + (m0 - heaps[i]), *s1 = g + (m0 - heaps[i + 1]);
    const T *s2 = g + (m0 - heaps[i + 2]), *s3 = g + (m0 - heaps[i + 3]);
    const uint32_t w0 = values[i], w1 = values[i + 1], w2 = values[i + 2], w3 = values[i + 3];
#pragma GCC unroll 32
    for (int64_t j = 0; j < kBlock; ++j) {
      uint8_t* row = block + static_cast<size_t>(j) * Stride;
      row[w0 ^ s0[j]] = 1;
      row[w1 ^ s1[j]] = 1;
      row[w2 ^ s2[j]] = 1;
      row[w3 ^ s3[j]] = 1;
    }
  }
  for (; i < hi; ++i) stampBlockFixed<Stride>(block, g + (m0 - heaps[i]), values[i]);
}

template <class T>
void stampRare(uint8_t* block, size_t stride, const T* g, int64_t m0, const int64_t* heaps,
               const uint32_t* values, size_t lo, size_t hi) {
  if (stride == 256 + kRowPad)
    return stampRareFixed<256 + kRowPad>(block, g, m0, heaps, values, lo, hi);
  if (stride == 512 + kRowPad)
    return stampRareFixed<512 + kRowPad>(block, g, m0, heaps, values, lo, hi);
  for (size_t i = lo; i < hi; ++i) {
    const T* src = g + (m0 - heaps[i]);
    for (int64_t j = 0; j < kBlock; ++j)
      block[static_cast<size_t>(j) * stride + (values[i] ^ src[j])] = 1;
  }
}

// The loops GDSL_SIMD allows: "off" (or "0") the portable ones, "avx2" at
// most AVX2; unset, any.
SimdLevel simdAllowed() {
  const char* env = std::getenv("GDSL_SIMD");
  if (env && (std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0))
    return SimdLevel::portable;
  if (env && std::strcmp(env, "avx2") == 0) return SimdLevel::avx2;
  return SimdLevel::avx512;
}

// In place: h[w] = sum over u of count[u] * (-1)^popcount(u & w).
void hadamard(std::vector<int64_t>& h) {
  for (size_t len = 1; len < h.size(); len <<= 1)
    for (size_t i = 0; i < h.size(); i += 2 * len)
      for (size_t j = i; j < i + len; ++j) {
        int64_t x = h[j], y = h[j + len];
        h[j] = x + y;
        h[j + len] = x - y;
      }
}

}  // namespace

TakeBreakSolver::TakeBreakSolver(const ir::TakeBreakShape& shape, SparseOptions options)
    : shape_(shape), options_(options), nextCheck_(options.firstCheck) {
  stamps_.assign(64, 0);
  counts_.assign(2, 0);
  random_ = options.randomSeed;
  simd_ = std::min(options.simd, simdAllowed());
  for (int64_t parity : {0, 1}) {
    Group group;
    group.kParity = parity;
    for (int64_t k : shape_.two)
      if ((k & 1) == parity) group.families.push_back(Family{ir::SplitRule{k}});
    for (int64_t k : shape_.twoUnequal)
      if ((k & 1) == parity) group.families.push_back(Family{ir::SplitRule{k, 1, INT64_MAX, 1}});
    for (const ir::SplitRule& rule : shape_.twoWhere)
      if ((rule.k & 1) == parity && rule.maxPart == INT64_MAX)
        group.families.push_back(Family{rule});
    if (!group.families.empty()) groups_.push_back(std::move(group));
  }
  for (const ir::SplitRule& rule : shape_.twoWhere)
    if (rule.maxPart != INT64_MAX) boundedRules_.push_back(Family{rule});
  segments_.push_back(Segment{0, "plain method"});
  std::vector<int64_t> removals = shape_.two;
  removals.insert(removals.end(), shape_.twoUnequal.begin(), shape_.twoUnequal.end());
  if (removals.size() >= 2) {
    const auto [least, most] = std::minmax_element(removals.begin(), removals.end());
    if (*most > *least) splitSlots_ = static_cast<size_t>(*most - *least + 1);
  }
}

bool TakeBreakSolver::sparse() const {
  return std::any_of(groups_.begin(), groups_.end(), [](const Group& g) { return g.sparse; });
}

bool TakeBreakSolver::parityClasses() const {
  return std::any_of(groups_.begin(), groups_.end(),
                     [](const Group& g) { return g.sparse && g.parity; });
}

std::string TakeBreakSolver::groupName(const Group& g) const {
  std::string out = "splits removing ";
  for (size_t i = 0; i < g.families.size(); ++i) {
    const Family& f = g.families[i];
    out += fmt::format("{}{}{}", i ? ", " : "", f.rule.k,
                       f.conditioned ? " where " + conditionText(f.rule)
                       : f.unequal() ? std::string(" (unequal)")
                                     : std::string());
  }
  return out;
}

std::string TakeBreakSolver::method() const {
  if (!sparse()) return "plain method";
  std::string out = "sparse space (";
  for (size_t i = 0; i < groups_.size(); ++i) {
    const Group& g = groups_[i];
    if (i) out += "; ";
    if (groups_.size() > 1) out += groupName(g) + ": ";
    out += g.sparse ? fmt::format("mask {:#x}{}", g.mask, g.parity ? " with heap parity" : "")
                    : "plain method";
  }
  return out + ")";
}

std::string TakeBreakSolver::describe() const {
  std::string out;
  if (shape_.oneFrom > 0)
    out = fmt::format("every removal of {} or more that leaves a heap: one growing set of values; ",
                      shape_.oneFrom);
  if (!shape_.three.empty()) {
    out += fmt::format("three heaps ({}), removing ",
                       !pairSetsOn_      ? std::string("every triple")
                       : pairWords_ == 1 ? std::string("pair sets: values below 64")
                                         : fmt::format("pair sets of {} words", pairWords_));
    for (size_t i = 0; i < shape_.three.size(); ++i)
      out += fmt::format("{}{}", i ? ", " : "", shape_.three[i]);
    if (groups_.empty()) return out;
    out += "; ";
  }
  for (const Family& f : boundedRules_)
    out += fmt::format("plain method (splits removing {} where {}); ", f.rule.k,
                       conditionText(f.rule));
  if (groups_.empty() && !out.empty()) {
    out.resize(out.size() - 2);
    return out;
  }
  if (groups_.empty()) return "plain method (no splits)";
  for (size_t i = 0; i < groups_.size(); ++i) {
    const Group& g = groups_[i];
    if (i) out += "; ";
    if (g.sparse)
      out += fmt::format("sparse space, mask {:#x}{}, {} rare heaps ({})", g.mask,
                         g.parity ? " with heap parity" : "", g.rareHeaps.size(), groupName(g));
    else
      out += fmt::format("plain method ({})", groupName(g));
  }
  if (sharedFrom_ >= 0)
    out += fmt::format("; split sets shared between removals from heap {}", sharedFrom_);
  // Which method ran where: the last few changes.
  out += "; heaps ";
  size_t first = segments_.size() > 6 ? segments_.size() - 6 : 0;
  if (first) out += fmt::format("({} earlier changes) ", first);
  for (size_t i = first; i < segments_.size(); ++i) {
    int64_t to = i + 1 < segments_.size() ? segments_[i + 1].from - 1 : computed_ - 1;
    out += fmt::format("{}{}-{} {}", i > first ? ", " : "", segments_[i].from, to,
                       segments_[i].method);
  }
  return out;
}

std::string TakeBreakSolver::conditionText(const ir::SplitRule& r) {
  std::vector<std::string> parts;
  static const char* const kParities[8] = {"",
                                           "both parts are even",
                                           "one part is odd, one even",
                                           "at most one part is odd",
                                           "both parts are odd",
                                           "the parts have the same parity",
                                           "a part is odd",
                                           ""};
  if (r.parities != 7) parts.push_back(kParities[r.parities]);
  if (r.minPart > 1) parts.push_back(fmt::format("each part is at least {}", r.minPart));
  if (r.maxPart != INT64_MAX)
    parts.push_back(fmt::format("the smaller part is at most {}", r.maxPart));
  if (r.minDiff > 0) parts.push_back(fmt::format("the parts differ by at least {}", r.minDiff));
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out.empty() ? "any parts" : out;
}

void TakeBreakSolver::growStamps(uint32_t v) {
  // Values xor into [0, 2^b) when all values are below 2^b.
  // and the mex of options below 2^b is at most 2^b.
  size_t size = 2 * std::bit_ceil(static_cast<size_t>(v) + 1);
  stamps_.resize(std::max(size, stamps_.size()), 0);
}

uint32_t TakeBreakSolver::holeFrom(uint32_t v) {
  uint32_t root = v;
  while (root < holes_.size() && holes_[root] != root) root = holes_[root];
  while (v < root) {  // every value from v to the root points at it
    const uint32_t next = holes_[v];
    holes_[v] = root;
    v = next;
  }
  return root;
}

void TakeBreakSolver::addToPrefix(uint32_t v) {
  const size_t size = holes_.size();
  if (v + size_t{2} > size) {
    holes_.resize(std::bit_ceil(v + size_t{2}));
    for (size_t x = size; x < holes_.size(); ++x) holes_[x] = static_cast<uint32_t>(x);
  }
  holes_[v] = v + 1;
}

void TakeBreakSolver::count(int64_t i, uint32_t v) {
  uint32_t folded = v & ((uint32_t{1} << kClassBits) - 1);
  size_t index = (static_cast<size_t>(folded) << 1) | static_cast<size_t>(i & 1);
  if (index >= counts_.size()) counts_.resize(std::bit_ceil(index + 1), 0);
  ++counts_[index];
}

uint32_t TakeBreakSolver::next(const NimTable& table) {
  int64_t n = table.size();
  // Values this solver did not compute (a resumed checkpoint) are their own segment.
  if (computed_ == 0 && scanned_ == 0 && n > 1) {
    segments_.front().method = "loaded";
    segments_.push_back(Segment{n, method()});
  }
  // Every option value is below 2^b when every table value is, and the mex
  // is at most 2^b: the stamps hold 2^(b+1) entries (every value below half
  // their size), so that the loops need no bounds checks.
  for (; scanned_ < n; ++scanned_) {
    uint32_t v = table[scanned_];
    if (v >= stamps_.size() / 2) {
      growStamps(v);
      ++version_;
    }
    maxValue_ = std::max(maxValue_, v);
    if (lowBytes_) {
      if (scanned_ < kSmallHeaps) {
        bytes_.push_back(static_cast<uint8_t>(v));
      } else {
        lowBytes_ = false;
        std::vector<uint8_t>().swap(bytes_);
      }
    }
    if (small_ && (v >= 256 || !lowBytes_)) {
      small_ = false;
      ++version_;
    }
    if (scanned_ >= 1) count(scanned_, v);
  }
  if (shape_.oneFrom > 0)
    for (; prefixHeaps_ <= n - shape_.oneFrom; ++prefixHeaps_) addToPrefix(table[prefixHeaps_]);
  if (++epoch_ == 0) {
    std::fill(stamps_.begin(), stamps_.end(), 0);
    epoch_ = 1;
  }
  bool check = options_.enabled && !groups_.empty() && n >= nextCheck_;
  uint64_t stepsBefore = 0;
  for (const Group& group : groups_) stepsBefore += group.steps;
  uint32_t v = 0;
  if (small_) {
    if (check) choose(bytes_.data(), n);
    v = value(bytes_.data(), n);
  } else if (table.wide()) {
    if (check) choose(table.wideData(), n);
    v = value(table.wideData(), n);
  } else {
    if (check) choose(table.narrowData(), n);
    v = value(table.narrowData(), n);
  }
  for (Group& group : groups_)
    if (group.sparse && n >= 1 && rareAt(group, n, v)) {
      group.rareHeaps.push_back(n);
      group.rareValues.push_back(v);
    }
  computed_ = n + 1;
  for (const Group& group : groups_) totalSteps_ += group.steps;
  totalSteps_ -= stepsBefore;
  if (computed_ >= nextStepSample_) {
    stepSamples_.push_back({computed_, totalSteps_});
    nextStepSample_ = 2 * computed_;
  }
  if (n + 1 - windowStart_ >= kWindow) {
    double heaps = static_cast<double>(n + 1 - windowStart_);
    for (Group& group : groups_) {
      group.measured = static_cast<double>(group.steps) / heaps;
      group.steps = 0;
      // Far costlier than when the class was chosen: choose again.
      if (group.sparse && !options_.always && !options_.randomSeed &&
          group.measured > 2 * group.estimate + 16)
        nextCheck_ = std::min(nextCheck_, n + 1);
    }
    windowStart_ = n + 1;
  }
  return v;
}

template <class T>
void TakeBreakSolver::extendPairSets(const T* g, int64_t upTo) {
  const size_t words = pairWords_;
  while (static_cast<int64_t>(pairSets_.size() / words) <= upTo) {
    const int64_t m = static_cast<int64_t>(pairSets_.size() / words);
    pairSets_.resize(pairSets_.size() + words, 0);
    uint64_t* set = pairSets_.data() + pairSets_.size() - words;
    for (int64_t b = 1; 2 * b <= m; ++b) {
      const uint32_t x = g[b] ^ g[m - b];
      set[x >> 6] |= uint64_t{1} << (x & 63);
    }
  }
}

template <class T, class Marks>
void TakeBreakSolver::threeSplits(const T* g, int64_t n, Marks marks) {
  // Pair sets as wide as the values need (a power of two of words, at least
  // 4, so that xor by a value moves whole words and blocks of four words
  // among them), built again when the values outgrow them; every triple once
  // they would pass kPairSetBytes.
  if (pairSetsOn_ && maxValue_ >= 64 * pairWords_) {
    const size_t words =
        std::max<size_t>(4, std::bit_ceil(static_cast<size_t>(maxValue_) / 64 + 1));
    std::vector<uint64_t>().swap(pairSets_);
    if (static_cast<double>(words) * 8 * static_cast<double>(n) > kPairSetBytes) {
      pairSetsOn_ = false;
    } else {
      pairWords_ = words;
    }
  }
  const size_t words = pairWords_;
  for (int64_t k : shape_.three) {
    const int64_t r = n - k;  // a + b + c, each at least 1
    if (r < 3) break;         // (k ascending)
    if (pairSetsOn_) {
      extendPairSets(g, r - 1);
      // A triple a <= b <= c is its smallest part a (at most r / 3) and a
      // pair of r - a: the options are the pair sets of r - a, their values
      // xored with g(a).
      if (words == 1) {
        uint64_t options = 0;
        for (int64_t a = 1; 3 * a <= r; ++a) options |= xorIndices(pairSets_[r - a], g[a]);
        for (; options != 0; options &= options - 1)
          marks.set(static_cast<uint32_t>(std::countr_zero(options)));
        continue;
      }
      uint64_t* options = wideTripleOptions(g, r, words);
      for (size_t j = 0; j < words; ++j)
        for (uint64_t w = options[j]; w != 0; w &= w - 1)
          marks.set(static_cast<uint32_t>(64 * j + std::countr_zero(w)));
    } else {
      for (int64_t a = 1; 3 * a <= r; ++a)
        for (int64_t b = a; 2 * b <= r - a; ++b) marks.set(g[a] ^ g[b] ^ g[r - a - b]);
    }
  }
}

namespace {

// to[4 (b ^ high) + i] |= from[4 b + i]: a set of `words` words (a multiple
// of 4) moved by xor with 256 high: blocks of four words stay blocks.
void orBlocks(uint64_t* to, const uint64_t* from, size_t words, size_t high) {
  for (size_t b = 0; b < words / 4; ++b) {
    uint64_t* t = to + 4 * (b ^ high);
    const uint64_t* f = from + 4 * b;
#ifdef __SSE2__
    for (size_t i = 0; i < 4; i += 2) {
      __m128i* at = reinterpret_cast<__m128i*>(t + i);
      _mm_storeu_si128(at, _mm_or_si128(_mm_loadu_si128(at),
                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(f + i))));
    }
#else
    for (size_t i = 0; i < 4; ++i) t[i] |= f[i];
#endif
  }
}

// to[j ^ swap] |= from[j] for every word j, swap 0..3 (within blocks of four).
void orSwapped(uint64_t* to, const uint64_t* from, size_t words, size_t swap) {
#ifdef __SSE2__
  for (size_t j = 0; j < words; j += 4) {
    __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + j));
    __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + j + 2));
    if (swap & 1) {  // the two words of each half
      lo = _mm_shuffle_epi32(lo, 0x4E);
      hi = _mm_shuffle_epi32(hi, 0x4E);
    }
    if (swap & 2) std::swap(lo, hi);
    __m128i* at = reinterpret_cast<__m128i*>(to + j);
    _mm_storeu_si128(at, _mm_or_si128(_mm_loadu_si128(at), lo));
    _mm_storeu_si128(at + 1, _mm_or_si128(_mm_loadu_si128(at + 1), hi));
  }
#else
  for (size_t j = 0; j < words; ++j) to[j ^ swap] |= from[j];
#endif
}

}  // namespace

void TakeBreakSolver::xorBits(uint64_t* set, size_t words, uint32_t low) {
  for (int j = 0; j < 6; ++j)
    if ((low >> j) & 1) {
      const int shift = 1 << j;
      const uint64_t half = kHalves[j];
      for (size_t i = 0; i < words; ++i)
        set[i] = ((set[i] & half) << shift) | ((set[i] >> shift) & half);
    }
}

template <class T>
uint64_t* TakeBreakSolver::wideTripleOptions(const T* g, int64_t r, size_t words) {
  // The union over a <= r / 3 of the pair set of r - a moved by xor with
  // g(a), in three steps that keep the moves cheap:
  // 1. gathered by the low 8 bits of g(a) (256 sets), each set moved by its
  //    high bits only, which move blocks of four words (an OR per word);
  // 2. the 256 gathered by the low 6 bits (64 sets), moved by bits 6 and 7,
  //    which swap words within a block;
  // 3. each of the 64 moved by its 6 bits within the words.
  tripleGathered_.resize(320 * words);
  uint64_t* by8 = tripleGathered_.data();
  uint64_t* by6 = by8 + 256 * words;
  tripleOptions_.assign(words, 0);
  uint64_t* options = tripleOptions_.data();
  std::array<uint64_t, 4> used8{};  // bit key: gathering `key` was written this time
  uint64_t used6 = 0;
  for (int64_t a = 1; 3 * a <= r; ++a) {
    const uint64_t* set = pairSets_.data() + static_cast<size_t>(r - a) * words;
    const uint32_t v = g[a], key = v & 255;
    uint64_t* into = by8 + key * words;
    if (!((used8[key >> 6] >> (key & 63)) & 1)) {
      used8[key >> 6] |= uint64_t{1} << (key & 63);
      std::fill(into, into + words, 0);
    }
    orBlocks(into, set, words, v >> 8);
  }
  for (uint32_t key = 0; key < 256; ++key) {
    if (!((used8[key >> 6] >> (key & 63)) & 1)) continue;
    const uint32_t low = key & 63;
    const size_t swap = (key >> 6) & 3;  // word j goes to j ^ swap
    uint64_t* into = by6 + low * words;
    if (!((used6 >> low) & 1)) {
      used6 |= uint64_t{1} << low;
      std::fill(into, into + words, 0);
    }
    orSwapped(into, by8 + key * words, words, swap);
  }
  for (; used6 != 0; used6 &= used6 - 1) {
    const uint32_t low = static_cast<uint32_t>(std::countr_zero(used6));
    uint64_t* set = by6 + low * words;
    xorBits(set, words, low);
    for (size_t j = 0; j < words; ++j) options[j] |= set[j];
  }
  return options;
}

int TakeBreakSolver::partParity(const Family& f, int64_t m) {
  if (f.rule.parities == 7) return -1;
  const bool even = (f.rule.parities & ir::SplitRule::parityBit(0, m)) != 0;
  const bool odd = (f.rule.parities & ir::SplitRule::parityBit(1, m - 1)) != 0;
  return even && odd ? -1 : even ? 0 : odd ? 1 : -2;
}

int64_t TakeBreakSolver::pairCount(const Family& f, int64_t m) {
  const int64_t span = std::max<int64_t>(0, lastPart(f, m) + 1 - firstPart(f));
  const int parity = partParity(f, m);
  return parity == -1 ? span : parity == -2 ? 0 : (span + 1) / 2;
}

template <class T, class Marks>
int64_t TakeBreakSolver::conditionedWalk(const T* g, const Family& f, int64_t m, int64_t from,
                                         uint32_t stop, Marks marks) {
  const int64_t hi = lastPart(f, m);
  const int parity = partParity(f, m);
  if (parity == -2) return hi + 1;
  int64_t a = std::max(from, firstPart(f));
  const int64_t stride = parity == -1 ? 1 : 2;
  if (parity >= 0 && (a & 1) != parity) ++a;
  for (; a <= hi; a += stride) {
    const uint32_t x = g[a] ^ g[m - a];
    marks.set(x);
    if (x == stop) return a;
  }
  return hi + 1;
}

double TakeBreakSolver::costExponent() const {
  // Three heaps: a word per sum while values are small, else every triple.
  if (!shape_.three.empty()) return pairSetsOn_ && pairWords_ == 1 ? 1 : 2;
  if (groups_.empty() && boundedRules_.empty()) return 0;  // removals only
  if (groups_.empty()) return 1;  // splits with a bounded part: the plain method
  // The plain method walks (n - k) / 2 pairs per split rule at heap n.
  if (!std::all_of(groups_.begin(), groups_.end(), [](const Group& g) { return g.sparse; }))
    return 1;
  // Sparse space: pair steps per heap over the last two doublings.
  size_t k = stepSamples_.size();
  if (k < 3) return -1;
  const StepSample &s0 = stepSamples_[k - 3], &s1 = stepSamples_[k - 2], &s2 = stepSamples_[k - 1];
  double before =
      static_cast<double>(s1.steps - s0.steps) / static_cast<double>(s1.heaps - s0.heaps);
  double after =
      static_cast<double>(s2.steps - s1.steps) / static_cast<double>(s2.heaps - s1.heaps);
  if (before <= 0 || after <= 0) return -1;
  double growth =
      static_cast<double>(s1.heaps + s2.heaps) / static_cast<double>(s0.heaps + s1.heaps);
  return std::clamp(std::log(after / before) / std::log(growth), 0.0, 2.0);
}

void TakeBreakSolver::buildClassBytes() {
  std::memset(rareAnyBytes_, 0, sizeof rareAnyBytes_);
  for (Group& group : groups_)
    for (int64_t parity : {0, 1})
      for (uint32_t v = 0; v < kClassBytes; ++v) {
        uint8_t rare = group.sparse && v < ValueSet::kSize && rareAt(group, parity, v);
        group.rareBytes[parity][v] = rare;
        rareAnyBytes_[parity][v] |= rare;
      }
}

template <class T>
uint8_t* TakeBreakSolver::blockRow(const T* g, int64_t n) {
  if (blockVersion_ == version_ && n >= blockStart_ && n < blockEnd_)
    return block_.empty() ? nullptr
                          : block_.data() + static_cast<size_t>(n - blockStart_) * blockStride_;
  // A new block for heaps n..n+kBlock-1: the rare heaps r with kBlock <= r <
  // n - k (every pair's other part, m - r < n, is known) and, for unequal
  // splits, 2r outside the block's m = n - k .. n - k + kBlock - 1.
  blockVersion_ = version_;
  blockStart_ = n;
  blockEnd_ = n + kBlock;
  // Every value xors below the small bound (256 or 512; the mex is at most
  // the bound, so a row has room past it), else below the stamps' size.
  blockStride_ = smallBound<T>() ? smallBound<T>() + kRowPad : stamps_.size();
  size_t total = 0;
  for (Group& group : groups_)
    for (Family& f : group.families) {
      f.iLo = f.eLo = f.eHi = f.iHi = 0;
      if (!group.sparse) continue;
      // A parity condition allows different pairs in rows of either parity:
      // its rare heaps are all stamped heap by heap.
      if (f.conditioned && f.rule.parities != 7) continue;
      int64_t m0 = n - f.rule.k;
      // Each part at least minPart in every row: minPart <= r <= m0 - minPart.
      const int64_t least = firstPart(f);
      f.iLo = lowerBound(group.rareHeaps, std::max(kBlock, least));
      f.iHi = std::max(f.iLo, lowerBound(group.rareHeaps, m0 - least + 1));
      f.eLo = f.eHi = f.iLo;
      if (const int64_t d = f.rule.minDiff; d > 0) {
        // Out of the block: r with |m - 2r| < d for a row's m = m0 .. m0 +
        // kBlock - 1, that is m0 - d < 2r < m0 + kBlock - 1 + d.
        f.eLo = std::clamp(lowerBound(group.rareHeaps, (m0 - d) / 2 + 1), f.iLo, f.iHi);
        f.eHi = std::clamp(lowerBound(group.rareHeaps, (m0 + kBlock + d) / 2), f.eLo, f.iHi);
      }
      total += (f.eLo - f.iLo) + (f.iHi - f.eHi);
    }
  if (total < kBlockMinRare || blockStride_ > kBlockMaxStride) {
    for (Group& group : groups_)
      for (Family& f : group.families) f.iLo = f.eLo = f.eHi = f.iHi = 0;
    block_.clear();
    return nullptr;
  }
  block_.assign(static_cast<size_t>(kBlock) * blockStride_, 0);
  uint8_t* block = block_.data();
  for (Group& group : groups_)
    for (Family& f : group.families) {
      if (!group.sparse) continue;
      const int64_t* heaps = group.rareHeaps.data();
      const uint32_t* values = group.rareValues.data();
      stampRare(block, blockStride_, g, n - f.rule.k, heaps, values, f.iLo, f.eLo);
      stampRare(block, blockStride_, g, n - f.rule.k, heaps, values, f.eHi, f.iHi);
    }
  return block;
}

template <class T>
int64_t TakeBreakSolver::walk(const T* g, int64_t m, int64_t from, int64_t hi, ValueSet& want,
                              uint32_t stop, uint8_t* marks) {
  // 16-bit values below 512: scan their low bytes when the solver has them.
  if constexpr (sizeof(T) == 2)
    if (lowBytes_ && static_cast<int64_t>(bytes_.size()) >= m)
      return walkPairs(bytes_.data(), g, m, from, hi, want, stop, marks, simd_);
  return walkPairs(g, m, from, hi, want, stop, marks, simd_);
}

template <class T, class Marks>
void TakeBreakSolver::plain(const T* g, int64_t m, int64_t lo, int64_t hi, Marks marks) {
  if constexpr (std::is_same_v<Marks, RowMarks>) {
    if (hi - lo >= 127) {
      // Every value is below the bound: look for the pairs that make a value
      // not seen yet (at most `bound` of them) instead of stamping every pair.
      ValueSet want;
      for (uint32_t u = 0; u < smallBound<T>(); ++u)
        if (!marks.has(u)) want.add(u);
      walk(g, m, lo, hi, want, ValueSet::kSize, marks.row);
      return;
    }
  }
  for (int64_t a = lo; a <= hi; ++a) marks.set(g[a] ^ g[m - a]);
}

template <class T>
bool TakeBreakSolver::sharedSplits(const T* g, int64_t n, int64_t m, int64_t hi, bool unequal,
                                   EpochMarks marks) {
  // Every xor of two values is below `range`. Marking from a set reads its
  // `range` tags eight at a time and marks each of its values: it pays when
  // the pairs are more than that (when most pairs repeat a value). The size
  // of the last set made is the estimate, measured again at least every 128
  // heaps.
  constexpr size_t kMostRange = size_t{1} << 20;
  const size_t range = std::bit_ceil(static_cast<size_t>(maxValue_) + 1);
  if (splitSlots_ == 0 || range > kMostRange) return false;
  const bool measure = n >= nextSetMeasure_;
  if (!measure && 2 * lastSetSize_ + static_cast<int64_t>(range / 8) > hi) return false;
  if (range != splitRange_) {
    splitRange_ = range;
    splitTags_.assign(splitSlots_ * range, 0);
    splitSlotM_.assign(splitSlots_, -1);
    splitSlotTag_.assign(splitSlots_, 0);
  }
  const size_t slot = static_cast<size_t>(m) % splitSlots_;
  uint8_t* tags = splitTags_.data() + slot * range;
  const bool made = splitSlotM_[slot] != m;
  if (made) {
    // A new tag for the slot's new set; the slot cleared when they wrap.
    if (++splitSlotTag_[slot] == 0) {
      std::fill_n(tags, range, uint8_t{0});
      splitSlotTag_[slot] = 1;
    }
    const uint8_t fresh = splitSlotTag_[slot];
    for (int64_t a = 1; 2 * a < m; ++a) tags[g[a] ^ g[m - a]] = fresh;
    splitSlotM_[slot] = m;
  } else if (sharedFrom_ < 0) {
    sharedFrom_ = n;
  }
  const uint8_t tag = splitSlotTag_[slot];
  if (!unequal && m % 2 == 0) marks.set(0);  // a = b: g(a) ^ g(a)
  // Eight tags at a time (range is a power of two, at least 8 here): the
  // bytes equal to the tag are the zero bytes of the word xor the tag's.
  const uint64_t tags8 = uint64_t{tag} * kOnes;
  int64_t size = 0;
  for (size_t x = 0; x < range; x += 8) {
    const uint64_t w = word(tags + x) ^ tags8;
    uint64_t zero = ~(((w & ~(kOnes << 7)) + ~(kOnes << 7)) | w) & (kOnes << 7);
    for (; zero; zero &= zero - 1, ++size)
      marks.set(static_cast<uint32_t>(x + std::countr_zero(zero) / 8));
  }
  if (made) {
    lastSetSize_ = size;
    if (measure) nextSetMeasure_ = n + 128;
  }
  return true;
}

bool TakeBreakSolver::sharedSmallSplits(const uint8_t* g, int64_t n, int64_t m, int64_t hi,
                                        bool unequal, RowMarks marks) {
  // From as many pairs as the plain method walks (below, it stamps them).
  if (splitSlots_ == 0 || hi < 128) return false;
  if (smallSetM_.size() != splitSlots_) {
    smallSets_.assign(splitSlots_, ValueSet{});
    smallSetSize_.assign(splitSlots_, 0);
    smallSetM_.assign(splitSlots_, -1);
  }
  const size_t slot = static_cast<size_t>(m) % splitSlots_;
  ValueSet& set = smallSets_[slot];
  // The values below 256 are bytes 0..31 of a ValueSet.
  constexpr size_t kSmallBytes = 32;
  // Making the set is the plain method's walk; marking from it costs a step
  // per value, where the walk takes 64 pairs a step: it pays with fewer
  // values than a quarter of the pairs.
  if (smallSetM_[slot] == m && 4 * smallSetSize_[slot] > hi) return false;
  if (smallSetM_[slot] != m) {
    // One walk for every value: it marks those it finds and leaves the
    // others in `want`.
    ValueSet want;
    std::fill_n(want.bits, kSmallBytes, uint8_t{0xff});
    walk(g, m, 1, (m - 1) / 2, want, ValueSet::kSize, marks.row);
    smallSetSize_[slot] = 0;
    for (size_t i = 0; i < sizeof set.bits; ++i) {
      set.bits[i] = i < kSmallBytes ? static_cast<uint8_t>(~want.bits[i]) : 0;
      smallSetSize_[slot] += std::popcount(set.bits[i]);
    }
    smallSetM_[slot] = m;
  } else {
    for (size_t i = 0; i < kSmallBytes; ++i)
      for (unsigned bits = set.bits[i]; bits; bits &= bits - 1) {
        const auto j = static_cast<uint32_t>(std::countr_zero(bits));
        marks.set(static_cast<uint32_t>((i & 15) | (j << 4) | ((i >> 4) << 7)));
      }
    if (sharedFrom_ < 0) sharedFrom_ = n;
  }
  if (!unequal && m % 2 == 0) marks.set(0);  // a = b: g(a) ^ g(a)
  return true;
}

template <class T>
uint32_t TakeBreakSolver::value(const T* g, int64_t n) {
  if constexpr (sizeof(T) <= 2) {
    if (uint32_t bound = smallBound<T>()) {
      // Small values: the marks are the heap's row of the block (which holds
      // the block's rare-heap stamps already), or a cleared scratch row.
      uint8_t* row = blockRow(g, n);
      if (!row) {
        if (scratch_.size() < bound + kRowPad) scratch_.resize(bound + kRowPad);
        row = scratch_.data();
        clearRow(row, bound + kRowPad);
      }
      return valueWith(g, n, RowMarks{row});
    }
  }
  const uint8_t* row = blockRow(g, n);
  return valueWith(g, n, EpochMarks{stamps_.data(), epoch_, row, row ? blockStride_ : 0});
}

template <class T, class Marks>
uint32_t TakeBreakSolver::valueWith(const T* g, int64_t n, Marks marks) {
  for (int64_t k : shape_.whole)
    if (k == n) marks.set(0);
  if (shape_.wholeFrom > 0 && n >= shape_.wholeFrom) marks.set(0);
  for (int64_t k : shape_.one) {
    if (n - k < 1) break;
    marks.set(g[n - k]);
  }
  if (!shape_.three.empty()) threeSplits(g, n, marks);
  for (const Family& f : boundedRules_) conditionedWalk(g, f, n - f.rule.k, 1, ~uint32_t{0}, marks);
  for (Group& group : groups_) {
    uint64_t steps = 0;
    for (const Family& f : group.families) {
      int64_t m = n - f.rule.k;
      if (m < 2) continue;
      if (!group.sparse && f.conditioned) {
        // The plain method over the pairs the condition allows.
        if (partParity(f, m) == -1)
          plain(g, m, firstPart(f), lastPart(f, m), marks);
        else
          conditionedWalk(g, f, m, 1, ~uint32_t{0}, marks);
        steps += static_cast<uint64_t>(pairCount(f, m));
        continue;
      }
      if (!group.sparse) {
        // The plain method: every pair.
        int64_t hi = lastPart(f, m);
        bool shared = false;
        if constexpr (std::is_same_v<Marks, EpochMarks>)
          shared = sharedSplits(g, n, m, hi, f.unequal(), marks);
        else if constexpr (sizeof(T) == 1)
          shared = sharedSmallSplits(g, n, m, hi, f.unequal(), marks);
        if (!shared) plain(g, m, 1, hi, marks);
        steps += static_cast<uint64_t>(hi);
        continue;
      }
      // Every option value that is not rare: a pair with a rare part r. The
      // block's rows hold the pairs of rare heaps [iLo, eLo) and [eHi, iHi)
      // (all below m); the others are stamped here.
      const int64_t* heaps = group.rareHeaps.data();
      const uint32_t* values = group.rareValues.data();
      const size_t count = group.rareHeaps.size();
      // The rare heaps [lo, hi) (all below m), but not r = m / 2 for unequal
      // splits; a tight loop between the bounds found first.
      auto stampRange = [&](size_t lo, size_t hi) {
        if (f.unequal() && m % 2 == 0) {
          size_t half =
              static_cast<size_t>(std::lower_bound(heaps + lo, heaps + hi, m / 2) - heaps);
          if (half < hi && heaps[half] == m / 2) {
            for (size_t i = lo; i < half; ++i) marks.set(values[i] ^ g[m - heaps[i]]);
            lo = half + 1;
          }
        }
        for (size_t i = lo; i < hi; ++i) marks.set(values[i] ^ g[m - heaps[i]]);
      };
      // Under a condition, each rare heap's pair is asked it.
      auto stampAllowed = [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) {
          const int64_t a = std::min(heaps[i], m - heaps[i]);
          if (f.rule.allows(a, m - a)) marks.set(values[i] ^ g[m - heaps[i]]);
        }
      };
      const size_t below = static_cast<size_t>(std::lower_bound(heaps + f.iHi, heaps + count, m) -
                                               heaps);  // heaps[below] >= m
      const size_t first = static_cast<size_t>(std::lower_bound(heaps, heaps + f.iLo, m) - heaps);
      if (f.conditioned) {
        stampAllowed(0, first);
        stampAllowed(f.eLo, f.eHi);
        stampAllowed(f.iHi, below);
      } else {
        stampRange(0, first);
        stampRange(f.eLo, f.eHi);
        stampRange(f.iHi, below);
      }
      steps += below;
    }
    group.steps += steps;
    group.walkFamily = 0;
    group.walkA = 1;
    group.wantBuilt = false;
  }
  // The mex: a value not stamped is missing from the options of every group
  // in which it is not rare; a group in which it is rare proves it missing
  // (or present) by walking its pairs.
  // The values of heaps 1 .. n - oneFrom (amounts without bound) are
  // options too: skipped.
  uint32_t v = 0;
  for (;;) {
    v = marks.firstUnset(v);
    if (!holes_.empty())
      if (const uint32_t hole = holeFrom(v); hole != v) {
        v = hole;
        continue;
      }
    bool found = false;
    for (Group& group : groups_)
      if (group.sparse && rareAt(group, n, v) && walkFor(group, g, n, v, marks)) {
        found = true;
        break;
      }
    if (!found) return v;
  }
}

template <class T, class Marks>
bool TakeBreakSolver::walkFor(Group& group, const T* g, int64_t n, uint32_t v, Marks marks) {
  // Walks the group's families on from where its last walk stopped; `find(m,
  // from, hi)` looks at the pairs (a, m - a), a in from..hi, and returns the a
  // whose pair makes v, or hi + 1.
  auto walk = [&](auto find) {
    while (group.walkFamily < group.families.size()) {
      const Family& f = group.families[group.walkFamily];
      int64_t m = n - f.rule.k;
      int64_t hi = lastPart(f, m);
      // Under a parity condition the pairs a of one parity, walked here.
      int64_t a = f.conditioned && partParity(f, m) != -1
                      ? conditionedWalk(g, f, m, group.walkA, v, marks)
                      : find(m, std::max(group.walkA, firstPart(f)), hi);
      if (a <= hi) {
        group.steps += static_cast<uint64_t>(a + 1 - group.walkA);
        group.walkA = a + 1;
        return true;
      }
      group.steps += static_cast<uint64_t>(std::max<int64_t>(0, hi + 1 - group.walkA));
      ++group.walkFamily;
      group.walkA = 1;
    }
    return false;
  };
  if constexpr (std::is_same_v<Marks, RowMarks>) {
    const uint32_t bound = smallBound<T>();
    // Every pair's value is below the bound. Look for the values this walk
    // can still find: from v up to the first value that is neither an option
    // nor rare in any group (the mex is at most that one); a value rare here
    // and not stamped is made only by pairs of two common heaps, which the
    // walk reaches; the walk stops at v, as the stamping walk does. Built
    // once per heap (a value found since by another group's walk stays in the
    // set: finding it again is harmless).
    ValueSet& want = group.want;
    if (!group.wantBuilt) {
      group.wantBuilt = true;
      want = ValueSet();
      // A word (8 values) at a time: `open` has 1 in each byte not marked.
      const uint8_t* here = group.rareBytes[n & 1];
      const uint8_t* any = rareAnyBytes_[n & 1];
      for (uint32_t c = v & ~7u; c < bound; c += 8) {
        uint64_t open = ~word(marks.row + c) & kOnes;
        if (c < v) open &= ~uint64_t{0} << (8 * (v - c));
        uint64_t rare = open & word(here + c);
        uint64_t end = open & ~word(any + c);
        if (end) rare &= (end & (0 - end)) - 1;
        for (; rare; rare &= rare - 1)
          want.add(c + static_cast<uint32_t>(std::countr_zero(rare)) / 8);
        if (end) break;
      }
    }
    return walk([&](int64_t m, int64_t from, int64_t hi) {
      return v < bound ? this->walk(g, m, from, hi, want, v, marks.row) : hi + 1;
    });
  }
  return walk([&](int64_t m, int64_t from, int64_t hi) {
    if constexpr (sizeof(T) == 2 && std::is_same_v<Marks, EpochMarks>)
      return stampPairs(g, m, from, hi, v, marks.stamps, marks.epoch, simd_);
    int64_t a = from;
    for (; a <= hi; ++a) {
      uint32_t x = g[a] ^ g[m - a];
      marks.set(x);
      if (x == v) break;
    }
    return a;
  });
}

template <class T>
void TakeBreakSolver::choose(const T* g, int64_t n) {
  nextCheck_ = 2 * n;
  ++version_;  // the rare heaps may change: the block is built again
  // h[(M << 1) | s]: heaps 1..n-1 with parity(g(i) & M) ^ s (i & 1) even,
  // minus those with it odd.
  std::vector<int64_t> h = counts_;
  hadamard(h);
  const int64_t total = h[0];
  for (Group& group : groups_) {
    double plainCost = 0;
    for (const Family& f : group.families)
      plainCost += f.conditioned ? static_cast<double>(pairCount(f, n - f.rule.k))
                                 : static_cast<double>(std::max<int64_t>(0, n - f.rule.k)) / 2;
    auto rareCount = [&](size_t w) {
      bool s = (w & 1) != 0;
      return (s && group.kParity) ? (total - h[w]) / 2 : (total + h[w]) / 2;
    };
    auto allowed = [&](size_t w) {
      bool s = (w & 1) != 0;
      return w != 0 && !(options_.parity == 0 && s) && !(options_.parity == 1 && !s);
    };
    size_t best = 0;
    int64_t bestRare = std::numeric_limits<int64_t>::max();
    if (options_.randomSeed) {
      for (int tries = 0; tries < 64 && !best; ++tries) {
        random_ ^= random_ << 13;
        random_ ^= random_ >> 7;
        random_ ^= random_ << 17;
        size_t w = static_cast<size_t>(random_ % h.size());
        if (allowed(w)) best = w;
      }
      if (best) bestRare = rareCount(best);
    } else {
      for (size_t w = 1; w < h.size(); ++w)
        if (allowed(w) && rareCount(w) < bestRare) {
          bestRare = rareCount(w);
          best = w;
        }
    }
    // Keep the current class when it is about as good: changing it costs a
    // pass over the table.
    size_t current = (static_cast<size_t>(group.mask) << 1) | (group.parity ? 1 : 0);
    if (!options_.randomSeed && group.sparse && current < h.size() && allowed(current) &&
        static_cast<double>(rareCount(current)) <= 1.1 * static_cast<double>(bestRare) + 8) {
      best = current;
      bestRare = rareCount(current);
    }
    uint32_t mask = static_cast<uint32_t>(best >> 1);
    bool parity = (best & 1) != 0;
    // Sparse space: each rare heap once per rule, and a walk of every pair
    // at each heap whose value is rare (as often as rare heaps).
    double fraction = total ? static_cast<double>(bestRare) / static_cast<double>(total) : 1.0;
    double cost = static_cast<double>(group.families.size()) * static_cast<double>(bestRare) +
                  fraction * plainCost;
    bool same = group.sparse && group.mask == mask && group.parity == parity;
    if (same && group.measured > cost) cost = group.measured;
    bool sparse = best != 0 && (options_.always || options_.randomSeed || cost < plainCost);
    if (!sparse) {
      group.sparse = false;
      group.mask = 0;
      group.parity = false;
      group.rareHeaps.clear();
      group.rareValues.clear();
      group.estimate = plainCost;
      continue;
    }
    group.estimate = cost;
    if (same) continue;
    group.sparse = true;
    group.mask = mask;
    group.parity = parity;
    group.rareHeaps.clear();
    group.rareValues.clear();
    for (int64_t i = 1; i < n; ++i)
      if (rareAt(group, i, g[i])) {
        group.rareHeaps.push_back(i);
        group.rareValues.push_back(g[i]);
      }
  }
  buildClassBytes();
  std::string now = method();
  if (segments_.back().method != now) {
    if (segments_.back().from == n)
      segments_.back().method = now;
    else
      segments_.push_back(Segment{n, now});
    if (segments_.size() >= 2 && segments_[segments_.size() - 2].method == now)
      segments_.pop_back();
  }
}

}  // namespace gdsl
