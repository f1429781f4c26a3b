// Sparse space and the native take-and-break solver against the plain method:
// every octal game "0.d1d2d3" and "4.d1d2d3" (so every code with up to three
// digits) to 3000 heaps, with sparse space forced on from heap 64 whatever
// the mask, and with the default engine (sparse space when it pays, periods
// proved on the fly); all against the independent brute force.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "brute_force.h"
#include "driver/Session.h"

namespace {

constexpr int kHeaps = 3000;

std::vector<uint64_t> gdslTable(const std::string& code, gdsl::EngineOptions options, int heaps) {
  gdsl::SessionOptions so;
  so.engine = options;
  gdsl::Session s(so);
  if (!s.load("octal.game", fmt::format("game G = octal \"{}\"\n", code))) FAIL(s.diagnostics());
  return s.table("G", 0, heaps);
}

std::vector<uint64_t> bruteTable(const std::string& code, int heaps) {
  brute::Table t = brute::octal(code, heaps);
  return std::vector<uint64_t>(t.begin(), t.end());
}

std::vector<std::string> allCodes() {
  std::vector<std::string> codes;
  for (const char* head : {"0", "4"})
    for (int d = 0; d < 512; ++d)
      codes.push_back(fmt::format("{}.{}{}{}", head, d / 64, d / 8 % 8, d % 8));
  return codes;
}

}  // namespace

TEST_CASE("sparse space equals the plain method on every octal code of up to three digits",
          "[sparse]") {
  gdsl::EngineOptions forced;
  forced.sparse.firstCheck = 64;
  forced.sparse.always = true;
  gdsl::EngineOptions byDefault;
  int differ = 0;
  for (const std::string& code : allCodes()) {
    std::vector<uint64_t> expected = bruteTable(code, kHeaps);
    for (const auto& [what, options] :
         {std::pair{"forced sparse space", forced}, std::pair{"default engine", byDefault}}) {
      std::vector<uint64_t> got = gdslTable(code, options, kHeaps);
      if (got != expected && ++differ <= 5) {
        size_t i = 0;
        while (i < got.size() && got[i] == expected[i]) ++i;
        FAIL_CHECK(code << " (" << what << "): g(" << i << ") = " << got[i] << ", expected "
                        << expected[i]);
      }
    }
  }
  CHECK(differ == 0);
}

TEST_CASE("sparse space equals the plain method on Grundy's game and a two-rule game", "[sparse]") {
  gdsl::EngineOptions forced;
  forced.sparse.firstCheck = 64;
  forced.sparse.always = true;
  for (const auto& options : {forced, gdsl::EngineOptions{}}) {
    gdsl::SessionOptions so;
    so.engine = options;
    gdsl::Session s(so);
    REQUIRE(s.load("g.game",
                   "game Grundy(n) { split unequal }\n"
                   "game Mixed(n) {\n  take {2, 5}\n  split unequal\n  remove 3\n}\n"));
    brute::Table grundy = brute::grundyGame(6000);
    CHECK(s.table("Grundy", 0, 6000) == std::vector<uint64_t>(grundy.begin(), grundy.end()));
    // take {2,5} + split unequal + remove 3, written out by positions.
    std::vector<uint64_t> mixed(3001, 0);
    for (int n = 0; n <= 3000; ++n) {
      std::vector<brute::Value> options;
      for (int k : {2, 5})
        if (k <= n) options.push_back(static_cast<brute::Value>(mixed[n - k]));
      for (int a = 1; 2 * a < n; ++a)
        options.push_back(static_cast<brute::Value>(mixed[a] ^ mixed[n - a]));
      for (int i = 0; 2 * i + 3 <= n; ++i)
        options.push_back(static_cast<brute::Value>(mixed[i] ^ mixed[n - 3 - i]));
      mixed[n] = brute::mex(options);
    }
    CHECK(s.table("Mixed", 0, 3000) == mixed);
  }
}
