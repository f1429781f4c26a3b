// Grundy values (see Engine.h): the engine's entry points (a sum's value, a
// position's value sent to its table, its native search or the engine's
// search), moves, taking over another engine's values, and the report.
// The rest of the engine: EngineTables.cpp (one-heap tables, periods,
// checkpoints, table files), EngineSearch.cpp (the hashed search, cycles and
// runaways), EngineNative.cpp (native searches over the game's memo).
#include "runtime/Engine.h"

#include <fmt/format.h>

#include "runtime/EngineParts.h"

namespace gdsl {

namespace {

// The games whose positions are always one word, kept inline by the memo.
std::vector<bool> oneWordGames(const ir::Program& program) {
  std::vector<bool> out;
  for (const ir::Game& g : program.games) out.push_back(g.oneHeap());
  return out;
}

}  // namespace

Engine::Engine(const ir::Program& program, Backend& backend, EngineOptions options)
    : program_(program),
      backend_(backend),
      options_(options),
      heaps_(program.games.size()),
      table_(oneWordGames(program)) {
  for (size_t g = 0; g < program.games.size(); ++g) {
    const ir::Game& game = program.games[g];
    // A board written as a bitmask is searched: its moves reach few of the
    // integers below it (compiler/ir/BitSets.cpp).
    heaps_[g].dense = game.oneHeap() && !game.normalize && !game.bitSet && !game.loopy;
    // The plain method (for benchmarks) runs the backend's kernel.
    if (game.takeBreak && !options_.plain)
      heaps_[g].solver = std::make_unique<TakeBreakSolver>(*game.takeBreak, options_.sparse);
    if (game.takeBreak) heaps_[g].shape = *game.takeBreak;
    heaps_[g].proofBound = game.takeBreakBound;
    heaps_[g].proofParts = game.takeBreakParts;
    // The native memo, by the rule the JIT's code generation follows too
    // (runtime/NativeMemo.h).
    heaps_[g].memo = memoKind(game);
    heaps_[g].native = options_.native && heaps_[g].memo != MemoKind::None && !game.loopy;
  }
}

uint32_t Engine::value(const Sum& sum) {
  uint32_t x = 0;
  for (const Position& p : sum) x ^= value(p);
  return x;
}

uint32_t Engine::value(const Position& position) {
  if (program_.games[position.game].loopy) {
    LoopyValue v = loopyValue(position);
    if (v.infinite)
      throw RuntimeError(
          SourceRange{},
          fmt::format("{} has the infinite value {}, where a number is needed "
                      "(eval, moves, assert and tables of one or two ranges take infinite "
                      "values)",
                      formatPosition(program_, position), formatLoopy(v)));
    return v.finite;
  }
  if (!program_.games[position.game].byLength.empty())
    if (std::optional<Position> ints = asIntegers(position)) return value(*ints);
  if (heaps_[position.game].dense) return heapValue(position);
  if (program_.games[position.game].boardParam >= 0 && options_.pruneBoards)
    if (std::optional<uint32_t> v = fixedBoardValue(position)) return *v;
  uint32_t x = 0;
  bool whole = true;
  forEachPart(position, [&](const Position& part) {
    whole = false;
    x ^= wholeValue(part);
  });
  return whole ? wholeValue(position) : x;
}

LoopySolver& Engine::loopySolver() {
  if (!loopy_)
    loopy_ = std::make_unique<LoopySolver>(
        program_, backend_, [this](const Sum& sum) { return value(sum); }, options_.maxStates,
        options_.progress);
  return *loopy_;
}

LoopyValue Engine::loopyValue(const Position& position) {
  if (!program_.games[position.game].loopy) return LoopyValue::number(value(position));
  return loopySolver().value(position);
}

uint64_t Engine::loopyCounter(const Position& position) {
  if (!program_.games[position.game].loopy) return 0;
  return loopySolver().counter(position);
}

LoopyValue Engine::loopyValue(const Sum& sum) {
  LoopyValue total = LoopyValue::number(0);
  for (const Position& p : sum) total = combine(total, loopyValue(p));
  return total;
}

uint32_t Engine::wholeValue(const Position& position) {
  if (usesNative(position.game)) return nativeValue(position);
  return searchValue(position);
}

void Engine::adopt(Engine& old, const std::vector<int>& oldGame) {
  std::vector<int> newGame(old.heaps_.size(), -1);
  for (size_t g = 0; g < oldGame.size() && g < heaps_.size(); ++g) {
    if (oldGame[g] < 0) continue;
    newGame[static_cast<size_t>(oldGame[g])] = static_cast<int>(g);
    heaps_[g] = std::move(old.heaps_[static_cast<size_t>(oldGame[g])]);
    heaps_[g].extending = false;
    heaps_[g].nativeActive = false;
    heaps_[g].cellSearch.reset();  // it reads the old program's moves
  }
  for (uint32_t id = 0; id < old.table_.size(); ++id) {
    if (old.values_[id] == kUnknownValue) continue;
    Position p = old.table_.at(id);
    if (newGame[p.game] < 0) continue;
    p.game = static_cast<uint32_t>(newGame[p.game]);
    values_[intern(p)] = old.values_[id];
  }
}

int64_t Engine::memoSize() const {
  int64_t n = 0;
  for (const HeapState& h : heaps_) n += h.values.size();
  for (uint32_t v : values_) n += v != kUnknownValue;
  if (loopy_) n += static_cast<int64_t>(loopy_->labelled());
  for (const HeapState& h : heaps_) {
    if (h.box) n += h.box->knownCount();
    if (h.wordMemo) n += h.wordMemo->knownCount();
    for (const auto& [key, fixed] : h.fixedBoards)
      if (fixed->memo) n += fixed->memo->knownCount();
  }
  return n;
}

std::string Engine::report() const {
  std::string out;
  std::vector<int64_t> searched(heaps_.size(), 0);  // memoized positions of each game
  for (uint32_t id = 0; id < table_.size(); ++id)
    if (values_[id] != kUnknownValue) ++searched[table_.gameOf(id)];
  for (size_t g = 0; g < heaps_.size(); ++g) {
    const HeapState& h = heaps_[g];
    const std::string name = program_.displayName(static_cast<int>(g));
    if (h.box) {
      std::string cells;
      for (int64_t e : h.box->extent()) cells += (cells.empty() ? "" : " x ") + std::to_string(e);
      out += fmt::format(
          "gdsl: {}: {} positions in a dense memo of {} cells ({:.1f} MiB reserved), filled by "
          "the backend's native search: its parameters are integers\n",
          name, h.box->knownCount(), cells, static_cast<double>(h.box->bytes()) / (1 << 20));
    }
    if (h.wordMemo) {
      int64_t known = h.wordMemo->knownCount();
      out += fmt::format(
          "gdsl: {}: {} positions in a packed table of words ({} slots of {} bytes, {:.1f} "
          "MiB, {:.1f} bytes per position), filled by {}: its one parameter is {}\n",
          name, known, h.wordMemo->mask() + 1, h.wordMemo->slotBytes(),
          static_cast<double>(h.wordMemo->bytes()) / (1 << 20),
          known ? static_cast<double>(h.wordMemo->bytes()) / static_cast<double>(known) : 0.0,
          h.pruned == 0          ? "the backend's native search"
          : h.nativeSearches > 0 ? "the pruning search and the backend's native search"
                                 : "the pruning search",
          h.memo == MemoKind::Lists  ? "a list, packed into a word"
          : program_.games[g].bitSet ? "a set of bits"
                                     : "normalized");
    }
    if (!program_.games[g].declared() && !h.nativeStopped.empty() && searched[g] == 0)
      out += fmt::format("gdsl: {}: values given back to {}: the native search stopped: {}\n", name,
                         program_.games[static_cast<size_t>(program_.games[g].listOf)].name,
                         h.nativeStopped);
    if (searched[g] != 0) {
      std::string why;
      if (!h.nativeStopped.empty())
        why = "the native search stopped: " + h.nativeStopped;
      else if (program_.games[g].bitSet)
        why = "its successors use & | ^ << >> on its parameter, a set of bits";
      else if (!h.native)
        why = "a parameter is a list";
      else if (backend_.searchesNatively(static_cast<int>(g)))
        why =
            "met by the engine's search before the native search took over (auto hands "
            "positions to it once it has switched to the JIT)";
      else
        why = "the backend has no native search for it";
      out += fmt::format("gdsl: {}: {} positions in the hashed memo of the search: {}\n", name,
                         searched[g], why);
    }
    if (h.pruned > 0)
      out += fmt::format(
          "gdsl: {}: {} part{} expanded by the pruning search (each asked only whether its "
          "value is in a set)\n",
          name, h.pruned, h.pruned == 1 ? "" : "s");
    if (h.cellSearch && h.cellSearch->reductions() > 0)
      out += fmt::format(
          "gdsl: {}: {} part{} worth the same with fewer cells: dominated cells left out before "
          "searching (every move clears exactly the cells it needs)\n",
          name, h.cellSearch->reductions(), h.cellSearch->reductions() == 1 ? "" : "s");
    if (h.cellSearch && h.cellSearch->twinCuts() > 0)
      out += fmt::format(
          "gdsl: {}: {} part{} cut into pieces at twin corners (two cells whose only moves "
          "go to the same two cells)\n",
          name, h.cellSearch->twinCuts(), h.cellSearch->twinCuts() == 1 ? "" : "s");
    const int64_t parallel = h.cellSearch ? h.cellSearch->parallelParts() : 0;
    if (parallel > 0)
      out += fmt::format(
          "gdsl: {}: {} part{} of {} cells or more valued by {} threads (--threads), each "
          "asking the next of its options not yet asked\n",
          name, parallel, parallel == 1 ? "" : "s", CellSearch::kParallelCells,
          h.cellSearch->threads());
    if (parallel > 0 && h.cellSearch->offered() > 0)
      out += fmt::format(
          "gdsl: {}: {} time{} a thread with no option left joined another's: the options "
          "left at a part of {} cells or more, offered to it\n",
          name, h.cellSearch->offered(), h.cellSearch->offered() == 1 ? "" : "s",
          CellSearch::kShareCells);
    if (parallel > 0 && h.cellSearch->putBack() > 0)
      out += fmt::format(
          "gdsl: {}: {} time{} a thread put its option of the root's question back, to help "
          "another's that had taken as long ({} parts)\n",
          name, h.cellSearch->putBack(), h.cellSearch->putBack() == 1 ? "" : "s",
          CellSearch::kFocusAfter);
    if (h.cellSearch && h.cellSearch->replaced() > 0)
      out += fmt::format(
          "gdsl: {}: {} values written to a replacement table of {:.1f} MiB ({} bytes per "
          "position), as the memo stopped growing at --max-states positions or a quarter of "
          "--max-memory{}: the search recomputes what was replaced\n",
          name, h.cellSearch->replaced(),
          static_cast<double>(h.cellSearch->replacementTableBytes()) / (1 << 20),
          ValueTable::kEntryBytes,
          parallel > 0 ? ", or while threads searched (the memo was only read then)" : "");
    if (program_.games[g].cells && (h.wordMemo || searched[g]))
      out += fmt::format(
          "gdsl: {}: a board that splits: each of its {} moves needs some cells and clears "
          "some, so a position is valued as the xor of its parts, each memoized alone\n",
          name, program_.games[g].cells->require.size());
    else if (!program_.games[g].notCells.empty() && (h.wordMemo || searched[g]))
      out += fmt::format("gdsl: {}: searched as whole boards, not split into parts: {}\n", name,
                         program_.games[g].notCells);
    for (const auto& [key, fixed] : h.fixedBoards)
      out += fixedBoardReport(static_cast<int>(g), key, *fixed);
  }
  for (size_t g = 0; g < heaps_.size(); ++g) {
    const HeapState& h = heaps_[g];
    if (h.values.empty()) continue;
    out += fmt::format("gdsl: {}: {} heaps in a {}-bit table ({:.1f} MiB{})",
                       program_.displayName(static_cast<int>(g)), h.values.size(),
                       h.values.wide() ? 32 : 16,
                       static_cast<double>(h.values.size() * (h.values.wide() ? 4 : 2)) / (1 << 20),
                       h.file ? fmt::format(" in table file '{}'", h.file->path()) : "");
    if (h.solver)
      out += (h.shapeFromMoves ? "; take-and-break shape found in its move rules; " : "; ") +
             h.solver->describe();
    else if (const std::string& why =
                 h.notTakeBreak.empty() ? program_.games[g].notTakeBreak : h.notTakeBreak;
             !why.empty())
      out += "; not take-and-break: " + why;
    if (h.proved && h.proved->saltus != 0)
      out += fmt::format("; period {} from {}, saltus {}, proved at heap {}", h.proved->period,
                         h.proved->preperiod, h.proved->saltus, h.proved->proofHeap);
    else if (h.proved)
      out += fmt::format("; period {} from {} proved", h.proved->period, h.proved->preperiod);
    else if (h.saltusCandidate && !h.saltusProof.holds)
      out += fmt::format("; period {} from {}, saltus {}, not proved: {}",
                         h.saltusCandidate->period, h.saltusCandidate->preperiod,
                         h.saltusCandidate->saltus, h.saltusProof.whyNot);
    out += "\n";
  }
  return out;
}

std::string Engine::fixedBoardReport(int game, const std::vector<int64_t>& key,
                                     const FixedBoard& fixed) const {
  const ir::Game& g = program_.games[static_cast<size_t>(game)];
  std::string position = g.name + "(";
  for (size_t i = 0; i < key.size(); ++i)
    position += (i ? ", " : "") +
                (static_cast<int>(i) == g.boardParam ? g.params[i].name : std::to_string(key[i]));
  position += ")";
  if (!fixed.cells)
    return fmt::format(
        "gdsl: {}: searched as whole boards, not split into parts: {} (the parameters other "
        "than {} are passed on unchanged by every move, so they were fixed)\n",
        position, fixed.whyNot, g.params[static_cast<size_t>(g.boardParam)].name);
  std::string out = fmt::format(
      "gdsl: {}: a board that splits, its parameters other than {} fixed within the search: "
      "each of its {} moves needs some cells and clears some, so a position is valued as the "
      "xor of its parts, each memoized alone ({} parts memoized, {} expanded by the pruning "
      "search)\n",
      position, g.params[static_cast<size_t>(g.boardParam)].name, fixed.cells->require.size(),
      fixed.memo->knownCount(), fixed.pruned);
  if (fixed.search->replaced() > 0)
    out += fmt::format("gdsl: {}: {} values written to a replacement table of {:.1f} MiB\n",
                       position, fixed.search->replaced(),
                       static_cast<double>(fixed.search->replacementTableBytes()) / (1 << 20));
  return out;
}

std::string Engine::tableMethod(int game) const {
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  if (h.solver) return h.solver->describe();
  return h.values.empty() ? "" : "kernel";
}

// ---- moves -------------------------------------------------------------------

std::vector<MoveRecord> Engine::movesOf(const Position& position) {
  std::vector<MoveRecord> out;
  forEachMove(position, [&](MoveRecord& m) {
    out.push_back(std::move(m));
    return true;
  });
  return out;
}

void Engine::forEachMove(const Position& position, const std::function<bool(MoveRecord&)>& visit) {
  struct Visit : MoveSink {
    const std::function<bool(MoveRecord&)>& visit;
    explicit Visit(const std::function<bool(MoveRecord&)>& v) : visit(v) {}
    bool onMove(const ir::Move& move, const ir::Frame& frame,
                std::span<const Position> comps) override {
      MoveRecord r;
      r.move = &move;
      r.label = move.label;
      std::string binders;
      for (const ir::Step& s : move.steps) {
        if (s.kind != ir::Step::Kind::Bind) continue;
        if (!binders.empty()) binders += ", ";
        if (s.type == ir::Type::List) {
          const ir::ListVal& l = frame.lists[s.slot];
          std::string items;
          for (int64_t i = 0; i < l.size; ++i) items += (i ? ", " : "") + std::to_string(l.at(i));
          binders += fmt::format("{}=[{}]", s.name, items);
        } else {
          binders += fmt::format("{}={}", s.name, frame.ints[s.slot]);
        }
      }
      if (!binders.empty()) r.label += "(" + binders + ")";
      r.components.assign(comps.begin(), comps.end());
      return visit(r);
    }
  } sink(visit);
  backend_.enumerate(position, sink);
}

}  // namespace gdsl
