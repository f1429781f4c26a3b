// Linear bounds of integer expressions (see Bounds.h). Every arithmetic step
// on the forms is checked: a form whose coefficients would overflow is
// dropped, so a bound is lost, never wrong.
#include "compiler/ir/Bounds.h"

#include <algorithm>
#include <numeric>

namespace gdsl::ir {
namespace {

// At most this many forms per bound: sums combine every pair.
constexpr size_t kMaxForms = 4;

bool mulOk(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
bool addOk(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

LinearForm constant(size_t params, int64_t k) {
  LinearForm f;
  f.c0 = k;
  f.c.assign(params, 0);
  return f;
}

// a * sa + b * sb over one denominator (sa, sb are +1 or -1, or b absent).
std::optional<LinearForm> combine(const LinearForm& a, int64_t sa, const LinearForm& b,
                                  int64_t sb) {
  LinearForm out;
  int64_t g = std::gcd(a.den, b.den);
  int64_t fa = b.den / g, fb = a.den / g;  // a.den * fa == b.den * fb
  if (!mulOk(a.den, fa, out.den)) return std::nullopt;
  auto term = [&](int64_t x, int64_t y, int64_t& r) {
    int64_t p = 0, q = 0;
    return mulOk(x, fa * sa, p) && mulOk(y, fb * sb, q) && addOk(p, q, r);
  };
  if (!term(a.c0, b.c0, out.c0)) return std::nullopt;
  out.c.assign(a.c.size(), 0);
  for (size_t i = 0; i < a.c.size(); ++i)
    if (!term(a.c[i], b.c[i], out.c[i])) return std::nullopt;
  return out;
}

std::optional<LinearForm> scale(const LinearForm& a, int64_t k) {
  LinearForm out = a;
  if (!mulOk(a.c0, k, out.c0)) return std::nullopt;
  for (size_t i = 0; i < a.c.size(); ++i)
    if (!mulOk(a.c[i], k, out.c[i])) return std::nullopt;
  return out;
}

std::optional<LinearForm> divide(const LinearForm& a, int64_t k) {  // k > 0
  LinearForm out = a;
  if (!mulOk(a.den, k, out.den)) return std::nullopt;
  return out;
}

// Every a + b (or a - b) of a form of `x` and a form of `y`, at most kMaxForms.
std::vector<LinearForm> pairs(const std::vector<LinearForm>& x, const std::vector<LinearForm>& y,
                              int64_t sign) {
  std::vector<LinearForm> out;
  for (const LinearForm& a : x)
    for (const LinearForm& b : y)
      if (out.size() < kMaxForms)
        if (auto f = combine(a, 1, b, sign)) out.push_back(*f);
  return out;
}

std::vector<LinearForm> scaled(const std::vector<LinearForm>& x, int64_t k) {
  std::vector<LinearForm> out;
  for (const LinearForm& a : x)
    if (auto f = scale(a, k)) out.push_back(*f);
  return out;
}

void append(std::vector<LinearForm>& to, const std::vector<LinearForm>& from) {
  for (const LinearForm& f : from)
    if (to.size() < kMaxForms) to.push_back(f);
}

}  // namespace

// Each parameter is >= 0; along the chain p[k0] <= p[k1] <= ..., writing
// p[kj] = q + d1 + ... + dj with q, d >= 0 turns f into c0 + (sum of the
// chain's coefficients) q + ..., whose coefficients are the suffix sums.
bool BoundsEnv::nonNegative(const LinearForm& f) const {
  std::vector<bool> inChain(f.c.size(), false);
  for (size_t k : chain_)
    if (k < inChain.size()) inChain[k] = true;
  // Off the chain, a parameter at least m with a coefficient c >= 0 adds at
  // least c * m.
  __int128 least = f.c0;
  for (size_t i = 0; i < f.c.size(); ++i) {
    if (inChain[i]) continue;
    if (f.c[i] < 0) return false;
    if (i < minParam_.size()) least += static_cast<__int128>(f.c[i]) * minParam_[i];
  }
  if (least < 0) return false;
  int64_t suffix = 0;
  for (size_t j = chain_.size(); j-- > 0;) {
    if (chain_[j] >= f.c.size()) continue;
    if (__builtin_add_overflow(suffix, f.c[chain_[j]], &suffix) || suffix < 0) return false;
  }
  return true;
}

std::vector<LinearForm> BoundsEnv::dominated(const std::vector<std::vector<LinearForm>>& operands,
                                             size_t a, int64_t sign) const {
  std::vector<LinearForm> out;
  for (const LinearForm& f : operands[a]) {
    bool all = true;
    for (size_t j = 0; j < operands.size() && all; ++j) {
      if (j == a) continue;
      bool some = false;
      for (const LinearForm& g : operands[j])
        if (auto d = combine(g, sign, f, -sign); d && nonNegative(*d)) some = true;
      all = some;
    }
    if (all && out.size() < kMaxForms) out.push_back(f);
  }
  return out;
}

std::vector<size_t> normalizedOrder(const Game& g) {
  if (!g.normalize || g.params.size() != 2 || g.params[0].type != Type::Int ||
      g.params[1].type != Type::Int)
    return {};
  const Expr& lo = (*g.normalize)[0];
  const Expr& hi = (*g.normalize)[1];
  auto vars = [](const Expr& e) {
    std::vector<int64_t> out;
    for (const Expr& k : e.kids)
      if (k.op == Op::IntVar) out.push_back(k.imm);
    std::sort(out.begin(), out.end());
    return out;
  };
  std::vector<int64_t> both{g.params[0].slot, g.params[1].slot};
  std::sort(both.begin(), both.end());
  if (lo.kids.size() != 2 || hi.kids.size() != 2 || vars(lo) != both || vars(hi) != both) return {};
  if (lo.op == Op::Min && hi.op == Op::Max) return {0, 1};
  if (lo.op == Op::Max && hi.op == Op::Min) return {1, 0};
  return {};
}

void BoundsEnv::setParam(int slot, size_t index) {
  LinearForm f = constant(params_, 0);
  f.c[index] = 1;
  set(slot, Bounds{{f}, {f}});
}

void BoundsEnv::set(int slot, Bounds b) {
  if (slot < 0) return;
  if (slots_.size() <= static_cast<size_t>(slot)) slots_.resize(static_cast<size_t>(slot) + 1);
  slots_[static_cast<size_t>(slot)] = std::move(b);
}

void BoundsEnv::forget(int slot) {
  if (slot >= 0 && static_cast<size_t>(slot) < slots_.size())
    slots_[static_cast<size_t>(slot)].reset();
}

const std::optional<Bounds>& BoundsEnv::slot(int slot) const {
  static const std::optional<Bounds> none;
  if (slot < 0 || static_cast<size_t>(slot) >= slots_.size()) return none;
  return slots_[static_cast<size_t>(slot)];
}

Bounds BoundsEnv::of(const Expr& e) const {
  auto constantOf = [](const Expr& x) -> std::optional<int64_t> {
    if (x.op == Op::IntConst) return x.imm;
    return std::nullopt;
  };
  switch (e.op) {
    case Op::IntConst:
      return {{constant(params_, e.imm)}, {constant(params_, e.imm)}};
    case Op::IntVar:
      if (const std::optional<Bounds>& b = slot(static_cast<int>(e.imm))) return *b;
      return {};
    case Op::Add: {
      Bounds a = of(e.kids[0]), b = of(e.kids[1]);
      return {pairs(a.lo, b.lo, 1), pairs(a.hi, b.hi, 1)};
    }
    case Op::Sub: {
      Bounds a = of(e.kids[0]), b = of(e.kids[1]);
      return {pairs(a.lo, b.hi, -1), pairs(a.hi, b.lo, -1)};
    }
    case Op::Neg: {
      Bounds a = of(e.kids[0]);
      return {scaled(a.hi, -1), scaled(a.lo, -1)};
    }
    case Op::Mul: {
      for (int side = 0; side < 2; ++side)
        if (std::optional<int64_t> k = constantOf(e.kids[static_cast<size_t>(side)])) {
          Bounds a = of(e.kids[static_cast<size_t>(1 - side)]);
          if (*k >= 0) return {scaled(a.lo, *k), scaled(a.hi, *k)};
          return {scaled(a.hi, *k), scaled(a.lo, *k)};
        }
      return {};
    }
    case Op::Div: {
      // Floor division by a positive constant k: x/k - (k-1)/k <= floor(x/k) <= x/k.
      std::optional<int64_t> k = constantOf(e.kids[1]);
      if (!k || *k <= 0) return {};
      Bounds a = of(e.kids[0]), out;
      for (const LinearForm& f : a.hi)
        if (auto d = divide(f, *k)) out.hi.push_back(*d);
      for (const LinearForm& f : a.lo)
        if (auto g = combine(f, 1, constant(params_, *k - 1), -1))
          if (auto d = divide(*g, *k)) out.lo.push_back(*d);
      return out;
    }
    case Op::Mod: {
      std::optional<int64_t> k = constantOf(e.kids[1]);
      if (!k || *k <= 0) return {};
      return {{constant(params_, 0)}, {constant(params_, *k - 1)}};
    }
    case Op::Min:
    case Op::Max: {
      // min: every upper form of an operand bounds it, and a lower form of an
      // operand that is below some lower form of each other one; max the other
      // way round.
      std::vector<std::vector<LinearForm>> los, his;
      for (const Expr& k : e.kids) {
        Bounds b = of(k);
        los.push_back(std::move(b.lo));
        his.push_back(std::move(b.hi));
      }
      Bounds out;
      bool isMin = e.op == Op::Min;
      for (size_t a = 0; a < e.kids.size(); ++a) {
        if (isMin) {
          append(out.hi, his[a]);
          append(out.lo, dominated(los, a, 1));
        } else {
          append(out.lo, los[a]);
          append(out.hi, dominated(his, a, -1));
        }
      }
      // Operands all >= 0: so is their min.
      if (isMin && out.lo.empty()) {
        bool allNonNegative = true;
        for (const Expr& k : e.kids) allNonNegative = allNonNegative && atLeast(of(k), 0);
        if (allNonNegative) out.lo.push_back(constant(params_, 0));
      }
      return out;
    }
    case Op::BitAnd: {
      // With a non-negative operand the result is between 0 and it.
      for (size_t side = 0; side < 2; ++side) {
        Bounds a = of(e.kids[side]);
        if (atLeast(a, 0)) return {{constant(params_, 0)}, a.hi};
      }
      return {};
    }
    case Op::Abs: {
      Bounds a = of(e.kids[0]);
      if (atLeast(a, 0)) return a;
      return {{constant(params_, 0)}, {}};
    }
    default:
      break;
  }
  if (e.type == Type::Bool) return {{constant(params_, 0)}, {constant(params_, 1)}};
  return {};
}

bool BoundsEnv::atLeast(const Bounds& b, int64_t k) const {
  for (const LinearForm& f : b.lo)
    if (auto d = combine(f, 1, constant(params_, k), -1); d && nonNegative(*d)) return true;
  return false;
}

void BoundsEnv::assumeNonEmpty(const Bounds& var) {
  for (const LinearForm& lo : var.lo)
    for (const LinearForm& hi : var.hi) {
      // hi - lo >= 0; with one parameter in it, c * p + d >= 0 (over den), so
      // p >= ceil(-d / c).
      std::optional<LinearForm> d = combine(hi, 1, lo, -1);
      if (!d) continue;
      size_t which = d->c.size();
      bool one = true;
      for (size_t i = 0; i < d->c.size(); ++i) {
        if (d->c[i] == 0) continue;
        one = one && which == d->c.size() && d->c[i] > 0;
        which = i;
      }
      if (!one || which == d->c.size()) continue;
      int64_t c = d->c[which], num = -d->c0;  // p >= num / c
      int64_t least = num >= 0 ? (num + c - 1) / c : -((-num) / c);
      if (minParam_.size() < params_) minParam_.resize(params_, 0);
      minParam_[which] = std::max(minParam_[which], least);
    }
}

bool BoundsEnv::small(const Bounds& b) const {
  // The extreme of f over 0 <= p[i] <= maxParam, exactly, in 128 bits.
  auto extreme = [&](const LinearForm& f, bool top) {
    __int128 v = f.c0;
    for (int64_t c : f.c)
      if ((c > 0) == top && c != 0) v += static_cast<__int128>(c) * maxParam_;
    return v / f.den;
  };
  const __int128 limit = static_cast<__int128>(1) << 62;
  bool low = false, high = false;
  for (const LinearForm& f : b.lo) low = low || extreme(f, false) >= -limit;
  for (const LinearForm& f : b.hi) high = high || extreme(f, true) <= limit;
  return low && high;
}

bool BoundsEnv::atMostParam(const Bounds& b, size_t param, int64_t k) const {
  LinearForm target = constant(params_, k);
  target.c[param] = 1;
  for (const LinearForm& f : b.hi)
    if (auto d = combine(target, 1, f, -1); d && nonNegative(*d)) return true;
  return false;
}

}  // namespace gdsl::ir
