// The entry point of backend/jit/Codegen.h and the skeleton of every function
// FunctionEmitter (FunctionEmitter.h) emits: its signature, the prologue per
// mode (the slots, the parameters, the bounds, the context fields kept in
// locals), its moves, the epilogue per mode (a kernel's mex, an enumerator's
// 0, a search's cell: CodegenSearch.cpp) and the bail block; and the exits
// every part takes (failures, statuses, polls).
//
// IR -> LLVM IR. Every integer variable lives in a slot of an alloca'd array
// (promoted to registers by the optimizer); lists are ListVal structs laid out
// as in compiler/ir/Evaluator.h. Every fallible operation branches to a bail
// block after the error helper has recorded the same message the interpreter
// gives; the functions return a status instead of unwinding.
#include "backend/jit/Codegen.h"

#include <algorithm>
#include <cstddef>

#include "backend/jit/FunctionEmitter.h"

namespace gdsl::jit {

FunctionEmitter::FunctionEmitter(const ir::Program& p, llvm::Module& m,
                                 std::vector<SourceRange>& locs, int game, Mode mode,
                                 bool wideTable, int64_t length, bool wideCells)
    : P(p),
      M(m),
      C(m.getContext()),
      B(C),
      locs_(locs),
      game_(game),
      mode_(mode),
      wideTable_(wideTable),
      wideCells_(wideCells),
      length_(length),
      G(p.games[static_cast<size_t>(game)]) {
  i1 = llvm::Type::getInt1Ty(C);
  i8 = llvm::Type::getInt8Ty(C);
  i32 = llvm::Type::getInt32Ty(C);
  i64 = llvm::Type::getInt64Ty(C);
  voidTy = llvm::Type::getVoidTy(C);
  i8p = i8->getPointerTo();
  i32p = i32->getPointerTo();
  i64p = i64->getPointerTo();
  listTy = llvm::StructType::get(C, {i64p, i64, i64, i8});
  listP = listTy->getPointerTo();
  dataSlots_.assign(static_cast<size_t>(std::max(1, G.listSlots)), false);
  // The memo this game's search fills: the engine's by the same rule.
  MemoKind kind = memoKind(G);
  word_ = kind == MemoKind::Words || kind == MemoKind::Lists;
  packedList_ = kind == MemoKind::Lists;
  useArena_ = needsArena();
  deferred_ = mode_ == Mode::Search && kind == MemoKind::Words && onlySelfMoves() && !G.cells;
  mirrored_ = mode_ == Mode::Search && kind == MemoKind::Box && ir::normalizedOrder(G).size() == 2;
}

void FunctionEmitter::emit() {
  if (mode_ == Mode::Kernel) {
    auto* fty = llvm::FunctionType::get(i64, {i8p, i64, tableType()->getPointerTo()}, false);
    F = llvm::Function::Create(
        fty, llvm::Function::ExternalLinkage,
        functionName(game_, wideTable_ ? Emitted::Kernel32 : Emitted::Kernel16), M);
  } else {
    auto* fty = llvm::FunctionType::get(i32, {i8p, i64p}, false);
    F = llvm::Function::Create(
        fty, llvm::Function::ExternalLinkage,
        mode_ == Mode::Search
            ? functionName(game_, wideCells_ ? Emitted::SearchWide : Emitted::Search, length_)
            : functionName(game_, Emitted::Enumerator),
        M);
  }
  ctx_ = F->getArg(0);
  // The context is reached only through this pointer (and the helpers it is
  // passed to), so its fields (the arena's bounds, the seen stack) stay in
  // registers across the stores into lists and memos.
  F->addParamAttr(0, llvm::Attribute::NoAlias);
  BasicBlock* entry = BasicBlock::Create(C, "entry", F);
  B.SetInsertPoint(entry);
  retSlot_ = entryAlloca(mode_ == Mode::Kernel ? i64 : i32, "ret");
  ints_ = entryAlloca(llvm::ArrayType::get(i64, std::max(1, G.intSlots)), "ints");
  lists_ = entryAlloca(llvm::ArrayType::get(listTy, std::max(1, G.listSlots)), "lists");
  bail_ = BasicBlock::Create(C, "bail", F);
  if (mode_ == Mode::Kernel) {
    n_ = F->getArg(1);
    table_ = F->getArg(2);
    B.CreateStore(n_, intSlot(G.params[0].slot));
  } else {
    bindParams(F->getArg(1));
  }
  // Bounds of the integers in terms of the parameters (compiler/ir/Bounds.h):
  // the heap of a kernel, the integer parameters of a native search.
  // A kernel's heap is at most a table's length (2^40), a box's parameters
  // less than its extent (2^46 at the very most: the box would need 2^48
  // bytes); a table of words holds any word.
  if (mode_ == Mode::Kernel || (mode_ == Mode::Search && !packedList_)) {
    bounds_.emplace(G.params.size(), word_ ? INT64_MAX : int64_t{1} << 46);
    for (size_t i = 0; i < G.params.size(); ++i) bounds_->setParam(G.params[i].slot, i);
    if (mode_ == Mode::Search && !word_) bounds_->setOrder(ir::normalizedOrder(G));
  }
  if (mode_ == Mode::Search) enterSearch(F->getArg(1));
  if (mode_ == Mode::Kernel) {
    cacheField(offsetof(KernelState, stamps), i32p, false);
    cacheField(offsetof(KernelState, capacity), i64, false);
    cacheField(offsetof(KernelState, epoch), i32, false);
  } else if (mode_ == Mode::Search) {
    cacheField(offsetof(KernelState, stamps), i32p, false);
    cacheField(offsetof(KernelState, capacity), i64, false);
    cacheField(offsetof(KernelState, seen), i32p, false);
    cacheField(offsetof(KernelState, seenTop), i64, true);
    cacheField(offsetof(KernelState, seenCapacity), i64, false);
    if (word_) {
      cacheField(offsetof(KernelState, wordSlots), i8p, false);
      cacheField(offsetof(KernelState, wordMask), i64, false);
      cacheField(offsetof(KernelState, wordShift), i64, false);
      cacheField(offsetof(KernelState, wordNarrow), i64, false);
    }
    if (deferred_) {
      cacheField(offsetof(KernelState, pending), i64p, false);
      cacheField(offsetof(KernelState, pendingTop), i64, true);
      cacheField(offsetof(KernelState, pendingCapacity), i64, false);
    }
    beginMarking();
  }
  for (size_t i = 0; i < G.moves.size(); ++i) {
    moveIndex_ = static_cast<int>(i);
    steps(G.moves[i].steps, 0);
  }
  if (mode_ == Mode::Kernel) {
    B.CreateRet(mex());
  } else if (mode_ == Mode::Search) {
    finishSearch();
  } else {
    B.CreateRet(llvm::ConstantInt::get(i32, 0));
  }
  B.SetInsertPoint(bail_);
  if (mode_ == Mode::Search) abandonSearch();
  B.CreateRet(B.CreateLoad(mode_ == Mode::Kernel ? i64 : i32, retSlot_));
}

// ---- parameters -----------------------------------------------------------

void FunctionEmitter::bindParams(Value* words) {
  Value* w = c64(0);
  for (const ir::Param& p : G.params) {
    Value* word = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, words, w));
    if (p.type == ir::Type::List) {
      Value* data = B.CreateInBoundsGEP(i64, words, B.CreateAdd(w, c64(1)));
      // A search specialized to one length knows it.
      if (mode_ == Mode::Search && packedList_) {
        word = c64(length_);
        for (int64_t k = 0; k < std::min(length_, kListKeyMaxLength); ++k)
          paramNumbers_.push_back(
              B.CreateLoad(i64, B.CreateInBoundsGEP(i64, data, c64(k)), "param"));
      }
      storeList(listSlot(p.slot), data, word, c64(0), false);
      dataSlots_[static_cast<size_t>(p.slot)] = true;
      w = B.CreateAdd(w, B.CreateAdd(word, c64(1)));
    } else {
      B.CreateStore(word, intSlot(p.slot));
      w = B.CreateAdd(w, c64(1));
    }
  }
}

// ---- context fields kept in locals ---------------------------------------
// The fields the hot loops read (the seen stack, the stamps of the mex, the
// table of words) live in local slots, which the optimizer keeps in
// registers, instead of being read from the context at every move: a call
// may change them (a helper that grows a stack, the search expanding a
// successor, which fills the table of words), so they are written back
// before every call (those the code changes) and read again after it.

void FunctionEmitter::cacheField(size_t offset, llvm::Type* type, bool written) {
  llvm::AllocaInst* slot = entryAlloca(type, "field");
  B.CreateStore(B.CreateLoad(type, stateField(offset, type)), slot);
  cached_.push_back({offset, type, slot, written});
}

const FunctionEmitter::CachedField* FunctionEmitter::cachedField(size_t offset) const {
  for (const CachedField& f : cached_)
    if (f.offset == offset) return &f;
  return nullptr;
}

// The field at `offset`, from its local slot when it has one.
Value* FunctionEmitter::field(size_t offset, llvm::Type* type) {
  if (const CachedField* f = cachedField(offset)) return B.CreateLoad(f->type, f->slot);
  return B.CreateLoad(type, stateField(offset, type));
}

void FunctionEmitter::setField(size_t offset, Value* v) {
  if (const CachedField* f = cachedField(offset)) {
    B.CreateStore(v, f->slot);
    return;
  }
  B.CreateStore(v, stateField(offset, v->getType()));
}

void FunctionEmitter::spillFields() {
  for (const CachedField& f : cached_)
    if (f.written) B.CreateStore(B.CreateLoad(f.type, f.slot), stateField(f.offset, f.type));
}

void FunctionEmitter::reloadFields() {
  for (const CachedField& f : cached_)
    B.CreateStore(B.CreateLoad(f.type, stateField(f.offset, f.type)), f.slot);
}

// ---- leaving early and polling ------------------------------------------

// Leaves through the bail block when `cond` holds, after recording the error.
void FunctionEmitter::failIf(Value* cond, ir::ErrorCode code, SourceRange where, Value* a, Value* b,
                             int32_t op) {
  BasicBlock* failBB = BasicBlock::Create(C, "fail", F);
  BasicBlock* ok = BasicBlock::Create(C, "ok", F);
  B.CreateCondBr(cond, failBB, ok);
  B.SetInsertPoint(failBB);
  call(gdsl_jit_fail, i32, {i8p, i32, i32, i64, i64, i32},
       {ctx_, c32(static_cast<int32_t>(code)), c32(loc(where)), a ? a : c64(0), b ? b : c64(0),
        c32(op)});
  storeFailure(c32(1));
  B.CreateBr(bail_);
  B.SetInsertPoint(ok);
}

void FunctionEmitter::storeFailure(Value* status) {
  if (mode_ == Mode::Kernel)
    B.CreateStore(c64(-1), retSlot_);
  else
    B.CreateStore(status, retSlot_);
}

// Leaves through the bail block when a helper returned a non-zero status.
void FunctionEmitter::checkStatus(Value* status) {
  BasicBlock* bad = BasicBlock::Create(C, "status", F);
  BasicBlock* ok = BasicBlock::Create(C, "ok", F);
  B.CreateCondBr(B.CreateICmpNE(status, c32(0)), bad, ok);
  B.SetInsertPoint(bad);
  storeFailure(status);
  B.CreateBr(bail_);
  B.SetInsertPoint(ok);
}

// Polls for a stop request when `due` holds, one time in `period`; leaves
// through the bail block if one came.
void FunctionEmitter::pollWhen(Value* due, uint32_t period) {
  BasicBlock* poll = BasicBlock::Create(C, "poll", F);
  BasicBlock* polled = BasicBlock::Create(C, "polled", F);
  B.CreateCondBr(due, poll, polled, llvm::MDBuilder(C).createBranchWeights(1, period - 1));
  B.SetInsertPoint(poll);
  checkStatus(call(gdsl_jit_poll, i32, {i8p}, {ctx_}));
  B.CreateBr(polled);
  B.SetInsertPoint(polled);
}

llvm::MDNode* FunctionEmitter::shortLoop() {
  llvm::Metadata* noVector[] = {llvm::MDString::get(C, "llvm.loop.vectorize.enable"),
                                llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(C))};
  auto self = llvm::MDNode::getTemporary(C, {});
  llvm::Metadata* parts[] = {self.get(), llvm::MDNode::get(C, noVector)};
  llvm::MDNode* id = llvm::MDNode::getDistinct(C, parts);
  id->replaceOperandWith(0, id);
  return id;
}

void emitFunction(const ir::Program& program, int game, Emitted what, int64_t length,
                  llvm::Module& module, std::vector<SourceRange>& locs) {
  using Mode = FunctionEmitter::Mode;
  Mode mode = what == Emitted::Enumerator                              ? Mode::Enumerate
              : what == Emitted::Search || what == Emitted::SearchWide ? Mode::Search
                                                                       : Mode::Kernel;
  FunctionEmitter(program, module, locs, game, mode, what == Emitted::Kernel32, length,
                  what == Emitted::SearchWide)
      .emit();
}

}  // namespace gdsl::jit
