// Every input the fuzzers found a bug with (tests/fuzz/regressions/) runs
// through the fuzz pipeline (tests/fuzz/FuzzPipeline.h) on both backends and
// must end as a normal outcome: diagnostics, results, or an interruption. The
// token mutator of fuzz_tokens must give every corpus program back unchanged
// when it joins the tokens it split.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/FuzzPipeline.h"
#include "tests/fuzz/TokenMutator.h"

#ifndef GDSL_FUZZ_DIR
#error "GDSL_FUZZ_DIR must name the tests/fuzz directory"
#endif

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> filesIn(const std::string& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

TEST_CASE("fuzz regressions end with diagnostics or results, on both backends") {
  gdsl::fuzz::PipelineOptions options;
  options.timeoutMs = 500;
  options.jitEvery = 1;
  std::vector<fs::path> files = filesIn(GDSL_FUZZ_DIR "/regressions");
  for (const fs::path& file : files) {
    DYNAMIC_SECTION(file.filename().string()) {
      std::string text = readFile(file);
      REQUIRE_FALSE(gdsl::fuzz::skipInput(text));
      gdsl::fuzz::Outcome outcome = gdsl::fuzz::runPipeline(text, options);
      CHECK(outcome != gdsl::fuzz::Outcome::Skipped);
    }
  }
}

TEST_CASE("the token mutator splits and joins every corpus program losslessly") {
  std::vector<fs::path> files = filesIn(GDSL_FUZZ_DIR "/corpus");
  REQUIRE(files.size() > 10);
  for (const fs::path& file : files) {
    std::string text = readFile(file);
    std::vector<gdsl::fuzz::Token> tokens = gdsl::fuzz::tokenize(text);
    INFO(file.filename().string());
    CHECK(gdsl::fuzz::join(tokens) == text);
  }
}

TEST_CASE("token mutations stay within the size limit") {
  std::string program = "game G(n) {\n  take {1, 3, 4} // a comment\n}\ntable G(0..20)\n";
  std::vector<uint8_t> buffer(256);
  for (unsigned seed = 0; seed < 2000; ++seed) {
    std::copy(program.begin(), program.end(), buffer.begin());
    size_t size = gdsl::fuzz::mutateTokens(buffer.data(), program.size(), buffer.size(), seed);
    CHECK(size <= buffer.size());
  }
}
