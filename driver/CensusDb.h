// The census database (docs/census.md): one SQLite file, one row per (game,
// rules, N) in table `results`, one misère quotient per (game, rules) in
// table `quotients` (added to older databases when a census writes them),
// and the schema's name in table `meta`. Every
// write is one transaction, so a census killed at any moment (SIGKILL
// included) leaves whole rows only. A file that is not a census database of
// this schema is refused before anything is written to it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace gdsl {

// A game's misère quotient as `gdsl census --quotient` computed it
// (runtime/MisereQuotient.h): exact for heaps 0..heaps, or why there is none.
struct CensusQuotient {
  int64_t maxHeap = 0;    // the limits it was computed under: heaps,
  double maxSeconds = 0;  // and seconds
  int64_t heaps = -1;     // heaps 0..heaps were done (-1: none, the game is refused)
  int64_t order = 0;      // |Q| (0 when refused)
  int64_t pPortion = 0;   // |P|
  bool tame = false;
  std::optional<int64_t> finalHeap;          // where the periodicity theorem proved it final
  std::optional<int64_t> period, preperiod;  // of the pretending function, when it repeats
  std::string stopped;  // why it stopped before maxHeap without a proof; "" otherwise
  double seconds = 0;
};

// One finished game of a census.
struct CensusRow {
  std::string game;       // the octal code ("0.137") or the game's name in its .game file
  std::string rules;      // the fingerprint of its rules, 16 hex digits
  int64_t n = 0;          // the census's --to
  int64_t checkedTo = 0;  // g(0..checkedTo) were computed (fewer than N once the period is proved)
  std::optional<int64_t> period, preperiod, saltus;  // none found: all three empty
  bool proved = false;
  std::optional<int64_t> proofHeap;  // the values up to this heap prove the period
  int64_t maxValue = 0;
  std::string method;                // how the values were computed (--verbose's words)
  std::optional<int64_t> rareHeaps;  // sparse space's rare heaps, when it ran
  std::string checksum;  // h = (h * 1000003 + g(n)) mod (2^61 - 1) over g(0..checkedTo), in hex
  double seconds = 0;
  int64_t peakKib = 0;
  std::string version;
  // Its misère quotient (--quotient): in table `quotients`, one per (game, rules).
  std::optional<CensusQuotient> quotient;
};

class CensusDb {
 public:
  // The schema's name, stored in meta('schema').
  static constexpr const char* kSchema = "gdsl census 1";

  enum class Access { Read, Write };
  // Opens the database at `path` (for Write, creating it when absent or
  // empty); null with `error` set when it cannot be opened or is not a
  // census database of this schema (it is then left as it was).
  static std::unique_ptr<CensusDb> open(const std::string& path, Access access, std::string& error);
  ~CensusDb();
  CensusDb(const CensusDb&) = delete;
  CensusDb& operator=(const CensusDb&) = delete;

  // The (game, rules) pairs already done to N.
  std::set<std::pair<std::string, std::string>> done(int64_t n, std::string& error);
  // The largest time any earlier run of each (game, rules) took, for ordering.
  std::vector<std::pair<std::pair<std::string, std::string>, double>> costs(std::string& error);
  // Adds `row` in a transaction of its own (a row already there is kept).
  bool insert(const CensusRow& row, std::string& error);
  // Keeps `q` as the quotient of (game, rules) unless the one there is final,
  // or went as far (as many heaps) without a proof.
  bool insertQuotient(const std::string& game, const std::string& rules, const CensusQuotient& q,
                      std::string& error);
  // The (game, rules) pairs whose quotient needs no new run under these
  // limits: proved final, or computed under limits at least as large.
  std::set<std::pair<std::string, std::string>> quotientsDone(int64_t maxHeap, double maxSeconds,
                                                              std::string& error);
  // Every row, by game, rules and N, each with its game's quotient when there
  // is one; with `openOnly`, those whose period is not proved.
  bool rows(std::vector<CensusRow>& out, bool openOnly, std::string& error);
  // A database's name and its rows().
  using NamedRows = std::pair<std::string, std::vector<CensusRow>>;
  // True with `error` set when two of `sources` have the same game, rules
  // and N with two checksums.
  static bool conflict(const std::vector<NamedRows>& sources, std::string& error);
  // Adds the rows of other census databases in one transaction; a conflict
  // (with this database's rows or between the inputs) is an error and
  // nothing is added. `added` counts each input's new rows.
  bool merge(const std::vector<NamedRows>& inputs, std::vector<int64_t>& added, std::string& error);

 private:
  explicit CensusDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  bool exec(const std::string& sql, std::string& error);
  sqlite3* db_;
  std::string path_;
  bool writer_ = false;        // opened to write: set the WAL journal, and leaves it on close
  bool hasQuotients_ = false;  // the file has table `quotients` (older ones may not)
};

}  // namespace gdsl
