// `moves POS` on sums of Kayles heaps, against a brute force of the rules
// written here: every move is listed (the multiset of values it leads to is
// the brute force's), each with the right value, `winning` exactly when that
// value is 0, and the winning moves first. On both backends.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "test_backends.h"

namespace {

// The values a Kayles sum can move to: knock down one pin or two adjacent
// pins of heap n, leaving heaps a and b with a + b = n - k (a <= b).
std::vector<brute::Value> afterValues(const std::vector<int>& heaps, const brute::Table& g) {
  brute::Value total = 0;
  for (int n : heaps) total ^= g[n];
  std::vector<brute::Value> out;
  for (int n : heaps)
    for (int k = 1; k <= 2 && k <= n; ++k)
      for (int a = 0; a <= (n - k) / 2; ++a) out.push_back(total ^ g[n] ^ g[a] ^ g[n - k - a]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("moves lists every move with its value, winning moves first") {
  const brute::Table g = brute::octal("0.77", 40);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("moves.game", "game K = octal \"0.77\"\n"));
    std::mt19937 random(5);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<int> heaps;
      std::string position;
      int count = 1 + static_cast<int>(random() % 3);
      for (int i = 0; i < count; ++i) {
        heaps.push_back(static_cast<int>(random() % 25));
        position += (i ? " + K(" : "K(") + std::to_string(heaps.back()) + ")";
      }
      INFO(position);
      auto result = nlohmann::json::parse(s.runJson("moves " + position));
      std::vector<brute::Value> listed;
      bool winningPart = true;
      for (const auto& m : result["moves"]) {
        brute::Value v = m["grundy"].get<brute::Value>();
        listed.push_back(v);
        CHECK(m["winning"].get<bool>() == (v == 0));
        if (v != 0) winningPart = false;
        CHECK((v == 0) <= winningPart);  // no winning move after a losing one
      }
      std::sort(listed.begin(), listed.end());
      CHECK(listed == afterValues(heaps, g));
      brute::Value total = 0;
      for (int n : heaps) total ^= g[n];
      CHECK(result["grundy"].get<brute::Value>() == total);
    }
  }
}
