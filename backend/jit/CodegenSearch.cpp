// FunctionEmitter's native search (Mode::Search, `i32 search(ctx, words)`):
// it expands one position into the game's memo (a box of cells, or a table of
// words keyed by the position's word or packed list) and returns a
// NativeStatus. The code it emits takes the steps of runtime/MemoSearch.h
// (expand and add), which the C++ searches share:
//   1. the position's key taken in the table of words, Full when it is full:
//      enterSearch (a list's key packed by gdsl_jit_list_key, then
//      gdsl_jit_word_enter);
//   2. its cell marked on the stack: enterSearch (a box's cell; the table's
//      in gdsl_jit_word_enter);
//   3. below the stack floor, Deep: enterSearch;
//   4. a poll every kSearchPollPositions positions: enterSearch
//      (gdsl_jit_search_poll, which also sets keepValues);
//   5. its moves (CodegenMoves.cpp, xorTerms) value each successor of the
//      game itself with searchedValue: from a box's cell (normalizedValue;
//      for a game that sorts its two parameters, first the mirror cell of
//      the successor as it is), from the table of words, probed inline
//      (wordValue, probeWord, probeLoop), part by part for a board that
//      splits (partsValue), by a packed list key (searchedListValue,
//      searchedFixedValue); memoValue expands an unknown one (callSelf) and
//      stops on a Cycle; exitOnMiss and the list misses stop on Outside;
//      pushPending and readPending defer the successors of a game whose
//      moves each lead to one word of itself; any other component is asked
//      of the engine (componentValue); markSeen records each move's value
//      (addMove), on the seen stack too when keepValues is set;
//   6. finishSearch: the mex of the values (beginMarking, endMarking, mex)
//      + 1 into the cell, and into its mirror cell (storeMirror); Wide when
//      that does not fit a 16-bit box.
// Any other end: abandonSearch leaves the cell unknown again.
// The kernels share the mex and its stamps (markSeen, stamp, mex).
#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "backend/jit/FunctionEmitter.h"
#include "runtime/Components.h"

namespace gdsl::jit {

namespace {

bool allocates(const ir::Step& s);

bool allocates(const ir::Expr& e) {
  switch (e.op) {
    case ir::Op::MakeList:
    case ir::Op::MakeSet:
    case ir::Op::Sort:
    case ir::Op::SetElem:
    case ir::Op::Bits:
    case ir::Op::Collect:
      return true;
    default:
      break;
  }
  for (const ir::Expr& k : e.kids)
    if (allocates(k)) return true;
  for (const ir::Step& s : e.steps)
    if (allocates(s)) return true;
  return false;
}

bool allocates(const ir::Step& s) {
  return allocates(s.value) || allocates(s.domain.lo) || allocates(s.domain.hi) ||
         allocates(s.domain.list);
}

bool allocates(const std::vector<ir::Term>& terms) {
  for (const ir::Term& t : terms) {
    for (const ir::Expr& a : t.args)
      if (allocates(a)) return true;
    if (t.kind == ir::Term::Kind::SumFor && (allocates(t.binder) || allocates(t.body))) return true;
  }
  return false;
}

}  // namespace

// ---- dense search -------------------------------------------------------------

// Marks the position's cell, checks the native stack and polls now and
// then; the moves' values go on the seen stack from its current top.
void FunctionEmitter::enterSearch(Value* words) {
  seenBase_ = B.CreateLoad(i64, stateField(offsetof(KernelState, seenTop), i64));
  if (word_) {
    // The position's slot, marked; the memo may be full (--max-states).
    key_ = packedList_ ? call(gdsl_jit_list_key, i64, {i64p}, {words})
                       : static_cast<Value*>(B.CreateLoad(i64, words));
    if (deferred_)
      pendingBase_ = B.CreateLoad(i64, stateField(offsetof(KernelState, pendingTop), i64));
    checkStatus(call(gdsl_jit_word_enter, i32, {i8p, i64}, {ctx_, key_}));
  } else {
    // The box does not move during a search: its shape is read once.
    Value* extent = B.CreateLoad(i64p, stateField(offsetof(KernelState, extent), i64p));
    Value* stride = B.CreateLoad(i64p, stateField(offsetof(KernelState, stride), i64p));
    for (size_t i = 0; i < G.params.size(); ++i) {
      extents_.push_back(B.CreateLoad(i64, B.CreateConstInBoundsGEP1_64(i64, extent, i)));
      strides_.push_back(B.CreateLoad(i64, B.CreateConstInBoundsGEP1_64(i64, stride, i)));
    }
    llvm::Type* cellPtr = cellType()->getPointerTo();
    cells_ = B.CreateLoad(cellPtr, stateField(offsetof(KernelState, cells), cellPtr));
    Value* index = c64(0);
    for (size_t i = 0; i < G.params.size(); ++i) {
      Value* w = B.CreateLoad(i64, B.CreateConstInBoundsGEP1_64(i64, words, i));
      ownWords_.push_back(w);
      index = B.CreateAdd(index, B.CreateMul(w, strides_[i]));
    }
    cell_ = B.CreateInBoundsGEP(cellType(), cells_, index);
    B.CreateStore(llvm::ConstantInt::get(cellType(), -1, true), cell_);  // being expanded
  }
  // The stack grows down: below the floor, stop and let the engine restart here.
  llvm::Function* frameAddress =
      llvm::Intrinsic::getDeclaration(&M, llvm::Intrinsic::frameaddress, {i8p});
  Value* here = B.CreatePtrToInt(B.CreateCall(frameAddress, {c32(0)}), i64);
  Value* floor = B.CreateLoad(i64, stateField(offsetof(KernelState, stackFloor), i64));
  exitIf(B.CreateICmpULT(here, floor), [&] {
    Value* count = packedList_ ? B.CreateAdd(B.CreateLoad(i64, words), c64(1))
                               : c64(static_cast<int64_t>(G.params.size()));
    return call(gdsl_jit_dense_deep, i32, {i8p, i64p, i64}, {ctx_, words, count});
  });
  Value* ticksField = stateField(offsetof(KernelState, ticks), i64);
  Value* ticks = B.CreateAdd(B.CreateLoad(i64, ticksField), c64(1));
  B.CreateStore(ticks, ticksField);
  BasicBlock* poll = BasicBlock::Create(C, "poll", F);
  BasicBlock* polled = BasicBlock::Create(C, "polled", F);
  B.CreateCondBr(B.CreateICmpEQ(B.CreateAnd(ticks, c64(kSearchPollPositions - 1)), c64(0)), poll,
                 polled, llvm::MDBuilder(C).createBranchWeights(1, kSearchPollPositions - 1));
  B.SetInsertPoint(poll);
  checkStatus(call(gdsl_jit_search_poll, i32, {i8p}, {ctx_}));
  B.CreateBr(polled);
  B.SetInsertPoint(polled);
  keepValues_ =
      B.CreateICmpNE(B.CreateLoad(i64, stateField(offsetof(KernelState, keepValues), i64)), c64(0));
}

void FunctionEmitter::leaveSearch() {
  B.CreateStore(seenBase_, stateField(offsetof(KernelState, seenTop), i64));
  if (deferred_) B.CreateStore(pendingBase_, stateField(offsetof(KernelState, pendingTop), i64));
}

// Step 6 of runtime/MemoSearch.h: the position's cell gets the mex of its
// moves' values + 1 (Wide when that does not fit a 16-bit box), and the
// search returns Done.
void FunctionEmitter::finishSearch() {
  if (deferred_) readPending();
  endMarking();
  Value* v = B.CreateTrunc(mex(), i32);
  spillFields();
  cached_.clear();  // the rest reads and writes the context itself
  Value* cell = B.CreateAdd(v, c32(cellOfValue(0)));  // value + 1 (runtime/MemoCell.h)
  if (word_) {
    call(gdsl_jit_word_set, voidTy, {i8p, i64, i32}, {ctx_, key_, cell});
  } else {
    // A 16-bit box holds cells up to kNarrowMaxCell: past that, the
    // engine widens it and searches again (runtime/DenseBox.h).
    if (!wideCells_)
      exitIf(B.CreateICmpUGT(cell, c32(DenseBox::kNarrowMaxCell)),
             [&] { return c32(statusCode(NativeStatus::Wide)); });
    B.CreateStore(B.CreateTrunc(cell, cellType()), cell_);
    if (mirrored_) storeMirror(B.CreateTrunc(cell, cellType()));
  }
  leaveSearch();
  B.CreateRet(c32(statusCode(NativeStatus::Done)));
}

// Any other end: nothing half-done stays, the position is unknown again.
void FunctionEmitter::abandonSearch() {
  if (word_)
    call(gdsl_jit_word_forget, voidTy, {i8p, i64}, {ctx_, key_});
  else
    B.CreateStore(llvm::ConstantInt::get(cellType(), 0), cell_);
  leaveSearch();
}

// The search calling itself on the successor at `words`.
Value* FunctionEmitter::callSelf(Value* words) {
  spillFields();
  Value* result = B.CreateCall(F, {ctx_, words});
  reloadFields();
  B.CreateStore(llvm::ConstantInt::getTrue(C), expanded_);
  return result;
}

// Whether every move leads to one position of this game, or ends the game.
bool FunctionEmitter::onlySelfMoves() const {
  for (const ir::Move& m : G.moves) {
    if (m.successor.empty()) continue;
    if (m.successor.size() != 1 || m.successor[0].kind != ir::Term::Kind::Position ||
        m.successor[0].game != game_)
      return false;
  }
  return true;
}

// A deferred move: the successor's word, normalized and checked as
// searchedValue does, goes on the pending stack, and its home slot is
// prefetched.
void FunctionEmitter::pushPending(const ir::Term& t) {
  Value* raw = integer(t.args[0]);
  Value* word = G.normalize ? normalizeInline(G, {raw})[0] : raw;
  Value* slot = entryAlloca(i64, "missword");
  B.CreateStore(word, slot);
  exitOnMiss(
      B.CreateICmpSLT(raw, c64(0)), B.CreateICmpSLT(word, c64(0)), [&] { return slot; }, c64(1));
  Value* slots = field(offsetof(KernelState, wordSlots), i8p);
  Value* narrow = B.CreateICmpNE(field(offsetof(KernelState, wordNarrow), i64), c64(0));
  Value* slotBytes =
      B.CreateSelect(narrow, c64(sizeof(uint64_t)), c64(static_cast<int64_t>(sizeof(WordSlot))));
  llvm::Function* prefetch = llvm::Intrinsic::getDeclaration(&M, llvm::Intrinsic::prefetch, {i8p});
  B.CreateCall(prefetch, {B.CreateInBoundsGEP(i8, slots, B.CreateMul(wordHome(word), slotBytes)),
                          c32(0), c32(3), c32(1)});
  push(offsetof(KernelState, pending), offsetof(KernelState, pendingTop),
       offsetof(KernelState, pendingCapacity), i64, gdsl_jit_pending_grow, word);
}

// The deferred moves' values, read (or searched) in order and pushed on
// the seen stack; the pending stack is left as this position found it.
void FunctionEmitter::readPending() {
  Value* end = field(offsetof(KernelState, pendingTop), i64);
  llvm::AllocaInst* word = entryAlloca(i64, "pendingword");
  loop(pendingBase_, end, [&](Value* i) {
    // The stack may move while a successor is searched: read it each time.
    Value* pending = field(offsetof(KernelState, pending), i64p);
    Value* key = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, pending, i));
    markSeen(wordValue(key, [&] {
      B.CreateStore(key, word);
      return callSelf(word);
    }));
  });
}

// Pushes `v` on a stack of the context (the fields at offsets `data`, `top`
// and `capacity`, of `element`s), after `grow` when it is full.
void FunctionEmitter::push(size_t data, size_t top, size_t capacity, llvm::Type* element,
                           void (*grow)(Context*), Value* v) {
  Value* at = field(top, i64);
  Value* limit = field(capacity, i64);
  BasicBlock* growBB = BasicBlock::Create(C, "grow", F);
  BasicBlock* store = BasicBlock::Create(C, "store", F);
  B.CreateCondBr(B.CreateICmpEQ(at, limit), growBB, store,
                 llvm::MDBuilder(C).createBranchWeights(1, 1000));
  B.SetInsertPoint(growBB);
  call(grow, voidTy, {i8p}, {ctx_});
  B.CreateBr(store);
  B.SetInsertPoint(store);
  llvm::Type* pointer = element->getPointerTo();
  Value* base = field(data, pointer);
  B.CreateStore(v, B.CreateInBoundsGEP(element, base, at));
  setField(top, B.CreateAdd(at, c64(1)));
}

// The value of a component of this game: read from the box, or searched
// recursively when unknown. Outside the box (or on a cycle) the search
// stops with a status the engine acts on.
Value* FunctionEmitter::searchedValue(const ir::Term& t) {
  if (packedList_) return searchedListValue(t);
  std::vector<Value*> raw;
  for (const ir::Expr& a : t.args) raw.push_back(integer(a));
  if (!mirrored_) return normalizedValue(t, raw);
  // A game that sorts its two parameters: the cell of the raw successor,
  // which holds its value whether the raw order is the normalized one or
  // its mirror; unknown there (or outside the box), the normalized way.
  Value* inBox = llvm::ConstantInt::getTrue(C);
  for (size_t i = 0; i < 2; ++i)
    if (!provedBelowParam(t.args[i], i, 0))
      inBox = B.CreateAnd(inBox, B.CreateICmpULT(raw[i], extents_[i]));
  BasicBlock* fast = BasicBlock::Create(C, "mirror", F);
  BasicBlock* slow = BasicBlock::Create(C, "normalized", F);
  BasicBlock* join = BasicBlock::Create(C, "mirrored", F);
  B.CreateCondBr(inBox, fast, slow, llvm::MDBuilder(C).createBranchWeights(1000, 1));
  B.SetInsertPoint(fast);
  Value* index = B.CreateAdd(B.CreateMul(raw[0], strides_[0]), raw[1]);
  Value* known =
      B.CreateZExt(B.CreateLoad(cellType(), B.CreateInBoundsGEP(cellType(), cells_, index)), i32);
  Value* value = B.CreateSub(known, c32(1));
  Value* wide = B.CreateZExt(value, i64);
  BasicBlock* fastEnd = B.GetInsertBlock();
  B.CreateCondBr(B.CreateICmpULT(value, c32(onStackCell() - 1)), join, slow,
                 llvm::MDBuilder(C).createBranchWeights(1000, 1));
  B.SetInsertPoint(slow);
  Value* other = normalizedValue(t, raw);
  BasicBlock* slowEnd = B.GetInsertBlock();
  B.CreateBr(join);
  B.SetInsertPoint(join);
  auto* phi = B.CreatePHI(i64, 2);
  phi->addIncoming(wide, fastEnd);
  phi->addIncoming(other, slowEnd);
  return phi;
}

// The value cell of the position's mirror gets its value too (a game that
// sorts its two parameters), when the box holds the mirror.
void FunctionEmitter::storeMirror(Value* cell) {
  Value* a = ownWords_[0];
  Value* b = ownWords_[1];
  Value* there = B.CreateAnd(B.CreateICmpNE(a, b), B.CreateAnd(B.CreateICmpULT(b, extents_[0]),
                                                               B.CreateICmpULT(a, extents_[1])));
  BasicBlock* store = BasicBlock::Create(C, "mirrorstore", F);
  BasicBlock* done = BasicBlock::Create(C, "mirrorstored", F);
  B.CreateCondBr(there, store, done);
  B.SetInsertPoint(store);
  Value* index = B.CreateAdd(B.CreateMul(b, strides_[0]), a);
  B.CreateStore(cell, B.CreateInBoundsGEP(cellType(), cells_, index));
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

// searchedValue by the normalized successor: its cell read, or the
// successor searched when unknown.
Value* FunctionEmitter::normalizedValue(const ir::Term& t, const std::vector<Value*>& raw) {
  size_t count = t.args.size();
  std::vector<Value*> words = raw;
  if (G.normalize) words = normalizeInline(G, raw);
  // What the bounds prove: raw arguments that cannot be negative, words
  // inside the box (at least 0, at most this position's own parameter).
  std::vector<bool> rawSafe(count, false), wordSafe(count, false);
  if (bounds_) {
    std::vector<ir::Bounds> rawBounds, wordBounds;
    for (const ir::Expr& a : t.args) rawBounds.push_back(bounds_->of(a));
    wordBounds = rawBounds;
    if (G.normalize) {
      ir::BoundsEnv frame = bounds_->emptyFrame();
      for (size_t i = 0; i < count; ++i) frame.set(G.params[i].slot, rawBounds[i]);
      for (size_t i = 0; i < count; ++i) wordBounds[i] = frame.of((*G.normalize)[i]);
    }
    for (size_t i = 0; i < count; ++i) {
      rawSafe[i] = bounds_->atLeast(rawBounds[i], 0);
      wordSafe[i] = bounds_->atLeast(wordBounds[i], 0) &&
                    (word_ || bounds_->atMostParam(wordBounds[i], i, 0));
    }
  }
  auto* arrayTy = llvm::ArrayType::get(i64, std::max<size_t>(1, count));
  Value* array = entryAlloca(arrayTy, "succ");
  // The words go to memory only on the ways that need them there (a miss,
  // a search of the successor), not on the hot path.
  auto stored = [&] {
    for (size_t i = 0; i < count; ++i)
      B.CreateStore(words[i],
                    B.CreateConstInBoundsGEP2_32(arrayTy, array, 0, static_cast<unsigned>(i)));
    return B.CreateConstInBoundsGEP2_32(arrayTy, array, 0, 0);
  };
  Value* inBox = llvm::ConstantInt::getTrue(C);
  Value* rawNegative = llvm::ConstantInt::getFalse(C);
  Value* index = c64(0);
  for (size_t i = 0; i < count; ++i) {
    if (!rawSafe[i]) rawNegative = B.CreateOr(rawNegative, B.CreateICmpSLT(raw[i], c64(0)));
    if (word_) {
      if (!wordSafe[i]) inBox = B.CreateAnd(inBox, B.CreateICmpSGE(words[i], c64(0)));
    } else {
      if (!wordSafe[i]) inBox = B.CreateAnd(inBox, B.CreateICmpULT(words[i], extents_[i]));
      // The last parameter varies fastest (stride 1).
      index = B.CreateAdd(index, i + 1 == count ? words[i] : B.CreateMul(words[i], strides_[i]));
    }
  }
  if (!llvm::isa<llvm::ConstantInt>(rawNegative) || !llvm::isa<llvm::ConstantInt>(inBox))
    exitOnMiss(rawNegative, B.CreateNot(inBox), stored, c64(static_cast<int64_t>(count)));
  auto search = [&] { return callSelf(stored()); };
  if (word_) return B.CreateZExt(wordValue(words[0], search), i64);
  Value* cell = B.CreateInBoundsGEP(cellType(), cells_, index);
  auto read = [&] { return B.CreateZExt(B.CreateLoad(cellType(), cell), i32); };
  return B.CreateZExt(memoValue(read(), search, read, onStackCell()), i64);
}

// The value of a board that splits (ir::Game::cells): the xor of its
// parts' values, each read from the table of words or searched. A board
// valued whole (negative, or with an unsafe cell) takes searchedValue's
// path, which reports a negative one.
Value* FunctionEmitter::partsValue(const ir::Term& t) {
  Value* board = integer(t.args[0]);
  auto* partsTy = llvm::ArrayType::get(i64, kMaxComponents);
  Value* parts = B.CreateConstInBoundsGEP2_32(partsTy, entryAlloca(partsTy, "parts"), 0, 0);
  Value* n = call(gdsl_jit_split, i64, {i8p, i32, i64, i64p}, {ctx_, c32(game_), board, parts});
  return ifElse(
      B.CreateICmpSLT(n, c64(0)), i64, [&] { return searchedValue(t); },
      [&] {
        llvm::AllocaInst* acc = entryAlloca(i64, "partsxor");
        llvm::AllocaInst* word = entryAlloca(i64, "partword");
        B.CreateStore(c64(0), acc);
        loop(c64(0), n, [&](Value* i) {
          Value* key = B.CreateLoad(i64, B.CreateInBoundsGEP(i64, parts, i));
          Value* v = wordValue(key, [&] {
            B.CreateStore(key, word);
            return callSelf(word);
          });
          B.CreateStore(B.CreateXor(B.CreateLoad(i64, acc), B.CreateZExt(v, i64)), acc);
        });
        return static_cast<Value*>(B.CreateLoad(i64, acc));
      });
}

// The value of a position whose cell in the memo is `known`: when it is
// unknown (0), `search()` expands the position (returning a status) and
// `reread()` gives the cell it filled. A cell marked as being expanded is a
// cycle, which stops the search.
// `onStack` is the mark of a cell being expanded, as read: all ones of a
// 32-bit cell, or 0xffff of a 16-bit one.
template <typename Search, typename Reread>
Value* FunctionEmitter::memoValue(Value* known, Search&& search, Reread&& reread, int64_t onStack) {
  // One test on the hot path: cell - 1 is at least onStack - 1 for 0
  // (unknown, wrapping) and for the mark (being expanded).
  Value* value = B.CreateSub(known, c32(1));
  return ifElse(
      B.CreateICmpULT(value, c32(onStack - 1)), i32, [&] { return value; },
      [&] {
        Value* cell = ifElse(
            B.CreateICmpEQ(known, c32(0)), i32,
            [&] {
              checkStatus(search());
              return static_cast<Value*>(reread());
            },
            [&] { return known; });
        exitIf(B.CreateICmpEQ(cell, c32(onStack)),
               [&] { return c32(statusCode(NativeStatus::Cycle)); });
        return static_cast<Value*>(B.CreateSub(cell, c32(1)));
      },
      /*hot=*/true);
}

// memoValue for `key` in the table of words: probed inline, read back
// through the helper after a search (which may have moved the slots).
template <typename Search>
Value* FunctionEmitter::wordValue(Value* key, Search&& search) {
  return memoValue(probeWord(key), search, [&] {
    return call(gdsl_jit_word_get, i32, {i8p, i64}, {ctx_, key});
  });
}

// searchedValue for a game whose one parameter is a list: the successor's
// list, normalized inline, packed inline as runtime/ListKey.h packs it, and
// probed; a list that does not pack stops the search (NativeStatus::Outside).
Value* FunctionEmitter::searchedListValue(const ir::Term& t) {
  if (takesFixedPath(t)) return searchedFixedValue(t);
  Value* raw = list(t.args[0]);
  Value* l = raw;
  Value* bad = llvm::ConstantInt::getFalse(C);
  if (G.normalize) {
    // A negative number is an error even when normalize hides it; sort keeps
    // every number, so packing finds it.
    const ir::Expr& rule = (*G.normalize)[0];
    bool keepsNumbers = rule.op == ir::Op::Sort && rule.kids[0].op == ir::Op::ListVar &&
                        rule.kids[0].imm == G.params[0].slot;
    if (!keepsNumbers) bad = anyNegative(raw);
    l = normalizeListInline(raw);
  }
  // The key: the length in the low bits, then each number in `width` bits.
  Value* n = listSize(l);
  Value* fits = B.CreateICmpULE(n, c64(kListKeyMaxLength));
  Value* width = B.CreateLoad(i64, B.CreateInBoundsGEP(widthTable()->getValueType(), widthTable(),
                                                       {c64(0), B.CreateSelect(fits, n, c64(0))}));
  Value* limit = B.CreateShl(c64(1), width);
  llvm::AllocaInst* key = entryAlloca(i64, "key");
  llvm::AllocaInst* unpacked = entryAlloca(i1, "unpacked");
  B.CreateStore(n, key);
  B.CreateStore(B.CreateOr(bad, B.CreateNot(fits)), unpacked);
  loop(c64(0), B.CreateSelect(fits, n, c64(0)), [&](Value* i) {
    Value* e = listAt(l, i);
    B.CreateStore(B.CreateOr(B.CreateLoad(i1, unpacked), B.CreateICmpUGE(e, limit)), unpacked);
    Value* at = B.CreateAdd(c64(kListKeyLengthBits), B.CreateMul(i, width));
    B.CreateStore(B.CreateOr(B.CreateLoad(i64, key), B.CreateShl(e, at)), key);
  });
  exitIf(B.CreateLoad(i1, unpacked), [&] {
    // A raw list with a negative number is reported as such (status 1).
    return call(gdsl_jit_list_miss, i32, {i8p, listP}, {ctx_, B.CreateSelect(bad, raw, l)});
  });
  Value* value = wordValue(B.CreateLoad(i64, key), [&] {
    Value* words = call(gdsl_jit_list_words, i64p, {i8p, listP}, {ctx_, l});
    return ifElse(
        B.CreateICmpEQ(n, c64(length_)), i32, [&] { return callSelf(words); },
        [&] {
          Value* status = call(gdsl_jit_search_length, i32, {i8p, i64p}, {ctx_, words});
          B.CreateStore(llvm::ConstantInt::getTrue(C), expanded_);
          return status;
        },
        /*hot=*/true);
  });
  return B.CreateZExt(value, i64);
}

// ---- lists of a known length, kept as numbers ----------------------------
// A search specialized to one list length builds most successors from its
// parameter with `set`, `sort` and list literals. Such a list has a length
// known here, so it is kept as its numbers (one value each): never stored in
// the arena, set by selects, sorted by a network of min and max, packed
// without a loop. Only a miss (a successor not in the memo, or one that
// does not pack) writes it out. isFixed says which forms qualify; any other
// takes the general path above.

// Whether the moves build lists in the arena, which each loop then releases
// after every element. A successor isFixed accepts builds none: only its
// misses write it out, and release it themselves.
bool FunctionEmitter::needsArena() const {
  for (const ir::Move& m : G.moves) {
    for (const ir::Step& s : m.steps)
      if (allocates(s)) return true;
    for (const ir::Term& t : m.successor) {
      if (!takesFixedPath(t)) {
        if (allocates(std::vector<ir::Term>{t})) return true;
        continue;
      }
      for (const ir::Expr* e = &t.args[0]; e->op == ir::Op::SetElem || e->op == ir::Op::Sort;
           e = &e->kids[0])
        for (size_t k = 1; k < e->kids.size(); ++k)
          if (allocates(e->kids[k])) return true;
      if (t.args[0].op == ir::Op::MakeList)
        for (const ir::Expr& k : t.args[0].kids)
          if (allocates(k)) return true;
    }
  }
  return false;
}

// Whether successor `t` is valued by searchedFixedValue.
bool FunctionEmitter::takesFixedPath(const ir::Term& t) const {
  return mode_ == Mode::Search && packedList_ && t.kind == ir::Term::Kind::Position &&
         t.game == game_ && isFixed(t.args[0]) &&
         (!G.normalize || isFixed((*G.normalize)[0], /*inNormalize=*/true));
}

// Whether `e` has a length known here: the parameter, a literal, and `set`
// and `sort` of those; in the normalize rule (whose integers would read
// another frame), the list it normalizes and `sort` of it.
bool FunctionEmitter::isFixed(const ir::Expr& e, bool inNormalize) const {
  switch (e.op) {
    case ir::Op::ListVar:
      return e.imm == G.params[0].slot && (inNormalize || length_ <= kListKeyMaxLength);
    case ir::Op::ListConst:
      return !inNormalize && P.lists[static_cast<size_t>(e.imm)].size() <= kListKeyMaxLength;
    case ir::Op::MakeList:
      return !inNormalize && e.kids.size() <= kListKeyMaxLength;
    case ir::Op::SetElem:
      return !inNormalize && isFixed(e.kids[0]);
    case ir::Op::Sort:
      return isFixed(e.kids[0], inNormalize);
    default:
      return false;
  }
}

// The numbers of a list isFixed accepts; `param` holds those of the
// parameter's slot. Checks and errors are the general path's.
FunctionEmitter::Fixed FunctionEmitter::fixedList(const ir::Expr& e, const Fixed& param) {
  switch (e.op) {
    case ir::Op::ListVar:
      return param;
    case ir::Op::ListConst: {
      Fixed out;
      for (int64_t v : P.lists[static_cast<size_t>(e.imm)]) out.push_back(c64(v));
      return out;
    }
    case ir::Op::MakeList: {
      Fixed out;
      for (const ir::Expr& k : e.kids) out.push_back(integer(k));
      return out;
    }
    case ir::Op::SetElem: {
      Fixed out = fixedList(e.kids[0], param);
      Value* index = integer(e.kids[1]);
      checkIndex(index, c64(static_cast<int64_t>(out.size())), e.loc);
      Value* value = integer(e.kids[2]);
      for (size_t k = 0; k < out.size(); ++k)
        out[k] = B.CreateSelect(B.CreateICmpEQ(index, c64(static_cast<int64_t>(k))), value, out[k]);
      return out;
    }
    case ir::Op::Sort: {
      Fixed out = fixedList(e.kids[0], param);
      sortNetwork(out);
      return out;
    }
    default:
      throw std::logic_error("internal error: fixedList of a list isFixed refuses");
  }
}

// Sorts `v` by Batcher's odd-even merge network (ir::forEachSortComparator),
// each comparator a min and a max (no branch).
void FunctionEmitter::sortNetwork(Fixed& v) {
  ir::forEachSortComparator(v.size(), [&](size_t i, size_t j) {
    Value* a = v[i];
    Value* b = v[j];
    v[i] = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, a, b);
    v[j] = B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, b);
  });
}

// A list value (in the arena) holding `numbers`, for the helpers of a miss.
Value* FunctionEmitter::storeFixed(const Fixed& numbers) {
  Value* out = entryAlloca(listTy, "fixed");
  auto n = static_cast<int64_t>(numbers.size());
  Value* data = allocate(c64(std::max<int64_t>(n, 1)));
  for (int64_t i = 0; i < n; ++i)
    B.CreateStore(numbers[static_cast<size_t>(i)], B.CreateConstInBoundsGEP1_64(i64, data, i));
  storeList(out, data, c64(n), c64(0), false);
  return markData(out);
}

// searchedListValue for a successor isFixed accepts, normalized by a rule it
// accepts too: the same key, misses and errors, with the list in registers.
Value* FunctionEmitter::searchedFixedValue(const ir::Term& t) {
  Fixed raw = fixedList(t.args[0], paramNumbers_);
  Fixed l = raw;
  Value* bad = llvm::ConstantInt::getFalse(C);
  if (G.normalize) {
    // As in searchedListValue: a negative number is an error even when
    // normalize hides it, unless normalize keeps every number (sort).
    const ir::Expr& rule = (*G.normalize)[0];
    bool keepsNumbers = rule.op == ir::Op::Sort && rule.kids[0].op == ir::Op::ListVar;
    if (!keepsNumbers) {
      Value* any = c64(0);
      for (Value* x : raw) any = B.CreateOr(any, x);
      bad = B.CreateICmpSLT(any, c64(0));
    }
    l = fixedList(rule, raw);
  }
  auto n = static_cast<int64_t>(l.size());
  if (n > kListKeyMaxLength) throw std::logic_error("internal error: a fixed list too long");
  // The key as runtime/ListKey.h packs it; a negative number is huge.
  Value* key = c64(n);
  Value* unpacked = bad;
  if (n > 0) {
    int width = listKeyWidth(n);
    Value* all = c64(0);
    for (int64_t i = 0; i < n; ++i) {
      Value* e = l[static_cast<size_t>(i)];
      all = B.CreateOr(all, e);
      key = B.CreateOr(key, B.CreateShl(e, c64(kListKeyLengthBits + i * width)));
    }
    unpacked = B.CreateOr(unpacked, B.CreateICmpUGE(all, c64(int64_t{1} << width)));
  }
  exitIf(unpacked, [&] {
    // A raw list with a negative number is reported as such (status 1); the
    // search stops, and the engine takes the list from the arena.
    return ifElse(
        bad, i32,
        [&] {
          return call(gdsl_jit_list_miss, i32, {i8p, listP}, {ctx_, storeFixed(raw)});
        },
        [&] {
          return call(gdsl_jit_list_miss, i32, {i8p, listP}, {ctx_, storeFixed(l)});
        });
  });
  Value* value = wordValue(key, [&] {
    std::vector<Value*> mark = arenaMark();
    Value* words = allocate(c64(n + 1));
    B.CreateStore(c64(n), words);
    for (int64_t i = 0; i < n; ++i)
      B.CreateStore(l[static_cast<size_t>(i)], B.CreateConstInBoundsGEP1_64(i64, words, i + 1));
    Value* status;
    if (n == length_) {
      status = callSelf(words);
    } else {
      status = call(gdsl_jit_search_length, i32, {i8p, i64p}, {ctx_, words});
      B.CreateStore(llvm::ConstantInt::getTrue(C), expanded_);
    }
    arenaRelease(mark);
    return status;
  });
  return B.CreateZExt(value, i64);
}

// Whether a number of the list is negative.
Value* FunctionEmitter::anyNegative(Value* l) {
  llvm::AllocaInst* found = entryAlloca(i1, "negative");
  B.CreateStore(llvm::ConstantInt::getFalse(C), found);
  loop(c64(0), listSize(l), [&](Value* i) {
    B.CreateStore(B.CreateOr(B.CreateLoad(i1, found), B.CreateICmpSLT(listAt(l, i), c64(0))),
                  found);
  });
  return B.CreateLoad(i1, found);
}

// The list the game's normalize rule makes of list `l` (in a frame of its own).
Value* FunctionEmitter::normalizeListInline(Value* l) {
  auto* frameTy = llvm::ArrayType::get(listTy, std::max(1, G.listSlots));
  llvm::AllocaInst* frame = entryAlloca(frameTy, "normlists");
  B.CreateStore(
      B.CreateLoad(listTy, l),
      B.CreateConstInBoundsGEP2_32(frameTy, frame, 0, static_cast<unsigned>(G.params[0].slot)));
  llvm::AllocaInst* saved = lists_;
  std::vector<bool> savedData = dataSlots_;
  lists_ = frame;
  dataSlots_.assign(dataSlots_.size(), false);
  dataSlots_[static_cast<size_t>(G.params[0].slot)] = isData(l);
  Value* normalized = list((*G.normalize)[0]);
  lists_ = saved;
  dataSlots_ = std::move(savedData);
  return normalized;
}

// The bits per number of a packed list of each length 0..15 (runtime/ListKey.h).
llvm::GlobalVariable* FunctionEmitter::widthTable() {
  if (widths_) return widths_;
  std::vector<uint64_t> widths{0};
  for (int64_t n = 1; n <= kListKeyMaxLength; ++n)
    widths.push_back(static_cast<uint64_t>(listKeyWidth(n)));
  auto* init = llvm::ConstantDataArray::get(C, widths);
  widths_ = new llvm::GlobalVariable(M, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                     init, "gdsl_list_key_widths");
  return widths_;
}

// Stops the search when a successor is not in the memo: a negative raw
// argument (even one normalize hides) is an error, which the engine's search
// reports (status 1); otherwise the normalized words at `first` are the miss
// (gdsl_jit_dense_miss: outside the box, or negative).
template <typename First>
void FunctionEmitter::exitOnMiss(Value* rawNegative, Value* outside, First&& first, Value* count) {
  exitIf(B.CreateOr(rawNegative, outside), [&] {
    return ifElse(
        rawNegative, i32, [&] { return c32(1); },
        [&] {
          return call(gdsl_jit_dense_miss, i32, {i8p, i64p, i64}, {ctx_, first(), count});
        });
  });
}

// The value cell of `key` in the packed memo (0 when absent): an inline
// linear probe from its home slot, as WordMemo::find does, over narrow or
// wide slots as the table has them now.
Value* FunctionEmitter::probeWord(Value* key) {
  Value* slots = field(offsetof(KernelState, wordSlots), i8p);
  Value* mask = field(offsetof(KernelState, wordMask), i64);
  Value* home = wordHome(key);
  Value* narrow = B.CreateICmpNE(field(offsetof(KernelState, wordNarrow), i64), c64(0));
  return ifElse(
      narrow, i32,
      [&] {
        // A slot is key << 24 | cell; all ones in the cell: on the stack.
        return probeLoop(home, mask, [&](Value* i, BasicBlock* found, BasicBlock* other) {
          Value* slot =
              B.CreateLoad(i64, B.CreateInBoundsGEP(i64, B.CreateBitCast(slots, i64p), i));
          B.CreateCondBr(B.CreateICmpEQ(B.CreateLShr(slot, c64(WordMemo::kCellBits)), key), found,
                         other);
          B.SetInsertPoint(found);
          Value* cell = B.CreateAnd(slot, c64(static_cast<int64_t>(WordMemo::kNarrowCell)));
          Value* onStack = B.CreateICmpEQ(cell, c64(static_cast<int64_t>(WordMemo::kNarrowCell)));
          return std::pair{slot, B.CreateSelect(onStack, c32(-1), B.CreateTrunc(cell, i32))};
        });
      },
      [&] {
        return probeLoop(home, mask, [&](Value* i, BasicBlock* found, BasicBlock* other) {
          Value* slot = B.CreateInBoundsGEP(i8, slots, B.CreateMul(i, c64(sizeof(WordSlot))));
          Value* slotKey =
              B.CreateAlignedLoad(i64, B.CreateBitCast(slot, i64p), llvm::MaybeAlign(4));
          B.CreateCondBr(B.CreateICmpEQ(slotKey, key), found, other);
          B.SetInsertPoint(found);
          Value* valuePtr = B.CreateBitCast(
              B.CreateConstInBoundsGEP1_64(i8, slot, offsetof(WordSlot, value)), i32p);
          return std::pair{slotKey, B.CreateAlignedLoad(i32, valuePtr, llvm::MaybeAlign(4))};
        });
      },
      /*hot=*/true);
}

Value* FunctionEmitter::wordHome(Value* key) {
  Value* shift = field(offsetof(KernelState, wordShift), i64);
  return B.CreateLShr(B.CreateMul(key, c64(static_cast<int64_t>(WordMemo::kMultiplier))), shift);
}

// The probe loop from slot `home`: `match(i, found, other)` reads slot i,
// branches to `found` when it holds the key (else to `other`), and, in
// `found`, returns the slot's raw word and its cell. An empty slot (all
// ones) ends the probe with 0.
template <typename Match>
Value* FunctionEmitter::probeLoop(Value* home, Value* mask, Match&& match) {
  BasicBlock* before = B.GetInsertBlock();
  BasicBlock* loop = BasicBlock::Create(C, "probe", F);
  BasicBlock* found = BasicBlock::Create(C, "found", F);
  BasicBlock* other = BasicBlock::Create(C, "other", F);
  BasicBlock* next = BasicBlock::Create(C, "nextslot", F);
  BasicBlock* done = BasicBlock::Create(C, "probed", F);
  B.CreateBr(loop);
  B.SetInsertPoint(loop);
  auto* i = B.CreatePHI(i64, 2);
  i->addIncoming(home, before);
  auto [raw, cell] = match(i, found, other);
  BasicBlock* foundEnd = B.GetInsertBlock();
  B.CreateBr(done);
  B.SetInsertPoint(other);
  B.CreateCondBr(B.CreateICmpEQ(raw, c64(-1)), done, next);
  B.SetInsertPoint(next);
  i->addIncoming(B.CreateAnd(B.CreateAdd(i, c64(1)), mask), next);
  B.CreateBr(loop);
  B.SetInsertPoint(done);
  auto* result = B.CreatePHI(i32, 2);
  result->addIncoming(cell, foundEnd);
  result->addIncoming(c32(0), other);
  return result;
}

// ---- mex --------------------------------------------------------------------

// `narrow`: v is below 2^16, which a kernel's stamps always hold
// (JitBackend::heapValue), so it needs no test against their end.
void FunctionEmitter::markSeen(Value* v, bool narrow) {
  if (mode_ == Mode::Search) {
    BasicBlock* keep = BasicBlock::Create(C, "keep", F);
    BasicBlock* kept = BasicBlock::Create(C, "kept", F);
    B.CreateCondBr(keepValues_, keep, kept);
    B.SetInsertPoint(keep);
    push(offsetof(KernelState, seen), offsetof(KernelState, seenTop),
         offsetof(KernelState, seenCapacity), i32, gdsl_jit_seen_grow, v);
    B.CreateBr(kept);
    B.SetInsertPoint(kept);
  }
  if (narrow && mode_ == Mode::Kernel) {
    Value* stamps = field(offsetof(KernelState, stamps), i32p);
    B.CreateStore(currentEpoch(), B.CreateInBoundsGEP(i32, stamps, B.CreateZExt(v, i64)));
    return;
  }
  stamp(v, currentEpoch());
}

// stamps[v] = epoch, the stamps grown first when v is past their end (the
// helper stamps with the context's epoch, which is `epoch` unless a
// successor expanded since, and then the stamps are made again anyway).
void FunctionEmitter::stamp(Value* v, Value* epoch) {
  Value* capacity = field(offsetof(KernelState, capacity), i64);
  BasicBlock* inBB = BasicBlock::Create(C, "mark", F);
  BasicBlock* bigBB = BasicBlock::Create(C, "grow", F);
  BasicBlock* done = BasicBlock::Create(C, "marked", F);
  B.CreateCondBr(B.CreateICmpULT(B.CreateZExt(v, i64), capacity), inBB, bigBB,
                 llvm::MDBuilder(C).createBranchWeights(1000, 1));
  B.SetInsertPoint(inBB);
  Value* stamps = field(offsetof(KernelState, stamps), i32p);
  B.CreateStore(epoch, B.CreateInBoundsGEP(i32, stamps, B.CreateZExt(v, i64)));
  B.CreateBr(done);
  B.SetInsertPoint(bigBB);
  call(gdsl_jit_mark_big, voidTy, {i8p, i32}, {ctx_, v});
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

// The epoch the moves' values are stamped with: the kernel's is the
// context's (JitBackend::heapValue takes a new one per heap); a search takes
// its own (beginMarking).
Value* FunctionEmitter::currentEpoch() {
  if (mode_ == Mode::Search) return B.CreateLoad(i32, epoch_);
  return field(offsetof(KernelState, epoch), i32);
}

// A search stamps its moves' values straight into the context's stamps, as
// a kernel does, with an epoch of its own. Expanding an unknown successor
// takes later epochs and may overwrite stamps; then, once every move has a
// value, the moves run again with a new epoch, every successor now known,
// nothing expanded. Few positions expand a successor (3% in three-row
// Chomp), so few run their moves twice; and no value is stored but the
// stamp.
void FunctionEmitter::beginMarking() {
  epoch_ = entryAlloca(i32, "epoch");
  expanded_ = entryAlloca(i1, "expanded");
  marking_ = BasicBlock::Create(C, "marking", F);
  B.CreateBr(marking_);
  B.SetInsertPoint(marking_);
  B.CreateStore(newEpoch(), epoch_);
  B.CreateStore(llvm::ConstantInt::getFalse(C), expanded_);
  if (deferred_) setField(offsetof(KernelState, pendingTop), pendingBase_);
}

// The next epoch of the context's stamps (all cleared when the count wraps).
Value* FunctionEmitter::newEpoch() {
  Value* epochField = stateField(offsetof(KernelState, epoch), i32);
  Value* next = B.CreateAdd(B.CreateLoad(i32, epochField), c32(1));
  return ifElse(
      B.CreateICmpNE(next, c32(0)), i32,
      [&] {
        B.CreateStore(next, epochField);
        return next;
      },
      [&] { return call(gdsl_jit_epoch_reset, i32, {i8p}, {ctx_}); }, /*hot=*/true);
}

// After the moves: when a successor was expanded, the stamps are made
// again, from the seen stack when the values were kept there (a game where
// many positions expand one), else by running the moves again.
void FunctionEmitter::endMarking() {
  BasicBlock* done = BasicBlock::Create(C, "marked", F);
  BasicBlock* again = BasicBlock::Create(C, "again", F);
  BasicBlock* restamp = BasicBlock::Create(C, "restamp", F);
  BasicBlock* rerun = BasicBlock::Create(C, "rerun", F);
  B.CreateCondBr(B.CreateLoad(i1, expanded_), again, done,
                 llvm::MDBuilder(C).createBranchWeights(1, 30));
  B.SetInsertPoint(again);
  Value* redos = stateField(offsetof(KernelState, redos), i64);
  B.CreateStore(B.CreateAdd(B.CreateLoad(i64, redos), c64(1)), redos);
  B.CreateCondBr(keepValues_, restamp, rerun);
  B.SetInsertPoint(rerun);
  B.CreateBr(marking_);
  B.SetInsertPoint(restamp);
  Value* epoch = newEpoch();
  B.CreateStore(epoch, epoch_);
  Value* seen = field(offsetof(KernelState, seen), i32p);
  loop(seenBase_, field(offsetof(KernelState, seenTop), i64), [&](Value* i) {
    Value* v = B.CreateLoad(i32, B.CreateInBoundsGEP(i32, seen, i));
    stamp(v, epoch);
  });
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

Value* FunctionEmitter::mex() {
  Value* capacity = field(offsetof(KernelState, capacity), i64);
  Value* stamps = field(offsetof(KernelState, stamps), i32p);
  Value* epoch = currentEpoch();
  BasicBlock* before = B.GetInsertBlock();
  BasicBlock* head = BasicBlock::Create(C, "mex", F);
  BasicBlock* check = BasicBlock::Create(C, "mexcheck", F);
  BasicBlock* exit = BasicBlock::Create(C, "mexdone", F);
  B.CreateBr(head);
  B.SetInsertPoint(head);
  auto* m = B.CreatePHI(i64, 2);
  m->addIncoming(c64(0), before);
  B.CreateCondBr(B.CreateICmpULT(m, capacity), check, exit);
  B.SetInsertPoint(check);
  Value* seen = B.CreateICmpEQ(B.CreateLoad(i32, B.CreateInBoundsGEP(i32, stamps, m)), epoch);
  Value* next = B.CreateAdd(m, c64(1));
  m->addIncoming(next, check);
  B.CreateCondBr(seen, head, exit);
  B.SetInsertPoint(exit);
  return m;
}

}  // namespace gdsl::jit
