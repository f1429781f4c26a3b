// The engine's entry to the pruning search (runtime/CellSearch.h): the value
// of a board that splits where only that value is wanted (eval, and its
// winning move), with the game's table of words as the memo. A board with
// parameters fixed within a search (`G(w, h, b)`, ir::Game::boardParam) gets
// its moves for the values met, and a memo of its own keyed by the board.
#include <algorithm>
#include <bit>
#include <optional>
#include <utility>

#include "compiler/ir/CellMoves.h"
#include "runtime/CellSearch.h"
#include "runtime/EngineParts.h"

namespace gdsl {

namespace {

// A part of a board, with the search that values it.
struct SearchedPart {
  size_t search;  // index in the question's searches
  uint64_t cells;
};

}  // namespace

Engine::BoardSearch Engine::boardSearch(const Position& p) {
  const ir::Game& game = program_.games[p.game];
  HeapState& h = heaps_[p.game];
  if (game.cells && p.words.size() == 1) {
    if (!h.wordMemo) h.wordMemo = std::make_unique<WordMemo>(options_.maxStates);
    if (!h.cellSearch) {
      h.cellSearch = std::make_unique<CellSearch>(*game.cells, *h.wordMemo, options_.maxMemory,
                                                  options_.threads);
      h.cellSearch->setProgress(options_.progress, game.name);
    }
    return {h.cellSearch.get(), &*game.cells, &h.pruned, p.words[0]};
  }
  if (game.boardParam < 0 || p.words.size() != game.params.size()) return {};
  // The board's parameters fixed: its moves for their values, found once.
  const auto board = static_cast<size_t>(game.boardParam);
  std::vector<int64_t> key(p.words.begin(), p.words.end());
  key[board] = 0;
  std::unique_ptr<FixedBoard>& fixed = h.fixedBoards[key];
  if (!fixed) {
    fixed = std::make_unique<FixedBoard>();
    fixed->cells = ir::findCellMoves(program_, static_cast<int>(p.game), key, fixed->whyNot);
    if (fixed->cells) {
      fixed->memo = std::make_unique<WordMemo>(options_.maxStates);
      fixed->search = std::make_unique<CellSearch>(*fixed->cells, *fixed->memo, options_.maxMemory,
                                                   options_.threads);
      fixed->search->setProgress(options_.progress, game.name);
    }
  }
  if (!fixed->search) return {};
  return {fixed->search.get(), &*fixed->cells, &fixed->pruned, p.words[board]};
}

std::optional<uint32_t> Engine::fixedBoardValue(const Position& position) {
  BoardSearch b = boardSearch(position);
  int64_t split[kMaxComponents];
  int n = b.search ? splitComponents(*b.cells, b.board, split) : -1;
  if (n < 0) return std::nullopt;
  const int64_t before = b.search->expanded();
  uint32_t x = 0;
  struct EndProgress {  // however the question ends
    CellSearch& search;
    ~EndProgress() { search.endProgress(); }
  } end{*b.search};
  for (int i = 0; i < n; ++i) x ^= b.search->partValue(static_cast<uint64_t>(split[i]));
  *b.pruned += b.search->expanded() - before;
  return x;
}

uint32_t Engine::rootValue(const Position& position) {
  uint32_t x = 0;
  valueIs({position}, 0, &x);
  return x;
}

bool Engine::valueIs(const Sum& sum, uint32_t target, uint32_t* valueOut) {
  // The parts of the boards that split; every other position valued as usual.
  // Each search met, with its count of expansions before the question.
  std::vector<std::pair<BoardSearch, int64_t>> searches;
  struct EndProgress {  // each search's reports end with the question, however it ends
    const std::vector<std::pair<BoardSearch, int64_t>>& searches;
    ~EndProgress() {
      for (const auto& s : searches) s.first.search->endProgress();
    }
  } end{searches};
  std::vector<SearchedPart> parts;
  uint32_t x = 0;
  for (const Position& p : sum) {
    BoardSearch b = options_.pruneBoards ? boardSearch(p) : BoardSearch{};
    int64_t split[kMaxComponents];
    int n = b.search ? splitComponents(*b.cells, b.board, split) : -1;
    if (n < 0) {
      x ^= value(p);
      continue;
    }
    // One search per game (or set of fixed values), kept with its caches
    // from question to question.
    auto at = std::find_if(searches.begin(), searches.end(),
                           [&](const auto& s) { return s.first.search == b.search; });
    if (at == searches.end()) {
      b.search->dropUnfinished();
      searches.emplace_back(b, b.search->expanded());
      at = searches.end() - 1;
    }
    const auto index = static_cast<size_t>(at - searches.begin());
    for (int i = 0; i < n; ++i) parts.push_back({index, static_cast<uint64_t>(split[i])});
  }
  // Every part but the largest exactly; the largest asked only the question.
  auto largest = std::max_element(parts.begin(), parts.end(),
                                  [](const SearchedPart& a, const SearchedPart& b) {
                                    return std::popcount(a.cells) < std::popcount(b.cells);
                                  });
  auto search = [&](const SearchedPart& part) -> CellSearch& {
    return *searches[part.search].first.search;
  };
  for (auto it = parts.begin(); it != parts.end(); ++it)
    if (it != largest || valueOut) x ^= search(*it).partValue(it->cells);
  bool answer = valueOut || largest == parts.end()
                    ? x == target
                    : search(*largest).partValueIs(largest->cells, target ^ x);
  for (auto& [b, before] : searches) *b.pruned += b.search->expanded() - before;
  if (valueOut) *valueOut = x;
  return answer;
}

}  // namespace gdsl
