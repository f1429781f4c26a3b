// A run's stored tables (docs/heaps.md): the checkpoint (--checkpoint) and the
// table file (--table-file) of an engine, opened and resumed at the start,
// saved at a stop and at the end, with the messages gdsl prints about them.
// gdsl eval, table, period and plot (cli/Commands.cpp) and each game of a
// census (driver/Census.cpp) keep their tables through it.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace gdsl {

class Engine;

class TableStore {
 public:
  // How a file that is refused or cannot be saved is reported: the message
  // ("cannot write checkpoint 'PATH': ..."), which the CLI prints and a
  // census keeps as the game's error.
  using Report = std::function<void(const std::string& message)>;

  // The files are the engine's (EngineOptions::checkpointPath and
  // tableFilePath; "" for none); `log` is where the messages go.
  TableStore(Engine& engine, Report report, std::ostream& log);

  // Opens the table file for one-heap game `game` (-1: the game the file
  // holds, else the first whose table grows), then resumes the checkpoint;
  // with `verbose`, says how many values each gave. False, reported, when
  // either is refused.
  bool open(int game, bool verbose);
  // Resumes the checkpoint, or, when it is refused (damaged, for other
  // rules), deletes it and starts afresh: a census's game.
  void resumeOrRestart();
  // The run was stopped by the signal `signal` ("SIGINT"): saves the
  // checkpoint and flushes the table file, saying how many values each holds.
  // False, reported, when a save fails.
  bool saveAtStop(const char* signal);
  // Records the table file's values as final (at the end of a run, or when a
  // limit stopped it). False, reported, when it cannot.
  bool flushTableFile();
  // The end of a run: the finished tables saved to the checkpoint, so that a
  // rerun is a look-up, and the table file flushed (saying so when no
  // one-heap table grew, so that there is none). False when a save failed;
  // each failure is reported.
  bool finish();

 private:
  Engine& engine_;
  Report report_;
  std::ostream& log_;
  std::string checkpoint_;
  std::string tableFile_;
};

}  // namespace gdsl
