// Take-and-break analysis: a one-heap game whose every move is an octal rule,
// `split`, or `take`/`remove` of constant positive amounts removes at most t
// tokens and leaves at most two heaps; for such games the Guy-Smith theorem
// proves a period from finitely many values (LANGUAGE.md section 6).
#include <fmt/format.h>

#include <algorithm>

#include "compiler/ir/Evaluator.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

bool isConstant(const Expr& e) {
  if (e.op == Op::IntVar || e.op == Op::ListVar || e.op == Op::ConstRef) return false;
  for (const Expr& k : e.kids)
    if (!isConstant(k)) return false;
  return true;
}

// The largest amount of a constant amount expression, or nullopt when an
// amount is not a positive constant.
std::optional<int64_t> maxAmount(const Program& p, const Expr& amount) {
  if (!isConstant(amount)) return std::nullopt;
  ListArena arena;
  Evaluator eval(p, arena);
  Frame empty;
  try {
    if (amount.type == Type::Int) {
      int64_t v = eval.evalInt(amount, empty);
      return v >= 1 ? std::optional<int64_t>(v) : std::nullopt;
    }
    ListVal l = eval.evalList(amount, empty);
    if (l.size == 0) return int64_t{0};
    int64_t lo = l.at(0), hi = l.at(0);
    for (int64_t i = 0; i < l.size && i < (1 << 20); ++i) {
      lo = std::min(lo, l.at(i));
      hi = std::max(hi, l.at(i));
    }
    if (l.isRange) hi = l.lo + l.size - 1;
    if (lo < 1 || hi > (int64_t{1} << 20)) return std::nullopt;
    return hi;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int64_t> bound(const Program& p, const Game& g) {
  if (!g.oneHeap() || g.normalize || g.moves.empty()) return std::nullopt;
  int64_t t = 0;
  for (const Move& m : g.moves) {
    switch (m.sugar) {
      case ast::Sugar::Octal:
        t = std::max<int64_t>(t, m.octalDigits);
        break;
      case ast::Sugar::Split:
        break;
      case ast::Sugar::Take:
      case ast::Sugar::Remove:
      case ast::Sugar::RemoveNeighbours: {
        if (!m.amount) return std::nullopt;
        std::optional<int64_t> k = maxAmount(p, *m.amount);
        if (!k) return std::nullopt;
        t = std::max(t, *k + (m.sugar == ast::Sugar::RemoveNeighbours ? 2 : 0));
        break;
      }
      default:
        return std::nullopt;  // `move` rules and `split unequal`
    }
  }
  return t;
}

}  // namespace

void checkAmounts(const Program& program, DiagnosticSink& diagnostics) {
  for (const Game& g : program.games) {
    for (const Move& m : g.moves) {
      if (!m.amount || !isConstant(*m.amount)) continue;
      ListArena arena;
      Evaluator eval(program, arena);
      try {
        int64_t smallest = 0;
        if (m.amount->type == Type::Int) {
          smallest = eval.evalInt(*m.amount, Frame{});
        } else {
          ListVal l = eval.evalList(*m.amount, Frame{});
          if (l.size == 0) continue;
          smallest = l.at(0);
          for (int64_t i = 1; i < l.size && i < (1 << 20); ++i)
            smallest = std::min(smallest, l.at(i));
        }
        if (smallest < 1)
          diagnostics.error(m.amount->loc,
                            fmt::format("{} amounts must be at least 1, but this includes {}",
                                        ast::sugarName(m.sugar), smallest));
      } catch (const RuntimeError& e) {
        diagnostics.error(e.range, e.message);
      }
    }
  }
}

void analyzeTakeBreak(Program& program) {
  for (Game& g : program.games) g.takeBreakBound = bound(program, g);
}

}  // namespace gdsl::ir
