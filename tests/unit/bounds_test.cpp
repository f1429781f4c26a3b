// compiler/ir/Bounds.h: the linear bounds the JIT drops checks on. Each claim is tested against
// the reference evaluator: random expressions over parameters and loop variables, evaluated at
// random parameter values (and values of the loop variables in their ranges), must lie within
// every bound the analysis gives, and every proof (at least k, at most a parameter, small) must
// hold of the value. Then the cases the JIT relies on are checked to be proved.
#include "compiler/ir/Bounds.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "compiler/ir/Evaluator.h"
#include "driver/Program.h"

namespace {

using gdsl::ir::Bounds;
using gdsl::ir::BoundsEnv;
using gdsl::ir::Expr;
using gdsl::ir::LinearForm;
using gdsl::ir::Op;

Expr leaf(Op op, int64_t imm) {
  Expr e;
  e.op = op;
  e.imm = imm;
  return e;
}
Expr node(Op op, std::vector<Expr> kids) {
  Expr e;
  e.op = op;
  e.kids = std::move(kids);
  return e;
}

// A random integer expression over int slots 0..slots-1, `depth` deep.
Expr randomExpr(std::mt19937_64& rng, int slots, int depth) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  if (depth == 0 || pick(4) == 0)
    return pick(3) == 0 ? leaf(Op::IntConst, pick(9) - 3) : leaf(Op::IntVar, pick(slots));
  auto sub = [&] { return randomExpr(rng, slots, depth - 1); };
  switch (pick(10)) {
    case 0:
      return node(Op::Add, {sub(), sub()});
    case 1:
      return node(Op::Sub, {sub(), sub()});
    case 2:
      return node(Op::Neg, {sub()});
    case 3:
      return node(Op::Mul, {sub(), leaf(Op::IntConst, pick(7) - 3)});
    case 4:
      return node(Op::Div, {sub(), leaf(Op::IntConst, pick(4) + 1)});
    case 5:
      return node(Op::Mod, {sub(), leaf(Op::IntConst, pick(4) + 1)});
    case 6:
      return node(Op::Min, {sub(), sub()});
    case 7:
      return node(Op::Max, {sub(), sub(), sub()});
    case 8:
      return node(Op::BitAnd, {sub(), sub()});
    default:
      return node(Op::Abs, {sub()});
  }
}

// The exact value of form f at the parameters `p`, compared with v: sign of f(p) - v.
int compare(const LinearForm& f, const std::vector<int64_t>& p, int64_t v) {
  __int128 x = f.c0;
  for (size_t i = 0; i < p.size(); ++i) x += static_cast<__int128>(f.c[i]) * p[i];
  __int128 w = static_cast<__int128>(v) * f.den;
  return x < w ? -1 : x > w ? 1 : 0;
}

}  // namespace

TEST_CASE("bounds: every bound and proof holds of the evaluated value") {
  gdsl::ir::Program program;
  gdsl::ir::ListArena arena;
  gdsl::ir::Evaluator eval(program, arena);
  std::mt19937_64 rng(20261202);
  constexpr int kParams = 2, kSlots = 4;  // slots 0, 1: parameters; 2, 3: loop variables
  int checked = 0, proofs = 0;
  for (int round = 0; round < 3000; ++round) {
    bool ordered = round % 3 == 0;  // parameter 0 <= parameter 1
    BoundsEnv env(kParams, 1000);
    if (ordered) env.setOrder({0, 1});
    env.setParam(0, 0);
    env.setParam(1, 1);
    // Loop variables 2 and 3 over ranges of expressions of the parameters.
    Expr lo2 = randomExpr(rng, 2, 2), hi2 = randomExpr(rng, 2, 2);
    Bounds var2 = env.range(lo2, hi2);
    env.set(2, var2);
    env.assumeNonEmpty(var2);
    Expr lo3 = randomExpr(rng, 3, 2), hi3 = randomExpr(rng, 3, 2);
    Bounds var3 = env.range(lo3, hi3);
    env.set(3, var3);
    env.assumeNonEmpty(var3);
    Expr e = randomExpr(rng, kSlots, 4);
    Bounds b = env.of(e);
    bool atLeast0 = env.atLeast(b, 0), atMost0 = env.atMostParam(b, 0, 0),
         atMost1 = env.atMostParam(b, 1, -1), small = env.small(b);
    proofs += atLeast0 + atMost0 + atMost1;
    for (int sample = 0; sample < 40; ++sample) {
      int64_t f[kSlots];
      f[0] = static_cast<int64_t>(rng() % 60);
      f[1] = static_cast<int64_t>(rng() % 60);
      if (sample % 5 == 0) f[0] = 1000, f[1] = 1000;
      if (ordered && f[0] > f[1]) std::swap(f[0], f[1]);
      gdsl::ir::Frame frame{f, nullptr};
      int64_t l2 = 0, h2 = 0, l3 = 0, h3 = 0, v = 0;
      try {
        l2 = eval.evalInt(lo2, frame);
        h2 = eval.evalInt(hi2, frame);
        if (l2 > h2) continue;  // the loop does not run
        f[2] = l2 + static_cast<int64_t>(rng() % static_cast<uint64_t>(h2 - l2 + 1));
        l3 = eval.evalInt(lo3, frame);
        h3 = eval.evalInt(hi3, frame);
        if (l3 > h3) continue;
        f[3] = l3 + static_cast<int64_t>(rng() % static_cast<uint64_t>(h3 - l3 + 1));
        v = eval.evalInt(e, frame);
      } catch (const gdsl::RuntimeError&) {
        continue;  // an overflow or division the analysis need not describe
      }
      std::vector<int64_t> p{f[0], f[1]};
      INFO("round " << round << " sample " << sample << " p = " << f[0] << ", " << f[1]
                    << " loop vars " << f[2] << ", " << f[3] << " value " << v);
      for (const LinearForm& lf : b.lo) REQUIRE(compare(lf, p, v) <= 0);
      for (const LinearForm& hf : b.hi) REQUIRE(compare(hf, p, v) >= 0);
      if (atLeast0) REQUIRE(v >= 0);
      if (atMost0) REQUIRE(v <= f[0]);
      if (atMost1) REQUIRE(v <= f[1] - 1);
      if (small) REQUIRE((v >= -(int64_t{1} << 62) && v <= (int64_t{1} << 62)));
      ++checked;
    }
  }
  INFO(checked << " values checked, " << proofs << " proofs");
  CHECK(checked > 20000);
  CHECK(proofs > 500);  // the test would pass trivially if nothing were ever proved
}

TEST_CASE("bounds: the checks of the benchmark games are proved") {
  // Compiles a program and gives its game's first move, for the patterns the JIT relies on.
  auto program = [](const std::string& text) {
    std::string errors;
    auto ws = gdsl::compileProgram("bounds.game", text, errors);
    INFO(errors);
    REQUIRE(ws);
    return ws->program();
  };
  SECTION("a kernel reads g(n - k) for k in 1..n from the table") {
    gdsl::ir::Program p = program("game T(n) { move t(k in 1..n) when k % 3 != 0 -> T(n - k) }");
    const gdsl::ir::Game& g = p.games[0];
    BoundsEnv env(1, int64_t{1} << 40);
    env.setParam(g.params[0].slot, 0);
    const gdsl::ir::Step& k = g.moves[0].steps[0];
    env.set(k.slot, env.range(k.domain.lo, k.domain.hi));
    Bounds m = env.of(g.moves[0].successor[0].args[0]);
    CHECK(env.atLeast(m, 0));
    CHECK(env.atMostParam(m, 0, -1));
    CHECK(env.small(m));
  }
  SECTION("Grundy's game reads g(a) and g(n - a) for a in 1..(n - 1) / 2, once the loop runs") {
    gdsl::ir::Program p = program("game G(n) { split unequal }");
    const gdsl::ir::Game& g = p.games[0];
    BoundsEnv env(1, int64_t{1} << 40);
    env.setParam(g.params[0].slot, 0);
    const gdsl::ir::Step& a = g.moves[0].steps[0];
    Bounds var = env.range(a.domain.lo, a.domain.hi);
    env.set(a.slot, var);
    Bounds first = env.of(g.moves[0].successor[0].args[0]);
    CHECK_FALSE(env.atMostParam(first, 0, -1));  // n = 0 would allow a = 0 ... -1: not yet
    env.assumeNonEmpty(var);                     // inside the loop, n >= 3
    for (const gdsl::ir::Term& t : g.moves[0].successor) {
      Bounds m = env.of(t.args[0]);
      CHECK(env.atLeast(m, 0));
      CHECK(env.atMostParam(m, 0, -1));
    }
  }
  SECTION("Chomp's successors lie in the box of the position") {
    gdsl::ir::Program p = program(
        "game Chomp(a, b, c) {\n"
        "  move row1(x in 1..a-1) -> Chomp(x, min(b, x), min(c, x))\n"
        "}\n");
    const gdsl::ir::Game& g = p.games[0];
    BoundsEnv env(3, int64_t{1} << 46);
    for (size_t i = 0; i < 3; ++i) env.setParam(g.params[i].slot, i);
    const gdsl::ir::Step& x = g.moves[0].steps[0];
    env.set(x.slot, env.range(x.domain.lo, x.domain.hi));
    for (size_t i = 0; i < 3; ++i) {
      Bounds w = env.of(g.moves[0].successor[0].args[i]);
      CHECK(env.atLeast(w, 0));
      CHECK(env.atMostParam(w, i, 0));
    }
  }
  SECTION("with w <= h, a cut's normalized part max(a, h) stays within h") {
    gdsl::ir::Program p = program(
        "game Cut(w, h) {\n  normalize -> Cut(min(w, h), max(w, h))\n"
        "  move v(a in 2..w-2) -> Cut(a, h) + Cut(w - a, h)\n}\n");
    const gdsl::ir::Game& g = p.games[0];
    for (bool ordered : {false, true}) {
      BoundsEnv env(2, int64_t{1} << 46);
      if (ordered) env.setOrder({0, 1});
      for (size_t i = 0; i < 2; ++i) env.setParam(g.params[i].slot, i);
      const gdsl::ir::Step& a = g.moves[0].steps[0];
      env.set(a.slot, env.range(a.domain.lo, a.domain.hi));
      for (const gdsl::ir::Term& t : g.moves[0].successor) {
        BoundsEnv frame = env.emptyFrame();
        for (size_t i = 0; i < 2; ++i) frame.set(g.params[i].slot, env.of(t.args[i]));
        Bounds hi = frame.of((*g.normalize)[1]);
        CHECK(env.atMostParam(hi, 1, 0) == ordered);
      }
    }
  }
}
