// Bit-set analysis: a one-heap game whose successors are computed from its
// parameter with & | ^ << >> (directly, or through `let` variables) treats
// the parameter as a set of flags, a board written as a bitmask, not as a
// heap. Only the positions its moves reach matter, a small part of all the
// integers below it, so the engine memoizes it in a search instead of
// tabling every smaller value (which for a board of 30 cells would be 2^30
// values, past the table's limit). Values are the same either way.
//
// A game over several integers, `G(w, h, b)`, whose moves pass all but one of
// them on unchanged and compute that one with bit operations, is a board with
// parameters fixed within a search: its board parameter is marked, and the
// engine looks for cell moves once it knows the fixed values.
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

// The board of a game over several integers whose every move leads to one
// position of the game itself with all parameters but one passed on as they
// are (`-> G(w, h, b & ~X)`): that one's index, or -1.
int boardParameter(const Game& g, int game) {
  if (g.params.size() < 2 || g.normalize || g.takeBreak) return -1;
  for (const Param& p : g.params)
    if (p.type != Type::Int) return -1;
  int board = -1;
  for (const Move& m : g.moves) {
    if (m.successor.size() != 1) return -1;
    const Term& t = m.successor[0];
    if (t.kind != Term::Kind::Position || t.game != game || t.args.size() != g.params.size())
      return -1;
    for (size_t i = 0; i < t.args.size(); ++i) {
      const Expr& a = t.args[i];
      if (a.op == Op::IntVar && a.imm == g.params[i].slot) continue;  // passed on
      if (board >= 0 && board != static_cast<int>(i)) return -1;
      board = static_cast<int>(i);
    }
  }
  return board;
}

}  // namespace

void markBitSets(Program& program) {
  for (size_t i = 0; i < program.games.size(); ++i) {
    Game& g = program.games[i];
    g.bitSet = g.oneHeap() && !g.takeBreak && successorsUseBits(g, static_cast<int>(i));
    g.boardParam = -1;
    if (int board = boardParameter(g, static_cast<int>(i));
        board >= 0 && successorsUseBits(g, static_cast<int>(i)))
      g.boardParam = board;
  }
}

}  // namespace gdsl::ir
