// Dense memos (runtime/DenseBox.h, Backend::searchDense): games with integer parameters
// searched natively over an array indexed by their parameters, against independent brute
// forces on every backend; the box growing, the native stack running out and restarting,
// the box refused past --max-states, and cycles and errors handed back to the hashed search
// with the same message.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "driver/Session.h"
#include "runtime/DenseBox.h"
#include "test_backends.h"

namespace {

int mex(std::vector<int> seen) {
  std::sort(seen.begin(), seen.end());
  int m = 0;
  for (int v : seen)
    if (v == m) ++m;
  return m;
}

// Three-row Chomp by brute force: rows a >= b >= c; the poisoned square stays.
struct Chomp {
  std::map<std::tuple<int, int, int>, int> memo;
  int value(int a, int b, int c) {
    auto key = std::make_tuple(a, b, c);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    std::vector<int> seen;
    for (int x = 1; x < a; ++x) seen.push_back(value(x, std::min(b, x), std::min(c, x)));
    for (int x = 0; x < b; ++x) seen.push_back(value(a, x, std::min(c, x)));
    for (int x = 0; x < c; ++x) seen.push_back(value(a, b, x));
    return memo[key] = mex(seen);
  }
};

const char* kChomp = R"(
game Chomp(a, b, c) {
  move row1(x in 1..a-1) -> Chomp(x, min(b, x), min(c, x))
  move row2(x in 0..b-1) -> Chomp(a, x, min(c, x))
  move row3(x in 0..c-1) -> Chomp(a, b, x)
}
)";

// The cutting game, normalized, with the seed's dense-array program as the brute force.
std::vector<std::vector<int>> cutTable(int n) {
  std::vector<std::vector<int>> g(n + 1, std::vector<int>(n + 1, 0));
  for (int w = 0; w <= n; ++w)
    for (int h = w; h <= n; ++h) {
      std::vector<int> seen;
      auto at = [&](int x, int y) { return g[std::min(x, y)][std::max(x, y)]; };
      for (int a = 2; a <= w - 2; ++a) seen.push_back(at(a, h) ^ at(w - a, h));
      for (int b = 2; b <= h - 2; ++b) seen.push_back(at(w, b) ^ at(w, h - b));
      g[w][h] = g[h][w] = mex(seen);
    }
  return g;
}

const char* kCut = R"(
game Cut(w, h) {
  normalize -> Cut(min(w, h), max(w, h))
  move vertical(a in 2..w-2)   -> Cut(a, h) + Cut(w - a, h)
  move horizontal(b in 2..h-2) -> Cut(w, b) + Cut(w, h - b)
}
)";

std::string outcome(gdsl::Session& s, const std::string& position) {
  try {
    return std::to_string(s.grundy(position));
  } catch (const gdsl::SessionError& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

TEST_CASE("three-row Chomp and the cutting game against brute forces, every backend") {
  Chomp chomp;
  std::vector<std::vector<int>> cut = cutTable(40);
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("chomp.game", std::string(kChomp) + kCut));
    // Queries in an order that makes the box grow in every dimension, several times.
    std::mt19937 rng(7);
    for (int i = 0; i < 60; ++i) {
      int a = std::uniform_int_distribution<int>(1, 24)(rng);
      int b = std::uniform_int_distribution<int>(0, a)(rng);
      int c = std::uniform_int_distribution<int>(0, b)(rng);
      INFO("Chomp(" << a << ", " << b << ", " << c << ")");
      CHECK(s.grundy(fmt::format("Chomp({}, {}, {})", a, b, c)) ==
            static_cast<uint64_t>(chomp.value(a, b, c)));
    }
    for (int w = 40; w >= 0; w -= 3)
      for (int h = 0; h <= 40; h += 7) {
        INFO("Cut(" << w << ", " << h << ")");
        CHECK(s.grundy(fmt::format("Cut({}, {})", w, h)) == static_cast<uint64_t>(cut[w][h]));
      }
    CHECK(s.grundy("Cut(12, 30) + Chomp(9, 4, 2)") ==
          static_cast<uint64_t>(cut[12][30] ^ chomp.value(9, 4, 2)));
    bool dense = backend == gdsl::BackendKind::Jit;
    CHECK((s.tableReport().find("Chomp: ") != std::string::npos &&
           s.tableReport().find("in a dense memo of") != std::string::npos) == dense);
  }
}

TEST_CASE("a search deeper than the native stack restarts where it stopped") {
  // W(a, b): take 1 or 2 from a, or 1..3 from b: g = (a % 3) ^ (b % 4). W(300000, 3) is
  // 300000 positions deep, far past the native search's stack budget.
  const char* source = R"(
game W(a, b) {
  move x(k in 1..min(a, 2)) -> W(a - k, b)
  move y(k in 1..min(b, 3)) -> W(a, b - k)
}
)";
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("w.game", source));
    for (int a : {300000, 299999, 123457, 5})
      for (int b : {0, 1, 2, 3})
        CHECK(s.grundy(fmt::format("W({}, {})", a, b)) == static_cast<uint64_t>((a % 3) ^ b));
  }
}

TEST_CASE("cycles and runtime errors go back to the hashed search, with the same message") {
  const char* source = R"(
game Cyc(a, b) {
  move x when a > 0 -> Cyc(a - 1, b)
  move y when a == 0 and b > 0 -> Cyc(3, b - 1) + Cyc(0, b - 1)
  move z when a == 2 and b == 5 -> Cyc(4, 5)
}
game Div(a, b) {
  move x(k in 1..a) -> Div(a - k, b)
  move y when b > 0 -> Div(a, b - 1) + Div(12 / (a - 7), 0)
}
game Neg(a, b) {
  move x(k in 1..a) -> Neg(a - k, b)
  move y when a == 9 -> Neg(a, b - 20)
}
)";
  std::vector<std::string> positions = {"Cyc(3, 4)", "Cyc(3, 6)", "Cyc(3, 4)", "Div(6, 3)",
                                        "Div(9, 3)", "Div(6, 3)", "Neg(8, 5)", "Neg(12, 5)"};
  std::vector<std::string> expected;
  {
    gdsl::Session interp{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(interp.load("c.game", source));
    for (const std::string& p : positions) expected.push_back(outcome(interp, p));
  }
  CHECK(expected[0].rfind("error", 0) != 0);
  CHECK(expected[1].find("can reach itself") != std::string::npos);
  CHECK(expected[4].find("division by zero") != std::string::npos);
  CHECK(expected[7].find("negative") != std::string::npos);
  gdsl::Session jit{gdsl::StackOptions(gdsl::BackendKind::Jit)};
  REQUIRE(jit.load("c.game", source));
  for (size_t i = 0; i < positions.size(); ++i) {
    INFO(positions[i]);
    CHECK(outcome(jit, positions[i]) == expected[i]);
  }
  CHECK(jit.tableReport().find("Cyc: ") != std::string::npos);
  CHECK(jit.tableReport().find("stopped: a position can reach itself") != std::string::npos);
}

TEST_CASE("a box past --max-states is refused, and the hashed search keeps its limit") {
  const char* source = R"(
game W(a, b) {
  move x(k in 1..min(a, 2)) -> W(a - k, b)
  move y(k in 1..min(b, 3)) -> W(a, b - k)
}
)";
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::StackOptions options(backend);
    options.engine.maxStates = 1000;
    gdsl::Session s(options);
    REQUIRE(s.load("w.game", source));
    CHECK(s.grundy("W(20, 20)") == static_cast<uint64_t>((20 % 3) ^ (20 % 4)));  // 441 cells
    // 101 x 101 cells: more than 1000, so searched by hashing, which gives up.
    CHECK(outcome(s, "W(100, 100)").find("gave up after memoizing 1000 positions") !=
          std::string::npos);
  }
}

TEST_CASE("a dense box grows and keeps every value") {
  std::vector<int64_t> first = {2, 3};
  gdsl::DenseBox box(first);
  CHECK(box.cellCount() == 12);
  box.at(first) = 5;
  std::vector<int64_t> corner = {0, 0};
  box.at(corner) = 9;
  std::vector<int64_t> far = {2, 10};
  CHECK(!box.covers(far));
  CHECK(box.cellsToCover(far) == 3 * 11);
  box.grow(far);
  CHECK(box.extent() == std::vector<int64_t>{3, 11});
  uint32_t v = 0;
  CHECK(box.known(first, v));
  CHECK(v == 4);
  CHECK(box.known(corner, v));
  CHECK(v == 8);
  CHECK(box.knownCount() == 2);
  std::vector<int64_t> wider = {5, 0};
  box.grow(wider);  // 3 -> 6 rows: doubled
  CHECK(box.extent() == std::vector<int64_t>{6, 11});
  CHECK(box.known(first, v));
  CHECK(v == 4);
  CHECK(!box.known(wider, v));
  std::vector<int64_t> negative = {-1, 0};
  CHECK(!box.covers(negative));
}
