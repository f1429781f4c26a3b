// The IR pass pipeline (see Passes.h): the one function that runs the passes
// on a lowered program, in their order. The driver calls it after lowering.
#include "compiler/ir/Passes.h"

namespace gdsl::ir {

bool runPasses(Program& program, std::vector<Expr>& constants, DiagnosticSink& diagnostics) {
  try {
    constants = foldConstants(program);
  } catch (const RuntimeError& e) {
    Diagnostic& d = diagnostics.error(e.range, "cannot compute this constant: " + e.message);
    d.notes = e.notes;
    return false;
  }
  size_t before = diagnostics.all().size();
  checkAmounts(program, diagnostics);
  if (diagnostics.all().size() != before) return false;
  specializeLists(program);
  analyzeTakeBreak(program);
  narrowRanges(program);
  markBitSets(program);
  markCellMoves(program);
  // A loopy game is searched by its plain rules (runtime/Loopy.h): the
  // shapes above assume every move leads down.
  for (Game& game : program.games) {
    if (!game.loopy) continue;
    game.takeBreak.reset();
    game.takeBreakBound.reset();
    game.shapeProbeHeaps.reset();
    game.bitSet = false;
    game.boardParam = -1;
    game.cells.reset();
  }
  return true;
}

}  // namespace gdsl::ir
