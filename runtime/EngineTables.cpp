// The engine's one-heap tables (see Engine.h): values computed bottom-up by
// the backend's kernel or the take-and-break solver, periods searched and
// proved while a table grows, checkpoints and table files.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Checkpoint.h"
#include "runtime/Engine.h"
#include "runtime/ShapeProbe.h"

namespace gdsl {

namespace {

// The largest heap of a table kept in a table file (the format's limit).
constexpr int64_t kTableFileMaxHeap = (int64_t{1} << 40) - 1;

}  // namespace

std::optional<uint32_t> Engine::tabled(const Position& position) const {
  const HeapState& h = heaps_[position.game];
  int64_t m = position.words[0];
  if (m >= 0 && m < h.values.size()) return h.values[m];
  if (h.proved && m >= h.proved->preperiod)
    return periodicValue(static_cast<int>(position.game), m);
  return std::nullopt;
}

uint32_t Engine::periodicValue(int game, int64_t m) const {
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  const int64_t n0 = h.proved->preperiod, p = h.proved->period;
  const uint32_t base = h.values[n0 + (m - n0) % p];
  if (h.proved->saltus == 0) return base;
  // An arithmetic period: g(m) = g(n0 + (m - n0) mod p) + s ((m - n0) / p).
  const unsigned __int128 v =
      static_cast<unsigned __int128>((m - n0) / p) * static_cast<uint64_t>(h.proved->saltus) + base;
  if (v > UINT32_MAX) {
    const ir::Game& g = program_.games[static_cast<size_t>(game)];
    throw RuntimeError(g.loc, fmt::format("the value of {}({}) is past 2^32 - 1, the largest value "
                                          "gdsl holds (its arithmetic period is proved)",
                                          g.name, m));
  }
  return static_cast<uint32_t>(v);
}

int64_t Engine::tabledRun(int game, int64_t from, int64_t to, NimTable& row) const {
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  int64_t count = 0;  // appended: heaps from .. from + count - 1 (to may be INT64_MAX)
  const int64_t want = to - from + 1;
  // A run of the table or its period fills the row at once.
  constexpr int64_t kReservedAtMost = int64_t{1} << 26;
  if (h.proved || from + want <= h.values.size())
    row.reserve(row.size() + std::min(want, kReservedAtMost));
  if (from >= 0 && from < h.values.size()) {
    count = std::min(want, h.values.size() - from);
    row.append(h.values, from, count);
  }
  if (h.proved && count < want && from + count >= h.proved->preperiod) {
    const int64_t n0 = h.proved->preperiod, p = h.proved->period;
    const auto s = static_cast<uint64_t>(h.proved->saltus);
    if (s == 0) {
      // A pure period: one block from the table, then the row's own values
      // copied a period's multiple at a time.
      const int64_t start = row.size();
      for (int64_t i = n0 + (from + count - n0) % p; count < want && row.size() - start < p;
           ++count) {
        row.push(h.values[i]);
        if (++i == n0 + p) i = n0;
      }
      while (count < want) {
        const int64_t block = std::min((row.size() - start) / p * p, want - count);
        row.append(row, start, block);
        count += block;
      }
      return count;
    }
    // With a saltus s, each block of p heaps adds s (periodicValue reports
    // a value past 32 bits).
    uint64_t add = s * static_cast<uint64_t>((from + count - n0) / p);
    for (int64_t i = n0 + (from + count - n0) % p; count < want; ++count) {
      const uint64_t v = h.values[i] + add;
      row.push(v <= UINT32_MAX ? static_cast<uint32_t>(v) : periodicValue(game, from + count));
      if (++i == n0 + p) i = n0, add += s;
    }
  }
  return count;
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
    if (h.mayProve()) {
      extend(game, options_.autoPeriodHeaps);
      if (auto v = lookup()) return *v;
    }
    throw RuntimeError(g.loc, fmt::format("{} is too large: without a proved period, values are "
                                          "computed in a table, and the limit is {} heaps{}",
                                          formatPosition(program_, position), options_.maxTableHeap,
                                          h.mayProve() ? "; no period could be proved" : ""));
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
  std::string why;
  std::optional<ir::TakeBreakShape> shape = probeShape(backend_, game, *g.shapeProbeHeaps, &why);
  if (!shape) {
    h.notTakeBreak = fmt::format("its moves on heaps 0..{} follow no take-and-break shape: {}",
                                 *g.shapeProbeHeaps, why);
    return;
  }
  h.solver = std::make_unique<TakeBreakSolver>(*shape, options_.sparse);
  h.shape = *shape;
  h.shapeFromMoves = true;
  // Guy-Smith with conditions on the parts (docs/heaps.md, "Splits with
  // conditions"): a least difference breaks it, as unequal parts do; a
  // smallest part c needs the preperiod taken as at least c; a parity
  // condition needs an even period.
  const bool differences = std::any_of(shape->twoWhere.begin(), shape->twoWhere.end(),
                                       [](const ir::SplitRule& r) { return r.minDiff > 0; });
  // Amounts without bound: a heap of wholeFrom or more may be taken whole, so
  // Guy-Smith's induction runs from there (docs/heaps.md, "Amounts without
  // bound"); every removal from oneFrom on leaves no period to prove (the
  // values grow), only an arithmetic one.
  if (shape->twoUnequal.empty() && !differences) h.proofBound = shape->proofTake();
  h.proofParts = shape->three.empty() ? 2 : 3;
  for (const ir::SplitRule& r : shape->twoWhere) {
    h.proofMinStart = std::max(h.proofMinStart, r.minPart);
    if (r.parities != 7) h.proofEvenPeriod = true;
  }
}

std::optional<Engine::ShiftBound> Engine::shiftBound(int game) {
  probeMoves(game);
  const HeapState& h = heaps_[static_cast<size_t>(game)];
  // The misère quotients' proofs (runtime/GameQuotients.h) bound the amounts.
  if (!h.proofBound || (h.shape && h.shape->unbounded())) return std::nullopt;
  return ShiftBound{*h.proofBound, h.proofParts, h.proofMinStart, h.proofEvenPeriod};
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
      if (h.mayProve() && !options_.plain && n + 1 >= h.nextPeriodCheck) schedulePeriodCheck(game);
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

std::optional<int64_t> Engine::heapsToProve(int game, const PeriodInfo& p) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  if (p.saltus == 0) {
    // Guy-Smith (proofBound); with every amount from oneFrom on, no period:
    // the values grow.
    if (!h.proofBound || (h.shape && h.shape->oneFrom > 0)) return std::nullopt;
    return h.proofHeaps(p);
  }
  if (!h.shape) return std::nullopt;
  // The check reads the values before the first repeat ends, which the
  // table keeps: its answer stands while the candidate does.
  const bool same = h.saltusCandidate && h.saltusCandidate->preperiod == p.preperiod &&
                    h.saltusCandidate->period == p.period && h.saltusCandidate->saltus == p.saltus;
  if (!same) {
    h.saltusProof = checkSaltus(*h.shape, h.values.view(), h.values.size(), p);
    h.saltusCandidate = p;
  }
  if (!h.saltusProof.holds) return std::nullopt;
  return h.saltusProof.heaps;
}

// One period search over the table: the period found is proved (h.proved)
// when Guy and Smith's condition, or the arithmetic one, holds. Returns what
// the search found.
std::optional<PeriodInfo> Engine::searchPeriod(int game) {
  HeapState& h = heaps_[static_cast<size_t>(game)];
  int64_t count = h.values.size();
  std::optional<PeriodInfo> p = findPeriod(h.values.view(), count);
  if (!p) return p;
  if (std::optional<int64_t> need = heapsToProve(game, *p); need && count >= *need) {
    p->proved = true;
    p->proofHeap = *need - 1;
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
  if (p)
    if (std::optional<int64_t> need = heapsToProve(game, *p)) next = std::min(next, *need);
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
  if (h.mayProve() && h.dense) {
    at(maxHeap);
    if (h.proved) return h.proved;
    if (h.dense) {
      auto count = h.values.size();
      std::optional<PeriodInfo> p = searchPeriod(game);
      if (h.proved) return h.proved;
      if (std::optional<int64_t> need = p ? heapsToProve(game, *p) : std::nullopt) {
        // Found but not yet proved: the proof needs a few more heaps.
        if (*need <= 4 * count && *need - 1 <= tableLimit(game)) {
          at(*need - 1);
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

}  // namespace gdsl
