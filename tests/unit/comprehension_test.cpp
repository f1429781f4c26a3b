// Games written with comprehensions, folds, popcount and bits, against
// brute forces in plain C++ on both backends: subtraction of squares (a list
// of squares built in a move), Kayles on a row written as a bitmask (moves
// over bits(m)), and a two-parameter game whose guards use count, any and sum.
#include <bit>
#include <catch2/catch.hpp>
#include <map>

#include "brute_force.h"
#include "test_backends.h"

namespace {

constexpr const char* kSource = R"(
game Squares(n) {
  move t(k in [j * j for j in 1..n if j * j <= n]) -> Squares(n - k)
}
game Row(m) {
  move one(i in bits(m)) -> Row(m - (1 << i))
  move two(i in bits(m) when (m >> (i + 1)) & 1 == 1) -> Row(m - (3 << i))
}
game Folds(a, b) {
  move left(k in 1..a when count(j % 2 == 0 for j in 1..k) <= b) -> Folds(a - k, b)
  move right(k in 1..b when any(j * j == k for j in 1..k)) -> Folds(a, b - k)
  move mixed(k in 1..b when sum(j for j in 0..a) % 3 != k % 3 and popcount(k) <= 2) -> Folds(a, b - k)
}
)";

// Kayles on the set bits of a mask: take one pin, or two adjacent ones.
brute::Value rowBrute(uint64_t mask, std::map<uint64_t, brute::Value>& memo) {
  if (auto it = memo.find(mask); it != memo.end()) return it->second;
  std::vector<brute::Value> options;
  for (int i = 0; i < 64; ++i) {
    if (!((mask >> i) & 1)) continue;
    options.push_back(rowBrute(mask & ~(uint64_t{1} << i), memo));
    if (i < 63 && ((mask >> (i + 1)) & 1))
      options.push_back(rowBrute(mask & ~(uint64_t{3} << i), memo));
  }
  return memo[mask] = brute::mex(options);
}

// The rules of Folds, written out with loops.
brute::Value foldsBrute(int a, int b, std::map<std::pair<int, int>, brute::Value>& memo) {
  if (auto it = memo.find({a, b}); it != memo.end()) return it->second;
  std::vector<brute::Value> options;
  for (int k = 1; k <= a; ++k) {
    int evens = k / 2;  // j in 1..k with j % 2 == 0
    if (evens <= b) options.push_back(foldsBrute(a - k, b, memo));
  }
  for (int k = 1; k <= b; ++k) {
    bool square = false;
    for (int j = 1; j <= k; ++j) square = square || j * j == k;
    if (square) options.push_back(foldsBrute(a, b - k, memo));
  }
  int triangle = a * (a + 1) / 2;
  for (int k = 1; k <= b; ++k)
    if (triangle % 3 != k % 3 && std::popcount(static_cast<unsigned>(k)) <= 2)
      options.push_back(foldsBrute(a, b - k, memo));
  return memo[{a, b}] = brute::mex(options);
}

}  // namespace

TEST_CASE("games written with comprehensions and folds, against brute forces") {
  std::vector<int> squares;
  for (int j = 1; j * j <= 400; ++j) squares.push_back(j * j);
  brute::Table sq = brute::subtraction(400, squares);
  std::map<uint64_t, brute::Value> rowMemo;
  std::map<std::pair<int, int>, brute::Value> foldsMemo;
  for (gdsl::BackendKind kind : testing::backends()) {
    INFO(gdsl::backendKindName(kind));
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("comprehensions.game", kSource));
    for (int n = 0; n <= 400; ++n) {
      INFO("Squares(" << n << ")");
      CHECK(s.grundy("Squares(" + std::to_string(n) + ")") == sq[static_cast<size_t>(n)]);
    }
    for (uint64_t mask = 0; mask < 1024; ++mask) {
      INFO("Row(" << mask << ")");
      CHECK(s.grundy("Row(" + std::to_string(mask) + ")") == rowBrute(mask, rowMemo));
    }
    for (int a = 0; a <= 14; ++a)
      for (int b = 0; b <= 14; ++b) {
        INFO("Folds(" << a << ", " << b << ")");
        CHECK(s.grundy("Folds(" + std::to_string(a) + ", " + std::to_string(b) + ")") ==
              foldsBrute(a, b, foldsMemo));
      }
  }
}
