// The gdsl command line (docs/reference.md section 8): CLI11 set up for the
// command named, parsed into Options, and Options turned into what the
// commands run with (StackOptions and Limits, CensusOptions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/Census.h"
#include "driver/Play.h"
#include "runtime/Limits.h"

namespace gdsl {
struct StackOptions;
}

namespace gdsl::cli {

// gdsl's commands; None until the command line is parsed.
enum class Command {
  None,
  Eval,
  Check,
  Table,
  Period,
  Plot,
  Repl,
  Kernel,
  JupyterInstall,
  Lsp,
  Play,
  Quotient,
  Census,
  CensusReport,
  CensusMerge
};

struct Options {
  Command command = Command::None;
  std::string file;
  std::vector<std::string> positions;  // -e
  std::string backend = backendKindName(BackendKind::Auto);
  bool json = false;
  bool stdlibOnly = false;
  bool verbose = false;
  bool plain = false;
  std::string dump;
  std::string tableSpec;
  std::string periodGame;
  std::optional<int64_t> periodMax;  // --max
  std::string plotPath;              // plot -o
  std::string quotientGame;
  int64_t quotientMax = 1000;        // quotient --max
  uint32_t quotientMaxOrder = 2048;  // quotient --max-order
  std::string checkpoint;
  double checkpointSeconds = 30;
  std::string tableFile;  // --table-file
  double tableFileSeconds = 5;
  // Limits (runtime/Limits.h): --max-states, --max-memory, --timeout.
  uint64_t maxStates = Limits{}.maxStates;
  std::string maxMemory;
  double timeout = 0;
  int threads = 0;  // --threads: 0 for the machine's cores (EngineOptions::threads)
  std::string playPosition;
  PlayOptions play;
  bool seeded = false;
  // gdsl census, census report, census merge.
  CensusOptions census;
  std::string censusShard;           // --shard K/N
  double censusQuotientSeconds = 0;  // --quotient-seconds (0: not given)
  std::string reportDb;
  CensusReportOptions report;
  std::vector<std::string> mergeInputs;
  std::string mergeOutput;
  // gdsl jupyter install [--user | --prefix DIR].
  bool jupyterUser = false;
  std::string jupyterPrefix;
};

// Parses the command line into `o` (o.command: the command named). An exit
// status when the run ends here (--help, --version, bad usage, reported).
std::optional<int> parseCommandLine(int argc, char** argv, Options& o);

// The argument after FILE (a table's RANGE, a period's GAME, play's POS): with
// --stdlib-only and one argument, that argument is it. Empty when it is missing.
void secondArgument(Options& o, std::string& argument);

// The stack's options from the command line (backend, limits, engine
// settings); a usage error for a bad backend name or size. `limits` are
// also the watchdog's.
int stackOptions(const Options& o, StackOptions& options, Limits& limits);

// gdsl census's options from the command line: a usage error for a missing
// family, --to or --db, a bad --shard or backend.
int censusOptions(const Options& o, CensusOptions& options);

}  // namespace gdsl::cli
