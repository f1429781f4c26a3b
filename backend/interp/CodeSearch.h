// Running compiled moves (MoveCode.h) on the interpreter: the one-heap
// kernel (Backend::heapValue), and the native search, the contract of
// Backend::searchNative (runtime/Backend.h) for a game with integer
// parameters, run as register code instead of by walking the IR. A
// successor of the game searched is read from the memo (the box or the table
// of words) by its normalized words, or expanded recursively; any other
// component is asked of the oracle. A runtime error ends the search with
// Failed, and the engine's own search then reports it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "backend/interp/MoveCode.h"
#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl::interp {

// Register files and loop states, one per recursion depth, kept between
// searches (one scratch per nesting level of the interpreter).
struct CodeScratch {
  struct Frame {
    const MoveCode* code = nullptr;  // the code the frame was laid out for
    std::vector<int64_t> registers;
    std::vector<ir::ListVal> lists;
    std::vector<int64_t> loopIndex;
    std::vector<ir::ListVal> loopLists;
    std::vector<ir::ListArena::Mark> loopMarks;
  };
  std::vector<std::unique_ptr<Frame>> frames;
  std::vector<uint32_t> seen;
  std::vector<uint8_t> marks;
};

struct CodeSearchInput {
  const MoveCode& code;
  int game;
  NativeMemo memo;
  ValueOracle& oracle;
  PositionBuilder& positions;
  const ir::Evaluator& eval;
  ir::ListArena& arena;
  std::vector<int64_t>& miss;
  uint64_t stackFloor;
  // The game's moves over cells when its board splits (runtime/Components.h).
  const ir::CellMoves* cells = nullptr;
  // Asked every 64 positions whether to stop with Yield (null: never).
  YieldPoll* yield = nullptr;
  // Counts the positions the search expands (null: not counted).
  uint64_t* expanded = nullptr;
};

NativeStatus searchCode(const CodeSearchInput& in, const int64_t* words, CodeScratch& scratch);

// g(n) of one-heap game `in.game` (Backend::heapValue; `in.memo` and the
// rest unused) into `value`: a term of the game itself G(m) with
// 0 <= m < n is read from `table`, any other component is asked of the
// oracle. Failed on a runtime error: the caller walks the IR, which reports it.
NativeStatus heapValueCode(const CodeSearchInput& in, int64_t n, TableView table,
                           CodeScratch& scratch, uint32_t& value);

}  // namespace gdsl::interp
