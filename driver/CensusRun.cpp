// Running a census (see Census.h): the games not yet in the database, the
// longest first when an earlier run gives their cost, each computed in a
// forked process of its own (its peak memory is then its own, and a crash or
// a runaway game costs only that game), --jobs at a time. Under mpirun, rank
// 0 is the coordinator: it runs games in its own slots like a local census,
// hands the other ranks' slots one game at a time, and alone writes the
// database; the other ranks only compute. Messages (driver/Mpi.h) are JSON:
//   worker -> 0  kHello   {"slots": J, "games": count, "digest": ...} or {"error": ...}
//   0 -> worker  kWork    {"game": index, "key": ...}   or kNoMore {}
//   worker -> 0  kResult  {"game": index, "line": ..., "status": ..., "peak_kib": ...}
// Each kResult also frees the slot, which 0 answers with kWork or kNoMore.
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "driver/Census.h"
#include "driver/Mpi.h"
#include "runtime/StopSignals.h"

namespace gdsl {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kHello = 1, kWork = 2, kNoMore = 3, kResult = 4;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string describe(const CensusRow& r) {
  if (!r.period) return fmt::format("no period among heaps 0..{}", r.checkedTo);
  std::string s = fmt::format("period {} from {}", *r.period, *r.preperiod);
  if (*r.saltus != 0) s += fmt::format(", saltus {}", *r.saltus);
  return s + (r.proved ? fmt::format(", proved at heap {}", *r.proofHeap) : ", not proved");
}

std::string checkpointPath(const std::string& db, const CensusGame& g) {
  std::string safe;
  for (char c : g.key) safe += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return db + ".checkpoints/" + safe + "-" + g.rules + ".ckpt";
}

// A game whose process ended: what it wrote (one JSON line), how it ended
// (a wait status) and its peak memory.
struct Finished {
  size_t game = 0;
  std::string line;
  int status = 0;
  int64_t peakKib = 0;
};

// The games running in this process's slots, each in a forked child that
// writes its row (or its error) as one JSON line to a pipe.
class LocalGames {
 public:
  LocalGames(const std::vector<CensusGame>& games, const CensusOptions& options)
      : games_(games), options_(options) {}

  size_t running() const { return running_.size(); }

  bool start(size_t game, std::string& error) {
    int fds[2];
    if (pipe(fds) != 0) {
      error = std::string("cannot make a pipe: ") + std::strerror(errno);
      return false;
    }
    std::cout.flush();
    std::cerr.flush();
    pid_t pid = fork();
    if (pid < 0) {
      error = std::string("cannot start a process: ") + std::strerror(errno);
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    if (pid == 0) {
      close(fds[0]);
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed census leaves no game running
      signal(SIGINT, SIG_DFL);           // the coordinator's handlers are not the game's
      signal(SIGTERM, SIG_DFL);
      compute(games_[game], fds[1]);
    }
    close(fds[1]);
    running_[pid] = {game, fds[0]};
    return true;
  }

  // A game that ended, waiting for one when `block`.
  std::optional<Finished> reap(bool block) {
    while (!running_.empty()) {
      int status = 0;
      rusage usage{};
      pid_t pid = wait4(-1, &status, block ? 0 : WNOHANG, &usage);
      if (pid == 0) return std::nullopt;
      if (pid < 0) return std::nullopt;  // EINTR: a signal the caller looks at
      auto it = running_.find(pid);
      if (it == running_.end()) continue;
      Finished f;
      f.game = it->second.game;
      f.line = readAll(it->second.fd);
      f.status = status;
      f.peakKib = usage.ru_maxrss;
      running_.erase(it);
      return f;
    }
    return std::nullopt;
  }

  // Ends every game running (SIGKILL) and waits for them; their rows are lost.
  void stopAll() {
    for (auto& [pid, child] : running_) kill(pid, SIGKILL);
    for (auto& [pid, child] : running_) {
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      close(child.fd);
    }
    running_.clear();
  }

 private:
  struct Child {
    size_t game;
    int fd;
  };

  [[noreturn]] void compute(const CensusGame& game, int fd) {
    CensusRow row;
    std::string why;
    nlohmann::json j;
    if (computeCensusGame(game, options_.to, checkpointPath(options_.db, game), options_.backend,
                          options_.version, row, why, options_.quotient))
      j = censusRowJson(row);
    else
      j = {{"error", why.substr(0, 16000)}};
    std::string line = j.dump() + "\n";
    for (size_t at = 0; at < line.size();) {
      ssize_t n = write(fd, line.data() + at, line.size() - at);
      if (n <= 0) _exit(1);
      at += static_cast<size_t>(n);
    }
    _exit(0);
  }

  static std::string readAll(int fd) {
    std::string out;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) out.append(buffer, static_cast<size_t>(n));
    close(fd);
    return out;
  }

  const std::vector<CensusGame>& games_;
  const CensusOptions& options_;
  std::map<pid_t, Child> running_;
};

// Progress on standard error: a line per game, or a bar on a terminal.
class CensusProgress {
 public:
  explicit CensusProgress(size_t total) : total_(total), bar_(isatty(2)) {}
  void finished(const std::string& line) {
    ++done_;
    if (!bar_) {
      std::cerr << fmt::format("census: [{}/{}] {}\n", done_, total_, line);
      return;
    }
    double elapsed = secondsSince(start_);
    double left = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
    size_t width = 30, filled = total_ ? width * done_ / total_ : width;
    std::cerr << fmt::format("\r[{}{}] {}/{} games, {:.0f} s, about {:.0f} s left   ",
                             std::string(filled, '#'), std::string(width - filled, ' '), done_,
                             total_, elapsed, left);
    if (done_ == total_) std::cerr << "\n";
  }
  void failed(const std::string& line) {
    if (bar_) std::cerr << "\n";
    std::cerr << "gdsl: census: " << line << "\n";
  }

 private:
  size_t total_, done_ = 0;
  bool bar_;
  Clock::time_point start_ = Clock::now();
};

// What every rank must agree on: the games, in order.
std::string gamesDigest(const std::vector<CensusGame>& games) {
  uint64_t h = 1469598103934665603ull;
  for (const CensusGame& g : games)
    for (char c : g.key + "\n" + g.rules + "\n")
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

bool inShard(size_t i, const CensusOptions& o) {
  return static_cast<int>(i % static_cast<size_t>(o.shardCount)) == o.shardIndex - 1;
}

// Rank 0, or the only process: hands out games and writes their rows.
class Coordinator {
 public:
  Coordinator(const std::vector<CensusGame>& games, const CensusOptions& o, CensusDb& db,
              MpiLink* mpi)
      : games_(games), o_(o), db_(db), mpi_(mpi), local_(games, o) {}

  int run() {
    auto start = Clock::now();
    std::string error;
    if (!plan(error)) {
      std::cerr << "gdsl: " << error << "\n";
      return 1;
    }
    CensusProgress progress(todo_.size());
    progress_ = &progress;
    int workers = mpi_ ? mpi_->size() - 1 : 0;
    while (next_ < todo_.size() || local_.running() || remoteRunning_ || hellos_ < workers ||
           openSlots_ > 0) {
      if (int signal = StopSignals::received()) return stop(signal);
      while (next_ < todo_.size() && static_cast<int>(local_.running()) < o_.jobs) {
        if (!local_.start(todo_[next_], error)) return fatal(error);
        ++next_;
      }
      bool progressed = false;
      bool blockLocal = !mpi_ || workers == 0;
      while (std::optional<Finished> f = local_.reap(blockLocal && !progressed)) {
        progressed = true;
        if (!record(*f)) return 1;
        if (next_ < todo_.size() && static_cast<int>(local_.running()) < o_.jobs) break;
      }
      if (mpi_)
        while (std::optional<MpiMessage> m = mpi_->poll()) {
          progressed = true;
          if (!answer(*m)) return 1;
        }
      if (!progressed && !blockLocal) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    summarize(secondsSince(start));
    return failures_ ? 1 : 0;
  }

 private:
  // This shard's games, less those done to N, the longest first.
  bool plan(std::string& error) {
    std::set<std::pair<std::string, std::string>> done = db_.done(o_.to, error);
    if (!error.empty()) return false;
    if (o_.quotient.maxHeap > 0) {  // done only with a quotient under these limits
      std::set<std::pair<std::string, std::string>> quotients =
          db_.quotientsDone(o_.quotient.maxHeap, o_.quotient.seconds, error);
      if (!error.empty()) return false;
      std::erase_if(done, [&](const auto& key) { return !quotients.count(key); });
    }
    std::map<std::pair<std::string, std::string>, double> cost;
    for (auto& [key, seconds] : db_.costs(error)) cost[key] = seconds;
    if (!error.empty()) return false;
    for (size_t i = 0; i < games_.size(); ++i) {
      if (!inShard(i, o_)) continue;
      ++inShard_;
      if (done.count({games_[i].key, games_[i].rules}))
        ++skipped_;
      else
        todo_.push_back(i);
    }
    auto costOf = [&](size_t i) {
      auto it = cost.find({games_[i].key, games_[i].rules});
      return it == cost.end() ? -1.0 : it->second;
    };
    std::stable_sort(todo_.begin(), todo_.end(),
                     [&](size_t a, size_t b) { return costOf(a) > costOf(b); });
    return true;
  }

  // A message from a worker rank.
  bool answer(const MpiMessage& m) {
    nlohmann::json j = nlohmann::json::parse(m.data, nullptr, false);
    if (m.tag == kHello) {
      ++hellos_;
      if (j.is_object() && j.contains("error")) {
        std::cerr << fmt::format("gdsl: census: rank {}: {}\n", m.from,
                                 j["error"].get<std::string>());
        mpi_->abortAll(1);
      }
      if (!j.is_object() || j.value("digest", "") != gamesDigest(games_)) {
        std::cerr << fmt::format(
            "gdsl: census: rank {} sees other games than rank 0 (another FAMILY, file or gdsl "
            "on its machine)\n",
            m.from);
        mpi_->abortAll(1);
      }
      int slots = j.value("slots", 1);
      openSlots_ += slots;
      for (int s = 0; s < slots; ++s) handOut(m.from);
      return true;
    }
    if (m.tag == kResult) {
      --remoteRunning_;
      Finished f;
      try {
        f.game = j.at("game").get<size_t>();
        f.line = j.at("line").get<std::string>();
        f.status = j.at("status").get<int>();
        f.peakKib = j.at("peak_kib").get<int64_t>();
      } catch (const nlohmann::json::exception&) {
        std::cerr << fmt::format("gdsl: census: rank {} sent a damaged result\n", m.from);
        mpi_->abortAll(1);
      }
      if (!record(f)) return false;
      handOut(m.from);
      return true;
    }
    return true;
  }

  // A free slot of rank `to`: the next game, or no more.
  void handOut(int to) {
    if (next_ < todo_.size()) {
      size_t game = todo_[next_++];
      mpi_->send(to, kWork, nlohmann::json{{"game", game}, {"key", games_[game].key}}.dump());
      ++remoteRunning_;
    } else {
      mpi_->send(to, kNoMore, "{}");
      --openSlots_;
    }
  }

  // A finished game's row into the database, or its failure reported.
  bool record(const Finished& f) {
    const CensusGame& game = games_[f.game];
    nlohmann::json j = nlohmann::json::parse(f.line, nullptr, false);
    if (!WIFEXITED(f.status) || WEXITSTATUS(f.status) != 0 || j.is_discarded() || !j.is_object()) {
      ++failures_;
      progress_->failed(fmt::format("{}: the process computing it {}", game.key,
                                    WIFSIGNALED(f.status)
                                        ? fmt::format("was killed by signal {}", WTERMSIG(f.status))
                                        : "failed"));
      return true;
    }
    if (j.contains("error")) {
      ++failures_;
      progress_->failed(fmt::format("{}: {}", game.key, j["error"].get<std::string>()));
      return true;
    }
    CensusRow row = censusRowFromJson(j);
    row.peakKib = f.peakKib;
    std::string error;
    if (!db_.insert(row, error) ||
        (row.quotient && !db_.insertQuotient(row.game, row.rules, *row.quotient, error))) {
      std::cerr << "gdsl: cannot write to the database '" << o_.db << "': " << error << "\n";
      if (mpi_) mpi_->abortAll(1);
      return false;
    }
    progress_->finished(fmt::format(
        "{} to {}: {} ({:.2f} s){}", row.game, row.n, describe(row), row.seconds,
        row.quotient ? fmt::format("; misère quotient {} ({:.2f} s)",
                                   describeQuotient(*row.quotient), row.quotient->seconds)
                     : std::string()));
    return true;
  }

  // After SIGINT or SIGTERM: the games running end, the rows written stay.
  int stop(int signal) {
    size_t stopped = local_.running();
    local_.stopAll();
    std::cerr << fmt::format(
        "\ngdsl: census stopped by {}: {} games ended before they finished, the rows written "
        "are kept; run the same command again to resume\n",
        StopSignals::name(signal), stopped);
    return 128 + signal;
  }

  int fatal(const std::string& error) {
    std::cerr << "gdsl: " << error << "\n";
    if (mpi_) mpi_->abortAll(1);
    return 1;
  }

  // The summary of this shard's rows.
  void summarize(double seconds) {
    std::vector<CensusRow> rows;
    std::string error;
    db_.rows(rows, false, error);
    std::set<std::pair<std::string, std::string>> mine;
    for (size_t i = 0; i < games_.size(); ++i)
      if (inShard(i, o_)) mine.insert({games_[i].key, games_[i].rules});
    std::erase_if(rows, [&](const CensusRow& r) {
      return r.n != o_.to || !mine.count({r.game, r.rules});
    });
    std::cerr << fmt::format(
        "census: {} games to {} in {:.1f} s ({} computed, {} already in "
        "'{}'): {}{}\n",
        inShard_, o_.to, seconds, todo_.size() - static_cast<size_t>(failures_), skipped_, o_.db,
        censusCounts(rows), failures_ ? fmt::format("; {} failed", failures_) : std::string());
  }

  const std::vector<CensusGame>& games_;
  const CensusOptions& o_;
  CensusDb& db_;
  MpiLink* mpi_;
  LocalGames local_;
  CensusProgress* progress_ = nullptr;
  std::vector<size_t> todo_;
  size_t next_ = 0, inShard_ = 0, skipped_ = 0;
  int failures_ = 0, hellos_ = 0, openSlots_ = 0, remoteRunning_ = 0;
};

// A rank other than 0: computes the games rank 0 hands it, --jobs at a time.
int work(const std::vector<CensusGame>& games, const CensusOptions& o, MpiLink& mpi) {
  LocalGames local(games, o);
  mpi.send(
      0, kHello,
      nlohmann::json{{"slots", o.jobs}, {"games", games.size()}, {"digest", gamesDigest(games)}}
          .dump());
  int closed = 0;
  while (closed < o.jobs || local.running()) {
    bool progressed = false;
    while (std::optional<Finished> f = local.reap(false)) {
      progressed = true;
      mpi.send(
          0, kResult,
          nlohmann::json{
              {"game", f->game}, {"line", f->line}, {"status", f->status}, {"peak_kib", f->peakKib}}
              .dump());
    }
    while (std::optional<MpiMessage> m = mpi.poll()) {
      progressed = true;
      if (m->tag == kNoMore) {
        ++closed;
        continue;
      }
      nlohmann::json j = nlohmann::json::parse(m->data, nullptr, false);
      size_t game = j.is_object() ? j.value("game", games.size()) : games.size();
      std::string error;
      if (game >= games.size() || j.value("key", "") != games[game].key) {
        std::cerr << fmt::format("gdsl: census: rank {}: rank 0 sent a game it does not know\n",
                                 mpi.rank());
        mpi.abortAll(1);
      }
      if (!local.start(game, error)) {
        std::cerr << fmt::format("gdsl: census: rank {}: {}\n", mpi.rank(), error);
        mpi.abortAll(1);
      }
    }
    if (!progressed) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

}  // namespace

int runCensus(const CensusOptions& options) {
  CensusOptions o = options;
  std::unique_ptr<MpiLink> mpi;
  std::string error;
  if (MpiLink::launched()) {
    mpi = MpiLink::start(error);
    if (!mpi) {
      std::cerr << "gdsl: " << error << "\n";
      return 1;
    }
    if (mpi->size() == 1) mpi.reset();  // one rank: a census of this machine
  }
  if (o.jobs == 0) o.jobs = mpi ? 1 : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  std::vector<CensusGame> games;
  bool usageError = false;
  if (!censusGames(o.family, games, usageError, error)) {
    if (error.empty() || error.back() != '\n') error += "\n";
    if (mpi && mpi->rank() != 0) {
      mpi->send(0, kHello, nlohmann::json{{"error", error}}.dump());
      for (;;) pause();  // rank 0 reports it and ends the run
    }
    std::cerr << "gdsl: " << error;
    if (mpi) mpi->abortAll(usageError ? 2 : 1);
    return usageError ? 2 : 1;
  }
  if (mpi && mpi->rank() != 0) return work(games, o, *mpi);
  std::unique_ptr<CensusDb> db = CensusDb::open(o.db, CensusDb::Access::Write, error);
  if (!db) {
    std::cerr << "gdsl: " << error << "\n";
    if (mpi) mpi->abortAll(1);
    return 1;
  }
  // SIGINT or SIGTERM without MPI (mpirun handles its own): the coordinator
  // starts no more games, ends those running (their checkpoints hold all but
  // their last seconds), keeps every row written and exits with 128 + the
  // signal. Calls are not restarted, so that a wait for a game returns.
  StopSignals signals(!mpi, false);
  return Coordinator(games, o, *db, mpi.get()).run();
}

}  // namespace gdsl
