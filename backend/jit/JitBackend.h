// The LLVM JIT backend: the move IR of every game compiled in-process with
// LLVM 14 ORC into native kernels and enumerators (backend/jit/Codegen.cpp).
// This header is free of LLVM types, so the rest of gdsl never includes LLVM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/Backend.h"

namespace gdsl {

class Interpreter;

namespace jit {

struct Context;

class JitBackend final : public Backend {
 public:
  // Compiles `program`. Returns null and sets `error` when LLVM fails.
  static std::unique_ptr<JitBackend> create(const ir::Program& program, std::string& error);
  ~JitBackend() override;

  const char* name() const override { return "jit"; }
  // Normalize rules run on the interpreter (they run once per new position,
  // after the native code has built it).
  void normalize(Position& position) override;
  void enumerate(const Position& position, MoveSink& sink) override;
  uint32_t heapValue(int game, int64_t n, const uint32_t* table, ValueOracle& oracle) override;

  // The optimized LLVM IR (gdsl check --dump=llvm).
  const std::string& optimizedIr() const;
  double compileMillis() const;

  // For the runtime helpers.
  SourceRange location(int32_t index) const;
  const ir::Program& program() const;
  const ir::Move& move(int game, int index) const;
  Context& enter();
  void leave();

 private:
  JitBackend();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jit
}  // namespace gdsl
