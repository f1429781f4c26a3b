// Cell-move analysis: a game over a set of bits (marked by BitSets.cpp) whose
// every move needs some cells set and clears some of them, such as Node
// Kayles on a graph written as a bitmask,
//
//   move pick(v in 0..34) when ((b >> v) & 1) == 1 -> NK(b ^ (b & NB[v]))
//
// or the placement of a domino, `when (b & D[v]) == D[v] -> G(b ^ D[v])`.
// Each move is then the pair (cells it needs, cells it clears), one pair per
// binding of the rule's variables, computed here once. A legal move touches
// only the cells it needs or clears, so a board whose cells fall apart into
// groups that no legal move links is the sum of those groups: the engine and
// both backends value it as the xor of its parts (runtime/Components.h), which
// is Sprague-Grundy's theorem, and exact.
//
// Recognised, for the parameter b (docs/reference.md, "Boards that split"):
//   a move's steps      binders over ranges or lists that do not read b, or
//                       over `bits(b)` (a move per set cell v, which needs v),
//                       lets and guards that do not read b, and guards (or
//                       `and` chains) of the forms
//                       `(b & X) == X`, `((b >> Y) & 1) == 1` (or `!= 0`,
//                       `> 0`), `(b & X) != 0` (or `> 0`) for a one-bit X,
//                       in either operand order, X and Y not reading b;
//   its successor       one position of the game itself: b ^ (b & X) or
//                       b & ~X (the cells of X cleared), or b ^ X or b - X
//                       when the guards need every cell of X;
// and every move must clear a cell it needs. Any other form, an expression
// that fails for some binding, or more than 65,536 bindings leave the game
// as it was: searched whole, with the same values. (Over `bits(b)`, a binding
// that fails only makes its cell unsafe: a board holding it is valued whole.)
#include <bit>
#include <cstdint>
#include <optional>

#include "compiler/ir/Evaluator.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

constexpr size_t kMaxCellMoves = size_t{1} << 16;
constexpr uint64_t kCellBits = (uint64_t{1} << 63) - 1;

// Why the analysis gave up on a game (caught in markCellMoves).
struct NotCells {};

class CellMoveFinder {
 public:
  CellMoveFinder(const Program& program, const Game& game, int index)
      : game_(game),
        index_(index),
        eval_(program, arena_),
        ints_(static_cast<size_t>(std::max(1, game.intSlots)), 0),
        lists_(static_cast<size_t>(std::max(1, game.listSlots))),
        cells_(game.params[0].slot) {}

  std::optional<CellMoves> find() {
    try {
      for (const Move& m : game_.moves) walk(m, 0, 0);
    } catch (const NotCells&) {
      return std::nullopt;
    } catch (const RuntimeError&) {
      return std::nullopt;
    }
    CellMoves& out = moves_;
    out.touchStart.assign(65, 0);
    for (uint64_t s : out.support)
      for (uint64_t rest = s; rest; rest &= rest - 1) ++out.touchStart[std::countr_zero(rest) + 1];
    for (size_t c = 0; c < 64; ++c) out.touchStart[c + 1] += out.touchStart[c];
    out.touching.assign(out.touchStart[64], 0);
    std::vector<uint32_t> next(out.touchStart.begin(), out.touchStart.end() - 1);
    for (size_t i = 0; i < out.support.size(); ++i)
      for (uint64_t rest = out.support[i]; rest; rest &= rest - 1)
        out.touching[next[static_cast<size_t>(std::countr_zero(rest))]++] =
            static_cast<uint32_t>(i);
    return std::move(moves_);
  }

 private:
  Frame frame() { return Frame{ints_.data(), lists_.data()}; }
  bool isCells(const Expr& e) const { return e.op == Op::IntVar && e.imm == cells_; }
  bool readsCells(const Expr& e) const { return readsIntSlot(e, {cells_}); }
  // The value of an expression that does not read the cells.
  int64_t value(const Expr& e) {
    if (readsCells(e)) throw NotCells{};
    return eval_.evalInt(e, frame());
  }

  // Runs the move's steps from `index` for every binding, with `need` the
  // cells its guards so far need.
  void walk(const Move& m, size_t index, uint64_t need) {
    if (index == m.steps.size()) return record(m, need);
    const Step& s = m.steps[index];
    switch (s.kind) {
      case Step::Kind::Bind: {
        if (s.type != Type::Int) throw NotCells{};
        auto bind = [&](int64_t v) {
          ints_[static_cast<size_t>(s.slot)] = v;
          walk(m, index + 1, need);
        };
        if (!s.domain.isRange && s.domain.list.op == Op::Bits && isCells(s.domain.list.kids[0])) {
          // One binding per cell, which it needs; a binding that fails makes
          // its cell unsafe, and keeps none of its moves.
          for (int64_t v = 0; v < 63; ++v) {
            size_t before = moves_.require.size();
            try {
              ints_[static_cast<size_t>(s.slot)] = v;
              walk(m, index + 1, need | uint64_t{1} << v);
            } catch (const RuntimeError&) {
              moves_.require.resize(before);
              moves_.clear.resize(before);
              moves_.support.resize(before);
              moves_.safe &= ~(uint64_t{1} << v);
            }
          }
        } else if (s.domain.isRange) {
          int64_t lo = value(s.domain.lo), hi = value(s.domain.hi);
          if (hi >= lo && static_cast<uint64_t>(hi - lo) >= kMaxCellMoves) throw NotCells{};
          for (int64_t v = lo; v <= hi; ++v) bind(v);
        } else {
          if (readsCells(s.domain.list)) throw NotCells{};
          ListVal l = eval_.evalList(s.domain.list, frame());
          if (static_cast<uint64_t>(l.size) > kMaxCellMoves) throw NotCells{};
          for (int64_t i = 0; i < l.size; ++i) bind(l.at(i));
        }
        return;
      }
      case Step::Kind::Let:
        if (readsCells(s.value)) throw NotCells{};
        if (s.type == Type::List)
          lists_[static_cast<size_t>(s.slot)] = eval_.evalList(s.value, frame());
        else if (s.type == Type::ListList)
          throw NotCells{};
        else
          ints_[static_cast<size_t>(s.slot)] = eval_.evalInt(s.value, frame());
        return walk(m, index + 1, need);
      case Step::Kind::Guard:
        if (!guard(s.value, need)) return;  // never legal for this binding
        return walk(m, index + 1, need);
    }
  }

  // Adds what condition `c` needs to `need`; false when it never holds for
  // this binding (a condition that does not read the cells, false).
  bool guard(const Expr& c, uint64_t& need) {
    if (!readsCells(c)) return value(c) != 0;
    if (c.op == Op::And) {
      for (const Expr& k : c.kids)
        if (!guard(k, need)) return false;
      return true;
    }
    need |= required(c);
    return true;
  }

  // The cells a comparison over the cells needs set (NotCells for a form
  // that is not one of them).
  uint64_t required(const Expr& c) {
    if (c.kids.size() != 2) throw NotCells{};
    for (int side = 0; side < 2; ++side) {
      const Expr& probe = c.kids[static_cast<size_t>(side)];
      const Expr& other = c.kids[static_cast<size_t>(1 - side)];
      if (readsCells(other)) continue;
      std::optional<Masked> m = masked(probe);
      if (!m) continue;
      int64_t k = value(other);
      // What the probe is when its cells are set: X, or 1 for one bit shifted down.
      auto set = static_cast<int64_t>(m->shifted ? 1 : m->cells);
      bool nonZero = (c.op == Op::Ne && k == 0) || (c.op == Op::Gt && side == 0 && k == 0) ||
                     (c.op == Op::Lt && side == 1 && k == 0);
      if (c.op == Op::Eq && k == set) return m->cells;
      if (nonZero && std::popcount(m->cells) == 1) return m->cells;
    }
    throw NotCells{};
  }

  // A probe of the cells: `b & X` (X >= 0, in either order), or
  // `(b >> Y) & 1` (0 <= Y <= 62), which reads the one cell 1 << Y.
  struct Masked {
    uint64_t cells;
    bool shifted;
  };
  std::optional<Masked> masked(const Expr& e) {
    if (e.op != Op::BitAnd || e.kids.size() != 2) return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      const Expr& a = e.kids[static_cast<size_t>(side)];
      const Expr& x = e.kids[static_cast<size_t>(1 - side)];
      if (readsCells(x)) continue;
      if (isCells(a)) {
        int64_t mask = value(x);
        if (mask < 0) throw NotCells{};
        return Masked{static_cast<uint64_t>(mask), false};
      }
      if (a.op == Op::Shr && a.kids.size() == 2 && isCells(a.kids[0]) && !readsCells(a.kids[1]) &&
          value(x) == 1) {
        int64_t y = value(a.kids[1]);
        if (y < 0 || y > 62) throw NotCells{};
        return Masked{uint64_t{1} << y, true};
      }
    }
    return std::nullopt;
  }

  void record(const Move& m, uint64_t need) {
    if (m.successor.size() != 1) throw NotCells{};
    const Term& t = m.successor[0];
    if (t.kind != Term::Kind::Position || t.game != index_ || t.args.size() != 1) throw NotCells{};
    uint64_t clear = cleared(t.args[0], need);
    if ((clear & need) == 0) throw NotCells{};  // a move that may keep every cell
    if (moves_.require.size() == kMaxCellMoves) throw NotCells{};
    moves_.require.push_back(need);
    moves_.clear.push_back(clear);
    moves_.support.push_back(need | clear);
  }

  // The cells successor `e` clears, when it is b ^ (b & X) or b & ~X, or
  // b ^ X or b - X with X among the needed cells.
  uint64_t cleared(const Expr& e, uint64_t need) {
    if ((e.op != Op::BitXor && e.op != Op::Sub && e.op != Op::BitAnd) || e.kids.size() != 2)
      throw NotCells{};
    for (int side = 0; side < 2 && e.op != Op::BitAnd; ++side) {
      if (e.op == Op::Sub && side == 1) break;
      const Expr& a = e.kids[static_cast<size_t>(side)];
      const Expr& x = e.kids[static_cast<size_t>(1 - side)];
      if (!isCells(a)) continue;
      if (e.op == Op::BitXor && x.op == Op::BitAnd && x.kids.size() == 2) {
        for (int k = 0; k < 2; ++k)
          if (isCells(x.kids[static_cast<size_t>(k)]) &&
              !readsCells(x.kids[static_cast<size_t>(1 - k)]))
            return static_cast<uint64_t>(value(x.kids[static_cast<size_t>(1 - k)])) & kCellBits;
      }
      if (readsCells(x)) continue;
      int64_t mask = value(x);
      if (mask >= 0 && (static_cast<uint64_t>(mask) & ~need) == 0)
        return static_cast<uint64_t>(mask);
    }
    if (e.op == Op::BitAnd && e.kids.size() == 2)  // b & ~X, in either order
      for (int side = 0; side < 2; ++side)
        if (isCells(e.kids[static_cast<size_t>(side)]) &&
            !readsCells(e.kids[static_cast<size_t>(1 - side)]))
          return ~static_cast<uint64_t>(value(e.kids[static_cast<size_t>(1 - side)])) & kCellBits;
    throw NotCells{};
  }

  const Game& game_;
  int index_;
  ListArena arena_;
  Evaluator eval_;
  std::vector<int64_t> ints_;
  std::vector<ListVal> lists_;
  int cells_;
  CellMoves moves_;
};

}  // namespace

void markCellMoves(Program& program) {
  for (size_t i = 0; i < program.games.size(); ++i) {
    Game& g = program.games[i];
    g.cells.reset();
    if (!g.bitSet || g.normalize || g.takeBreak || !g.oneHeap()) continue;
    g.cells = CellMoveFinder(program, g, static_cast<int>(i)).find();
  }
}

}  // namespace gdsl::ir
