// The engine: Grundy values of positions and sums, independent of the backend.
// One-heap games whose moves go to smaller heaps are computed bottom-up in a
// dense table (with periods proved on the fly for take-and-break games);
// every other position by an explicit-stack search with a memo, which also
// finds cycles. Sums are never expanded: their value is the xor of their parts.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/Backend.h"
#include "runtime/CellSearch.h"
#include "runtime/Checkpoint.h"
#include "runtime/Loopy.h"
#include "runtime/Period.h"
#include "runtime/PositionTable.h"
#include "runtime/ProgressFn.h"
#include "runtime/SaltusProof.h"
#include "runtime/TableFile.h"
#include "runtime/TakeBreakSolver.h"

namespace gdsl {

struct EngineOptions {
  uint64_t maxStates = 20'000'000;  // memoized positions of the search
  // The process's memory limit (--max-memory; 0: none), which the pruning
  // search (runtime/CellSearch.h) keeps its tables within.
  uint64_t maxMemory = 0;
  int64_t maxTableHeap = int64_t{1} << 27;     // largest heap held in a dense table
  int64_t autoPeriodHeaps = int64_t{1} << 20;  // how far a period proof is tried for huge heaps
  // The plain method: no period proved while a table grows (so every value is
  // computed by the kernel), for comparing kernels in benchmarks.
  bool plain = false;
  // Native searches over dense memos and packed tables for games with
  // integer parameters (Backend::searchNative); off, every such game is
  // searched with the hashed memo (tests compare the two).
  bool native = true;
  // A list game's position of a length with an integer game
  // (compiler/ir/SpecializeLists.cpp) is valued as that game's, in a dense
  // box, when the box fits; off, always as the list game's (tests compare).
  bool listsAsIntegers = true;
  // Boards that split are valued by the pruning search (runtime/CellSearch.h)
  // where only a value is wanted (eval); off, by the full search as
  // everywhere else (tests compare the two).
  bool pruneBoards = true;
  // Threads of the pruning search on a large board (--threads; see
  // CellSearch::partValue): the machine's cores, at most 8.
  int threads = defaultThreads();
  // Sparse space for take-and-break games (runtime/TakeBreakSolver.h).
  SparseOptions sparse;
  // Checkpoints (runtime/Checkpoint.h): while a table grows, the tables are
  // saved to this path at least every `checkpointSeconds`, with the program's
  // rule fingerprint (compiler/ir/Fingerprint.h).
  std::string checkpointPath;
  double checkpointSeconds = 30;
  // The table file (runtime/TableFile.h): the table of one one-heap game
  // lives in this file, flushed at least every `tableFileSeconds` while it
  // grows (see Engine::openTableFile).
  std::string tableFilePath;
  double tableFileSeconds = 5;
  // Called about ten times a second while a table grows towards heap `target`.
  ProgressFn progress;
};

// One move of a position, as shown by `moves` and used for winning moves.
struct MoveRecord {
  const ir::Move* move = nullptr;
  std::string label;  // take(k=3)
  Sum components;
};

class Engine final : private ValueOracle {
 public:
  Engine(const ir::Program& program, Backend& backend, EngineOptions options = {});

  const ir::Program& program() const { return program_; }
  const EngineOptions& options() const { return options_; }
  Backend& backend() { return backend_; }

  uint32_t value(const Position& position);  // position must be normalized
  // Makes the dense memo of `position`'s game cover it now, if the game has
  // one (a table's last corner: the box gets its size at once instead of
  // doubling while the table is filled); nothing is computed.
  void reserve(const Position& position);  // position must be normalized
  uint32_t value(const Sum& sum);
  // The value of `position` where only it is wanted (eval): a board that
  // splits is valued by the pruning search (runtime/CellSearch.h) while
  // options().pruneBoards, every other position as value() does.
  uint32_t rootValue(const Position& position);
  // Whether value(sum) == target, asked of the pruning search as that
  // question where the sum holds a board that splits; with `valueOut`, the
  // value is computed exactly and stored there.
  bool valueIs(const Sum& sum, uint32_t target, uint32_t* valueOut = nullptr);

  // Loopy games (runtime/Loopy.h): whether `game` is one, and the value of
  // a position or sum that may hold their positions. value() gives a loopy
  // game's position its value when it is a number, and throws a RuntimeError
  // when it is infinite.
  bool isLoopy(uint32_t game) const { return program_.games[game].loopy; }
  // Whether `sum` holds a position of a loopy game.
  bool holdsLoopy(const Sum& sum) const {
    for (const Position& p : sum)
      if (isLoopy(p.game)) return true;
    return false;
  }
  LoopyValue loopyValue(const Position& position);
  LoopyValue loopyValue(const Sum& sum);
  // The definition's counter of a loopy game's position (LoopySolver::counter);
  // 0 for other games.
  uint64_t loopyCounter(const Position& position);

  std::vector<MoveRecord> movesOf(const Position& position);
  // Calls `visit` with each move of `position` in rule order until it returns
  // false; nothing is kept, so a huge heap costs no memory.
  void forEachMove(const Position& position, const std::function<bool(MoveRecord&)>& visit);

  // For a take-and-break game whose periods the Guy-Smith argument proves:
  // the most tokens a move takes, the most heaps it leaves, the least
  // preperiod a proof may start from, and whether the period must be even
  // (splits with conditions: docs/heaps.md). The misère quotient's
  // periodicity theorem (docs/misere.md) shifts parts the same way.
  struct ShiftBound {
    int64_t take = 0;
    int parts = 2;
    int64_t minStart = 0;
    bool evenPeriod = false;
  };
  std::optional<ShiftBound> shiftBound(int game);

  // The period of a one-heap game among heaps 0..maxHeap (section 6). For a
  // take-and-break game the search stops as soon as a period is proved.
  std::optional<PeriodInfo> period(int game, int64_t maxHeap);
  // The period proved for `game` so far, if any (no work done).
  std::optional<PeriodInfo> provedPeriod(int game) const {
    return heaps_[static_cast<size_t>(game)].proved;
  }

  // Takes over what `old` computed for games whose rules did not change (the
  // REPL after a redefinition, or after switching backends): oldGame[g] is the
  // index in old's program of this program's game g, or -1 when game g is new
  // or its rules (or the rules of a game it reaches) changed. `old` keeps
  // nothing of the games taken over.
  void adopt(Engine& old, const std::vector<int>& oldGame);
  // Memoized values: table entries plus searched positions.
  int64_t memoSize() const;

  // What --verbose says about the tables: heaps, bytes, method, period.
  std::string report() const;
  // The values of one-heap game `game` computed so far, g(0), g(1), ...
  // (empty when the game is not tabled).
  const NimTable& heapTable(int game) const { return heaps_[static_cast<size_t>(game)].values; }
  // Appends to `row` the values of heaps from, from + 1, ... up to `to` of a
  // one-heap game while they are in its table (or given by its proved
  // period), and returns how many it appended (to - from is below 2^63): a
  // table statement copies them instead of asking each position's value.
  int64_t tabledRun(int game, int64_t from, int64_t to, NimTable& row) const;
  // How that table was computed: the take-and-break solver's methods
  // (TakeBreakSolver::describe), "kernel" for the game's own moves, or "".
  std::string tableMethod(int game) const;

  // Loads the tables saved at options.checkpointPath, if any; false with
  // `error` set when the file is damaged or for other rules, or when the path
  // cannot be written. `heaps` is the number of values loaded.
  bool resume(std::string& error, int64_t& heaps);
  // Saves the tables now, unless they hold nothing the file does not. Throws
  // CheckpointError when the file cannot be written (the one before stays).
  // Returns the number of values in the file.
  int64_t checkpoint();

  // Opens options.tableFilePath for one-heap game `game`, or with -1 for the
  // game the file holds when it exists, else for the first game whose table
  // grows. An existing file's values are checked and taken as the game's
  // first values (`heaps` of them). False with `error` when the file is
  // refused (other rules, damaged, not writable) or the game has no table;
  // the file is then left as it was.
  bool openTableFile(int game, std::string& error, int64_t& heaps);
  // Records the values of the table file's game as final now. Throws
  // CheckpointError when it cannot. Returns the values the file holds, or -1
  // when no game has the file.
  int64_t flushTableFile();
  // True once a game's table is in the table file.
  bool hasTableFile() const { return tableFileGame_ >= 0; }

 private:
  // A take-and-break game's table is searched for a period at 32 heaps, then
  // at 1.25 times as many each time, meeting 256 (or when the candidate found
  // would be proved): a short eval of Kayles stopped at 168 heaps instead of
  // 256, the fifth of its start that the values took. From 256 on the checks
  // fall where they fell when the first came at 256, so a period proved there
  // reports the same `checked_to`. The period proved does not depend on where
  // the checks fall: a proved candidate is a period of the whole game, so it
  // holds in any longer table, and findPeriod (runtime/Period.h) takes the
  // smallest candidate a table holds, which a shorter table held too.
  static constexpr int64_t kFirstPeriodCheck = 32;
  static constexpr int64_t kFullPeriodCheck = 256;

  // The cell moves of a board with fixed parameters for one set of their
  // values (ir::findCellMoves), or why there are none; its own memo of parts
  // (the fixed values are not stored per position) and pruning search.
  struct FixedBoard {
    std::optional<ir::CellMoves> cells;
    std::string whyNot;
    std::unique_ptr<WordMemo> memo;
    std::unique_ptr<CellSearch> search;  // after the memo it reads
    int64_t pruned = 0;
  };
  struct HeapState {
    bool dense = false;      // values are computed bottom-up into `values`
    bool extending = false;  // `values` is growing right now
    // The table file that holds `values` (declared first: it outlives them).
    std::unique_ptr<TableFile> file;
    NimTable values;
    std::optional<PeriodInfo> proved;  // a proved period (saltus 0) or arithmetic period
    int64_t nextPeriodCheck = kFirstPeriodCheck;
    // Take-and-break games: values from the game's shape, not the backend.
    std::unique_ptr<TakeBreakSolver> solver;
    bool shapeFromMoves = false;  // the shape was recognised in `move` rules
    bool probed = false;          // `move` rules were looked at for a shape
    std::string notTakeBreak;     // why they showed none (ir::Game::notTakeBreak before)
    // Guy-Smith: the most tokens a move takes, when the theorem applies, and
    // the most heaps a move leaves (3: a hexadecimal game, a longer proof).
    std::optional<int64_t> proofBound;
    int proofParts = 2;
    // The take-and-break shape, for the proof of an arithmetic period
    // (runtime/SaltusProof.h), and that check's last answer and its candidate.
    std::optional<ir::TakeBreakShape> shape;
    std::optional<PeriodInfo> saltusCandidate;
    SaltusProof saltusProof;
    // Splits with conditions (ir::SplitRule): the proof starts at least at
    // the smallest part allowed, and with a parity condition it proves twice
    // an odd period (which then gives the period: docs/heaps.md).
    int64_t proofMinStart = 0;
    bool proofEvenPeriod = false;
    // Whether a period may be proved, so that the table is searched for one
    // while it grows: Guy-Smith (proofBound), or an arithmetic period, looked
    // for only where the values grow with amounts without bound (Grundy's
    // game, `split unequal` with bounded amounts, is not searched).
    bool mayProve() const { return proofBound || (shape && shape->unbounded()); }
    // The heaps a proof of `p` needs (runtime/Period.h); proofBound is set.
    int64_t proofHeaps(PeriodInfo p) const {
      p.preperiod = std::max(p.preperiod, proofMinStart);
      if (proofEvenPeriod && p.period % 2 != 0) p.period *= 2;
      return heapsNeededForProof(p, *proofBound, proofParts);
    }
    // Games with integer parameters: a memo filled by the backend's native
    // search (Backend::searchNative), a dense box for several parameters and
    // a packed table of words for one, while `native`.
    bool native = false;
    bool nativeActive = false;       // a native search of this game is running
    MemoKind memo = MemoKind::None;  // which (runtime/NativeMemo.h)
    std::unique_ptr<DenseBox> box;
    std::unique_ptr<WordMemo> wordMemo;
    // The pruning search over `wordMemo` (runtime/CellSearch.h), kept from
    // question to question with its caches; declared after the memo it
    // reads, so it goes first.
    std::unique_ptr<CellSearch> cellSearch;
    int64_t pruned = 0;          // parts the pruning search expanded
    int64_t nativeSearches = 0;  // calls of the backend's native search (for --verbose)
    std::string nativeStopped;   // why the native search was given up, for --verbose
    // A board with parameters fixed within a search (ir::Game::boardParam):
    // its moves, memo and pruning search for each set of fixed values met,
    // keyed by the position's words with the board's set to 0.
    std::map<std::vector<int64_t>, std::unique_ptr<FixedBoard>> fixedBoards;
  };
  struct NotMonotone {
    int game;
  };

  uint32_t valueOf(const Position& position) override { return value(position); }
  // The program's rule fingerprint, for checkpoints.
  uint64_t fingerprint();
  // The largest heap `game` may hold in its table: more for a table file.
  int64_t tableLimit(int game) const;
  // Creates the table file for `game` and moves its values there.
  void createTableFile(int game);

  // The position of the integer game that stands for list position `p`,
  // when value() takes that way (EngineOptions::listsAsIntegers).
  std::optional<Position> asIntegers(const Position& p) const;
  // The value of a position searched whole (value() splits a board first).
  uint32_t wholeValue(const Position& position);
  // When `position` is a board that falls apart (ir::Game::cells), calls
  // each(part) for each of its parts in which a move is legal, and returns
  // true; otherwise false, and `each` is not called.
  template <typename Each>
  bool forEachPart(const Position& position, Each&& each);
  // The pruning search that values `position`'s parts, when it is a board
  // that splits (its game's cell moves, or those found for its fixed
  // parameters): the search, its moves, its count of expansions, and the
  // board's word. Null `search` otherwise.
  struct BoardSearch {
    CellSearch* search = nullptr;
    const ir::CellMoves* cells = nullptr;
    int64_t* pruned = nullptr;
    int64_t board = 0;
  };
  BoardSearch boardSearch(const Position& position);
  // The value of a board with fixed parameters whose moves for those values
  // are cell moves, by the pruning search (the full search has no moves to
  // split it by); nothing for any other position.
  std::optional<uint32_t> fixedBoardValue(const Position& position);
  // The --verbose lines of a board with fixed parameters, for one set of values.
  std::string fixedBoardReport(int game, const std::vector<int64_t>& key,
                               const FixedBoard& fixed) const;
  uint32_t heapValue(const Position& position);
  // A one-heap value already in the table (or given by a proved period).
  std::optional<uint32_t> tabled(const Position& position) const;
  void extend(int game, int64_t upTo);
  std::optional<PeriodInfo> searchPeriod(int game);
  // The heaps whose values prove `p` for `game` (periods: Guy and Smith,
  // runtime/Period.h; arithmetic periods: runtime/SaltusProof.h), or none
  // when no proof applies.
  std::optional<int64_t> heapsToProve(int game, const PeriodInfo& p);
  // g(m) for m past the table, from the proved period.
  uint32_t periodicValue(int game, int64_t m) const;
  void schedulePeriodCheck(int game);
  // Recognises a take-and-break shape in affine `move` rules, once.
  void probeMoves(int game);
  uint32_t searchValue(const Position& position);
  // The native search over the game's memo; the engine's search when the
  // backend has none, or gives up (the reason is kept for --verbose).
  bool usesNative(uint32_t game);
  uint32_t nativeValue(const Position& position);
  // Makes game `game`'s box cover `words` (created with its mirror cells, or
  // grown); false when it would have more cells than --max-states.
  bool coverBox(uint32_t game, std::span<const int64_t> words);
  // One call of the backend's native search of `words`, over the game's memo,
  // with the game marked active meanwhile.
  NativeStatus searchNativeOnce(uint32_t game, const int64_t* words, std::vector<int64_t>& miss);
  uint32_t leaveNative(const Position& position, std::string why);
  // A value the game's native memo holds.
  std::optional<uint32_t> nativeKnown(uint32_t game, std::span<const int64_t> words) const;
  std::optional<uint32_t> nativeKnown(const Position& position) const {
    return nativeKnown(position.game, {position.words.data(), position.words.size()});
  }
  // The value of `position` when every successor already has one.
  bool valueFromKnown(const Position& position, uint32_t& value);
  uint32_t intern(const Position& position);
  bool known(uint32_t id, uint32_t& value);
  [[noreturn]] void cycleError(const std::vector<uint32_t>& path, uint32_t repeated,
                               const ir::Move* move);
  // Records `position`, just pushed on the search path by `move` (null for a
  // search's root), in pathGrowth_; a runaway when the last runawayDepth()
  // steps of the path, sampled 16 times, kept growing.
  void recordGrowth(const Position& position, const ir::Move* move);
  [[noreturn]] void runawayError(const ir::Move* move);
  // The longest chain of growing positions a search may build: --max-states / 16.
  uint64_t runawayDepth() const;

  const ir::Program& program_;
  Backend& backend_;
  EngineOptions options_;
  std::vector<HeapState> heaps_;
  PositionTable table_;                 // interned positions of the search, by id
  std::unique_ptr<LoopySolver> loopy_;  // made by loopySolver(), when a loopy game is first valued
  LoopySolver& loopySolver();
  std::vector<uint32_t> values_;
  std::vector<uint8_t> onStack_;
  std::vector<uint32_t> searchPath_;  // positions being searched, outermost first
  // For each position of searchPath_: its size, the sum of its words' magnitudes.
  std::vector<uint64_t> pathGrowth_;
  std::chrono::steady_clock::time_point lastCheckpoint_ = std::chrono::steady_clock::now();
  int64_t savedHeaps_ = -1;              // values in the checkpoint file, as saved or loaded
  FileStamp savedStamp_;                 // the file as saved or loaded
  std::optional<uint64_t> fingerprint_;  // of the program's rules, once needed
  // A table file not yet created: the first one-heap table that grows gets it.
  bool tableFileWaiting_ = false;
  int tableFileGame_ = -1;  // the game whose values are in the table file
  std::chrono::steady_clock::time_point lastTableFlush_;
  // The lowest stack address native searches may reach: set by the outermost
  // nativeValue, one budget for every search nested in it (through the oracle).
  uint64_t nativeStackFloor_ = 0;
  std::vector<uint8_t> mexMarks_;  // scratch of mex (runtime/Mex.h)
};

inline constexpr uint32_t kUnknownValue = UINT32_MAX;

// Inline: the search's probe asks it of every component it meets.
inline std::optional<uint32_t> Engine::nativeKnown(uint32_t game,
                                                   std::span<const int64_t> words) const {
  const HeapState& h = heaps_[game];
  if (!h.box && !h.wordMemo) return std::nullopt;
  uint32_t v = 0;
  if (h.box && h.box->known(words, v)) return v;
  uint64_t key = 0;
  if (h.wordMemo && wordKey(words.data(), h.memo == MemoKind::Lists, key) &&
      h.wordMemo->known(key, v))
    return v;
  return std::nullopt;
}

}  // namespace gdsl
