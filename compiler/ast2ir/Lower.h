// ast2ir: lowers the checked, desugared AST to the move IR. Locals get frame
// slots, names of constants become ConstRef (folded later by ConstFold),
// built-in calls become opcodes.
#pragma once

#include <vector>

#include "compiler/ir/Ir.h"
#include "compiler/sema/Sema.h"

namespace gdsl {

// Lowers every game and constant of `checked`, and the statements of
// `mainModule` (statements of imported modules are not run).
ir::Program lowerProgram(const CheckedProgram& checked, const ast::Module& mainModule);

// Lowers the statements of a module compiled after the program.
std::vector<ir::Statement> lowerStatements(const CheckedProgram& checked,
                                           const ast::Module& module);

}  // namespace gdsl
