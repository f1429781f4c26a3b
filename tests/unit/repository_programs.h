// Every program in the repository, for tests that compare two ways of reading
// programs (lexer_test.cpp, predictor_test.cpp): the .game files of the
// examples, the standard library and the tests, and the fuzz corpus inputs,
// those that are UTF-8 (gdsl reports other text before lexing it).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/support/Source.h"

inline std::vector<std::pair<std::string, std::string>> repositoryPrograms() {
  std::vector<std::pair<std::string, std::string>> programs;  // path, text
  for (const char* dir : {GDSL_EXAMPLES_DIR, GDSL_STDLIB_DIR, GDSL_TESTS_DIR}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      std::string ext = entry.path().extension().string();
      bool corpus = entry.path().string().find("/fuzz/") != std::string::npos && ext.empty();
      if (ext != ".game" && !corpus) continue;
      std::string text, error;
      if (!gdsl::readFile(entry.path().string(), text, error)) continue;
      if (gdsl::invalidUtf8(text) != std::string_view::npos) continue;  // as parseModule
      programs.emplace_back(entry.path().string(), std::move(text));
    }
  }
  return programs;
}
