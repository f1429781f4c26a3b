// The gdsl command line: eval, check, table, period, plot, repl and play
// (docs/reference.md section 8, docs/language.md).
// Exit status: 0 on success, 1 for errors in the game file (syntax, types,
// runtime errors, failed asserts), 2 for bad command-line usage.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string_view>

#include "cli/Repl.h"
#include "driver/Backends.h"
#include "driver/Census.h"
#include "driver/Output.h"
#include "driver/Play.h"
#include "driver/Plot.h"
#include "driver/Program.h"
#include "driver/Progress.h"
#include "driver/Runner.h"
#include "driver/Stack.h"
#include "driver/Stdlib.h"
#include "driver/TableCapture.h"
#include "driver/TableStore.h"
#include "runtime/Asan.h"
#include "runtime/Limits.h"
#include "runtime/StopSignals.h"

namespace {

using namespace gdsl;

constexpr int kOk = 0, kFileError = 1, kUsageError = 2;

struct Options {
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
  std::string checkpoint;
  double checkpointSeconds = 30;
  std::string tableFile;  // --table-file
  double tableFileSeconds = 5;
  // Limits (runtime/Limits.h): --max-states, --max-memory, --timeout.
  uint64_t maxStates = Limits{}.maxStates;
  std::string maxMemory;
  double timeout = 0;
  std::string playPosition;
  PlayOptions play;
  bool seeded = false;
};

// The argument after FILE (a table's RANGE, a period's GAME, play's POS): with --stdlib-only
// and one argument, that argument is it. Empty when it is missing.
void secondArgument(Options& o, std::string& argument) {
  if (o.stdlibOnly && argument.empty()) std::swap(o.file, argument);
}

// True when all of `text` reads as a T.
template <typename T>
bool reads(const std::string& text, T& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

// A check of an option's value, failing with "expected WHAT, not 'TEXT'".
CLI::Validator expected(const std::string& what, std::function<bool(const std::string&)> valid) {
  return CLI::Validator(
      [what, valid](std::string& text) {
        return valid(text) ? std::string() : "expected " + what + ", not '" + text + "'";
      },
      "");
}

// Set when the command line asks for --json (read before parsing, so that a
// parse error is reported as JSON too).
bool jsonRequested = false;

// With --json, a failure that has no place in a file is also an error object
// on standard output, with null file, line and col.
void jsonError(const std::string& message) {
  if (!jsonRequested) return;
  nlohmann::json j = {{"kind", "error"},
                      {"file", nullptr},
                      {"line", nullptr},
                      {"col", nullptr},
                      {"message", message}};
  std::cout << j.dump() << std::endl;
}

// "gdsl: MESSAGE" on standard error (and the JSON object).
void report(const std::string& message) {
  std::cerr << "gdsl: " << message << "\n";
  jsonError(message);
}

// Bad command-line usage: the message, then exit status 2.
int usage(const std::string& message) {
  report(message);
  return kUsageError;
}

// A failure that is not the command line's fault and has no place in a file
// (a checkpoint refused, the JIT unavailable): the message, then exit status 1.
int fail(const std::string& message) {
  report(message);
  return kFileError;
}

// Reads FILE ("-" is standard input). False when it cannot be read, with
// the reason in `error`.
bool readSource(const std::string& file, std::string& text, std::string& error) {
  if (file == "-") {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    text = buffer.str();
    return true;
  }
  return readFile(file, text, error);
}

// Prints every diagnostic collected so far and returns kFileError.
int reportDiagnostics(Workspace& ws, bool json) {
  std::unique_ptr<Output> out = json ? makeJsonOutput(std::cout, std::cerr, ws.sources())
                                     : makeTextOutput(std::cout, std::cerr, ws.sources());
  for (const Diagnostic& d : ws.diagnostics().all()) out->error(d);
  return kFileError;
}

// The stack's options from the command line (backend, limits, engine
// settings); a usage error for a bad backend name or size. `limits` are
// also the watchdog's.
int stackOptions(const Options& o, StackOptions& options, Limits& limits) {
  std::optional<BackendKind> kind = parseBackendKind(o.backend);
  if (!kind)
    return usage(fmt::format("unknown backend '{}'; expected {}", o.backend, kBackendNames));
  limits.maxStates = o.maxStates;
  limits.timeout = o.timeout;
  limits.maxMemory = defaultMaxMemory();
  if (!o.maxMemory.empty() && !parseSize(o.maxMemory, limits.maxMemory))
    return usage(fmt::format("--max-memory {}: expected a size such as 4G, 512M or 0 (no limit)",
                             o.maxMemory));
  options.backend = *kind;
  options.stdlib = o.stdlibOnly;
  // Without FILE, only the std modules that the command's statements name
  // (docs/reference.md, section 8); a checkpoint keeps the fingerprint of the
  // whole program, so with one the whole library is loaded as before.
  if (o.stdlibOnly && o.file.empty() && o.checkpoint.empty()) {
    std::vector<std::string> uses = o.positions;
    for (const std::string* text : {&o.tableSpec, &o.periodGame, &o.playPosition})
      if (!text->empty()) uses.push_back(*text);
    options.stdlibUses = std::move(uses);
  }
  options.verbose = o.verbose;
  options.engine.maxStates = limits.maxStates;
  options.engine.plain = o.plain;
  options.engine.checkpointPath = o.checkpoint;
  options.engine.checkpointSeconds = o.checkpointSeconds;
  options.engine.tableFilePath = o.tableFile;
  options.engine.tableFileSeconds = o.tableFileSeconds;
  return kOk;
}

// Prints the warnings compiling has collected so far (to standard error,
// also with --json, whose standard output they leave as it was).
void printWarnings(Workspace& ws) {
  for (const Diagnostic& d : ws.diagnostics().takeWarnings()) std::cerr << render(ws.sources(), d);
}

// Compiles FILE (or, with --stdlib-only and no FILE, the standard library
// alone) into `stack`, and prints its warnings.
int loadProgram(Stack& stack, const Options& o, DumpStage stage, std::string* dump) {
  if (o.stdlibOnly && o.file.empty()) {
    if (!stack.load("<stdlib>", "", "")) return reportDiagnostics(stack.workspace(), o.json);
    return kOk;
  }
  if (o.file.empty()) return usage("missing FILE (or use --stdlib-only)");
  std::string text, error;
  if (!readSource(o.file, text, error))
    return usage(fmt::format("cannot read '{}': {}", o.file, error));
  std::string name = o.file == "-" ? "<stdin>" : o.file;
  std::string path = o.file == "-" ? "" : o.file;
  if (!stack.load(name, path, std::move(text), stage, dump))
    return reportDiagnostics(stack.workspace(), o.json);
  printWarnings(stack.workspace());
  return kOk;
}

// Reports a computation stopped by a limit: `gdsl: MESSAGE` on stderr, as
// the watchdog's hard stop prints it, and also a JSON error object (without a
// place) with --json.
int reportStop(const Interrupted& e, const Limits& limits, Output& out, bool json) {
  std::string message = limitMessage(e.reason, limits);
  if (json) {
    Diagnostic d;
    d.message = message;
    out.error(d);
  } else {
    std::cerr << "gdsl: " << message << "\n";
  }
  return kFileError;
}

// SIGINT or SIGTERM stopped a run with --checkpoint or --table-file: saves
// the tables computed so far and returns 128 + the signal, or 1 when the save
// fails.
int savedAtSignal(TableStore& store) {
  int signal = StopSignals::received();
  if (!store.saveAtStop(StopSignals::name(signal))) return kFileError;
  jsonError(fmt::format("stopped by {}", StopSignals::name(signal)));
  return 128 + signal;
}

// A statement built from the command line (`-e POS`, a table's RANGE, a period's
// GAME): it must compile to exactly one statement, or `notOne` is a usage error.
struct CommandStatement {
  std::string text;
  std::string notOne;
};

// Runs the file's statements (when `runFile`) and then `extra`; tables go to
// `onTable` instead of the output when it is set.
int run(const Options& o, bool runFile, const std::vector<CommandStatement>& extra,
        TableCapture::TableFn onTable = {}) {
  StackOptions options;
  Limits limits;
  if (int rc = stackOptions(o, options, limits)) return rc;
  options.engine.progress = makeProgressBar(2);
  Watchdog watchdog(limits);
  // With a checkpoint or a table file, SIGINT and SIGTERM save it before gdsl exits.
  StopSignals signals(!o.checkpoint.empty() || !o.tableFile.empty());
  Stack stack(options);
  if (int rc = loadProgram(stack, o, DumpStage::None, nullptr)) return rc;
  Workspace& ws = stack.workspace();
  std::vector<ir::Statement> statements;
  if (runFile) statements = ws.program().statements;
  for (const CommandStatement& extraStatement : extra) {
    auto compiled = ws.compileStatements("<command line>", extraStatement.text);
    if (!compiled) return reportDiagnostics(ws, o.json);
    printWarnings(ws);
    if (compiled->size() != 1) return usage(extraStatement.notOne);
    statements.push_back(std::move(compiled->front()));
  }
  std::string error;
  if (!stack.start(error)) return fail("cannot start the JIT: " + error);
  std::cerr << stack.takeLog();
  Engine& engine = stack.engine();
  TableStore store(engine, report, std::cerr);
  // table, plot and period: the command's game; eval: the file's, or the
  // first one-heap table that grows (docs/reference.md, section 8.6).
  if (!store.open(runFile ? -1 : statements.back().game, o.verbose)) return kFileError;
  std::unique_ptr<Output> out = o.json ? makeJsonOutput(std::cout, std::cerr, ws.sources())
                                       : makeTextOutput(std::cout, std::cerr, ws.sources());
  if (onTable) out = std::make_unique<TableCapture>(std::move(out), std::move(onTable));
  Runner runner(stack, *out);
  bool ok = true;
  try {
    for (const ir::Statement& s : statements) ok = runner.run(s) && ok;
  } catch (const Interrupted& e) {
    std::cout.flush();
    if (e.reason == StopReason::Signal) return savedAtSignal(store);
    if (!store.flushTableFile()) return kFileError;
    return reportStop(e, limits, *out, o.json);
  } catch (const CheckpointError& e) {
    // The machine's error, not the game's: reported at once, the last good
    // checkpoint kept (docs/heaps.md).
    std::cout.flush();
    return fail(e.what());
  }
  std::cout.flush();
  ok = store.finish() && ok;
  std::cerr << stack.takeLog();
  if (o.verbose) std::cerr << stack.backend().report() << engine.report();
  return ok ? kOk : kFileError;
}

CommandStatement tableStatement(const Options& o) {
  return {"table " + o.tableSpec,
          fmt::format("RANGE must be one table range like 'G(0..N)', 'G(0..A, 0..B)' or "
                      "'[G([a, b]) for a in 0..3 for b in 0..a]', not '{}'",
                      o.tableSpec)};
}

// gdsl plot: the table of `o.tableSpec`, computed as `gdsl table` does, drawn as SVG
// (driver/Plot.h) into `path` ('-' for standard output).
int plot(const Options& o, const std::string& path) {
  // The shape G(..): a game's arguments with a range among them; the rest is checked
  // with the file, as for `gdsl table`.
  size_t open = o.tableSpec.find('('), close = o.tableSpec.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open ||
      o.tableSpec.find("..", open) > close)
    return usage(fmt::format("plot needs a table range like 'G(0..N)' or 'G(0..A, 0..B)', not '{}'",
                             o.tableSpec));
  std::string svg, unplottable;
  int rc = run(o, false, {tableStatement(o)}, [&](const TableResult& t) {
    try {
      svg = renderPlot(t);
    } catch (const std::invalid_argument& e) {  // three ranges, say
      unplottable = e.what();
    }
  });
  if (rc != kOk) return rc;
  if (!unplottable.empty())
    return usage(fmt::format("cannot plot '{}': {}", o.tableSpec, unplottable));
  if (path == "-") {
    std::cout << svg << std::flush;
    return kOk;
  }
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  if (!(out << svg) || !out.flush())
    return usage(fmt::format("cannot write '{}': {}", path,
                             errno ? std::strerror(errno) : "the write failed"));
  return kOk;
}

int check(const Options& o) {
  DumpStage stage = DumpStage::None;
  if (o.dump == "ast")
    stage = DumpStage::Ast;
  else if (o.dump == "desugared")
    stage = DumpStage::Desugared;
  else if (o.dump == "ir")
    stage = DumpStage::Ir;
  else if (o.dump == "llvm")
    stage = DumpStage::None;  // compiled below, after loading
  else if (!o.dump.empty())
    return usage(
        fmt::format("unknown --dump stage '{}'; expected ast, desugared, ir or llvm", o.dump));
  StackOptions options;
  options.stdlib = o.stdlibOnly;
  Stack stack(options);
  std::string dump;
  if (int rc = loadProgram(stack, o, stage, &dump)) return rc;
  if (o.dump == "llvm") {
    std::string error;
    if (!llvmIr(stack.program(), dump, error)) return fail("cannot compile: " + error);
  }
  std::cout << dump;
  return kOk;
}

// gdsl play FILE POS: a game against the computer on standard input/output.
int playCommand(Options& o) {
  // With --stdlib-only the one positional argument is the position.
  secondArgument(o, o.playPosition);
  if (o.playPosition.empty()) return usage("play needs a position: gdsl play FILE POS");
  StackOptions options;
  Limits limits;
  if (int rc = stackOptions(o, options, limits)) return rc;
  Watchdog watchdog(limits);
  Stack stack(options);
  if (int rc = loadProgram(stack, o, DumpStage::None, nullptr)) return rc;
  Workspace& ws = stack.workspace();
  auto compiled = ws.compileStatements("<position>", "eval " + o.playPosition);
  if (!compiled) return reportDiagnostics(ws, false);
  if (compiled->size() != 1)
    return usage(fmt::format("POS must be one position like 'Kayles(5) + Nim(3)', not '{}'",
                             o.playPosition));
  std::string error;
  if (!stack.start(error)) return fail("cannot start the JIT: " + error);
  if (!o.seeded) o.play.seed = std::random_device{}();
  try {
    play(stack, stack.positions().evalPosition((*compiled)[0].position), o.play, std::cin,
         std::cout);
  } catch (const RuntimeError& e) {
    Diagnostic d{Severity::Error, e.describe(), e.range, e.notes};
    std::cerr << render(ws.sources(), d);
    return kFileError;
  } catch (const Interrupted& e) {
    std::cout.flush();
    std::cerr << "gdsl: " << limitMessage(e.reason, limits) << "\n";
    return kFileError;
  }
  return kOk;
}

// Whether this build checks for leaks at exit (AddressSanitizer's LeakSanitizer,
// which runs from the normal exit path).
#ifdef GDSL_ASAN
constexpr bool kLeakChecked = true;
#else
constexpr bool kLeakChecked = false;
#endif

// gdsl's commands, as the first argument names them.
constexpr const char* kCommands[] = {"eval", "check", "table", "period",
                                     "plot", "repl",  "play",  "census"};

// The command line parsed and run; the exit status.
int runCommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--json") == 0) jsonRequested = true;
  // Named "gdsl" in help, whatever path ran it.
  CLI::App app{"gdsl: Grundy values, outcomes and periods of impartial games", "gdsl"};
  app.set_version_flag("--version", "gdsl " GDSL_VERSION);
  app.require_subcommand(1);
  // CLI11's parse errors in gdsl's own form (subcommands inherit it).
  app.failure_message([](const CLI::App* top, const CLI::Error& e) {
    std::string command = "gdsl";
    for (const CLI::App* sub : top->get_subcommands()) command += " " + sub->get_name();
    // "--backend: 1 required TEXT missing" in plain words.
    static const std::regex missingValue("^(-[-\\w]+): \\d+ required \\w+ missing$");
    std::string what = std::regex_replace(e.what(), missingValue, "$1 needs a value");
    return fmt::format("gdsl: {}\nRun '{} --help' for more information.\n", what, command);
  });
  Options o;

  // An option that is not required is made only when the command line names it,
  // or asks for help (which lists every option): CLI11 takes about 10 K
  // instructions to make one, and a short eval used two of the fourteen it made
  // (bench/README.md, "Start-up"). What CLI11 parses is unchanged: it refuses a
  // name it does not know in the same words whether the command has no such
  // option or gdsl did not make it, and tests/golden/help holds every command's
  // help. `names` as CLI11 takes them ("-o,--output"); a long name is given as
  // `--name` or `--name=VALUE`, a short one as `-x` or `-xVALUE`.
  bool helpAsked = false;
  for (int i = 1; i < argc; ++i)
    helpAsked = helpAsked || std::strcmp(argv[i], "--help") == 0 ||
                (argv[i][0] == '-' && argv[i][1] == 'h');
  auto wanted = [&](std::string_view names) {
    if (helpAsked) return true;
    for (size_t start = 0; start < names.size();) {
      size_t end = std::min(names.find(',', start), names.size());
      std::string_view name = names.substr(start, end - start);
      start = end + 1;
      bool isLong = name.substr(0, 2) == "--";
      for (int i = 2; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg.substr(0, name.size()) != name) continue;
        if (!isLong ? arg.substr(0, 2) != "--"
                    : arg.size() == name.size() || arg[name.size()] == '=')
          return true;
      }
    }
    return false;
  };

  // The option or flag `names` of `cmd`, made if wanted; the option, or nullptr.
  auto option = [&](CLI::App* cmd, const char* names, auto& variable,
                    const char* description) -> CLI::Option* {
    return wanted(names) ? cmd->add_option(names, variable, description) : nullptr;
  };
  auto flag = [&](CLI::App* cmd, const char* names, auto& variable, const char* description) {
    if (wanted(names)) cmd->add_flag(names, variable, description);
  };

  auto addCommon = [&](CLI::App* cmd, bool fileRequired) {
    auto* f = cmd->add_option("FILE", o.file, "the .game file ('-' for standard input)");
    if (fileRequired) f->required();
    flag(cmd, "--stdlib-only", o.stdlibOnly, "load the whole standard library (FILE optional)");
  };

  // Options of the commands that compute (eval, table, period).
  // Limits, for every command that computes.
  auto addLimitOptions = [&](CLI::App* cmd) {
    if (auto* states = option(cmd, "--max-states", o.maxStates,
                              "most positions memoized by a search (default 20000000)"))
      states->check(
          expected("a whole number of positions, at least 1", [](const std::string& text) {
            uint64_t states = 0;
            return reads(text, states) && states >= 1;
          }));
    option(cmd, "--max-memory", o.maxMemory,
           "stop when gdsl uses more memory than SIZE, e.g. 4G (default: half the machine's "
           "memory, at most 8G; 0: no limit)");
    if (auto* timeout =
            option(cmd, "--timeout", o.timeout, "stop after SECONDS (default 0: no limit)"))
      timeout->check(expected("a number of seconds, 0 or more", [](const std::string& text) {
        char* end = nullptr;
        double seconds = std::strtod(text.c_str(), &end);
        return !text.empty() && *end == '\0' && std::isfinite(seconds) && seconds >= 0;
      }));
  };

  auto addRunOptions = [&](CLI::App* cmd) {
    addLimitOptions(cmd);
    option(cmd, "--backend", o.backend, "interp, jit or auto (default)");
    flag(cmd, "--json", o.json, "print JSON Lines");
    flag(cmd, "--verbose", o.verbose, "say which backend runs and how tables were computed");
    flag(cmd, "--plain", o.plain,
         "plain method: every value by the game's kernel, no sparse space, no period shortcut");
    option(cmd, "--checkpoint", o.checkpoint,
           "save one-heap tables to PATH while they grow, and resume from it");
    auto positiveSeconds = [] {
      return expected("a positive number of seconds", [](const std::string& text) {
        double seconds = 0;
        return reads(text, seconds) && seconds > 0;
      });
    };
    if (auto* every = option(cmd, "--checkpoint-every", o.checkpointSeconds,
                             "seconds between checkpoints (default 30)"))
      every->check(positiveSeconds());
    option(cmd, "--table-file", o.tableFile,
           "keep the one-heap table in the file PATH (for tables larger than memory), and "
           "resume from it");
    if (auto* every = option(cmd, "--table-file-every", o.tableFileSeconds,
                             "seconds between flushes of the table file (default 5)"))
      every->check(positiveSeconds());
  };

  // Only the command that the first argument names is made, with its options:
  // building every command's options was 5% of a short eval, and making the
  // other commands 1.5% more (bench/README.md, "Start-up"). Without a command
  // there (`gdsl --help`, a usage error) every command is made, without options,
  // for CLI11's list of commands.
  auto named = [&](const char* command) { return argc > 1 && std::strcmp(argv[1], command) == 0; };
  bool commandNamed = false;
  for (const char* command : kCommands) commandNamed = commandNamed || named(command);
  auto addCommand = [&](CLI::App& parent, const char* command,
                        const char* description) -> CLI::App* {
    if (commandNamed && !named(command)) return nullptr;
    return parent.add_subcommand(command, description);
  };

  CLI::App* eval = addCommand(app, "eval", "run a file's statements, then each -e position");
  if (named("eval")) {
    addCommon(eval, false);
    option(eval, "-e", o.positions, "a position to evaluate after the file's statements");
    addRunOptions(eval);
  }

  CLI::App* chk = addCommand(app, "check", "check a file without evaluating it");
  if (named("check")) {
    addCommon(chk, true);
    option(chk, "--dump", o.dump, "print the program after a stage: ast, desugared, ir, llvm");
  }

  CLI::App* table = addCommand(app, "table", "print a value table, e.g. 'G(0..100)'");
  if (named("table")) {
    addCommon(table, false);
    table->add_option("RANGE", o.tableSpec, "G(0..N), G(a..b, c..d) or [P for x in D ...]");
    addRunOptions(table);
  }

  CLI::App* period = addCommand(app, "period", "find (and prove) the period of a game");
  if (named("period")) {
    addCommon(period, false);
    period->add_option("GAME", o.periodGame, "a one-heap game");
    if (auto* max = option(period, "--max", o.periodMax, "search heaps 0..N (default 100000)"))
      max->check(expected("a whole number of heaps", [](const std::string& text) {
        int64_t heaps = 0;
        return reads(text, heaps);
      }));
    addRunOptions(period);
  }

  CLI::App* plotCmd = addCommand(app, "plot", "draw a value table as SVG, e.g. 'G(0..100)'");
  std::string plotPath;
  if (named("plot")) {
    addCommon(plotCmd, false);
    plotCmd->add_option("RANGE", o.tableSpec, "G(0..N) or G(a..b, c..d)");
    plotCmd->add_option("-o,--output", plotPath, "the SVG file to write ('-' for standard output)")
        ->required();
    addRunOptions(plotCmd);
    if (CLI::Option* json = plotCmd->get_option_no_throw("--json")) plotCmd->remove_option(json);
  }

  CLI::App* repl = addCommand(app, "repl", "interactive session (:help inside lists commands)");
  if (named("repl")) {
    repl->add_option("FILE", o.file, "a .game file to load first");
    option(repl, "--backend", o.backend, "interp, jit or auto (default)");
    addLimitOptions(repl);
  }

  CLI::App* playCmd = addCommand(app, "play", "play a position against the computer");
  if (named("play")) {
    addCommon(playCmd, false);
    playCmd->add_option("POS", o.playPosition, "the position, e.g. 'Kayles(7) + Kayles(4)'");
    flag(playCmd, "--misere", o.play.misere, "misère play: the player who moves last loses");
    flag(playCmd, "--computer-first", o.play.computerFirst, "the computer moves first");
    if (auto* seed = option(playCmd, "--seed", o.play.seed, "seed of the computer's random moves"))
      seed->check(expected("a whole number from 0 to 18446744073709551615",
                           [](const std::string& text) {
                             uint64_t seed = 0;
                             return reads(text, seed);
                           }))
          ->each([&](const std::string&) { o.seeded = true; });
    option(playCmd, "--backend", o.backend, "interp, jit or auto (default)");
    addLimitOptions(playCmd);
  }

  CLI::App* census = addCommand(
      app, "census", "compute a family of one-heap games into a database (docs/census.md)");
  CensusOptions censusOptions;
  std::string censusShard;
  std::string reportDb;
  CensusReportOptions report;
  std::vector<std::string> mergeInputs;
  std::string mergeOutput;
  CLI::App* censusReportCmd =
      census ? census->add_subcommand("report", "print a census database's table") : nullptr;
  CLI::App* censusMergeCmd =
      census ? census->add_subcommand("merge", "merge census databases") : nullptr;
  if (named("census")) {
    census->add_option("FAMILY", censusOptions.family,
                       "octal codes ('0.?\?\?', '4.?\?', '0.137,0.07') or a .game file");
    census
        ->add_option("--to", censusOptions.to, "compute heaps 0..N, or until the period is proved")
        ->check(expected("a whole number of heaps, at least 1", [](const std::string& text) {
          int64_t heaps = 0;
          return reads(text, heaps) && heaps >= 1;
        }));
    census->add_option("--db", censusOptions.db, "the SQLite database to fill (created if absent)");
    census
        ->add_option("--jobs", censusOptions.jobs,
                     "games computed at once (default: the cores; under mpirun, 1 per rank)")
        ->check(expected("a whole number from 1 to 1024", [](const std::string& text) {
          int64_t jobs = 0;
          return reads(text, jobs) && jobs >= 1 && jobs <= 1024;
        }));
    census->add_option("--shard", censusShard, "K/N: only the games i with i % N == K - 1");
    census->add_option("--backend", o.backend, "interp, jit or auto (default)");
    censusReportCmd->add_option("DB", reportDb, "the database")->required();
    censusReportCmd->add_flag("--csv", report.csv, "CSV (every column) instead of Markdown");
    censusReportCmd->add_flag("--open", report.openOnly,
                              "only the games whose period is not proved");
    censusReportCmd->add_flag("--times", report.times, "Markdown: also seconds and peak memory");
    censusReportCmd
        ->add_option("--sort", report.sort,
                     "game (default), or the largest first: "
                     "period, preperiod, proof, value, rare, seconds")
        ->check(expected("game, period, preperiod, proof, value, rare or seconds", censusSortKey));
    censusMergeCmd->add_option("DB", mergeInputs, "the databases to merge")->required();
    censusMergeCmd->add_option("-o,--output", mergeOutput, "the database to merge into")
        ->required();
  }

  if (argc == 1)
    return usage(
        "missing a command: eval, check, table, period, plot, repl, play or census (see gdsl "
        "--help)");
  if (argc > 1 && argv[1][0] != '-' && !commandNamed)
    return usage(
        fmt::format("unknown command '{}'; expected eval, check, table, period, plot, repl, "
                    "play or census (see gdsl --help)",
                    argv[1]));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (app.exit(e) == 0) return kOk;  // --help
    jsonError(e.what());               // app.exit wrote the text
    return kUsageError;
  }

  try {
    if (eval && *eval) {
      std::vector<CommandStatement> extra;
      for (const std::string& p : o.positions)
        extra.push_back(
            {"eval " + p,
             fmt::format("-e takes one position like 'Kayles(5) + Nim(3)', not '{}'", p)});
      return run(o, true, extra);
    }
    if (chk && *chk) return check(o);
    if (table && *table) {
      secondArgument(o, o.tableSpec);
      if (o.tableSpec.empty()) return usage("table needs a range: gdsl table FILE 'G(0..N)'");
      return run(o, false, {tableStatement(o)});
    }
    if (period && *period) {
      secondArgument(o, o.periodGame);
      if (o.periodGame.empty()) return usage("period needs a game: gdsl period FILE G");
      // Any --max given is checked like the range of a period statement.
      std::string spec = o.periodMax ? fmt::format("period {}(0..{})", o.periodGame, *o.periodMax)
                                     : "period " + o.periodGame;
      return run(o, false,
                 {{spec, fmt::format("GAME must be one game's name like 'Kayles', not '{}'",
                                     o.periodGame)}});
    }
    if (plotCmd && *plotCmd) {
      secondArgument(o, o.tableSpec);
      if (o.tableSpec.empty())
        return usage("plot needs a range: gdsl plot FILE 'G(0..N)' -o OUT.svg");
      return plot(o, plotPath);
    }
    if (repl && *repl) {
      StackOptions options;
      Limits limits;
      if (int rc = stackOptions(o, options, limits)) return rc;
      std::string text, error;
      if (!o.file.empty() && !readFile(o.file, text, error))
        return usage(fmt::format("cannot read '{}': {}", o.file, error));
      return runRepl(o.file, options.backend, limits);
    }
    if (playCmd && *playCmd) return playCommand(o);
    if (censusReportCmd && *censusReportCmd) return censusReport(reportDb, report);
    if (censusMergeCmd && *censusMergeCmd) return censusMerge(mergeInputs, mergeOutput);
    if (census && *census) {
      if (censusOptions.family.empty())
        return usage("census needs a family: gdsl census '0.?\?\?' --to N --db PATH");
      if (censusOptions.to < 1) return usage("census needs --to N (the heaps to compute)");
      if (censusOptions.db.empty()) return usage("census needs --db PATH (the SQLite database)");
      if (!censusShard.empty()) {
        static const std::regex shard("^([0-9]{1,6})/([0-9]{1,6})$");
        std::smatch m;
        if (!std::regex_match(censusShard, m, shard) || std::stoi(m[2]) < 1 ||
            std::stoi(m[1]) < 1 || std::stoi(m[1]) > std::stoi(m[2]))
          return usage(
              fmt::format("--shard {}: expected K/N with 1 <= K <= N, like 2/4", censusShard));
        censusOptions.shardIndex = std::stoi(m[1]);
        censusOptions.shardCount = std::stoi(m[2]);
      }
      std::optional<BackendKind> kind = parseBackendKind(o.backend);
      if (!kind)
        return usage(fmt::format("unknown backend '{}'; expected {}", o.backend, kBackendNames));
      censusOptions.backend = *kind;
      censusOptions.version = GDSL_VERSION;
      return runCensus(censusOptions);
    }
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  }
  return kUsageError;
}

}  // namespace

// Every object with work left at the end (files, databases, the JIT, watchdog
// threads) belongs to runCommand and is gone when it returns. What the normal
// exit would still destroy are static tables that only free memory (ANTLR's ATNs
// and DFA caches, libLLVM's options), about 2% of a short command: gdsl flushes
// its output and ends without them, except in builds that check for leaks.
int main(int argc, char** argv) {
  int status = runCommand(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (!kLeakChecked) std::_Exit(status);
  return status;
}
