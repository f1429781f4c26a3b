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
  return true;
}

}  // namespace gdsl::ir
