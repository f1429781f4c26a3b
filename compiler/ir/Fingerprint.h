// Fingerprints of game rules, from a canonical serialization of the move IR.
// Two programs whose fingerprints are equal compute the same values, so a
// checkpoint's tables (runtime/Checkpoint.h) and the REPL's memo after a
// redefinition (driver/Repl.cpp) can be reused.
//
// What is serialized is exactly what values depend on: each parameter's type
// and slot, the normalize rule, every move's steps (binders, lets, guards)
// and successor terms, the slot counts, the contents of every constant list
// a rule reads, and the games a rule names, by name. What is left out cannot
// change a value: the names of variables, parameters and moves, source
// locations, statements, and what gdsl derives from the rules (where a move
// came from in the sugar, the take-and-break shape, whether a parameter is a
// set of bits), which it computes again.
// Renaming a variable or a move, adding a comment or a statement, keeps the
// fingerprint.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

// The version of the serialization, hashed first. Bump it when the
// serialization or the meaning of a serialized IR field changes: older
// checkpoints are then refused with a message that says why.
inline constexpr uint32_t kFingerprintVersion = 1;

// The rules of every game of `program`, each with its name (checkpoints keep
// tables by game name).
uint64_t programFingerprint(const Program& program);

// For each game, a fingerprint of its rules and of the rules of every game its
// moves reach (with their names): equal fingerprints in two programs mean
// equal values of that game.
std::vector<uint64_t> gameFingerprints(const Program& program);

// Everything code compiled from `program` depends on, as bytes: the
// serialization above of every game in index order, plus what values do not
// depend on but code does (source locations, which error messages name; pool
// and game indices; names; the facts gdsl derives from the rules). The JIT's
// code cache keys an object by it (backend/jit/JitCache.h).
std::string codeText(const Program& program);

}  // namespace gdsl::ir
