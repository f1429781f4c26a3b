// gdsl census, one game at a time (computeCensusGame): every code 0.d1d2,
// 4.d1d2 and 0.d1d2d3 against an independent brute force of octal games (the
// definition, heap by heap), and published periods.
// The brute force checks the row's checksum and largest value, that a period
// holds on every computed heap (on thousands more once proved), that its
// preperiod and period are the smallest (docs/reference.md section 6), and
// that no period is missed. The whole-census checks (jobs, MPI, shards, kills)
// are tests/cli/census.py.
#include "driver/Census.h"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "test_scale.h"

namespace {

// g(0..m) of the octal game `code` ("0.137", "4.07"): digit k of the code says
// whether removing k tokens may leave no heap (1), one heap (2) or two (4);
// digit 0 (before the point) applies to removing none.
std::vector<int> bruteOctal(const std::string& code, int m) {
  std::vector<int> digits{code[0] - '0'};
  for (size_t i = 2; i < code.size(); ++i) digits.push_back(code[i] - '0');
  std::vector<int> g(static_cast<size_t>(m) + 1, 0);
  for (int n = 0; n <= m; ++n) {
    std::vector<bool> seen(static_cast<size_t>(n) * 2 + 4, false);
    auto see = [&](int v) {
      if (v < static_cast<int>(seen.size())) seen[static_cast<size_t>(v)] = true;
    };
    for (int k = 0; k < static_cast<int>(digits.size()) && k <= n; ++k) {
      int d = digits[static_cast<size_t>(k)], rest = n - k;
      if ((d & 1) && rest == 0 && k > 0) see(0);
      if ((d & 2) && rest > 0 && k > 0) see(g[static_cast<size_t>(rest)]);
      if (d & 4)
        for (int a = 1; a <= rest / 2; ++a)
          see(g[static_cast<size_t>(a)] ^ g[static_cast<size_t>(rest - a)]);
    }
    int mex = 0;
    while (mex < static_cast<int>(seen.size()) && seen[static_cast<size_t>(mex)]) ++mex;
    g[static_cast<size_t>(n)] = mex;
  }
  return g;
}

// The smallest preperiod for period p and saltus s on g[0..c]: the first n0
// with g(n + p) = g(n) + s for every n0 <= n <= c - p.
int64_t smallestPreperiod(const std::vector<int>& g, int64_t c, int64_t p, int64_t s) {
  int64_t n0 = c - p + 1;
  while (n0 > 0 && g[static_cast<size_t>(n0 - 1 + p)] == g[static_cast<size_t>(n0 - 1)] + s) --n0;
  return n0;
}

// Whether the definition accepts period p on g[0..c]: the repeating part is
// at least half of the values and holds two whole periods.
bool accepted(const std::vector<int>& g, int64_t c, int64_t p) {
  if (p > c) return false;
  int64_t s = g[static_cast<size_t>(c)] - g[static_cast<size_t>(c - p)];
  int64_t repeating = c + 1 - smallestPreperiod(g, c, p, s);
  return 2 * repeating >= c + 1 && repeating >= 2 * p;
}

std::string checksum(const std::vector<int>& g, int64_t c) {
  uint64_t h = 0, m = (uint64_t{1} << 61) - 1;
  for (int64_t n = 0; n <= c; ++n)
    h = static_cast<uint64_t>((static_cast<unsigned __int128>(h) * 1000003 +
                               static_cast<uint64_t>(g[static_cast<size_t>(n)])) %
                              m);
  return fmt::format("{:016x}", h);
}

gdsl::CensusRow census(const std::string& code, int64_t n) {
  std::vector<gdsl::CensusGame> games;
  bool usageError = false;
  std::string error;
  REQUIRE(gdsl::censusGames(code, games, usageError, error));
  REQUIRE(games.size() == 1);
  gdsl::CensusRow row;
  INFO(error);
  REQUIRE(gdsl::computeCensusGame(games[0], n, "", gdsl::BackendKind::Interp, "test", row, error));
  return row;
}

// Checks the census row of `code` to `n` against the brute force, computed
// `beyond` heaps further once the period is proved.
void checkAgainstBruteForce(const std::string& code, int64_t n, int beyond) {
  gdsl::CensusRow row = census(code, n);
  INFO(fmt::format("{} to {}: period {} from {}, proved {}, values to {}", code, n,
                   row.period.value_or(-1), row.preperiod.value_or(-1), row.proved, row.checkedTo));
  int extra = row.proved ? beyond : 0;
  std::vector<int> g = bruteOctal(code, static_cast<int>(std::max(n, row.checkedTo)) + extra);
  int64_t c = row.checkedTo;
  CHECK(c <= n);
  CHECK(row.checksum == checksum(g, c));
  CHECK(row.maxValue == *std::max_element(g.begin(), g.begin() + c + 1));
  if (!row.period) {
    for (int64_t p = 1; p <= c; ++p) CHECK_FALSE(accepted(g, c, p));
    CHECK_FALSE(row.proved);
    return;
  }
  int64_t p = *row.period, n0 = *row.preperiod, s = *row.saltus;
  // A proved period holds far past the heaps that proved it, and no shorter
  // period does; one only observed is the smallest on the heaps computed.
  int64_t last = row.proved ? static_cast<int64_t>(g.size()) - 1 : c;
  CHECK(smallestPreperiod(g, last, p, s) == n0);
  CHECK(accepted(g, last, p));
  for (int64_t q = 1; q < p; ++q) CHECK_FALSE(accepted(g, last, q));
  CHECK(row.proofHeap.has_value() == row.proved);
  if (!row.proved) CHECK(c == n);
}

}  // namespace

TEST_CASE("census rows of every two-digit code match a brute force", "[census]") {
  for (char prefix : {'0', '4'})
    for (int d1 = 0; d1 < 8; ++d1)
      for (int d2 = 0; d2 < 8; ++d2) {
        if (prefix == '0' && d1 == 0 && d2 == 0) continue;
        if (!brute::sampled(d1 * 8 + d2)) continue;  // under sanitizers, a sample
        checkAgainstBruteForce(fmt::format("{}.{}{}", prefix, d1, d2), 1200, 3000);
      }
}

TEST_CASE("census rows of every three-digit code match a brute force", "[census]") {
  // The 448 codes 0.d1d2d3 with d3 > 0 (the others are two-digit codes).
  for (int d1 = 0; d1 < 8; ++d1)
    for (int d2 = 0; d2 < 8; ++d2)
      for (int d3 = 1; d3 < 8; ++d3)
        if (brute::sampled((d1 * 8 + d2) * 7 + d3))  // under sanitizers, a sample
          checkAgainstBruteForce(fmt::format("0.{}{}{}", d1, d2, d3), 1000, 1500);
}

TEST_CASE("census finds the published periods of octal games", "[census]") {
  // Winning Ways ch. 4 and the OEIS entries that cite Flammenkamp's tables:
  // (code, period, preperiod = the last exceptional heap + 1).
  struct Published {
    const char* code;
    int64_t period, preperiod;
  };
  for (Published known : {Published{"0.77", 12, 71},      // Kayles
                          Published{"0.137", 34, 52},     // Dawson's chess: last exception 51
                          Published{"0.07", 34, 53},      // Dawson's Kayles: 0.137 a heap on
                          Published{"0.117", 48, 47},     // A071453
                          Published{"0.1377", 24, 141},   // A071434
                          Published{"0.177", 20, 497},    // A071435
                          Published{"0.11377", 32, 187},  // A071452
                          Published{"0.127", 4, 46578},   // A071464: proved at heap 93166
                          Published{"0.16", 149459, 105351}}) {  // Gangolli-Plambeck 1989
    gdsl::CensusRow row = census(known.code, 600000);
    INFO(known.code);
    CHECK(row.proved);
    CHECK(row.period == known.period);
    CHECK(row.preperiod == known.preperiod);
    CHECK(row.saltus == 0);
  }
}
