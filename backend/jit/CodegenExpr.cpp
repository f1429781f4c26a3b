// FunctionEmitter's expressions: integers and conditions, with checked
// arithmetic (an operation that can fail branches to the bail block after the
// error helper has recorded the interpreter's message); lists (ListVal structs
// as in compiler/ir/Evaluator.h: ranges, constants, lists built in the
// context's arena, sorted, set); and comprehensions (folds, collected lists).
#include <algorithm>
#include <string>

#include "backend/jit/FunctionEmitter.h"

namespace gdsl::jit {

namespace {

// `sort` of a list this long or shorter runs inline, by insertion; a longer
// one calls std::sort.
constexpr int64_t kInlineSortLength = 16;

}  // namespace

// ---- lists --------------------------------------------------------------

void FunctionEmitter::storeList(Value* out, Value* data, Value* size, Value* lo, bool isRange) {
  B.CreateStore(data, B.CreateStructGEP(listTy, out, 0));
  B.CreateStore(size, B.CreateStructGEP(listTy, out, 1));
  B.CreateStore(lo, B.CreateStructGEP(listTy, out, 2));
  B.CreateStore(llvm::ConstantInt::get(i8, isRange ? 1 : 0), B.CreateStructGEP(listTy, out, 3));
}

Value* FunctionEmitter::listSize(Value* l) {
  return B.CreateLoad(i64, B.CreateStructGEP(listTy, l, 1));
}

// Element i of a list (no bounds check).
Value* FunctionEmitter::listAt(Value* l, Value* i) {
  auto elementOfData = [&] {
    Value* data = B.CreateLoad(i64p, B.CreateStructGEP(listTy, l, 0));
    return B.CreateLoad(i64, B.CreateInBoundsGEP(i64, data, i));
  };
  if (isData(l)) return elementOfData();
  return ifElse(
      isRange(l), i64,
      [&] { return B.CreateAdd(B.CreateLoad(i64, B.CreateStructGEP(listTy, l, 2)), i); },
      elementOfData);
}

// Lists known to hold their numbers (not a range), so no code tests which:
// every list built, each parameter, and list variables bound to such lists.
bool FunctionEmitter::isData(Value* l) const {
  return dataLists_.count(l) != 0;
}

Value* FunctionEmitter::markData(Value* l) {
  dataLists_.insert(l);
  return l;
}

Value* FunctionEmitter::isRange(Value* l) {
  if (isData(l)) return llvm::ConstantInt::getFalse(C);
  return B.CreateICmpNE(B.CreateLoad(i8, B.CreateStructGEP(listTy, l, 3)),
                        llvm::ConstantInt::get(i8, 0));
}

// `count` numbers from the context's arena: a bump of arenaNext, or the
// helper past the end of the block.
Value* FunctionEmitter::allocate(Value* count) {
  Value* nextField = stateField(offsetof(KernelState, arenaNext), i64p);
  Value* next = B.CreateLoad(i64p, nextField);
  Value* end = B.CreateLoad(i64p, stateField(offsetof(KernelState, arenaEnd), i64p));
  Value* room =
      B.CreateAShr(B.CreateSub(B.CreatePtrToInt(end, i64), B.CreatePtrToInt(next, i64)), 3);
  return ifElse(
      B.CreateICmpSGE(room, count), i64p,
      [&] {
        B.CreateStore(B.CreateInBoundsGEP(i64, next, count), nextField);
        return next;
      },
      [&] {
        return call(gdsl_jit_arena_grow, i64p, {i8p, i64}, {ctx_, count});
      },
      /*hot=*/true);
}

// The arena's state (KernelState::arenaNext, arenaEnd, arenaBlock) and its restoration.
std::vector<Value*> FunctionEmitter::arenaMark() {
  return {B.CreateLoad(i64p, stateField(offsetof(KernelState, arenaNext), i64p)),
          B.CreateLoad(i64p, stateField(offsetof(KernelState, arenaEnd), i64p)),
          B.CreateLoad(i64, stateField(offsetof(KernelState, arenaBlock), i64))};
}

void FunctionEmitter::arenaRelease(const std::vector<Value*>& mark) {
  B.CreateStore(mark[0], stateField(offsetof(KernelState, arenaNext), i64p));
  B.CreateStore(mark[1], stateField(offsetof(KernelState, arenaEnd), i64p));
  B.CreateStore(mark[2], stateField(offsetof(KernelState, arenaBlock), i64));
}

// data[0..n) = the list's elements.
void FunctionEmitter::copyElements(Value* l, Value* data, Value* n) {
  auto copyData = [&] {
    Value* from = B.CreateLoad(i64p, B.CreateStructGEP(listTy, l, 0));
    loop(c64(0), n, [&](Value* i) {
      B.CreateStore(B.CreateLoad(i64, B.CreateInBoundsGEP(i64, from, i)),
                    B.CreateInBoundsGEP(i64, data, i));
    });
  };
  if (isData(l)) return copyData();
  whenElse(
      isRange(l),
      [&] {
        Value* lo = B.CreateLoad(i64, B.CreateStructGEP(listTy, l, 2));
        loop(c64(0), n, [&](Value* i) {
          B.CreateStore(B.CreateAdd(lo, i), B.CreateInBoundsGEP(i64, data, i));
        });
      },
      copyData);
}

// Sorts data[0..n) in place by insertion (n is small).
void FunctionEmitter::insertionSort(Value* data, Value* n) {
  llvm::AllocaInst* hole = entryAlloca(i64, "hole");
  loop(c64(1), n, [&](Value* i) {
    Value* x = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, data, i));
    B.CreateStore(i, hole);
    BasicBlock* test = BasicBlock::Create(C, "shift", F);
    BasicBlock* compare = BasicBlock::Create(C, "compare", F);
    BasicBlock* move = BasicBlock::Create(C, "move", F);
    BasicBlock* place = BasicBlock::Create(C, "place", F);
    B.CreateBr(test);
    B.SetInsertPoint(test);
    Value* j = B.CreateLoad(i64, hole);
    B.CreateCondBr(B.CreateICmpSGT(j, c64(0)), compare, place);
    B.SetInsertPoint(compare);
    Value* before = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, data, B.CreateSub(j, c64(1))));
    B.CreateCondBr(B.CreateICmpSGT(before, x), move, place);
    B.SetInsertPoint(move);
    B.CreateStore(before, B.CreateInBoundsGEP(i64, data, j));
    B.CreateStore(B.CreateSub(j, c64(1)), hole);
    B.CreateBr(test);
    B.SetInsertPoint(place);
    B.CreateStore(x, B.CreateInBoundsGEP(i64, data, B.CreateLoad(i64, hole)));
  });
}

// The numbers of Program::lists[index], as a private constant of the
// module (one per list, however often it is used).
Value* FunctionEmitter::constantList(int64_t index) {
  std::string name = "gdsl.list." + std::to_string(index);
  if (llvm::GlobalVariable* g = M.getGlobalVariable(name, true))
    return B.CreateConstInBoundsGEP2_32(g->getValueType(), g, 0, 0);
  const std::vector<int64_t>& l = P.lists[static_cast<size_t>(index)];
  // An empty list still has an address: one unused zero.
  std::vector<uint64_t> numbers(std::max<size_t>(l.size(), 1), 0);
  std::copy(l.begin(), l.end(), numbers.begin());
  auto* init = llvm::ConstantDataArray::get(C, numbers);
  auto* g = new llvm::GlobalVariable(M, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                     init, name);
  g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return B.CreateConstInBoundsGEP2_32(g->getValueType(), g, 0, 0);
}

// Evaluates a list expression into a fresh ListVal and returns its address.
Value* FunctionEmitter::list(const ir::Expr& e) {
  Value* out = entryAlloca(listTy, "list");
  switch (e.op) {
    case ir::Op::ListConst: {
      const std::vector<int64_t>& l = P.lists[static_cast<size_t>(e.imm)];
      storeList(out, constantList(e.imm), c64(static_cast<int64_t>(l.size())), c64(0), false);
      return markData(out);
    }
    case ir::Op::ListVar: {
      Value* src = listSlot(static_cast<int>(e.imm));
      B.CreateStore(B.CreateLoad(listTy, src), out);
      return dataSlots_[static_cast<size_t>(e.imm)] ? markData(out) : out;
    }
    case ir::Op::Range: {
      Value* lo = integer(e.kids[0]);
      Value* hi = integer(e.kids[1]);
      Value* nonEmpty = B.CreateICmpSGE(hi, lo);
      // size = hi - lo + 1 when hi >= lo, with both steps checked.
      Value* diff = B.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_with_overflow, hi, lo);
      Value* sum = B.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_with_overflow,
                                           B.CreateExtractValue(diff, 0), c64(1));
      Value* overflow = B.CreateOr(B.CreateExtractValue(diff, 1), B.CreateExtractValue(sum, 1));
      failIf(B.CreateAnd(overflow, nonEmpty), ir::ErrorCode::RangeTooLarge, e.loc, lo, hi);
      Value* size = B.CreateExtractValue(sum, 0);
      storeList(out, llvm::ConstantPointerNull::get(i64p), B.CreateSelect(nonEmpty, size, c64(0)),
                lo, true);
      return out;
    }
    case ir::Op::MakeList: {
      auto count = static_cast<int64_t>(e.kids.size());
      std::vector<Value*> items;
      for (const ir::Expr& k : e.kids) items.push_back(integer(k));
      Value* data = allocate(c64(count));
      for (int64_t i = 0; i < count; ++i)
        B.CreateStore(items[static_cast<size_t>(i)], B.CreateConstInBoundsGEP1_64(i64, data, i));
      storeList(out, data, c64(count), c64(0), false);
      return markData(out);
    }
    case ir::Op::MakeSet: {
      size_t count = e.kids.size();
      Value* items = entryAlloca(llvm::ArrayType::get(i64, std::max<size_t>(1, count)), "items");
      for (size_t i = 0; i < count; ++i)
        B.CreateStore(integer(e.kids[i]), B.CreateConstInBoundsGEP2_32(
                                              llvm::ArrayType::get(i64, std::max<size_t>(1, count)),
                                              items, 0, static_cast<unsigned>(i)));
      Value* first = B.CreateBitCast(items, i64p);
      call(gdsl_jit_make_list, voidTy, {i8p, i64p, i64, i32, listP},
           {ctx_, first, c64(static_cast<int64_t>(count)), c32(e.op == ir::Op::MakeSet), out});
      return markData(out);
    }
    case ir::Op::Sort: {
      // A short list is sorted inline by insertion; a range is sorted.
      Value* in = list(e.kids[0]);
      Value* n = listSize(in);
      Value* inline_ = B.CreateAnd(B.CreateICmpEQ(isRange(in), llvm::ConstantInt::getFalse(C)),
                                   B.CreateICmpSLE(n, c64(kInlineSortLength)));
      whenElse(
          inline_,
          [&] {
            Value* data = allocate(n);
            copyElements(in, data, n);
            insertionSort(data, n);
            storeList(out, data, n, c64(0), false);
          },
          [&] {
            call(gdsl_jit_sort, voidTy, {i8p, listP, listP}, {ctx_, in, out});
          });
      return isData(in) ? markData(out) : out;  // the sort of a range is the range
    }
    case ir::Op::SetElem: {
      Value* in = list(e.kids[0]);
      Value* index = integer(e.kids[1]);
      Value* n = listSize(in);
      checkIndex(index, n, e.loc);
      Value* value = integer(e.kids[2]);
      failIf(B.CreateICmpSGT(n, c64(ir::kMaxSetLength)), ir::ErrorCode::SetTooLarge, e.loc, nullptr,
             nullptr);
      Value* data = allocate(n);
      copyElements(in, data, n);
      B.CreateStore(value, B.CreateInBoundsGEP(i64, data, index));
      storeList(out, data, n, c64(0), false);
      return markData(out);
    }
    case ir::Op::IndexNested: {
      Value* index = integer(e.kids[1]);
      checkStatus(call(gdsl_jit_index_nested, i32, {i8p, i32, i64, i32, listP},
                       {ctx_, c32(e.kids[0].imm), index, c32(loc(e.loc)), out}));
      return markData(out);
    }
    case ir::Op::Bits: {
      // The lowest set bit, then clear it, popcount times.
      Value* a = integer(e.kids[0]);
      failIf(B.CreateICmpSLT(a, c64(0)), ir::ErrorCode::NegativeBits, e.loc, a, nullptr);
      Value* n = B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, a);
      Value* data = allocate(n);
      llvm::AllocaInst* rest = entryAlloca(i64, "rest");
      B.CreateStore(a, rest);
      loop(c64(0), n, [&](Value* i) {
        Value* v = B.CreateLoad(i64, rest);
        B.CreateStore(B.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, v, B.getTrue()),
                      B.CreateInBoundsGEP(i64, data, i));
        B.CreateStore(B.CreateAnd(v, B.CreateSub(v, c64(1))), rest);
      });
      storeList(out, data, n, c64(0), false);
      return markData(out);
    }
    case ir::Op::Collect: {
      // The elements go to a buffer of the context (the loops release the
      // arena after each one), then into the arena.
      int32_t depth = collectDepth_++;
      call(gdsl_jit_collect_begin, voidTy, {i8p, i32}, {ctx_, c32(depth)});
      int32_t where = loc(e.loc);
      ComprehensionScope scope(*this);
      walk(e.steps, 0, nullptr, [&] {
        Value* v = integer(e.kids[0]);
        checkStatus(call(gdsl_jit_collect_push, i32, {i8p, i32, i64, i32},
                         {ctx_, c32(depth), v, c32(where)}));
      });
      call(gdsl_jit_collect_end, voidTy, {i8p, i32, listP}, {ctx_, c32(depth), out});
      --collectDepth_;
      return markData(out);
    }
    default:
      break;
  }
  storeList(out, llvm::ConstantPointerNull::get(i64p), c64(0), c64(0), false);
  return out;
}

// any, all, count and sum over a comprehension's loops; any and all
// leave the loops once decided, as the interpreter does.
Value* FunctionEmitter::fold(const ir::Expr& e) {
  llvm::AllocaInst* acc = entryAlloca(i64, "fold");
  B.CreateStore(c64(e.op == ir::Op::AllOf ? 1 : 0), acc);
  llvm::AllocaInst* stop = nullptr;
  if (e.op == ir::Op::AnyOf || e.op == ir::Op::AllOf) {
    stop = entryAlloca(i1, "decided");
    B.CreateStore(B.getFalse(), stop);
  }
  ComprehensionScope scope(*this);
  walk(e.steps, 0, stop, [&] {
    Value* v = integer(e.kids[0]);
    Value* truth = B.CreateICmpNE(v, c64(0));
    switch (e.op) {
      case ir::Op::AnyOf:
        B.CreateStore(boolToInt(truth), acc);
        B.CreateStore(truth, stop);
        break;
      case ir::Op::AllOf:
        B.CreateStore(boolToInt(truth), acc);
        B.CreateStore(B.CreateNot(truth), stop);
        break;
      case ir::Op::CountOf:
        B.CreateStore(B.CreateAdd(B.CreateLoad(i64, acc), boolToInt(truth)), acc);
        break;
      default:
        B.CreateStore(overflowOp(llvm::Intrinsic::sadd_with_overflow, B.CreateLoad(i64, acc), v,
                                 e.loc, kPlus),
                      acc);
        break;
    }
  });
  return B.CreateLoad(i64, acc);
}

void FunctionEmitter::checkIndex(Value* index, Value* size, SourceRange where) {
  Value* bad = B.CreateOr(B.CreateICmpSLT(index, c64(0)), B.CreateICmpSGE(index, size));
  failIf(bad, ir::ErrorCode::IndexOutOfRange, where, index, size);
}

// a OP b with an overflow check (`op` spells the operator in the message).
Value* FunctionEmitter::overflowOp(llvm::Intrinsic::ID id, Value* a, Value* b, SourceRange where,
                                   int32_t op) {
  Value* r = B.CreateBinaryIntrinsic(id, a, b);
  failIf(B.CreateExtractValue(r, 1), ir::ErrorCode::Overflow, where, a, b, op);
  return B.CreateExtractValue(r, 0);
}

// ---- integers and conditions ----------------------------------------------

Value* FunctionEmitter::boolToInt(Value* b) {
  return B.CreateZExt(b, i64);
}

Value* FunctionEmitter::integer(const ir::Expr& e) {
  using ir::Op;
  switch (e.op) {
    case Op::IntConst:
      return c64(e.imm);
    case Op::IntVar:
      return B.CreateLoad(i64, intSlot(static_cast<int>(e.imm)));
    case Op::Neg: {
      Value* a = integer(e.kids[0]);
      failIf(B.CreateICmpEQ(a, c64(INT64_MIN)), ir::ErrorCode::NegOverflow, e.loc, a, nullptr);
      return B.CreateNeg(a);
    }
    case Op::Abs: {
      Value* a = integer(e.kids[0]);
      failIf(B.CreateICmpEQ(a, c64(INT64_MIN)), ir::ErrorCode::AbsOverflow, e.loc, a, nullptr);
      return B.CreateSelect(B.CreateICmpSLT(a, c64(0)), B.CreateNeg(a), a);
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      auto id = e.op == Op::Add   ? llvm::Intrinsic::sadd_with_overflow
                : e.op == Op::Sub ? llvm::Intrinsic::ssub_with_overflow
                                  : llvm::Intrinsic::smul_with_overflow;
      int32_t op = e.op == Op::Add ? kPlus : e.op == Op::Sub ? kMinus : kTimes;
      // A sum or difference proved small cannot overflow: no test.
      if (e.op != Op::Mul && bounds_ && bounds_->small(bounds_->of(e)) &&
          bounds_->small(bounds_->of(e.kids[0])) && bounds_->small(bounds_->of(e.kids[1])))
        return e.op == Op::Add ? B.CreateNSWAdd(a, b) : B.CreateNSWSub(a, b);
      return overflowOp(id, a, b, e.loc, op);
    }
    case Op::Div: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      failIf(B.CreateICmpEQ(b, c64(0)), ir::ErrorCode::DivisionByZero, e.loc, a, b);
      failIf(B.CreateAnd(B.CreateICmpEQ(a, c64(INT64_MIN)), B.CreateICmpEQ(b, c64(-1))),
             ir::ErrorCode::Overflow, e.loc, a, b, kDivide);
      Value* q = B.CreateSDiv(a, b);
      Value* r = B.CreateSRem(a, b);
      Value* adjust =
          B.CreateAnd(B.CreateICmpNE(r, c64(0)),
                      B.CreateICmpNE(B.CreateICmpSLT(a, c64(0)), B.CreateICmpSLT(b, c64(0))));
      return B.CreateSub(q, boolToInt(adjust));
    }
    case Op::Mod: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      failIf(B.CreateICmpEQ(b, c64(0)), ir::ErrorCode::ModByZero, e.loc, a, b);
      // b == -1 gives 0 (and avoids srem's overflow on INT64_MIN).
      Value* safeB = B.CreateSelect(B.CreateICmpEQ(b, c64(-1)), c64(1), b);
      Value* r = B.CreateSRem(a, safeB);
      Value* adjust =
          B.CreateAnd(B.CreateICmpNE(r, c64(0)),
                      B.CreateICmpNE(B.CreateICmpSLT(r, c64(0)), B.CreateICmpSLT(safeB, c64(0))));
      return B.CreateSelect(adjust, B.CreateAdd(r, safeB), r);
    }
    case Op::Pow: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      Value* out = entryAlloca(i64, "pow");
      Value* status = call(gdsl_jit_pow, i32, {i64, i64, i64p}, {a, b, out});
      failIf(B.CreateICmpEQ(status, c32(1)), ir::ErrorCode::NegativeExponent, e.loc, a, b);
      failIf(B.CreateICmpEQ(status, c32(2)), ir::ErrorCode::Overflow, e.loc, a, b, kPower);
      return B.CreateLoad(i64, out);
    }
    case Op::Shl: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      failIf(B.CreateICmpSLT(b, c64(0)), ir::ErrorCode::NegativeShift, e.loc, a, b);
      failIf(B.CreateICmpSGE(b, c64(64)), ir::ErrorCode::ShiftTooFar, e.loc, a, b);
      Value* r = B.CreateShl(a, b);
      failIf(B.CreateICmpNE(B.CreateAShr(r, b), a), ir::ErrorCode::ShiftTooFar, e.loc, a, b);
      return r;
    }
    case Op::Shr: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      failIf(B.CreateICmpSLT(b, c64(0)), ir::ErrorCode::NegativeShift, e.loc, a, b);
      Value* amount = B.CreateSelect(B.CreateICmpSGT(b, c64(63)), c64(63), b);
      return B.CreateAShr(a, amount);
    }
    case Op::BitAnd: {
      Value* a = integer(e.kids[0]);
      return B.CreateAnd(a, integer(e.kids[1]));
    }
    case Op::BitOr: {
      Value* a = integer(e.kids[0]);
      return B.CreateOr(a, integer(e.kids[1]));
    }
    case Op::BitXor: {
      Value* a = integer(e.kids[0]);
      return B.CreateXor(a, integer(e.kids[1]));
    }
    case Op::Min:
    case Op::Max: {
      Value* r = integer(e.kids[0]);
      for (size_t i = 1; i < e.kids.size(); ++i) {
        Value* b = integer(e.kids[i]);
        // The intrinsics, which the optimizer folds and shares better than selects.
        r = B.CreateBinaryIntrinsic(e.op == Op::Min ? llvm::Intrinsic::smin : llvm::Intrinsic::smax,
                                    r, b);
      }
      return r;
    }
    case Op::MinList:
    case Op::MaxList: {
      Value* l = list(e.kids[0]);
      Value* out = entryAlloca(i64, "minmax");
      checkStatus(call(gdsl_jit_min_list, i32, {i8p, listP, i32, i32, i64p},
                       {ctx_, l, c32(e.op == Op::MaxList), c32(loc(e.loc)), out}));
      return B.CreateLoad(i64, out);
    }
    case Op::Len:
      if (e.kids[0].type == ir::Type::ListList)
        return c64(static_cast<int64_t>(P.nested[static_cast<size_t>(e.kids[0].imm)].size()));
      return listSize(list(e.kids[0]));
    case Op::Index: {
      Value* l = list(e.kids[0]);
      Value* i = integer(e.kids[1]);
      checkIndex(i, listSize(l), e.loc);
      return listAt(l, i);
    }
    case Op::Not:
      return boolToInt(B.CreateICmpEQ(integer(e.kids[0]), c64(0)));
    case Op::And:
    case Op::Or: {
      Value* a = B.CreateICmpNE(integer(e.kids[0]), c64(0));
      BasicBlock* from = B.GetInsertBlock();
      BasicBlock* rhs = BasicBlock::Create(C, "rhs", F);
      BasicBlock* join = BasicBlock::Create(C, "join", F);
      if (e.op == Op::And)
        B.CreateCondBr(a, rhs, join);
      else
        B.CreateCondBr(a, join, rhs);
      B.SetInsertPoint(rhs);
      Value* b = B.CreateICmpNE(integer(e.kids[1]), c64(0));
      BasicBlock* rhsEnd = B.GetInsertBlock();
      B.CreateBr(join);
      B.SetInsertPoint(join);
      auto* phi = B.CreatePHI(i1, 2);
      phi->addIncoming(llvm::ConstantInt::get(i1, e.op == Op::Or ? 1 : 0), from);
      phi->addIncoming(b, rhsEnd);
      return boolToInt(phi);
    }
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      Value* a = integer(e.kids[0]);
      Value* b = integer(e.kids[1]);
      switch (e.op) {
        case Op::Eq:
          return boolToInt(B.CreateICmpEQ(a, b));
        case Op::Ne:
          return boolToInt(B.CreateICmpNE(a, b));
        case Op::Lt:
          return boolToInt(B.CreateICmpSLT(a, b));
        case Op::Le:
          return boolToInt(B.CreateICmpSLE(a, b));
        case Op::Gt:
          return boolToInt(B.CreateICmpSGT(a, b));
        default:
          return boolToInt(B.CreateICmpSGE(a, b));
      }
    }
    case Op::Popcount: {
      Value* a = integer(e.kids[0]);
      Value* magnitude = B.CreateSelect(B.CreateICmpSLT(a, c64(0)), B.CreateSub(c64(0), a), a);
      return B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, magnitude);
    }
    case Op::AnyOf:
    case Op::AllOf:
    case Op::CountOf:
    case Op::SumOf:
      return fold(e);
    case Op::ListEq:
    case Op::ListNe: {
      Value* a = list(e.kids[0]);
      Value* b = list(e.kids[1]);
      Value* eq = call(gdsl_jit_list_eq, i64, {listP, listP}, {a, b});
      return e.op == Op::ListEq ? eq : B.CreateXor(eq, c64(1));
    }
    case Op::InList: {
      Value* x = integer(e.kids[0]);
      Value* l = list(e.kids[1]);
      return call(gdsl_jit_in_list, i64, {i64, listP}, {x, l});
    }
    default:
      break;
  }
  return c64(0);
}

}  // namespace gdsl::jit
