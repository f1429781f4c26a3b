// Resource limits (--max-states, --max-memory, --timeout) and the watchdog
// that enforces the last two: a 10 ms interval timer (SIGALRM) whose handler
// looks at the clock and at the process's resident memory and, past a limit,
// asks the running computation to stop (compiler/support/Interrupt.h). Code that does
// not poll the flag (the parser, LLVM compiling) cannot be stopped that way:
// when a stop has not been taken up after a second of wall time in which the
// process also ran half a second on the processors, the handler prints the
// limit's message and ends the process with status 1. Wall time alone is not
// evidence: on a busy machine a process that polls may not run for a second,
// and a REPL (hours of memo) must not die for it. A stop taken up (the
// computation unwinding) is never hard-stopped. A timer, not a thread:
// starting and ending a thread was a tenth of a short eval (bench/README.md,
// "Start-up").
#pragma once

#include <csignal>
#include <cstdint>
#include <string>

#include "compiler/support/Interrupt.h"

namespace gdsl {

struct Limits {
  uint64_t maxStates = 20'000'000;  // memoized positions (and misère states)
  uint64_t maxMemory = 0;           // bytes of resident memory; 0: none
  double timeout = 0;               // seconds; 0: none
};

// Half of the machine's physical memory, at most 8 GiB: a runaway game
// cannot take the machine's memory.
uint64_t defaultMaxMemory();
// "512M", "4G", "1.5G", "100000" (bytes); K, M, G, T are powers of 1024.
// False when `text` is not a size.
bool parseSize(const std::string& text, uint64_t& bytes);
std::string formatSize(uint64_t bytes);  // "4 GiB", "512 MiB"
// The resident memory of this process that is not backed by a file, in
// bytes: the pages of a table file (runtime/TableFile.h) do not count.
uint64_t residentMemory();
// Gives memory freed since to the operating system (malloc_trim; under
// AddressSanitizer also its quarantine), so that resident memory falls again.
void releaseFreedMemory();

// What to tell the user when `reason` stopped a computation: the limit, and
// how to raise it.
std::string limitMessage(StopReason reason, const Limits& limits);
// What a search says when it has memoized --max-states positions and would
// need more (the engine's hashed search, the loopy games' solver).
std::string maxStatesMessage(uint64_t maxStates);
// A runaway (the engine's search, the loopy games' solver): a chain of moves
// longer than runawayDepth(--max-states) along which the positions, sampled
// kRunawaySamples + 1 times at equal steps, each got larger than the last.
inline constexpr uint64_t kRunawaySamples = 16;
inline uint64_t runawayDepth(uint64_t maxStates) {
  return maxStates / 16 > 64 ? maxStates / 16 : 64;
}

// One watchdog enforces limits at a time (the process has one SIGALRM); a
// second made while one lives does nothing. The handler runs on whichever
// thread the signal reaches and does only async-signal-safe work. Blocking
// calls interrupted by it are restarted (SA_RESTART).
class Watchdog {
 public:
  explicit Watchdog(const Limits& limits);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // A computation starts: the timeout counts from now. The REPL calls this
  // for each entry and pause() when it is back at the prompt; paused, the
  // timer is off.
  void start();
  void pause();

 private:
  bool owner_ = false;  // this one installed the handler and the timer
  struct sigaction previous_ {};
};

}  // namespace gdsl
