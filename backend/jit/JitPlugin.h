// The interface of the JIT plugin (backend/jit/Plugin.cpp), as the loader
// (driver/JitLoader.cpp) sees it: C entry points, looked up by name.
#pragma once

#include <string>

#include "compiler/ir/Ir.h"
#include "runtime/Backend.h"

namespace gdsl {
class PositionBuilder;
}

extern "C" {
// A JIT backend over the program of `positions` (the caller owns it), or null
// with `error` set; `setupMillis` receives the time LLVM took to start.
using GdslJitCreate = gdsl::Backend* (*)(gdsl::PositionBuilder* positions, std::string* error,
                                         double* setupMillis);
// The optimized LLVM IR of every game of `program`.
using GdslJitLlvmIr = bool (*)(const gdsl::ir::Program* program, std::string* ir,
                               std::string* error);
}
