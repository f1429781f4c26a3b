// What an integer computed from a board's cells is, bit by bit: each of its
// 64 bits a constant or one cell of the board, maybe negated. The cell-move
// analysis (CellMoves.cpp) evaluates a move's guards and successor this way,
// so that it sees what they need and clear however they are written:
// `(b >> v) & 3 == 3`, `b & (1 << v) != 0`, `(b / 2 ** v) % 2 == 1`,
// `b & ~(3 << v)` and `b ^ (b & X)` all come to bits of b and constants. An
// operation whose result is not of that form (the and of two different
// cells, a carry that ripples) has no CellBits, and the game is searched
// whole.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace gdsl::ir {

// One bit: 0, 1, cell c (2 + 2c) or not cell c (3 + 2c), for c in 0..62.
using CellBit = uint8_t;
inline constexpr CellBit kBit0 = 0;
inline constexpr CellBit kBit1 = 1;
inline constexpr CellBit cellBit(int cell) {
  return static_cast<CellBit>(2 + 2 * cell);
}
inline constexpr bool isConstBit(CellBit b) {
  return b < 2;
}
inline constexpr int cellOf(CellBit b) {
  return (b - 2) / 2;
}
inline constexpr bool isNegated(CellBit b) {
  return (b & 1) != 0;
}
inline constexpr CellBit notBit(CellBit b) {
  return static_cast<CellBit>(b ^ 1);
}

inline std::optional<CellBit> andBits(CellBit x, CellBit y) {
  if (x == kBit0 || y == kBit0 || x == notBit(y)) return kBit0;
  if (x == kBit1 || x == y) return y;
  if (y == kBit1) return x;
  return std::nullopt;  // two different cells
}
inline std::optional<CellBit> orBits(CellBit x, CellBit y) {
  if (x == kBit1 || y == kBit1 || x == notBit(y)) return kBit1;
  if (x == kBit0 || x == y) return y;
  if (y == kBit0) return x;
  return std::nullopt;
}
inline std::optional<CellBit> xorBits(CellBit x, CellBit y) {
  if (x == y) return kBit0;
  if (x == notBit(y)) return kBit1;
  if (x == kBit0) return y;
  if (y == kBit0) return x;
  if (x == kBit1) return notBit(y);
  if (y == kBit1) return notBit(x);
  return std::nullopt;
}

// A 64-bit integer (two's complement), bit 0 first.
struct CellWord {
  std::array<CellBit, 64> bit{};

  static CellWord constant(int64_t v) {
    CellWord w;
    for (int i = 0; i < 64; ++i)
      w.bit[i] = static_cast<CellBit>((static_cast<uint64_t>(v) >> i) & 1);
    return w;
  }
  // The board itself: cell i in bit i, where the cells of `known` (needed
  // by a guard already passed) are known to be set; bit 63 is 0 (a board
  // that splits is never negative).
  static CellWord board(uint64_t known) {
    CellWord w;
    for (int i = 0; i < 63; ++i) w.bit[i] = (known >> i) & 1 ? kBit1 : cellBit(i);
    w.bit[63] = kBit0;
    return w;
  }
  bool nonNegative() const { return bit[63] == kBit0; }
  std::optional<int64_t> value() const {
    uint64_t v = 0;
    for (int i = 0; i < 64; ++i) {
      if (!isConstBit(bit[i])) return std::nullopt;
      v |= uint64_t{bit[i]} << i;
    }
    return static_cast<int64_t>(v);
  }
};

}  // namespace gdsl::ir
