// Prints an AST module back as gdsl source: `gdsl check --dump=ast` (sugar as
// written) and `--dump=desugared` (every rule as a plain `move`).
#pragma once

#include <string>

#include "compiler/ast/Ast.h"

namespace gdsl::ast {

std::string printExpr(const Expr& expr);
// `followed`: more source follows (a sum term is then parenthesized).
std::string printSuccessor(const Successor& successor, bool followed = false);
// `[P for x in D ...]`: the positions of a `table [...]` statement.
std::string printTableOf(const Statement& statement);
std::string printModule(const Module& module);

}  // namespace gdsl::ast
