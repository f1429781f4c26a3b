// Range narrowing: a move binder `k in lo..hi` followed by a guard such as
// `when k <= n` walks only lo..min(hi, n). Written this way, "take any number
// up to n" (`move m(k in 1..1000000000) when k <= n`) would otherwise try
// every k at every position. The guard stays in place, so the narrowed range
// only skips values that the guard rejects; and a bound is used only when
// nothing evaluated before it (guards, earlier conditions of its `and` chain)
// can fail, so no runtime error is skipped either.
#include <cstdint>
#include <limits>
#include <set>

#include "compiler/ir/Passes.h"

namespace gdsl::ir {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Expr binary(Op op, Expr a, Expr b) {
  Expr e;
  e.op = op;
  e.loc = a.loc;
  e.kids.push_back(std::move(a));
  e.kids.push_back(std::move(b));
  return e;
}

bool isSlot(const Expr& e, int slot) {
  return e.op == Op::IntVar && e.imm == slot;
}

// The conditions of an `and` chain, in evaluation order.
void conjuncts(const Expr& e, std::vector<const Expr*>& out) {
  if (e.op == Op::And) {
    for (const Expr& k : e.kids) conjuncts(k, out);
    return;
  }
  out.push_back(&e);
}

// Narrows `domain` (of the int slot `slot`) by `c` when `c` compares the
// binder with an expression computed before the loop.
void narrowBy(const Expr& c, int slot, const std::set<int>& later, Domain& domain) {
  if (c.kids.size() != 2 || !neverFails(c)) return;
  Op op = c.op;
  const Expr* bound = nullptr;
  if (isSlot(c.kids[0], slot)) {
    bound = &c.kids[1];
  } else if (isSlot(c.kids[1], slot)) {
    bound = &c.kids[0];
    // e < k is k > e, and so on.
    switch (op) {
      case Op::Lt:
        op = Op::Gt;
        break;
      case Op::Le:
        op = Op::Ge;
        break;
      case Op::Gt:
        op = Op::Lt;
        break;
      case Op::Ge:
        op = Op::Le;
        break;
      default:
        break;
    }
  }
  if (!bound || readsIntSlot(*bound, later)) return;
  const SourceRange& loc = c.loc;
  auto lower = [&](Expr e) { domain.lo = binary(Op::Max, std::move(domain.lo), std::move(e)); };
  auto upper = [&](Expr e) { domain.hi = binary(Op::Min, std::move(domain.hi), std::move(e)); };
  switch (op) {
    case Op::Le:  // k <= e
      upper(*bound);
      break;
    case Op::Lt:  // k < e: k <= max(e, MIN + 1) - 1, which cannot overflow
      upper(
          binary(Op::Sub, binary(Op::Max, *bound, literalInt(kMin + 1, loc)), literalInt(1, loc)));
      break;
    case Op::Ge:  // k >= e
      lower(*bound);
      break;
    case Op::Gt:  // k > e: k >= min(e, MAX - 1) + 1
      lower(
          binary(Op::Add, binary(Op::Min, *bound, literalInt(kMax - 1, loc)), literalInt(1, loc)));
      break;
    case Op::Eq:
      lower(*bound);
      upper(*bound);
      break;
    default:
      break;
  }
}

void narrowMove(Move& move) {
  for (size_t i = 0; i < move.steps.size(); ++i) {
    Step& bind = move.steps[i];
    if (bind.kind != Step::Kind::Bind || bind.type != Type::Int || !bind.domain.isRange) continue;
    std::set<int> later;  // int slots assigned from this step on
    for (size_t j = i; j < move.steps.size(); ++j)
      if (move.steps[j].kind != Step::Kind::Guard && move.steps[j].type != Type::List)
        later.insert(move.steps[j].slot);
    // The guards right after the binder, up to the first condition that can fail.
    for (size_t j = i + 1; j < move.steps.size() && move.steps[j].kind == Step::Kind::Guard; ++j) {
      std::vector<const Expr*> chain;
      conjuncts(move.steps[j].value, chain);
      bool stop = false;
      for (const Expr* c : chain) {
        narrowBy(*c, bind.slot, later, bind.domain);
        if (!neverFails(*c)) {
          stop = true;
          break;
        }
      }
      if (stop) break;
    }
  }
}

}  // namespace

void narrowRanges(Program& program) {
  for (Game& g : program.games)
    for (Move& m : g.moves) narrowMove(m);
}

}  // namespace gdsl::ir
