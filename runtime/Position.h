// Positions of the runtime: a game id plus its parameters flattened into
// 64-bit words (an int is one word; a list is its length then its elements).
// A position in a sum is a component; a sum is a list of components.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl {

struct Position {
  uint32_t game = 0;
  std::vector<int64_t> words;

  bool operator==(const Position& o) const { return game == o.game && words == o.words; }
  bool operator<(const Position& o) const {
    return game != o.game ? game < o.game : words < o.words;
  }
};

struct PositionHash {
  size_t operator()(const Position& p) const {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ p.game;
    for (int64_t w : p.words) {
      h ^= static_cast<uint64_t>(w) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xFF51AFD7ED558CCDull;
    }
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

using Sum = std::vector<Position>;

// "Cut(2, 3)", "Moore([1, 2])".
std::string formatPosition(const ir::Program& program, const Position& position);
// "Sub(4) + Sub(5)"; "0" for the empty sum.
std::string formatSum(const ir::Program& program, const Sum& sum);
// The error for a position with a negative parameter ("successor" inside a
// move, "position" in a statement), or "" when every parameter is >= 0.
std::string negativeParameterText(const ir::Program& program, const Position& position,
                                  const char* what);
// A nim value as written in gdsl: 0, *1, *2, ...
std::string formatNimber(uint64_t value);

}  // namespace gdsl
