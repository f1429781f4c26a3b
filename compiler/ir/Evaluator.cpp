// Evaluation of IR expressions, with every runtime error of docs/reference.md
// section 3 (overflow, division by zero, index out of range) reported at the
// expression's source range.
#include "compiler/ir/Evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "compiler/ir/Arith.h"
#include "compiler/ir/Errors.h"
// Header-only: the stop flag that long loops poll (Ctrl-C, --timeout).
#include "compiler/support/Interrupt.h"

namespace gdsl::ir {

int64_t* ListArena::allocate(size_t count) {
  if (block_ < blocks_.size() && used_ + count <= blocks_[block_].size) {
    int64_t* p = blocks_[block_].data.get() + used_;
    used_ += count;
    return p;
  }
  // Move to the next block that is large enough (keeping older blocks for reuse).
  size_t next = blocks_.empty() ? 0 : block_ + 1;
  while (next < blocks_.size() && blocks_[next].size < count) ++next;
  if (next >= blocks_.size()) {
    size_t size = std::max(kBlock, count);
    blocks_.push_back(Block{std::make_unique_for_overwrite<int64_t[]>(size), size});
    next = blocks_.size() - 1;
  }
  block_ = next;
  used_ = count;
  return blocks_[block_].data.get();
}

namespace {
// One more than the largest int and list slot `e` names.
void slotsUsed(const Expr& e, size_t& ints, size_t& lists) {
  auto use = [&](Type t, int64_t slot) {
    size_t& n = t == Type::List ? lists : ints;
    n = std::max(n, static_cast<size_t>(slot) + 1);
  };
  if (e.op == Op::IntVar) use(Type::Int, e.imm);
  if (e.op == Op::ListVar) use(Type::List, e.imm);
  for (const Expr& k : e.kids) slotsUsed(k, ints, lists);
  for (const Step& s : e.steps) {
    if (s.slot >= 0) use(s.type, s.slot);
    for (const Expr* k : exprsOf(s)) slotsUsed(*k, ints, lists);
  }
}
}  // namespace

ScratchFrame::ScratchFrame(const Expr& e) {
  size_t ints = 0, lists = 0;
  slotsUsed(e, ints, lists);
  ints_.resize(ints);
  lists_.resize(lists);
}

void Evaluator::fail(const Expr& e, const std::string& message) const {
  throw RuntimeError(e.loc, message);
}

int64_t Evaluator::checkIndex(const Expr& e, int64_t index, int64_t size) const {
  if (index < 0 || index >= size) fail(e, errorText(ErrorCode::IndexOutOfRange, index, size));
  return index;
}

ListVal Evaluator::poolList(int index) const {
  const std::vector<int64_t>& l = program_.lists[index];
  return ListVal{l.data(), static_cast<int64_t>(l.size()), 0, false};
}

const std::vector<int>& Evaluator::nested(const Expr& e) const {
  return program_.nested[static_cast<size_t>(e.imm)];
}

int64_t Evaluator::evalInt(const Expr& e, const Frame& f) const {
  int64_t a = 0, b = 0, r = 0;
  // Most operands are variables or literals: read those without a call.
  auto operand = [&](const Expr& k) {
    if (k.op == Op::IntVar) return f.ints[k.imm];
    if (k.op == Op::IntConst) return k.imm;
    return evalInt(k, f);
  };
  auto both = [&] {
    a = operand(e.kids[0]);
    b = operand(e.kids[1]);
  };
  switch (e.op) {
    case Op::IntConst:
      return e.imm;
    case Op::IntVar:
      return f.ints[e.imm];
    case Op::Neg:
      a = evalInt(e.kids[0], f);
      if (!arith::neg(a, r)) fail(e, errorText(ErrorCode::NegOverflow, a, 0));
      return r;
    case Op::Abs:
      a = evalInt(e.kids[0], f);
      if (a < 0 && !arith::neg(a, r)) fail(e, errorText(ErrorCode::AbsOverflow, a, 0));
      return a < 0 ? r : a;
    case Op::Add:
      both();
      if (!arith::add(a, b, r)) fail(e, errorText(ErrorCode::Overflow, a, b, "+"));
      return r;
    case Op::Sub:
      both();
      if (!arith::sub(a, b, r)) fail(e, errorText(ErrorCode::Overflow, a, b, "-"));
      return r;
    case Op::Mul:
      both();
      if (!arith::mul(a, b, r)) fail(e, errorText(ErrorCode::Overflow, a, b, "*"));
      return r;
    case Op::Div:
      both();
      if (b == 0) fail(e, errorText(ErrorCode::DivisionByZero, a, b));
      if (!arith::floorDiv(a, b, r)) fail(e, errorText(ErrorCode::Overflow, a, b, "/"));
      return r;
    case Op::Mod:
      both();
      if (!arith::floorMod(a, b, r)) fail(e, errorText(ErrorCode::ModByZero, a, b));
      return r;
    case Op::Pow:
      both();
      if (b < 0) fail(e, errorText(ErrorCode::NegativeExponent, a, b));
      if (!arith::pow(a, b, r)) fail(e, errorText(ErrorCode::Overflow, a, b, "**"));
      return r;
    case Op::Shl:
      both();
      if (b < 0) fail(e, errorText(ErrorCode::NegativeShift, a, b));
      if (!arith::shl(a, b, r)) fail(e, errorText(ErrorCode::ShiftTooFar, a, b));
      return r;
    case Op::Shr:
      both();
      if (!arith::shr(a, b, r)) fail(e, errorText(ErrorCode::NegativeShift, a, b));
      return r;
    case Op::BitAnd:
      both();
      return a & b;
    case Op::BitOr:
      both();
      return a | b;
    case Op::BitXor:
      both();
      return a ^ b;
    case Op::Min:
    case Op::Max: {
      r = evalInt(e.kids[0], f);
      for (size_t i = 1; i < e.kids.size(); ++i) {
        b = evalInt(e.kids[i], f);
        r = e.op == Op::Min ? std::min(r, b) : std::max(r, b);
      }
      return r;
    }
    case Op::MinList:
    case Op::MaxList: {
      ListVal l = evalList(e.kids[0], f);
      if (l.size == 0)
        fail(e, errorText(e.op == Op::MinList ? ErrorCode::EmptyMin : ErrorCode::EmptyMax, 0, 0));
      if (l.isRange) return e.op == Op::MinList ? l.lo : l.lo + l.size - 1;
      return e.op == Op::MinList ? *std::min_element(l.data, l.data + l.size)
                                 : *std::max_element(l.data, l.data + l.size);
    }
    case Op::Len:
      if (e.kids[0].type == Type::ListList) return static_cast<int64_t>(nested(e.kids[0]).size());
      return evalList(e.kids[0], f).size;
    case Op::Index: {
      ListVal l = evalList(e.kids[0], f);
      return l.at(checkIndex(e, evalInt(e.kids[1], f), l.size));
    }
    case Op::Not:
      return !evalInt(e.kids[0], f);
    case Op::And:
      return evalInt(e.kids[0], f) && evalInt(e.kids[1], f);
    case Op::Or:
      return evalInt(e.kids[0], f) || evalInt(e.kids[1], f);
    case Op::Eq:
      both();
      return a == b;
    case Op::Ne:
      both();
      return a != b;
    case Op::Lt:
      both();
      return a < b;
    case Op::Le:
      both();
      return a <= b;
    case Op::Gt:
      both();
      return a > b;
    case Op::Ge:
      both();
      return a >= b;
    case Op::ListEq:
    case Op::ListNe: {
      ListVal l = evalList(e.kids[0], f), m = evalList(e.kids[1], f);
      bool equal = l.size == m.size;
      for (int64_t i = 0; equal && i < l.size; ++i) equal = l.at(i) == m.at(i);
      return e.op == Op::ListEq ? equal : !equal;
    }
    case Op::Popcount: {
      a = evalInt(e.kids[0], f);
      auto magnitude = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
      return std::popcount(magnitude);
    }
    case Op::AnyOf:
    case Op::AllOf:
    case Op::CountOf:
    case Op::SumOf:
      return fold(e, f);
    case Op::InList: {
      a = evalInt(e.kids[0], f);
      ListVal l = evalList(e.kids[1], f);
      if (l.isRange) return a >= l.lo && a - l.lo < l.size;
      return std::find(l.data, l.data + l.size, a) != l.data + l.size;
    }
    default:
      break;
  }
  fail(e, fmt::format("internal error: {} is not an integer operation", opName(e.op)));
}

ListVal Evaluator::evalList(const Expr& e, const Frame& f) const {
  switch (e.op) {
    case Op::ListConst:
      return poolList(static_cast<int>(e.imm));
    case Op::ListVar:
      return f.lists[e.imm];
    case Op::Range: {
      int64_t lo = evalInt(e.kids[0], f), hi = evalInt(e.kids[1], f);
      int64_t size = 0;
      if (hi >= lo && (!arith::sub(hi, lo, size) || !arith::add(size, 1, size)))
        fail(e, errorText(ErrorCode::RangeTooLarge, lo, hi));
      return ListVal{nullptr, hi >= lo ? size : 0, lo, true};
    }
    case Op::MakeList:
    case Op::MakeSet: {
      int64_t* out = arena_.allocate(e.kids.size());
      for (size_t i = 0; i < e.kids.size(); ++i) out[i] = evalInt(e.kids[i], f);
      int64_t size = static_cast<int64_t>(e.kids.size());
      if (e.op == Op::MakeSet) {
        std::sort(out, out + size);
        size = std::unique(out, out + size) - out;
      }
      return ListVal{out, size, 0, false};
    }
    case Op::Sort: {
      ListVal l = evalList(e.kids[0], f);
      if (l.isRange) return l;
      int64_t* out = arena_.allocate(static_cast<size_t>(l.size));
      std::copy(l.data, l.data + l.size, out);
      std::sort(out, out + l.size);
      return ListVal{out, l.size, 0, false};
    }
    case Op::SetElem: {
      ListVal l = evalList(e.kids[0], f);
      int64_t i = checkIndex(e, evalInt(e.kids[1], f), l.size);
      int64_t v = evalInt(e.kids[2], f);
      if (l.size > kMaxSetLength) fail(e, errorText(ErrorCode::SetTooLarge, 0, 0));
      int64_t* out = arena_.allocate(static_cast<size_t>(l.size));
      for (int64_t j = 0; j < l.size; ++j) out[j] = l.at(j);
      out[i] = v;
      return ListVal{out, l.size, 0, false};
    }
    case Op::Bits: {
      int64_t a = evalInt(e.kids[0], f);
      if (a < 0) fail(e, errorText(ErrorCode::NegativeBits, a, 0));
      int64_t size = std::popcount(static_cast<uint64_t>(a));
      int64_t* out = arena_.allocate(static_cast<size_t>(size));
      for (int64_t i = 0; a != 0; a &= a - 1) out[i++] = std::countr_zero(static_cast<uint64_t>(a));
      return ListVal{out, size, 0, false};
    }
    case Op::Collect:
      return collect(e, f);
    case Op::IndexNested: {
      const std::vector<int>& n = nested(e.kids[0]);
      int64_t i = checkIndex(e, evalInt(e.kids[1], f), static_cast<int64_t>(n.size()));
      return poolList(n[static_cast<size_t>(i)]);
    }
    default:
      break;
  }
  fail(e, fmt::format("internal error: {} is not a list operation", opName(e.op)));
}

template <typename Each>
bool Evaluator::walk(const std::vector<Step>& steps, size_t index, const Frame& f,
                     Each& each) const {
  if (index == steps.size()) return each();
  const Step& s = steps[index];
  switch (s.kind) {
    case Step::Kind::Guard:
      return !evalInt(s.value, f) || walk(steps, index + 1, f, each);
    case Step::Kind::Let:
      if (s.type == Type::List)
        f.lists[s.slot] = evalList(s.value, f);
      else
        f.ints[s.slot] = evalInt(s.value, f);
      return walk(steps, index + 1, f, each);
    case Step::Kind::Bind:
      break;
  }
  // What the body builds is released after each element.
  ListArena::Mark mark = arena_.mark();
  bool go = true;
  if (s.domain.isRange) {
    int64_t lo = evalInt(s.domain.lo, f), hi = evalInt(s.domain.hi, f);
    for (int64_t v = lo; go && v <= hi; ++v) {
      if ((v & 0xffff) == 0) checkInterrupt();  // a huge range can take long
      f.ints[s.slot] = v;
      go = walk(steps, index + 1, f, each);
      arena_.release(mark);
      if (v == hi) break;  // no overflow at INT64_MAX
    }
    return go;
  }
  if (s.domain.list.type == Type::ListList) {
    for (int row : nested(s.domain.list)) {
      f.lists[s.slot] = poolList(row);
      if (!walk(steps, index + 1, f, each)) return false;
    }
    return true;
  }
  ListVal l = evalList(s.domain.list, f);
  mark = arena_.mark();
  for (int64_t i = 0; go && i < l.size; ++i) {
    if ((i & 0xffff) == 0xffff) checkInterrupt();
    f.ints[s.slot] = l.at(i);
    go = walk(steps, index + 1, f, each);
    arena_.release(mark);
  }
  return go;
}

bool Evaluator::forEach(const std::vector<Step>& steps, const Frame& f,
                        const std::function<bool()>& each) const {
  auto call = [&] { return each(); };
  return walk(steps, 0, f, call);
}

// any and all stop at the first element that decides them, so an element
// after it is never evaluated (and cannot fail).
int64_t Evaluator::fold(const Expr& e, const Frame& f) const {
  int64_t acc = e.op == Op::AllOf ? 1 : 0;
  auto each = [&] {
    int64_t v = evalInt(e.kids[0], f);
    switch (e.op) {
      case Op::AnyOf:
        acc = v != 0;
        return !acc;
      case Op::AllOf:
        acc = v != 0;
        return acc != 0;
      case Op::CountOf:
        acc += v != 0;
        return true;
      default: {
        int64_t sum = 0;
        if (!arith::add(acc, v, sum)) fail(e, errorText(ErrorCode::Overflow, acc, v, "+"));
        acc = sum;
        return true;
      }
    }
  };
  walk(e.steps, 0, f, each);
  return acc;
}

// The elements are gathered apart from the arena (the body's lists are
// released after each element), then copied into it.
ListVal Evaluator::collect(const Expr& e, const Frame& f) const {
  std::vector<int64_t> items;
  auto each = [&] {
    if (static_cast<int64_t>(items.size()) >= kMaxSetLength)
      fail(e, errorText(ErrorCode::ListTooLong, 0, 0));
    items.push_back(evalInt(e.kids[0], f));
    return true;
  };
  walk(e.steps, 0, f, each);
  int64_t* out = arena_.allocate(items.size());
  std::copy(items.begin(), items.end(), out);
  return ListVal{out, static_cast<int64_t>(items.size()), 0, false};
}

}  // namespace gdsl::ir
