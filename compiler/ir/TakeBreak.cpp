// Take-and-break analysis: a one-heap game whose every move is an octal rule,
// `split`, `split unequal`, or `take`/`remove` of constant positive amounts
// removes at most t tokens and leaves at most two heaps. Its shape (which k
// leave 0, 1 or 2 heaps) lets the engine compute values without the backend,
// with sparse space; and when equal parts are allowed the Guy-Smith theorem
// proves a period from finitely many values (docs/reference.md section 6).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "compiler/ir/Evaluator.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

bool isConstant(const Expr& e) {
  // A comprehension left after constant folding reads a variable.
  if (e.op == Op::IntVar || e.op == Op::ListVar || e.op == Op::ConstRef || !e.steps.empty())
    return false;
  for (const Expr& k : e.kids)
    if (!isConstant(k)) return false;
  return true;
}

// Every amount of a constant amount expression, or nullopt when an amount is
// not a positive constant (or there are more than kMaxAmounts of them).
constexpr int64_t kMaxAmounts = int64_t{1} << 20;

std::optional<std::vector<int64_t>> amounts(const Program& p, const Expr& amount) {
  if (!isConstant(amount)) return std::nullopt;
  ListArena arena;
  Evaluator eval(p, arena);
  Frame empty;
  try {
    std::vector<int64_t> out;
    if (amount.type == Type::Int) {
      out.push_back(eval.evalInt(amount, empty));
    } else {
      ListVal l = eval.evalList(amount, empty);
      if (l.size > kMaxAmounts) return std::nullopt;
      for (int64_t i = 0; i < l.size; ++i) out.push_back(l.at(i));
    }
    for (int64_t k : out)
      if (k < 1) return std::nullopt;
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Adds k + shift for each amount k; an amount past INT64_MAX - shift needs more
// tokens than any heap holds, so it is no move and is left out.
void addAll(std::vector<int64_t>& to, const std::vector<int64_t>& ks, int64_t shift = 0) {
  for (int64_t k : ks)
    if (k <= std::numeric_limits<int64_t>::max() - shift) to.push_back(k + shift);
}

void sortUnique(std::vector<int64_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// The shape of a one-heap game all of whose moves come from take-and-break
// sugar (see the desugaring in compiler/sema/Desugar.cpp for each case).
std::optional<TakeBreakShape> shape(const Program& p, const Game& g) {
  if (!g.oneHeap() || g.normalize || g.moves.empty()) return std::nullopt;
  TakeBreakShape s;
  for (const Move& m : g.moves) {
    std::optional<std::vector<int64_t>> ks;
    // `take K..n` (Nim, Lasker's nim): every amount from K on, as the probe
    // would find it (runtime/ShapeProbe.cpp), without enumerating moves.
    if (m.sugar == ast::Sugar::Take && m.amount && m.amount->op == Op::Range &&
        m.amount->kids[1].op == Op::IntVar && m.amount->kids[1].imm == g.params[0].slot) {
      std::optional<std::vector<int64_t>> from = amounts(p, m.amount->kids[0]);
      if (!from || from->size() != 1) return std::nullopt;
      const int64_t k = from->front();
      s.oneFrom = s.oneFrom ? std::min(s.oneFrom, k) : k;
      s.wholeFrom = s.wholeFrom ? std::min(s.wholeFrom, k) : k;
      continue;
    }
    if (m.sugar == ast::Sugar::Take || m.sugar == ast::Sugar::Remove ||
        m.sugar == ast::Sugar::RemoveNeighbours) {
      if (!m.amount || !(ks = amounts(p, *m.amount))) return std::nullopt;
    }
    switch (m.sugar) {
      case ast::Sugar::Octal:
        if (m.octalBit == 1) addAll(s.whole, m.octalAmounts);
        if (m.octalBit == 2) addAll(s.one, m.octalAmounts);
        if (m.octalBit == 4) addAll(s.two, m.octalAmounts);
        if (m.octalBit == 8) addAll(s.three, m.octalAmounts);
        break;
      case ast::Sugar::Split:
        s.two.push_back(0);
        break;
      case ast::Sugar::SplitUnequal:
        s.twoUnequal.push_back(0);
        break;
      case ast::Sugar::Take:  // n -> n - k
        addAll(s.whole, *ks);
        addAll(s.one, *ks);
        break;
      case ast::Sugar::Remove:  // n -> i + (n - k - i)
        addAll(s.whole, *ks);
        addAll(s.one, *ks);
        addAll(s.two, *ks);
        break;
      case ast::Sugar::RemoveNeighbours:
        // The block at an end takes one neighbour (k + 1 tokens), or none when
        // it is the whole row; in the middle it takes two (k + 2 tokens).
        addAll(s.whole, *ks);
        addAll(s.whole, *ks, 1);
        addAll(s.one, *ks, 1);
        addAll(s.whole, *ks, 2);
        addAll(s.one, *ks, 2);
        addAll(s.two, *ks, 2);
        break;
      default:
        return std::nullopt;  // `move` rules
    }
  }
  // Amounts listed past an amount without bound are in it already.
  std::erase_if(s.one, [&](int64_t k) { return s.oneFrom && k >= s.oneFrom; });
  std::erase_if(s.whole, [&](int64_t k) { return s.wholeFrom && k >= s.wholeFrom; });
  for (auto* v : {&s.whole, &s.one, &s.two, &s.twoUnequal, &s.three}) {
    sortUnique(*v);
    if (!v->empty()) s.maxTake = std::max(s.maxTake, v->back());
  }
  // Equal parts allowed makes the unequal rule for the same k redundant.
  std::erase_if(s.twoUnequal,
                [&](int64_t k) { return std::binary_search(s.two.begin(), s.two.end(), k); });
  return s;
}

// ---- affine `move` rules -------------------------------------------------------
// An expression built from the heap, binders, lets and constants with + - and
// multiplication by a constant, halving, min, max, a residue (% by a
// constant up to 64, & 1), and comparisons joined by and/or/not. The largest
// constant is kept: the move sets of such rules only change at thresholds
// within that distance of 0, n and n/2, and repeat with the residues' moduli
// (at most that constant) between them.
bool affine(const Program& p, const Expr& e, int64_t& largest) {
  switch (e.op) {
    case Op::IntConst:
      largest = std::max(largest, e.imm < 0 ? -e.imm : e.imm);
      return e.imm > -(int64_t{1} << 20) && e.imm < (int64_t{1} << 20);
    case Op::IntVar:
      return true;
    case Op::ConstRef: {
      if (e.type != Type::Int) return false;
      std::optional<std::vector<int64_t>> v = amounts(p, e);
      if (!v || v->size() != 1) return false;
      largest = std::max(largest, v->front());
      return true;
    }
    case Op::Mul:
      if (e.kids[0].op != Op::IntConst && e.kids[1].op != Op::IntConst) return false;
      break;
    case Op::Div:
      if (e.kids[1].op != Op::IntConst || e.kids[1].imm != 2) return false;
      break;
    case Op::Mod:  // a residue: the move sets repeat with it (at most 64)
      if (e.kids[1].op != Op::IntConst || e.kids[1].imm < 1 || e.kids[1].imm > 64) return false;
      break;
    case Op::BitAnd:  // x & 1, a parity
      if (e.kids[1].op != Op::IntConst || e.kids[1].imm != 1) return false;
      break;
    default:
      if (!isAffine(e.op)) return false;  // + - min max, comparisons, not and or
      break;
  }
  for (const Expr& k : e.kids)
    if (!affine(p, k, largest)) return false;
  return true;
}

// The operator of `e` as a rule spells it, for --verbose.
std::string spelling(const Expr& e) {
  switch (e.op) {
    case Op::Div:
      return "/ by another number than 2";
    case Op::Mod:
      return "% by a variable or a number above 64";
    case Op::BitAnd:
      return "& with another number than 1";
    case Op::Mul:
      return "* of two variables";
    case Op::IntConst:
      return "a number beyond 2^20";
    default:
      break;
  }
  // An integer operator (%, <<, &, **...) as written; anything else by its name.
  const char* written = writtenAs(e.op);
  return written && opInfo(e.op).result == 'i' ? written : opName(e.op);
}

// The innermost part of `e` that is not affine (e is not), described.
std::string nonAffinePart(const Program& p, const Expr& e) {
  for (const Expr& k : e.kids) {
    int64_t ignored = 0;
    if (!affine(p, k, ignored)) return nonAffinePart(p, k);
  }
  return spelling(e);
}

// Heaps to compare when looking for the shape of a game of affine `move`
// rules whose successors are at most three heaps of the game itself; when there
// are none, `why` says what rules it out.
std::optional<int64_t> shapeProbe(const Program& p, const Game& g, int self, std::string& why) {
  if (!g.oneHeap() || g.takeBreak) return std::nullopt;
  if (g.normalize) {
    why = "it has a normalize rule";
    return std::nullopt;
  }
  int64_t largest = 1;
  bool threeHeaps = false;
  auto isAffine = [&](const Move& m, const Expr& e) {
    if (affine(p, e, largest)) return true;
    why = fmt::format(
        "rule '{}' uses {} (a take-and-break rule is affine in the heap: + and -, * "
        "by a number, / 2, % by a number, min, max, comparisons)",
        m.label, nonAffinePart(p, e));
    return false;
  };
  // Sugar whose shape is not read off directly (`take 1..n`: an amount
  // that is not constant; sugar beside `move` rules) is probed as the move
  // rules it stands for (compiler/sema/Desugar.cpp).
  for (const Move& m : g.moves) {
    if (m.successor.size() > 3) {
      why = fmt::format("rule '{}' leaves more than three heaps", m.label);
      return std::nullopt;
    }
    threeHeaps = threeHeaps || m.successor.size() == 3;
    for (const Step& s : m.steps) {
      if (s.kind == Step::Kind::Bind) {
        if (s.type != Type::Int) {
          why = fmt::format("rule '{}' binds a list", m.label);
          return std::nullopt;
        }
        if (s.domain.isRange) {
          if (!isAffine(m, s.domain.lo) || !isAffine(m, s.domain.hi)) return std::nullopt;
        } else {
          std::optional<std::vector<int64_t>> ks = amounts(p, s.domain.list);
          if (!ks) {
            why = fmt::format("rule '{}' binds over a list that is not constant positive amounts",
                              m.label);
            return std::nullopt;
          }
          for (int64_t k : *ks) largest = std::max(largest, k);
        }
      } else if (!isAffine(m, s.value)) {
        return std::nullopt;
      }
    }
    for (const Term& t : m.successor) {
      if (t.kind != Term::Kind::Position || t.game != self) {
        why = fmt::format("rule '{}' leaves a position of another game, or a sum", m.label);
        return std::nullopt;
      }
      if (!isAffine(m, t.args[0])) return std::nullopt;
    }
  }
  if (largest > 64) {
    why = fmt::format("its rules use {}, a number above 64", largest);
    return std::nullopt;
  }
  // A split into three heaps has n^2 / 12 moves: the check stops at 256 heaps.
  if (threeHeaps && largest > 6) {
    why = fmt::format("it splits into three heaps and its rules use {}, a number above 6", largest);
    return std::nullopt;
  }
  return 64 + 32 * largest;
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
  for (Game& g : program.games) {
    g.takeBreak = shape(program, g);
    // Guy-Smith needs equal parts allowed (the shift by a period keeps a
    // split a split, but may make unequal parts equal).
    g.takeBreakBound = std::nullopt;
    if (g.takeBreak && g.takeBreak->twoUnequal.empty()) g.takeBreakBound = g.takeBreak->proofTake();
    g.takeBreakParts = g.takeBreak && !g.takeBreak->three.empty() ? 3 : 2;
  }
  for (size_t i = 0; i < program.games.size(); ++i) {
    Game& g = program.games[i];
    g.notTakeBreak.clear();
    g.shapeProbeHeaps = shapeProbe(program, g, static_cast<int>(i), g.notTakeBreak);
  }
}

}  // namespace gdsl::ir
