// PairScan: walks over splits looking for wanted values, and the stamping
// walk over larger values; portable, AVX2 and AVX-512 (see PairScan.h).
#include "runtime/PairScan.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define GDSL_PAIRSCAN_X86 1
#endif

namespace gdsl {

namespace {

template <class T>
int64_t walkPortable(const T* g, int64_t m, int64_t a, int64_t hi, ValueSet& want, uint32_t stop,
                     uint8_t* marks) {
  for (; a <= hi; ++a) {
    uint32_t x = static_cast<uint32_t>(g[a] ^ g[m - a]);
    if (!want.has(x)) continue;
    marks[x] = 1;
    want.remove(x);
    if (x == stop) return a;
  }
  return a;
}

// stampPairs, portable.
int64_t stampPortable(const uint16_t* g, int64_t m, int64_t a, int64_t hi, uint32_t stop,
                      uint8_t* stamps, uint8_t epoch) {
  for (; a <= hi; ++a) {
    uint32_t x = static_cast<uint32_t>(g[a] ^ g[m - a]);
    stamps[x] = epoch;
    if (x == stop) return a;
  }
  return a;
}

#ifdef GDSL_PAIRSCAN_X86
// Membership of 32 bytes x in a 256-value set held as two 16-byte tables
// (values with high nibble 0-7, and 8-15): bit (x >> 4) & 7 of table[x & 15].
struct Lookup {
  __m256i bit, nibble, seven, zero;
  __attribute__((target("avx2"))) Lookup()
      : bit(_mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8,
                             16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128)),
        nibble(_mm256_set1_epi8(0x0f)),
        seven(_mm256_set1_epi8(7)),
        zero(_mm256_setzero_si256()) {}
  // 0xff in each byte whose value is in the set (tLow, tHigh).
  __attribute__((target("avx2"))) __m256i in(__m256i x, __m256i tLow, __m256i tHigh) const {
    __m256i lo = _mm256_and_si256(x, nibble);
    __m256i hn = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    __m256i row = _mm256_blendv_epi8(_mm256_shuffle_epi8(tLow, lo), _mm256_shuffle_epi8(tHigh, lo),
                                     _mm256_cmpgt_epi8(hn, seven));
    __m256i hit = _mm256_and_si256(row, _mm256_shuffle_epi8(bit, hn));
    return _mm256_xor_si256(_mm256_cmpeq_epi8(hit, zero), _mm256_set1_epi8(-1));
  }
};

__attribute__((target("avx2"))) inline __m256i table16(const uint8_t* p) {
  return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(p)));
}

// The 16 bytes at p or'ed with those 32 bytes on (the same low bytes in
// the set's values 256-511).
__attribute__((target("avx2"))) inline __m256i lowTable16(const uint8_t* p) {
  return _mm256_or_si256(table16(p), table16(p + 32));
}

// What the bytes a walk scans are: the values themselves (8-bit tables); the
// low bytes of 16-bit values g while every wanted value is below 256 (a hit
// is a pair whose full value is below 256: `low` when the low bytes are a
// copy the walk is given, `below256` when it packs them from g itself); or low
// bytes checked against the set (`checked`).
enum class Scan { exact, low, below256, checked };

// The hits of one step (bit i: pair a + i), taken in order, from the bytes
// scanned (`scan`) and the values (g). Returns the pair that made `stop`, or
// -1. A value seen twice in the step is marked and removed twice: the same
// state, and no branch on it (with `checked`, the second one is not in the set
// any more and is skipped).
template <Scan S, class T, class Mask>
int64_t takeHits(const uint8_t* scan, const T* g, int64_t m, int64_t a, Mask hits, ValueSet& want,
                 uint32_t stop, uint8_t* marks) {
  for (; hits; hits &= hits - 1) {
    int64_t b = a + static_cast<int64_t>(std::countr_zero(hits));
    uint32_t x;
    if constexpr (S == Scan::low) {
      // The value from the low bytes just scanned (in the cache); the full
      // values only confirm it is below 256, off the path that uses it.
      x = static_cast<uint32_t>(scan[b] ^ scan[m - b]);
      if ((g[b] ^ g[m - b]) >= 256) continue;
    } else {
      x = static_cast<uint32_t>(g[b] ^ g[m - b]);
    }
    if constexpr (S == Scan::below256)
      if (x >= 256) continue;
    if constexpr (S == Scan::checked)
      if (!want.has(x)) continue;
    marks[x] = 1;
    want.remove(x);
    if (x == stop) return b;
  }
  return -1;
}

// The set's 16-byte table for byte shuffles at byte offset `at` (values
// 0-127 at 0, 128-255 at 16); `checked`: or'ed with the same bytes of the
// values 256-511, to look up low bytes.
template <Scan S>
__attribute__((target("avx2"))) inline __m256i byteTable(const ValueSet& want, int at) {
  if constexpr (S == Scan::checked) return lowTable16(want.bits + at);
  return table16(want.bits + at);
}

// 32 pairs per step over bytes: x = scan[a..a+31] ^ reversed
// scan[m-a-31..m-a], with scan the 8-bit table itself (g == scan) or, with
// `low` or `checked`, the low bytes of the 16-bit values g.
template <Scan S, class T>
__attribute__((target("avx2"))) int64_t walkAvx2Bytes(const uint8_t* scan, const T* g, int64_t m,
                                                      int64_t a, int64_t hi, ValueSet& want,
                                                      uint32_t stop, uint8_t* marks) {
  const Lookup look;
  const __m256i reverse = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15,
                                           14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  __m256i tLow = byteTable<S>(want, 0), tHigh = byteTable<S>(want, 16);
  for (; a + 31 <= hi; a += 32) {
    __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(scan + a));
    __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(scan + (m - a - 31)));
    y = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(y, reverse), 0x4e);
    uint32_t hits =
        static_cast<uint32_t>(_mm256_movemask_epi8(look.in(_mm256_xor_si256(x, y), tLow, tHigh)));
    if (!hits) continue;
    int64_t b = takeHits<S>(scan, g, m, a, hits, want, stop, marks);
    if (b >= 0) return b;
    tLow = byteTable<S>(want, 0);
    tHigh = byteTable<S>(want, 16);
  }
  return walkPortable(g, m, a, hi, want, stop, marks);
}

// Values below 512 in 16 bits, 32 pairs per step: the low bytes of the 32
// option values are looked up in the set's first or second 256 values by
// their high byte (0 or 1; above is never in the set).
__attribute__((target("avx2"))) int64_t walkAvx2(const uint16_t* g, int64_t m, int64_t a,
                                                 int64_t hi, ValueSet& want, uint32_t stop,
                                                 uint8_t* marks) {
  const Lookup look;
  const __m256i reverse = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14,
                                           15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
  const __m256i lowByte = _mm256_set1_epi16(0xff);
  const __m256i one = _mm256_set1_epi8(1);
  __m256i t0 = table16(want.bits), t1 = table16(want.bits + 16);
  __m256i t2 = table16(want.bits + 32), t3 = table16(want.bits + 48);
  for (; a + 31 <= hi; a += 32) {
    __m256i x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + a));
    __m256i x2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + a + 16));
    __m256i y1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + (m - a - 31)));
    __m256i y2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g + (m - a - 15)));
    // Pair a + i (i < 16) takes g[m - a - i]: y2 reversed; pair a + 16 + i: y1 reversed.
    __m256i v1 =
        _mm256_xor_si256(x1, _mm256_permute4x64_epi64(_mm256_shuffle_epi8(y2, reverse), 0x4e));
    __m256i v2 =
        _mm256_xor_si256(x2, _mm256_permute4x64_epi64(_mm256_shuffle_epi8(y1, reverse), 0x4e));
    __m256i lo = _mm256_permute4x64_epi64(
        _mm256_packus_epi16(_mm256_and_si256(v1, lowByte), _mm256_and_si256(v2, lowByte)), 0xd8);
    __m256i hb = _mm256_permute4x64_epi64(
        _mm256_packus_epi16(_mm256_srli_epi16(v1, 8), _mm256_srli_epi16(v2, 8)), 0xd8);
    __m256i in0 = _mm256_and_si256(look.in(lo, t0, t1), _mm256_cmpeq_epi8(hb, look.zero));
    __m256i in1 = _mm256_and_si256(look.in(lo, t2, t3), _mm256_cmpeq_epi8(hb, one));
    uint32_t hits = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(in0, in1)));
    if (!hits) continue;
    int64_t b = takeHits<Scan::exact>(nullptr, g, m, a, hits, want, stop, marks);
    if (b >= 0) return b;
    t0 = table16(want.bits);
    t1 = table16(want.bits + 16);
    t2 = table16(want.bits + 32);
    t3 = table16(want.bits + 48);
  }
  return walkPortable(g, m, a, hi, want, stop, marks);
}

// The low bytes of the 64 16-bit values at p.
__attribute__((target("avx512f,avx512bw"))) inline __m512i packLowBytes(const uint16_t* p) {
  // (maskz forms: GCC 12's plain ones warn of an undefined operand)
  const __m256i lo = _mm512_maskz_cvtepi16_epi8(~uint32_t{0}, _mm512_loadu_si512(p));
  const __m256i hi = _mm512_maskz_cvtepi16_epi8(~uint32_t{0}, _mm512_loadu_si512(p + 32));
  return _mm512_maskz_inserti64x4(
      0xff, _mm512_maskz_inserti64x4(0xff, _mm512_setzero_si512(), lo, 0), hi, 1);
}

// The set's 64 bytes for a byte permute; `checked`: the union of its two
// halves of 256 values, in the first 32 bytes (looked up by low byte).
template <Scan S>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline __m512i setTable512(
    const ValueSet& want) {
  if constexpr (S == Scan::checked)
    return _mm512_castsi256_si512(
        _mm256_or_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(want.bits)),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(want.bits + 32))));
  else
    return _mm512_loadu_si512(want.bits);
}

// AVX-512 (BW and VBMI): 64 pairs per step. The set's 64 bytes are looked up
// with one byte permute (index (v & 15) | 16 * (v >> 7)), the bit with an
// in-lane shuffle, and the hits come out as a 64-bit mask. Unless `exact`, the
// bytes scanned are low bytes of 16-bit values g, and each hit is checked
// against its full value (`checked`: the set is the union of its two halves).
// `Packed`: no copy of the low bytes; each step packs them from g.
template <Scan S, class T, bool Packed = false>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) int64_t walkAvx512(
    const uint8_t* scan, const T* g, int64_t m, int64_t a, int64_t hi, ValueSet& want,
    uint32_t stop, uint8_t* marks) {
  alignas(64) static constexpr uint8_t kReverse[64] = {
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
      41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
      19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
  alignas(64) static constexpr uint8_t kBit[64] = {
      1,  2,   4,  8,   16, 32, 64, 128, 1,  2,   4,  8,   16, 32, 64, 128, 1,  2,   4,  8,  16, 32,
      64, 128, 1,  2,   4,  8,  16, 32,  64, 128, 1,  2,   4,  8,  16, 32,  64, 128, 1,  2,  4,  8,
      16, 32,  64, 128, 1,  2,  4,  8,   16, 32,  64, 128, 1,  2,  4,  8,   16, 32,  64, 128};
  const __m512i reverse = _mm512_load_si512(kReverse);
  const __m512i bit = _mm512_load_si512(kBit);
  const __m512i low4 = _mm512_set1_epi8(0x0f), bit4 = _mm512_set1_epi8(0x10),
                seven = _mm512_set1_epi8(7);
  __m512i t = setTable512<S>(want);
  for (; a + 63 <= hi; a += 64) {
    __m512i x, y;
    if constexpr (Packed) {
      x = packLowBytes(g + a);
      y = _mm512_maskz_permutexvar_epi8(~uint64_t{0}, reverse, packLowBytes(g + (m - a - 63)));
    } else {
      x = _mm512_loadu_si512(scan + a);
      y = _mm512_maskz_permutexvar_epi8(~uint64_t{0}, reverse,
                                        _mm512_loadu_si512(scan + (m - a - 63)));
    }
    __m512i v = _mm512_xor_si512(x, y);
    __m512i index =
        _mm512_or_si512(_mm512_and_si512(v, low4), _mm512_and_si512(_mm512_srli_epi16(v, 3), bit4));
    // (maskz forms of the permutes: GCC 12's plain ones warn of an undefined operand)
    __m512i row = _mm512_maskz_permutexvar_epi8(~uint64_t{0}, index, t);
    __m512i mask = _mm512_shuffle_epi8(bit, _mm512_and_si512(_mm512_srli_epi16(v, 4), seven));
    uint64_t hits = _mm512_test_epi8_mask(row, mask);
    if (!hits) continue;
    int64_t b = takeHits<S>(scan, g, m, a, hits, want, stop, marks);
    if (b >= 0) return b;
    t = setTable512<S>(want);
  }
  if constexpr (Packed)
    return walkAvx2(g, m, a, hi, want, stop, marks);
  else
    return walkAvx2Bytes<S>(scan, g, m, a, hi, want, stop, marks);
}

// stampPairs with AVX-512 (BW): 32 pair values per step, written to a buffer
// that the stamping loop reads; the compare with `stop` tells how many of them
// to stamp.
__attribute__((target("avx512f,avx512bw"))) int64_t stampAvx512(const uint16_t* g, int64_t m,
                                                                int64_t a, int64_t hi,
                                                                uint32_t stop, uint8_t* stamps,
                                                                uint8_t epoch) {
  alignas(64) static constexpr uint16_t kReverse[32] = {31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21,
                                                        20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                                                        9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
  const __m512i reverse = _mm512_load_si512(kReverse);
  const __m512i wanted = _mm512_set1_epi16(static_cast<short>(stop));
  alignas(64) uint16_t values[32];
  for (; a + 31 <= hi; a += 32) {
    __m512i x = _mm512_loadu_si512(g + a);
    __m512i y =
        _mm512_maskz_permutexvar_epi16(~uint32_t{0}, reverse, _mm512_loadu_si512(g + (m - a - 31)));
    __m512i v = _mm512_xor_si512(x, y);
    _mm512_store_si512(values, v);
    // stop >= 65536 matches no lane
    uint32_t found = stop < 65536 ? _mm512_cmpeq_epi16_mask(v, wanted) : 0;
    int count = found ? std::countr_zero(found) + 1 : 32;
    for (int i = 0; i < count; ++i) stamps[values[i]] = epoch;
    if (found) return a + count - 1;
  }
  return stampPortable(g, m, a, hi, stop, stamps, epoch);
}

// The CPU's features, read with cpuid when a walk first asks (not with
// __builtin_cpu_supports, whose library constructor runs a dozen cpuid
// instructions at every start, each a trap to the hypervisor in a VM).
struct CpuFeatures {
  bool avx2 = false, avx512 = false;
  CpuFeatures() {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    const bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave || !avx || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return;
    // The OS saves the vector registers: XMM and YMM state (bits 1-2), and
    // for AVX-512 the opmask and ZMM state too (bits 5-7).
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    avx2 = (lo & 0x6) == 0x6 && ((b >> 5) & 1);
    avx512 = avx2 && (lo & 0xe6) == 0xe6 && ((b >> 16) & 1) /* F */ && ((b >> 30) & 1) /* BW */ &&
             ((c >> 1) & 1) /* VBMI */;
  }
};

const CpuFeatures& cpuFeatures() {
  static const CpuFeatures features;
  return features;
}

bool detectAvx512() {
  return cpuFeatures().avx512;
}

bool detectAvx2() {
  return cpuFeatures().avx2;
}

// Every wanted value is below 256 (the set's second half is empty; it only
// loses values during a walk): a hit over low bytes needs no look at the set.
bool below256(const ValueSet& want) {
  return std::all_of(want.bits + 32, want.bits + 64, [](uint8_t b) { return b == 0; });
}

// The level a walk runs at: the one asked for, at most the CPU's.
SimdLevel usable(SimdLevel asked) {
  return std::min(asked, bestSimd());
}
#endif

template <class T>
int64_t walk(const T* g, int64_t m, int64_t from, int64_t hi, ValueSet& want, uint32_t stop,
             uint8_t* marks, SimdLevel level) {
#ifdef GDSL_PAIRSCAN_X86
  switch (usable(level)) {
    case SimdLevel::avx512:
      if constexpr (sizeof(T) == 1)
        return walkAvx512<Scan::exact>(g, g, m, from, hi, want, stop, marks);
      else
        return below256(want)
                   ? walkAvx512<Scan::below256, T, true>(nullptr, g, m, from, hi, want, stop, marks)
                   : walkAvx512<Scan::checked, T, true>(nullptr, g, m, from, hi, want, stop, marks);
    case SimdLevel::avx2:
      if constexpr (sizeof(T) == 1)
        return walkAvx2Bytes<Scan::exact>(g, g, m, from, hi, want, stop, marks);
      else
        return walkAvx2(g, m, from, hi, want, stop, marks);
    case SimdLevel::portable:
      break;
  }
#else
  (void)level;
#endif
  return walkPortable(g, m, from, hi, want, stop, marks);
}

}  // namespace

SimdLevel bestSimd() {
#ifdef GDSL_PAIRSCAN_X86
  static const SimdLevel best = detectAvx512() ? SimdLevel::avx512
                                : detectAvx2() ? SimdLevel::avx2
                                               : SimdLevel::portable;
  return best;
#else
  return SimdLevel::portable;
#endif
}

const char* simdName(SimdLevel level) {
  switch (level) {
    case SimdLevel::avx512:
      return "AVX-512";
    case SimdLevel::avx2:
      return "AVX2";
    case SimdLevel::portable:
      break;
  }
  return "portable";
}

int64_t walkPairs(const uint8_t* g, int64_t m, int64_t from, int64_t hi, ValueSet& want,
                  uint32_t stop, uint8_t* marks, SimdLevel level) {
  return walk(g, m, from, hi, want, stop, marks, level);
}

int64_t walkPairs(const uint16_t* g, int64_t m, int64_t from, int64_t hi, ValueSet& want,
                  uint32_t stop, uint8_t* marks, SimdLevel level) {
  return walk(g, m, from, hi, want, stop, marks, level);
}

int64_t walkPairs(const uint8_t* low, const uint16_t* g, int64_t m, int64_t from, int64_t hi,
                  ValueSet& want, uint32_t stop, uint8_t* marks, SimdLevel level) {
#ifdef GDSL_PAIRSCAN_X86
  switch (usable(level)) {
    case SimdLevel::avx512:
      return below256(want) ? walkAvx512<Scan::low>(low, g, m, from, hi, want, stop, marks)
                            : walkAvx512<Scan::checked>(low, g, m, from, hi, want, stop, marks);
    case SimdLevel::avx2:
      return below256(want) ? walkAvx2Bytes<Scan::low>(low, g, m, from, hi, want, stop, marks)
                            : walkAvx2Bytes<Scan::checked>(low, g, m, from, hi, want, stop, marks);
    case SimdLevel::portable:
      break;
  }
#else
  (void)level;
  (void)low;
#endif
  return walkPortable(g, m, from, hi, want, stop, marks);
}

int64_t stampPairs(const uint16_t* g, int64_t m, int64_t from, int64_t hi, uint32_t stop,
                   uint8_t* stamps, uint8_t epoch, SimdLevel level) {
#ifdef GDSL_PAIRSCAN_X86
  if (usable(level) == SimdLevel::avx512) return stampAvx512(g, m, from, hi, stop, stamps, epoch);
#else
  (void)level;
#endif
  return stampPortable(g, m, from, hi, stop, stamps, epoch);
}

void clearRow(uint8_t* row, size_t bytes) {
#ifdef GDSL_PAIRSCAN_X86
  const __m128i zero = _mm_setzero_si128();
  for (size_t i = 0; i < bytes; i += 64) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i), zero);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i + 16), zero);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i + 32), zero);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i + 48), zero);
  }
#else
  std::memset(row, 0, bytes);
#endif
}

}  // namespace gdsl
