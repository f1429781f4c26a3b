// Misère play (the player who makes the last move loses). There is no xor
// rule, so a sum is searched as a multiset of components, with an explicit
// stack and a memo on canonical states: a component that is structurally the
// nim heap *k (runtime/NimShape.h) becomes the token "nim k", *0 components are
// dropped, and the tokens are sorted. A state of nim heaps only is answered by
// the misère-nim rule without searching. A sum of heaps of one game whose
// misère quotient gdsl can compute (runtime/GameQuotients.h) is answered by
// the quotient instead. See docs/misere.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/Engine.h"
#include "runtime/GameQuotients.h"
#include "runtime/NimShape.h"

namespace gdsl {

// The search's states are bounded by the engine's maxStates (--max-states),
// the one limit on memoized positions; these are the others.
struct MisereLimits {
  uint64_t maxOptions = 4'000'000;  // options kept for components that are not nim heaps
  NimShapeLimits shape;
};

class MisereSolver {
 public:
  // What the search has done so far (for measurements and tests).
  struct Stats {
    uint64_t states = 0;     // states memoized
    uint64_t nimRule = 0;    // states answered by the misère-nim rule
    uint64_t positions = 0;  // positions classified (nim heap or not)
    uint64_t nimHeaps = 0;   // of which nim heaps
    uint64_t gaveUp = 0;     // classifications given up at the limits
  };

  explicit MisereSolver(Engine& engine, MisereLimits limits = {})
      : engine_(engine),
        limits_(limits),
        maxStates_(engine.options().maxStates),
        shapes_(engine, limits.shape),
        quotients_(engine, QuotientCache::directoryFromEnvironment()) {}

  // True when the player to move wins `sum` under misère play. Throws
  // RuntimeError for a game that is not finite and past the limits.
  bool firstPlayerWins(const Sum& sum);
  // A winning move: (component index, the move), the first in component and
  // rule order whose result the player to move then loses; none when `sum` is
  // lost.
  std::optional<std::pair<size_t, MoveRecord>> winningMove(const Sum& sum);
  // k when `position` is identical to the nim heap *k, else NimShape::kNotNim.
  int64_t nimHeap(const Position& position) { return shapes_.of(position); }

  Stats stats() const;
  // For --verbose: which sums the quotients answered (GameQuotients::report).
  std::string report() const { return quotients_.report(); }
  // Off: every sum is searched (tests compare the two).
  void useQuotients(bool on) { useQuotients_ = on; }

 private:
  // The tokens of a sum, sorted: Position{kNimGame, {k}} for a component
  // identical to *k (k > 0), other components as they are, *0 dropped.
  using State = std::vector<Position>;
  struct StateHash {
    size_t operator()(const State& s) const;
  };
  struct Frame {
    State state;
    size_t component = 0;  // the next move: the option `option` of state[component]
    size_t option = 0;
    bool win = false;
  };
  static constexpr uint32_t kNimGame = UINT32_MAX;
  enum Result : uint8_t { kLose, kWin, kActive };

  State canonical(const Sum& sum);
  // The options of a component that is not a nim heap, as states, without
  // repeats; computed once.
  const std::vector<State>& optionsOf(const Position& position);
  // The next successor of the frame's state in `out`; false after the last.
  bool nextSuccessor(Frame& frame, State& out);
  // The misère-nim rule, when every token is a nim heap.
  std::optional<bool> byNimRule(const State& state);
  bool solve(const State& root);
  std::string describe(const State& state) const;

  Engine& engine_;
  MisereLimits limits_;
  uint64_t maxStates_;  // memoized states
  NimShape shapes_;
  // Sums of heaps of one game are answered by its misère quotient first.
  GameQuotients quotients_;
  bool useQuotients_ = true;
  std::unordered_map<Position, std::vector<State>, PositionHash> options_;
  uint64_t optionCount_ = 0;
  std::unordered_map<State, Result, StateHash> memo_;
  uint64_t nimRule_ = 0;
};

}  // namespace gdsl
