// Loads the JIT plugin (libgdsl-jit.so, which links libLLVM) the first time a
// JIT backend is asked for, so that runs on the interpreter never map LLVM
// (docs/architecture.md, "LLVM on demand").
#pragma once

#include <memory>
#include <string>

#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {

// A JIT backend over the program of `positions`, or null with `error` set
// (the plugin cannot be found or loaded, or LLVM cannot start).
// `setupMillis` receives the time LLVM took to start.
std::unique_ptr<Backend> loadJit(PositionBuilder& positions, std::string& error,
                                 double* setupMillis = nullptr);
// The optimized LLVM IR of the program (gdsl check --dump=llvm).
bool jitLlvmIr(const ir::Program& program, std::string& ir, std::string& error);
// Where the plugin was looked for, first to last.
std::string jitPluginCandidates();

}  // namespace gdsl
