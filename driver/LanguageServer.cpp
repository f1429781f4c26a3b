// The language server's requests and notifications: documents checked on
// every change, hover, completion, definitions and the outline.
#include "driver/LanguageServer.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "compiler/ast/Ast.h"
#include "compiler/parse/Parser.h"
#include "compiler/sema/Sema.h"
#include "compiler/support/Interrupt.h"
#include "driver/InterruptAfter.h"
#include "driver/Program.h"
#include "driver/Session.h"
#include "driver/Stdlib.h"

namespace gdsl {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// JSON-RPC's and LSP's error codes.
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

// LSP's kinds, by number.
constexpr int kSymbolModule = 2, kSymbolClass = 5, kSymbolMethod = 6, kSymbolConstant = 14,
              kSymbolEvent = 24;
constexpr int kCompletionFunction = 3, kCompletionModule = 9, kCompletionKeyword = 14,
              kCompletionClass = 7, kCompletionConstant = 21;

// Line starts of a text, to turn byte offsets into LSP positions and back.
class LineIndex {
 public:
  explicit LineIndex(const std::string& text) : text_(text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
  }
  // {"line": L, "character": C}, C in UTF-16 code units.
  json position(uint32_t offset) const {
    offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
    size_t line = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                      starts_.begin() - 1);
    uint32_t units = 0;
    for (uint32_t i = starts_[line]; i < offset;) {
      size_t n = utf8Length(text_, i);
      if (n == 0) n = 1;
      units += n == 4 ? 2 : 1;  // past the BMP: a surrogate pair
      i += static_cast<uint32_t>(n);
    }
    return {{"line", line}, {"character", units}};
  }
  // The byte offset of an LSP position (clamped to its line).
  uint32_t offset(const json& position) const {
    size_t line = position.value("line", 0);
    uint32_t units = position.value("character", 0);
    if (line >= starts_.size()) return static_cast<uint32_t>(text_.size());
    uint32_t end =
        line + 1 < starts_.size() ? starts_[line + 1] - 1 : static_cast<uint32_t>(text_.size());
    uint32_t i = starts_[line];
    while (i < end && units > 0) {
      size_t n = utf8Length(text_, i);
      if (n == 0) n = 1;
      units -= std::min<uint32_t>(units, n == 4 ? 2 : 1);
      i += static_cast<uint32_t>(n);
    }
    return i;
  }
  json range(uint32_t begin, uint32_t end) const {
    return {{"start", position(begin)}, {"end", position(std::max(begin, end))}};
  }

 private:
  const std::string& text_;
  std::vector<uint32_t> starts_;
};

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The name at byte `at` of `text` ([begin, end)), or an empty range.
std::pair<uint32_t, uint32_t> nameAt(const std::string& text, uint32_t at) {
  uint32_t begin = at, end = at;
  while (begin > 0 && isNameChar(text[begin - 1])) --begin;
  while (end < text.size() && isNameChar(text[end])) ++end;
  if (begin < end && text[begin] >= '0' && text[begin] <= '9') return {at, at};
  return {begin, end};
}

// What a declaration of the outline and of go to definition is.
struct Declaration {
  std::string name;
  int kind = kSymbolClass;  // an LSP symbol kind
  uint32_t begin = 0, end = 0, nameBegin = 0, nameEnd = 0;
  std::string detail;  // `G(a, b)`, `const N`
  std::vector<Declaration> children;
  std::vector<Declaration> params;  // a game's parameters (for go to definition)
};

std::string signature(const ast::Game& g) {
  std::string params;
  for (const ast::Param& p : g.params) params += (params.empty() ? "" : ", ") + p.name;
  if (g.isOctal && g.params.empty()) params = "n";
  return fmt::format("{}({})", g.name, params);
}

std::string firstLine(const std::string& text, uint32_t begin, uint32_t end) {
  std::string s = text.substr(begin, end - begin);
  size_t newline = s.find('\n');
  if (newline != std::string::npos) s = s.substr(0, newline) + " ...";
  return s;
}

// The outline of a parsed module.
std::vector<Declaration> outline(const ast::Module& module, const std::string& text) {
  std::vector<Declaration> out;
  for (const ast::Statement& s : module.statements) {
    Declaration d;
    d.begin = s.range.begin;
    d.end = s.range.end;
    d.nameBegin = s.nameRange.valid() ? s.nameRange.begin : s.range.begin;
    d.nameEnd = s.nameRange.valid() ? s.nameRange.end : s.range.begin;
    switch (s.kind) {
      case ast::Statement::Kind::Game: {
        const ast::Game& g = *s.game;
        d.name = g.name;
        d.kind = kSymbolClass;
        d.nameBegin = g.nameRange.begin;
        d.nameEnd = g.nameRange.end;
        d.detail =
            (g.loopy ? "loopy game " : "game ") + signature(g) +
            (g.isOctal ? fmt::format(" = {} \"{}\"", g.isHex ? "hex" : "octal", g.octalCode) : "");
        for (const ast::Param& p : g.params) {
          Declaration param;
          param.name = p.name;
          param.begin = param.nameBegin = p.range.begin;
          param.end = param.nameEnd = p.range.end;
          d.params.push_back(param);
        }
        for (const ast::Move& m : g.moves) {
          if (m.label.empty() || !m.range.valid() || g.isOctal) continue;
          Declaration c;
          c.name = m.label;
          c.kind = kSymbolMethod;
          c.begin = c.nameBegin = m.range.begin;
          c.end = c.nameEnd = m.range.end;
          c.detail = firstLine(text, m.range.begin, m.range.end);
          d.children.push_back(c);
        }
        break;
      }
      case ast::Statement::Kind::Const:
        d.name = s.name;
        d.kind = kSymbolConstant;
        d.detail = firstLine(text, s.range.begin, s.range.end);
        break;
      case ast::Statement::Kind::Import:
        d.name = "import " + s.name;
        d.kind = kSymbolModule;
        break;
      default:
        d.name = firstLine(text, s.range.begin, s.range.end);
        d.kind = kSymbolEvent;
        d.nameEnd = d.end;
        break;
    }
    out.push_back(std::move(d));
  }
  return out;
}

// What each digit of an octal or hexadecimal code allows (docs/reference.md,
// section 4.8).
std::string describeCode(const std::string& code, bool hex) {
  size_t point = code.find('.');
  if (point == std::string::npos) return "";
  std::string out = fmt::format("{} code `{}`\n\n", hex ? "hexadecimal" : "octal", code);
  auto digit = [&](char c) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    return d > (hex ? 15 : 7) ? -1 : d;
  };
  std::string lead = code.substr(0, point);
  int d0 = lead.size() == 1 ? digit(lead[0]) : lead.empty() ? 0 : -1;
  if (d0 > 0 && (d0 & 4)) out += "- 0 tokens: split a heap into two non-empty heaps\n";
  if (d0 > 0 && (d0 & 8)) out += "- 0 tokens: split a heap into three non-empty heaps\n";
  for (size_t k = point + 1; k < code.size(); ++k) {
    char c = code[k];
    int d = digit(c);
    if (d < 0)
      return out + fmt::format("- '{}' is not {} digit\n", c, hex ? "a hexadecimal" : "an octal");
    size_t taken = k - point;
    if (d == 0) {
      out += fmt::format("- {} token{}: no move\n", taken, taken == 1 ? "" : "s");
      continue;
    }
    std::vector<std::string> leaves;
    if (d & 1) leaves.push_back("nothing (the whole heap)");
    if (d & 2) leaves.push_back("one heap");
    if (d & 4) leaves.push_back("two heaps");
    if (d & 8) leaves.push_back("three heaps");
    std::string list;
    for (size_t i = 0; i < leaves.size(); ++i)
      list += (i == 0 ? "" : i + 1 == leaves.size() ? " or " : ", ") + leaves[i];
    out +=
        fmt::format("- {} token{}: remove them, leaving {}\n", taken, taken == 1 ? "" : "s", list);
  }
  return out;
}

json markdown(const std::string& text) {
  return {{"contents", {{"kind", "markdown"}, {"value", text}}}};
}

// The built-in words that complete and hover: a line each.
const std::map<std::string, std::string>& builtinHelp() {
  static const std::map<std::string, std::string> help = {
      {"min", "min(a, b, ...) or min(list): the smallest"},
      {"max", "max(a, b, ...) or max(list): the largest"},
      {"abs", "abs(x): the absolute value"},
      {"len", "len(list): its length"},
      {"sort", "sort(list): in increasing order"},
      {"set", "set(list): sorted, without repeats"},
      {"popcount", "popcount(x): the number of 1 bits of x >= 0"},
      {"bits", "bits(x): the positions of the 1 bits of x >= 0, increasing"},
      {"sum", "sum(list), or `sum E for x in D`: the sum"},
      {"any", "any(list): whether some element is not 0"},
      {"all", "all(list): whether every element is not 0"},
      {"count", "count(list): the number of elements that are not 0"},
  };
  return help;
}

}  // namespace

struct LanguageServer::Document {
  std::string uri, path, text;
  int64_t version = 0;
  // The last text that parsed, and its outline (kept while the text does not parse).
  std::string parsedText;
  std::vector<Declaration> declarations;
  // Imports of the last text that parsed: paths ("" for std modules) and modules.
  std::vector<std::pair<std::string, std::string>> imports;
  // The games and constants of the last program that compiled (imports included).
  std::vector<std::string> games, constants;
  // Hover's first values, per game, for this version.
  std::map<std::string, std::string> values;
  std::unique_ptr<Session> session;  // made at the first hover that computes
};

LanguageServer::LanguageServer(double hoverSeconds) : hoverSeconds_(hoverSeconds) {}
LanguageServer::~LanguageServer() = default;

std::string uriToPath(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0) return "";
  std::string out;
  for (size_t i = scheme.size(); i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string pathToUri(const std::string& path) {
  std::string out = "file://";
  for (unsigned char c : path) {
    if (isNameChar(static_cast<char>(c)) || c == '/' || c == '.' || c == '-' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

void LanguageServer::handle(const json& message, std::vector<json>& out) {
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string())
    return;  // a response (the server asks nothing), or not a message
  const std::string method = message["method"].get<std::string>();
  const json params = message.value("params", json::object());
  if (!message.contains("id")) {
    try {
      notification(method, params, out);
    } catch (const json::exception&) {
      // A notification has no response: one with bad parameters is dropped.
    }
    return;
  }
  json response = {{"jsonrpc", "2.0"}, {"id", message["id"]}};
  try {
    if (shutdown_ && method != "exit")
      response["error"] = {{"code", -32600}, {"message", "the server is shutting down"}};
    else
      response["result"] = request(method, params);
  } catch (const std::pair<int, std::string>& error) {
    response.erase("result");
    response["error"] = {{"code", error.first}, {"message", error.second}};
  } catch (const json::exception& e) {
    response.erase("result");
    response["error"] = {{"code", kInvalidParams}, {"message", e.what()}};
  }
  out.push_back(std::move(response));
}

json LanguageServer::request(const std::string& method, const json& params) {
  if (method == "initialize") {
    return {{"capabilities",
             {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
              {"hoverProvider", true},
              {"completionProvider", {{"triggerCharacters", {"."}}}},
              {"definitionProvider", true},
              {"documentSymbolProvider", true}}},
            {"serverInfo", {{"name", "gdsl"}, {"version", GDSL_VERSION}}}};
  }
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  auto document = [&]() -> Document& {
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    auto it = documents_.find(uri);
    if (it == documents_.end())
      throw std::pair<int, std::string>(kInvalidParams, "the document " + uri + " is not open");
    return *it->second;
  };
  if (method == "textDocument/hover") return hover(document(), params.at("position"));
  if (method == "textDocument/completion") return completion(document());
  if (method == "textDocument/definition") return definition(document(), params.at("position"));
  if (method == "textDocument/documentSymbol") return symbols(document());
  throw std::pair<int, std::string>(kMethodNotFound, "no method " + method);
}

void LanguageServer::notification(const std::string& method, const json& params,
                                  std::vector<json>& out) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (method == "textDocument/didOpen") {
    const json& item = params.at("textDocument");
    auto doc = std::make_unique<Document>();
    doc->uri = item.at("uri").get<std::string>();
    doc->path = uriToPath(doc->uri);
    doc->text = item.at("text").get<std::string>();
    doc->version = item.value("version", 0);
    Document& d = *doc;
    documents_[d.uri] = std::move(doc);
    check(d, out);
  } else if (method == "textDocument/didChange") {
    auto it = documents_.find(params.at("textDocument").at("uri").get<std::string>());
    if (it == documents_.end()) return;
    Document& d = *it->second;
    // Full sync: each change is the whole text (the last one counts).
    for (const json& change : params.at("contentChanges"))
      if (change.contains("text") && !change.contains("range"))
        d.text = change["text"].get<std::string>();
    d.version = params.at("textDocument").value("version", d.version + 1);
    check(d, out);
  } else if (method == "textDocument/didClose") {
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    documents_.erase(uri);
    out.push_back({{"jsonrpc", "2.0"},
                   {"method", "textDocument/publishDiagnostics"},
                   {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
  }
}

void LanguageServer::check(Document& doc, std::vector<json>& out) {
  doc.values.clear();
  doc.session.reset();
  const std::string name = doc.path.empty() ? doc.uri : doc.path;
  LineIndex lines(doc.text);

  // The outline, from the text as parsed (kept from the last text that parsed).
  {
    SourceManager sources;
    DiagnosticSink ignored;
    uint32_t file = sources.add(name, doc.path, doc.text);
    if (std::optional<ast::Module> module = parseModule(sources, file, ignored)) {
      doc.parsedText = doc.text;
      doc.declarations = outline(*module, doc.text);
      doc.imports.clear();
      for (const ast::Statement& s : module->statements)
        if (s.kind == ast::Statement::Kind::Import)
          doc.imports.emplace_back(s.importStd ? "" : s.name, s.name);
    }
  }

  Workspace ws;
  bool compiled = ws.load(name, doc.path, doc.text);
  if (compiled) {
    doc.games.clear();
    doc.constants.clear();
    for (const ir::Game& g : ws.program().games)
      if (g.declared()) doc.games.push_back(g.name);
    for (const ir::Constant& c : ws.program().constants) doc.constants.push_back(c.name);
  }
  const SourceManager& sources = ws.sources();
  uint32_t mainFile = 0;
  for (uint32_t f = 0; f < sources.size(); ++f)
    if (sources.file(f).name == name) {
      mainFile = f;
      break;
    }
  // A location: in this document, or in another file by its path.
  auto location = [&](const SourceRange& r) -> json {
    if (r.file == mainFile) return {{"uri", doc.uri}, {"range", lines.range(r.begin, r.end)}};
    const SourceFile& f = sources.file(r.file);
    LineIndex other(f.text);
    std::string uri = f.path.empty() ? doc.uri : pathToUri(fs::absolute(f.path).string());
    return {{"uri", uri}, {"range", other.range(r.begin, r.end)}};
  };
  json diagnostics = json::array();
  auto add = [&](const Diagnostic& d, int severity) {
    json item = {{"severity", severity}, {"source", "gdsl"}, {"message", d.message}};
    if (d.range.valid() && d.range.file == mainFile) {
      item["range"] = lines.range(d.range.begin, d.range.end);
    } else {
      // In an imported file: shown on its import, saying where (else at the top).
      item["range"] = lines.range(0, 0);
      if (d.range.valid()) {
        const std::string dir = doc.path.empty() ? "." : fs::path(doc.path).parent_path().string();
        for (const auto& [path, module] : doc.imports) {
          std::error_code ec;
          if (path.empty() ||
              !fs::equivalent(fs::path(dir) / path, sources.file(d.range.file).path, ec))
            continue;
          size_t at = doc.text.find("\"" + path + "\"");
          if (at != std::string::npos)
            item["range"] =
                lines.range(static_cast<uint32_t>(at), static_cast<uint32_t>(at + path.size() + 2));
          break;
        }
      }
      if (d.range.valid())
        item["message"] = fmt::format("{}:{}:{}: {}", sources.file(d.range.file).name, d.range.line,
                                      d.range.col, d.message);
    }
    json related = json::array();
    for (const Diagnostic& note : d.notes) {
      if (note.range.valid())
        related.push_back({{"location", location(note.range)}, {"message", note.message}});
      else
        item["message"] = item["message"].get<std::string>() + "\nnote: " + note.message;
    }
    if (!related.empty()) item["relatedInformation"] = related;
    diagnostics.push_back(std::move(item));
  };
  for (const Diagnostic& d : ws.diagnostics().all()) add(d, 1);
  for (const Diagnostic& d : ws.diagnostics().warnings()) add(d, 2);
  out.push_back(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/publishDiagnostics"},
       {"params", {{"uri", doc.uri}, {"version", doc.version}, {"diagnostics", diagnostics}}}});
}

std::string LanguageServer::firstValues(Document& doc, const std::string& name) {
  if (auto it = doc.values.find(name); it != doc.values.end()) return it->second;
  std::string& values = doc.values[name];
  if (!doc.session) {
    doc.session = std::make_unique<Session>(StackOptions(BackendKind::Interp));
    if (!doc.session->load(doc.path.empty() ? doc.uri : doc.path, doc.text, doc.path)) {
      doc.session.reset();
      return values;
    }
  }
  Stack* stack = doc.session->stack();
  int g = stack->program().findGame(name);
  if (g < 0) return values;
  const ir::Game& game = stack->program().games[static_cast<size_t>(g)];
  if (game.params.size() != 1 || game.params[0].type != ir::Type::Int || game.loopy) return values;
  InterruptAfter budget(hoverSeconds_);
  try {
    std::vector<uint64_t> table = doc.session->table(name, 0, 15);
    values = name + "(0..15):";
    for (uint64_t v : table) values += " " + std::to_string(v);
  } catch (const Interrupted&) {
    values = "";
  } catch (const SessionError&) {
    values = "";
  }
  return values;
}

json LanguageServer::hover(Document& doc, const json& position) {
  LineIndex lines(doc.text);
  const uint32_t at = lines.offset(position);
  // An octal code: the string after `octal`.
  {
    size_t open = doc.text.rfind('"', at == 0 ? 0 : at - 1);
    size_t lineStart = doc.text.rfind('\n', at == 0 ? 0 : at - 1);
    if (open != std::string::npos && (lineStart == std::string::npos || open > lineStart)) {
      size_t close = doc.text.find('"', open + 1);
      size_t before = doc.text.find_last_not_of(" \t", open == 0 ? 0 : open - 1);
      const bool octal = before != std::string::npos && before >= 4 &&
                         doc.text.compare(before - 4, 5, "octal") == 0;
      const bool hex =
          before != std::string::npos && before >= 2 && doc.text.compare(before - 2, 3, "hex") == 0;
      if (close != std::string::npos && close >= at && (octal || hex)) {
        std::string text = describeCode(doc.text.substr(open + 1, close - open - 1), hex);
        if (!text.empty()) {
          json result = markdown(text);
          result["range"] =
              lines.range(static_cast<uint32_t>(open), static_cast<uint32_t>(close + 1));
          return result;
        }
      }
    }
  }
  auto [begin, end] = nameAt(doc.text, at);
  if (begin == end) return nullptr;
  const std::string word = doc.text.substr(begin, end - begin);
  json range = lines.range(begin, end);
  auto answer = [&](const std::string& text) {
    json result = markdown(text);
    result["range"] = range;
    return result;
  };
  for (const Declaration& d : doc.declarations) {
    if (d.name != word || (d.kind != kSymbolClass && d.kind != kSymbolConstant)) continue;
    std::string text = "```gdsl\n" + d.detail + "\n```\n";
    if (d.kind == kSymbolClass) {
      std::string values = firstValues(doc, word);
      if (!values.empty()) text += "\n`" + values + "`\n";
    }
    return answer(text);
  }
  if (std::find(doc.games.begin(), doc.games.end(), word) != doc.games.end()) {
    std::string text = fmt::format("game `{}` (imported)\n", word);
    std::string values = firstValues(doc, word);
    if (!values.empty()) text += "\n`" + values + "`\n";
    return answer(text);
  }
  if (auto it = builtinHelp().find(word); it != builtinHelp().end())
    return answer("built-in: `" + it->second + "`");
  for (const std::string& k : keywords())
    if (k == word) return answer("keyword `" + word + "` (docs/reference.md)");
  return nullptr;
}

json LanguageServer::completion(const Document& doc) {
  json items = json::array();
  std::set<std::string> seen;
  auto add = [&](const std::string& label, int kind, const std::string& detail) {
    if (label.empty() || !seen.insert(label).second) return;
    json item = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) item["detail"] = detail;
    items.push_back(std::move(item));
  };
  for (const Declaration& d : doc.declarations)
    if (d.kind == kSymbolClass || d.kind == kSymbolConstant)
      add(d.name, d.kind == kSymbolClass ? kCompletionClass : kCompletionConstant, d.detail);
  for (const std::string& g : doc.games) add(g, kCompletionClass, "game");
  for (const std::string& c : doc.constants) add(c, kCompletionConstant, "const");
  for (const auto& [word, help] : builtinHelp()) add(word, kCompletionFunction, help);
  for (const std::string& k : keywords()) add(k, kCompletionKeyword, "");
  for (const std::string& w : contextualWords()) add(w, kCompletionKeyword, "");
  for (const auto& [module, _] : stdlibModules()) add("std." + module, kCompletionModule, "");
  return {{"isIncomplete", false}, {"items", items}};
}

json LanguageServer::definition(const Document& doc, const json& position) {
  LineIndex lines(doc.text);
  const uint32_t at = lines.offset(position);
  const std::string dir = doc.path.empty() ? "." : fs::path(doc.path).parent_path().string();
  // On an import's path: the file.
  for (const auto& [path, name] : doc.imports) {
    if (path.empty()) continue;
    size_t quoted = doc.text.rfind("\"" + path + "\"", at);
    if (quoted == std::string::npos || at > quoted + path.size() + 1) continue;
    fs::path file = fs::path(path).is_absolute() ? fs::path(path) : fs::path(dir) / path;
    return {
        {"uri", pathToUri(fs::absolute(file).lexically_normal().string())},
        {"range",
         {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}}};
  }
  auto [begin, end] = nameAt(doc.text, at);
  if (begin == end) return nullptr;
  const std::string word = doc.text.substr(begin, end - begin);
  // A parameter of the game the name is in, then a game or constant.
  if (doc.parsedText == doc.text)
    for (const Declaration& d : doc.declarations)
      if (d.begin <= begin && end <= d.end)
        for (const Declaration& p : d.params)
          if (p.name == word) return {{"uri", doc.uri}, {"range", lines.range(p.begin, p.end)}};
  for (const Declaration& d : doc.declarations)
    if (d.name == word && (d.kind == kSymbolClass || d.kind == kSymbolConstant))
      return {{"uri", doc.uri}, {"range", lines.range(d.nameBegin, d.nameEnd)}};
  // A declaration of an imported file (not of std modules, built into gdsl).
  for (const auto& [path, name] : doc.imports) {
    if (path.empty()) continue;
    fs::path file = fs::path(path).is_absolute() ? fs::path(path) : fs::path(dir) / path;
    std::string text, error;
    if (!readFile(file.string(), text, error)) continue;
    SourceManager sources;
    DiagnosticSink ignored;
    uint32_t id = sources.add(file.string(), file.string(), text);
    std::optional<ast::Module> module = parseModule(sources, id, ignored);
    if (!module) continue;
    LineIndex other(text);
    for (const Declaration& d : outline(*module, text))
      if (d.name == word && (d.kind == kSymbolClass || d.kind == kSymbolConstant))
        return {{"uri", pathToUri(fs::absolute(file).lexically_normal().string())},
                {"range", other.range(d.nameBegin, d.nameEnd)}};
  }
  return nullptr;
}

json LanguageServer::symbols(const Document& doc) {
  LineIndex lines(doc.parsedText);
  auto symbol = [&](const Declaration& d, auto& self) -> json {
    json s = {{"name", d.name},
              {"kind", d.kind},
              {"range", lines.range(d.begin, d.end)},
              {"selectionRange", lines.range(d.nameBegin, d.nameEnd)}};
    if (!d.detail.empty()) s["detail"] = d.detail;
    if (!d.children.empty()) {
      json children = json::array();
      for (const Declaration& c : d.children) children.push_back(self(c, self));
      s["children"] = children;
    }
    return s;
  };
  json out = json::array();
  for (const Declaration& d : doc.declarations) out.push_back(symbol(d, symbol));
  return out;
}

}  // namespace gdsl
