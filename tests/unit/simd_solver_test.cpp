// The take-and-break solver's AVX2 inner loops against its portable ones
// (SparseOptions::simd = false, what GDSL_SIMD=off chooses), against the
// plain method and against the independent brute force: the walk kernel of
// runtime/PairScan.h on random tables and sets (8-bit and 16-bit values);
// every octal code "0.d1d2d3" and "4.d1d2d3" with the plain method, forced
// sparse space and the default engine, each with and without AVX2; Grundy's
// game far enough for sparse space to stamp the rare heaps in blocks; and
// games whose values pass 256 and 512, where the solver's walks go from its
// 8-bit table to the low bytes of 16-bit values, then stop
// (0.777777777777777777). The walk over low bytes is also compared with the
// 16-bit walk on random tables.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "brute_force.h"
#include "driver/Session.h"
#include "runtime/PairScan.h"
#include "sparse_variants.h"
#include "test_scale.h"

namespace {

std::vector<uint64_t> table(const std::string& source, const std::string& game,
                            gdsl::EngineOptions options, int heaps) {
  gdsl::StackOptions so;
  so.engine = options;
  gdsl::Session s(so);
  if (!s.load("g.game", source)) FAIL(s.diagnostics());
  return s.table(game, 0, heaps);
}

// The engine configurations: the solver's plain method, sparse space forced
// from heap 64, and the default (method by cost, periods on the fly); each
// with AVX-512 and AVX2 (each when the CPU has it) and with the portable loops.
std::vector<std::pair<std::string, gdsl::EngineOptions>> configurations() {
  std::vector<std::pair<std::string, gdsl::EngineOptions>> out;
  for (gdsl::SimdLevel simd :
       {gdsl::SimdLevel::avx512, gdsl::SimdLevel::avx2, gdsl::SimdLevel::portable}) {
    std::string how = gdsl::simdName(simd);
    gdsl::EngineOptions plain;
    plain.sparse.enabled = false;
    gdsl::EngineOptions forced = testing::forcedSparse();
    gdsl::EngineOptions byDefault;
    for (auto* o : {&plain, &forced, &byDefault}) o->sparse.simd = simd;
    out.emplace_back("plain method, " + how, plain);
    out.emplace_back("forced sparse space, " + how, forced);
    out.emplace_back("default engine, " + how, byDefault);
  }
  return out;
}

// The first index where two tables differ, for the failure message.
size_t firstDifference(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

template <class T>
void compareWalks(int bound, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 400; ++trial) {
    const int64_t size = 64 + static_cast<int64_t>(rng() % 3000);
    // Skewed values, as real tables are: mostly small, now and then up to the bound.
    std::vector<T> g(static_cast<size_t>(size));
    for (T& v : g)
      v = static_cast<T>(rng() % 4 == 0 ? rng() % static_cast<uint64_t>(bound) : rng() % 16);
    const int64_t m = 2 + static_cast<int64_t>(rng() % static_cast<uint64_t>(size - 2));
    const int64_t hi = static_cast<int64_t>(rng() % static_cast<uint64_t>(m / 2 + 1));
    const int64_t from = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi + 1));
    gdsl::ValueSet want;
    const int wanted = static_cast<int>(rng() % 40);
    // Half of the sets over 16-bit values want only values below 256: the walk
    // over low bytes then checks a hit by its full value alone.
    const uint64_t wantBound = bound > 256 && rng() % 2 ? 256 : static_cast<uint64_t>(bound);
    for (int i = 0; i < wanted; ++i) want.add(static_cast<uint32_t>(rng() % wantBound));
    uint32_t stop = static_cast<uint32_t>(rng() % wantBound);
    if (rng() % 4 == 0) stop = gdsl::ValueSet::kSize;  // walk them all
    if (rng() % 2 == 0) want.add(stop % gdsl::ValueSet::kSize);
    gdsl::ValueSet wantPortable = want;
    std::vector<uint8_t> marksPortable(gdsl::ValueSet::kSize + 64, 0);
    const int64_t b = gdsl::walkPairs(g.data(), m, from, hi, wantPortable, stop,
                                      marksPortable.data(), gdsl::SimdLevel::portable);
    INFO("trial " << trial << ": m " << m << ", pairs " << from << ".." << hi << ", stop " << stop);
    // Every level (up to the CPU's best) leaves the portable walk's answer and state; 16-bit
    // values also over their low bytes, checked against the full values.
    std::vector<uint8_t> low(g.size());
    for (size_t i = 0; i < g.size(); ++i) low[i] = static_cast<uint8_t>(g[i]);
    for (gdsl::SimdLevel level : {gdsl::SimdLevel::avx2, gdsl::SimdLevel::avx512}) {
      INFO("level " << gdsl::simdName(level));
      for (bool overLow : {false, true}) {
        if (overLow && sizeof(T) == 1) continue;
        gdsl::ValueSet wantSimd = want;
        std::vector<uint8_t> marksSimd(gdsl::ValueSet::kSize + 64, 0);
        int64_t a = 0;
        if constexpr (sizeof(T) == 2) {
          if (overLow)
            a = gdsl::walkPairs(low.data(), g.data(), m, from, hi, wantSimd, stop, marksSimd.data(),
                                level);
        }
        if (!overLow)
          a = gdsl::walkPairs(g.data(), m, from, hi, wantSimd, stop, marksSimd.data(), level);
        INFO("over low bytes " << overLow);
        REQUIRE(a == b);
        REQUIRE(marksSimd == marksPortable);
        REQUIRE(std::memcmp(wantSimd.bits, wantPortable.bits, sizeof want.bits) == 0);
      }
    }
    // And against the definition: the first pair at or after `from` that makes `stop`.
    int64_t expected = hi + 1;
    for (int64_t p = from; p <= hi; ++p)
      if (static_cast<uint32_t>(g[static_cast<size_t>(p)] ^ g[static_cast<size_t>(m - p)]) ==
              stop &&
          want.has(stop)) {
        expected = p;
        break;
      }
    if (want.has(stop % gdsl::ValueSet::kSize) || stop >= gdsl::ValueSet::kSize)
      CHECK(b == expected);
  }
}

}  // namespace

TEST_CASE("the AVX-512 and AVX2 walks over splits equal the portable one", "[sparse][simd]") {
  INFO("the CPU's best: " << gdsl::simdName(gdsl::bestSimd()));
  compareWalks<uint8_t>(256, 1);
  compareWalks<uint16_t>(512, 2);
}

TEST_CASE("the AVX-512 stamping walk over 16-bit values equals the portable one and the definition",
          "[sparse][simd]") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 400; ++trial) {
    const int64_t size = 64 + static_cast<int64_t>(rng() % 3000);
    std::vector<uint16_t> g(static_cast<size_t>(size));
    for (uint16_t& v : g) v = static_cast<uint16_t>(rng() % 4 == 0 ? rng() % 4096 : rng() % 700);
    const int64_t m = 2 + static_cast<int64_t>(rng() % static_cast<uint64_t>(size - 2));
    const int64_t hi = static_cast<int64_t>(rng() % static_cast<uint64_t>(m / 2 + 1));
    const int64_t from = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi + 1));
    // A value some pair makes (often), or any value, or one no pair can make.
    uint32_t stop = static_cast<uint32_t>(rng() % 4096);
    if (rng() % 2 == 0 && from <= hi) {
      const int64_t p = from + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - from + 1));
      stop = g[static_cast<size_t>(p)] ^ g[static_cast<size_t>(m - p)];
    } else if (rng() % 4 == 0) {
      stop = 65536;
    }
    INFO("trial " << trial << ": m " << m << ", pairs " << from << ".." << hi << ", stop " << stop);
    // The definition: every pair from `from` up to the first that makes `stop` is stamped.
    std::vector<uint8_t> expected(4096, 5);
    int64_t end = hi + 1;
    for (int64_t p = from; p <= hi; ++p) {
      const uint32_t x = g[static_cast<size_t>(p)] ^ g[static_cast<size_t>(m - p)];
      expected[x] = 7;
      if (x == stop) {
        end = p;
        break;
      }
    }
    for (gdsl::SimdLevel level : {gdsl::SimdLevel::portable, gdsl::SimdLevel::avx512}) {
      INFO("level " << gdsl::simdName(level));
      std::vector<uint8_t> stamps(4096, 5);
      CHECK(gdsl::stampPairs(g.data(), m, from, hi, stop, stamps.data(), 7, level) ==
            std::max(end, from));
      CHECK(stamps == expected);
    }
  }
}

TEST_CASE(
    "SIMD and portable loops equal the plain method on every octal code of up to three digits",
    "[sparse][simd]") {
  const int heaps = brute::scaled(2000, 400);
  int differ = 0;
  for (const char* head : {"0", "4"})
    for (int d = 0; d < 512; ++d) {
      if (!brute::sampled(d)) continue;  // under sanitizers, a sample of the codes
      std::string code = fmt::format("{}.{}{}{}", head, d / 64, d / 8 % 8, d % 8);
      brute::Table b = brute::octal(code, heaps);
      std::vector<uint64_t> expected(b.begin(), b.end());
      std::string source = fmt::format("game G = octal \"{}\"\n", code);
      for (const auto& [what, options] : configurations()) {
        std::vector<uint64_t> got = table(source, "G", options, heaps);
        if (got != expected && ++differ <= 5) {
          size_t i = firstDifference(got, expected);
          FAIL_CHECK(code << " (" << what << "): g(" << i << ") = " << got[i] << ", expected "
                          << expected[i]);
        }
      }
    }
  CHECK(differ == 0);
}

TEST_CASE("SIMD and portable loops equal the brute force on Grundy's game", "[sparse][simd]") {
  // Far enough for a thousand rare heaps: sparse space stamps them in blocks.
  const int heaps = brute::scaled(40000, 4000);
  brute::Table b = brute::grundyGame(heaps);
  std::vector<uint64_t> expected(b.begin(), b.end());
  for (const auto& [what, options] : configurations()) {
    if (options.sparse.enabled == false && heaps > 20000) continue;  // the plain method: below
    std::vector<uint64_t> got =
        table("game Grundy(n) { split unequal }\n", "Grundy", options, heaps);
    size_t i = firstDifference(got, expected);
    INFO(what << ": g(" << i << ")");
    CHECK(got == expected);
  }
  for (const auto& [what, options] : configurations()) {
    if (options.sparse.enabled) continue;
    const int few = brute::scaled(20000, 4000);
    std::vector<uint64_t> got = table("game Grundy(n) { split unequal }\n", "Grundy", options, few);
    INFO(what);
    CHECK(got == std::vector<uint64_t>(expected.begin(), expected.begin() + few + 1));
  }
}

TEST_CASE("SIMD and portable loops widen past 256 and 512 with the same values", "[sparse][simd]") {
  // 0.777777777777777777: values reach 256 at heap 319 and 512 at heap 614,
  // so the solver leaves its 8-bit table, then walks the low bytes of 16-bit
  // values below 512, then stamps every pair.
  const std::string code = "0.777777777777777777";
  const int heaps = brute::scaled(2500, 800);
  brute::Table b = brute::octal(code, heaps);
  std::vector<uint64_t> expected(b.begin(), b.end());
  REQUIRE(*std::max_element(expected.begin(), expected.end()) >= 512);
  for (const auto& [what, options] : configurations()) {
    std::vector<uint64_t> got =
        table(fmt::format("game G = octal \"{}\"\n", code), "G", options, heaps);
    size_t i = firstDifference(got, expected);
    INFO(what << ": g(" << i << ")");
    CHECK(got == expected);
  }
}
