// Sparse space and the native take-and-break solver against the plain method:
// every octal game "0.d1d2d3" and "4.d1d2d3" (so every code with up to three
// digits) to 3000 heaps, with sparse space forced on from heap 64 (the best
// class, the best class with the heap-parity term, classes drawn at random),
// and with the default engine (the method chosen by cost, periods proved on
// the fly); all against the independent brute force. Codes like 0.106 must
// pick the classes with heap parity, and --verbose must say so.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "brute_force.h"
#include "driver/Session.h"
#include "sparse_variants.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// 3000 heaps; under sanitizers (GDSL_TEST_SCALE) fewer, still well past heap
// 64, where sparse space is forced on, and heap 256, where periods are checked.
const int kHeaps = brute::scaled(3000, 600);

std::vector<uint64_t> gdslTable(const std::string& code, gdsl::EngineOptions options, int heaps) {
  gdsl::StackOptions so;
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
  int differ = 0;
  uint64_t seed = 0x9e3779b97f4a7c15;
  int index = 0;
  for (const std::string& code : allCodes()) {
    if (!brute::sampled(index++)) continue;  // under sanitizers, a sample of the codes
    std::vector<uint64_t> expected = bruteTable(code, kHeaps);
    for (const auto& [what, options] : testing::sparseVariants(++seed)) {
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
  for (const auto& [what, options] : testing::sparseVariants(12345)) {
    INFO(what);
    gdsl::StackOptions so;
    so.engine = options;
    gdsl::Session s(so);
    REQUIRE(s.load("g.game",
                   "game Grundy(n) { split unequal }\n"
                   "game Mixed(n) {\n  take {2, 5}\n  split unequal\n  remove 3\n}\n"));
    const int heaps = brute::scaled(6000, 1000);
    brute::Table grundy = brute::grundyGame(heaps);
    CHECK(s.table("Grundy", 0, heaps) == std::vector<uint64_t>(grundy.begin(), grundy.end()));
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

TEST_CASE("take-and-break shapes are recognised in affine move rules, and only there", "[sparse]") {
  const char* source =
      "game Crosses(n) {\n"
      "  move place(i in 0..n-1) -> Crosses(max(i - 2, 0)) + Crosses(max(n - i - 3, 0))\n"
      "}\n"
      "game Cells(c) {\n  move place(a in 0..c-3) -> Cells(a) + Cells(c - 3 - a)\n}\n"
      "game Cut(n) {\n  move cut(a in 1..n-3) -> Cut(n - 2 - a) + Cut(a)\n}\n"
      "game Mixed(n) {\n"
      "  move tk(k in {1, 2}) when k <= n -> Mixed(n - k)\n"
      "  move sp(a in 1..(n - 1) / 2) -> Mixed(a) + Mixed(n - a)\n"
      "}\n"
      "game Third(n) {\n  move cut(a in 1..n/3) -> Third(a) + Third(n - a)\n}\n"
      "game EvenSplit(n) {\n  move sp(a in 1..n/2) when 2 * (n / 2) == n -> EvenSplit(a) + "
      "EvenSplit(n - a)\n}\n";
  constexpr int N = 2500;
  // Independent values: the brute forces, and Mixed, Third, EvenSplit written out.
  std::vector<uint64_t> mixed(N + 1), third(N + 1), even(N + 1);
  for (int n = 0; n <= N; ++n) {
    std::vector<brute::Value> m, t, e;
    for (int k : {1, 2})
      if (k <= n) m.push_back(static_cast<brute::Value>(mixed[n - k]));
    for (int a = 1; 2 * a < n; ++a) m.push_back(static_cast<brute::Value>(mixed[a] ^ mixed[n - a]));
    for (int a = 1; 3 * a <= n; ++a)
      t.push_back(static_cast<brute::Value>(third[a] ^ third[n - a]));
    if (n % 2 == 0)
      for (int a = 1; 2 * a <= n; ++a)
        e.push_back(static_cast<brute::Value>(even[a] ^ even[n - a]));
    mixed[n] = brute::mex(m);
    third[n] = brute::mex(t);
    even[n] = brute::mex(e);
  }
  auto asU64 = [](const brute::Table& t) { return std::vector<uint64_t>(t.begin(), t.end()); };
  for (gdsl::BackendKind kind : testing::backends())
    for (const auto& options : {gdsl::EngineOptions{}, testing::forcedSparse()}) {
      gdsl::StackOptions so(kind);
      so.engine = options;
      gdsl::Session s(so);
      REQUIRE(s.load("moves.game", source));
      CHECK(s.table("Crosses", 0, N) == asU64(brute::crosses(N)));
      CHECK(s.table("Cells", 0, N) == asU64(brute::octal("0.007", N)));
      CHECK(s.table("Cut", 0, N) == asU64(brute::octal("0.04", N)));
      CHECK(s.table("Mixed", 0, N) == mixed);
      CHECK(s.table("Third", 0, N) == third);
      CHECK(s.table("EvenSplit", 0, N) == even);
      std::string report = s.tableReport();
      INFO(report);
      for (const char* game : {"Crosses", "Cells", "Cut", "Mixed"})
        CHECK(report.find(std::string("gdsl: ") + game + ": " + std::to_string(N + 1) +
                          " heaps in a 16-bit table (0.0 MiB); take-and-break shape found") !=
              std::string::npos);
      // Not take-and-break, and the report says why.
      const std::pair<const char*, const char*> refused[] = {
          {"Third", "not take-and-break: rule 'cut' uses / by another number than 2"}};
      // Splitting only even heaps is splitting into parts of the same parity
      // (docs/heaps.md, "Splits with conditions"); its period is proved.
      CHECK(report.find("gdsl: EvenSplit: 32 heaps in a 16-bit table (0.0 MiB); take-and-break "
                        "shape found in its move rules; plain method (splits removing 0 where "
                        "the parts have the same parity); heaps 0-31 plain method; period 2 from 1 "
                        "proved") != std::string::npos);
      for (const auto& [game, why] : refused)
        CHECK(report.find(std::string("gdsl: ") + game + ": " + std::to_string(N + 1) +
                          " heaps in a 16-bit table (0.0 MiB); " + why) != std::string::npos);
    }
}

TEST_CASE("octal games whose values spread evenly pick classes with heap parity", "[sparse]") {
  // Values spread over 0..7, so no mask over the values' bits alone leaves
  // few rare heaps; with the heap's parity a handful remain.
  const int heaps = brute::scaled(20000, 4000);
  for (const char* code :
       {"0.106", "0.104", "0.217", "0.324", "0.205", "0.207", "0.215", "0.325"}) {
    gdsl::Session s;
    REQUIRE(s.load("octal.game", fmt::format("game G = octal \"{}\"\n", code)));
    CHECK(s.table("G", 0, heaps) == bruteTable(code, heaps));
    std::string report = s.tableReport();
    INFO(code << ": " << report);
    CHECK(report.find("; sparse space, mask ") != std::string::npos);
    CHECK(report.find(" with heap parity, ") != std::string::npos);
    // Sparse space from the first check on, never the plain method again.
    size_t from = report.find("heaps 0-511 plain method, 512-");
    CHECK(from != std::string::npos);
    CHECK(report.find("plain method", from + 20) == std::string::npos);
  }
  // Grundy's game keeps a mask over the values alone, and Kayles needs no
  // sparse space at all (its period is proved first).
  gdsl::Session s;
  REQUIRE(s.load("g.game", "game Grundy(n) { split unequal }\n"));
  s.table("Grundy", 0, heaps);
  std::string report = s.tableReport();
  INFO(report);
  CHECK(report.find("; sparse space, mask ") != std::string::npos);
  CHECK(report.find("heap parity") == std::string::npos);
}

TEST_CASE("the method is chosen by cost for each parity of removals", "[sparse]") {
  // 4.007 splits without removing (k = 0, even) and after removing 3 (odd):
  // two groups, each with its own class or the plain method.
  const int heaps = brute::scaled(6000, 2000);
  gdsl::Session s;
  REQUIRE(s.load("octal.game", "game G = octal \"4.007\"\n"));
  CHECK(s.table("G", 0, heaps) == bruteTable("4.007", heaps));
  std::string report = s.tableReport();
  INFO(report);
  CHECK(report.find("(splits removing 0)") != std::string::npos);
  CHECK(report.find("(splits removing 3)") != std::string::npos);
  // The plain method is chosen when no class pays: with sparse space
  // forbidden to use most classes (parity only), early heaps stay plain.
  gdsl::EngineOptions parityOnly;
  parityOnly.sparse.parity = 1;
  gdsl::StackOptions so;
  so.engine = parityOnly;
  gdsl::Session t(so);
  REQUIRE(t.load("g.game", "game Grundy(n) { split unequal }\n"));
  brute::Table grundy = brute::grundyGame(3000);
  CHECK(t.table("Grundy", 0, 3000) == std::vector<uint64_t>(grundy.begin(), grundy.end()));
  CHECK(t.tableReport().find("plain method (splits removing 0 (unequal)); heaps 0-3000 plain "
                             "method") != std::string::npos);
}

TEST_CASE("the plain method's split sets are shared between removals", "[sparse]") {
  // Twelve removals that split, six into unequal parts: at heap n the splits
  // after removing k are those of heap n - 1 after removing k - 1, so each
  // heap's split set is made once and read again for the next removals (from
  // the heap where the pairs pay for reading a set: below 256 as a set of bits
  // found by one walk, from 512 up as tags of the stamped pairs).
  const std::string source =
      "game G(n) {\n"
      "  move eq(k in 1..6, a in 1..(n - k) / 2) -> G(a) + G(n - k - a)\n"
      "  move uneq(k in 7..12, a in 1..(n - k - 1) / 2) -> G(a) + G(n - k - a)\n"
      "}\n";
  const int heaps = brute::scaled(4000, 2800);
  // The definition, plainly.
  std::vector<uint64_t> expected(static_cast<size_t>(heaps) + 1, 0);
  std::vector<char> seen;
  for (int n = 0; n <= heaps; ++n) {
    seen.assign(4096, 0);
    for (int k = 1; k <= 12; ++k)
      for (int a = 1; 2 * a <= n - k - (k > 6 ? 1 : 0); ++a)
        seen[expected[a] ^ expected[n - k - a]] = 1;
    uint64_t v = 0;
    while (seen[v]) ++v;
    expected[static_cast<size_t>(n)] = v;
  }
  REQUIRE(*std::max_element(expected.begin(), expected.end()) >= 512);
  gdsl::Session s;
  REQUIRE(s.load("g.game", source));
  CHECK(s.table("G", 0, heaps) == expected);
  std::string report = s.tableReport();
  INFO(report);
  CHECK(report.find("; split sets shared between removals from heap ") != std::string::npos);
  // And 0.777777777777777777 with sparse space off: nine removals of each parity.
  gdsl::EngineOptions plain;
  plain.sparse.enabled = false;
  gdsl::StackOptions so;
  so.engine = plain;
  gdsl::Session t(so);
  const std::string code = "0.777777777777777777";
  REQUIRE(t.load("octal.game", fmt::format("game G = octal \"{}\"\n", code)));
  // (Its pairs nearly all have values of their own: sets are made to measure
  // them, and read only when that pays.)
  CHECK(t.table("G", 0, heaps) == bruteTable(code, heaps));
}
