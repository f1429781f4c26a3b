// The engine's entry to the pruning search (runtime/CellSearch.h): the value
// of a board that splits where only that value is wanted (eval, and its
// winning move), with the game's table of words as the memo.
#include <algorithm>
#include <bit>
#include <utility>

#include "runtime/CellSearch.h"
#include "runtime/EngineParts.h"

namespace gdsl {

namespace {

// A part of a board, with the game it belongs to.
struct GamePart {
  uint32_t game;
  uint64_t cells;
};

}  // namespace

uint32_t Engine::rootValue(const Position& position) {
  uint32_t x = 0;
  valueIs({position}, 0, &x);
  return x;
}

bool Engine::valueIs(const Sum& sum, uint32_t target, uint32_t* valueOut) {
  // The parts of the boards that split; every other position valued as usual.
  std::vector<GamePart> parts;
  uint32_t x = 0;
  for (const Position& p : sum) {
    const std::optional<ir::CellMoves>& cells = program_.games[p.game].cells;
    int64_t split[kMaxComponents];
    int n = cells && options_.pruneBoards && p.words.size() == 1
                ? splitComponents(*cells, p.words[0], split)
                : -1;
    if (n < 0) {
      x ^= value(p);
      continue;
    }
    for (int i = 0; i < n; ++i) parts.push_back({p.game, static_cast<uint64_t>(split[i])});
  }
  // One search per game, kept with its caches from question to question;
  // each game searched here, with its search's count of expansions before.
  std::vector<std::pair<uint32_t, int64_t>> searched;
  auto search = [&](uint32_t game) -> CellSearch& {
    HeapState& h = heaps_[game];
    if (!h.wordMemo) h.wordMemo = std::make_unique<WordMemo>(options_.maxStates);
    if (!h.cellSearch)
      h.cellSearch = std::make_unique<CellSearch>(*program_.games[game].cells, *h.wordMemo,
                                                  options_.maxMemory);
    auto seen = [&](const auto& s) { return s.first == game; };
    if (std::none_of(searched.begin(), searched.end(), seen)) {
      h.cellSearch->dropUnfinished();
      searched.emplace_back(game, h.cellSearch->expanded());
    }
    return *h.cellSearch;
  };
  // Every part but the largest exactly; the largest asked only the question.
  auto largest =
      std::max_element(parts.begin(), parts.end(), [](const GamePart& a, const GamePart& b) {
        return std::popcount(a.cells) < std::popcount(b.cells);
      });
  for (auto it = parts.begin(); it != parts.end(); ++it)
    if (it != largest || valueOut) x ^= search(it->game).partValue(it->cells);
  bool answer = valueOut || largest == parts.end()
                    ? x == target
                    : search(largest->game).partValueIs(largest->cells, target ^ x);
  for (auto [game, before] : searched)
    heaps_[game].pruned += heaps_[game].cellSearch->expanded() - before;
  if (valueOut) *valueOut = x;
  return answer;
}

}  // namespace gdsl
