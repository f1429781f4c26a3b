// A run's checkpoint and table file (see TableStore.h).
#include "driver/TableStore.h"

#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "runtime/Checkpoint.h"
#include "runtime/Engine.h"

namespace gdsl {

TableStore::TableStore(Engine& engine, Report report, std::ostream& log)
    : engine_(engine),
      report_(std::move(report)),
      log_(log),
      checkpoint_(engine.options().checkpointPath),
      tableFile_(engine.options().tableFilePath) {}

bool TableStore::open(int game, bool verbose) {
  std::string error;
  if (!tableFile_.empty()) {
    int64_t heaps = 0;
    if (!engine_.openTableFile(game, error, heaps)) {
      report_(error);
      return false;
    }
    if (verbose && heaps > 0)
      log_ << fmt::format("gdsl: resumed {} values from table file '{}'\n", heaps, tableFile_);
  }
  if (!checkpoint_.empty()) {
    int64_t heaps = 0;
    if (!engine_.resume(error, heaps)) {
      report_(error);
      return false;
    }
    if (verbose && heaps > 0)
      log_ << fmt::format("gdsl: resumed {} values from checkpoint '{}'\n", heaps, checkpoint_);
  }
  return true;
}

void TableStore::resumeOrRestart() {
  if (checkpoint_.empty()) return;
  int64_t resumed = 0;
  std::string ignored;
  if (!engine_.resume(ignored, resumed)) {
    std::filesystem::remove(checkpoint_);
    engine_.resume(ignored, resumed);
  }
}

bool TableStore::saveAtStop(const char* signal) {
  try {
    if (!checkpoint_.empty()) {
      int64_t values = engine_.checkpoint();
      log_ << fmt::format("gdsl: stopped by {}; checkpoint '{}' holds {} values\n", signal,
                          checkpoint_, values);
    }
    int64_t values = engine_.flushTableFile();
    if (values >= 0)
      log_ << fmt::format("gdsl: stopped by {}; table file '{}' holds {} values\n", signal,
                          tableFile_, values);
  } catch (const CheckpointError& e) {
    report_(e.what());
    return false;
  }
  return true;
}

bool TableStore::flushTableFile() {
  try {
    engine_.flushTableFile();
    return true;
  } catch (const CheckpointError& e) {
    report_(e.what());
    return false;
  }
}

bool TableStore::finish() {
  bool ok = true;
  if (!checkpoint_.empty()) {
    try {
      engine_.checkpoint();
    } catch (const CheckpointError& e) {
      report_(e.what());
      ok = false;
    }
  }
  if (!tableFile_.empty()) {
    ok = flushTableFile() && ok;
    if (!engine_.hasTableFile())
      log_ << fmt::format("gdsl: no one-heap table grew, so table file '{}' was not created\n",
                          tableFile_);
  }
  return ok;
}

}  // namespace gdsl
