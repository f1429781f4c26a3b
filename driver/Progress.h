// The progress bar shown on stderr while a table grows for more than a
// second: heaps (or, for a two-parameter table, rows) done, per second, and
// the time left. Only when stderr
// is a terminal; otherwise nothing is printed.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/Engine.h"

namespace gdsl {

// A progress callback for EngineOptions::progress writing to file descriptor
// `fd`, or an empty function when `fd` is not a terminal.
ProgressFn makeProgressBar(int fd);

// One line of the bar, e.g. "Grundy: [#####.....] 50% 500000/1000000 heaps,
// 250000 heaps/s, 2 s left" (without the carriage return).
std::string progressLine(const std::string& what, const char* unit, int64_t done, int64_t target,
                         double seconds, int64_t doneAtStart);

}  // namespace gdsl
