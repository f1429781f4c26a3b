// Cell moves of a board with parameters fixed within a search (`G(w, h, b)`,
// ir::Game::boardParam): found, as markCellMoves finds them for a game of one
// parameter (compiler/ir/CellMoves.cpp), once the other parameters' values are
// known. The engine calls it for each set of values a question meets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

// The cell moves of `game` with its parameters other than the board set to
// `params` (one value per parameter; the board's is not read), or nothing
// with `whyNot` saying why they are not cell moves.
std::optional<CellMoves> findCellMoves(const Program& program, int game,
                                       const std::vector<int64_t>& params, std::string& whyNot);

}  // namespace gdsl::ir
