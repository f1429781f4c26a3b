// gdsl census (docs/census.md): whole families of one-heap games (octal
// codes by pattern or list, or every one-heap game of a .game file) computed
// to N heaps or until their periods are proved, each in a process of its
// own, J at a time (or spread over MPI ranks), the results written to a
// SQLite database (driver/CensusDb.h) one transaction per game, so that a
// killed census resumes where it stopped.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/CensusDb.h"

namespace gdsl {

// One game of a family: the program that defines it and its name there.
struct CensusGame {
  std::string key;       // the octal code ("0.137") or the game's name
  std::string name;      // the program's name for it
  std::string source;    // the program's text
  std::string fileName;  // as diagnostics show it
  std::string path;      // for relative imports ("" for octal codes)
  std::string rules;     // its rules' fingerprint (hex)
};

// The games of FAMILY: an octal pattern ('0.???': ? is any octal digit; codes
// lose trailing zeros, duplicates and the code without moves are dropped), a
// comma list of codes, or a .game file (every game with one integer
// parameter). False with `error` set; `usageError` when FAMILY itself is
// malformed (status 2), else it is a problem of the file (status 1).
bool censusGames(const std::string& family, std::vector<CensusGame>& out, bool& usageError,
                 std::string& error);

// --quotient: each game's misère quotient too (docs/census.md, "Quotients"),
// to heap maxHeap (0: none) within `seconds` per game; |Q| at most kMaxOrder.
struct CensusQuotientLimits {
  static constexpr uint32_t kMaxOrder = 2048;
  int64_t maxHeap = 0;
  double seconds = 10;
};

struct CensusOptions {
  std::string family;
  int64_t to = 0;
  std::string db;
  int jobs = 0;  // games at once in each process: 0 for the cores (1 a rank under mpirun)
  int shardIndex = 1, shardCount = 1;  // --shard K/N: the games i with i % N == K - 1
  BackendKind backend = BackendKind::Auto;
  std::string version;
  CensusQuotientLimits quotient;
};

// Computes `game` to `n` heaps in this process (and its misère quotient when
// quotient.maxHeap > 0): a row, or false with `error` set. `checkpoint`: the
// file its values are resumed from and saved to ("" for none).
bool computeCensusGame(const CensusGame& game, int64_t n, const std::string& checkpoint,
                       BackendKind backend, const std::string& version, CensusRow& row,
                       std::string& error, const CensusQuotientLimits& quotient = {});

// A row as the JSON object a game's process sends back, and the row again.
nlohmann::json censusRowJson(const CensusRow& row);
CensusRow censusRowFromJson(const nlohmann::json& j);  // throws nlohmann::json::exception

// gdsl census FAMILY --to N --db PATH: the exit status (driver/CensusRun.cpp).
int runCensus(const CensusOptions& options);
// A quotient in a few words: "|Q| = 40, |P| = 9, wild, final at heap 166", or
// how far it went and why it stopped (report and progress lines).
std::string describeQuotient(const CensusQuotient& q);
// "P proved, O open, A arithmetic-periodic" over `rows` (report and run summaries).
std::string censusCounts(const std::vector<CensusRow>& rows);

struct CensusReportOptions {
  bool csv = false;           // CSV (every column) instead of a Markdown table
  bool openOnly = false;      // only the games whose period is not proved
  bool times = false;         // the Markdown table also gives seconds and peak memory
  std::string sort = "game";  // game, or the largest first: period, preperiod, proof, value,
                              // rare, seconds
};
// Whether `key` is one of CensusReportOptions::sort's keys.
bool censusSortKey(const std::string& key);
// gdsl census report DB [--csv] [--open] [--times] [--sort KEY].
int censusReport(const std::string& db, const CensusReportOptions& options);
// gdsl census merge A.db B.db ... -o OUT.db.
int censusMerge(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace gdsl
