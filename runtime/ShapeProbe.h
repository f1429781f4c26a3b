// Recognising a take-and-break shape in a game of `move` rules: the rules'
// moves on heaps 0..B are enumerated, a shape is read off them (which k leave
// no heap, one heap or two heaps), and the shape is accepted only when it
// predicts exactly the options of every one of those heaps. The IR analysis
// only offers games whose rules are affine (compiler/ir/TakeBreak.cpp), whose
// move sets change only at thresholds within the largest constant C of 0, n
// and n/2; B = 64 + 32 C covers every regime in both parities.
#pragma once

#include <cstdint>
#include <optional>

#include "compiler/ir/Ir.h"
#include "runtime/Backend.h"

namespace gdsl {

std::optional<ir::TakeBreakShape> probeShape(Backend& backend, int game, int64_t heaps);

}  // namespace gdsl
