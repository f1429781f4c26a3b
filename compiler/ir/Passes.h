// The IR passes, run after lowering by runPasses (compiler/ir/Pipeline.cpp,
// the one place that knows their order), in this order:
//   foldConstants      evaluates every `const` once and replaces references to
//                      it by literals (ints, list pool entries, ranges)
//   checkAmounts       rejects constant `take`/`remove` amounts below 1 (a move
//                      that does not shrink the heap never ends)
//   specializeLists    adds, for each game over one list, an integer game per
//                      list length that stands for its positions of that length
//   analyzeTakeBreak   marks one-heap take-and-break games with the largest
//                      number of tokens a move removes (for proved periods)
//   narrowRanges       bounds a binder's range by the guards after it
//                      (`k in 1..N when k <= n` walks 1..min(N, n))
//   markBitSets        marks one-heap games whose successors are computed with
//                      & | ^ << >>: a board as a bitmask, searched, not tabled
//   markCellMoves      finds, among those, the games whose moves each need some
//                      cells set and clear some: a board that splits into parts
#pragma once

#include "compiler/ir/Ir.h"
#include "compiler/support/Diagnostics.h"

namespace gdsl::ir {

// Runs every pass below on a program just lowered, in order; `constants`
// receives the constants' values (for foldStatement). False, with the errors
// in `diagnostics`, when the program is refused: a constant that cannot be
// computed, or an amount check that fails.
bool runPasses(Program& program, std::vector<Expr>& constants, DiagnosticSink& diagnostics);

// Returns the constants' values (as literal expressions, by constant id).
// Throws RuntimeError when a constant's value cannot be computed.
std::vector<Expr> foldConstants(Program& program);
// Folds a statement compiled after the program (uses the values above).
void foldStatement(Statement& statement, const std::vector<Expr>& values);

void checkAmounts(const Program& program, DiagnosticSink& diagnostics);

void specializeLists(Program& program);

void analyzeTakeBreak(Program& program);

void narrowRanges(Program& program);

void markBitSets(Program& program);

void markCellMoves(Program& program);

}  // namespace gdsl::ir
