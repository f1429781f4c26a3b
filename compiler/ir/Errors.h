// The runtime errors of IR expressions, as codes with one text each, so that
// the interpreter and the JIT report exactly the same message.
#pragma once

#include <cstdint>
#include <string>

namespace gdsl::ir {

enum class ErrorCode : int32_t {
  Overflow,     // a, b, and the operator in `op`
  NegOverflow,  // a
  AbsOverflow,  // a
  DivisionByZero,
  ModByZero,
  ShiftTooFar,    // a << b, for 0 <= b
  NegativeShift,  // b, in a << b or a >> b
  EmptyMin,
  EmptyMax,
  IndexOutOfRange,  // index a, size b
  RangeTooLarge,    // the range a..b
  SetTooLarge,
  NegativeExponent,     // b, in a ** b
  NegativeBits,         // a, in bits(a)
  ListTooLong,          // a comprehension's list past kMaxSetLength elements
  PositionListTooLong,  // a, the length of a list given to a game
};

// The longest list `set` copies (a longer one is SetTooLarge).
inline constexpr int64_t kMaxSetLength = int64_t{1} << 24;

// The longest list a position holds (a longer one is PositionListTooLong): a
// position is copied, hashed and stored word by word, so a range such as
// 0..10 ** 9 given to a game is refused before it is copied.
inline constexpr int64_t kMaxPositionList = int64_t{1} << 24;

// `op` is the operator's spelling for Overflow ("+", "-", "*", "/", "**").
std::string errorText(ErrorCode code, int64_t a, int64_t b, const char* op = "");

}  // namespace gdsl::ir
