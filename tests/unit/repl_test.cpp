// The REPL's session (driver/Repl.h) driven entry by entry, without a
// terminal: redefinitions drop exactly the values that depended on the old
// rules (answers checked against brute force before and after), errors leave
// the session usable, :backend keeps the memo, Ctrl-C (an interrupt request)
// stops a computation and keeps what was computed, and entries continue
// while a brace is open. The terminal itself is tested by tests/cli/repl_pty.py.
#include "driver/Repl.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "brute_force.h"
#include "compiler/support/Interrupt.h"

using gdsl::BackendKind;
using gdsl::ReplSession;

namespace {

struct Repl {
  std::ostringstream out, err;
  ReplSession session;
  explicit Repl(BackendKind kind = BackendKind::Interp) : session(kind, out, err) {}

  // Runs an entry and returns what it printed on standard output.
  std::string run(const std::string& entry) {
    out.str("");
    err.str("");
    session.submit(entry);
    return out.str();
  }
};

// The values of a printed one-parameter table: "G(0..5): 0 1 2 0 1 2".
std::vector<brute::Value> tableValues(const std::string& line) {
  std::vector<brute::Value> out;
  std::istringstream in(line.substr(line.find(':') + 1));
  brute::Value v;
  while (in >> v) out.push_back(v);
  return out;
}

// B(n): move to A(k - 1) + B(n - k) for 1 <= k <= n, with A a subtraction game.
brute::Table sumGame(const brute::Table& a, int maxN) {
  brute::Table b(static_cast<size_t>(maxN) + 1);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<brute::Value> options;
    for (int k = 1; k <= n; ++k) options.push_back(a[k - 1] ^ b[n - k]);
    b[n] = brute::mex(options);
  }
  return b;
}

const char* kRules =
    "game A(n) { take 1..2 }\n"
    "game B(n) { move m(k in 1..n) -> A(k - 1) + B(n - k) }\n"
    "game C(n) { take 1..3 }\n";

}  // namespace

TEST_CASE("redefining a game drops its values and those of the games that use it") {
  Repl r;
  r.run(kRules);
  REQUIRE(r.err.str().empty());
  CHECK(tableValues(r.run("table A(0..30)")) == brute::subtraction(30, {1, 2}));
  CHECK(tableValues(r.run("table B(0..30)")) == sumGame(brute::subtraction(30, {1, 2}), 30));
  CHECK(tableValues(r.run("table C(0..30)")) == brute::subtraction(30, {1, 2, 3}));
  int64_t before = r.session.memoSize();
  CHECK(before >= 3 * 31);

  // Declaring C again with the same rules keeps everything; so does B with its variables and
  // its move renamed (fingerprints ignore names: compiler/ir/Fingerprint.h).
  CHECK(r.run("game C(n) { take 1..3 }").empty());
  CHECK(r.session.memoSize() == before);
  CHECK(r.run("game B(size) { move cut(j in 1..size) -> A(j - 1) + B(size - j) }").empty());
  CHECK(r.session.memoSize() == before);

  std::string said = r.run("game A(n) { take 1..3 }");
  CHECK(said.find("A redefined") != std::string::npos);
  CHECK(said.find("B uses a redefined game") != std::string::npos);
  CHECK(said.find("C") == std::string::npos);
  CHECK(r.session.memoSize() == 31);  // only C's table is left
  CHECK(tableValues(r.run("table A(0..30)")) == brute::subtraction(30, {1, 2, 3}));
  CHECK(tableValues(r.run("table B(0..30)")) == sumGame(brute::subtraction(30, {1, 2, 3}), 30));
  CHECK(r.session.games() == std::vector<std::string>{"C", "B", "A"});
}

TEST_CASE("an error leaves the session as it was") {
  Repl r;
  r.run(kRules);
  r.run("table A(0..10)");
  int64_t memo = r.session.memoSize();

  r.run("eval Nope(3)");
  CHECK(r.err.str().find("<input 3>:1:6: error: unknown game 'Nope'") != std::string::npos);

  // A declaration with an error is not taken: A keeps its rules and values.
  r.run("game A(n) { take 1..oops }");
  CHECK(r.err.str().find("<input 4>:1:21") != std::string::npos);
  CHECK(r.session.memoSize() == memo);
  CHECK(r.run("eval A(4)").find("A(4): *1") != std::string::npos);

  // A syntax error in an entry that also has statements runs none of them.
  CHECK(r.run("eval A(3)\ngame {").empty());
  CHECK(r.err.str().find("<input 6>:2:6") != std::string::npos);

  // A runtime error in one statement; the next still runs.
  std::string said =
      r.run("game D(n) { move m(k in 0..n) -> D(n / (k - k)) }\neval D(2)\neval C(5)");
  CHECK(r.err.str().find("division by zero") != std::string::npos);
  CHECK(said.find("C(5): *1") != std::string::npos);
}

TEST_CASE("switching backends keeps the values computed") {
  Repl r(BackendKind::Interp);
  r.run(kRules);
  std::string interp = r.run("table B(0..40)");
  int64_t memo = r.session.memoSize();
  CHECK(r.run(":backend jit") == "backend jit\n");
  CHECK(r.session.memoSize() == memo);
  CHECK(r.run("table B(0..40)") == interp);
  CHECK(r.run("table B(0..60)").substr(0, 10) == "B(0..60): ");
  CHECK(tableValues(r.run("table B(0..60)")) == sumGame(brute::subtraction(60, {1, 2}), 60));
  r.run(":backend fast");
  CHECK(r.err.str().find("unknown backend 'fast'") != std::string::npos);
}

TEST_CASE("an interrupt stops the computation and keeps the values computed so far") {
  Repl r(BackendKind::Interp);
  r.run("game S(n) { move t(m in 1..min(3, n)) when m != 2 or n % 7 != 1 -> S(n - m) }");
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    gdsl::requestInterrupt();
  });
  r.run("eval S(100000000)");  // seconds of work on the interpreter
  stopper.join();
  CHECK(r.err.str().find("interrupted") != std::string::npos);
  int64_t kept = r.session.memoSize();
  CHECK(kept > 1000);
  CHECK(kept < 100000000);
  // The table is intact: its values agree with brute force, and asking for
  // them computes nothing new.
  std::vector<brute::Value> s(2001);
  for (int n = 0; n <= 2000; ++n) {
    std::vector<brute::Value> options;
    for (int m = 1; m <= std::min(3, n); ++m)
      if (m != 2 || n % 7 != 1) options.push_back(s[static_cast<size_t>(n - m)]);
    s[static_cast<size_t>(n)] = brute::mex(options);
  }
  CHECK(tableValues(r.run("table S(0..2000)")) == s);
  CHECK(r.session.memoSize() == kept);
}

TEST_CASE("commands") {
  Repl r;
  CHECK(r.run(":time") == "timing on\n");
  CHECK(r.session.showTime());
  r.run("game A(n) { take 1..2 }");
  std::string timed = r.run("eval A(5)");
  CHECK(timed.find("A(5): *2") != std::string::npos);
  CHECK(timed.find("s)\n") != std::string::npos);  // (12 µs), (1.5 ms)...
  CHECK(r.run(":time") == "timing off\n");
  CHECK(r.run(":games") == "A(n)\n");
  CHECK(r.run(":stats").find("values memoized") != std::string::npos);
  CHECK(r.run(":help").find(":backend interp|jit|auto") != std::string::npos);
  r.run(":frobnicate");
  CHECK(r.err.str().find("unknown command ':frobnicate'") != std::string::npos);
  CHECK(r.session.submit(":quit") == false);

  // :load reads a file's games (redefining A) and runs its statements.
  std::string path = "repl_test_load.game";
  std::ofstream(path) << "game A(n) { take 1..4 }\neval A(5)\n";
  std::string loaded = r.run(":load " + path);
  CHECK(loaded.find("A redefined") != std::string::npos);
  CHECK(loaded.find("A(5): 0") != std::string::npos);
  std::remove(path.c_str());
  r.run(":load " + path);
  CHECK(r.err.str().find("cannot read") != std::string::npos);
}

TEST_CASE("an entry continues while a brace, bracket or parenthesis is open") {
  CHECK(ReplSession::incomplete("game G(n) {"));
  CHECK(ReplSession::incomplete("game G(n) {\n  move m(k in 1..n) -> G(n - k"));
  CHECK_FALSE(ReplSession::incomplete("game G(n) {\n  take 1..3\n}"));
  CHECK_FALSE(ReplSession::incomplete("eval G(3) // {"));
  CHECK_FALSE(ReplSession::incomplete("game G = octal \"{\""));
  CHECK(ReplSession::incomplete("/* a comment"));
  CHECK_FALSE(ReplSession::incomplete("eval G(3))"));  // the parser reports it
}

TEST_CASE("completion offers commands, modules, keywords and games") {
  Repl r;
  r.run("game Kayles2(n) { take 1..2 }");
  auto has = [](const std::vector<std::string>& words, const std::string& w) {
    return std::find(words.begin(), words.end(), w) != words.end();
  };
  CHECK(r.session.completions(":lo") == std::vector<std::string>{":load"});
  CHECK(r.session.completions("std.h") == std::vector<std::string>{"std.heaps", "std.hexadecimal"});
  CHECK(r.session.completions("Kay") == std::vector<std::string>{"Kayles2"});
  std::vector<std::string> t = r.session.completions("ta");
  CHECK(has(t, "table"));
  CHECK(has(t, "take"));
  CHECK(has(r.session.completions("mi"), "misere"));
  CHECK(r.session.completions("zzz").empty());
  // Built-in functions and the words that are keywords only where they stand.
  CHECK(r.session.completions("pop") == std::vector<std::string>{"popcount"});
  CHECK(has(r.session.completions("sh"), "show"));
  CHECK(has(r.session.completions("co"), "count"));
  r.run("import std.heaps");
  CHECK(has(r.session.completions("Gru"), "Grundy"));
}

TEST_CASE("a limit stops an entry and the session goes on") {
  SECTION("the time limit keeps the values computed so far") {
    gdsl::Limits limits;
    limits.timeout = 0.3;
    std::ostringstream out, err;
    ReplSession session(BackendKind::Interp, out, err, limits);
    session.submit("game S(n) { move t(m in 1..min(3, n)) when m != 2 or n % 7 != 1 -> S(n - m) }");
    session.submit("eval S(100000000)");
    CHECK(err.str().find("stopped after 0.3 s, the time limit (--timeout)") != std::string::npos);
    CHECK(err.str().find("the values computed so far are kept") != std::string::npos);
    CHECK(session.memoSize() > 1000);
    out.str("");
    session.submit("eval S(8)");  // the clock starts again for each entry
    CHECK(out.str().find("S(8): ") != std::string::npos);
  }
  SECTION("the memory limit drops the values so that the session can go on") {
    gdsl::Limits limits;
    limits.maxMemory = gdsl::residentMemory() + (uint64_t{100} << 20);
    std::ostringstream out, err;
    ReplSession session(BackendKind::Interp, out, err, limits);
    // W(6000, 6000): its box has more cells than --max-states, so the hashed search runs.
    session.submit(
        "game W(a, b) {\n"
        "  move x(k in 1..min(a, 2)) -> W(a - k, b)\n"
        "  move y(k in 1..min(b, 2)) -> W(a, b - k)\n"
        "}");
    session.submit("eval W(6000, 6000)");
    CHECK(err.str().find("the limit (--max-memory)") != std::string::npos);
    CHECK(err.str().find("the values computed so far were dropped") != std::string::npos);
    CHECK(session.memoSize() == 0);
    session.submit("eval W(4, 5)");
    INFO(err.str());
    CHECK(out.str().find("W(4, 5): *3") != std::string::npos);
  }
}

TEST_CASE("a notebook's cell: commands on their own lines, the text keeping its lines", "[repl]") {
  Repl r;
  std::string cell =
      "game S(n) {\n"
      "  take {1, 3, 4}\n"
      "}\n"
      ":games\n"
      "table S(0..12)\n"
      ":stats\n"
      "eval S(y)\n";
  r.session.submitCell(cell, "In [1]");
  CHECK(r.out.str().find("S(n)\n") != std::string::npos);  // :games ran
  const std::string out = r.out.str();
  const size_t at = out.find("S(0..12):");
  REQUIRE(at != std::string::npos);
  CHECK(tableValues(out.substr(at, out.find('\n', at) - at)) == brute::subtraction(12, {1, 3, 4}));
  // The error is on the cell's seventh line, not the first of the text after :stats.
  CHECK(r.err.str().find("In [1]:7:8: error: unknown name 'y'") != std::string::npos);
  CHECK(r.session.lastFailed());
  CHECK_FALSE(r.session.lastStopped());

  // A line starting with ':' inside braces is not a command: the game's text is in error.
  r.out.str("");
  r.err.str("");
  r.session.submitCell("game T(n) {\n:games\n}", "In [2]");
  CHECK(r.out.str().empty());
  CHECK(r.err.str().find("In [2]:2:1: error") != std::string::npos);
  CHECK(r.session.lastFailed());

  r.session.submitCell("eval S(7)\n:stats", "In [3]");
  CHECK_FALSE(r.session.lastFailed());
  r.session.submitCell("assert S(7) == *1", "In [4]");
  CHECK(r.session.lastFailed());  // S(7) is 0: a failed assertion fails the cell
}

TEST_CASE("what Shift-Tab shows of a game: its declaration and its first values", "[repl]") {
  Repl r;
  r.run("game Sub(n) {\n  take {1, 3, 4}\n}");
  std::string about = r.session.describe("Sub", 1.0);
  CHECK(about.rfind("Sub(n)\n", 0) == 0);
  CHECK(about.find("take {1, 3, 4}") != std::string::npos);
  const size_t at = about.find("Sub(0..15):");
  REQUIRE(at != std::string::npos);
  CHECK(tableValues(about.substr(at, about.find('\n', at) - at)) ==
        brute::subtraction(15, {1, 3, 4}));
  CHECK(r.session.describe("max", 1.0).find("built-in function") != std::string::npos);
  CHECK(r.session.describe("Nothing", 1.0).empty());
  // Values that take longer than the time given are left out; the game is still shown.
  // (2.3 s for its 16 values: each move tries three million k.)
  r.run(
      "game Slow(n) {\n  move t(m in 1..n, k in 1..3000000) when (k * 7919) % 1000003 == 1\n"
      "    -> Slow(n - m)\n}");
  auto started = std::chrono::steady_clock::now();
  std::string slow = r.session.describe("Slow", 0.05);
  CHECK(std::chrono::steady_clock::now() - started <
        std::chrono::seconds(20));  // not 2.3 s of work per value
  CHECK(slow.rfind("Slow(n)\n", 0) == 0);
  CHECK(slow.find("Slow(0..15):") == std::string::npos);
}
