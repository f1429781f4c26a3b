// A native search over any backend's move enumeration (Backend::enumerate):
// the contract of Backend::searchNative for a backend that has no faster way
// to run a game's moves (the interpreter, for list games and for games its
// compiled moves do not cover). The walk over the memo is runtime/MemoSearch.h.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/Backend.h"

namespace gdsl {

// Searches position `words` of `game` into `memo` (as Backend::searchNative);
// adds the positions it expanded to `expanded`.
NativeStatus searchByEnumeration(Backend& backend, const ir::Program& program, int game,
                                 const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                                 std::vector<int64_t>& miss, uint64_t stackFloor, YieldPoll* yield,
                                 uint64_t& expanded);

}  // namespace gdsl
