// The backends a unit test runs on: the interpreter and the JIT (every build
// has both: LLVM is required). The `auto` backend runs the golden suite and
// the tiered-switch test (tiered_test.cpp).
#pragma once

#include <vector>

#include "driver/Backends.h"

namespace testing {

inline std::vector<gdsl::BackendKind> backends() {
  return {gdsl::BackendKind::Interp, gdsl::BackendKind::Jit};
}

}  // namespace testing
