// Loopy games (runtime/Loopy.h) against tests/brute/loopy_brute.h: random
// directed graphs with cycles, written as a `loopy game` over a constant
// list of moves. Every vertex's value is checked against the definition of
// the generalized Sprague-Grundy function (the conditions read off the
// values of its options, not by running the labelling again), and every
// value is pinned by outcomes: R(v) + Nim(a) is lost exactly when R(v) is
// worth a, won when a is in K of an infinite value, drawn otherwise, and
// those outcomes, and those of R(u) + R(w), must be what a plain
// win/lose/draw analysis of the sum's product graph gives. Both backends
// must give the same values.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/support/Interrupt.h"
#include "driver/Session.h"
#include "loopy_brute.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// A value as eval's JSON gives it: a number, or {"inf": K}.
struct Value {
  bool infinite = false;
  uint64_t m = 0;
  std::vector<uint64_t> k;
  bool operator==(const Value&) const = default;
};

Value parseValue(const nlohmann::json& grundy) {
  Value v;
  if (grundy.is_object()) {
    v.infinite = true;
    v.k = grundy["inf"].get<std::vector<uint64_t>>();
  } else {
    v.m = grundy.get<uint64_t>();
  }
  return v;
}

std::vector<nlohmann::json> lines(const std::string& jsonLines) {
  std::vector<nlohmann::json> out;
  std::istringstream in(jsonLines);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

// A random graph of n vertices, about a sixth of them without moves, the
// others with 1 to 3 moves to any vertex (so cycles of every length).
brute::Digraph randomGraph(int n, unsigned seed) {
  std::mt19937 rng(seed);
  brute::Digraph g(static_cast<size_t>(n));
  for (auto& moves : g) {
    if (rng() % 6 == 0) continue;
    const int count = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < count; ++i) moves.push_back(static_cast<int>(rng() % n));
    std::sort(moves.begin(), moves.end());
    moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
  }
  return g;
}

std::string program(const brute::Digraph& g) {
  std::string list = "const E = [";
  for (size_t v = 0; v < g.size(); ++v) {
    list += v ? ", [" : "[";
    for (size_t i = 0; i < g[v].size(); ++i) list += (i ? ", " : "") + std::to_string(g[v][i]);
    list += "]";
  }
  return list +
         "]\n"
         "loopy game R(v) {\n"
         "  move go(w in E[v]) -> R(w)\n"
         "}\n"
         "game Nim(n) {\n"
         "  take 1..n\n"
         "}\n";
}

// The definition at vertex v (C. A. B. Smith; Fraenkel and Yesha): a value m
// has no option worth m, an option worth each j < m, and every option that
// is infinite or worth more than m has an option worth m; an infinite value
// lists the finite values of the options.
void checkDefinition(const brute::Digraph& g, const std::vector<Value>& value, size_t v) {
  const Value& x = value[v];
  std::vector<uint64_t> finite;
  for (int w : g[v])
    if (!value[static_cast<size_t>(w)].infinite) finite.push_back(value[static_cast<size_t>(w)].m);
  std::sort(finite.begin(), finite.end());
  finite.erase(std::unique(finite.begin(), finite.end()), finite.end());
  INFO("vertex " << v);
  if (x.infinite) {
    CHECK(x.k == finite);
    return;
  }
  CHECK(!std::binary_search(finite.begin(), finite.end(), x.m));
  for (uint64_t j = 0; j < x.m; ++j) CHECK(std::binary_search(finite.begin(), finite.end(), j));
  for (int w : g[v]) {
    const Value& y = value[static_cast<size_t>(w)];
    if (!y.infinite && y.m < x.m) continue;
    bool reachesM = false;
    for (int z : g[static_cast<size_t>(w)])
      reachesM = reachesM || (!value[static_cast<size_t>(z)].infinite &&
                              value[static_cast<size_t>(z)].m == x.m);
    INFO("option " << w);
    CHECK(reachesM);
  }
}

}  // namespace

TEST_CASE("loopy games: values by the definition and outcomes of sums by their product graph") {
  const int n = brute::scaled(300, 60);
  const int heaps = 3;
  for (unsigned seed : {1u, 2u, 3u}) {
    const brute::Digraph g = randomGraph(n, seed);
    const std::vector<char> withNim = brute::retrograde(brute::product(g, brute::nimHeaps(heaps)));
    const std::vector<char> pairs = brute::retrograde(brute::product(g, g));
    std::mt19937 rng(seed * 7919u);
    std::vector<std::pair<int, int>> asked;
    for (int i = 0; i < n; ++i)
      asked.emplace_back(static_cast<int>(rng() % n), static_cast<int>(rng() % n));
    std::vector<std::vector<Value>> byBackend;
    for (gdsl::BackendKind kind : testing::backends()) {
      INFO("seed " << seed << ", backend " << static_cast<int>(kind));
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("graph.game", program(g)));
      std::string statements;
      for (int v = 0; v < n; ++v) statements += "eval R(" + std::to_string(v) + ")\n";
      std::vector<Value> value;
      for (const nlohmann::json& j : lines(s.runJson(statements)))
        value.push_back(parseValue(j["grundy"]));
      REQUIRE(value.size() == static_cast<size_t>(n));
      for (size_t v = 0; v < value.size(); ++v) checkDefinition(g, value, v);

      statements.clear();
      for (int v = 0; v < n; ++v)
        for (int a = 0; a <= heaps; ++a)
          statements += "eval R(" + std::to_string(v) + ") + Nim(" + std::to_string(a) + ")\n";
      std::vector<nlohmann::json> sums = lines(s.runJson(statements));
      REQUIRE(sums.size() == static_cast<size_t>(n * (heaps + 1)));
      for (int v = 0; v < n; ++v)
        for (int a = 0; a <= heaps; ++a) {
          INFO("R(" << v << ") + Nim(" << a << ")");
          const auto at = static_cast<size_t>(v * (heaps + 1) + a);
          CHECK(sums[at]["outcome"] == std::string(1, withNim[at]));
        }

      statements.clear();
      for (auto [u, w] : asked)
        statements += "eval R(" + std::to_string(u) + ") + R(" + std::to_string(w) + ")\n";
      std::vector<nlohmann::json> twos = lines(s.runJson(statements));
      REQUIRE(twos.size() == asked.size());
      for (size_t i = 0; i < asked.size(); ++i) {
        auto [u, w] = asked[i];
        INFO("R(" << u << ") + R(" << w << ")");
        CHECK(twos[i]["outcome"] == std::string(1, pairs[static_cast<size_t>(u * n + w)]));
        // The move eval prints: to a lost sum when won, to a drawn one when drawn.
        if (twos[i]["outcome"] == "N") CHECK(!twos[i]["move"].is_null());
        if (twos[i]["outcome"] == "D") CHECK(!twos[i]["drawing_move"].is_null());
      }
      byBackend.push_back(value);
    }
    for (size_t b = 1; b < byBackend.size(); ++b) CHECK(byBackend[b] == byBackend[0]);
  }
}

TEST_CASE("loopy games: the values of a graph a textbook draws") {
  // 0 <- 1 <-> 2 <-> 3, and 4 -> 1, 4 -> 0 and 5 -> 5.
  const char* source =
      "const F = [[], [0, 2], [1, 3], [2], [1, 0], [5]]\n"
      "loopy game U(v) {\n"
      "  move go(w in F[v]) -> U(w)\n"
      "}\n";
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("u.game", source));
    std::vector<nlohmann::json> out =
        lines(s.runJson("eval U(0)\neval U(1)\neval U(2)\neval U(3)\neval U(4)\neval U(5)\n"));
    REQUIRE(out.size() == 6);
    CHECK(out[0]["grundy"] == 0);
    CHECK(out[1]["grundy"] == nlohmann::json::parse(R"({"inf":[0]})"));
    CHECK(out[2]["grundy"] == nlohmann::json::parse(R"({"inf":[]})"));
    CHECK(out[3]["outcome"] == "D");
    // U(4): options U(0) = 0 and U(1), infinite with no option worth 1, so
    // U(4) is not worth 1 (the opponent could move to U(1) and never end):
    // infinite too, won by the move to U(0).
    CHECK(out[4]["grundy"] == nlohmann::json::parse(R"({"inf":[0]})"));
    CHECK(out[4]["outcome"] == "N");
    CHECK(out[5]["outcome"] == "D");  // a move to itself: play never ends
  }
}

TEST_CASE("loopy games: a labelling stopped midway is done again by the next question") {
  // R(0) reaches most of 3000 vertices; the stop, asked before, is taken
  // after a thousand of them are listed, which stay in the solver's table
  // unlabelled. The next questions must label them as a fresh solver does.
  const brute::Digraph g = randomGraph(3000, 17);
  std::string statements;
  // From R(1) on: a position the stopped labelling listed after R(0).
  for (size_t v = 1; v < g.size(); v += 7) statements += "eval R(" + std::to_string(v) + ")\n";
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session stopped{gdsl::StackOptions(kind)}, fresh{gdsl::StackOptions(kind)};
    REQUIRE(stopped.load("r.game", program(g)));
    REQUIRE(fresh.load("r.game", program(g)));
    gdsl::requestInterrupt(gdsl::StopReason::User);
    CHECK_THROWS_AS(stopped.runJson("eval R(0)\n"), gdsl::Interrupted);
    gdsl::clearInterrupt();
    std::vector<nlohmann::json> want = lines(fresh.runJson(statements));
    std::vector<nlohmann::json> got = lines(stopped.runJson(statements));
    REQUIRE(want.size() == (g.size() + 5) / 7);
    CHECK(got == want);
  }
}
