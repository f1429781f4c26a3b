// Backend names and construction, and the tiered `auto` backend.
#include "driver/Backends.h"

#include <fmt/format.h>

#include "backend/interp/Interpreter.h"
#include "driver/JitLoader.h"

namespace gdsl {
namespace {

// Interpreter first; once the interpreter has been busy for `busy`, games are
// compiled on their next use and every later call runs native code.
class TieredBackend final : public Backend {
 public:
  TieredBackend(PositionBuilder& positions, std::string* log, TieringOptions tiering)
      : positions_(positions), interpreter_(positions), log_(log), tiering_(tiering) {}

  const char* name() const override { return jit_ ? "jit" : "interp"; }
  std::string report() const override {
    return jit_ ? jit_->report() : "gdsl: auto: the interpreter did all the work\n";
  }
  void normalize(Position& position) override { positions_.normalize(position); }
  void enumerate(const Position& position, MoveSink& sink) override {
    current().enumerate(position, sink);
  }
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override {
    return current().heapValue(game, n, table, oracle);
  }
  // A native search is one call, which runs on one backend from start to end:
  // before the switch the engine's own search runs instead (one call per
  // position, so the switch comes on time), and once the JIT is there the
  // positions it meets are handed to the JIT's native search. Without a JIT,
  // the interpreter's native search.
  bool searchesNatively(int game) override {
    if (jit_) return jit_->searchesNatively(game);
    return failed_ && interpreter_.searchesNatively(game);
  }
  NativeStatus searchNative(int game, const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                            std::vector<int64_t>& miss, uint64_t stackFloor) override {
    return current().searchNative(game, words, memo, oracle, miss, stackFloor);
  }

 private:
  Backend& current() {
    if (jit_) return *jit_;
    if (failed_) return interpreter_;
    auto now = std::chrono::steady_clock::now();
    if (calls_++ == 0) start_ = now;
    if ((calls_ & 63) != 0 || now - start_ < tiering_.busy) return interpreter_;
    std::string error;
    jit_ = loadJit(positions_, error, /*loadCompiler=*/true);
    if (!jit_) {
      failed_ = true;
      if (log_) *log_ += "gdsl: auto: the JIT failed (" + error + "); staying on the interpreter\n";
      return interpreter_;
    }
    if (log_)
      *log_ +=
          fmt::format("gdsl: auto: switched to the JIT after {} calls in {} ms\n", calls_,
                      std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count());
    return *jit_;
  }

  PositionBuilder& positions_;
  Interpreter interpreter_;
  std::unique_ptr<Backend> jit_;
  std::string* log_;
  TieringOptions tiering_;
  uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point start_;
  bool failed_ = false;
};

}  // namespace

std::optional<BackendKind> parseBackendKind(const std::string& name) {
  if (name == "interp") return BackendKind::Interp;
  if (name == "jit") return BackendKind::Jit;
  if (name == "auto") return BackendKind::Auto;
  return std::nullopt;
}

const char* backendKindName(BackendKind kind) {
  switch (kind) {
    case BackendKind::Interp:
      return "interp";
    case BackendKind::Jit:
      return "jit";
    case BackendKind::Auto:
      break;
  }
  return "auto";
}

std::unique_ptr<Backend> makeBackend(PositionBuilder& positions, BackendKind kind,
                                     std::string& error, std::string* log, TieringOptions tiering) {
  switch (kind) {
    case BackendKind::Interp:
      if (log) *log += "gdsl: backend interp\n";
      return std::make_unique<Interpreter>(positions);
    case BackendKind::Jit: {
      auto jit = loadJit(positions, error);
      if (jit && log)
        *log +=
            "gdsl: backend jit (games compile on first use; LLVM loads on the first function "
            "not in the code cache)\n";
      return jit;
    }
    case BackendKind::Auto:
      if (log) *log += "gdsl: backend auto: the interpreter until the work pays for compiling\n";
      return std::make_unique<TieredBackend>(positions, log, tiering);
  }
  return nullptr;
}

bool llvmIr(const ir::Program& program, std::string& ir, std::string& error) {
  return jitLlvmIr(program, ir, error);
}

}  // namespace gdsl
