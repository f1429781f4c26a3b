// The pipeline the fuzz targets drive (tests/fuzz/README.md): program text ->
// parse -> sema -> IR -> every statement on the interpreter (those that
// compile, when some do not), with small engine limits and a watchdog that
// interrupts a statement after a few hundred milliseconds. Diagnostics, runtime errors, interruptions and running out of
// memory are normal outcomes; anything else (a crash, a sanitizer report, an
// exception escaping, the backends disagreeing) is a bug. The regression test
// tests/unit/fuzz_regressions_test.cpp runs the same code.
#pragma once

#include <cstdint>
#include <string_view>

namespace gdsl::fuzz {

struct PipelineOptions {
  // A statement still running after this long is interrupted (compiler/support/Interrupt.h).
  int timeoutMs = 150;
  // Also run the statements of programs that compile on the JIT, and compare
  // the output with the interpreter's: `jitEvery` = N runs one program in N
  // (chosen by a hash of the text, so that a run is reproducible); 0 never.
  int jitEvery = 0;
  // A statement is also interrupted when the process's resident memory passes
  // this many bytes (0: no limit), as by gdsl's --max-memory. Under ASan the
  // resident memory includes the sanitizer's own (quarantine, shadow).
  uint64_t maxMemory = uint64_t{1536} << 20;
};

// What happened to a program (for the tests and for statistics).
// OutOfMemory: std::bad_alloc, or stopped at the memory limit.
enum class Outcome { Skipped, Rejected, Ran, Interrupted, OutOfMemory };

// Runs `text` through the pipeline. Aborts (with the two outputs on stderr) when
// the interpreter and the JIT disagree; lets any unexpected exception escape.
Outcome runPipeline(std::string_view text, const PipelineOptions& options);

// Options from the environment: GDSL_FUZZ_TIMEOUT_MS, GDSL_FUZZ_JIT_EVERY,
// GDSL_FUZZ_MAX_MEMORY_MB.
PipelineOptions optionsFromEnvironment();

// Inputs the pipeline does not run: those importing a file outside the
// working directory (an absolute path or one with ".."), which would read
// /dev/zero or /proc files.
bool skipInput(std::string_view text);

}  // namespace gdsl::fuzz
