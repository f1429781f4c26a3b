// The backends a unit test runs on: the interpreter, and the JIT when the
// build has it (CMake defines GDSL_HAVE_JIT when the LLVM backend is built).
#pragma once

#include <vector>

#include "driver/Backends.h"

namespace testing {

inline std::vector<gdsl::BackendKind> backends() {
#ifndef GDSL_HAVE_JIT
  return {gdsl::BackendKind::Interp};
#else
  return {gdsl::BackendKind::Interp, gdsl::BackendKind::Jit};
#endif
}

inline const char* backendName(gdsl::BackendKind kind) {
  switch (kind) {
    case gdsl::BackendKind::Interp:
      return "interp";
    case gdsl::BackendKind::Jit:
      return "jit";
    case gdsl::BackendKind::Auto:
      return "auto";
  }
  return "?";
}

}  // namespace testing
