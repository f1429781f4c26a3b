// The progress bar shown on stderr while a table grows for more than a
// second: heaps (or, for a two-parameter table, rows) done, per second, and
// the time left, estimated with the method's cost model (TimeLeft). Only when
// stderr is a terminal; otherwise nothing is printed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/Engine.h"

namespace gdsl {

// The time left of work whose cost per unit grows as (units done)^exponent:
// the cost per unit now is measured over the recent reports (the last quarter
// of the time so far, at least a second), and the work left is extrapolated
// from it with the exponent: sum over units n..N of c * (x / m)^exponent,
// where c is the recent cost per unit around unit m. Plain-method tables cost
// about n per heap (exponent 1), so the time left falls much more slowly than
// the heaps left do. Without an exponent from the method it is fitted to the
// reports: the recent cost against the cost over the first half of the run.
class TimeLeft {
 public:
  // A report: `done` units at `seconds` (from any fixed moment).
  void add(double seconds, int64_t done);
  // Seconds left until `target` units are done; negative when not yet known.
  // `exponent` < 0: fitted to the reports.
  double estimate(int64_t target, double exponent) const;
  // Units per second over the recent reports (0 when not yet known).
  double rate() const;
  // The exponent fitted to the reports (0 when they cannot tell).
  double fittedExponent() const;

 private:
  struct Sample {
    double seconds;
    int64_t done;
  };
  // The cost per unit (seconds) between samples a and b, and the unit in
  // the middle; false when no unit was done between them.
  bool cost(const Sample& a, const Sample& b, double& perUnit, double& middle) const;
  // The first sample of the recent window.
  const Sample& recentStart() const;

  std::vector<Sample> samples_;  // at most kMaxSamples, spread over the run
};

// A progress callback for EngineOptions::progress writing to file descriptor
// `fd`, or an empty function when `fd` is not a terminal.
ProgressFn makeProgressBar(int fd);

// One line of the bar, e.g. "Grundy: [#####.....] 50% 500000/1000000 heaps,
// 250000 heaps/s, 2 s left" (without the carriage return); `secondsLeft` < 0
// shows "?". With `target` < 0 (work of unknown size), "Walk, listing
// positions: 300000 positions, 150000 positions/s".
std::string progressLine(const std::string& what, const char* unit, int64_t done, int64_t target,
                         double rate, double secondsLeft);

}  // namespace gdsl
