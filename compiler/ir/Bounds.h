// Bounds of integer expressions as linear forms in a function's parameters,
// for the JIT to leave out checks that cannot fail: a kernel's read of
// g(n - k) with k in 1..n is inside the table g[0..n-1]; a native search's
// successor Chomp(x, min(b, x), min(c, x)) with x in 1..a-1 is inside the box
// that holds Chomp(a, b, c). A form is c0 + c[0]*p[0] + ... over a positive
// denominator, where the parameters p[i] are integers >= 0; a bound is a set
// of such forms, each of which holds (the upper bounds of min(x, y) are those
// of x and those of y). Anything not understood has no bound, so a check is
// only ever dropped on a proof.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl::ir {

struct LinearForm {
  int64_t den = 1;         // > 0
  int64_t c0 = 0;          // the constant term
  std::vector<int64_t> c;  // one coefficient per parameter
};

struct Bounds {
  std::vector<LinearForm> lo, hi;  // each lower (upper) form is a bound of the value
};

// The order a position's parameters are in once normalized, when the game's
// rule sorts two of them: normalize -> G(min(a, b), max(a, b)) gives {0, 1}
// (p[0] <= p[1]), max before min {1, 0}. Empty otherwise. Such a game is
// symmetric under swapping them, which the JIT's box searches use
// (backend/jit/CodegenSearch.cpp: mirror cells).
std::vector<size_t> normalizedOrder(const Game& g);

class BoundsEnv {
 public:
  // A function of `params` parameters, each an integer in 0..maxParam.
  BoundsEnv(size_t params, int64_t maxParam) : params_(params), maxParam_(maxParam) {}

  // The parameters also satisfy p[chain[0]] <= p[chain[1]] <= ... (a position
  // normalized by sorting them: min and max of two parameters, say).
  void setOrder(std::vector<size_t> chain) { chain_ = std::move(chain); }
  // The same parameters and facts, no slots (another frame of the function).
  BoundsEnv emptyFrame() const {
    BoundsEnv e(params_, maxParam_);
    e.chain_ = chain_;
    e.minParam_ = minParam_;
    return e;
  }

  // Inside the body of a loop whose variable has bounds `var` the loop ran,
  // so its last value is at least its first: a lower bound of a parameter
  // (`take k in 1..(n - 1) / 2` runs only when n >= 3). The facts hold in the
  // body only: save them with minimums() before, and restore them after.
  void assumeNonEmpty(const Bounds& var);
  std::vector<int64_t> minimums() const { return minParam_; }
  void restoreMinimums(std::vector<int64_t> saved) { minParam_ = std::move(saved); }

  size_t params() const { return params_; }
  // Int slot `slot` holds exactly parameter `index`.
  void setParam(int slot, size_t index);
  // Int slot `slot` holds a value within `b` (a loop variable, a let).
  void set(int slot, Bounds b);
  void forget(int slot);
  const std::optional<Bounds>& slot(int slot) const;

  // The bounds of integer expression `e` in this environment.
  Bounds of(const Expr& e) const;
  // The bounds of a loop variable over lo..hi.
  Bounds range(const Expr& lo, const Expr& hi) const { return {of(lo).lo, of(hi).hi}; }

  // Whether some lower form of `b` is >= k for every parameter value.
  bool atLeast(const Bounds& b, int64_t k) const;
  // Whether some upper form of `b` is <= p[param] + k for every parameter value.
  bool atMostParam(const Bounds& b, size_t param, int64_t k) const;
  // Whether the value is proved to lie within +-2^62, so that adding or
  // subtracting two such values cannot overflow 64 bits.
  bool small(const Bounds& b) const;

  // Whether form f >= 0 for every parameter value the environment allows.
  bool nonNegative(const LinearForm& f) const;

 private:
  // The forms of operand `a` that are <= (sign 1) or >= (sign -1) some form
  // of every other operand.
  std::vector<LinearForm> dominated(const std::vector<std::vector<LinearForm>>& operands, size_t a,
                                    int64_t sign) const;

  size_t params_;
  int64_t maxParam_;
  std::vector<size_t> chain_;
  std::vector<int64_t> minParam_;  // p[i] >= minParam_[i] (0 when empty)
  std::vector<std::optional<Bounds>> slots_;
};

}  // namespace gdsl::ir
