// Loopy games (`loopy game`, docs/reference.md "Loopy games"): games whose
// positions may repeat, valued by the generalized Sprague-Grundy function
// (C. A. B. Smith 1966; A. S. Fraenkel and Y. Yesha 1986). A position's value
// is a number m, or infinite, ∞(K), with K the finite values of its options.
// 0 is a loss for the player to move, a number above 0 a win, ∞(K) a win when
// 0 is in K and a draw otherwise. Sums add as nim does, with
// m ⊕ ∞(K) = ∞(K ⊕ m) and ∞(K) ⊕ ∞(L) = ∞(∅).
//
// LoopySolver labels the graph of the positions reachable from the one asked
// (the graph is finite; --max-states bounds it) level by level, for
// m = 0, 1, 2, ...: a position is labelled m when none of its options is, and
// each of its options that is unlabelled (or infinite) has an option labelled
// m; those with no option labelled m once nothing more can be labelled are
// infinite. A counter per position (its options that still block it) makes
// each level cost time proportional to the positions and moves; the levels
// are at most one more than the most moves of a position. Labels are kept,
// so a later question searches only positions not labelled before.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "runtime/Backend.h"
#include "runtime/MappedArray.h"
#include "runtime/Position.h"
#include "runtime/PositionTable.h"
#include "runtime/ProgressFn.h"

namespace gdsl {

struct LoopyValue {
  bool infinite = false;
  uint32_t finite = 0;      // the value, when not infinite
  std::vector<uint32_t> k;  // when infinite: K, sorted, each value once

  static LoopyValue number(uint32_t m) { return LoopyValue{false, m, {}}; }
  bool operator==(const LoopyValue&) const = default;
};

// The value of the sum of two positions of values a and b.
LoopyValue combine(const LoopyValue& a, const LoopyValue& b);
// 'P' (a loss for the player to move), 'N' (a win) or 'D' (a draw).
char outcomeOf(const LoopyValue& v);
// "*3", "0", "∞(0,2)", "∞(∅)".
std::string formatLoopy(const LoopyValue& v);

class LoopySolver {
 public:
  // `finiteValue`: the value of a sum of positions of games that are not
  // loopy (the engine's search). `maxStates`: the most positions kept
  // (--max-states).
  LoopySolver(const ir::Program& program, Backend& backend,
              std::function<uint32_t(const Sum&)> finiteValue, uint64_t maxStates,
              ProgressFn progress = {});

  // The value of `position`, a normalized position of a loopy game.
  LoopyValue value(const Position& position);
  // When a position worth a number was labelled, counted over every label
  // given (the definition's counter: a position's options worth that
  // number that settle it were labelled before it); 0 for an infinite
  // value. A player who wins moves to the position worth 0 with the least,
  // so that play ends (gdsl play).
  uint64_t counter(const Position& position);
  // Positions labelled so far.
  uint64_t labelled() const { return labelled_; }

 private:
  static constexpr uint32_t kUnlabelled = UINT32_MAX;
  static constexpr uint32_t kInfinite = UINT32_MAX - 1;

  // What a move of a position leads to: another position of a loopy game
  // (its id), or a sum of positions of other games, whose value is known.
  struct Option {
    bool toPosition = false;
    uint32_t id = 0;     // toPosition
    uint32_t value = 0;  // otherwise
  };
  // The options of position `id`, in rule order, into `out` (cleared).
  void optionsOf(uint32_t id, std::vector<Option>& out);
  uint32_t intern(const Position& position);
  // The id of `position`, labelled (solve() runs when it is not yet).
  uint32_t labelledId(const Position& position);
  // Labels every position without a label, and those reachable from them.
  void solve();
  // The value of a labelled position.
  LoopyValue valueOf(uint32_t id);
  // Throws the runaway error when the positions sampled along the chain
  // being listed (`chain`: their ids and sizes, one every --max-states / 256
  // moves, the last at `depth`) kept getting larger.
  void checkRunaway(const std::vector<std::pair<uint32_t, uint64_t>>& chain, uint64_t depth);

  const ir::Program& program_;
  Backend& backend_;
  std::function<uint32_t(const Sum&)> finiteValue_;
  uint64_t maxStates_;
  ProgressFn progress_;  // empty: no progress bar
  PositionTable table_;
  MappedArray<uint32_t> labels_;    // by id: a number, kInfinite or kUnlabelled
  MappedArray<uint32_t> counters_;  // by id: see counter()
  uint64_t labelled_ = 0;
  // Every id from here on is unlabelled: a position is interned by
  // labelledId or by solve(), which labels all of them (or, stopped, none).
  uint32_t unsolvedFrom_ = 0;
};

}  // namespace gdsl
