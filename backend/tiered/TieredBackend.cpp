// The tiered `auto` backend (TieredBackend.h): the interpreter, a worker
// thread that gets the JIT ready meanwhile, and the switch.
//
// The worker gets the functions the interpreter has been running (the
// kernels, native searches and hot enumerators of the games called so far)
// from the code cache, or compiles them, over a copy of the program that it
// owns: the main thread goes on interpreting and never waits for it. Each
// call on the main thread looks whether the worker is done (a native search
// asks every 64 positions); the first that sees it takes the JIT over, and
// a search the interpreter is running stops with Yield, so that the engine
// restarts it on the JIT over the same memo. A backend destroyed while the
// worker runs leaves it to finish alone (it owns all it reads), except with
// AddressSanitizer, where the process exits normally and the worker is waited
// for.
#include "backend/tiered/TieredBackend.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <atomic>
#include <exception>
#include <thread>
#include <vector>

#include "backend/interp/Interpreter.h"
#include "backend/jit/Functions.h"
#include "backend/jit/JitBackend.h"
#include "runtime/Asan.h"

namespace gdsl {
namespace {

using jit::Emitted;

// The CPU time of the calling thread.
std::chrono::microseconds threadCpuTime() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::microseconds(int64_t{ts.tv_sec} * 1'000'000 + ts.tv_nsec / 1000);
}

double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// One function of a game for the JIT to get ready.
struct Wanted {
  int game;
  Emitted what;
  int64_t length;  // a list game's search: the list length; else -1
};

// What the worker works on and hands back. Shared by the backend and the
// worker thread; the worker writes everything but `done` before it sets it.
struct Job {
  std::shared_ptr<const ir::Program> program;  // a copy of the stack's
  std::unique_ptr<PositionBuilder> positions;  // over the copy
  JitFactory makeJit;
  std::vector<Wanted> wanted;
  bool cacheOnly = false;                // from the code cache alone (no LLVM)
  std::unique_ptr<jit::JitBackend> jit;  // null when the JIT failed
  std::string error;
  double millis = 0;  // the worker's wall time
  std::atomic<bool> done{false};
};

void runJob(Job& job) {
  auto start = std::chrono::steady_clock::now();
  try {
    job.positions = std::make_unique<PositionBuilder>(*job.program);
    job.jit = job.makeJit(*job.positions, job.error);
    if (job.jit)
      for (const Wanted& w : job.wanted)
        if (!job.jit->prepare(w.game, w.what, w.length, job.error, job.cacheOnly)) {
          job.jit.reset();
          break;
        }
  } catch (const std::exception& e) {  // out of memory, say: the interpreter goes on
    job.jit.reset();
    job.error = e.what();
  }
  job.millis = millisSince(start);
}

class TieredBackend final : public Backend, private YieldPoll {
 public:
  TieredBackend(PositionBuilder& positions, JitFactory makeJit, std::string* log,
                TieringOptions options)
      : positions_(positions),
        program_(positions.program()),
        interpreter_(positions),
        makeJit_(std::move(makeJit)),
        log_(log),
        options_(options),
        cpuStart_(threadCpuTime()),
        wallStart_(std::chrono::steady_clock::now()),
        used_(program_.games.size(), 0),
        searchLengths_(program_.games.size(), 0),
        enumerations_(program_.games.size(), 0) {
    interpreter_.setYieldPoll(this);
    for (const ir::Game& g : program_.games) jitSearches_.push_back(jit::hasSearch(g));
  }

  ~TieredBackend() override {
    if (!worker_.joinable()) return;
    if (kAsan || job_->done.load(std::memory_order_acquire))
      worker_.join();
    else
      worker_.detach();  // it owns what it reads; the process may exit under it
  }

  const char* name() const override { return jit_ ? "jit" : "interp"; }
  std::string report() const override {
    return jit_ ? jit_->report() : "gdsl: auto: the interpreter did all the work\n";
  }

  void enumerate(const Position& position, MoveSink& sink) override {
    int game = static_cast<int>(position.game);
    uint32_t& count = enumerations_[position.game];
    if (count < UINT32_MAX) ++count;
    // A game's enumerator is hot when the engine's search expands its
    // positions; the moves of a position shown or played are listed by the
    // interpreter, unless the JIT has the enumerator already.
    if (ready() && (count >= kHotEnumerations || jit_->has(game, Emitted::Enumerator)))
      if (Backend* j = jitWith(game, Emitted::Enumerator, -1)) return j->enumerate(position, sink);
    interpreter_.enumerate(position, sink);
  }

  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override {
    Emitted kernel = table.wide ? Emitted::Kernel32 : Emitted::Kernel16;
    used_[static_cast<size_t>(game)] |= 1u << static_cast<int>(kernel);
    if (ready())
      if (Backend* j = jitWith(game, kernel, -1)) return j->heapValue(game, n, table, oracle);
    return interpreter_.heapValue(game, n, table, oracle);
  }

  bool searchesNatively(int game) override { return interpreter_.searchesNatively(game); }

  BackendWork work() const override {
    TierWork t = tiers();
    return {t.interpreter.kernelHeaps + t.jit.kernelHeaps,
            t.interpreter.searchedPositions + t.jit.searchedPositions};
  }
  TierWork tiers() const {
    return {interpreter_.work(), jit_ ? jit_->work() : BackendWork{}, jit_ != nullptr};
  }

  NativeStatus searchNative(int game, const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                            std::vector<int64_t>& miss, uint64_t stackFloor) override {
    auto g = static_cast<size_t>(game);
    int64_t length = memo.lists() ? words[0] : -1;
    Emitted what = memo.box && memo.box->wide() ? Emitted::SearchWide : Emitted::Search;
    if (jitSearches(game)) {
      if (what == Emitted::SearchWide)
        used_[g] |= 1u << static_cast<int>(what);
      else
        searchLengths_[g] |= length >= 0 && length <= 15 ? 1u << (length + 1) : 1u;
    }
    if (ready() && jitSearches(game))
      if (Backend* j = jitWith(game, what, length))
        return j->searchNative(game, words, memo, oracle, miss, stackFloor);
    return interpreter_.searchNative(game, words, memo, oracle, miss, stackFloor);
  }

 private:
  // Enumerations of a game after which its enumerator counts as hot.
  static constexpr uint32_t kHotEnumerations = 64;
#ifdef GDSL_ASAN
  static constexpr bool kAsan = true;
#else
  static constexpr bool kAsan = false;
#endif

  // The interpreter's native search asks this every 64 positions.
  bool shouldYield(int game) override {
    return ready(true) && jitSearches(game);
  }

  // Whether the JIT has a native search for `game` over the memo the
  // engine gives it (runtime/Engine.cpp: a box for several integer
  // parameters, a table of words for one, packed lists for a list).
  bool jitSearches(int game) const {
    return jitSearches_[static_cast<size_t>(game)];
  }

  // Whether the JIT runs from now on: starts a worker that looks in the
  // code cache only once the interpreter has been busy for
  // options_.cacheStart, a worker that may compile once it has been busy for
  // options_.start (unless the first one got everything), and takes the JIT
  // over once a worker succeeds.
  // The clock is read every 16th call, or at every call with `always` (the
  // native search's polls, every 64 positions).
  bool ready(bool always = false) {
    if (jit_) return true;
    if (failed_) return false;
    if (!job_) {
      if (!always && (++calls_ & 15) != 0) return false;
      if (looks_ < options_.skipLooks) {
        ++looks_;
        return false;
      }
      bool cacheOnly = !cacheTried_ && options_.cacheStart < options_.start;
      if (threadCpuTime() - cpuStart_ < (cacheOnly ? options_.cacheStart : options_.start))
        return false;
      cacheTried_ = true;
      startWorker(cacheOnly);
    }
    if (!job_->done.load(std::memory_order_acquire)) return false;
    takeOver();
    return jit_ != nullptr;
  }

  void startWorker(bool cacheOnly) {
    job_ = std::make_shared<Job>();
    job_->cacheOnly = cacheOnly;
    job_->program = std::make_shared<const ir::Program>(program_);
    job_->makeJit = makeJit_;
    for (size_t g = 0; g < program_.games.size(); ++g) {
      const ir::Game& game = program_.games[g];
      int gi = static_cast<int>(g);
      for (Emitted k : {Emitted::Kernel16, Emitted::Kernel32, Emitted::SearchWide})
        if ((used_[g] >> static_cast<int>(k)) & 1) job_->wanted.push_back({gi, k, -1});
      for (int64_t length = -1; length <= 15; ++length)
        if ((searchLengths_[g] >> (length + 1)) & 1)
          job_->wanted.push_back({gi, Emitted::Search, length});
      if (enumerations_[g] >= kHotEnumerations && jit::emits(game, Emitted::Enumerator))
        job_->wanted.push_back({gi, Emitted::Enumerator, -1});
    }
    busyMillis_ = millisSince(wallStart_);
    if (options_.synchronous) {
      runJob(*job_);
      job_->done.store(true, std::memory_order_release);
      return;
    }
    worker_ = std::thread([job = job_] {
      // Signals (Ctrl-C, the watchdog's timer) go to the main thread.
      sigset_t all;
      sigfillset(&all);
      pthread_sigmask(SIG_BLOCK, &all, nullptr);
      runJob(*job);
      job->done.store(true, std::memory_order_release);
    });
  }

  void takeOver() {
    if (worker_.joinable()) worker_.join();
    Job& job = *job_;
    if (!job.jit && job.cacheOnly) {  // a function not in the cache: compile later
      job_.reset();
      return;
    }
    if (!job.jit) {
      failed_ = true;
      if (log_)
        *log_ += "gdsl: auto: the JIT failed (" + job.error + "); staying on the interpreter\n";
    } else {
      job.jit->rebind(positions_);
      jit_ = std::move(job.jit);
      if (log_)
        *log_ += fmt::format(
            "gdsl: auto: the interpreter ran alone for {:.0f} ms; a worker got {} function{} of "
            "the JIT ready in {:.0f} ms meanwhile; switched to the JIT after {:.0f} ms\n",
            busyMillis_, job.wanted.size(), job.wanted.size() == 1 ? "" : "s", job.millis,
            millisSince(wallStart_));
    }
    job_.reset();  // the copy of the program
  }

  // The JIT, when it has (or now gets) function `what` of `game`; else null,
  // and the interpreter runs the call (a JIT that cannot compile it, say,
  // because the plugin cannot load, is never an error of the game).
  Backend* jitWith(int game, Emitted what, int64_t length) {
    std::string error;
    if (jit_->has(game, what, length) || jit_->prepare(game, what, length, error))
      return jit_.get();
    if (log_ && !compileFailed_)
      *log_ += "gdsl: auto: the JIT failed (" + error + "); the interpreter runs what it lacks\n";
    compileFailed_ = true;
    return nullptr;
  }

  PositionBuilder& positions_;
  const ir::Program& program_;
  Interpreter interpreter_;
  JitFactory makeJit_;
  std::string* log_;
  TieringOptions options_;
  std::chrono::microseconds cpuStart_;
  std::chrono::steady_clock::time_point wallStart_;
  // What the interpreter ran, per game: kernels and wide searches (bit Emitted), native
  // searches (bit 0: integer parameters; bit L + 1: lists of length L), and
  // the count of enumerations.
  std::vector<uint32_t> used_;
  std::vector<uint32_t> searchLengths_;
  std::vector<uint32_t> enumerations_;
  std::vector<bool> jitSearches_;  // per game: the JIT has a native search for it
  uint64_t calls_ = 0;
  uint32_t looks_ = 0;  // looks at the clock skipped (TieringOptions::skipLooks)
  double busyMillis_ = 0;
  std::shared_ptr<Job> job_;
  std::thread worker_;
  std::unique_ptr<jit::JitBackend> jit_;
  bool failed_ = false;
  bool compileFailed_ = false;
  bool cacheTried_ = false;  // the worker that looks in the code cache only has run
};

}  // namespace

std::optional<TierWork> tierWork(const Backend& backend) {
  if (const auto* tiered = dynamic_cast<const TieredBackend*>(&backend)) return tiered->tiers();
  return std::nullopt;
}

std::unique_ptr<Backend> makeTieredBackend(PositionBuilder& positions, JitFactory makeJit,
                                           std::string* log, TieringOptions options) {
  return std::make_unique<TieredBackend>(positions, std::move(makeJit), log, options);
}

}  // namespace gdsl
