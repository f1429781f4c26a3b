// Games whose one parameter is a set of bits (compiler/ir/BitSets.cpp): Node Kayles on grid
// graphs written as a bitmask, searched instead of tabled, against an independent brute force;
// which games the analysis marks; and a board past the table's limit of 2^27 heaps.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "driver/Program.h"
#include "driver/Session.h"
#include "grid_graphs.h"
#include "test_backends.h"

namespace {

// Node Kayles by brute force: pick a free vertex, remove it and its neighbours.
struct NodeKayles {
  std::vector<uint64_t> nb;
  std::map<uint64_t, int> memo;
  int value(uint64_t free) {
    auto it = memo.find(free);
    if (it != memo.end()) return it->second;
    std::vector<bool> seen(nb.size() + 2, false);
    for (size_t v = 0; v < nb.size(); ++v)
      if ((free >> v) & 1) {
        int g = value(free & ~nb[v]);
        if (g < static_cast<int>(seen.size())) seen[static_cast<size_t>(g)] = true;
      }
    int m = 0;
    while (seen[static_cast<size_t>(m)]) ++m;
    return memo[free] = m;
  }
};

std::string nodeKaylesSource(const std::vector<uint64_t>& nb) {
  std::string list;
  for (uint64_t m : nb) list += (list.empty() ? "" : ", ") + std::to_string(m);
  return "const NB = [" + list + "]\ngame NK(b) {\n  move pick(v in 0.." +
         std::to_string(nb.size() - 1) + ") when ((b >> v) & 1) == 1 -> NK(b ^ (b & NB[v]))\n}\n";
}

bool markedBitSet(const std::string& source, const std::string& game) {
  std::string errors;
  auto ws = gdsl::compileProgram("bits.game", source, errors);
  INFO(errors);
  REQUIRE(ws);
  int g = ws->program().findGame(game);
  REQUIRE(g >= 0);
  return ws->program().games[static_cast<size_t>(g)].bitSet;
}

}  // namespace

TEST_CASE("Node Kayles on grids, as a bitmask, against a brute force") {
  std::mt19937_64 random(11);
  for (gdsl::BackendKind kind : testing::backends())
    for (auto [w, h] :
         std::vector<std::pair<int, int>>{{1, 1}, {1, 7}, {2, 2}, {3, 3}, {4, 4}, {3, 5}}) {
      INFO(gdsl::backendKindName(kind) << " " << w << " x " << h);
      NodeKayles brute{testing::gridNeighbourhoods(w, h), {}};
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("nk.game", nodeKaylesSource(brute.nb)));
      uint64_t full = (uint64_t{1} << (w * h)) - 1;
      CHECK(s.grundy("NK(" + std::to_string(full) + ")") ==
            static_cast<uint64_t>(brute.value(full)));
      for (int trial = 0; trial < 20; ++trial) {
        uint64_t free = random() & full;
        INFO("free " << free);
        CHECK(s.grundy("NK(" + std::to_string(free) + ")") ==
              static_cast<uint64_t>(brute.value(free)));
      }
      // Sums: the xor of the parts.
      uint64_t a = random() & full, b = random() & full;
      CHECK(s.grundy("NK(" + std::to_string(a) + ") + NK(" + std::to_string(b) + ")") ==
            static_cast<uint64_t>(brute.value(a) ^ brute.value(b)));
    }
}

TEST_CASE("a board past the table's limit is searched, not refused") {
  // 30 cells: the full board is 2^30 - 1, past the 2^27 heaps a table may hold.
  NodeKayles brute{testing::gridNeighbourhoods(6, 5), {}};
  gdsl::StackOptions options(gdsl::BackendKind::Jit);
  gdsl::Session s(options);
  REQUIRE(s.load("nk.game", nodeKaylesSource(brute.nb)));
  CHECK(s.grundy("NK(1073741823)") == static_cast<uint64_t>(brute.value(1073741823)));
  CHECK(s.tableReport().find("positions in a packed table of words") != std::string::npos);
  CHECK(s.tableReport().find("parameter is a set of bits") != std::string::npos);
}

TEST_CASE("only successors computed with bit operations make a parameter a set of bits") {
  CHECK(markedBitSet("game G(b) { move m(v in 0..5) when ((b >> v) & 1) == 1 -> G(b - (1 << v)) }",
                     "G"));
  // Through a let.
  CHECK(markedBitSet("game G(b) { move m(v in 0..5, let c = b ^ (1 << v)) when c < b -> G(c) }",
                     "G"));
  // Bits in a guard only: a heap game, tabled.
  CHECK_FALSE(markedBitSet("game T(n) { move m(k in 1..n) when (n & k) == k -> T(n - k) }", "T"));
  // Another game's arguments, or more than one parameter: not this analysis.
  CHECK_FALSE(
      markedBitSet("game A(n) { take 1..2 }\ngame B(n) { move m when n > 0 -> A(n | 1) }", "B"));
  CHECK_FALSE(markedBitSet("game W(a, b) { move m when a > 0 -> W(a >> 1, b) }", "W"));
}

TEST_CASE("a heap game whose guards read bits is tabled, with the same values") {
  // Take k when the bits of k are a subset of those of n.
  const char* source = "game T(n) { move m(k in 1..n) when (n & k) == k -> T(n - k) }\n";
  std::vector<uint64_t> want(200);
  for (size_t n = 0; n < want.size(); ++n) {
    std::vector<bool> seen(want.size() + 1, false);
    for (size_t k = 1; k <= n; ++k)
      if ((n & k) == k) seen[want[n - k]] = true;
    while (seen[want[n]]) ++want[n];
  }
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("t.game", source));
    CHECK(s.table("T", 0, 199) == want);
    CHECK(s.tableReport().find("T: 200 heaps in a 16-bit table") != std::string::npos);
  }
}
