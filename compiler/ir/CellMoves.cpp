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
//
// A game over several integers whose moves change only its board
// (ir::Game::boardParam, `G(w, h, b)`) is looked at by the engine for each set
// of the other parameters' values it meets (findCellMoves, CellMoves.h):
// ranges, guards and shifts may read those values.
#include "compiler/ir/CellMoves.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/CellBits.h"
#include "compiler/ir/CellIndex.h"
#include "compiler/ir/CellSymmetry.h"
#include "compiler/ir/Evaluator.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

constexpr size_t kMaxCellMoves = size_t{1} << 16;

// Why the analysis gave up on a game, and where (caught in find()).
struct NotCells {
  SourceRange loc;
  std::string why;
};

class CellMoveFinder {
 public:
  // `board`: the parameter that is the board; `params`: every parameter's
  // value (the board's is not read), or empty for a game of one parameter.
  CellMoveFinder(const Program& program, const Game& game, int index, int board,
                 const std::vector<int64_t>& params)
      : game_(game),
        index_(index),
        board_(board),
        eval_(program, arena_),
        ints_(static_cast<size_t>(std::max(1, game.intSlots)), 0),
        lists_(static_cast<size_t>(std::max(1, game.listSlots))),
        cells_(game.params[static_cast<size_t>(board)].slot) {
    for (size_t i = 0; i < params.size() && i < game.params.size(); ++i)
      if (static_cast<int>(i) != board) ints_[static_cast<size_t>(game.params[i].slot)] = params[i];
  }

  // The cell moves, or nothing with `whyNot` saying why not.
  std::optional<CellMoves> find(std::string& whyNot) {
    try {
      for (const Move& m : game_.moves) walk(m, 0, 0);
    } catch (const NotCells& n) {
      whyNot = n.loc.valid() ? fmt::format("{} (line {}, column {})", n.why, n.loc.line, n.loc.col)
                             : n.why;
      return std::nullopt;
    } catch (const RuntimeError& e) {
      whyNot = fmt::format("a rule fails for one of its bindings: {}", e.message);
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
    out.grid = findCellGrid(out);
    out.index = indexCellMoves(out);
    return std::move(moves_);
  }

 private:
  Frame frame() { return Frame{ints_.data(), lists_.data()}; }
  bool isCells(const Expr& e) const { return e.op == Op::IntVar && e.imm == cells_; }
  bool readsCells(const Expr& e) const { return readsIntSlot(e, {cells_}); }
  // The value of an expression that does not read the cells.
  int64_t value(const Expr& e) {
    if (readsCells(e)) throw NotCells{e.loc, "the board used where a number is expected"};
    return eval_.evalInt(e, frame());
  }

  // Runs the move's steps from `index` for every binding, with `need` the
  // cells its guards so far need.
  void walk(const Move& m, size_t index, uint64_t need) {
    if (index == m.steps.size()) return record(m, need);
    const Step& s = m.steps[index];
    switch (s.kind) {
      case Step::Kind::Bind: {
        if (s.type != Type::Int) throw NotCells{s.loc, "a binder over a list of lists"};
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
          if (hi >= lo && static_cast<uint64_t>(hi - lo) >= kMaxCellMoves)
            throw NotCells{s.domain.lo.loc,
                           fmt::format("a range of more than {} values", kMaxCellMoves)};
          for (int64_t v = lo; v <= hi; ++v) bind(v);
        } else {
          if (readsCells(s.domain.list))
            throw NotCells{s.domain.list.loc,
                           "a binder over a list that depends on the board (other than `bits(b)`)"};
          ListVal l = eval_.evalList(s.domain.list, frame());
          if (static_cast<uint64_t>(l.size) > kMaxCellMoves)
            throw NotCells{s.domain.list.loc,
                           fmt::format("a list of more than {} values", kMaxCellMoves)};
          for (int64_t i = 0; i < l.size; ++i) bind(l.at(i));
        }
        return;
      }
      case Step::Kind::Let:
        if (readsCells(s.value)) throw NotCells{s.value.loc, "a `let` that reads the board"};
        if (s.type == Type::List)
          lists_[static_cast<size_t>(s.slot)] = eval_.evalList(s.value, frame());
        else if (s.type == Type::ListList)
          throw NotCells{s.value.loc, "a `let` of a list of lists"};
        else
          ints_[static_cast<size_t>(s.slot)] = eval_.evalInt(s.value, frame());
        return walk(m, index + 1, need);
      case Step::Kind::Guard:
        if (!guard(s.value, need)) return;  // never legal for this binding
        return walk(m, index + 1, need);
    }
  }

  // Adds what condition `c` needs to `need`; false when it never holds for
  // this binding.
  bool guard(const Expr& c, uint64_t& need) {
    if (!readsCells(c)) return value(c) != 0;
    if (c.op == Op::And) {
      for (const Expr& k : c.kids)
        if (!guard(k, need)) return false;
      return true;
    }
    if (c.op == Op::Not && c.kids.size() == 1 && (c.kids[0].op == Op::Eq || c.kids[0].op == Op::Ne))
      return compare(c.kids[0], c.kids[0].op == Op::Eq ? Op::Ne : Op::Eq, need);
    return compare(c, c.op, need);
  }

  // Comparison `c` read as `op` (its own, or the opposite under `not`).
  bool compare(const Expr& c, Op op, uint64_t& need) {
    bool ordered = op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
    if ((op != Op::Eq && op != Op::Ne && !ordered) || c.kids.size() != 2)
      throw NotCells{c.loc, "a condition on the board that is not a comparison"};
    int side = readsCells(c.kids[1]) ? 1 : 0;  // the side that reads the cells
    if (readsCells(c.kids[static_cast<size_t>(1 - side)]))
      throw NotCells{c.loc, "a comparison with the board on both sides"};
    CellWord x = bitsOf(c.kids[static_cast<size_t>(side)], need);
    int64_t k = value(c.kids[static_cast<size_t>(1 - side)]);
    if (ordered) {
      // With x >= 0, `x > 0`, `x >= 1`, `0 < x` and `1 <= x` say x != 0.
      bool nonZero = side == 0 ? (op == Op::Gt && k == 0) || (op == Op::Ge && k == 1)
                               : (op == Op::Lt && k == 0) || (op == Op::Le && k == 1);
      if (!nonZero || !x.nonNegative())
        throw NotCells{c.loc, "an order on the board other than `> 0`"};
      op = Op::Ne;
      k = 0;
    }
    return op == Op::Eq ? equal(c, x, k, need) : differ(c, x, k, need);
  }

  // x == k: every bit as k has it; a cell bit asks its cell set (or, as
  // 0 or not-cell, empty: not a cell move).
  bool equal(const Expr& c, const CellWord& x, int64_t k, uint64_t& need) {
    auto want = [&](int i) { return static_cast<CellBit>((static_cast<uint64_t>(k) >> i) & 1); };
    for (int i = 0; i < 64; ++i)
      if (isConstBit(x.bit[static_cast<size_t>(i)]) && x.bit[static_cast<size_t>(i)] != want(i))
        return false;  // never equal
    uint64_t adds = 0;
    for (int i = 0; i < 64; ++i) {
      CellBit b = x.bit[static_cast<size_t>(i)];
      if (isConstBit(b)) continue;
      if (isNegated(b) == (want(i) == kBit1)) throw NotCells{c.loc, needsEmpty(cellOf(b))};
      adds |= uint64_t{1} << cellOf(b);
    }
    need |= adds;
    return true;
  }

  // x != k: holds when one bit differs; a cell move when that is always so
  // (a constant bit differs), or when exactly one cell, set, makes it so.
  bool differ(const Expr& c, const CellWord& x, int64_t k, uint64_t& need) {
    auto want = [&](int i) { return static_cast<CellBit>((static_cast<uint64_t>(k) >> i) & 1); };
    for (int i = 0; i < 64; ++i)
      if (isConstBit(x.bit[static_cast<size_t>(i)]) && x.bit[static_cast<size_t>(i)] != want(i))
        return true;  // always different
    int cell = -1;
    for (int i = 0; i < 64; ++i) {
      CellBit b = x.bit[static_cast<size_t>(i)];
      if (isConstBit(b)) continue;
      if (isNegated(b) != (want(i) == kBit1)) throw NotCells{c.loc, needsEmpty(cellOf(b))};
      if (cell >= 0 && cell != cellOf(b))
        throw NotCells{c.loc, "a condition that holds when one of several cells is set"};
      cell = cellOf(b);
    }
    if (cell < 0) return false;  // never different
    need |= uint64_t{1} << cell;
    return true;
  }

  static std::string needsEmpty(int cell) {
    return fmt::format(
        "a condition that holds when cell {} is empty (a cell move only needs cells set)", cell);
  }

  // The shift or power of two `e` stands for, in 0..63.
  int amount(const Expr& e, const char* what) {
    if (readsCells(e)) throw NotCells{e.loc, fmt::format("a {} that depends on the board", what)};
    int64_t k = value(e);
    if (k < 0 || k > 63) throw NotCells{e.loc, fmt::format("a {} of {}", what, k)};
    return static_cast<int>(k);
  }
  // k when `e` is the constant 2^k.
  std::optional<int> powerOfTwo(const Expr& e) {
    if (readsCells(e)) return std::nullopt;
    int64_t v = value(e);
    if (v <= 0 || std::popcount(static_cast<uint64_t>(v)) != 1) return std::nullopt;
    return std::countr_zero(static_cast<uint64_t>(v));
  }

  // `e`, bit by bit, with the cells of `known` set (NotCells when it is not
  // made of the board's bits and constants).
  CellWord bitsOf(const Expr& e, uint64_t known) {
    if (!readsCells(e)) return CellWord::constant(value(e));
    if (isCells(e)) return CellWord::board(known);
    const char* opText = writtenAs(e.op) ? writtenAs(e.op) : opName(e.op);
    if (e.kids.size() != 2) throw NotCells{e.loc, fmt::format("`{}` of the board", opText)};
    const Expr& l = e.kids[0];
    const Expr& r = e.kids[1];
    switch (e.op) {
      case Op::BitAnd:
      case Op::BitOr:
      case Op::BitXor: {
        CellWord a = bitsOf(l, known), b = bitsOf(r, known), out;
        for (size_t i = 0; i < 64; ++i) {
          std::optional<CellBit> bit = e.op == Op::BitAnd  ? andBits(a.bit[i], b.bit[i])
                                       : e.op == Op::BitOr ? orBits(a.bit[i], b.bit[i])
                                                           : xorBits(a.bit[i], b.bit[i]);
          if (!bit)
            throw NotCells{e.loc, fmt::format("`{}` of two different cells in one bit", opText)};
          out.bit[i] = *bit;
        }
        return out;
      }
      case Op::Shl:
        return shiftedLeft(e, bitsOf(l, known), amount(r, "shift"));
      case Op::Mul:
        if (std::optional<int> k = powerOfTwo(r)) return shiftedLeft(e, bitsOf(l, known), *k);
        if (std::optional<int> k = powerOfTwo(l)) return shiftedLeft(e, bitsOf(r, known), *k);
        break;
      case Op::Shr:
        return shiftedRight(bitsOf(l, known), amount(r, "shift"));
      case Op::Div:
      case Op::Mod:
        if (std::optional<int> k = powerOfTwo(r)) {
          CellWord a = bitsOf(l, known);
          if (!a.nonNegative()) break;
          if (e.op == Op::Div) return shiftedRight(a, *k);
          for (int i = *k; i < 64; ++i) a.bit[static_cast<size_t>(i)] = kBit0;
          return a;
        }
        break;
      case Op::Sub:
      case Op::Add: {
        // Without a carry, bit by bit: `x - y` where y's bits are among x's
        // (b - (b & X), or b - X with the cells of X needed), `x + y` where
        // no bit is in both.
        CellWord a = bitsOf(l, known), b = bitsOf(r, known), out;
        bool carryFree = true;
        for (size_t i = 0; i < 64 && carryFree; ++i) {
          CellBit x = a.bit[i], y = b.bit[i];
          if (y == kBit0)
            out.bit[i] = x;
          else if (e.op == Op::Sub && (x == y || x == kBit1))
            out.bit[i] = x == y ? kBit0 : notBit(y);  // x - x, or 1 - y
          else if (e.op == Op::Add && x == kBit0)
            out.bit[i] = y;
          else
            carryFree = false;
        }
        if (carryFree) return out;
        break;
      }
      default:
        break;
    }
    throw NotCells{e.loc,
                   fmt::format("`{}` of the board in a form that may mix its cells", opText)};
  }

  CellWord shiftedLeft(const Expr& e, const CellWord& a, int k) {
    // arith::shl fails unless the bits shifted out repeat the sign.
    for (int i = 63 - k; i < 64; ++i)
      if (a.bit[static_cast<size_t>(i)] != kBit0)
        throw NotCells{e.loc, "a shift to the left that may overflow"};
    CellWord out;
    for (int i = 0; i < 64; ++i)
      out.bit[static_cast<size_t>(i)] = i >= k ? a.bit[static_cast<size_t>(i - k)] : kBit0;
    return out;
  }
  static CellWord shiftedRight(const CellWord& a, int k) {
    CellWord out;
    for (int i = 0; i < 64; ++i)
      out.bit[static_cast<size_t>(i)] = a.bit[static_cast<size_t>(i + k < 64 ? i + k : 63)];
    return out;
  }

  void record(const Move& m, uint64_t need) {
    if (m.successor.size() != 1)
      throw NotCells{m.loc, "a move to a sum or to no position (a cell move leaves one board)"};
    const Term& t = m.successor[0];
    if (t.kind != Term::Kind::Position || t.game != index_ || t.args.size() != game_.params.size())
      throw NotCells{m.loc, "a move to another game"};
    for (size_t i = 0; i < t.args.size(); ++i)
      if (static_cast<int>(i) != board_ &&
          (t.args[i].op != Op::IntVar || t.args[i].imm != game_.params[i].slot))
        throw NotCells{t.args[i].loc, "a move that changes a parameter other than the board"};
    uint64_t clear = cleared(t.args[static_cast<size_t>(board_)], need);
    if ((clear & need) == 0) throw NotCells{m.loc, "a move that clears none of the cells it needs"};
    if (moves_.require.size() == kMaxCellMoves)
      throw NotCells{m.loc, fmt::format("more than {} moves", kMaxCellMoves)};
    moves_.require.push_back(need);
    moves_.clear.push_back(clear);
    moves_.support.push_back(need | clear);
  }

  // The cells successor `e` clears: each of its bits must be the board's
  // own (kept) or 0 (cleared); a needed cell is known to be 1.
  uint64_t cleared(const Expr& e, uint64_t need) {
    CellWord w = bitsOf(e, need);
    uint64_t clear = 0;
    for (int i = 0; i < 63; ++i) {
      CellBit b = w.bit[static_cast<size_t>(i)];
      bool kept = b == cellBit(i) || (b == kBit1 && ((need >> i) & 1));
      if (kept) continue;
      if (b == kBit1) throw NotCells{e.loc, fmt::format("a successor that sets cell {}", i)};
      if (b == notBit(cellBit(i)))
        throw NotCells{e.loc, fmt::format("a successor that sets cell {} when it is empty", i)};
      if (b != kBit0)
        throw NotCells{e.loc,
                       fmt::format("a successor that moves cell {} to cell {}", cellOf(b), i)};
      clear |= uint64_t{1} << i;
    }
    if (w.bit[63] != kBit0) throw NotCells{e.loc, "a successor that may be negative"};
    return clear;
  }

  const Game& game_;
  int index_, board_;
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
    g.notCells.clear();
    if (!g.bitSet || g.takeBreak || !g.oneHeap()) continue;
    if (g.normalize) {
      g.notCells = "it has a normalize rule";
      continue;
    }
    g.cells = CellMoveFinder(program, g, static_cast<int>(i), 0, {}).find(g.notCells);
  }
}

std::optional<CellMoves> findCellMoves(const Program& program, int game,
                                       const std::vector<int64_t>& params, std::string& whyNot) {
  const Game& g = program.games[static_cast<size_t>(game)];
  if (g.boardParam < 0) {
    whyNot = "its moves change more than one parameter";
    return std::nullopt;
  }
  return CellMoveFinder(program, g, game, g.boardParam, params).find(whyNot);
}

}  // namespace gdsl::ir
