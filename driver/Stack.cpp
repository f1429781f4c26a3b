// Assembling the stack: workspace, positions, backend, engine, misère solver.
#include "driver/Stack.h"

namespace gdsl {

Stack::Stack(StackOptions options) : Stack(std::move(options), std::make_shared<Workspace>()) {}

Stack::Stack(StackOptions options, std::shared_ptr<Workspace> workspace)
    : options_(std::move(options)), workspace_(std::move(workspace)) {}

Stack::~Stack() = default;

bool Stack::load(const std::string& name, const std::string& path, std::string text,
                 DumpStage stage, std::string* dump) {
  if (options_.stdlib &&
      !workspace_->importStdlib(options_.stdlibUses ? &*options_.stdlibUses : nullptr))
    return false;
  return workspace_->load(name, path, std::move(text), stage, dump);
}

bool Stack::loadEntries(const std::vector<SourceEntry>& entries) {
  return workspace_->loadEntries(entries);
}

bool Stack::start(std::string& error) {
  const ir::Program& program = workspace_->program();
  positions_ = std::make_unique<PositionBuilder>(program);
  backend_ = makeBackend(*positions_, options_.backend, error, options_.verbose ? &log_ : nullptr,
                         options_.tiering);
  if (!backend_) return false;
  engine_ = std::make_unique<Engine>(program, *backend_, options_.engine);
  misere_ = std::make_unique<MisereSolver>(*engine_, options_.misere);
  return true;
}

std::string Stack::takeLog() {
  std::string log;
  log.swap(log_);
  return log;
}

}  // namespace gdsl
