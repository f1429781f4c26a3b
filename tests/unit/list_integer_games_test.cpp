// A list game's positions valued through its integer games
// (compiler/ir/SpecializeLists.cpp, EngineOptions::listsAsIntegers) give
// the answers of the list game itself, errors included, on both backends:
// every std.lists game on random lists of each length, games written here
// whose moves fail, and brute forces of Moore's Nim and staircase nim. And
// the pass leaves without integer games the rules it does not rewrite.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "driver/Stack.h"
#include "list_text.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

const char* kOwnGames =
    // A successor with a negative number: the same error either way.
    "game Down(h: list) {\n"
    "  move d(i in 0..len(h)-1) when h[i] > 0 -> Down(set(h, i, h[i] - 3))\n"
    "}\n"
    // An index past the end, at lists of one number (h[1]).
    "game Peek(h: list) {\n"
    "  move p(k in 1..2) when k <= h[0] -> Peek(set(h, 0, h[0] - k + h[1] * 0))\n"
    "}\n"
    // A list let whose number fails though nothing reads it, and a failing let before a
    // condition that, once the length is known, never holds: errors as the list game's.
    "game Unused(h: list) {\n"
    "  move u(let t = [h[0] / (h[0] - h[0])], i in 0..len(h)-1) when h[i] > 0\n"
    "    -> Unused(set(h, i, h[i] - 1))\n"
    "}\n"
    "game Never(h: list) {\n"
    "  move n(let a = 5 / h[0], when len(h) > 9) -> Never(h)\n"
    "  move d(i in 0..len(h)-1) when h[i] > 0 -> Never(set(h, i, h[i] - 1))\n"
    "}\n"
    // A number that fails in a list whose length or other number is read: the list game
    // computes it, so the pass leaves the game alone.
    "game Drop(h: list) {\n"
    "  move d(i in 0..len(h)-1) when len(set(h, 0, 5 / h[0])) > i and h[i] > 0\n"
    "    -> Drop(set(h, i, h[i] - 1))\n"
    "}\n"
    // Rules the pass does not rewrite: an index that is not a number once
    // the length is known, and `in` over the list.
    "game Walk(h: list) {\n"
    "  move w(k in 0..h[0]) when k < len(h) and h[k] > 0 -> Walk(set(h, k, h[k] - 1))\n"
    "}\n"
    "game Member(h: list) {\n"
    "  move m(i in 0..len(h)-1) when h[i] > 0 and not (h[i] - 1 in h) -> Member(set(h, i, "
    "h[i] - 1))\n"
    "}\n";

gdsl::StackOptions options(gdsl::BackendKind kind, bool asIntegers) {
  gdsl::StackOptions o(kind);
  o.stdlib = true;
  o.engine.listsAsIntegers = asIntegers;
  return o;
}

}  // namespace

TEST_CASE("list games valued as integer games give the list games' answers") {
  std::mt19937 random(11);
  struct Family {
    const char* game;
    int maxNumber;
    bool distinct;  // strictly increasing numbers (Nimble2, GeorgiaBob)
  };
  const Family families[] = {
      {"Moore", 5, false},      {"Staircase", 4, false}, {"Nimble", 6, false},
      {"Nimble2", 9, true},     {"Turtles", 1, false},   {"Twins", 1, false},
      {"GeorgiaBob", 10, true}, {"Northcott", 6, false}, {"Down", 7, false},
      {"Peek", 3, false},       {"Walk", 3, false},      {"Member", 4, false},
      {"Unused", 2, false},     {"Never", 2, false},     {"Drop", 2, false}};
  // Under sanitizers (GDSL_TEST_SCALE) two positions of each length, not six.
  const int trials = brute::scaled(6, 2);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session lists(options(kind, false)), ints(options(kind, true));
    REQUIRE(lists.load("own.game", kOwnGames));
    REQUIRE(ints.load("own.game", kOwnGames));
    for (const Family& f : families)
      for (int length = 1; length <= 6; ++length)
        for (int trial = 0; trial < trials; ++trial) {
          std::vector<int> numbers;
          for (int i = 0; i < length; ++i)
            numbers.push_back(static_cast<int>(random() % (f.maxNumber + 1)));
          if (f.distinct) {
            std::sort(numbers.begin(), numbers.end());
            for (int i = 0; i < length; ++i) numbers[i] += i + 1;
          }
          std::string position = std::string(f.game) + "(" + testing::listText(numbers) + ")";
          INFO(position);
          CHECK(testing::outcome(ints, position) == testing::outcome(lists, position));
        }
    // Both ways were taken: the integer games hold values, and not for Walk and Member.
    std::string report = ints.tableReport();
    CHECK(report.find("Moore (lists of 4)") != std::string::npos);
    CHECK(report.find("Northcott (lists of 4)") != std::string::npos);
    CHECK(report.find("Walk (lists") == std::string::npos);
    CHECK(report.find("Member (lists") == std::string::npos);
    CHECK(lists.tableReport().find("(lists of") == std::string::npos);
  }
}

TEST_CASE("list games valued as integer games equal the brute forces") {
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s(options(kind, true));
    REQUIRE(s.load("none.game", ""));
    for (int a = 0; a <= 6; ++a)
      for (int b = a; b <= 6; ++b)
        for (int c = b; c <= 6; ++c) {
          std::vector<int> heaps{a, b, c};
          INFO(testing::listText(heaps));
          CHECK(s.grundy("Moore(" + testing::listText(heaps) + ")") == brute::moore(2, heaps));
          CHECK(s.grundy("Staircase(" + testing::listText(heaps) + ")") == brute::staircase(heaps));
        }
  }
}

TEST_CASE("an integer game whose box outgrows --max-states hands back to the list game") {
  // Staircase moves coins down, so numbers grow past the query's: the box doubles until it
  // would pass --max-states, and the list game's own memo (a table of words) takes over.
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::StackOptions o = options(kind, true);
    o.engine.maxStates = 300;  // the first box, 1 x 3 x 4 x 5, fits; grown it would not
    gdsl::Session s(o);
    REQUIRE(s.load("none.game", ""));
    std::vector<int> coins{0, 2, 3, 4};
    CHECK(s.grundy("Staircase(" + testing::listText(coins) + ")") == brute::staircase(coins));
    std::string report = s.tableReport();
    INFO(report);
    CHECK(report.find("Staircase (lists of 4)") != std::string::npos);
    CHECK(report.find("would have more cells than --max-states") != std::string::npos);
    CHECK(report.find("Staircase: ") != std::string::npos);  // the list game's memo
    CHECK(report.find("hashed memo") == std::string::npos);
  }
}

TEST_CASE("only the list games the pass rewrites get integer games") {
  gdsl::Session s(options(gdsl::BackendKind::Interp, true));
  REQUIRE(s.load("own.game", kOwnGames));
  const gdsl::ir::Program& p = s.stack()->program();
  auto lengths = [&](const char* name) {
    std::vector<int> out;
    const gdsl::ir::Game& g = p.games[static_cast<size_t>(p.findGame(name))];
    for (size_t n = 0; n < g.byLength.size(); ++n)
      if (g.byLength[n] >= 0) out.push_back(static_cast<int>(n));
    return out;
  };
  CHECK(lengths("Down") == std::vector<int>{1, 2, 3, 4});
  CHECK(lengths("Peek") == std::vector<int>{2, 3, 4});  // h[1] of one number fails
  CHECK(lengths("Unused") == std::vector<int>{1, 2, 3, 4});
  CHECK(lengths("Never") == std::vector<int>{1, 2, 3, 4});
  CHECK(lengths("Drop").empty());
  CHECK(lengths("Walk").empty());
  CHECK(lengths("Member").empty());
  CHECK(lengths("Moore") == std::vector<int>{1, 2, 3, 4});
}
