// Arithmetic periods proved (runtime/SaltusProof.h, docs/heaps.md,
// "Arithmetic periods"): every hexadecimal code of one and two digits (and
// 4., 8., C. with one) whose arithmetic period is proved has the values of
// the brute force of the definition well past the proof, on both backends;
// so do codes of three digits drawn at random; and the check never proves a
// run of g(n + p) = g(n) + s that a longer table breaks.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "driver/Session.h"
#include "runtime/SaltusProof.h"
#include "test_backends.h"
#include "test_scale.h"

namespace {

// Every code with a digit of bit 8 (the only ones with arithmetic periods
// among these): 0.d and 0.dd (but not 0.d0, the game 0.d), and 4.d, 8.d, C.d.
std::vector<std::string> codesWithThreeHeaps() {
  const std::string digits = "0123456789ABCDEF";
  std::vector<std::string> codes;
  auto add = [&](const std::string& code) {
    for (char c : code)
      if (c != '.' && (std::stoi(std::string(1, c), nullptr, 16) & 8) != 0) {
        codes.push_back(code);
        return;
      }
  };
  for (char a : digits) {
    add(std::string("0.") + a);
    for (char b : digits)
      if (b != '0') add(std::string("0.") + a + b);  // 0.80 is 0.8
  }
  for (const char* lead : {"4.", "8.", "C."})
    for (char a : digits) add(lead + std::string(1, a));
  return codes;
}

struct Period {
  int64_t preperiod = 0, period = 0, saltus = 0, proofHeap = -1;
  bool proved = false;
};

Period periodOf(gdsl::Session& s, int to) {
  auto j = nlohmann::json::parse(s.runJson("period H(0.." + std::to_string(to) + ")"));
  Period p;
  if (j["period"].is_null()) return p;
  p.preperiod = j["preperiod"].get<int64_t>();
  p.period = j["period"].get<int64_t>();
  p.saltus = j["saltus"].get<int64_t>();
  p.proved = j["proved"].get<bool>();
  if (p.proved) p.proofHeap = j["proof_heap"].get<int64_t>();
  return p;
}

// The code's values to `to` on every backend against the brute force.
void checkValues(const std::string& code, int to) {
  const brute::Table want = brute::hexadecimal(code, to);
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Session s{gdsl::StackOptions(kind)};
    REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
    INFO(code << " on " << gdsl::backendKindName(kind));
    CHECK(s.table("H", 0, to) == std::vector<uint64_t>(want.begin(), want.end()));
  }
}

// The shape of a hexadecimal code, written out from its digits here (not
// by the compiler): digit k's bit 1 removes k and leaves nothing, 2 one
// heap, 4 two heaps, 8 three; the leading digit's 4 and 8 split without
// removing.
gdsl::ir::TakeBreakShape shapeOf(const std::string& code) {
  gdsl::ir::TakeBreakShape shape;
  std::vector<int> digit{std::stoi(code.substr(0, 1), nullptr, 16)};
  for (size_t i = 2; i < code.size(); ++i)
    digit.push_back(std::stoi(code.substr(i, 1), nullptr, 16));
  for (int64_t k = 0; k < static_cast<int64_t>(digit.size()); ++k) {
    const int d = digit[static_cast<size_t>(k)];
    if (k > 0 && (d & 1)) shape.whole.push_back(k);
    if (k > 0 && (d & 2)) shape.one.push_back(k);
    if (d & 4) shape.two.push_back(k);
    if (d & 8) shape.three.push_back(k);
  }
  shape.maxTake = static_cast<int64_t>(digit.size()) - 1;
  return shape;
}

}  // namespace

TEST_CASE("arithmetic periods of hexadecimal codes are proved and hold past the proof",
          "[hex][saltus]") {
  // Observed arithmetic periods whose saltus is a power of two are all
  // proved; the three codes with saltus 3 are not (docs/heaps.md).
  int proved = 0, index = 0;
  std::vector<std::string> unproved;
  for (const std::string& code : codesWithThreeHeaps()) {
    if (!brute::sampled(index++)) continue;
    INFO(code);
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
    const Period p = periodOf(s, 1200);
    if (p.saltus == 0) continue;
    if (!p.proved) {
      unproved.push_back(code);
      continue;
    }
    ++proved;
    // The proof's heap is where the theorem's induction starts (B - 1).
    CHECK(p.proofHeap >= p.preperiod + p.period);
    checkValues(code, static_cast<int>(std::max<int64_t>(2 * p.proofHeap, 300)));
  }
  if (brute::testScale() == 1) {
    CHECK(proved == 85);
    CHECK(unproved == std::vector<std::string>{"0.3F", "8.2", "8.6"});
  }
}

TEST_CASE("arithmetic periods of three-digit hexadecimal codes drawn at random hold past the proof",
          "[hex][saltus]") {
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed));
  const std::string digits = "0123456789ABCDEF";
  int proved = 0;
  for (int trial = 0; trial < brute::scaled(60, 8); ++trial) {
    std::string code = "0.";
    for (int i = 0; i < 3; ++i) code += digits[random() % digits.size()];
    code[2 + random() % 3] = digits[8 + random() % 8];  // a digit with bit 8
    INFO(code);
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
    const Period p = periodOf(s, 400);
    if (!p.proved || p.saltus == 0) continue;
    ++proved;
    checkValues(code, static_cast<int>(std::max<int64_t>(2 * p.proofHeap, 300)));
  }
  INFO(proved << " proved");
  CHECK(proved >= brute::scaled(60, 8) / 6);
}

TEST_CASE("the check's conditions make the theorem's induction step hold", "[hex][saltus]") {
  // The theorem's step: if F gives every heap below N its value, N's options
  // have the mex F(N). For each code's proved candidate, and for tables made
  // from it by changing a value before the first repeat ends (so F is no
  // longer the game's, and the check must judge it on its own), whenever the
  // check holds the step is verified by brute force at every N of several
  // blocks past B: every split of N valued by F, the mex taken.
  const uint64_t seed = brute::testSeed();
  INFO("replay with GDSL_TEST_SEED=" << seed);
  std::mt19937 random(static_cast<uint32_t>(seed));
  int held = 0, changedHeld = 0, index = 0;
  for (const std::string& code : codesWithThreeHeaps()) {
    if (!brute::sampled(index++)) continue;
    gdsl::Session s{gdsl::StackOptions(gdsl::BackendKind::Interp)};
    REQUIRE(s.load("hex.game", "game H = hex \"" + code + "\"\n"));
    const Period p = periodOf(s, 1200);
    if (!p.proved || p.saltus == 0) continue;
    const gdsl::ir::TakeBreakShape shape = shapeOf(code);
    const brute::Table g = brute::hexadecimal(code, static_cast<int>(p.preperiod + p.period));
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<uint32_t> first(g.begin(), g.end());
      if (trial > 0) {  // one value changed, by a little or to anything below 2S
        size_t at = random() % first.size();
        first[at] = trial % 2 ? static_cast<uint32_t>(random() % (2 * p.saltus))
                              : first[at] ^ (1u << (random() % 3));
      }
      const int64_t n0 = p.preperiod, P = p.period, S = p.saltus;
      auto F = [&](int64_t x) -> uint64_t {
        if (x < n0 + P) return first[static_cast<size_t>(x)];
        return first[static_cast<size_t>(n0 + (x - n0) % P)] +
               static_cast<uint64_t>(S) * ((x - n0) / P);
      };
      const int64_t count = n0 + P;
      gdsl::PeriodInfo candidate{n0, P, S, false, count - 1};
      const gdsl::SaltusProof proof =
          gdsl::checkSaltus(shape, gdsl::TableView{first.data(), true}, count, candidate);
      if (!proof.holds) continue;
      ++held;
      changedHeld += trial > 0;
      std::vector<char> seen;
      for (int64_t N = proof.heaps; N < proof.heaps + 4 * P + 16; ++N) {
        seen.assign(static_cast<size_t>(2 * F(N) + 4), 0);
        auto see = [&](uint64_t v) {
          if (v < seen.size()) seen[v] = 1;
        };
        for (int64_t k : shape.one) see(F(N - k));
        for (int64_t k : shape.two)
          for (int64_t a = 1; 2 * a <= N - k; ++a) see(F(a) ^ F(N - k - a));
        for (int64_t k : shape.three)
          for (int64_t a = 1; 3 * a <= N - k; ++a)
            for (int64_t b = a; 2 * b <= N - k - a; ++b) see(F(a) ^ F(b) ^ F(N - k - a - b));
        uint64_t mex = 0;
        while (seen[mex]) ++mex;
        INFO(code << (trial ? " with a changed table" : "") << ": heap " << N
                  << " (B = " << proof.heaps << ")");
        REQUIRE(mex == F(N));
      }
    }
  }
  INFO(held << " candidates held, " << changedHeld << " of them with a changed table");
  CHECK(changedHeld > 0);
}
