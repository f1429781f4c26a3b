// Take-and-break games whose amounts have no bound (every k from some K on:
// Nim's `take 1..n`, Lasker's nim, all-but subtraction games; docs/heaps.md,
// "Amounts without bound"): recognised in `move` rules, computed by the
// solver, and their arithmetic periods proved. Families drawn at random are
// checked against the definition written out here, on both backends, far
// past each proof; and whenever the check proves a candidate (the game's own
// or a table changed from it), the theorem's induction step is verified by
// brute force past its heap. Also: eval's search for a winning move stops
// after a set number of moves and says so.
#include <catch2/catch.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Output.h"
#include "driver/Runner.h"
#include "driver/Session.h"
#include "runtime/Period.h"
#include "runtime/SaltusProof.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// A one-heap game: remove any k >= from except `excluded` (leaving a heap,
// and when `whole` also the whole heap; no such rule when `from` is 0), the
// amounts `extra` below `from` (any, when it is 0),
// the whole heap from `wholeFrom` on (0: no such rule), and splits into two
// heaps after removing each of `splits` (into unequal parts when `unequal`).
struct Family {
  int64_t from = 1;
  std::vector<int64_t> excluded, extra, splits;
  bool whole = true, unequal = false;
  // A condition on the split's parts (ir::SplitRule; not with `unequal`):
  // 0 none, 1 both odd, 2 each at least 2, 3 the smaller at most 3, 4
  // differing by at least 2.
  int condition = 0;
  std::string conditionText(int64_t c) const {
    const std::string b = "(n - " + std::to_string(c) + " - a)";
    switch (condition) {
      case 1:
        return " and a % 2 == 1 and " + b + " % 2 == 1";
      case 2:
        return " and a >= 2";
      case 3:
        return " and a <= 3";
      case 4:
        return " and " + b + " - a >= 2";
      default:
        return "";
    }
  }
  bool allows(int64_t a, int64_t b) const {
    switch (condition) {
      case 1:
        return a % 2 == 1 && b % 2 == 1;
      case 2:
        return a >= 2;
      case 3:
        return a <= 3;
      case 4:
        return b - a >= 2;
      default:
        return true;
    }
  }
  int64_t wholeFrom = 0;

  std::string source() const {
    std::string out = "game G(n) {\n";
    if (from > 0) {
      out += "  move t(k in " + std::to_string(from) + "..n" + (whole ? "" : " - 1") + ")";
      for (size_t i = 0; i < excluded.size(); ++i)
        out += (i ? " and k != " : " when k != ") + std::to_string(excluded[i]);
      out += " -> G(n - k)\n";
    }
    if (!extra.empty()) {
      out += "  move f(k in {";
      for (size_t i = 0; i < extra.size(); ++i) out += (i ? ", " : "") + std::to_string(extra[i]);
      out += "}) when k <= n -> G(n - k)\n";
    }
    if (wholeFrom > 0)
      out += "  move w(k in " + std::to_string(wholeFrom) + "..n) when k == n -> G(0)\n";
    for (int64_t c : splits)
      out += "  move s" + std::to_string(c) + "(a in 1..n - " + std::to_string(c) +
             " - 1) when a " + (unequal ? "<" : "<=") + " n - " + std::to_string(c) + " - a" +
             conditionText(c) + " -> G(a) + G(n - " + std::to_string(c) + " - a)\n";
    return out + "}\n";
  }

  bool excludes(int64_t k) const {
    return std::find(excluded.begin(), excluded.end(), k) != excluded.end();
  }

  // The option values of heap n, from the values of the smaller heaps.
  template <class F>
  std::vector<uint64_t> options(int64_t n, F g) const {
    // A move to no heap is worth 0 (not g(0): the induction test below
    // judges tables changed anywhere, heap 0 included).
    auto left = [&](int64_t x) { return x == 0 ? 0 : g(x); };
    std::vector<uint64_t> out;
    for (int64_t k = from; from > 0 && k <= (whole ? n : n - 1); ++k)
      if (!excludes(k)) out.push_back(left(n - k));
    for (int64_t k : extra)
      if (k <= n) out.push_back(left(n - k));
    if (wholeFrom > 0 && n >= wholeFrom) out.push_back(0);
    for (int64_t c : splits)
      for (int64_t a = 1; 2 * a <= n - c - (unequal ? 1 : 0); ++a)
        if (allows(a, n - c - a)) out.push_back(g(a) ^ g(n - c - a));
    return out;
  }

  brute::Table values(int64_t to) const {
    brute::Table g;
    for (int64_t n = 0; n <= to; ++n) {
      std::vector<uint64_t> o = options(n, [&](int64_t x) { return g[static_cast<size_t>(x)]; });
      std::vector<brute::Value> v(o.begin(), o.end());
      g.push_back(brute::mex(v));
    }
    return g;
  }

  // The shape, written out here from the rules (not by runtime/ShapeProbe.cpp).
  gdsl::ir::TakeBreakShape shape() const {
    gdsl::ir::TakeBreakShape s;
    int64_t largestExcluded = from - 1;
    for (int64_t e : excluded) largestExcluded = std::max(largestExcluded, e);
    s.oneFrom = from > 0 ? largestExcluded + 1 : 0;
    std::set<int64_t> one(extra.begin(), extra.end()), whole(extra.begin(), extra.end());
    for (int64_t k = from; k < s.oneFrom; ++k)
      if (!excludes(k)) one.insert(k);
    if (this->whole && from > 0) {
      s.wholeFrom = s.oneFrom;
      for (int64_t k = from; k < s.oneFrom; ++k)
        if (!excludes(k)) whole.insert(k);
    }
    if (wholeFrom > 0) s.wholeFrom = s.wholeFrom ? std::min(s.wholeFrom, wholeFrom) : wholeFrom;
    std::erase_if(whole, [&](int64_t k) { return s.wholeFrom && k >= s.wholeFrom; });
    s.one.assign(one.begin(), one.end());
    s.whole.assign(whole.begin(), whole.end());
    if (condition == 0) {
      (unequal ? s.twoUnequal : s.two).assign(splits.begin(), splits.end());
    } else {
      for (int64_t c : splits) {
        gdsl::ir::SplitRule r;
        r.k = c;
        if (condition == 1) r.parities = gdsl::ir::SplitRule::parityBit(1, 1);
        if (condition == 2) r.minPart = 2;
        if (condition == 3) r.maxPart = 3;
        if (condition == 4) r.minDiff = 2;
        s.twoWhere.push_back(r);
      }
    }
    for (const auto* v : {&s.one, &s.whole, &s.two, &s.twoUnequal})
      if (!v->empty()) s.maxTake = std::max(s.maxTake, v->back());
    for (const gdsl::ir::SplitRule& r : s.twoWhere) s.maxTake = std::max(s.maxTake, r.k);
    return s;
  }
};

Family randomFamily(std::mt19937& random) {
  Family f;
  f.from = 1 + random() % 4;
  for (int i = static_cast<int>(random() % 3); i > 0; --i)
    f.excluded.push_back(f.from + static_cast<int64_t>(random() % 6));
  for (int i = static_cast<int>(random() % 3); i > 0 && f.from > 1; --i)
    f.extra.push_back(1 + static_cast<int64_t>(random() % (f.from - 1)));
  std::sort(f.extra.begin(), f.extra.end());
  f.extra.erase(std::unique(f.extra.begin(), f.extra.end()), f.extra.end());
  f.whole = random() % 4 != 0;
  if (random() % 4 == 0) f.wholeFrom = 1 + random() % 8;
  if (random() % 2 == 0) f.splits.push_back(static_cast<int64_t>(random() % 3));
  f.unequal = random() % 2 == 0;
  if (random() % 2 == 0) {
    f.condition = 1 + static_cast<int>(random() % 4);
    f.unequal = false;
  }
  return f;
}

struct Proved {
  int64_t preperiod = 0, period = 0, saltus = 0, proofHeap = -1;
};

std::optional<Proved> provedPeriod(gdsl::Session& s, int to) {
  auto j = nlohmann::json::parse(s.runJson("period G(0.." + std::to_string(to) + ")"));
  if (j["period"].is_null() || !j["proved"].get<bool>()) return std::nullopt;
  return Proved{j["preperiod"].get<int64_t>(), j["period"].get<int64_t>(),
                j["saltus"].get<int64_t>(), j["proof_heap"].get<int64_t>()};
}

}  // namespace

TEST_CASE("Nim, Lasker's nim and all-but games are take-and-break with proved saltus",
          "[unbounded][saltus]") {
  struct Known {
    const char* source;
    int64_t preperiod, period, saltus;
  };
  const Known known[] = {
      {"game G(n) {\n  take 1..n\n}\n", 0, 1, 1},
      {"game G(n) {\n  take 1..n\n  split\n}\n", 1, 4, 4},  // Lasker's nim
      {"game G(n) {\n  move t(k in 1..n) when k != 2 and k != 5 -> G(n - k)\n}\n", 0, 4, 2},
      // Two odd parts: their xor is below their sum, so g(n) = n; proved with the
      // period taken as 2 (parity read from residues).
      {"game G(n) {\n  take 1..n\n  move s(a in 1..n - 1) when a % 2 == 1 and (n - a) % 2 == 1 "
       "-> G(a) + G(n - a)\n}\n",
       0, 1, 1},
  };
  for (const Known& k : known) {
    INFO(k.source);
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("g.game", k.source));
    const std::optional<Proved> p = provedPeriod(s, 2000);
    REQUIRE(p);
    CHECK(p->preperiod == k.preperiod);
    CHECK(p->period == k.period);
    CHECK(p->saltus == k.saltus);
    // `take 1..n` is read by the compiler (compiler/ir/TakeBreak.cpp), move
    // rules by the probe; both run the solver's set of heaps left.
    CHECK(s.tableReport().find("every removal of") != std::string::npos);
  }
  // Growing amounts that are not "every k from K on" stay with the kernel,
  // and --verbose says why.
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("g.game", "game G(n) {\n  take 1..n/2\n}\n"));
  CHECK(s.table("G", 0, 8) == std::vector<uint64_t>{0, 0, 1, 0, 2, 1, 3, 0, 4});
  CHECK(s.tableReport().find("only as every amount from a constant on") != std::string::npos);
}

TEST_CASE("a split's condition is read by the check's condition 1", "[unbounded][saltus]") {
  // F(n) = n with every amount from 1 on and a split of heap n (removing 0)
  // into parts a, b: a + b = a ^ b when they share no bit, so F is the
  // game's values only when no allowed split does that. Two odd parts never
  // do; two even parts (2 + 4) and parts of at least 2 (2 + 4) do.
  std::vector<uint32_t> nim(64);
  for (uint32_t i = 0; i < nim.size(); ++i) nim[i] = i;
  auto holds = [&](gdsl::ir::SplitRule rule) {
    gdsl::ir::TakeBreakShape shape;
    shape.oneFrom = shape.wholeFrom = 1;
    shape.twoWhere.push_back(rule);
    const gdsl::PeriodInfo candidate{0, 1, 1, false, 63};
    return gdsl::checkSaltus(shape, gdsl::TableView{nim.data(), true}, 64, candidate).holds;
  };
  gdsl::ir::SplitRule odd, even, atLeast2;
  odd.parities = gdsl::ir::SplitRule::parityBit(1, 1);
  even.parities = gdsl::ir::SplitRule::parityBit(0, 0);
  atLeast2.minPart = 2;
  CHECK(holds(odd));
  CHECK_FALSE(holds(even));
  CHECK_FALSE(holds(atLeast2));
  CHECK_FALSE(holds(gdsl::ir::SplitRule{}));  // any parts: 1 + 2 has the value 3
}

TEST_CASE("a whole heap taken from a size on keeps periods proved by Guy and Smith's theorem",
          "[unbounded]") {
  // Bounded amounts, and the whole heap from W on: Guy-Smith's induction
  // runs from W (docs/heaps.md); each period proved holds far past it.
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed + 2));
  int proved = 0;
  for (int trial = 0; trial < brute::scaled(12, 4); ++trial) {
    Family f;
    f.from = 0;
    f.wholeFrom = 2 + random() % 12;
    for (int i = 0; i < 3; ++i) f.extra.push_back(1 + static_cast<int64_t>(random() % 7));
    std::sort(f.extra.begin(), f.extra.end());
    f.extra.erase(std::unique(f.extra.begin(), f.extra.end()), f.extra.end());
    if (random() % 2) f.splits.push_back(static_cast<int64_t>(random() % 3));
    INFO(f.source());
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("g.game", f.source()));
    int to = 400;
    if (std::optional<Proved> p = provedPeriod(s, 3000)) {
      ++proved;
      to = static_cast<int>(std::max<int64_t>(to, 3 * p->proofHeap));
    }
    const brute::Table want = f.values(to);
    CHECK(s.table("G", 0, to) == std::vector<uint64_t>(want.begin(), want.end()));
  }
  // Counts over a few random games vary; at full scale (12 games) at least
  // two proved, where 100 seeds gave 4 or more.
  if (brute::testScale() == 1) CHECK(proved >= 2);
}

TEST_CASE("games with amounts without bound drawn at random have the definition's values",
          "[unbounded][saltus]") {
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed));
  int proved = 0, trials = brute::scaled(40, 6);
  for (int trial = 0; trial < trials; ++trial) {
    const Family f = randomFamily(random);
    INFO(f.source());
    int to = 400;
    for (gdsl::BackendKind kind : testing::backends()) {
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("g.game", f.source()));
      INFO(gdsl::backendKindName(kind));
      if (kind == gdsl::BackendKind::Interp)
        if (std::optional<Proved> p = provedPeriod(s, 1000)) {
          CHECK(p->saltus > 0);  // the values grow: no period without one
          to = static_cast<int>(std::max<int64_t>(to, 3 * p->proofHeap));
          ++proved;
        }
      const brute::Table want = f.values(to);
      CHECK(s.table("G", 0, to) == std::vector<uint64_t>(want.begin(), want.end()));
      CHECK(s.tableReport().find("every removal of") != std::string::npos);
    }
  }
  INFO(proved << " of " << trials << " proved");
  if (brute::testScale() == 1) CHECK(proved >= trials / 4);  // 100 seeds: half or more
}

TEST_CASE("the check's conditions make the induction step hold with amounts without bound",
          "[unbounded][saltus]") {
  // As for hexadecimal codes (saltus_test.cpp): each proved candidate, and
  // tables changed from it by one value, are judged by the check; whenever
  // it holds, the step is verified at every N of four periods past B: every
  // option of N valued by F (the heaps 1 .. N - K among them), the mex taken.
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed + 1));
  int held = 0, changedHeld = 0;
  for (int trial = 0; trial < brute::scaled(60, 8); ++trial) {
    const Family f = randomFamily(random);
    const brute::Table table = f.values(1500);
    std::vector<uint32_t> g32(table.begin(), table.end());
    std::optional<gdsl::PeriodInfo> found =
        gdsl::findPeriod(gdsl::TableView{g32.data(), true}, static_cast<int64_t>(g32.size()));
    if (!found || found->saltus == 0) continue;
    const int64_t n0 = found->preperiod, P = found->period, S = found->saltus;
    const gdsl::ir::TakeBreakShape shape = f.shape();
    for (int change = 0; change < 12; ++change) {
      std::vector<uint32_t> first(g32.begin(), g32.begin() + n0 + P);
      if (change > 0) {
        size_t at = random() % first.size();
        first[at] = change % 2 ? static_cast<uint32_t>(random() % (2 * S))
                               : first[at] ^ (1u << (random() % 3));
      }
      auto F = [&](int64_t x) -> uint64_t {
        if (x < n0 + P) return first[static_cast<size_t>(x)];
        return first[static_cast<size_t>(n0 + (x - n0) % P)] +
               static_cast<uint64_t>(S) * static_cast<uint64_t>((x - n0) / P);
      };
      gdsl::PeriodInfo candidate{n0, P, S, false, n0 + P - 1};
      const gdsl::SaltusProof proof =
          gdsl::checkSaltus(shape, gdsl::TableView{first.data(), true}, n0 + P, candidate);
      if (!proof.holds) continue;
      ++held;
      changedHeld += change > 0;
      for (int64_t N = proof.heaps; N < proof.heaps + 4 * P + 16; ++N) {
        std::vector<uint64_t> o = f.options(N, F);
        std::vector<brute::Value> v(o.begin(), o.end());
        INFO(f.source() << (change ? "with a changed table: " : "") << "heap " << N
                        << " (B = " << proof.heaps << ")");
        REQUIRE(brute::mex(v) == F(N));
      }
    }
  }
  INFO(held << " held, " << changedHeld << " of them for changed tables");
  if (brute::testScale() == 1) CHECK(held >= brute::scaled(60, 8) / 4);
}

TEST_CASE("eval's search for a winning move stops after a set number of moves", "[unbounded]") {
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("g.game", "game Nim(n) {\n  take 1..n\n}\n"));
  std::ostringstream out, err;
  std::unique_ptr<gdsl::Output> output =
      gdsl::makeJsonOutput(out, err, s.stack()->workspace().sources());
  gdsl::Runner runner(*s.stack(), *output);
  gdsl::Position p;
  p.game = 0;
  p.words.push_back(5000);
  // The winning move takes the whole heap: the last of Nim(5000)'s moves.
  runner.setWinningMoveSearch(4999);
  gdsl::EvalResult stopped = runner.eval(gdsl::Sum{p});
  CHECK(stopped.grundy == 5000);
  CHECK(!stopped.move);
  CHECK(stopped.moveSearchStopped == 4999);
  runner.setWinningMoveSearch(5000);
  gdsl::EvalResult found = runner.eval(gdsl::Sum{p});
  REQUIRE(found.move);
  CHECK(found.move->to == "Nim(0)");
  CHECK(found.moveSearchStopped == 0);
}
