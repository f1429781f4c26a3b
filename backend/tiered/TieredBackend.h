// The `auto` backend: the interpreter first; once it has been busy for a
// moment, a worker thread gets the JIT ready (its functions from the code
// cache, or compiled by LLVM) while the interpreter goes on, and from the
// moment the JIT is ready every call runs native code. A native search in
// progress on the interpreter is handed over at once (NativeStatus::Yield):
// the JIT's search goes on over the memo the interpreter filled.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {

namespace jit {
class JitBackend;
}

// When `auto` gets the JIT ready.
struct TieringOptions {
  // The interpreter's CPU time (the thread's, from the backend's creation)
  // after which a worker that may compile starts: a run shorter than this
  // never loads LLVM.
  std::chrono::microseconds start{10'000};
  // Before that, after this much, a worker looks for the same functions in
  // the code cache only: a hit links them in about a millisecond without
  // LLVM, so a run the cache knows switches early; a miss waits for `start`.
  // A run shorter than this never touches the code cache.
  std::chrono::microseconds cacheStart{2'000};
  // Gets the JIT ready on the calling thread, at the first look after
  // `start`, instead of on a worker: the switch then comes at a known point
  // (tests).
  bool synchronous = false;
  // Looks at the clock skipped first (tests): the interpreter looks every 16
  // kernel calls and every 64 positions of a native search.
  uint32_t skipLooks = 0;
};

// Makes a JIT backend over the program of `positions` (which the worker
// thread owns: a copy of the stack's program), or null with `error` set.
using JitFactory =
    std::function<std::unique_ptr<jit::JitBackend>(PositionBuilder& positions, std::string& error)>;

// The work each tier of a tiered backend did (tests check which served what).
struct TierWork {
  BackendWork interpreter, jit;
  bool switched = false;  // the JIT has taken over
};
// The work of `backend`'s tiers when it is a tiered backend.
std::optional<TierWork> tierWork(const Backend& backend);

// The tiered backend over the program of `positions`. `log`, when not null,
// receives what --verbose says about the switch.
std::unique_ptr<Backend> makeTieredBackend(PositionBuilder& positions, JitFactory makeJit,
                                           std::string* log, TieringOptions options);

}  // namespace gdsl
