// Finding gdsl's plugins, the libraries it loads only when a run needs them
// (libgdsl-jit.so: LLVM; libgdsl-mpi.so: Open MPI): at the path in the
// plugin's environment variable when it is set, else the first that exists
// of: beside the executable (the build tree); ../lib/gdsl/ from the
// executable (an installed gdsl); the path it was built at (test programs
// elsewhere in the build tree).
#pragma once

#include <string>
#include <vector>

namespace gdsl {

struct PluginPlace {
  const char* fileName;     // "libgdsl-jit.so"
  const char* environment;  // "GDSL_JIT_PLUGIN"
  const char* builtAt;      // the path the build wrote it to ("" when not built)
};

// Where the plugin is looked for, first to last.
std::vector<std::string> pluginCandidates(const PluginPlace& place);
// The first candidate that exists, or empty with `tried` listing them all.
std::string findPlugin(const PluginPlace& place, std::string& tried);

}  // namespace gdsl
