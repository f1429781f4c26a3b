// Values of a take-and-break game (ir::TakeBreakShape) computed natively from
// its table, by the plain method or with sparse space, chosen by cost.
//
// Sparse space: the splits that remove k tokens from heap n make two heaps
// a + b = n - k. Give each heap i a class bit c(i) = parity(g(i) & M) ^
// s * (i & 1), for a mask M over the values' bits and s = 0 or 1 (the heap's
// parity term); heap i is "rare" when c(i) = s * (k & 1). For a split,
// c(a) ^ c(b) = parity(x & M) ^ s * ((n - k) & 1) with x = g(a) ^ g(b), so
// when neither part is rare (c(a) = c(b)), x lies in the "rare values" of the
// heap: parity(x & M) = s * ((n - k) & 1). Every other option value comes from
// a pair with a rare part, and walking the few rare heaps finds them all. The
// mex is then the smallest value missing from those options, unless it is a
// rare value: that one needs a pair that makes it, found by walking the pairs
// from the small end until it shows up (or proved missing by walking them all).
// The class (M, s) is chosen separately for the splits with even k and those
// with odd k (k's parity fixes whether a + b and n have the same parity). This
// is exact for any choice; a good class (few rare heaps) only makes it fast.
//
// Method choice: the work of each method is counted in pair steps (one xor of
// two table values). The plain method costs (n - k) / 2 per split rule; sparse
// space costs the rare heaps plus the proof walks, estimated from the class's
// rare count (computed for every class at once by a Walsh-Hadamard transform)
// and measured while it runs. At each check (heap 512, then whenever the table
// doubles, or at once when the measured cost is twice the estimate) each group
// of splits takes the cheapest method.
//
// Speed: the solver keeps its own copy of the table's low bytes (for the
// first 2^30 heaps). While every value is below 256 that copy is the table;
// past 256 the engine's 16- or 32-bit table is read. While every value is
// below 512, the plain method and the proof walks look for the first pair
// whose value is in the set of values still wanted (runtime/PairScan.h:
// AVX-512 or AVX2 when the CPU has it, else a portable loop) instead of
// stamping every pair; past 256 the walk scans the low bytes and checks the
// full value only where a low byte is wanted, as fast as on an 8-bit table.
// Sparse space stamps the rare heaps against blocks of kBlock heaps at once:
// for heaps n0..n0+31 and a rare heap r far from both ends, the values
// g(n0 - k - r ..) are already known, so one pass over the rare heaps fills
// the option rows of 32 heaps (one row of bytes per heap), reading the table
// in runs instead of one scattered value per rare heap and heap; only the
// rare heaps near 0, near the heap and near its half are stamped heap by heap.
//
// Three heaps (a hexadecimal digit's bit 8): the splits that remove k tokens
// from heap n leave a + b + c = n - k. The values g(b) ^ g(m - b) of the
// pairs of each sum m are kept as a set of W words (a bit per value; W = 1
// while every value is below 64, then the least power of two, at least 4,
// that holds them), so the options are the sets of the sums n - k - a for the
// smallest part a <= (n - k) / 3, each with its bits moved by xor with g(a).
// With W >= 4 the sets are gathered by the low 8 bits of g(a) (moved by the
// high bits: blocks of four words, an OR each), then by the low 6 (moved by
// bits 6 and 7: words swapped within blocks), and each of the 64 has its
// bits moved once: about (n - k) / 3 * W / 2 SSE2 ORs per heap, against
// (n - k)^2 / 12 triples.
// When the sets would pass 256 MiB, every triple a <= b <= c is walked.
//
// Splits with conditions on the parts (ir::SplitRule, recognised in `move`
// rules) join the groups as families of their own: the argument above holds
// for any subset of the pairs, so sparse space stays exact when only the
// pairs the condition allows are stamped and walked. A rare heap's pair is
// asked the condition; blocks take the rare heaps every row of the block
// allows (none under a parity condition, whose rows differ by m's parity);
// walks skip to the least part allowed, with a stride of 2 under a parity
// condition. A condition bounding the smaller part (at most c) keeps the
// plain method: at most c pairs per heap.
//
// Amounts without bound (every k >= K leaving a heap: Nim, Lasker's nim,
// all-but games): the values of heaps 1 .. n - K are one set that only
// grows with n, kept as "the least value >= v missing from it" (a forest
// whose roots are the values missing, with path compression), which the mex
// skips; a heap costs the moves of bounded amounts only.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "runtime/NimTable.h"
#include "runtime/PairScan.h"

namespace gdsl {

struct SparseOptions {
  bool enabled = true;
  int64_t firstCheck = 512;  // heaps computed by the plain method before a class is tried
  bool always = false;       // sparse space even when it costs more than the plain method (tests)
  // Classes with the heap-parity term: -1 when it pays, 0 never, 1 always (tests).
  int parity = -1;
  // Nonzero: each class is drawn at random from this seed instead of the best
  // one (tests: sparse space is exact for any class).
  uint64_t randomSeed = 0;
  // The most the inner loops may use: AVX-512 or AVX2 when the CPU has them,
  // else the portable loops, which give the same values (tests).
  // GDSL_SIMD=off in the environment means portable, GDSL_SIMD=avx2 at most
  // AVX2.
  SimdLevel simd = SimdLevel::avx512;
};

class TakeBreakSolver {
 public:
  TakeBreakSolver(const ir::TakeBreakShape& shape, SparseOptions options);

  // g(n) for n = table.size(), from the values g(0..n-1) in `table`.
  uint32_t next(const NimTable& table);

  // What runs now per group of splits and which method ran on which heaps, e.g.
  // "sparse space (splits after removing 3: mask 0xd with heap parity, 15 rare
  // heaps); heaps 0-511 plain method, 512-1000000 sparse space".
  std::string describe() const;
  bool sparse() const;
  // True when a group runs sparse space with the heap-parity term.
  bool parityClasses() const;
  // How the cost of a heap grows with n, as n^exponent: 1 for the plain
  // method, 0 without splits; for sparse space, measured in pair steps per
  // heap over the last two doublings of the table (-1 before there are two).
  double costExponent() const;

 private:
  struct Family {
    explicit Family(const ir::SplitRule& r)
        : rule(r),
          conditioned(r.minPart > 1 || r.minDiff > 1 || r.parities != 7 || r.maxPart != INT64_MAX) {
    }
    // The pairs a <= b (a + b = n - rule.k) that are options: rule.allows(a,
    // b); for `two` and `twoUnequal` the rule with minDiff 0 or 1 and no
    // other condition.
    ir::SplitRule rule;
    bool unequal() const { return rule.minDiff > 0; }  // a < b, else a <= b
    // A condition beyond those (a part at least 2, a difference of 2 or more,
    // parities), asked of every pair (kept: the inner loops ask it).
    bool conditioned;
    // The rare heaps (indices into rareHeaps) stamped for the current block:
    // [iLo, eLo) and [eHi, iHi); the others are stamped heap by heap.
    size_t iLo = 0, eLo = 0, eHi = 0, iHi = 0;
  };
  // Values a row of marks holds at most (the small bound), and a word past it.
  static constexpr size_t kClassBytes = 512 + 8;
  // The split rules whose removals k have one parity, and their class.
  struct Group {
    int64_t kParity = 0;
    std::vector<Family> families;
    bool sparse = false;
    uint32_t mask = 0;
    bool parity = false;
    std::vector<int64_t> rareHeaps;    // heaps >= 1 that are rare, ascending
    std::vector<uint32_t> rareValues;  // their values
    size_t walkFamily = 0;             // the proof walk of the current heap
    int64_t walkA = 1;
    // The values the current heap's walk looks for (8-bit tables), built by
    // its first walk.
    ValueSet want;
    bool wantBuilt = false;
    // rareBytes[n & 1][v] = rareAt(*this, n, v) for v below 512 (1 or 0),
    // for the word-wide scans of rows of marks; built with the class.
    uint8_t rareBytes[2][kClassBytes] = {};
    uint64_t steps = 0;    // pair steps in the current window
    double estimate = 0;   // estimated pair steps per heap when chosen
    double measured = -1;  // pair steps per heap in the last window (-1: none)
  };
  struct Segment {
    int64_t from;
    std::string method;
  };
  struct StepSample {
    int64_t heaps;   // heaps computed (or given)
    uint64_t steps;  // pair steps by then
  };

  // Heap i (with value v) is rare in the group; the same test tells whether v
  // is a rare value of heap i's options.
  static bool rareAt(const Group& g, int64_t i, uint32_t v) {
    return ((parity32(v & g.mask) ^ (g.parity ? (i ^ g.kParity) : 0)) & 1) == 0;
  }
  static uint32_t parity32(uint32_t x) {
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    return (0x6996u >> (x & 15)) & 1;
  }
  // Which values are options of the current heap: epoch stamps (with the
  // block's row of rare-heap stamps, when there is one), or with small values
  // one row of bytes that holds them all.
  struct EpochMarks {
    uint8_t* stamps;
    uint8_t epoch;
    const uint8_t* row;
    size_t rowSize;
    void set(uint32_t x) const { stamps[x] = epoch; }
    bool has(uint32_t x) const { return stamps[x] == epoch || (x < rowSize && row[x]); }
    uint32_t firstUnset(uint32_t v) const {
      if (rowSize == 0) {
        // Eight stamps at a time: the first that is not the epoch. The
        // stamps hold twice every value, and the mex is at most half their
        // size, so a word from there is in bounds.
        const uint64_t epochs = uint64_t{epoch} * 0x0101010101010101;
        for (;; v += 8)
          if (const uint64_t other = word(stamps + v) ^ epochs)
            return v + static_cast<uint32_t>(std::countr_zero(other)) / 8;
      }
      while (has(v)) ++v;
      return v;
    }
  };
  // A row of marks (one byte 0 or 1 per value) has room for a word past the
  // small bound, and the byte at the bound is 0 (the mex is at most the bound):
  // scans read it a word (8 values) at a time.
  static uint64_t word(const uint8_t* p) {
    static_assert(std::endian::native == std::endian::little, "rows are read as words");
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
  }
  static constexpr uint64_t kOnes = 0x0101010101010101;
  struct RowMarks {
    uint8_t* row;
    void set(uint32_t x) const { row[x] = 1; }
    bool has(uint32_t x) const { return row[x] != 0; }
    uint32_t firstUnset(uint32_t v) const {
      for (;; v += 8)
        if (uint64_t open = ~word(row + v) & kOnes) return v + std::countr_zero(open) / 8;
    }
  };
  // runtime/PairScan.h's walk, over the low bytes when the values are 16-bit.
  template <class T>
  int64_t walk(const T* g, int64_t m, int64_t from, int64_t hi, ValueSet& want, uint32_t stop,
               uint8_t* marks);
  template <class T, class Marks>
  void plain(const T* g, int64_t m, int64_t lo, int64_t hi, Marks marks);
  // The plain method's splits of m (at heap n) shared between removals:
  // marks the values of the splits of m (a < b, and a = b unless `unequal`)
  // from its split set, made once for every removal k that splits m (at heaps
  // m + k). False when sharing does not pay (hi: the pairs the plain method
  // would walk), and nothing is marked.
  template <class T>
  bool sharedSplits(const T* g, int64_t n, int64_t m, int64_t hi, bool unequal, EpochMarks marks);
  // The same for values below 256 (8-bit tables, rows of marks): the split
  // set of m is found by one walk (runtime/PairScan.h) for every value and kept
  // as a ValueSet.
  bool sharedSmallSplits(const uint8_t* g, int64_t n, int64_t m, int64_t hi, bool unequal,
                         RowMarks marks);
  template <class T, class Marks>
  uint32_t valueWith(const T* g, int64_t n, Marks marks);
  // Marks the options of the three-heap splits of heap n.
  template <class T, class Marks>
  void threeSplits(const T* g, int64_t n, Marks marks);
  static std::string conditionText(const ir::SplitRule& r);
  // The smaller parts a of a family's pairs of m: from firstPart() to
  // lastPart(m), with a stride of 2 (from the parity partParity(m)) when
  // the condition allows one parity of a only; partParity is -1 when it
  // allows both, -2 when neither.
  static int64_t firstPart(const Family& f) { return std::max<int64_t>(f.rule.minPart, 1); }
  static int64_t lastPart(const Family& f, int64_t m) {
    return m < 2 ? 0 : std::min(f.rule.maxPart, (m - f.rule.minDiff) / 2);
  }
  static int partParity(const Family& f, int64_t m);
  // The pairs the plain method walks at m.
  static int64_t pairCount(const Family& f, int64_t m);
  // Marks the values of the pairs a = from.. lastPart(m) of a family under a
  // condition, a walked with its stride; stops at the first pair worth
  // `stop` and returns its a (else lastPart(m) + 1).
  template <class T, class Marks>
  static int64_t conditionedWalk(const T* g, const Family& f, int64_t m, int64_t from,
                                 uint32_t stop, Marks marks);
  // The options of the splits of r into three heaps, with pair sets of
  // `words` words (at least 4): tripleOptions_.
  template <class T>
  uint64_t* wideTripleOptions(const T* g, int64_t r, size_t words);
  // pairSets_[m] for every m <= upTo.
  template <class T>
  void extendPairSets(const T* g, int64_t upTo);
  // The set of values {x ^ v : x in set}, for a set of values below 64 (a
  // bit each) and v below 64: the bits' indices xored with v.
  static constexpr uint64_t kHalves[6] = {0x5555555555555555, 0x3333333333333333,
                                          0x0F0F0F0F0F0F0F0F, 0x00FF00FF00FF00FF,
                                          0x0000FFFF0000FFFF, 0x00000000FFFFFFFF};
  static uint64_t xorIndices(uint64_t set, uint32_t v) {
    for (int j = 0; j < 6; ++j)
      if ((v >> j) & 1) {
        const int s = 1 << j;
        set = ((set & kHalves[j]) << s) | ((set >> s) & kHalves[j]);
      }
    return set;
  }
  // In place: xorIndices(set[i], low) for every word, a stage at a time over
  // all the words (loops the compiler vectorizes).
  static void xorBits(uint64_t* set, size_t words, uint32_t low);
  // 256 or 512 when every value is below it in a table of T (8 or 16 bits):
  // the walks run on runtime/PairScan.h and block rows have that many bytes;
  // else 0.
  template <class T>
  uint32_t smallBound() const {
    if constexpr (sizeof(T) == 1) return 256;
    if constexpr (sizeof(T) == 2) return maxValue_ < 512 ? 512 : 0;
    return 0;
  }
  template <class T>
  uint8_t* blockRow(const T* g, int64_t n);
  template <class T>
  uint32_t value(const T* g, int64_t n);
  template <class T, class Marks>
  bool walkFor(Group& group, const T* g, int64_t n, uint32_t v, Marks marks);
  template <class T>
  void choose(const T* g, int64_t n);
  void count(int64_t i, uint32_t v);
  void mark(uint32_t v) {
    if (v >= stamps_.size()) growStamps(v);
    stamps_[v] = epoch_;
  }
  void growStamps(uint32_t v);
  // Fills each group's rareBytes and rareAnyBytes_ for the current classes.
  void buildClassBytes();
  std::string method() const;
  std::string groupName(const Group& g) const;

  // The least value >= v missing from the values of heaps 1 .. n - oneFrom
  // (amounts without bound): holes_[x] == x when x is missing, else a larger
  // value to look at next.
  uint32_t holeFrom(uint32_t v);
  void addToPrefix(uint32_t v);

  ir::TakeBreakShape shape_;
  SparseOptions options_;
  // The splits whose smaller part is at most a constant (shape_.twoWhere's
  // with maxPart), outside the groups: the plain method (conditionedWalk).
  std::vector<Family> boundedRules_;
  std::vector<uint32_t> holes_;
  int64_t prefixHeaps_ = 1;  // heaps 1 .. prefixHeaps_ - 1 are in holes_
  std::vector<Group> groups_;
  // stamps_[v] == epoch_: v is an option of the current heap. A byte each, so
  // that the stamps of values up to 2^14 stay in the L1 cache; cleared when
  // the epoch wraps, every 255 heaps.
  std::vector<uint8_t> stamps_;
  uint8_t epoch_ = 0;
  int64_t scanned_ = 0;  // table values below this heap fit in the stamps and are counted
  // counts_[(v' << 1) | (i & 1)]: heaps i >= 1 with g(i) folded to v' (the low bits).
  std::vector<int64_t> counts_;
  int64_t nextCheck_ = 0;  // heap at which the classes are chosen again
  int64_t windowStart_ = 0;
  uint64_t random_ = 0;
  std::vector<Segment> segments_;  // which method ran from which heap
  int64_t computed_ = 0;           // heaps computed (or given) so far
  uint64_t totalSteps_ = 0;        // pair steps of every heap computed
  std::vector<StepSample> stepSamples_;
  int64_t nextStepSample_ = 1024;         // the first sample, then one at each doubling
  SimdLevel simd_ = SimdLevel::portable;  // the loops allowed (at most the CPU's best)
  // The low bytes of the table's values (while lowBytes_: the first 2^30
  // heaps); the table itself while every value is below 256 (small_).
  std::vector<uint8_t> bytes_;
  bool lowBytes_ = true;
  bool small_ = true;
  uint32_t maxValue_ = 0;  // the largest value in the table
  // Option rows of the heaps blockStart_.. blockEnd_ - 1 (blockStride_ bytes
  // each, 1: an option), valid while version_ == blockVersion_ (a new class or
  // larger stamps changes version_); empty when no block pays.
  std::vector<uint8_t> block_;
  int64_t blockStart_ = 0;
  int64_t blockEnd_ = 0;
  size_t blockStride_ = 0;
  uint64_t version_ = 0;
  uint64_t blockVersion_ = ~uint64_t{0};
  std::vector<uint8_t> scratch_;  // the row of marks when no block pays
  // rareAnyBytes_[n & 1][v]: v is rare for heap n in some group that runs
  // sparse space (v below 512).
  uint8_t rareAnyBytes_[2][kClassBytes] = {};
  // The pair set of m, pairWords_ words from pairSets_[m * pairWords_]: bit x
  // set when x = g(b) ^ g(m - b) for some 1 <= b < m; for three-heap splits,
  // while all of them fit in kPairSetBytes (pairSetsOn_).
  std::vector<uint64_t> pairSets_;
  size_t pairWords_ = 1;
  bool pairSetsOn_ = true;
  static constexpr double kPairSetBytes = 256.0 * 1024 * 1024;
  // Split sets of the plain method shared between removals (sharedSplits):
  // splitTags_[slot * splitRange_ + x] == splitSlotTag_[slot] when
  // x = g(a) ^ g(m - a) for some 1 <= a < m - a, for the m that slot
  // m % splitSlots_ holds (splitSlotM_); splitSlots_ is the largest removal
  // less the smallest, plus one (0: fewer than two removals split, nothing to
  // share).
  std::vector<uint8_t> splitTags_;
  std::vector<int64_t> splitSlotM_;
  std::vector<uint8_t> splitSlotTag_;
  size_t splitSlots_ = 0;
  size_t splitRange_ = 0;
  int64_t sharedFrom_ = -1;     // the first heap that read a split set made before
  int64_t lastSetSize_ = 0;     // the values of the last split set made (sharedSplits)
  int64_t nextSetMeasure_ = 0;  // the heap from which a set is made to measure it
  // The split sets of sharedSmallSplits, slot m % splitSlots_ for m =
  // smallSetM_[slot], and their sizes.
  std::vector<ValueSet> smallSets_;
  std::vector<int> smallSetSize_;
  std::vector<int64_t> smallSetM_;
  std::vector<uint64_t> tripleOptions_;   // the options of one heap's triples
  std::vector<uint64_t> tripleGathered_;  // 256 + 64 sets gathered on the way
};

}  // namespace gdsl
