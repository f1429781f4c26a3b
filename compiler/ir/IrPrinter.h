// Prints the move IR for `gdsl check --dump=ir`: one block per game, one line
// per step, expressions as s-expressions over slots (i0 = int slot 0, l0 =
// list slot 0).
#pragma once

#include <string>

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

std::string printExpr(const Program& program, const Expr& expr);
std::string printGame(const Program& program, const Game& game);
std::string printProgram(const Program& program);

}  // namespace gdsl::ir
