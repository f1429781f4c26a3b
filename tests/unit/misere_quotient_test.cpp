// Misère quotients (runtime/MisereQuotient.h): the outcome the quotient gives
// for thousands of sums of up to six heaps, against the independent brute force
// of tests/brute/misere_brute.h (whole game trees, Kayles and Dawson's Kayles
// as rows of pins); the quotient's elements checked against the definition
// (two sums with different elements are told apart by some third sum, two
// with the same element by none tried); tameness; and the periodicity
// theorem's proof checked far past the heap it was given at.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>

#include "misere_brute.h"
#include "runtime/MisereQuotient.h"
#include "test_scale.h"

using namespace gdsl;

namespace {

// Heap n's options under an octal code "0.d1d2...": digit t's bit 1 removes
// t tokens leaving nothing, bit 2 leaving one heap, bit 4 leaving two.
HeapOptionsFn octal(const std::string& code) {
  return [code](int64_t n) {
    std::vector<std::vector<int64_t>> out;
    for (size_t i = 2; i < code.size(); ++i) {
      int64_t t = static_cast<int64_t>(i) - 1;
      int d = code[i] - '0';
      if ((d & 1) && n == t) out.push_back({});
      if ((d & 2) && n > t) out.push_back({n - t});
      if (d & 4)
        for (int64_t a = 1; 2 * a <= n - t; ++a) out.push_back({a, n - t - a});
    }
    return out;
  };
}

HeapOptionsFn grundy() {
  return [](int64_t n) {
    std::vector<std::vector<int64_t>> out;
    for (int64_t a = 1; 2 * a < n; ++a) out.push_back({a, n - a});
    return out;
  };
}

HeapOptionsFn nim() {
  return [](int64_t n) {
    std::vector<std::vector<int64_t>> out;
    for (int64_t a = 0; a < n; ++a) out.push_back({a});
    return out;
  };
}

QuotientResult quotientTo(const HeapOptionsFn& f, int64_t heaps) {
  QuotientOptions o;
  o.maxHeap = heaps;
  QuotientResult r = computeQuotient(f, o);
  REQUIRE(r.stopped.empty());
  REQUIRE(r.lastHeap == heaps);
  return r;
}

// The brute force's moves (tests/brute/misere_brute.h: rows of pins knocked
// down, heaps taken from or split), searched over sorted lists of heap sizes
// (a row's runs of standing pins): whole game trees, memoized.
class HeapSearch {
 public:
  explicit HeapSearch(brute::MiserePart::Kind kind) : kind_(kind) {}
  bool wins(std::vector<int> sum) {
    std::erase(sum, 0);
    std::sort(sum.begin(), sum.end());
    if (auto it = memo_.find(sum); it != memo_.end()) return it->second;
    bool anyMove = false, win = false;
    for (size_t i = 0; i < sum.size() && !win; ++i) {
      if (i > 0 && sum[i] == sum[i - 1]) continue;
      for (const brute::MisereSum& option :
           brute::misereOptions(brute::misereHeap(kind_, sum[i]))) {
        std::vector<int> next;
        for (size_t j = 0; j < sum.size(); ++j)
          if (j != i) next.push_back(sum[j]);
        for (const brute::MiserePart& part : option)
          for (int run : brute::misereHeapsOf(part)) next.push_back(run);
        anyMove = true;
        if (!wins(next)) {
          win = true;
          break;
        }
      }
    }
    win = win || !anyMove;  // no move: the opponent moved last
    memo_.emplace(std::move(sum), win);
    return win;
  }

 private:
  brute::MiserePart::Kind kind_;
  std::map<std::vector<int>, bool> memo_;
};

// Random sums of 1..maxParts heaps of sizes 1..maxHeap: the quotient's
// outcome against the brute force's.
void checkSums(const QuotientResult& q, brute::MiserePart::Kind kind, int maxHeap, int maxParts,
               int count, unsigned seed) {
  std::mt19937 rng(seed);
  HeapSearch search(kind);
  // Under sanitizers (GDSL_TEST_SCALE) fewer sums, of two parts fewer: the
  // brute force's trees of the largest sums were most of the time there.
  count = brute::scaled(count, 250);
  if (brute::testScale() > 1) maxParts = std::max(2, maxParts - 2);
  for (int i = 0; i < count; ++i) {
    int parts = 1 + static_cast<int>(rng() % static_cast<unsigned>(maxParts));
    std::vector<int64_t> heaps;
    std::vector<int> sum;
    for (int j = 0; j < parts; ++j) {
      int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(maxHeap));
      heaps.push_back(n);
      sum.push_back(n);
    }
    bool quotientP = q.quotient.inP[elementOf(q, heaps)];
    INFO("sum of heaps " << [&] {
      std::string s;
      for (int64_t h : heaps) s += std::to_string(h) + " ";
      return s;
    }());
    REQUIRE(quotientP == !search.wins(sum));
  }
}

// Misère outcomes of sums of heaps of an octal game "0.d1d2...", searched
// plainly: sorted lists of heap sizes, every move of the definition (digit t,
// bit 1: take t and leave nothing; bit 2: leave one heap; bit 4: leave two).
class OctalSearch {
 public:
  explicit OctalSearch(std::string code) : code_(std::move(code)) {}
  bool wins(std::vector<int> sum) {
    std::erase(sum, 0);
    std::sort(sum.begin(), sum.end());
    if (auto it = memo_.find(sum); it != memo_.end()) return it->second;
    bool anyMove = false, win = false;
    auto tryMove = [&](size_t i, std::vector<int> parts) {
      std::vector<int> next = sum;
      next.erase(next.begin() + static_cast<long>(i));
      next.insert(next.end(), parts.begin(), parts.end());
      anyMove = true;
      if (!wins(next)) win = true;
    };
    for (size_t i = 0; i < sum.size() && !win; ++i)
      for (size_t digit = 2; digit < code_.size() && !win; ++digit) {
        int t = static_cast<int>(digit) - 1, d = code_[digit] - '0', n = sum[i];
        if ((d & 1) && n == t) tryMove(i, {});
        if ((d & 2) && n > t) tryMove(i, {n - t});
        for (int a = 1; (d & 4) && 2 * a <= n - t && !win; ++a) tryMove(i, {a, n - t - a});
      }
    win = win || !anyMove;  // no move: the opponent moved last
    memo_.emplace(std::move(sum), win);
    return win;
  }

 private:
  std::string code_;
  std::map<std::vector<int>, bool> memo_;
};

}  // namespace

// Wild games whose check leaves out most states (a state whose set D holds an
// earlier one's of the same element goes no further, and claims of P are
// checked per element and heap): every outcome against the plain search.
TEST_CASE("quotients of wild octal games match a plain search of their sums",
          "[misere][quotient]") {
  struct Case {
    const char* code;
    int heaps, parts;
  };
  // 0.764 kept 1.27 million states to heap 175 before that pruning.
  for (Case c : {Case{"0.764", 16, 3}, Case{"0.561", 16, 3}, Case{"0.35", 6, 5},
                 Case{"0.054", 14, 3}, Case{"0.776", 14, 3}}) {
    INFO(c.code);
    // Under sanitizers (GDSL_TEST_SCALE) four heaps fewer: the plain search's
    // trees of the largest sums were most of the time there.
    if (brute::testScale() > 1) c.heaps = std::max(6, c.heaps - 4);
    QuotientResult q = quotientTo(octal(c.code), c.heaps);
    OctalSearch search(c.code);
    std::mt19937 rng(static_cast<unsigned>(c.heaps * 131 + c.parts));
    const int count = brute::scaled(800, 200);
    for (int i = 0; i < count; ++i) {
      int parts = 1 + static_cast<int>(rng() % static_cast<unsigned>(c.parts));
      std::vector<int64_t> heaps;
      std::vector<int> sum;
      for (int j = 0; j < parts; ++j) {
        int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(c.heaps));
        heaps.push_back(n);
        sum.push_back(n);
      }
      INFO("sum of " << parts << " heaps, the first " << sum[0]);
      REQUIRE(static_cast<bool>(q.quotient.inP[elementOf(q, heaps)]) == !search.wins(sum));
    }
  }
}

TEST_CASE("quotient outcomes of sums match the brute force", "[misere][quotient]") {
  SECTION("Kayles (0.77)") {
    QuotientResult q = quotientTo(octal("0.77"), 10);
    checkSums(q, brute::MiserePart::Kayles, 10, 5, 2000, 1);
    CHECK_FALSE(isTame(q.quotient, productTable(q.quotient)));
  }
  SECTION("Dawson's Kayles (0.07), wild") {
    QuotientResult q = quotientTo(octal("0.07"), 15);
    checkSums(q, brute::MiserePart::Dawson, 15, 4, 2000, 2);
    CHECK_FALSE(isTame(q.quotient, productTable(q.quotient)));
  }
  SECTION("subtraction {1, 3, 4} (0.3033)") {
    QuotientResult q = quotientTo(octal("0.3033"), 20);
    checkSums(q, brute::MiserePart::Sub134, 20, 6, 3000, 3);
  }
  SECTION("subtraction {2, 3, 7} (0.0330003)") {
    QuotientResult q = quotientTo(octal("0.0330003"), 20);
    checkSums(q, brute::MiserePart::Sub237, 20, 6, 3000, 4);
  }
  SECTION("Grundy's game") {
    QuotientResult q = quotientTo(grundy(), 11);
    checkSums(q, brute::MiserePart::Grundy, 11, 5, 2000, 5);
  }
  SECTION("nim heaps 0..7: the tame quotient of order 2^3 + 2") {
    QuotientResult q = quotientTo(nim(), 7);
    checkSums(q, brute::MiserePart::Nim, 7, 6, 2000, 6);
    CHECK(q.quotient.size == 10);
    CHECK(q.quotient.pCount() == 2);
    CHECK(isTame(q.quotient, productTable(q.quotient)));
  }
}

TEST_CASE("quotient elements are the classes of indistinguishability", "[misere][quotient]") {
  // Sums of Kayles heaps up to 6 with at most 3 parts; each pair with
  // different elements must be told apart by a third such sum, by the brute
  // force; pairs with the same element by none.
  QuotientResult q = quotientTo(octal("0.77"), 6);
  std::vector<std::vector<int64_t>> sums{{}};
  for (int a = 1; a <= 6; ++a) {
    sums.push_back({a});
    for (int b = 1; b <= a; ++b) {
      sums.push_back({a, b});
      for (int c = 1; c <= b; ++c) sums.push_back({a, b, c});
    }
  }
  HeapSearch search(brute::MiserePart::Kayles);
  auto pOf = [&](const std::vector<int64_t>& x, const std::vector<int64_t>& z) {
    std::vector<int> s;
    for (int64_t h : x) s.push_back(static_cast<int>(h));
    for (int64_t h : z) s.push_back(static_cast<int>(h));
    return !search.wins(s);
  };
  std::vector<uint8_t> seen(q.quotient.size, 0);
  for (size_t i = 0; i < sums.size(); i += 3) {
    for (size_t j = i + 1; j < sums.size(); j += 5) {
      bool same = elementOf(q, sums[i]) == elementOf(q, sums[j]);
      bool apart = false;
      for (const std::vector<int64_t>& z : sums)
        if (pOf(sums[i], z) != pOf(sums[j], z)) {
          apart = true;
          break;
        }
      INFO("sums " << i << " and " << j);
      CHECK(apart == !same);
    }
    seen[elementOf(q, sums[i])] = 1;
  }
}

TEST_CASE("the periodicity theorem's proof holds far past its heap", "[misere][quotient]") {
  // Subtraction games are take-and-break: with take t and one part, the
  // theorem proves the quotient final.
  QuotientOptions o;
  o.maxHeap = 400;
  o.take = 4;
  o.parts = 1;
  QuotientResult q = computeQuotient(octal("0.3033"), o);
  REQUIRE(q.finalHeap);
  REQUIRE(q.period);
  CHECK(*q.finalHeap < 100);
  // The quotient computed much further, without the theorem, agrees.
  QuotientOptions far;
  far.maxHeap = 3 * *q.finalHeap;
  QuotientResult r = computeQuotient(octal("0.3033"), far);
  CHECK(r.quotient.size == q.quotient.size);
  for (int64_t n = *q.preperiod; n + *q.period <= r.lastHeap; ++n)
    CHECK(r.phi[static_cast<size_t>(n)] == r.phi[static_cast<size_t>(n + *q.period)]);
}
