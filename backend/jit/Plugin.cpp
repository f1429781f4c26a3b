// The entry points of the JIT plugin (libgdsl-jit.so): the only symbols the
// gdsl executable looks up with dlsym (driver/JitLoader.cpp). The plugin is
// loaded the first time a JIT is needed, so libLLVM is never mapped by a run
// that only interprets. Everything else the plugin uses (the engine's types,
// RuntimeError, the interrupt flag) it takes from the executable, which
// exports its symbols: one copy of each in the process.
#include "backend/jit/JitBackend.h"
#include "backend/jit/JitPlugin.h"
#include "runtime/PositionBuilder.h"

extern "C" {

gdsl::Backend* gdsl_jit_create(gdsl::PositionBuilder* positions, std::string* error,
                               double* setupMillis) {
  std::unique_ptr<gdsl::jit::JitBackend> jit = gdsl::jit::JitBackend::create(*positions, *error);
  if (!jit) return nullptr;
  *setupMillis = jit->compileMillis();
  return jit.release();
}

bool gdsl_jit_llvm_ir(const gdsl::ir::Program* program, std::string* ir, std::string* error) {
  gdsl::PositionBuilder positions(*program);
  std::unique_ptr<gdsl::jit::JitBackend> jit = gdsl::jit::JitBackend::create(positions, *error);
  if (!jit || !jit->compileAll(*error)) return false;
  *ir = jit->optimizedIr();
  return true;
}

}  // extern "C"
