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
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "backend/interp/Interpreter.h"
#include "driver/Backends.h"
#include "driver/Output.h"
#include "driver/Program.h"
#include "driver/Runner.h"
#include "runtime/Engine.h"
#include "runtime/Interrupt.h"
#include "runtime/Limits.h"

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

EngineOptions smallLimits() {
  EngineOptions e;
  e.maxStates = 20000;
  e.maxTableHeap = 1 << 14;
  e.autoPeriodHeaps = 1 << 12;
  return e;
}

// Runs every statement of `ws`'s program on `backend`; the output (results and
// rendered diagnostics) goes to `text`. Returns why it was interrupted, or
// StopReason::None.
StopReason runStatements(const Workspace& ws, Backend& backend, bool json, std::string& text) {
  CappedBuffer buffer;
  std::ostream stream(&buffer);
  Interpreter positions(ws.program());
  Engine engine(ws.program(), backend, smallLimits());
  std::unique_ptr<Output> out = json ? makeJsonOutput(stream, stream, ws.sources())
                                     : makeTextOutput(stream, stream, ws.sources());
  Runner runner(engine, positions, *out);
  StopReason stopped = StopReason::None;
  try {
    for (const ir::Statement& s : ws.program().statements) runner.run(s);
  } catch (const Interrupted& e) {
    stopped = e.reason;
  }
  stream.flush();
  text = std::move(buffer.text);
  return stopped;
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

  Workspace ws;
  std::string dump;
  if (!ws.load("<fuzz>", "", std::string(text), stage, &dump)) {
    CappedBuffer buffer;
    std::ostream stream(&buffer);
    std::unique_ptr<Output> out = json ? makeJsonOutput(stream, stream, ws.sources())
                                       : makeTextOutput(stream, stream, ws.sources());
    for (const Diagnostic& d : ws.diagnostics().all()) out->error(d);
    return Outcome::Rejected;
  }
  if (ws.program().statements.empty()) return Outcome::Ran;

  Interpreter interpreter(ws.program());
  std::string interpOut;
  watchdog().arm(options.timeoutMs, options.maxMemory);
  StopReason stopped = runStatements(ws, interpreter, json, interpOut);
  watchdog().disarm();
  if (stopped == StopReason::Memory) return Outcome::OutOfMemory;
  if (stopped != StopReason::None) return Outcome::Interrupted;

  // Compiling costs milliseconds a game: only some small programs.
  if (options.jitEvery > 0 && (hash >> 3) % static_cast<uint64_t>(options.jitEvery) == 0 &&
      ws.program().games.size() <= 8) {
    std::string error, jitOut;
    std::unique_ptr<Backend> jit = makeBackend(ws.program(), BackendKind::Jit, error);
    if (!jit) {
      std::fprintf(stderr, "fuzz: cannot start the JIT: %s\n", error.c_str());
      std::abort();
    }
    clearInterrupt();
    watchdog().arm(options.timeoutMs * 4, options.maxMemory);
    stopped = runStatements(ws, *jit, json, jitOut);
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
