// Period search: for each candidate period p, with the saltus s taken from
// the last pair, first check g(n+p) - g(n) == s upward from the lowest heap an
// acceptable preperiod may start at; only a candidate that holds there is
// scanned down to its smallest preperiod. A wrong p fails within a few steps
// either way; a multiple of the true period whose preperiod is still too long
// fails at once here, where a scan down from the end walked the whole
// periodic part first (a pass over the table per multiple).
#include "runtime/Period.h"

#include <algorithm>

namespace gdsl {
namespace {

int64_t difference(TableView g, int64_t n, int64_t p) {
  return static_cast<int64_t>(g[n + p]) - static_cast<int64_t>(g[n]);
}

// The largest preperiod a candidate of period p may have in g[0..count-1]:
// the repeating part must be at least half of the values and hold at least
// two whole periods.
int64_t latestStart(int64_t p, int64_t count) {
  return std::min(count - 2 * p, count / 2);
}

}  // namespace

std::optional<PeriodInfo> findPeriod(TableView g, int64_t count) {
  if (count < 2) return std::nullopt;
  for (int64_t p = 1; 2 * p <= count; ++p) {
    const int64_t s = difference(g, count - 1 - p, p);
    // An arithmetic period (s != 0) makes g unbounded, so no ordinary period
    // can exist as well: the first acceptable candidate of either kind wins.
    // Values are never negative, so a falling saltus cannot last.
    if (s < 0) continue;
    const int64_t start = latestStart(p, count);
    int64_t n = start;
    while (n < count - p && difference(g, n, p) == s) ++n;
    if (n < count - p) continue;  // fails at or after the latest start
    n = start - 1;
    while (n >= 0 && difference(g, n, p) == s) --n;
    return PeriodInfo{n + 1, p, s, false, count - 1};
  }
  return std::nullopt;
}

int64_t heapsNeededForProof(const PeriodInfo& period, int64_t t, int parts) {
  // A move may take up to 2^63 - 1 tokens (take {2, 9223372036854775807}):
  // such a period is never proved, not an overflow.
  int64_t heaps = 0, span = 0;
  // With three parts the induction needs a part of at least n0 + p in every
  // option of N + p, and that part less p to be a heap: n0 is taken as at
  // least 1 (docs/heaps.md, "Three heaps").
  const int64_t start = parts == 3 ? std::max<int64_t>(period.preperiod, 1) : period.preperiod;
  if (__builtin_add_overflow(start, period.period, &span) ||
      __builtin_mul_overflow(span, int64_t{parts}, &span) ||
      __builtin_add_overflow(span, t, &heaps))
    return INT64_MAX;
  return heaps;
}

}  // namespace gdsl
