// The standard library: gdsl modules embedded in the binary at build time
// (stdlib/*.game, see stdlib/Embed.cmake), imported as `import std.NAME`.
#pragma once

#include <map>
#include <string>

namespace gdsl {

// Module name (e.g. "heaps") to source text.
const std::map<std::string, std::string>& stdlibModules();

}  // namespace gdsl
