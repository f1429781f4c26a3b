// The moves of a game with integer parameters, compiled for the interpreter's
// native search (backend/interp/CodeSearch.cpp) into one flat list of
// register instructions: the loop nest of every move, its guards and lets,
// each successor's arguments and the game's normalize rule, with no tree to
// walk and no Position built per move. Registers are 64-bit integers; the
// first `intSlots` are the frame's integer slots (so an expression the code
// leaves to the reference evaluator reads the same frame), then temporaries,
// then constants.
//
// What is compiled: integer arithmetic, comparisons, min/max, and/or/not,
// range and list loops, guards, lets. Anything else (indexing, lists, `in`)
// is one Tree instruction that calls the reference evaluator
// (compiler/ir/Evaluator.h). A checked operation that fails (overflow,
// division by zero, a bad shift) evaluates its expression again with that
// evaluator, which throws the reference error. Not compiled (the search then
// walks the IR): list parameters, `sum ... for` terms, loops over lists of
// lists, and a normalize rule that may fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl::interp {

// A game with more integer parameters than this is not compiled.
inline constexpr size_t kMaxCodeParams = 16;

// The instructions. First the ops of compiler/ir/Ops.def whose interp column
// is Reg, by the same names and in the same order: r[a] = OP r[b], or
// r[a] = r[b] OP r[c]; checked ones evaluate `expr` again when they fail.
enum class Opcode : uint8_t {
#define GDSL_OP(Name, text, operands, result, interp, flags) GDSL_OPCODE_##interp(Name)
#define GDSL_OPCODE_Reg(Name) Name,
#define GDSL_OPCODE_No(Name)
#include "compiler/ir/Ops.def"
#undef GDSL_OPCODE_Reg
#undef GDSL_OPCODE_No
  Truth,  // r[a] = r[b] != 0
  Copy,
  // r[a] = the reference evaluator's value of `expr`; lists[a] for TreeList.
  Tree,
  TreeList,
  // Jumps to `target` when r[a] is zero / not zero.
  JumpIfZero,
  JumpIfNonZero,
  // Loop `c` over r[b]..r[d] in variable r[a]: RangeStart jumps to `target`
  // (past the loop) when empty; RangeNext steps and jumps back to `target`
  // (the body), or falls through after the last value.
  RangeStart,
  RangeNext,
  // Loop `c` over the list `expr` in variable r[a].
  ListStart,
  ListNext,
  // The move's successor: Successor `a` of the code. Its value joins the
  // position's values.
  Successor,
  // The end of the moves.
  Done,
};

struct Instruction {
  Opcode op = Opcode::Done;
  int32_t a = 0, b = 0, c = 0, d = 0;
  int32_t target = 0;
  const ir::Expr* expr = nullptr;
};

// One component of a successor: a position of the game searched, whose
// normalized words are in registers (and raw arguments, which must not be
// negative, in others); or a position of another game, built from the frame
// by the PositionBuilder and valued by the oracle.
struct SuccessorTerm {
  bool self = false;
  std::vector<int32_t> raw, words;
  const ir::Term* term = nullptr;
};

struct MoveCode {
  std::vector<Instruction> code;
  std::vector<std::vector<SuccessorTerm>> successors;
  // The register file's size and its initial contents (constants in place).
  std::vector<int64_t> initialRegisters;
  int loops = 0;      // loop states per frame
  int listSlots = 0;  // the frame's list slots
  std::vector<int32_t> paramRegisters;
};

// The instruction that runs op `op` (Reg in compiler/ir/Ops.def), if any.
constexpr std::optional<Opcode> opcodeOf(ir::Op op) {
  switch (op) {
#define GDSL_OP(Name, text, operands, result, interp, flags) GDSL_OPCODE_##interp(Name)
#define GDSL_OPCODE_Reg(Name) \
  case ir::Op::Name:          \
    return Opcode::Name;
#define GDSL_OPCODE_No(Name)
#include "compiler/ir/Ops.def"
#undef GDSL_OPCODE_Reg
#undef GDSL_OPCODE_No
    default:
      return std::nullopt;
  }
}

// The code of game `game`, or null when its moves or normalize rule are not
// compiled (see above).
std::unique_ptr<MoveCode> compileMoves(const ir::Program& program, int game);

}  // namespace gdsl::interp
