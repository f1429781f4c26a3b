// FunctionEmitter: the emitter of one native function of a game (the entry
// point is emitFunction, backend/jit/Codegen.h), in one of three modes: a
// one-heap game's kernel, a game's enumerator, a game's native search. This
// header declares the class, its state and the small building blocks every
// part uses (constants, slots, calls to the helpers, branches and loops); the
// parts live in one file each:
//   Codegen.cpp        the entry point and the function's skeleton (prologue,
//                      epilogue per mode), context fields, failures, polls;
//   CodegenExpr.cpp    integer and list expressions, checked arithmetic,
//                      comprehensions, the arena;
//   CodegenMoves.cpp   the moves' loops and binders, successor terms and their
//                      components, the enumerator's moves;
//   CodegenSearch.cpp  the native search: memo probes, the mex and the seen
//                      stack, deferred successors, stack and poll checks.
// Private to backend/jit: only those files include it (it includes LLVM).
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "backend/jit/Functions.h"
#include "backend/jit/JitRuntime.h"
#include "compiler/ir/Bounds.h"
#include "compiler/ir/Errors.h"

namespace gdsl::jit {

using llvm::BasicBlock;
using llvm::Value;

// Hidden, as it was in the anonymous namespace of one file: nothing of it
// leaves the plugin.
class __attribute__((visibility("hidden"))) FunctionEmitter {
 public:
  enum class Mode { Kernel, Enumerate, Search };

  FunctionEmitter(const ir::Program& p, llvm::Module& m, std::vector<SourceRange>& locs, int game,
                  Mode mode, bool wideTable = false, int64_t length = -1, bool wideCells = false);

  void emit();

 private:
  // ---- small helpers ------------------------------------------------------
  // Whether integer expression `e` is proved to lie in 0 .. p[param] + k.
  bool provedBelowParam(const ir::Expr& e, size_t param, int64_t k) const {
    if (!bounds_) return false;
    ir::Bounds b = bounds_->of(e);
    return bounds_->atLeast(b, 0) && bounds_->atMostParam(b, param, k);
  }

  llvm::Type* tableType() { return wideTable_ ? i32 : llvm::Type::getInt16Ty(C); }
  // A box's cells: 32 bits in the wide search, 16 otherwise (runtime/DenseBox.h).
  llvm::Type* cellType() { return wideCells_ ? i32 : llvm::Type::getInt16Ty(C); }
  // The mark of a box cell being expanded, as read into 32 bits.
  int64_t onStackCell() const {
    return wideCells_ ? int64_t{kCellOnStack} : DenseBox::kNarrowOnStack;
  }

  llvm::AllocaInst* entryAlloca(llvm::Type* ty, const char* name) {
    llvm::IRBuilder<> tmp(&F->getEntryBlock(), F->getEntryBlock().begin());
    return tmp.CreateAlloca(ty, nullptr, name);
  }

  Value* c64(int64_t v) { return llvm::ConstantInt::get(i64, static_cast<uint64_t>(v), true); }
  Value* c32(int64_t v) { return llvm::ConstantInt::get(i32, static_cast<uint64_t>(v), true); }

  Value* intSlot(int slot) {
    return B.CreateConstInBoundsGEP2_32(ints_->getAllocatedType(), ints_, 0, slot);
  }
  Value* listSlot(int slot) {
    return B.CreateConstInBoundsGEP2_32(lists_->getAllocatedType(), lists_, 0, slot);
  }

  int32_t loc(SourceRange r) {
    locs_.push_back(r);
    return static_cast<int32_t>(locs_.size() - 1);
  }

  Value* stateField(size_t offset, llvm::Type* type) {
    Value* p = B.CreateConstInBoundsGEP1_64(i8, ctx_, offset);
    return B.CreateBitCast(p, type->getPointerTo());
  }

  template <typename Fn>
  Value* call(Fn* fn, llvm::Type* ret, std::vector<llvm::Type*> argTypes,
              std::vector<Value*> args) {
    // By name, not by address: the object then links in any process (the
    // JIT defines each helper's name, backend/jit/JitRuntime.h helpers()).
    const char* name = helperName(reinterpret_cast<const void*>(fn));
    if (!name) throw std::logic_error("internal error: a JIT helper missing from helpers()");
    auto* fty = llvm::FunctionType::get(ret, argTypes, false);
    spillFields();
    Value* result = B.CreateCall(M.getOrInsertFunction(name, fty), args);
    reloadFields();
    return result;
  }

  // Leaves through the bail block with the status `status()` builds when
  // `cond` holds (the unlikely way).
  template <typename Status>
  void exitIf(Value* cond, Status&& status) {
    BasicBlock* exit = BasicBlock::Create(C, "exit", F);
    BasicBlock* stay = BasicBlock::Create(C, "stay", F);
    B.CreateCondBr(cond, exit, stay, llvm::MDBuilder(C).createBranchWeights(1, 1000));
    B.SetInsertPoint(exit);
    storeFailure(status());
    B.CreateBr(bail_);
    B.SetInsertPoint(stay);
  }

  // if (cond) then() else otherwise(), joined: the value of the branch taken.
  // `hot` marks the `then` branch as the likely one.
  template <typename Then, typename Else>
  Value* ifElse(Value* cond, llvm::Type* type, Then&& then, Else&& otherwise, bool hot = false) {
    BasicBlock* thenBB = BasicBlock::Create(C, "then", F);
    BasicBlock* elseBB = BasicBlock::Create(C, "else", F);
    BasicBlock* join = BasicBlock::Create(C, "join", F);
    if (hot)
      B.CreateCondBr(cond, thenBB, elseBB, llvm::MDBuilder(C).createBranchWeights(1000, 1));
    else
      B.CreateCondBr(cond, thenBB, elseBB);
    B.SetInsertPoint(thenBB);
    Value* a = then();
    BasicBlock* thenEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(elseBB);
    Value* b = otherwise();
    BasicBlock* elseEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(join);
    auto* phi = B.CreatePHI(type, 2);
    phi->addIncoming(a, thenEnd);
    phi->addIncoming(b, elseEnd);
    return phi;
  }

  // for (i = begin; i < end; ++i) body(i), with the counter in a stack slot.
  template <typename Body>
  void loop(Value* begin, Value* end, Body&& body) {
    llvm::AllocaInst* counter = entryAlloca(i64, "k");
    B.CreateStore(begin, counter);
    BasicBlock* head = BasicBlock::Create(C, "for", F);
    BasicBlock* bodyBB = BasicBlock::Create(C, "forbody", F);
    BasicBlock* exit = BasicBlock::Create(C, "forend", F);
    B.CreateBr(head);
    B.SetInsertPoint(head);
    Value* i = B.CreateLoad(i64, counter);
    B.CreateCondBr(B.CreateICmpSLT(i, end), bodyBB, exit);
    B.SetInsertPoint(bodyBB);
    body(i);
    B.CreateStore(B.CreateAdd(i, c64(1)), counter);
    // Lists are short: not vectorized, which would only make the code larger
    // and its compilation slower (a loop of known length unrolls).
    B.CreateBr(head)->setMetadata(llvm::LLVMContext::MD_loop, shortLoop());
    B.SetInsertPoint(exit);
  }

  // if (cond) then() else otherwise(), for their effects.
  template <typename Then, typename Else>
  void whenElse(Value* cond, Then&& then, Else&& otherwise) {
    BasicBlock* thenBB = BasicBlock::Create(C, "then", F);
    BasicBlock* elseBB = BasicBlock::Create(C, "else", F);
    BasicBlock* join = BasicBlock::Create(C, "join", F);
    B.CreateCondBr(cond, thenBB, elseBB);
    B.SetInsertPoint(thenBB);
    then();
    B.CreateBr(join);
    B.SetInsertPoint(elseBB);
    otherwise();
    B.CreateBr(join);
    B.SetInsertPoint(join);
  }

  // ---- Codegen.cpp: the skeleton, context fields, failures, polls -----------

  void bindParams(Value* words);

  // A context field kept in a local slot (cacheField).
  struct CachedField {
    size_t offset;
    llvm::Type* type;
    llvm::AllocaInst* slot;
    bool written;  // the code changes it: written back before calls
  };
  void cacheField(size_t offset, llvm::Type* type, bool written);
  const CachedField* cachedField(size_t offset) const;
  Value* field(size_t offset, llvm::Type* type);
  void setField(size_t offset, Value* v);
  void spillFields();
  void reloadFields();

  void failIf(Value* cond, ir::ErrorCode code, SourceRange where, Value* a, Value* b,
              int32_t op = 0);
  void storeFailure(Value* status);
  void checkStatus(Value* status);
  void pollWhen(Value* due, uint32_t period);
  llvm::MDNode* shortLoop();

  // ---- CodegenExpr.cpp: lists, the arena, integers and conditions -----------

  void storeList(Value* out, Value* data, Value* size, Value* lo, bool isRange);
  Value* listSize(Value* l);
  Value* listAt(Value* l, Value* i);
  bool isData(Value* l) const;
  Value* markData(Value* l);
  Value* isRange(Value* l);
  Value* allocate(Value* count);
  std::vector<Value*> arenaMark();
  void arenaRelease(const std::vector<Value*>& mark);
  void copyElements(Value* l, Value* data, Value* n);
  void insertionSort(Value* data, Value* n);
  Value* constantList(int64_t index);
  Value* list(const ir::Expr& e);
  Value* fold(const ir::Expr& e);
  void checkIndex(Value* index, Value* size, SourceRange where);
  Value* overflowOp(llvm::Intrinsic::ID id, Value* a, Value* b, SourceRange where, int32_t op);
  Value* boolToInt(Value* b);
  Value* integer(const ir::Expr& e);

  // ---- CodegenMoves.cpp: loops, moves, successor terms, components ----------

  void forEach(const ir::Step& s, Value* stop, llvm::function_ref<void()> body);
  void steps(const std::vector<ir::Step>& list, size_t index);
  void walk(const std::vector<ir::Step>& list, size_t index, Value* stop,
            llvm::function_ref<void()> atEnd);
  void atMoveEnd();
  void buildComponent(const ir::Term& t);
  void pushTerms(const std::vector<ir::Term>& terms);
  Value* componentValue(const ir::Term& t);
  bool intParamsOnly(int game) const;
  void finishWords(const ir::Term& t, Value* valueOut);
  std::vector<Value*> normalizeInline(const ir::Game& target, const std::vector<Value*>& args);
  bool xorTerms(const std::vector<ir::Term>& terms, Value* acc);

  // ---- CodegenSearch.cpp: the native search, the mex ------------------------
  // (The templates among these are defined and used in CodegenSearch.cpp only.)

  void enterSearch(Value* words);
  void leaveSearch();
  void finishSearch();
  void abandonSearch();
  Value* callSelf(Value* words);
  bool onlySelfMoves() const;
  void pushPending(const ir::Term& t);
  void readPending();
  void push(size_t data, size_t top, size_t capacity, llvm::Type* element, void (*grow)(Context*),
            Value* v);
  Value* searchedValue(const ir::Term& t);
  void storeMirror(Value* cell);
  Value* normalizedValue(const ir::Term& t, const std::vector<Value*>& raw);
  Value* partsValue(const ir::Term& t);
  template <typename Search, typename Reread>
  Value* memoValue(Value* known, Search&& search, Reread&& reread, int64_t onStack = -1);
  template <typename Search>
  Value* wordValue(Value* key, Search&& search);
  Value* searchedListValue(const ir::Term& t);
  // A list of a known length, kept as its numbers (searchedFixedValue).
  using Fixed = std::vector<Value*>;
  bool needsArena() const;
  bool takesFixedPath(const ir::Term& t) const;
  bool isFixed(const ir::Expr& e, bool inNormalize = false) const;
  Fixed fixedList(const ir::Expr& e, const Fixed& param);
  void sortNetwork(Fixed& v);
  Value* storeFixed(const Fixed& numbers);
  Value* searchedFixedValue(const ir::Term& t);
  Value* anyNegative(Value* l);
  Value* normalizeListInline(Value* l);
  llvm::GlobalVariable* widthTable();
  template <typename First>
  void exitOnMiss(Value* rawNegative, Value* outside, First&& first, Value* count);
  Value* probeWord(Value* key);
  Value* wordHome(Value* key);
  template <typename Match>
  Value* probeLoop(Value* home, Value* mask, Match&& match);
  void markSeen(Value* v, bool narrow = false);
  void stamp(Value* v, Value* epoch);
  Value* currentEpoch();
  void beginMarking();
  Value* newEpoch();
  void endMarking();
  Value* mex();

  // ---- state ----------------------------------------------------------------

  const ir::Program& P;
  llvm::Module& M;
  llvm::LLVMContext& C;
  llvm::IRBuilder<> B;
  std::vector<SourceRange>& locs_;
  int game_;
  Mode mode_;
  bool wideTable_;      // the kernel reads a table of 32-bit (not 16-bit) values
  bool wideCells_;      // the search fills a box of 32-bit (not 16-bit) cells
  int64_t length_;      // the list length a list game's search is specialized to
  Fixed paramNumbers_;  // that list's numbers, read once (isFixed, fixedList)
  const ir::Game& G;
  bool useArena_ = false;
  int moveIndex_ = 0;
  // Emitting a comprehension's loops (which poll even in kernels), and how
  // many comprehension lists are being built around the code emitted.
  bool inComprehension_ = false;
  int32_t collectDepth_ = 0;
  struct ComprehensionScope {
    explicit ComprehensionScope(FunctionEmitter& e) : emitter(e), outer(e.inComprehension_) {
      e.inComprehension_ = true;
    }
    ~ComprehensionScope() { emitter.inComprehension_ = outer; }
    FunctionEmitter& emitter;
    bool outer;
  };

  llvm::Type *i1, *i8, *i32, *i64, *voidTy;
  llvm::PointerType *i8p, *i32p, *i64p, *listP;
  llvm::StructType* listTy;
  llvm::Function* F = nullptr;
  Value* ctx_ = nullptr;
  Value* n_ = nullptr;
  Value* table_ = nullptr;
  llvm::AllocaInst* retSlot_ = nullptr;
  Value* cell_ = nullptr;         // dense search: the position's cell
  std::vector<Value*> ownWords_;  // dense search: the position's parameters
  bool mirrored_ = false;         // dense search of a game that sorts its two parameters
  Value* cells_ = nullptr;        // dense search: the box, read once
  std::vector<Value*> extents_, strides_;
  bool word_ = false;        // the native search fills a packed table of words, not a box
  bool packedList_ = false;  // whose keys are packed lists (runtime/ListKey.h)
  bool deferred_ = false;    // its moves' words go on the pending stack first
  Value* pendingBase_ = nullptr;
  llvm::GlobalVariable* widths_ = nullptr;
  std::unordered_set<const Value*> dataLists_;  // isData
  std::vector<bool> dataSlots_;                 // list slots that hold data lists
  Value* key_ = nullptr;                        // its position's word
  llvm::AllocaInst* ints_ = nullptr;
  llvm::AllocaInst* lists_ = nullptr;
  BasicBlock* bail_ = nullptr;
  std::vector<CachedField> cached_;       // context fields kept in local slots
  std::optional<ir::BoundsEnv> bounds_;   // kernels and integer searches
  Value* seenBase_ = nullptr;             // search: where its kept values start
  Value* keepValues_ = nullptr;           // search: its values go on the seen stack too
  llvm::AllocaInst* epoch_ = nullptr;     // search: the epoch of its stamps
  llvm::AllocaInst* expanded_ = nullptr;  // search: a successor was expanded (stamps lost)
  BasicBlock* marking_ = nullptr;         // search: where its moves start (again)
};

}  // namespace gdsl::jit
