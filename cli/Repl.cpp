// The REPL's terminal front end (gdsl repl): line editing, history and tab
// completion with libedit on a terminal, plain line reading otherwise (for
// scripts), entries continued while a brace is open, and Ctrl-C turned into
// an interrupt request for the running computation. The session itself is
// driver/Repl.h.
#include "cli/Repl.h"

#include <editline/readline.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "driver/Repl.h"
#include "runtime/Interrupt.h"

namespace gdsl {

namespace {

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
  std::string line = rl_line_buffer ? rl_line_buffer : "";
  // After `:load `, complete file names (libedit's default).
  if (line.rfind(":load ", 0) == 0 && start >= 6) return nullptr;
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, completionCandidate);
}

void onInterrupt(int) {
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
      char* raw = readline(prompt);
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
  ReplSession session(backend, std::cout, std::cerr, limits);
  completing = &session;

  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);

  std::string history = historyPath();
  if (terminal) {
    rl_attempted_completion_function = complete;
    rl_completion_append_character = '\0';  // `Kayles` then `(`, not `Kayles (`
    static char breaks[] = " \t\n\"(){}[],+-*/%=<>!&|^";
    rl_completer_word_break_characters = breaks;
    if (!history.empty()) read_history(history.c_str());
    std::cout << "gdsl REPL: :help lists the commands, :quit leaves.\n";
  }
  if (!file.empty()) session.submit(":load " + file);

  std::string entry;
  while (readEntry(terminal, entry)) {
    if (entry.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    if (terminal) {
      add_history(entry.c_str());
      if (!history.empty()) write_history(history.c_str());
    }
    if (!session.submit(entry)) break;
    std::cout.flush();
  }
  if (terminal) std::cout << "\n";
  completing = nullptr;
  return 0;
}

}  // namespace gdsl
