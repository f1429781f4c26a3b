// Positions from the move IR's terms: the sums written in statements (eval,
// moves, assert, play's start), the successors a walking backend emits, and
// the games' normalize rules, which both backends run here (once per new
// position, not per move), and the games' show forms, which print positions. A stack has one
// PositionBuilder (driver/Stack.h), shared by the driver, the interpreter backend and the JIT.
//
// Re-entrant: normalize runs inside the interpreter's loops, and a statement's
// position is normalized while it is built, so every call works in its own
// scratch frame, one per nesting depth. Lists built while evaluating live in
// one arena, released to a mark when a loop's body or a call ends.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "compiler/ir/Evaluator.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Position.h"

namespace gdsl {

// Calls `body` and says whether the walk it is part of goes on: its result
// if it returns one (false: stop), true if it returns nothing.
template <typename Body>
bool callContinues(Body& body) {
  if constexpr (std::is_void_v<std::invoke_result_t<Body&>>) {
    body();
    return true;
  } else {
    return static_cast<bool>(body());
  }
}

// The loop of a binder over its domain, with `eval` and the lists it builds
// in `arena` (released to the loop's mark after each element): shared by
// the PositionBuilder and the interpreter, which keeps its own evaluator so
// that its hot loops reach it without an indirection.
//
// A body that returns bool stops the walk by returning false; then so does
// forEachInDomain. A body that returns nothing sees every element.
template <typename Body>
bool forEachInDomain(const ir::Evaluator& eval, ir::ListArena& arena, const ir::Step& s,
                     const ir::Frame& f, Body&& body) {
  ir::ListArena::Mark mark = arena.mark();
  if (s.domain.isRange) {
    int64_t lo = eval.evalInt(s.domain.lo, f), hi = eval.evalInt(s.domain.hi, f);
    for (int64_t v = lo; v <= hi; ++v) {
      if ((v & 0xffff) == 0) checkInterrupt();  // a huge range can take long
      f.ints[s.slot] = v;
      bool more = callContinues(body);
      arena.release(mark);
      if (!more) return false;
      if (v == hi) break;  // no overflow at INT64_MAX
    }
    return true;
  }
  if (s.domain.list.type == ir::Type::ListList) {
    for (int row : eval.nested(s.domain.list)) {
      f.lists[s.slot] = eval.poolList(row);
      bool more = callContinues(body);
      arena.release(mark);
      if (!more) return false;
    }
    return true;
  }
  ir::ListVal l = eval.evalList(s.domain.list, f);
  ir::ListArena::Mark inner = arena.mark();
  for (int64_t i = 0; i < l.size; ++i) {
    if ((i & 0xffff) == 0xffff) checkInterrupt();  // a range's list can be huge
    f.ints[s.slot] = l.at(i);
    bool more = callContinues(body);
    arena.release(inner);
    if (!more) {
      arena.release(mark);
      return false;
    }
  }
  return true;
}

class PositionBuilder {
 public:
  explicit PositionBuilder(const ir::Program& program);
  ~PositionBuilder();
  PositionBuilder(const PositionBuilder&) = delete;
  PositionBuilder& operator=(const PositionBuilder&) = delete;

  const ir::Program& program() const { return program_; }

  // The components of a position written in a statement, each normalized.
  // Throws RuntimeError.
  Sum evalPosition(const ir::PositionExpr& position);
  // Each position of `table [P for ...]`: the components of `position`,
  // each normalized, once per pass through `steps` (binders over ranges and
  // lists, lets, guards), in order. Throws RuntimeError.
  void forEachPosition(const std::vector<ir::Step>& steps, const ir::PositionExpr& position,
                       const std::function<void(Sum)>& each);
  // A constant integer expression (table bounds and the like).
  int64_t evalConstant(const ir::Expr& expr);
  // An integer expression over `frame` (a table's bounds that read the
  // ranges before them).
  int64_t evalInFrame(const ir::Expr& expr, const ir::Frame& frame);
  // Applies the game's normalize rule in place. Throws RuntimeError when the
  // rule fails or makes a parameter negative.
  void normalize(Position& position);

  // The text of `position` by its game's `show` form (docs/language.md), or
  // formatPosition's when the game has none. Throws RuntimeError when a
  // drawing fails; the message names the position.
  std::string show(const Position& position);
  // A sum in that form; "" when no component's game has a show form.
  std::string showSum(const Sum& sum);

  // The pieces a backend that walks the IR builds its moves from.
  //
  // How a negative parameter is described in the error: the position written
  // in a statement, or a successor of a move.
  enum class Role { Position, Successor };
  // Binds the parameters of `game` in `frame` to the words of `position`.
  static void bindParams(const ir::Game& game, const Position& position, const ir::Frame& frame);
  // Appends the normalized components of `terms` (with `sum ... for` terms
  // expanded) to `out`.
  void emitTerms(const std::vector<ir::Term>& terms, const ir::Frame& frame, Role role,
                 std::vector<Position>& out);
  // One position term, evaluated in `frame` and normalized. Lists its
  // arguments build are released before it returns.
  Position makePosition(const ir::Term& term, const ir::Frame& frame, Role role);
  // Calls `body` with the binder's variable set to each element of its domain
  // in turn; lists built by the body are released after each element. A
  // body that returns false stops the walk (forEach then returns false).
  template <typename Body>
  bool forEach(const ir::Step& binder, const ir::Frame& frame, Body&& body) {
    return forEachInDomain(eval_, arena_, binder, frame, std::forward<Body>(body));
  }
  // Names `position` in an error that does not name one yet.
  void addContext(RuntimeError& error, const Position& position) const;

 private:
  struct Scratch;
  class Scope;

  // A normalize rule that only sorts some list parameters and keeps the
  // others (`normalize -> M(sort(h))`) runs as a sort of the words, without
  // the evaluator: per game, for each parameter, whether it is sorted. Empty
  // for a game without such a rule.
  std::vector<std::vector<bool>> sortOnly_;
  // A rule that sorts two integer parameters (min and max:
  // ir::normalizedOrder) runs as one comparison: per game, the order.
  std::vector<std::vector<size_t>> sortedPair_;

  const ir::Program& program_;
  ir::ListArena arena_;
  ir::Evaluator eval_;
  std::vector<std::unique_ptr<Scratch>> scratch_;  // one per nesting depth
  size_t depth_ = 0;
};

}  // namespace gdsl
