// Differential test: random games (random domains, guards with comprehensions
// and folds, lets, sums of one or two terms, one to three parameters or a list,
// some that fail at run time) run on the interpreter with the hashed search only,
// on the interpreter's native search (over compiled moves, and walking the IR) and
// on the JIT, compared value by value and error by error.
// Every run draws new games; the seed is printed with any failure.
#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>

#include "backend/interp/Interpreter.h"
#include "driver/Session.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

class GameGenerator {
 public:
  explicit GameGenerator(uint64_t seed) : rng_(seed) {}

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(int percent) { return pick(1, 100) <= percent; }

  // A condition over the names in `vars`.
  std::string guard(const std::vector<std::string>& vars) {
    const std::string& a = vars[static_cast<size_t>(pick(0, static_cast<int>(vars.size()) - 1))];
    const std::string& b = vars[static_cast<size_t>(pick(0, static_cast<int>(vars.size()) - 1))];
    std::string g;
    switch (pick(0, 11)) {
      case 0:
        g = a + " % " + std::to_string(pick(2, 5)) + " != " + std::to_string(pick(0, 1));
        break;
      case 1:
        g = "(" + a + " ^ " + b + ") & 1 == 0";
        break;
      case 2:
        g = a + " * " + std::to_string(pick(1, 3)) + " <= " + b + " + " +
            std::to_string(pick(0, 4));
        break;
      case 3:
        g = a + " != " + b + " / 2";
        break;
      case 4:
        g = "not " + a + " in {1, 2, 5, 8}";
        break;
      case 5:
        g = "min(" + a + ", " + b + ") >= " + std::to_string(pick(0, 3));
        break;
      // Comprehensions and folds (u is no other name of the generated games).
      case 6:
        g = "count(u % 2 == 0 for u in 0.." + a + ") <= " + b;
        break;
      case 7:
        g = "any(u * u == " + a + " for u in 0.." + b + ")";
        break;
      case 8:
        g = "sum(u for u in 0.." + a + " if u % 3 == 1) % 4 != " + b + " % 4";
        break;
      case 9:
        g = "popcount(" + a + ") <= popcount(" + b + ") + " + std::to_string(pick(0, 1));
        break;
      case 10:
        g = "len([u for u in bits(" + a + ") if u > 0]) != " + b + " % 3";
        break;
      default:
        g = "all(u <= " + a + " for u in [" + b + ", " + std::to_string(pick(0, 3)) + "])";
        break;
    }
    if (chance(25))
      g = "(" + g + ") " + (chance(50) ? "and " : "or ") + a + " > " + std::to_string(pick(0, 2));
    return g;
  }

  // A one-heap game named `name`. Every successor heap is below n.
  std::string oneHeap(const std::string& name, bool risky) {
    std::ostringstream out;
    out << "game " << name << "(n) {\n";
    int moves = pick(1, 3);
    for (int m = 0; m < moves; ++m) {
      std::string domain;
      switch (pick(0, 3)) {
        case 0:
          domain = "1..n";
          break;
        case 1:
          domain = "1..min(n, " + std::to_string(pick(1, 6)) + ")";
          break;
        case 2:
          domain = "{1, " + std::to_string(pick(2, 4)) + ", " + std::to_string(pick(5, 9)) + "}";
          break;
        default:
          domain = "[" + std::to_string(pick(1, 3)) + ", " + std::to_string(pick(1, 7)) + "]";
          break;
      }
      out << "  move m" << m << "(k in " << domain;
      if (domain[0] == '{' || domain[0] == '[') out << " when k <= n";
      if (chance(40))
        out << ", let j = (n - k) % " << pick(2, 7);
      else
        out << ", let j = (n - k) / " << pick(2, 3);
      out << ")";
      if (chance(60)) out << " when " << guard({"n", "k", "j"});
      out << " -> " << name << "(n - k)";
      if (chance(50)) out << " + " << name << "(j)";
      if (risky && chance(30)) out << " + " << name << "(n / (k - " << pick(1, 3) << ") % n)";
      out << "\n";
    }
    if (chance(20))
      out << "  move half(a in 1..n / 2) -> " << name << "(a) + " << name << "(n - a)\n";
    out << "}\n";
    return out.str();
  }

  // A two-parameter game; every move lowers a + b.
  std::string twoHeap(const std::string& name, bool risky) {
    std::ostringstream out;
    out << "game " << name << "(a, b) {\n";
    if (chance(30)) out << "  normalize -> " << name << "(min(a, b), max(a, b))\n";
    out << "  move left(k in 1..a) when " << guard({"a", "b", "k"}) << " -> " << name
        << "(a - k, b)\n";
    out << "  move right(k in 1..min(b, " << pick(2, 6) << ")) -> " << name << "(a, b - k)";
    if (chance(40)) out << " + " << name << "(k - 1, a % " << pick(2, 4) << ")";
    out << "\n";
    if (chance(50))
      out << "  move both(k in 1..min(a, b), let c = a + b - 2 * k) when c % " << pick(2, 3)
          << " == 0 -> " << name << "(a - k, b - k)\n";
    if (chance(30))
      out << "  move spread(k in 1..a) -> (sum " << name << "(i, 0) for i in 0..k - 1) + " << name
          << "(a - k, b)\n";
    if (risky && chance(30))
      out << "  move risky when a > 1 -> " << name << "(a - 1, b / (a - 2))\n";
    out << "}\n";
    return out.str();
  }

  // A three-parameter game; every move lowers a + b + c.
  std::string threeHeap(const std::string& name) {
    std::ostringstream out;
    out << "game " << name << "(a, b, c) {\n";
    if (chance(30)) out << "  normalize -> " << name << "(max(a, b), min(a, b), c)\n";
    out << "  move cut(k in 1..a) when " << guard({"a", "b", "c", "k"}) << " -> " << name
        << "(a - k, b, c)\n";
    out << "  move turn(k in 1..min(c, " << pick(1, 3) << ")) -> " << name << "(c - k, a, b)\n";
    if (chance(50))
      out << "  move halve(k in 1..b - 1) -> " << name << "(k, 0, c) + " << name << "(b - k, a % "
          << pick(2, 3) << ", 0)\n";
    out << "}\n";
    return out.str();
  }

  // A game on a list h; every move lowers the sum of h (the staircase move keeps
  // it and lowers the sum of i * h[i]), so positions never repeat.
  std::string listGame(const std::string& name, bool risky) {
    std::ostringstream out;
    out << "game " << name << "(h: list) {\n";
    // Sorting could undo a staircase move (a cycle), so a game has one or neither.
    bool sorted = chance(40);
    if (sorted) out << "  normalize -> " << name << "(sort(h))\n";
    out << "  move lower(i in 0..len(h) - 1, x in 0..h[i] - 1)";
    if (chance(60)) out << " when " << guard({"i", "x", "len(h)"});
    out << " -> " << name << "(set(h, i, x))\n";
    if (chance(50))
      out << "  move pair(i in 0..len(h) - 1, j in i + 1..len(h) - 1, x in 0..h[i] - 1) -> " << name
          << "(set(set(h, i, x), j, (h[j] + x) % (h[j] + 1)))\n";
    if (!sorted && chance(50))
      out << "  move down(i in 1..len(h) - 1, t in 1..h[i]) -> " << name
          << "(set(set(h, i, h[i] - t), i - 1, h[i - 1] + t))\n";
    if (chance(40))
      out << "  move halves(i in 0..len(h) - 1 when h[i] >= 2, a in 1..h[i] / 2) -> " << name
          << "(set(h, i, a - 1)) + " << name << "(set(h, i, h[i] - a))\n";
    // A new list, of two numbers or of sixteen (which does not pack).
    if (chance(40))
      out << "  move fresh(i in 0..len(h) - 1 when h[i] >= " << pick(2, 3) << ") -> " << name
          << "([h[i] - 2, " << (chance(50) ? "0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, " : "")
          << pick(0, 1) << "])\n";
    if (risky) {
      if (chance(50))
        out << "  move bad(i in 0..len(h) - 1 when h[i] > 0) -> " << name << "(set(h, i, h[i] - "
            << pick(2, 3) << "))\n";
      else
        out << "  move far(i in 0..len(h) - 1 when h[i] > 2) -> " << name << "(set(h, i + 1, 0))\n";
    }
    out << "}\n";
    return out.str();
  }

 private:
  std::mt19937_64 rng_;
};

// Positions valued and positions that gave an error, in a differential test.
struct Tally {
  int values = 0, errors = 0;
  void count(const std::string& outcome) {
    (outcome.rfind("error", 0) == 0 ? errors : values) += 1;
  }
};

}  // namespace

TEST_CASE("interpreter and JIT agree on 200 random games", "[differential]") {
  uint64_t seed = brute::testSeed();
  INFO("seed " << seed);
  GameGenerator gen(seed);
  // Under sanitizers (GDSL_TEST_SCALE) a quarter of the programs: each
  // compiles a JIT module. The seed changes every run.
  const int programs = brute::scaled(20, 5);
  int games = 0;
  Tally safe, risky;  // apart, as in the list games' test below
  for (int program = 0; program < programs; ++program) {
    std::ostringstream source;
    std::vector<std::tuple<std::string, int, bool>> names;  // name, parameters, risky
    for (int g = 0; g < 10; ++g, ++games) {
      std::string name = "G" + std::to_string(g);
      int params = gen.chance(40) ? 2 : gen.chance(25) ? 3 : 1;
      bool risky = gen.chance(15);
      source << (params == 3   ? gen.threeHeap(name)
                 : params == 2 ? gen.twoHeap(name, risky)
                               : gen.oneHeap(name, risky));
      names.emplace_back(name, params, risky);
    }
    INFO(source.str());
    // The interpreter with the default engine (take-and-break shapes it
    // recognises are computed natively) against the JIT's kernels for every
    // value (--plain): the two share no value code.
    // The interpreter with the hashed search only (no native search) is the reference.
    gdsl::StackOptions interpOptions(gdsl::BackendKind::Interp);
    interpOptions.engine.native = false;
    gdsl::Session interp(interpOptions);
    gdsl::StackOptions jitOptions(gdsl::BackendKind::Jit);
    jitOptions.engine.plain = true;
    gdsl::Session jit(jitOptions);
    gdsl::Session interpNative{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    // The interpreter's native search walking the IR instead of running the
    // games' compiled moves (backend/interp/MoveCode.h).
    gdsl::Session interpWalked{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(interp.load("random.game", source.str()));
    REQUIRE(jit.load("random.game", source.str()));
    REQUIRE(interpNative.load("random.game", source.str()));
    REQUIRE(interpWalked.load("random.game", source.str()));
    dynamic_cast<gdsl::Interpreter&>(interpWalked.stack()->backend()).setCompiledMoves(false);
    for (const auto& [name, params, riskyGame] : names) {
      std::vector<std::string> positions;
      if (params == 1) {
        for (int n = 0; n <= 40; ++n) positions.push_back(name + "(" + std::to_string(n) + ")");
        positions.push_back(name + "(7) + " + name + "(12)");
      } else if (params == 3) {
        for (int a = 0; a <= 4; ++a)
          for (int b = 0; b <= 4; ++b)
            for (int c = 0; c <= 4; ++c)
              positions.push_back(name + "(" + std::to_string(a) + ", " + std::to_string(b) + ", " +
                                  std::to_string(c) + ")");
      } else {
        for (int a = 0; a <= 7; ++a)
          for (int b = 0; b <= 7; ++b)
            positions.push_back(name + "(" + std::to_string(a) + ", " + std::to_string(b) + ")");
        positions.push_back(name + "(3, 4) + " + name + "(5, 1)");
      }
      for (const std::string& p : positions) {
        INFO(p);
        std::string expected = testing::outcome(interp, p);
        REQUIRE(expected == testing::outcome(jit, p));
        REQUIRE(expected == testing::outcome(interpNative, p));
        REQUIRE(expected == testing::outcome(interpWalked, p));
        (riskyGame ? risky : safe).count(expected);
      }
    }
  }
  CHECK(games == 10 * programs);
  // The generator must give mostly real games, and its risky ones some
  // runtime errors.
  INFO("safe games: " << safe.values << " values, " << safe.errors << " errors; risky games: "
                      << risky.values << " values, " << risky.errors << " errors");
  CHECK(safe.values > 5 * safe.errors);
  CHECK(safe.values + risky.values > 250 * programs);
}

// Lists are searched natively over packed keys (runtime/ListKey.h): short
// lists pack, a list of 16 numbers does not (the hashed search takes over,
// at the root or at a successor), and errors come from the hashed search.
TEST_CASE("interpreter and JIT agree on 60 random list games", "[differential]") {
  uint64_t seed = brute::testSeed();
  INFO("seed " << seed);
  GameGenerator gen(seed);
  std::vector<std::string> lists;
  std::vector<int> h;
  auto text = [](const std::vector<int>& l) {
    std::string out = "[";
    for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + std::to_string(l[i]);
    return out + "]";
  };
  // Every list of up to three numbers 0..3, some of four, and long ones.
  std::function<void(size_t)> all = [&](size_t length) {
    if (h.size() == length) {
      lists.push_back(text(h));
      return;
    }
    for (int x = 0; x <= 3; ++x) {
      h.push_back(x);
      all(length);
      h.pop_back();
    }
  };
  for (size_t length = 0; length <= 3; ++length) all(length);
  lists.insert(lists.end(), {"[4, 0, 2, 3]", "[1, 1, 1, 1]", "[3, 0, 0, 5]", "[2, 9]",
                             "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3]",
                             "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]"});
  // Under sanitizers (GDSL_TEST_SCALE) one program (five games, a new seed each
  // run): each takes about 25 s there.
  const int programs = brute::testScale() > 1 ? 1 : 12;
  // Counted apart for the games with a risky move (a few of them by chance)
  // and the others, so that the check on the generator does not depend on
  // how many risky games a seed draws.
  Tally safe, risky;
  for (int program = 0; program < programs; ++program) {
    std::ostringstream source;
    std::vector<bool> riskyGame;
    for (int g = 0; g < 5; ++g) {
      riskyGame.push_back(gen.chance(12));
      source << gen.listGame("L" + std::to_string(g), riskyGame.back());
    }
    INFO(source.str());
    gdsl::StackOptions interpOptions(gdsl::BackendKind::Interp);
    interpOptions.engine.native = false;
    gdsl::Session interp(interpOptions);
    gdsl::Session jit{gdsl::StackOptions(gdsl::BackendKind::Jit)};
    gdsl::Session interpNative{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    // The interpreter's native search walking the IR instead of running the
    // games' compiled moves (backend/interp/MoveCode.h).
    gdsl::Session interpWalked{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(interp.load("random.game", source.str()));
    REQUIRE(jit.load("random.game", source.str()));
    REQUIRE(interpNative.load("random.game", source.str()));
    REQUIRE(interpWalked.load("random.game", source.str()));
    dynamic_cast<gdsl::Interpreter&>(interpWalked.stack()->backend()).setCompiledMoves(false);
    for (int g = 0; g < 5; ++g) {
      std::string name = "L" + std::to_string(g);
      for (const std::string& l : lists) {
        std::string p = name + "(" + l + ")";
        if (l == lists.front()) p += " + " + name + "([2, 1])";
        INFO(p);
        std::string expected = testing::outcome(interp, p);
        REQUIRE(expected == testing::outcome(jit, p));
        REQUIRE(expected == testing::outcome(interpNative, p));
        REQUIRE(expected == testing::outcome(interpWalked, p));
        (riskyGame[g] ? risky : safe).count(expected);
      }
    }
  }
  // The games without a risky move give mostly values, and the risky ones
  // fail on many of their lists.
  INFO("safe games: " << safe.values << " values, " << safe.errors << " errors; risky games: "
                      << risky.values << " values, " << risky.errors << " errors");
  CHECK(safe.values > 3 * safe.errors);
  CHECK(safe.values + risky.values > 100 * programs);
  if (risky.values + risky.errors > 0) CHECK(risky.errors > 0);
}

// The JIT keeps a successor built from the list of its search by `set`, `sort`
// and list literals as numbers, sorts it by a network of min and max, and packs
// it without a loop (backend/jit/CodegenSearch.cpp, searchedFixedValue): every length
// 1..15 has its own network and key widths. The moves depend on the indices, so
// a list the network leaves unsorted would be valued by other moves than the
// sorted one the interpreter values.
TEST_CASE("the JIT's lists of every packed length agree with the interpreter", "[differential]") {
  const std::string source = R"(
game S(h: list) {
  normalize -> S(sort(h))
  move lower(i in 0..len(h) - 1, x in 0..h[i] - 1) when (i + x) % 3 != 1 -> S(set(h, i, x))
  move two(i in 0..len(h) - 2, x in 0..h[i] - 1) when i % 2 == 0
    -> S(set(set(h, i, x), i + 1, max(h[i + 1] - 1, 0)))
  move short when len(h) > 2 and h[0] + h[1] > 0 -> S([h[0] + h[1] - 1, 0])
}
game U(h: list) {
  move lower(i in 0..len(h) - 1, x in 0..h[i] - 1) when (i * x) % 4 != 3 -> U(set(h, i, x))
  move swap(i in 1..len(h) - 1) when h[i] > h[i - 1] + 1
    -> U(set(set(h, i, h[i - 1]), i - 1, h[i] - 2))
}
game N(h: list) {
  normalize -> N(sort(h))
  move bad(i in 0..len(h) - 1 when h[i] > 0) -> N(set(h, i, h[i] - 2))
}
game W(h: list) {
  move wide(i in 0..len(h) - 1 when h[i] > 0) -> W(set(h, i, h[i] * 1000000 - 1))
}
)";
  gdsl::StackOptions interpOptions(gdsl::BackendKind::Interp);
  interpOptions.engine.native = false;
  gdsl::Session interp(interpOptions);
  gdsl::Session jit{gdsl::StackOptions(gdsl::BackendKind::Jit)};
  REQUIRE(interp.load("lists.game", source));
  REQUIRE(jit.load("lists.game", source));
  int values = 0, errors = 0;
  for (int n = 1; n <= 15; ++n) {
    // Numbers 0..3 in an order that is not sorted; U's lists hold fewer moves.
    std::string mixed = "[", ones = "[";
    for (int i = 0; i < n; ++i) {
      mixed += (i ? ", " : "") + std::to_string((i * 7 + n) % 4);
      ones += (i ? ", " : "") + std::to_string(i % 3 == 0 ? 2 : 0);
    }
    mixed += "]";
    ones += "]";
    for (const std::string& p : {"S(" + mixed + ")", "U(" + ones + ")", "N(" + mixed + ")",
                                 "W(" + ones + ")", "S(" + mixed + ") + U(" + ones + ")"}) {
      INFO(p);
      std::string expected = testing::outcome(interp, p);
      REQUIRE(expected == testing::outcome(jit, p));
      (expected.rfind("error", 0) == 0 ? errors : values) += 1;
    }
  }
  // S and U are games at every length; N fails (a negative heap) wherever a
  // heap is 1, W wherever its numbers stop packing.
  INFO(values << " values, " << errors << " errors");
  CHECK(values >= 45);
  CHECK(errors >= 15);
}
