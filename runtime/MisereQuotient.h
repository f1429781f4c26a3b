// The misère quotient of a heap game (Plambeck and Siegel; docs/misere.md,
// "Quotients"): the monoid of sums of heaps 0..N modulo misère
// indistinguishability, with its P-portion and the pretending function Φ
// (heap n -> its element), computed heap by heap. Each step guesses a
// bipartite monoid and Φ (the last quotient with the new heap as one of its
// elements, or a product with cyclic monoids for the heaps that broke the
// guess), marks its P-portion from the least word of each element, reduces it,
// and accepts it only after checking every sum of heaps 0..n: a finite check
// over states (element, the contexts in which an option is in P). So every
// quotient gdsl prints is exact; a guess that cannot be repaired stops the
// computation with a message, never a wrong answer.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/QuotientMonoid.h"

namespace gdsl {

// Heap n's options, each the list of heaps it leaves (every one smaller than
// n; empty heaps may be left out).
using HeapOptionsFn = std::function<std::vector<std::vector<int64_t>>(int64_t n)>;

struct QuotientOptions {
  int64_t maxHeap = 100;
  uint32_t maxOrder = 2048;  // stop once |Q| passes this
  // For a take-and-break game that removes at most `take` tokens and leaves
  // at most `parts` heaps: the periodicity theorem (docs/misere.md) proves the
  // quotient final, and the computation stops there.
  std::optional<int64_t> take;
  int parts = 2;
  // Splits with conditions (Engine::ShiftBound): the preperiod a proof starts
  // from is at least minStart, and an odd period is proved as twice itself.
  int64_t minStart = 0;
  bool evenPeriod = false;
  // Called after each heap: the heap and |Q|.
  std::function<void(int64_t, uint32_t)> progress;
};

struct QuotientResult {
  BipartiteMonoid quotient;         // reduced; element 0 is the identity
  std::vector<uint32_t> phi;        // heap -> element, heaps 0..lastHeap
  std::vector<int64_t> expansions;  // the heaps at which the quotient grew
  int64_t lastHeap = 0;
  // Set when the periodicity theorem proves Φ periodic and Q final from the
  // heaps computed: the heap whose check completed the proof.
  std::optional<int64_t> finalHeap;
  // Φ(n + period) = Φ(n) for every computed n >= preperiod; with finalHeap,
  // for every n >= preperiod.
  std::optional<int64_t> period, preperiod;
  std::string stopped;  // why it stopped before maxHeap; empty otherwise
};

class QuotientSteps;

// The computation kept between requests: extendTo(n) goes on from the last
// heap computed (up to n, or until the quotient is final or stopped). When
// extendTo throws Interrupted, result() still holds the heaps finished, but
// the builder must not be extended again.
class QuotientBuilder {
 public:
  QuotientBuilder(HeapOptionsFn options, const QuotientOptions& o);
  ~QuotientBuilder();
  const QuotientResult& extendTo(int64_t heap);
  const QuotientResult& result() const;

 private:
  std::unique_ptr<QuotientSteps> impl_;
};

// Computes the quotient up to options.maxHeap (or until it is proved final, or
// |Q| passes maxOrder). Throws Interrupted (a limit, Ctrl-C) and
// std::runtime_error when heap options are not smaller heaps.
QuotientResult computeQuotient(const HeapOptionsFn& options, const QuotientOptions& o);

// The element of a sum of heaps (counts[h] copies of heap h).
uint32_t elementOf(const QuotientResult& q, const std::vector<int64_t>& heaps);

// A presentation of the quotient: generators named a, b, c, ... in the order
// of the heaps that first reach them (`heapOf`), and relations between
// words in them, each "word = word" with the left side not in normal form
// (the least word in heap order) and minimal so.
struct Presentation {
  std::vector<std::string> names;
  std::vector<int64_t> heapOf;
  std::vector<std::string> relations;
  std::vector<std::string> elements;  // each element's normal form ("1" the identity)
};
Presentation presentation(const QuotientResult& q);

}  // namespace gdsl
