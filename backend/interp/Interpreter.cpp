// Interpretation of moves: the steps of a move are a loop nest (bind, let,
// guard) run recursively over the step list; the innermost body either emits
// the successor's components (enumerate) or xors their values into a mex
// bitset (heapValue, the one-heap kernel).
#include "backend/interp/Interpreter.h"

#include <algorithm>

namespace gdsl {

// Per-depth scratch: a frame, a component buffer, and mex stamps.
struct Interpreter::Depth {
  std::vector<int64_t> ints;
  std::vector<ir::ListVal> lists;
  std::vector<Position> components;
  std::vector<uint32_t> stamps;
  uint32_t epoch = 0;
};

class Interpreter::DepthGuard {
 public:
  DepthGuard(Interpreter& in) : in_(in), mark_(in.arena_.mark()) { ++in_.depth_; }
  ~DepthGuard() {
    --in_.depth_;
    in_.arena_.release(mark_);
  }

 private:
  Interpreter& in_;
  ir::ListArena::Mark mark_;
};

Interpreter::Interpreter(PositionBuilder& positions)
    : program_(positions.program()), positions_(positions), eval_(program_, arena_) {}
Interpreter::~Interpreter() = default;

Interpreter::Depth& Interpreter::enter() {
  while (depths_.size() <= depth_) depths_.push_back(std::make_unique<Depth>());
  return *depths_[depth_];
}

ir::Frame Interpreter::frame(Depth& d, int intSlots, int listSlots) {
  d.ints.resize(static_cast<size_t>(intSlots));
  d.lists.resize(static_cast<size_t>(listSlots));
  return ir::Frame{d.ints.data(), d.lists.data()};
}

template <typename AtEnd>
bool Interpreter::runSteps(const std::vector<ir::Step>& steps, size_t index, const ir::Frame& f,
                           AtEnd&& atEnd) {
  if (index == steps.size()) return callContinues(atEnd);
  const ir::Step& s = steps[index];
  switch (s.kind) {
    case ir::Step::Kind::Bind:
      return forEachInDomain(eval_, arena_, s, f,
                             [&] { return runSteps(steps, index + 1, f, atEnd); });
    case ir::Step::Kind::Let:
      if (s.type == ir::Type::List)
        f.lists[s.slot] = eval_.evalList(s.value, f);
      else
        f.ints[s.slot] = eval_.evalInt(s.value, f);
      return runSteps(steps, index + 1, f, atEnd);
    case ir::Step::Kind::Guard:
      return !eval_.evalInt(s.value, f) || runSteps(steps, index + 1, f, atEnd);
  }
  return true;
}

void Interpreter::enumerate(const Position& position, MoveSink& sink) {
  const ir::Game& g = program_.games[position.game];
  DepthGuard guard(*this);
  Depth& d = enter();
  ir::Frame f = frame(d, g.intSlots, g.listSlots);
  PositionBuilder::bindParams(g, position, f);
  try {
    // A sink that has seen enough (a winning move found) stops the walk.
    for (const ir::Move& m : g.moves) {
      bool more = runSteps(m.steps, 0, f, [&] {
        d.components.clear();
        positions_.emitTerms(m.successor, f, PositionBuilder::Role::Successor, d.components);
        return sink.onMove(m, f, d.components);
      });
      if (!more) return;
    }
  } catch (RuntimeError& e) {
    positions_.addContext(e, position);
    throw;
  }
}

uint32_t Interpreter::xorTerms(const std::vector<ir::Term>& terms, const ir::Frame& f, int game,
                               int64_t n, TableView table, ValueOracle& oracle) {
  uint32_t x = 0;
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::SumFor) {
      forEachInDomain(eval_, arena_, t.binder, f,
                      [&] { x ^= xorTerms(t.body, f, game, n, table, oracle); });
      continue;
    }
    if (t.game == game) {
      int64_t m = eval_.evalInt(t.args[0], f);
      if (m >= 0 && m < n) {
        x ^= table[m];
        continue;
      }
    }
    x ^= oracle.valueOf(positions_.makePosition(t, f, PositionBuilder::Role::Successor));
  }
  return x;
}

uint32_t Interpreter::heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) {
  ++work_.kernelHeaps;
  // The compiled moves first; on a runtime error, walking the IR reports it.
  if (compiledMoves_)
    if (const interp::MoveCode* code = moveCode(game)) {
      CodeLevel level(*this);
      std::vector<int64_t> noMiss;
      interp::CodeSearchInput in{*code, game,   NativeMemo{}, oracle, positions_,
                                 eval_, arena_, noMiss,       0};
      uint32_t value = 0;
      if (interp::heapValueCode(in, n, table, *level.scratch, value) == NativeStatus::Done)
        return value;
    }
  const ir::Game& g = program_.games[static_cast<size_t>(game)];
  DepthGuard guard(*this);
  Depth& d = enter();
  ir::Frame f = frame(d, g.intSlots, g.listSlots);
  f.ints[g.params[0].slot] = n;
  // mex with epoch stamps: stamps[v] == epoch means value v was seen.
  if (++d.epoch == 0) {
    std::fill(d.stamps.begin(), d.stamps.end(), 0);
    d.epoch = 1;
  }
  try {
    for (const ir::Move& m : g.moves) {
      runSteps(m.steps, 0, f, [&] {
        uint32_t v = xorTerms(m.successor, f, game, n, table, oracle);
        if (v >= d.stamps.size()) d.stamps.resize(std::max<size_t>(v + 1, 2 * d.stamps.size()));
        d.stamps[v] = d.epoch;
      });
    }
  } catch (RuntimeError& e) {
    Position p;
    p.game = static_cast<uint32_t>(game);
    p.words.push_back(n);
    positions_.addContext(e, p);
    throw;
  }
  uint32_t mex = 0;
  while (mex < d.stamps.size() && d.stamps[mex] == d.epoch) ++mex;
  return mex;
}

}  // namespace gdsl
