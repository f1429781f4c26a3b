// Hexadecimal games (`game H = hex "0.B1"`, docs/reference.md section 4.8):
// their values on both backends against the brute force of the definition
// (tests/brute/brute_force.h: every split into one, two or three heaps),
// for every code of one digit, every leading digit with one after the
// point, and codes of two and three digits drawn at random; a code with no
// bit 8 is the octal game of the same digits; periods proved with three-heap
// splits hold far past their proof; the `hex` word is contextual.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// The code's game valued to `maxN` on `kind`.
std::vector<uint64_t> values(gdsl::BackendKind kind, const std::string& code, int maxN) {
  gdsl::Session s{gdsl::StackOptions(kind)};
  INFO(code);
  REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
  return s.table("H", 0, maxN);
}

std::vector<uint64_t> widened(const brute::Table& t) {
  return {t.begin(), t.end()};
}

}  // namespace

TEST_CASE("hexadecimal codes of one digit against the brute force, on both backends", "[hex]") {
  const int maxN = brute::scaled(60, 30);
  const std::string digits = "0123456789ABCDEF";
  std::vector<std::string> codes;
  for (char d : digits)
    if (d != '0') codes.push_back(std::string("0.") + d);
  for (char lead : std::string("48C"))
    for (char d : digits) codes.push_back(std::string(1, lead) + "." + d);
  for (gdsl::BackendKind kind : testing::backends())
    for (const std::string& code : codes) {
      INFO(code << " on " << gdsl::backendKindName(kind));
      CHECK(values(kind, code, maxN) == widened(brute::hexadecimal(code, maxN)));
    }
}

TEST_CASE("hexadecimal codes of two and three digits drawn at random", "[hex]") {
  const int maxN = brute::scaled(45, 25);
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed));
  const std::string digits = "0123456789ABCDEFabcdef";
  for (int trial = 0; trial < brute::scaled(24, 8); ++trial) {
    std::string code = trial % 4 == 0 ? "8." : "0.";
    int length = 2 + static_cast<int>(random() % 2);
    for (int i = 0; i < length; ++i) code += digits[random() % digits.size()];
    for (gdsl::BackendKind kind : testing::backends()) {
      INFO(code << " on " << gdsl::backendKindName(kind));
      CHECK(values(kind, code, maxN) == widened(brute::hexadecimal(code, maxN)));
    }
  }
}

TEST_CASE("three-heap splits with values past 64 (wide pair sets) against the brute force",
          "[hex]") {
  // Values that grow with the heap: past 64 the pair sets take 2, 4, 8 ...
  // words (runtime/TakeBreakSolver.h), built again each time they widen.
  const int maxN = brute::scaled(400, 200);
  // Codes whose arithmetic period is proved (0.8, 0.C, 8.4) stop their
  // table at the proof; these grow without one (0.3F: saltus 3).
  for (const std::string code : {"0.18", "0.9", "0.E", "0.B8", "0.DD", "0.1C", "8.1", "0.3F"}) {
    INFO(code);
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
    const std::vector<uint64_t> got = s.table("H", 0, maxN);
    CHECK(got == widened(brute::hexadecimal(code, maxN)));
    const std::string report = s.tableReport();
    INFO(report);
    if (*std::max_element(got.begin(), got.end()) >= 128)
      CHECK(report.find("three heaps (pair sets of ") != std::string::npos);
  }
}

TEST_CASE("a hexadecimal code without bit 8 is the octal game of its digits", "[hex]") {
  for (const std::string code : {"0.77", "0.07", "0.137", "4.7", "0.6"}) {
    INFO(code);
    CHECK(values(gdsl::BackendKind::Interp, code, 200) == widened(brute::octal(code, 200)));
  }
}

TEST_CASE("hex is a word only between = and a string", "[hex]") {
  gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
  REQUIRE(s.load("names.game",
                 "const hex = 3\n"
                 "game hexa(n) { take 1..hex }\n"
                 "game H = hex \"0.F\"\n"));
  CHECK(s.grundy("hexa(5)") == 1);
  CHECK(s.grundy("H(6)") == 0);
  CHECK(s.grundy("H(5)") == 1);
}

TEST_CASE("periods of hexadecimal games are proved, and hold far past the proof", "[hex]") {
  // Every one-digit code a period is proved for by heap 300, its values
  // checked against the brute force to heap 450 (the proof needs values to
  // 3 n0 + 3p + t - 1: docs/heaps.md, "Three heaps").
  const int checkTo = brute::scaled(450, 200);
  int proved = 0;
  const std::string digits = "123456789ABCDEF";
  for (const std::string lead : {"0", "4", "8", "C"})
    for (char d : digits) {
      const std::string code = lead + "." + d;
      INFO(code);
      gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
      REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
      auto period = nlohmann::json::parse(s.runJson("period H(0..300)"));
      // Arithmetic periods (a saltus) have their own test: saltus_test.cpp.
      if (!period["proved"].get<bool>() || period["saltus"].get<int64_t>() != 0) continue;
      ++proved;
      const int64_t n0 = period["preperiod"].get<int64_t>(), p = period["period"].get<int64_t>();
      const int64_t proof = period["checked_to"].get<int64_t>();
      // The values the proof needs (t = 1): with splits into three heaps (bit 8),
      // up to 3 max(n0, 1) + 3p + t - 1; else Guy-Smith's 2 n0 + 2p + t - 1.
      const bool three = lead == "8" || lead == "C" || d >= '8';  // digits 8-9, A-F
      CHECK(proof >= (three ? 3 * std::max<int64_t>(n0, 1) + 3 * p : 2 * n0 + 2 * p));
      const brute::Table g = brute::hexadecimal(code, checkTo);
      for (int64_t n = n0 + p; n <= checkTo; ++n) {
        INFO("heap " << n << ", period " << p << " from " << n0);
        REQUIRE(g[static_cast<size_t>(n)] == g[static_cast<size_t>(n - p)]);
      }
    }
  CHECK(proved >= 20);  // most of them: 0.F, 0.B, 4.8, ...
}
