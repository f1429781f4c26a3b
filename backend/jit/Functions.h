// Which native functions a game gets from the JIT, and their names: what the
// compiler (backend/jit/Codegen.cpp, in the plugin) and the backend that calls
// the functions (backend/jit/JitBackend.cpp, without LLVM) agree on.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include "compiler/ir/Ir.h"
#include "runtime/NativeMemo.h"

namespace gdsl::jit {

// The functions a game may get, each compiled on its first use.
// A game with two or more integer parameters gets two native searches, over a
// box of 16-bit cells (Search) and over one of 32-bit cells (SearchWide,
// compiled only once the box has been widened: runtime/DenseBox.h).
enum class Emitted { Kernel16, Kernel32, Enumerator, Search, SearchWide };
inline constexpr Emitted kEmitted[] = {Emitted::Kernel16, Emitted::Kernel32, Emitted::Enumerator,
                                       Emitted::Search, Emitted::SearchWide};
// Its name in the JIT: gdsl_kernel16_G, gdsl_kernel32_G, gdsl_enumerate_G, gdsl_search_G,
// gdsl_search_wide_G; gdsl_search_G_L for the search of a list game specialized to lists of
// length L.
std::string functionName(int game, Emitted what, int64_t length = -1);
// Whether game `g` gets a kernel (one integer parameter, no normalize).
bool hasKernel(const ir::Game& g);
// Whether game `g` gets a native search `i32 search(ctx, words)`, over the
// memo runtime/NativeMemo.h's memoKind picks for it (the engine asks the same
// rule, so the memo it hands the search is the one the code was made for):
// every game with a memo, except that the normalize rule of integer
// parameters, if any, must be made of operations that cannot fail (a list's
// may fail: the engine's search then reports the error), and that a game of
// one integer without a normalize rule must be a set of bits (else its kernel
// tables it).
bool hasSearch(const ir::Game& g);
// Whether game `g` gets function `what` (every game gets an enumerator).
bool emits(const ir::Game& g, Emitted what);
// Whether an enumerator is cold: its game has a kernel or a native search, so
// it only lists the moves of a position asked about. A cold function is
// compiled for speed of compilation, every other one for speed of its code.
bool isCold(const ir::Game& g, Emitted what);
// Whether `e` is made of operations that cannot fail (a normalize rule made
// of them runs inline).
bool cannotFail(const ir::Expr& e);

}  // namespace gdsl::jit
