// Stopping a computation from outside: Ctrl-C (in the REPL and `gdsl play`),
// SIGINT or SIGTERM to a checkpointed run (cli/main.cpp), or a resource
// limit (the watchdog, runtime/Limits.h) sets a flag with the
// reason (async-signal-safe); the engine's loops, the interpreter and the
// JIT's range loops poll it and throw Interrupted, leaving every memo in a
// consistent state (values finished before the interruption stay; nothing
// half-computed is kept). The flag lives with the compiler's support code
// because the compiler's reference evaluator polls it too.
#pragma once

#include <atomic>
#include <exception>

namespace gdsl {

// User: Ctrl-C in the REPL or `gdsl play`. Signal: SIGINT or SIGTERM to a
// command run with --checkpoint, which saves a last checkpoint before it exits.
enum class StopReason : int { None = 0, User, Timeout, Memory, Signal };

inline std::atomic<int>& interruptFlag() {
  static std::atomic<int> flag{0};
  return flag;
}

// Set once a stop has been taken up (an Interrupted was made: the
// computation is unwinding), until the flag is cleared: the watchdog's hard
// stop (runtime/Limits.h) then leaves the process alone, however long the
// unwinding takes on a busy machine.
inline std::atomic<bool>& interruptTaken() {
  static std::atomic<bool> taken{false};
  return taken;
}

struct Interrupted : std::exception {
  explicit Interrupted(StopReason why) : reason(why) {
    interruptTaken().store(true, std::memory_order_relaxed);
  }
  const char* what() const noexcept override { return "interrupted"; }
  StopReason reason;
};

// Asks the running computation to stop; the first reason given is kept.
// Safe to call from a signal handler or another thread.
inline void requestInterrupt(StopReason why = StopReason::User) {
  int none = 0;
  interruptFlag().compare_exchange_strong(none, static_cast<int>(why));
}
inline void clearInterrupt() {
  interruptFlag().store(0, std::memory_order_relaxed);
  interruptTaken().store(false, std::memory_order_relaxed);
}
inline StopReason interruptReason() {
  return static_cast<StopReason>(interruptFlag().load(std::memory_order_relaxed));
}

// Throws Interrupted when a stop was requested; a relaxed load, cheap enough
// for every heap of a table and every position of a search.
inline void checkInterrupt() {
  if (int why = interruptFlag().load(std::memory_order_relaxed))
    throw Interrupted(static_cast<StopReason>(why));
}

}  // namespace gdsl
