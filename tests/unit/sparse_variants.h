// The engines the sparse-space tests compare (docs/heaps.md, "Sparse
// space"): sparse space forced on from heap 64 with the best class, with the
// heap-parity term in every class, with a class drawn at random at each
// check (sparse space must be exact for any class), and the default engine
// (the method chosen by cost, periods proved on the fly).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/Engine.h"

namespace testing {

// Sparse space from heap 64, even where it costs more than the plain method.
inline gdsl::EngineOptions forcedSparse() {
  gdsl::EngineOptions forced;
  forced.sparse.firstCheck = 64;
  forced.sparse.always = true;
  return forced;
}

// The four engines, named; `seed` draws the random classes.
inline std::vector<std::pair<const char*, gdsl::EngineOptions>> sparseVariants(uint64_t seed) {
  gdsl::EngineOptions parity = forcedSparse();
  parity.sparse.parity = 1;
  gdsl::EngineOptions random = forcedSparse();
  random.sparse.randomSeed = seed;
  return {{"forced sparse space", forcedSparse()},
          {"forced heap parity", parity},
          {"random classes", random},
          {"default engine", gdsl::EngineOptions{}}};
}

}  // namespace testing
