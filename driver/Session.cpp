// Session: a loaded program with a live stack and memo.
#include "driver/Session.h"

#include <sstream>

#include "driver/Output.h"
#include "driver/Runner.h"

namespace gdsl {

Session::Session(StackOptions options) : options_(std::move(options)) {}
Session::~Session() = default;

bool Session::load(const std::string& name, const std::string& source) {
  return loadText(name, "", source);
}

bool Session::load(const std::string& name, const std::string& source, const std::string& path) {
  return loadText(name, path, source);
}

bool Session::loadFile(const std::string& path) {
  std::string text, error;
  if (!readFile(path, text, error)) {
    diagnostics_ = "cannot read '" + path + "': " + error + "\n";
    return false;
  }
  return loadText(path, path, text);
}

bool Session::loadText(const std::string& name, const std::string& path, const std::string& text) {
  stack_ = std::make_unique<Stack>(options_);
  std::string error;
  if (!stack_->load(name, path, text)) {
    diagnostics_ = stack_->workspace().renderDiagnostics();
    stack_.reset();
    return false;
  }
  if (!stack_->start(error)) {
    diagnostics_ = "cannot start the backend: " + error + "\n";
    stack_.reset();
    return false;
  }
  diagnostics_.clear();
  return true;
}

std::string Session::diagnostics() const {
  return diagnostics_;
}

std::string Session::tableReport() const {
  return stack_ ? stack_->engine().report() : "";
}

std::string Session::runJson(const std::string& statements) {
  if (!stack_) throw SessionError("no program is loaded");
  Workspace& ws = stack_->workspace();
  ws.diagnostics().clear();
  auto compiled = ws.compileStatements("<session>", statements);
  if (!compiled) throw SessionError(ws.renderDiagnostics());
  std::ostringstream out, err;
  std::unique_ptr<Output> output = makeJsonOutput(out, err, ws.sources());
  Runner runner(*stack_, *output);
  for (const ir::Statement& s : *compiled) runner.run(s);
  return out.str();
}

// Compiles `position`, then runs `f(sum)`; errors become SessionError.
template <typename F>
auto Session::withPosition(const std::string& position, F&& f) {
  if (!stack_) throw SessionError("no program is loaded");
  Workspace& ws = stack_->workspace();
  ws.diagnostics().clear();
  auto compiled = ws.compileStatements("<query>", "eval " + position);
  if (!compiled || compiled->size() != 1) throw SessionError(ws.renderDiagnostics());
  try {
    return f(stack_->positions().evalPosition((*compiled)[0].position));
  } catch (const RuntimeError& e) {
    Diagnostic d{Severity::Error, e.describe(), e.range, e.notes};
    throw SessionError(render(ws.sources(), d));
  }
}

uint64_t Session::grundy(const std::string& position) {
  return withPosition(position,
                      [&](const Sum& sum) -> uint64_t { return stack_->engine().value(sum); });
}

uint64_t Session::evalGrundy(const std::string& position) {
  return withPosition(position, [&](const Sum& sum) -> uint64_t {
    uint64_t x = 0;
    for (const Position& p : sum) x ^= stack_->engine().rootValue(p);
    return x;
  });
}

bool Session::misereFirstPlayerWins(const std::string& position) {
  return withPosition(position,
                      [&](const Sum& sum) { return stack_->misere().firstPlayerWins(sum); });
}

std::vector<uint64_t> Session::table(const std::string& game, int64_t lo, int64_t hi) {
  if (!stack_) throw SessionError("no program is loaded");
  int id = stack_->program().findGame(game);
  if (id < 0) throw SessionError("unknown game " + game);
  std::ostringstream sink;
  std::unique_ptr<Output> output = makeJsonOutput(sink, sink, stack_->workspace().sources());
  Runner runner(*stack_, *output);
  try {
    return runner.heapValues(id, lo, hi);
  } catch (const RuntimeError& e) {
    throw SessionError(e.describe());
  }
}

}  // namespace gdsl
