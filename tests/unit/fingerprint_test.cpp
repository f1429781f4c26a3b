// Rule fingerprints (compiler/ir/Fingerprint.h): equal for programs that differ only in names
// of variables, parameters and moves, comments, layout, statements and the order of
// declarations; different for any change of a rule. The second half mutates every integer
// literal inside the games of the examples and the standard library, one at a time: whenever
// the mutated program compiles to a different IR, its fingerprint must differ too.
#include "compiler/ir/Fingerprint.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "compiler/ir/IrPrinter.h"
#include "driver/Program.h"

namespace {

std::unique_ptr<gdsl::Workspace> compile(const std::string& source) {
  std::string errors;
  auto ws = gdsl::compileProgram("fingerprint.game", source, errors);
  INFO(source << errors);
  REQUIRE(ws);
  return ws;
}

uint64_t fingerprint(const std::string& source) {
  return gdsl::ir::programFingerprint(compile(source)->program());
}

// The fingerprint of game `name` in `source`.
uint64_t gameFingerprint(const std::string& source, const std::string& name) {
  auto ws = compile(source);
  int g = ws->program().findGame(name);
  REQUIRE(g >= 0);
  return gdsl::ir::gameFingerprints(ws->program())[static_cast<size_t>(g)];
}

const char* kBase = R"(
const S = [1, 3, 4]
game G(n) {
  move pick(k in S) when k <= n -> G(n - k)
  move cut(a in 1..n - 1, let b = n - a) when a < b -> G(a) + H(b)
}
game H(n) { take 1..2 }
game L(xs: list) {
  normalize -> L(sort(xs))
  move dec(i in 0..len(xs) - 1) when xs[i] > 0 -> L(set(xs, i, xs[i] - 1))
}
eval G(5)
)";

}  // namespace

TEST_CASE("fingerprints ignore names, comments, layout, statements and declaration order") {
  uint64_t base = fingerprint(kBase);
  // Variables, parameters and moves renamed; comments and layout; other statements.
  CHECK(fingerprint(R"(
// the same rules
const S = [1, 3, 4]
game G(m) {
  move t(j in S) when j <= m -> G(m - j)      // renamed
  move cut(x in 1..m - 1, let y = m - x) when x < y -> G(x) + H(y)
}
game H(size) { take 1..2 }
game L(heaps: list) {
  normalize -> L(sort(heaps))
  move down(p in 0..len(heaps) - 1) when heaps[p] > 0 -> L(set(heaps, p, heaps[p] - 1))
}
table G(0..10)
)") == base);
  // The games declared in another order.
  CHECK(fingerprint(R"(
const S = [1, 3, 4]
game H(n) { take 1..2 }
game L(xs: list) {
  normalize -> L(sort(xs))
  move dec(i in 0..len(xs) - 1) when xs[i] > 0 -> L(set(xs, i, xs[i] - 1))
}
game G(n) {
  move pick(k in S) when k <= n -> G(n - k)
  move cut(a in 1..n - 1, let b = n - a) when a < b -> G(a) + H(b)
}
)") == base);
}

TEST_CASE("fingerprints change with every change of a rule") {
  uint64_t base = fingerprint(kBase);
  // Every match of `from` (a regular expression) replaced by `to`.
  auto changed = [&](const std::string& from, const std::string& to) {
    std::string source = std::regex_replace(std::string(kBase), std::regex(from), to);
    REQUIRE(source != kBase);
    INFO(from << " -> " << to);
    CHECK(fingerprint(source) != base);
  };
  changed("\\[1, 3, 4\\]", "[1, 3, 5]");                // a constant list's contents
  changed("k <= n", "k < n");                           // a comparison
  changed("G\\(n - k\\)", "H(n - k)");                  // the game a successor names
  changed("G\\(a\\) \\+ H\\(b\\)", "H(b) + G(a)");      // the order of components (kept: rule
                                                        // order decides winning moves)
  changed("a < b", "a <= b");                           // a guard
  changed("take 1..2", "take 1..3");                    // a sugar's amount
  changed("  normalize -> L\\(sort\\(xs\\)\\)\n", "");  // the normalize rule
  changed("xs\\[i\\] - 1", "xs[i] - 2");                // an argument
  changed("\\bH\\b", "K");                              // a game's name (tables are kept by name)
  changed("L\\(sort\\(xs\\)\\)", "L(xs)");              // what normalize does
}

TEST_CASE("a game's fingerprint changes with the games it reaches, and only those") {
  const char* source = R"(
game A(n) { move m(k in 1..n) -> B(n - k) }
game B(n) { take 1..2 }
game C(n) { take 1..3 }
)";
  std::string changedB =
      std::regex_replace(std::string(source), std::regex("take 1..2"), "take 1..4");
  CHECK(gameFingerprint(source, "A") != gameFingerprint(changedB, "A"));
  CHECK(gameFingerprint(source, "B") != gameFingerprint(changedB, "B"));
  CHECK(gameFingerprint(source, "C") == gameFingerprint(changedB, "C"));
  // Two games with the same rules under different names are different games.
  CHECK(gameFingerprint("game X(n) { take 1..2 }", "X") !=
        gameFingerprint("game Y(n) { take 1..2 }", "Y"));
}

TEST_CASE(
    "every literal changed in a rule of the examples and the stdlib changes the fingerprint") {
  // An integer literal in a game's body, not inside a string (octal codes) or a comment.
  std::regex literal("\\b[0-9]+\\b");
  int mutations = 0;
  for (const char* dir : {GDSL_EXAMPLES_DIR, GDSL_STDLIB_DIR}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".game") continue;
      std::string text, error;
      REQUIRE(gdsl::readFile(entry.path().string(), text, error));
      auto ws = std::make_unique<gdsl::Workspace>();
      if (!ws->load(entry.path().string(), entry.path().string(), text)) continue;
      std::string ir = gdsl::ir::printProgram(ws->program());
      uint64_t base = gdsl::ir::programFingerprint(ws->program());
      // Lines of game bodies only: between a `game` line and its closing brace.
      std::istringstream lines(text);
      std::string line;
      size_t offset = 0;
      bool inGame = false;
      int perFile = 0;
      while (std::getline(lines, line)) {
        size_t lineStart = offset;
        offset += line.size() + 1;
        if (line.rfind("game ", 0) == 0) inGame = line.find('{') != std::string::npos;
        if (inGame && line == "}") inGame = false;
        if (!inGame || line.find("game ") == 0 || perFile >= 12) continue;
        std::string code = line.substr(0, line.find("//"));
        if (code.find('"') != std::string::npos) continue;
        for (auto it = std::sregex_iterator(code.begin(), code.end(), literal);
             it != std::sregex_iterator() && perFile < 12; ++it) {
          std::string mutated = text;
          size_t at = lineStart + static_cast<size_t>(it->position());
          mutated.replace(at, static_cast<size_t>(it->length()),
                          std::to_string(std::stoll(it->str()) + 1));
          gdsl::Workspace other;
          if (!other.load(entry.path().string(), entry.path().string(), mutated)) continue;
          if (gdsl::ir::printProgram(other.program()) == ir) continue;  // folded away
          INFO(entry.path().filename().string()
               << ": " << line << "  (literal " << it->str() << " + 1)");
          CHECK(gdsl::ir::programFingerprint(other.program()) != base);
          ++mutations;
          ++perFile;
        }
      }
    }
  }
  // The corpus is large enough to mean something.
  CHECK(mutations >= 100);
}
