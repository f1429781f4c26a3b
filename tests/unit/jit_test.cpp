// White-box tests of the JIT's output (gdsl check --dump=llvm): one kernel per
// one-heap game and one enumerator per game, and a hot loop that reads the
// table directly instead of calling back into C++ for each move.
#include <catch2/catch.hpp>
#include <regex>

#include "driver/Backends.h"
#include "driver/Program.h"

namespace {

std::string compile(const std::string& source) {
  std::string errors;
  auto ws = gdsl::compileProgram("jit.game", source, errors);
  INFO(errors);
  REQUIRE(ws);
  std::string ir, error;
  INFO(error);
  REQUIRE(gdsl::llvmIr(ws->program(), ir, error));
  return ir;
}

// The body of function `name` in `ir`.
std::string function(const std::string& ir, const std::string& name) {
  size_t start = ir.find("@" + name + "(");
  REQUIRE(start != std::string::npos);
  size_t end = ir.find("\n}\n", start);
  return ir.substr(start, end - start);
}

}  // namespace

TEST_CASE("the JIT emits a kernel per one-heap game and an enumerator per game", "[jit]") {
  std::string ir = compile(
      "game Kayles = octal \"0.77\"\n"
      "game Cut(w, h) {\n"
      "  normalize -> Cut(min(w, h), max(w, h))\n"
      "  move v(a in 2..w - 2) -> Cut(a, h) + Cut(w - a, h)\n"
      "}\n");
  CHECK(ir.find("define i64 @gdsl_kernel16_0(") != std::string::npos);
  CHECK(ir.find("define i32 @gdsl_enumerate_0(") != std::string::npos);
  CHECK(ir.find("@gdsl_kernel16_1(") == std::string::npos);  // Cut has two parameters
  CHECK(ir.find("define i32 @gdsl_enumerate_1(") != std::string::npos);
}

TEST_CASE("a take-and-break kernel reads g from the table without calls per move", "[jit]") {
  std::string kernel = function(compile("game Grundy(n) { split unequal }\n"), "gdsl_kernel16_0");
  // Loads from the table argument (%2) in the loop...
  CHECK(std::regex_search(kernel, std::regex("getelementptr inbounds i16, i16\\* %2")));
  // ...and every call is on a cold path: the error helper, a component
  // outside the table, or growing the mex array. No block that reads the
  // table calls anything.
  std::smatch m;
  std::string::const_iterator it = kernel.cbegin();
  int tableBlocks = 0;
  static const std::regex block("\\n([A-Za-z0-9._]+):[^\\n]*\\n((?:  [^\\n]*\\n)*)");
  while (std::regex_search(it, kernel.cend(), m, block)) {
    if (m[2].str().find("i16* %2") != std::string::npos) {
      ++tableBlocks;
      CHECK(m[2].str().find("call") == std::string::npos);
    }
    it = m.suffix().first;
  }
  CHECK(tableBlocks >= 1);
}
