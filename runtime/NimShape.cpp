// Nim-heap recognition (see NimShape.h): a depth-first search with an explicit
// stack. A position is classified by one pass over its moves once the components
// of its options are classified; the first component that is not is pushed, and
// the position is scanned again when that one is done. The stack is a chain of
// positions each reachable from the one below it, so meeting one of them again
// is a cycle.
#include "runtime/NimShape.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "compiler/support/Interrupt.h"

namespace gdsl {

int64_t NimShape::of(const Position& root) {
  if (auto it = shapes_.find(root); it != shapes_.end()) return it->second;

  // One pass over the moves of a position with the shapes known so far. An
  // option is *v when all its components but at most one are terminal and that
  // one is *v; a sum of two games with moves is never a nim heap (every option of
  // *k with k > 0 includes *0, which a move in such a sum cannot reach).
  struct Scan : MoveSink {
    const std::unordered_map<Position, int64_t, PositionHash>& shapes;
    std::vector<bool> seen;  // option values met
    int64_t distinct = 0;
    int64_t largest = -1;
    uint64_t moves = 0;
    bool notNim = false;
    std::optional<Position> pending;  // the first component not classified yet
    std::optional<Position> cycle;    // a component on the stack
    const ir::Move* cycleMove = nullptr;

    explicit Scan(const std::unordered_map<Position, int64_t, PositionHash>& s) : shapes(s) {}
    bool onMove(const ir::Move& move, const ir::Frame&, std::span<const Position> comps) override {
      ++moves;
      int withMoves = 0;
      int64_t value = 0;
      bool unknown = false;
      for (const Position& c : comps) {
        auto it = shapes.find(c);
        if (it == shapes.end()) {
          if (!pending) pending = c;
          unknown = true;
        } else if (it->second == kInProgress) {
          cycle = c;
          cycleMove = &move;
          return false;
        } else if (it->second != 0) {
          ++withMoves;
          value = it->second;
        }
      }
      if (withMoves > 1 || (withMoves == 1 && value == kNotNim)) {
        notNim = true;
        return false;
      }
      if (unknown) return true;
      auto v = static_cast<size_t>(value);
      if (v >= seen.size()) seen.resize(v + 1, false);
      if (!seen[v]) {
        seen[v] = true;
        ++distinct;
        largest = std::max(largest, value);
      }
      return true;
    }
  };

  std::vector<Position> stack{root};
  shapes_[root] = kInProgress;
  uint64_t moves = 0, pushed = 1;
  try {
    while (!stack.empty()) {
      checkInterrupt();
      Scan scan(shapes_);
      engine_.backend().enumerate(stack.back(), scan);
      moves += scan.moves;
      if (scan.cycle) {
        const ir::Program& program = engine_.program();
        auto start = std::find(stack.begin(), stack.end(), *scan.cycle);
        std::string chain;
        for (auto it = start; it != stack.end(); ++it)
          chain += formatPosition(program, *it) + " -> ";
        chain += formatPosition(program, *scan.cycle);
        throw RuntimeError(scan.cycleMove ? scan.cycleMove->loc : SourceRange{},
                           fmt::format("{} can reach itself, so the game is not finite: {}",
                                       formatPosition(program, *scan.cycle), chain));
      }
      if (!scan.notNim && scan.pending) {
        // Every position on the stack has a move (it has an option to wait
        // for), so one given up on is a game with moves that is not known to be
        // a nim heap: treating it as "not one" only costs sharing.
        if (pushed >= limits_.positions || moves >= limits_.moves) {
          for (const Position& p : stack) shapes_[p] = kNotNim;
          ++gaveUp_;
          return kNotNim;
        }
        shapes_[*scan.pending] = kInProgress;
        stack.push_back(std::move(*scan.pending));
        ++pushed;
        continue;
      }
      int64_t k = scan.notNim || scan.largest + 1 != scan.distinct ? kNotNim : scan.distinct;
      if (limits_.positions == 0 && k > 0) k = kNotNim;  // recognition off
      shapes_[stack.back()] = k;
      if (k >= 0) ++nimHeaps_;
      stack.pop_back();
    }
  } catch (...) {
    for (const Position& p : stack) shapes_.erase(p);
    throw;
  }
  return shapes_.at(root);
}

}  // namespace gdsl
