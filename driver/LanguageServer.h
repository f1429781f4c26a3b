// The language server's logic (gdsl lsp, docs/editors.md): the documents an
// editor has open, each checked as `gdsl check` checks a file on every
// change (its errors and warnings as LSP diagnostics, notes as related
// information), hover (a game's parameters, declaration and first values
// under a small time limit; what each digit of an octal code allows),
// completion, go to definition and the outline. It takes and gives JSON-RPC
// messages as JSON values; cli/Lsp.cpp frames them on standard input and
// output. Positions are LSP's: lines from 0, columns in UTF-16 code units.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gdsl {

class LanguageServer {
 public:
  // How long hover may compute a game's first values, in seconds.
  explicit LanguageServer(double hoverSeconds = 0.1);
  ~LanguageServer();

  // Handles one message (a request or a notification); the messages to send
  // back (its response, diagnostics) are appended to `out`.
  void handle(const nlohmann::json& message, std::vector<nlohmann::json>& out);
  // After `exit`: whether to stop, and the status (0 when `shutdown` came first).
  bool exited() const { return exited_; }
  int exitStatus() const { return shutdown_ ? 0 : 1; }

  struct Document;  // an open document, its last check and its outline

 private:
  nlohmann::json request(const std::string& method, const nlohmann::json& params);
  void notification(const std::string& method, const nlohmann::json& params,
                    std::vector<nlohmann::json>& out);
  // Checks `doc` and appends its diagnostics.
  void check(Document& doc, std::vector<nlohmann::json>& out);
  nlohmann::json hover(Document& doc, const nlohmann::json& position);
  nlohmann::json completion(const Document& doc);
  nlohmann::json definition(const Document& doc, const nlohmann::json& position);
  nlohmann::json symbols(const Document& doc);
  // The first values of game `name` (`G(0..15): ...`), or "": cached in
  // `doc` for its version.
  std::string firstValues(Document& doc, const std::string& name);

  double hoverSeconds_;
  std::map<std::string, std::unique_ptr<Document>> documents_;  // by URI
  bool shutdown_ = false, exited_ = false;
};

// file:///a/b%20c.game -> /a/b c.game ("" for another scheme), and back.
std::string uriToPath(const std::string& uri);
std::string pathToUri(const std::string& path);

}  // namespace gdsl
