// List games as integer games, one per list length: G(h: list) on lists of
// L numbers is the game G#L(h0, ..., hL-1), whose rules are G's with the list
// written out as L integers. Where a rule reads the list only at positions
// known once L is (len(h) is L; h[i], set(h, i, v) with i a binder over a
// range whose bounds are then numbers, which is unrolled; list literals;
// sort, as a network of min and max; min and max of the list; `for v in h`,
// unrolled), each position of G#L has the successors of the same position of
// G, in order, with the same errors, so the same value. The engine values a
// list position through G#L when it may (runtime/Engine.cpp): an integer game
// gets the dense box of a hand-written program (one cell per position, its
// index computed from the numbers), the table of words the list game gets
// needs a hash and a probe per move. Any other use of the list leaves G
// without integer games.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "compiler/ir/Arith.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

// Lists of up to this many numbers get an integer game: past four, the
// unrolled rules (Moore's Nim on six heaps: 21 moves, each sorted by a
// network of 12 comparators) take the JIT longer to compile than a search
// of thousands of positions takes, and the interpreter evaluates each
// network as a tree.
constexpr int64_t kMaxLength = 4;
// A rule unrolled into more copies than this is not specialized.
constexpr size_t kMaxCopies = 512;
// Nor is a game whose normalize rule, written out, has more nodes.
constexpr size_t kMaxNormalizeNodes = 4000;

struct Unsupported {};

size_t nodes(const Expr& e) {
  size_t n = 1;
  for (const Expr& k : e.kids) n += nodes(k);
  return n;
}

bool isConst(const Expr& e) {
  return e.op == Op::IntConst;
}

Expr intVar(int slot, SourceRange loc) {
  Expr v;
  v.op = Op::IntVar;
  v.type = Type::Int;
  v.imm = slot;
  v.loc = loc;
  return v;
}

// Whether computing `e` can never fail: variables, numbers, min and max.
bool cannotFail(const Expr& e) {
  if (e.op == Op::IntVar || e.op == Op::IntConst) return true;
  if (e.op != Op::Min && e.op != Op::Max) return false;
  return std::all_of(e.kids.begin(), e.kids.end(), cannotFail);
}

// The rewriting of one game at one length.
class Specializer {
 public:
  Specializer(const Program& program, int game, int64_t length, int specId)
      : P(program),
        G(program.games[static_cast<size_t>(game)]),
        game_(game),
        length_(length),
        specId_(specId) {}

  Game run() {
    Game out;
    out.name = G.name + "#" + std::to_string(length_);
    out.loc = G.loc;
    intSlots_ = G.intSlots;
    out.listSlots = 0;
    out.listOf = game_;
    out.listLength = length_;
    std::vector<Expr> param;
    for (int64_t i = 0; i < length_; ++i) {
      Param p;
      p.name = G.params[0].name + std::to_string(i);
      p.type = Type::Int;
      p.slot = intSlots_++;
      out.params.push_back(p);
      param.push_back(intVar(p.slot, G.loc));
    }
    lists_[G.params[0].slot] = param;
    if (G.normalize) {
      std::vector<Expr> words = fixed((*G.normalize)[0]);
      if (static_cast<int64_t>(words.size()) != length_) throw Unsupported{};
      size_t total = 0;
      for (const Expr& w : words) total += nodes(w);
      if (total > kMaxNormalizeNodes) throw Unsupported{};
      out.normalize = std::move(words);
      out.normalizeLoc = G.normalizeLoc;
    }
    for (const Move& m : G.moves) {
      Move copy;
      copy.label = m.label;
      copy.loc = m.loc;
      expand(m, 0, copy, out.moves);
    }
    out.intSlots = intSlots_;
    return out;
  }

 private:
  // Copies steps[index..] of `m` into `copy`, unrolling the binders whose
  // variable indexes the list, and appends each finished copy to `out`.
  void expand(const Move& m, size_t index, Move& copy, std::vector<Move>& out) {
    if (index == m.steps.size()) {
      Move done = copy;
      done.successor = terms(m.successor);
      out.push_back(std::move(done));
      if (out.size() > kMaxCopies * G.moves.size()) throw Unsupported{};
      return;
    }
    const Step& s = m.steps[index];
    size_t mark = copy.steps.size();
    switch (s.kind) {
      case Step::Kind::Guard: {
        Expr c = integer(s.value);
        if (isConst(c) && c.imm != 0) {  // always holds
          expand(m, index + 1, copy, out);
          return;
        }
        // One that never holds stays: the steps before it still run (and
        // may fail) as the list game's do.
        Step g = s;
        g.value = std::move(c);
        copy.steps.push_back(std::move(g));
        expand(m, index + 1, copy, out);
        copy.steps.resize(mark);
        return;
      }
      case Step::Kind::Let: {
        if (s.type == Type::List) {
          // Each number that could fail to compute gets a let of its own
          // here, so that it is computed once, at this step, as the list is.
          std::vector<Expr> numbers = fixed(s.value);
          for (Expr& n : numbers) {
            if (cannotFail(n)) continue;
            Step l;
            l.kind = Step::Kind::Let;
            l.type = Type::Int;
            l.slot = intSlots_++;
            l.name = s.name;
            l.loc = s.loc;
            l.value = std::move(n);
            n = intVar(l.slot, s.loc);
            copy.steps.push_back(std::move(l));
          }
          lists_[s.slot] = std::move(numbers);
          expand(m, index + 1, copy, out);
          lists_.erase(s.slot);
          copy.steps.resize(mark);
          return;
        }
        if (s.type != Type::Int && s.type != Type::Bool) throw Unsupported{};
        Step l = s;
        l.value = integer(s.value);
        copy.steps.push_back(std::move(l));
        expand(m, index + 1, copy, out);
        copy.steps.resize(mark);
        return;
      }
      case Step::Kind::Bind:
        break;
    }
    if (s.type != Type::Int) throw Unsupported{};
    if (!s.domain.isRange) {
      // `for v in h`: one copy per number of the list, v standing for it.
      if (touches(s.domain.list)) {
        std::vector<Expr> numbers = fixed(s.domain.list);
        requireSafe(numbers);  // each computed where v is read, maybe never
        for (const Expr& n : numbers) {
          ints_[s.slot] = n;
          expand(m, index + 1, copy, out);
        }
        ints_.erase(s.slot);
        return;
      }
      Step b = s;
      b.domain.list = list(s.domain.list);
      copy.steps.push_back(std::move(b));
      expand(m, index + 1, copy, out);
      copy.steps.resize(mark);
      return;
    }
    Expr lo = integer(s.domain.lo), hi = integer(s.domain.hi);
    if (isConst(lo) && isConst(hi) && indexes(m, index + 1, s.slot)) {
      if (hi.imm >= lo.imm && hi.imm - lo.imm >= static_cast<int64_t>(kMaxCopies))
        throw Unsupported{};
      for (int64_t v = lo.imm; v <= hi.imm; ++v) {
        ints_[s.slot] = literalInt(v, s.loc);
        expand(m, index + 1, copy, out);
      }
      ints_.erase(s.slot);
      return;
    }
    Step b = s;
    b.domain.lo = std::move(lo);
    b.domain.hi = std::move(hi);
    copy.steps.push_back(std::move(b));
    expand(m, index + 1, copy, out);
    copy.steps.resize(mark);
  }

  // Whether int slot `slot` is read as a list index (h[i], set(h, i, v)) in
  // steps[index..] or the successor of `m`: such a binder is unrolled. (A
  // successor with `sum ... for` terms is not rewritten at all.)
  static bool indexes(const Move& m, size_t index, int slot) {
    auto reads = [&](const Expr& e) {
      return anyNode(e, [&](const Expr& n) {
        return (n.op == Op::Index || n.op == Op::SetElem) && readsIntSlot(n.kids[1], {slot});
      });
    };
    for (size_t i = index; i < m.steps.size(); ++i)
      for (const Expr* k : exprsOf(m.steps[i]))
        if (reads(*k)) return true;
    for (const Term& t : m.successor)
      for (const Expr& a : t.args)
        if (reads(a)) return true;
    return false;
  }

  std::vector<Term> terms(const std::vector<Term>& in) {
    std::vector<Term> out;
    for (const Term& t : in) {
      if (t.kind != Term::Kind::Position) throw Unsupported{};
      Term c;
      c.kind = Term::Kind::Position;
      c.loc = t.loc;
      if (t.game == game_) {
        std::vector<Expr> numbers = fixed(t.args[0]);
        if (static_cast<int64_t>(numbers.size()) != length_) throw Unsupported{};
        c.game = specId_;
        c.args = std::move(numbers);
      } else {
        const Game& other = P.games[static_cast<size_t>(t.game)];
        c.game = t.game;
        for (size_t i = 0; i < t.args.size(); ++i)
          c.args.push_back(other.params[i].type == Type::List ? list(t.args[i])
                                                              : integer(t.args[i]));
      }
      out.push_back(std::move(c));
    }
    return out;
  }

  // The numbers of a list whose length is known here.
  std::vector<Expr> fixed(const Expr& e) {
    switch (e.op) {
      case Op::ListVar: {
        auto it = lists_.find(static_cast<int>(e.imm));
        if (it == lists_.end()) throw Unsupported{};
        return it->second;
      }
      case Op::ListConst: {
        std::vector<Expr> out;
        for (int64_t v : P.lists[static_cast<size_t>(e.imm)]) out.push_back(literalInt(v, e.loc));
        return out;
      }
      case Op::MakeList: {
        std::vector<Expr> out;
        for (const Expr& k : e.kids) out.push_back(integer(k));
        return out;
      }
      case Op::SetElem: {
        // As the evaluator: the list, then the index (checked), then the value.
        std::vector<Expr> out = fixed(e.kids[0]);
        auto i = static_cast<size_t>(constantIndex(e.kids[1], out.size()));
        requireSafe(out, i, i + 1);  // the number replaced is never computed
        out[i] = integer(e.kids[2]);
        return out;
      }
      case Op::Sort: {
        std::vector<Expr> out = fixed(e.kids[0]);
        requireSafe(out);  // the network copies each number into several
        sortNetwork(out, e.loc);
        return out;
      }
      default:
        throw Unsupported{};
    }
  }

  // The list game computes each number of a list once, where the list is
  // built. Numbers [from, to) of `numbers` that the rewrite drops or copies
  // must then be ones that cannot fail, or an error would be lost or moved.
  static void requireSafe(const std::vector<Expr>& numbers, size_t from = 0, size_t to = SIZE_MAX) {
    for (size_t i = from; i < std::min(to, numbers.size()); ++i)
      if (!cannotFail(numbers[i])) throw Unsupported{};
  }

  int64_t constantIndex(const Expr& index, size_t size) {
    Expr i = integer(index);
    if (!isConst(i) || i.imm < 0 || i.imm >= static_cast<int64_t>(size)) throw Unsupported{};
    return i.imm;
  }

  // Batcher's odd-even merge network, each comparator a min and a max.
  static void sortNetwork(std::vector<Expr>& v, SourceRange loc) {
    forEachSortComparator(v.size(), [&](size_t i, size_t j) {
      Expr a = v[i], b = v[j];
      v[i] = binary(Op::Min, a, b, loc);
      v[j] = binary(Op::Max, std::move(a), std::move(b), loc);
    });
  }

  static Expr binary(Op op, Expr a, Expr b, SourceRange loc) {
    if (isConst(a) && isConst(b))
      return literalInt(op == Op::Min ? std::min(a.imm, b.imm) : std::max(a.imm, b.imm), loc);
    Expr e;
    e.op = op;
    e.type = Type::Int;
    e.loc = loc;
    e.kids.push_back(std::move(a));
    e.kids.push_back(std::move(b));
    return e;
  }

  // An integer or condition, with the list's uses rewritten and the unrolled
  // variables replaced; folded where its operands became numbers.
  Expr integer(const Expr& e) {
    if (!e.steps.empty()) return untouched(e);  // a comprehension
    switch (e.op) {
      case Op::IntVar: {
        auto it = ints_.find(static_cast<int>(e.imm));
        if (it == ints_.end()) return e;
        Expr out = it->second;
        out.loc = e.loc;
        return out;
      }
      case Op::Len: {
        if (!touches(e.kids[0])) break;
        std::vector<Expr> numbers = fixed(e.kids[0]);
        requireSafe(numbers);  // none is computed
        return literalInt(static_cast<int64_t>(numbers.size()), e.loc);
      }
      case Op::Index: {
        if (!touches(e.kids[0])) break;
        std::vector<Expr> numbers = fixed(e.kids[0]);
        auto i = static_cast<size_t>(constantIndex(e.kids[1], numbers.size()));
        requireSafe(numbers, 0, i);  // only number i is computed
        requireSafe(numbers, i + 1);
        return numbers[i];
      }
      case Op::MinList:
      case Op::MaxList: {
        if (!touches(e.kids[0])) break;
        std::vector<Expr> numbers = fixed(e.kids[0]);
        if (numbers.empty()) throw Unsupported{};  // the evaluator's error
        Expr acc = numbers[0];
        for (size_t i = 1; i < numbers.size(); ++i)
          acc = binary(e.op == Op::MinList ? Op::Min : Op::Max, std::move(acc), numbers[i], e.loc);
        return acc;
      }
      default:
        break;
    }
    Expr out = e;
    for (Expr& k : out.kids) k = k.type == Type::Int || k.type == Type::Bool ? integer(k) : list(k);
    return fold(std::move(out));
  }

  // A list expression that does not read the list parameter (nor a list
  // let), with its integers rewritten: a constant, a range, a literal.
  Expr list(const Expr& e) {
    if (touches(e)) throw Unsupported{};
    if (!e.steps.empty()) return untouched(e);
    Expr out = e;
    for (Expr& k : out.kids) k = k.type == Type::Int || k.type == Type::Bool ? integer(k) : list(k);
    return out;
  }

  // A comprehension, kept as it is when it reads nothing rewritten here.
  Expr untouched(const Expr& e) const {
    std::set<int> unrolled;
    for (const auto& [slot, _] : ints_) unrolled.insert(slot);
    if (touches(e) || readsIntSlot(e, unrolled)) throw Unsupported{};
    return e;
  }

  // Whether `e` reads the list parameter or a list let.
  bool touches(const Expr& e) const {
    return anyNode(e, [&](const Expr& n) {
      return n.op == Op::ListVar && lists_.count(static_cast<int>(n.imm));
    });
  }

  // Folds arithmetic, min, max and comparisons of numbers, and not, and, or
  // of known conditions; anything that fails (an overflow, a division by
  // zero) is left to run, and fail there.
  static Expr fold(Expr e) {
    if (e.kids.empty() || !std::all_of(e.kids.begin(), e.kids.end(), isConst)) return e;
    const int64_t a = e.kids[0].imm, b = e.kids.size() > 1 ? e.kids[1].imm : 0;
    int64_t r = 0;
    switch (e.op) {
      case Op::Add:
        if (!arith::add(a, b, r)) return e;
        break;
      case Op::Sub:
        if (!arith::sub(a, b, r)) return e;
        break;
      case Op::Mul:
        if (!arith::mul(a, b, r)) return e;
        break;
      case Op::Neg:
        if (!arith::neg(a, r)) return e;
        break;
      case Op::Div:
        if (b == 0 || !arith::floorDiv(a, b, r)) return e;
        break;
      case Op::Mod:
        if (!arith::floorMod(a, b, r)) return e;
        break;
      case Op::Min:
      case Op::Max:
        r = a;
        for (const Expr& k : e.kids) r = e.op == Op::Min ? std::min(r, k.imm) : std::max(r, k.imm);
        break;
      case Op::Eq:
        r = a == b;
        break;
      case Op::Ne:
        r = a != b;
        break;
      case Op::Lt:
        r = a < b;
        break;
      case Op::Le:
        r = a <= b;
        break;
      case Op::Gt:
        r = a > b;
        break;
      case Op::Ge:
        r = a >= b;
        break;
      case Op::Not:
        r = a == 0;
        break;
      case Op::And:
        r = a != 0 && b != 0;
        break;
      case Op::Or:
        r = a != 0 || b != 0;
        break;
      default:
        return e;
    }
    return literalInt(r, e.loc, e.type);
  }

  const Program& P;
  const Game& G;
  int game_;
  int64_t length_;
  int specId_;
  std::map<int, std::vector<Expr>> lists_;  // list slot -> its numbers
  std::map<int, Expr> ints_;                // unrolled int slot -> what it stands for
  int intSlots_ = 0;                        // the integer game's slots so far
};

}  // namespace

void specializeLists(Program& program) {
  size_t games = program.games.size();
  for (size_t g = 0; g < games; ++g) {
    const Game& game = program.games[g];
    if (game.params.size() != 1 || game.params[0].type != Type::List || game.loopy) continue;
    std::vector<int> byLength(kMaxLength + 1, -1);
    for (int64_t length = 1; length <= kMaxLength; ++length) {
      auto id = static_cast<int>(program.games.size());
      try {
        Game spec = Specializer(program, static_cast<int>(g), length, id).run();
        program.games.push_back(std::move(spec));
        byLength[static_cast<size_t>(length)] = id;
      } catch (const Unsupported&) {
      }
    }
    program.games[g].byLength = std::move(byLength);
  }
}

}  // namespace gdsl::ir
