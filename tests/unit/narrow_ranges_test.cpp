// Range narrowing (compiler/ir/NarrowRanges.cpp): random `move` rules whose
// binder range is followed by guards, against a brute force that walks the
// whole range and tests the guard as written, on both backends; a huge range
// is narrowed in the IR; a runtime error before the bound still happens.
#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Program.h"
#include "driver/Session.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// One condition of a guard: its gdsl text and what it says about k at heap n.
struct Atom {
  std::string text;
  std::function<bool(int k, int n)> holds;
};

std::vector<Atom> atoms(int c) {
  std::string C = std::to_string(c);
  return {
      {"k >= " + C, [c](int k, int) { return k >= c; }},
      {"k > " + C, [c](int k, int) { return k > c; }},
      {C + " < k", [c](int k, int) { return c < k; }},
      {C + " >= k", [c](int k, int) { return c >= k; }},
      {"k < n", [](int k, int n) { return k < n; }},
      {"k != " + C, [c](int k, int) { return k != c; }},
      {"k == " + C, [c](int k, int) { return k == c; }},
      {"k <= max(n - 3, " + C + ")", [c](int k, int n) { return k <= std::max(n - 3, c); }},
      {"(k ^ n) != " + C, [c](int k, int n) { return (k ^ n) != c; }},
      {"k % 3 != 1", [](int k, int) { return k % 3 != 1; }},  // a Mod: ends narrowing
      {"(k < min(n, " + C + ") or k == n)",
       [c](int k, int n) { return k < std::min(n, c) || k == n; }},
  };
}

// The rule keeps k <= n (so n - k >= 0) in one of these forms.
std::vector<Atom> keepers() {
  return {
      {"k <= n", [](int k, int n) { return k <= n; }},
      {"n >= k", [](int k, int n) { return n >= k; }},
      {"k < n + 1", [](int k, int n) { return k < n + 1; }},  // not a bound (n + 1)
      {"k <= min(n, 40)", [](int k, int n) { return k <= std::min(n, 40); }},
  };
}

}  // namespace

TEST_CASE("narrowed binder ranges give the values of the rules as written") {
  std::mt19937 random(11);
  const int maxN = 60;
  // Each trial compiles a JIT module: under sanitizers, a third of the trials.
  const int trials = brute::scaled(60, 10);
  for (int trial = 0; trial < trials; ++trial) {
    int lo = 1 + static_cast<int>(random() % 3);
    int hi = static_cast<int>(random() % 2) ? 1000000 : 5 + static_cast<int>(random() % 40);
    std::vector<Atom> chosen;
    int count = 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < count; ++i) {
      std::vector<Atom> all = atoms(static_cast<int>(random() % 8));
      chosen.push_back(all[random() % all.size()]);
    }
    std::vector<Atom> keep = keepers();
    chosen.insert(chosen.begin() + static_cast<long>(random() % (chosen.size() + 1)),
                  keep[random() % keep.size()]);
    std::string guard = " when " + chosen[0].text;
    for (size_t i = 1; i < chosen.size(); ++i) guard += " and " + chosen[i].text;
    std::string source = "game G(n) {\n  move m(k in " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ")" + guard + " -> G(n - k)\n}\n";
    INFO(source);

    brute::Table expected(maxN + 1);
    for (int n = 0; n <= maxN; ++n) {
      std::vector<brute::Value> options;
      for (int k = lo; k <= std::min(hi, 200); ++k) {  // k > n is rejected by the keeper
        bool ok = true;
        for (const Atom& a : chosen) ok = ok && a.holds(k, n);
        if (ok) options.push_back(expected[n - k]);
      }
      expected[n] = brute::mex(options);
    }
    for (gdsl::BackendKind kind : testing::backends()) {
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("narrow.game", source));
      std::vector<uint64_t> got = s.table("G", 0, maxN);
      CHECK(std::vector<brute::Value>(got.begin(), got.end()) == expected);
    }
  }
}

TEST_CASE("a huge binder range is narrowed by the guard after it") {
  gdsl::Workspace w;
  std::string ir;
  REQUIRE(w.load("huge.game", "",
                 "game T(n) { move m(k in 1..1000000000000000000) when k <= n -> T(n - k) }\n",
                 gdsl::DumpStage::Ir, &ir));
  CHECK(ir.find("for k:i1 in 1 .. (min 1000000000000000000 i0)") != std::string::npos);
  // A bound that reads a later binder, or follows another binder, is not used.
  gdsl::Workspace later;
  REQUIRE(later.load("later.game", "",
                     "game U(n) { move m(k in 1..1000, j in 1..k) when j <= n and k <= n - j "
                     "-> U(n - k - j) }\n",
                     gdsl::DumpStage::Ir, &ir));
  CHECK(ir.find("for k:i1 in 1 .. 1000\n") != std::string::npos);
  CHECK(ir.find("for j:i2 in 1 .. (min i1 i0)") != std::string::npos);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("huge.game",
                   "game T(n) { move m(k in 1..1000000000000000000) when k <= n -> T(n - k) }\n"));
    CHECK(s.table("T", 0, 2000) == [] {
      std::vector<uint64_t> nim;
      for (uint64_t n = 0; n <= 2000; ++n) nim.push_back(n);
      return nim;
    }());
  }
}

TEST_CASE("a runtime error before the bound is not skipped") {
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    // k = 3 divides by zero before `k <= n` is tested, even when n < 3.
    REQUIRE(s.load("first.game",
                   "game G(n) { move m(k in 1..10) when 10 / (k - 3) >= 0 and k <= n -> G(n - k) "
                   "}\n"));
    CHECK_THROWS_WITH(s.grundy("G(2)"), Catch::Contains("division by zero"));
    // After the bound, k = 3 is never reached when n < 3: no error, as written.
    gdsl::Session t{gdsl::StackOptions(kind)};
    REQUIRE(t.load("second.game",
                   "game G(n) { move m(k in 1..10) when k <= n and 10 / (k - 3) >= 0 -> G(n - k) "
                   "}\n"));
    CHECK(t.grundy("G(2)") == 0);  // no move: 10 / (k - 3) < 0 for k = 1, 2
  }
}
