// The standard library: gdsl modules embedded in the binary at build time
// (stdlib/*.game, see stdlib/Embed.cmake), imported as `import std.NAME`,
// and which of them a piece of text names (driver/Stdlib.cpp), so that
// `--stdlib-only -e POS` loads only the modules POS uses.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gdsl {

// Module name (e.g. "heaps") to source text.
const std::map<std::string, std::string>& stdlibModules();

// The names a module declares at top level (`game NAME`, `const NAME`), found
// by a scan of its tokens (comments and strings skipped), not by the parser.
std::vector<std::string> declaredNames(const std::string& moduleText);

// Every identifier of `text` (comments and strings skipped; the letters of a
// number such as 0x1f are not one).
std::vector<std::string> identifiers(const std::string& text);

// The std modules (in stdlibModules() order) that declare a name written in
// one of `texts`: what a program made of these statements needs imported.
std::vector<std::string> stdlibModulesNaming(const std::vector<std::string>& texts);

}  // namespace gdsl
