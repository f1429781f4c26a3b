// gdsl's commands (see Commands.h): the computing ones (eval, table, period,
// plot) through one run of statements on a stack, and check, play, repl and
// census. The checkpoint and the table file are driver/TableStore.h's.
#include "cli/Commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "cli/Kernel.h"
#include "cli/Lsp.h"
#include "cli/Repl.h"
#include "cli/Report.h"
#include "driver/Output.h"
#include "driver/Plot.h"
#include "driver/Program.h"
#include "driver/Progress.h"
#include "driver/Quotient.h"
#include "driver/Runner.h"
#include "driver/Stack.h"
#include "driver/TableCapture.h"
#include "driver/TableStore.h"
#include "runtime/StopSignals.h"

namespace gdsl::cli {

namespace {

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
  if (o.verbose)
    std::cerr << stack.backend().report() << engine.report() << stack.misere().report();
  return ok ? kOk : kFileError;
}

CommandStatement tableStatement(const Options& o) {
  return {"table " + o.tableSpec,
          fmt::format("RANGE must be one table range like 'G(0..N)', 'G(0..A, 0..B)' or "
                      "'[G([a, b]) for a in 0..3 for b in 0..a]', not '{}'",
                      o.tableSpec)};
}

// gdsl eval FILE [-e POS]...
int eval(const Options& o) {
  std::vector<CommandStatement> extra;
  for (const std::string& p : o.positions)
    extra.push_back(
        {"eval " + p, fmt::format("-e takes one position like 'Kayles(5) + Nim(3)', not '{}'", p)});
  return run(o, true, extra);
}

// gdsl table FILE RANGE.
int table(Options& o) {
  secondArgument(o, o.tableSpec);
  if (o.tableSpec.empty()) return usage("table needs a range: gdsl table FILE 'G(0..N)'");
  return run(o, false, {tableStatement(o)});
}

// gdsl period FILE GAME [--max N].
int period(Options& o) {
  secondArgument(o, o.periodGame);
  if (o.periodGame.empty()) return usage("period needs a game: gdsl period FILE G");
  // Any --max given is checked like the range of a period statement.
  std::string spec = o.periodMax ? fmt::format("period {}(0..{})", o.periodGame, *o.periodMax)
                                 : "period " + o.periodGame;
  return run(
      o, false,
      {{spec, fmt::format("GAME must be one game's name like 'Kayles', not '{}'", o.periodGame)}});
}

// gdsl plot FILE RANGE -o PATH: the table of `o.tableSpec`, computed as `gdsl table`
// does, drawn as SVG (driver/Plot.h) into PATH ('-' for standard output).
int plot(Options& o) {
  secondArgument(o, o.tableSpec);
  if (o.tableSpec.empty()) return usage("plot needs a range: gdsl plot FILE 'G(0..N)' -o OUT.svg");
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
  const std::string& path = o.plotPath;
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

// gdsl check FILE [--dump STAGE].
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

// gdsl quotient FILE GAME [--max N] [--max-order K]: the misère quotient
// (driver/Quotient.h).
int quotientCommand(Options& o) {
  secondArgument(o, o.quotientGame);
  if (o.quotientGame.empty()) return usage("quotient needs a game: gdsl quotient FILE G");
  StackOptions options;
  Limits limits;
  if (int rc = stackOptions(o, options, limits)) return rc;
  Watchdog watchdog(limits);
  Stack stack(options);
  if (int rc = loadProgram(stack, o, DumpStage::None, nullptr)) return rc;
  const std::vector<ir::Game>& games = stack.program().games;
  auto it = std::find_if(games.begin(), games.end(),
                         [&](const ir::Game& g) { return g.name == o.quotientGame; });
  if (it == games.end())
    return usage(fmt::format("quotient: the file has no game '{}'", o.quotientGame));
  if (!it->oneHeap() || it->normalize || it->loopy)
    return usage(fmt::format(
        "quotient needs a game of one heap (one integer parameter, no normalize rule, not "
        "loopy); '{}' is not one",
        o.quotientGame));
  std::string error;
  if (!stack.start(error)) return fail("cannot start the JIT: " + error);
  std::cerr << stack.takeLog();
  int game = static_cast<int>(it - games.begin());
  QuotientResult partial;
  partial.lastHeap = -1;
  try {
    QuotientResult q = gameQuotient(stack.engine(), game, o.quotientMax, o.quotientMaxOrder,
                                    makeProgressBar(2), &partial);
    printQuotient(std::cout, o.quotientGame, q, o.json);
    std::cout.flush();
    if (!q.stopped.empty()) {
      if (!o.json) std::cerr << "gdsl: " << q.stopped << "\n";
      return kFileError;
    }
  } catch (const RuntimeError& e) {
    Diagnostic d{Severity::Error, e.describe(), e.range, e.notes};
    std::unique_ptr<Output> out =
        o.json ? makeJsonOutput(std::cout, std::cerr, stack.workspace().sources())
               : makeTextOutput(std::cout, std::cerr, stack.workspace().sources());
    out->error(d);
    return kFileError;
  } catch (const std::runtime_error& e) {
    return fail(e.what());
  } catch (const Interrupted& e) {
    // What was finished is exact: printed, with the limit as the reason.
    std::string message = limitMessage(e.reason, limits);
    if (partial.lastHeap >= 0) {
      partial.stopped = message;
      printQuotient(std::cout, o.quotientGame, partial, o.json);
    }
    std::cout.flush();
    std::cerr << "gdsl: " << message << "\n";
    return kFileError;
  }
  return kOk;
}

// gdsl repl [FILE].
int repl(const Options& o) {
  StackOptions options;
  Limits limits;
  if (int rc = stackOptions(o, options, limits)) return rc;
  std::string text, error;
  if (!o.file.empty() && !readFile(o.file, text, error))
    return usage(fmt::format("cannot read '{}': {}", o.file, error));
  return runRepl(o.file, options.backend, limits);
}

// gdsl kernel: the Jupyter kernel's protocol (cli/Kernel.h).
int kernel(const Options& o) {
  StackOptions options;
  Limits limits;
  if (int rc = stackOptions(o, options, limits)) return rc;
  return runKernel(options.backend, limits);
}

// gdsl census FAMILY --to N --db PATH (driver/Census.h).
int census(const Options& o) {
  CensusOptions options;
  if (int rc = censusOptions(o, options)) return rc;
  return runCensus(options);
}

}  // namespace

int runCommand(Options& o) {
  try {
    switch (o.command) {
      case Command::Eval:
        return eval(o);
      case Command::Check:
        return check(o);
      case Command::Table:
        return table(o);
      case Command::Period:
        return period(o);
      case Command::Plot:
        return plot(o);
      case Command::Repl:
        return repl(o);
      case Command::Kernel:
        return kernel(o);
      case Command::JupyterInstall:
        return installJupyterKernel(o.jupyterUser, o.jupyterPrefix) ? kOk : kFileError;
      case Command::Lsp:
        return runLanguageServer();
      case Command::Play:
        return playCommand(o);
      case Command::Quotient:
        return quotientCommand(o);
      case Command::CensusReport:
        return censusReport(o.reportDb, o.report);
      case Command::CensusMerge:
        return censusMerge(o.mergeInputs, o.mergeOutput);
      case Command::Census:
        return census(o);
      case Command::None:
        break;
    }
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  }
  return kUsageError;
}

}  // namespace gdsl::cli
