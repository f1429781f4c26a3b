// Loading a program and its imports, and running the compiler pipeline:
// parse -> sema (with desugaring) -> ast2ir -> constant folding -> analyses.
#include "driver/Program.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "compiler/ast/AstPrinter.h"
#include "compiler/ast2ir/Lower.h"
#include "compiler/ir/IrPrinter.h"
#include "compiler/ir/Passes.h"
#include "compiler/parse/Parser.h"
#include "driver/Stdlib.h"

namespace gdsl {

namespace fs = std::filesystem;

std::string Workspace::renderDiagnostics() const {
  std::string out;
  for (const Diagnostic& d : diags_.all()) out += render(sources_, d);
  return out;
}

bool Workspace::loadModule(uint32_t file, const std::string& dir,
                           std::vector<std::string>& loading) {
  std::optional<ast::Module> module = parseModule(sources_, file, diags_);
  if (!module) return false;
  bool ok = true;
  for (const ast::Statement& s : module->statements) {
    if (s.kind != ast::Statement::Kind::Import) continue;
    std::string key, name, path, text, childDir;
    if (s.importStd) {
      std::string moduleName = s.name.rfind("std.", 0) == 0 ? s.name.substr(4) : "";
      auto it = stdlibModules().find(moduleName);
      if (it == stdlibModules().end()) {
        std::string names;
        for (const auto& [n, _] : stdlibModules()) names += (names.empty() ? "std." : ", std.") + n;
        diags_.error(s.nameRange, fmt::format("unknown module '{}'; the standard library has {}",
                                              s.name, names));
        ok = false;
        continue;
      }
      key = "std:" + moduleName;
      name = "std/" + moduleName + ".game";
      text = it->second;
    } else {
      fs::path p = fs::path(s.name).is_absolute() ? fs::path(s.name) : fs::path(dir) / s.name;
      std::error_code ec;
      fs::path canonical = fs::weakly_canonical(p, ec);
      key = ec ? p.string() : canonical.string();
      std::string error;
      if (!readFile(p.string(), text, error)) {
        diags_.error(s.nameRange, fmt::format("cannot open '{}' (looked for {}): {}", s.name,
                                              p.string(), error));
        ok = false;
        continue;
      }
      name = p.lexically_normal().string();
      path = p.string();
      childDir = p.parent_path().string();
    }
    if (std::find(loadedKeys_.begin(), loadedKeys_.end(), key) != loadedKeys_.end()) continue;
    if (std::find(loading.begin(), loading.end(), key) != loading.end()) continue;  // a cycle
    loading.push_back(key);
    uint32_t child = sources_.add(name, path, std::move(text));
    ok = loadModule(child, childDir.empty() ? dir : childDir, loading) && ok;
    loading.pop_back();
    loadedKeys_.push_back(key);
  }
  modules_.push_back(std::move(*module));  // after its imports
  return ok;
}

bool Workspace::load(const std::string& name, const std::string& path, std::string text,
                     DumpStage stage, std::string* dump) {
  if (partialStdlib_) main_ = {name, path, text};
  uint32_t file = sources_.add(name, path, std::move(text));
  std::string dir = path.empty() ? "." : fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  std::vector<std::string> loading;
  if (!path.empty()) {
    std::error_code ec;
    loading.push_back(fs::weakly_canonical(path, ec).string());
  }
  if (!loadModule(file, dir, loading)) return false;
  return compile(stage, dump);
}

bool Workspace::loadEntries(const std::vector<SourceEntry>& entries) {
  bool ok = true;
  for (const SourceEntry& e : entries) {
    uint32_t file = sources_.add(e.name, e.path, e.text);
    std::string dir = e.path.empty() ? "." : fs::path(e.path).parent_path().string();
    if (dir.empty()) dir = ".";
    std::vector<std::string> loading;
    ok = loadModule(file, dir, loading) && ok;
  }
  if (!ok) return false;
  if (modules_.empty()) modules_.emplace_back();  // an empty session
  return compile(DumpStage::None, nullptr);
}

bool Workspace::importStdlib(const std::vector<std::string>* uses) {
  std::string text;
  if (uses) {
    partialStdlib_ = true;
    for (const std::string& n : stdlibModulesNaming(*uses)) text += "import std." + n + "\n";
  } else {
    for (const auto& [n, _] : stdlibModules()) text += "import std." + n + "\n";
  }
  uint32_t file = sources_.add("<stdlib>", "", std::move(text));
  std::vector<std::string> loading;
  return loadModule(file, ".", loading);
}

bool Workspace::compile(DumpStage stage, std::string* dump) {
  if (stage == DumpStage::Ast && dump) *dump = ast::printModule(modules_.back());
  if (!analyze(modules_, diags_, checked_)) return false;
  if (stage == DumpStage::Desugared && dump) *dump = ast::printModule(modules_.back());
  program_ = lowerProgram(checked_, modules_.back());
  if (!ir::runPasses(program_, constValues_, diags_)) return false;
  if (stage == DumpStage::Ir && dump) *dump = ir::printProgram(program_);
  return true;
}

std::optional<std::vector<ir::Statement>> Workspace::compileStatements(const std::string& name,
                                                                       std::string text) {
  if (!partialStdlib_) return compileStatementsOnce(name, std::move(text));
  std::optional<std::vector<ir::Statement>> statements = compileStatementsOnce(name, text);
  if (statements || !reloadWithWholeStdlib()) return statements;
  return compileStatementsOnce(name, std::move(text));
}

// The program loaded again as importStdlib() without `uses` and load() would
// have: every std module, then the main file. False (the workspace left as
// it was) if that fails, which a program that loaded with part of the
// library does not.
bool Workspace::reloadWithWholeStdlib() {
  Workspace whole;
  if (!whole.importStdlib() || !whole.load(main_.name, main_.path, main_.text)) return false;
  *this = std::move(whole);
  return true;
}

std::optional<std::vector<ir::Statement>> Workspace::compileStatementsOnce(const std::string& name,
                                                                           std::string text) {
  uint32_t file = sources_.add(name, "", std::move(text));
  std::optional<ast::Module> module = parseModule(sources_, file, diags_);
  if (!module) return std::nullopt;
  if (!analyzeStatements(*module, checked_, diags_)) return std::nullopt;
  std::vector<ir::Statement> statements = lowerStatements(checked_, *module);
  for (ir::Statement& s : statements) ir::foldStatement(s, constValues_);
  return statements;
}

std::unique_ptr<Workspace> compileProgram(const std::string& name, std::string text,
                                          std::string& errors) {
  auto ws = std::make_unique<Workspace>();
  if (ws->load(name, "", std::move(text))) return ws;
  errors = ws->renderDiagnostics();
  return nullptr;
}

}  // namespace gdsl
