// The bit-parallel indexes of a board that splits (ir::CellIndex): its moves
// grouped by shape and its orientations as tables, built when the program is
// compiled, after the moves and the grid are found.
#pragma once

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

// The indexes of `moves` (require, clear, support and grid filled).
CellIndex indexCellMoves(const CellMoves& moves);

}  // namespace gdsl::ir
