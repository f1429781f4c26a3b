// The interface between the engine and a backend (interpreter or JIT): "given
// a position, produce its moves", "normalize a position", and for one-heap
// games "given the table g[0..n-1], produce g[n]" (the hot kernel). The engine
// does not know which backend runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/Evaluator.h"
#include "runtime/NativeMemo.h"
#include "runtime/NimTable.h"
#include "runtime/Position.h"

namespace gdsl {

// Receives the moves of a position, one call per move. `frame` holds the
// move's variables (for labels like take(k=3)); `components` is the successor,
// each component normalized. Both are only valid during the call. Returning
// false stops the enumeration.
class MoveSink {
 public:
  virtual ~MoveSink() = default;
  virtual bool onMove(const ir::Move& move, const ir::Frame& frame,
                      std::span<const Position> components) = 0;
};

// Values of components the kernel cannot read from its table.
class ValueOracle {
 public:
  virtual ~ValueOracle() = default;
  virtual uint32_t valueOf(const Position& position) = 0;
};

// What a backend has computed so far: tests check which backend served what
// (the tiered backend's two tiers, say).
struct BackendWork {
  uint64_t kernelHeaps = 0;        // heapValue calls
  uint64_t searchedPositions = 0;  // positions its native searches expanded
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // Every move of `position`, in rule order. Throws RuntimeError.
  virtual void enumerate(const Position& position, MoveSink& sink) = 0;
  // g(n) of one-heap game `game` (without a normalize rule): successor
  // components G(m) with m < n are read from table[m]; every other component
  // is asked of `oracle`. Throws RuntimeError.
  virtual uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) = 0;
  // Whether searchNative can search game `game` now.
  virtual bool searchesNatively(int /*game*/) { return false; }
  // Computes the value of the position of `game` with parameters `words`
  // (normalized; inside the box, if the memo is one) and of every successor
  // it needs, into `memo`: successors of the same game are read from the
  // memo or searched recursively, other components are asked of `oracle`. On
  // any status but Done, the memo holds no mark of the search (finished
  // values stay). It recurses on the machine stack down to the address
  // `stackFloor` (the engine's budget for all nested searches), then stops
  // with Deep. Throws only Interrupted (and what is not a RuntimeError).
  virtual NativeStatus searchNative(int /*game*/, const int64_t* /*words*/, NativeMemo /*memo*/,
                                    ValueOracle& /*oracle*/, std::vector<int64_t>& /*miss*/,
                                    uint64_t /*stackFloor*/) {
    return NativeStatus::Unsupported;
  }
  // What --verbose says at the end of a run (compile times, say).
  virtual std::string report() const { return {}; }
  virtual BackendWork work() const { return {}; }
};

}  // namespace gdsl
