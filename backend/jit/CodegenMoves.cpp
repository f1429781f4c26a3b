// FunctionEmitter's moves: the loop nest of each move (binders, lets and
// guards, which comprehensions share), and what a move does at its end, by
// mode: a kernel xors its successor's terms (a smaller heap read from the
// table), a native search xors its successors' values (CodegenSearch.cpp), an
// enumerator builds the successor's components and hands the move to the
// engine.
#include <algorithm>

#include "backend/jit/FunctionEmitter.h"

namespace gdsl::jit {

// ---- loops ----------------------------------------------------------------

// Runs `body` once per element of the binder's domain, with the variable set.
// With `stop` (an i1 slot), the loop also ends after an element that set it.
void FunctionEmitter::forEach(const ir::Step& s, Value* stop, llvm::function_ref<void()> body) {
  Value* index = entryAlloca(i64, "i");
  Value* count = nullptr;
  Value* domain = nullptr;
  int32_t nestedIndex = -1;
  Value* lo = nullptr;
  // The body sees the variable's bounds, and that the range was not empty.
  std::vector<int64_t> outerMinimums;
  if (bounds_) {
    outerMinimums = bounds_->minimums();
    if (s.domain.isRange) {
      ir::Bounds var = bounds_->range(s.domain.lo, s.domain.hi);
      bounds_->set(s.slot, var);
      bounds_->assumeNonEmpty(var);
    } else {
      bounds_->forget(s.slot);
    }
  }
  if (s.domain.isRange) {
    lo = integer(s.domain.lo);
    Value* hi = integer(s.domain.hi);
    // count = hi - lo + 1 may not fit: iterate on the value itself instead.
    B.CreateStore(lo, index);
    count = hi;
  } else if (s.domain.list.type == ir::Type::ListList) {
    nestedIndex = static_cast<int32_t>(s.domain.list.imm);
    B.CreateStore(c64(0), index);
    count = c64(static_cast<int64_t>(P.nested[static_cast<size_t>(nestedIndex)].size()) - 1);
  } else {
    domain = list(s.domain.list);
    B.CreateStore(c64(0), index);
    count = B.CreateSub(listSize(domain), c64(1));
  }
  // Lists built by the body are released after each element (the domain's
  // own list was built before the mark and stays).
  std::vector<Value*> mark;
  if (useArena_) mark = arenaMark();
  // Iterate index from its start to `count` inclusive.
  BasicBlock* head = BasicBlock::Create(C, "loop", F);
  BasicBlock* bodyBB = BasicBlock::Create(C, "body", F);
  BasicBlock* exit = BasicBlock::Create(C, "done", F);
  B.CreateCondBr(B.CreateICmpSLE(B.CreateLoad(i64, index), count), head, exit);
  B.SetInsertPoint(head);
  Value* i = B.CreateLoad(i64, index);
  if (s.domain.isRange) {
    B.CreateStore(i, intSlot(s.slot));
  } else if (nestedIndex >= 0) {
    checkStatus(call(gdsl_jit_index_nested, i32, {i8p, i32, i64, i32, listP},
                     {ctx_, c32(nestedIndex), i, c32(loc(s.loc)), listSlot(s.slot)}));
    dataSlots_[static_cast<size_t>(s.slot)] = true;
  } else {
    B.CreateStore(listAt(domain, i), intSlot(s.slot));
  }
  B.CreateBr(bodyBB);
  B.SetInsertPoint(bodyBB);
  body();
  if (bounds_) bounds_->restoreMinimums(outerMinimums);
  if (useArena_) arenaRelease(mark);
  Value* current = B.CreateLoad(i64, index);
  if (nestedIndex < 0 && (mode_ != Mode::Kernel || inComprehension_)) {
    // A range may be huge (1..10^18): every 65536 values, see whether the
    // computation was asked to stop. Kernels do not poll: the engine polls
    // between heaps, and a check in their hot loops costs about 5% (see
    // docs/limits.md).
    pollWhen(B.CreateICmpEQ(B.CreateAnd(current, c64(0xffff)), c64(0xffff)), 65536);
  }
  BasicBlock* next = BasicBlock::Create(C, "next", F);
  Value* last = B.CreateICmpEQ(current, count);  // no overflow at the end
  if (stop) last = B.CreateOr(last, B.CreateLoad(i1, stop));
  B.CreateCondBr(last, exit, next);
  B.SetInsertPoint(next);
  B.CreateStore(B.CreateAdd(current, c64(1)), index);
  B.CreateBr(head);
  B.SetInsertPoint(exit);
}

void FunctionEmitter::steps(const std::vector<ir::Step>& list, size_t index) {
  walk(list, index, nullptr, [&] { atMoveEnd(); });
}

// The loop nest of steps[index..] around atEnd(): a move's, or a
// comprehension's (whose loops also poll in kernels, and end early once
// `stop` is set).
void FunctionEmitter::walk(const std::vector<ir::Step>& list, size_t index, Value* stop,
                           llvm::function_ref<void()> atEnd) {
  if (index == list.size()) {
    atEnd();
    return;
  }
  const ir::Step& s = list[index];
  switch (s.kind) {
    case ir::Step::Kind::Bind:
      forEach(s, stop, [&] { walk(list, index + 1, stop, atEnd); });
      return;
    case ir::Step::Kind::Let:
      if (s.type == ir::Type::List) {
        Value* l = this->list(s.value);
        B.CreateStore(B.CreateLoad(listTy, l), listSlot(s.slot));
        dataSlots_[static_cast<size_t>(s.slot)] = isData(l);
      } else {
        B.CreateStore(integer(s.value), intSlot(s.slot));
        if (bounds_) bounds_->set(s.slot, bounds_->of(s.value));
      }
      walk(list, index + 1, stop, atEnd);
      return;
    case ir::Step::Kind::Guard: {
      Value* cond = B.CreateICmpNE(integer(s.value), c64(0));
      BasicBlock* then = BasicBlock::Create(C, "then", F);
      BasicBlock* after = BasicBlock::Create(C, "after", F);
      B.CreateCondBr(cond, then, after);
      B.SetInsertPoint(then);
      walk(list, index + 1, stop, atEnd);
      B.CreateBr(after);
      B.SetInsertPoint(after);
      return;
    }
  }
}

// ---- successors -----------------------------------------------------------

void FunctionEmitter::atMoveEnd() {
  const ir::Move& m = G.moves[static_cast<size_t>(moveIndex_)];
  if (mode_ == Mode::Kernel) {
    Value* acc = entryAlloca(i64, "xor");
    B.CreateStore(c64(0), acc);
    bool narrow = xorTerms(m.successor, acc);
    markSeen(B.CreateTrunc(B.CreateLoad(i64, acc), i32), narrow);
    return;
  }
  if (mode_ == Mode::Search && deferred_ && !m.successor.empty()) {
    pushPending(m.successor[0]);
    return;
  }
  if (mode_ == Mode::Search) {
    Value* acc = entryAlloca(i64, "xor");
    B.CreateStore(c64(0), acc);
    xorTerms(m.successor, acc);
    markSeen(B.CreateTrunc(B.CreateLoad(i64, acc), i32));
    return;
  }
  call(gdsl_jit_move_begin, voidTy, {i8p}, {ctx_});
  pushTerms(m.successor);
  Value* intsPtr = B.CreateConstInBoundsGEP2_32(ints_->getAllocatedType(), ints_, 0, 0);
  Value* listsPtr = B.CreateConstInBoundsGEP2_32(lists_->getAllocatedType(), lists_, 0, 0);
  checkStatus(call(gdsl_jit_move_emit, i32, {i8p, i32, i64p, listP},
                   {ctx_, c32(moveIndex_), intsPtr, listsPtr}));
}

// Builds the component of a position term in the context.
void FunctionEmitter::buildComponent(const ir::Term& t) {
  call(gdsl_jit_comp_begin, voidTy, {i8p, i32}, {ctx_, c32(t.game)});
  const ir::Game& target = P.games[static_cast<size_t>(t.game)];
  for (size_t i = 0; i < t.args.size(); ++i) {
    if (target.params[i].type == ir::Type::List)
      checkStatus(call(gdsl_jit_comp_list, i32, {i8p, listP, i32},
                       {ctx_, list(t.args[i]), c32(loc(t.loc))}));
    else
      call(gdsl_jit_comp_int, voidTy, {i8p, i64}, {ctx_, integer(t.args[i])});
  }
}

void FunctionEmitter::pushTerms(const std::vector<ir::Term>& terms) {
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::SumFor) {
      forEach(t.binder, nullptr, [&] { pushTerms(t.body); });
      continue;
    }
    if (intParamsOnly(t.game)) {
      finishWords(t, nullptr);
      continue;
    }
    buildComponent(t);
    checkStatus(call(gdsl_jit_comp_push, i32, {i8p, i32}, {ctx_, c32(loc(t.loc))}));
  }
}

Value* FunctionEmitter::componentValue(const ir::Term& t) {
  Value* out = entryAlloca(i32, "value");
  if (intParamsOnly(t.game)) {
    finishWords(t, out);
  } else {
    buildComponent(t);
    checkStatus(call(gdsl_jit_comp_value, i32, {i8p, i32, i32p}, {ctx_, c32(loc(t.loc)), out}));
  }
  return B.CreateZExt(B.CreateLoad(i32, out), i64);
}

bool FunctionEmitter::intParamsOnly(int game) const {
  for (const ir::Param& p : P.games[static_cast<size_t>(game)].params)
    if (p.type != ir::Type::Int) return false;
  return true;
}

// A component of a game with integer parameters only: its words are built in
// a local array and handed over in one call; a normalize rule that cannot
// fail runs inline (the helper then skips it). Pushes the component, or
// stores its value in `valueOut`.
void FunctionEmitter::finishWords(const ir::Term& t, Value* valueOut) {
  const ir::Game& target = P.games[static_cast<size_t>(t.game)];
  size_t count = t.args.size();
  auto* arrayTy = llvm::ArrayType::get(i64, std::max<size_t>(1, count));
  Value* words = entryAlloca(arrayTy, "words");
  Value* first = B.CreateConstInBoundsGEP2_32(arrayTy, words, 0, 0);
  std::vector<Value*> values;
  for (const ir::Expr& a : t.args) values.push_back(integer(a));
  auto store = [&](const std::vector<Value*>& vs) {
    for (size_t i = 0; i < vs.size(); ++i)
      B.CreateStore(vs[i],
                    B.CreateConstInBoundsGEP2_32(arrayTy, words, 0, static_cast<unsigned>(i)));
  };
  auto finish = [&](bool normalized) {
    if (valueOut)
      return call(gdsl_jit_value_words, i32, {i8p, i32, i64p, i64, i32, i32, i32p},
                  {ctx_, c32(t.game), first, c64(static_cast<int64_t>(count)), c32(loc(t.loc)),
                   c32(normalized), valueOut});
    return call(gdsl_jit_push_words, i32, {i8p, i32, i64p, i64, i32, i32},
                {ctx_, c32(t.game), first, c64(static_cast<int64_t>(count)), c32(loc(t.loc)),
                 c32(normalized)});
  };
  bool inlineNormalize = target.normalize.has_value();
  if (target.normalize)
    for (const ir::Expr& e : *target.normalize) inlineNormalize = inlineNormalize && cannotFail(e);
  if (!inlineNormalize) {
    store(values);
    checkStatus(finish(false));
    return;
  }
  // Negative arguments, or a normalized position with a negative parameter,
  // take the helper's path, which reports the error as the interpreter does.
  auto anyNegative = [&](const std::vector<Value*>& vs) {
    Value* neg = llvm::ConstantInt::getFalse(C);
    for (Value* v : vs) neg = B.CreateOr(neg, B.CreateICmpSLT(v, c64(0)));
    return neg;
  };
  Value* status = ifElse(
      anyNegative(values), i32,
      [&] {
        store(values);
        return finish(false);
      },
      [&] {
        std::vector<Value*> normalized = normalizeInline(target, values);
        return ifElse(
            anyNegative(normalized), i32,
            [&] {
              store(values);
              return finish(false);
            },
            [&] {
              store(normalized);
              return finish(true);
            });
      });
  checkStatus(status);
}

// The parameters `target`'s normalize rule (one that cannot fail) makes of
// `args`: the rule runs in a frame of the target game.
std::vector<Value*> FunctionEmitter::normalizeInline(const ir::Game& target,
                                                     const std::vector<Value*>& args) {
  auto* frameTy = llvm::ArrayType::get(i64, std::max(1, target.intSlots));
  llvm::AllocaInst* frame = entryAlloca(frameTy, "normframe");
  for (size_t i = 0; i < args.size(); ++i)
    B.CreateStore(args[i], B.CreateConstInBoundsGEP2_32(
                               frameTy, frame, 0, static_cast<unsigned>(target.params[i].slot)));
  llvm::AllocaInst* savedInts = ints_;
  ints_ = frame;
  std::vector<Value*> normalized;
  for (const ir::Expr& e : *target.normalize) normalized.push_back(integer(e));
  ints_ = savedInts;
  return normalized;
}

// Xors the terms' values into `acc`; true when each was read straight from
// a kernel's 16-bit table, so that the xor is below 2^16.
bool FunctionEmitter::xorTerms(const std::vector<ir::Term>& terms, Value* acc) {
  bool narrow = true;
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::SumFor) {
      forEach(t.binder, nullptr, [&] { xorTerms(t.body, acc); });
      narrow = false;
      continue;
    }
    Value* v = nullptr;
    if (mode_ == Mode::Search && t.game == game_ && G.cells) {
      v = partsValue(t);
    } else if (mode_ == Mode::Search && t.game == game_) {
      v = searchedValue(t);
    } else if (t.game == game_) {
      // The hot path: a smaller heap of this game is read from the table,
      // with no test when the heap is proved to be in 0..n-1.
      Value* m = integer(t.args[0]);
      auto read = [&] {
        llvm::Type* entry = tableType();
        return B.CreateZExt(B.CreateLoad(entry, B.CreateInBoundsGEP(entry, table_, m)), i64);
      };
      if (provedBelowParam(t.args[0], 0, -1)) {
        v = read();
        B.CreateStore(B.CreateXor(B.CreateLoad(i64, acc), v), acc);
        narrow = narrow && !wideTable_;
        continue;
      }
      Value* fast = B.CreateAnd(B.CreateICmpSGE(m, c64(0)), B.CreateICmpSLT(m, n_));
      v = ifElse(
          fast, i64,
          [&] {
            llvm::Type* entry = tableType();
            return B.CreateZExt(B.CreateLoad(entry, B.CreateInBoundsGEP(entry, table_, m)), i64);
          },
          [&] { return componentValue(t); }, /*hot=*/true);
    } else {
      v = componentValue(t);
    }
    B.CreateStore(B.CreateXor(B.CreateLoad(i64, acc), v), acc);
    narrow = false;
  }
  return narrow;
}

}  // namespace gdsl::jit
