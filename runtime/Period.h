// Periodicity of nim sequences (docs/reference.md section 6): the smallest period p
// and, for it, the smallest preperiod n0 with g(n+p) = g(n) + s for all
// computed n >= n0; and the Guy-Smith test that proves it for take-and-break
// games.
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/NimTable.h"

namespace gdsl {

struct PeriodInfo {
  int64_t preperiod = 0;  // n0: heaps n0, n0+1, ... repeat
  int64_t period = 0;     // p
  int64_t saltus = 0;     // s: 0 unless arithmetic-periodic
  bool proved = false;
  int64_t checkedTo = 0;   // the largest heap whose value was computed
  int64_t proofHeap = -1;  // when proved: the largest heap the proof needed
};

// Looks for a period in g[0..count-1]. A candidate (n0, p) is accepted only
// when the repeating part is at least half of the values and holds at least
// two whole periods, so that a late coincidence is not taken for a period.
std::optional<PeriodInfo> findPeriod(TableView g, int64_t count);

// Guy-Smith: for a take-and-break game removing at most t tokens and leaving
// at most two heaps, the period is proved once it holds for
// n0 <= n < 2 n0 + p + t, i.e. once values up to heap 2 n0 + 2p + t - 1 are
// known. With splits into three heaps (`parts` 3, hexadecimal games) the same
// argument needs n0 <= n < 3 n0 + 2p + t with n0 at least 1, values up to
// 3 n0 + 3p + t - 1 (docs/heaps.md, "Three heaps"). INT64_MAX when that is
// past 64 bits.
int64_t heapsNeededForProof(const PeriodInfo& period, int64_t t, int parts = 2);

}  // namespace gdsl
