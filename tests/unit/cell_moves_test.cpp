// Boards that split (compiler/ir/CellMoves.cpp, runtime/Components.h): games
// over a set of cells whose moves need some cells and clear some are valued as
// the xor of their parts. Checked against an independent brute force that
// never splits (Node Kayles on random graphs, dominoes on grids, both rules in
// one game) on both backends and `auto`, with the rules written in every
// recognised form; which games the analysis marks; that moves and winning
// moves still show whole boards; and that splitting is what keeps the memo
// small.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "driver/Program.h"
#include "driver/Session.h"
#include "grid_graphs.h"
#include "list_text.h"
#include "runtime/Components.h"
#include "test_backends.h"

namespace {

// A game over cells by brute force: move i is legal when every cell of
// need[i] is free, and clears clear[i]; memoized, never split.
struct CellGame {
  std::vector<uint64_t> need, clear;
  std::map<uint64_t, int> memo;
  int value(uint64_t cells) {
    auto it = memo.find(cells);
    if (it != memo.end()) return it->second;
    std::vector<bool> seen(need.size() + 2, false);
    for (size_t i = 0; i < need.size(); ++i)
      if ((cells & need[i]) == need[i]) {
        int g = value(cells & ~clear[i]);
        if (g < static_cast<int>(seen.size())) seen[static_cast<size_t>(g)] = true;
      }
    int m = 0;
    while (seen[static_cast<size_t>(m)]) ++m;
    return memo[cells] = m;
  }
};

// Node Kayles on a graph of closed neighbourhoods `nb`: pick a free vertex,
// clear it and its neighbours.
CellGame nodeKayles(const std::vector<uint64_t>& nb) {
  CellGame g;
  for (size_t v = 0; v < nb.size(); ++v) {
    g.need.push_back(uint64_t{1} << v);
    g.clear.push_back(nb[v]);
  }
  return g;
}

// A random graph on n vertices: the closed neighbourhood of each vertex.
std::vector<uint64_t> randomGraph(int n, double p, std::mt19937_64& random) {
  std::vector<uint64_t> nb(static_cast<size_t>(n));
  std::bernoulli_distribution edge(p);
  for (int v = 0; v < n; ++v) nb[static_cast<size_t>(v)] |= uint64_t{1} << v;
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v)
      if (edge(random)) {
        nb[static_cast<size_t>(u)] |= uint64_t{1} << v;
        nb[static_cast<size_t>(v)] |= uint64_t{1} << u;
      }
  return nb;
}

// Node Kayles's rule written in each recognised form (NB is the list of
// closed neighbourhoods, n its length).
std::vector<std::string> nodeKaylesRules(int n) {
  std::string range = "(v in 0.." + std::to_string(n - 1) + ")";
  return {
      "move pick" + range + " when ((b >> v) & 1) == 1 -> G(b ^ (b & NB[v]))",
      "move pick" + range + " when 1 == (1 & (b >> v)) -> G((NB[v] & b) ^ b)",
      "move pick" + range + " when (b & (1 << v)) != 0 -> G(b ^ (b & NB[v]))",
      "move pick" + range + " when ((b >> v) & 1) > 0 -> G(b ^ (NB[v] & b))",
      "move pick" + range + " when (b & (1 << v)) == (1 << v) -> G(b ^ (b & NB[v]))",
      "move pick" + range + " when 0 < (b & (1 << v)) -> G(b ^ (b & NB[v]))",
      // Over the set cells, with the cleared cells complemented.
      "move pick(v in bits(b)) -> G(b & ~NB[v])",
      // Shifts and remainders written without parentheses, `not`, `-` and
      // `|` then `^` (compiler/ir/CellBits.h reads them bit by bit).
      "move pick" + range + " when (b >> v) % 2 == 1 -> G(b & ~NB[v])",
      "move pick" + range + " when not ((b >> v) & 1 == 0) -> G(b - (b & NB[v]))",
      "move pick" + range + " when b & 2 ** v > 0 -> G((b | NB[v]) ^ NB[v])",
      // A let, and a guard that does not read the board.
      "move pick(v in 0.." + std::to_string(n - 1) +
          ", let m = NB[v]) when v >= 0 and ((b >> v) & 1) != 0 -> G(b ^ (b & m))",
  };
}

int64_t nodeCount(gdsl::Session& s) {
  // "gdsl: G: N positions in a packed table of words ..."
  std::string report = s.tableReport();
  auto at = report.find("gdsl: G: ");
  REQUIRE(at != std::string::npos);
  return std::stoll(report.substr(at + 9));
}

bool marked(const std::string& source, const std::string& game = "G") {
  std::string errors;
  auto ws = gdsl::compileProgram("cells.game", source, errors);
  INFO(errors);
  REQUIRE(ws);
  int g = ws->program().findGame(game);
  REQUIRE(g >= 0);
  return ws->program().games[static_cast<size_t>(g)].cells.has_value();
}

const std::vector<gdsl::BackendKind> kAllBackends = {
    gdsl::BackendKind::Interp, gdsl::BackendKind::Jit, gdsl::BackendKind::Auto};

}  // namespace

TEST_CASE("Node Kayles on random graphs, in every recognised form, against a brute force") {
  std::mt19937_64 random(2026);
  for (int trial = 0; trial < 12; ++trial) {
    int n = 6 + trial;
    double p = trial % 3 == 0 ? 0.12 : trial % 3 == 1 ? 0.25 : 0.45;
    std::vector<uint64_t> nb = randomGraph(n, p, random);
    CellGame brute = nodeKayles(nb);
    const std::vector<std::string> rules = nodeKaylesRules(n);
    const std::string& rule = rules[static_cast<size_t>(trial) % rules.size()];
    std::string source =
        "const NB = " + testing::listText(nb) + "\ngame G(b) {\n  " + rule + "\n}\n";
    INFO(source);
    CHECK(marked(source));
    uint64_t full = (uint64_t{1} << n) - 1;
    std::vector<uint64_t> boards{full, 0};
    for (int k = 0; k < 12; ++k) boards.push_back(random() & full);
    for (gdsl::BackendKind kind : kAllBackends) {
      INFO(gdsl::backendKindName(kind));
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("nk.game", source));
      for (uint64_t b : boards) {
        INFO("board " << b);
        CHECK(s.grundy("G(" + std::to_string(b) + ")") == static_cast<uint64_t>(brute.value(b)));
      }
      // Sums of boards, and a board with a part of value 0 (an isolated cell
      // is worth 1, two adjacent ones 1 as well).
      uint64_t a = random() & full, c = random() & full;
      CHECK(s.grundy("G(" + std::to_string(a) + ") + G(" + std::to_string(c) + ")") ==
            static_cast<uint64_t>(brute.value(a) ^ brute.value(c)));
    }
  }
}

TEST_CASE("dominoes on grids, with two binders and guards on them, against a brute force") {
  // Place a domino on two free cells, horizontally or vertically (Cram on a
  // w x h grid), with both spellings of the cleared cells; plus, in a second
  // game, Node Kayles's move in the same rules.
  for (auto [w, h] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {4, 3}, {5, 3}, {4, 4}}) {
    CellGame cram;
    CellGame mixed;
    std::vector<uint64_t> nb = testing::gridNeighbourhoods(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint64_t c = uint64_t{1} << (y * w + x);
        if (x + 1 < w) cram.need.push_back(c | c << 1);
        if (y + 1 < h) cram.need.push_back(c | c << w);
      }
    cram.clear = cram.need;
    mixed.need = cram.need;
    mixed.clear = cram.need;
    for (size_t v = 0; v < nb.size(); ++v) {
      mixed.need.push_back(uint64_t{1} << v);
      mixed.clear.push_back(nb[v]);
    }
    std::string W = std::to_string(w), H = std::to_string(h);
    std::string source =
        "const W = " + W + "\nconst H = " + H + "\nconst NB = " + testing::listText(nb) +
        "\n"
        "game G(b) {\n"
        "  move across(x in 0..W - 1, y in 0..H - 1) when x < W - 1 and "
        "(b & (3 << (y * W + x))) == (3 << (y * W + x)) -> G(b ^ (3 << (y * W + x)))\n"
        "  move down(x in 0..W - 1, y in 0..H - 2, let d = (1 + (1 << W)) << (y * W + x)) "
        "when (b & d) == d -> G(b - d)\n"
        "}\n"
        "game M(b) {\n"
        "  move across(x in 0..W - 2, y in 0..H - 1, let d = 3 << (y * W + x)) "
        "when (d & b) == d -> M(b ^ d)\n"
        "  move down(x in 0..W - 1, y in 0..H - 2, let d = (1 + (1 << W)) << (y * W + x)) "
        "when (b & d) == d -> M(b ^ d)\n"
        "  move pick(v in 0..W * H - 1) when ((b >> v) & 1) == 1 -> M(b ^ (b & NB[v]))\n"
        "}\n";
    INFO(source);
    CHECK(marked(source, "G"));
    CHECK(marked(source, "M"));
    uint64_t full = (uint64_t{1} << (w * h)) - 1;
    std::mt19937_64 random(static_cast<uint64_t>(w * 10 + h));
    std::vector<uint64_t> boards{full};
    for (int k = 0; k < 10; ++k) boards.push_back(random() & full);
    for (gdsl::BackendKind kind : kAllBackends) {
      INFO(gdsl::backendKindName(kind) << " " << w << " x " << h);
      gdsl::Session s{gdsl::StackOptions(kind)};
      REQUIRE(s.load("cram.game", source));
      for (uint64_t b : boards) {
        INFO("board " << b);
        CHECK(s.grundy("G(" + std::to_string(b) + ")") == static_cast<uint64_t>(cram.value(b)));
        CHECK(s.grundy("M(" + std::to_string(b) + ")") == static_cast<uint64_t>(mixed.value(b)));
      }
    }
  }
}

TEST_CASE("the parts of a board, by the supports of its legal moves") {
  // A path 0-1-2-3-4 for Node Kayles: cells 0, 1 and 3, 4 are two parts;
  // cell 2 alone is a part too (a move is legal on it).
  std::vector<uint64_t> nb{0b00011, 0b00111, 0b01110, 0b11100, 0b11000};
  std::string source = "const NB = " + testing::listText(nb) +
                       "\ngame G(b) { move pick(v in 0..4) when ((b >> v) & 1) == 1 -> "
                       "G(b ^ (b & NB[v])) }\n";
  std::string errors;
  auto ws = gdsl::compileProgram("path.game", source, errors);
  REQUIRE(ws);
  const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
  auto parts = [&](uint64_t cells) {
    std::vector<uint64_t> out;
    gdsl::forEachComponent(moves, cells, [&](uint64_t part) { out.push_back(part); });
    return out;
  };
  CHECK(parts(0b11011) == std::vector<uint64_t>{0b00011, 0b11000});
  CHECK(parts(0b11111) == std::vector<uint64_t>{0b11111});
  CHECK(parts(0b10101) == std::vector<uint64_t>{0b00001, 0b00100, 0b10000});
  CHECK(parts(0).empty());
  // Dominoes: a lone free cell has no legal move, so it is no part at all.
  std::string dominoes =
      "game D(b) { move put(v in 0..3) when (b & (3 << v)) == (3 << v) -> D(b ^ (3 << v)) }\n";
  ws = gdsl::compileProgram("dominoes.game", dominoes, errors);
  REQUIRE(ws);
  const gdsl::ir::CellMoves& put = *ws->program().games[0].cells;
  std::vector<uint64_t> out;
  gdsl::forEachComponent(put, 0b11101, [&](uint64_t part) { out.push_back(part); });
  CHECK(out == std::vector<uint64_t>{0b11100});
}

TEST_CASE("only moves that need cells and clear some of them make a board that splits") {
  const std::string nb = "const NB = [3, 7, 14, 28, 24]\n";
  CHECK(marked(nb +
               "game G(b) { move m(v in 0..4) when ((b >> v) & 1) == 1 -> G(b ^ (b & NB[v])) }"));
  // The move may clear cells it does not need: not a board.
  CHECK_FALSE(marked("game G(b) { move m(v in 0..4) -> G(b ^ (b & (1 << v))) }"));
  // A cell that must be empty.
  CHECK_FALSE(
      marked(nb + "game G(b) { move m(v in 0..4) when ((b >> v) & 1) == 0 -> G(b | (1 << v)) }"));
  // At least one of two cells (not a requirement on both).
  CHECK_FALSE(
      marked("game G(b) { move m(v in 0..3) when (b & (3 << v)) != 0 -> G(b ^ (b & (3 << v))) }"));
  // b ^ X where the guard does not need X: it may set cells.
  CHECK_FALSE(
      marked("game G(b) { move m(v in 0..3) when ((b >> v) & 1) == 1 -> G(b ^ (3 << v)) }"));
  // A move that ends the whole game, or leads to another game.
  CHECK_FALSE(
      marked(nb + "game G(b) { move m(v in 0..4) when ((b >> v) & 1) == 1 -> G(b ^ (b & NB[v]))\n"
                  "  move stop when b == 31 -> 0 }"));
  CHECK_FALSE(
      marked(nb +
             "game H(b) { take 1 }\n"
             "game G(b) { move m(v in 0..4) when ((b >> v) & 1) == 1 -> H(b ^ (b & NB[v])) }"));
  // A let that reads the board.
  CHECK_FALSE(marked(
      nb +
      "game G(b) { move m(v in 0..4, let c = b ^ (b & NB[v])) when ((b >> v) & 1) == 1 -> G(c) }"));
  // An expression that fails for some binding (NB[5] is out of range): the
  // game is searched whole, as before.
  CHECK_FALSE(marked(
      nb + "game G(b) { move m(v in 0..5) when ((b >> v) & 1) == 1 -> G(b ^ (b & NB[v])) }"));
}

TEST_CASE("a board that splits still shows whole boards in moves and winning moves") {
  const std::string source =
      "const NB = [3, 7, 14, 28, 24]\n"
      "game G(b) { move pick(v in 0..4) when ((b >> v) & 1) == 1 -> G(b ^ (b & NB[v])) }\n";
  for (gdsl::BackendKind kind : kAllBackends) {
    INFO(gdsl::backendKindName(kind));
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("path.game", source));
    // From 11011 (two parts of value 1): picking cell 0 leaves G(24), not G(0) + G(24).
    std::string json = s.runJson("moves G(27)");
    INFO(json);
    CHECK(json.find("G(24)") != std::string::npos);
    CHECK(json.find("G(0) + G(24)") == std::string::npos);
    CellGame brute = nodeKayles({3, 7, 14, 28, 24});
    CHECK(s.grundy("G(27)") == 0);
    CHECK(s.grundy("G(31)") == static_cast<uint64_t>(brute.value(31)));
  }
}

TEST_CASE("splitting keeps the memo to the parts a search meets") {
  // Node Kayles on the 6 x 4 grid: without splitting, a search of the full
  // board memoizes over 20,000 boards; split, under a tenth of that.
  int w = 6, h = 4;
  std::vector<uint64_t> nb = testing::gridNeighbourhoods(w, h);
  CellGame brute = nodeKayles(nb);
  uint64_t full = (uint64_t{1} << (w * h)) - 1;
  int want = brute.value(full);
  std::string source = "const NB = " + testing::listText(nb) + "\ngame G(b) {\n  " +
                       nodeKaylesRules(w * h)[0] + "\n}\n";
  for (gdsl::BackendKind kind : testing::backends()) {
    INFO(gdsl::backendKindName(kind));
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("grid.game", source));
    CHECK(s.grundy("G(" + std::to_string(full) + ")") == static_cast<uint64_t>(want));
    CHECK(brute.memo.size() > 20000);
    CHECK(nodeCount(s) < static_cast<int64_t>(brute.memo.size()) / 10);
    CHECK(s.tableReport().find("a board that splits") != std::string::npos);
  }
}

TEST_CASE("over bits(b), a cell whose move fails keeps a board holding it whole, and failing") {
  // NB has three entries: a move on cell 3 or above indexes past it.
  const std::string source =
      "const NB = [3, 7, 6]\n"
      "game G(b) { move pick(v in bits(b)) -> G(b & ~NB[v]) }\n";
  std::string errors;
  auto ws = gdsl::compileProgram("short.game", source, errors);
  REQUIRE(ws);
  const std::optional<gdsl::ir::CellMoves>& cells = ws->program().games[0].cells;
  REQUIRE(cells);
  CHECK(cells->safe == 7);
  int64_t parts[gdsl::kMaxComponents];
  CHECK(gdsl::splitComponents(*cells, 3, parts) == 1);
  // Cells 0 and 2 apart: the same game (the path's ends), so they cancel.
  CHECK(gdsl::splitComponents(*cells, 5, parts) == 0);
  CHECK(gdsl::splitComponents(*cells, 9, parts) == -1);
  CHECK(gdsl::splitComponents(*cells, -1, parts) == -1);
  CellGame brute = nodeKayles({3, 7, 6});
  for (gdsl::BackendKind kind : kAllBackends) {
    INFO(gdsl::backendKindName(kind));
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("short.game", source));
    for (uint64_t b = 0; b < 8; ++b)
      CHECK(s.grundy("G(" + std::to_string(b) + ")") == static_cast<uint64_t>(brute.value(b)));
    std::string failed = testing::outcome(s, "G(13)");
    INFO(failed);
    CHECK(failed.rfind("error: ", 0) == 0);
    CHECK(failed.find("index") != std::string::npos);
  }
}
