// Misère search over multisets of components (see Misere.h). A state with no
// components is a win for the player to move: the opponent made the last move.
#include "runtime/Misere.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace gdsl {

const std::vector<MoveRecord>& MisereSolver::movesOf(const Position& p) {
  auto it = moves_.find(p);
  if (it != moves_.end()) return it->second;
  return moves_.emplace(p, engine_.movesOf(p)).first->second;
}

MisereSolver::State MisereSolver::canonical(const Sum& sum) {
  State s;
  for (const Position& p : sum)
    if (!movesOf(p).empty()) s.push_back(p);
  std::sort(s.begin(), s.end(), std::less<Position>());
  return s;
}

std::vector<MisereSolver::State> MisereSolver::successors(const State& s) {
  std::vector<State> out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && s[i] == s[i - 1]) continue;  // equal components give equal moves
    for (const MoveRecord& m : movesOf(s[i])) {
      Sum next;
      for (size_t j = 0; j < s.size(); ++j)
        if (j != i) next.push_back(s[j]);
      next.insert(next.end(), m.components.begin(), m.components.end());
      out.push_back(canonical(next));
    }
  }
  return out;
}

bool MisereSolver::firstPlayerWins(const Sum& sum) {
  State root = canonical(sum);
  if (auto it = wins_.find(root); it != wins_.end()) return it->second;
  struct Frame {
    State state;
    std::vector<State> next;
    size_t index = 0;
    bool win = false;
  };
  std::vector<Frame> stack;
  active_.clear();
  active_.insert(root);
  stack.push_back(Frame{root, successors(root), 0, false});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.state.empty()) f.win = true;  // no move: the opponent moved last and lost
    bool descended = false;
    while (!f.win && f.index < f.next.size()) {
      const State& n = f.next[f.index];
      auto it = wins_.find(n);
      if (it == wins_.end()) {
        if (active_.count(n)) {
          // A repeated state has a component that reaches itself: the engine's
          // search reports that cycle, with the move that closes it.
          for (const Position& p : n) engine_.value(p);
          auto start = std::find_if(stack.begin(), stack.end(),
                                    [&](const Frame& g) { return g.state == n; });
          std::string chain;
          for (auto s = start; s != stack.end(); ++s)
            chain += formatSum(engine_.program(), s->state) + " -> ";
          chain += formatSum(engine_.program(), n);
          throw RuntimeError(SourceRange{},
                             fmt::format("{} can reach itself, so the game is not finite: {}",
                                         formatSum(engine_.program(), n), chain));
        }
        if (wins_.size() + stack.size() > maxStates_)
          throw RuntimeError(SourceRange{},
                             fmt::format("misère search gave up after {} states", maxStates_));
        State copy = n;
        std::vector<State> succ = successors(copy);
        active_.insert(copy);
        stack.push_back(Frame{std::move(copy), std::move(succ), 0, false});
        descended = true;
        break;
      }
      if (!it->second) f.win = true;  // a move to a losing state
      ++f.index;
    }
    if (descended) continue;
    wins_[f.state] = f.win;
    active_.erase(f.state);
    stack.pop_back();
  }
  return wins_[root];
}

std::optional<std::pair<size_t, MoveRecord>> MisereSolver::winningMove(const Sum& sum) {
  for (size_t i = 0; i < sum.size(); ++i) {
    for (const MoveRecord& m : movesOf(sum[i])) {
      Sum next;
      for (size_t j = 0; j < sum.size(); ++j)
        if (j != i) next.push_back(sum[j]);
      next.insert(next.end(), m.components.begin(), m.components.end());
      if (!firstPlayerWins(next)) return std::make_pair(i, m);
    }
  }
  return std::nullopt;
}

}  // namespace gdsl
