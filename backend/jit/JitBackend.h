// The JIT backend: the move IR of every game compiled to native kernels,
// enumerators and searches (backend/jit/Codegen.cpp, by LLVM 14 in the
// plugin), kept in a code cache on disk and linked by gdsl itself
// (backend/jit/ObjectLoader.h). No LLVM here: the plugin is loaded the first
// time a function is not in the cache.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend/jit/JitRuntime.h"
#include "runtime/Backend.h"

namespace gdsl {

class PositionBuilder;

namespace jit {

enum class Emitted;
class ObjectCompiler;
// Makes the compiler (loads the plugin and starts LLVM), or returns null with
// `error` set; `millis` receives the time that took.
using CompilerSource =
    std::function<std::unique_ptr<ObjectCompiler>(std::string& error, double& millis)>;

class JitBackend final : public Backend, private HelperHost {
 public:
  // A JIT over the program of `positions`: each function of a game is got on
  // its first use, from the code cache or from `compiler` (called once, on the
  // first miss; `compilerIdentity` names its build in cache keys).
  static std::unique_ptr<JitBackend> create(PositionBuilder& positions, CompilerSource compiler,
                                            std::string compilerIdentity);
  // Makes the compiler now if it was not (loads the plugin and LLVM); false
  // with `error` set when that fails.
  bool startCompiler(std::string& error);
  // Compiles every game now, keeping the optimized IR (gdsl check --dump=llvm).
  bool compileAll(std::string& error);
  // Gets function `what` of `game` now (for a list game's search, the one
  // for lists of `length`), from the code cache or the compiler, unless it
  // is there already; false with `error` set when that fails. The tiered
  // backend calls it on its worker thread, before it uses the backend.
  // `cacheOnly`: from the code cache alone (a miss is a failure, and the
  // compiler, LLVM, is not loaded).
  bool prepare(int game, Emitted what, int64_t length, std::string& error, bool cacheOnly = false);
  // Whether that function is linked already.
  bool has(int game, Emitted what, int64_t length = -1) const;
  // From now on normalize rules run on `positions`, and errors name its
  // program, which must be the same as the one this backend was made over
  // (the tiered backend's worker compiles over a copy of it).
  void rebind(PositionBuilder& positions);
  ~JitBackend() override;

  const char* name() const override { return "jit"; }
  void enumerate(const Position& position, MoveSink& sink) override;
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override;
  bool searchesNatively(int game) override;
  NativeStatus searchNative(int game, const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                            std::vector<int64_t>& miss, uint64_t stackFloor) override;
  std::string report() const override;
  BackendWork work() const override;

  // The optimized LLVM IR of the games compiled by compileAll.
  const std::string& optimizedIr() const;
  // Time spent setting up LLVM and compiling games so far.
  double compileMillis() const;

  const ir::Program& program() const;
  Context& enter();
  void leave();

 private:
  // For the runtime helpers (HelperHost, backend/jit/JitRuntime.h). Normalize
  // rules run on the PositionBuilder, once per new position, after the native
  // code has built it.
  SourceRange location(int32_t index) const override;
  void normalize(Position& position) override;
  SearchFn listSearch(int game, int64_t length) override;

  JitBackend();
  // `length`: the list length a list game's search is specialized to, or -1.
  bool compile(int game, Emitted what, int64_t length, std::string& error, bool cacheOnly = false);
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
