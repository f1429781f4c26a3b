// Collecting and rendering diagnostics.
#include "compiler/support/Diagnostics.h"

#include <fmt/format.h>

namespace gdsl {

Diagnostic& DiagnosticSink::error(SourceRange range, std::string message) {
  diagnostics_.push_back(Diagnostic{Severity::Error, std::move(message), range, {}});
  return diagnostics_.back();
}

void DiagnosticSink::warning(SourceRange range, std::string message) {
  warnings_.push_back(Diagnostic{Severity::Warning, std::move(message), range, {}});
}

Diagnostic& addNote(Diagnostic& diagnostic, SourceRange range, std::string message) {
  diagnostic.notes.push_back(Diagnostic{Severity::Note, std::move(message), range, {}});
  return diagnostic;
}

static void renderOne(const SourceManager& sources, const Diagnostic& d, std::string& out) {
  const char* kind = d.severity == Severity::Error     ? "error"
                     : d.severity == Severity::Warning ? "warning"
                                                       : "note";
  if (!d.range.valid()) {
    out += fmt::format("{}: {}\n", kind, d.message);
    return;
  }
  const SourceFile& file = sources.file(d.range.file);
  out += fmt::format("{}:{}:{}: {}: {}\n", file.name, d.range.line, d.range.col, kind, d.message);
  std::string_view line = sources.lineText(d.range.file, d.range.begin);
  // Bytes that are not UTF-8 are shown as U+FFFD (they are only reported, as
  // the first error of the file, so the caret before them still lines up).
  out += fmt::format("  {}\n  ", invalidUtf8(line) == std::string_view::npos ? std::string(line)
                                                                             : toValidUtf8(line));
  // The caret goes under the range's first byte; tabs are kept so that it
  // lines up, and a multi-byte character counts as one column.
  size_t prefix = d.range.begin - static_cast<size_t>(line.data() - file.text.data());
  if (prefix > line.size()) prefix = line.size();
  auto isContinuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  for (size_t i = 0; i < prefix; ++i)
    if (!isContinuation(line[i])) out += line[i] == '\t' ? '\t' : ' ';
  out += '^';
  size_t lineEnd = prefix + (line.size() - prefix);
  size_t spanEnd = d.range.end > d.range.begin ? prefix + (d.range.end - d.range.begin) : prefix;
  if (spanEnd > lineEnd) spanEnd = lineEnd;
  for (size_t i = prefix + 1; i < spanEnd; ++i)
    if (!isContinuation(line[i])) out += '~';
  out += '\n';
}

std::string render(const SourceManager& sources, const Diagnostic& diagnostic) {
  std::string out;
  renderOne(sources, diagnostic, out);
  for (const Diagnostic& note : diagnostic.notes) renderOne(sources, note, out);
  return out;
}

}  // namespace gdsl
