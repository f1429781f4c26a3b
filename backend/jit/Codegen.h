// Lowers the move IR of a game to LLVM IR, one function at a time: per one-heap
// game two kernels `i64 kernel(ctx, n, table)` that compute g(n) from
// g(0..n-1) with an inline mex, one for a table of 16-bit values and one for
// 32-bit values; per game an enumerator `i32 enumerate(ctx, words)` that
// builds each successor's components and hands the move to the engine; and a
// native search `i32 search(ctx, words)` for the games nativeKind names.
// Internal to backend/jit (it includes LLVM headers).
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

#include "backend/jit/Functions.h"
#include "compiler/ir/Ir.h"

namespace gdsl::jit {

// Emits game `game`'s function `what` into `module`; `locs` receives the
// source range of every location index the code passes to the error helper.
// The native search of a list game is emitted for one length of list
// (`length`, 0..15), so its loops over the list have a known trip count and
// unroll as a hand-written loop over an array would; a successor of another
// length goes to the search for that length (gdsl_jit_search_length).
void emitFunction(const ir::Program& program, int game, Emitted what, int64_t length,
                  llvm::Module& module, std::vector<SourceRange>& locs);

}  // namespace gdsl::jit
