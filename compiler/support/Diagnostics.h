// Diagnostics are data: a severity, a message, a source range and notes,
// collected in a sink. Only the driver renders them (file:line:col, the source
// line and a caret); library code never prints and never exits.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/support/Source.h"

namespace gdsl {

enum class Severity { Error, Note, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string message;
  SourceRange range;
  std::vector<Diagnostic> notes;
};

class DiagnosticSink {
 public:
  Diagnostic& error(SourceRange range, std::string message);
  bool hasErrors() const { return !diagnostics_.empty(); }
  // The errors (warnings are kept apart: they never stop a program).
  const std::vector<Diagnostic>& all() const { return diagnostics_; }
  // A warning: printed after a program compiles, which it does not stop.
  void warning(SourceRange range, std::string message);
  const std::vector<Diagnostic>& warnings() const { return warnings_; }
  // Takes the warnings collected so far (each is printed once).
  std::vector<Diagnostic> takeWarnings() { return std::move(warnings_); }
  void clear() {
    diagnostics_.clear();
    warnings_.clear();
  }
  // Drops every diagnostic after the first `count`.
  void truncate(size_t count) {
    if (count < diagnostics_.size()) diagnostics_.resize(count);
  }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::vector<Diagnostic> warnings_;
};

// Adds a note to a diagnostic and returns the diagnostic for chaining.
Diagnostic& addNote(Diagnostic& diagnostic, SourceRange range, std::string message);

// Renders `file:line:col: error: message` (or warning, note), the source line
// and a caret line.
std::string render(const SourceManager& sources, const Diagnostic& diagnostic);

// A failure found while running a program (overflow, cycle, bad successor...):
// thrown by the evaluator and the engine, turned into a Diagnostic by the driver.
// `context` names the position being expanded; the innermost frame that knows
// it fills it in.
struct RuntimeError : std::exception {
  RuntimeError(SourceRange where, std::string text) : range(where), message(std::move(text)) {}
  const char* what() const noexcept override { return message.c_str(); }
  // The message with the position being expanded, as the user sees it.
  std::string describe() const {
    return context.empty() ? message : message + " (while expanding " + context + ")";
  }
  SourceRange range;
  std::string message;
  std::string context;
  std::vector<Diagnostic> notes;
};

}  // namespace gdsl
