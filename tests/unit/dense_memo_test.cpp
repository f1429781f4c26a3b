// Native searches (Backend::searchNative): games with integer parameters searched natively
// over an array indexed by their parameters (runtime/DenseBox.h) or, for one parameter, a
// packed table of words (runtime/WordMemo.h), against independent brute forces on every
// backend; the box growing, the native stack running out and restarting, memos refused past
// --max-states, and cycles and errors handed back to the hashed search with the same message.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "runtime/DenseBox.h"
#include "runtime/WordMemo.h"
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

// The cutting game, normalized, with a dense array filled bottom-up (as a contest entry
// would write it) as the brute force.
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

// W(a, b): take 1 or 2 from a, or 1..3 from b: g = (a % 3) ^ (b % 4).
const char* kW = R"(
game W(a, b) {
  move x(k in 1..min(a, 2)) -> W(a - k, b)
  move y(k in 1..min(b, 3)) -> W(a, b - k)
}
)";

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
    CHECK(s.tableReport().find("Chomp: ") != std::string::npos);
    CHECK(s.tableReport().find("in a dense memo of") != std::string::npos);
  }
}

TEST_CASE("games that sort their two parameters, either way round, against a brute force") {
  // The JIT writes each value to the mirror cell too and reads a successor's raw cell first
  // (backend/jit/CodegenSearch.cpp); Wythoff's game with the larger heap first, and again smaller first.
  const char* source = R"(
game Wd(a, b) {
  normalize -> Wd(max(a, b), min(a, b))
  move one(k in 1..a) -> Wd(a - k, b)
  move other(k in 1..b) -> Wd(a, b - k)
  move both(k in 1..min(a, b)) -> Wd(a - k, b - k)
}
game Wu(a, b) {
  normalize -> Wu(min(a, b), max(a, b))
  move one(k in 1..a) -> Wu(a - k, b)
  move other(k in 1..b) -> Wu(a, b - k)
  move both(k in 1..min(a, b)) -> Wu(a - k, b - k)
}
)";
  constexpr int M = 45;
  brute::Grid want = brute::wythoff(M, M);
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("sorted.game", source));
    CHECK(s.grundy("Wd(45, 44)") == want[45][44]);
    CHECK(s.grundy("Wu(44, 45)") == want[44][45]);
    for (int a = 0; a <= M; a += 4)
      for (int b = 0; b <= M; b += 3) {
        INFO(a << ", " << b);
        std::string args = "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
        REQUIRE(s.grundy("Wd" + args) == want[a][b]);
        REQUIRE(s.grundy("Wu" + args) == want[a][b]);
      }
  }
}

TEST_CASE("a box's 16-bit cells widen for a value past 65533, every backend") {
  // H(j, z) has the options L(i) + H(k, z), i in 0..255, k < j: the values i ^ 256 k cover
  // 0 .. 256 j - 1, so H(j, z) = 256 j, with 256 j moves (8.4 million moves for j <= 256).
  // H(256, 0) = 65536 does not fit a 16-bit cell: the search stops, the box widens (keeping
  // every value) and the search goes on; a cycle's mark must read the same after it.
  const char* source = R"(
game L(n) { move m(k in 0..n-1) -> L(k) }
game H(j, z) { move m(i in 0..255, k in 0..j-1) -> L(i) + H(k, z) }
)";
  for (gdsl::BackendKind backend :
       {gdsl::BackendKind::Interp, gdsl::BackendKind::Jit, gdsl::BackendKind::Auto}) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("wide.game", source));
    CHECK(s.grundy("H(200, 1)") == 256 * 200);  // fits: narrow cells
    CHECK(s.grundy("H(256, 1)") == 65536);      // widens the box of H(., 1)
    CHECK(s.grundy("H(255, 1)") == 65280);      // kept through the widening
    CHECK(s.grundy("H(256, 1) + L(7)") == (65536 ^ 7));
    for (int j : {0, 1, 17, 128, 254})
      CHECK(s.grundy("H(" + std::to_string(j) + ", 1)") == static_cast<uint64_t>(256 * j));
    CHECK(s.tableReport().find("hashed memo") == std::string::npos);
  }
}

TEST_CASE("a search deeper than the native stack restarts where it stopped") {
  // W(300000, 3) is 300000 positions deep, far past the native search's stack budget.
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("w.game", kW));
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
game Hide(n) {
  normalize -> Hide(max(n, 0))
  move down(k in 1..3) -> Hide(n - 5)
}
game Hide2(a, b) {
  normalize -> Hide2(max(a, 0), b)
  move x(k in 1..b) -> Hide2(a - 4, b - k)
}
)";
  // Hide's successors are negative before normalize hides it: an error, which
  // the native search once took for a miss, and retried for ever.
  std::vector<std::string> positions = {"Cyc(3, 4)", "Cyc(3, 6)",   "Cyc(3, 4)",  "Div(6, 3)",
                                        "Div(9, 3)", "Div(6, 3)",   "Neg(8, 5)",  "Neg(12, 5)",
                                        "Hide(7)",   "Hide2(9, 2)", "Hide2(2, 1)"};
  // The reference: the hashed search alone, as before native searches.
  std::vector<std::string> expected;
  {
    gdsl::StackOptions hashed(gdsl::BackendKind::Interp);
    hashed.engine.native = false;
    gdsl::Session interp(hashed);
    REQUIRE(interp.load("c.game", source));
    for (const std::string& p : positions) expected.push_back(testing::outcome(interp, p));
  }
  CHECK(expected[0].rfind("error", 0) != 0);
  CHECK(expected[1].find("can reach itself") != std::string::npos);
  CHECK(expected[4].find("division by zero") != std::string::npos);
  CHECK(expected[7].find("negative") != std::string::npos);
  CHECK(expected[8].find("Hide(-3) has a negative parameter") != std::string::npos);
  CHECK(expected[9].rfind("error", 0) != 0);
  CHECK(expected[10].find("Hide2(-2, 0) has a negative parameter") != std::string::npos);
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("c.game", source));
    for (size_t i = 0; i < positions.size(); ++i) {
      INFO(positions[i]);
      CHECK(testing::outcome(s, positions[i]) == expected[i]);
    }
    CHECK(s.tableReport().find("Cyc: ") != std::string::npos);
    CHECK(s.tableReport().find("stopped: a position can reach itself") != std::string::npos);
  }
}

TEST_CASE("a box past --max-states is refused, and the hashed search keeps its limit") {
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::StackOptions options(backend);
    options.engine.maxStates = 1000;
    gdsl::Session s(options);
    REQUIRE(s.load("w.game", kW));
    CHECK(s.grundy("W(20, 20)") == static_cast<uint64_t>((20 % 3) ^ (20 % 4)));  // 441 cells
    // 101 x 101 cells: more than 1000, so searched by hashing, which gives up.
    CHECK(testing::outcome(s, "W(100, 100)").find("gave up after memoizing 1000 positions") !=
          std::string::npos);
  }
}

TEST_CASE("a dense box grows and keeps every value") {
  std::vector<int64_t> first = {2, 3};
  gdsl::DenseBox box(first);
  CHECK(box.cellCount() == 12);
  box.set(box.index(first), 5);
  std::vector<int64_t> corner = {0, 0};
  box.set(box.index(corner), 9);
  std::vector<int64_t> far = {2, 10};
  CHECK(!box.covers(far));
  CHECK(box.cellsToCover(far) == 3 * 11);
  // A word at the top of int64 asks for more cells than any limit (found by
  // fuzzing under UBSan: the extent was computed as INT64_MAX + 1).
  std::vector<int64_t> top = {1, INT64_MAX};
  CHECK(box.cellsToCover(top) == UINT64_MAX);
  CHECK(gdsl::DenseBox::cellsToHold(top) == UINT64_MAX);
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
  // 16-bit cells until widened: the mark and every value survive, and cells past 0xfffe fit.
  CHECK(!box.wide());
  CHECK(box.bytes() == 6 * 11 * 2);
  CHECK(!box.fits(0xffff));
  box.set(box.index(wider), gdsl::kCellOnStack);
  CHECK(box.get(box.index(wider)) == gdsl::kCellOnStack);
  box.widen();
  CHECK(box.wide());
  CHECK(box.bytes() == 6 * 11 * 4);
  CHECK(box.get(box.index(wider)) == gdsl::kCellOnStack);
  CHECK(box.known(first, v));
  CHECK(v == 4);
  CHECK(box.known(corner, v));
  CHECK(v == 8);
  CHECK(box.fits(0x12345));
  box.set(box.index(first), 0x12345);
  CHECK(box.known(first, v));
  CHECK(v == 0x12344);
  CHECK(box.knownCount() == 2);
  // A game that sorts its two parameters: the mirror cells (first > second) are not counted.
  box.setMirror({0, 1});
  box.set(box.index(std::vector<int64_t>{4, 1}), 3);  // a mirror
  CHECK(box.knownCount() == 2);
  box.set(box.index(std::vector<int64_t>{1, 4}), 3);  // in order
  CHECK(box.knownCount() == 3);
}

TEST_CASE("one-parameter games with normalize or bit moves fill a packed table of words") {
  // Odd(n): normalize to the odd number n | 1; take 2 or 4, or clear a set bit k > 0 and add
  // a heap Odd(k). Loop(9) can reach itself.
  const char* source = R"(
game Odd(n) {
  normalize -> Odd(n | 1)
  move less(k in {2, 4}) when k <= n -> Odd(n - k)
  move bit(k in 0..20) when ((n >> k) & 1) == 1 and k > 0 -> Odd(n ^ (1 << k)) + Odd(k)
}
game Loop(n) {
  move flip when n > 4 -> Loop(n ^ 1)
  move down(k in 1..min(n, 2)) -> Loop(n - k)
}
)";
  // Bottom-up over the odd numbers: every option is a smaller odd number.
  std::vector<int> g(131072, 0);
  for (int n = 1; n < 131072; n += 2) {
    std::vector<int> seen;
    for (int k : {2, 4})
      if (k <= n) seen.push_back(g[n - k]);
    for (int k = 1; k <= 20; ++k)
      if ((n >> k) & 1) seen.push_back(g[n ^ (1 << k)] ^ g[k | 1]);
    g[n] = mex(seen);
  }
  auto odd = [&](int n) { return g[n | 1]; };
  std::vector<std::string> expected;
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session s{gdsl::StackOptions(backend)};
    REQUIRE(s.load("odd.game", source));
    for (int n : {5000, 1, 0, 77, 4095, 100000, 65536})
      CHECK(s.grundy(fmt::format("Odd({})", n)) == static_cast<uint64_t>(odd(n)));
    std::vector<std::string> got = {testing::outcome(s, "Loop(3)"), testing::outcome(s, "Loop(9)")};
    CHECK(got[0] == std::to_string(0));
    CHECK(got[1].find("can reach itself") != std::string::npos);
    if (expected.empty()) expected = got;
    CHECK(got == expected);
    CHECK(s.tableReport().find("Odd: ") != std::string::npos);
    CHECK(s.tableReport().find("packed table of words") != std::string::npos);
    // A full table gives the game back to the hashed search, which says so.
    gdsl::StackOptions small(backend);
    small.engine.maxStates = 500;
    gdsl::Session limited(small);
    REQUIRE(limited.load("odd.game", source));
    CHECK(testing::outcome(limited, "Odd(5000)").find("gave up after memoizing 500 positions") !=
          std::string::npos);
  }
}

TEST_CASE("a packed table of words grows and keeps every value") {
  gdsl::WordMemo memo(100000);
  for (uint64_t k = 0; k < 20000; ++k) {
    REQUIRE(memo.insert(k * 7919));
    memo.set(k * 7919, static_cast<uint32_t>(k % 5 + 1));
  }
  CHECK(memo.size() == 20000);
  CHECK(4 * memo.size() <= 3 * (memo.mask() + 1));
  CHECK(memo.narrow());
  CHECK(memo.bytes() == 8 * (memo.mask() + 1));
  uint32_t v = 0;
  for (uint64_t k = 0; k < 20000; k += 97) {
    REQUIRE(memo.known(k * 7919, v));
    CHECK(v == k % 5);
  }
  CHECK(!memo.known(3, v));
  CHECK(memo.get(3) == 0);
  REQUIRE(memo.insert(3));
  memo.set(3, gdsl::kCellOnStack);
  CHECK(memo.get(3) == gdsl::kCellOnStack);
  CHECK(!memo.known(3, v));
  memo.forget(3);
  CHECK(memo.get(3) == 0);
  CHECK(memo.knownCount() == 20000);
  gdsl::WordMemo tiny(10);
  for (uint64_t k = 0; k < 10; ++k) CHECK(tiny.insert(k));
  CHECK(!tiny.insert(10));
  CHECK(tiny.insert(4));  // present: still found
}

// Narrow slots hold words below 2^40 - 1 and cells below 2^24 - 1; the first
// word or cell past that widens the table, keeping every entry (checked
// against a std::unordered_map).
TEST_CASE("a packed table of words widens for a large word or value") {
  for (int what = 0; what < 2; ++what) {
    INFO((what == 0 ? "a large word" : "a large value"));
    gdsl::WordMemo memo(1000000);
    std::unordered_map<uint64_t, uint32_t> reference;
    std::mt19937_64 rng(7);
    auto add = [&](uint64_t key, uint32_t cell) {
      REQUIRE(memo.insert(key));
      memo.set(key, cell);
      reference[key] = cell;
    };
    for (int i = 0; i < 5000; ++i)
      add(rng() % gdsl::WordMemo::kNarrowKeys, static_cast<uint32_t>(rng() % 1000 + 1));
    add(gdsl::WordMemo::kNarrowKeys - 1, gdsl::kCellOnStack);  // the largest narrow word
    add(12345, static_cast<uint32_t>(gdsl::WordMemo::kNarrowCell - 1));
    CHECK(memo.narrow());
    if (what == 0)
      add(gdsl::WordMemo::kNarrowKeys, 9);  // the first wide word
    else
      add(777, static_cast<uint32_t>(gdsl::WordMemo::kNarrowCell));  // the first wide cell
    CHECK(!memo.narrow());
    CHECK(memo.bytes() == 12 * (memo.mask() + 1));
    for (int i = 0; i < 3000; ++i) add(rng() >> 1, static_cast<uint32_t>(rng() % 70000 + 1));
    for (const auto& [key, cell] : reference) REQUIRE(memo.get(key) == cell);
    CHECK(memo.size() == reference.size());
  }
}
