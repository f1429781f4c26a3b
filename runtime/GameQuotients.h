// Misère quotients of a program's one-heap games, computed from their moves
// when a misère question needs them (runtime/Misere.h asks first), and kept
// per game, so that `eval misere` of a sum of heaps of one game is a product
// in the quotient and a look-up in its P-portion (docs/misere.md,
// "Quotients in eval misere").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "runtime/Engine.h"
#include "runtime/MisereQuotient.h"
#include "runtime/QuotientCache.h"

namespace gdsl {

// Heap n's options as heaps of `game`, read from the engine's backend. Throws
// RuntimeError when a move leaves a position of another game, or a heap that
// is not smaller.
HeapOptionsFn heapOptionsOf(Engine& engine, int game);

// The quotient options for `game`: the periodicity theorem's bound when the
// engine knows the game as take-and-break (Engine::shiftBound).
QuotientOptions quotientOptionsFor(Engine& engine, int game);

class GameQuotients {
 public:
  // Quotients larger than this are not used by eval misere: the search runs.
  static constexpr uint32_t kMaxOrder = 1024;

  // `cacheDirectory`: where quotients are kept between runs (runtime/QuotientCache.h;
  // "" for none).
  GameQuotients(Engine& engine, std::string cacheDirectory)
      : engine_(engine), cache_(std::move(cacheDirectory)) {}

  // Whether the player to move wins `sum` in misère play, from the quotient,
  // when every component is a heap of one game whose quotient reaches the
  // largest heap (computed now, as far as that heap, if need be); nothing
  // when the quotient does not apply.
  std::optional<bool> firstPlayerWins(const Sum& sum);
  // For --verbose: the quotients used and how many sums each answered.
  std::string report() const;

 private:
  struct Entry {
    QuotientOptions options;
    std::string cacheKey;
    std::optional<QuotientResult> cached;      // read from the cache
    std::unique_ptr<QuotientBuilder> builder;  // made when the cached one is not enough
    const QuotientResult* result = nullptr;
    std::string refused;  // why the quotient does not apply to this game
    uint64_t answered = 0;
  };
  Entry& entry(uint32_t game);

  Engine& engine_;
  QuotientCache cache_;
  std::unordered_map<uint32_t, Entry> games_;
};

}  // namespace gdsl
