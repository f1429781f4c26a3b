// The standard library on demand (driver/Stdlib.h, Workspace::importStdlib):
// the token scan finds exactly the names the parser sees declared in every
// std module; `--stdlib-only -e POS` loads only the modules POS names, with
// the same statements as the whole library; a statement that does not
// compile gets the errors, suggestions included, of the whole library.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "compiler/parse/Parser.h"
#include "driver/Program.h"
#include "driver/Stdlib.h"

namespace {

using namespace gdsl;

std::set<std::string> gameNames(const Workspace& ws) {
  std::set<std::string> names;
  for (const ir::Game& g : ws.program().games)
    if (g.declared()) names.insert(g.name);  // not the integer games of list games
  return names;
}

// A workspace as gdsl --stdlib-only without FILE loads it (all of the library
// when `uses` is null), with `statement` compiled in it: its rendered
// diagnostics, empty when it compiled.
std::string compileWith(const std::vector<std::string>* uses, const std::string& statement,
                        std::set<std::string>* games = nullptr) {
  Workspace ws;
  REQUIRE(ws.importStdlib(uses));
  REQUIRE(ws.load("<stdlib>", "", ""));
  if (games) *games = gameNames(ws);
  auto compiled = ws.compileStatements("<command line>", statement);
  std::string errors = ws.renderDiagnostics();
  CHECK(compiled.has_value() == errors.empty());
  return errors;
}

}  // namespace

TEST_CASE("the scan finds the names the parser sees declared in every std module") {
  for (const auto& [module, text] : stdlibModules()) {
    INFO("std." << module);
    SourceManager sources;
    DiagnosticSink diagnostics;
    auto parsed = parseModule(sources, sources.add(module, "", text), diagnostics);
    REQUIRE(parsed);
    std::vector<std::string> declared;
    for (const ast::Statement& s : parsed->statements) {
      if (s.kind == ast::Statement::Kind::Game) declared.push_back(s.game->name);
      if (s.kind == ast::Statement::Kind::Const) declared.push_back(s.name);
    }
    CHECK(!declared.empty());
    CHECK(declaredNames(text) == declared);
  }
}

TEST_CASE("identifiers skip comments, strings and numbers") {
  CHECK(identifiers("eval Nim(0x1f) + Kayles(3) // Moore\n /* Wythoff */ \"Cut\"") ==
        std::vector<std::string>{"eval", "Nim", "Kayles"});
  CHECK(stdlibModulesNaming({"eval Nim(3)"}) == std::vector<std::string>{"heaps"});
  CHECK(stdlibModulesNaming({"eval Nim(3)", "table Kayles(0..5)"}) ==
        std::vector<std::string>{"heaps", "octal"});
  CHECK(stdlibModulesNaming({"eval Nimm(3)"}).empty());
  CHECK(stdlibModulesNaming({}).empty());
}

TEST_CASE("a name of each std module loads that module only, with the whole library's answers") {
  for (const auto& [module, text] : stdlibModules()) {
    std::vector<std::string> names = declaredNames(text);
    REQUIRE(!names.empty());
    std::string statement = "period " + names.front();
    INFO("std." << module << ": " << statement);
    std::vector<std::string> uses{statement};
    std::set<std::string> partial, whole;
    std::string partialErrors = compileWith(&uses, statement, &partial);
    std::string wholeErrors = compileWith(nullptr, statement, &whole);
    CHECK(partialErrors == wholeErrors);
    std::vector<std::string> declared = declaredNames(text);
    CHECK(partial == std::set<std::string>(declared.begin(), declared.end()));
    CHECK(partial.size() < whole.size());
  }
}

TEST_CASE("a statement that does not compile gets the whole library's errors") {
  for (std::string statement :
       {"eval Nimm(3)", "eval Kayles(3) + Wythof(1, 2)", "eval Nim(", "eval Nim(1, 2)",
        "table Grundyy(0..10)", "period Moor", "eval Moore(3)"}) {
    INFO(statement);
    std::vector<std::string> uses{statement};
    std::string partial = compileWith(&uses, statement);
    CHECK(!partial.empty());
    CHECK(partial == compileWith(nullptr, statement));
  }
  // The suggestion comes from a module the statement does not name.
  std::vector<std::string> uses{"eval Nimm(3)"};
  CHECK_THAT(compileWith(&uses, "eval Nimm(3)"), Catch::Contains("did you mean 'Nim'?"));
}
