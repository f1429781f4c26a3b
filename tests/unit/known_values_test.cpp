// Runs the real gdsl (driver/Session.h) on every standard-library game and on the games of every
// example file, and compares its Grundy values with the independent brute forces of
// tests/brute/brute_force.h and the known values of docs/games.md. Ranges are wide enough that an
// off-by-one in any rule (a range bound, a `when`, a split point) changes some value.
#include <catch2/catch.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "test_backends.h"

#ifndef GDSL_EXAMPLES_DIR
#error "GDSL_EXAMPLES_DIR must name the examples/ directory"
#endif

using brute::Table;
using brute::Value;
using gdsl::backendKindName;
using testing::backends;

namespace {

std::unique_ptr<gdsl::Session> loadSource(gdsl::BackendKind kind, const std::string& source) {
  auto s = std::make_unique<gdsl::Session>(gdsl::StackOptions{kind});
  bool ok = s->load("test.game", source);
  INFO(s->diagnostics());
  REQUIRE(ok);
  return s;
}

std::unique_ptr<gdsl::Session> loadExample(gdsl::BackendKind kind, const std::string& file) {
  auto s = std::make_unique<gdsl::Session>(gdsl::StackOptions{kind});
  bool ok = s->loadFile(std::string(GDSL_EXAMPLES_DIR) + "/" + file);
  INFO(file << "\n" << s->diagnostics());
  REQUIRE(ok);
  return s;
}

std::string list(const std::vector<int>& xs) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < xs.size(); ++i) out << (i ? ", " : "") << xs[i];
  out << ']';
  return out.str();
}

std::string call(const std::string& game, std::initializer_list<int> args) {
  std::ostringstream out;
  out << game << '(';
  bool first = true;
  for (int a : args) {
    out << (first ? "" : ", ") << a;
    first = false;
  }
  out << ')';
  return out.str();
}

// gdsl's g(lo..hi) of a one-parameter game equals the reference table there.
void expectTable(gdsl::Session& s, const std::string& game, const Table& want, int lo, int hi) {
  INFO(game << "(" << lo << ".." << hi << ")");
  REQUIRE(static_cast<int>(want.size()) > hi);
  std::vector<uint64_t> got = s.table(game, lo, hi);
  REQUIRE(got.size() == static_cast<size_t>(hi - lo + 1));
  for (int n = lo; n <= hi; ++n) {
    INFO("n = " << n);
    REQUIRE(got[n - lo] == want[n]);
  }
}

// The table through single positions too, and sums of two heaps valued by xor.
void expectHeapGame(gdsl::Session& s, const std::string& game, const Table& want, int hi) {
  expectTable(s, game, want, 0, hi);
  for (int n : {0, 1, 2, 3, hi / 2, hi - 1, hi}) {
    INFO(game << "(" << n << ")");
    REQUIRE(s.grundy(call(game, {n})) == want[n]);
  }
  for (int a = 0; a <= 12; ++a)
    for (int b = a; b <= 40; b += 3) {
      std::string pos = call(game, {a}) + " + " + call(game, {b});
      INFO(pos);
      REQUIRE(s.grundy(pos) == (want[a] ^ want[b]));
    }
}

std::vector<uint64_t> asU64(std::initializer_list<Value> v) {
  return std::vector<uint64_t>(v);
}

// Shared by std.lists and the list examples: every small list position, against the search.
void expectListGames(gdsl::Session& s, bool moore, bool staircase, bool nimble, bool nimble2,
                     bool turtles, bool twins, bool georgia, bool northcott) {
  if (moore)
    for (const auto& h : brute::allLists(3, 0, 4)) {
      INFO("Moore(" << list(h) << ")");
      REQUIRE(s.grundy("Moore(" + list(h) + ")") == brute::moore(2, h));
    }
  if (staircase)
    for (const auto& c : brute::allLists(4, 0, 3)) {
      if (c.empty()) continue;
      INFO("Staircase(" << list(c) << ")");
      REQUIRE(s.grundy("Staircase(" + list(c) + ")") == brute::staircase(c));
    }
  if (nimble)
    for (const auto& p : brute::allLists(3, 0, 6)) {
      INFO("Nimble(" << list(p) << ")");
      REQUIRE(s.grundy("Nimble(" + list(p) + ")") == brute::nimble(p));
    }
  if (nimble2)
    for (const auto& p : brute::allSets(4, 0, 8)) {
      INFO("Nimble2(" << list(p) << ")");
      REQUIRE(s.grundy("Nimble2(" + list(p) + ")") == brute::nimble2(p));
    }
  for (const auto& row : brute::allLists(6, 0, 1)) {
    if (turtles) {
      INFO("Turtles(" << list(row) << ")");
      REQUIRE(s.grundy("Turtles(" + list(row) + ")") == brute::turtles(row));
    }
    if (twins) {
      INFO("Twins(" << list(row) << ")");
      REQUIRE(s.grundy("Twins(" + list(row) + ")") == brute::twins(row));
    }
  }
  if (georgia)
    for (const auto& p : brute::allSets(4, 1, 9)) {
      INFO("GeorgiaBob(" << list(p) << ")");
      REQUIRE(s.grundy("GeorgiaBob(" + list(p) + ")") == brute::georgiaBob(p));
    }
  if (northcott)
    for (const auto& r : brute::allLists(4, 0, 5)) {
      if (r.size() % 2 == 1) continue;
      bool valid = true;
      std::vector<std::pair<int, int>> rows;
      for (size_t i = 0; i < r.size(); i += 2) {
        valid = valid && r[i] != r[i + 1];
        rows.push_back({r[i], r[i + 1]});
      }
      if (!valid) continue;
      INFO("Northcott(" << list(r) << ")");
      REQUIRE(s.grundy("Northcott(" + list(r) + ")") == brute::northcott(rows));
    }
  // order does not matter where the game sorts its list
  if (moore) CHECK(s.grundy("Moore([3, 1, 2])") == 6);
  if (nimble) CHECK(s.grundy("Nimble([6, 1, 4])") == 3);
  if (georgia) CHECK(s.grundy("GeorgiaBob([8, 2, 7, 5])") == 2);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The standard library.

TEST_CASE("std.heaps", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(kind, "import std.heaps\n");
    Table nim = brute::nim(300);
    expectHeapGame(*s, "Nim", nim, 300);
    CHECK(s->grundy("Nim(3) + Nim(5) + Nim(6)") == 0);
    CHECK(s->grundy("Nim(12) + Nim(10)") == 6);

    for (int k = 1; k <= 6; ++k) {
      Table bash = brute::bash(80, k);
      for (int n = 0; n <= 80; ++n) {
        INFO("Bash(" << n << ", " << k << ")");
        REQUIRE(s->grundy(call("Bash", {n, k})) == bash[n]);
        REQUIRE(bash[n] == Value(n % (k + 1)));
      }
    }
    CHECK(s->grundy("Bash(10, 3) + Bash(12, 3)") == 2);

    Table sub = brute::subtraction(600, {1, 3, 4});
    CHECK(s->table("Sub134", 0, 10) == asU64({0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1}));
    expectHeapGame(*s, "Sub134", sub, 600);
    CHECK(s->grundy("Sub134(4) + Sub134(6)") == 0);
    CHECK(s->grundy("Sub134(4) + Sub134(5)") == 1);

    Table half = brute::takeHalf(1000);
    CHECK(s->table("TakeHalf", 0, 20) ==
          asU64({0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10}));
    expectHeapGame(*s, "TakeHalf", half, 1000);

    Table split = brute::splitTwo(400);
    CHECK(s->table("SplitTwo", 0, 8) == asU64({0, 0, 1, 0, 1, 0, 1, 0, 1}));
    expectHeapGame(*s, "SplitTwo", split, 400);

    Table grundy = brute::grundyGame(800);
    CHECK(s->table("Grundy", 0, 30) == asU64({0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1,
                                              3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3}));
    expectHeapGame(*s, "Grundy", grundy, 800);

    Table lasker = brute::lasker(400);
    CHECK(s->table("Lasker", 0, 20) ==
          asU64({0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11, 13, 14, 16, 15, 17, 18, 20, 19}));
    expectHeapGame(*s, "Lasker", lasker, 400);
  }
}

TEST_CASE("std.octal", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(kind, "import std.octal\n");
    Table kayles = brute::octal("0.77", 1000);
    expectHeapGame(*s, "Kayles", kayles, 1000);
    CHECK(s->grundy("Kayles(70)") == 6);  // the last exception: period 12 from 71
    CHECK(s->grundy("Kayles(82)") == 2);
    CHECK(s->grundy("Kayles(5) + Kayles(3)") == 7);

    Table dk = brute::octal("0.07", 1000);
    CHECK(s->table("DawsonKayles", 0, 14) == asU64({0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4}));
    expectHeapGame(*s, "DawsonKayles", dk, 1000);

    Table dc = brute::octal("0.137", 1000);
    CHECK(s->table("DawsonChess", 0, 15) ==
          asU64({0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5}));
    expectHeapGame(*s, "DawsonChess", dc, 1000);
    expectHeapGame(*s, "DawsonChessRow", brute::removeWithNeighbours(600, {1}), 600);
    CHECK(s->grundy("DawsonChess(51) + DawsonChessRow(51)") == 0);

    expectHeapGame(*s, "Treblecross", brute::octal("0.007", 1000), 1000);
  }
}

TEST_CASE("std.hexadecimal", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(kind, "import std.hexadecimal\n");
    const int n = 300;
    expectHeapGame(*s, "TakeOneSplitThree", brute::hexadecimal("0.8", n), n);
    expectHeapGame(*s, "TakeOneSplitTwoOrThree", brute::hexadecimal("0.C", n), n);
    expectHeapGame(*s, "SplitThree", brute::hexadecimal("8.0", n), n);
    expectHeapGame(*s, "TakeOneAnyWay", brute::hexadecimal("0.F", n), n);
    expectHeapGame(*s, "Ruler", brute::hexadecimal("0.2048", n), n);
    // What the module's comments say, far past the brute force.
    const std::vector<uint64_t> three = s->table("TakeOneSplitThree", 0, 3000),
                                twoOrThree = s->table("TakeOneSplitTwoOrThree", 0, 3000),
                                split = s->table("SplitThree", 0, 3000);
    for (uint64_t h = 1; h <= 3000; ++h) {
      INFO("heap " << h);
      REQUIRE(three[h] == (h - 1) / 3);
      REQUIRE(twoOrThree[h] == (h - 1) / 2);
      REQUIRE(split[h] == twoOrThree[h]);
    }
  }
}

TEST_CASE("std.boards", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(kind, "import std.boards\nimport std.octal\n");
    Table crosses = brute::crosses(600);
    CHECK(s->table("Crosses", 0, 24) ==
          asU64({0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4, 3, 3, 3, 2, 2, 2, 4, 4, 0, 5, 5}));
    expectHeapGame(*s, "Crosses", crosses, 600);
    for (int n = 0; n <= 300; n += 7)
      REQUIRE(s->grundy(call("Crosses", {n}) + " + " + call("Treblecross", {n + 2})) == 0);

    Table tromino = brute::octal("0.007", 400);
    expectHeapGame(*s, "LTromino", tromino, 400);
    for (int n = 0; n <= 9; ++n)
      REQUIRE(s->grundy(call("LTromino", {2 * n})) == brute::trominoBoard(n));

    brute::Grid cut = brute::cut(16, 16);
    for (int w = 0; w <= 16; ++w)
      for (int h = 0; h <= 16; ++h) {
        INFO("Cut(" << w << ", " << h << ")");
        REQUIRE(s->grundy(call("Cut", {w, h})) == cut[w][h]);
      }
    CHECK(s->grundy("Cut(2, 2)") == 0);
    CHECK(s->grundy("Cut(2, 4)") == 1);
    CHECK(s->grundy("Cut(2, 6)") == 2);
    CHECK(s->grundy("Cut(2, 8)") == 3);
    CHECK(s->grundy("Cut(6, 7)") == 2);
    CHECK(s->grundy("Cut(6, 6)") == 1);
    CHECK(s->grundy("Cut(6, 7) + Cut(2, 6)") == 0);

    brute::Grid wy = brute::wythoff(24, 24);
    for (int a = 0; a <= 24; ++a)
      for (int b = 0; b <= 24; ++b) {
        INFO("Wythoff(" << a << ", " << b << ")");
        REQUIRE(s->grundy(call("Wythoff", {a, b})) == wy[a][b]);
      }
    for (auto [a, b] : brute::wythoffPPositions(12)) {
      REQUIRE(s->grundy(call("Wythoff", {a, b})) == 0);
      REQUIRE(s->grundy(call("Wythoff", {b, a})) == 0);
    }
  }
}

TEST_CASE("std.lists", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(kind, "import std.lists\n");
    expectListGames(*s, true, true, true, true, true, true, true, true);
    // closed forms on larger positions
    CHECK(s->grundy("Staircase([0, 2, 5, 2, 1])") == 0);
    CHECK(s->grundy("Staircase([0, 1, 2, 3, 4, 5])") == 7);
    CHECK(s->grundy("Nimble([1, 4, 6]) + Nimble2([2, 3, 7, 9])") == 2);
    CHECK(s->grundy("Turtles([1, 0, 0, 1, 0, 1, 0, 1])") == (1 ^ 4 ^ 6 ^ 8));
    CHECK(s->grundy("Twins([1, 0, 0, 1, 0, 1, 0, 1])") == (0 ^ 3 ^ 5 ^ 7));
    CHECK(s->grundy("Northcott([0, 4, 6, 2, 1, 7])") == 5);
    CHECK(s->grundy("Moore([3, 5, 6])") == 14);
    CHECK(s->grundy("Moore([1, 2, 3]) + Moore([1, 2, 3])") == 0);
  }
}

TEST_CASE("the standard library modules load together", "[known][stdlib]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto s = loadSource(
        kind, "import std.heaps\nimport std.octal\nimport std.boards\nimport std.lists\n");
    // Kayles(5) = 4 (docs/games.md: 0 1 2 3 1 4 ...), Moore([1, 2, 3]) = 6.
    CHECK(s->grundy("Kayles(5) + Nim(3) + Moore([1, 2, 3])") == (4 ^ 3 ^ 6));
    CHECK(s->grundy("Sub134(5) + Cut(6, 7) + Wythoff(1, 1) + Staircase([0, 3, 1, 4])") ==
          (3 ^ 2 ^ 2 ^ 7));
    CHECK_THROWS_AS(s->grundy("NoSuchGame(3)"), gdsl::SessionError);
    CHECK_THROWS_AS(s->grundy("Nim(1, 2)"), gdsl::SessionError);
    CHECK_THROWS_AS(s->grundy("Nim(-1)"), gdsl::SessionError);
  }
}

// ---------------------------------------------------------------------------------------------
// The examples: each file loads (its statements are not run here) and its games are right.

TEST_CASE("examples: heap games", "[known][examples]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      auto s = loadExample(kind, "nim.game");
      expectHeapGame(*s, "Nim", brute::nim(200), 200);
    }
    {
      auto s = loadExample(kind, "bash.game");
      expectHeapGame(*s, "Bash3", brute::bash(200, 3), 200);
      for (int k = 1; k <= 5; ++k)
        for (int n = 0; n <= 40; ++n)
          REQUIRE(s->grundy(call("Bash", {n, k})) == Value(n % (k + 1)));
    }
    {
      auto s = loadExample(kind, "subtraction.game");
      expectHeapGame(*s, "Sub", brute::subtraction(500, {1, 3, 4}), 500);
      CHECK(s->grundy("Sub(4) + Sub(5)") == 1);
      CHECK(s->grundy("Sub(4) + Sub(6)") == 0);
    }
    {
      auto s = loadExample(kind, "take_half.game");
      expectHeapGame(*s, "TakeHalf", brute::takeHalf(1100), 1100);
    }
    {
      auto s = loadExample(kind, "split_two.game");
      Table split = brute::splitTwo(300);
      expectHeapGame(*s, "SplitTwo", split, 300);
      expectHeapGame(*s, "SplitOctal", split, 300);
    }
    {
      auto s = loadExample(kind, "grundy_game.game");
      expectHeapGame(*s, "Grundy", brute::grundyGame(600), 600);
    }
    {
      auto s = loadExample(kind, "lasker.game");
      expectHeapGame(*s, "Lasker", brute::lasker(300), 300);
    }
  }
}

TEST_CASE("examples: octal games", "[known][examples]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      auto s = loadExample(kind, "kayles.game");
      Table kayles = brute::octal("0.77", 1000);
      expectHeapGame(*s, "Kayles", kayles, 1000);
      expectHeapGame(*s, "KaylesRow", kayles, 400);
    }
    {
      auto s = loadExample(kind, "dawson_kayles.game");
      Table dk = brute::octal("0.07", 1000);
      expectHeapGame(*s, "DawsonKayles", dk, 1000);
      expectHeapGame(*s, "DawsonKaylesRow", dk, 400);
    }
    {
      auto s = loadExample(kind, "dawson_chess.game");
      Table dc = brute::octal("0.137", 1000);
      expectHeapGame(*s, "DawsonChess", dc, 1000);
      expectHeapGame(*s, "DawsonChessRow", dc, 400);
    }
    {
      auto s = loadExample(kind, "crosses.game");
      expectHeapGame(*s, "Crosses", brute::crosses(500), 500);
      expectHeapGame(*s, "Treblecross", brute::octal("0.007", 500), 500);
    }
    {
      auto s = loadExample(kind, "tromino.game");
      Table t = brute::octal("0.007", 300);
      expectHeapGame(*s, "LTromino", t, 300);
      expectHeapGame(*s, "Octal007", t, 300);
    }
    {
      auto s = loadExample(kind, "long_periods.game");
      expectHeapGame(*s, "O16", brute::octal("0.16", 3000), 3000);
      expectHeapGame(*s, "O56", brute::octal("0.56", 3000), 3000);
      expectHeapGame(*s, "Pawns", brute::octal("0.137", 1000), 1000);
    }
  }
}

TEST_CASE("examples: board and graph games", "[known][examples]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      auto s = loadExample(kind, "cutting.game");
      brute::Grid cut = brute::cut(14, 14);
      for (int w = 0; w <= 14; ++w)
        for (int h = 0; h <= 14; ++h) REQUIRE(s->grundy(call("Cut", {w, h})) == cut[w][h]);
    }
    {
      auto s = loadExample(kind, "wythoff.game");
      brute::Grid wy = brute::wythoff(20, 20);
      for (int a = 0; a <= 20; ++a)
        for (int b = 0; b <= 20; ++b) REQUIRE(s->grundy(call("Wythoff", {a, b})) == wy[a][b]);
    }
    {
      auto s = loadExample(kind, "dag_chips.game");
      brute::Graph dag = {{1, 2}, {3}, {3, 4}, {5}, {5, 6}, {7}, {7}, {}};
      Table g = brute::dagChips(dag);
      CHECK(s->table("Chip", 0, 7) == g);
      for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b)
          for (int c = 0; c < 8; ++c) {
            std::string pos =
                call("Chip", {a}) + " + " + call("Chip", {b}) + " + " + call("Chip", {c});
            REQUIRE(s->grundy(pos) == brute::dagChipsSearch(dag, {a, b, c}));
          }
    }
    {
      auto s = loadExample(kind, "robot_fire.game");
      brute::Graph roads = {{1, 2}, {0, 2, 3}, {0, 1, 4, 5}, {1, 6, 9}, {2, 6},
                            {2, 7}, {3, 4, 8}, {5, 8},       {6, 7},    {3}};
      CHECK(s->grundy("Robot(0, 1)") == brute::robotFire(roads, 0));
      for (int v = 0; v < 10; ++v)
        for (int day = 1; day <= 6; ++day) {
          INFO("Robot(" << v << ", " << day << ")");
          REQUIRE(s->grundy(call("Robot", {v, day})) == brute::robotFireAt(roads, 0, v, day));
        }
    }
  }
}

TEST_CASE("examples: list games", "[known][examples]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      auto s = loadExample(kind, "staircase.game");
      expectListGames(*s, false, true, false, false, false, false, false, false);
    }
    {
      auto s = loadExample(kind, "nimble.game");
      expectListGames(*s, false, false, true, true, false, false, false, false);
    }
    {
      auto s = loadExample(kind, "turtles.game");
      expectListGames(*s, false, false, false, false, true, true, false, false);
    }
    {
      auto s = loadExample(kind, "northcott.game");
      expectListGames(*s, false, false, false, false, false, false, false, true);
    }
    {
      auto s = loadExample(kind, "moore.game");
      expectListGames(*s, true, false, false, false, false, false, false, false);
      // Moore's theorem on slightly larger positions
      for (const auto& h : brute::allLists(4, 0, 3)) {
        if (!std::is_sorted(h.begin(), h.end())) continue;
        INFO("Moore(" << list(h) << ")");
        REQUIRE((s->grundy("Moore(" + list(h) + ")") == 0) == brute::moorePPosition(2, h));
      }
    }
    {
      auto s = loadExample(kind, "georgia_bob.game");
      expectListGames(*s, false, false, false, false, false, false, true, false);
      for (const auto& p : brute::allSets(5, 1, 9))
        REQUIRE(s->grundy("GeorgiaBob(" + list(p) + ")") == brute::georgiaBobFormula(p));
    }
  }
}

TEST_CASE("examples: parity game, misere nim, tour", "[known][examples]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      auto s = loadExample(kind, "parity.game");
      for (int n = 0; n <= 60; ++n)
        for (int mine = 0; mine <= 1; ++mine)
          for (int theirs = 0; theirs <= 1; ++theirs) {
            INFO("Parity(" << n << ", " << mine << ", " << theirs << ")");
            REQUIRE(s->grundy(call("Parity", {n, mine, theirs})) ==
                    brute::parityGame(n, mine, theirs));
          }
      for (int n = 1; n <= 301; n += 2) {
        INFO("n = " << n);
        REQUIRE((s->grundy(call("Parity", {n, 0, 0})) == 0) == (n % 6 == 5));
      }
    }
    {
      auto s = loadExample(kind, "misere_nim.game");
      expectHeapGame(*s, "Nim", brute::nim(100), 100);
      // Misère outcomes of every sum of up to three heaps of at most 5, against a
      // full game-tree search and against Bouton's misère rule.
      for (const std::vector<int>& heaps : brute::allLists(3, 0, 5)) {
        std::string pos;
        for (int h : heaps) pos += (pos.empty() ? "" : " + ") + call("Nim", {h});
        if (pos.empty()) continue;
        INFO("misere " << pos);
        bool wins = s->misereFirstPlayerWins(pos);
        REQUIRE(wins == brute::misereNimWins(heaps));
        REQUIRE(wins == brute::misereNimFormula(heaps));
      }
    }
    {
      auto s = loadExample(kind, "tour.game");
      expectHeapGame(*s, "Sub", brute::subtraction(300, {1, 3, 4}), 300);
      expectHeapGame(*s, "Kayles", brute::octal("0.77", 300), 300);
      brute::Grid wy = brute::wythoff(12, 12);
      for (int a = 0; a <= 12; ++a)
        for (int b = 0; b <= 12; ++b) REQUIRE(s->grundy(call("Wythoff", {a, b})) == wy[a][b]);
    }
  }
}
