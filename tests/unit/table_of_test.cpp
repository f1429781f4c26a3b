// `table [P for ...]`: a table of the positions a comprehension writes, in
// order, each named as `eval` names it, with its value. Checked against the
// brute forces of tests/brute (Moore's Nim on lists, Node Kayles on a path
// of bits, sums of Kayles heaps) and against each position's own `eval`, on
// both backends.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "list_text.h"
#include "test_backends.h"

namespace {

const char* kGames =
    "game M(h: list) {\n"
    "  normalize -> M(sort(h))\n"
    "  move one(i in 0..len(h)-1, x in 0..h[i]-1) -> M(set(h, i, x))\n"
    "  move two(i in 0..len(h)-1, j in i+1..len(h)-1, x in 0..h[i]-1, y in 0..h[j]-1)\n"
    "    -> M(set(set(h, i, x), j, y))\n"
    "}\n"
    "game NK(b) {\n"
    "  move pick(v in 0..40) when (b >> v) & 1 == 1 -> NK(b & ~(7 << v >> 1) & ~(1 << v))\n"
    "}\n"
    "game K = octal \"0.77\"\n";

}  // namespace

TEST_CASE("table [P for ...] gives each position's value, in the loops' order") {
  const brute::Table dawson = brute::octal("0.137", 40);  // Node Kayles on a path
  const brute::Table kayles = brute::octal("0.77", 12);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("tables.game", kGames));

    SECTION("a list game over dependent loops") {
      auto t = nlohmann::json::parse(
          s.runJson("table [M([a, b, c]) for a in 0..4 for b in 0..a for c in 0..b if a + b + c "
                    "!= 5]"));
      std::vector<std::string> positions;
      std::vector<brute::Value> values;
      for (int a = 0; a <= 4; ++a)
        for (int b = 0; b <= a; ++b)
          for (int c = 0; c <= b; ++c) {
            if (a + b + c == 5) continue;
            positions.push_back("M(" + testing::listText(std::vector<int>{c, b, a}) +
                                ")");  // normalized: sorted
            values.push_back(brute::moore(2, {a, b, c}));
          }
      CHECK(t["kind"] == "table");
      CHECK(t["game"] == "M");
      CHECK(t["positions"].get<std::vector<std::string>>() == positions);
      CHECK(t["values"].get<std::vector<brute::Value>>() == values);
    }

    SECTION("a derived family of a one-parameter game") {
      auto t = nlohmann::json::parse(s.runJson("table [NK((1 << n) - 1) for n in 0..30]"));
      std::vector<brute::Value> values(dawson.begin(), dawson.begin() + 31);
      CHECK(t["values"].get<std::vector<brute::Value>>() == values);
      CHECK(t["positions"][30] == "NK(" + std::to_string((1LL << 30) - 1) + ")");
    }

    SECTION("sums, and each position's value is its eval's") {
      auto t = nlohmann::json::parse(
          s.runJson("table [K(a) + K(b) for a in 0..12 for b in a..12 if a % 3 != b % 3]"));
      CHECK(t["game"].is_null());
      size_t k = 0;
      for (int a = 0; a <= 12; ++a)
        for (int b = a; b <= 12; ++b) {
          if (a % 3 == b % 3) continue;
          REQUIRE(k < t["values"].size());
          std::string position = "K(" + std::to_string(a) + ") + K(" + std::to_string(b) + ")";
          CHECK(t["positions"][k] == position);
          CHECK(t["values"][k].get<brute::Value>() == (kayles[a] ^ kayles[b]));
          auto eval = nlohmann::json::parse(s.runJson("eval " + position));
          CHECK(eval["grundy"] == t["values"][k]);
          ++k;
        }
      CHECK(k == t["values"].size());
    }
  }
}

TEST_CASE("a table of a list game over ranges points to the comprehension") {
  gdsl::Session s{gdsl::StackOptions(testing::backends().front())};
  REQUIRE(s.load("tables.game", kGames));
  std::string errors;
  try {
    s.runJson("table M(0..3)");
  } catch (const gdsl::SessionError& e) {
    errors = e.what();
  }
  CHECK(errors.find("a table over ranges runs over integer parameters; 'h' is a list") !=
        std::string::npos);
  CHECK(errors.find("write them as a comprehension, as in table [M([a, b]) for a in 0..3 for b "
                    "in 0..a]") != std::string::npos);
  CHECK(errors.find("needs a range") == std::string::npos);  // no second, wrong error
}
