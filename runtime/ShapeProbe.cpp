// probeShape: read a take-and-break shape off a game's moves and check it.
#include "runtime/ShapeProbe.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "compiler/support/Interrupt.h"

namespace gdsl {
namespace {

// One option of heap n as the shape sees it: how many heaps it leaves (0 to
// 3), the tokens taken, and the smallest parts (a <= b <= c; 0 where there
// is no such part).
struct Option {
  int kind = 0;
  int64_t taken = 0, a = 0, b = 0;
  auto operator<=>(const Option&) const = default;
};

struct Collector final : MoveSink {
  int game = 0;
  int64_t n = 0;
  std::string foreign;  // a component of another game, or too many: which rule
  std::set<Option> options;
  std::map<Option, std::string>* labels = nullptr;  // the first rule that made each kind of option

  bool onMove(const ir::Move& move, const ir::Frame&,
              std::span<const Position> components) override {
    std::vector<int64_t> sizes;
    for (const Position& c : components) {
      if (static_cast<int>(c.game) != game || c.words.size() != 1) {
        foreign = fmt::format("rule '{}' leaves a position of another game", move.label);
        return false;
      }
      if (c.words[0] > 0) sizes.push_back(c.words[0]);  // G(0) has no moves: value 0
    }
    if (sizes.size() > 3) {
      foreign = fmt::format("rule '{}' leaves more than three heaps", move.label);
      return false;
    }
    std::sort(sizes.begin(), sizes.end());
    int64_t left = 0;
    for (int64_t s : sizes) left += s;
    Option o;
    o.kind = static_cast<int>(sizes.size());
    o.taken = n - left;
    if (o.kind >= 2) o.a = sizes[0];
    if (o.kind == 3) o.b = sizes[1];
    options.insert(o);
    labels->try_emplace(Option{o.kind, o.taken, 0, 0}, move.label);
    return true;
  }
};

using Seen = std::vector<std::set<Option>>;  // the options of each heap 0..B

// The smaller parts a of the splits into two heaps after removing k that
// `rule` allows at heap n.
std::set<int64_t> allowedParts(const ir::SplitRule& rule, int64_t n) {
  std::set<int64_t> out;
  const int64_t m = n - rule.k;
  for (int64_t a = 1; 2 * a <= m; ++a)
    if (rule.allows(a, m - a)) out.insert(a);
  return out;
}

std::set<int64_t> seenParts(const Seen& seen, int64_t n, int64_t k) {
  std::set<int64_t> out;
  for (const Option& o : seen[static_cast<size_t>(n)])
    if (o.kind == 2 && o.taken == k) out.insert(o.a);
  return out;
}

// The first heap at which `rule` allows other parts than the rules' moves.
int64_t firstMismatch(const Seen& seen, const ir::SplitRule& rule) {
  for (int64_t n = 0; n < static_cast<int64_t>(seen.size()); ++n)
    if (allowedParts(rule, n) != seenParts(seen, n, rule.k)) return n;
  return -1;
}

// The tightest SplitRule around the splits removing k that the moves make:
// the smallest part seen, the smallest difference, the parities seen, and no
// largest part unless the moves need one. Empty, with `why`, when it does
// not give exactly the moves' splits.
std::optional<ir::SplitRule> splitRule(const Seen& seen, int64_t k, const std::string& label,
                                       std::string& why) {
  ir::SplitRule rule;
  rule.k = k;
  rule.minPart = INT64_MAX;
  rule.minDiff = INT64_MAX;
  rule.parities = 0;
  int64_t largest = 0;
  for (int64_t n = 0; n < static_cast<int64_t>(seen.size()); ++n)
    for (const Option& o : seen[static_cast<size_t>(n)]) {
      if (o.kind != 2 || o.taken != k) continue;
      const int64_t b = n - k - o.a;
      rule.minPart = std::min(rule.minPart, o.a);
      rule.minDiff = std::min(rule.minDiff, b - o.a);
      rule.parities |= ir::SplitRule::parityBit(o.a, b);
      largest = std::max(largest, o.a);
    }
  int64_t n = firstMismatch(seen, rule);
  if (n >= 0) {
    ir::SplitRule bounded = rule;
    bounded.maxPart = largest;
    if (firstMismatch(seen, bounded) < 0 && 4 * largest <= static_cast<int64_t>(seen.size()))
      return bounded;
  }
  const int64_t heaps = static_cast<int64_t>(seen.size()) - 1;
  if (n < 0 && 4 * std::max(rule.minPart, rule.minDiff) <= heaps) return rule;
  if (n < 0) {
    why = fmt::format("rule '{}' splits only parts above {}", label,
                      std::max(rule.minPart, rule.minDiff));
    return std::nullopt;
  }
  // An example: a heap where the moves make a split the condition allows
  // and miss another.
  for (; n < static_cast<int64_t>(seen.size()); ++n) {
    std::set<int64_t> made = seenParts(seen, n, k), allowed = allowedParts(rule, n);
    if (made.empty() || made == allowed) continue;
    int64_t missing = 0;
    for (int64_t a : allowed)
      if (!made.count(a)) {
        missing = a;
        break;
      }
    const int64_t m = n - k;
    why = fmt::format(
        "rule '{}' splits heap {} after removing {} into {} + {} but not {} + {}: no condition "
        "gdsl recognises on the parts (parity, the smaller part at least or at most a number, "
        "a difference of at least a number) allows exactly its splits",
        label, n, k, *made.begin(), m - *made.begin(), missing, m - missing);
    return std::nullopt;
  }
  why = fmt::format(
      "rule '{}' splits some heaps after removing {} and not others of the same kind: no "
      "condition gdsl recognises on the parts allows exactly its splits",
      label, k);
  return std::nullopt;
}

// The options a shape gives heap n that leave no heap or one.
std::set<Option> predicted(const ir::TakeBreakShape& s, int64_t n) {
  std::set<Option> out;
  for (int64_t k : s.whole)
    if (n == k) out.insert(Option{0, k, 0, 0});
  for (int64_t k : s.one)
    if (n - k >= 1) out.insert(Option{1, k, 0, 0});
  if (s.wholeFrom > 0 && n >= s.wholeFrom) out.insert(Option{0, n, 0, 0});
  for (int64_t k = s.oneFrom; s.oneFrom > 0 && n - k >= 1; ++k) out.insert(Option{1, k, 0, 0});
  return out;
}

// Amounts without bound: when `ks` (the amounts seen on heaps 0..B) holds
// `largest`, the most any heap up to B allows, the least K such that every
// amount from K to `largest` is in `ks`; those amounts leave `ks`. 0 when
// `largest` is not in `ks`.
int64_t amountsFrom(std::set<int64_t>& ks, int64_t largest) {
  if (largest < 1 || !ks.count(largest)) return 0;
  int64_t from = largest;
  while (from > 1 && ks.count(from - 1)) --from;
  ks.erase(ks.lower_bound(from), ks.end());
  return from;
}

// The splits of m into three parts a <= b <= c, each at least 1: the
// integer nearest m^2 / 12.
int64_t threePartitions(int64_t m) {
  return m < 3 ? 0 : (m * m + 6) / 12;
}

const char* kindName(int kind) {
  return kind == 0 ? "leaves no heap" : "leaves one heap";
}

}  // namespace

std::optional<ir::TakeBreakShape> probeShape(Backend& backend, int game, int64_t heaps,
                                             std::string* whyNot) {
  std::string why;
  auto refuse = [&](std::string reason) -> std::optional<ir::TakeBreakShape> {
    if (whyNot) *whyNot = std::move(reason);
    return std::nullopt;
  };
  Seen seen;
  std::map<Option, std::string> labels;
  try {
    for (int64_t n = 0; n <= heaps; ++n) {
      checkInterrupt();
      Collector c;
      c.game = game;
      c.n = n;
      c.labels = &labels;
      Position p;
      p.game = static_cast<uint32_t>(game);
      p.words.push_back(n);
      backend.enumerate(p, c);
      if (!c.foreign.empty()) return refuse(c.foreign);
      seen.push_back(std::move(c.options));
    }
  } catch (const RuntimeError&) {
    return refuse("a rule fails on a heap up to " +
                  std::to_string(heaps));  // the kernel reports it
  }
  auto label = [&](int kind, int64_t k) { return labels[Option{kind, k, 0, 0}]; };
  ir::TakeBreakShape s;
  std::set<int64_t> whole, one, two, three;
  for (size_t n = 0; n < seen.size(); ++n)
    for (const Option& o : seen[n]) {
      if (o.taken < (o.kind >= 2 ? 0 : 1))  // a move to the same heap or more
        return refuse(fmt::format("rule '{}' leaves a heap as large as the one it moves from",
                                  label(o.kind, o.taken)));
      (o.kind == 0 ? whole : o.kind == 1 ? one : o.kind == 2 ? two : three).insert(o.taken);
    }
  // Every amount from some K on (Nim's `k in 1..n`, all-but games): heap B
  // taken whole, or left as heap 1.
  s.wholeFrom = amountsFrom(whole, heaps);
  s.oneFrom = amountsFrom(one, heaps - 1);
  s.whole.assign(whole.begin(), whole.end());
  s.one.assign(one.begin(), one.end());
  s.three.assign(three.begin(), three.end());
  for (int64_t k : two) {
    std::optional<ir::SplitRule> rule = splitRule(seen, k, label(2, k), why);
    if (!rule) return refuse(why);
    const bool plain = rule->minPart == 1 && rule->maxPart == INT64_MAX && rule->parities == 7;
    if (plain && rule->minDiff == 0)
      s.two.push_back(k);
    else if (plain && rule->minDiff == 1)
      s.twoUnequal.push_back(k);
    else
      s.twoWhere.push_back(*rule);
  }
  for (auto* v : {&s.whole, &s.one, &s.two, &s.twoUnequal, &s.three})
    if (!v->empty()) s.maxTake = std::max(s.maxTake, v->back());
  if (!s.twoWhere.empty()) s.maxTake = std::max(s.maxTake, s.twoWhere.back().k);
  if (4 * s.maxTake > heaps)
    return refuse(fmt::format(
        "it removes up to {} tokens on heaps 0..{}: amounts that grow with the heap are a "
        "take-and-break shape only as every amount from a constant on, leaving one heap or none",
        s.maxTake, heaps));
  if (4 * std::max(s.oneFrom, s.wholeFrom) > heaps)
    return refuse(fmt::format(
        "it removes every amount from {} on, on heaps 0..{}: too few heaps to tell that from "
        "amounts up to a constant",
        std::max(s.oneFrom, s.wholeFrom), heaps));
  for (int64_t n = 0; n <= heaps; ++n) {
    std::set<Option> want = predicted(s, n), got;
    std::map<int64_t, int64_t> triples;  // by k: the splits into three heaps seen
    for (const Option& o : seen[static_cast<size_t>(n)]) {
      if (o.kind == 3) ++triples[o.taken];
      if (o.kind < 2) got.insert(o);
    }
    // The moves make some splits into three heaps after removing k (each a
    // split of n - k): all of them when there are as many.
    for (int64_t k : s.three)
      if (triples[k] != threePartitions(n - k))
        return refuse(fmt::format(
            "rule '{}' makes some splits into three heaps after removing {} but not all of them "
            "(at heap {}: {} of {}); splits into three heaps under conditions are not recognised",
            label(3, k), k, n, triples[k], threePartitions(n - k)));
    if (want == got) continue;
    // A kind of option the shape gives here and the moves do not (the
    // shape holds every kind the moves make somewhere).
    for (const Option& o : want)
      if (!got.count(o))
        return refuse(fmt::format("rule '{}' {} after removing {} at some heaps but not at heap {}",
                                  label(o.kind, o.taken), kindName(o.kind), o.taken, n));
  }
  return s;
}

}  // namespace gdsl
