// Choosing a backend: the interpreter, the JIT, or `auto`, which starts on the
// interpreter and moves to the JIT once enough work has been done for the
// compilation to pay off (both give the same answers, so the switch is safe
// at any moment).
#pragma once

#include <memory>
#include <string>

#include "runtime/Backend.h"

namespace gdsl {

enum class BackendKind { Interp, Jit, Auto };

// Null with `error` set when the JIT cannot be built. `log`, when not null,
// receives what `--verbose` reports (the backend chosen, compile times).
std::unique_ptr<Backend> makeBackend(const ir::Program& program, BackendKind kind,
                                     std::string& error, std::string* log = nullptr);

// The optimized LLVM IR of the program (gdsl check --dump=llvm).
bool llvmIr(const ir::Program& program, std::string& ir, std::string& error);

}  // namespace gdsl
