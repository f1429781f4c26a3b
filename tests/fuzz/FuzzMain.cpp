// The shared part of the fuzz targets (FuzzMain.h). Huge single allocations
// return null under ASan here, so that they throw std::bad_alloc, which gdsl
// reports as "out of memory" (cli/main.cpp), instead of aborting.
#include "tests/fuzz/FuzzMain.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/FuzzPipeline.h"

extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=2048";
}

namespace gdsl::fuzz {
namespace {

// Fuzzing compiles thousands of programs once each: no code cache for them
// (docs/architecture.md, "The code cache"), unless GDSL_CACHE_DIR says otherwise.
const int kCodeCacheOff = setenv("GDSL_CACHE_DIR", "off", 0);

std::array<long, 5> counts{};

void printStats() {
  std::fprintf(stderr,
               "fuzz: %ld skipped, %ld rejected with diagnostics, %ld ran, %ld interrupted, %ld "
               "out of memory\n",
               counts[0], counts[1], counts[2], counts[3], counts[4]);
}

}  // namespace

void runOne(std::string_view text) {
  static const char* stats = std::getenv("GDSL_FUZZ_STATS");
  static const PipelineOptions options = [] {
    if (stats && (*stats == '1' || *stats == '2')) std::atexit(printStats);
    return optionsFromEnvironment();
  }();
  Outcome outcome = runPipeline(text, options);
  ++counts[static_cast<size_t>(outcome)];
  if (stats && *stats == '2')  // every input's outcome, with its first line
    std::fprintf(stderr, "fuzz: outcome %d: %.*s\n", static_cast<int>(outcome),
                 static_cast<int>(std::min(text.find('\n'), size_t{60})), text.data());
}

}  // namespace gdsl::fuzz
