// Every program in the repository, for tests that compare two ways of reading
// programs (lexer_test.cpp, predictor_test.cpp): the .game files of the
// examples, the standard library and the tests, and the fuzz corpus inputs,
// those that are UTF-8 (gdsl reports other text before lexing it).
#pragma once

#include <antlr4-runtime.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

inline std::vector<std::pair<std::string, std::string>> repositoryPrograms() {
  std::vector<std::pair<std::string, std::string>> programs;  // path, text
  for (const char* dir : {GDSL_EXAMPLES_DIR, GDSL_STDLIB_DIR, GDSL_TESTS_DIR}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::string ext = entry.path().extension().string();
      bool corpus = entry.path().string().find("/fuzz/") != std::string::npos && ext.empty();
      if (ext != ".game" && !corpus) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      try {
        antlr4::ANTLRInputStream check(buffer.str());  // throws on text that is not UTF-8
      } catch (const std::exception&) {
        continue;
      }
      programs.emplace_back(entry.path().string(), buffer.str());
    }
  }
  return programs;
}
