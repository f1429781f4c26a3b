// The native memo of a game: which store its native search fills, decided by
// one rule (memoKind) that the engine and the JIT's code generation both ask,
// and the view of that store a search is handed (NativeMemo). The cells and
// statuses are in runtime/MemoCell.h; the walk every C++ search shares is
// runtime/MemoSearch.h.
//
// To add a kind of memo: a MemoKind here and its case in memoKind; the store
// (like runtime/DenseBox.h); NativeMemo's slot for it and MemoSearch's
// locate/cell/setCell; the engine's creation of it (runtime/EngineNative.cpp);
// the JIT's probe (backend/jit/CodegenSearch.cpp); the walk in
// tests/unit/native_memo_test.cpp.
#pragma once

#include <cstdint>

#include "compiler/ir/Ir.h"
#include "runtime/DenseBox.h"
#include "runtime/ListKey.h"
#include "runtime/MemoCell.h"
#include "runtime/WordMemo.h"

namespace gdsl {

// None: the game has no native memo (no parameters, or a parameter that is
// neither an integer nor its one list); the engine's hashed search values it.
// Box: two or more integer parameters, a dense box (runtime/DenseBox.h).
// Words: one integer parameter, a packed table of words (runtime/WordMemo.h);
// a one-heap game whose moves go to smaller heaps is tabled instead, and
// reaches its memo only when they do not.
// Lists: one list parameter, packed into a word (runtime/ListKey.h), in a
// packed table of words; a list that does not pack leaves the native search.
enum class MemoKind : uint8_t { None, Box, Words, Lists };

inline MemoKind memoKind(const ir::Game& g) {
  if (g.params.empty()) return MemoKind::None;
  if (g.params.size() == 1 && g.params[0].type == ir::Type::List) return MemoKind::Lists;
  for (const ir::Param& p : g.params)
    if (p.type != ir::Type::Int) return MemoKind::None;
  return g.params.size() >= 2 ? MemoKind::Box : MemoKind::Words;
}

// The memo a native search fills: the game's box, or its table of words.
struct NativeMemo {
  MemoKind kind = MemoKind::None;
  DenseBox* box = nullptr;    // kind Box
  WordMemo* words = nullptr;  // kind Words or Lists
  bool lists() const { return kind == MemoKind::Lists; }
  // The key of position `positionWords` in the table of words; false when a
  // list does not pack.
  bool key(const int64_t* positionWords, uint64_t& out) const {
    return wordKey(positionWords, lists(), out);
  }
};

// What a backend's native search asks now and then (every 64 positions):
// whether to stop with NativeStatus::Yield, leaving the memo as any other stop
// leaves it, so that another backend takes the search over (the tiered
// backend, backend/tiered/TieredBackend.h).
class YieldPoll {
 public:
  virtual ~YieldPoll() = default;
  virtual bool shouldYield(int game) = 0;
};

}  // namespace gdsl
