// gdsl census (see Census.h): the games of a family, one game's row, and
// the report and merge commands. Running a census is driver/CensusRun.cpp.
#include "driver/Census.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "compiler/ir/Fingerprint.h"
#include "driver/InterruptAfter.h"
#include "driver/Quotient.h"
#include "driver/Stack.h"
#include "driver/TableStore.h"
#include "runtime/Period.h"

namespace gdsl {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string hex64(uint64_t v) {
  return fmt::format("{:016x}", v);
}

// "0.1370" -> "0.137" (hexadecimal: "0.b10" -> "0.B1"); false when it is
// not a code.
bool normalizeCode(std::string code, bool hex, std::string& out) {
  static const std::regex octal("^([0-7])\\.([0-7]+)$");
  static const std::regex hexadecimal("^([048C])\\.([0-9A-F]+)$");
  for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::smatch m;
  if (!std::regex_match(code, m, hex ? hexadecimal : octal)) return false;
  std::string digits = m[2].str();
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  out = m[1].str() + "." + digits;
  return true;
}

// The program of one octal (or hexadecimal) code, its game named after the
// code: O0_137, X0_B1 (its key `hex 0.B1`).
CensusGame codeGame(const std::string& code, bool hex) {
  CensusGame g;
  g.key = hex ? "hex " + code : code;
  g.name = (hex ? "X" : "O") + code.substr(0, 1) + "_" + code.substr(2);
  g.source = fmt::format("game {} = {} \"{}\"\n", g.name, hex ? "hex" : "octal", code);
  g.fileName = "<census " + g.key + ">";
  return g;
}

// Every code a pattern of digits and '?' stands for, in order; '?' is every
// octal digit, or with `hex` every hexadecimal one.
void expandPattern(const std::string& pattern, size_t at, std::string& current, bool hex,
                   std::vector<std::string>& out) {
  if (at == pattern.size()) {
    out.push_back(current);
    return;
  }
  if (pattern[at] != '?') {
    current.push_back(pattern[at]);
    expandPattern(pattern, at + 1, current, hex, out);
    current.pop_back();
    return;
  }
  for (char d : std::string_view(hex ? "0123456789ABCDEF" : "01234567")) {
    current.push_back(d);
    expandPattern(pattern, at + 1, current, hex, out);
    current.pop_back();
  }
}

// Compiles `source` and gives the rules' fingerprint of each of its games, by name.
bool fingerprints(const std::string& fileName, const std::string& path, const std::string& source,
                  std::map<std::string, std::string>& out, std::string& error) {
  Workspace ws;
  if (!ws.load(fileName, path, source)) {
    error = ws.renderDiagnostics();
    return false;
  }
  std::vector<uint64_t> prints = ir::gameFingerprints(ws.program());
  for (size_t g = 0; g < prints.size(); ++g) out[ws.program().games[g].name] = hex64(prints[g]);
  return true;
}

// The sum of "N rare heaps" in a method's description (sparse space).
std::optional<int64_t> rareHeapsOf(const std::string& method) {
  static const std::regex rare("(\\d+) rare heaps?");
  std::optional<int64_t> total;
  for (auto it = std::sregex_iterator(method.begin(), method.end(), rare);
       it != std::sregex_iterator(); ++it)
    total = total.value_or(0) + std::stoll((*it)[1].str());
  return total;
}

// The row's optional numbers: null in JSON when absent.
nlohmann::json optionalJson(const std::optional<int64_t>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<int64_t> optionalFromJson(const nlohmann::json& j, const char* key) {
  if (j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<int64_t>();
}

nlohmann::json quotientJson(const CensusQuotient& q) {
  return {{"max_heap", q.maxHeap},
          {"max_seconds", q.maxSeconds},
          {"heaps", q.heaps},
          {"order", q.order},
          {"p_portion", q.pPortion},
          {"tame", q.tame},
          {"final_heap", optionalJson(q.finalHeap)},
          {"phi_period", optionalJson(q.period)},
          {"phi_preperiod", optionalJson(q.preperiod)},
          {"stopped", q.stopped},
          {"seconds", q.seconds}};
}

CensusQuotient quotientFromJson(const nlohmann::json& j) {
  CensusQuotient q;
  q.maxHeap = j.at("max_heap").get<int64_t>();
  q.maxSeconds = j.at("max_seconds").get<double>();
  q.heaps = j.at("heaps").get<int64_t>();
  q.order = j.at("order").get<int64_t>();
  q.pPortion = j.at("p_portion").get<int64_t>();
  q.tame = j.at("tame").get<bool>();
  q.finalHeap = optionalFromJson(j, "final_heap");
  q.period = optionalFromJson(j, "phi_period");
  q.preperiod = optionalFromJson(j, "phi_preperiod");
  q.stopped = j.at("stopped").get<std::string>();
  q.seconds = j.at("seconds").get<double>();
  return q;
}

}  // namespace

nlohmann::json censusRowJson(const CensusRow& r) {
  const auto& opt = optionalJson;
  return {{"game", r.game},
          {"rules", r.rules},
          {"n", r.n},
          {"checked_to", r.checkedTo},
          {"period", opt(r.period)},
          {"preperiod", opt(r.preperiod)},
          {"saltus", opt(r.saltus)},
          {"proved", r.proved},
          {"proof_heap", opt(r.proofHeap)},
          {"max_value", r.maxValue},
          {"method", r.method},
          {"rare_heaps", opt(r.rareHeaps)},
          {"checksum", r.checksum},
          {"seconds", r.seconds},
          {"version", r.version},
          {"quotient", r.quotient ? quotientJson(*r.quotient) : nlohmann::json(nullptr)}};
}

CensusRow censusRowFromJson(const nlohmann::json& j) {
  auto opt = [&](const char* key) { return optionalFromJson(j, key); };
  CensusRow r;
  r.game = j.at("game").get<std::string>();
  r.rules = j.at("rules").get<std::string>();
  r.n = j.at("n").get<int64_t>();
  r.checkedTo = j.at("checked_to").get<int64_t>();
  r.period = opt("period");
  r.preperiod = opt("preperiod");
  r.saltus = opt("saltus");
  r.proved = j.at("proved").get<bool>();
  r.proofHeap = opt("proof_heap");
  r.maxValue = j.at("max_value").get<int64_t>();
  r.method = j.at("method").get<std::string>();
  r.rareHeaps = opt("rare_heaps");
  r.checksum = j.at("checksum").get<std::string>();
  r.seconds = j.at("seconds").get<double>();
  r.version = j.at("version").get<std::string>();
  if (j.contains("quotient") && !j.at("quotient").is_null())
    r.quotient = quotientFromJson(j.at("quotient"));
  return r;
}

bool censusGames(const std::string& family, std::vector<CensusGame>& out, bool& usageError,
                 std::string& error) {
  usageError = false;
  out.clear();
  bool isFile = family.size() > 5 && family.substr(family.size() - 5) == ".game";
  if (!isFile) {
    std::vector<std::pair<std::string, bool>> codes;  // each code, and whether it is hexadecimal
    std::set<std::string> seen;
    std::stringstream items(family);
    std::string item;
    static const std::regex pattern("^[0-7]\\.[0-7?]+$");
    static const std::regex hexPattern("^hex +[048cC]\\.[0-9A-Fa-f?]+$");
    while (std::getline(items, item, ',')) {
      item.erase(0, item.find_first_not_of(' '));
      const bool hex = item.rfind("hex", 0) == 0;
      if (hex ? !std::regex_match(item, hexPattern) : !std::regex_match(item, pattern)) {
        usageError = true;
        error = hex ? fmt::format(
                          "'{}' is not a hexadecimal code or pattern: expected 'hex', a "
                          "digit 0, 4, 8 or C, a point and hexadecimal digits or '?', "
                          "like 'hex 0.B1' or 'hex 0.?\?'",
                          item)
                    : fmt::format(
                          "'{}' is not an octal code or pattern: expected a digit 0-7, a point "
                          "and octal digits or '?', like '0.137' or '0.?\?\?' (or 'hex 0.?\?', "
                          "or a .game file)",
                          item);
        return false;
      }
      std::string body = hex ? item.substr(item.find_first_not_of(' ', 3)) : item;
      for (char& c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      std::vector<std::string> expanded;
      std::string current;
      expandPattern(body, 0, current, hex, expanded);
      for (const std::string& code : expanded) {
        std::string normal;
        normalizeCode(code, hex, normal);
        if (normal.substr(2) == "0" && normal[0] == '0') continue;  // no moves at all
        if (seen.insert((hex ? "hex " : "") + normal).second) codes.emplace_back(normal, hex);
      }
    }
    if (codes.empty()) {
      usageError = true;
      error = fmt::format("'{}' names no game with a move", family);
      return false;
    }
    // One program with every code: compiled once for the fingerprints.
    std::string all;
    for (const auto& [code, hex] : codes) {
      out.push_back(codeGame(code, hex));
      all += out.back().source;
    }
    std::map<std::string, std::string> prints;
    if (!fingerprints("<census>", "", all, prints, error)) return false;
    for (CensusGame& g : out) g.rules = prints[g.name];
    return true;
  }
  std::ifstream in(family, std::ios::binary);
  if (!in) {
    usageError = true;
    error = fmt::format("cannot read '{}': {}", family, std::strerror(errno));
    return false;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Workspace ws;
  if (!ws.load(family, family, text)) {
    error = ws.renderDiagnostics();
    return false;
  }
  std::vector<uint64_t> prints = ir::gameFingerprints(ws.program());
  for (size_t g = 0; g < ws.program().games.size(); ++g) {
    const ir::Game& game = ws.program().games[g];
    if (!game.oneHeap() || game.loc.file != 0) continue;  // the file's own one-heap games
    CensusGame c;
    c.key = c.name = game.name;
    c.source = text;
    c.fileName = c.path = family;
    c.rules = hex64(prints[g]);
    out.push_back(std::move(c));
  }
  if (out.empty()) {
    error = fmt::format("'{}' has no one-heap game (a game with one integer parameter)", family);
    return false;
  }
  return true;
}

namespace {

// The quotient of heap game `index` under the census's limits; what was
// finished when the time ran out, or why there is none.
CensusQuotient censusQuotient(Engine& engine, int index, const ir::Game& g,
                              const CensusQuotientLimits& limits) {
  auto start = Clock::now();
  CensusQuotient c;
  c.maxHeap = limits.maxHeap;
  c.maxSeconds = limits.seconds;
  auto fill = [&](const QuotientResult& q) {
    const BipartiteMonoid& m = q.quotient;
    c.heaps = q.lastHeap;
    c.order = m.size;
    c.pPortion = std::count(m.inP.begin(), m.inP.end(), true);
    c.tame = isTame(m, productTable(m));
    c.finalHeap = q.finalHeap;
    c.period = q.period;
    c.preperiod = q.preperiod;
    c.stopped = q.stopped;
  };
  if (g.normalize || g.loopy) {
    c.stopped = "not a heap game (a normalize rule, or loopy)";
    return c;
  }
  QuotientResult partial;
  partial.lastHeap = -1;
  try {
    InterruptAfter budget(limits.seconds);
    fill(gameQuotient(engine, index, limits.maxHeap, CensusQuotientLimits::kMaxOrder, nullptr,
                      &partial));
  } catch (const Interrupted&) {
    if (partial.lastHeap >= 0) fill(partial);
    c.stopped = fmt::format("the time limit ({:g} s)", limits.seconds);
  } catch (const RuntimeError& e) {
    c.stopped = e.describe();  // a move that leaves another game, or no smaller heap
  } catch (const std::runtime_error& e) {
    c.stopped = e.what();
  }
  c.seconds = secondsSince(start);
  return c;
}

}  // namespace

bool computeCensusGame(const CensusGame& game, int64_t n, const std::string& checkpoint,
                       BackendKind backend, const std::string& version, CensusRow& row,
                       std::string& error, const CensusQuotientLimits& quotient) {
  auto start = Clock::now();
  StackOptions options(backend);
  options.engine.checkpointPath = checkpoint;
  if (!checkpoint.empty())
    std::filesystem::create_directories(std::filesystem::path(checkpoint).parent_path());
  Stack stack(options);
  if (!stack.load(game.fileName, game.path, game.source)) {
    error = stack.workspace().renderDiagnostics();
    return false;
  }
  if (!stack.start(error)) return false;
  Engine& engine = stack.engine();
  TableStore store(
      engine, [&](const std::string& message) { error = message; }, std::cerr);
  int index = stack.program().findGame(game.name);
  const ir::Game& g = stack.program().games[static_cast<size_t>(index)];
  try {
    store.resumeOrRestart();  // a checkpoint damaged or for other rules: start afresh
    std::optional<PeriodInfo> p = engine.period(index, n);
    row.game = game.key;
    row.rules = game.rules;
    row.n = n;
    row.checkedTo = n;
    if (p) {
      row.period = p->period;
      row.preperiod = p->preperiod;
      row.saltus = p->saltus;
      row.proved = p->proved;
      // A proof heap for the codes' periods and every arithmetic one (a
      // period of `move` rules is recorded without, as before).
      if (p->proved && (g.takeBreakBound || p->saltus != 0)) {
        row.proofHeap = p->proofHeap;
        row.checkedTo = std::min(n, p->proofHeap);
      }
    }
    // g(0..checkedTo): the table, or the engine (periodic values past the proof).
    const NimTable& table = engine.heapTable(index);
    uint64_t h = 0, m = (uint64_t{1} << 61) - 1;
    int64_t maxValue = 0;
    for (int64_t heap = 0; heap <= row.checkedTo; ++heap) {
      uint64_t v;
      if (heap < table.size()) {
        v = table[heap];
      } else {
        Position pos;
        pos.game = static_cast<uint32_t>(index);
        pos.words.push_back(heap);
        v = engine.value(pos);
      }
      h = static_cast<uint64_t>((static_cast<unsigned __int128>(h) * 1000003 + v) % m);
      maxValue = std::max<int64_t>(maxValue, static_cast<int64_t>(v));
    }
    row.maxValue = maxValue;
    row.checksum = hex64(h);
    row.method = engine.tableMethod(index);
    if (row.method.empty()) row.method = "search";
    row.rareHeaps = rareHeapsOf(row.method);
    if (!store.finish()) return false;
    row.seconds = secondsSince(start);  // the values' time; the quotient's is its own
    if (quotient.maxHeap > 0) row.quotient = censusQuotient(engine, index, g, quotient);
  } catch (const RuntimeError& e) {
    error = e.describe();
    return false;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  row.version = version;
  return true;
}

namespace {

// The report's numeric sort keys (--sort), each with its column.
struct SortKey {
  const char* name;
  std::optional<double> (*column)(const CensusRow&);
};
const SortKey kSortKeys[] = {
    {"period", [](const CensusRow& r) -> std::optional<double> { return r.period; }},
    {"preperiod", [](const CensusRow& r) -> std::optional<double> { return r.preperiod; }},
    {"proof", [](const CensusRow& r) -> std::optional<double> { return r.proofHeap; }},
    {"value", [](const CensusRow& r) -> std::optional<double> { return r.maxValue; }},
    {"rare", [](const CensusRow& r) -> std::optional<double> { return r.rareHeaps; }},
    {"seconds", [](const CensusRow& r) -> std::optional<double> { return r.seconds; }},
};

}  // namespace

bool censusSortKey(const std::string& key) {
  return key == "game" || std::any_of(std::begin(kSortKeys), std::end(kSortKeys),
                                      [&](const SortKey& k) { return key == k.name; });
}

std::string describeQuotient(const CensusQuotient& q) {
  if (q.order == 0) return "no quotient: " + q.stopped;
  std::string s =
      fmt::format("|Q| = {}, |P| = {}, {}", q.order, q.pPortion, q.tame ? "tame" : "wild");
  if (q.finalHeap) return s + fmt::format(", final at heap {}", *q.finalHeap);
  s += fmt::format(" at heap {}, ", q.heaps);
  return s + (q.stopped.empty() ? "not proved final" : "stopped: " + q.stopped);
}

std::string censusCounts(const std::vector<CensusRow>& rows) {
  size_t proved = 0, arithmetic = 0;
  for (const CensusRow& r : rows) {
    proved += r.proved;
    arithmetic += r.saltus && *r.saltus != 0;
  }
  return fmt::format("{} proved, {} open, {} arithmetic-periodic", proved, rows.size() - proved,
                     arithmetic);
}

int censusReport(const std::string& path, const CensusReportOptions& o) {
  std::string error;
  std::unique_ptr<CensusDb> db = CensusDb::open(path, CensusDb::Access::Read, error);
  std::vector<CensusRow> rows;
  if (!db || !db->rows(rows, o.openOnly, error)) {
    std::cerr << "gdsl: " << error << "\n";
    return 1;
  }
  // Numeric keys put the largest first (a row without the number last), ties by game.
  if (o.sort != "game") {
    auto key = std::find_if(std::begin(kSortKeys), std::end(kSortKeys), [&](const SortKey& k) {
                 return o.sort == k.name;
               })->column;
    std::stable_sort(rows.begin(), rows.end(), [&](const CensusRow& a, const CensusRow& b) {
      std::optional<double> x = key(a), y = key(b);
      return x && (!y || *x > *y);
    });
  }
  auto opt = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
  // The quotient columns come last, and only when some row has a quotient.
  bool quotients = std::any_of(rows.begin(), rows.end(),
                               [](const CensusRow& r) { return r.quotient.has_value(); });
  if (o.csv) {
    std::cout << "game,rules,n,checked_to,period,preperiod,saltus,proved,proof_heap,max_value,"
                 "rare_heaps,checksum,seconds,peak_kib,version,method"
              << (quotients ? ",q_heaps,q_order,q_p_portion,q_tame,q_final_heap,q_phi_period,"
                              "q_phi_preperiod,q_stopped,q_seconds"
                            : "")
              << "\n";
    for (const CensusRow& r : rows) {
      std::cout << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{:.3f},{},{},\"{}\"", r.game,
                               r.rules, r.n, r.checkedTo, opt(r.period), opt(r.preperiod),
                               opt(r.saltus), r.proved ? 1 : 0, opt(r.proofHeap), r.maxValue,
                               opt(r.rareHeaps), r.checksum, r.seconds, r.peakKib, r.version,
                               r.method);
      if (quotients && r.quotient) {
        const CensusQuotient& q = *r.quotient;
        std::string stopped = q.stopped;
        std::replace(stopped.begin(), stopped.end(), '"', '\'');
        std::cout << fmt::format(",{},{},{},{},{},{},{},\"{}\",{:.3f}", q.heaps, q.order,
                                 q.pPortion, q.tame ? 1 : 0, opt(q.finalHeap), opt(q.period),
                                 opt(q.preperiod), stopped, q.seconds);
      } else if (quotients) {
        std::cout << ",,,,,,,,,";
      }
      std::cout << "\n";
    }
    return 0;
  }
  std::cout << "| game | N | values to | period | preperiod | saltus | proved | proof heap | "
               "largest value | rare heaps |"
            << (o.times ? " seconds | peak KiB |" : "") << (quotients ? " misère quotient |" : "")
            << "\n| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"
            << (o.times ? " ---: | ---: |" : "") << (quotients ? " --- |" : "") << "\n";
  for (const CensusRow& r : rows) {
    std::cout << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |", r.game, r.n,
                             r.checkedTo, opt(r.period), opt(r.preperiod), opt(r.saltus),
                             r.proved ? "yes" : "no", opt(r.proofHeap), r.maxValue,
                             opt(r.rareHeaps))
              << (o.times ? fmt::format(" {:.3f} | {} |", r.seconds, r.peakKib) : "");
    if (quotients) {
      std::string text = r.quotient ? describeQuotient(*r.quotient) : "";
      size_t at = 0;  // a '|' would end the cell: Markdown's escape
      while ((at = text.find('|', at)) != std::string::npos) {
        text.insert(at, "\\");
        at += 2;
      }
      std::cout << " " << text << " |";
    }
    std::cout << "\n";
  }
  std::cout << fmt::format("\n{} rows: {}\n", rows.size(), censusCounts(rows));
  return 0;
}

int censusMerge(const std::vector<std::string>& inputs, const std::string& output) {
  // Every input is read before the output is opened: a bad input changes nothing.
  std::string error;
  std::vector<CensusDb::NamedRows> rows;
  for (const std::string& input : inputs) {
    rows.push_back({input, {}});
    std::unique_ptr<CensusDb> in = CensusDb::open(input, CensusDb::Access::Read, error);
    if (!in || !in->rows(rows.back().second, false, error)) {
      std::cerr << "gdsl: " << error << "\n";
      return 1;
    }
  }
  if (CensusDb::conflict(rows, error)) {
    std::cerr << "gdsl: " << error << "\n";
    return 1;
  }
  bool existed = std::filesystem::exists(output);
  std::unique_ptr<CensusDb> db = CensusDb::open(output, CensusDb::Access::Write, error);
  std::vector<int64_t> added;
  if (!db || !db->merge(rows, added, error)) {
    std::cerr << "gdsl: " << error << "\n";
    if (db && !existed) {  // the output made for the merge goes again
      db.reset();
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(output + suffix);
    }
    return 1;
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    std::cerr << fmt::format("census: {} new rows from '{}'\n", added[i], inputs[i]);
  return 0;
}

}  // namespace gdsl
