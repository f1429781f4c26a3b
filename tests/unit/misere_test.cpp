// Misère play (runtime/Misere.h) against independent brute forces (tests/brute/misere_brute.h
// and brute_force.h) and against published misère values: misère nim, sums of several game
// families with and without nim heaps, winning moves, cycles and limits, on every backend, with
// the nim-heap recognition on and with it off (so the plain search is checked as well).
#include "runtime/Misere.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "driver/Stack.h"
#include "misere_brute.h"
#include "test_backends.h"

using brute::MiserePart;
using brute::MisereSum;
using gdsl::backendKindName;
using testing::backends;

namespace {

// Ladder and Pad are nim heaps written other ways than `take`: Ladder moves to the small heaps
// first, Pad's options are sums with a part that has no move. Deep is a long chain, Loop and
// Twice can reach themselves.
const char* kSource = R"(
game Nim(n) { take 1..n }
game Kayles = octal "0.77"
game Dawson = octal "0.07"
game Sub134(n) { take {1, 3, 4} }
game Sub237(n) { take {2, 3, 7} }
game Grundy(n) { split unequal }
game Ladder(n) { move down(k in 0..n-1) -> Ladder(k) }
game Pad(n) { move m(k in 0..n-1) -> Nim(k) + Kayles(0) }
game Deep(n) { move down when n > 0 -> Deep(n - 1) }
game Loop(n) {
  move down when n > 0 -> Loop(n - 1)
  move up when n < 3 -> Loop(n + 1)
}
game Twice(n) {
  move halve -> Kayles(1) + Kayles(1)
  move stay -> Twice(n)
}
)";

// gdsl with a misère solver, on the stack the driver builds.
struct Gdsl {
  std::unique_ptr<gdsl::Stack> stack;
  gdsl::MisereSolver* misere = nullptr;

  gdsl::Position at(const std::string& game, int64_t n) const {
    gdsl::Position p;
    int id = stack->program().findGame(game);
    REQUIRE(id >= 0);
    p.game = static_cast<uint32_t>(id);
    p.words.push_back(n);
    return p;
  }
  std::string name(const gdsl::Position& p) const { return stack->program().games[p.game].name; }
  gdsl::Engine& engine() { return stack->engine(); }
};

// `maxStates`: the engine's --max-states, which bounds the misère search too.
std::unique_ptr<Gdsl> makeGdsl(gdsl::BackendKind kind, gdsl::MisereLimits limits = {},
                               uint64_t maxStates = gdsl::EngineOptions{}.maxStates) {
  auto g = std::make_unique<Gdsl>();
  gdsl::StackOptions options(kind);
  options.misere = limits;
  options.engine.maxStates = maxStates;
  g->stack = std::make_unique<gdsl::Stack>(options);
  bool ok = g->stack->load("misere_test.game", "", kSource);
  INFO(g->stack->workspace().renderDiagnostics());
  REQUIRE(ok);
  std::string error;
  INFO(error);
  REQUIRE(g->stack->start(error));
  g->misere = &g->stack->misere();
  return g;
}

// The nim-heap recognition off: only terminal components are dropped, every other state is
// searched.
gdsl::MisereLimits withoutShapes() {
  gdsl::MisereLimits limits;
  limits.shape.positions = 0;
  return limits;
}

// A test position: one game of kSource and its parameter.
struct Part {
  std::string game;
  int n = 0;
};
using Parts = std::vector<Part>;

MiserePart::Kind kindOf(const std::string& game) {
  static const std::map<std::string, MiserePart::Kind> kinds = {
      {"Nim", MiserePart::Nim},       {"Ladder", MiserePart::Nim},
      {"Kayles", MiserePart::Kayles}, {"Dawson", MiserePart::Dawson},
      {"Sub134", MiserePart::Sub134}, {"Sub237", MiserePart::Sub237},
      {"Grundy", MiserePart::Grundy}, {"Pad", MiserePart::Pad}};
  auto it = kinds.find(game);
  REQUIRE(it != kinds.end());
  return it->second;
}

MisereSum toBrute(const Parts& parts) {
  MisereSum s;
  for (const Part& p : parts) s.push_back(brute::misereHeap(kindOf(p.game), p.n));
  return s;
}

gdsl::Sum toGdsl(const Gdsl& g, const Parts& parts) {
  gdsl::Sum s;
  for (const Part& p : parts) s.push_back(g.at(p.game, p.n));
  return s;
}

std::string text(const Parts& parts) {
  std::string t;
  for (const Part& p : parts)
    t += (t.empty() ? "" : " + ") + p.game + "(" + std::to_string(p.n) + ")";
  return t.empty() ? "0" : t;
}

// What a list of parts is as heaps: (kind, size) for every heap with a token, sorted.
using Heaps = std::vector<std::pair<int, int>>;
Heaps heapsOf(const MisereSum& parts) {
  Heaps h;
  for (const MiserePart& p : parts)
    for (int size : brute::misereHeapsOf(p))
      if (size > 0) h.emplace_back(p.kind == MiserePart::Pad ? -1 : p.kind, size);
  std::sort(h.begin(), h.end());
  return h;
}

// Checks gdsl's outcome of `parts` against the brute force, and its winning move: a real move of
// the component it names (one of the brute force's options of that part), after which the
// player to move loses by the brute force.
void checkPosition(Gdsl& g, brute::MisereSearch& search, const Parts& parts) {
  INFO("misere " << text(parts));
  gdsl::Sum sum = toGdsl(g, parts);
  bool expected = search.wins(toBrute(parts));
  REQUIRE(g.misere->firstPlayerWins(sum) == expected);
  // A sum with no move at all is won without moving.
  bool anyMove = false;
  for (const MiserePart& p : toBrute(parts)) anyMove = anyMove || !brute::misereOptions(p).empty();
  auto move = g.misere->winningMove(sum);
  REQUIRE(move.has_value() == (expected && anyMove));
  if (!move) return;
  size_t i = move->first;
  REQUIRE(i < parts.size());
  INFO("winning move in " << text({parts[i]}) << " by " << move->second.label);
  Parts to;
  for (const gdsl::Position& c : move->second.components) {
    REQUIRE(c.words.size() == 1);
    to.push_back(Part{g.name(c), static_cast<int>(c.words[0])});
  }
  INFO("to " << text(to));
  bool real = false;
  for (const MisereSum& o : brute::misereOptions(toBrute({parts[i]})[0]))
    real = real || heapsOf(o) == heapsOf(toBrute(to));
  REQUIRE(real);
  Parts after;
  for (size_t j = 0; j < parts.size(); ++j)
    if (j != i) after.push_back(parts[j]);
  after.insert(after.end(), to.begin(), to.end());
  REQUIRE_FALSE(search.wins(toBrute(after)));
}

// A deterministic choice of parts, for sums of three and four components.
struct Lcg {
  uint64_t state = 0x2545F4914F6CDD1Dull;
  int below(int n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(n));
  }
};

// The parts sums are made of: (game, largest parameter).
const std::vector<std::pair<std::string, int>> kPool = {
    {"Kayles", 8},  {"Dawson", 8}, {"Sub134", 9}, {"Sub237", 10},
    {"Grundy", 10}, {"Nim", 5},    {"Ladder", 4}, {"Pad", 4}};

std::vector<Part> poolParts(int cap) {
  std::vector<Part> out;
  for (const auto& [game, largest] : kPool)
    for (int n = 0; n <= std::min(largest, cap); ++n) out.push_back(Part{game, n});
  return out;
}

}  // namespace

TEST_CASE("misere nim: sums of up to four heaps of at most 7", "[misere]") {
  brute::MisereSearch search;
  for (auto kind : backends()) {
    for (bool shapes : {true, false}) {
      INFO("backend " << backendKindName(kind) << (shapes ? "" : ", without nim shapes"));
      auto g = makeGdsl(kind, shapes ? gdsl::MisereLimits{} : withoutShapes());
      // Without shapes, the search itself (not the quotient of Nim) answers.
      if (!shapes) g->misere->useQuotients(false);
      for (const std::vector<int>& heaps : brute::allLists(4, 0, 7)) {
        if (!std::is_sorted(heaps.begin(), heaps.end())) continue;
        Parts parts;
        for (int h : heaps) parts.push_back(Part{"Nim", h});
        INFO("misere " << text(parts));
        bool wins = g->misere->firstPlayerWins(toGdsl(*g, parts));
        // Bouton's misère rule, and a search of the whole game tree.
        REQUIRE(wins == brute::misereNimFormula(heaps));
        REQUIRE(wins == brute::misereNimWins(heaps));
        checkPosition(*g, search, parts);
      }
      // Sums of nim heaps never need a search when the heaps are recognised.
      if (shapes) CHECK(g->misere->stats().states == 0);
      if (!shapes) CHECK(g->misere->stats().states > 0);
    }
  }
}

TEST_CASE("misere: nim heaps are recognised by structure", "[misere]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto g = makeGdsl(kind);
    auto heap = [&](const std::string& game, int n) { return g->misere->nimHeap(g->at(game, n)); };
    const int64_t no = gdsl::NimShape::kNotNim;
    for (int n = 0; n <= 40; ++n) {
      CHECK(heap("Nim", n) == n);
      CHECK(heap("Ladder", n) == n);
      CHECK(heap("Pad", n) == n);
    }
    // Kayles(1) = {0}, Kayles(2) = {0, *1}; Kayles(3) has the option Kayles(1) + Kayles(1).
    CHECK(heap("Kayles", 0) == 0);
    CHECK(heap("Kayles", 1) == 1);
    CHECK(heap("Kayles", 2) == 2);
    for (int n = 3; n <= 12; ++n) CHECK(heap("Kayles", n) == no);
    // Dawson(4) = {Dawson(2), Dawson(1) + Dawson(1)} = {*1, 0} = *2; Dawson(5) = {*1}.
    std::vector<int64_t> dawson = {0, 0, 1, 1, 2, no, no, no};
    for (int n = 0; n < 8; ++n) CHECK(heap("Dawson", n) == dawson[n]);
    // Sub134(2) = {*1} lacks 0.
    std::vector<int64_t> sub = {0, 1, no, no, no, no};
    for (int n = 0; n < 6; ++n) CHECK(heap("Sub134", n) == sub[n]);
    // Grundy's game: 0, 1 and 2 cannot be split, 3 = {1 + 2} = {0} = *1, 4 = {1 + 3} = {*1}.
    std::vector<int64_t> grundy = {0, 0, 0, 1, no, no};
    for (int n = 0; n < 6; ++n) CHECK(heap("Grundy", n) == grundy[n]);
    // A nim heap has its own size as its Grundy value.
    for (const auto& [game, largest] : kPool)
      for (int n = 0; n <= largest; ++n) {
        int64_t k = heap(game, n);
        if (k >= 0) CHECK(g->engine().value(g->at(game, n)) == static_cast<uint32_t>(k));
      }
  }
}

TEST_CASE("misere: sums of game families against a whole-tree search", "[misere][brute]") {
  brute::MisereSearch search;
  for (auto kind : backends()) {
    for (bool shapes : {true, false}) {
      INFO("backend " << backendKindName(kind) << (shapes ? "" : ", without nim shapes"));
      auto g = makeGdsl(kind, shapes ? gdsl::MisereLimits{} : withoutShapes());
      // Every single part and every pair.
      std::vector<Part> pool = poolParts(10);
      for (size_t i = 0; i < pool.size(); ++i) {
        checkPosition(*g, search, {pool[i]});
        for (size_t j = i; j < pool.size(); ++j) checkPosition(*g, search, {pool[i], pool[j]});
      }
      // Sums of three and four smaller parts, mixtures of nim heaps and other games.
      std::vector<Part> small = poolParts(6);
      Lcg lcg;
      for (int round = 0; round < 300; ++round) {
        Parts parts;
        int count = 3 + lcg.below(2);
        for (int k = 0; k < count; ++k)
          parts.push_back(small[lcg.below(static_cast<int>(small.size()))]);
        checkPosition(*g, search, parts);
      }
      // Nim heaps beside games that are not nim heaps.
      for (int a = 3; a <= 7; ++a)
        for (int b = 0; b <= 4; ++b)
          for (int c = 0; c <= 4; ++c) {
            checkPosition(*g, search, {{"Kayles", a}, {"Nim", b}, {"Nim", c}});
            checkPosition(*g, search, {{"Dawson", a + 2}, {"Ladder", b}, {"Pad", c}});
            checkPosition(*g, search, {{"Sub134", a}, {"Grundy", a + 1}, {"Nim", b}, {"Nim", c}});
          }
    }
  }
}

// Published misère values. CGSuite (A. N. Siegel), whose misère theory follows Conway's genus
// theory (On Numbers and Games, ch. 12; Winning Ways, ch. 13), lists the misère nim values of
// heaps 0..20 in its test suite, lib/core/src/test/scala/org/cgsuite/lang/GameHeapTest.scala
// (github.com/aaron-siegel/cgsuite, commit 46122ba1348dd65ab05d41b185da06b6e108d2f5), for
// Kayles (0.77), Dawson's Kayles (0.07), Grundy's game and the subtraction game {2, 3, 7}. A
// heap is a misère P-position exactly when its misère nim value is 0: for misère Kayles, heaps
// 1, 4, 9, 12 and 20 of 0..20.
TEST_CASE("misere: single heaps against published misere nim values", "[misere][known]") {
  const std::map<std::string, std::vector<int>> misereValues = {
      {"Kayles", {1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0}},
      {"Dawson", {1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3}},
      {"Grundy", {1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
      {"Sub237", {1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1}},
      {"Nim", {1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}}};
  brute::MisereSearch search;
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto g = makeGdsl(kind);
    for (const auto& [game, values] : misereValues)
      for (int n = 0; n < static_cast<int>(values.size()); ++n) {
        INFO("misere " << game << "(" << n << ")");
        bool wins = g->misere->firstPlayerWins({g->at(game, n)});
        REQUIRE(wins == (values[n] != 0));
        if (game == "Kayles" || game == "Dawson") {
          REQUIRE(wins == brute::misereRowWins(n, game == "Dawson"));
        } else if (n <= 14) {
          checkPosition(*g, search, {{game, n}});
        }
      }
  }
}

TEST_CASE("misere: both backends give the same outcomes and moves", "[misere]") {
  std::vector<Parts> positions;
  std::vector<Part> small = poolParts(7);
  Lcg lcg;
  for (int round = 0; round < 200; ++round) {
    Parts parts;
    int count = 1 + lcg.below(4);
    for (int k = 0; k < count; ++k)
      parts.push_back(small[lcg.below(static_cast<int>(small.size()))]);
    positions.push_back(parts);
  }
  auto interp = makeGdsl(gdsl::BackendKind::Interp);
  auto jit = makeGdsl(gdsl::BackendKind::Jit);
  for (const Parts& parts : positions) {
    INFO("misere " << text(parts));
    gdsl::Sum a = toGdsl(*interp, parts), b = toGdsl(*jit, parts);
    REQUIRE(interp->misere->firstPlayerWins(a) == jit->misere->firstPlayerWins(b));
    auto ma = interp->misere->winningMove(a);
    auto mb = jit->misere->winningMove(b);
    REQUIRE(ma.has_value() == mb.has_value());
    if (ma) {
      CHECK(ma->first == mb->first);
      CHECK(ma->second.label == mb->second.label);
      CHECK(ma->second.components == mb->second.components);
    }
  }
  // The same through sessions, as `eval misere` runs.
  gdsl::Session si{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  gdsl::Session sj{gdsl::StackOptions(gdsl::BackendKind::Jit)};
  REQUIRE(si.load("misere_test.game", kSource));
  REQUIRE(sj.load("misere_test.game", kSource));
  for (const Parts& parts : positions)
    REQUIRE(si.misereFirstPlayerWins(text(parts)) == sj.misereFirstPlayerWins(text(parts)));
}

TEST_CASE("misere: cycles, limits and deep games", "[misere]") {
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    {
      // A position that can reach itself: the error shows the cycle.
      auto g = makeGdsl(kind);
      try {
        g->misere->firstPlayerWins({g->at("Loop", 1)});
        FAIL("no error");
      } catch (const gdsl::RuntimeError& e) {
        CHECK(e.message ==
              "Loop(1) can reach itself, so the game is not finite: Loop(1) -> Loop(0) -> Loop(1)");
      }
      // A cycle met by the search itself: once Kayles(1) is known to be *1, Twice(0) is seen
      // not to be a nim heap before its second move is looked at.
      CHECK(g->misere->nimHeap(g->at("Kayles", 1)) == 1);
      try {
        g->misere->firstPlayerWins({g->at("Twice", 0), g->at("Nim", 2)});
        FAIL("no error");
      } catch (const gdsl::RuntimeError& e) {
        CHECK(e.message ==
              "misère search: Twice(0) + *2 can reach itself, so the game is not finite");
      }
      // The solver is still usable after errors.
      brute::MisereSearch search;
      checkPosition(*g, search, {{"Kayles", 5}, {"Nim", 3}});
    }
    {
      // The state limit (--max-states), then the same solver goes on.
      auto g = makeGdsl(kind, {}, 5);
      g->misere->useQuotients(false);  // the search's limit
      try {
        g->misere->firstPlayerWins({g->at("Kayles", 9), g->at("Kayles", 7)});
        FAIL("no error");
      } catch (const gdsl::RuntimeError& e) {
        CHECK(e.message ==
              "misère search gave up after 5 states, the limit (--max-states); raise it with "
              "--max-states N");
      }
      CHECK(g->misere->firstPlayerWins({g->at("Nim", 2), g->at("Nim", 2)}) == false);
      CHECK(g->misere->firstPlayerWins({g->at("Kayles", 3)}) == true);
    }
    {
      // The limit on options kept.
      gdsl::MisereLimits limits;
      limits.maxOptions = 10;
      auto g = makeGdsl(kind, limits);
      g->misere->useQuotients(false);  // the search's limit
      try {
        g->misere->firstPlayerWins({g->at("Kayles", 12)});
        FAIL("no error");
      } catch (const gdsl::RuntimeError& e) {
        CHECK(e.message == "misère search gave up after keeping 10 options of components");
      }
    }
    {
      // Recognition past its limit gives up (the heap is searched as an ordinary game), and the
      // answers stay right.
      gdsl::MisereLimits limits;
      limits.shape.positions = 100;
      auto g = makeGdsl(kind, limits);
      g->misere->useQuotients(false);  // what the search recognises on its way
      CHECK(g->misere->nimHeap(g->at("Ladder", 300)) == gdsl::NimShape::kNotNim);
      CHECK(g->misere->stats().gaveUp == 1);
      CHECK(g->misere->firstPlayerWins({g->at("Ladder", 300), g->at("Ladder", 300)}) == false);
      // Searching Ladder(300) recognised the smaller ladders.
      CHECK(g->misere->nimHeap(g->at("Ladder", 299)) == 299);
      CHECK(g->misere->firstPlayerWins({g->at("Ladder", 300), g->at("Ladder", 299)}) == true);
      CHECK(g->misere->firstPlayerWins({g->at("Ladder", 300), g->at("Nim", 1)}) == true);
      CHECK(g->misere->firstPlayerWins({g->at("Ladder", 300), g->at("Ladder", 0)}) == true);
    }
    {
      // A chain of 110000 positions: neither the recognition nor the search recurses in C++.
      // Deep(n) is lost in misère play exactly when n is odd.
      auto g = makeGdsl(kind);
      CHECK(g->misere->firstPlayerWins({g->at("Deep", 110000)}) == true);
      CHECK(g->misere->firstPlayerWins({g->at("Deep", 109999)}) == false);
      auto move = g->misere->winningMove({g->at("Deep", 110000)});
      REQUIRE(move);
      CHECK(move->second.components == gdsl::Sum{g->at("Deep", 109999)});
    }
  }
}

TEST_CASE("misere: the quotient and the search give the same outcomes and winning moves",
          "[misere][quotient]") {
  // Sums of two to four heaps of one game, heaps up to 13: answered by the game's
  // quotient (runtime/GameQuotients.h) in one solver and by the search in the other.
  std::mt19937 rng(37);
  for (auto kind : backends()) {
    INFO("backend " << backendKindName(kind));
    auto quotient = makeGdsl(kind);
    auto search = makeGdsl(kind);
    search->misere->useQuotients(false);
    for (const char* game : {"Kayles", "Dawson", "Sub134", "Grundy"}) {
      for (int i = 0; i < 80; ++i) {
        gdsl::Sum sum;
        int parts = 2 + static_cast<int>(rng() % 3);
        for (int j = 0; j < parts; ++j) sum.push_back(search->at(game, 1 + rng() % 13));
        INFO(game << " sum " << i);
        bool wins = search->misere->firstPlayerWins(sum);
        REQUIRE(quotient->misere->firstPlayerWins(sum) == wins);
        auto a = quotient->misere->winningMove(sum);
        auto b = search->misere->winningMove(sum);
        REQUIRE(a.has_value() == b.has_value());
        if (a) {
          CHECK(a->first == b->first);
          CHECK(a->second.components == b->second.components);
        }
      }
    }
    // Every one of those sums was answered by a quotient.
    CHECK(quotient->misere->stats().states == 0);
  }
}
