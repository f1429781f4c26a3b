// Backend construction and the tiered `auto` backend.
#include "driver/Backends.h"

#include <fmt/format.h>

#include <chrono>

#include "backend/interp/Interpreter.h"
#include "backend/jit/JitBackend.h"

namespace gdsl {
namespace {

// Interpreter first; once the interpreter has been busy for kBusy (about what
// compiling a game or two costs), games are compiled on their next use and
// every later call runs native code.
class TieredBackend final : public Backend {
 public:
  static constexpr std::chrono::milliseconds kBusy{100};

  TieredBackend(const ir::Program& program, std::string* log)
      : program_(program), interpreter_(program), log_(log) {}

  const char* name() const override { return jit_ ? "jit" : "interp"; }
  std::string report() const override {
    return jit_ ? jit_->report() : "gdsl: auto: the interpreter did all the work\n";
  }
  void normalize(Position& position) override { interpreter_.normalize(position); }
  void enumerate(const Position& position, MoveSink& sink) override {
    current().enumerate(position, sink);
  }
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override {
    return current().heapValue(game, n, table, oracle);
  }

 private:
  Backend& current() {
    if (jit_) return *jit_;
    if (failed_) return interpreter_;
    auto now = std::chrono::steady_clock::now();
    if (calls_++ == 0) start_ = now;
    if ((calls_ & 63) != 0 || now - start_ < kBusy) return interpreter_;
    std::string error;
    jit_ = jit::JitBackend::create(program_, error);
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

  const ir::Program& program_;
  Interpreter interpreter_;
  std::unique_ptr<jit::JitBackend> jit_;
  std::string* log_;
  uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point start_;
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
        *log += fmt::format(
            "gdsl: backend jit (LLVM set up in {:.1f} ms; games compile on first use)\n",
            jit->compileMillis());
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
  if (!jit || !jit->compileAll(error)) return false;
  ir = jit->optimizedIr();
  return true;
}

}  // namespace gdsl
