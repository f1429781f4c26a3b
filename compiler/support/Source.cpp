// Reading source files, and line tables for in-memory source files.
#include "compiler/support/Source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gdsl {

bool readFile(const std::string& path, std::string& text, std::string& error) {
  // open and read, not an ifstream: the stream's buffers and locale were a
  // fiftieth of a short eval (bench/README.md, "Start-up").
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {  // a directory opens, and reads as empty
    ::close(fd);
    error = "it is a directory";
    return false;
  }
  text.clear();
  if (S_ISREG(info.st_mode)) text.reserve(static_cast<size_t>(info.st_size));
  char buffer[1 << 14];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      error = std::strerror(errno);
      ::close(fd);
      return false;
    }
  }
  ::close(fd);
  return true;
}

size_t utf8Length(std::string_view text, size_t i) {
  auto c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return 1;
  size_t length = c >= 0xC2 && c <= 0xDF   ? 2
                  : c >= 0xE0 && c <= 0xEF ? 3
                  : c >= 0xF0 && c <= 0xF4 ? 4
                                           : 0;
  if (length == 0 || i + length > text.size()) return 0;
  // The second byte's range depends on the first (overlong forms, surrogates, > U+10FFFF).
  auto c1 = static_cast<unsigned char>(text[i + 1]);
  unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
  unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
  if (c1 < lo || c1 > hi) return 0;
  for (size_t k = 2; k < length; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  return length;
}

size_t invalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length = utf8Length(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string toValidUtf8(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t length = utf8Length(text, i);
    out += length == 0 ? std::string_view("\xEF\xBF\xBD") : text.substr(i, length);
    i += length == 0 ? 1 : length;
  }
  return out;
}

uint32_t SourceManager::add(std::string name, std::string path, std::string text) {
  LineTable t;
  t.starts.push_back(0);
  t.startCodepoints.push_back(0);
  bool ascii = true;
  uint32_t codepoints = 0;
  for (uint32_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) ascii = false;
    if ((c & 0xC0) != 0x80) ++codepoints;
    if (c == '\n') {
      t.starts.push_back(i + 1);
      t.startCodepoints.push_back(codepoints);
    }
  }
  if (!ascii) {
    // The byte offset of every code point, and of the end of the text.
    for (uint32_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) t.codepointBytes.push_back(i);
    t.codepointBytes.push_back(static_cast<uint32_t>(text.size()));
  }
  files_.push_back(SourceFile{std::move(name), std::move(path), std::move(text)});
  lines_.push_back(std::move(t));
  return static_cast<uint32_t>(files_.size() - 1);
}

std::string_view SourceManager::lineText(uint32_t file, uint32_t offset) const {
  const std::string& text = files_[file].text;
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  size_t begin = text.rfind('\n', offset == 0 ? std::string::npos : offset - 1);
  begin = (begin == std::string::npos) ? 0 : begin + 1;
  if (offset == 0) begin = 0;
  size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  std::string_view line(text.data() + begin, end - begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

SourceRange SourceManager::rangeAt(uint32_t file, uint32_t line, uint32_t col,
                                   uint32_t length) const {
  // Constant time per token: a file of one long line must not be quadratic.
  const LineTable& t = lines_[file];
  const std::string& text = files_[file].text;
  uint32_t lineIndex = line == 0 ? 0 : line - 1;
  if (lineIndex >= t.starts.size()) lineIndex = static_cast<uint32_t>(t.starts.size() - 1);
  auto byteOf = [&](uint64_t codepoint) {
    if (t.codepointBytes.empty())  // ASCII: one byte per code point
      return static_cast<uint32_t>(std::min<uint64_t>(codepoint, text.size()));
    return t.codepointBytes[std::min<uint64_t>(codepoint, t.codepointBytes.size() - 1)];
  };
  uint64_t first = uint64_t{t.startCodepoints[lineIndex]} + (col == 0 ? 0 : col - 1);
  uint32_t begin = byteOf(first), end = byteOf(first + length);
  // Columns are shown in bytes-as-characters for ASCII and code points otherwise.
  return SourceRange{file, begin, end, lineIndex + 1, col == 0 ? 1 : col};
}

SourceRange SourceManager::join(SourceRange a, SourceRange b) {
  if (!a.valid()) return b;
  if (!b.valid() || b.file != a.file) return a;
  SourceRange r = a;
  if (b.end > r.end) r.end = b.end;
  return r;
}

}  // namespace gdsl
