// Grundy values: dense bottom-up tables for one-heap games, explicit-stack
// search with memo and cycle detection for everything else (see Engine.h).
#include "runtime/Engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/ir/Bounds.h"
#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Checkpoint.h"
#include "runtime/Components.h"
#include "runtime/Mex.h"
#include "runtime/ShapeProbe.h"

namespace gdsl {

namespace {

// The largest heap of a table kept in a table file (the format's limit).
constexpr int64_t kTableFileMaxHeap = (int64_t{1} << 40) - 1;

// Native searches recurse on the machine stack, at most this far below the
// outermost one (then they stop with Deep and are restarted where they stopped).
constexpr uint64_t kNativeStackBytes = 2 << 20;

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
    heaps_[g].dense = game.oneHeap() && !game.normalize && !game.bitSet;
    // The plain method (for benchmarks) runs the backend's kernel.
    if (game.takeBreak && !options_.plain)
      heaps_[g].solver = std::make_unique<TakeBreakSolver>(*game.takeBreak, options_.sparse);
    heaps_[g].proofBound = game.takeBreakBound;
    // The native memo, by the rule the JIT's code generation follows too
    // (runtime/NativeMemo.h).
    heaps_[g].memo = memoKind(game);
    heaps_[g].native = options_.native && heaps_[g].memo != MemoKind::None;
  }
}

uint32_t Engine::value(const Sum& sum) {
  uint32_t x = 0;
  for (const Position& p : sum) x ^= value(p);
  return x;
}

uint32_t Engine::value(const Position& position) {
  if (!program_.games[position.game].byLength.empty())
    if (std::optional<Position> ints = asIntegers(position)) return value(*ints);
  if (heaps_[position.game].dense) return heapValue(position);
  uint32_t x = 0;
  bool whole = true;
  forEachPart(position, [&](const Position& part) {
    whole = false;
    x ^= wholeValue(part);
  });
  return whole ? wholeValue(position) : x;
}

namespace {

// The most cells of a dense box that values a list game's positions as an
// integer game's (64 MiB of 16-bit cells): past it the list game's table of
// words, which holds only the positions reached, is smaller.
constexpr uint64_t kListBoxMaxCells = uint64_t{1} << 25;

}  // namespace

std::optional<Position> Engine::asIntegers(const Position& p) const {
  const std::vector<int>& byLength = program_.games[p.game].byLength;
  if (!options_.listsAsIntegers || p.words.empty()) return std::nullopt;
  int64_t n = p.words[0];
  if (n < 1 || n >= static_cast<int64_t>(byLength.size()) || byLength[static_cast<size_t>(n)] < 0 ||
      static_cast<int64_t>(p.words.size()) != n + 1)
    return std::nullopt;
  auto game = static_cast<uint32_t>(byLength[static_cast<size_t>(n)]);
  std::span<const int64_t> numbers(p.words.data() + 1, static_cast<size_t>(n));
  for (int64_t x : numbers)
    if (x < 0) return std::nullopt;  // the list game reports it
  // A native search with a box (one number: a table of heaps, as any
  // one-heap game's), small enough.
  if (!heaps_[game].native ||
      DenseBox::cellsToHold(numbers) > std::min<uint64_t>(options_.maxStates, kListBoxMaxCells))
    return std::nullopt;
  Position out;
  out.game = game;
  out.words.assign(numbers.begin(), numbers.end());
  return out;
}

void Engine::reserve(const Position& position) {
  const HeapState& h = heaps_[position.game];
  if (!h.native || h.memo != MemoKind::Box) return;
  std::span<const int64_t> w(position.words.data(), position.words.size());
  for (int64_t x : w)
    if (x < 0) return;
  coverBox(position.game, w);  // a box too large is left to the table's own searches
}

bool Engine::coverBox(uint32_t game, std::span<const int64_t> words) {
  HeapState& h = heaps_[game];
  if (h.box && h.box->covers(words)) return true;
  uint64_t cells = h.box ? h.box->cellsToCover(words) : DenseBox::cellsToHold(words);
  if (cells > options_.maxStates) return false;
  if (h.box) {
    h.box->grow(words);
  } else {
    h.box = std::make_unique<DenseBox>(words);
    h.box->setMirror(ir::normalizedOrder(program_.games[game]));
  }
  return true;
}

NativeStatus Engine::searchNativeOnce(uint32_t game, const int64_t* words,
                                      std::vector<int64_t>& miss) {
  HeapState& h = heaps_[game];
  checkInterrupt();
  NativeStatus status = NativeStatus::Unsupported;
  h.nativeActive = true;
  try {
    bool boxed = h.memo == MemoKind::Box;
    NativeMemo memo{h.memo, boxed ? h.box.get() : nullptr, boxed ? nullptr : h.wordMemo.get()};
    status =
        backend_.searchNative(static_cast<int>(game), words, memo, *this, miss, nativeStackFloor_);
  } catch (...) {
    h.nativeActive = false;
    throw;
  }
  h.nativeActive = false;
  return status;
}

uint32_t Engine::wholeValue(const Position& position) {
  if (usesNative(position.game)) return nativeValue(position);
  return searchValue(position);
}

template <typename Each>
bool Engine::forEachPart(const Position& position, Each&& each) {
  const std::optional<ir::CellMoves>& cells = program_.games[position.game].cells;
  if (!cells) return false;
  int64_t parts[kMaxComponents];
  int n = splitComponents(*cells, position.words[0], parts);
  if (n < 0 || (n == 1 && parts[0] == position.words[0])) return false;
  Position part;
  part.game = position.game;
  for (int i = 0; i < n; ++i) {
    part.words.assign(&parts[i], &parts[i] + 1);
    each(part);
  }
  return true;
}

// ---- dense one-heap tables -------------------------------------------------

std::optional<uint32_t> Engine::tabled(const Position& position) const {
  const HeapState& h = heaps_[position.game];
  int64_t m = position.words[0];
  if (m >= 0 && m < h.values.size()) return h.values[m];
  if (h.proved && m >= h.proved->preperiod) {
    int64_t n0 = h.proved->preperiod, p = h.proved->period;
    return h.values[n0 + (m - n0) % p];
  }
  return std::nullopt;
}

uint32_t Engine::heapValue(const Position& position) {
  int game = static_cast<int>(position.game);
  HeapState& h = heaps_[position.game];
  int64_t m = position.words[0];
  auto lookup = [&] { return tabled(position); };
  if (auto v = lookup()) return *v;
  // A request for a heap at or above the one being computed: the game's
  // moves do not all go to smaller heaps, so it cannot be a dense table.
  if (h.extending) throw NotMonotone{game};
  if (m > tableLimit(game)) {
    const ir::Game& g = program_.games[position.game];
    probeMoves(game);
    if (h.proofBound) {
      extend(game, options_.autoPeriodHeaps);
      if (auto v = lookup()) return *v;
    }
    throw RuntimeError(g.loc, fmt::format("{} is too large: without a proved period, values are "
                                          "computed in a table, and the limit is {} heaps{}",
                                          formatPosition(program_, position), options_.maxTableHeap,
                                          h.proofBound ? "; no period could be proved" : ""));
  }
  try {
    extend(game, m);
  } catch (const NotMonotone& e) {
    if (e.game != game) throw;
    h.dense = false;  // computed by search from now on; table values stay valid
    return searchValue(position);
  } catch (const RuntimeError&) {
    // The error is at a smaller heap, which `position` may never reach: only
    // a search from `position` can tell, and it reports the error if so.
    if (h.values.size() >= m) throw;
    h.dense = false;
    return searchValue(position);
  }
  if (auto v = lookup()) return *v;
  return searchValue(position);
}

void Engine::probeMoves(int game) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  const ir::Game& g = program_.games[static_cast<size_t>(game)];
  if (h.probed) return;
  h.probed = true;
  if (h.solver || !g.shapeProbeHeaps || options_.plain) return;
  std::optional<ir::TakeBreakShape> shape = probeShape(backend_, game, *g.shapeProbeHeaps);
  if (!shape) {
    h.notTakeBreak = fmt::format(
        "its moves on heaps 0..{} follow no take-and-break shape (which amounts leave no heap, "
        "one or two)",
        *g.shapeProbeHeaps);
    return;
  }
  h.solver = std::make_unique<TakeBreakSolver>(*shape, options_.sparse);
  h.shapeFromMoves = true;
  if (shape->twoUnequal.empty()) h.proofBound = shape->maxTake;
}

void Engine::extend(int game, int64_t upTo) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  const ir::Game& g = program_.games[static_cast<size_t>(game)];
  probeMoves(game);
  if (tableFileWaiting_) createTableFile(game);  // the first table that grows
  using Clock = std::chrono::steady_clock;
  Clock::time_point lastProgress = Clock::now();
  bool showedProgress = false;
  auto exponent = [&] { return h.solver ? h.solver->costExponent() : -1.0; };
  h.extending = true;
  try {
    while (h.values.size() <= upTo && !h.proved) {
      int64_t n = h.values.size();
      checkInterrupt();
      if ((n & 4095) == 0 && n > 0 &&
          (options_.progress || !options_.checkpointPath.empty() || h.file)) {
        Clock::time_point now = Clock::now();
        if (!options_.checkpointPath.empty() &&
            std::chrono::duration<double>(now - lastCheckpoint_).count() >=
                options_.checkpointSeconds)
          checkpoint();
        if (h.file && std::chrono::duration<double>(now - lastTableFlush_).count() >=
                          options_.tableFileSeconds) {
          h.file->flush(h.values);
          lastTableFlush_ = now;
        }
        if (options_.progress && now - lastProgress >= std::chrono::milliseconds(100)) {
          options_.progress(g.name, "heaps", n, upTo + 1, false, exponent());
          lastProgress = now;
          showedProgress = true;
        }
      }
      uint32_t v =
          h.solver ? h.solver->next(h.values) : backend_.heapValue(game, n, h.values.view(), *this);
      h.values.push(v);
      if (h.proofBound && !options_.plain && n + 1 >= h.nextPeriodCheck) schedulePeriodCheck(game);
    }
  } catch (...) {
    h.extending = false;
    if (showedProgress)
      options_.progress(g.name, "heaps", h.values.size(), upTo + 1, true, exponent());
    throw;
  }
  h.extending = false;
  if (showedProgress)
    options_.progress(g.name, "heaps", h.values.size(), upTo + 1, true, exponent());
}

void Engine::adopt(Engine& old, const std::vector<int>& oldGame) {
  std::vector<int> newGame(old.heaps_.size(), -1);
  for (size_t g = 0; g < oldGame.size() && g < heaps_.size(); ++g) {
    if (oldGame[g] < 0) continue;
    newGame[static_cast<size_t>(oldGame[g])] = static_cast<int>(g);
    heaps_[g] = std::move(old.heaps_[static_cast<size_t>(oldGame[g])]);
    heaps_[g].extending = false;
    heaps_[g].nativeActive = false;
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
  for (const HeapState& h : heaps_) {
    if (h.box) n += h.box->knownCount();
    if (h.wordMemo) n += h.wordMemo->knownCount();
  }
  return n;
}

uint64_t Engine::fingerprint() {
  if (!fingerprint_) fingerprint_ = ir::programFingerprint(program_);
  return *fingerprint_;
}

bool Engine::resume(std::string& error, int64_t& heaps) {
  heaps = 0;
  auto tableFor = [&](const std::string& name) -> NimTable* {
    int game = program_.findGame(name);
    // A table file's game takes its values from its file.
    if (game < 0 || !heaps_[static_cast<size_t>(game)].dense ||
        heaps_[static_cast<size_t>(game)].file)
      return nullptr;
    return &heaps_[static_cast<size_t>(game)].values;
  };
  CheckpointLoad r = loadCheckpoint(options_.checkpointPath, fingerprint(), tableFor, error);
  if (r == CheckpointLoad::Failed) return false;
  // Refuse a path that cannot be written now, not after the first hour of work.
  if (!checkpointWritable(options_.checkpointPath, error)) return false;
  for (const HeapState& h : heaps_)
    if (!h.file) heaps += h.values.size();  // a table file's values are not the checkpoint's
  if (r == CheckpointLoad::Loaded) {
    savedHeaps_ = heaps;
    savedStamp_ = fileStamp(options_.checkpointPath);
  }
  lastCheckpoint_ = std::chrono::steady_clock::now();
  return true;
}

int64_t Engine::checkpoint() {
  std::vector<CheckpointEntry> entries;
  int64_t heaps = 0;
  for (size_t g = 0; g < heaps_.size(); ++g)
    if (heaps_[g].dense && !heaps_[g].values.empty() && !heaps_[g].file) {
      entries.push_back(CheckpointEntry{program_.games[g].name, &heaps_[g].values});
      heaps += heaps_[g].values.size();
    }
  lastCheckpoint_ = std::chrono::steady_clock::now();
  // Tables only grow: nothing new to save, unless the file was changed (replaced,
  // truncated, removed) since it was saved or loaded.
  if (heaps == savedHeaps_ && fileStamp(options_.checkpointPath) == savedStamp_) return heaps;
  std::string error;
  if (!saveCheckpoint(options_.checkpointPath, fingerprint(), entries, error))
    throw CheckpointError(error);
  savedHeaps_ = heaps;
  savedStamp_ = fileStamp(options_.checkpointPath);
  return heaps;
}

int64_t Engine::tableLimit(int game) const {
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  return h.file || (tableFileWaiting_ && h.dense) ? kTableFileMaxHeap : options_.maxTableHeap;
}

bool Engine::openTableFile(int game, std::string& error, int64_t& heaps) {
  heaps = 0;
  const std::string& path = options_.tableFilePath;
  auto notTabled = [&](int g) {
    error = fmt::format(
        "--table-file holds the table of a one-heap game (one integer parameter, no normalize "
        "rule, moves to smaller heaps), and {} is not one: its positions are searched",
        program_.games[static_cast<size_t>(g)].name);
    return false;
  };
  if (game >= 0 && !heaps_[static_cast<size_t>(game)].dense) return notTabled(game);
  std::unique_ptr<TableFile> file;
  TableFile::Open opened = TableFile::open(path, file, error);
  if (opened == TableFile::Open::Failed) return false;
  if (opened == TableFile::Open::Missing) {
    if (!TableFile::creatable(path, error)) return false;
    if (game >= 0)
      createTableFile(game);
    else
      tableFileWaiting_ = true;
    return true;
  }
  // The file's game: the one asked for, or (eval) the one it names.
  int owner = game >= 0 ? game : program_.findGame(file->game());
  if (owner < 0 ||
      ir::gameFingerprints(program_)[static_cast<size_t>(owner)] != file->fingerprint()) {
    error = fmt::format(
        "table file '{}' holds the table of {} for other rules; delete it or choose another "
        "--table-file path",
        path, file->game());
    return false;
  }
  HeapState& h = heaps_[static_cast<size_t>(owner)];
  if (!h.dense) return notTabled(owner);
  if (!file->load(h.values, error)) return false;
  h.file = std::move(file);
  tableFileGame_ = owner;
  lastTableFlush_ = std::chrono::steady_clock::now();
  heaps = h.values.size();
  return true;
}

void Engine::createTableFile(int game) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  const ir::Game& g = program_.games[static_cast<size_t>(game)];
  h.file = TableFile::create(options_.tableFilePath,
                             ir::gameFingerprints(program_)[static_cast<size_t>(game)], g.name,
                             h.values);
  tableFileWaiting_ = false;
  tableFileGame_ = game;
  lastTableFlush_ = std::chrono::steady_clock::now();
}

int64_t Engine::flushTableFile() {
  if (tableFileGame_ < 0) return -1;
  HeapState& h = heaps_[static_cast<size_t>(tableFileGame_)];
  h.file->flush(h.values);
  lastTableFlush_ = std::chrono::steady_clock::now();
  return h.file->count();
}

// One period search over the table: the period found is proved (h.proved)
// when Guy and Smith's condition holds. Returns what the search found.
std::optional<PeriodInfo> Engine::searchPeriod(int game) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  int64_t count = h.values.size();
  std::optional<PeriodInfo> p = findPeriod(h.values.view(), count);
  if (p && p->saltus == 0 && h.proofBound && count >= heapsNeededForProof(*p, *h.proofBound)) {
    p->proved = true;
    h.proved = p;
  }
  return p;
}

// Tries to prove a period now, and decides when to try next: when the
// candidate found would be proved, if that is near, else after 1.25x as many
// heaps (each try costs about one pass over the table).
void Engine::schedulePeriodCheck(int game) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  int64_t count = h.values.size();
  std::optional<PeriodInfo> p = searchPeriod(game);
  if (h.proved) return;
  int64_t next = count + count / 4;
  if (count < kFullPeriodCheck) next = std::min(next, kFullPeriodCheck);
  if (p && p->saltus == 0) next = std::min(next, heapsNeededForProof(*p, *h.proofBound));
  h.nextPeriodCheck = next;
}

std::optional<PeriodInfo> Engine::period(int game, int64_t maxHeap) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  auto at = [&](int64_t n) {
    Position p;
    p.game = static_cast<uint32_t>(game);
    p.words.push_back(n);
    return value(p);
  };
  if (h.proved) return h.proved;
  if (h.dense) probeMoves(game);
  // Take-and-break games: grow the table and stop as soon as a period is proved.
  if (h.proofBound && h.dense) {
    at(maxHeap);
    if (h.proved) return h.proved;
    if (h.dense) {
      auto count = h.values.size();
      std::optional<PeriodInfo> p = searchPeriod(game);
      if (h.proved) return h.proved;
      if (p && p->saltus == 0) {
        // Found but not yet proved: the proof needs a few more heaps.
        int64_t need = heapsNeededForProof(*p, *h.proofBound);
        if (need <= 4 * count && need - 1 <= tableLimit(game)) {
          at(need - 1);
          if (!h.proved) p = searchPeriod(game);
          if (h.proved) return h.proved;
        }
      }
      return p;
    }
  }
  // A table that holds heaps 0..maxHeap is searched where it is (a table
  // file may be larger than memory); other games' values are gathered.
  if (h.dense) {
    at(maxHeap);
    if (h.dense && h.values.size() > maxHeap) return findPeriod(h.values.view(), maxHeap + 1);
  }
  std::vector<uint32_t> values;
  for (int64_t n = 0; n <= maxHeap; ++n) values.push_back(at(n));
  return findPeriod(TableView{values.data(), true}, static_cast<int64_t>(values.size()));
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
          "MiB, {:.1f} bytes per position), filled by the backend's native search: its one "
          "parameter is {}\n",
          name, known, h.wordMemo->mask() + 1, h.wordMemo->slotBytes(),
          static_cast<double>(h.wordMemo->bytes()) / (1 << 20),
          known ? static_cast<double>(h.wordMemo->bytes()) / static_cast<double>(known) : 0.0,
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
    if (program_.games[g].cells && (h.wordMemo || searched[g]))
      out += fmt::format(
          "gdsl: {}: a board that splits: each of its {} moves needs some cells and clears "
          "some, so a position is valued as the xor of its parts, each memoized alone\n",
          name, program_.games[g].cells->require.size());
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
    if (h.proved)
      out += fmt::format("; period {} from {} proved", h.proved->period, h.proved->preperiod);
    out += "\n";
  }
  return out;
}

std::string Engine::tableMethod(int game) const {
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  if (h.solver) return h.solver->describe();
  return h.values.empty() ? "" : "kernel";
}

// ---- search ------------------------------------------------------------------

uint32_t Engine::intern(const Position& position) {
  bool added = false;
  uint32_t id = table_.intern(position, added);
  if (added) {
    values_.push_back(kUnknownValue);
    onStack_.push_back(0);
    if (table_.size() > options_.maxStates)
      throw RuntimeError(SourceRange{},
                         fmt::format("gave up after memoizing {} positions, the limit "
                                     "(--max-states); the game may be infinite or too large; "
                                     "raise it with --max-states N",
                                     options_.maxStates));
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

// ---- native searches ----------------------------------------------------------

bool Engine::usesNative(uint32_t game) {
  const HeapState& h = heaps_[game];
  return h.native && !h.nativeActive && backend_.searchesNatively(static_cast<int>(game));
}

uint32_t Engine::leaveNative(const Position& position, std::string why) {
  HeapState& h = heaps_[position.game];
  h.native = false;
  h.box.reset();
  h.wordMemo.reset();
  h.nativeStopped = std::move(why);
  const ir::Game& g = program_.games[position.game];
  if (g.declared()) return searchValue(position);
  // An integer game standing for a list game's positions (a box grown past
  // its limit, say): the list game values them from now on, over its own
  // memo, and reports a cycle or an error as its own.
  Position list;
  list.game = static_cast<uint32_t>(g.listOf);
  list.words.push_back(g.listLength);
  for (int64_t w : position.words) list.words.push_back(w);
  return value(list);
}

namespace {

// How many restarts in a row of a native search that ran out of stack, each
// at a larger position than the last, hand the game to the engine's search.
constexpr size_t kGrowingRestarts = 8;
// How many samples of a chain of the engine's search must grow, each larger
// than the last, for a runaway (Engine::recordGrowth).
constexpr uint64_t kRunawaySamples = 16;

uint64_t magnitude(std::span<const int64_t> words) {
  uint64_t size = 0;
  for (int64_t w : words) {
    uint64_t m = w < 0 ? 0 - static_cast<uint64_t>(w) : static_cast<uint64_t>(w);
    size = m > UINT64_MAX - size ? UINT64_MAX : size + m;
  }
  return size;
}

bool growingRestarts(const std::vector<std::vector<int64_t>>& pending) {
  if (pending.size() <= kGrowingRestarts) return false;
  for (size_t i = pending.size() - kGrowingRestarts; i < pending.size(); ++i)
    if (magnitude(pending[i]) <= magnitude(pending[i - 1])) return false;
  return true;
}

}  // namespace

uint32_t Engine::nativeValue(const Position& root) {
  HeapState& h = heaps_[root.game];
  if (std::optional<uint32_t> v = nativeKnown(root)) return *v;
  struct StackBudget {
    uint64_t& floor;
    bool outermost = floor == 0;
    explicit StackBudget(uint64_t& f) : floor(f) {
      if (outermost)
        floor = reinterpret_cast<uint64_t>(__builtin_frame_address(0)) - kNativeStackBytes;
    }
    ~StackBudget() {
      if (outermost) floor = 0;
    }
  } budget(nativeStackFloor_);
  // Several integer parameters: a box; one, or one list: a table of words.
  bool boxed = h.memo == MemoKind::Box;
  if (!boxed && !h.wordMemo) h.wordMemo = std::make_unique<WordMemo>(options_.maxStates);
  // The box never holds more cells than --max-states; a list must pack.
  auto cover = [&](const std::vector<int64_t>& w) {
    uint64_t key = 0;
    if (h.memo == MemoKind::Lists) return packListKey(w.data(), key);
    return !boxed || coverBox(root.game, w);
  };
  auto tooLarge = [&](const std::vector<int64_t>& w) {
    Position p;
    p.game = root.game;
    p.words.assign(w.begin(), w.end());
    if (h.memo == MemoKind::Lists)
      return fmt::format(
          "{} does not pack into a word: a packed list has at most {} numbers, each below "
          "2^(59 / its length)",
          formatPosition(program_, p), kListKeyMaxLength);
    return fmt::format("a box holding {} would have more cells than --max-states ({})",
                       formatPosition(program_, p), options_.maxStates);
  };
  // The common case first, with nothing allocated: the root inside the box
  // (or an integer in a table of words) searched in one go. Any other end
  // leaves the memo as it was, and the general way below searches again.
  std::vector<int64_t> miss;
  std::span<const int64_t> rootWords(root.words.data(), root.words.size());
  if (h.memo != MemoKind::Lists && (!boxed || (h.box && h.box->covers(rootWords))) &&
      searchNativeOnce(root.game, root.words.data(), miss) == NativeStatus::Done)
    return *nativeKnown(root);
  // Positions to search natively, the root first; a search that ran out of
  // stack is restarted at the position where it stopped, then resumed.
  std::vector<std::vector<int64_t>> pending{{root.words.begin(), root.words.end()}};
  while (!pending.empty()) {
    std::vector<int64_t> w = pending.back();
    if (!cover(w)) return leaveNative(root, tooLarge(w));
    if (nativeKnown(root.game, w)) {
      pending.pop_back();
      continue;
    }
    switch (searchNativeOnce(root.game, w.data(), miss)) {
      case NativeStatus::Done:
        pending.pop_back();
        break;
      case NativeStatus::Outside:
        // A table of words has no outside (its search reports a negative
        // word as an error): never retry the same search.
        if (h.memo == MemoKind::Words) return leaveNative(root, "a successor outside its table");
        if (!cover(miss)) return leaveNative(root, tooLarge(miss));
        break;
      case NativeStatus::Deep:
        if (miss == w) return leaveNative(root, "the native stack was used up by other searches");
        pending.push_back(miss);
        // Each restart is a native stack's depth below the last: when the
        // last few restarts each grew, the chain may grow without end, which
        // only the engine's search measures (it stops a runaway chain).
        if (growingRestarts(pending))
          return leaveNative(root, "its successors kept growing over a chain deeper than " +
                                       std::to_string(kGrowingRestarts) +
                                       " native stacks, which the engine's search checks");
        break;
      case NativeStatus::Cycle:
        return leaveNative(root, "a position can reach itself");
      case NativeStatus::Failed:
        return leaveNative(root, "a runtime error, which the search reports");
      case NativeStatus::Full:
        return leaveNative(root, "its table holds --max-states positions");
      case NativeStatus::Unsupported:
        return searchValue(root);
      case NativeStatus::Yield:
        // The backend hands the search over (auto's switch to the JIT): the
        // same position again, with every value found so far in the memo.
        break;
      case NativeStatus::Wide:
        // A value past 65533: the box's cells become 32 bits, and the same
        // position is searched again.
        h.box->widen();
        break;
    }
  }
  return *nativeKnown(root);
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
  // Positions of a game with a normalize rule are what the rule made of the
  // moves' results: a rule that is not a symmetry of the game can close a
  // cycle the moves alone do not have. Named once per game of the cycle.
  std::vector<uint32_t> named;
  for (auto it = start; it != path.end(); ++it) {
    uint32_t game = table_.at(*it).game;
    const ir::Game& g = program_.games[game];
    if (!g.normalize || std::find(named.begin(), named.end(), game) != named.end()) continue;
    named.push_back(game);
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
  throw e;
}

uint64_t Engine::runawayDepth() const {
  return std::max<uint64_t>(options_.maxStates / 16, 64);
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
