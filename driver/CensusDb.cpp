// The census database on SQLite (see CensusDb.h): schema check, rows in and
// out, merging. WAL journal with synchronous=NORMAL while a census writes:
// each row is its own transaction, durable against a killed process (not
// against a power cut between checkpoints, which a census can redo). The last
// writer to close puts the file back in rollback mode, so that a report, which
// opens it read-only, leaves no -wal and -shm files beside it (SQLite makes
// them for a reader of a WAL file, and a reader cannot remove them). libsqlite3 is not linked:
// the first open() loads it with dlopen, so that the commands that never
// touch a database do not map it at start-up.
#include "driver/CensusDb.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace gdsl {
namespace {

// The functions of libsqlite3 that gdsl calls, as sqlite.NAME(...) for
// sqlite3_NAME(...).
// clang-format off
#define GDSL_SQLITE_FUNCTIONS(X) \
  X(bind_double) X(bind_int64) X(bind_null) X(bind_text) X(busy_timeout) X(close) \
  X(column_double) X(column_int64) X(column_text) X(column_type) X(errmsg) X(exec) \
  X(finalize) X(free) X(open_v2) X(prepare_v2) X(step)
// clang-format on

struct SqliteApi {
#define GDSL_SQLITE_POINTER(name) decltype(&::sqlite3_##name) name = nullptr;
  GDSL_SQLITE_FUNCTIONS(GDSL_SQLITE_POINTER)
#undef GDSL_SQLITE_POINTER
};

SqliteApi sqlite;  // filled once by loadSqlite(), before any database is opened

// Loads libsqlite3 (its soname, found when gdsl was configured) the first
// time; false with `error` set when it cannot be loaded.
bool loadSqlite(std::string& error) {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    void* handle = dlopen(GDSL_SQLITE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      failure = fmt::format("cannot load the SQLite library {}: {}", GDSL_SQLITE_LIBRARY,
                            why ? why : "unknown error");
      return;
    }
#define GDSL_SQLITE_LOAD(name)                                                            \
  sqlite.name = reinterpret_cast<decltype(sqlite.name)>(dlsym(handle, "sqlite3_" #name)); \
  if (!sqlite.name && failure.empty())                                                    \
    failure = fmt::format("cannot load the SQLite library {}: it has no sqlite3_{}",      \
                          GDSL_SQLITE_LIBRARY, #name);
    GDSL_SQLITE_FUNCTIONS(GDSL_SQLITE_LOAD)
#undef GDSL_SQLITE_LOAD
  });
  error = failure;
  return failure.empty();
}

constexpr const char* kCreate =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE results("
    "  game TEXT NOT NULL, rules TEXT NOT NULL, n INTEGER NOT NULL,"
    "  checked_to INTEGER NOT NULL, period INTEGER, preperiod INTEGER, saltus INTEGER,"
    "  proved INTEGER NOT NULL, proof_heap INTEGER, max_value INTEGER NOT NULL,"
    "  method TEXT NOT NULL, rare_heaps INTEGER, checksum TEXT NOT NULL,"
    "  seconds REAL NOT NULL, peak_kib INTEGER NOT NULL, version TEXT NOT NULL,"
    "  PRIMARY KEY (game, rules, n));";

// The misère quotients of `gdsl census --quotient`, one per (game, rules);
// made when a census opens a database to write (older files lack it).
constexpr const char* kCreateQuotients =
    "CREATE TABLE IF NOT EXISTS quotients("
    "  game TEXT NOT NULL, rules TEXT NOT NULL, max_heap INTEGER NOT NULL,"
    "  max_seconds REAL NOT NULL, heaps INTEGER NOT NULL, q_order INTEGER NOT NULL,"
    "  p_portion INTEGER NOT NULL, tame INTEGER NOT NULL, final_heap INTEGER,"
    "  phi_period INTEGER, phi_preperiod INTEGER, stopped TEXT NOT NULL, seconds REAL NOT NULL,"
    "  PRIMARY KEY (game, rules));";

constexpr const char* kQuotientColumns =
    "game, rules, max_heap, max_seconds, heaps, q_order, p_portion, tame, final_heap, "
    "phi_period, phi_preperiod, stopped, seconds";

constexpr const char* kColumns =
    "game, rules, n, checked_to, period, preperiod, saltus, proved, proof_heap, max_value, "
    "method, rare_heaps, checksum, seconds, peak_kib, version";

// A prepared statement, finalized when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, std::string& error) {
    if (sqlite.prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
      error = sqlite.errmsg(db);
  }
  ~Statement() { sqlite.finalize(stmt_); }
  sqlite3_stmt* get() { return stmt_; }
  explicit operator bool() const { return stmt_ != nullptr; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

void bindOptional(sqlite3_stmt* s, int index, const std::optional<int64_t>& v) {
  if (v)
    sqlite.bind_int64(s, index, *v);
  else
    sqlite.bind_null(s, index);
}

std::optional<int64_t> columnOptional(sqlite3_stmt* s, int index) {
  if (sqlite.column_type(s, index) == SQLITE_NULL) return std::nullopt;
  return sqlite.column_int64(s, index);
}

std::string columnText(sqlite3_stmt* s, int index) {
  const unsigned char* text = sqlite.column_text(s, index);
  return text ? reinterpret_cast<const char*>(text) : "";
}

CensusRow readRow(sqlite3_stmt* s) {
  CensusRow r;
  r.game = columnText(s, 0);
  r.rules = columnText(s, 1);
  r.n = sqlite.column_int64(s, 2);
  r.checkedTo = sqlite.column_int64(s, 3);
  r.period = columnOptional(s, 4);
  r.preperiod = columnOptional(s, 5);
  r.saltus = columnOptional(s, 6);
  r.proved = sqlite.column_int64(s, 7) != 0;
  r.proofHeap = columnOptional(s, 8);
  r.maxValue = sqlite.column_int64(s, 9);
  r.method = columnText(s, 10);
  r.rareHeaps = columnOptional(s, 11);
  r.checksum = columnText(s, 12);
  r.seconds = sqlite.column_double(s, 13);
  r.peakKib = sqlite.column_int64(s, 14);
  r.version = columnText(s, 15);
  return r;
}

CensusQuotient readQuotient(sqlite3_stmt* s) {  // columns 2.. of kQuotientColumns
  CensusQuotient q;
  q.maxHeap = sqlite.column_int64(s, 2);
  q.maxSeconds = sqlite.column_double(s, 3);
  q.heaps = sqlite.column_int64(s, 4);
  q.order = sqlite.column_int64(s, 5);
  q.pPortion = sqlite.column_int64(s, 6);
  q.tame = sqlite.column_int64(s, 7) != 0;
  q.finalHeap = columnOptional(s, 8);
  q.period = columnOptional(s, 9);
  q.preperiod = columnOptional(s, 10);
  q.stopped = columnText(s, 11);
  q.seconds = sqlite.column_double(s, 12);
  return q;
}

}  // namespace

std::unique_ptr<CensusDb> CensusDb::open(const std::string& path, Access access,
                                         std::string& error) {
  struct stat info {};
  bool fresh = stat(path.c_str(), &info) != 0 || info.st_size == 0;
  bool create = access == Access::Write;
  if (fresh && !create) {
    error = fmt::format("'{}' is not a census database (it does not exist or is empty)", path);
    return nullptr;
  }
  if (!loadSqlite(error)) return nullptr;
  sqlite3* raw = nullptr;
  int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite.open_v2(path.c_str(), &raw, flags, nullptr) != SQLITE_OK) {
    error = fmt::format("cannot open the database '{}': {}", path,
                        raw ? sqlite.errmsg(raw) : "out of memory");
    sqlite.close(raw);
    return nullptr;
  }
  std::unique_ptr<CensusDb> db(new CensusDb(raw, path));
  sqlite.busy_timeout(raw, 10000);
  std::string why;
  if (fresh) {
    if (!db->exec("BEGIN", why) || !db->exec(kCreate, why) ||
        !db->exec(fmt::format("INSERT INTO meta VALUES('schema', '{}')", kSchema), why) ||
        !db->exec("COMMIT", why)) {
      error = fmt::format("cannot create the database '{}': {}", path, why);
      return nullptr;
    }
  } else {
    // Read before any write: a file of another kind is left untouched.
    Statement s(raw, "SELECT value FROM meta WHERE key = 'schema'", why);
    if (!s) {
      error = fmt::format("'{}' is not a gdsl census database ({})", path, why);
      return nullptr;
    }
    int rc = sqlite.step(s.get());
    if (rc != SQLITE_ROW) {
      error =
          fmt::format("'{}' is not a gdsl census database ({})", path,
                      rc == SQLITE_DONE ? "no schema name in its meta table" : sqlite.errmsg(raw));
      return nullptr;
    }
    std::string schema = columnText(s.get(), 0);
    if (schema != kSchema) {
      error = fmt::format("'{}' is a census database of schema '{}'; this gdsl reads '{}'", path,
                          schema, kSchema);
      return nullptr;
    }
    Statement check(raw, fmt::format("SELECT {} FROM results LIMIT 1", kColumns), why);
    if (!check) {
      error = fmt::format("'{}' is not a gdsl census database ({})", path, why);
      return nullptr;
    }
  }
  if (!create) {
    Statement table(raw, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'quotients'",
                    why);
    db->hasQuotients_ = table && sqlite.step(table.get()) == SQLITE_ROW;
    return db;
  }
  if (!db->exec(kCreateQuotients, why)) {
    error = fmt::format("cannot use the database '{}': {}", path, why);
    return nullptr;
  }
  db->hasQuotients_ = true;
  if (!db->exec("PRAGMA journal_mode=WAL", why) || !db->exec("PRAGMA synchronous=NORMAL", why)) {
    error = fmt::format("cannot use the database '{}': {}", path, why);
    return nullptr;
  }
  db->writer_ = true;
  return db;
}

CensusDb::~CensusDb() {
  // Back to rollback mode: this fails, harmlessly, while another connection
  // (a census beside this one) still has the file open, and the last one's
  // close does it.
  std::string ignored;
  if (writer_) {
    sqlite.busy_timeout(db_, 0);  // no wait for the others: a census's end is not held up
    exec("PRAGMA journal_mode=DELETE", ignored);
  }
  sqlite.close(db_);
}

bool CensusDb::exec(const std::string& sql, std::string& error) {
  char* message = nullptr;
  if (sqlite.exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  error = message ? message : sqlite.errmsg(db_);
  sqlite.free(message);
  return false;
}

std::set<std::pair<std::string, std::string>> CensusDb::done(int64_t n, std::string& error) {
  std::set<std::pair<std::string, std::string>> out;
  Statement s(db_, "SELECT game, rules FROM results WHERE n = ?", error);
  if (!s) return out;
  sqlite.bind_int64(s.get(), 1, n);
  while (sqlite.step(s.get()) == SQLITE_ROW)
    out.emplace(columnText(s.get(), 0), columnText(s.get(), 1));
  return out;
}

std::vector<std::pair<std::pair<std::string, std::string>, double>> CensusDb::costs(
    std::string& error) {
  std::vector<std::pair<std::pair<std::string, std::string>, double>> out;
  Statement s(db_, "SELECT game, rules, MAX(seconds) FROM results GROUP BY game, rules", error);
  if (!s) return out;
  while (sqlite.step(s.get()) == SQLITE_ROW)
    out.push_back(
        {{columnText(s.get(), 0), columnText(s.get(), 1)}, sqlite.column_double(s.get(), 2)});
  return out;
}

bool CensusDb::insert(const CensusRow& r, std::string& error) {
  Statement s(db_,
              fmt::format("INSERT OR IGNORE INTO results ({}) VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          kColumns),
              error);
  if (!s) return false;
  sqlite3_stmt* st = s.get();
  sqlite.bind_text(st, 1, r.game.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_text(st, 2, r.rules.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_int64(st, 3, r.n);
  sqlite.bind_int64(st, 4, r.checkedTo);
  bindOptional(st, 5, r.period);
  bindOptional(st, 6, r.preperiod);
  bindOptional(st, 7, r.saltus);
  sqlite.bind_int64(st, 8, r.proved ? 1 : 0);
  bindOptional(st, 9, r.proofHeap);
  sqlite.bind_int64(st, 10, r.maxValue);
  sqlite.bind_text(st, 11, r.method.c_str(), -1, SQLITE_TRANSIENT);
  bindOptional(st, 12, r.rareHeaps);
  sqlite.bind_text(st, 13, r.checksum.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_double(st, 14, r.seconds);
  sqlite.bind_int64(st, 15, r.peakKib);
  sqlite.bind_text(st, 16, r.version.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite.step(st) != SQLITE_DONE) {
    error = sqlite.errmsg(db_);
    return false;
  }
  return true;
}

bool CensusDb::insertQuotient(const std::string& game, const std::string& rules,
                              const CensusQuotient& q, std::string& error) {
  // A final quotient stays; otherwise the one that went further wins.
  Statement s(
      db_,
      fmt::format("INSERT INTO quotients ({}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT (game, rules) DO UPDATE SET max_heap = excluded.max_heap, "
                  "max_seconds = excluded.max_seconds, heaps = excluded.heaps, "
                  "q_order = excluded.q_order, p_portion = excluded.p_portion, "
                  "tame = excluded.tame, final_heap = excluded.final_heap, "
                  "phi_period = excluded.phi_period, "
                  "phi_preperiod = excluded.phi_preperiod, stopped = excluded.stopped, "
                  "seconds = excluded.seconds WHERE quotients.final_heap IS NULL AND "
                  "(excluded.final_heap IS NOT NULL OR excluded.heaps > quotients.heaps "
                  "OR (excluded.heaps = quotients.heaps AND "
                  "excluded.max_heap > quotients.max_heap))",
                  kQuotientColumns),
      error);
  if (!s) return false;
  sqlite3_stmt* st = s.get();
  sqlite.bind_text(st, 1, game.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_text(st, 2, rules.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_int64(st, 3, q.maxHeap);
  sqlite.bind_double(st, 4, q.maxSeconds);
  sqlite.bind_int64(st, 5, q.heaps);
  sqlite.bind_int64(st, 6, q.order);
  sqlite.bind_int64(st, 7, q.pPortion);
  sqlite.bind_int64(st, 8, q.tame ? 1 : 0);
  bindOptional(st, 9, q.finalHeap);
  bindOptional(st, 10, q.period);
  bindOptional(st, 11, q.preperiod);
  sqlite.bind_text(st, 12, q.stopped.c_str(), -1, SQLITE_TRANSIENT);
  sqlite.bind_double(st, 13, q.seconds);
  if (sqlite.step(st) != SQLITE_DONE) {
    error = sqlite.errmsg(db_);
    return false;
  }
  return true;
}

std::set<std::pair<std::string, std::string>> CensusDb::quotientsDone(int64_t maxHeap,
                                                                      double maxSeconds,
                                                                      std::string& error) {
  std::set<std::pair<std::string, std::string>> out;
  if (!hasQuotients_) return out;
  Statement s(db_,
              "SELECT game, rules FROM quotients WHERE final_heap IS NOT NULL OR heaps < 0 OR "
              "(max_heap >= ? AND max_seconds >= ?)",
              error);
  if (!s) return out;
  sqlite.bind_int64(s.get(), 1, maxHeap);
  sqlite.bind_double(s.get(), 2, maxSeconds);
  while (sqlite.step(s.get()) == SQLITE_ROW)
    out.emplace(columnText(s.get(), 0), columnText(s.get(), 1));
  return out;
}

bool CensusDb::rows(std::vector<CensusRow>& out, bool openOnly, std::string& error) {
  Statement s(db_,
              fmt::format("SELECT {} FROM results{} ORDER BY game, rules, n", kColumns,
                          openOnly ? " WHERE proved = 0" : ""),
              error);
  if (!s) return false;
  int rc;
  size_t first = out.size();
  while ((rc = sqlite.step(s.get())) == SQLITE_ROW) out.push_back(readRow(s.get()));
  if (rc != SQLITE_DONE) {
    error = sqlite.errmsg(db_);
    return false;
  }
  if (!hasQuotients_) return true;
  std::map<std::pair<std::string, std::string>, CensusQuotient> quotients;
  Statement q(db_, fmt::format("SELECT {} FROM quotients", kQuotientColumns), error);
  if (!q) return false;
  while ((rc = sqlite.step(q.get())) == SQLITE_ROW)
    quotients[{columnText(q.get(), 0), columnText(q.get(), 1)}] = readQuotient(q.get());
  if (rc != SQLITE_DONE) {
    error = sqlite.errmsg(db_);
    return false;
  }
  for (size_t i = first; i < out.size(); ++i) {
    auto it = quotients.find({out[i].game, out[i].rules});
    if (it != quotients.end()) out[i].quotient = it->second;
  }
  return true;
}

bool CensusDb::conflict(const std::vector<NamedRows>& sources, std::string& error) {
  std::map<std::tuple<std::string, std::string, int64_t>, std::pair<const CensusRow*, std::string>>
      seen;
  for (const auto& [name, rows] : sources)
    for (const CensusRow& r : rows) {
      auto [it, isNew] = seen.insert({{r.game, r.rules, r.n}, {&r, name}});
      // The same game, rules and N must have given the same values.
      if (!isNew && it->second.first->checksum != r.checksum) {
        error =
            fmt::format("'{}' has {} to {} with checksum {}, '{}' has {}: nothing was merged", name,
                        r.game, r.n, r.checksum, it->second.second, it->second.first->checksum);
        return true;
      }
    }
  return false;
}

bool CensusDb::merge(const std::vector<NamedRows>& inputs, std::vector<int64_t>& added,
                     std::string& error) {
  std::vector<NamedRows> sources{{path_, {}}};
  if (!rows(sources[0].second, false, error)) return false;
  sources.insert(sources.end(), inputs.begin(), inputs.end());
  if (conflict(sources, error)) return false;
  std::set<std::tuple<std::string, std::string, int64_t>> have;
  for (const CensusRow& r : sources[0].second) have.insert({r.game, r.rules, r.n});
  added.assign(inputs.size(), 0);
  if (!exec("BEGIN", error)) return false;
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const CensusRow& r : inputs[i].second) {
      if (r.quotient && !insertQuotient(r.game, r.rules, *r.quotient, error)) {
        std::string ignored;
        exec("ROLLBACK", ignored);
        return false;
      }
      if (!have.insert({r.game, r.rules, r.n}).second) continue;
      if (!insert(r, error)) {
        std::string ignored;
        exec("ROLLBACK", ignored);
        return false;
      }
      ++added[i];
    }
  return exec("COMMIT", error);
}

}  // namespace gdsl
