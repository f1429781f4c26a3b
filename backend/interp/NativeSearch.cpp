// The interpreter's side of Backend::searchNative: a game's compiled moves
// (backend/interp/MoveCode.h) run by backend/interp/CodeSearch.cpp when it
// has them, else the search over the interpreter's own enumeration
// (runtime/EnumeratedSearch.h). Both walk the memo as runtime/MemoSearch.h.
#include "backend/interp/Interpreter.h"
#include "runtime/EnumeratedSearch.h"

namespace gdsl {

const interp::MoveCode* Interpreter::moveCode(int game) {
  auto g = static_cast<size_t>(game);
  if (moveCodeTried_.size() <= g) {
    moveCodeTried_.resize(program_.games.size(), false);
    moveCode_.resize(program_.games.size());
  }
  if (!moveCodeTried_[g]) {
    moveCodeTried_[g] = true;
    moveCode_[g] = interp::compileMoves(program_, game);
  }
  return moveCode_[g].get();
}

NativeStatus Interpreter::searchNative(int game, const int64_t* words, NativeMemo memo,
                                       ValueOracle& oracle, std::vector<int64_t>& miss,
                                       uint64_t stackFloor) {
  if (compiledMoves_ && !memo.lists())
    if (const interp::MoveCode* code = moveCode(game)) {
      CodeLevel level(*this);
      const std::optional<ir::CellMoves>& cells = program_.games[static_cast<size_t>(game)].cells;
      interp::CodeSearchInput in{*code,      game,
                                 memo,       oracle,
                                 positions_, eval_,
                                 arena_,     miss,
                                 stackFloor, cells ? &*cells : nullptr,
                                 yield_,     &work_.searchedPositions};
      return interp::searchCode(in, words, *level.scratch);
    }
  return searchByEnumeration(*this, program_, game, words, memo, oracle, miss, stackFloor, yield_,
                             work_.searchedPositions);
}

}  // namespace gdsl
