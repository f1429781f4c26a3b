// Quotients of one-heap games for misère questions (see GameQuotients.h).
#include "runtime/GameQuotients.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <stdexcept>

#include "compiler/ir/Fingerprint.h"
#include "compiler/support/Interrupt.h"

namespace gdsl {

HeapOptionsFn heapOptionsOf(Engine& engine, int game) {
  return [&engine, game](int64_t n) {
    struct Collect : MoveSink {
      int game = 0;
      int64_t n = 0;
      std::vector<std::vector<int64_t>> options;
      bool onMove(const ir::Move& move, const ir::Frame&,
                  std::span<const Position> components) override {
        std::vector<int64_t> heaps;
        for (const Position& p : components) {
          if (static_cast<int>(p.game) != game || p.words.size() != 1)
            throw RuntimeError(move.loc,
                               fmt::format("rule '{}' of heap {} leaves a position of another "
                                           "game: a quotient needs moves that leave heaps of "
                                           "the same game",
                                           move.label, n));
          if (p.words[0] >= n)
            throw RuntimeError(move.loc,
                               fmt::format("rule '{}' of heap {} leaves heap {}: a quotient needs "
                                           "moves that leave smaller heaps",
                                           move.label, n, p.words[0]));
          heaps.push_back(p.words[0]);
        }
        options.push_back(std::move(heaps));
        return true;
      }
    } collect;
    collect.game = game;
    collect.n = n;
    Position p;
    p.game = static_cast<uint32_t>(game);
    p.words.push_back(n);
    engine.backend().enumerate(p, collect);
    return std::move(collect.options);
  };
}

QuotientOptions quotientOptionsFor(Engine& engine, int game) {
  QuotientOptions o;
  if (std::optional<Engine::ShiftBound> bound = engine.shiftBound(game)) {
    o.take = bound->take;
    o.parts = bound->parts;
    o.minStart = bound->minStart;
    o.evenPeriod = bound->evenPeriod;
  }
  return o;
}

GameQuotients::Entry& GameQuotients::entry(uint32_t game) {
  auto [it, added] = games_.try_emplace(game);
  Entry& e = it->second;
  if (!added) return e;
  const ir::Game& g = engine_.program().games[game];
  if (!g.oneHeap() || g.normalize || g.loopy) {
    e.refused = "not a game of one heap";
    return e;
  }
  e.options = quotientOptionsFor(engine_, static_cast<int>(game));
  e.options.maxOrder = kMaxOrder;
  if (cache_.enabled()) {
    e.cacheKey = QuotientCache::key(engine_.program(), game, e.options);
    e.cached = cache_.load(e.cacheKey);
    if (e.cached) e.result = &*e.cached;
  }
  return e;
}

std::optional<bool> GameQuotients::firstPlayerWins(const Sum& sum) {
  if (sum.empty()) return std::nullopt;
  uint32_t game = sum[0].game;
  int64_t largest = 0;
  for (const Position& p : sum) {
    if (p.game != game || p.words.size() != 1 || p.words[0] < 0) return std::nullopt;
    largest = std::max(largest, p.words[0]);
  }
  Entry& e = entry(game);
  if (!e.refused.empty()) return std::nullopt;
  const QuotientResult* q = e.result;
  if (!q || (!q->finalHeap && q->stopped.empty() && q->lastHeap < largest)) {
    try {
      if (!e.builder)
        e.builder = std::make_unique<QuotientBuilder>(
            heapOptionsOf(engine_, static_cast<int>(game)), e.options);
      q = e.result = &e.builder->extendTo(largest);
      if (!e.cacheKey.empty()) cache_.store(e.cacheKey, *q);
    } catch (const Interrupted&) {
      games_.erase(game);  // half a heap done: start again next time
      throw;
    } catch (const RuntimeError& error) {
      e.refused = error.message;
      return std::nullopt;
    } catch (const std::runtime_error& error) {
      e.refused = error.what();
      return std::nullopt;
    }
  }
  if (!q->finalHeap && q->lastHeap < largest) {
    e.refused = q->stopped;
    return std::nullopt;
  }
  uint32_t x = 0;
  const size_t period = q->period ? static_cast<size_t>(*q->period) : 0;
  for (const Position& p : sum) {
    size_t h = static_cast<size_t>(p.words[0]);
    // Past the heaps computed, a final quotient's Φ repeats (the theorem).
    if (h >= q->phi.size()) h -= (h - q->phi.size()) / period * period + period;
    x = q->quotient.product(x, q->phi[h]);
  }
  ++e.answered;
  return !q->quotient.inP[x];
}

std::string GameQuotients::report() const {
  std::string s;
  for (const auto& [game, e] : games_) {
    const std::string& name = engine_.program().games[game].name;
    if (e.answered > 0 && e.result)
      s += fmt::format(
          "misère: {} sums of {} answered by its quotient (|Q| = {}, {}, heaps 0..{}{})\n",
          e.answered, name, e.result->quotient.size,
          e.result->finalHeap ? "final" : "not proved final", e.result->lastHeap,
          e.cached && e.result == &*e.cached ? ", kept from an earlier run" : "");
    else if (!e.refused.empty())
      s += fmt::format("misère: sums of {} searched: its quotient does not apply ({})\n", name,
                       e.refused);
  }
  return s;
}

}  // namespace gdsl
