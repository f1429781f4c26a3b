// Normalize rules (runtime/PositionBuilder.cpp): a rule that only sorts list parameters runs
// as a sort of the words, and must give exactly what the evaluator gives for the same rule
// written so that it takes the evaluator's path; the list games of the differential check
// agree on both backends with a brute force.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "driver/Program.h"
#include "driver/Session.h"
#include "runtime/PositionBuilder.h"
#include "test_backends.h"

namespace {

// S sorts h and k in place (the fast path); E does the same through the evaluator (its rule
// is not a bare sort of each parameter: `sort(sort(h))`).
const char* kSource = R"(
game S(h: list, n, k: list) {
  normalize -> S(sort(h), n, sort(k))
}
game E(h: list, n, k: list) {
  normalize -> E(sort(sort(h)), n, sort(k))
}
)";

gdsl::Position make(int game, const std::vector<int64_t>& h, int64_t n,
                    const std::vector<int64_t>& k) {
  gdsl::Position p;
  p.game = static_cast<uint32_t>(game);
  p.words.push_back(static_cast<int64_t>(h.size()));
  for (int64_t x : h) p.words.push_back(x);
  p.words.push_back(n);
  p.words.push_back(static_cast<int64_t>(k.size()));
  for (int64_t x : k) p.words.push_back(x);
  return p;
}

}  // namespace

TEST_CASE("a normalize rule that only sorts gives the evaluator's words") {
  std::string errors;
  auto ws = gdsl::compileProgram("n.game", kSource, errors);
  INFO(errors);
  REQUIRE(ws);
  gdsl::PositionBuilder builder(ws->program());
  int s = ws->program().findGame("S"), e = ws->program().findGame("E");
  std::mt19937 rng(3);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<int64_t> h(rng() % 6), k(rng() % 4);
    for (int64_t& x : h) x = rng() % 9;
    for (int64_t& x : k) x = rng() % 1000000007;
    int64_t n = rng() % 50;
    gdsl::Position fast = make(s, h, n, k), slow = make(e, h, n, k);
    builder.normalize(fast);
    builder.normalize(slow);
    CHECK(fast.words == slow.words);
    std::sort(h.begin(), h.end());
    std::sort(k.begin(), k.end());
    CHECK(fast.words == make(s, h, n, k).words);
  }
}

TEST_CASE("Moore's Nim_2 on sorted lists against a brute force, both backends") {
  // Reduce one heap, or two heaps at once; g = mex over the options (sorted lists).
  std::map<std::vector<int>, int> memo;
  std::function<int(std::vector<int>)> brute = [&](std::vector<int> h) {
    std::sort(h.begin(), h.end());
    if (auto it = memo.find(h); it != memo.end()) return it->second;
    std::vector<int> seen;
    for (size_t i = 0; i < h.size(); ++i)
      for (int x = 0; x < h[i]; ++x) {
        std::vector<int> o = h;
        o[i] = x;
        seen.push_back(brute(o));
        for (size_t j = i + 1; j < h.size(); ++j)
          for (int y = 0; y < h[j]; ++y) {
            std::vector<int> t = o;
            t[j] = y;
            seen.push_back(brute(t));
          }
      }
    std::sort(seen.begin(), seen.end());
    int m = 0;
    for (int v : seen)
      if (v == m) ++m;
    return memo[h] = m;
  };
  const char* source = R"(
game M(h: list) {
  normalize -> M(sort(h))
  move one(i in 0..len(h)-1, x in 0..h[i]-1) -> M(set(h, i, x))
  move two(i in 0..len(h)-1, j in i+1..len(h)-1, x in 0..h[i]-1, y in 0..h[j]-1)
    -> M(set(set(h, i, x), j, y))
}
)";
  for (gdsl::BackendKind backend : testing::backends()) {
    INFO(gdsl::backendKindName(backend));
    gdsl::Session session{gdsl::StackOptions(backend)};
    REQUIRE(session.load("m.game", source));
    for (std::vector<int> h : std::vector<std::vector<int>>{
             {7, 3, 5}, {0, 0}, {9, 9, 1, 2}, {4}, {6, 2, 6, 1}, {3, 8, 8}}) {
      std::string text = "M([";
      for (size_t i = 0; i < h.size(); ++i) text += (i ? ", " : "") + std::to_string(h[i]);
      INFO(text);
      CHECK(session.grundy(text + "])") == static_cast<uint64_t>(brute(h)));
    }
  }
}
