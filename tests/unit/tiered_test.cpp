// The `auto` backend (driver/Backends.cpp) switched from the interpreter to the JIT in the middle
// of a computation: a one-heap table whose first heaps were computed by the interpreter's kernel
// and the rest by native code, a search whose first positions were expanded by the interpreter,
// and a kernel whose successors ask a search game for values, so that the switch happens inside
// a call that the interpreter has not finished. Every value is checked against a brute force of
// the rules written here.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"

namespace {

// Switches after the 64th call, the first time the backend looks at the clock.
gdsl::StackOptions switchEarly() {
  gdsl::StackOptions options(gdsl::BackendKind::Auto);
  options.tiering.busy = std::chrono::milliseconds(0);
  options.verbose = true;
  return options;
}

const char* kSource = R"(
game T(n) { move t(k in 1..n) when k % 3 != 0 -> T(n - k) }
game W(a, b) {
  move left(k in 1..a) -> W(a - k, b)
  move right(k in 1..b) -> W(a, b - k)
  move both(k in 1..min(a, b)) -> W(a - k, b - k)
}
game P(n) { move p(k in 1..n) when k % 2 == 1 -> P(n - k) + W(k, n - k) }
)";

// T: take any k that is not a multiple of 3.
brute::Table bruteT(int maxN) {
  brute::Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<brute::Value> options;
    for (int k = 1; k <= n; ++k)
      if (k % 3 != 0) options.push_back(g[n - k]);
    g[n] = brute::mex(options);
  }
  return g;
}

// P: take an odd k, leaving P(n - k) and Wythoff's W(k, n - k).
brute::Table bruteP(int maxN, const brute::Grid& w) {
  brute::Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<brute::Value> options;
    for (int k = 1; k <= n; k += 2) options.push_back(g[n - k] ^ w[k][n - k]);
    g[n] = brute::mex(options);
  }
  return g;
}

void expectSwitched(gdsl::Session& s) {
  std::string log = s.stack()->takeLog();
  INFO(log);
  CHECK(log.find("gdsl: auto: switched to the JIT after 64 calls") != std::string::npos);
  CHECK(std::string(s.stack()->backend().name()) == "jit");
}

}  // namespace

TEST_CASE("auto switches to the JIT in the middle of a one-heap table") {
  constexpr int N = 3000;
  gdsl::Session s(switchEarly());
  REQUIRE(s.load("tiered.game", kSource));
  brute::Table want = bruteT(N);
  CHECK(s.table("T", 0, N) == std::vector<uint64_t>(want.begin(), want.end()));
  expectSwitched(s);
}

TEST_CASE("auto switches to the JIT in the middle of a search") {
  constexpr int M = 40;
  // The engine's hashed search, whose expansions are calls to the backend (a native search
  // is one call, and runs on one backend from start to end).
  gdsl::StackOptions options = switchEarly();
  options.engine.native = false;
  gdsl::Session s(options);
  REQUIRE(s.load("tiered.game", kSource));
  brute::Grid want = brute::wythoff(M, M);
  // The first value searches every W(a, b) below (40, 40): the switch comes after 64 of them.
  CHECK(s.grundy("W(40, 40)") == want[M][M]);
  expectSwitched(s);
  for (int a = 0; a <= M; ++a)
    for (int b = 0; b <= M; ++b) {
      INFO("W(" << a << ", " << b << ")");
      REQUIRE(s.grundy("W(" + std::to_string(a) + ", " + std::to_string(b) + ")") == want[a][b]);
    }
}

TEST_CASE("auto switches to the JIT inside a kernel that asks a search for values") {
  constexpr int N = 60;
  gdsl::StackOptions options = switchEarly();
  options.engine.native = false;
  gdsl::Session s(options);
  REQUIRE(s.load("tiered.game", kSource));
  // P's kernel runs on the interpreter while the oracle's searches of W make the calls that
  // switch: the outer call finishes on the interpreter, the later ones run native code.
  brute::Table want = bruteP(N, brute::wythoff(N, N));
  CHECK(s.table("P", 0, N) == std::vector<uint64_t>(want.begin(), want.end()));
  expectSwitched(s);
}

TEST_CASE("auto hands the positions of a search to the JIT's native search once it switches") {
  constexpr int M = 30;
  gdsl::Session s(switchEarly());
  REQUIRE(s.load("tiered.game", kSource));
  brute::Grid want = brute::wythoff(M, M);
  // Before the switch the engine's search runs (one call per position); after it (64 calls),
  // the positions it meets go to the JIT's native search, over a dense memo.
  for (int a = M; a >= 0; --a)
    for (int b = 0; b <= M; b += 3) {
      INFO("W(" << a << ", " << b << ")");
      REQUIRE(s.grundy("W(" + std::to_string(a) + ", " + std::to_string(b) + ")") == want[a][b]);
    }
  CHECK(s.grundy("T(200) + W(30, 29)") == (bruteT(200)[200] ^ want[30][29]));
  expectSwitched(s);
}
