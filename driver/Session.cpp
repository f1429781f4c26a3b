// Session: a loaded program with a live engine and memo.
#include "driver/Session.h"

#include <fstream>
#include <sstream>

#include "backend/interp/Interpreter.h"
#include "driver/Output.h"
#include "driver/Program.h"
#include "driver/Runner.h"
#include "runtime/Misere.h"

namespace gdsl {

struct Session::State {
  Workspace workspace;
  std::unique_ptr<Interpreter> interpreter;  // statement positions
  std::unique_ptr<Backend> backend;
  std::unique_ptr<Engine> engine;
  std::unique_ptr<MisereSolver> misere;
};

Session::Session(SessionOptions options) : options_(options) {}
Session::~Session() = default;

bool Session::load(const std::string& name, const std::string& source) {
  return loadText(name, "", source);
}

bool Session::loadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics_ = "cannot open " + path + "\n";
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return loadText(path, path, buffer.str());
}

bool Session::loadText(const std::string& name, const std::string& path, const std::string& text) {
  state_ = std::make_unique<State>();
  if (!state_->workspace.load(name, path, text)) {
    diagnostics_ = state_->workspace.renderDiagnostics();
    state_.reset();
    return false;
  }
  const ir::Program& program = state_->workspace.program();
  state_->interpreter = std::make_unique<Interpreter>(program);
  std::string error;
  state_->backend = makeBackend(program, options_.backend, error);
  if (!state_->backend) {
    diagnostics_ = "cannot start the backend: " + error + "\n";
    state_.reset();
    return false;
  }
  state_->engine = std::make_unique<Engine>(program, *state_->backend, options_.engine);
  diagnostics_.clear();
  return true;
}

std::string Session::diagnostics() const {
  return diagnostics_;
}

std::string Session::tableReport() const {
  return state_ && state_->engine ? state_->engine->report() : "";
}

std::string Session::runJson(const std::string& statements) {
  if (!state_) throw SessionError("no program is loaded");
  Workspace& ws = state_->workspace;
  ws.diagnostics().clear();
  auto compiled = ws.compileStatements("<session>", statements);
  if (!compiled) throw SessionError(ws.renderDiagnostics());
  std::ostringstream out, err;
  std::unique_ptr<Output> output = makeJsonOutput(out, err, ws.sources());
  Runner runner(*state_->engine, *state_->interpreter, *output);
  for (const ir::Statement& s : *compiled) runner.run(s);
  return out.str();
}

// Compiles `position`, then runs `f(sum)`; errors become SessionError.
template <typename F>
auto Session::withPosition(const std::string& position, F&& f) {
  if (!state_) throw SessionError("no program is loaded");
  Workspace& ws = state_->workspace;
  ws.diagnostics().clear();
  auto compiled = ws.compileStatements("<query>", "eval " + position);
  if (!compiled || compiled->size() != 1) throw SessionError(ws.renderDiagnostics());
  try {
    return f(state_->interpreter->evalPosition((*compiled)[0].position));
  } catch (const RuntimeError& e) {
    Diagnostic d{Severity::Error, e.describe(), e.range, e.notes};
    throw SessionError(render(ws.sources(), d));
  }
}

uint64_t Session::grundy(const std::string& position) {
  return withPosition(position,
                      [&](const Sum& sum) -> uint64_t { return state_->engine->value(sum); });
}

bool Session::misereFirstPlayerWins(const std::string& position) {
  return withPosition(position, [&](const Sum& sum) {
    if (!state_->misere) state_->misere = std::make_unique<MisereSolver>(*state_->engine);
    return state_->misere->firstPlayerWins(sum);
  });
}

std::vector<uint64_t> Session::table(const std::string& game, int64_t lo, int64_t hi) {
  if (!state_) throw SessionError("no program is loaded");
  int id = state_->workspace.program().findGame(game);
  if (id < 0) throw SessionError("unknown game " + game);
  std::ostringstream sink;
  std::unique_ptr<Output> output = makeJsonOutput(sink, sink, state_->workspace.sources());
  Runner runner(*state_->engine, *state_->interpreter, *output);
  try {
    return runner.heapValues(id, lo, hi);
  } catch (const RuntimeError& e) {
    throw SessionError(e.describe());
  }
}

}  // namespace gdsl
