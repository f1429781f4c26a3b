// The interface of the JIT plugin (libgdsl-jit.so, the only code that links
// LLVM), as the backend (backend/jit/JitBackend.cpp) and the loader
// (driver/JitLoader.cpp) see it: a compiler from one function of a game to an
// ELF object, created by a C entry point looked up by name. The plugin is
// loaded only when a function is not in the code cache.
#pragma once

#include <string>

#include "backend/jit/Functions.h"
#include "backend/jit/JitCache.h"
#include "compiler/ir/Ir.h"

namespace gdsl::jit {

// One function to compile.
struct CompileRequest {
  const ir::Program* program = nullptr;
  int game = 0;
  Emitted what = Emitted::Enumerator;
  int64_t length = -1;  // a list game's search: the list length it is specialized to
  // The location index the function's first error call gets (the backend's
  // table of locations is shared by all functions).
  int32_t firstLocation = 0;
  // When not null, receives the optimized LLVM IR (gdsl check --dump=llvm).
  std::string* optimizedIr = nullptr;
};

class ObjectCompiler {
 public:
  virtual ~ObjectCompiler() = default;
  // Compiles `request` for the host CPU, position-independent: the object
  // defines functionName(game, what, length) and calls the helpers of
  // backend/jit/JitRuntime.h by name. False with `error` set when LLVM fails.
  virtual bool compile(const CompileRequest& request, CompiledObject& out, std::string& error) = 0;
};

}  // namespace gdsl::jit

extern "C" {
// A compiler for the host, or null with `error` set; `setupMillis` receives
// the time LLVM took to start.
using GdslJitCompilerCreate = gdsl::jit::ObjectCompiler* (*)(std::string* error,
                                                             double* setupMillis);
}
