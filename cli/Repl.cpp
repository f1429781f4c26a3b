// The REPL's terminal front end (gdsl repl): line editing, history and tab
// completion with libedit on a terminal, plain line reading otherwise (for
// scripts), entries continued while a brace is open, and Ctrl-C turned into
// an interrupt request for the running computation. The session itself is
// driver/Repl.h. libedit is not linked: a REPL on a terminal loads it with
// dlopen, so that the other commands do not map it at start-up.
#include "cli/Repl.h"

#include <dlfcn.h>
#include <editline/readline.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <type_traits>

#include "compiler/support/Interrupt.h"
#include "driver/Repl.h"

namespace gdsl {

namespace {

// What the REPL uses of libedit's readline interface: its functions, and
// pointers to its variables.
struct LineEditor {
  decltype(&::readline) readline = nullptr;
  decltype(&::rl_completion_matches) completionMatches = nullptr;
  decltype(&::read_history) readHistory = nullptr;
  decltype(&::write_history) writeHistory = nullptr;
  decltype(&::add_history) addHistory = nullptr;
  decltype(&::rl_line_buffer) lineBuffer = nullptr;
  decltype(&::rl_attempted_completion_over) attemptedCompletionOver = nullptr;
  decltype(&::rl_attempted_completion_function) attemptedCompletionFunction = nullptr;
  decltype(&::rl_completion_append_character) completionAppendCharacter = nullptr;
  decltype(&::rl_completer_word_break_characters) completerWordBreakCharacters = nullptr;
};
LineEditor edit;

// Loads libedit (its soname, found when gdsl was configured) into `edit`;
// false with `error` set when it or one of its symbols is missing.
bool loadLineEditor(std::string& error) {
  void* handle = dlopen(GDSL_LIBEDIT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    error = why ? why : "unknown error";
    return false;
  }
  bool ok = true;
  auto symbol = [&](auto& pointer, const char* name) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(dlsym(handle, name));
    if (!pointer && ok) {
      error = std::string("it has no ") + name;
      ok = false;
    }
  };
  symbol(edit.readline, "readline");
  symbol(edit.completionMatches, "rl_completion_matches");
  symbol(edit.readHistory, "read_history");
  symbol(edit.writeHistory, "write_history");
  symbol(edit.addHistory, "add_history");
  symbol(edit.lineBuffer, "rl_line_buffer");
  symbol(edit.attemptedCompletionOver, "rl_attempted_completion_over");
  symbol(edit.attemptedCompletionFunction, "rl_attempted_completion_function");
  symbol(edit.completionAppendCharacter, "rl_completion_append_character");
  symbol(edit.completerWordBreakCharacters, "rl_completer_word_break_characters");
  return ok;
}

ReplSession* completing = nullptr;  // the session tab completion asks

char* completionCandidate(const char* text, int state) {
  static std::vector<std::string> matches;
  static size_t next = 0;
  if (state == 0) {
    matches = completing ? completing->completions(text) : std::vector<std::string>{};
    next = 0;
  }
  if (next >= matches.size()) return nullptr;
  return strdup(matches[next++].c_str());
}

char** complete(const char* text, int start, int) {
  std::string line = *edit.lineBuffer ? *edit.lineBuffer : "";
  // After `:load `, complete file names (libedit's default).
  if (line.rfind(":load ", 0) == 0 && start >= 6) return nullptr;
  *edit.attemptedCompletionOver = 1;
  return edit.completionMatches(text, completionCandidate);
}

volatile sig_atomic_t computing = 0;  // an entry is running (not the prompt)

// Ctrl-C asks the running computation to stop. A second Ctrl-C while it still
// runs (code that does not poll, such as a JIT kernel's loop over 1..10^18)
// leaves the REPL: there is always a way out.
void onInterrupt(int) {
  if (computing && interruptFlag().load() != 0) {
    const char message[] = "\ngdsl: stopped: the computation did not respond to Ctrl-C\n";
    if (::write(2, message, sizeof message - 1) < 0) {
    }
    _exit(130);
  }
  requestInterrupt();
}

std::string historyPath() {
  if (const char* p = std::getenv("GDSL_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.gdsl_history";
  return "";
}

// Reads one entry (several lines while a brace is open). False at end of input.
bool readEntry(bool terminal, std::string& entry) {
  entry.clear();
  while (true) {
    const char* prompt = entry.empty() ? "gdsl> " : "  ... ";
    std::string line;
    if (terminal) {
      char* raw = edit.readline(prompt);
      if (!raw && interruptFlag().load()) {
        // Ctrl-C at the prompt: drop what was typed and start again.
        clearInterrupt();
        std::cout << "^C\n";
        entry.clear();
        continue;
      }
      if (!raw) return !entry.empty();  // Ctrl-D inside an entry ends it
      line = raw;
      std::free(raw);
    } else if (!std::getline(std::cin, line)) {
      return !entry.empty();
    }
    entry += entry.empty() ? line : "\n" + line;
    if (!ReplSession::incomplete(entry)) return true;
  }
}

}  // namespace

int runRepl(const std::string& file, BackendKind backend, const Limits& limits) {
  bool terminal = isatty(0) && isatty(1);
  std::string error;
  if (terminal && !loadLineEditor(error)) {
    // Without libedit the entries are read as from a script: no prompt, no history.
    std::cerr << "gdsl: no line editing (cannot load " GDSL_LIBEDIT_LIBRARY ": " << error << ")\n";
    terminal = false;
  }
  ReplSession session(backend, std::cout, std::cerr, limits);
  completing = &session;

  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);

  std::string history = historyPath();
  if (terminal) {
    *edit.attemptedCompletionFunction = complete;
    *edit.completionAppendCharacter = '\0';  // `Kayles` then `(`, not `Kayles (`
    static char breaks[] = " \t\n\"(){}[],+-*/%=<>!&|^";
    *edit.completerWordBreakCharacters = breaks;
    if (!history.empty()) edit.readHistory(history.c_str());
    std::cout << "gdsl REPL: :help lists the commands, :quit leaves.\n";
  }
  if (!file.empty()) {
    computing = 1;
    session.submit(":load " + file);
    computing = 0;
  }

  std::string entry;
  while (readEntry(terminal, entry)) {
    if (entry.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    if (terminal) {
      edit.addHistory(entry.c_str());
      if (!history.empty()) edit.writeHistory(history.c_str());
    }
    computing = 1;
    bool goOn = session.submit(entry);
    computing = 0;
    if (!goOn) break;
    std::cout.flush();
  }
  if (terminal) std::cout << "\n";
  completing = nullptr;
  return 0;
}

}  // namespace gdsl
