// Texts of the runtime errors of IR expressions.
#include "compiler/ir/Errors.h"

#include <fmt/format.h>

namespace gdsl::ir {

std::string errorText(ErrorCode code, int64_t a, int64_t b, const char* op) {
  switch (code) {
    case ErrorCode::Overflow:
      return fmt::format("integer overflow in {} {} {}", a, op, b);
    case ErrorCode::NegOverflow:
      return fmt::format("integer overflow in -({})", a);
    case ErrorCode::AbsOverflow:
      return fmt::format("integer overflow in abs({})", a);
    case ErrorCode::DivisionByZero:
      return "division by zero";
    case ErrorCode::ModByZero:
      return "division by zero in %";
    case ErrorCode::ShiftTooFar:
      return fmt::format("{} << {} does not fit in 64 bits", a, b);
    case ErrorCode::NegativeShift:
      return fmt::format("negative shift amount {}", b);
    case ErrorCode::EmptyMin:
      return "min of an empty list";
    case ErrorCode::EmptyMax:
      return "max of an empty list";
    case ErrorCode::IndexOutOfRange:
      return fmt::format("index {} is out of range for a list of length {}", a, b);
    case ErrorCode::RangeTooLarge:
      return fmt::format("the range {}..{} has more than 9223372036854775807 elements", a, b);
    case ErrorCode::SetTooLarge:
      return "set() on a list of more than 2^24 elements";
    case ErrorCode::NegativeExponent:
      return fmt::format("negative exponent in {} ** {} (powers are of integers)", a, b);
    case ErrorCode::NegativeBits:
      return fmt::format("bits({}) of a negative number (bits lists the 1 bits of a number >= 0)",
                         a);
    case ErrorCode::ListTooLong:
      return "a comprehension built a list of more than 2^24 elements";
    case ErrorCode::PositionListTooLong:
      return fmt::format(
          "a list of {} elements given to a game: a position's list holds at most "
          "2^24 elements",
          a);
  }
  return "unknown error";
}

}  // namespace gdsl::ir
