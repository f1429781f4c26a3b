// Interpretation of moves: the steps of a move are a loop nest (bind, let,
// guard) run recursively over the step list; the innermost body either emits
// the successor's components (enumerate) or xors their values into a mex
// bitset (heapValue, the one-heap kernel).
#include "backend/interp/Interpreter.h"

#include <fmt/format.h>

#include "runtime/Interrupt.h"

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

Interpreter::Interpreter(const ir::Program& program) : program_(program), eval_(program, arena_) {}
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

void Interpreter::bindParams(const ir::Game& game, const Position& position, ir::Frame& frame) {
  size_t w = 0;
  for (const ir::Param& p : game.params) {
    if (p.type == ir::Type::List) {
      int64_t n = position.words[w++];
      frame.lists[p.slot] = ir::ListVal{position.words.data() + w, n, 0, false};
      w += static_cast<size_t>(n);
    } else {
      frame.ints[p.slot] = position.words[w++];
    }
  }
}

void Interpreter::addContext(RuntimeError& error, const Position& position) const {
  if (error.context.empty()) error.context = formatPosition(program_, position);
}

template <typename Body>
void Interpreter::forEach(const ir::Step& s, const ir::Frame& f, Body&& body) {
  ir::ListArena::Mark mark = arena_.mark();
  if (s.domain.isRange) {
    int64_t lo = eval_.evalInt(s.domain.lo, f), hi = eval_.evalInt(s.domain.hi, f);
    for (int64_t v = lo; v <= hi; ++v) {
      if ((v & 0xffff) == 0) checkInterrupt();  // a huge range can take long
      f.ints[s.slot] = v;
      body();
      arena_.release(mark);
      if (v == hi) break;  // no overflow at INT64_MAX
    }
    return;
  }
  if (s.domain.list.type == ir::Type::ListList) {
    for (int row : eval_.nested(s.domain.list)) {
      f.lists[s.slot] = eval_.poolList(row);
      body();
      arena_.release(mark);
    }
    return;
  }
  ir::ListVal l = eval_.evalList(s.domain.list, f);
  ir::ListArena::Mark inner = arena_.mark();
  for (int64_t i = 0; i < l.size; ++i) {
    if ((i & 0xffff) == 0xffff) checkInterrupt();  // a range's list can be huge
    f.ints[s.slot] = l.at(i);
    body();
    arena_.release(inner);
  }
}

template <typename AtEnd>
void Interpreter::runSteps(const std::vector<ir::Step>& steps, size_t index, const ir::Frame& f,
                           AtEnd&& atEnd) {
  if (index == steps.size()) {
    atEnd();
    return;
  }
  const ir::Step& s = steps[index];
  switch (s.kind) {
    case ir::Step::Kind::Bind:
      forEach(s, f, [&] { runSteps(steps, index + 1, f, atEnd); });
      return;
    case ir::Step::Kind::Let:
      if (s.type == ir::Type::List)
        f.lists[s.slot] = eval_.evalList(s.value, f);
      else
        f.ints[s.slot] = eval_.evalInt(s.value, f);
      runSteps(steps, index + 1, f, atEnd);
      return;
    case ir::Step::Kind::Guard:
      if (eval_.evalInt(s.value, f)) runSteps(steps, index + 1, f, atEnd);
      return;
  }
}

void Interpreter::appendArgs(const ir::Game& game, const std::vector<ir::Expr>& args,
                             const ir::Frame& f, Words& words) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (game.params[i].type == ir::Type::List) {
      ir::ListVal l = eval_.evalList(args[i], f);
      words.push_back(l.size);
      for (int64_t j = 0; j < l.size; ++j) words.push_back(l.at(j));
    } else {
      words.push_back(eval_.evalInt(args[i], f));
    }
  }
}

Position Interpreter::makePosition(const ir::Term& term, const ir::Frame& f) {
  const ir::Game& g = program_.games[term.game];
  Position p;
  p.game = static_cast<uint32_t>(term.game);
  appendArgs(g, term.args, f, p.words);
  std::string negative =
      negativeParameterText(program_, p, depth_ == statementDepth_ ? "position" : "successor");
  if (!negative.empty()) throw RuntimeError(term.loc, negative);
  normalize(p);
  return p;
}

void Interpreter::normalize(Position& position) {
  const ir::Game& g = program_.games[position.game];
  if (!g.normalize) return;
  DepthGuard guard(*this);
  Depth& d = enter();
  ir::Frame f = frame(d, g.intSlots, g.listSlots);
  Position out;
  out.game = position.game;
  try {
    bindParams(g, position, f);
    appendArgs(g, *g.normalize, f, out.words);
  } catch (RuntimeError& e) {
    addContext(e, position);
    throw;
  }
  for (int64_t w : out.words)
    if (w < 0)
      throw RuntimeError(g.normalizeLoc, fmt::format("normalize turned {} into {}, which has a "
                                                     "negative parameter",
                                                     formatPosition(program_, position),
                                                     formatPosition(program_, out)));
  position = std::move(out);
}

void Interpreter::emitTerms(const std::vector<ir::Term>& terms, const ir::Frame& f,
                            std::vector<Position>& out) {
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::Position) {
      out.push_back(makePosition(t, f));
    } else {
      forEach(t.binder, f, [&] { emitTerms(t.body, f, out); });
    }
  }
}

namespace {
struct StopEnumeration {};
}  // namespace

Sum Interpreter::evalPosition(const ir::PositionExpr& position) {
  DepthGuard guard(*this);
  struct Mark {  // errors at this depth are in the statement's own position
    size_t& slot;
    size_t saved;
    ~Mark() { slot = saved; }
  } mark{statementDepth_, statementDepth_};
  statementDepth_ = depth_;
  Depth& d = enter();
  ir::Frame f = frame(d, position.intSlots, position.listSlots);
  Sum out;
  emitTerms(position.terms, f, out);
  return out;
}

int64_t Interpreter::evalConstant(const ir::Expr& expr) {
  DepthGuard guard(*this);
  return eval_.evalInt(expr, ir::Frame{});
}

void Interpreter::enumerate(const Position& position, MoveSink& sink) {
  const ir::Game& g = program_.games[position.game];
  DepthGuard guard(*this);
  Depth& d = enter();
  ir::Frame f = frame(d, g.intSlots, g.listSlots);
  bindParams(g, position, f);
  try {
    for (const ir::Move& m : g.moves) {
      runSteps(m.steps, 0, f, [&] {
        d.components.clear();
        emitTerms(m.successor, f, d.components);
        if (!sink.onMove(m, f, d.components)) throw StopEnumeration{};
      });
    }
  } catch (RuntimeError& e) {
    addContext(e, position);
    throw;
  } catch (const StopEnumeration&) {
  }
}

uint32_t Interpreter::xorTerms(const std::vector<ir::Term>& terms, const ir::Frame& f, int game,
                               int64_t n, TableView table, ValueOracle& oracle) {
  uint32_t x = 0;
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::SumFor) {
      forEach(t.binder, f, [&] { x ^= xorTerms(t.body, f, game, n, table, oracle); });
      continue;
    }
    if (t.game == game) {
      int64_t m = eval_.evalInt(t.args[0], f);
      if (m >= 0 && m < n) {
        x ^= table[m];
        continue;
      }
    }
    x ^= oracle.valueOf(makePosition(t, f));
  }
  return x;
}

uint32_t Interpreter::heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) {
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
    addContext(e, p);
    throw;
  }
  uint32_t mex = 0;
  while (mex < d.stamps.size() && d.stamps[mex] == d.epoch) ++mex;
  return mex;
}

}  // namespace gdsl
