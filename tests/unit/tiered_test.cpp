// The `auto` backend (backend/tiered/TieredBackend.h) on the games of bench/ at several sizes:
// which tier served what. The switch is made to come at a known point (the JIT got ready on the
// calling thread at the 33rd look: the 528th kernel call, or the 2112th position a native search
// expands), so that every computation is split between the two tiers. Each value
// is checked against a brute force of the rules written here, and the path is checked: a heap
// of a table is computed once, by one tier or the other; a native search that the interpreter
// began goes on in the JIT over the same memo, so the two tiers together expand the positions
// a JIT-only run expands, plus at most the positions that were being expanded when the
// interpreter handed over (at most the search's depth, far below the 2112 it expanded). A search
// that started over would expand them all again; the engine's hashed search never serves these
// games. A case runs the worker on its own thread, as users run it; the last, the worker
// that looks in the code cache only, before any may compile.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "backend/tiered/TieredBackend.h"
#include "brute_force.h"
#include "driver/Session.h"

namespace {

std::string benchGame(const std::string& file) {
  return std::string(GDSL_BENCH_DIR) + "/games/" + file;
}

// The JIT got ready at the 33rd look, on the calling thread: the interpreter looks every 64
// positions of a native search and every 16 kernel calls.
constexpr uint32_t kSkippedLooks = 32;
constexpr uint64_t kPositionsBefore = 64 * (kSkippedLooks + 1);
gdsl::StackOptions switchEarly() {
  gdsl::StackOptions options(gdsl::BackendKind::Auto);
  options.tiering.start = std::chrono::microseconds(0);
  options.tiering.synchronous = true;
  options.tiering.skipLooks = kSkippedLooks;
  options.verbose = true;
  return options;
}

gdsl::TierWork tiers(gdsl::Session& s) {
  std::optional<gdsl::TierWork> t = gdsl::tierWork(s.stack()->backend());
  REQUIRE(t);
  return *t;
}

// The positions a JIT-only run of `position` expands in its native search.
uint64_t jitOnlyPositions(const std::string& file, const std::string& position) {
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Jit)};
  REQUIRE(s.loadFile(benchGame(file)));
  s.grundy(position);
  return s.stack()->backend().work().searchedPositions;
}

// `position` on auto: the value, and the search split between the tiers over one memo.
uint64_t searchSplit(const std::string& file, const std::string& position) {
  gdsl::Session s(switchEarly());
  REQUIRE(s.loadFile(benchGame(file)));
  uint64_t value = s.grundy(position);
  gdsl::TierWork t = tiers(s);
  uint64_t whole = jitOnlyPositions(file, position);
  INFO(position << ": interpreter " << t.interpreter.searchedPositions << ", JIT "
                << t.jit.searchedPositions << ", JIT alone " << whole << "\n"
                << s.stack()->takeLog() << s.tableReport());
  CHECK(t.switched);
  CHECK(t.interpreter.searchedPositions >= kPositionsBefore);
  CHECK(t.jit.searchedPositions > 0);
  CHECK(t.interpreter.searchedPositions + t.jit.searchedPositions >= whole);
  // Redone: only the positions being expanded at the hand-over (a chain from the root).
  CHECK(t.interpreter.searchedPositions + t.jit.searchedPositions < whole + 400);
  CHECK(s.tableReport().find("hashed memo") == std::string::npos);
  return value;
}

// A table of `game` over 0..n on auto: every heap once, by one tier or the other.
std::vector<uint64_t> tableSplit(gdsl::Session& s, const std::string& game, int n) {
  std::vector<uint64_t> values = s.table(game, 0, n);
  gdsl::TierWork t = tiers(s);
  INFO(game << "(0.." << n << "): interpreter " << t.interpreter.kernelHeaps << " heaps, JIT "
            << t.jit.kernelHeaps);
  CHECK(t.switched);
  CHECK(t.interpreter.kernelHeaps > 0);
  CHECK(t.jit.kernelHeaps > 0);
  CHECK(t.interpreter.kernelHeaps + t.jit.kernelHeaps == static_cast<uint64_t>(n) + 1);
  return values;
}

// Three-row Chomp (bench/games/f_chomp.game): rows a >= b >= c; a move takes a square and all
// above and right of it, never the bottom-left one.
uint64_t bruteChomp(int n) {
  int s = n + 1;
  std::vector<brute::Value> g(static_cast<size_t>(s * s * s), 0);
  auto at = [&](int a, int b, int c) -> brute::Value& { return g[(a * s + b) * s + c]; };
  for (int a = 1; a <= n; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) {
        std::vector<brute::Value> options;
        for (int x = 1; x < a; ++x) options.push_back(at(x, std::min(b, x), std::min(c, x)));
        for (int x = 0; x < b; ++x) options.push_back(at(a, x, std::min(c, x)));
        for (int x = 0; x < c; ++x) options.push_back(at(a, b, x));
        at(a, b, c) = brute::mex(options);
      }
  return at(n, n, n);
}

// Node Kayles on the w x 5 grid, the free cells as bits: a move removes a free cell and its
// free neighbours.
uint64_t bruteNodeKayles(int w, uint64_t board, std::map<uint64_t, brute::Value>& memo) {
  auto it = memo.find(board);
  if (it != memo.end()) return it->second;
  std::vector<brute::Value> options;
  for (int v = 0; v < w * 5; ++v) {
    if (!((board >> v) & 1)) continue;
    int x = v % w, y = v / w;
    uint64_t taken = uint64_t{1} << v;
    if (x > 0) taken |= uint64_t{1} << (v - 1);
    if (x < w - 1) taken |= uint64_t{1} << (v + 1);
    if (y > 0) taken |= uint64_t{1} << (v - w);
    if (y < 4) taken |= uint64_t{1} << (v + w);
    options.push_back(bruteNodeKayles(w, board & ~taken, memo));
  }
  return memo[board] = brute::mex(options);
}

// Row (e)'s program for the w x 5 grid (bench/run.py writes the same).
std::string nodeKaylesSource(int w) {
  std::string nb;
  for (int v = 0; v < w * 5; ++v) {
    int x = v % w, y = v / w;
    uint64_t m = uint64_t{1} << v;
    if (x > 0) m |= uint64_t{1} << (v - 1);
    if (x < w - 1) m |= uint64_t{1} << (v + 1);
    if (y > 0) m |= uint64_t{1} << (v - w);
    if (y < 4) m |= uint64_t{1} << (v + w);
    nb += (v ? ", " : "") + std::to_string(m);
  }
  return "const NB = [" + nb + "]\ngame NK(b) {\n  move pick(v in 0.." + std::to_string(w * 5 - 1) +
         ") when ((b >> v) & 1) == 1 -> NK(b ^ (b & NB[v]))\n}\n";
}

}  // namespace

TEST_CASE("auto: a one-heap table is computed once, part by each tier (rows a and b)") {
  for (int n : {700, 2000}) {
    gdsl::Session s(switchEarly());
    REQUIRE(s.loadFile(benchGame("a_take.game")));
    brute::Table want(static_cast<size_t>(n) + 1, 0);  // T takes k tokens, k % 3 != 0
    for (int m = 0; m <= n; ++m) {
      std::vector<brute::Value> options;
      for (int k = 1; k <= m; ++k)
        if (k % 3 != 0) options.push_back(want[m - k]);
      want[m] = brute::mex(options);
    }
    CHECK(tableSplit(s, "T", n) == std::vector<uint64_t>(want.begin(), want.end()));
  }
  for (int n : {700, 3000}) {
    gdsl::StackOptions options = switchEarly();
    options.engine.plain = true;  // every heap by the kernel, as row (b) runs it
    gdsl::Session s(options);
    REQUIRE(s.loadFile(benchGame("b_grundy.game")));
    brute::Table want = brute::grundyGame(n);
    CHECK(tableSplit(s, "Grundy", n) == std::vector<uint64_t>(want.begin(), want.end()));
  }
}

TEST_CASE("auto: a box search goes on in the JIT over the interpreter's memo (rows c and f)") {
  for (int w : {120, 200}) {
    brute::Grid want = brute::cut(w, w);
    std::string pos = "Cut(" + std::to_string(w) + ", " + std::to_string(w) + ")";
    CHECK(searchSplit("c_cut.game", pos) == want[w][w]);
  }
  for (int n : {25, 45}) {
    std::string pos =
        "Chomp(" + std::to_string(n) + ", " + std::to_string(n) + ", " + std::to_string(n) + ")";
    CHECK(searchSplit("f_chomp.game", pos) == bruteChomp(n));
  }
}

TEST_CASE("auto: a list search goes on in the JIT over the interpreter's memo (row d)") {
  for (int h : {14, 17}) {
    std::string hs = std::to_string(h);
    CHECK(searchSplit("d_moore.game", "M([" + hs + ", " + hs + ", " + hs + ", " + hs + "])") ==
          brute::moore(2, {h, h, h, h}));
  }
}

TEST_CASE("auto: a board that splits goes on in the JIT over the interpreter's memo (row e)") {
  for (int w : {5, 6}) {
    // The full search (eval would ask the pruning search, which is the
    // runtime's, not a backend's).
    // Parts are memoized under their least image by the board's symmetries,
    // so this search meets fewer positions: switch after fewer looks.
    gdsl::StackOptions options = switchEarly();
    options.engine.pruneBoards = false;
    constexpr int kLooks = 8;
    options.tiering.skipLooks = kLooks;
    gdsl::Session s(options);
    REQUIRE(s.load("nk.game", nodeKaylesSource(w)));
    uint64_t full = (uint64_t{1} << (5 * w)) - 1;
    std::map<uint64_t, brute::Value> memo;
    // The full board's options, each a search of its own over the one memo.
    for (int v = 0; v < 5 * w; v += 3) {
      uint64_t board = full & ~(uint64_t{1} << v);
      INFO("NK(" << board << ")");
      CHECK(s.grundy("NK(" + std::to_string(board) + ")") == bruteNodeKayles(w, board, memo));
    }
    gdsl::TierWork t = tiers(s);
    CHECK(t.switched);
    CHECK(t.interpreter.searchedPositions >= 64 * (kLooks + 1));
    CHECK(t.jit.searchedPositions > 0);
    CHECK(s.tableReport().find("hashed memo") == std::string::npos);
  }
}

TEST_CASE("auto: the JIT got ready on a worker thread gives the same values") {
  gdsl::StackOptions options(gdsl::BackendKind::Auto);
  options.tiering.start = std::chrono::microseconds(0);
  gdsl::Session s(options);
  REQUIRE(s.loadFile(benchGame("f_chomp.game")));
  for (int n = 10; n <= 40; n += 10) {
    std::string ns = std::to_string(n);
    CHECK(s.grundy("Chomp(" + ns + ", " + ns + ", " + ns + ")") == bruteChomp(n));
  }
  gdsl::TierWork t = tiers(s);
  INFO(s.stack()->takeLog());
  // The worker may or may not be done by now: the positions were expanded once either way,
  // the in-progress ones of a hand-over apart.
  CHECK(t.interpreter.searchedPositions + t.jit.searchedPositions <
        jitOnlyPositions("f_chomp.game", "Chomp(40, 40, 40)") + 400);
}

TEST_CASE("auto: the engine's hashed search and a kernel that asks it, across the switch") {
  // Without native searches every position of W is expanded through the backend's enumerator,
  // which the JIT takes over once the enumerations make it hot; P's kernel asks W for values
  // from inside the interpreter's call that the switch happens in.
  const char* source = R"(
game W(a, b) {
  move left(k in 1..a) -> W(a - k, b)
  move right(k in 1..b) -> W(a, b - k)
  move both(k in 1..min(a, b)) -> W(a - k, b - k)
}
game P(n) { move p(k in 1..n) when k % 2 == 1 -> P(n - k) + W(k, n - k) }
)";
  constexpr int N = 60;
  gdsl::StackOptions options = switchEarly();
  options.engine.native = false;
  gdsl::Session s(options);
  REQUIRE(s.load("tiered.game", source));
  brute::Grid w = brute::wythoff(N, N);
  brute::Table want(N + 1, 0);
  for (int n = 0; n <= N; ++n) {
    std::vector<brute::Value> opts;
    for (int k = 1; k <= n; k += 2) opts.push_back(want[n - k] ^ w[k][n - k]);
    want[n] = brute::mex(opts);
  }
  CHECK(s.table("P", 0, N) == std::vector<uint64_t>(want.begin(), want.end()));
  CHECK(tiers(s).switched);
  CHECK(std::string(s.stack()->backend().name()) == "jit");
  for (int a = 0; a <= N; a += 7)
    for (int b = 0; b <= N; b += 5)
      REQUIRE(s.grundy("W(" + std::to_string(a) + ", " + std::to_string(b) + ")") == w[a][b]);
}

TEST_CASE("auto: a worker looks in the code cache first, and never loads LLVM for it") {
  // The cache-only worker comes at the first look (cacheStart 0); the worker that may compile
  // never does (start an hour away). An empty cache: the interpreter does everything. Once a
  // JIT run has filled the cache: auto switches, and its code came from there.
  char dir[] = "/tmp/gdsl-tiered-cache-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  REQUIRE(setenv("GDSL_CACHE_DIR", dir, 1) == 0);
  gdsl::StackOptions options(gdsl::BackendKind::Auto);
  options.tiering.cacheStart = std::chrono::microseconds(0);
  options.tiering.start = std::chrono::hours(1);
  options.tiering.synchronous = true;
  const std::string position = "M([6, 6, 6, 6])";
  const uint64_t want = brute::moore(2, {6, 6, 6, 6});
  auto autoRun = [&] {
    gdsl::Session s(options);
    REQUIRE(s.loadFile(benchGame("d_moore.game")));
    CHECK(s.grundy(position) == want);
    return std::make_pair(tiers(s).switched, s.stack()->backend().report());
  };
  auto [coldSwitched, coldReport] = autoRun();
  CHECK_FALSE(coldSwitched);
  {
    gdsl::Session fill{gdsl::StackOptions(gdsl::BackendKind::Jit)};
    REQUIRE(fill.loadFile(benchGame("d_moore.game")));
    CHECK(fill.grundy(position) == want);
  }
  auto [warmSwitched, warmReport] = autoRun();
  INFO(warmReport);
  CHECK(warmSwitched);
  CHECK(warmReport.find("from the code cache") != std::string::npos);
  CHECK(warmReport.find("LLVM loaded") == std::string::npos);
  std::filesystem::remove_all(dir);
  setenv("GDSL_CACHE_DIR", "off", 1);
}
