// Checks the independent brute forces of tests/brute/brute_force.h against the known values
// and closed forms of docs/games.md, so that known_values_test.cpp can trust them as a reference
// for gdsl. No gdsl code is involved here.
#include "brute_force.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <tuple>

using brute::Table;
using brute::Value;

namespace {

Table values(std::initializer_list<Value> v) {
  return Table(v);
}

Table prefix(const Table& t, size_t n) {
  return Table(t.begin(), t.begin() + n);
}

// Asserts g(n + p) == g(n) for every n >= n0 in the table, and that n0 - 1 is an exception.
void checkPeriod(const Table& g, int n0, int p) {
  for (size_t n = n0; n + p < g.size(); ++n) {
    INFO("n = " << n);
    REQUIRE(g[n + p] == g[n]);
  }
  if (n0 > 0) CHECK(g[n0 - 1] != g[n0 - 1 + p]);
  brute::Periodicity found = brute::findPeriod(g, 100);
  CHECK(found.preperiod == n0);
  CHECK(found.period == p);
}

// Value of a sum of two heaps of the same one-heap game by searching the pair itself (the
// options of a + b are a' + b and a + b'), to check the xor rule.
Value pairSearch(const Table& g, const std::vector<std::vector<int>>& options, int a, int b) {
  brute::Solver<std::pair<int, int>> solve(
      [&](const std::pair<int, int>& s, brute::Solver<std::pair<int, int>>& self) {
        std::vector<Value> out;
        for (int x : options[s.first]) out.push_back(self({x, s.second}));
        for (int y : options[s.second]) out.push_back(self({s.first, y}));
        return out;
      });
  (void)g;
  return solve({a, b});
}

}  // namespace

TEST_CASE("mex", "[brute]") {
  CHECK(brute::mex({}) == 0);
  CHECK(brute::mex({0, 1, 3}) == 2);
  CHECK(brute::mex({1, 2}) == 0);
  CHECK(brute::mex({5, 3, 0, 7, 1}) == 2);
  CHECK(brute::mex({0, 0, 1, 1}) == 2);
}

TEST_CASE("nim and Bouton's theorem", "[brute]") {
  Table g = brute::nim(200);
  for (int n = 0; n <= 200; ++n) REQUIRE(g[n] == static_cast<Value>(n));
  std::vector<std::vector<int>> options(31);
  for (int n = 0; n <= 30; ++n)
    for (int k = 0; k < n; ++k) options[n].push_back(k);
  for (int a = 0; a <= 30; ++a)
    for (int b = 0; b <= 30; ++b) REQUIRE(pairSearch(g, options, a, b) == Value(a ^ b));
}

TEST_CASE("Bash game: g(n) = n mod (k + 1)", "[brute]") {
  for (int k = 1; k <= 8; ++k) {
    Table g = brute::bash(300, k);
    for (int n = 0; n <= 300; ++n) REQUIRE(g[n] == Value(n % (k + 1)));
  }
}

TEST_CASE("subtraction {1, 3, 4}", "[brute]") {
  Table g = brute::subtraction(500, {1, 3, 4});
  CHECK(prefix(g, 11) == values({0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1}));
  checkPeriod(g, 0, 7);
  // Sums: Sub(4) + Sub(6) is P, Sub(4) + Sub(5) is N with the move Sub(5) -> Sub(4).
  std::vector<std::vector<int>> options(21);
  for (int n = 0; n <= 20; ++n)
    for (int s : {1, 3, 4})
      if (s <= n) options[n].push_back(n - s);
  CHECK(pairSearch(g, options, 4, 6) == 0);
  CHECK(pairSearch(g, options, 4, 5) == 1);
  CHECK(pairSearch(g, options, 4, 4) == 0);
  for (int a = 0; a <= 20; ++a)
    for (int b = 0; b <= 20; ++b) REQUIRE(pairSearch(g, options, a, b) == (g[a] ^ g[b]));
  // The octal code of a subtraction game: digit 3 for every allowed k.
  CHECK(brute::octal("0.3033", 500) == g);
  CHECK(brute::octal("0.333", 300) == brute::bash(300, 3));
}

TEST_CASE("take up to half", "[brute]") {
  Table g = brute::takeHalf(4000);
  CHECK(prefix(g, 21) == values({0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10}));
  for (int n = 1; 2 * n + 1 <= 4000; ++n) {
    REQUIRE(g[2 * n] == Value(n));
    REQUIRE(g[2 * n + 1] == g[n]);
  }
  CHECK(brute::findPeriod(g, 100).period == -1);
}

TEST_CASE("split into two", "[brute]") {
  Table g = brute::splitTwo(300);
  CHECK(prefix(g, 9) == values({0, 0, 1, 0, 1, 0, 1, 0, 1}));
  for (int n = 1; n <= 300; ++n) REQUIRE(g[n] == Value(n % 2 == 0 ? 1 : 0));
  checkPeriod(g, 1, 2);
  CHECK(brute::octal("4.0", 300) == g);
}

TEST_CASE("Grundy's game", "[brute]") {
  Table g = brute::grundyGame(2000);
  CHECK(prefix(g, 31) == values({0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1,
                                 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3}));
  CHECK(brute::findPeriod(g, 100).period == -1);
  std::vector<int> zeros;
  for (int n = 0; n <= 30; ++n)
    if (g[n] == 0) zeros.push_back(n);
  CHECK(zeros == std::vector<int>({0, 1, 2, 4, 7, 10, 20, 23, 26}));
}

TEST_CASE("Lasker's nim", "[brute]") {
  Table g = brute::lasker(600);
  CHECK(prefix(g, 21) ==
        values({0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11, 13, 14, 16, 15, 17, 18, 20, 19}));
  for (int n = 1; n <= 600; ++n) {
    Value want = n % 4 == 0 ? n - 1 : n % 4 == 3 ? n + 1 : n;
    REQUIRE(g[n] == want);
  }
  for (int n = 1; n + 4 <= 600; ++n) REQUIRE(g[n + 4] == g[n] + 4);  // arithmetic period
}

TEST_CASE("Kayles 0.77: preperiod 71, period 12", "[brute]") {
  Table g = brute::octal("0.77", 1000);
  CHECK(prefix(g, 12) == values({0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6}));
  checkPeriod(g, 71, 12);
  CHECK(g[70] == 6);
  CHECK(g[82] == 2);
  CHECK(brute::removeBlock(1000, {1, 2}) == g);
  CHECK((g[5] ^ g[3]) == 7);
  CHECK(g[1000] == 1);
}

TEST_CASE("Dawson's Kayles 0.07: preperiod 53, period 34", "[brute]") {
  Table g = brute::octal("0.07", 1200);
  CHECK(prefix(g, 15) == values({0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4}));
  checkPeriod(g, 53, 34);
  CHECK(brute::removeBlock(1200, {2}) == g);
}

TEST_CASE("Dawson's chess 0.137: preperiod 52, period 34", "[brute]") {
  Table g = brute::octal("0.137", 1200);
  CHECK(prefix(g, 16) == values({0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5}));
  checkPeriod(g, 52, 34);
  CHECK(brute::removeWithNeighbours(1200, {1}) == g);
  Table dk = brute::octal("0.07", 1201);
  for (int n = 0; n <= 1200; ++n) REQUIRE(g[n] == dk[n + 1]);
}

TEST_CASE("Crosses (Treblecross) equals 0.007 shifted by 2", "[brute]") {
  Table g = brute::crosses(1000);
  CHECK(prefix(g, 25) ==
        values({0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4, 3, 3, 3, 2, 2, 2, 4, 4, 0, 5, 5}));
  Table t = brute::octal("0.007", 1002);
  for (int n = 0; n <= 1000; ++n) REQUIRE(g[n] == t[n + 2]);
}

TEST_CASE("L-tromino on 2 x n is 0.007 on 2n cells", "[brute]") {
  Table t = brute::octal("0.007", 400);
  CHECK(brute::trominoCells(400) == t);
  // The real board, searched cell by cell: only the number of free cells matters.
  for (int n = 0; n <= 9; ++n) {
    INFO("2 x " << n);
    REQUIRE(brute::trominoBoard(n) == t[2 * n]);
  }
}

TEST_CASE("cutting game", "[brute]") {
  brute::Grid g = brute::cut(40, 40);
  CHECK(g[2][2] == 0);
  CHECK(g[2][4] == 1);
  CHECK(g[2][6] == 2);
  CHECK(g[2][8] == 3);
  CHECK(g[6][7] == 2);
  CHECK(g[6][6] == 1);
  for (int w = 0; w <= 40; ++w)
    for (int h = 0; h <= 40; ++h) REQUIRE(g[w][h] == g[h][w]);
  for (int h = 0; h <= 40; ++h) REQUIRE(g[1][h] == 0);
  CHECK(g[2][3] == 0);
  CHECK(g[3][3] == 0);
}

TEST_CASE("Wythoff's game P-positions", "[brute]") {
  auto p = brute::wythoffPPositions(40);
  std::vector<std::pair<int, int>> first = {{0, 0}, {1, 2}, {3, 5}, {4, 7}, {6, 10}, {8, 13}};
  CHECK(std::vector<std::pair<int, int>>(p.begin(), p.begin() + 6) == first);
  const double phi = (1 + std::sqrt(5.0)) / 2;
  for (int k = 0; k < 40; ++k) {
    REQUIRE(p[k].first == static_cast<int>(std::floor(k * phi)));
    REQUIRE(p[k].second == static_cast<int>(std::floor(k * phi * phi)));
  }
  std::set<std::pair<int, int>> pset;
  for (auto [a, b] : p) {
    pset.insert({a, b});
    pset.insert({b, a});
  }
  brute::Grid g = brute::wythoff(60, 60);
  for (int a = 0; a <= 60; ++a)
    for (int b = 0; b <= 60; ++b) {
      INFO(a << ", " << b);
      REQUIRE((g[a][b] == 0) == (pset.count({a, b}) == 1));
      REQUIRE(g[a][b] == g[b][a]);
    }
  CHECK(g[1][1] == 2);
  CHECK(g[3][4] == 2);
}

TEST_CASE("chips on a DAG", "[brute]") {
  brute::Graph dag = {{1, 2}, {3}, {3, 4}, {5}, {5, 6}, {7}, {7}, {}};
  Table g = brute::dagChips(dag);
  CHECK(g == values({0, 1, 1, 0, 0, 1, 1, 0}));
  // several chips: the search over the multiset of chips equals the xor
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      REQUIRE(brute::dagChipsSearch(dag, {a, b}) == (g[a] ^ g[b]));
      for (int c = 0; c < 8; ++c)
        REQUIRE(brute::dagChipsSearch(dag, {a, b, c}) == (g[a] ^ g[b] ^ g[c]));
    }
  // a chain 0 -> 1 -> ... -> 9 gives 0 1 0 1 ... ending in 0 at the sink
  brute::Graph chain(10);
  for (int v = 0; v + 1 < 10; ++v) chain[v] = {v + 1};
  Table c = brute::dagChips(chain);
  for (int v = 0; v < 10; ++v) REQUIRE(c[v] == Value((9 - v) % 2));
}

TEST_CASE("robot and fire", "[brute]") {
  brute::Graph roads = {{1, 2}, {0, 2, 3}, {0, 1, 4, 5}, {1, 6, 9}, {2, 6},
                        {2, 7}, {3, 4, 8}, {5, 8},       {6, 7},    {3}};
  CHECK(brute::bfs(roads, 0) == std::vector<int>({0, 1, 1, 2, 2, 2, 3, 3, 4, 3}));
  CHECK(brute::robotFire(roads, 0) == 2);
  CHECK(brute::robotFireAt(roads, 0, 1, 2) == 0);
  CHECK(brute::robotFireAt(roads, 0, 2, 2) == 1);
  CHECK(brute::robotFireAt(roads, 0, 8, 5) == 0);
  // The robot is always at distance day - 1, so the game is chips on the DAG of edges that go
  // one layer further from the capital.
  for (int capital = 0; capital < 10; ++capital) {
    std::vector<int> d = brute::bfs(roads, capital);
    brute::Graph layered(roads.size());
    for (int v = 0; v < 10; ++v)
      for (int u : roads[v])
        if (d[u] == d[v] + 1) layered[v].push_back(u);
    REQUIRE(brute::robotFire(roads, capital) == brute::dagChips(layered)[capital]);
  }
  // on a path the robot just runs: the first pilot wins iff the far end is an odd distance away
  brute::Graph path(7);
  for (int v = 0; v + 1 < 7; ++v) {
    path[v].push_back(v + 1);
    path[v + 1].push_back(v);
  }
  CHECK(brute::robotFire(path, 0) == 0);  // six moves
  CHECK(brute::robotFire(path, 1) == 1);  // five moves toward 6 win (the other way only one)
}

TEST_CASE("staircase nim is nim on the odd steps", "[brute]") {
  for (auto c : brute::allLists(5, 0, 3)) {
    if (c.empty()) continue;
    INFO(c.size());
    REQUIRE(brute::staircase(c) == brute::staircaseFormula(c));
  }
  CHECK(brute::staircase({0, 3, 1, 4}) == 7);
  CHECK(brute::staircase({9, 0, 5}) == 0);
}

TEST_CASE("Nimble is nim on the positions; Nimble-2 a staircase on the gaps", "[brute]") {
  for (auto p : brute::allLists(3, 0, 6)) REQUIRE(brute::nimble(p) == brute::nimbleFormula(p));
  for (auto p : brute::allSets(4, 0, 9)) REQUIRE(brute::nimble2(p) == brute::nimble2Formula(p));
  CHECK(brute::nimble({1, 4, 6}) == 3);
  CHECK(brute::nimble2({1, 4, 6}) == 0);
  CHECK(brute::nimble2({2, 3, 7, 9}) == 1);
}

TEST_CASE("Turning turtles and Twins are nim on the heads", "[brute]") {
  for (auto row : brute::allLists(8, 0, 1)) {
    REQUIRE(brute::turtles(row) == brute::turtlesFormula(row));
    REQUIRE(brute::twins(row) == brute::twinsFormula(row));
  }
  CHECK(brute::turtles({0, 1, 0, 1, 1}) == 3);
  CHECK(brute::twins({0, 1, 0, 1, 1}) == 6);
}

TEST_CASE("Northcott's game is nim on the gaps", "[brute]") {
  for (int a = 0; a <= 6; ++a)
    for (int b = 0; b <= 6; ++b)
      for (int c = 0; c <= 6; ++c)
        for (int d = 0; d <= 6; ++d) {
          if (a == b || c == d) continue;
          std::vector<std::pair<int, int>> rows = {{a, b}, {c, d}};
          REQUIRE(brute::northcott(rows) == brute::northcottFormula(rows));
        }
  CHECK(brute::northcott({{0, 4}, {6, 2}, {1, 7}}) == 5);
}

TEST_CASE("Georgia and Bob", "[brute]") {
  for (auto p : brute::allSets(4, 1, 10)) {
    REQUIRE(brute::georgiaBob(p) == brute::georgiaBobFormula(p));
    std::vector<int> shifted = p;
    for (int& x : shifted) --x;
    REQUIRE(brute::georgiaBob(p) == brute::nimble2(shifted));
  }
  CHECK(brute::georgiaBob({2, 5, 7, 8}) == 2);
  CHECK(brute::georgiaBob({1, 3, 4}) == 0);
}

TEST_CASE("Moore's Nim_k: P iff every bit count is 0 mod k + 1", "[brute]") {
  for (auto h : brute::allLists(4, 0, 5)) REQUIRE(brute::moore(1, h) == brute::xorOf(h));
  for (int k = 2; k <= 3; ++k)
    for (auto h : brute::allLists(4, 0, 4)) {
      if (!std::is_sorted(h.begin(), h.end())) continue;
      INFO("k = " << k);
      REQUIRE((brute::moore(k, h) == 0) == brute::moorePPosition(k, h));
    }
  CHECK(brute::moore(2, {1, 2, 3}) == 6);
  CHECK(brute::moore(2, {3, 3, 3}) == 0);
  CHECK(brute::moore(2, {1, 1}) == 2);
  CHECK(brute::moore(2, {3, 5, 6}) == 14);
}

TEST_CASE("parity game: for odd n the first player loses iff n = 5 mod 6", "[brute]") {
  for (int n = 1; n <= 301; n += 2) {
    INFO("n = " << n);
    REQUIRE((brute::parityGame(n, 0, 0) == 0) == (n % 6 == 5));
    REQUIRE(brute::parityGameWins(n, 0, 0) == (n % 6 != 5));
  }
  // the normal-play form agrees with the direct search in every state
  for (int n = 0; n <= 60; ++n)
    for (int mine = 0; mine <= 1; ++mine)
      for (int theirs = 0; theirs <= 1; ++theirs)
        REQUIRE((brute::parityGame(n, mine, theirs) != 0) ==
                brute::parityGameWins(n, mine, theirs));
  CHECK(brute::parityGame(27, 0, 0) == 3);
  CHECK(brute::parityGame(3, 0, 0) == 3);
}

TEST_CASE("misere nim by game-tree search", "[brute]") {
  for (auto h : brute::allLists(4, 0, 5)) {
    if (!std::is_sorted(h.begin(), h.end())) continue;
    REQUIRE(brute::misereNimWins(h) == brute::misereNimFormula(h));
  }
  CHECK(brute::misereNimWins({1, 1}));
  CHECK_FALSE(brute::misereNimWins({1, 1, 1}));
  CHECK_FALSE(brute::misereNimWins({1}));
  CHECK(brute::misereNimWins({2}));
  CHECK(brute::misereNimWins({}));
  CHECK_FALSE(brute::misereNimWins({1, 2, 3}));
}

TEST_CASE("octal code parsing", "[brute]") {
  CHECK_THROWS(brute::octal("077", 10));
  CHECK_THROWS(brute::octal("0.78", 10));
  // 0.1: take one token only from a heap of one
  CHECK(brute::octal("0.1", 5) == values({0, 1, 0, 0, 0, 0}));
  // 0.2: take one token, leaving a non-empty heap
  CHECK(brute::octal("0.2", 5) == values({0, 0, 1, 0, 1, 0}));
}
