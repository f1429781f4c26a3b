// The gdsl command line (see Options.h): only the command named is made, with
// the options the command line names (all of them for --help), parsed by
// CLI11; then the options as the stack's and the census's.
#include "cli/Options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <regex>
#include <string_view>

#include "cli/Report.h"
#include "driver/Stack.h"

namespace gdsl::cli {

namespace {

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

// gdsl's commands, as the first argument names them.
constexpr const char* kCommands[] = {"eval", "check",  "table",  "period",  "plot", "repl",
                                     "play", "census", "kernel", "jupyter", "lsp",  "quotient"};

// CLI11's parse errors in gdsl's own form (subcommands inherit it).
std::string failureMessage(const CLI::App* top, const CLI::Error& e) {
  std::string command = "gdsl";
  for (const CLI::App* sub : top->get_subcommands()) command += " " + sub->get_name();
  // "--backend: 1 required TEXT missing" in plain words.
  static const std::regex missingValue("^(-[-\\w]+): \\d+ required \\w+ missing$");
  std::string what = std::regex_replace(e.what(), missingValue, "$1 needs a value");
  return fmt::format("gdsl: {}\nRun '{} --help' for more information.\n", what, command);
}

// The parser of one command line, made for it.
//
// An option that is not required is made only when the command line names it,
// or asks for help (which lists every option): CLI11 takes about 10 K
// instructions to make one, and a short eval used two of the fourteen it made
// (bench/README.md, "Start-up"). What CLI11 parses is unchanged: it refuses a
// name it does not know in the same words whether the command has no such
// option or gdsl did not make it, and tests/golden/help holds every command's
// help.
//
// Only the command that the first argument names is made, with its options:
// building every command's options was 5% of a short eval, and making the
// other commands 1.5% more (bench/README.md, "Start-up"). Without a command
// there (`gdsl --help`, a usage error) every command is made, without options,
// for CLI11's list of commands.
class CommandLine {
 public:
  CommandLine(int argc, char** argv, Options& o) : argc_(argc), argv_(argv), o_(o) {
    for (int i = 1; i < argc; ++i)
      helpAsked_ = helpAsked_ || std::strcmp(argv[i], "--help") == 0 ||
                   (argv[i][0] == '-' && argv[i][1] == 'h');
    for (const char* command : kCommands) commandNamed_ = commandNamed_ || named(command);
  }

  std::optional<int> parse();

 private:
  // Whether the first argument is `command`.
  bool named(const char* command) const { return argc_ > 1 && std::strcmp(argv_[1], command) == 0; }
  // Whether to make the option `names`, as CLI11 takes them ("-o,--output"):
  // a long name is given as `--name` or `--name=VALUE`, a short one as `-x`
  // or `-xVALUE`.
  bool wanted(std::string_view names) const;

  // The option or flag `names` of `cmd`, made if wanted; the option, or nullptr.
  template <typename T>
  CLI::Option* option(CLI::App* cmd, const char* names, T& variable, const char* description) {
    return wanted(names) ? cmd->add_option(names, variable, description) : nullptr;
  }
  template <typename T>
  void flag(CLI::App* cmd, const char* names, T& variable, const char* description) {
    if (wanted(names)) cmd->add_flag(names, variable, description);
  }

  // The command `command`, made unless another is named; the command, or nullptr.
  CLI::App* addCommand(CLI::App& parent, const char* command, const char* description) {
    if (commandNamed_ && !named(command)) return nullptr;
    return parent.add_subcommand(command, description);
  }

  void addCommon(CLI::App* cmd, bool fileRequired);
  // Limits, for every command that computes.
  void addLimitOptions(CLI::App* cmd);
  // Options of the commands that compute (eval, table, period, plot).
  void addRunOptions(CLI::App* cmd);

  void addEval(CLI::App* cmd);
  void addCheck(CLI::App* cmd);
  void addTable(CLI::App* cmd);
  void addPeriod(CLI::App* cmd);
  void addQuotient(CLI::App* cmd);
  void addPlot(CLI::App* cmd);
  void addRepl(CLI::App* cmd);
  void addKernel(CLI::App* cmd);
  void addJupyter(CLI::App* install);
  void addPlay(CLI::App* cmd);
  void addCensus(CLI::App* cmd, CLI::App* reportCmd, CLI::App* mergeCmd);

  int argc_;
  char** argv_;
  Options& o_;
  bool helpAsked_ = false;
  bool commandNamed_ = false;
};

bool CommandLine::wanted(std::string_view names) const {
  if (helpAsked_) return true;
  for (size_t start = 0; start < names.size();) {
    size_t end = std::min(names.find(',', start), names.size());
    std::string_view name = names.substr(start, end - start);
    start = end + 1;
    bool isLong = name.substr(0, 2) == "--";
    for (int i = 2; i < argc_; ++i) {
      std::string_view arg = argv_[i];
      if (arg.substr(0, name.size()) != name) continue;
      if (!isLong ? arg.substr(0, 2) != "--" : arg.size() == name.size() || arg[name.size()] == '=')
        return true;
    }
  }
  return false;
}

void CommandLine::addCommon(CLI::App* cmd, bool fileRequired) {
  auto* f = cmd->add_option("FILE", o_.file, "the .game file ('-' for standard input)");
  if (fileRequired) f->required();
  flag(cmd, "--stdlib-only", o_.stdlibOnly, "load the whole standard library (FILE optional)");
}

void CommandLine::addLimitOptions(CLI::App* cmd) {
  if (auto* states = option(cmd, "--max-states", o_.maxStates,
                            "most positions memoized by a search (default 20000000)"))
    states->check(expected("a whole number of positions, at least 1", [](const std::string& text) {
      uint64_t states = 0;
      return reads(text, states) && states >= 1;
    }));
  option(cmd, "--max-memory", o_.maxMemory,
         "stop when gdsl uses more memory than SIZE, e.g. 4G (default: half the machine's "
         "memory, at most 8G; 0: no limit)");
  if (auto* timeout =
          option(cmd, "--timeout", o_.timeout, "stop after SECONDS (default 0: no limit)"))
    timeout->check(expected("a number of seconds, 0 or more", [](const std::string& text) {
      char* end = nullptr;
      double seconds = std::strtod(text.c_str(), &end);
      return !text.empty() && *end == '\0' && std::isfinite(seconds) && seconds >= 0;
    }));
}

void CommandLine::addRunOptions(CLI::App* cmd) {
  addLimitOptions(cmd);
  option(cmd, "--backend", o_.backend, "interp, jit or auto (default)");
  flag(cmd, "--json", o_.json, "print JSON Lines");
  flag(cmd, "--verbose", o_.verbose, "say which backend runs and how tables were computed");
  flag(cmd, "--plain", o_.plain,
       "plain method: every value by the game's kernel, no sparse space, no period shortcut");
  if (auto* threads = option(cmd, "--threads", o_.threads,
                             "threads that value a large board (default: the cores, at most 8)"))
    threads->check(expected("a whole number from 1 to 64", [](const std::string& text) {
      int64_t threads = 0;
      return reads(text, threads) && threads >= 1 && threads <= 64;
    }));
  option(cmd, "--checkpoint", o_.checkpoint,
         "save one-heap tables to PATH while they grow, and resume from it");
  auto positiveSeconds = [] {
    return expected("a positive number of seconds", [](const std::string& text) {
      double seconds = 0;
      return reads(text, seconds) && seconds > 0;
    });
  };
  if (auto* every = option(cmd, "--checkpoint-every", o_.checkpointSeconds,
                           "seconds between checkpoints (default 30)"))
    every->check(positiveSeconds());
  option(cmd, "--table-file", o_.tableFile,
         "keep the one-heap table in the file PATH (for tables larger than memory), and "
         "resume from it");
  if (auto* every = option(cmd, "--table-file-every", o_.tableFileSeconds,
                           "seconds between flushes of the table file (default 5)"))
    every->check(positiveSeconds());
}

void CommandLine::addEval(CLI::App* eval) {
  addCommon(eval, false);
  option(eval, "-e", o_.positions, "a position to evaluate after the file's statements");
  addRunOptions(eval);
}

void CommandLine::addCheck(CLI::App* chk) {
  addCommon(chk, true);
  option(chk, "--dump", o_.dump, "print the program after a stage: ast, desugared, ir, llvm");
}

void CommandLine::addTable(CLI::App* table) {
  addCommon(table, false);
  table->add_option("RANGE", o_.tableSpec, "G(0..N), G(a..b, c..d) or [P for x in D ...]");
  addRunOptions(table);
}

void CommandLine::addPeriod(CLI::App* period) {
  addCommon(period, false);
  period->add_option("GAME", o_.periodGame, "a one-heap game");
  if (auto* max = option(period, "--max", o_.periodMax, "search heaps 0..N (default 100000)"))
    max->check(expected("a whole number of heaps", [](const std::string& text) {
      int64_t heaps = 0;
      return reads(text, heaps);
    }));
  addRunOptions(period);
}

void CommandLine::addQuotient(CLI::App* quotient) {
  addCommon(quotient, false);
  quotient->add_option("GAME", o_.quotientGame, "a one-heap game");
  if (auto* max =
          option(quotient, "--max", o_.quotientMax,
                 "compute heaps 0..N, or until the quotient is proved final (default 1000)"))
    max->check(expected("a whole number of heaps", [](const std::string& text) {
      int64_t heaps = 0;
      return reads(text, heaps) && heaps >= 0;
    }));
  if (auto* order = option(quotient, "--max-order", o_.quotientMaxOrder,
                           "stop once the quotient has more elements (default 2048)"))
    order->check(
        expected("a whole number of elements from 1 to 1000000", [](const std::string& text) {
          int64_t n = 0;
          return reads(text, n) && n >= 1 && n <= 1000000;
        }));
  addLimitOptions(quotient);
  option(quotient, "--backend", o_.backend, "interp, jit or auto (default)");
  flag(quotient, "--json", o_.json, "print one JSON line");
}

void CommandLine::addPlot(CLI::App* plot) {
  addCommon(plot, false);
  plot->add_option("RANGE", o_.tableSpec, "G(0..N) or G(a..b, c..d)");
  plot->add_option("-o,--output", o_.plotPath, "the SVG file to write ('-' for standard output)")
      ->required();
  addRunOptions(plot);
  if (CLI::Option* json = plot->get_option_no_throw("--json")) plot->remove_option(json);
}

void CommandLine::addRepl(CLI::App* repl) {
  repl->add_option("FILE", o_.file, "a .game file to load first");
  option(repl, "--backend", o_.backend, "interp, jit or auto (default)");
  addLimitOptions(repl);
}

void CommandLine::addKernel(CLI::App* kernel) {
  option(kernel, "--backend", o_.backend, "interp, jit or auto (default)");
  addLimitOptions(kernel);
}

void CommandLine::addJupyter(CLI::App* install) {
  auto* user =
      install->add_flag("--user", o_.jupyterUser, "in your Jupyter data directory (the default)");
  install
      ->add_option("--prefix", o_.jupyterPrefix,
                   "under DIR/share/jupyter/kernels/gdsl (a virtualenv, /usr/local)")
      ->excludes(user);
}

void CommandLine::addPlay(CLI::App* play) {
  addCommon(play, false);
  play->add_option("POS", o_.playPosition, "the position, e.g. 'Kayles(7) + Kayles(4)'");
  flag(play, "--misere", o_.play.misere, "misère play: the player who moves last loses");
  flag(play, "--computer-first", o_.play.computerFirst, "the computer moves first");
  if (auto* seed = option(play, "--seed", o_.play.seed, "seed of the computer's random moves"))
    seed->check(expected("a whole number from 0 to 18446744073709551615",
                         [](const std::string& text) {
                           uint64_t seed = 0;
                           return reads(text, seed);
                         }))
        ->each([this](const std::string&) { o_.seeded = true; });
  option(play, "--backend", o_.backend, "interp, jit or auto (default)");
  addLimitOptions(play);
}

void CommandLine::addCensus(CLI::App* census, CLI::App* reportCmd, CLI::App* mergeCmd) {
  CensusOptions& c = o_.census;
  census->add_option("FAMILY", c.family,
                     "octal codes ('0.?\?\?', '4.?\?', '0.137,0.07') or a .game file");
  census->add_option("--to", c.to, "compute heaps 0..N, or until the period is proved")
      ->check(expected("a whole number of heaps, at least 1", [](const std::string& text) {
        int64_t heaps = 0;
        return reads(text, heaps) && heaps >= 1;
      }));
  census->add_option("--db", c.db, "the SQLite database to fill (created if absent)");
  census
      ->add_option("--jobs", c.jobs,
                   "games computed at once (default: the cores; under mpirun, 1 per rank)")
      ->check(expected("a whole number from 1 to 1024", [](const std::string& text) {
        int64_t jobs = 0;
        return reads(text, jobs) && jobs >= 1 && jobs <= 1024;
      }));
  census->add_option("--shard", o_.censusShard, "K/N: only the games i with i % N == K - 1");
  census
      ->add_option("--quotient", c.quotient.maxHeap,
                   "also each game's misère quotient, to heap HEAPS (docs/census.md)")
      ->check(expected("a whole number of heaps, at least 1", [](const std::string& text) {
        int64_t heaps = 0;
        return reads(text, heaps) && heaps >= 1;
      }));
  census
      ->add_option("--quotient-seconds", o_.censusQuotientSeconds,
                   "the time each game's quotient may take (default 10)")
      ->check(expected("a number of seconds from 0.001 to 86400", [](const std::string& text) {
        double seconds = 0;
        return reads(text, seconds) && seconds >= 0.001 && seconds <= 86400;
      }));
  census->add_option("--backend", o_.backend, "interp, jit or auto (default)");
  CensusReportOptions& report = o_.report;
  reportCmd->add_option("DB", o_.reportDb, "the database")->required();
  reportCmd->add_flag("--csv", report.csv, "CSV (every column) instead of Markdown");
  reportCmd->add_flag("--open", report.openOnly, "only the games whose period is not proved");
  reportCmd->add_flag("--times", report.times, "Markdown: also seconds and peak memory");
  reportCmd
      ->add_option("--sort", report.sort,
                   "game (default), or the largest first: "
                   "period, preperiod, proof, value, rare, seconds")
      ->check(expected("game, period, preperiod, proof, value, rare or seconds", censusSortKey));
  mergeCmd->add_option("DB", o_.mergeInputs, "the databases to merge")->required();
  mergeCmd->add_option("-o,--output", o_.mergeOutput, "the database to merge into")->required();
}

std::optional<int> CommandLine::parse() {
  // Named "gdsl" in help, whatever path ran it.
  CLI::App app{"gdsl: Grundy values, outcomes and periods of impartial games", "gdsl"};
  app.set_version_flag("--version", "gdsl " GDSL_VERSION);
  app.require_subcommand(1);
  app.failure_message(failureMessage);

  CLI::App* eval = addCommand(app, "eval", "run a file's statements, then each -e position");
  if (named("eval")) addEval(eval);
  CLI::App* chk = addCommand(app, "check", "check a file without evaluating it");
  if (named("check")) addCheck(chk);
  CLI::App* table = addCommand(app, "table", "print a value table, e.g. 'G(0..100)'");
  if (named("table")) addTable(table);
  CLI::App* period = addCommand(app, "period", "find (and prove) the period of a game");
  if (named("period")) addPeriod(period);
  CLI::App* quotient =
      addCommand(app, "quotient", "the misère quotient of a one-heap game (docs/misere.md)");
  if (named("quotient")) addQuotient(quotient);
  CLI::App* plot = addCommand(app, "plot", "draw a value table as SVG, e.g. 'G(0..100)'");
  if (named("plot")) addPlot(plot);
  CLI::App* repl = addCommand(app, "repl", "interactive session (:help inside lists commands)");
  if (named("repl")) addRepl(repl);
  CLI::App* kernel = addCommand(
      app, "kernel", "answer the Jupyter kernel's JSON requests on stdin (docs/jupyter.md)");
  if (named("kernel")) addKernel(kernel);
  CLI::App* jupyter = addCommand(app, "jupyter", "the Jupyter kernel: gdsl jupyter install");
  CLI::App* jupyterInstall =
      jupyter ? jupyter->add_subcommand("install", "install the kernelspec 'gdsl'") : nullptr;
  if (jupyter) jupyter->require_subcommand(1);
  if (named("jupyter")) addJupyter(jupyterInstall);
  CLI::App* lsp =
      addCommand(app, "lsp", "the language server, on stdin and stdout (docs/editors.md)");
  CLI::App* play = addCommand(app, "play", "play a position against the computer");
  if (named("play")) addPlay(play);
  CLI::App* census = addCommand(
      app, "census", "compute a family of one-heap games into a database (docs/census.md)");
  CLI::App* censusReport =
      census ? census->add_subcommand("report", "print a census database's table") : nullptr;
  CLI::App* censusMerge =
      census ? census->add_subcommand("merge", "merge census databases") : nullptr;
  if (named("census")) addCensus(census, censusReport, censusMerge);

  if (argc_ == 1)
    return usage(
        "missing a command: eval, check, table, period, quotient, plot, repl, play, census, "
        "jupyter, kernel or lsp (see gdsl --help)");
  if (argc_ > 1 && argv_[1][0] != '-' && !commandNamed_)
    return usage(
        fmt::format("unknown command '{}'; expected eval, check, table, period, quotient, plot, "
                    "repl, play, census, jupyter, kernel or lsp (see gdsl --help)",
                    argv_[1]));
  try {
    app.parse(argc_, argv_);
  } catch (const CLI::ParseError& e) {
    if (app.exit(e) == 0) return kOk;  // --help
    jsonError(e.what());               // app.exit wrote the text
    return kUsageError;
  }

  // The command parsed (census's own after its report and merge).
  const std::pair<CLI::App*, Command> commands[] = {{eval, Command::Eval},
                                                    {chk, Command::Check},
                                                    {table, Command::Table},
                                                    {period, Command::Period},
                                                    {quotient, Command::Quotient},
                                                    {plot, Command::Plot},
                                                    {repl, Command::Repl},
                                                    {kernel, Command::Kernel},
                                                    {jupyterInstall, Command::JupyterInstall},
                                                    {lsp, Command::Lsp},
                                                    {play, Command::Play},
                                                    {censusReport, Command::CensusReport},
                                                    {censusMerge, Command::CensusMerge},
                                                    {census, Command::Census}};
  for (const auto& [cmd, command] : commands)
    if (cmd && *cmd) {
      o_.command = command;
      break;
    }
  return std::nullopt;
}

}  // namespace

std::optional<int> parseCommandLine(int argc, char** argv, Options& o) {
  bool json = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--json") == 0) json = true;
  reportAsJson(json);
  return CommandLine(argc, argv, o).parse();
}

void secondArgument(Options& o, std::string& argument) {
  if (o.stdlibOnly && argument.empty()) std::swap(o.file, argument);
}

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
    for (const std::string* text : {&o.tableSpec, &o.periodGame, &o.playPosition, &o.quotientGame})
      if (!text->empty()) uses.push_back(*text);
    options.stdlibUses = std::move(uses);
  }
  options.verbose = o.verbose;
  options.engine.maxStates = limits.maxStates;
  options.engine.maxMemory = limits.maxMemory;
  options.engine.plain = o.plain;
  if (o.threads > 0) options.engine.threads = o.threads;
  options.engine.checkpointPath = o.checkpoint;
  options.engine.checkpointSeconds = o.checkpointSeconds;
  options.engine.tableFilePath = o.tableFile;
  options.engine.tableFileSeconds = o.tableFileSeconds;
  return kOk;
}

int censusOptions(const Options& o, CensusOptions& options) {
  options = o.census;
  if (options.family.empty())
    return usage("census needs a family: gdsl census '0.?\?\?' --to N --db PATH");
  if (options.to < 1) return usage("census needs --to N (the heaps to compute)");
  if (options.db.empty()) return usage("census needs --db PATH (the SQLite database)");
  if (o.censusQuotientSeconds > 0) {
    if (options.quotient.maxHeap == 0)
      return usage("census: --quotient-seconds needs --quotient HEAPS");
    options.quotient.seconds = o.censusQuotientSeconds;
  }
  if (!o.censusShard.empty()) {
    static const std::regex shard("^([0-9]{1,6})/([0-9]{1,6})$");
    std::smatch m;
    if (!std::regex_match(o.censusShard, m, shard) || std::stoi(m[2]) < 1 || std::stoi(m[1]) < 1 ||
        std::stoi(m[1]) > std::stoi(m[2]))
      return usage(
          fmt::format("--shard {}: expected K/N with 1 <= K <= N, like 2/4", o.censusShard));
    options.shardIndex = std::stoi(m[1]);
    options.shardCount = std::stoi(m[2]);
  }
  std::optional<BackendKind> kind = parseBackendKind(o.backend);
  if (!kind)
    return usage(fmt::format("unknown backend '{}'; expected {}", o.backend, kBackendNames));
  options.backend = *kind;
  options.version = GDSL_VERSION;
  return kOk;
}

}  // namespace gdsl::cli
