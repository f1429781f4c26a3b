// The native memo's one contract (runtime/MemoSearch.h): the interpreter's
// search over compiled moves, its search over the enumeration
// (runtime/EnumeratedSearch.h) and the JIT's generated search each fill a
// fresh memo from the same root, and every cell of the three memos is
// compared (a box cell by cell, mirror cells included; a table of words entry
// by entry), with the positions each expanded. The memo each gets is the one
// runtime/NativeMemo.h's rule picks, for the engine and the JIT alike.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/interp/Interpreter.h"
#include "backend/jit/Functions.h"
#include "compiler/ir/Bounds.h"
#include "driver/Session.h"
#include "runtime/Engine.h"
#include "runtime/NativeMemo.h"

namespace {

using gdsl::BackendKind;
using gdsl::MemoKind;
using gdsl::NativeStatus;

// Values of other games' components: the session's own engine.
struct EngineOracle final : gdsl::ValueOracle {
  gdsl::Engine& engine;
  explicit EngineOracle(gdsl::Engine& e) : engine(e) {}
  uint32_t valueOf(const gdsl::Position& p) override { return engine.value(p); }
};

// Every cell of a memo after one search: index (or key) -> cell.
struct Filled {
  std::map<uint64_t, uint32_t> cells;
  uint64_t expanded = 0;
};

enum class Way { InterpCode, InterpEnumerated, Jit };

const char* wayName(Way w) {
  switch (w) {
    case Way::InterpCode:
      return "interp (compiled moves)";
    case Way::InterpEnumerated:
      return "interp (enumerated moves)";
    case Way::Jit:
      return "jit";
  }
  return "";
}

// Searches `root` (the words of a normalized position of `game`) natively on
// `way` into a fresh memo of the kind memoKind picks, and returns its cells.
Filled fill(const std::string& source, const std::string& game, const std::vector<int64_t>& root,
            Way way) {
  gdsl::Session s(gdsl::StackOptions(way == Way::Jit ? BackendKind::Jit : BackendKind::Interp));
  REQUIRE(s.load("native_memo.game", source));
  gdsl::Stack& stack = *s.stack();
  const gdsl::ir::Program& program = stack.program();
  int g = program.findGame(game);
  REQUIRE(g >= 0);
  const gdsl::ir::Game& G = program.games[static_cast<size_t>(g)];
  gdsl::Backend& backend = stack.backend();
  if (way != Way::Jit) {
    auto* interp = dynamic_cast<gdsl::Interpreter*>(&backend);
    REQUIRE(interp);
    interp->setCompiledMoves(way == Way::InterpCode);
  }
  REQUIRE(backend.searchesNatively(g));
  if (way == Way::Jit) REQUIRE(gdsl::jit::hasSearch(G));

  MemoKind kind = gdsl::memoKind(G);
  std::unique_ptr<gdsl::DenseBox> box;
  std::unique_ptr<gdsl::WordMemo> words;
  gdsl::NativeMemo memo{kind, nullptr, nullptr};
  if (kind == MemoKind::Box) {
    box = std::make_unique<gdsl::DenseBox>(root);
    box->setMirror(gdsl::ir::normalizedOrder(G));
    memo.box = box.get();
  } else {
    words = std::make_unique<gdsl::WordMemo>(uint64_t{1} << 22);
    memo.words = words.get();
  }
  EngineOracle oracle(stack.engine());
  std::vector<int64_t> miss;
  uint64_t before = backend.work().searchedPositions;
  NativeStatus status = backend.searchNative(g, root.data(), memo, oracle, miss, 0);
  INFO(wayName(way));
  REQUIRE(status == NativeStatus::Done);

  Filled out;
  out.expanded = backend.work().searchedPositions - before;
  if (box) {
    for (uint64_t i = 0; i < box->cellCount(); ++i)
      if (uint32_t c = box->get(i)) out.cells[i] = c;
  } else {
    words->forEachEntry([&](uint64_t key, uint32_t cell) { out.cells[key] = cell; });
  }
  for (auto& [slot, cell] : out.cells) {
    INFO(fmt::format("{} slot {}", wayName(way), slot));
    CHECK(gdsl::cellHoldsValue(cell));  // no mark of the search is left
  }
  return out;
}

void compareWays(const std::string& source, const std::string& game,
                 const std::vector<int64_t>& root, MemoKind expected,
                 std::vector<Way> ways = {Way::InterpCode, Way::InterpEnumerated, Way::Jit}) {
  std::vector<Filled> filled;
  for (Way w : ways) filled.push_back(fill(source, game, root, w));
  REQUIRE(!filled[0].cells.empty());
  {
    gdsl::Session s{gdsl::StackOptions(BackendKind::Interp)};
    REQUIRE(s.load("native_memo.game", source));
    const gdsl::ir::Program& p = s.stack()->program();
    CHECK(gdsl::memoKind(p.games[static_cast<size_t>(p.findGame(game))]) == expected);
  }
  for (size_t i = 1; i < filled.size(); ++i) {
    INFO(fmt::format("{} against {}", wayName(ways[i]), wayName(ways[0])));
    CHECK(filled[i].expanded == filled[0].expanded);
    CHECK(filled[i].cells.size() == filled[0].cells.size());
    for (const auto& [slot, cell] : filled[0].cells) {
      auto it = filled[i].cells.find(slot);
      INFO(fmt::format("slot {}", slot));
      REQUIRE(it != filled[i].cells.end());
      CHECK(it->second == cell);
    }
  }
}

}  // namespace

TEST_CASE("native memos: a box, every cell the same on every search", "[native-memo]") {
  const char* chomp = R"(
game Chomp(a, b, c) {
  move row1(x in 1..a-1) -> Chomp(x, min(b, x), min(c, x))
  move row2(x in 0..b-1) -> Chomp(a, x, min(c, x))
  move row3(x in 0..c-1) -> Chomp(a, b, x)
}
)";
  compareWays(chomp, "Chomp", {14, 11, 7}, MemoKind::Box);
  // A game that sorts its two parameters: the JIT writes mirror cells, and
  // so does the walk (DenseBox::setValue).
  const char* cut = R"(
game Cut(w, h) {
  normalize -> Cut(min(w, h), max(w, h))
  move vertical(a in 2..w-2)   -> Cut(a, h) + Cut(w - a, h)
  move horizontal(b in 2..h-2) -> Cut(w, b) + Cut(w, h - b)
}
)";
  compareWays(cut, "Cut", {17, 23}, MemoKind::Box);
}

TEST_CASE("native memos: a table of words, every entry the same on every search", "[native-memo]") {
  // A normalize rule, and a component of the game itself beside the move's.
  const char* odd = R"(
game Odd(n) {
  normalize -> Odd(n | 1)
  move less(k in {2, 4}) when k <= n -> Odd(n - k)
  move bit(k in 0..12) when ((n >> k) & 1) == 1 and k > 0 -> Odd(n ^ (1 << k)) + Odd(k)
}
)";
  compareWays(odd, "Odd", {4095}, MemoKind::Words);
  // A board of bits that splits into parts (runtime/Components.h): node
  // Kayles on a 3 x 4 grid.
  std::vector<int64_t> nb;
  for (int v = 0; v < 12; ++v) {
    int r = v / 4, c = v % 4;
    int64_t m = int64_t{1} << v;
    if (c > 0) m |= int64_t{1} << (v - 1);
    if (c < 3) m |= int64_t{1} << (v + 1);
    if (r > 0) m |= int64_t{1} << (v - 4);
    if (r < 2) m |= int64_t{1} << (v + 4);
    nb.push_back(m);
  }
  std::string kayles = fmt::format(
      "const NB = [{}]\ngame NK(b) {{\n  move pick(v in 0..11) when ((b >> v) & 1) == 1 -> "
      "NK(b ^ (b & NB[v]))\n}}\n",
      fmt::join(nb, ", "));
  compareWays(kayles, "NK", {4095}, MemoKind::Words);
}

TEST_CASE("native memos: packed lists, every entry the same on every search", "[native-memo]") {
  // The interpreter's compiled moves do not take lists: its enumerated
  // search and the JIT's.
  const char* moore = R"(
game M(h: list) {
  normalize -> M(sort(h))
  move one(i in 0..len(h)-1, x in 0..h[i]-1) -> M(set(h, i, x))
  move two(i in 0..len(h)-1, j in i+1..len(h)-1, x in 0..h[i]-1, y in 0..h[j]-1)
    -> M(set(set(h, i, x), j, y))
}
)";
  compareWays(moore, "M", {3, 4, 6, 7}, MemoKind::Lists, {Way::InterpEnumerated, Way::Jit});
}
