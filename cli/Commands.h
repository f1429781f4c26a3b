// gdsl's commands (docs/reference.md section 8), run from parsed options
// (cli/Options.h): eval, check, table, period, plot, repl, play and census.
#pragma once

#include "cli/Options.h"

namespace gdsl::cli {

// Runs the command `o.command` names; the exit status (cli/Report.h).
int runCommand(Options& o);

}  // namespace gdsl::cli
