// `gdsl repl [FILE]`: the interactive session on the terminal (cli/Repl.cpp).
#pragma once

#include <string>

#include "driver/Backends.h"
#include "runtime/Limits.h"

namespace gdsl {

// Runs the REPL until :quit or end of input; FILE (when not empty) is loaded
// first. Returns the exit status.
int runRepl(const std::string& file, BackendKind backend, const Limits& limits);

}  // namespace gdsl
