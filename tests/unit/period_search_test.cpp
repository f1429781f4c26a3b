// The period search of runtime/Period.h against its definition, written out
// here as plainly as possible: the smallest p for which some preperiod n0 has
// g(n + p) - g(n) equal to one s >= 0 for every n >= n0 in the table, with the
// repeating part at least half of the table and at least two periods long;
// n0 the smallest such. The tables are random: ultimately periodic (with
// long preperiods, so that multiples of the period are tried and refused),
// arithmetic-periodic, with a late break in the period, and without a period.
// Then where the engine stops a take-and-break table once a period is proved.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "driver/Stack.h"
#include "runtime/Period.h"
#include "test_backends.h"

namespace {

std::optional<gdsl::PeriodInfo> byDefinition(const std::vector<uint16_t>& g) {
  const int64_t count = static_cast<int64_t>(g.size());
  for (int64_t p = 1; 2 * p <= count; ++p) {
    const int64_t s = int64_t{g[count - 1]} - int64_t{g[count - 1 - p]};
    if (s < 0) continue;
    int64_t n0 = count - p;  // the smallest n0 with every n >= n0 matching
    while (n0 > 0 && int64_t{g[n0 - 1 + p]} - int64_t{g[n0 - 1]} == s) --n0;
    const int64_t repeating = count - n0;
    if (repeating >= 2 * p && 2 * repeating >= count)
      return gdsl::PeriodInfo{n0, p, s, false, count - 1};
  }
  return std::nullopt;
}

std::vector<uint16_t> randomTable(std::mt19937_64& rng) {
  const int kind = static_cast<int>(rng() % 4);
  const int64_t size = 2 + static_cast<int64_t>(rng() % 3000);
  const int64_t period = 1 + static_cast<int64_t>(rng() % 60);
  const int64_t preperiod = static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
  const uint64_t values = 2 + rng() % 12;  // few values: chance matches are common
  std::vector<uint16_t> g(static_cast<size_t>(size));
  for (int64_t n = 0; n < size; ++n) {
    uint16_t v = static_cast<uint16_t>(rng() % values);
    if (kind != 3 && n >= preperiod + period) {
      v = g[static_cast<size_t>(n - period)];
      if (kind == 1) v = static_cast<uint16_t>(v + 3);  // arithmetic, saltus 3
    }
    g[static_cast<size_t>(n)] = v;
  }
  // A late break in the period.
  if (kind == 2 && size > 10) g[static_cast<size_t>(size - 1 - rng() % 10)] ^= 1;
  return g;
}

}  // namespace

TEST_CASE("the period search equals the definition on random tables", "[period]") {
  std::mt19937_64 rng(14);
  int withPeriod = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint16_t> g = randomTable(rng);
    const int64_t count = static_cast<int64_t>(g.size());
    std::optional<gdsl::PeriodInfo> want = byDefinition(g);
    std::optional<gdsl::PeriodInfo> got = gdsl::findPeriod(gdsl::TableView{g.data(), false}, count);
    INFO("trial " << trial << ", " << count << " values");
    REQUIRE(got.has_value() == want.has_value());
    if (!want) continue;
    ++withPeriod;
    CHECK(got->period == want->period);
    CHECK(got->preperiod == want->preperiod);
    CHECK(got->saltus == want->saltus);
    CHECK(got->checkedTo == count - 1);
    CHECK_FALSE(got->proved);
  }
  // Most of the tables have a period the search must find.
  CHECK(withPeriod > 500);
}

TEST_CASE("the period search refuses multiples of a period whose preperiod is too long",
          "[period]") {
  // Period 44 from heap 3000 in 5000 values: the repeating part is less than
  // half, so neither 44 nor any multiple of it is accepted; with 7000 values
  // it is, and 44 is the one found.
  std::mt19937_64 rng(44);
  std::vector<uint16_t> g(7000);
  for (size_t n = 0; n < g.size(); ++n) {
    g[n] = n >= 3044 ? g[n - 44] : static_cast<uint16_t>(rng() % 8);
    if (n == 3043) g[n] = static_cast<uint16_t>(g[2999] ^ 1);  // the preperiod is 3000 exactly
  }
  CHECK_FALSE(gdsl::findPeriod(gdsl::TableView{g.data(), false}, 5000).has_value());
  std::optional<gdsl::PeriodInfo> p = gdsl::findPeriod(gdsl::TableView{g.data(), false}, 7000);
  REQUIRE(p.has_value());
  CHECK(p->period == 44);
  CHECK(p->preperiod == 3000);
  CHECK(p->saltus == 0);
}

TEST_CASE("a take-and-break table stops at the first period check past its proof", "[period]") {
  // The checks come at 32 heaps, then 1.25 times as many (meeting 256), or at
  // the heap a candidate's proof needs (runtime/Engine.h): Kayles (0.77,
  // period 12 from heap 71) needs 2 * 71 + 2 * 12 + 2 = 168 heaps, and its
  // candidate is found at the check of 150; a subtraction game of period 7
  // from 0 is proved at the first check, 32.
  struct Case {
    const char* source;
    int64_t preperiod, period, heaps;
  };
  for (const Case& c : {Case{"game G = octal \"0.77\"\n", 71, 12, 168},
                        Case{"game G(n) { take {1, 3, 4} }\n", 0, 7, 32}}) {
    for (gdsl::BackendKind kind : testing::backends()) {
      INFO(c.source << gdsl::backendKindName(kind));
      gdsl::Stack stack{gdsl::StackOptions(kind)};
      REQUIRE(stack.load("t.game", "", c.source));
      std::string error;
      REQUIRE(stack.start(error));
      std::optional<gdsl::PeriodInfo> p = stack.engine().period(0, 100000);
      REQUIRE(p.has_value());
      CHECK(p->proved);
      CHECK(p->preperiod == c.preperiod);
      CHECK(p->period == c.period);
      CHECK(stack.engine().heapTable(0).size() == c.heaps);
      CHECK(p->checkedTo == c.heaps - 1);
    }
  }
}
