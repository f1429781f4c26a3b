// The pipeline the fuzz targets drive (tests/fuzz/README.md): program text ->
// parse -> sema -> IR -> every statement on the interpreter, with small engine
// limits and a watchdog that interrupts a statement after a few hundred
// milliseconds. Diagnostics, runtime errors, interruptions and running out of
// memory are normal outcomes; anything else (a crash, a sanitizer report, an
// exception escaping, the backends disagreeing) is a bug. The regression test
// tests/unit/fuzz_regressions_test.cpp runs the same code.
#pragma once

#include <string_view>

namespace gdsl::fuzz {

struct PipelineOptions {
  // A statement still running after this long is interrupted (runtime/Interrupt.h).
  int timeoutMs = 150;
  // Also run the statements of programs that compile on the JIT, and compare
  // the output with the interpreter's: `jitEvery` = N runs one program in N
  // (chosen by a hash of the text, so that a run is reproducible); 0 never.
  int jitEvery = 0;
};

// What happened to a program (for the tests and for statistics).
enum class Outcome { Skipped, Rejected, Ran, Interrupted, OutOfMemory };

// Runs `text` through the pipeline. Aborts (with the two outputs on stderr) when
// the interpreter and the JIT disagree; lets any unexpected exception escape.
Outcome runPipeline(std::string_view text, const PipelineOptions& options);

// Options from the environment: GDSL_FUZZ_TIMEOUT_MS, GDSL_FUZZ_JIT_EVERY.
PipelineOptions optionsFromEnvironment();

// Inputs that would only find the known problems being fixed on main (see
// tests/fuzz/README.md): deep nesting, which overflows the stack of the
// recursive parser and passes, and imports that name files outside the working
// directory (/dev/zero, /proc/...). Such inputs are skipped.
bool skipInput(std::string_view text);

}  // namespace gdsl::fuzz
