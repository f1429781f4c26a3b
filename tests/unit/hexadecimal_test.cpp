// Hexadecimal games (`game H = hex "0.B1"`, docs/reference.md section 4.8):
// their values on both backends against the brute force of the definition
// (tests/brute/brute_force.h: every split into one, two or three heaps),
// for every code of one digit, every leading digit with one after the
// point, and codes of two and three digits drawn at random; a code with no
// bit 8 is the octal game of the same digits; the `hex` word is contextual.
#include <catch2/catch.hpp>
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
