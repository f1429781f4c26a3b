// Backend construction and the tiered `auto` backend.
#include "driver/Backends.h"

#include <fmt/format.h>

#include "backend/interp/Interpreter.h"
#include "backend/jit/JitBackend.h"

namespace gdsl {
namespace {

// Interpreter first; after kThreshold kernel calls and enumerations, the whole
// program is compiled and every later call runs native code.
class TieredBackend final : public Backend {
 public:
  static constexpr uint64_t kThreshold = 20000;

  TieredBackend(const ir::Program& program, std::string* log)
      : program_(program), interpreter_(program), log_(log) {}

  const char* name() const override { return jit_ ? "jit" : "interp"; }
  void normalize(Position& position) override { interpreter_.normalize(position); }
  void enumerate(const Position& position, MoveSink& sink) override {
    current().enumerate(position, sink);
  }
  uint32_t heapValue(int game, int64_t n, const uint32_t* table, ValueOracle& oracle) override {
    return current().heapValue(game, n, table, oracle);
  }

 private:
  Backend& current() {
    if (jit_) return *jit_;
    if (failed_ || ++calls_ < kThreshold) return interpreter_;
    std::string error;
    jit_ = jit::JitBackend::create(program_, error);
    if (!jit_) {
      failed_ = true;
      if (log_) *log_ += "gdsl: auto: the JIT failed (" + error + "); staying on the interpreter\n";
      return interpreter_;
    }
    if (log_)
      *log_ +=
          fmt::format("gdsl: auto: switched to the JIT after {} calls (compiled in {:.1f} ms)\n",
                      calls_, jit_->compileMillis());
    return *jit_;
  }

  const ir::Program& program_;
  Interpreter interpreter_;
  std::unique_ptr<jit::JitBackend> jit_;
  std::string* log_;
  uint64_t calls_ = 0;
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<Backend> makeBackend(const ir::Program& program, BackendKind kind,
                                     std::string& error, std::string* log) {
  switch (kind) {
    case BackendKind::Interp:
      if (log) *log += "gdsl: backend interp\n";
      return std::make_unique<Interpreter>(program);
    case BackendKind::Jit: {
      auto jit = jit::JitBackend::create(program, error);
      if (jit && log)
        *log += fmt::format("gdsl: backend jit (compiled in {:.1f} ms)\n", jit->compileMillis());
      return jit;
    }
    case BackendKind::Auto:
      if (log) *log += "gdsl: backend auto: the interpreter until the work pays for compiling\n";
      return std::make_unique<TieredBackend>(program, log);
  }
  return nullptr;
}

bool llvmIr(const ir::Program& program, std::string& ir, std::string& error) {
  auto jit = jit::JitBackend::create(program, error);
  if (!jit) return false;
  ir = jit->optimizedIr();
  return true;
}

}  // namespace gdsl
