// Boards written the plain way (compiler/ir/CellBits.h: shifts, `~`, `%` and
// `/` by powers of two) and their symmetries (compiler/ir/CellSymmetry.cpp,
// runtime/Components.h): Cram as a user first writes it splits on every board
// up to 4 x 5 and 3 x 7 with the values of a brute force that never splits
// nor turns a board, by the full search and by the pruning search
// (runtime/CellSearch.h); the orientations found are the board's own (none when a
// rule breaks them); equal parts cancel; and a game the analysis refuses says
// why under --verbose.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
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
struct Brute {
  std::vector<uint64_t> need, clear;
  std::map<uint64_t, int> memo;
  int value(uint64_t cells) {
    if (auto it = memo.find(cells); it != memo.end()) return it->second;
    std::vector<bool> seen(need.size() + 2, false);
    for (size_t i = 0; i < need.size(); ++i)
      if ((cells & need[i]) == need[i]) seen[static_cast<size_t>(value(cells & ~clear[i]))] = true;
    int m = 0;
    while (seen[static_cast<size_t>(m)]) ++m;
    return memo[cells] = m;
  }
  void add(uint64_t n, uint64_t c) {
    need.push_back(n);
    clear.push_back(c);
  }
};

// Cram on w x h: a domino on two free cells side by side or one above the other.
Brute cram(int w, int h) {
  Brute g;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint64_t c = uint64_t{1} << (y * w + x);
      if (x + 1 < w) g.add(c | c << 1, c | c << 1);
      if (y + 1 < h) g.add(c | c << w, c | c << w);
    }
  return g;
}

const gdsl::ir::Game& compiled(std::unique_ptr<gdsl::Workspace>& ws, const std::string& source,
                               const std::string& game) {
  std::string errors;
  ws = gdsl::compileProgram("board.game", source, errors);
  INFO(errors);
  REQUIRE(ws);
  int g = ws->program().findGame(game);
  REQUIRE(g >= 0);
  return ws->program().games[static_cast<size_t>(g)];
}

void checkValues(const std::string& source, const std::string& game, Brute& brute, uint64_t full,
                 uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> boards{full};
  for (int k = 0; k < 8; ++k) boards.push_back(random() & random() & full);
  for (int k = 0; k < 8; ++k) boards.push_back(random() & full);
  for (gdsl::BackendKind kind : testing::backends()) {
    INFO(gdsl::backendKindName(kind));
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("board.game", source));
    for (uint64_t b : boards) {
      INFO("board " << b);
      std::string position = game + "(" + std::to_string(b) + ")";
      CHECK(s.grundy(position) == static_cast<uint64_t>(brute.value(b)));      // the full search
      CHECK(s.evalGrundy(position) == static_cast<uint64_t>(brute.value(b)));  // pruning
    }
  }
}

}  // namespace

TEST_CASE("Cram written the plain way splits, on every board up to 4 x 5 and 3 x 7") {
  std::vector<std::pair<int, int>> sizes;
  for (int w = 1; w <= 4; ++w)
    for (int h = 1; h <= 5; ++h)
      if (w * h >= 2) sizes.emplace_back(w, h);
  sizes.emplace_back(3, 7);
  sizes.emplace_back(7, 3);
  for (auto [w, h] : sizes) {
    INFO(w << " x " << h);
    std::string source = testing::cramSource(w, h);
    std::unique_ptr<gdsl::Workspace> ws;
    const gdsl::ir::Game& g = compiled(ws, source, "Cram");
    REQUIRE(g.cells);
    Brute brute = cram(w, h);
    CHECK(g.cells->require.size() == brute.need.size());
    // All 8 orientations, on a rectangle too: a part turned a quarter is
    // the same game wherever it fits.
    if (w >= 2 && h >= 2) CHECK(g.cells->grid.orientations == 8);
    checkValues(source, "Cram", brute, (uint64_t{1} << (w * h)) - 1,
                static_cast<uint64_t>(w * 100 + h));
  }
}

TEST_CASE("Node Kayles on grids, written with division and remainder by powers of two") {
  for (auto [w, h] : std::vector<std::pair<int, int>>{{3, 3}, {5, 2}, {4, 4}}) {
    std::vector<uint64_t> nb = testing::gridNeighbourhoods(w, h);
    Brute brute;
    for (size_t v = 0; v < nb.size(); ++v) brute.add(uint64_t{1} << v, nb[v]);
    std::string n = std::to_string(w * h - 1);
    std::string source = "const NB = " + testing::listText(nb) +
                         "\ngame G(b) {\n"
                         "  move pick(v in 0.." +
                         n +
                         ") when b / 2 ** v % 2 != 0 -> G(b - (b & NB[v]))\n"
                         "}\n";
    INFO(source);
    std::unique_ptr<gdsl::Workspace> ws;
    const gdsl::ir::Game& g = compiled(ws, source, "G");
    REQUIRE(g.cells);
    CHECK(g.cells->grid.orientations == 8);
    checkValues(source, "G", brute, (uint64_t{1} << (w * h)) - 1, static_cast<uint64_t>(w + h));
  }
}

TEST_CASE("a rule that breaks a symmetry keeps the board from being turned that way") {
  // Horizontal dominoes and vertical trominoes on a 4 x 4 board: reflections
  // keep the moves, the turns that swap the axes do not.
  std::string rules =
      "const W = 4\n"
      "game G(b) {\n"
      "  move dom(v in 0..15) when v % W < W - 1 and (b >> v) & 3 == 3 -> G(b & ~(3 << v))\n"
      "  move tri(v in 0..7, let t = 1 + (1 << W) + (1 << 2 * W)) when (b & (t << v)) == t << v\n"
      "    -> G(b ^ (t << v))\n"
      "}\n";
  Brute brute;
  for (int v = 0; v < 16; ++v) {
    if (v % 4 < 3) brute.add(uint64_t{3} << v, uint64_t{3} << v);
    if (v < 8) brute.add(uint64_t{0x111} << v, uint64_t{0x111} << v);
  }
  std::unique_ptr<gdsl::Workspace> ws;
  const gdsl::ir::Game& g = compiled(ws, rules, "G");
  REQUIRE(g.cells);
  CHECK(g.cells->grid.width == 4);
  CHECK(g.cells->grid.orientations == 4);
  checkValues(rules, "G", brute, 0xffff, 44);

  // One more move, on the corner cell alone: no shift keeps the moves, so
  // no symmetry at all.
  std::string corner = rules;
  corner.insert(corner.rfind('}'), "  move corner when (b & 1) == 1 -> G(b - 1)\n");
  Brute withCorner = brute;
  withCorner.add(1, 1);
  const gdsl::ir::Game& h = compiled(ws, corner, "G");
  REQUIRE(h.cells);
  CHECK(h.cells->grid.orientations == 0);
  checkValues(corner, "G", withCorner, 0xffff, 45);
}

TEST_CASE("parts are memoized under their least image, and equal parts cancel") {
  std::unique_ptr<gdsl::Workspace> ws;
  const gdsl::ir::Game& g = compiled(ws, testing::cramSource(4, 4), "Cram");
  REQUIRE(g.cells);
  const gdsl::ir::CellMoves& moves = *g.cells;
  // A vertical domino at the bottom right is the horizontal one in the corner.
  CHECK(gdsl::canonicalPart(moves.grid, (uint64_t{1} << 11) | (uint64_t{1} << 15)) == 3);
  // An L of three cells, turned and shifted: the least of its images.
  uint64_t l = 0b0011'0001;                                              // cells 0, 4, 5
  uint64_t turned = (uint64_t{0b0110} << 8) | (uint64_t{0b0100} << 12);  // cells 9, 10, 14
  CHECK(gdsl::canonicalPart(moves.grid, turned) == gdsl::canonicalPart(moves.grid, l));
  int64_t parts[gdsl::kMaxComponents];
  // Two dominoes apart (cells 0, 1 and 13, 14): worth 0, no part left.
  CHECK(gdsl::splitComponents(moves, 0b0011 | (int64_t{0b0110} << 12), parts) == 0);
  // Three of them (and cells 3, 7): one left, in the corner.
  CHECK(gdsl::splitComponents(moves, 0b1011 | (int64_t{0b1000} << 4) | (int64_t{0b0110} << 12),
                              parts) == 1);
  CHECK(parts[0] == 3);
}

namespace {

// The word-at-a-time paths (ir::CellIndex) against the per-cell walks they
// stand for, on random boards of `moves`: parts, least images, and the
// number of legal moves.
void checkIndexed(const gdsl::ir::CellMoves& moves, uint64_t full, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int k = 0; k < 2000; ++k) {
    uint64_t board = full;
    for (int thin = k % 3; thin > 0; --thin) board &= random();
    board &= random() | random();
    INFO("board " << board);
    std::vector<uint64_t> byWords, byCells;
    gdsl::forEachComponent(moves, board, [&](uint64_t part) { byWords.push_back(part); });
    gdsl::forEachComponentByCells(moves, board, [&](uint64_t part) { byCells.push_back(part); });
    REQUIRE(byWords == byCells);
    uint32_t legal = 0;
    for (uint64_t need : moves.require) legal += (board & need) == need;
    REQUIRE(gdsl::legalMoveCount(moves, board) == legal);
    for (uint64_t part : byCells) {
      REQUIRE(gdsl::canonicalPart(moves, part) == gdsl::canonicalPart(moves.grid, part));
      // Each orientation's image, and the orientations skipped (those
      // under which the part would leave the grid).
      if (moves.index.images.empty()) continue;
      std::vector<uint64_t> images(static_cast<size_t>(moves.grid.orientations), ~uint64_t{0});
      gdsl::forEachImage(moves, part,
                         [&](int k, uint64_t image) { images[static_cast<size_t>(k)] = image; });
      for (int k = 0; k < moves.grid.orientations; ++k)
        REQUIRE(images[static_cast<size_t>(k)] == gdsl::orientedImage(moves.grid, k, part));
    }
  }
}

}  // namespace

TEST_CASE("parts and least images found a word at a time match the cell by cell walks") {
  // Cram on rectangles (quarter turns laid out in other rows) and a square,
  // Node Kayles (moves of nine shapes at the edges), and a board whose
  // moves have too many shapes to index.
  for (auto [w, h] : std::vector<std::pair<int, int>>{{4, 9}, {9, 4}, {5, 7}, {6, 6}, {7, 9}}) {
    INFO(w << " x " << h);
    std::unique_ptr<gdsl::Workspace> ws;
    const gdsl::ir::Game& g = compiled(ws, testing::cramSource(w, h), "Cram");
    REQUIRE(g.cells);
    CHECK(g.cells->index.families.size() == 2);
    CHECK(g.cells->grid.orientations == 8);
    CHECK(!g.cells->index.images.empty());
    // A part of more cells than a square of the shorter side never fits
    // the grid turned a quarter, so its images are all shifts.
    CHECK(gdsl::mostCellsImagedByTables(*g.cells) == std::min(w, h) * std::min(w, h));
    checkIndexed(*g.cells, (uint64_t{1} << (w * h)) - 1, static_cast<uint64_t>(w * 10 + h));
  }
  std::vector<uint64_t> nb = testing::gridNeighbourhoods(6, 5);
  std::string kayles = "const NB = " + testing::listText(nb) +
                       "\ngame G(b) {\n"
                       "  move pick(v in 0..29) when b / 2 ** v % 2 != 0 -> G(b - (b & NB[v]))\n"
                       "}\n";
  std::unique_ptr<gdsl::Workspace> ws;
  const gdsl::ir::Game& k = compiled(ws, kayles, "G");
  REQUIRE(k.cells);
  CHECK(k.cells->index.families.size() == 9);
  checkIndexed(*k.cells, (uint64_t{1} << 30) - 1, 7);
  // Moves of 20 shapes (a domino from cell v to cell 2v + 1): no families,
  // the walk cell by cell.
  std::string shapes =
      "game G(b) {\n"
      "  move m(v in 0..19) when (b >> v) & 1 == 1 and (b >> (2 * v + 1)) & 1 == 1\n"
      "    -> G(b & ~((1 << v) | (1 << (2 * v + 1))))\n"
      "}\n";
  const gdsl::ir::Game& many = compiled(ws, shapes, "G");
  REQUIRE(many.cells);
  CHECK(many.cells->index.families.empty());
  checkIndexed(*many.cells, (uint64_t{1} << 40) - 1, 9);
  // Each move written three times: one anchor stands for three moves.
  std::string thrice =
      "game G(b) {\n"
      "  move m(k in 0..89) when (b >> (k % 30)) & 3 == 3 -> G(b & ~(3 << (k % 30)))\n"
      "}\n";
  const gdsl::ir::Game& t = compiled(ws, thrice, "G");
  REQUIRE(t.cells);
  CHECK(t.cells->index.repeatedMoves);
  checkIndexed(*t.cells, (uint64_t{1} << 31) - 1, 11);
}

TEST_CASE("the verbose report says why a game over bits is not a board that splits") {
  auto why = [](const std::string& rule) {
    std::unique_ptr<gdsl::Workspace> ws;
    const gdsl::ir::Game& g =
        compiled(ws, "const NB = [3, 7, 14, 28, 24]\ngame G(b) {\n  " + rule + "\n}\n", "G");
    CHECK_FALSE(g.cells);
    return g.notCells;
  };
  CHECK(why("move m(v in 0..4) when (b >> v) & 1 == 0 -> G(b | NB[v])") ==
        "a condition that holds when cell 0 is empty (a cell move only needs cells set) (line 3, "
        "column 27)");
  CHECK(why("move m(v in 0..4) when (b & (b >> 1) >> v) & 1 == 1 -> G(b & ~NB[v])")
            .find("`&` of two different cells in one bit") == 0);
  CHECK(why("move m(v in 0..4) when (b >> v) & 1 == 1 -> G(b ^ NB[v])")
            .find("a successor that sets cell 1 when it is empty") == 0);
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("why.game",
                 "game G(b) { move m(v in 0..4) when (b >> v) & 1 == 0 -> G(b | (1 << v)) }\n"));
  CHECK(s.grundy("G(0)") == 1);
  CHECK(s.tableReport().find("G: searched as whole boards, not split into parts: a condition "
                             "that holds when cell 0 is empty") != std::string::npos);
}

TEST_CASE("positions that are their own mirror image, against a brute force") {
  // Boards made symmetric under a half turn or a reflection: the pruning
  // search values some at once by the mirror rule (runtime/CellSearch.h),
  // which must hold only where no move meets its own image.
  for (auto size : std::vector<std::pair<int, int>>{{4, 4}, {5, 4}, {3, 6}, {5, 5}}) {
    const int w = size.first, h = size.second;  // plain names: the lambdas capture them
    INFO(w << " x " << h);
    auto cell = [&](int x, int y) { return uint64_t{1} << (y * w + x); };
    auto mirrored = [&](uint64_t b, int kind) {
      uint64_t out = 0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (b & cell(x, y))
            out |= kind == 0   ? cell(w - 1 - x, h - 1 - y)
                   : kind == 1 ? cell(w - 1 - x, y)
                               : cell(x, h - 1 - y);
      return out;
    };
    std::mt19937_64 random(static_cast<uint64_t>(w * 31 + h));
    std::vector<uint64_t> boards;
    uint64_t full = (uint64_t{1} << (w * h)) - 1;
    for (int k = 0; k < 12; ++k) {
      uint64_t b = random() & full;
      boards.push_back(b | mirrored(b, k % 3));
      boards.push_back(b & mirrored(b, k % 3));
    }
    Brute cramBrute = cram(w, h);
    Brute kayles;
    std::vector<uint64_t> nb = testing::gridNeighbourhoods(w, h);
    for (size_t v = 0; v < nb.size(); ++v) kayles.add(uint64_t{1} << v, nb[v]);
    std::string nk = "const NB = " + testing::listText(nb) + "\ngame G(b) {\n  move pick(v in 0.." +
                     std::to_string(w * h - 1) + ") when (b >> v) & 1 == 1 -> G(b & ~NB[v])\n}\n";
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("mirror.game", testing::cramSource(w, h)));
    gdsl::Session t{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(t.load("mirror.game", nk));
    for (uint64_t b : boards) {
      INFO("board " << b);
      CHECK(s.evalGrundy("Cram(" + std::to_string(b) + ")") ==
            static_cast<uint64_t>(cramBrute.value(b)));
      CHECK(t.evalGrundy("G(" + std::to_string(b) + ")") == static_cast<uint64_t>(kayles.value(b)));
    }
  }
}
