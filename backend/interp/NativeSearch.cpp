// The interpreter's side of Backend::searchNative: the same contract as the
// JIT's emitted search (backend/jit/Codegen.cpp), in C++ over the
// interpreter's own enumeration. A position is expanded by enumerating its
// moves; a component of the same game is read from the memo (the box or the
// packed table of words, whose keys may be packed lists), or expanded
// recursively when unknown; any other component is asked of the oracle. A
// board that splits is valued part by part. No interning, no frames of the
// engine.
#include <algorithm>

#include "backend/interp/Interpreter.h"
#include "runtime/Components.h"
#include "runtime/Interrupt.h"
#include "runtime/Mex.h"

namespace gdsl {
namespace {

class MemoSearch final : public MoveSink {
 public:
  MemoSearch(Backend& backend, const ir::Program& program, int game, NativeMemo memo,
             ValueOracle& oracle, std::vector<int64_t>& miss, uint64_t floor, YieldPoll* yield)
      : backend_(backend),
        game_(static_cast<uint32_t>(game)),
        cells_(program.games[static_cast<size_t>(game)].cells
                   ? &*program.games[static_cast<size_t>(game)].cells
                   : nullptr),
        memo_(memo),
        oracle_(oracle),
        miss_(miss),
        floor_(floor),
        yield_(yield) {}

  // Expands `position` (unknown, inside the memo; `key` in a table of words)
  // into the memo.
  NativeStatus expand(const Position& position, uint64_t key) {
    std::span<const int64_t> words(position.words.data(), position.words.size());
    if (!memo_.box && !memo_.words->insert(key)) return NativeStatus::Full;
    setCell(words, key, kDenseOnStack);
    if (reinterpret_cast<uint64_t>(__builtin_frame_address(0)) < floor_) {
      setCell(words, key, 0);
      miss_.assign(words.begin(), words.end());
      return NativeStatus::Deep;
    }
    if ((++expanded_ & 63) == 0) {
      checkInterrupt();
      if (yield_ && yield_->shouldYield(static_cast<int>(game_))) {
        setCell(words, key, 0);
        return NativeStatus::Yield;
      }
    }
    size_t base = seen_.size();
    status_ = NativeStatus::Done;
    try {
      backend_.enumerate(position, *this);
    } catch (...) {
      setCell(words, key, 0);
      seen_.resize(base);
      throw;
    }
    if (status_ != NativeStatus::Done) {
      setCell(words, key, 0);
      seen_.resize(base);
      return status_;
    }
    uint32_t m = mex(std::span<const uint32_t>(seen_).subspan(base), marks_);
    seen_.resize(base);
    if (memo_.box && !memo_.box->fits(m + 1)) {  // a value past the box's 16-bit cells
      setCell(words, key, 0);
      return NativeStatus::Wide;
    }
    if (memo_.box)
      memo_.box->setValue(words, m + 1);
    else
      setCell(words, key, m + 1);
    return NativeStatus::Done;
  }

  uint64_t expanded() const { return expanded_; }

  bool onMove(const ir::Move&, const ir::Frame&, std::span<const Position> comps) override {
    uint32_t x = 0;
    for (const Position& c : comps) {
      if (c.game != game_) {
        x ^= oracle_.valueOf(c);
        continue;
      }
      int64_t parts[kMaxComponents];
      if (int n = cells_ ? splitComponents(*cells_, c.words[0], parts) : -1; n >= 0) {
        // A board: the xor of its parts (runtime/Components.h).
        Position part;
        part.game = game_;
        for (int i = 0; i < n; ++i) {
          part.words.assign(&parts[i], &parts[i] + 1);
          if (!add(part, x)) return false;
        }
        continue;
      }
      if (!add(c, x)) return false;
    }
    seen_.push_back(x);
    return true;
  }

 private:
  // Xors the value of `c`, a position of the game, into `x`: read from the
  // memo, or expanded first; false (status_ set) when the search stops.
  bool add(const Position& c, uint32_t& x) {
    std::span<const int64_t> words(c.words.data(), c.words.size());
    uint64_t key = 0;
    if (memo_.box ? !memo_.box->covers(words) : !memo_.key(words.data(), key)) {
      miss_.assign(words.begin(), words.end());
      status_ = NativeStatus::Outside;
      return false;
    }
    uint32_t cell = cellOf(words, key);
    if (cell == 0) {
      if (NativeStatus s = expand(c, key); s != NativeStatus::Done) {
        status_ = s;
        return false;
      }
      cell = cellOf(words, key);
    }
    if (cell == kDenseOnStack) {
      status_ = NativeStatus::Cycle;
      return false;
    }
    x ^= cell - 1;
    return true;
  }

  // The cell of a position in the memo, `key` in a table of words (0:
  // unknown, or a word never inserted).
  uint32_t cellOf(std::span<const int64_t> words, uint64_t key) {
    return memo_.box ? memo_.box->get(memo_.box->index(words)) : memo_.words->get(key);
  }
  // Sets the cell of a position the memo holds.
  void setCell(std::span<const int64_t> words, uint64_t key, uint32_t cell) {
    if (memo_.box)
      memo_.box->set(memo_.box->index(words), cell);
    else
      memo_.words->set(key, cell);
  }

  Backend& backend_;
  uint32_t game_;
  const ir::CellMoves* cells_;  // a board that splits, or null
  NativeMemo memo_;
  ValueOracle& oracle_;
  std::vector<int64_t>& miss_;
  uint64_t floor_;
  YieldPoll* yield_;  // asked every 64 positions whether to stop (null: never)
  NativeStatus status_ = NativeStatus::Done;
  std::vector<uint32_t> seen_;  // the moves' values of every position being expanded
  std::vector<uint8_t> marks_;
  uint64_t expanded_ = 0;
};

}  // namespace

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
  if (compiledMoves_ && !memo.lists)
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
  Position root;
  root.game = static_cast<uint32_t>(game);
  size_t count = memo.lists ? 1 + static_cast<size_t>(words[0])
                            : program_.games[static_cast<size_t>(game)].params.size();
  root.words.assign(words, words + count);
  uint64_t key = 0;
  if (!memo.box) memo.key(words, key);  // the engine checked that it packs
  MemoSearch search(*this, program_, game, memo, oracle, miss, stackFloor, yield_);
  struct Count {
    const MemoSearch& search;
    uint64_t& out;
    ~Count() { out += search.expanded(); }
  } counted{search, work_.searchedPositions};
  try {
    return search.expand(root, key);
  } catch (const RuntimeError&) {
    // Reported by the engine's own search, in its order.
    return NativeStatus::Failed;
  }
}

}  // namespace gdsl
