// Recognises positions that are nim heaps by structure. A position whose options
// are exactly *0, *1, ..., *(k-1) (up to duplicates) is the game *k itself, since
// games are identified by their option sets, so it can stand for the nim heap k in
// misère play as well as in normal play. Used by the misère search
// (runtime/Misere.h); explicit stack, memoized, bounded.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "runtime/Engine.h"

namespace gdsl {

// What one call of NimShape::of may explore before it gives up. `positions = 0`
// turns the recognition off: only terminal positions are *0.
struct NimShapeLimits {
  uint64_t positions = 100'000;  // positions newly classified
  uint64_t moves = 4'000'000;    // moves enumerated
};

class NimShape {
 public:
  static constexpr int64_t kNotNim = -1;

  explicit NimShape(Engine& engine, NimShapeLimits limits = {})
      : engine_(engine), limits_(limits) {}

  // k when `position` is identical to *k (a terminal position is *0); kNotNim when
  // it is not a nim heap, or when telling would pass the limits. Throws
  // RuntimeError when a position can reach itself (with the cycle) and for errors
  // in the rules.
  int64_t of(const Position& position);

  uint64_t classified() const { return shapes_.size(); }
  uint64_t nimHeaps() const { return nimHeaps_; }
  uint64_t gaveUp() const { return gaveUp_; }

 private:
  static constexpr int64_t kInProgress = -2;

  Engine& engine_;
  NimShapeLimits limits_;
  std::unordered_map<Position, int64_t, PositionHash> shapes_;
  uint64_t nimHeaps_ = 0;
  uint64_t gaveUp_ = 0;
};

}  // namespace gdsl
