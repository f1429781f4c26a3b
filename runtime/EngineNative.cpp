// The engine's control of native searches (see Engine.h): the game's memo
// (runtime/NativeMemo.h) created, grown and widened between calls of the
// backend's search (Backend::searchNative), restarts after the native stack
// ran out, and the reasons a game is handed back to the engine's search.
// List positions of a length with an integer game go to that game here.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/ir/Bounds.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Engine.h"
#include "runtime/EngineParts.h"

namespace gdsl {

namespace {

// Native searches recurse on the machine stack, at most this far below the
// outermost one (then they stop with Deep and are restarted where they stopped).
constexpr uint64_t kNativeStackBytes = 2 << 20;

}  // namespace

namespace {

// The most cells of a dense box that values a list game's positions as an
// integer game's (64 MiB of 16-bit cells): past it the list game's table of
// words, which holds only the positions reached, is smaller.
constexpr uint64_t kListBoxMaxCells = uint64_t{1} << 25;

}  // namespace

std::optional<Position> Engine::asIntegers(const Position& p) const {
  const std::vector<int>& byLength = program_.games[p.game].byLength;
  if (!options_.listsAsIntegers || p.words.empty()) return std::nullopt;
  int64_t n = p.words[0];
  if (n < 1 || n >= static_cast<int64_t>(byLength.size()) || byLength[static_cast<size_t>(n)] < 0 ||
      static_cast<int64_t>(p.words.size()) != n + 1)
    return std::nullopt;
  auto game = static_cast<uint32_t>(byLength[static_cast<size_t>(n)]);
  std::span<const int64_t> numbers(p.words.data() + 1, static_cast<size_t>(n));
  for (int64_t x : numbers)
    if (x < 0) return std::nullopt;  // the list game reports it
  // A native search with a box (one number: a table of heaps, as any
  // one-heap game's), small enough.
  if (!heaps_[game].native ||
      DenseBox::cellsToHold(numbers) > std::min<uint64_t>(options_.maxStates, kListBoxMaxCells))
    return std::nullopt;
  Position out;
  out.game = game;
  out.words.assign(numbers.begin(), numbers.end());
  return out;
}

void Engine::reserve(const Position& position) {
  const HeapState& h = heaps_[position.game];
  if (!h.native || h.memo != MemoKind::Box) return;
  std::span<const int64_t> w(position.words.data(), position.words.size());
  for (int64_t x : w)
    if (x < 0) return;
  coverBox(position.game, w);  // a box too large is left to the table's own searches
}

bool Engine::coverBox(uint32_t game, std::span<const int64_t> words) {
  HeapState& h = heaps_[game];
  if (h.box && h.box->covers(words)) return true;
  uint64_t cells = h.box ? h.box->cellsToCover(words) : DenseBox::cellsToHold(words);
  if (cells > options_.maxStates) return false;
  if (h.box) {
    h.box->grow(words);
  } else {
    h.box = std::make_unique<DenseBox>(words);
    h.box->setMirror(ir::normalizedOrder(program_.games[game]));
  }
  return true;
}

NativeStatus Engine::searchNativeOnce(uint32_t game, const int64_t* words,
                                      std::vector<int64_t>& miss) {
  HeapState& h = heaps_[game];
  checkInterrupt();
  NativeStatus status = NativeStatus::Unsupported;
  h.nativeActive = true;
  ++h.nativeSearches;
  try {
    bool boxed = h.memo == MemoKind::Box;
    NativeMemo memo{h.memo, boxed ? h.box.get() : nullptr, boxed ? nullptr : h.wordMemo.get()};
    status =
        backend_.searchNative(static_cast<int>(game), words, memo, *this, miss, nativeStackFloor_);
  } catch (...) {
    h.nativeActive = false;
    throw;
  }
  h.nativeActive = false;
  return status;
}

bool Engine::usesNative(uint32_t game) {
  const HeapState& h = heaps_[game];
  return h.native && !h.nativeActive && backend_.searchesNatively(static_cast<int>(game));
}

uint32_t Engine::leaveNative(const Position& position, std::string why) {
  HeapState& h = heaps_[position.game];
  h.native = false;
  h.box.reset();
  h.cellSearch.reset();
  h.wordMemo.reset();
  h.nativeStopped = std::move(why);
  const ir::Game& g = program_.games[position.game];
  if (g.declared()) return searchValue(position);
  // An integer game standing for a list game's positions (a box grown past
  // its limit, say): the list game values them from now on, over its own
  // memo, and reports a cycle or an error as its own.
  Position list;
  list.game = static_cast<uint32_t>(g.listOf);
  list.words.push_back(g.listLength);
  for (int64_t w : position.words) list.words.push_back(w);
  return value(list);
}

namespace {

// How many restarts in a row of a native search that ran out of stack, each
// at a larger position than the last, hand the game to the engine's search.
constexpr size_t kGrowingRestarts = 8;
bool growingRestarts(const std::vector<std::vector<int64_t>>& pending) {
  if (pending.size() <= kGrowingRestarts) return false;
  for (size_t i = pending.size() - kGrowingRestarts; i < pending.size(); ++i)
    if (magnitude(pending[i]) <= magnitude(pending[i - 1])) return false;
  return true;
}

}  // namespace

uint32_t Engine::nativeValue(const Position& root) {
  HeapState& h = heaps_[root.game];
  if (std::optional<uint32_t> v = nativeKnown(root)) return *v;
  struct StackBudget {
    uint64_t& floor;
    bool outermost = floor == 0;
    explicit StackBudget(uint64_t& f) : floor(f) {
      if (outermost)
        floor = reinterpret_cast<uint64_t>(__builtin_frame_address(0)) - kNativeStackBytes;
    }
    ~StackBudget() {
      if (outermost) floor = 0;
    }
  } budget(nativeStackFloor_);
  // Several integer parameters: a box; one, or one list: a table of words.
  bool boxed = h.memo == MemoKind::Box;
  if (!boxed && !h.wordMemo) h.wordMemo = std::make_unique<WordMemo>(options_.maxStates);
  // The box never holds more cells than --max-states; a list must pack.
  auto cover = [&](const std::vector<int64_t>& w) {
    uint64_t key = 0;
    if (h.memo == MemoKind::Lists) return packListKey(w.data(), key);
    return !boxed || coverBox(root.game, w);
  };
  auto tooLarge = [&](const std::vector<int64_t>& w) {
    Position p;
    p.game = root.game;
    p.words.assign(w.begin(), w.end());
    if (h.memo == MemoKind::Lists)
      return fmt::format(
          "{} does not pack into a word: a packed list has at most {} numbers, each below "
          "2^(59 / its length)",
          formatPosition(program_, p), kListKeyMaxLength);
    return fmt::format("a box holding {} would have more cells than --max-states ({})",
                       formatPosition(program_, p), options_.maxStates);
  };
  // The common case first, with nothing allocated: the root inside the box
  // (or an integer in a table of words) searched in one go. Any other end
  // leaves the memo as it was, and the general way below searches again.
  std::vector<int64_t> miss;
  std::span<const int64_t> rootWords(root.words.data(), root.words.size());
  if (h.memo != MemoKind::Lists && (!boxed || (h.box && h.box->covers(rootWords))) &&
      searchNativeOnce(root.game, root.words.data(), miss) == NativeStatus::Done)
    return *nativeKnown(root);
  // Positions to search natively, the root first; a search that ran out of
  // stack is restarted at the position where it stopped, then resumed.
  std::vector<std::vector<int64_t>> pending{{root.words.begin(), root.words.end()}};
  while (!pending.empty()) {
    std::vector<int64_t> w = pending.back();
    if (!cover(w)) return leaveNative(root, tooLarge(w));
    if (nativeKnown(root.game, w)) {
      pending.pop_back();
      continue;
    }
    switch (searchNativeOnce(root.game, w.data(), miss)) {
      case NativeStatus::Done:
        pending.pop_back();
        break;
      case NativeStatus::Outside:
        // A table of words has no outside (its search reports a negative
        // word as an error): never retry the same search.
        if (h.memo == MemoKind::Words) return leaveNative(root, "a successor outside its table");
        if (!cover(miss)) return leaveNative(root, tooLarge(miss));
        break;
      case NativeStatus::Deep:
        if (miss == w) return leaveNative(root, "the native stack was used up by other searches");
        pending.push_back(miss);
        // Each restart is a native stack's depth below the last: when the
        // last few restarts each grew, the chain may grow without end, which
        // only the engine's search measures (it stops a runaway chain).
        if (growingRestarts(pending))
          return leaveNative(root, "its successors kept growing over a chain deeper than " +
                                       std::to_string(kGrowingRestarts) +
                                       " native stacks, which the engine's search checks");
        break;
      case NativeStatus::Cycle:
        return leaveNative(root, "a position can reach itself");
      case NativeStatus::Failed:
        return leaveNative(root, "a runtime error, which the search reports");
      case NativeStatus::Full:
        return leaveNative(root, "its table holds --max-states positions");
      case NativeStatus::Unsupported:
        return searchValue(root);
      case NativeStatus::Yield:
        // The backend hands the search over (auto's switch to the JIT): the
        // same position again, with every value found so far in the memo.
        break;
      case NativeStatus::Wide:
        // A value past 65533: the box's cells become 32 bits, and the same
        // position is searched again.
        h.box->widen();
        break;
    }
  }
  return *nativeKnown(root);
}

}  // namespace gdsl
