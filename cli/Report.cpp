// The gdsl command's own failure messages and exit statuses (see Report.h).
#include "cli/Report.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace gdsl::cli {

namespace {

bool jsonRequested = false;

}  // namespace

void reportAsJson(bool json) {
  jsonRequested = json;
}

void jsonError(const std::string& message) {
  if (!jsonRequested) return;
  nlohmann::json j = {{"kind", "error"},
                      {"file", nullptr},
                      {"line", nullptr},
                      {"col", nullptr},
                      {"message", message}};
  std::cout << j.dump() << std::endl;
}

void report(const std::string& message) {
  std::cerr << "gdsl: " << message << "\n";
  jsonError(message);
}

int usage(const std::string& message) {
  report(message);
  return kUsageError;
}

int fail(const std::string& message) {
  report(message);
  return kFileError;
}

}  // namespace gdsl::cli
