// Period search by backward scans: for each candidate period p the scan walks
// down from the end while g(n+p) - g(n) stays the same, so a wrong p costs a
// few steps and the whole search is close to linear.
#include "runtime/Period.h"

namespace gdsl {
namespace {

// The smallest n0 such that g(n+p) - g(n) == s for all n0 <= n < count - p,
// where s is taken from the last pair.
int64_t scan(TableView g, int64_t count, int64_t p, int64_t& s) {
  int64_t n = count - 1 - p;
  s = static_cast<int64_t>(g[n + p]) - static_cast<int64_t>(g[n]);
  while (n >= 0 && static_cast<int64_t>(g[n + p]) - static_cast<int64_t>(g[n]) == s) --n;
  return n + 1;
}

bool acceptable(int64_t n0, int64_t p, int64_t count) {
  int64_t repeating = count - n0;
  return repeating >= 2 * p && 2 * repeating >= count;
}

}  // namespace

std::optional<PeriodInfo> findPeriod(TableView g, int64_t count) {
  if (count < 2) return std::nullopt;
  for (int64_t p = 1; 2 * p <= count; ++p) {
    int64_t s = 0;
    int64_t n0 = scan(g, count, p, s);
    // An arithmetic period (s != 0) makes g unbounded, so no ordinary period
    // can exist as well: the first acceptable candidate of either kind wins.
    // Values are never negative, so a falling saltus cannot last.
    if (s >= 0 && acceptable(n0, p, count)) return PeriodInfo{n0, p, s, false, count - 1};
  }
  return std::nullopt;
}

int64_t heapsNeededForProof(const PeriodInfo& period, int64_t t) {
  // A move may take up to 2^63 - 1 tokens (take {2, 9223372036854775807}):
  // such a period is never proved, not an overflow.
  int64_t heaps = 0;
  if (__builtin_add_overflow(2 * period.preperiod + 2 * period.period, t, &heaps)) return INT64_MAX;
  return heaps;
}

}  // namespace gdsl
