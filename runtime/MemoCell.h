// The cells of a native memo and how a native search ends: the encoding that
// every native search shares (the engine's control of it, runtime/Engine.cpp;
// the searches written in C++, runtime/MemoSearch.h; the JIT's generated one,
// backend/jit/CodegenSearch.cpp), written once. A cell holds a position's
// value + 1; 0 while the value is unknown, kCellOnStack while a search is
// expanding the position (a successor that finds that mark has found a
// cycle). The two stores, runtime/DenseBox.h and runtime/WordMemo.h, may keep
// narrower cells; they translate their own marks to these.
#pragma once

#include <cstdint>

namespace gdsl {

inline constexpr uint32_t kCellUnknown = 0;
inline constexpr uint32_t kCellOnStack = UINT32_MAX;

constexpr uint32_t cellOfValue(uint32_t value) {
  return value + 1;
}
// The value in a cell that holds one (neither unknown nor on the stack).
constexpr uint32_t valueOfCell(uint32_t cell) {
  return cell - 1;
}
constexpr bool cellHoldsValue(uint32_t cell) {
  return cell != kCellUnknown && cell != kCellOnStack;
}

// How a native search (Backend::searchNative) ended. The numbers are part of
// the contract with the JIT's generated search, which returns them as an i32
// (0 done, 1 a runtime error with the error kept in its context).
enum class NativeStatus : int32_t {
  Done = 0,         // the position's value is in the memo
  Failed = 1,       // a runtime error: the engine's own search will report it
  Unsupported = 2,  // this backend has no native search for the game
  Outside = 3,      // a successor lies outside the box, or its list does not pack: `miss` holds it
  Deep = 4,         // the native stack ran out at position `miss`, which has no value yet
  Cycle = 5,        // a successor is being expanded: the engine's search will report it
  Full = 6,         // the memo holds --max-states positions: the engine's search will say so
  Wide = 7,  // a value does not fit the box's 16-bit cells: the engine widens it and searches again
  Yield = 8,  // handed over (auto's switch to the JIT): the engine searches the same position again
};

}  // namespace gdsl
