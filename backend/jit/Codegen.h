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

#include "compiler/ir/Ir.h"

namespace gdsl::jit {

// The functions a game may get, each compiled on its first use.
enum class Emitted { Kernel16, Kernel32, Enumerator, Search };
inline constexpr Emitted kEmitted[] = {Emitted::Kernel16, Emitted::Kernel32, Emitted::Enumerator,
                                       Emitted::Search};
// Its name in the JIT: gdsl_kernel16_G, gdsl_kernel32_G, gdsl_enumerate_G, gdsl_search_G;
// gdsl_search_G_L for the search of a list game specialized to lists of length L.
std::string functionName(int game, Emitted what, int64_t length = -1);
// Whether game `g` gets a kernel (one integer parameter, no normalize).
bool hasKernel(const ir::Game& g);
// The native search `i32 search(ctx, words)` a game gets, by the memo it
// fills (runtime/Backend.h): none; a dense box (two or more integer
// parameters); a packed table of words (one integer parameter that is not
// tabled: a set of bits, or a normalize rule) or one list parameter, packed
// (runtime/ListKey.h). The normalize rule of integer parameters, if any, must
// be made of operations that cannot fail; a list's may fail (the engine's
// search then reports the error).
enum class NativeKind { None, Box, Word, List };
NativeKind nativeKind(const ir::Game& g);
// Whether game `g` gets function `what` (every game gets an enumerator).
bool emits(const ir::Game& g, Emitted what);

// Emits game `game`'s function `what` into `module`; `locs` receives the
// source range of every location index the code passes to the error helper.
// The native search of a list game is emitted for one length of list
// (`length`, 0..15), so its loops over the list have a known trip count and
// unroll as a hand-written loop over an array would; a successor of another
// length goes to the search for that length (gdsl_jit_search_length).
void emitFunction(const ir::Program& program, int game, Emitted what, int64_t length,
                  llvm::Module& module, std::vector<SourceRange>& locs);

}  // namespace gdsl::jit
