// Loading a program and its imports, and running the compiler pipeline:
// parse -> sema (with desugaring) -> ast2ir -> constant folding -> analyses.
#include "driver/Program.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "compiler/ast/AstPrinter.h"
#include "compiler/ast2ir/Lower.h"
#include "compiler/ir/IrPrinter.h"
#include "compiler/ir/Passes.h"
#include "compiler/parse/Parser.h"
#include "driver/Stdlib.h"
#include "runtime/Checkpoint.h"

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

bool Workspace::importStdlib() {
  std::string text;
  for (const auto& [n, _] : stdlibModules()) text += "import std." + n + "\n";
  uint32_t file = sources_.add("<stdlib>", "", std::move(text));
  std::vector<std::string> loading;
  return loadModule(file, ".", loading);
}

bool Workspace::compile(DumpStage stage, std::string* dump) {
  if (stage == DumpStage::Ast && dump) *dump = ast::printModule(modules_.back());
  if (!analyze(modules_, diags_, checked_)) return false;
  if (stage == DumpStage::Desugared && dump) *dump = ast::printModule(modules_.back());
  program_ = lowerProgram(checked_, modules_.back());
  try {
    constValues_ = ir::foldConstants(program_);
  } catch (const RuntimeError& e) {
    Diagnostic& d = diags_.error(e.range, "cannot compute this constant: " + e.message);
    d.notes = e.notes;
    return false;
  }
  size_t before = diags_.all().size();
  ir::checkAmounts(program_, diags_);
  if (diags_.all().size() != before) return false;
  ir::analyzeTakeBreak(program_);
  ir::narrowRanges(program_);
  if (stage == DumpStage::Ir && dump) *dump = ir::printProgram(program_);
  return true;
}

std::optional<std::vector<ir::Statement>> Workspace::compileStatements(const std::string& name,
                                                                       std::string text) {
  uint32_t file = sources_.add(name, "", std::move(text));
  std::optional<ast::Module> module = parseModule(sources_, file, diags_);
  if (!module) return std::nullopt;
  if (!analyzeStatements(*module, checked_, diags_)) return std::nullopt;
  std::vector<ir::Statement> statements = lowerStatements(checked_, *module);
  for (ir::Statement& s : statements) ir::foldStatement(s, constValues_);
  return statements;
}

uint64_t rulesFingerprint(const ir::Program& program) {
  // The printed IR names every game's rules; constants and the list pools
  // hold the values the rules refer to.
  std::string text = ir::printProgram(program);
  for (const ir::Constant& c : program.constants)
    text += c.name + " = " + ir::printExpr(program, c.init) + "\n";
  for (const auto& list : program.lists) text += fmt::format("[{}]\n", fmt::join(list, ","));
  for (const auto& nested : program.nested) text += fmt::format("[{}]\n", fmt::join(nested, ","));
  return fnv1a(text.data(), text.size());
}

namespace {

// What a game's rules refer to: other games, and pools of lists of lists
// (printed by index, so their contents are added to the fingerprint).
struct GameRefs {
  std::set<int> games;
  std::set<int64_t> nested;

  void add(const ir::Expr& e) {
    if (e.op == ir::Op::NestedConst) nested.insert(e.imm);
    for (const ir::Expr& k : e.kids) add(k);
  }
  void add(const ir::Step& s) {
    add(s.domain.lo);
    add(s.domain.hi);
    add(s.domain.list);
    add(s.value);
  }
  void add(const ir::Term& t) {
    if (t.kind == ir::Term::Kind::Position) games.insert(t.game);
    for (const ir::Expr& a : t.args) add(a);
    add(t.binder);
    for (const ir::Term& b : t.body) add(b);
  }
};

}  // namespace

std::vector<uint64_t> gameFingerprints(const ir::Program& program) {
  size_t n = program.games.size();
  std::vector<std::string> own(n);
  std::vector<std::set<int>> reaches(n);
  for (size_t g = 0; g < n; ++g) {
    const ir::Game& game = program.games[g];
    GameRefs refs;
    if (game.normalize)
      for (const ir::Expr& e : *game.normalize) refs.add(e);
    for (const ir::Move& m : game.moves) {
      for (const ir::Step& s : m.steps) refs.add(s);
      for (const ir::Term& t : m.successor) refs.add(t);
    }
    own[g] = ir::printGame(program, game);
    for (int64_t k : refs.nested) {
      own[g] += fmt::format("nested#{} =", k);
      for (int list : program.nested[static_cast<size_t>(k)])
        own[g] += fmt::format(" [{}]", fmt::join(program.lists[static_cast<size_t>(list)], ","));
      own[g] += "\n";
    }
    reaches[g] = std::move(refs.games);
  }
  std::vector<uint64_t> out(n);
  for (size_t g = 0; g < n; ++g) {
    // Every game reachable from g, by name (indices differ between programs).
    std::set<int> seen{static_cast<int>(g)};
    std::vector<int> work{static_cast<int>(g)};
    while (!work.empty()) {
      int h = work.back();
      work.pop_back();
      for (int next : reaches[static_cast<size_t>(h)])
        if (seen.insert(next).second) work.push_back(next);
    }
    std::map<std::string, const std::string*> byName;
    for (int h : seen)
      byName[program.games[static_cast<size_t>(h)].name] = &own[static_cast<size_t>(h)];
    std::string text = own[g];
    for (const auto& [name, rules] : byName) text += *rules;
    out[g] = fnv1a(text.data(), text.size());
  }
  return out;
}

}  // namespace gdsl
