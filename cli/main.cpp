// The gdsl command line: eval, check, table, period, plot, repl, play and census
// (docs/reference.md section 8, docs/language.md). The options are parsed in
// cli/Options.cpp and the commands run in cli/Commands.cpp; the exit statuses
// are cli/Report.h's: 0 on success, 1 for errors in the game file (syntax,
// types, runtime errors, failed asserts), 2 for bad command-line usage.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli/Commands.h"
#include "cli/Options.h"
#include "runtime/Asan.h"

namespace {

// Whether this build checks for leaks at exit (AddressSanitizer's LeakSanitizer,
// which runs from the normal exit path).
#ifdef GDSL_ASAN
constexpr bool kLeakChecked = true;
#else
constexpr bool kLeakChecked = false;
#endif

// The command line parsed and run; the exit status.
int parseAndRun(int argc, char** argv) {
  gdsl::cli::Options o;
  if (std::optional<int> status = gdsl::cli::parseCommandLine(argc, argv, o)) return *status;
  return gdsl::cli::runCommand(o);
}

}  // namespace

// Every object with work left at the end (files, databases, the JIT, watchdog
// threads) belongs to parseAndRun and is gone when it returns. What the normal
// exit would still destroy are static tables that only free memory (ANTLR's ATNs
// and DFA caches, libLLVM's options), about 2% of a short command: gdsl flushes
// its output and ends without them, except in builds that check for leaks.
int main(int argc, char** argv) {
  int status = parseAndRun(argc, argv);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (!kLeakChecked) std::_Exit(status);
  return status;
}
