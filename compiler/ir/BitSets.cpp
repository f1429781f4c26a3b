// Bit-set analysis: a one-heap game whose successors are computed from its
// parameter with & | ^ << >> (directly, or through `let` variables) treats
// the parameter as a set of flags, a board written as a bitmask, not as a
// heap. Only the positions its moves reach matter, a small part of all the
// integers below it, so the engine memoizes it in a search instead of
// tabling every smaller value (which for a board of 30 cells would be 2^30
// values, past the table's limit). Values are the same either way.
#include <set>

#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

// True when `e` applies a bit operation, or reads an int slot in `tainted`.
bool usesBits(const Expr& e, const std::set<int64_t>& tainted) {
  if (isBitwise(e.op)) return true;
  if (e.op == Op::IntVar && tainted.count(e.imm)) return true;
  for (const Expr& k : e.kids)
    if (usesBits(k, tainted)) return true;
  for (const Step& s : e.steps)  // a comprehension's loops
    for (const Expr* k : exprsOf(s))
      if (usesBits(*k, tainted)) return true;
  return false;
}

bool termsUseBits(const std::vector<Term>& terms, int game, const std::set<int64_t>& tainted) {
  for (const Term& t : terms) {
    if (t.kind == Term::Kind::SumFor) {
      if (termsUseBits(t.body, game, tainted)) return true;
    } else if (t.game == game) {
      for (const Expr& a : t.args)
        if (usesBits(a, tainted)) return true;
    }
  }
  return false;
}

bool successorsUseBits(const Game& g, int game) {
  for (const Move& m : g.moves) {
    std::set<int64_t> tainted;  // int slots of lets computed with bit operations
    for (const Step& s : m.steps)
      if (s.kind == Step::Kind::Let && s.type != Type::List && usesBits(s.value, tainted))
        tainted.insert(s.slot);
    if (termsUseBits(m.successor, game, tainted)) return true;
  }
  return false;
}

}  // namespace

void markBitSets(Program& program) {
  for (size_t i = 0; i < program.games.size(); ++i) {
    Game& g = program.games[i];
    g.bitSet = g.oneHeap() && !g.takeBreak && successorsUseBits(g, static_cast<int>(i));
  }
}

}  // namespace gdsl::ir
