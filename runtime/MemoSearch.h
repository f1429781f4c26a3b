// The native search's walk over its memo, written once for every native
// search in C++: the interpreter's over compiled moves
// (backend/interp/CodeSearch.cpp) and the one over any backend's move
// enumeration (runtime/EnumeratedSearch.cpp). The JIT's generated search
// (backend/jit/CodegenSearch.cpp) follows the same steps in emitted code, and
// tests/unit/native_memo_test.cpp walks both on the same games and compares
// every cell of their memos.
//
// Expanding a position (unknown, inside the memo):
//   1. a table of words takes its key (Full when it holds --max-states);
//   2. its cell is marked kCellOnStack;
//   3. below the stack floor: Deep, with the position in `miss`;
//   4. every 64 positions: a poll for a stop (Interrupted) and for a yield;
//   5. its moves run (the Moves policy); each move's value is the xor of its
//      components': a successor of the game itself is read from the memo, or
//      expanded first when unknown (a board that splits is valued part by
//      part, runtime/Components.h); a cell on the stack is a Cycle; a
//      successor outside the box, or a list that does not pack, is Outside
//      with the position in `miss`; any other component is asked of the oracle
//      by the policy;
//   6. its cell gets the mex of the moves' values + 1 (Wide when that does
//      not fit a 16-bit box).
// Any other end than Done, or an exception, leaves the cell unknown again, so
// the memo holds no mark of a search that stopped.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/support/Diagnostics.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Components.h"
#include "runtime/Mex.h"
#include "runtime/NativeMemo.h"

namespace gdsl {

// Where a search runs and where it reports.
struct MemoSearchSetup {
  int game;
  NativeMemo memo;
  const ir::CellMoves* cells;  // the game's board, when it splits (else null)
  std::vector<int64_t>& miss;  // the position of an Outside or Deep
  uint64_t stackFloor;         // Deep below this stack address
  YieldPoll* yield;            // asked every 64 positions (null: never)
};

// Moves is the policy that runs a position's moves:
//   template <typename Search> NativeStatus expand(std::span<const int64_t> words, Search& s);
// which, for each move, adds its components' values with s.addComponent (or
// the oracle), then s.addMove(x), and returns Done or the first status that
// was not Done (Failed on an operation that failed).
template <typename Moves>
class MemoSearch {
 public:
  MemoSearch(const MemoSearchSetup& setup, Moves& moves, std::vector<uint32_t>& seen,
             std::vector<uint8_t>& marks)
      : setup_(setup),
        box_(setup.memo.box),
        words_(setup.memo.words),
        moves_(moves),
        seen_(seen),
        marks_(marks) {
    if (box_) {
      extent_ = box_->extent().data();
      stride_ = box_->stride().data();
    }
  }

  // Expands `root` (normalized, unknown, inside the memo). A runtime error
  // ends with Failed: the engine's own search reports it, in its order.
  NativeStatus search(std::span<const int64_t> root) {
    uint64_t slot = 0;
    locate(root, slot);  // the engine checked that it is inside
    try {
      return expand(root, slot);
    } catch (const RuntimeError&) {
      return NativeStatus::Failed;
    }
  }

  // Xors the value of component `w` of the game itself into `x`: each part
  // of a board that splits, or the whole.
  NativeStatus addComponent(std::span<const int64_t> w, uint32_t& x) {
    int64_t parts[kMaxComponents];
    if (int n = setup_.cells ? splitComponents(*setup_.cells, w[0], parts) : -1; n >= 0) {
      for (int i = 0; i < n; ++i)
        if (NativeStatus s = add({&parts[i], 1}, x); s != NativeStatus::Done) return s;
      return NativeStatus::Done;
    }
    return add(w, x);
  }
  // Records the value of one move of the position being expanded.
  void addMove(uint32_t x) { seen_.push_back(x); }

  uint64_t expanded() const { return expanded_; }
  int game() const { return setup_.game; }

 private:
  NativeStatus expand(std::span<const int64_t> w, uint64_t slot) {
    if (words_ && !words_->insert(slot)) return NativeStatus::Full;
    setCell(slot, kCellOnStack);
    if (reinterpret_cast<uint64_t>(__builtin_frame_address(0)) < setup_.stackFloor) {
      setCell(slot, kCellUnknown);
      setup_.miss.assign(w.begin(), w.end());
      return NativeStatus::Deep;
    }
    size_t base = seen_.size();
    NativeStatus status;
    try {
      if ((++expanded_ & 63) == 0) {
        checkInterrupt();
        if (setup_.yield && setup_.yield->shouldYield(setup_.game)) {
          setCell(slot, kCellUnknown);
          return NativeStatus::Yield;
        }
      }
      status = moves_.expand(w, *this);
    } catch (...) {
      setCell(slot, kCellUnknown);
      seen_.resize(base);
      throw;
    }
    if (status != NativeStatus::Done) {
      setCell(slot, kCellUnknown);
      seen_.resize(base);
      return status;
    }
    uint32_t cell = cellOfValue(mex(std::span<const uint32_t>(seen_).subspan(base), marks_));
    seen_.resize(base);
    if (box_) {
      if (!box_->fits(cell)) {  // a value past the box's 16-bit cells
        setCell(slot, kCellUnknown);
        return NativeStatus::Wide;
      }
      box_->setValue(w, cell);  // and its mirror cell, if the box keeps them
    } else {
      setCell(slot, cell);
    }
    return NativeStatus::Done;
  }

  NativeStatus add(std::span<const int64_t> w, uint32_t& x) {
    uint64_t slot = 0;
    if (!locate(w, slot)) {
      setup_.miss.assign(w.begin(), w.end());
      return NativeStatus::Outside;
    }
    uint32_t c = cell(slot);
    if (c == kCellUnknown) {
      if (NativeStatus s = expand(w, slot); s != NativeStatus::Done) return s;
      c = cell(slot);
    }
    if (c == kCellOnStack) return NativeStatus::Cycle;
    x ^= valueOfCell(c);
    return NativeStatus::Done;
  }

  // The slot of `w` in the memo (the box's cell index, or the key in the
  // table of words); false when it lies outside the box, or is a list that
  // does not pack.
  bool locate(std::span<const int64_t> w, uint64_t& slot) const {
    if (!box_) return setup_.memo.key(w.data(), slot);
    uint64_t index = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      if (static_cast<uint64_t>(w[i]) >= static_cast<uint64_t>(extent_[i])) return false;
      index += static_cast<uint64_t>(w[i] * stride_[i]);
    }
    slot = index;
    return true;
  }
  uint32_t cell(uint64_t slot) const { return box_ ? box_->get(slot) : words_->get(slot); }
  void setCell(uint64_t slot, uint32_t c) {
    if (box_)
      box_->set(slot, c);
    else
      words_->set(slot, c);
  }

  const MemoSearchSetup& setup_;
  DenseBox* box_;
  WordMemo* words_;
  const int64_t* extent_ = nullptr;
  const int64_t* stride_ = nullptr;
  Moves& moves_;
  std::vector<uint32_t>& seen_;  // the moves' values of every position being expanded
  std::vector<uint8_t>& marks_;  // mex's scratch
  uint64_t expanded_ = 0;
};

}  // namespace gdsl
