// Loopy games: values, sums and the labelling of a position's graph (see
// Loopy.h).
#include "runtime/Loopy.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/support/Diagnostics.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Limits.h"

namespace gdsl {

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
                         std::function<uint32_t(const Sum&)> finiteValue, uint64_t maxStates)
    : program_(program),
      backend_(backend),
      finiteValue_(std::move(finiteValue)),
      maxStates_(maxStates),
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
    if (table_.size() > maxStates_) throw RuntimeError(SourceRange{}, maxStatesMessage(maxStates_));
  }
  return id;
}

std::vector<LoopySolver::Option> LoopySolver::optionsOf(uint32_t id) {
  // The successors are copied during the enumeration and valued after it.
  struct Collect : MoveSink {
    std::vector<std::pair<const ir::Move*, Sum>> successors;
    bool onMove(const ir::Move& move, const ir::Frame&,
                std::span<const Position> components) override {
      successors.emplace_back(&move, Sum(components.begin(), components.end()));
      return true;
    }
  } sink;
  const Position position = table_.at(id);
  backend_.enumerate(position, sink);
  std::vector<Option> out;
  out.reserve(sink.successors.size());
  for (auto& [move, sum] : sink.successors) {
    size_t loopy = 0;
    for (const Position& p : sum) loopy += program_.games[p.game].loopy;
    Option o;
    if (loopy == 0) {
      o.value = sum.empty() ? 0 : finiteValue_(sum);
    } else if (sum.size() == 1) {
      o.toPosition = true;
      o.id = intern(sum[0]);
    } else {
      throw RuntimeError(move->loc,
                         fmt::format("{} moves to {}, a sum with a position of a loopy game; a "
                                     "loopy game's move must lead to that position alone",
                                     formatPosition(program_, position), formatSum(program_, sum)));
    }
    out.push_back(o);
  }
  return out;
}

uint32_t LoopySolver::labelledId(const Position& position) {
  uint32_t id = intern(position);
  if (labels_[id] == kUnlabelled) solve(id);
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
  for (const Option& o : optionsOf(id)) {
    uint32_t x = o.toPosition ? labels_[o.id] : o.value;
    if (x != kInfinite) v.k.push_back(x);
  }
  std::sort(v.k.begin(), v.k.end());
  v.k.erase(std::unique(v.k.begin(), v.k.end()), v.k.end());
  return v;
}

void LoopySolver::solve(uint32_t root) {
  // The positions to label, by local index, and their options: moves to
  // positions to label (`next`), the values of the others (`leaves`: sums of
  // other games and positions labelled before with a number) and the K of
  // those labelled infinite before (`blockers`: such an option blocks label
  // m unless m is in its K).
  std::vector<uint32_t> ids{root};
  std::vector<uint32_t> local;  // by id: local index + 1, 0 for none
  auto localOf = [&](uint32_t id) -> uint32_t& {
    if (local.size() <= id) local.resize(std::max<size_t>(id + 1, 2 * local.size()), 0);
    return local[id];
  };
  localOf(root) = 1;
  std::vector<uint32_t> nextStart{0}, next, leafStart{0}, leaves, blockerStart{0};
  std::vector<std::vector<uint32_t>> blockers;
  for (size_t u = 0; u < ids.size(); ++u) {
    if ((u & 1023) == 0) checkInterrupt();
    for (const Option& o : optionsOf(ids[u])) {
      if (!o.toPosition) {
        leaves.push_back(o.value);
      } else if (labels_[o.id] == kInfinite) {
        blockers.push_back(valueOf(o.id).k);
      } else if (labels_[o.id] != kUnlabelled) {
        leaves.push_back(labels_[o.id]);
      } else {
        uint32_t& l = localOf(o.id);
        if (l == 0) {
          ids.push_back(o.id);
          l = static_cast<uint32_t>(ids.size());
        }
        next.push_back(l - 1);
      }
    }
    nextStart.push_back(static_cast<uint32_t>(next.size()));
    leafStart.push_back(static_cast<uint32_t>(leaves.size()));
    blockerStart.push_back(static_cast<uint32_t>(blockers.size()));
  }
  const size_t n = ids.size();
  // The moves backwards: which positions move to u.
  std::vector<uint32_t> prevStart(n + 1, 0), prev(next.size());
  for (uint32_t v : next) ++prevStart[v + 1];
  for (size_t u = 0; u < n; ++u) prevStart[u + 1] += prevStart[u];
  {
    std::vector<uint32_t> fill(prevStart.begin(), prevStart.end() - 1);
    for (size_t u = 0; u < n; ++u)
      for (uint32_t e = nextStart[u]; e < nextStart[u + 1]; ++e)
        prev[fill[next[e]]++] = static_cast<uint32_t>(u);
  }

  std::vector<uint32_t> label(n, kUnlabelled), count(n, 0), queue;
  std::vector<uint64_t> order(n, 0);  // see counter()
  std::vector<uint8_t> hasM(n, 0);    // has an option labelled m
  size_t unlabelled = n;
  uint64_t steps = 0;
  auto open = [&](uint32_t v) { return label[v] == kUnlabelled || label[v] == kInfinite; };
  for (uint32_t m = 0; unlabelled > 0; ++m) {
    for (size_t u = 0; u < n; ++u) {
      hasM[u] = 0;
      if (!open(static_cast<uint32_t>(u))) continue;
      for (uint32_t e = leafStart[u]; e < leafStart[u + 1] && !hasM[u]; ++e)
        hasM[u] = leaves[e] == m;
    }
    // The options that block u from label m: open, and with no option
    // labelled m (yet).
    queue.clear();
    for (size_t u = 0; u < n; ++u) {
      if (label[u] != kUnlabelled || hasM[u]) continue;
      uint32_t blocking = 0;
      for (uint32_t e = nextStart[u]; e < nextStart[u + 1]; ++e)
        blocking += open(next[e]) && !hasM[next[e]];
      for (uint32_t e = blockerStart[u]; e < blockerStart[u + 1]; ++e)
        blocking += !std::binary_search(blockers[e].begin(), blockers[e].end(), m);
      count[u] = blocking;
      if (blocking == 0) queue.push_back(static_cast<uint32_t>(u));
    }
    while (!queue.empty()) {
      if ((++steps & 4095) == 0) checkInterrupt();
      uint32_t u = queue.back();
      queue.pop_back();
      if (label[u] != kUnlabelled || hasM[u] || count[u] != 0) continue;
      label[u] = m;
      order[u] = labelled_ + n - unlabelled + 1;
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
    for (size_t u = 0; u < n; ++u)
      if (label[u] == kUnlabelled && !hasM[u]) {
        label[u] = kInfinite;
        --unlabelled;
      }
  }
  for (size_t u = 0; u < n; ++u) {
    labels_[ids[u]] = label[u];
    counters_[ids[u]] = order[u];
  }
  labelled_ += n;
}

}  // namespace gdsl
