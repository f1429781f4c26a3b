// Lowers the move IR of every game to LLVM IR: per one-heap game two kernels
// `i64 kernel(ctx, n, table)` that compute g(n) from g(0..n-1) with an inline
// mex, one for a table of 16-bit values and one for 32-bit values, and per game an enumerator `i32
// enumerate(ctx, words)` that builds each successor's components and hands the move to the engine.
// Internal to backend/jit (it includes LLVM headers).
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl::jit {

// Names of the emitted functions.
std::string kernelName(int game, bool wide);
std::string enumeratorName(int game);
// Whether game `g` gets a kernel (one integer parameter, no normalize).
bool hasKernel(const ir::Game& g);
// The native search `i32 search(ctx, words)` a game gets, by the memo it
// fills (runtime/Backend.h): none; a dense box (two or more integer
// parameters); a packed table of words (one integer parameter that is not
// tabled: a set of bits, or a normalize rule). Its normalize rule, if any,
// must be made of operations that cannot fail.
enum class NativeKind { None, Box, Word };
NativeKind nativeKind(const ir::Game& g);
std::string nativeName(int game);

// Emits game `game`'s functions into `module`; `locs` receives the source
// range of every location index the code passes to the error helper.
void emitGame(const ir::Program& program, int game, llvm::Module& module,
              std::vector<SourceRange>& locs);

}  // namespace gdsl::jit
