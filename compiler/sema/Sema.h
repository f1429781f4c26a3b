// Semantic analysis: resolves names (games, constants, locals), checks arity
// and types, and desugars take/split/remove/octal into plain `move` rules, in
// place on the AST. Errors go to the sink; nothing is printed.
#pragma once

#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"

namespace gdsl {

struct ConstDecl {
  const ast::Statement* statement = nullptr;  // the `const` statement
  ast::Type type = ast::Type::Unknown;
};

// The checked program: every game and constant of every loaded module, with
// ids that the annotated AST refers to.
struct CheckedProgram {
  std::vector<ast::Game*> games;  // by game id
  std::vector<ConstDecl> consts;  // by const id, in definition order
};

// The names of the built-in functions, and the words that are keywords only
// where they stand (`if` in a comprehension, `show` in a game body): what the
// REPL completes besides the keywords.
const std::vector<std::string>& builtinFunctions();
const std::vector<std::string>& contextualWords();

// Checks `modules` (imports first, the main file last) as one program.
// Returns false when there were errors.
bool analyze(std::vector<ast::Module>& modules, DiagnosticSink& diagnostics, CheckedProgram& out);

// Checks the statements of `extra` (positions, tables, periods) in the scope
// of an already analyzed program. Declarations and imports are refused.
bool analyzeStatements(ast::Module& extra, CheckedProgram& program, DiagnosticSink& diagnostics);

// Desugars the sugar lines and octal code of `game` into `move` rules
// (compiler/sema/Desugar.cpp). Reports misuse (sugar in a game that is not
// one-heap, a bad octal code) to `diagnostics`.
void desugar(ast::Game& game, DiagnosticSink& diagnostics);

}  // namespace gdsl
