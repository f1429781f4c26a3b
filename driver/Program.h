// Loading and compiling a program: the main file and its imports (files and
// std modules, each loaded once, imports first), then sema, lowering and the
// IR passes. Extra statements (`-e`, the CLI's table/period, a session's
// queries) are compiled later in the scope of the loaded program.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Ir.h"
#include "compiler/sema/Sema.h"
#include "compiler/support/Diagnostics.h"

namespace gdsl {

enum class DumpStage { None, Ast, Desugared, Ir };

// A piece of a REPL session's program: an entry typed at the prompt or a file
// read with :load. Its statements, and the declarations a later entry
// redefined, are blanked out (spaces, newlines kept), so locations in the
// rest stay those the user typed.
struct SourceEntry {
  std::string name;  // shown in diagnostics: <input 3> or the file's path
  std::string path;  // for relative imports; empty for typed entries
  std::string text;
};

class Workspace {
 public:
  // Loads and compiles a program whose main file is `text`, shown as `name`;
  // relative imports resolve against the directory of `path` (or the current
  // directory when `path` is empty). `dump` receives the program printed at
  // `stage`. False on errors (see diagnostics()).
  bool load(const std::string& name, const std::string& path, std::string text,
            DumpStage stage = DumpStage::None, std::string* dump = nullptr);
  // Loads a program made of several entries (each a module in one scope,
  // imports first) and compiles it. False on errors.
  bool loadEntries(const std::vector<SourceEntry>& entries);
  // Imports every std module into the program's scope (gdsl --stdlib-only),
  // as a module of its own, so that the main file's lines stay its own. Call
  // before load(). With `uses`, only the modules that declare a name written
  // in one of those texts (stdlibModulesNaming): the statements compiled
  // later must be among them. Should one of those fail to compile, the
  // workspace is loaded again with every module and compiles it again, so
  // that its errors (and their suggestions of names) read exactly as with
  // the whole library.
  bool importStdlib(const std::vector<std::string>* uses = nullptr);

  // Compiles statements written in `text` (shown as `name`) against the loaded
  // program; they may not declare games, constants or imports.
  std::optional<std::vector<ir::Statement>> compileStatements(const std::string& name,
                                                              std::string text);

  const ir::Program& program() const { return program_; }
  const SourceManager& sources() const { return sources_; }
  DiagnosticSink& diagnostics() { return diags_; }
  std::string renderDiagnostics() const;

 private:
  bool loadModule(uint32_t file, const std::string& dir, std::vector<std::string>& loading);
  bool compile(DumpStage stage, std::string* dump);
  std::optional<std::vector<ir::Statement>> compileStatementsOnce(const std::string& name,
                                                                  std::string text);
  bool reloadWithWholeStdlib();

  SourceManager sources_;
  DiagnosticSink diags_;
  std::vector<ast::Module> modules_;
  std::vector<std::string> loadedKeys_;  // canonical paths or std:NAME already loaded
  CheckedProgram checked_;
  ir::Program program_;
  std::vector<ir::Expr> constValues_;
  // Set by importStdlib(uses): the library is partial, and load()'s main
  // file is kept to load the program again with all of it.
  bool partialStdlib_ = false;
  SourceEntry main_;
};

// The front end in one call: `text` (shown as `name`) compiled to the move IR,
// as `gdsl check` compiles a file (imports resolve against the current
// directory). The Workspace holds the program and the sources its locations
// point into. Null when the text has errors, with them rendered in `errors`.
std::unique_ptr<Workspace> compileProgram(const std::string& name, std::string text,
                                          std::string& errors);

}  // namespace gdsl
