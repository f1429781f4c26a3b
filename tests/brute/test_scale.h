// The sizes of the long brute-force tests, scaled down under sanitizers:
// GDSL_TEST_SCALE=N (scripts/sanitize.sh sets 4) divides them by N, never
// below a floor that keeps what the test is about (sparse space from heap 64,
// period checks from heap 256, ...). Unset or 1: the full sizes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>

namespace brute {

// The seed of a randomized test: GDSL_TEST_SEED when set (to replay a run
// whose failure printed its seed), otherwise a new one each run.
inline uint64_t testSeed() {
  if (const char* text = std::getenv("GDSL_TEST_SEED")) return std::strtoull(text, nullptr, 10);
  return std::random_device{}();
}

inline int testScale() {
  static const int scale = [] {
    const char* text = std::getenv("GDSL_TEST_SCALE");
    int n = text ? std::atoi(text) : 1;
    return n < 1 ? 1 : n;
  }();
  return scale;
}

// `full` divided by the scale, at least `floor`.
inline int scaled(int full, int floor) {
  return std::max(floor, full / testScale());
}

// Whether item `index` of a sweep over many inputs (every octal code of up to
// three digits, ...) runs: every item at full size, one in N under
// GDSL_TEST_SCALE=N (items 0, N, 2N, ...). The Release suite runs them all;
// the sanitized suite looks for memory errors, which the same code paths on a
// few hundred more inputs would seldom add.
inline bool sampled(int index) {
  return index % testScale() == 0;
}

}  // namespace brute
