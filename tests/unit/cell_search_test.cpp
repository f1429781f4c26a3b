// The pruning search (runtime/CellSearch.h) against the full value search:
// the same values for Cram on every board up to 5 x 5, Node Kayles on grids,
// and random partly filled boards of larger grids; the winning move eval
// finds with it leads to a position of value 0; its sets of values; and
// dominated cells left out (runtime/DominatedCells.h) and parts cut at twin
// corners (runtime/TwinCorners.h) against the full search; and its caches'
// zeroed pages (runtime/ZeroedPages.h) and doubling.
#include <algorithm>
#include <atomic>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "driver/Session.h"
#include "grid_graphs.h"
#include "list_text.h"
#include "runtime/CellSearch.h"
#include "runtime/Components.h"
#include "test_scale.h"

namespace {

std::string nodeKaylesSource(int w, int h) {
  return "const NB = " + testing::listText(testing::gridNeighbourhoods(w, h)) +
         "\ngame Cram(b) {\n  move pick(v in 0.." + std::to_string(w * h - 1) +
         ") when (b >> v) & 1 == 1 -> Cram(b & ~NB[v])\n}\n";
}

// The value of `board` (the xor of its parts' partValue), by a search that
// `configure` sets up first, and the parts it expanded: for the tests of
// the search's orders, which change the parts expanded, never a value.
uint32_t valueBy(const gdsl::ir::CellMoves& moves, uint64_t board,
                 const std::function<void(gdsl::CellSearch&)>& configure, int64_t& expanded) {
  gdsl::WordMemo memo(1 << 16);
  gdsl::CellSearch search(moves, memo);
  configure(search);
  int64_t parts[gdsl::kMaxComponents];
  const int n = gdsl::splitComponents(moves, static_cast<int64_t>(board), parts);
  uint32_t x = 0;
  for (int i = 0; i < n; ++i) x ^= search.partValue(static_cast<uint64_t>(parts[i]));
  expanded = search.expanded();
  return x;
}

// For the tests of the threads: each(moves, board) for random boards of
// `cells` free cells on 6 x 6 Cram and Node Kayles (fewer boards under the
// sanitizers).
template <typename Each>
void onThreadedBoards(uint64_t seed, int cells, Each&& each) {
  std::string errors;
  std::mt19937_64 random(seed);
  for (const std::string& source : {testing::cramSource(6, 6), nodeKaylesSource(6, 6)}) {
    auto ws = gdsl::compileProgram("board.game", source, errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 36) - 1;
    for (int k = 0; k < (brute::testScale() > 1 ? 2 : 5); ++k) {
      uint64_t board = full;
      while (std::popcount(board) > cells) board &= ~(uint64_t{1} << (random() % 36));
      INFO(source << board);
      each(moves, board);
    }
  }
}

// The value of `board` by a search of `threads` threads from its first
// expansion on, every part of 8 cells or more offering its options, set up
// by `configure` first; `counted(search)` reads its counts after.
uint32_t valueOnThreads(const gdsl::ir::CellMoves& moves, uint64_t board, int threads,
                        const std::function<void(gdsl::CellSearch&)>& configure,
                        const std::function<void(const gdsl::CellSearch&)>& counted) {
  gdsl::WordMemo memo(1 << 16);
  gdsl::CellSearch search(moves, memo, 0, threads);
  search.setThreadsAfter(0);
  search.setShareCells(8);
  configure(search);
  int64_t parts[gdsl::kMaxComponents];
  const int n = gdsl::splitComponents(moves, static_cast<int64_t>(board), parts);
  uint32_t x = 0;
  for (int i = 0; i < n; ++i) x ^= search.partValue(static_cast<uint64_t>(parts[i]));
  counted(search);
  return x;
}

gdsl::StackOptions withPruning(bool prune) {
  gdsl::StackOptions options(gdsl::BackendKind::Interp);
  options.engine.pruneBoards = prune;
  return options;
}

// Compares eval's values (the pruning search) with the full search's on
// `boards` of `game`, each in a fresh session so no memo is shared; `report`,
// when given, must be in the pruned session's --verbose report every time.
void compare(const std::string& source, const std::vector<uint64_t>& boards,
             const std::string& game = "Cram", const std::string& report = "") {
  gdsl::Session full{withPruning(false)};
  REQUIRE(full.load("full.game", source));
  for (uint64_t b : boards) {
    std::string position = game + "(" + std::to_string(b) + ")";
    INFO(position);
    gdsl::Session pruned{withPruning(true)};
    REQUIRE(pruned.load("pruned.game", source));
    uint64_t want = full.evalGrundy(position);
    CHECK(pruned.evalGrundy(position) == want);
    // A board worth more than 0 has a part with a move, which was searched.
    if (want > 0)
      CHECK(pruned.tableReport().find("expanded by the pruning search") != std::string::npos);
    if (!report.empty()) CHECK(pruned.tableReport().find(report) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("the pruning search gives the full search's values: Cram on every board up to 5 x 5") {
  for (int w = 1; w <= 5; ++w)
    for (int h = std::max(w, 2); h <= 5; ++h) {
      INFO(w << " x " << h);
      uint64_t full = (uint64_t{1} << (w * h)) - 1;
      std::mt19937_64 random(static_cast<uint64_t>(w * 7 + h));
      std::vector<uint64_t> boards{full};
      for (int k = 0; k < 4; ++k) boards.push_back(random() & random() & full);
      compare(testing::cramSource(w, h), boards);
    }
}

TEST_CASE("the pruning search gives the full search's values: random boards of larger grids") {
  std::mt19937_64 random(35);
  for (auto [w, h] : std::vector<std::pair<int, int>>{{6, 6}, {5, 8}, {7, 8}}) {
    INFO(w << " x " << h);
    uint64_t full = (uint64_t{1} << (w * h)) - 1;
    std::vector<uint64_t> boards;
    // Boards about half full, the size a full search still does in a moment.
    for (int k = 0; k < 3; ++k) boards.push_back(random() & full);
    compare(testing::cramSource(w, h), boards);
    std::vector<uint64_t> sparse;
    for (int k = 0; k < 3; ++k) sparse.push_back(random() & random() & full);
    compare(nodeKaylesSource(w, h), sparse);
  }
  compare(nodeKaylesSource(4, 4), {0xffff, 0x7bde, 0x0ff0});
}

// Straight trominoes (three cells in a row or a column), a placement game
// whose moves clear three cells: a cell is dominated by a swap through the
// other two.
std::string trominoSource(int w, int h) {
  return "const W = " + std::to_string(w) + "\nconst H = " + std::to_string(h) +
         "\ngame T(b) {\n"
         "  move hor(v in 0..W * H - 1) when v % W < W - 2 and (b >> v) & 7 == 7 -> T(b & ~(7 << "
         "v))\n"
         "  move ver(v in 0..W * (H - 2) - 1) when (b >> v) & 1 == 1 and (b >> (v + W)) & 1 == 1 "
         "and (b >> (v + 2 * W)) & 1 == 1\n"
         "    -> T(b & ~((1 << v) | (1 << (v + W)) | (1 << (v + 2 * W))))\n"
         "}\n";
}

TEST_CASE("the pruning search gives one thread's values with several") {
  // A part of CellSearch::kParallelCells cells or more is valued by threads
  // that ask its options side by side (after kThreadsAfter expansions on
  // one), sharing the tables of values; one
  // thread's values are checked against the full search above. Boards of
  // 6 x 7 with six cells taken (36 left; these take a second at most), 4 x 9
  // whole.
  std::mt19937_64 random(39);
  std::vector<std::tuple<int, int, uint64_t>> boards{{4, 9, (uint64_t{1} << 36) - 1}};
  for (int k = 0; k < (brute::testScale() > 1 ? 2 : 6); ++k) {
    uint64_t board = (uint64_t{1} << 42) - 1;
    while (std::popcount(board) > 36) board &= ~(uint64_t{1} << (random() % 42));
    boards.emplace_back(6, 7, board);
  }
  int parallel = 0, narrowed = 0;
  for (auto [w, h, board] : boards) {
    if (w == 4 && brute::testScale() > 1) continue;  // (seconds under the sanitizers)
    const std::string position = "Cram(" + std::to_string(board) + ")";
    INFO(position << " on " << w << " x " << h);
    std::string answers[3];
    for (int threads = 1; threads <= 3; ++threads) {
      gdsl::StackOptions options = withPruning(true);
      options.engine.threads = threads;
      gdsl::Session s{options};
      REQUIRE(s.load("cram.game", testing::cramSource(w, h)));
      // The value, and the winning move eval finds with it.
      answers[threads - 1] = s.runJson("eval " + position + "\n");
      const bool threaded = s.tableReport().find("valued by " + std::to_string(threads) +
                                                 " threads") != std::string::npos;
      CHECK((threads == 1 ? !threaded : true));
      parallel += threaded;
    }
    CHECK(answers[1] == answers[0]);
    CHECK(answers[2] == answers[0]);
    // Whether the value is t, asked of the part alone (as eval's search for a
    // winning move asks the options of a board): its options are asked side
    // by side about the candidates left (CellSearch::narrowInParallel).
    std::string errors;
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(w, h), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    int64_t parts[gdsl::kMaxComponents];
    if (gdsl::splitComponents(moves, static_cast<int64_t>(board), parts) != 1) continue;
    const auto part = static_cast<uint64_t>(parts[0]);
    gdsl::WordMemo oneMemo(1 << 22);
    gdsl::CellSearch one(moves, oneMemo, 0, 1);
    const uint32_t value = one.partValue(part);
    for (uint32_t t : {value, value ^ 1}) {
      gdsl::WordMemo memo(1 << 22);
      gdsl::CellSearch two(moves, memo, 0, 2);
      two.setThreadsAfter(0);
      CHECK(two.partValueIs(part, t) == (t == value));
      narrowed += two.parallelParts();
    }
  }
  // The threads were at work (a part whose value the mirror rule settles,
  // or whose parts are all smaller, asks no option).
  CHECK(parallel >= (brute::testScale() > 1 ? 0 : 2));  // (4 x 9 in the Release suite)
  CHECK(narrowed >= 2);
}

TEST_CASE("dominated cells left out give the full search's values") {
  // Sparse boards have tufts (cells with one legal move), and with them
  // dominated cells; the full search never leaves a cell out.
  std::mt19937_64 random(36);
  int reducedBoards = 0;
  for (auto [w, h] : std::vector<std::pair<int, int>>{{5, 6}, {7, 5}, {4, 9}}) {
    INFO(w << " x " << h);
    const uint64_t full = (uint64_t{1} << (w * h)) - 1;
    gdsl::Session whole{withPruning(false)};
    REQUIRE(whole.load("full.game", testing::cramSource(w, h)));
    for (int k = 0; k < 12; ++k) {
      uint64_t board = random() & (random() | random()) & full;
      std::string position = "Cram(" + std::to_string(board) + ")";
      INFO(position);
      gdsl::Session pruned{withPruning(true)};
      REQUIRE(pruned.load("pruned.game", testing::cramSource(w, h)));
      CHECK(pruned.evalGrundy(position) == whole.evalGrundy(position));
      reducedBoards += pruned.tableReport().find("dominated cells left out") != std::string::npos;
    }
  }
  // The rule applied: a test that never met a dominated cell would test nothing.
  CHECK(reducedBoards >= 6);
  // Moves of three cells: the swap is a cell beside the other two.
  int reducedTromino = 0;
  gdsl::Session whole{withPruning(false)};
  REQUIRE(whole.load("full.game", trominoSource(6, 5)));
  for (int k = 0; k < 12; ++k) {
    uint64_t board = random() & (random() | random()) & ((uint64_t{1} << 30) - 1);
    std::string position = "T(" + std::to_string(board) + ")";
    INFO(position);
    gdsl::Session pruned{withPruning(true)};
    REQUIRE(pruned.load("pruned.game", trominoSource(6, 5)));
    CHECK(pruned.evalGrundy(position) == whole.evalGrundy(position));
    reducedTromino += pruned.tableReport().find("dominated cells left out") != std::string::npos;
  }
  CHECK(reducedTromino >= 1);
}

// Arc Kayles on a graph (a move takes both ends of an edge), its edges a
// constant table: a two-cell placement game off any grid.
std::string arcKaylesSource(const std::vector<std::pair<int, int>>& edges) {
  std::string list;
  for (auto [x, y] : edges)
    list += (list.empty() ? "" : ", ") + std::string("[") + std::to_string(x) + ", " +
            std::to_string(y) + "]";
  return "const E = [" + list +
         "]\ngame A(b) {\n"
         "  move e(i in 0..len(E) - 1) when (b >> E[i][0]) & 1 == 1 and (b >> E[i][1]) & 1 == 1\n"
         "    -> A(b & ~((1 << E[i][0]) | (1 << E[i][1])))\n"
         "}\n";
}

TEST_CASE("parts cut at twin corners give the full search's values") {
  std::mt19937_64 random(37);
  // Cram: partly filled boards have 2 x 2 blocks whose opposite corners have
  // no other free neighbour.
  int cutBoards = 0;
  for (auto [w, h] : std::vector<std::pair<int, int>>{{5, 6}, {6, 6}, {4, 9}}) {
    INFO(w << " x " << h);
    const uint64_t full = (uint64_t{1} << (w * h)) - 1;
    gdsl::Session whole{withPruning(false)};
    REQUIRE(whole.load("full.game", testing::cramSource(w, h)));
    for (int k = 0; k < 12; ++k) {
      uint64_t board = random() & (random() | random()) & full;
      std::string position = "Cram(" + std::to_string(board) + ")";
      INFO(position);
      gdsl::Session pruned{withPruning(true)};
      REQUIRE(pruned.load("pruned.game", testing::cramSource(w, h)));
      CHECK(pruned.evalGrundy(position) == whole.evalGrundy(position));
      cutBoards += pruned.tableReport().find("twin corners") != std::string::npos;
    }
  }
  CHECK(cutBoards >= 4);
  // Random graphs of 16 to 22 vertices with twin corners planted: a and b
  // joined to r and l and nothing else.
  int cutGraphs = 0;
  for (int g = 0; g < 16; ++g) {
    const int n = 16 + static_cast<int>(random() % 7);
    std::vector<std::vector<bool>> adjacent(n, std::vector<bool>(n, false));
    for (int x = 0; x < n; ++x)
      for (int y = x + 1; y < n; ++y) adjacent[x][y] = random() % 100 < 18;
    for (int planted = 0; planted < 3; ++planted) {
      int a = static_cast<int>(random() % n), b = static_cast<int>(random() % n),
          r = static_cast<int>(random() % n), l = static_cast<int>(random() % n);
      if (a == b || a == r || a == l || b == r || b == l || r == l) continue;
      for (int z = 0; z < n; ++z) {
        adjacent[std::min(a, z)][std::max(a, z)] = z == r || z == l;
        adjacent[std::min(b, z)][std::max(b, z)] = z == r || z == l;
      }
    }
    std::vector<std::pair<int, int>> edges;
    for (int x = 0; x < n; ++x)
      for (int y = x + 1; y < n; ++y)
        if (adjacent[x][y]) edges.emplace_back(x, y);
    if (edges.empty()) continue;
    const std::string source = arcKaylesSource(edges);
    gdsl::Session whole{withPruning(false)};
    REQUIRE(whole.load("full.game", source));
    const uint64_t all = (uint64_t{1} << n) - 1;
    for (uint64_t board : {all, all & ~(random() & random())}) {
      std::string position = "A(" + std::to_string(board) + ")";
      INFO(source << position);
      gdsl::Session pruned{withPruning(true)};
      REQUIRE(pruned.load("pruned.game", source));
      CHECK(pruned.evalGrundy(position) == whole.evalGrundy(position));
      cutGraphs += pruned.tableReport().find("twin corners") != std::string::npos;
    }
  }
  CHECK(cutGraphs >= 4);
}

TEST_CASE("eval's winning move, found by asking options whether they are worth 0") {
  gdsl::Session s{withPruning(true)};
  REQUIRE(s.load("cram.game", testing::cramSource(4, 5)));
  gdsl::Session full{withPruning(false)};
  REQUIRE(full.load("cram.game", testing::cramSource(4, 5)));
  std::mt19937_64 random(9);
  int winning = 0;
  for (int k = 0; k < 12; ++k) {
    uint64_t b = random() & 0xfffff;
    std::string json = s.runJson("eval Cram(" + std::to_string(b) + ")");
    INFO(json);
    auto at = json.find("\"move_to\":\"");
    if (full.grundy("Cram(" + std::to_string(b) + ")") == 0) {
      CHECK(at == std::string::npos);
      continue;
    }
    REQUIRE(at != std::string::npos);
    size_t from = at + 11;
    std::string to = json.substr(from, json.find('"', from) - from);
    CHECK(full.grundy(to) == 0);
    ++winning;
  }
  CHECK(winning > 0);
}

TEST_CASE("the pruning search's sets of values") {
  using Values = gdsl::CellSearch::Values;
  Values s = Values::upTo(70);
  CHECK(s.has(0));
  CHECK(s.has(70));
  CHECK_FALSE(s.has(71));
  CHECK(s.largest() == 70);
  CHECK(s.smallest() == 0);
  s.erase(0);
  CHECK(s.smallest() == 1);
  Values low = s.atMost(3);
  CHECK(low.has(1));
  CHECK(low.has(3));
  CHECK_FALSE(low.has(4));
  Values x = low.xored(5);  // {1, 2, 3} ^ 5 = {4, 7, 6}
  CHECK(x.has(4));
  CHECK(x.has(6));
  CHECK(x.has(7));
  CHECK_FALSE(x.has(1));
  CHECK(x.smallest() == 4);
  CHECK(x.largest() == 7);
  CHECK(Values::only(200).xored(255).has(55));
  CHECK(Values::only(3).xored(256).empty());
  CHECK(Values::upTo(255).largest() == 255);
  CHECK_FALSE(Values::only(9).meets(Values::upTo(8)));
  CHECK(Values::only(8).meets(Values::upTo(8)));
  CHECK(Values::only(300).empty());
}

TEST_CASE("a full memo does not stop the pruning search: it recomputes what it replaced") {
  gdsl::StackOptions small = withPruning(true);
  small.engine.maxStates = 40;
  for (auto [w, h] : std::vector<std::pair<int, int>>{{4, 5}, {3, 7}, {5, 5}}) {
    std::string position = "Cram(" + std::to_string((uint64_t{1} << (w * h)) - 1) + ")";
    gdsl::Session full{withPruning(false)};
    REQUIRE(full.load("cram.game", testing::cramSource(w, h)));
    gdsl::Session bounded{small};
    REQUIRE(bounded.load("cram.game", testing::cramSource(w, h)));
    CHECK(bounded.evalGrundy(position) == full.evalGrundy(position));
    // The table of words holds at most 40 positions, and the full search
    // needed more.
    CHECK(bounded.tableReport().find("gdsl: Cram: 40 positions") != std::string::npos);
    CHECK(full.tableReport().find("gdsl: Cram: 40 positions") == std::string::npos);
    // The rest went to a replacement table of at most 40 positions (32
    // entries of 8 bytes), over and over.
    CHECK(bounded.tableReport().find("to a replacement table of 0.0 MiB") != std::string::npos);
  }
}

TEST_CASE("the pruning search keeps its memo within a quarter of --max-memory") {
  // 64 KiB of memory: the memo may double while it stays within 16 KiB,
  // the replacement table takes 8 KiB; the values are the full search's.
  gdsl::StackOptions small = withPruning(true);
  small.engine.maxMemory = 64 << 10;
  std::mt19937_64 random(55);
  for (auto [w, h] : std::vector<std::pair<int, int>>{{4, 7}, {5, 6}}) {
    INFO(w << " x " << h);
    uint64_t full = (uint64_t{1} << (w * h)) - 1;
    std::vector<uint64_t> boards{full};
    for (int k = 0; k < 3; ++k) boards.push_back(random() & (random() | random()) & full);
    for (uint64_t b : boards) {
      std::string position = "Cram(" + std::to_string(b) + ")";
      INFO(position);
      gdsl::Session unbounded{withPruning(true)};
      REQUIRE(unbounded.load("cram.game", testing::cramSource(w, h)));
      gdsl::Session bounded{small};
      REQUIRE(bounded.load("cram.game", testing::cramSource(w, h)));
      CHECK(bounded.evalGrundy(position) == unbounded.evalGrundy(position));
      if (b == full) {
        std::string report = bounded.tableReport();
        INFO(report);
        CHECK(report.find("to a replacement table of 0.0 MiB") != std::string::npos);
        // The memo: at most 16 KiB (2048 slots of 8 bytes).
        auto at = report.find("slots of 8 bytes");
        REQUIRE(at != std::string::npos);
        auto open = report.rfind('(', at);
        CHECK(std::stoull(report.substr(open + 1)) <= 2048);
      }
    }
  }
}

TEST_CASE("published Cram values, from the plain rules") {
  // The nimbers of empty Cram boards as Beling publishes them (the README of
  // github.com/beling/impartial-games, confirming Lemoine and Viennot's and
  // Schneider's): even by even boards are 0 by the symmetry strategy, which the
  // pruning search finds as its mirror rule even on 6 x 10 (60 cells).
  struct Board {
    int w, h;
    uint64_t value;
    bool slow;  // seconds in a release build: left out under sanitizers
  };
  const std::vector<Board> boards = {
      {4, 4, 0, false}, {5, 4, 2, false},  {6, 4, 0, false},  {7, 4, 3, false}, {8, 4, 0, false},
      {9, 4, 1, true},  {12, 4, 0, false}, {5, 5, 0, false},  {6, 5, 2, false}, {7, 5, 1, true},
      {6, 6, 0, false}, {8, 6, 0, false},  {10, 6, 0, false},
  };
  for (const Board& b : boards) {
    if (b.slow && brute::testScale() > 1) continue;
    INFO(b.w << " x " << b.h);
    gdsl::Session s{gdsl::StackOptions()};
    REQUIRE(s.load("cram.game", testing::cramSource(b.w, b.h)));
    const std::string full = "Cram(" + std::to_string((uint64_t{1} << (b.w * b.h)) - 1) + ")";
    CHECK(s.evalGrundy(full) == b.value);
    // assert values a board as eval does (by the pruning search: the full
    // search takes ten times as long on 5 x 6), and a wrong value fails.
    gdsl::Session a{gdsl::StackOptions()};
    REQUIRE(a.load("cram.game", testing::cramSource(b.w, b.h)));
    const std::string out =
        a.runJson("assert " + full + " == *" + std::to_string(b.value) + "\n" + "assert " + full +
                  " == *" + std::to_string(b.value + 1) + "\n");
    CHECK(out.rfind("{\"kind\":\"assert\",\"ok\":true}\n{\"kind\":\"assert\",\"ok\":false}\n", 0) ==
          0);
    const std::string value = b.value == 0 ? "0" : "*" + std::to_string(b.value);
    CHECK(out.find("has value " + value + ", not *" + std::to_string(b.value + 1)) !=
          std::string::npos);
    if (b.value > 0)
      CHECK(a.tableReport().find("expanded by the pruning search") != std::string::npos);
  }
}

TEST_CASE("a part with more than 255 moves is valued by the plain mex") {
  // Each of the 10 moves on a ring of cells written 30 times over: a full
  // ring has 300 legal moves, past the pruning search's sets of values.
  const std::string source =
      "game G(b) {\n"
      "  move m(k in 0..299) when (b >> (k % 10)) & 1 == 1\n"
      "    -> G(b & ~(1 << (k % 10)) & ~(1 << ((k % 10 + 1) % 10)))\n"
      "}\n";
  compare(source, {1023, 1019, 0x2b7, 0x3f0}, "G");
  // A placement game the same way: a ring with two cells hanging on cell 0,
  // each edge written 30 times (360 moves). Dominated cells are left out
  // before the count of moves is taken, so the pieces are past 255 too.
  const std::string placement =
      "const E = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9], [9, 0], "
      "[0, 10], [0, 11]]\n"
      "game G(b) {\n"
      "  move m(k in 0..359) when (b >> E[k % 12][0]) & 1 == 1 and (b >> E[k % 12][1]) & 1 == 1\n"
      "    -> G(b & ~((1 << E[k % 12][0]) | (1 << E[k % 12][1])))\n"
      "}\n";
  compare(placement, {4095, 4094, 3071, 4087}, "G", "dominated cells left out");
}

// The mirror rule's filter (CellSearch::mayMirror) never turns away a part
// that is its own image under a reflection or half turn of the board, and
// turns away most parts that are not: every part of the board checked
// against the images computed here from coordinates.
TEST_CASE("the mirror rule's filter keeps every part that is its own mirror image") {
  for (auto [width, height] : std::vector<std::pair<int, int>>{{4, 4}, {5, 6}, {3, 7}}) {
    const int w = width, h = height;  // (clang 14's lambdas cannot capture a binding)
    std::string errors;
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(w, h), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    REQUIRE(moves.grid.orientations == 8);
    gdsl::WordMemo memo(1000);
    gdsl::CellSearch search(moves, memo);
    // The part turned by orientation k (bit 0 swaps the axes, bit 1 negates
    // x, bit 2 y), shifted to the corner, as a set of (x, y); and the part
    // itself so.
    auto turned = [&](uint64_t part, int k) {
      std::vector<std::pair<int, int>> points;
      for (int c = 0; c < w * h; ++c)
        if ((part >> c) & 1) {
          int x = c % w, y = c / w;
          if (k & 1) std::swap(x, y);
          if (k & 2) x = -x;
          if (k & 4) y = -y;
          points.emplace_back(x, y);
        }
      int minX = 1000, minY = 1000;
      for (auto [x, y] : points) minX = std::min(minX, x), minY = std::min(minY, y);
      for (auto& [x, y] : points) x -= minX, y -= minY;
      std::sort(points.begin(), points.end());
      return points;
    };
    auto ownMirror = [&](uint64_t part) {
      for (int k : {1, 2, 4, 6, 7})  // not the quarter turns, 3 and 5
        if (turned(part, k) == turned(part, 0)) return true;
      return false;
    };
    std::mt19937_64 rng(static_cast<uint64_t>(w * 100 + h));
    const uint64_t board = (uint64_t{1} << (w * h)) - 1;
    int mirrors = 0, others = 0, othersKept = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      uint64_t part = rng() & rng() & board;
      // Half the parts made symmetric: the part with its own image under a
      // reflection or half turn that keeps the board (transposes on squares).
      if (trial % 2 == 0) {
        const int k =
            std::vector<int>{2, 4, 6, 1, 7}[static_cast<size_t>(trial / 2 % (w == h ? 5 : 3))];
        uint64_t image = 0;
        for (int c = 0; c < w * h; ++c)
          if ((part >> c) & 1) {
            int x = c % w, y = c / w;
            if (k & 1) std::swap(x, y);
            if (k & 2) x = w - 1 - x;
            if (k & 4) y = h - 1 - y;
            image |= uint64_t{1} << (y * w + x);
          }
        part |= image;
      }
      if (part == 0) continue;
      INFO(w << " x " << h << ", part " << part);
      if (ownMirror(part)) {
        ++mirrors;
        CHECK(search.mayMirror(part));
      } else {
        ++others;
        othersKept += search.mayMirror(part);
      }
    }
    CHECK(mirrors > 5000);
    // It turns most of the others away (on random parts of these small
    // boards 60 to 80% of them; end rows of equal counts are common).
    CHECK(othersKept * 2 < others);
  }
}

TEST_CASE("the search's caches: zeroed pages, and entries kept as a cache doubles") {
  for (size_t bytes : {size_t{1}, size_t{5000}, size_t{3} << 20}) {
    gdsl::ZeroedPages pages(bytes, bytes > 1);
    REQUIRE(pages.bytes() >= bytes);
    CHECK(pages.bytes() % 4096 == 0);
    const auto* p = static_cast<const unsigned char*>(pages.data());
    CHECK(std::all_of(p, p + pages.bytes(), [](unsigned char c) { return c == 0; }));
    // A block of 2 MiB or more starts on a huge page's boundary.
    if (bytes >= (size_t{2} << 20))
      CHECK(reinterpret_cast<uintptr_t>(p) % (uintptr_t{2} << 20) == 0);
    std::memset(pages.data(), 0xab, pages.bytes());
    gdsl::ZeroedPages moved = std::move(pages);
    CHECK(pages.empty());
    CHECK(static_cast<const unsigned char*>(moved.data())[moved.bytes() - 1] == 0xab);
  }
  struct Entry {
    uint64_t part = 0, value = 0;
  };
  // Direct-mapped: a doubled table keeps what has a slot of its own; with
  // 2^12 slots and 1000 parts, most do, and every part found is right.
  gdsl::DirectMapped<Entry, 0x9E3779B97F4A7C15ull> direct(12, 14);
  for (uint64_t part = 1; part <= 1000; ++part) direct.slot(part) = {part, part * 7};
  direct.grow();
  direct.grow();
  direct.grow();  // (past maxBits: no change)
  int kept = 0;
  for (uint64_t part = 1; part <= 1000; ++part) {
    const Entry& e = direct.slot(part);
    if (e.part != part) continue;
    CHECK(e.value == part * 7);
    ++kept;
  }
  CHECK(kept > 800);
  // Shared buckets of two: 1000 parts (scattered, as a board's parts are)
  // in 2^12 slots nearly all fit in their buckets; resized to twice the
  // slots, every one is still found, with its data.
  gdsl::SharedBuckets buckets(12);
  std::mt19937_64 random(35);
  std::vector<uint64_t> parts(1000);
  for (uint64_t& part : parts) part = random() | 1;
  for (uint64_t part : parts) buckets.put(part, part % 251);
  int found = 0;
  uint64_t data = 0;
  for (uint64_t part : parts) found += buckets.find(part, data) && data == part % 251;
  buckets.resize(13);
  int foundAfter = 0;
  for (uint64_t part : parts)
    if (buckets.find(part, data)) {
      CHECK(data == part % 251);
      ++foundAfter;
    }
  CHECK(foundAfter == found);
  CHECK(found > 950);
  // A part written again keeps one entry, with its new data; an empty slot
  // reads as part 0, which no search asks about; a part never written is
  // not found.
  buckets.put(parts[0], 7);
  CHECK((buckets.find(parts[0], data) && data == 7));
  CHECK_FALSE(buckets.find(parts[0] + 2, data));
}

TEST_CASE("the table of exact values: one word per entry gives each part back exactly") {
  // 1000 scattered parts in 2^12 entries (buckets of four): nearly all
  // kept, each with its value; resized to twice the entries, every one
  // kept is still found.
  gdsl::ValueTable table(12);
  CHECK(table.bytes() == (size_t{8} << 12));
  std::mt19937_64 random(36);
  std::vector<uint64_t> parts(1000);
  for (uint64_t& part : parts) part = (random() >> 1) | 1;
  for (uint64_t part : parts) table.put(part, static_cast<uint32_t>(part % 251));
  int found = 0;
  uint32_t value = 0;
  for (uint64_t part : parts) found += table.find(part, value) && value == part % 251;
  CHECK(found > 950);
  table.resize(13);
  int foundAfter = 0;
  for (uint64_t part : parts)
    if (table.find(part, value)) {
      CHECK(value == part % 251);
      ++foundAfter;
    }
  CHECK(foundAfter == found);
  // Written again, a part keeps one entry with its new value; value 0 is
  // a value (not an empty entry); a part never written is not found.
  table.put(parts[0], 0);
  CHECK((table.find(parts[0], value) && value == 0));
  CHECK_FALSE(table.find(parts[0] + 2, value));
  // The fewest cells make room: in 8 entries (two buckets), a part of 40
  // cells stays through 1000 parts of two cells written after it.
  gdsl::ValueTable tiny(3);
  const uint64_t large = (uint64_t{1} << 40) - 1;
  tiny.put(large, 0);
  for (int k = 0; k < 1000; ++k) {
    const uint64_t a = random() % 62, b = a + 1 + random() % (62 - a);
    tiny.put((uint64_t{1} << a) | (uint64_t{1} << b), 0);
  }
  CHECK((tiny.find(large, value) && value == 0));
  // A value too large for its entry is not kept (2^3 entries: value 0
  // only), and a larger table keeps it.
  tiny.put(large << 1, 1);
  CHECK_FALSE(tiny.find(large << 1, value));
  gdsl::ValueTable small(10);
  small.put(large << 1, 254);
  CHECK((small.find(large << 1, value) && value == 254));
}

namespace {

// Two threads write parts 1..64 of `table` at once (a table of 16 entries:
// they collide all the time), each part with data dataOf(part); a third
// reads. Whatever the interleaving, a part read is found with the data
// written for it, or not found; returns how many reads found their part
// (and fails a check on any other data).
template <typename Data, typename Table, typename DataOf>
int64_t readsUnderTwoWriters(Table& table, DataOf dataOf) {
  std::atomic<bool> done{false};
  std::atomic<int64_t> wrong{0}, hits{0};
  auto writer = [&](uint64_t seed) {
    std::mt19937_64 random(seed);
    for (int i = 0; i < 200000; ++i) {
      uint64_t part = (random() % 64) + 1;
      table.put(part, dataOf(part));
    }
  };
  std::thread reader([&] {
    Data data = 0;
    while (!done.load())
      for (uint64_t part = 1; part <= 64; ++part)
        if (table.find(part, data)) {
          ++hits;
          if (data != dataOf(part)) ++wrong;
        }
  });
  std::thread a(writer, 1), b(writer, 2);
  a.join();
  b.join();
  done = true;
  reader.join();
  CHECK(wrong.load() == 0);
  return hits.load();
}

}  // namespace

TEST_CASE("the shared tables under two threads: an entry half written is never another part's") {
  gdsl::SharedBuckets buckets(4);  // 16 slots
  CHECK(readsUnderTwoWriters<uint64_t>(buckets, [](uint64_t part) { return part * 3 % 255; }) > 0);
}

TEST_CASE("the table of exact values under two threads: a part read has its own value") {
  gdsl::ValueTable table(4);  // 16 entries, which keep values below 3
  CHECK(readsUnderTwoWriters<uint32_t>(
            table, [](uint64_t part) { return static_cast<uint32_t>(part % 3); }) > 0);
}

TEST_CASE("the pruning search reports the root's question as its progress") {
  // Cram 5 x 6 (value 2; some 50,000 parts expanded). Through the engine
  // (a report every CellSearch::kProgressEvery parts this thread expands):
  // the reports name the game, and the question ends with one `finished`,
  // which clears the bar (driver/Progress.h).
  struct Report {
    std::string what;
    int64_t done;
    bool finished;
  };
  std::vector<Report> reports;
  gdsl::ProgressFn record = [&](const std::string& what, const char* unit, int64_t done,
                                int64_t target, bool finished, double) {
    CHECK(std::string(unit) == "parts");
    CHECK(target == -1);
    reports.push_back({what, done, finished});
  };
  gdsl::StackOptions options = withPruning(true);
  options.engine.threads = 1;
  options.engine.progress = record;
  gdsl::Session s{options};
  REQUIRE(s.load("cram.game", testing::cramSource(5, 6)));
  const uint64_t board = (uint64_t{1} << 30) - 1;
  CHECK(s.evalGrundy("Cram(" + std::to_string(board) + ")") == 2);
  REQUIRE(reports.size() >= 2);
  CHECK(reports.back().finished);
  for (const Report& r : reports) {
    CHECK(r.what.rfind("Cram", 0) == 0);
    if (!r.finished) CHECK(r.done % gdsl::CellSearch::kProgressEvery == 0);
  }
  // The search alone, a report every 1024 parts: the root is asked whether
  // its value is 1, then 2 (the value), in that order, option by option on
  // one thread, and by two threads at once.
  std::string errors;
  auto ws = gdsl::compileProgram("cram.game", testing::cramSource(5, 6), errors);
  REQUIRE(ws);
  const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
  int64_t parts[gdsl::kMaxComponents];
  REQUIRE(gdsl::splitComponents(moves, static_cast<int64_t>(board), parts) == 1);
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    reports.clear();
    gdsl::WordMemo memo(1 << 22);
    gdsl::CellSearch search(moves, memo, 0, threads);
    search.setThreadsAfter(0);
    search.setProgress(record, "Cram");
    search.setProgressEvery(1024);
    CHECK(search.partValue(static_cast<uint64_t>(parts[0])) == 2);
    std::vector<int> values;
    int64_t lastDone = 0;
    for (const Report& r : reports) {
      INFO(r.what << " at " << r.done);
      REQUIRE_FALSE(r.finished);  // (the engine ends the reports)
      CHECK(r.done > lastDone);
      lastDone = r.done;
      const size_t at = r.what.find(": is the value ");
      if (at == std::string::npos) continue;
      const int value = std::stoi(r.what.substr(at + 15));
      if (values.empty() || values.back() != value) values.push_back(value);
      CHECK(r.what.find(threads == 1 ? "? option " : " options left, 2 threads") !=
            std::string::npos);
    }
    // (The question "0?" is answered within the first 1024 parts.)
    CHECK(values == std::vector<int>{1, 2});
  }
}

// How far one move more cuts a position (CellSearch::cutByOneMove: the
// root's values past 0 are asked first of the options it cuts furthest), on
// Cram 4 x 13, cell (x, y) bit 4 * y + x, each value worked out by hand.
TEST_CASE("how far one move more cuts an option of the root") {
  std::string errors;
  auto ws = gdsl::compileProgram("cram.game", testing::cramSource(4, 13), errors);
  REQUIRE(ws);
  const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
  gdsl::WordMemo memo(1 << 16);
  gdsl::CellSearch search(moves, memo);
  const uint64_t board = (uint64_t{1} << 52) - 1;
  auto without = [&](std::initializer_list<std::pair<int, int>> cells) {
    uint64_t b = board;
    for (auto [x, y] : cells) b &= ~(uint64_t{1} << (4 * y + x));
    return b;
  };
  // The middle row's left half taken: its right half leaves two equal
  // halves, which cancel.
  uint64_t option = without({{0, 6}, {1, 6}});
  CHECK(search.cutByOneMove(&option, 1) == 0);
  // Row 5's left half taken: the best cut is a step, (2, 6) and (3, 6),
  // which leaves 22 cells above it (rows 0 to 4, and row 5's right half)
  // and 26 below (row 6's left half, rows 7 to 12).
  option = without({{0, 5}, {1, 5}});
  CHECK(search.cutByOneMove(&option, 1) == 26);
  // Row 4's right half: the left half then leaves 16 cells above and 32
  // below, and the step down to row 5 leaves 18 and 30.
  option = without({{2, 4}, {3, 4}});
  CHECK(search.cutByOneMove(&option, 1) == 30);
  // A corner taken: one move more cuts off at most 2 cells, fewer than
  // kCutOff, so it does not count: all 50 cells.
  option = without({{0, 0}, {1, 0}});
  CHECK(search.cutByOneMove(&option, 1) == 50);
  // Two parts: rows 0 and 1 (8 cells), and rows 3 to 12 without row 7's
  // left half (38 cells). The step (2, 8), (3, 8) cuts the largest into two
  // halves of 18 cells, images of each other under a half turn, which
  // cancel: the other part, 8 cells, is left. (Row 7's right half would
  // leave 16 and 20.)
  uint64_t two[2] = {0xff, board & ~uint64_t{0xfff} & without({{0, 7}, {1, 7}})};
  CHECK(search.cutByOneMove(two, 2) == 8);
  // A whole rectangle of 4 x 10 cannot be cut by one domino (a corner cell
  // is the most it cuts off; the other part's cells do not count as cut
  // off): all 48 cells.
  two[1] = board & ~uint64_t{0xfff};
  CHECK(search.cutByOneMove(two, 2) == 48);
}

TEST_CASE("parts near the root ask first the options one move more cuts furthest") {
  // Large parts within CellSearch::kCutOrderCells cells of the outermost
  // part ask their options in the order of cutByOneMove; the others by
  // cost. The order changes which parts are expanded, never a value.
  auto value = [](const gdsl::ir::CellMoves& moves, uint64_t board, int cells, int minCells,
                  int64_t& expanded) {
    return valueBy(
        moves, board,
        [&](gdsl::CellSearch& search) {
          search.setCutOrder(cells, minCells);
          search.setWantedFirst(65);  // (off: the orders alone compared)
        },
        expanded);
  };
  std::string errors;
  SECTION("random boards: the same values with the order nowhere, near the root, everywhere") {
    // (No least size, so that parts of these small boards are ordered.)
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(6, 5), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 30) - 1;
    std::mt19937_64 random(29);
    std::vector<uint64_t> boards{full};
    for (int k = 0; k < 6; ++k) boards.push_back(random() & (random() | random()) & full);
    for (uint64_t b : boards) {
      INFO(b);
      int64_t byCost = 0, nearRoot = 0, everywhere = 0;
      const uint32_t want = value(moves, b, -1, 0, byCost);
      CHECK(value(moves, b, gdsl::CellSearch::kCutOrderCells, 0, nearRoot) == want);
      CHECK(value(moves, b, 64, 0, everywhere) == want);
      if (b == full) CHECK(want == 2);  // published (Beling; Lemoine and Viennot)
    }
  }
  SECTION("Cram 4 x 9 by default: its published value, and fewer parts expanded") {
    // One thread, so the counts are the same every run (261,903 parts
    // against 279,609 when this was written).
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(4, 9), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 36) - 1;
    int64_t byCost = 0, byDefault = 0;
    CHECK(value(moves, full, -1, 0, byCost) == 1);
    CHECK(value(moves, full, gdsl::CellSearch::kCutOrderCells, gdsl::CellSearch::kCutOrderMinCells,
                byDefault) == 1);
    CHECK(byDefault < byCost);
  }
}

namespace {

// Calls check(moves, board) on the full 6 x 5 board and six random boards
// partly filled (drawn from `seed`), in Cram and in Node Kayles.
void onSmallBoards(uint64_t seed,
                   const std::function<void(const gdsl::ir::CellMoves&, uint64_t)>& check) {
  std::string errors;
  for (const std::string& source : {testing::cramSource(6, 5), nodeKaylesSource(6, 5)}) {
    auto ws = gdsl::compileProgram("board.game", source, errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 30) - 1;
    std::mt19937_64 random(seed);
    std::vector<uint64_t> boards{full};
    for (int k = 0; k < 6; ++k) boards.push_back(random() & (random() | random()) & full);
    for (uint64_t b : boards) {
      INFO(source << b);
      check(moves, b);
    }
  }
}

}  // namespace

TEST_CASE("the moves that last settled a question are tried first, and change nothing else") {
  // collectOptions tries first the moves that last settled a question about
  // a part of as many cells at once. The options it collects, and their
  // order, are the same: so are the values and the parts expanded. (Not
  // with the options' values ruled out: a question settled sooner has fewer
  // known options' values to rule out, so that rule is off here.)
  auto value = [](const gdsl::ir::CellMoves& moves, uint64_t board, bool settlersFirst,
                  int64_t& expanded) {
    return valueBy(
        moves, board,
        [&](gdsl::CellSearch& search) {
          search.setSettlersFirst(settlersFirst);
          search.setOptionValuesRuledOut(false);
        },
        expanded);
  };
  onSmallBoards(41, [&](const gdsl::ir::CellMoves& moves, uint64_t b) {
    int64_t inOrder = 0, settlersFirst = 0;
    CHECK(value(moves, b, true, settlersFirst) == value(moves, b, false, inOrder));
    CHECK(settlersFirst == inOrder);
  });
}

TEST_CASE("a part that answers \"not in the set\" has its options' values ruled out too") {
  // A part is none of its options' values: those found exactly are ruled
  // out with the set asked about, so a later question about one of them is
  // answered at once. Values are the same with and without; fewer parts are
  // expanded with.
  auto value = [](const gdsl::ir::CellMoves& moves, uint64_t board, bool optionValues,
                  int64_t& expanded) {
    return valueBy(
        moves, board,
        [&](gdsl::CellSearch& search) { search.setOptionValuesRuledOut(optionValues); }, expanded);
  };
  onSmallBoards(43, [&](const gdsl::ir::CellMoves& moves, uint64_t b) {
    int64_t with = 0, without = 0;
    CHECK(value(moves, b, true, with) == value(moves, b, false, without));
  });
  // One thread, so the counts are the same every run (259,335 parts against
  // 285,245 when this was written).
  std::string errors;
  auto ws = gdsl::compileProgram("cram.game", testing::cramSource(4, 9), errors);
  REQUIRE(ws);
  const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
  const uint64_t full = (uint64_t{1} << 36) - 1;
  int64_t with = 0, without = 0;
  CHECK(value(moves, full, true, with) == 1);  // published (Beling; Lemoine and Viennot)
  CHECK(value(moves, full, false, without) == 1);
  CHECK(with < without);
}

TEST_CASE("a large part asked about one value asks its options about that value first") {
  // Parts of at least CellSearch::kWantedFirstCells cells asked whether
  // their value is v ask each option first whether it is worth v, then the
  // rest about the other candidates. The order of the questions changes
  // which parts are expanded, never a value.
  auto value = [](const gdsl::ir::CellMoves& moves, uint64_t board, int wantedFirstCells,
                  int64_t& expanded) {
    return valueBy(
        moves, board, [&](gdsl::CellSearch& search) { search.setWantedFirst(wantedFirstCells); },
        expanded);
  };
  std::string errors;
  SECTION("random boards: the same values with the value first nowhere, by default, everywhere") {
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(6, 5), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 30) - 1;
    std::mt19937_64 random(31);
    std::vector<uint64_t> boards{full};
    for (int k = 0; k < 8; ++k) boards.push_back(random() & (random() | random()) & full);
    for (uint64_t b : boards) {
      INFO(b);
      int64_t nowhere = 0, byDefault = 0, everywhere = 0;
      const uint32_t want = value(moves, b, 65, nowhere);
      CHECK(value(moves, b, gdsl::CellSearch::kWantedFirstCells, byDefault) == want);
      CHECK(value(moves, b, 0, everywhere) == want);
      if (b == full) CHECK(want == 2);  // published (Beling; Lemoine and Viennot)
    }
  }
  SECTION("random Node Kayles boards: the same values, every part asking the value first") {
    auto ws = gdsl::compileProgram("nk.game", nodeKaylesSource(6, 6), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 36) - 1;
    std::mt19937_64 random(37);
    for (int k = 0; k < 8; ++k) {
      const uint64_t b = random() & (random() | random()) & full;
      INFO(b);
      int64_t nowhere = 0, everywhere = 0;
      CHECK(value(moves, b, 0, everywhere) == value(moves, b, 65, nowhere));
    }
  }
  SECTION("Cram 4 x 9 by default: its published value, and fewer parts expanded") {
    // One thread, so the counts are the same every run (205,552 parts
    // against 261,903 when this was written).
    auto ws = gdsl::compileProgram("cram.game", testing::cramSource(4, 9), errors);
    REQUIRE(ws);
    const gdsl::ir::CellMoves& moves = *ws->program().games[0].cells;
    const uint64_t full = (uint64_t{1} << 36) - 1;
    int64_t nowhere = 0, byDefault = 0;
    CHECK(value(moves, full, 65, nowhere) == 1);
    CHECK(value(moves, full, gdsl::CellSearch::kWantedFirstCells, byDefault) == 1);
    CHECK(byDefault < nowhere);
  }
}

TEST_CASE(
    "options known to be worth none of the values below are asked first, and change no value") {
  // In the first loop of a part asked about one value, the options known
  // not to be worth any value below theirs (at least
  // CellSearch::kLikelyBelow of them) are asked first. Here every part asks
  // its options about the value first, so the loop runs everywhere: the
  // values are the same with the order and without, and the order changes
  // which parts are expanded somewhere (else it was never used).
  auto order = [](bool likelyFirst) {
    return [likelyFirst](gdsl::CellSearch& search) {
      search.setWantedFirst(0);
      search.setLikelyFirst(likelyFirst);
    };
  };
  auto value = [&](const gdsl::ir::CellMoves& moves, uint64_t board, bool likelyFirst,
                   int64_t& expanded) {
    return valueBy(moves, board, order(likelyFirst), expanded);
  };
  bool reordered = false;
  onSmallBoards(53, [&](const gdsl::ir::CellMoves& moves, uint64_t b) {
    int64_t with = 0, without = 0;
    CHECK(value(moves, b, true, with) == value(moves, b, false, without));
    reordered = reordered || with != without;
  });
  CHECK(reordered);
  onThreadedBoards(59, 32, [&](const gdsl::ir::CellMoves& moves, uint64_t board) {
    int64_t expanded = 0;
    const uint32_t want = value(moves, board, false, expanded);
    CHECK(valueOnThreads(moves, board, 2, order(true), [](const gdsl::CellSearch&) {}) == want);
  });
}

TEST_CASE("idle threads help with the options a busy thread offers, and change no value") {
  // A thread with no option of the root's question left joins the options
  // another offers at a large part (CellSearch::shareOptions). Here every
  // part of 8 cells or more may offer, so offers are many; the values are
  // one thread's, with the value asked first nowhere and everywhere (the
  // offers of valueInSearched's two loops).
  int64_t offered = 0;
  onThreadedBoards(43, 32, [&](const gdsl::ir::CellMoves& moves, uint64_t board) {
    for (int wantedFirst : {65, 0}) {
      INFO("wanted first from " << wantedFirst);
      auto wantedFirstFrom = [&](gdsl::CellSearch& s) { s.setWantedFirst(wantedFirst); };
      int64_t expanded = 0;
      const uint32_t want = valueBy(moves, board, wantedFirstFrom, expanded);
      for (int threads : {2, 3})
        CHECK(valueOnThreads(moves, board, threads, wantedFirstFrom,
                             [&](const gdsl::CellSearch& s) { offered += s.offered(); }) == want);
    }
  });
  CHECK(offered > 0);
}

TEST_CASE("a thread puts its long option of the root's question back to help another's") {
  // Each option of the root's question is a thread's task; a task that has
  // taken CellSearch::kFocusAfter expansions while another thread's has
  // taken as many is put back, and its thread helps the other until that
  // one's answer, then takes it again (CellSearch::inParallel). Here every
  // task is long after its first poll, so tasks are put back often; the
  // values are one thread's.
  int64_t putBack = 0;
  onThreadedBoards(47, 33, [&](const gdsl::ir::CellMoves& moves, uint64_t board) {
    int64_t expanded = 0;
    const uint32_t want = valueBy(
        moves, board, [](gdsl::CellSearch&) {}, expanded);
    for (int threads : {2, 3})
      CHECK(valueOnThreads(
                moves, board, threads, [](gdsl::CellSearch& s) { s.setFocusAfter(1); },
                [&](const gdsl::CellSearch& s) { putBack += s.putBack(); }) == want);
  });
  CHECK(putBack > 0);
}
