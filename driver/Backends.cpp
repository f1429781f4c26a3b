// Backend names and construction.
#include "driver/Backends.h"

#include "backend/interp/Interpreter.h"
#include "backend/jit/JitBackend.h"
#include "driver/JitLoader.h"

namespace gdsl {

std::optional<BackendKind> parseBackendKind(const std::string& name) {
  if (name == "interp") return BackendKind::Interp;
  if (name == "jit") return BackendKind::Jit;
  if (name == "auto") return BackendKind::Auto;
  return std::nullopt;
}

const char* backendKindName(BackendKind kind) {
  switch (kind) {
    case BackendKind::Interp:
      return "interp";
    case BackendKind::Jit:
      return "jit";
    case BackendKind::Auto:
      break;
  }
  return "auto";
}

std::unique_ptr<Backend> makeBackend(PositionBuilder& positions, BackendKind kind,
                                     std::string& error, std::string* log, TieringOptions tiering) {
  switch (kind) {
    case BackendKind::Interp:
      if (log) *log += "gdsl: backend interp\n";
      return std::make_unique<Interpreter>(positions);
    case BackendKind::Jit: {
      auto jit = loadJit(positions, error);
      if (jit && log)
        *log +=
            "gdsl: backend jit (games compile on first use; LLVM loads on the first function "
            "not in the code cache)\n";
      return jit;
    }
    case BackendKind::Auto:
      if (log) *log += "gdsl: backend auto: the interpreter until the work pays for compiling\n";
      return makeTieredBackend(positions, makeJitBackend, log, tiering);
  }
  return nullptr;
}

bool llvmIr(const ir::Program& program, std::string& ir, std::string& error) {
  return jitLlvmIr(program, ir, error);
}

}  // namespace gdsl
