// Which standard-library modules a text names: a token scan (identifiers,
// with comments, strings and numbers skipped) of the text and of each
// embedded module's top-level declarations, without ANTLR. Over-approximate
// on purpose: a word in a comment of the module, or an identifier that is
// a local variable, only loads a module more.
#include "driver/Stdlib.h"

#include <algorithm>
#include <set>

namespace gdsl {

namespace {

bool identStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool identChar(char c) {
  return identStart(c) || (c >= '0' && c <= '9');
}

// Calls `onWord` with each identifier or keyword of `text`, in order.
template <typename Fn>
void scanWords(const std::string& text, Fn&& onWord) {
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? n : end + 2;
    } else if (c == '"') {
      ++i;
      while (i < n && text[i] != '"' && text[i] != '\n') i += text[i] == '\\' && i + 1 < n ? 2 : 1;
      ++i;
    } else if (c >= '0' && c <= '9') {
      while (i < n && identChar(text[i])) ++i;
    } else if (identStart(c)) {
      size_t start = i;
      while (i < n && identChar(text[i])) ++i;
      onWord(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
}

}  // namespace

std::vector<std::string> declaredNames(const std::string& moduleText) {
  std::vector<std::string> names;
  bool declaring = false;  // the previous word was `game` or `const`
  scanWords(moduleText, [&](std::string word) {
    if (declaring) names.push_back(word);
    declaring = word == "game" || word == "const";
  });
  return names;
}

std::vector<std::string> identifiers(const std::string& text) {
  std::vector<std::string> words;
  scanWords(text, [&](std::string word) { words.push_back(std::move(word)); });
  return words;
}

std::vector<std::string> stdlibModulesNaming(const std::vector<std::string>& texts) {
  std::set<std::string> used;
  for (const std::string& text : texts)
    for (std::string& word : identifiers(text)) used.insert(std::move(word));
  std::vector<std::string> modules;
  for (const auto& [module, source] : stdlibModules()) {
    std::vector<std::string> names = declaredNames(source);
    if (std::any_of(names.begin(), names.end(),
                    [&](const std::string& name) { return used.count(name) != 0; }))
      modules.push_back(module);
  }
  return modules;
}

}  // namespace gdsl
