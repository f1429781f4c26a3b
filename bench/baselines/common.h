// Shared by the hand-written baselines: the checksum every implementation prints, so the
// harness can check that all of them computed the same values.
//   h = (h * 1000003 + v) mod (2^61 - 1), over the values in the row's order, from h = 0.
#pragma once
#include <cstdint>
#include <cstdio>

struct Checksum {
  uint64_t h = 0;
  uint64_t count = 0;
  void add(uint64_t v) {
    const uint64_t p = (uint64_t(1) << 61) - 1;
    h = uint64_t((unsigned __int128)(h * (unsigned __int128)1000003 + v) % p);
    ++count;
  }
};

inline void report(long long value, const Checksum& c) {
  std::printf("value=%lld checksum=%llu count=%llu\n", value, (unsigned long long)c.h,
              (unsigned long long)c.count);
}
