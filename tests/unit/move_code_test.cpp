// The interpreter's compiled moves (backend/interp/MoveCode.h): which games
// compile, and that the one-heap kernel and the native search over them give
// the answers and the errors of walking the IR, of the engine's hashed search
// and of the JIT, including where the compiled code fails (overflow, division
// by zero, a negative argument that normalize would hide, a bad shift).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "backend/interp/Interpreter.h"
#include "backend/interp/MoveCode.h"
#include "driver/Session.h"
#include "test_backends.h"

namespace {

// Whether game `name` of `source` compiles to register code.
bool compiles(const std::string& source, const std::string& name) {
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("t.game", source));
  const gdsl::ir::Program& program = s.stack()->program();
  return gdsl::interp::compileMoves(program, program.findGame(name)) != nullptr;
}

// Every position's outcome on four searches, which must agree.
void agree(const std::string& source, const std::vector<std::string>& positions) {
  INFO(source);
  gdsl::StackOptions hashedOptions(gdsl::BackendKind::Interp);
  hashedOptions.engine.native = false;
  gdsl::Session hashed(hashedOptions), compiled{gdsl::StackOptions(gdsl::BackendKind::Interp)},
      walked{gdsl::StackOptions(gdsl::BackendKind::Interp)},
      jit{gdsl::StackOptions(gdsl::BackendKind::Jit)};
  for (gdsl::Session* s : {&hashed, &compiled, &walked, &jit}) REQUIRE(s->load("t.game", source));
  dynamic_cast<gdsl::Interpreter&>(walked.stack()->backend()).setCompiledMoves(false);
  for (const std::string& p : positions) {
    INFO(p);
    std::string expected = testing::outcome(hashed, p);
    CHECK(testing::outcome(compiled, p) == expected);
    CHECK(testing::outcome(walked, p) == expected);
    CHECK(testing::outcome(jit, p) == expected);
  }
}

}  // namespace

TEST_CASE("which games compile to register code") {
  const std::string cut =
      "game Cut(w, h) {\n"
      "  normalize -> Cut(min(w, h), max(w, h))\n"
      "  move v(a in 2..w-2) -> Cut(a, h) + Cut(w - a, h)\n"
      "  move h(b in 2..h-2) -> Cut(w, b) + Cut(w, h - b)\n"
      "}\n";
  CHECK(compiles(cut, "Cut"));
  // Lists, indexing and `in` in a move run on the reference evaluator, inside the code.
  CHECK(
      compiles("const K = [1, 3, 4]\n"
               "game T(n, m) {\n"
               "  move t(k in K when k <= n and not m in {2, 7}, let j = K[k % 3]) -> T(n - k, j)\n"
               "}\n",
               "T"));
  // Not compiled: a list parameter, a `sum ... for` term, a normalize rule
  // that needs the reference evaluator.
  CHECK(!compiles("game L(h: list) { move m(i in 0..len(h)-1 when h[i] > 0) -> L(set(h, i, 0)) }",
                  "L"));
  CHECK(!compiles("game S(a, b) { move m(k in 1..a) -> (sum S(i, 0) for i in 0..k-1) + S(a-k, b) }",
                  "S"));
  CHECK(
      !compiles("game N(a, b) {\n"
                "  normalize -> N([0, 1, 2][a % 3], b)\n"
                "  move m(k in 1..b) -> N(a, b - k)\n"
                "}\n",
                "N"));
}

TEST_CASE("compiled moves agree with the other searches") {
  std::vector<std::string> grid;
  for (int a = 0; a <= 9; ++a)
    for (int b = 0; b <= 9; ++b)
      grid.push_back("G(" + std::to_string(a) + ", " + std::to_string(b) + ")");
  SECTION("every operator, guards with and/or, lets, list and range loops") {
    agree(
        "const K = [1, 2, 5]\n"
        "game G(a, b) {\n"
        "  normalize -> G(min(a, b), max(a, b))\n"
        "  move m1(k in 1..a, let c = (a * 3 + b) % 4) when c != 1 or k == a -> G(a - k, b)\n"
        "  move m2(k in K when k <= b and (b ^ k) & 1 == 0) -> G(a, b - k)\n"
        "  move m3(k in 1..min(a, b) / 2 + 1) when k <= a and k <= b and "
        "abs(a - b) >= -k -> G(a - k, b - k) + G(k - 1, (a | b) >> 1 & 3)\n"
        "  move m4(k in 0..b - 1 when not k in {3, 4}) when max(a, k, 1) << 1 > 2 -> G(a / 2, k)\n"
        "}\n",
        grid);
  }
  SECTION("a game of another game's positions (asked of the oracle)") {
    agree(
        "game H(n) { move t(k in 1..min(n, 3)) -> H(n - k) }\n"
        "game G(a, b) {\n"
        "  move m(k in 1..a) -> G(a - k, b) + H(k + b)\n"
        "  move n(k in 1..b) -> G(a, b - k)\n"
        "}\n",
        grid);
  }
  SECTION("one integer parameter with normalize: a table of words") {
    std::vector<std::string> heaps;
    for (int n = 0; n <= 60; ++n) heaps.push_back("W(" + std::to_string(n) + ")");
    agree(
        "game W(n) {\n"
        "  normalize -> W(n - n % 2)\n"
        "  move t(k in 1..n / 2) -> W(n - 2 * k) + W(k)\n"
        "}\n",
        heaps);
  }
  SECTION("one-heap kernels: table reads, another game's terms, a runtime error") {
    std::vector<std::string> heaps;
    for (int n = 0; n <= 80; ++n) heaps.push_back("K(" + std::to_string(n) + ")");
    agree("const S = [1, 2, 4, 7]\n"
          "game H(n) { move t(k in 1..min(n, 2)) -> H(n - k) }\n"
          "game K(n) {\n"
          "  move a(k in S when k <= n) when (n - k) % 3 != 1 or k == 1 -> K(n - k)\n"
          "  move b(x in 1..n / 2) -> K(x) + K(n - x - 1) + H(x % 4)\n"
          "}\n",
          heaps);
    // An error at heap 40 only: the kernel's tables below it stay right.
    agree("game K(n) {\n"
          "  move a(k in 1..n) -> K(n - k)\n"
          "  move b when n == 40 -> K(n / (n - 40))\n"
          "}\n",
          {"K(39)", "K(40)", "K(41)", "K(12)"});
  }
  SECTION("errors: overflow, division by zero, a bad shift, a negative argument") {
    agree(
        "game G(a, b) {\n"
        "  move big when a == 5 -> G(a * 4611686018427387904, 0)\n"
        "  move div(k in 1..b) -> G(a, b / (k - 3) % b)\n"
        "  move down(k in 1..a) -> G(a - k, b)\n"
        "}\n",
        grid);
    agree(
        "game G(a, b) {\n"
        "  move s(k in 0..b) when a > 6 -> G(a - 1, (1 << (62 + k)) % 7)\n"
        "  move down(k in 1..a) -> G(a - k, b)\n"
        "}\n",
        grid);
    // normalize would make the argument positive, but a negative argument is an error.
    agree(
        "game G(a, b) {\n"
        "  normalize -> G(a, abs(b))\n"
        "  move m(k in 1..a) -> G(a - k, b - 2)\n"
        "}\n",
        grid);
  }
}
