// Stopping a computation from outside: Ctrl-C in the REPL and in `gdsl play`
// sets a flag (async-signal-safe); the engine's loops poll it and throw
// Interrupted, leaving every memo in a consistent state (values finished
// before the interruption stay; nothing half-computed is kept).
#pragma once

#include <atomic>
#include <exception>

namespace gdsl {

struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

inline std::atomic<bool>& interruptFlag() {
  static std::atomic<bool> flag{false};
  return flag;
}

// Asks the running computation to stop (safe to call from a signal handler).
inline void requestInterrupt() {
  interruptFlag().store(true, std::memory_order_relaxed);
}
inline void clearInterrupt() {
  interruptFlag().store(false, std::memory_order_relaxed);
}

// Throws Interrupted when a stop was requested; a relaxed load, cheap enough
// for every heap of a table and every position of a search.
inline void checkInterrupt() {
  if (interruptFlag().load(std::memory_order_relaxed)) throw Interrupted{};
}

}  // namespace gdsl
