// gdsl lsp: the language server (driver/LanguageServer.h) on standard input
// and output, each JSON-RPC message framed by a Content-Length header
// (docs/editors.md).
#include "cli/Lsp.h"

#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "driver/LanguageServer.h"

namespace gdsl {

namespace {

// Reads one message's body; false at the end of input.
bool readMessage(std::istream& in, std::string& body) {
  size_t length = 0;
  bool sized = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!sized) continue;  // (stray blank lines between messages)
      body.assign(length, '\0');
      in.read(body.data(), static_cast<std::streamsize>(length));
      return static_cast<size_t>(in.gcount()) == length;
    }
    const std::string key = "content-length:";
    std::string lower;
    for (char c : line.substr(0, key.size())) lower += static_cast<char>(std::tolower(c));
    if (lower == key) {
      // (A length that is not a number leaves the header unsized: skipped.)
      const std::string digits = line.substr(key.size());
      char* end = nullptr;
      unsigned long long n = std::strtoull(digits.c_str(), &end, 10);
      sized = end != digits.c_str() && n < (1ull << 31);
      length = sized ? static_cast<size_t>(n) : 0;
    }
  }
  return false;
}

void writeMessage(const nlohmann::json& message) {
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::cout << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  std::cout.flush();
}

}  // namespace

int runLanguageServer() {
  std::ios::sync_with_stdio(false);
  LanguageServer server;
  std::string body;
  std::vector<nlohmann::json> out;
  while (readMessage(std::cin, body)) {
    nlohmann::json message = nlohmann::json::parse(body, nullptr, false);
    out.clear();
    if (message.is_discarded())
      out.push_back({{"jsonrpc", "2.0"},
                     {"id", nullptr},
                     {"error", {{"code", -32700}, {"message", "the message is not JSON"}}}});
    else
      server.handle(message, out);
    for (const nlohmann::json& m : out) writeMessage(m);
    if (server.exited()) return server.exitStatus();
  }
  return server.exitStatus();
}

}  // namespace gdsl
