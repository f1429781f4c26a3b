// The finite check that proves an arithmetic period (runtime/SaltusProof.h).
// Notation as in docs/heaps.md, "Arithmetic periods": n0, P, S the
// preperiod, period and saltus (S a power of two). Every value splits as
// S * high + low with low < S, and a split's value is S * (xor of the parts'
// highs) + (xor of their lows). A heap x >= n0 has residue (x - n0) mod P,
// block (x - n0) / P and high block + h[residue]; a heap below n0 has the
// high and low of g(x). Sets of lows are byte vectors indexed by the low.
#include "runtime/SaltusProof.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gdsl {
namespace {

// Beyond these the check is not tried (its work grows as P^4).
constexpr int64_t kMaxSaltus = int64_t{1} << 14;
constexpr int64_t kMaxWork = int64_t{1} << 27;  // about a tenth of a second
constexpr int64_t kMaxTake = int64_t{1} << 20;

using Lows = std::vector<uint8_t>;  // Lows[y] != 0: y is in the set

struct Rule {
  int64_t k;
  int parts;
  bool unequal;
  // A split under a condition on its parts (ir::SplitRule): condition 1
  // looks at every split of k, a superset of its own; condition 2 takes no
  // value from it (its families need not be legal splits).
  bool conditioned = false;
  ir::SplitRule condition;
};

// The largest offset d = Q - X that condition 2 checks one by one: past every
// D of family (b) plus twice its least u, and every d of family (a).
int64_t topRegion(int64_t maxTake, int64_t n0, int64_t p, int64_t maxHigh) {
  return (maxTake + 2 * n0 + 3 * p) / p + 4 * maxHigh + 4;
}

// floor(a / b) and a mod b in 0 .. b - 1, for b > 0.
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
int64_t floorMod(int64_t a, int64_t b) {
  return a - floorDiv(a, b) * b;
}

// Amounts without bound (ir::TakeBreakShape): every heap N >= wholeFrom may
// be taken whole, and every heap 1 .. N - oneFrom is an option (0: none).
struct Unbounded {
  int64_t oneFrom = 0, wholeFrom = 0;
};

class Check {
 public:
  Check(std::vector<Rule> rules, Unbounded unbounded, TableView g, int64_t n0, int64_t period,
        int64_t saltus, int64_t maxTake)
      : rules_(std::move(rules)), unbounded_(unbounded), n0_(n0), p_(period), s_(saltus) {
    for (int64_t x = 0; x < n0_ + p_; ++x) {
      high_.push_back(g[x] / s_);
      low_.push_back(g[x] % s_);
      maxHigh_ = std::max(maxHigh_, high_.back());
    }
    bottom_ = maxHigh_ + 1;
    top_ = topRegion(maxTake, n0_, p_, maxHigh_);
    explicitPairs();
  }

  // The heaps the induction starts from: every split of a larger heap has
  // a heap >= n0, and its high is past the three regions of condition 2.
  int64_t heaps(int64_t maxTake) const {
    return std::max(3 * n0_ + maxTake + 1, n0_ + p_ * (bottom_ + top_ + 2));
  }

  // Both conditions at every residue of N; "" when they hold.
  std::string run() const {
    for (int64_t rho = 0; rho < p_; ++rho) {
      if (std::string why = noneReachesValue(rho); !why.empty()) return why;
      if (std::string why = everySmallerReached(rho); !why.empty()) return why;
    }
    return "";
  }

 private:
  Lows empty() const { return Lows(static_cast<size_t>(s_), 0); }
  // High and low of heap x < n0 + P, and h[rho] and the low of residue rho.
  int64_t high(int64_t x) const { return high_[static_cast<size_t>(x)]; }
  uint32_t low(int64_t x) const { return low_[static_cast<size_t>(x)]; }
  int64_t h(int64_t rho) const { return high(n0_ + rho); }
  uint32_t lowOf(int64_t rho) const { return low(n0_ + rho); }

  static void addXored(Lows& into, const Lows& from, uint32_t v) {
    for (size_t y = 0; y < from.size(); ++y)
      if (from[y]) into[y ^ v] = 1;
  }
  static int64_t firstMissing(const Lows& set, int64_t below) {
    return std::find(set.begin(), set.begin() + below, 0) - set.begin();
  }

  // explicit_[s]: the lows' xors of two heaps 1 .. n0 + P - 1 adding to s
  // whose highs cancel (are equal).
  void explicitPairs() {
    const int64_t block = n0_ + p_;
    explicit_.assign(static_cast<size_t>(2 * block), empty());
    for (int64_t a = 1; a < block; ++a)
      for (int64_t b = 1; b < block; ++b)
        if (high(a) == high(b)) explicit_[static_cast<size_t>(a + b)][low(a) ^ low(b)] = 1;
  }

  // Whether Q + e == Q xor c for some Q >= 0: (Q xor c) - Q is c - 2m
  // for m = Q & c, any part of c's bits.
  static bool xorShift(int64_t e, int64_t c) {
    if ((c - e) % 2 != 0 || c - e < 0) return false;
    const int64_t m = (c - e) / 2;
    return (m & ~c) == 0;
  }

  // Condition 1: no split of a heap N of residue rho has N's value. Its
  // highs' xor X would be N's high Q, so their sum at least Q and of the same
  // parity. With L heaps >= n0 (residues r_i) and the others below n0, the
  // sum of highs less Q is (rho - k - smalls - (L - 1) n0 - sum r_i) / P
  // + sum h[r_i] + highs of the smalls - h[rho]: finitely many patterns make
  // it >= 0 and even, whatever N's block, and each must have a low other than
  // N's. With one heap >= n0 its high is exact: X = Q needs it to be Q xor
  // (the smalls' highs' xor).
  struct Pattern {
    int64_t used = 0;        // residues and small sizes so far
    int64_t highs = 0;       // their h and highs
    int64_t smallHighs = 0;  // the small heaps' highs, summed
    int64_t smallXor = 0;    // and xored
    uint32_t lows = 0;       // the lows' xor
  };
  std::string noneReachesValue(int64_t rho) const {
    if (std::string why = noHeapLeftReachesValue(rho); !why.empty()) return why;
    for (const Rule& rule : rules_)
      for (int large = 1; large <= rule.parts; ++large) {
        std::vector<int64_t> part(static_cast<size_t>(rule.parts));
        if (std::string why = patterns(rule, large, 0, Pattern{}, rho, part); !why.empty())
          return why;
      }
    return "";
  }
  // Fills part[i] (residues of the large heaps first, then the small heaps'
  // sizes) and checks each whole pattern.
  std::string patterns(const Rule& rule, int large, int i, const Pattern& at, int64_t rho,
                       std::vector<int64_t>& part) const {
    const int64_t fixed = rho - rule.k - (large - 1) * n0_;
    // The sum of highs less Q only falls as parts are added, except by what
    // their highs add: below -P * (what the rest can add), no completion works.
    const int64_t rest = (rule.parts - i) * maxHigh_;
    if (fixed - at.used + p_ * (at.highs + rest - h(rho)) < 0) return "";
    if (i == rule.parts) {
      const int64_t num = fixed - at.used;
      if (floorMod(num, p_) != 0) return "";
      const int64_t excess = num / p_ + at.highs - h(rho);
      if (excess < 0 || excess % 2 != 0 || at.lows != lowOf(rho)) return "";
      if (large == 1 && !xorShift(excess - at.smallHighs, at.smallXor)) return "";
      if (rule.conditioned && !allowed(rule.condition, large, part)) return "";
      std::string shape;
      for (int j = 0; j < rule.parts; ++j)
        shape += fmt::format("{}{}", j ? ", " : "",
                             j < large ? fmt::format("residue {}", part[static_cast<size_t>(j)])
                                       : fmt::format("heap {}", part[static_cast<size_t>(j)]));
      return fmt::format(
          "a split removing {} ({}) may have the value of a heap of residue {} (the theorem's "
          "condition 1)",
          rule.k, shape, rho);
    }
    const bool largePart = i < large;
    for (int64_t x = largePart ? 0 : 1; x < (largePart ? p_ : n0_); ++x) {
      part[static_cast<size_t>(i)] = x;
      Pattern next = at;
      next.used += x;
      if (largePart) {
        next.highs += h(x);
        next.lows ^= lowOf(x);
      } else {
        next.highs += high(x);
        next.smallHighs += high(x);
        next.smallXor ^= high(x);
        next.lows ^= low(x);
      }
      if (std::string why = patterns(rule, large, i + 1, next, rho, part); !why.empty()) return why;
    }
    return "";
  }

  // Condition 1 for the heaps 1 .. N - K left by removing K = oneFrom or
  // more: the heap of residue r' with N's value (same low, high Q) is
  // N + r' - rho + P (h[rho] - h[r']), whatever N's block; it must be
  // larger than N - K. (Heaps below n0 + P have highs below Q.)
  std::string noHeapLeftReachesValue(int64_t rho) const {
    const int64_t k = unbounded_.oneFrom;
    if (k == 0) return "";
    for (int64_t r = 0; r < p_; ++r)
      if (lowOf(r) == lowOf(rho) && r - rho + p_ * (h(rho) - h(r)) + k < 1)
        return fmt::format(
            "removing {} or more may leave a heap of residue {} with the value of a heap of "
            "residue {} (the theorem's condition 1)",
            k, r, rho);
    return "";
  }

  // The values the moves of amounts without bound give a heap N of residue
  // rho, into condition 2's sets: a whole heap taken, 0 (X = 0, low 0); the
  // heaps left by removing K or more, each heap 1 .. n0 - 1 (X its high), and
  // for each residue r' the heaps of every block up to N's less
  // dmin = h[rho] - h[r'] - floor((rho - K - r') / P): low l[r'] at every
  // d >= dmin, X >= h[r'] (X > 0 when n0 + r' = 0, heap 0 being none). At
  // X = bottom that holds for the whole middle too (every d > top), so
  // the middle's argument stands.
  template <class AtBottom>
  void unboundedOptions(int64_t rho, std::vector<Lows>& atTop, AtBottom bottomSet) const {
    if (unbounded_.wholeFrom > 0)
      for (int parity = 0; parity < 2; ++parity) bottomSet(0, parity)[0] = 1;
    const int64_t k = unbounded_.oneFrom;
    if (k == 0) return;
    for (int64_t x = 1; x < n0_; ++x)
      for (int parity = 0; parity < 2; ++parity) bottomSet(high(x), parity)[low(x)] = 1;
    for (int64_t r = 0; r < p_; ++r) {
      const int64_t dmin = h(rho) - h(r) - floorDiv(rho - k - r, p_);
      if (dmin > top_) continue;
      for (int64_t d = std::max<int64_t>(dmin, 0); d <= top_; ++d)
        atTop[static_cast<size_t>(d)][lowOf(r)] = 1;
      for (int64_t x = h(r) + (n0_ + r == 0 ? 1 : 0); x <= bottom_; ++x)
        for (int parity = 0; parity < 2; ++parity) bottomSet(x, parity)[lowOf(r)] = 1;
    }
  }

  // Whether a split of a pattern (two parts: `large` of them heaps >= n0 by
  // residue, the others heaps below n0 by size) may meet `c`. With P even a
  // large heap's parity is n0 + its residue's; a small part x is the smaller
  // one (the other is past 2 n0 at every N >= B). Anything not known from the
  // pattern is taken as allowed.
  bool allowed(const ir::SplitRule& c, int large, const std::vector<int64_t>& part) const {
    int64_t sizes[2] = {0, 0};
    bool known[2] = {false, false};
    for (int j = 0; j < 2; ++j) {
      const int64_t x = part[static_cast<size_t>(j)];
      if (j >= large) {
        if (x < c.minPart || x > c.maxPart) return false;
        sizes[j] = x;
        known[j] = true;
      } else if (p_ % 2 == 0) {
        sizes[j] = n0_ + x;  // its parity only
        known[j] = true;
      }
    }
    if (known[0] && known[1] && (c.parities & ir::SplitRule::parityBit(sizes[0], sizes[1])) == 0)
      return false;
    return true;
  }

  // Condition 2: every smaller value is some split's, for every N of
  // residue rho whose high Q is at least bottom + top + 2. With X the
  // xor of the split's highs and d = Q - X, three regions:
  //   top, d <= top: each d on its own;
  //   middle, X > bottom and d > top: by d's parity, from family (b) alone;
  //   bottom, X <= bottom: each X on its own, by Q's parity.
  // The middle needs no check of its own: at X = bottom the bottom's sets
  // are family (b)'s, every entry counted, with D's parity that of Q - X
  // (= d), so they hold both parities of d.
  std::string everySmallerReached(int64_t rho) const {
    const int64_t hN = h(rho);
    std::vector<Lows> atTop(static_cast<size_t>(top_ + 1), empty());
    std::vector<Lows> atBottom(static_cast<size_t>(2 * (bottom_ + 1)), empty());
    auto bottomSet = [&](int64_t x, int64_t parity) -> Lows& {
      return atBottom[static_cast<size_t>(2 * x + floorMod(parity, 2))];
    };
    unboundedOptions(rho, atTop, bottomSet);
    for (const Rule& rule : rules_) {
      if (rule.conditioned) continue;
      // One heap y >= n0 carries the highs; the others are heaps 1 .. n0 +
      // P - 1 of high 0 taking c tokens with the rule's k. y's block is N's
      // less d1 and its residue rho - c + d1 P, so X = Q - d.
      auto oneBig = [&](int64_t c, const Lows& lows) {
        const int64_t d1 = -floorDiv(rho - c, p_), ry = rho - c + d1 * p_;
        const int64_t d = d1 - h(ry) + hN;
        if (d >= 0 && d <= top_) addXored(atTop[static_cast<size_t>(d)], lows, lowOf(ry));
      };
      if (rule.parts == 1) {
        Lows zero = empty();
        zero[0] = 1;
        oneBig(rule.k, zero);
      } else if (rule.parts == 2) {
        for (int64_t x = 1; x < n0_ + p_; ++x) {
          if (high(x) != 0) continue;
          Lows one = empty();
          one[low(x)] = 1;
          oneBig(rule.k + x, one);
        }
      } else {
        for (size_t sum = 2; sum < explicit_.size(); ++sum)
          oneBig(rule.k + static_cast<int64_t>(sum), explicit_[sum]);
      }
      // Two heaps b, c >= n0 of equal highs cancel: blocks ub and
      // uc = ub + h[rb] - h[rc], legal from the least ub = lb on.
      for (int64_t rb = 0; rb < p_; ++rb)
        for (int64_t rc = 0; rc < p_; ++rc) {
          const int64_t shift = h(rb) - h(rc);
          int64_t lb = std::max<int64_t>(0, -shift);
          while ((n0_ + rb == 0 && lb == 0) || (n0_ + rc == 0 && lb + shift == 0)) ++lb;
          const uint32_t pairLow = lowOf(rb) ^ lowOf(rc);
          // b + c = 2 n0 + rb + rc + P (2 ub + shift).
          if (rule.parts == 2) {
            // Alone: 2 ub = Q - hN - E - shift.
            if (rule.unequal && rb == rc) continue;
            const int64_t num = rule.k + n0_ + rb + rc - rho;
            if (floorMod(num, p_) != 0) continue;
            bottomSet(0, hN + num / p_ + shift)[pairLow] = 1;
          } else if (rule.parts == 3) {
            // With a heap a of 1 .. n0 + P - 1: X = high(a).
            for (int64_t a = 1; a < n0_ + p_; ++a) {
              if (high(a) > bottom_) continue;
              const int64_t num = n0_ + rule.k + a + rb + rc - rho;
              if (floorMod(num, p_) != 0) continue;
              bottomSet(high(a), hN + num / p_ + shift)[pairLow ^ low(a)] = 1;
            }
            // With a heap a >= n0 of residue ra and free block: X + 2 ub =
            // Q - D, X >= h[ra] (+ 1 when a would be 0).
            const int64_t ra = floorMod(rho - rule.k - 2 * n0_ - rb - rc, p_);
            const int64_t D = (rule.k + 2 * n0_ + ra + rb + rc - rho) / p_ + hN - h(ra) + shift;
            const uint32_t y = pairLow ^ lowOf(ra);
            for (int64_t ub = lb; D + 2 * ub <= top_; ++ub)
              if (D + 2 * ub >= 0) atTop[static_cast<size_t>(D + 2 * ub)][y] = 1;
            const int64_t least = h(ra) + (n0_ + ra == 0 ? 1 : 0);
            for (int64_t x = least; x <= bottom_; ++x) bottomSet(x, x + D)[y] = 1;
          }
        }
    }
    for (int64_t d = 0; d <= top_; ++d) {
      const int64_t below = d == 0 ? lowOf(rho) : s_;
      const Lows& set = atTop[static_cast<size_t>(d)];
      if (int64_t y = firstMissing(set, below); y < below)
        return fmt::format(
            "no split found with the value S (Q - {}) + {} at a heap of residue {} (the theorem's "
            "condition 2)",
            d, y, rho);
    }
    for (int parity = 0; parity < 2; ++parity) {
      for (int64_t x = 0; x <= bottom_; ++x)
        if (int64_t y = firstMissing(bottomSet(x, parity), s_); y < s_)
          return fmt::format(
              "no split found with the value S {} + {} at a heap of residue {} (the theorem's "
              "condition 2)",
              x, y, rho);
    }
    return "";
  }

  std::vector<Rule> rules_;
  Unbounded unbounded_;
  int64_t n0_, p_, s_;
  std::vector<int64_t> high_;
  std::vector<uint32_t> low_;
  int64_t maxHigh_ = 0, bottom_ = 0, top_ = 0;
  std::vector<Lows> explicit_;
};

bool powerOfTwo(int64_t x) {
  return x > 0 && (x & (x - 1)) == 0;
}

}  // namespace

SaltusProof checkSaltus(const ir::TakeBreakShape& shape, TableView g, int64_t count,
                        const PeriodInfo& observed) {
  SaltusProof out;
  const int64_t n0 = observed.preperiod;
  int64_t p = observed.period, s = observed.saltus;
  // A parity condition on a split is read off residues when P is even: an
  // odd period is checked as twice itself, with twice the saltus (the same
  // values).
  if (p % 2 != 0 && std::any_of(shape.twoWhere.begin(), shape.twoWhere.end(),
                                [](const ir::SplitRule& r) { return r.parities != 7; })) {
    p *= 2;
    s *= 2;
  }
  auto no = [&](std::string why) {
    out.whyNot = std::move(why);
    return out;
  };
  if (std::find(shape.one.begin(), shape.one.end(), 0) != shape.one.end())
    return no("a move that leaves the heap as it was");
  // Amounts without bound enter the bounds as the least of them: from
  // there on every heap has their moves.
  const int64_t maxTake = shape.proofTake();
  if (maxTake > kMaxTake) return no("a move takes too many tokens");
  if (!powerOfTwo(s)) return no(fmt::format("the saltus {} is not a power of two", s));
  if (n0 + p > count) return no("the table is shorter than the preperiod and a period");
  std::vector<Rule> rules;
  for (int64_t k : shape.one) rules.push_back({k, 1, false, false, {}});
  for (int64_t k : shape.two) rules.push_back({k, 2, false, false, {}});
  for (int64_t k : shape.twoUnequal) rules.push_back({k, 2, true, false, {}});
  for (int64_t k : shape.three) rules.push_back({k, 3, false, false, {}});
  for (const ir::SplitRule& r : shape.twoWhere) rules.push_back({r.k, 2, false, true, r});
  const int64_t block = n0 + p;
  if (s > kMaxSaltus || block > 4096 ||
      p * (p * p * p + block * p * p + block * block * p) * static_cast<int64_t>(rules.size()) >
          kMaxWork ||
      block * block * s > kMaxWork)
    return no("too large a period, preperiod or saltus to check");
  // The regions of condition 2 grow with the largest high before the first
  // repeat ends; each keeps a set of lows per offset.
  uint32_t largest = 0;
  for (int64_t x = 0; x < block; ++x) largest = std::max(largest, g[x]);
  const int64_t maxHigh = largest / s;
  const int64_t top = topRegion(maxTake, n0, p, maxHigh);
  if (maxHigh > 64 || (top + 2 * maxHigh + 8 + 2 * block) * s > kMaxWork / 8)
    return no(
        fmt::format("a value before the first repeat ends ({}) is too large against the "
                    "saltus {} to check",
                    largest, s));
  Check check(std::move(rules), Unbounded{shape.oneFrom, shape.wholeFrom}, g, n0, p, s, maxTake);
  if (std::string why = check.run(); !why.empty()) return no(why);
  out.holds = true;
  out.heaps = check.heaps(maxTake);
  return out;
}

}  // namespace gdsl
