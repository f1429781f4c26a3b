// The value of a board that splits (ir::CellMoves), by a search that prunes:
// P. Beling and M. Rogalski, "On pruning search trees of impartial games",
// Artificial Intelligence 283 (2020). A part is asked only whether its value
// lies in a set; it answers with the value, or "not in the set" once that is
// certain, and stops there. Its candidate values start as 0..k for k legal
// moves (the mex of k values is at most k); each option removes one (its
// value, or the largest candidate when its value is not among them), so the
// last candidate left is the value. An option is asked only whether its value
// is among the candidates but the largest (removing the largest is the same
// answer for every other value), so most of the tree is cut; a large part
// asked about one value asks each option first whether it is worth that
// value (kWantedFirstCells). An option that splits into parts
// has all of them but the largest valued exactly, and the largest asked
// about the candidates xored with the others' values.
//
// Rules of this search's own: a part that is its own mirror image (a
// reflection or half turn of the board) with no move clearing a cell its
// image needs is worth 0 (the second player copies every move: Tweedledum
// and Tweedledee); a part that answered "not in the set" is not asked
// about those values again, nor about the values of the options it found
// exactly meanwhile (a cache of the values ruled out, below 64); and
// in a placement game, a part is searched without its dominated cells
// (runtime/DominatedCells.h), and cut at its twin corners when every move
// clears two cells (runtime/TwinCorners.h), often into smaller pieces.
//
// The moves are the compiled table (require, clear), so the search runs the
// same on every backend. Parts are keyed as runtime/Components.h gives them
// (each its least image under the board's symmetries) in the game's table of
// words, which holds exact values only, shared with the full search: a memo
// at --max-states positions, or at a quarter of --max-memory, no longer
// grows, and the values go to a replacement table of fixed size (the search
// recomputes what was replaced), so the limits bound the memory, not the
// question.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "runtime/DominatedCells.h"
#include "runtime/ProgressFn.h"
#include "runtime/SearchTables.h"
#include "runtime/TwinCorners.h"
#include "runtime/WordMemo.h"
#include "runtime/WorkOffers.h"

namespace gdsl {

// The threads the pruning search uses by default: the machine's cores, at
// most 8 (std::thread::hardware_concurrency; 1 when unknown).
int defaultThreads();

class CellSearch {
 public:
  // `maxMemory`: the memory the process may use (--max-memory; 0: no
  // bound), of which the memo may take a quarter (it doubles as it grows).
  // `threads`: how many threads value a large part (--threads).
  CellSearch(const ir::CellMoves& moves, WordMemo& memo, uint64_t maxMemory = 0, int threads = 1);
  ~CellSearch();

  // The exact value of `part`, one part of a board as splitComponents
  // gives it.
  uint32_t partValue(uint64_t part);
  // Whether the value of `part` is `target`: the search asks only that.
  bool partValueIs(uint64_t part, uint32_t target);
  // How far one move more can cut a position, the `count` parts `parts`
  // (partValue asks its values past 0 of the options it cuts furthest
  // first): the most cells in one piece after its best move in its largest
  // part, its other parts counted as pieces and pieces that cancel in pairs
  // gone. A move counts only if that part falls into pieces that all
  // cancel, or leaves at least kCutOff cells outside its largest piece;
  // with no such move, all the position's cells.
  uint32_t cutByOneMove(const uint64_t* parts, uint32_t count);
  static constexpr uint32_t kCutOff = 6;
  // Which parts ask their options in that order too: those within
  // kCutOrderCells cells of the outermost question's part (partValue's, or
  // partValueIs's), a few moves (Cram: four), and of at least
  // kCutOrderMinCells cells. Deeper and smaller parts keep the order by
  // cost, which expands fewer parts there and costs no split per move
  // (bench/BOARDS.md). For tests: other numbers (cells -1: no part).
  static constexpr int kCutOrderCells = 8, kCutOrderMinCells = 28;
  void setCutOrder(int cells, int minCells = kCutOrderMinCells) {
    cutOrderCells_ = cells;
    cutOrderMinCells_ = minCells;
  }
  // Which parts asked about one value ask each option about it alone
  // before the candidates below the largest (valueInSearched): those of at
  // least kWantedFirstCells cells. On small parts the second question costs
  // more than the first saves. Near the root it made one option's question
  // (a thread's task) far longer than the others, and the other thread
  // idle (Cram 4 x 13: 1,397 s, against 968 s with it only below the parts
  // that ask in the cut order); since threads help each other
  // (kShareCells), it pays there most: 619 s against 873 (bench/BOARDS.md).
  // For tests: another least number (65: no part).
  static constexpr int kWantedFirstCells = 24;
  void setWantedFirst(int cells) { wantedFirstCells_ = cells; }
  // In that first loop, for value v, the options known to be worth none of
  // the values below theirs (v xor the rest of the option), at least
  // kLikelyBelow of them, are asked first: their value is at least that,
  // so they are the likeliest to be worth it and answer the question at
  // once (Cram 4 x 13: 213 and 224 million parts expanded in two runs
  // instead of 234; 4 x 11, one thread, 3.72 million instead of 3.98).
  // With the options known only not to be worth 0 first too, 5 x 9
  // expanded 20.2 million parts instead of 12.3 (two threads;
  // bench/BOARDS.md). For tests: off.
  static constexpr uint32_t kLikelyBelow = 2;
  void setLikelyFirst(bool on) { likelyFirst_ = on; }
  // Threads with nothing left to ask help the others (runtime/WorkOffers.h):
  // a thread at a part of at least kShareCells cells with options still to
  // ask, seeing a thread idle, offers those options; each thread then takes
  // the next one, as narrowInParallel's do. Without it, at the end of each
  // of the root's questions one thread waited for the other's last option
  // (Cram 4 x 13: 85% of two cores used). For tests: another least number.
  static constexpr int kShareCells = 24;
  void setShareCells(int cells) { shareCells_ = cells; }
  // The root's question "is the value r?" is answered by one option worth
  // r, and an option worth r takes long to prove so (each of its own
  // options must be asked): with two such options on two threads, half the
  // work is lost when the first is proved. So a thread whose option has
  // taken kFocusAfter expansions while another thread's has taken as many
  // puts its option back (the tables keep what it found), helps the other
  // (joining its offers), and takes it again if the question is still open
  // when that one is answered. For tests: another number.
  static constexpr int64_t kFocusAfter = int64_t{1} << 21;
  void setFocusAfter(int64_t expansions) { focusAfter_ = expansions; }
  // Whether a part's options are found first by the moves that last settled
  // a question about a part of as many cells (collectOptions); the parts
  // expanded are the same either way, only found sooner. For tests: off.
  void setSettlersFirst(bool on) { settlersFirst_ = on; }
  // Whether a part that answers "not in the set" has the values of the
  // options it found exactly ruled out too (Narrowing::optionValues): a
  // part is none of its options' values, whatever it was asked (Cram 4 x 11,
  // one thread: 3.98 million parts expanded instead of 4.45). For tests: off.
  void setOptionValuesRuledOut(bool on) { optionValuesRuledOut_ = on; }
  // False when `part` cannot be its own image under a reflection or half
  // turn of the board: the end rows and columns of its bounding box, or the
  // sums of its cells' columns and rows, do not match under any. A few word
  // operations, where zeroByMirror turns the part every way, which it does
  // only when this says it may.
  bool mayMirror(uint64_t part) const;
  // Parts expanded so far (by every thread).
  int64_t expanded() const { return total(&CellSearch::expanded_); }
  // Parts searched without their dominated cells (runtime/DominatedCells.h).
  int64_t reductions() const { return total(&CellSearch::reductions_); }
  // Parts cut at their twin corners (runtime/TwinCorners.h).
  int64_t twinCuts() const { return total(&CellSearch::twinCuts_); }
  // Values written to the replacement table (see store), and its size.
  int64_t replaced() const { return total(&CellSearch::replaced_); }
  uint64_t replacementTableBytes() const { return tables_->values.bytes(); }
  // Options offered by a busy thread to idle ones (shareOptions): how many
  // times, by every thread.
  int64_t offered() const { return total(&CellSearch::offered_); }
  // Options of the root's question put back for a long one (see
  // kFocusAfter): how many times, by every thread.
  int64_t putBack() const { return total(&CellSearch::putBack_); }
  // Parts valued by several threads (see partValue), and how many.
  int64_t parallelParts() const { return parallelParts_; }
  int threads() const { return threads_; }
  // The fewest cells of a part that partValue values with several threads,
  // and the expansions its search takes first on one (a small search is
  // over before threads and their tables would pay: Node Kayles 7 x 7 took
  // 0.70 s instead of 0.06 with its tables made up front).
  static constexpr int kParallelCells = 30;
  static constexpr int64_t kThreadsAfter = 50000;
  // For tests: threads from the first expansion on.
  void setThreadsAfter(int64_t expansions) { threadsAfter_ = expansions; }
  // Reports the search's progress to `progress` (the progress bar of
  // driver/Progress.h; an empty function: none) every kProgressEvery parts
  // this thread expands: `name` and the question the outermost part is at,
  // "Cram: is the value 3? option 12 of 40", and the parts expanded.
  void setProgress(ProgressFn progress, std::string name) {
    progress_ = std::move(progress);
    progressName_ = std::move(name);
  }
  static constexpr int64_t kProgressEvery = 16384;
  // For tests: a report every `parts` (a power of two, at least 1024).
  void setProgressEvery(int64_t parts) { progressEvery_ = parts; }
  // The end of a question's reports: the bar is cleared.
  void endProgress();
  // Drops what a question stopped midway (by Ctrl-C or a limit) left on the
  // stacks; the caches hold only facts, and are kept.
  void dropUnfinished() {
    parts_.clear();
    options_.clear();
  }

  // A set of values below 256.
  struct Values {
    uint64_t w[4] = {0, 0, 0, 0};
    static Values upTo(uint32_t n);  // 0..n, n < 256
    static Values only(uint32_t v);  // {v}, empty for v >= 256
    bool has(uint32_t v) const { return v < 256 && ((w[v >> 6] >> (v & 63)) & 1) != 0; }
    void erase(uint32_t v) {
      if (v < 256) w[v >> 6] &= ~(uint64_t{1} << (v & 63));
    }
    // The search's step for an option of value v: v leaves the candidates,
    // or their largest when v is not one of them.
    void removeOne(uint32_t v) { erase(has(v) ? v : static_cast<uint32_t>(largest())); }
    bool empty() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }
    bool meets(const Values& o) const {
      return ((w[0] & o.w[0]) | (w[1] & o.w[1]) | (w[2] & o.w[2]) | (w[3] & o.w[3])) != 0;
    }
    int largest() const;   // -1 when empty
    int smallest() const;  // -1 when empty
    Values atMost(int v) const;
    Values xored(uint32_t x) const;  // each value xor x (x >= 256: empty)
  };

  static constexpr uint32_t kNotInSet = UINT32_MAX;

 private:
  // The value of `part` when it is in `wanted`; kNotInSet only when it is not.
  // `twinsChecked`: `part` is known to have no twin corners to cut at (an
  // option's part that addOptionPart looked at).
  uint32_t valueIn(uint64_t part, const Values& wanted, bool twinsChecked = false);
  // The start of expanding `part`, not in the memo: counts it, polls for a
  // stop, and settles its value at once by the mirror rule, or by the plain
  // mex past 255 moves. Returns that value, or kNotInSet with `count` the
  // number of legal moves.
  uint32_t beginExpansion(uint64_t part, uint32_t& count);
  // What valueInSearched has learned of a part from its options so far.
  struct Narrowing {
    Values candidates;  // (see valueInSearched)
    bool exact = true;  // no option answered "not in the set"
    // The values below 64 of the options found exactly: the part is none
    // of them, a fact whatever the question, ruled out with the set when
    // the part answers "not in the set" (so a later question about another
    // of them is answered at once).
    uint64_t optionValues = 0;
    // An option of value v: v leaves the candidates (or their largest).
    void found(uint32_t v) {
      if (v < 64) optionValues |= uint64_t{1} << v;
      candidates.removeOne(v);
    }
    // An option not among the candidates but the largest: the largest goes.
    void notBelowLargest() {
      candidates.erase(static_cast<uint32_t>(candidates.largest()));
      exact = false;
    }
  };
  // valueIn once the memo and what was ruled out are asked; `optionValues`
  // gets Narrowing::optionValues.
  uint32_t valueInSearched(uint64_t part, const Values& wanted, bool twinsChecked,
                           uint64_t& optionValues);
  // The exact value by the plain mex, for a part with more than 255 moves.
  uint32_t valueByMex(uint64_t part);
  // True when the second player wins `part` by answering each move with its
  // mirror image (Tweedledum and Tweedledee): `part` is its own image under a
  // reflection or half turn of the board (ir::CellGrid), and no move legal on
  // it clears a cell its image needs. Its value is then 0.
  bool zeroByMirror(uint64_t part) const;
  // The exact value inside the search (the candidates all asked).
  uint32_t exactValue(uint64_t part, bool twinsChecked = false);
  // The number of moves legal on `part`.
  uint32_t legalMoves(uint64_t part) const;
  // Pushes the options of `part` whose value is not known on options_ (their
  // parts on parts_), easiest first; calls known(v) for each option of known
  // value v, and stops (false) when it returns false.
  template <typename Known>
  bool collectOptions(uint64_t part, Known&& known);
  // For collectOptions, by a part's cells: the two moves (indices in the
  // table) that last settled a question about a part of as many cells at
  // once, the latest first (kNoMove: none).
  static constexpr uint32_t kNoMove = UINT32_MAX;
  using Settlers = std::array<std::array<uint32_t, 2>, 65>;
  static Settlers noSettlers() {
    Settlers none;
    for (auto& s : none) s = {kNoMove, kNoMove};
    return none;
  }
  Settlers settledBy_ = noSettlers();
  bool settlersFirst_ = true;
  bool optionValuesRuledOut_ = true;
  // Keeps the exact value of `part`: in the memo while it may grow (below
  // --max-states positions, and a quarter of --max-memory), then in the
  // replacement table, a fixed array of buckets of two where a new value
  // takes the place of the one with fewer cells (the cheaper to recompute):
  // at most as many positions as --max-states, 32 MiB, and an eighth of
  // --max-memory.
  void store(uint64_t part, uint32_t value);
  // The value of `part` from the memo or the replacement table.
  bool lookup(uint64_t part, uint32_t& value) const;

  // An option whose value is not known yet: parts_[first, first + count)
  // still to value, xored with `known`; `cost` orders the options, the
  // easiest (fewest moves, squared per part, then fewest cells; then the
  // move nearest the middle of the part) first.
  struct Option {
    uint32_t first, count, known, cost;
    uint32_t move = 0;  // its index in the table of moves
  };
  // A part of an option, and whether it is known to have no twin corners
  // to cut at (runtime/TwinCorners.h): addOptionPart looked.
  struct OptionPart {
    uint64_t cells;
    bool twinsChecked;
  };
  // The middle of a part on the grid (twice its bounding box's centre), and
  // how far a move's lowest cell is from it (in half cells, at most 127; 0
  // without a grid).
  struct Middle {
    Middle(const ir::CellGrid& grid, uint64_t part);
    uint32_t distance(uint64_t cells) const;
    int width, x2 = 0, y2 = 0;
  };
  // Adds `part`, a part of option `o`, to it: its value into o.known when
  // known, else onto parts_ with its cost; with `cutTwins`, a part cut at
  // its twin corners (runtime/TwinCorners.h) is added as its pieces.
  void addOptionPart(uint64_t part, Option& o, bool cutTwins);
  // Values every part of `o` but the one with most cells into o.known, and
  // leaves `o` that part alone; returns its index in parts_.
  uint32_t valueAllButLargest(Option& o);

  // valueIn of `part` by pieces worth together what it is worth (`part`
  // without its dominated cells, or cut at its twin corners), each split
  // into its parts; the value is stored for `part`.
  uint32_t valueOfPieces(uint64_t part, const uint64_t* cells, int count, const Values& wanted);

  // The parts of `board`, as splitComponents gives them, each part's least
  // image looked up in a small cache first (the same parts recur all
  // through the search).
  int split(uint64_t board, int64_t* out);
  uint32_t cutByOneMove(const Option& o);
  std::vector<uint64_t> cutParts_;  // (cutByOneMove's copy of an option's parts)
  // The options from `optionsBase` on, those one move more cuts furthest
  // first (cutByOneMove), the rest in their order by cost: the order the
  // root asks its values past 0 in. A move or two on, such an option's
  // positions fall apart, so its tree is small (Cram 4 x 13: the root's "is
  // the value 1?" from 277 s to 52 s, bench/BOARDS.md).
  std::vector<size_t> optionsByCut(size_t optionsBase);
  // Puts the options from `optionsBase` on in that order: valueInSearched's
  // order for a part of at least cutOrderFrom_ cells.
  void sortByCut(size_t optionsBase);
  // The fewest cells of a part that sortByCut orders: the outermost
  // question's cells less cutOrderCells_, at least cutOrderMinCells_; set by
  // partValue and partValueIs, and given to the helpers.
  // (kNoPartOrdered: more cells than a part has.)
  static constexpr int kNoPartOrdered = 65;
  int cutOrderCells_ = kCutOrderCells, cutOrderMinCells_ = kCutOrderMinCells;
  int cutOrderFrom_ = kNoPartOrdered;
  int wantedFirstCells_ = kWantedFirstCells;
  bool likelyFirst_ = true;
  // Puts first the options from `optionsBase` on that are known to be
  // worth none of the values below theirs for value v (see kLikelyBelow),
  // keeping the order within each group.
  void likelyFirst(size_t optionsBase, uint32_t v);
  void setCutOrderFrom(uint64_t outermost) {
    cutOrderFrom_ = cutOrderCells_ < 0
                        ? kNoPartOrdered
                        : std::max(std::popcount(outermost) - cutOrderCells_, cutOrderMinCells_);
  }

  // What the search learned of parts it could not value: their value is
  // none of a set of values below 64 (a word of bits), from every question
  // they answered "not in the set". A later question about those values
  // alone is answered at once, and others ask only about the rest.
  // 64 KiB at first, doubling as the search grows (from 2,048 expansions
  // on), up to an eighth of --max-memory and 2^ruledOutMaxBits slots: on a
  // large board most parts expanded answer "not in the set", and those
  // answers are all this search keeps of them (Cram 4 x 11: 17% fewer parts
  // expanded with 64 MiB than with 4 MiB).
  static int ruledOutBits(uint64_t maxMemory);
  static constexpr int kRuledOutMaxBits = 22;
  // The values ruled out for `part` (a word of bits), and more of them.
  uint64_t ruledOut(uint64_t part) const {
    uint64_t values = 0;
    return tables_->ruledOut.find(part, values) ? values : 0;
  }
  void ruleOut(uint64_t part, uint64_t values) {
    tables_->ruledOut.put(part, ruledOut(part) | values);
  }

  // A direct-mapped cache of least images: part -> image.
  struct Image {
    uint64_t part = 0, image = 0;  // part 0: an empty slot
  };
  // 32 KiB at first, 512 KiB (2^15 slots) from 32K expansions on; used when
  // the board has symmetries (moves_.grid.orientations > 0), for the parts
  // of at most cachedImageCells_ cells: those a quarter turn may fit on the
  // grid (mostCellsImagedByTables, runtime/Components.h), whose images go through
  // the tables. A larger part's images are a few shifts each, cheaper than
  // the cache's slot (Cram 4 x 11, one thread: 0.89 to 0.98 of the time
  // with every part cached; bench/BOARDS.md).
  DirectMapped<Image, 0x9E3779B97F4A7C15ull> images_{11, 15};
  int cachedImageCells_ = 64;
  // The caches double when the expansions reach this count, which doubles.
  int64_t nextGrowth_ = 2048;
  static constexpr uint64_t kReplacementBytes = uint64_t{32} << 20;

  // The tables the threads of a search share (runtime/SearchTables.h): the
  // values ruled out, and the replacement table of exact values (empty
  // until the memo stops growing or threads start).
  struct Tables {
    SharedBuckets ruledOut;
    ValueTable values;
    int ruledOutMaxBits = 12;
  };

  // Several threads: partValue of a part of at least kParallelCells cells
  // asks its options' questions from `threads_` threads, this one and
  // helpers_ (searches of their own, with their own stacks and cache of
  // images, sharing tables_), each taking the next option not yet asked,
  // then helping the others (shareOptions).
  // Meanwhile the memo is only read (no thread writes it), and every value
  // goes to the replacement table. A thread stops at the next poll when one
  // of stops_ is set (the question is answered, or a thread was interrupted).
  struct Stopped {};
  CellSearch(const CellSearch& main, int helper);  // a helper of `main`
  // Asks each option of `asked` (indices into options_) whether its value
  // is r, from every thread; fills `answers` (kNotInSet: not r, or not
  // asked) and returns whether one is worth r.
  bool askInParallel(uint32_t r, const std::vector<size_t>& asked, std::vector<uint32_t>& answers);
  // valueInSearched's loop over the options from options_[optionsBase] on,
  // from every thread: each takes the next option, asks it about the
  // candidates as they are then, and removes one candidate by its answer
  // (askOffered, as for the options offered to idle threads).
  void narrowInParallel(const Values& wanted, Narrowing& narrowing, size_t optionsBase);
  // Runs task(search, k) for k in [0, count) from every thread, this one
  // and the helpers, each with its own search taking the next k; stops
  // when a task returns true. An exception in any thread stops them all,
  // and is thrown here.
  // With `focus` (askInParallel: a question answered by any one task),
  // one long task at a time (see kFocusAfter).
  template <typename Task>
  void inParallel(size_t count, Task&& task, bool focus = false);
  int64_t focusAfter_ = kFocusAfter;
  // One inParallel's focus: the search whose task holds it (nullptr: none),
  // and the expansions a task takes before it may.
  struct Focus {
    std::atomic<const CellSearch*> owner{nullptr};
    int64_t after = 0;
  };
  Focus* focus_ = nullptr;  // (set while this thread takes such tasks)
  int64_t taskStart_ = 0;   // expanded_ when this thread's task started
  int joining_ = 0;         // offers this thread is in as a joiner (no focus there)
  bool yielded_ = false;    // (its task put back: the Stopped is its own)
  int64_t putBack_ = 0;     // tasks this thread put back
  // At a poll, once this thread's task has taken focus_->after expansions:
  // takes the focus when no task holds it; puts the task back (a Stopped)
  // when another does.
  void pollFocus();
  // Options of options_ with their parts copied out of parts_, for threads
  // (this thread's stacks grow as it searches).
  struct RootOptions {
    std::vector<Option> options;
    std::vector<OptionPart> parts;
  };
  RootOptions copyOptions(const std::vector<size_t>& asked) const;
  // Threads with nothing left to ask help the others (see kShareCells).
  int shareCells_ = kShareCells;
  int64_t offered_ = 0;  // offers opened by this thread
  // An offer of a part's options from options_[at[k]] (copied out), asked
  // about the candidates below the largest (valueInSearched's main loop), or
  // each only about `wantedFirst` (its first loop; -1: not that loop).
  struct NodeOffer : WorkOffers::Offer {
    RootOptions copy;
    std::vector<size_t> at;
    // The poster's stop flags: a joiner's work in the offer stops when the
    // poster's would, and when the offer's question is answered (`stop`).
    std::vector<const std::atomic<bool>*> chain;
    std::mutex lock;  // over what follows
    Narrowing* narrowing = nullptr;
    Values wanted;
    int wantedFirst = -1;
    std::vector<uint8_t> valued;  // (the first loop's options valued)
    // A joiner left with its option unanswered (an exception, or a stop of
    // the poster's): the poster stops too.
    std::atomic<bool> abandoned{false};
  };
  // Fills `offer` with the options from options_[from] on not valued yet
  // (copied out), to narrow `narrowing` for `wanted`.
  void prepareOffer(NodeOffer& offer, size_t from, const Values& wanted, Narrowing& narrowing,
                    int wantedFirst);
  // Offers the options from options_[j] on (those not valued yet) when a
  // thread is idle and no other offer is open, asks them with the joiners,
  // and waits until the joiners are done (joining other offers meanwhile);
  // false, and nothing asked, when no offer was opened.
  bool shareOptions(size_t j, const Values& wanted, Narrowing& narrowing, int wantedFirst);
  // Takes the next option of `offer` and asks it, until none is left or
  // the question is answered.
  void workOn(NodeOffer& offer);
  // Asks option k of `offer` its question and narrows the candidates by
  // the answer; true when the question is answered (from any thread).
  bool askOffered(NodeOffer& offer, size_t k);
  // An idle thread's part in `offer` (WorkOffers::idleUntil's join).
  void joinOffer(WorkOffers::Offer& offer);
  // Whether this thread may offer the options of `part` now.
  bool mayShare(uint64_t part) const {
    return offers_ && offers_->someoneIdle() && std::popcount(part) >= shareCells_;
  }
  WorkOffers* offers_ = nullptr;  // (set while threads are at work)
  // The flags this thread's search stops at (polled every 1024 expansions;
  // a Stopped is thrown): the question's, then the offers it works in.
  std::vector<const std::atomic<bool>*> stops_;
  // Values every part of option `o` (its parts at `parts`) but the one with
  // most cells into `known` (with o.known), and returns that part's index.
  uint32_t largestPart(const Option& o, const OptionPart* parts, uint32_t& known);
  // Whether options a and b have the same parts (in the same order, as
  // collectOptions gives them) and the same known value: the same value.
  bool sameOption(const Option& a, const Option& b) const;
  // Makes the tables for threads (full sized), and the helpers.
  void prepareThreads(uint64_t part);
  int64_t total(int64_t CellSearch::*counter) const {
    int64_t sum = this->*counter;
    for (const auto& h : helpers_) sum += h.get()->*counter;
    return sum;
  }
  int threads_ = 1;
  int64_t threadsAfter_ = kThreadsAfter;
  bool parallel_ = false;  // threads are at work: the memo is read only
  std::vector<std::unique_ptr<CellSearch>> helpers_;
  int64_t parallelParts_ = 0;

  const ir::CellMoves& moves_;
  // For mayMirror: the grid's column 0, and the cells whose column (row)
  // number has bit b.
  uint64_t firstColumn_ = 0, columnBit_[6] = {}, rowBit_[6] = {};
  WordMemo& memo_;
  uint64_t maxMemory_, memoBytes_, replacementBytes_;
  std::shared_ptr<Tables> tables_;
  int64_t replaced_ = 0;
  std::vector<OptionPart> parts_;  // a stack: each expansion's options' parts
  std::vector<Option> options_;    // a stack: each expansion's options
  int64_t expanded_ = 0;
  DominatedCells dominated_;
  int64_t reductions_ = 0;
  TwinCorners twins_;
  int64_t twinCuts_ = 0;
  // The progress reports (setProgress): the outermost part's question, set
  // by partValue (partDepth_: its calls on the stack).
  ProgressFn progress_;
  std::string progressName_, progressStage_;
  int partDepth_ = 0;
  int64_t progressEvery_ = kProgressEvery;
  void reportProgress() const;
  // The outermost partValue's question r about the options from `step` on,
  // of `options` (threads: `threads` of them at once).
  void setStage(uint32_t r, size_t step, size_t options, int threads);
};

}  // namespace gdsl
