// gdsl quotient FILE GAME: the misère quotient of a one-heap game
// (runtime/MisereQuotient.h) computed from its moves, and printed as text or
// as one JSON object (docs/misere.md, "Quotients"; docs/reference.md, 8.9).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "runtime/Engine.h"
#include "runtime/MisereQuotient.h"
#include "runtime/ProgressFn.h"

namespace gdsl {

// The quotient of `game` to heap `maxHeap`, or until the periodicity
// theorem proves it final, or |Q| passes `maxOrder`. When a limit or Ctrl-C
// stops it (Interrupted), `partial` (if given) receives the heaps finished.
QuotientResult gameQuotient(Engine& engine, int game, int64_t maxHeap, uint32_t maxOrder,
                            const ProgressFn& progress, QuotientResult* partial = nullptr);

// The quotient as text (several lines) or one JSON line.
void printQuotient(std::ostream& out, const std::string& name, const QuotientResult& q, bool json);

}  // namespace gdsl
