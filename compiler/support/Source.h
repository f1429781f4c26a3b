// Source files held in memory once (so that diagnostics never re-read a file)
// and the ranges that every AST node, IR node and diagnostic points into.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gdsl {

// A span of source text: [begin, end) byte offsets in file `file`, plus the
// 1-based line and column of `begin` for quick printing.
struct SourceRange {
  uint32_t file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t line = 0;  // 0 means "no location"
  uint32_t col = 0;

  bool valid() const { return line != 0; }
};

struct SourceFile {
  std::string name;  // as shown in diagnostics
  std::string path;  // directory-resolvable path ("" for std modules and -e text)
  std::string text;
};

// Reads the file at `path` into `text`. False when it cannot, with the reason
// in `error` ("it is a directory", or the system's "No such file or directory").
bool readFile(const std::string& path, std::string& text, std::string& error);

// Source files are UTF-8 text. The length of the UTF-8 sequence at text[i]
// (1 to 4 bytes), or 0 when the bytes there are not UTF-8 (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF).
size_t utf8Length(std::string_view text, size_t i);
// The offset of the first byte of `text` that is not UTF-8, or npos.
size_t invalidUtf8(std::string_view text);
// `text` with every byte that is not UTF-8 replaced by U+FFFD, for display.
std::string toValidUtf8(std::string_view text);

class SourceManager {
 public:
  uint32_t add(std::string name, std::string path, std::string text);
  const SourceFile& file(uint32_t id) const { return files_[id]; }
  size_t size() const { return files_.size(); }

  // The text of the line containing byte offset `offset` (without newline).
  std::string_view lineText(uint32_t file, uint32_t offset) const;
  // Builds a range from a 1-based line, a 1-based column counted in code
  // points (as ANTLR counts them) and a length in code points.
  SourceRange rangeAt(uint32_t file, uint32_t line, uint32_t col, uint32_t length) const;
  // A range covering both `a` and `b` (same file, `a` first).
  static SourceRange join(SourceRange a, SourceRange b);

 private:
  struct LineTable {
    std::vector<uint32_t> starts;           // byte offset of each line
    std::vector<uint32_t> startCodepoints;  // code point index of each line
    std::vector<uint32_t> codepointBytes;   // byte of each code point; empty for ASCII
  };
  std::vector<SourceFile> files_;
  std::vector<LineTable> lines_;
};

}  // namespace gdsl
