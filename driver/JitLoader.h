// The JIT backend and its compiler plugin (libgdsl-jit.so, which links
// libLLVM), loaded the first time a function is not in the code cache, so
// that runs on the interpreter, and runs whose code is all cached, never map
// LLVM (docs/architecture.md, "LLVM on demand").
#pragma once

#include <memory>
#include <string>

#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {
namespace jit {
class JitBackend;
class ObjectCompiler;
}  // namespace jit

// A JIT backend over the program of `positions`, or null with `error` set
// (the plugin cannot be found; with `loadCompiler`, also when it cannot be
// loaded or LLVM cannot start: it is then loaded now, not on the first miss).
std::unique_ptr<Backend> loadJit(PositionBuilder& positions, std::string& error,
                                 bool loadCompiler = false);
// The same as a JitBackend (the tiered backend's factory; its compiler is
// loaded on the first miss).
std::unique_ptr<jit::JitBackend> makeJitBackend(PositionBuilder& positions, std::string& error);
// The optimized LLVM IR of the program (gdsl check --dump=llvm).
bool jitLlvmIr(const ir::Program& program, std::string& ir, std::string& error);
// The plugin's compiler (loading the plugin now), or null with `error` set.
std::unique_ptr<jit::ObjectCompiler> loadJitCompiler(std::string& error);
// Where the plugin was looked for, first to last.
std::string jitPluginCandidates();

}  // namespace gdsl
