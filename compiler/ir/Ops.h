// The ops of the move IR and what the compiler asks about them, made from the
// table compiler/ir/Ops.def (where an operator is added): the enum ir::Op,
// each op's name, operand and result types and flags, and the op each binary
// operator of the language lowers to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "compiler/ast/Ast.h"

namespace gdsl::ir {

enum class Op : uint8_t {
#define GDSL_OP(Name, text, operands, result, interp, flags) Name,
#include "compiler/ir/Ops.def"
};

// The flags of Ops.def (what each means is written there).
using OpFlags = uint8_t;
inline constexpr OpFlags kCannotFail = 1;
inline constexpr OpFlags kAffine = 2;
inline constexpr OpFlags kBitwise = 4;
inline constexpr OpFlags kComprehension = 8;

struct OpInfo {
  Op op;
  const char* name;
  const char* operands;  // letters, as in Ops.def
  char result;
  OpFlags flags;
};

// Row i describes Op i.
inline constexpr OpInfo kOps[] = {
#define GDSL_OP(Name, text, operands, result, interp, flags) \
  {Op::Name, text, operands, result, static_cast<OpFlags>(flags)},
#include "compiler/ir/Ops.def"
};
inline constexpr size_t kOpCount = std::size(kOps);

static_assert(
    [] {
      for (size_t i = 0; i < kOpCount; ++i)
        if (kOps[i].op != static_cast<Op>(i)) return false;
      return true;
    }(),
    "kOps must have one row per ir::Op, in order");
static_assert(kOpCount <= 256, "ir::Op is one byte");

constexpr const OpInfo& opInfo(Op op) {
  return kOps[static_cast<size_t>(op)];
}
constexpr const char* opName(Op op) {
  return opInfo(op).name;
}
constexpr bool hasFlags(Op op, OpFlags flags) {
  return (opInfo(op).flags & flags) == flags;
}
// No runtime error whatever its operands (see Ops.def; ir::neverFails asks it
// of a whole expression).
constexpr bool cannotFail(Op op) {
  return hasFlags(op, kCannotFail);
}
// Affine in its operands, for the take-and-break analysis of `move` rules.
constexpr bool isAffine(Op op) {
  return hasFlags(op, kAffine);
}
// & | ^ << >>.
constexpr bool isBitwise(Op op) {
  return hasFlags(op, kBitwise);
}
// The ops whose operand kids[0] runs once per pass through Expr::steps.
constexpr bool isComprehension(Op op) {
  return hasFlags(op, kComprehension);
}

// How many operands `op` takes: at least minOperands, and more when variadic.
constexpr size_t minOperands(Op op) {
  std::string_view s = opInfo(op).operands;
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != '+' && s[i] != '*' && (i + 1 == s.size() || s[i + 1] != '*')) ++n;
  return n;
}
constexpr bool isVariadic(Op op) {
  std::string_view s = opInfo(op).operands;
  return !s.empty() && (s.back() == '+' || s.back() == '*');
}
// The letter of operand `i` of `op` (the repeated letter past the fixed ones).
constexpr char operandType(Op op, size_t i) {
  std::string_view s = opInfo(op).operands;
  if (isVariadic(op)) {
    s.remove_suffix(1);
    return i < s.size() ? s[i] : s.back();
  }
  return i < s.size() ? s[i] : '\0';
}

// The op binary operator `op` lowers to: over lists (== and != of two lists)
// or not.
struct Lowering {
  Op op;
  Op overLists;
};
inline constexpr Lowering kBinaryLowering[] = {
#define GDSL_BINARY(Name, spelling, precedence, op, overLists) {Op::op, Op::overLists},
#include "compiler/ir/Ops.def"
};
static_assert(std::size(kBinaryLowering) == ast::kBinOpCount, "one lowering per ast::BinOp");
constexpr Op lowered(ast::BinOp op, bool overLists = false) {
  const Lowering& l = kBinaryLowering[static_cast<size_t>(op)];
  return overLists ? l.overLists : l.op;
}
// The spelling of the binary operator that lowers to `op` ("%" for Mod), or
// null for an op that no binary operator lowers to.
constexpr const char* writtenAs(Op op) {
  constexpr const char* spellings[] = {
#define GDSL_BINARY(Name, spelling, precedence, op, overLists) spelling,
#include "compiler/ir/Ops.def"
  };
  for (size_t i = 0; i < std::size(kBinaryLowering); ++i)
    if (kBinaryLowering[i].op == op || kBinaryLowering[i].overLists == op) return spellings[i];
  return nullptr;
}

}  // namespace gdsl::ir
