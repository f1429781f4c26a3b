// The engine's own search (see Engine.h): an explicit stack over interned
// positions with a hashed memo, for every position no table or native search
// values; it finds cycles (reported with their chain) and runaway chains of
// growing positions, and reports the runtime errors the native searches hand
// back.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/support/Interrupt.h"
#include "runtime/Engine.h"
#include "runtime/EngineParts.h"
#include "runtime/Limits.h"
#include "runtime/Mex.h"

namespace gdsl {

uint32_t Engine::intern(const Position& position) {
  bool added = false;
  uint32_t id = table_.intern(position, added);
  if (added) {
    values_.push_back(kUnknownValue);
    onStack_.push_back(0);
    if (table_.size() > options_.maxStates)
      throw RuntimeError(SourceRange{}, maxStatesMessage(options_.maxStates));
  }
  return id;
}

bool Engine::known(uint32_t id, uint32_t& value) {
  uint32_t game = table_.gameOf(id);
  if (heaps_[game].dense) {
    Position p = table_.at(id);  // heapValue may intern, which moves positions
    value = heapValue(p);
    return true;
  }
  value = values_[id];
  if (value != kUnknownValue) return true;
  // A position on the search stack is a cycle, which the caller reports.
  if (onStack_[id] || !usesNative(game)) return false;
  Position p = table_.at(id);
  value = nativeValue(p);
  values_[id] = value;
  return true;
}

namespace {

// Collects the successors of one position as interned component ids.
struct Frame {
  uint32_t id = 0;
  std::vector<uint32_t> components;
  std::vector<uint32_t> moveEnds;  // components of move i end at moveEnds[i]
  std::vector<const ir::Move*> moves;
  size_t next = 0;             // next move to value
  std::vector<uint32_t> seen;  // values of the moves valued so far
};

}  // namespace

void Engine::cycleError(const std::vector<uint32_t>& path, uint32_t repeated,
                        const ir::Move* move) {
  auto start = std::find(path.begin(), path.end(), repeated);
  std::string chain;
  for (auto it = start; it != path.end(); ++it)
    chain += formatPosition(program_, table_.at(*it)) + " -> ";
  chain += formatPosition(program_, table_.at(repeated));
  RuntimeError e(move ? move->loc : SourceRange{},
                 fmt::format("{} can reach itself, so the game is not finite: {}",
                             formatPosition(program_, table_.at(repeated)), chain));
  // The games of the cycle, each once, in the cycle's order.
  std::vector<uint32_t> games;
  for (auto it = start; it != path.end(); ++it)
    if (uint32_t game = table_.at(*it).game;
        std::find(games.begin(), games.end(), game) == games.end())
      games.push_back(game);
  // Positions of a game with a normalize rule are what the rule made of the
  // moves' results: a rule that is not a symmetry of the game can close a
  // cycle the moves alone do not have.
  for (uint32_t game : games) {
    const ir::Game& g = program_.games[game];
    if (!g.normalize) continue;
    e.notes.push_back(Diagnostic{
        Severity::Note,
        fmt::format("the cycle goes through positions of {}, which its normalize rule rewrites "
                    "after each move: a rule that is not a symmetry of the game (a position and "
                    "its rewriting must have the same value) can close a cycle the moves alone "
                    "do not have",
                    g.name),
        g.normalizeLoc,
        {}});
  }
  // A game whose positions may repeat can be declared so (runtime/Loopy.h).
  for (uint32_t game : games) {
    const ir::Game& g = program_.games[game];
    e.notes.push_back(Diagnostic{
        Severity::Note,
        fmt::format("if positions of {} may repeat, declare it 'loopy game {}': its positions "
                    "then get values that tell wins, losses and draws",
                    g.name, g.name),
        g.loc,
        {}});
  }
  throw e;
}

uint64_t Engine::runawayDepth() const {
  return gdsl::runawayDepth(options_.maxStates);
}

void Engine::recordGrowth(const Position& position, const ir::Move* move) {
  pathGrowth_.push_back(magnitude({position.words.data(), position.words.size()}));
  // The last runawayDepth() + 1 positions of the path, sampled every
  // 1/16 of that: a runaway when each sample is larger than the one before.
  uint64_t depth = runawayDepth(), stride = depth / kRunawaySamples;
  size_t n = pathGrowth_.size();
  if (n <= depth || (n - 1) % stride != 0) return;
  for (uint64_t j = 0; j < kRunawaySamples; ++j)
    if (pathGrowth_[n - 1 - j * stride] <= pathGrowth_[n - 1 - (j + 1) * stride]) return;
  runawayError(move);
}

void Engine::runawayError(const ir::Move* move) {
  const std::vector<uint32_t>& path = searchPath_;
  uint64_t depth = runawayDepth();
  size_t first = path.size() - 1 - static_cast<size_t>(depth);
  auto at = [&](size_t i) { return formatPosition(program_, table_.at(path[i])); };
  std::string chain;
  for (size_t i = first; i < first + 3; ++i) chain += at(i) + " -> ";
  chain += "...";
  for (size_t i = path.size() - 3; i < path.size(); ++i) chain += " -> " + at(i);
  RuntimeError e(move ? move->loc : SourceRange{},
                 fmt::format("the successors of move '{}' keep growing: along a chain of {} moves "
                             "from {} to {}, the positions kept getting larger (the sum of their "
                             "parameters, every {} moves); the game looks infinite",
                             move ? move->label : std::string("?"), depth, at(first),
                             at(path.size() - 1), depth / kRunawaySamples));
  e.notes.push_back(Diagnostic{Severity::Note, "the chain: " + chain, SourceRange{}, {}});
  e.notes.push_back(Diagnostic{
      Severity::Note,
      fmt::format("a search stops a chain of growing positions longer than --max-states / 16 "
                  "({}); if the game is finite, raise --max-states",
                  depth),
      SourceRange{},
      {}});
  throw e;
}

bool Engine::valueFromKnown(const Position& position, uint32_t& value) {
  struct Probe : MoveSink {
    Engine& engine;
    std::vector<uint32_t> seen;
    bool complete = true;
    uint32_t cycle = kUnknownValue;  // a successor on the search stack
    const ir::Move* cycleMove = nullptr;
    explicit Probe(Engine& e) : engine(e) {}
    bool onMove(const ir::Move& move, const ir::Frame&, std::span<const Position> comps) override {
      uint32_t x = 0;
      auto add = [&](const Position& c) {
        if (!complete) return;
        uint32_t v = 0;
        if (engine.heaps_[c.game].dense) {
          // Only values already in the table: the probe never starts work.
          std::optional<uint32_t> known = engine.tabled(c);
          if (!known) {
            complete = false;
            return;
          }
          v = *known;
        } else if (std::optional<uint32_t> native = engine.nativeKnown(c)) {
          v = *native;
        } else {
          std::optional<uint32_t> id = engine.table_.find(c);
          if (id && engine.onStack_[*id]) {
            cycle = *id;
            cycleMove = &move;
          }
          if (!id || engine.values_[*id] == kUnknownValue) {
            complete = false;
            return;
          }
          v = engine.values_[*id];
        }
        x ^= v;
      };
      for (const Position& c : comps)
        if (!engine.forEachPart(c, add)) add(c);
      if (!complete) return false;
      seen.push_back(x);
      return true;
    }
  } probe(*this);
  backend_.enumerate(position, probe);
  // Reported here, outside the enumeration, exactly as the search reports it.
  if (probe.cycle != kUnknownValue) cycleError(searchPath_, probe.cycle, probe.cycleMove);
  if (!probe.complete) return false;
  value = mex(probe.seen, mexMarks_);
  return true;
}

uint32_t Engine::searchValue(const Position& root) {
  uint32_t rootId = intern(root);
  uint32_t v = 0;
  if (values_[rootId] != kUnknownValue) return values_[rootId];
  std::vector<Frame> stack;
  std::vector<uint32_t>& path = searchPath_;  // shared with nested searches
  const size_t pathBase = path.size();

  // Pushes a frame for `id`, unless all its successors already have values,
  // in which case its value is computed on the spot (false: nothing pushed).
  auto push = [&](uint32_t id, const ir::Move* via) {
    checkInterrupt();
    Position copy = table_.at(id);  // enumerate may rehash the memo
    onStack_[id] = 1;
    path.push_back(id);
    recordGrowth(copy, via);
    uint32_t value = 0;
    if (valueFromKnown(copy, value)) {
      values_[id] = value;
      onStack_[id] = 0;
      path.pop_back();
      pathGrowth_.pop_back();
      return false;
    }
    Frame f;
    f.id = id;
    struct Collect : MoveSink {
      Engine& engine;
      Frame& frame;
      Collect(Engine& e, Frame& f) : engine(e), frame(f) {}
      bool onMove(const ir::Move& move, const ir::Frame&,
                  std::span<const Position> comps) override {
        auto add = [&](const Position& c) { frame.components.push_back(engine.intern(c)); };
        for (const Position& c : comps)
          if (!engine.forEachPart(c, add)) add(c);
        frame.moveEnds.push_back(static_cast<uint32_t>(frame.components.size()));
        frame.moves.push_back(&move);
        return true;
      }
    } collect(*this, f);
    backend_.enumerate(copy, collect);
    stack.push_back(std::move(f));
    return true;
  };

  try {
    if (!push(rootId, nullptr)) return values_[rootId];
    while (!stack.empty()) {
      size_t top = stack.size() - 1;
      bool descended = false;
      while (stack[top].next < stack[top].moveEnds.size()) {
        Frame& f = stack[top];
        size_t begin = f.next == 0 ? 0 : f.moveEnds[f.next - 1];
        uint32_t x = 0;
        uint32_t pending = kUnknownValue;
        for (size_t i = begin; i < f.moveEnds[f.next]; ++i) {
          uint32_t c = f.components[i];
          if (known(c, v)) {
            x ^= v;
            continue;
          }
          if (onStack_[c]) cycleError(path, c, f.moves[f.next]);
          pending = c;
          break;
        }
        if (pending != kUnknownValue) {
          if (push(pending, f.moves[f.next])) {
            descended = true;
            break;
          }
          continue;  // `pending` got its value at once: value this move again
        }
        f.seen.push_back(x);
        ++f.next;
      }
      if (descended) continue;
      Frame& f = stack[top];
      values_[f.id] = mex(f.seen, mexMarks_);
      onStack_[f.id] = 0;
      path.pop_back();
      pathGrowth_.pop_back();
      stack.pop_back();
    }
  } catch (...) {
    for (size_t i = pathBase; i < path.size(); ++i) onStack_[path[i]] = 0;
    path.resize(pathBase);
    pathGrowth_.resize(pathBase);
    throw;
  }
  return values_[rootId];
}

}  // namespace gdsl
