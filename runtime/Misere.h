// Misère play (the player who makes the last move loses). There is no xor
// rule, so a sum is searched as a multiset of components: the state is the
// sorted list of its components with terminal ones dropped, memoized, and
// searched with an explicit stack.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "runtime/Engine.h"

namespace gdsl {

class MisereSolver {
 public:
  MisereSolver(Engine& engine, uint64_t maxStates = 2'000'000)
      : engine_(engine), maxStates_(maxStates) {}

  // True when the player to move wins `sum` under misère play.
  bool firstPlayerWins(const Sum& sum);
  // A winning move: (component index, the move), when there is one.
  std::optional<std::pair<size_t, MoveRecord>> winningMove(const Sum& sum);

 private:
  using State = std::vector<Position>;  // sorted, no terminal components
  State canonical(const Sum& sum);
  const std::vector<MoveRecord>& movesOf(const Position& p);
  std::vector<State> successors(const State& s);

  Engine& engine_;
  uint64_t maxStates_;
  std::unordered_map<Position, std::vector<MoveRecord>, PositionHash> moves_;
  std::map<State, bool> wins_;
  std::set<State> active_;  // states on the search stack (a repeat is a cycle)
};

}  // namespace gdsl
