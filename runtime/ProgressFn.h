// The callback through which long work reports its progress (the engine's
// tables, the loopy solver), drawn as a bar by driver/Progress.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace gdsl {

// Reports work in progress: `done` of `target` units ("heaps", "rows") of
// `what`, or `done` units of work of unknown size when `target` < 0; called
// once more with finished = true when the work stops. `exponent` says how
// the cost of one unit grows: as done^exponent (1 for the plain method,
// whose heap n walks n/2 pairs; 0 for rows of one size), or negative when
// the method cannot tell (driver/Progress.h then fits it).
using ProgressFn = std::function<void(const std::string& what, const char* unit, int64_t done,
                                      int64_t target, bool finished, double exponent)>;

}  // namespace gdsl
