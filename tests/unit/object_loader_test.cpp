// gdsl's linker for the JIT's objects (backend/jit/ObjectLoader.h): a real
// object from the compiler plugin links, defines its function and names the
// helpers it calls; an object whose symbols cannot be resolved, a file that
// is not an x86-64 object, and every truncation and thousands of random
// corruptions of a real object are errors or links, never a crash (the
// sanitizer build checks every access). Nothing linked here is run: the golden
// suite runs linked code on every JIT case.
#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "backend/jit/JitPlugin.h"
#include "backend/jit/JitRuntime.h"
#include "backend/jit/ObjectLoader.h"
#include "driver/JitLoader.h"
#include "driver/Program.h"

namespace {

using gdsl::jit::CompiledObject;
using gdsl::jit::LinkedObject;

// The enumerator of a game with a guard, a list and a sum: it calls helpers.
CompiledObject compileEnumerator() {
  std::string errors;
  auto ws = gdsl::compileProgram("loader.game",
                                 "game G(n) {\n"
                                 "  move sub(k in [1, 2, 5]) when k <= n -> G(n - k)\n"
                                 "  move cut(a in 1..n - 1) when a < n - a -> G(a) + G(n - a)\n"
                                 "}\n",
                                 errors);
  INFO(errors);
  REQUIRE(ws);
  std::string error;
  std::unique_ptr<gdsl::jit::ObjectCompiler> compiler = gdsl::loadJitCompiler(error);
  INFO(error);
  REQUIRE(compiler);
  gdsl::jit::CompileRequest request;
  request.program = &ws->program();
  request.game = 0;
  request.what = gdsl::jit::Emitted::Enumerator;
  CompiledObject out;
  REQUIRE(compiler->compile(request, out, error));
  return out;
}

}  // namespace

TEST_CASE("the JIT's linker links a compiled object and finds its function", "[jit][loader]") {
  CompiledObject compiled = compileEnumerator();
  CHECK(!compiled.locations.empty());  // its guards and arithmetic can fail
  std::set<std::string> asked;
  std::string error;
  auto linked = LinkedObject::link(
      compiled.object,
      [&](const std::string& name) {
        asked.insert(name);
        return gdsl::jit::helperAddress(name);
      },
      error);
  INFO(error);
  REQUIRE(linked);
  CHECK(linked->symbol("gdsl_enumerate_0") != nullptr);
  CHECK(linked->symbol("gdsl_enumerate_1") == nullptr);
  CHECK(linked->mappedBytes() >= compiled.object.size() / 4);
  CHECK(asked.count("gdsl_jit_move_emit") == 1);  // every move goes to the engine
}

TEST_CASE("the JIT's linker refuses what it cannot link", "[jit][loader]") {
  std::string error;
  CHECK(!LinkedObject::link("hello", gdsl::jit::helperAddress, error));
  CHECK(error == "the JIT's object cannot be linked: not an ELF file");
  CompiledObject compiled = compileEnumerator();
  error.clear();
  CHECK(!LinkedObject::link(
      compiled.object, [](const std::string&) -> void* { return nullptr; }, error));
  CHECK(error.rfind("the JIT's object cannot be linked: undefined symbol gdsl_jit_", 0) == 0);
  // An object for another machine: EM_X86_64 is 62 (byte 18 of the header).
  std::string other = compiled.object;
  other[18] = 40;
  error.clear();
  CHECK(!LinkedObject::link(other, gdsl::jit::helperAddress, error));
  CHECK(error == "the JIT's object cannot be linked: not an x86-64 relocatable object");
}

TEST_CASE("a truncated or corrupted object is an error or links, never a crash", "[jit][loader]") {
  CompiledObject compiled = compileEnumerator();
  const std::string& object = compiled.object;
  auto tryLink = [](const std::string& bytes) {
    std::string error;
    auto linked = LinkedObject::link(bytes, gdsl::jit::helperAddress, error);
    // Either linked, or refused with a message that says so.
    CHECK((linked != nullptr) != (error.rfind("the JIT's object cannot be linked: ", 0) == 0));
  };
  for (size_t size = 0; size < object.size(); size += 1 + size / 16)
    tryLink(object.substr(0, size));
  std::mt19937_64 random(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = object;
    int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f)
      bytes[random() % bytes.size()] = static_cast<char>(random() & 0xff);
    tryLink(bytes);
  }
}
