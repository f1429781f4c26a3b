// The pruning search for boards that split (see CellSearch.h).
#include "runtime/CellSearch.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "compiler/support/Interrupt.h"
#include "runtime/Components.h"
#include "runtime/MemoCell.h"

namespace gdsl {

CellSearch::Values CellSearch::Values::upTo(uint32_t n) {
  Values s;
  for (uint32_t i = 0; i < 4; ++i) {
    if (n + 1 >= 64 * (i + 1))
      s.w[i] = ~uint64_t{0};
    else if (n + 1 > 64 * i)
      s.w[i] = (uint64_t{1} << (n + 1 - 64 * i)) - 1;
  }
  return s;
}

CellSearch::Values CellSearch::Values::only(uint32_t v) {
  Values s;
  if (v < 256) s.w[v >> 6] = uint64_t{1} << (v & 63);
  return s;
}

int CellSearch::Values::largest() const {
  for (int i = 3; i >= 0; --i)
    if (w[i]) return 64 * i + 63 - std::countl_zero(w[i]);
  return -1;
}

int CellSearch::Values::smallest() const {
  for (int i = 0; i < 4; ++i)
    if (w[i]) return 64 * i + std::countr_zero(w[i]);
  return -1;
}

CellSearch::Values CellSearch::Values::atMost(int v) const {
  if (v < 0) return {};
  Values s = *this;
  Values bound = upTo(static_cast<uint32_t>(std::min(v, 255)));
  for (int i = 0; i < 4; ++i) s.w[i] &= bound.w[i];
  return s;
}

CellSearch::Values CellSearch::Values::xored(uint32_t x) const {
  if (x == 0) return *this;
  Values s;
  if (x >= 256) return s;
  for (uint32_t i = 0; i < 4; ++i)
    for (uint64_t rest = w[i]; rest; rest &= rest - 1) {
      uint32_t v = (64 * i + static_cast<uint32_t>(std::countr_zero(rest))) ^ x;
      s.w[v >> 6] |= uint64_t{1} << (v & 63);
    }
  return s;
}

int defaultThreads() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
}

CellSearch::CellSearch(const ir::CellMoves& moves, WordMemo& memo, uint64_t maxMemory, int threads)
    : threads_(std::max(threads, 1)),
      moves_(moves),
      memo_(memo),
      maxMemory_(maxMemory),
      memoBytes_(maxMemory / 4),
      replacementBytes_(maxMemory == 0 ? kReplacementBytes
                                       : std::min<uint64_t>(kReplacementBytes, maxMemory / 8)),
      tables_(std::make_shared<Tables>()),
      dominated_(moves),
      twins_(moves) {
  tables_->ruledOut.resize(12);
  tables_->ruledOutMaxBits = ruledOutBits(maxMemory);
  cachedImageCells_ = mostCellsImagedByTables(moves);
  const int width = moves.grid.width;
  for (int c = 0; width > 0 && c < width * moves.grid.height && c < 64; ++c) {
    const uint64_t cell = uint64_t{1} << c;
    if (c % width == 0) firstColumn_ |= cell;
    for (int b = 0; b < 6; ++b) {
      if ((c % width) >> b & 1) columnBit_[b] |= cell;
      if ((c / width) >> b & 1) rowBit_[b] |= cell;
    }
  }
}

CellSearch::CellSearch(const CellSearch& main, int)
    : moves_(main.moves_),
      firstColumn_(main.firstColumn_),
      memo_(main.memo_),
      maxMemory_(main.maxMemory_),
      memoBytes_(main.memoBytes_),
      replacementBytes_(main.replacementBytes_),
      tables_(main.tables_),
      dominated_(main.moves_),
      twins_(main.moves_) {
  std::copy(std::begin(main.columnBit_), std::end(main.columnBit_), columnBit_);
  std::copy(std::begin(main.rowBit_), std::end(main.rowBit_), rowBit_);
  cachedImageCells_ = main.cachedImageCells_;
}

CellSearch::~CellSearch() = default;

int CellSearch::ruledOutBits(uint64_t maxMemory) {
  int bits = kRuledOutMaxBits;
  while (maxMemory != 0 && bits > 12 && (sizeof(SharedBuckets::Entry) << bits) > maxMemory / 8)
    --bits;
  return bits;
}

void CellSearch::reportProgress() const {
  progress_(progressStage_.empty() ? progressName_ : progressName_ + ": " + progressStage_, "parts",
            expanded_, -1, false, -1);
}

void CellSearch::endProgress() {
  progressStage_.clear();
  if (progress_) progress_(progressName_, "parts", expanded_, -1, true, -1);
}

void CellSearch::setStage(uint32_t r, size_t step, size_t options, int threads) {
  if (!progress_ || partDepth_ != 1) return;
  progressStage_ = threads > 1
                       ? fmt::format("is the value {}? the {} options left, {} threads", r,
                                     options - step, threads)
                       : fmt::format("is the value {}? option {} of {}", r, step + 1, options);
}

uint32_t CellSearch::partValue(uint64_t part) {
  uint32_t known = 0;
  if (lookup(part, known)) return known;
  // The outermost call's question is the progress reports' stage while it
  // lasts, however it ends (the engine ends the reports: endProgress).
  struct Depth {
    CellSearch& search;
    ~Depth() {
      if (--search.partDepth_ == 0) search.progressStage_.clear();
    }
  } depth{*this};
  ++partDepth_;
  if (partDepth_ == 1) setCutOrderFrom(part);
  uint32_t count = 0;
  if (uint32_t settled = beginExpansion(part, count); settled != kNotInSet) return settled;
  // Aspiration: is the value 0? 1? ... Value r is refuted by an option of
  // value r, found by asking each option only about r; an option's value,
  // once known, refutes it for later r too. An option valued is marked
  // done (count 0).
  Values refuted;
  auto refute = [&](uint32_t v) {
    if (v < 256) refuted.w[v >> 6] |= uint64_t{1} << (v & 63);
  };
  const size_t partsBase = parts_.size(), optionsBase = options_.size();
  collectOptions(part, [&](uint32_t v) {
    refute(v);
    return true;
  });
  for (size_t j = optionsBase; j < options_.size(); ++j) {
    Option& o = options_[j];
    // One part that is its own mirror image is worth 0 at once.
    if (o.count == 1 && zeroByMirror(parts_[o.first].cells)) {
      store(parts_[o.first].cells, 0);
      o.count = 0;
      refute(o.known);
    }
  }
  uint32_t value = count;
  // Value 0 is asked of the options in the table's order (the rules'): the
  // first found worth 0 is then eval's winning move, which eval looks for
  // next in that order and finds known.
  std::vector<size_t> ruleOrder;
  for (size_t j = optionsBase; j < options_.size(); ++j) ruleOrder.push_back(j);
  std::sort(ruleOrder.begin(), ruleOrder.end(),
            [&](size_t a, size_t b) { return options_[a].move < options_[b].move; });
  // Values past 0 are asked in the order optionsByCut gives, made when
  // first needed (a part worth 0 never needs it).
  std::vector<size_t> laterOrder;
  // A large part, once its search has taken kThreadsAfter expansions, asks
  // the rest of its options from every thread (see askInParallel);
  // meanwhile the memo is only read.
  const bool mayThread = threads_ > 1 && !parallel_ && std::popcount(part) >= kParallelCells;
  const int64_t start = expanded_;
  bool threads = false;
  struct Parallel {  // (set back however the loop ends)
    CellSearch& search;
    bool& on;
    ~Parallel() {
      if (on) search.parallel_ = false;
    }
  } parallel{*this, threads};
  std::vector<size_t> asked;
  std::vector<uint32_t> answers;
  for (uint32_t r = 0; r < count; ++r) {
    if (refuted.has(r)) continue;
    if (r > 0 && laterOrder.empty()) laterOrder = optionsByCut(optionsBase);
    bool found = false;
    size_t step = optionsBase;
    for (; !threads && step < options_.size() && !found; ++step) {
      const size_t j = r == 0 ? ruleOrder[step - optionsBase] : laterOrder[step - optionsBase];
      // A copy: the searches below push on options_, which may move it.
      Option o = options_[j];
      if (o.count == 0) continue;
      setStage(r, step - optionsBase, options_.size() - optionsBase, 1);
      if (mayThread && expanded_ - start >= threadsAfter_) {
        prepareThreads(part);
        threads = parallel_ = true;
        ++parallelParts_;
        break;  // (this option, and the rest, from every thread)
      }
      uint32_t largestAt = valueAllButLargest(o);
      // (A value past 255 cannot be asked about: such a part is valued.)
      const OptionPart& last = parts_[largestAt];
      uint32_t v = (r ^ o.known) < 256
                       ? valueIn(last.cells, Values::only(r ^ o.known), last.twinsChecked)
                       : exactValue(last.cells, last.twinsChecked);
      if (v != kNotInSet) {
        v ^= o.known;
        o.count = 0;
        found = v == r;
        refute(v);
      }
      options_[j] = o;
    }
    if (threads && !found) {
      // Options with the same parts (images of each other under the board's
      // symmetries) are asked once: two threads would search the same part.
      asked.clear();
      for (; step < options_.size(); ++step) {
        const size_t j = r == 0 ? ruleOrder[step - optionsBase] : laterOrder[step - optionsBase];
        if (options_[j].count == 0) continue;
        bool same = false;
        for (size_t i : asked) same = same || sameOption(options_[i], options_[j]);
        if (!same) asked.push_back(j);
      }
      setStage(r, options_.size() - optionsBase - asked.size(), options_.size() - optionsBase,
               threads_);
      found = askInParallel(r, asked, answers);
      for (size_t k = 0; k < asked.size(); ++k)
        if (answers[k] != kNotInSet) {
          for (size_t j = optionsBase; j < options_.size(); ++j)
            if (options_[j].count != 0 && sameOption(options_[j], options_[asked[k]]) &&
                j != asked[k])
              options_[j].count = 0;
          options_[asked[k]].count = 0;
          refute(answers[k]);
        }
    }
    if (!found) {
      value = r;
      break;
    }
  }
  if (threads) parallel_ = false;
  parts_.resize(partsBase);
  options_.resize(optionsBase);
  store(part, value);
  return value;
}

void CellSearch::likelyFirst(size_t optionsBase, uint32_t v) {
  auto likely = [&](const Option& o) {
    // (An option of several parts: the others are not valued yet.)
    const uint32_t below = v ^ o.known;
    if (o.count != 1 || below < kLikelyBelow || below >= 64) return false;
    const uint64_t values = (uint64_t{1} << below) - 1;
    return (ruledOut(parts_[o.first].cells) & values) == values;
  };
  std::stable_partition(options_.begin() + static_cast<std::ptrdiff_t>(optionsBase), options_.end(),
                        likely);
}

std::vector<size_t> CellSearch::optionsByCut(size_t optionsBase) {
  std::vector<std::pair<uint32_t, size_t>> byCut;
  for (size_t j = optionsBase; j < options_.size(); ++j)
    byCut.push_back({options_[j].count == 0 ? 0 : cutByOneMove(options_[j]), j});
  std::stable_sort(byCut.begin(), byCut.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<size_t> order;
  for (const auto& [cut, j] : byCut) order.push_back(j);
  return order;
}

void CellSearch::sortByCut(size_t optionsBase) {
  std::vector<Option> sorted;
  for (size_t j : optionsByCut(optionsBase)) sorted.push_back(options_[j]);
  std::copy(sorted.begin(), sorted.end(),
            options_.begin() + static_cast<std::ptrdiff_t>(optionsBase));
}

uint32_t CellSearch::cutByOneMove(const Option& o) {
  cutParts_.clear();
  for (uint32_t k = 0; k < o.count; ++k) cutParts_.push_back(parts_[o.first + k].cells);
  return cutByOneMove(cutParts_.data(), o.count);
}

uint32_t CellSearch::cutByOneMove(const uint64_t* parts, uint32_t count) {
  if (count == 0) return 0;
  uint32_t largestAt = 0, cells = 0;
  for (uint32_t k = 0; k < count; ++k) {
    cells += std::popcount(parts[k]);
    if (std::popcount(parts[k]) > std::popcount(parts[largestAt])) largestAt = k;
  }
  const uint64_t largest = parts[largestAt];
  const uint32_t others = cells - std::popcount(largest);
  uint32_t best = cells;
  int64_t pieces[kMaxComponents];
  for (size_t i = 0; i < moves_.require.size(); ++i) {
    if ((largest & moves_.require[i]) != moves_.require[i]) continue;
    // The pieces as split gives them; but only pieces of as many cells may
    // be images of each other and cancel, so least images are taken only
    // when two pieces have as many cells (split's images and look-ups, on
    // every move of every option, cost more than the order saved on Cram
    // 4 x 9).
    int n = 0;
    uint64_t sizes = 0;  // (bit c % 64: a piece of c cells)
    bool twoAlike = false;
    forEachComponent(moves_, largest & ~moves_.clear[i], [&](uint64_t p) {
      const uint64_t bit = uint64_t{1} << (std::popcount(p) & 63);
      twoAlike = twoAlike || (sizes & bit) != 0;
      sizes |= bit;
      pieces[n++] = static_cast<int64_t>(p);
    });
    if (twoAlike) {
      for (int k = 0; k < n; ++k)
        pieces[k] = static_cast<int64_t>(canonicalPart(moves_, static_cast<uint64_t>(pieces[k])));
      n = cancelPairs(pieces, n);
    }
    uint32_t left = 0, piece = 0;
    for (int k = 0; k < n; ++k) {
      const auto size = static_cast<uint32_t>(std::popcount(static_cast<uint64_t>(pieces[k])));
      left += size;
      piece = std::max(piece, size);
    }
    // A cut counts if the part falls into pieces that all cancel, or if it
    // leaves at least kCutOff cells outside its largest piece (a corner of a
    // few cells cut off changes little).
    if (left == 0 || left - piece >= kCutOff) best = std::min(best, std::max(piece, others));
  }
  return best;
}

bool CellSearch::sameOption(const Option& a, const Option& b) const {
  if (a.known != b.known || a.count != b.count) return false;
  for (uint32_t k = 0; k < a.count; ++k)
    if (parts_[a.first + k].cells != parts_[b.first + k].cells) return false;
  return true;
}

void CellSearch::prepareThreads(uint64_t part) {
  Tables& t = *tables_;
  // The values ruled out: 2^(cells / 2 + 2) slots (what one thread's cache
  // grows to on such a part), within its own bound; it cannot grow while
  // threads read it.
  const int ruledOutBits = std::min(std::popcount(part) / 2 + 2, t.ruledOutMaxBits);
  if (t.ruledOut.bits() < ruledOutBits) t.ruledOut.resize(ruledOutBits);
  // The replacement table takes the memo's place: 2^(cells / 2) slots, from
  // 2^16 to 2^26 (512 MiB), at most a quarter of --max-memory.
  int bits = std::clamp(std::popcount(part) / 2, 16, 26);
  while (maxMemory_ != 0 && bits > 4 && (ValueTable::kEntryBytes << bits) > maxMemory_ / 4) --bits;
  if (t.values.bits() < bits) t.values.resize(bits);
  while (static_cast<int>(helpers_.size()) + 1 < threads_) {
    helpers_.push_back(std::unique_ptr<CellSearch>(new CellSearch(*this, 0)));
    helpers_.back()->parallel_ = true;
  }
  for (auto& helper : helpers_) {
    helper->cutOrderFrom_ = cutOrderFrom_;
    helper->wantedFirstCells_ = wantedFirstCells_;
    helper->likelyFirst_ = likelyFirst_;
    helper->shareCells_ = shareCells_;
    helper->settlersFirst_ = settlersFirst_;
    helper->optionValuesRuledOut_ = optionValuesRuledOut_;
  }
}

CellSearch::RootOptions CellSearch::copyOptions(const std::vector<size_t>& asked) const {
  RootOptions copy;
  for (size_t j : asked) {
    Option o = options_[j];
    o.first = static_cast<uint32_t>(copy.parts.size());
    copy.parts.insert(copy.parts.end(), parts_.begin() + options_[j].first,
                      parts_.begin() + options_[j].first + options_[j].count);
    copy.options.push_back(o);
  }
  return copy;
}

uint32_t CellSearch::largestPart(const Option& o, const OptionPart* parts, uint32_t& known) {
  uint32_t largest = 0;
  for (uint32_t k = 1; k < o.count; ++k)
    if (std::popcount(parts[k].cells) > std::popcount(parts[largest].cells)) largest = k;
  known = o.known;
  for (uint32_t k = 0; k < o.count; ++k)
    if (k != largest) known ^= exactValue(parts[k].cells, parts[k].twinsChecked);
  return largest;
}

template <typename Task>
void CellSearch::inParallel(size_t count, Task&& task, bool focusOn) {
  std::atomic<size_t> next{0};
  Focus focus;
  focus.after = focusAfter_;
  std::mutex putBackLock;
  std::vector<size_t> putBack;  // tasks put back (see kFocusAfter)
  auto take = [&](size_t& k) {
    {
      std::lock_guard<std::mutex> hold(putBackLock);
      if (!putBack.empty()) {
        auto first = std::min_element(putBack.begin(), putBack.end());
        k = *first;
        putBack.erase(first);
        return true;
      }
    }
    return (k = next.fetch_add(1)) < count;
  };
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex failureLock;
  WorkOffers offers;
  // Threads still taking tasks; the others help them until none is.
  std::atomic<int> running{static_cast<int>(helpers_.size()) + 1};
  auto work = [&](CellSearch& s) {
    const size_t partsBase = s.parts_.size(), optionsBase = s.options_.size();
    s.stops_ = {&stop};
    s.offers_ = &offers;
    s.focus_ = focusOn && focus.after > 0 ? &focus : nullptr;
    bool tasks = true;
    auto tasksDone = [&] {
      if (!tasks) return;
      tasks = false;
      running.fetch_sub(1);
      offers.wake();
    };
    try {
      for (size_t k; !stop.load(std::memory_order_relaxed) && take(k);) {
        s.taskStart_ = s.expanded_;
        bool answered = false;
        try {
          answered = task(s, k);
        } catch (const Stopped&) {
          if (!s.yielded_) throw;
          s.yielded_ = false;
          s.parts_.resize(partsBase);
          s.options_.resize(optionsBase);
          {
            std::lock_guard<std::mutex> hold(putBackLock);
            putBack.push_back(k);
          }
          offers.idleUntil(
              [&] { return stop.load(std::memory_order_relaxed) || focus.owner.load() == nullptr; },
              [&](WorkOffers::Offer& offer) { s.joinOffer(offer); });
          continue;
        }
        const CellSearch* self = &s;
        if (focus.owner.compare_exchange_strong(self, nullptr)) offers.wake();
        if (answered) {
          stop.store(true, std::memory_order_relaxed);
          offers.wake();
        }
      }
      tasksDone();
      offers.idleUntil([&] { return stop.load(std::memory_order_relaxed) || running.load() == 0; },
                       [&](WorkOffers::Offer& offer) { s.joinOffer(offer); });
    } catch (const Stopped&) {
      // (The question is answered, or another thread failed.)
    } catch (...) {
      std::lock_guard<std::mutex> hold(failureLock);
      if (!failure) failure = std::current_exception();
      stop.store(true, std::memory_order_relaxed);
    }
    tasksDone();
    offers.wake();
    s.parts_.resize(partsBase);
    s.options_.resize(optionsBase);
    s.stops_.clear();
    s.offers_ = nullptr;
    s.focus_ = nullptr;
  };
  std::vector<std::thread> threads;
  for (auto& helper : helpers_) threads.emplace_back(work, std::ref(*helper));
  work(*this);
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

void CellSearch::prepareOffer(NodeOffer& n, size_t from, const Values& wanted, Narrowing& narrowing,
                              int wantedFirst) {
  for (size_t j = from; j < options_.size(); ++j)
    if (options_[j].count != 0) n.at.push_back(j);  // (not valued yet)
  n.copy = copyOptions(n.at);
  n.count = n.at.size();
  n.chain = stops_;
  n.narrowing = &narrowing;
  n.wanted = wanted;
  n.wantedFirst = wantedFirst;
  n.valued.assign(n.count, 0);
}

bool CellSearch::shareOptions(size_t j, const Values& wanted, Narrowing& narrowing,
                              int wantedFirst) {
  NodeOffer n;
  prepareOffer(n, j, wanted, narrowing, wantedFirst);
  if (n.count < 2 || !offers_->open(n)) return false;
  ++offered_;
  const size_t partsBase = parts_.size(), optionsBase = options_.size();
  stops_.push_back(&n.stop);
  struct Close {  // however the asking ends: the joiners gone first
    CellSearch& search;
    NodeOffer& offer;
    bool unwinding = true;
    ~Close() {
      if (unwinding) {
        offer.stop.store(true, std::memory_order_relaxed);
        search.offers_->waitForJoiners(offer);
      }
      search.stops_.pop_back();
    }
  } close{*this, n};
  try {
    workOn(n);
  } catch (const Stopped&) {
    if (!n.stop.load(std::memory_order_relaxed)) throw;
    parts_.resize(partsBase);  // (the question is answered)
    options_.resize(optionsBase);
  }
  offers_->closeToJoiners(n);
  // This thread's own flags are not the joined offers' (joinOffer).
  offers_->idleUntil([&] { return n.joiners == 0; },
                     [&](WorkOffers::Offer& offer) { joinOffer(offer); });
  close.unwinding = false;
  if (n.abandoned.load()) throw Stopped{};  // (see NodeOffer::abandoned)
  for (size_t k = 0; k < n.count; ++k)
    if (n.valued[k]) options_[n.at[k]].count = 0;
  return true;
}

void CellSearch::workOn(NodeOffer& n) {
  for (size_t k; !n.stop.load(std::memory_order_relaxed) && (k = n.next.fetch_add(1)) < n.count;)
    if (askOffered(n, k)) n.stop.store(true, std::memory_order_relaxed);
}

bool CellSearch::askOffered(NodeOffer& n, size_t k) {
  const Option& o = n.copy.options[k];
  const OptionPart* parts = n.copy.parts.data() + o.first;
  uint32_t known = 0;
  const OptionPart& last = parts[largestPart(o, parts, known)];
  Values ask;
  {
    std::lock_guard<std::mutex> hold(n.lock);
    const Values& candidates = n.narrowing->candidates;
    if (!candidates.meets(n.wanted)) return true;
    if (n.wantedFirst >= 0) {
      ask = Values::only(static_cast<uint32_t>(n.wantedFirst) ^ known);
    } else {
      Values below = candidates;
      below.erase(static_cast<uint32_t>(candidates.largest()));
      ask = below.atMost(n.wanted.largest()).xored(known);
    }
  }
  const uint32_t v = ask.empty() ? kNotInSet : valueIn(last.cells, ask, last.twinsChecked);
  // As valueInSearched's loops. The candidates may have lost values since
  // `ask` was made from them; an answer "not in ask" still means not among
  // the candidates left but their largest, so the step holds.
  std::lock_guard<std::mutex> hold(n.lock);
  if (n.wantedFirst >= 0) {
    if (v != kNotInSet) {
      n.narrowing->found(v ^ known);
      n.valued[k] = 1;
    }
  } else if (v == kNotInSet) {
    n.narrowing->notBelowLargest();
  } else {
    n.narrowing->found(v ^ known);
  }
  return !n.narrowing->candidates.meets(n.wanted);
}

void CellSearch::joinOffer(WorkOffers::Offer& offer) {
  auto& n = static_cast<NodeOffer&>(offer);
  // The offer's work stops when its poster's would: the poster's flags
  // stand for this thread's own while it is in the offer.
  struct Restore {
    CellSearch& search;
    std::vector<const std::atomic<bool>*> own;
    size_t partsBase, optionsBase;
    ~Restore() {
      search.stops_ = std::move(own);
      search.parts_.resize(partsBase);
      search.options_.resize(optionsBase);
    }
  } restore{*this, std::move(stops_), parts_.size(), options_.size()};
  struct Joining {
    int& depth;
    explicit Joining(int& d) : depth(d) { ++depth; }
    ~Joining() { --depth; }
  } joining{joining_};
  stops_ = n.chain;
  stops_.push_back(&n.stop);
  try {
    workOn(n);
  } catch (const Stopped&) {
    if (!n.stop.load(std::memory_order_relaxed)) n.abandoned.store(true);
  } catch (...) {
    n.abandoned.store(true);
    throw;
  }
}

bool CellSearch::askInParallel(uint32_t r, const std::vector<size_t>& asked,
                               std::vector<uint32_t>& answers) {
  // The options and their parts, copied: each thread's stacks grow as it
  // searches, this one's too.
  const RootOptions copy = copyOptions(asked);
  answers.assign(asked.size(), kNotInSet);
  auto ask = [&](CellSearch& s, size_t k) {
    const Option& o = copy.options[k];
    const OptionPart* parts = copy.parts.data() + o.first;
    uint32_t known = 0;
    const OptionPart& last = parts[s.largestPart(o, parts, known)];
    // (A value past 255 cannot be asked about: such a part is valued.)
    uint32_t v = (r ^ known) < 256
                     ? s.valueIn(last.cells, Values::only(r ^ known), last.twinsChecked)
                     : s.exactValue(last.cells, last.twinsChecked);
    answers[k] = v == kNotInSet ? kNotInSet : v ^ known;
    return answers[k] == r;
  };
  inParallel(asked.size(), ask, /*focus=*/true);
  return std::find(answers.begin(), answers.end(), r) != answers.end();
}

void CellSearch::narrowInParallel(const Values& wanted, Narrowing& narrowing, size_t optionsBase) {
  NodeOffer n;  // (offered to no one: every thread takes its options)
  prepareOffer(n, optionsBase, wanted, narrowing, -1);
  inParallel(n.count, [&](CellSearch& s, size_t k) { return s.askOffered(n, k); });
}

uint32_t CellSearch::valueAllButLargest(Option& o) {
  uint32_t largestAt = o.first;
  for (uint32_t k = o.first + 1; k < o.first + o.count; ++k)
    if (std::popcount(parts_[k].cells) > std::popcount(parts_[largestAt].cells)) largestAt = k;
  for (uint32_t k = o.first; k < o.first + o.count; ++k)
    if (k != largestAt) o.known ^= exactValue(parts_[k].cells, parts_[k].twinsChecked);
  o.first = largestAt;  // the others are in `known` now
  o.count = 1;
  return largestAt;
}

int CellSearch::split(uint64_t board, int64_t* out) {
  if (moves_.grid.orientations == 0)
    return splitComponents(moves_, static_cast<int64_t>(board), out);
  return splitComponents(moves_, static_cast<int64_t>(board), out, [&](uint64_t part) {
    uint64_t image;
    if (std::popcount(part) > cachedImageCells_) {
      image = canonicalPart(moves_, part);
    } else {
      Image& slot = images_.slot(part);
      if (slot.part != part) slot = {part, canonicalPart(moves_, part)};
      image = slot.image;
    }
    // Its value is looked up soon: in the memo and, once values go to the
    // replacement table, there too (on a large board, a miss in that table
    // was 42% of the search's time: Cram 13 x 4, perf).
    memo_.prefetch(image);
    if (!tables_->values.empty()) tables_->values.prefetch(image);
    return image;
  });
}

uint32_t CellSearch::valueOfPieces(uint64_t part, const uint64_t* cells, int count,
                                   const Values& wanted) {
  int64_t pieces[kMaxComponents];
  int n = 0;
  for (int k = 0; k < count; ++k) n += split(cells[k], pieces + n);
  n = cancelPairs(pieces, n);  // equal parts of different pieces cancel too
  uint32_t known = 0;
  int largest = -1;
  for (int k = 0; k < n; ++k)
    if (largest < 0 || std::popcount(static_cast<uint64_t>(pieces[k])) >
                           std::popcount(static_cast<uint64_t>(pieces[largest])))
      largest = k;
  for (int k = 0; k < n; ++k)
    if (k != largest) known ^= exactValue(static_cast<uint64_t>(pieces[k]));
  uint32_t value = known;
  if (largest >= 0) {
    const auto last = static_cast<uint64_t>(pieces[largest]);
    // A piece may have more than 255 moves (the part had), and the others'
    // xor be past 255: then no set can be asked, and the last is valued.
    uint32_t v = known < 256 ? valueIn(last, wanted.xored(known)) : exactValue(last);
    if (v == kNotInSet) return kNotInSet;
    value ^= v;
  }
  store(part, value);
  return value;
}

bool CellSearch::mayMirror(uint64_t part) const {
  const ir::CellGrid& g = moves_.grid;
  if (g.orientations < 2 || g.width == 0 || part == 0) return false;
  if (g.width >= 63) return true;  // (one row: not worth filtering)
  const int width = g.width;
  const uint64_t row = (uint64_t{1} << width) - 1;
  const int minY = std::countr_zero(part) / width, maxY = (63 - std::countl_zero(part)) / width;
  const uint64_t columns = foldedRows(part, width) & row;
  const int minX = std::countr_zero(columns), maxX = 63 - std::countl_zero(columns);
  const int top = std::popcount(part & (row << (minY * width)));
  const int bottom = std::popcount(part & (row << (maxY * width)));
  const int left = std::popcount(part & (firstColumn_ << minX));
  const int right = std::popcount(part & (firstColumn_ << maxX));
  const int spanX = maxX - minX, spanY = maxY - minY;
  // The sums of the cells' columns and rows, from the bits of their
  // numbers, less the least: an image of the part on itself keeps them.
  const int n = std::popcount(part);
  int sumX = 0, sumY = 0;
  for (int b = 0; b < 6; ++b) {
    sumX += std::popcount(part & columnBit_[b]) << b;
    sumY += std::popcount(part & rowBit_[b]) << b;
  }
  sumX -= n * minX;
  sumY -= n * minY;
  const bool mirrorX = left == right && 2 * sumX == n * spanX;
  const bool mirrorY = top == bottom && 2 * sumY == n * spanY;
  // Orientation k turns a point: bit 0 swaps the axes, bit 1 negates x,
  // bit 2 negates y (compiler/ir/CellSymmetry.cpp).
  for (int t = 1; t < g.orientations; ++t) {
    switch (g.kinds[static_cast<size_t>(t)]) {
      case 1:  // (x, y) -> (y, x): the top row onto the left column
        if (spanX == spanY && top == left && sumX == sumY) return true;
        break;
      case 2:  // (x, y) -> (-x, y)
        if (mirrorX) return true;
        break;
      case 4:  // (x, y) -> (x, -y)
        if (mirrorY) return true;
        break;
      case 6:  // the half turn
        if (mirrorX && mirrorY) return true;
        break;
      case 7:  // (x, y) -> (-y, -x): the top row onto the right column
        if (spanX == spanY && top == right && sumX == n * spanY - sumY) return true;
        break;
      default:  // the quarter turns are not their own inverse
        break;
    }
  }
  return false;
}

bool CellSearch::zeroByMirror(uint64_t part) const {
  const ir::CellGrid& g = moves_.grid;
  if (!mayMirror(part)) return false;
  if (!moves_.index.images.empty()) {
    // At once, from the images shifted to the corner: is `part` its own
    // image under a reflection or half turn? (Most parts are not.)
    uint64_t images[8] = {};
    forEachImage(moves_, part, [&](int k, uint64_t image) { images[k] = image; });
    bool own = false;
    for (int t = 1; t < g.orientations && !own; ++t) {
      int kind = g.kinds[static_cast<size_t>(t)];
      own = kind != 3 && kind != 5 && images[t] == images[0];
    }
    if (!own) return false;
  }
  int minX0 = 0, minY0 = 0;
  orientedCorner(g, 0, part, minX0, minY0);
  for (int t = 1; t < g.orientations; ++t) {
    int kind = g.kinds[static_cast<size_t>(t)];
    if (kind == 3 || kind == 5) continue;  // a quarter turn is not its own inverse
    int minX = 0, minY = 0;
    orientedCorner(g, t, part, minX, minY);
    const int8_t* xs = g.x.data() + 64 * t;
    const int8_t* ys = g.y.data() + 64 * t;
    // The map: orientation t, then the shift that lays the image on `part`'s corner.
    auto image = [&](uint64_t cells) {
      uint64_t out = 0;
      for (uint64_t rest = cells; rest; rest &= rest - 1) {
        auto c = static_cast<unsigned>(std::countr_zero(rest));
        int x = xs[c] - minX + minX0, y = ys[c] - minY + minY0;
        if (x < 0 || y < 0 || x >= g.width || y >= g.height) return ~uint64_t{0};
        out |= uint64_t{1} << (y * g.width + x);
      }
      return out;
    };
    if (image(part) != part) continue;
    bool mirrors = true;
    for (size_t i = 0; i < moves_.require.size() && mirrors; ++i)
      if ((part & moves_.require[i]) == moves_.require[i])
        mirrors = (image(moves_.require[i]) & moves_.clear[i] & part) == 0;
    if (mirrors) return true;
  }
  return false;
}

uint32_t CellSearch::exactValue(uint64_t part, bool twinsChecked) {
  return valueIn(part, Values::upTo(255), twinsChecked);
}

bool CellSearch::partValueIs(uint64_t part, uint32_t target) {
  if (target >= 256) return partValue(part) == target;
  if (partDepth_ == 0) {
    if (progress_) progressStage_ = fmt::format("is a part worth {}?", target);
    setCutOrderFrom(part);
  }
  return valueIn(part, Values::only(target)) == target;
}

void CellSearch::store(uint64_t part, uint32_t value) {
  if (!parallel_ && !memo_.full(memoBytes_) && memo_.insert(part)) {
    memo_.set(part, cellOfValue(value));
    return;
  }
  if (tables_->values.empty())
    tables_->values.resize(std::countr_zero(std::bit_floor(std::max<uint64_t>(
        std::min<uint64_t>(replacementBytes_ / ValueTable::kEntryBytes, memo_.maxEntries()), 2))));
  tables_->values.put(part, value);
  ++replaced_;
}

bool CellSearch::lookup(uint64_t part, uint32_t& value) const {
  if (memo_.known(part, value)) return true;
  return !tables_->values.empty() && tables_->values.find(part, value);
}

uint32_t CellSearch::valueByMex(uint64_t part) {
  std::vector<uint32_t> seen;
  int64_t parts[kMaxComponents];
  for (size_t i = 0; i < moves_.require.size(); ++i) {
    if ((part & moves_.require[i]) != moves_.require[i]) continue;
    int n = split(part & ~moves_.clear[i], parts);
    uint32_t x = 0;
    for (int k = 0; k < n; ++k) x ^= partValue(static_cast<uint64_t>(parts[k]));
    seen.push_back(x);
  }
  std::sort(seen.begin(), seen.end());
  uint32_t mex = 0;
  for (uint32_t v : seen)
    if (v == mex) ++mex;
  store(part, mex);
  return mex;
}

uint32_t CellSearch::legalMoves(uint64_t part) const {
  return legalMoveCount(moves_, part);
}

CellSearch::Middle::Middle(const ir::CellGrid& grid, uint64_t part) : width(grid.width) {
  if (width == 0) return;
  uint64_t columns = foldedRows(part, width) & ((uint64_t{1} << width) - 1);
  x2 = std::countr_zero(columns) + 63 - std::countl_zero(columns);
  y2 = std::countr_zero(part) / width + (63 - std::countl_zero(part)) / width;
}

uint32_t CellSearch::Middle::distance(uint64_t cells) const {
  if (width == 0 || cells == 0) return 0;
  int c = std::countr_zero(cells);
  int d = std::abs(2 * (c % width) - x2) + std::abs(2 * (c / width) - y2);
  return static_cast<uint32_t>(std::min(d, 127));
}

void CellSearch::addOptionPart(uint64_t part, Option& o, bool cutTwins) {
  uint32_t v = 0;
  if (lookup(part, v)) {
    o.known ^= v;
    return;
  }
  // A part cut at its twin corners is its pieces, each looked up too.
  if (cutTwins && twins_.applies()) {
    uint64_t cut[32];
    if (const int m = twins_.pieces(part, cut); m > 0) {
      int64_t pieces[kMaxComponents];
      int n = 0;
      for (int k = 0; k < m; ++k) n += split(cut[k], pieces + n);
      for (int k = 0; k < n; ++k) addOptionPart(static_cast<uint64_t>(pieces[k]), o, false);
      ++twinCuts_;
      return;
    }
  }
  parts_.push_back({part, cutTwins && twins_.applies()});
  ++o.count;
  // Fewest moves first (then fewest cells): a part with few moves has few
  // candidate values, so its questions are the cheapest.
  uint32_t moves = legalMoves(part);
  o.cost += moves * moves + static_cast<uint32_t>(std::popcount(part));
}

template <typename Known>
bool CellSearch::collectOptions(uint64_t part, Known&& known) {
  const uint64_t* require = moves_.require.data();
  const uint64_t* clear = moves_.clear.data();
  const size_t optionsBase = options_.size();
  const Middle middle(moves_.grid, part);
  const size_t moveCount = moves_.require.size();
  auto legalFrom = [&](size_t i) {
    while (i < moveCount && (part & require[i]) != require[i]) ++i;
    return i;
  };
  // The moves that last settled a question about a part of as many cells
  // at once (an option of known value) are tried first, then the others in
  // the table's order: a question settled so is settled sooner (Cram 4 x 11:
  // 13% fewer options split before such questions were settled), and one
  // that is not collects the same options (their order is made below, not
  // by the order they are found in).
  const auto cells = static_cast<size_t>(std::popcount(part));
  std::array<uint32_t, 2>& settlers = settledBy_[cells];
  uint32_t first = kNoMove, second = kNoMove;
  if (settlersFirst_) {
    first = settlers[0];
    second = settlers[1];
  }
  auto legal = [&](uint32_t m) { return m < moveCount && (part & require[m]) == require[m]; };
  if (!legal(first)) std::swap(first, second);
  if (!legal(first)) first = kNoMove;
  if (!legal(second) || second == first) second = kNoMove;
  auto skipSettlers = [&](size_t n) {
    while (n < moveCount && (n == first || n == second)) n = legalFrom(n + 1);
    return n;
  };
  auto after = [&](size_t m) {
    if (m == first && second != kNoMove) return static_cast<size_t>(second);
    return skipSettlers(m == first || m == second ? legalFrom(0) : legalFrom(m + 1));
  };
  // One move ahead: the next move's parts are split, and their memo and
  // table slots fetched, while this move's are looked up (on a large board
  // most look-ups miss the processor's caches).
  int64_t parts[2][kMaxComponents];
  int counts[2] = {0, 0};
  size_t i = first != kNoMove ? first : legalFrom(0);
  if (i < moveCount) counts[0] = split(part & ~clear[i], parts[0]);
  for (int now = 0; i < moveCount; now ^= 1) {
    const size_t next = after(i);
    if (next < moveCount) counts[now ^ 1] = split(part & ~clear[next], parts[now ^ 1]);
    Option o{static_cast<uint32_t>(parts_.size()), 0, 0, 0, static_cast<uint32_t>(i)};
    for (int k = 0; k < counts[now]; ++k)
      addOptionPart(static_cast<uint64_t>(parts[now][k]), o, true);
    if (o.count > 0) {
      // On ties of cost, the move nearest the middle of the board first (it
      // leaves the most even parts).
      o.cost = o.cost * 128 + middle.distance(clear[i] & part);
      options_.push_back(o);
    } else if (!known(o.known)) {
      if (settlers[0] != i) settlers = {static_cast<uint32_t>(i), settlers[0]};
      return false;
    }
    i = next;
  }
  const auto begin = options_.begin() + static_cast<std::ptrdiff_t>(optionsBase);
  // (The table's order first, as if the settlers had not been tried first:
  // the order below is the same either way.)
  if (first != kNoMove)
    std::sort(begin, options_.end(),
              [](const Option& a, const Option& b) { return a.move < b.move; });
  std::sort(begin, options_.end(),
            [](const Option& a, const Option& b) { return a.cost < b.cost; });
  return true;
}

uint32_t CellSearch::valueIn(uint64_t part, const Values& asked, bool twinsChecked) {
  uint32_t known = 0;
  if (lookup(part, known)) return known;
  // What earlier questions ruled out is not asked again.
  Values wanted = asked;
  if (const uint64_t out = ruledOut(part)) {
    wanted.w[0] &= ~out;
    if (wanted.empty()) return kNotInSet;
  }
  uint64_t optionValues = 0;
  uint32_t answer = valueInSearched(part, wanted, twinsChecked, optionValues);
  // (Found again: the searches below may have moved or taken the entry.)
  if (answer == kNotInSet)
    ruleOut(part, wanted.w[0] | (optionValuesRuledOut_ ? optionValues : uint64_t{0}));
  return answer;
}

void CellSearch::pollFocus() {
  const CellSearch* owner = focus_->owner.load();
  if (owner == this) return;
  if (owner == nullptr && focus_->owner.compare_exchange_strong(owner, this)) return;
  yielded_ = true;  // (another thread's task holds the focus)
  ++putBack_;
  throw Stopped{};
}

uint32_t CellSearch::beginExpansion(uint64_t part, uint32_t& count) {
  if ((++expanded_ & 1023) == 0) {
    if (progress_ && (expanded_ & (progressEvery_ - 1)) == 0) reportProgress();
    checkInterrupt();
    for (const std::atomic<bool>* stop : stops_)
      if (stop->load(std::memory_order_relaxed)) throw Stopped{};
    if (focus_ && joining_ == 0 && expanded_ - taskStart_ >= focus_->after) pollFocus();
  }
  if (expanded_ == nextGrowth_) {
    // (While threads are at work, the shared tables are at full size.)
    if (!parallel_ && tables_->ruledOut.bits() < tables_->ruledOutMaxBits)
      tables_->ruledOut.resize(tables_->ruledOut.bits() + 1);
    images_.grow();
    nextGrowth_ *= 2;
  }
  if (zeroByMirror(part)) {
    store(part, 0);
    return 0;
  }
  count = legalMoves(part);
  return count > 255 ? valueByMex(part) : kNotInSet;
}

uint32_t CellSearch::valueInSearched(uint64_t part, const Values& wanted, bool twinsChecked,
                                     uint64_t& optionValues) {
  if (dominated_.applies()) {
    uint64_t less = dominated_.reduced(part);
    if (less != part) {
      ++reductions_;
      return valueOfPieces(part, &less, 1, wanted);
    }
  }
  if (twins_.applies() && !twinsChecked) {
    uint64_t pieces[32];
    if (int n = twins_.pieces(part, pieces); n > 0) {
      ++twinCuts_;
      return valueOfPieces(part, pieces, n, wanted);
    }
  }
  uint32_t count = 0;
  if (uint32_t settled = beginExpansion(part, count); settled != kNotInSet) return settled;
  // The candidates: 0..count. Each option removes one: its value, or the
  // largest candidate when its value is not one.
  Narrowing narrowing;
  Values& candidates = narrowing.candidates;
  candidates = Values::upTo(count);
  const size_t partsBase = parts_.size(), optionsBase = options_.size();
  auto unwind = [&] {
    parts_.resize(partsBase);
    options_.resize(optionsBase);
  };
  auto notInSet = [&] {
    unwind();
    optionValues |= narrowing.optionValues;
    return kNotInSet;
  };
  // Options whose parts are all known are counted at once (and may settle
  // the question before the other options are even split).
  if (!collectOptions(part, [&](uint32_t v) {
        narrowing.found(v);
        return candidates.meets(wanted);
      }))
    return notInSet();

  // A large part a few moves from the outermost question's asks first the
  // options one move more cuts furthest, as the root asks its values past
  // 0: such an option's tree is small, and answers that remove candidates
  // early narrow the questions asked of the rest (Cram 4 x 11, one thread:
  // 5.0 million parts expanded instead of 10.6; see kCutOrderCells).
  if (std::popcount(part) >= cutOrderFrom_) sortByCut(optionsBase);
  const int wantedLargest = wanted.largest();
  // A large part, once its search has taken kThreadsAfter expansions, asks
  // the rest of its options from every thread (see narrowInParallel).
  const bool mayThread = threads_ > 1 && !parallel_ && std::popcount(part) >= kParallelCells;
  const int64_t start = expanded_;
  // A large part asked about one value v (below its largest candidate but
  // one) first asks each option whether it is worth v: one that is answers
  // the question, and so narrow a question costs less than one about every
  // candidate below the largest. An option found valued already (at
  // another value) is counted as the loop below counts it, and done. With
  // none worth v, each option has v ruled out, and the loop below asks the
  // others about the rest. (Cram 4 x 13: 619 s instead of 873, 254 million
  // parts expanded instead of 326; see kWantedFirstCells.)
  if (std::popcount(part) >= wantedFirstCells_ && wanted.smallest() == wantedLargest &&
      wantedLargest + 1 < candidates.largest()) {
    const auto v = static_cast<uint32_t>(wantedLargest);
    if (likelyFirst_) likelyFirst(optionsBase, v);
    for (size_t j = optionsBase; j < options_.size(); ++j) {
      if (!candidates.meets(wanted)) return notInSet();
      if (mayThread && expanded_ - start >= threadsAfter_) break;  // (the rest from every thread)
      if (mayShare(part) && shareOptions(j, wanted, narrowing, static_cast<int>(v))) break;
      Option o = options_[j];
      const uint32_t largestAt = valueAllButLargest(o);
      const OptionPart& last = parts_[largestAt];
      if ((v ^ o.known) < 256) {
        if (uint32_t value = valueIn(last.cells, Values::only(v ^ o.known), last.twinsChecked);
            value != kNotInSet) {
          narrowing.found(value ^ o.known);
          o.count = 0;
        }
      }
      options_[j] = o;  // (its other parts valued)
    }
  }
  for (size_t j = optionsBase; j < options_.size(); ++j) {
    if (options_[j].count == 0) continue;  // (valued above)
    if (!candidates.meets(wanted)) return notInSet();
    if (mayThread && expanded_ - start >= threadsAfter_ && options_.size() - j >= 2) {
      prepareThreads(part);
      parallel_ = true;
      ++parallelParts_;
      struct Serial {  // (set back however the threads end)
        CellSearch& search;
        ~Serial() { search.parallel_ = false; }
      } serial{*this};
      narrowInParallel(wanted, narrowing, j);
      if (!candidates.meets(wanted)) return notInSet();
      break;
    }
    if (mayShare(part) && shareOptions(j, wanted, narrowing, -1)) {
      if (!candidates.meets(wanted)) return notInSet();
      break;
    }
    // Every part but the largest exactly; the largest asked about the
    // candidates but the largest, xored with the others.
    Option o = options_[j];
    uint32_t largestAt = valueAllButLargest(o);
    Values below = candidates;
    below.erase(static_cast<uint32_t>(candidates.largest()));
    Values ask = below.atMost(wantedLargest).xored(o.known);
    const OptionPart& last = parts_[largestAt];
    uint32_t v = ask.empty() ? kNotInSet : valueIn(last.cells, ask, last.twinsChecked);
    if (v == kNotInSet)
      narrowing.notBelowLargest();
    else
      narrowing.found(v ^ o.known);
  }
  if (narrowing.exact ||
      candidates.meets(Values::upTo(static_cast<uint32_t>(std::max(wantedLargest, 0))))) {
    unwind();
    auto value = static_cast<uint32_t>(candidates.smallest());
    store(part, value);
    return value;
  }
  return notInSet();
}

}  // namespace gdsl
