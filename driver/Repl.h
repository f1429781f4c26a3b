// The REPL's session (gdsl repl): the program built from the entries typed so
// far, a live engine whose memo survives between entries, and the `:`
// commands. The terminal front end (cli/Repl.cpp) reads and edits lines; this
// class takes whole entries and writes answers to streams, so tests can drive
// it directly.
//
// Each entry that declares something rebuilds the program from all entries
// (a later declaration of a name blanks out the earlier one). Values computed
// before are kept for every game whose rules, and the rules of every game it
// reaches, are unchanged; the others start afresh.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/Program.h"
#include "runtime/Limits.h"

namespace gdsl {

class ReplSession {
 public:
  // `limits` apply to each entry: the timeout counts from the entry's start.
  ReplSession(BackendKind backend, std::ostream& out, std::ostream& err, Limits limits = {});
  ~ReplSession();

  // Runs one entry: declarations and statements, or a `:` command. Errors
  // are printed and the session goes on; Ctrl-C (an interrupt request) stops
  // the entry and keeps every value computed so far. False when the entry
  // asks to quit.
  bool submit(const std::string& text);
  // Reads FILE's declarations into the session and runs its statements
  // (`:load FILE`, and `gdsl repl FILE`). False when it had errors.
  bool load(const std::string& file);

  // True when `text` cannot be a whole entry yet: a brace, bracket or
  // parenthesis is still open, so the entry goes on on the next line.
  static bool incomplete(const std::string& text);
  // Words that complete `word`: `:` commands, `std.` modules, keywords and
  // the games in scope.
  std::vector<std::string> completions(const std::string& word) const;

  std::vector<std::string> games() const;
  int64_t memoSize() const;  // values memoized so far
  bool showTime() const { return showTime_; }

 private:
  // A top-level statement of an entry: a declaration (with the name it
  // declares; empty for an import) or a statement to run, by byte range.
  struct Part {
    bool declaration = false;
    std::string name;
    uint32_t begin = 0, end = 0;
    bool superseded = false;  // a later entry declared the same name
  };
  struct Entry {
    std::string name, path, text;
    std::vector<Part> parts;
    SourceEntry declarations() const;  // the text with statements blanked
    SourceEntry statements() const;    // the text with declarations blanked
  };
  struct Built;

  bool enter(Entry entry);
  void stopped(const Interrupted& e);
  bool define(const Entry& entry);
  void runStatements(const Entry& entry);
  bool command(const std::string& text);
  std::unique_ptr<Built> build(const std::vector<Entry>& entries, BackendKind kind);
  void help();

  std::ostream& out_;
  std::ostream& err_;
  Limits limits_;
  Watchdog watchdog_;
  BackendKind backend_;
  bool showTime_ = false;
  int inputs_ = 0;  // entries typed so far, for their names
  std::vector<Entry> entries_;
  std::unique_ptr<Built> built_;
};

}  // namespace gdsl
