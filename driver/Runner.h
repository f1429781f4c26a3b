// Runs statements (eval, eval misere, moves, table, period, assert) on an
// engine and hands each result to an Output. Runtime errors become
// diagnostics; the run goes on with the next statement.
#pragma once

#include <optional>

#include "driver/Results.h"
#include "driver/Stack.h"

namespace gdsl {

class Runner {
 public:
  // Runs on a started stack; the misère memo is the stack's, so it lasts as
  // long as the stack does.
  Runner(Stack& stack, Output& output)
      : engine_(stack.engine()),
        positions_(stack.positions()),
        misere_(stack.misere()),
        output_(output) {}

  // False when the statement reported an error (a failed assert included).
  bool run(const ir::Statement& statement);

  // The most moves eval visits looking for a winning move (a heap of
  // billions may have as many): past it, EvalResult::moveSearchStopped.
  static constexpr uint64_t kWinningMoveSearch = uint64_t{1} << 26;
  void setWinningMoveSearch(uint64_t moves) { winningMoveSearch_ = moves; }

  // The parts of statements, for sessions and tests.
  Sum position(const ir::PositionExpr& position);
  EvalResult eval(const Sum& sum);
  // eval of a sum with a position of a loopy game (runtime/Loopy.h).
  EvalResult loopyEval(const Sum& sum);
  std::vector<uint64_t> heapValues(int game, int64_t lo, int64_t hi);

 private:
  MoveText describe(const Sum& sum, size_t component, const MoveRecord& move, uint64_t grundy);
  // The value of a sum where only it is wanted (assert): as eval values it,
  // a board that splits by the pruning search (Engine::valueIs).
  uint32_t exactValue(const Sum& sum);
  MisereResult misere(const Sum& sum);
  MovesResult moves(const Sum& sum);
  // moves of a sum with a position of a loopy game: each move's value, the
  // moves to a lost sum (and, from a draw, those that keep it) first.
  MovesResult loopyMoves(const Sum& sum);
  TableResult table(const ir::Statement& s);
  TableResult listedTable(const ir::Statement& s);
  TableResult tableOf(const ir::Statement& s);
  PeriodResult period(const ir::Statement& s);
  void report(const RuntimeError& e, const ir::Statement& s);

  Engine& engine_;
  PositionBuilder& positions_;
  MisereSolver& misere_;
  uint64_t winningMoveSearch_ = kWinningMoveSearch;
  Output& output_;
};

}  // namespace gdsl
