// Loopy games: values, sums and the labelling of a position's graph (see
// Loopy.h).
#include "runtime/Loopy.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <tuple>

#include "compiler/support/Diagnostics.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Limits.h"

namespace gdsl {

namespace {

// The listing's marks (LoopySolver::solve): the last move of a position, and
// a position without moves to positions to label.
constexpr uint32_t kLastMove = 0x80000000u;
constexpr uint32_t kNoMoves = UINT32_MAX;

}  // namespace

LoopyValue combine(const LoopyValue& a, const LoopyValue& b) {
  if (!a.infinite && !b.infinite) return LoopyValue::number(a.finite ^ b.finite);
  if (a.infinite && b.infinite) return LoopyValue{true, 0, {}};
  const LoopyValue& inf = a.infinite ? a : b;
  const uint32_t m = a.infinite ? b.finite : a.finite;
  LoopyValue out{true, 0, {}};
  for (uint32_t x : inf.k) out.k.push_back(x ^ m);
  std::sort(out.k.begin(), out.k.end());
  return out;
}

char outcomeOf(const LoopyValue& v) {
  if (!v.infinite) return v.finite == 0 ? 'P' : 'N';
  return std::binary_search(v.k.begin(), v.k.end(), 0u) ? 'N' : 'D';
}

std::string formatLoopy(const LoopyValue& v) {
  if (!v.infinite) return formatNimber(v.finite);
  if (v.k.empty()) return "∞(∅)";
  return fmt::format("∞({})", fmt::join(v.k, ","));
}

LoopySolver::LoopySolver(const ir::Program& program, Backend& backend,
                         std::function<uint32_t(const Sum&)> finiteValue, uint64_t maxStates,
                         ProgressFn progress)
    : program_(program),
      backend_(backend),
      finiteValue_(std::move(finiteValue)),
      maxStates_(maxStates),
      progress_(std::move(progress)),
      table_([&] {
        // Positions of one-parameter games are kept as one word each.
        std::vector<bool> oneWord;
        for (const ir::Game& g : program.games) oneWord.push_back(g.oneHeap());
        return oneWord;
      }()) {}

uint32_t LoopySolver::intern(const Position& position) {
  bool added = false;
  uint32_t id = table_.intern(position, added);
  if (added) {
    labels_.push_back(kUnlabelled);
    counters_.push_back(0);
    // Ids stay below 2^31 whatever --max-states says: solve() marks moves
    // with the high bit.
    if (table_.size() > std::min<uint64_t>(maxStates_, kLastMove - 1))
      throw RuntimeError(SourceRange{}, maxStatesMessage(maxStates_));
  }
  return id;
}

void LoopySolver::optionsOf(uint32_t id, std::vector<Option>& out) {
  // A move to one position of a loopy game is interned as it comes; a sum of
  // positions of other games is copied and valued after the enumeration,
  // since valuing it runs the backend again.
  struct Collect : MoveSink {
    LoopySolver& solver;
    std::vector<Option>& out;
    std::vector<std::tuple<size_t, const ir::Move*, Sum>> sums;  // out's index, the move, the sum
    Collect(LoopySolver& s, std::vector<Option>& o) : solver(s), out(o) {}
    bool onMove(const ir::Move& move, const ir::Frame&,
                std::span<const Position> components) override {
      if (components.size() == 1 && solver.program_.games[components[0].game].loopy) {
        out.push_back(Option{true, solver.intern(components[0]), 0});
      } else {
        sums.emplace_back(out.size(), &move, Sum(components.begin(), components.end()));
        out.push_back(Option{});
      }
      return true;
    }
  } sink(*this, out);
  out.clear();
  const Position position = table_.at(id);
  backend_.enumerate(position, sink);
  for (auto& [at, move, sum] : sink.sums) {
    for (const Position& p : sum)
      if (program_.games[p.game].loopy)
        throw RuntimeError(
            move->loc, fmt::format("{} moves to {}, a sum with a position of a loopy game; a "
                                   "loopy game's move must lead to that position alone",
                                   formatPosition(program_, position), formatSum(program_, sum)));
    out[at].value = sum.empty() ? 0 : finiteValue_(sum);
  }
}

uint32_t LoopySolver::labelledId(const Position& position) {
  uint32_t id = intern(position);
  if (labels_[id] == kUnlabelled) solve();
  return id;
}

LoopyValue LoopySolver::value(const Position& position) {
  return valueOf(labelledId(position));
}

uint64_t LoopySolver::counter(const Position& position) {
  return counters_[labelledId(position)];
}

LoopyValue LoopySolver::valueOf(uint32_t id) {
  if (labels_[id] != kInfinite) return LoopyValue::number(labels_[id]);
  LoopyValue v{true, 0, {}};
  std::vector<Option> options;
  optionsOf(id, options);
  for (const Option& o : options) {
    uint32_t x = o.toPosition ? labels_[o.id] : o.value;
    if (x != kInfinite) v.k.push_back(x);
  }
  std::sort(v.k.begin(), v.k.end());
  v.k.erase(std::unique(v.k.begin(), v.k.end()), v.k.end());
  return v;
}

namespace {

// Progress reports at most ten times a second, and the last one marked
// finished when the work ends (runtime/ProgressFn.h).
class Reporter {
 public:
  explicit Reporter(const ProgressFn& progress) : progress_(progress) {}
  ~Reporter() {
    if (reported_) progress_(what_, "positions", done_, target_, true, -1);
  }
  void operator()(const std::string& what, int64_t done, int64_t target) {
    if (!progress_) return;
    auto now = std::chrono::steady_clock::now();
    if (reported_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    reported_ = true;
    what_ = what;
    done_ = done;
    target_ = target;
    progress_(what, "positions", done, target, false, -1);
  }

 private:
  const ProgressFn& progress_;
  bool reported_ = false;
  std::chrono::steady_clock::time_point last_;
  std::string what_;
  int64_t done_ = 0, target_ = 0;
};

}  // namespace

void LoopySolver::checkRunaway(const std::vector<std::pair<uint32_t, uint64_t>>& chain,
                               uint64_t depth) {
  // The engine's rule (Engine::recordGrowth): the last kRunawaySamples + 1
  // samples along the chain, each larger than the one before.
  const size_t n = chain.size();
  if (n < kRunawaySamples + 1) return;
  for (size_t j = n - kRunawaySamples; j < n; ++j)
    if (chain[j].second <= chain[j - 1].second) return;
  const uint64_t stride = runawayDepth(maxStates_) / kRunawaySamples;
  auto at = [&](size_t i) { return formatPosition(program_, table_.at(chain[i].first)); };
  RuntimeError e(SourceRange{},
                 fmt::format("the positions reachable from {} keep growing: along a chain of {} "
                             "moves from {} to {}, the positions kept getting larger (the sum of "
                             "their parameters, every {} moves); the game looks infinite",
                             at(0), depth - (n - 1 - kRunawaySamples) * stride,
                             at(n - 1 - kRunawaySamples), at(n - 1), stride));
  e.notes.push_back(
      Diagnostic{Severity::Note,
                 fmt::format("a loopy game's search stops a chain of growing positions longer than "
                             "--max-states / 16 ({}); if the game is finite, raise --max-states",
                             runawayDepth(maxStates_)),
                 SourceRange{},
                 {}});
  throw e;
}

void LoopySolver::solve() {
  // The positions to label are the ids from `base` on (local index u is id
  // base + u), more of them interned as their options are listed. Their
  // options: moves to positions to label (`next`), the values of the others
  // (`leaves`: sums of other games and positions labelled before with a
  // number) and the K of those labelled infinite before (`blockers`: such an
  // option blocks label m unless m is in its K).
  const uint32_t base = unsolvedFrom_;
  // u's moves to positions to label: next[first[u]], next[first[u] + 1],
  // ..., the last one marked kLastMove; first[u] is kNoMoves when it has
  // none (until u is listed, its depth: see below).
  MappedArray<uint32_t> first, next;
  std::vector<std::pair<uint32_t, uint32_t>> leaves;                 // u, value
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> blockers;  // u, K
  std::vector<Option> options;
  // Depth first: a position's options are listed right after the position
  // that found them, so that the positions met one after the other are near
  // each other in the table (one chain of moves at a time, not a front of
  // thousands). A stop here leaves the positions interned so far unlabelled,
  // for the next solve.
  std::vector<uint32_t> stack;
  for (uint32_t u = static_cast<uint32_t>(table_.size() - base); u-- > 0;) stack.push_back(u);
  first.resize(table_.size() - base);
  // A position's depth (moves from where the listing started) waits in
  // first[u] until u is listed. The listing follows one chain at a time, so
  // the positions listed last at depths 0, 1, ..., d are the chain to the
  // one listed now at depth d: `chain` samples its ids every `stride` moves,
  // for the runaway check.
  const uint64_t chainLimit = runawayDepth(maxStates_);
  const uint64_t stride = chainLimit / kRunawaySamples;
  std::vector<std::pair<uint32_t, uint64_t>> chain;  // id, size
  const std::string name = program_.games[table_.gameOf(base)].name;
  Reporter report(progress_);
  uint64_t listed = 0;
  while (!stack.empty()) {
    if ((++listed & 1023) == 0) {
      checkInterrupt();
      report(name + ", listing positions", listed, -1);
    }
    const uint32_t u = stack.back();
    stack.pop_back();
    const uint32_t depth = first[u];
    if (depth % stride == 0) {
      const Position p = table_.at(base + u);
      chain.resize(depth / stride + 1);
      chain.back() = {base + u, magnitude({p.words.data(), p.words.size()})};
      if (depth >= chainLimit) checkRunaway(chain, depth);
    }
    const uint32_t known = static_cast<uint32_t>(table_.size() - base);
    optionsOf(base + u, options);
    if (first.size() < table_.size() - base) first.resize(table_.size() - base);
    for (uint32_t v = known; v < table_.size() - base; ++v) first[v] = depth + 1;
    const size_t from = next.size();
    for (const Option& o : options) {
      if (!o.toPosition)
        leaves.emplace_back(u, o.value);
      else if (o.id >= base)
        next.push_back(o.id - base);
      else if (labels_[o.id] == kInfinite)
        blockers.emplace_back(u, valueOf(o.id).k);
      else
        leaves.emplace_back(u, labels_[o.id]);
    }
    if (next.size() == from) {
      first[u] = kNoMoves;
    } else {
      first[u] = static_cast<uint32_t>(from);
      next.back() |= kLastMove;
    }
    for (uint32_t v = static_cast<uint32_t>(table_.size() - base); v-- > known;) stack.push_back(v);
  }
  const uint32_t n = static_cast<uint32_t>(table_.size() - base);
  std::vector<uint32_t>().swap(stack);  // its memory, before the labelling's
  // Calls f(v) for each move of u to a position v to label.
  auto forEachNext = [&](uint32_t u, auto&& f) {
    if (first[u] == kNoMoves) return;
    for (uint32_t e = first[u];; ++e) {
      f(next[e] & ~kLastMove);
      if (next[e] & kLastMove) break;
    }
  };
  // The moves backwards: which positions move to u, prev[prevStart[u] ..
  // prevStart[u + 1]), in the order of the positions moving: each run
  // filled from its start (prevStart[v] the cursor, which ends at the next
  // run's start), then the starts moved back into place.
  MappedArray<uint32_t> prevStart, prev;  // zero-filled, as fresh pages are
  prevStart.resize(n + 1);
  prev.resize(next.size());
  for (uint32_t v : next) ++prevStart[(v & ~kLastMove) + 1];
  for (uint32_t u = 1; u <= n; ++u) prevStart[u] += prevStart[u - 1];
  for (uint32_t u = 0; u < n; ++u) forEachNext(u, [&](uint32_t v) { prev[prevStart[v]++] = u; });
  for (uint32_t u = n; u > 0; --u) prevStart[u] = prevStart[u - 1];
  prevStart[0] = 0;

  // Labels go to labels_ and counters_ (by id) as they are found, and are
  // taken back if the labelling is stopped.
  uint32_t* label = labels_.data() + base;
  uint32_t* order = counters_.data() + base;
  MappedArray<uint32_t> count;
  MappedArray<uint8_t> hasM;  // has an option labelled m
  count.resize(n);
  hasM.resize(n);
  std::vector<uint32_t> queue;
  uint32_t unlabelled = n;
  uint64_t steps = 0;
  auto open = [&](uint32_t v) { return label[v] == kUnlabelled || label[v] == kInfinite; };
  try {
    for (uint32_t m = 0; unlabelled > 0; ++m) {
      report(name + ", labelling", n - unlabelled, n);
      std::fill(hasM.begin(), hasM.end(), 0);
      for (const auto& [u, value] : leaves)
        if (value == m && open(u)) hasM[u] = 1;
      // The options that block u from label m: open, and with no option
      // labelled m (yet).
      for (uint32_t u = 0; u < n; ++u) {
        if (label[u] != kUnlabelled || hasM[u]) continue;
        uint32_t blocking = 0;
        forEachNext(u, [&](uint32_t v) { blocking += open(v) && !hasM[v]; });
        count[u] = blocking;
      }
      for (const auto& [u, k] : blockers)
        if (label[u] == kUnlabelled && !hasM[u])
          count[u] += !std::binary_search(k.begin(), k.end(), m);
      queue.clear();
      for (uint32_t u = 0; u < n; ++u)
        if (label[u] == kUnlabelled && !hasM[u] && count[u] == 0) queue.push_back(u);
      while (!queue.empty()) {
        if ((++steps & 4095) == 0) {
          checkInterrupt();
          report(name + ", labelling", n - unlabelled, n);
        }
        uint32_t u = queue.back();
        queue.pop_back();
        if (label[u] != kUnlabelled || hasM[u] || count[u] != 0) continue;
        label[u] = m;
        order[u] = static_cast<uint32_t>(labelled_ + n - unlabelled + 1);
        --unlabelled;
        // Each open position moving to u has an option labelled m now, and
        // blocks no one any more.
        for (uint32_t e = prevStart[u]; e < prevStart[u + 1]; ++e) {
          uint32_t p = prev[e];
          if (hasM[p] || !open(p)) continue;
          hasM[p] = 1;
          for (uint32_t f = prevStart[p]; f < prevStart[p + 1]; ++f) {
            uint32_t q = prev[f];
            if (label[q] == kUnlabelled && !hasM[q] && --count[q] == 0) queue.push_back(q);
          }
        }
      }
      for (uint32_t u = 0; u < n; ++u)
        if (label[u] == kUnlabelled && !hasM[u]) {
          label[u] = kInfinite;
          --unlabelled;
        }
    }
  } catch (...) {
    std::fill(label, label + n, kUnlabelled);
    std::fill(order, order + n, 0);
    throw;
  }
  labelled_ += n;
  unsolvedFrom_ = static_cast<uint32_t>(table_.size());
}

}  // namespace gdsl
