// Arithmetic periods (a saltus) of take-and-break games, proved from a finite
// check: if g(n + p) = g(n) + s is seen from n0 on, with s a power of two
// above every value before n0 + p, a split's value is s times the xor of its
// parts' block numbers plus the xor of their values in the first block; the
// check then looks, for each heap's place in the period, at finitely many
// patterns of splits: none can reach the next value, and families of splits
// with free block numbers reach every smaller one. The theorem and its
// proof: docs/heaps.md, "Arithmetic periods".
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ir/Ir.h"
#include "runtime/NimTable.h"
#include "runtime/Period.h"

namespace gdsl {

struct SaltusProof {
  // The conditions hold: the arithmetic period is proved once the values of
  // heaps 0 .. heaps - 1 are known (and follow it, as the table's do).
  bool holds = false;
  int64_t heaps = 0;
  std::string whyNot;  // when it does not hold: which condition failed
};

// `observed` (saltus != 0) was found in g[0 .. count - 1] for a game of
// `shape`. Needs count >= observed.preperiod + observed.period at least;
// reads only the values before the first repeat ends.
SaltusProof checkSaltus(const ir::TakeBreakShape& shape, TableView g, int64_t count,
                        const PeriodInfo& observed);

}  // namespace gdsl
