// The stack a computation runs on, assembled in one place from one options
// struct: the compiled program (a Workspace), the PositionBuilder that
// evaluates its positions, the backend, the engine and the misère solver.
// The CLI (eval, table, period, plot, play), the REPL, Session, the tests and
// the fuzzer all build it here, so they cannot drift apart in defaults.
//
//   StackOptions options;            // backend, limits, stdlib, tuning
//   Stack stack(options);
//   if (!stack.load(name, path, text)) ... stack.workspace().diagnostics()
//   if (!stack.start(error)) ...      // the backend cannot start
//   stack.engine().value(stack.positions().evalPosition(...));
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/Program.h"
#include "runtime/Engine.h"
#include "runtime/Misere.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {

struct StackOptions {
  StackOptions() = default;
  explicit StackOptions(BackendKind kind) : backend(kind) {}

  BackendKind backend = BackendKind::Auto;
  // --stdlib-only: every std module is imported before the program, or, with
  // stdlibUses, only those that declare a name written in one of these texts
  // (the statements the command will compile: Workspace::importStdlib).
  bool stdlib = false;
  std::optional<std::vector<std::string>> stdlibUses;
  // The engine's settings. engine.maxStates (--max-states, default
  // 20,000,000) bounds the memo of the search and the states of the misère
  // search alike.
  EngineOptions engine;
  // The misère search's other limits: options kept, nim-heap recognition.
  MisereLimits misere;
  // When `auto` switches to the JIT.
  TieringOptions tiering;
  // Collect what --verbose prints (takeLog()).
  bool verbose = false;
};

class Stack {
 public:
  explicit Stack(StackOptions options = {});
  // A stack over a workspace that is already loaded; several stacks may share
  // one (to run one program on two backends).
  Stack(StackOptions options, std::shared_ptr<Workspace> workspace);
  ~Stack();
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  // Compiles a program whose main file is `text`, shown as `name` (relative
  // imports resolve against the directory of `path`, or the current
  // directory when it is empty); with options.stdlib every std module is
  // imported too, and `text` may be empty. `dump` receives the program
  // printed at `stage`. False on errors: workspace().diagnostics() has them.
  bool load(const std::string& name, const std::string& path, std::string text,
            DumpStage stage = DumpStage::None, std::string* dump = nullptr);
  // Compiles a program made of several entries (the REPL's). False on errors.
  bool loadEntries(const std::vector<SourceEntry>& entries);

  // Builds the positions, backend, engine and misère solver for the loaded
  // program. False with `error` set when the backend cannot start.
  bool start(std::string& error);

  const StackOptions& options() const { return options_; }
  Workspace& workspace() { return *workspace_; }
  const Workspace& workspace() const { return *workspace_; }
  const ir::Program& program() const { return workspace_->program(); }
  // After start():
  PositionBuilder& positions() { return *positions_; }
  Backend& backend() { return *backend_; }
  Engine& engine() { return *engine_; }
  const Engine& engine() const { return *engine_; }
  MisereSolver& misere() { return *misere_; }

  // What --verbose prints, collected since the last call (with options.verbose).
  std::string takeLog();

 private:
  StackOptions options_;
  std::shared_ptr<Workspace> workspace_;
  std::unique_ptr<PositionBuilder> positions_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<MisereSolver> misere_;
  std::string log_;
};

}  // namespace gdsl
