// The backends a unit test runs on: the interpreter and the JIT (every build
// has both: LLVM is required). The `auto` backend runs the golden suite and
// the tiered-switch test (tiered_test.cpp). And `outcome`, for tests that
// compare answers across backends errors included.
#pragma once

#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/Session.h"

namespace testing {

inline std::vector<gdsl::BackendKind> backends() {
  return {gdsl::BackendKind::Interp, gdsl::BackendKind::Jit};
}

// The value of `position`, or "error: " and the message.
inline std::string outcome(gdsl::Session& s, const std::string& position) {
  try {
    return std::to_string(s.grundy(position));
  } catch (const gdsl::SessionError& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace testing
