// The REPL's session: entries, rebuilding the program when something is
// declared, keeping the values of unchanged games, and the `:` commands.
#include "driver/Repl.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "compiler/ir/Fingerprint.h"
#include "compiler/parse/Parser.h"
#include "compiler/sema/Sema.h"
#include "compiler/support/Interrupt.h"
#include "driver/InterruptAfter.h"
#include "driver/Output.h"
#include "driver/Progress.h"
#include "driver/Runner.h"
#include "driver/Stack.h"
#include "driver/Stdlib.h"

namespace gdsl {

namespace {

const std::vector<std::pair<std::string, std::string>>& commands() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {":load FILE", "read FILE's games and run its statements"},
      {":time", "show how long each answer took (again to stop)"},
      {":backend interp|jit|auto", "switch backends; computed values are kept"},
      {":games", "list the games in scope"},
      {":stats", "how many values are memoized, and how the tables were computed"},
      {":help", "this list"},
      {":quit", "leave (Ctrl-D too)"},
  };
  return list;
}

// `text` with the byte ranges in `blank` replaced by spaces, one space per
// code point, newlines kept: lines and columns of the rest do not move.
std::string blankOut(const std::string& text,
                     const std::vector<std::pair<uint32_t, uint32_t>>& blank) {
  std::vector<bool> hide(text.size(), false);
  for (auto [begin, end] : blank)
    for (uint32_t i = begin; i < end && i < text.size(); ++i) hide[i] = true;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!hide[i] || c == '\n' || c == '\r')
      out += c;
    else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)  // not a continuation byte
      out += ' ';
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string formatDuration(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.0f} µs", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.1f} ms", seconds * 1e3);
  return fmt::format("{:.2f} s", seconds);
}

}  // namespace

// A compiled program with its stack: replaced as a whole on each rebuild.
struct ReplSession::Built {
  std::unique_ptr<Stack> stack;  // its misère memo lasts between entries
  std::unique_ptr<Output> output;
  std::unique_ptr<Runner> runner;
  std::vector<uint64_t> fingerprints;
};

SourceEntry ReplSession::Entry::declarations() const {
  std::vector<std::pair<uint32_t, uint32_t>> blank;
  for (const Part& p : parts)
    if (!p.declaration || p.superseded) blank.emplace_back(p.begin, p.end);
  return SourceEntry{name, path, blankOut(text, blank)};
}

SourceEntry ReplSession::Entry::statements() const {
  std::vector<std::pair<uint32_t, uint32_t>> blank;
  for (const Part& p : parts)
    if (p.declaration) blank.emplace_back(p.begin, p.end);
  return SourceEntry{name, path, blankOut(text, blank)};
}

ReplSession::ReplSession(BackendKind backend, std::ostream& out, std::ostream& err, Limits limits,
                         OutputMaker makeOutput)
    : out_(out),
      err_(err),
      makeOutput_(makeOutput ? std::move(makeOutput) : OutputMaker(makeTextOutput)),
      limits_(limits),
      watchdog_(limits),
      backend_(backend) {
  watchdog_.pause();
  built_ = build({}, backend_);
}

ReplSession::~ReplSession() = default;

std::unique_ptr<ReplSession::Built> ReplSession::build(const std::vector<Entry>& entries,
                                                       BackendKind kind) {
  auto b = std::make_unique<Built>();
  StackOptions options(kind);
  options.engine.progress = makeProgressBar(2);
  options.engine.maxStates = limits_.maxStates;
  options.engine.maxMemory = limits_.maxMemory;
  b->stack = std::make_unique<Stack>(options);
  std::vector<SourceEntry> sources;
  for (const Entry& e : entries) sources.push_back(e.declarations());
  if (!b->stack->loadEntries(sources)) {
    err_ << b->stack->workspace().renderDiagnostics();
    return nullptr;
  }
  std::string error;
  if (!b->stack->start(error)) {
    err_ << "cannot start the " << backendKindName(kind) << " backend: " << error << "\n";
    return nullptr;
  }
  b->output = makeOutput_(out_, err_, b->stack->workspace().sources());
  b->runner = std::make_unique<Runner>(*b->stack, *b->output);
  b->fingerprints = ir::gameFingerprints(b->stack->program());
  return b;
}

bool ReplSession::incomplete(const std::string& text) {
  int depth = 0;
  bool inString = false, inBlockComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (inBlockComment) {
      if (c == '*' && next == '/') inBlockComment = false, ++i;
    } else if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"' || c == '\n')
        inString = false;
    } else if (c == '/' && next == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && next == '*') {
      inBlockComment = true, ++i;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '(' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ')' || c == ']') {
      --depth;
    }
  }
  return depth > 0 || inBlockComment;
}

bool ReplSession::submit(const std::string& text) {
  return submit(text, "");
}

bool ReplSession::submit(const std::string& text, const std::string& name) {
  failed_ = stopped_ = false;
  std::string line = trim(text);
  if (line.empty()) return true;
  clearInterrupt();
  watchdog_.start();
  bool goOn = true;
  try {
    if (line[0] == ':') {
      goOn = command(line);
    } else {
      Entry entry;
      ++inputs_;
      entry.name = name.empty() ? fmt::format("<input {}>", inputs_) : name;
      entry.text = text;
      enter(std::move(entry));
    }
  } catch (const Interrupted& e) {
    stopped(e);
  }
  watchdog_.pause();
  clearInterrupt();
  return goOn;
}

bool ReplSession::submitCell(const std::string& text, const std::string& name) {
  // The cell's lines, each either a command or part of the text.
  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  bool failed = false, goOn = true;
  std::string pending;  // the text since the last command, earlier lines blank
  bool hasText = false;
  auto flush = [&] {
    if (hasText) {
      goOn = submit(pending, name);
      failed = failed || failed_;
    }
    hasText = false;
    pending.clear();
    return goOn && !stopped_;
  };
  std::string sofar;  // for `incomplete`: a `:` inside braces is text
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trim(lines[i]);
    if (!line.empty() && line[0] == ':' && !incomplete(sofar)) {
      if (!flush()) break;
      goOn = submit(line);
      failed = failed || failed_;
      if (!goOn || stopped_) break;
      pending.assign(i + 1, '\n');  // the next text starts on the next line
      sofar.clear();
      continue;
    }
    pending += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    sofar += lines[i] + "\n";
    hasText = hasText || !line.empty();
  }
  if (goOn && !stopped_) flush();
  failed_ = failed || failed_;
  return goOn;
}

// After Ctrl-C or a limit: the values computed so far stay, except after the
// memory limit, where they are dropped so that the session can go on.
void ReplSession::stopped(const Interrupted& e) {
  failed_ = stopped_ = true;
  watchdog_.pause();
  if (e.reason == StopReason::Memory) {
    built_.reset();
    releaseFreedMemory();  // or the next entry stops at once
    built_ = build(entries_, backend_);
    err_ << limitMessage(e.reason, limits_) << "\nthe values computed so far were dropped\n";
    return;
  }
  err_ << limitMessage(e.reason, limits_) << "; the values computed so far are kept\n";
}

bool ReplSession::load(const std::string& file) {
  Entry entry;
  std::string error;
  if (!readFile(file, entry.text, error)) {
    err_ << fmt::format("cannot read '{}': {}\n", file, error);
    failed_ = true;
    return false;
  }
  entry.name = file;
  entry.path = file;
  return enter(std::move(entry));
}

// Parses the entry to split it into declarations and statements, rebuilds
// the program when it declares something, then runs its statements.
bool ReplSession::enter(Entry entry) {
  SourceManager sources;
  DiagnosticSink diagnostics;
  uint32_t file = sources.add(entry.name, entry.path, entry.text);
  std::optional<ast::Module> module = parseModule(sources, file, diagnostics);
  if (!module) {
    for (const Diagnostic& d : diagnostics.all()) err_ << render(sources, d);
    failed_ = true;
    return false;
  }
  for (const Diagnostic& d : diagnostics.warnings()) err_ << render(sources, d);
  bool declares = false, runs = false;
  for (const ast::Statement& s : module->statements) {
    Part part;
    part.begin = s.range.begin;
    part.end = s.range.end;
    switch (s.kind) {
      case ast::Statement::Kind::Game:
        part.declaration = true;
        part.name = s.game->name;
        break;
      case ast::Statement::Kind::Const:
        part.declaration = true;
        part.name = s.name;
        break;
      case ast::Statement::Kind::Import:
        part.declaration = true;
        break;
      default:
        break;
    }
    declares = declares || part.declaration;
    runs = runs || !part.declaration;
    entry.parts.push_back(part);
  }
  if (declares && !define(entry)) {
    failed_ = true;
    return false;
  }
  if (runs) runStatements(entry);
  return true;
}

// Rebuilds the program with `entry` added (its names replacing earlier
// declarations), then moves over the values of the games that did not change.
bool ReplSession::define(const Entry& entry) {
  std::set<std::string> names;
  for (const Part& p : entry.parts)
    if (p.declaration && !p.name.empty()) names.insert(p.name);
  std::vector<Entry> entries = entries_;
  std::set<std::string> redefined;
  for (Entry& e : entries)
    for (Part& p : e.parts)
      if (p.declaration && !p.superseded && names.count(p.name)) {
        p.superseded = true;
        redefined.insert(p.name);
      }
  entries.push_back(entry);
  std::unique_ptr<Built> next = build(entries, backend_);
  if (!next) return false;

  const ir::Program& before = built_->stack->program();
  std::map<std::string, int> oldIndex;
  for (size_t g = 0; g < before.games.size(); ++g)
    oldIndex[before.games[g].name] = static_cast<int>(g);
  const ir::Program& after = next->stack->program();
  std::vector<int> oldGame(after.games.size(), -1);
  std::vector<std::string> dropped;  // games that had values, now recomputed
  for (size_t g = 0; g < after.games.size(); ++g) {
    auto it = oldIndex.find(after.games[g].name);
    if (it == oldIndex.end()) continue;
    if (built_->fingerprints[static_cast<size_t>(it->second)] == next->fingerprints[g])
      oldGame[g] = it->second;
    else if (after.games[g].declared())  // a derived game goes with its own
      dropped.push_back(after.games[g].name);
  }
  next->stack->engine().adopt(built_->stack->engine(), oldGame);
  built_ = std::move(next);
  entries_ = std::move(entries);

  for (const std::string& name : dropped)
    if (!redefined.count(name))
      out_ << fmt::format("{} uses a redefined game: its values are computed afresh\n", name);
  for (const std::string& name : redefined)
    if (std::find(dropped.begin(), dropped.end(), name) != dropped.end())
      out_ << fmt::format("{} redefined: its values are computed afresh\n", name);
  return true;
}

void ReplSession::runStatements(const Entry& entry) {
  SourceEntry text = entry.statements();
  std::optional<std::vector<ir::Statement>> statements =
      built_->stack->workspace().compileStatements(text.name, text.text);
  if (!statements) {
    err_ << built_->stack->workspace().renderDiagnostics();
    built_->stack->workspace().diagnostics().clear();
    failed_ = true;
    return;
  }
  for (const ir::Statement& s : *statements) {
    auto start = std::chrono::steady_clock::now();
    if (!built_->runner->run(s)) failed_ = true;
    out_.flush();
    if (showTime_)
      out_ << "("
           << formatDuration(
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
           << ")\n";
  }
}

bool ReplSession::command(const std::string& text) {
  std::istringstream in(text);
  std::string name, argument;
  in >> name;
  std::getline(in, argument);
  argument = trim(argument);
  if (name == ":quit" || name == ":q" || name == ":exit") return false;
  if (name == ":help" || name == ":h" || name == ":?") {
    help();
  } else if (name == ":time") {
    showTime_ = argument == "on" || (argument.empty() && !showTime_);
    out_ << "timing " << (showTime_ ? "on" : "off") << "\n";
  } else if (name == ":load") {
    if (argument.empty())
      err_ << ":load needs a file: :load FILE\n";
    else
      load(argument);
  } else if (name == ":backend") {
    std::optional<BackendKind> parsed = parseBackendKind(argument);
    if (!parsed) {
      err_ << fmt::format("unknown backend '{}'; expected :backend {}\n", argument, kBackendNames);
      return true;
    }
    BackendKind kind = *parsed;
    std::unique_ptr<Built> next = build(entries_, kind);
    if (!next) return true;
    std::vector<int> same(next->stack->program().games.size());
    for (size_t g = 0; g < same.size(); ++g) same[g] = static_cast<int>(g);
    next->stack->engine().adopt(built_->stack->engine(), same);
    built_ = std::move(next);
    backend_ = kind;
    out_ << "backend " << backendKindName(kind) << "\n";
  } else if (name == ":games") {
    const ir::Program& p = built_->stack->program();
    if (p.games.empty()) out_ << "no games yet: declare one, or import std.heaps\n";
    for (const ir::Game& g : p.games) {
      if (!g.declared()) continue;
      std::string params;
      for (const ir::Param& param : g.params)
        params += (params.empty() ? "" : ", ") + param.name +
                  (param.type == ir::Type::List ? ": list" : "");
      out_ << fmt::format("{}({})\n", g.name, params);
    }
  } else if (name == ":stats") {
    out_ << fmt::format("{} values memoized; backend {}\n", memoSize(), backendKindName(backend_));
    out_ << built_->stack->engine().report();
  } else {
    err_ << fmt::format("unknown command '{}'; :help lists the commands\n", name);
    failed_ = true;
  }
  return true;
}

void ReplSession::help() {
  out_ << "Type declarations (game, const, import) and statements (eval, eval misere,\n"
          "moves, table, period, assert), as in a .game file. An open brace or\n"
          "parenthesis continues the entry on the next line. Declaring a name again\n"
          "replaces it. Ctrl-C stops a computation; values computed so far are kept.\n\n";
  for (const auto& [command, what] : commands())
    out_ << fmt::format("  {:<26} {}\n", command, what);
}

std::vector<std::string> ReplSession::games() const {
  std::vector<std::string> out;
  for (const ir::Game& g : built_->stack->program().games)
    if (g.declared()) out.push_back(g.name);
  return out;
}

int64_t ReplSession::memoSize() const {
  return built_->stack->engine().memoSize();
}

std::vector<std::string> ReplSession::completions(const std::string& word) const {
  std::vector<std::string> words;
  if (!word.empty() && word[0] == ':') {
    for (const auto& [command, _] : commands())
      words.push_back(command.substr(0, command.find(' ')));
  } else {
    for (const auto& [module, _] : stdlibModules()) words.push_back("std." + module);
    for (const std::string& k : keywords()) words.push_back(k);
    for (const std::string& f : builtinFunctions()) words.push_back(f);
    for (const std::string& w : contextualWords()) words.push_back(w);
    for (const std::string& g : games()) words.push_back(g);
    for (const ir::Constant& c : built_->stack->program().constants) words.push_back(c.name);
  }
  std::vector<std::string> out;
  for (const std::string& w : words)
    if (w.compare(0, word.size(), word) == 0) out.push_back(w);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string ReplSession::firstValues(const std::string& game, double seconds) {
  const ir::Program& program = built_->stack->program();
  int g = program.findGame(game);
  if (g < 0) return "";
  const std::vector<ir::Param>& params = program.games[static_cast<size_t>(g)].params;
  std::string range;
  if (params.size() == 1 && params[0].type == ir::Type::Int)
    range = "0..15";
  else if (params.size() == 2 && params[0].type == ir::Type::Int && params[1].type == ir::Type::Int)
    range = "0..5, 0..5";
  else
    return "";
  std::optional<std::vector<ir::Statement>> statements =
      built_->stack->workspace().compileStatements("<describe>",
                                                   fmt::format("table {}({})", game, range));
  built_->stack->workspace().diagnostics().clear();
  if (!statements || statements->size() != 1) return "";
  std::ostringstream text, errors;
  std::unique_ptr<Output> output =
      makeTextOutput(text, errors, built_->stack->workspace().sources());
  Runner runner(*built_->stack, *output);
  bool ok = false;
  {
    InterruptAfter budget(seconds);
    try {
      ok = runner.run(statements->front());
    } catch (const Interrupted&) {
      ok = false;
    }
  }
  return ok ? text.str() : "";
}

std::string ReplSession::describe(const std::string& word, double seconds) {
  const ir::Program& program = built_->stack->program();
  int g = program.findGame(word);
  if (g < 0 || !program.games[static_cast<size_t>(g)].declared()) {
    for (const std::string& f : builtinFunctions())
      if (f == word) return fmt::format("{}: a built-in function (docs/reference.md)\n", word);
    for (const std::string& k : keywords())
      if (k == word) return fmt::format("{}: a keyword (docs/reference.md)\n", word);
    return "";
  }
  const ir::Game& game = program.games[static_cast<size_t>(g)];
  std::string params;
  for (const ir::Param& param : game.params)
    params +=
        (params.empty() ? "" : ", ") + param.name + (param.type == ir::Type::List ? ": list" : "");
  std::string out = fmt::format("{}({})\n", game.name, params);
  // Its rules as written, from the entry that declares it now.
  for (const Entry& e : entries_)
    for (const Part& p : e.parts)
      if (p.declaration && !p.superseded && p.name == word)
        out += "\n" + e.text.substr(p.begin, p.end - p.begin) + "\n";
  std::string values = firstValues(word, seconds);
  if (!values.empty()) out += "\n" + values;
  return out;
}

}  // namespace gdsl
