// Boards with parameters fixed within a search (ir::Game::boardParam,
// `G(w, h, b)`): the moves found for each set of fixed values
// (ir::findCellMoves) give, through the pruning search, the values of a brute
// force over the bitmask and of the same game with the sizes in constants,
// in eval and in every other statement; on both backends; two sizes in one
// sum; and a game whose moves with fixed values are not cell moves is
// searched whole, with the reason in --verbose.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "grid_graphs.h"
#include "test_backends.h"

namespace {

// Cram with the board's size as parameters, written as a user would.
const char* kCramSized =
    "game Cram(w, h, b) {\n"
    "  move hor(v in 0..w * h - 1) when v % w < w - 1 and (b >> v) & 3 == 3\n"
    "    -> Cram(w, h, b & ~(3 << v))\n"
    "  move ver(v in 0..w * (h - 1) - 1) when (b >> v) & 1 == 1 and (b >> (v + w)) & 1 == 1\n"
    "    -> Cram(w, h, b & ~((1 << v) | (1 << (v + w))))\n"
    "}\n";

// Cram by brute force: the mex over every domino on two free cells.
struct CramBrute {
  int w, h;
  std::unordered_map<uint64_t, brute::Value> memo;
  brute::Value value(uint64_t b) {
    if (auto it = memo.find(b); it != memo.end()) return it->second;
    std::vector<brute::Value> options;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint64_t c = uint64_t{1} << (y * w + x);
        if (x + 1 < w && (b & (c | c << 1)) == (c | c << 1))
          options.push_back(value(b & ~(c | c << 1)));
        if (y + 1 < h && (b & (c | c << w)) == (c | c << w))
          options.push_back(value(b & ~(c | c << w)));
      }
    return memo[b] = brute::mex(options);
  }
};

std::string cram(int w, int h, uint64_t b) {
  return "Cram(" + std::to_string(w) + ", " + std::to_string(h) + ", " + std::to_string(b) + ")";
}

}  // namespace

TEST_CASE("a board whose size is a parameter gets the values of a brute force") {
  std::mt19937_64 random(100);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("sized.game", kCramSized));
    for (auto [w, h] :
         std::vector<std::pair<int, int>>{{1, 5}, {2, 3}, {3, 3}, {4, 3}, {3, 5}, {4, 4}}) {
      CramBrute brute{w, h, {}};
      uint64_t full = (uint64_t{1} << (w * h)) - 1;
      std::vector<uint64_t> boards{full};
      for (int k = 0; k < 4; ++k) boards.push_back(random() & full);
      for (uint64_t b : boards) {
        INFO(cram(w, h, b));
        CHECK(s.evalGrundy(cram(w, h, b)) == brute.value(b));
      }
    }
    // The path taken: the moves found for each size, a memo of parts of its own.
    std::string report = s.tableReport();
    INFO(report);
    CHECK(report.find("Cram(4, 4, b): a board that splits, its parameters other than b fixed") !=
          std::string::npos);
    CHECK(report.find("Cram(3, 5, b): a board that splits") != std::string::npos);
  }
}

TEST_CASE("a board whose size is a parameter gets the values of the board in constants") {
  std::mt19937_64 random(7);
  for (auto [w, h] : std::vector<std::pair<int, int>>{{5, 5}, {4, 6}, {6, 5}}) {
    gdsl::Session sized{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(sized.load("sized.game", kCramSized));
    gdsl::Session constants{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(constants.load("constants.game", testing::cramSource(w, h)));
    uint64_t full = (uint64_t{1} << (w * h)) - 1;
    for (uint64_t b : {full, random() & full, random() & full}) {
      INFO(cram(w, h, b));
      CHECK(sized.evalGrundy(cram(w, h, b)) ==
            constants.evalGrundy("Cram(" + std::to_string(b) + ")"));
    }
  }
}

TEST_CASE("every statement values a board whose size is a parameter by its parts") {
  // value() (moves, table, play, sums inside other games) takes the pruning
  // search too; with pruneBoards off, the whole boards are searched.
  std::mt19937_64 random(12);
  for (bool prune : {true, false}) {
    gdsl::StackOptions options(gdsl::BackendKind::Interp);
    options.engine.pruneBoards = prune;
    gdsl::Session s{options};
    REQUIRE(s.load("sized.game", kCramSized));
    for (auto [w, h] : std::vector<std::pair<int, int>>{{3, 4}, {4, 4}, {2, 7}}) {
      CramBrute brute{w, h, {}};
      uint64_t full = (uint64_t{1} << (w * h)) - 1;
      for (uint64_t b : {full, random() & full, random() & full}) {
        INFO(cram(w, h, b) << (prune ? " pruned" : " whole"));
        CHECK(s.grundy(cram(w, h, b)) == brute.value(b));
      }
    }
    std::string report = s.tableReport();
    INFO(report);
    CHECK((report.find("Cram(4, 4, b): a board that splits") != std::string::npos) == prune);
  }
}

TEST_CASE("two sizes of a board in one sum, each with its own moves") {
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("sized.game", kCramSized));
  CramBrute a{2, 5, {}}, b{5, 2, {}}, c{3, 4, {}};
  // 2 x 5 and 5 x 2 are the same board turned: the same value, by different moves.
  uint64_t x = a.value(1023) ^ b.value(1023) ^ c.value(0xfff);
  CHECK(s.evalGrundy(cram(2, 5, 1023) + " + " + cram(5, 2, 1023) + " + " + cram(3, 4, 0xfff)) == x);
  CHECK(a.value(1023) == b.value(1023));
}

TEST_CASE("a board with fixed parameters whose moves are not cell moves is searched whole") {
  // A move needs an empty cell and sets it: not a cell move for any k. Every
  // move fills one of the k cells, so the game lasts k - popcount(b) moves.
  const char* source =
      "game Fill(k, b) {\n"
      "  move set(v in 0..k - 1) when (b >> v) & 1 == 0 -> Fill(k, b | (1 << v))\n"
      "}\n";
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("fill.game", source));
    for (int k = 1; k <= 6; ++k) {
      CHECK(s.evalGrundy("Fill(" + std::to_string(k) + ", 0)") == static_cast<uint64_t>(k % 2));
    }
    std::string report = s.tableReport();
    INFO(report);
    CHECK(report.find("Fill(3, b): searched as whole boards, not split into parts: a condition "
                      "that holds when cell 0 is empty") != std::string::npos);
  }
}
