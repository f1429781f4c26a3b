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
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "driver/Backends.h"
#include "driver/Program.h"
#include "driver/Results.h"
#include "runtime/Limits.h"

namespace gdsl {

// Makes the output that prints the statements' results (makeTextOutput, or
// the kernel's makeNotebookOutput).
using OutputMaker = std::function<std::unique_ptr<Output>(std::ostream& out, std::ostream& err,
                                                          const SourceManager& sources)>;

class ReplSession {
 public:
  // `limits` apply to each entry: the timeout counts from the entry's start.
  // Results are printed by the output `makeOutput` makes (text by default).
  ReplSession(BackendKind backend, std::ostream& out, std::ostream& err, Limits limits = {},
              OutputMaker makeOutput = {});
  ~ReplSession();

  // Runs one entry: declarations and statements, or a `:` command. Errors
  // are printed and the session goes on; Ctrl-C (an interrupt request) stops
  // the entry and keeps every value computed so far. False when the entry
  // asks to quit.
  bool submit(const std::string& text);
  // The same, the entry named `name` in messages (a notebook's cell:
  // `In [3]:2:5: error: ...`) instead of `<input N>`.
  bool submit(const std::string& text, const std::string& name);
  // A notebook's cell: gdsl text with `:` commands on lines of their own
  // (outside braces), each run in turn; the text between them keeps its
  // lines and columns in messages. Stops at Ctrl-C or a limit. False when
  // a command asks to quit.
  bool submitCell(const std::string& text, const std::string& name);
  // Whether the last entry submitted failed: an error in it, a statement
  // that failed (an assertion too), or a stop by Ctrl-C or a limit.
  bool lastFailed() const { return failed_; }
  // Whether Ctrl-C or a limit stopped the last entry.
  bool lastStopped() const { return stopped_; }
  // What to show of `word` when asked about it (a notebook's Shift-Tab): for
  // a game, its parameters, its rules as written and its first values,
  // computed for at most `seconds` (then left out; the memo keeps what was
  // computed); for a keyword or built-in, what it is. Empty when unknown.
  std::string describe(const std::string& word, double seconds);
  // Reads FILE's declarations into the session and runs its statements
  // (`:load FILE`, and `gdsl repl FILE`). False when it had errors.
  bool load(const std::string& file);

  // True when `text` cannot be a whole entry yet: a brace, bracket or
  // parenthesis is still open, so the entry goes on on the next line.
  static bool incomplete(const std::string& text);
  // Words that complete `word`: `:` commands, `std.` modules, keywords,
  // built-ins, and the games and constants in scope.
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
  // The first values of game `g` (`G(0..15): ...`), or "" when they take
  // longer than `seconds` or the game has no one-integer table.
  std::string firstValues(const std::string& game, double seconds);
  void stopped(const Interrupted& e);
  bool define(const Entry& entry);
  void runStatements(const Entry& entry);
  bool command(const std::string& text);
  std::unique_ptr<Built> build(const std::vector<Entry>& entries, BackendKind kind);
  void help();

  std::ostream& out_;
  std::ostream& err_;
  OutputMaker makeOutput_;
  bool failed_ = false, stopped_ = false;
  Limits limits_;
  Watchdog watchdog_;
  BackendKind backend_;
  bool showTime_ = false;
  int inputs_ = 0;  // entries typed so far, for their names
  std::vector<Entry> entries_;
  std::unique_ptr<Built> built_;
};

}  // namespace gdsl
