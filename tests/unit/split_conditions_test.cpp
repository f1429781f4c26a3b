// Splits with conditions on the parts, written as `move` rules
// (docs/heaps.md, "Splits with conditions"): each game's values on both
// backends against the brute force of its definition (tests/brute/
// brute_force.h: every pair, its condition asked), the engine's report
// saying that the take-and-break solver ran (or, for a condition it does not
// recognise, which rule and why not), and every period proved holding far
// past its proof, never proved under a least difference.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "sparse_variants.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

struct Case {
  const char* name;
  const char* rules;  // the body of `game NAME(n) { ... }`
  std::vector<int> takes;
  std::vector<brute::ConditionedSplit> splits;
  bool recognised = true;
  bool provable = true;  // no least difference: Guy-Smith applies
};

bool odd(int x) {
  return x % 2 == 1;
}

std::vector<Case> cases() {
  return {
      {"OddParts",
       "move take(k in 1..2) when k <= n -> OddParts(n - k)\n"
       "move split(k in 1..2, a in 1..n - k - 1) when a % 2 == 1 and (n - k - a) % 2 == 1\n"
       "  -> OddParts(a) + OddParts(n - k - a)",
       {1, 2},
       {{1, [](int a, int b) { return odd(a) && odd(b); }},
        {2, [](int a, int b) { return odd(a) && odd(b); }}}},
      {"EvenParts",
       "move take(k in 1..1) when k <= n -> EvenParts(n - k)\n"
       "move split(a in 1..n - 1) when a % 2 == 0 and (n - a) % 2 == 0\n"
       "  -> EvenParts(a) + EvenParts(n - a)",
       {1},
       {{0, [](int a, int b) { return !odd(a) && !odd(b); }}}},
      {"MixedParts",
       "move take(k in 1..1) when k <= n -> MixedParts(n - k)\n"
       "move split(a in 1..n - 2) when a % 2 != (n - 1 - a) % 2\n"
       "  -> MixedParts(a) + MixedParts(n - 1 - a)",
       {1},
       {{1, [](int a, int b) { return odd(a) != odd(b); }}}},
      {"FirstOdd",  // an ordered condition: of the unordered pair, a part odd
       "move take(k in 1..1) when k <= n -> FirstOdd(n - k)\n"
       "move split(a in 1..n - 1) when a & 1 == 1 -> FirstOdd(a) + FirstOdd(n - a)",
       {1},
       {{0, [](int a, int b) { return odd(a) || odd(b); }}}},
      {"Grundy",  // Grundy's game written by hand: unequal parts
       "move split(a in 1..n - 1) when a != n - a -> Grundy(a) + Grundy(n - a)",
       {},
       {{0, [](int a, int b) { return a != b; }}},
       true,
       false},
      {"ApartTwo",
       "move take(k in 1..1) when k <= n -> ApartTwo(n - k)\n"
       "move split(a in 1..n - 1) when n - a - a >= 2 -> ApartTwo(a) + ApartTwo(n - a)",
       {1},
       {{0, [](int a, int b) { return b - a >= 2; }}},
       true,
       false},
      {"BigParts",
       "move take(k in 1..2) when k <= n -> BigParts(n - k)\n"
       "move split(a in 3..n - 4) -> BigParts(a) + BigParts(n - 1 - a)",
       {1, 2},
       {{1, [](int a, int b) { return a >= 3 && b >= 3; }}}},
      {"SmallPart",
       "move take(k in 1..3) when k <= n -> SmallPart(n - k)\n"
       "move split(a in 1..3) when n - 2 - a >= 1 -> SmallPart(a) + SmallPart(n - 2 - a)",
       {1, 2, 3},
       {{2, [](int a, int) { return a <= 3; }}}},
      {"Mixed",
       "move take(k in [1, 3]) when k <= n -> Mixed(n - k)\n"
       "move split(a in 1..n) when a % 2 == 1 and (n - a) % 2 == 1 and a >= 3 and n - a - a >= 2\n"
       "  -> Mixed(a) + Mixed(n - a)",
       {1, 3},
       {{0, [](int a, int b) { return odd(a) && odd(b) && a >= 3 && b - a >= 2; }}},
       true,
       false},
      {"Thirds",  // a residue other than parity: no shape, the plain rules run
       "move take(k in 1..2) when k <= n -> Thirds(n - k)\n"
       "move split(a in 1..n - 1) when a % 3 == 0 and (n - a) % 3 == 0\n"
       "  -> Thirds(a) + Thirds(n - a)",
       {1, 2},
       {{0, [](int a, int b) { return a % 3 == 0 && b % 3 == 0; }}},
       false,
       false},
  };
}

std::string source(const Case& c) {
  return std::string("game ") + c.name + "(n) {\n" + c.rules + "\n}\n";
}

std::vector<uint64_t> widened(const brute::Table& t) {
  return {t.begin(), t.end()};
}

}  // namespace

TEST_CASE("splits with conditions against the brute force, on both backends", "[splits]") {
  const int maxN = brute::scaled(400, 150);
  for (const Case& c : cases()) {
    const brute::Table want = brute::takeAndSplit(maxN, c.takes, c.splits);
    for (gdsl::BackendKind kind : testing::backends()) {
      INFO(c.name << " on " << gdsl::backendKindName(kind));
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("splits.game", source(c)));
      CHECK(s.table(c.name, 0, maxN) == widened(want));
      const std::string report = s.tableReport();
      INFO(report);
      if (c.recognised) {
        CHECK(report.find("take-and-break shape found in its move rules") != std::string::npos);
      } else {
        // The rule, the heap, a split it makes and one it does not.
        CHECK(report.find("follow no take-and-break shape: rule 'split' splits heap ") !=
              std::string::npos);
        CHECK(report.find("no condition gdsl recognises") != std::string::npos);
      }
    }
  }
}

TEST_CASE("periods proved with conditions on the parts hold far past the proof", "[splits]") {
  const int checkTo = brute::scaled(3000, 800);
  int proved = 0;
  for (const Case& c : cases()) {
    INFO(c.name);
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("splits.game", source(c)));
    auto period = nlohmann::json::parse(s.runJson(std::string("period ") + c.name + "(0..600)"));
    INFO(period.dump());
    if (!c.provable) {
      CHECK_FALSE(period["proved"].get<bool>());
      continue;
    }
    if (!period["proved"].get<bool>()) continue;
    ++proved;
    const int64_t n0 = period["preperiod"].get<int64_t>(), p = period["period"].get<int64_t>();
    const brute::Table g = brute::takeAndSplit(checkTo, c.takes, c.splits);
    for (int64_t n = n0 + p; n <= checkTo; ++n) {
      INFO("heap " << n << ", period " << p << " from " << n0);
      REQUIRE(g[static_cast<size_t>(n)] == g[static_cast<size_t>(n - p)]);
    }
  }
  CHECK(proved >= 3);
}

namespace {

// Games whose splits carry conditions and whose values keep growing (a least
// difference: no period is proved), so the take-and-break solver computes
// every heap: conditions of each kind, alone and together, beside an
// ordinary split of the same parity of removal and of the other.
std::vector<Case> sparseCases() {
  return {
      {"ApartTwo",
       "move take(k in 1..1) when k <= n -> ApartTwo(n - k)\n"
       "move split(a in 1..n - 1) when n - a - a >= 2 -> ApartTwo(a) + ApartTwo(n - a)",
       {1},
       {{0, [](int a, int b) { return b - a >= 2; }}}},
      {"OddUnequal",
       "move split(a in 1..n - 1) when a % 2 == 1 and (n - a) % 2 == 1 and a < n - a\n"
       "  -> OddUnequal(a) + OddUnequal(n - a)\n"
       "move take(k in 1..2) when k <= n -> OddUnequal(n - k)",
       {1, 2},
       {{0, [](int a, int b) { return odd(a) && odd(b) && a < b; }}}},
      {"SameParity",
       "move take(k in 1..1) when k <= n -> SameParity(n - k)\n"
       "move split(a in 1..n - 2) when a % 2 == (n - 1 - a) % 2 and a < n - 1 - a\n"
       "  -> SameParity(a) + SameParity(n - 1 - a)",
       {1},
       {{1, [](int a, int b) { return odd(a) == odd(b) && a < b; }}}},
      {"Mixed",
       "move take(k in [1, 3]) when k <= n -> Mixed(n - k)\n"
       "move split(a in 1..n) when a % 2 == 1 and (n - a) % 2 == 1 and a >= 3 and n - a - a >= 2\n"
       "  -> Mixed(a) + Mixed(n - a)",
       {1, 3},
       {{0, [](int a, int b) { return odd(a) && odd(b) && a >= 3 && b - a >= 2; }}}},
      {"Twelve",  // large parts: a pair with a small part must never be stamped
       "move take(k in 1..2) when k <= n -> Twelve(n - k)\n"
       "move split(a in 12..n - 13) when a < n - 1 - a -> Twelve(a) + Twelve(n - 1 - a)",
       {1, 2},
       {{1, [](int a, int b) { return a >= 12 && a < b; }}}},
      {"Groups",
       "move far(a in 1..n - 2) when n - 1 - a - a >= 3 -> Groups(a) + Groups(n - 1 - a)\n"
       "move even(a in 2..n - 2) when a % 2 == 0 and (n - a) % 2 == 0 and a != n - a\n"
       "  -> Groups(a) + Groups(n - a)\n"
       "move big(a in 4..n - 7) when a < n - 3 - a -> Groups(a) + Groups(n - 3 - a)\n"
       "move plain(a in 1..n - 3) when a < n - 2 - a -> Groups(a) + Groups(n - 2 - a)",
       {},
       {{1, [](int a, int b) { return b - a >= 3; }},
        {0, [](int a, int b) { return !odd(a) && !odd(b) && a != b; }},
        {3, [](int a, int b) { return a >= 4 && b >= 4 && a < b; }},
        {2, [](int a, int b) { return a < b; }}}},
  };
}

}  // namespace

TEST_CASE("splits with conditions run sparse space exactly, for any class", "[splits][sparse]") {
  // Sparse space from heap 64 with the best class, the best class with the
  // heap-parity term, and classes drawn at random (sparse space must be exact
  // for any class, the pairs a condition allows being any subset), and the
  // default engine, which must choose sparse space for some of them.
  const int heaps = brute::scaled(3000, 700);
  uint64_t seed = 0x51ed27a3b4c1d2e5;
  int chosen = 0;
  for (const Case& c : sparseCases()) {
    const std::vector<uint64_t> want = widened(brute::takeAndSplit(heaps, c.takes, c.splits));
    for (const auto& [what, options] : testing::sparseVariants(++seed)) {
      INFO(c.name << " (" << what << ")");
      gdsl::StackOptions so;
      so.engine = options;
      gdsl::Session s(so);
      REQUIRE(s.load("splits.game", source(c)));
      CHECK(s.table(c.name, 0, heaps) == want);
      const std::string report = s.tableReport();
      INFO(report);
      CHECK(report.find("take-and-break shape found in its move rules") != std::string::npos);
      if (options.sparse.always) CHECK(report.find("sparse space") != std::string::npos);
      if (!options.sparse.always && report.find("sparse space") != std::string::npos) ++chosen;
    }
  }
  CHECK(chosen >= 2);
}
