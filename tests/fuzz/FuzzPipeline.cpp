// The fuzzed pipeline: loads a program as `gdsl eval` does (driver/Program.h),
// prints its diagnostics or runs its statements on the interpreter (and, for
// some programs, on the JIT too) with small limits, under a watchdog.
#include "tests/fuzz/FuzzPipeline.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <ostream>
#include <set>
#include <streambuf>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "compiler/support/Source.h"
#include "driver/Output.h"
#include "driver/Plot.h"
#include "driver/Program.h"
#include "driver/Runner.h"
#include "driver/Stack.h"
#include "driver/TableCapture.h"
#include "runtime/Engine.h"
#include "compiler/support/Interrupt.h"
#include "runtime/Limits.h"
#include "tests/fuzz/ParseCheck.h"
#include "tests/fuzz/TokenMutator.h"

namespace gdsl::fuzz {
namespace {

// Requests an interrupt when a deadline passes or resident memory grows past
// a limit, as the CLI's watchdog does for --timeout and --max-memory
// (runtime/Limits.h), but without ever ending the process: code that does not
// poll the flag shows up as a libFuzzer timeout. One thread for the whole
// run, armed before each program and disarmed after it.
class Watchdog {
 public:
  Watchdog() : thread_([this] { loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  void arm(int ms, uint64_t maxMemory) {
    std::lock_guard<std::mutex> lock(mutex_);
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    maxMemory_ = maxMemory;
    armed_ = true;
    wake_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      wake_.wait_for(lock, std::chrono::milliseconds(10));
      if (!armed_) continue;
      StopReason reason = StopReason::None;
      if (maxMemory_ > 0 && residentMemory() > maxMemory_)
        reason = StopReason::Memory;
      else if (std::chrono::steady_clock::now() >= deadline_)
        reason = StopReason::Timeout;
      if (reason == StopReason::None) continue;
      requestInterrupt(reason);
      armed_ = false;
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::chrono::steady_clock::time_point deadline_;
  uint64_t maxMemory_ = 0;
  bool armed_ = false;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the rest is initialized
};

Watchdog& watchdog() {
  static Watchdog w;
  return w;
}

// Keeps the first kCap bytes written to it: enough to compare two runs
// without a huge table filling memory.
class CappedBuffer : public std::streambuf {
 public:
  static constexpr size_t kCap = 1 << 20;
  std::string text;

 protected:
  int overflow(int c) override {
    if (c != traits_type::eof() && text.size() < kCap) text.push_back(static_cast<char>(c));
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    size_t room = kCap - std::min(kCap, text.size());
    text.append(s, std::min(room, static_cast<size_t>(n)));
    return n;
  }
};

uint64_t hashText(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

StackOptions smallLimits(BackendKind backend) {
  StackOptions options(backend);
  options.engine.maxStates = 20000;
  options.engine.maxTableHeap = 1 << 14;
  options.engine.autoPeriodHeaps = 1 << 12;
  return options;
}

std::unique_ptr<Output> makeOutput(bool json, std::ostream& stream, const Workspace& ws) {
  return json ? makeJsonOutput(stream, stream, ws.sources())
              : makeTextOutput(stream, stream, ws.sources());
}

// Runs `statements` of the program in `ws` on a stack with backend `kind`;
// the output (results and rendered diagnostics) goes to `text`. Returns why
// it was interrupted, or StopReason::None.
StopReason runStatements(const std::shared_ptr<Workspace>& ws,
                         const std::vector<ir::Statement>& statements, BackendKind kind, bool json,
                         std::string& text) {
  Stack stack(smallLimits(kind), ws);
  std::string error;
  if (!stack.start(error)) {
    std::fprintf(stderr, "fuzz: cannot start the %s backend: %s\n", backendKindName(kind),
                 error.c_str());
    std::abort();
  }
  CappedBuffer buffer;
  std::ostream stream(&buffer);
  // Every table is also drawn as `gdsl plot` would, and the picture thrown away.
  std::unique_ptr<Output> inner = makeOutput(json, stream, *ws);
  Output* results = inner.get();
  TableCapture out(std::move(inner), [results](const TableResult& r) {
    results->table(r);
    // A table plot refuses (a listed one with one range, say) is a usage
    // error of `gdsl plot`, as the CLI reports it: not a crash.
    if (r.ranges.empty() || r.ranges.size() > 2) return;
    try {
      renderPlot(r);
    } catch (const std::invalid_argument&) {
    }
  });
  Runner runner(stack, out);
  StopReason stopped = StopReason::None;
  try {
    for (const ir::Statement& s : statements) runner.run(s);
  } catch (const Interrupted& e) {
    stopped = e.reason;
  }
  stream.flush();
  text = std::move(buffer.text);
  return stopped;
}

// A top-level statement of a program: bytes [begin, end) of its text.
struct Piece {
  size_t begin = 0, end = 0;
  bool declaration = false;  // game, const, import
};

// Splits a program at the keywords that start statements (outside brackets).
// Text before the first keyword belongs to no piece.
std::vector<Piece> splitStatements(std::string_view text) {
  static const std::set<std::string> kStarts = {"game",  "const", "import", "eval",
                                                "moves", "table", "period", "assert"};
  static const std::set<std::string> kDeclarations = {"game", "const", "import"};
  std::vector<Piece> pieces;
  int depth = 0;
  size_t at = 0;
  for (const Token& t : tokenize(text)) {
    size_t start = at + t.trivia.size();
    at = start + t.text.size();
    if (depth == 0 && kStarts.count(t.text)) {
      if (!pieces.empty()) pieces.back().end = start;
      pieces.push_back(Piece{start, text.size(), kDeclarations.count(t.text) > 0});
    }
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if ((t.text == ")" || t.text == "]" || t.text == "}") && depth > 0) --depth;
  }
  return pieces;
}

// `text` with the bytes of the pieces not kept turned into spaces (newlines
// stay, so that locations in the rest are unchanged).
std::string blankOut(std::string_view text, const std::vector<Piece>& pieces,
                     const std::vector<bool>& keep) {
  std::string out(text);
  for (size_t i = 0; i < pieces.size(); ++i)
    if (!keep[i])
      for (size_t b = pieces[i].begin; b < pieces[i].end; ++b)
        if (out[b] != '\n') out[b] = ' ';
  return out;
}

// A second chance for a program with errors, so that one broken statement
// does not keep the rest from running: its declarations alone, leaving out
// (a few rounds) those with errors, then each other statement compiled on its
// own as `gdsl eval -e` compiles them (those with errors are left out). Null
// when no declarations load.
std::shared_ptr<Workspace> loadWhatCompiles(std::string_view text,
                                            std::vector<ir::Statement>& statements) {
  std::vector<Piece> pieces = splitStatements(text);
  std::vector<bool> keep(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) keep[i] = pieces[i].declaration;
  std::shared_ptr<Workspace> ws;
  for (int round = 0;; ++round) {
    ws = std::make_shared<Workspace>();
    if (ws->load("<fuzz>", "", blankOut(text, pieces, keep))) break;
    if (round == 4) return nullptr;
    bool dropped = false;
    for (const Diagnostic& d : ws->diagnostics().all()) {
      if (!d.range.valid() || d.range.file != 0) continue;
      for (size_t i = 0; i < pieces.size(); ++i)
        if (keep[i] && d.range.begin >= pieces[i].begin && d.range.begin < pieces[i].end) {
          keep[i] = false;
          dropped = true;
        }
    }
    if (!dropped) return nullptr;
  }
  for (const Piece& p : pieces) {
    if (p.declaration) continue;
    auto compiled = ws->compileStatements("<fuzz statement>",
                                          std::string(text.substr(p.begin, p.end - p.begin)));
    if (compiled) statements.insert(statements.end(), compiled->begin(), compiled->end());
  }
  return ws;
}

// Statements for a program that has none: a small table of every one-heap
// game, a position of every other game.
std::vector<std::string> defaultStatements(const ir::Program& program) {
  std::vector<std::string> out;
  for (const ir::Game& g : program.games) {
    if (g.params.size() == 1 && g.params[0].type == ir::Type::Int) {
      out.push_back("table " + g.name + "(0..24)");
      continue;
    }
    std::string args;
    for (size_t i = 0; i < g.params.size(); ++i)
      args += std::string(i ? ", " : "") + (g.params[i].type == ir::Type::List ? "[1, 2, 3]" : "3");
    out.push_back("eval " + g.name + "(" + args + ")");
  }
  return out;
}

[[noreturn]] void backendsDisagree(std::string_view program, const std::string& interp,
                                   const std::string& jit) {
  std::fprintf(stderr,
               "fuzz: the interpreter and the JIT disagree\n--- program\n%.*s\n--- interpreter\n%s"
               "--- jit\n%s",
               static_cast<int>(program.size()), program.data(), interp.c_str(), jit.c_str());
  std::abort();
}

Outcome run(std::string_view text, const PipelineOptions& options) {
  uint64_t hash = hashText(text);
  // Every dump stage and both output forms are exercised, each by a share of
  // the inputs.
  static constexpr DumpStage kStages[] = {DumpStage::None, DumpStage::Ast, DumpStage::Desugared,
                                          DumpStage::Ir};
  DumpStage stage = kStages[hash % 4];
  bool json = (hash >> 2) % 2 == 1;

  auto ws = std::make_shared<Workspace>();
  std::string dump;
  std::vector<ir::Statement> statements;
  if (ws->load("<fuzz>", "", std::string(text), stage, &dump)) {
    statements = ws->program().statements;
  } else {
    CappedBuffer buffer;
    std::ostream stream(&buffer);
    std::unique_ptr<Output> out = makeOutput(json, stream, *ws);
    for (const Diagnostic& d : ws->diagnostics().all()) out->error(d);
    ws = loadWhatCompiles(text, statements);
    if (!ws) return Outcome::Rejected;
  }
  if (statements.empty()) {
    for (const std::string& piece : defaultStatements(ws->program())) {
      auto compiled = ws->compileStatements("<fuzz default>", piece);
      if (compiled) statements.insert(statements.end(), compiled->begin(), compiled->end());
    }
  }
  if (statements.empty()) return Outcome::Ran;

  std::string interpOut;
  watchdog().arm(options.timeoutMs, options.maxMemory);
  StopReason stopped = runStatements(ws, statements, BackendKind::Interp, json, interpOut);
  watchdog().disarm();
  if (stopped == StopReason::Memory) return Outcome::OutOfMemory;
  if (stopped != StopReason::None) return Outcome::Interrupted;

  // Compiling costs milliseconds a game: only some small programs.
  if (options.jitEvery > 0 && (hash >> 3) % static_cast<uint64_t>(options.jitEvery) == 0 &&
      ws->program().games.size() <= 8) {
    std::string jitOut;
    clearInterrupt();
    watchdog().arm(options.timeoutMs * 4, options.maxMemory);
    stopped = runStatements(ws, statements, BackendKind::Jit, json, jitOut);
    watchdog().disarm();
    if (stopped == StopReason::None && jitOut != interpOut)
      backendsDisagree(text, interpOut, jitOut);
  }
  return Outcome::Ran;
}

// Where `text[i]` opens a string literal, the index past its end.
size_t stringEnd(std::string_view text, size_t i) {
  for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
    if (text[i] == '\\') ++i;
  return i;
}

}  // namespace

bool skipInput(std::string_view text) {
  // An import of a file outside the working directory: /dev/zero would hang
  // and /proc files change between runs.
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    size_t end = stringEnd(text, i);
    std::string_view literal = text.substr(i, end - i);
    if (literal.find("..") != std::string_view::npos || literal.find("\"/") == 0) return true;
    i = end;
  }
  return false;
}

Outcome runPipeline(std::string_view text, const PipelineOptions& options) {
  // gdsl's lexer makes the generated lexer's tokens of every input it lexes,
  // and its LL(1) table predicts as antlr4 does.
  if (invalidUtf8(text) == std::string_view::npos) {
    std::string difference = lexerDifference(text);
    Predictions predictions;
    checkPredictions(text, predictions);
    if (!predictions.firstWrong.empty())
      difference += "--- prediction\n" + predictions.firstWrong + "\n";
    if (!difference.empty()) {
      std::fprintf(stderr,
                   "fuzz: gdsl reads the program otherwise than antlr4\n--- program\n%.*s\n%s",
                   static_cast<int>(text.size()), text.data(), difference.c_str());
      std::abort();
    }
  }
  if (skipInput(text)) return Outcome::Skipped;
  clearInterrupt();
  try {
    return run(text, options);
  } catch (const std::bad_alloc&) {
    // As in `gdsl`: "out of memory", exit status 1.
    watchdog().disarm();
    return Outcome::OutOfMemory;
  }
}

PipelineOptions optionsFromEnvironment() {
  PipelineOptions o;
  if (const char* ms = std::getenv("GDSL_FUZZ_TIMEOUT_MS")) o.timeoutMs = std::atoi(ms);
  if (const char* every = std::getenv("GDSL_FUZZ_JIT_EVERY")) o.jitEvery = std::atoi(every);
  if (const char* mb = std::getenv("GDSL_FUZZ_MAX_MEMORY_MB"))
    o.maxMemory = static_cast<uint64_t>(std::atoll(mb)) << 20;
  return o;
}

}  // namespace gdsl::fuzz
