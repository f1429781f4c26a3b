// Recognising a take-and-break shape in a game of `move` rules: the rules'
// moves on heaps 0..B are enumerated, a shape is read off them (which k leave
// no heap, one heap or two heaps), and the shape is accepted only when it
// predicts exactly the options of every one of those heaps. Splits into two
// heaps may carry conditions on the parts (ir::SplitRule: parity, the smaller
// part at least or at most a number, a least difference), read off as the
// tightest such condition around the splits seen and checked like the rest;
// splits into three heaps are recognised without conditions. The IR analysis
// only offers games whose rules are affine (compiler/ir/TakeBreak.cpp), whose
// move sets change only at thresholds within the largest constant C of 0, n
// and n/2; B = 64 + 32 C covers every regime in both parities.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/Ir.h"
#include "runtime/Backend.h"

namespace gdsl {

// Empty when the moves follow no shape; `whyNot` (if given) then says which
// rule and why.
std::optional<ir::TakeBreakShape> probeShape(Backend& backend, int game, int64_t heaps,
                                             std::string* whyNot = nullptr);

}  // namespace gdsl
