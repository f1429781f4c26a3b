// The LLVM JIT backend: the move IR of every game compiled in-process with
// LLVM 14 ORC into native kernels and enumerators (backend/jit/Codegen.cpp).
// This header is free of LLVM types, so the rest of gdsl never includes LLVM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/Backend.h"

namespace gdsl {

class PositionBuilder;

namespace jit {

struct Context;
enum class Emitted;
using SearchFn = int32_t (*)(Context*, const int64_t*);

class JitBackend final : public Backend {
 public:
  // Sets up LLVM for the program of `positions`; each function of a game is
  // compiled on its first use. Returns null and sets `error` when LLVM cannot start.
  static std::unique_ptr<JitBackend> create(PositionBuilder& positions, std::string& error);
  // Compiles every game now, keeping the optimized IR (gdsl check --dump=llvm).
  bool compileAll(std::string& error);
  ~JitBackend() override;

  const char* name() const override { return "jit"; }
  // Normalize rules run on the PositionBuilder (once per new position, after
  // the native code has built it).
  void normalize(Position& position) override;
  void enumerate(const Position& position, MoveSink& sink) override;
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override;
  bool searchesNatively(int game) override;
  NativeStatus searchNative(int game, const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                            std::vector<int64_t>& miss, uint64_t stackFloor) override;
  std::string report() const override;

  // The optimized LLVM IR of the games compiled by compileAll.
  const std::string& optimizedIr() const;
  // Time spent setting up LLVM and compiling games so far.
  double compileMillis() const;

  // For the runtime helpers.
  SourceRange location(int32_t index) const;
  const ir::Program& program() const;
  const ir::Move& move(int game, int index) const;
  Context& enter();
  void leave();
  // The native search of list game `game` for lists of `length` (at most 15),
  // compiled now if it was not (throws RuntimeError when LLVM fails).
  SearchFn listSearch(int game, int64_t length);

 private:
  JitBackend();
  // `length`: the list length a list game's search is specialized to, or -1.
  bool compile(int game, Emitted what, int64_t length, std::string& error);
  // The address of the function, compiled now if it was not (throws
  // RuntimeError when LLVM fails).
  void* function(int game, Emitted what);
  // `address`, the slot compile() fills for that function, compiled first when null.
  void* compiled(void*& address, int game, Emitted what, int64_t length);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jit
}  // namespace gdsl
