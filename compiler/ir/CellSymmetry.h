// The symmetries of a board that splits (ir::CellGrid): found from its moves
// when the program is compiled, and proved there, never assumed.
#pragma once

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

// The grid and orientations under which `moves` (with require, clear and
// support filled) keep their shape, or a CellGrid without orientations.
CellGrid findCellGrid(const CellMoves& moves);

}  // namespace gdsl::ir
