// The inner loop of the take-and-break solver's walks over splits, on small
// values (below 256 stored in 8 bits, or below 512 stored in 16): walk the
// pairs (a, m - a) from a small end, and for each whose option value
// x = g(a) ^ g(m - a) is in a set of wanted values, mark x (marks[x] = 1)
// and drop it from the set, until the value `stop` is found. An AVX-512
// version (64 pairs per step, the set looked up with byte permutes) or an
// AVX2 one (32 pairs per step, byte shuffles) is chosen at run time when the
// CPU has it; the portable version gives the same answer and leaves the same
// state. Values below 512 in 16 bits can also be walked
// over their low bytes, checking the full value only where the low byte hits.
// Also here, beside the other intrinsics: stampPairs, the walk that stamps
// every pair over values too large for a set, and clearRow, the solver's
// per-heap clear of a row of marks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gdsl {

// A set of values below 512, one bit each, laid out for byte shuffles (value
// v is bit (v >> 4) & 7 of byte (v & 15) + 16 * (v >> 7)): 64 bytes, cleared
// with two stores (the solver builds one per heap).
struct ValueSet {
  static constexpr uint32_t kSize = 512;
  alignas(32) uint8_t bits[64] = {};
  static unsigned byteOf(uint32_t v) { return (v & 15) | ((v >> 7) << 4); }
  static unsigned bitOf(uint32_t v) { return (v >> 4) & 7; }
  void add(uint32_t v) { bits[byteOf(v)] |= static_cast<uint8_t>(1u << bitOf(v)); }
  void remove(uint32_t v) { bits[byteOf(v)] &= static_cast<uint8_t>(~(1u << bitOf(v))); }
  bool has(uint32_t v) const { return (bits[byteOf(v)] >> bitOf(v)) & 1; }
};

// Which loops a walk may use: the portable one, AVX2, or AVX-512 (BW and
// VBMI; 64 pairs per step). A walk runs at the level asked for or at the
// CPU's best, whichever is lower.
enum class SimdLevel { portable, avx2, avx512 };
// The best level this CPU runs.
SimdLevel bestSimd();
const char* simdName(SimdLevel level);

// Walks a = from, from + 1, ..., hi (requires hi <= m / 2, so that m - a >= a):
// each pair whose value x is in `want` marks x and removes it from `want`.
// Returns the a whose pair made `stop` (the walk ends there), or hi + 1 when
// no pair did (pass stop >= 512 to walk them all). Every value g[i] must be
// below 256 (8 bits) or 512 (16 bits). Every level gives the same answer and
// state.
int64_t walkPairs(const uint8_t* g, int64_t m, int64_t from, int64_t hi, ValueSet& want,
                  uint32_t stop, uint8_t* marks, SimdLevel level);
int64_t walkPairs(const uint16_t* g, int64_t m, int64_t from, int64_t hi, ValueSet& want,
                  uint32_t stop, uint8_t* marks, SimdLevel level);
// The same walk over values below 512 in 16 bits, given also their low bytes
// (low[i] == g[i] & 0xff for every i <= m): the AVX-512 and AVX2 loops scan
// the low bytes, 64 or 32 pairs per step as on an 8-bit table, and check each
// pair whose low byte is wanted against its full value in g. Same answer and state as above.
int64_t walkPairs(const uint8_t* low, const uint16_t* g, int64_t m, int64_t from, int64_t hi,
                  ValueSet& want, uint32_t stop, uint8_t* marks, SimdLevel level);

// The proof walk over values too large for a set (16 bits, 512 and up): stamps
// every pair a = from, from + 1, ..., hi (stamps[x] = epoch, x the pair's
// value; requires hi <= m / 2 and every x below the stamps' size) until the
// pair whose value is `stop`, and returns its a (stamped too), or hi + 1.
// AVX-512 computes 32 pair values per step and finds `stop` among them with
// one compare; the stamps are stored one by one. Every level stamps the same.
int64_t stampPairs(const uint16_t* g, int64_t m, int64_t from, int64_t hi, uint32_t stop,
                   uint8_t* stamps, uint8_t epoch, SimdLevel level);

// Zeroes `bytes` bytes (a multiple of 64) at row with 16-byte stores: the
// solver clears a row of marks per heap, and a few hundred bytes cleared by
// memset became a `rep stos`, slow to start.
void clearRow(uint8_t* row, size_t bytes);

}  // namespace gdsl
