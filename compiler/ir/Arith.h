// Checked 64-bit arithmetic with the language's semantics (docs/reference.md section
// 3): floor division and its remainder, overflow and division by zero are
// errors. Each function returns false instead of producing a wrong value; the
// interpreter and the JIT share these definitions.
#pragma once

#include <cstdint>

namespace gdsl::arith {

inline bool add(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}
inline bool sub(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_sub_overflow(a, b, &out);
}
inline bool mul(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

inline bool neg(int64_t a, int64_t& out) {
  return sub(0, a, out);
}

// Floor division (rounds toward minus infinity); false on b == 0 or overflow.
inline bool floorDiv(int64_t a, int64_t b, int64_t& out) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return false;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  out = q;
  return true;
}

// The remainder of floor division: has the sign of b; false on b == 0.
inline bool floorMod(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  if (b == -1) {
    out = 0;
    return true;
  }
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  out = r;
  return true;
}

// a ** b for b >= 0 (0 ** 0 is 1); false when b < 0 or the power overflows.
inline bool pow(int64_t a, int64_t b, int64_t& out) {
  if (b < 0) return false;
  int64_t result = 1, base = a;
  for (;;) {
    if ((b & 1) && !mul(result, base, result)) return false;
    b >>= 1;
    if (b == 0) break;
    if (!mul(base, base, base)) return false;
  }
  out = result;
  return true;
}

// a << b for 0 <= b < 64 without losing bits; false otherwise.
inline bool shl(int64_t a, int64_t b, int64_t& out) {
  if (b < 0 || b >= 64) return false;
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if ((r >> b) != a) return false;
  out = r;
  return true;
}

// Calls f(v) for each v in lo..hi in order (none when lo > hi), without
// overflowing when hi is INT64_MAX.
template <typename F>
void forEachInRange(int64_t lo, int64_t hi, F&& f) {
  if (lo > hi) return;
  for (int64_t v = lo;; ++v) {
    f(v);
    if (v == hi) break;
  }
}

// Arithmetic a >> b for b >= 0; false for a negative shift.
inline bool shr(int64_t a, int64_t b, int64_t& out) {
  if (b < 0) return false;
  out = b >= 64 ? (a < 0 ? -1 : 0) : (a >> b);
  return true;
}

}  // namespace gdsl::arith
