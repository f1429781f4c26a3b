// Choosing a backend: the interpreter, the JIT, or `auto`, which starts on the
// interpreter and moves to the JIT once a worker thread has got it ready
// (backend/tiered/TieredBackend.h; both give the same answers, so the switch
// is safe at any moment). The one place that parses and prints backend names.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "backend/tiered/TieredBackend.h"
#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {

enum class BackendKind { Interp, Jit, Auto };

// "interp", "jit" or "auto"; nullopt for any other text.
std::optional<BackendKind> parseBackendKind(const std::string& name);
const char* backendKindName(BackendKind kind);
// What a usage error says is expected: "interp, jit or auto".
inline constexpr const char* kBackendNames = "interp, jit or auto";

// The backend of kind `kind` over the program of `positions`, which builds
// positions and runs normalize rules for it. Null with `error` set when the
// JIT cannot be built. `log`, when not null, receives what `--verbose`
// reports (the backend chosen, compile times, the switch of `auto`).
std::unique_ptr<Backend> makeBackend(PositionBuilder& positions, BackendKind kind,
                                     std::string& error, std::string* log = nullptr,
                                     TieringOptions tiering = {});

// The optimized LLVM IR of the program (gdsl check --dump=llvm).
bool llvmIr(const ir::Program& program, std::string& ir, std::string& error);

}  // namespace gdsl
