// Running compiled moves (MoveCode.h): a switch over the instructions of the
// game's code (runMoves), used by the one-heap kernel, and by the native
// search with one register file per position being expanded and successors
// looked up in the memo by their normalized words (the box's index computed
// here, without a call).
#include "backend/interp/CodeSearch.h"

#include <span>

#include "compiler/ir/Arith.h"
#include "compiler/support/Interrupt.h"
#include "runtime/MemoSearch.h"
#include "runtime/Mex.h"

namespace gdsl::interp {
namespace {

// Runs `code` in frame `f` (its parameters set) to its end: Done, or the
// status of a failed operation (Failed) or of `onSuccessor`, called with the
// successor's index, the registers and the frame at each move.
template <typename OnSuccessor>
NativeStatus runMoves(const MoveCode& moves, CodeScratch::Frame& f, const ir::Evaluator& eval,
                      ir::ListArena& arena, OnSuccessor&& onSuccessor) {
  int64_t* r = f.registers.data();
  const ir::Frame frame{r, f.lists.data()};
  const Instruction* const code = moves.code.data();
  const Instruction* pc = code;
  for (;;) {
    const Instruction& i = *pc;
    switch (i.op) {
      case Opcode::Add:
        if (!arith::add(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Sub:
        if (!arith::sub(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Mul:
        if (!arith::mul(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Div:
        if (!arith::floorDiv(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Mod:
        if (!arith::floorMod(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Shl:
        if (!arith::shl(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Shr:
        if (!arith::shr(r[i.b], r[i.c], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::BitAnd:
        r[i.a] = r[i.b] & r[i.c];
        break;
      case Opcode::BitOr:
        r[i.a] = r[i.b] | r[i.c];
        break;
      case Opcode::BitXor:
        r[i.a] = r[i.b] ^ r[i.c];
        break;
      case Opcode::Min:
        r[i.a] = std::min(r[i.b], r[i.c]);
        break;
      case Opcode::Max:
        r[i.a] = std::max(r[i.b], r[i.c]);
        break;
      case Opcode::Eq:
        r[i.a] = r[i.b] == r[i.c];
        break;
      case Opcode::Ne:
        r[i.a] = r[i.b] != r[i.c];
        break;
      case Opcode::Lt:
        r[i.a] = r[i.b] < r[i.c];
        break;
      case Opcode::Le:
        r[i.a] = r[i.b] <= r[i.c];
        break;
      case Opcode::Gt:
        r[i.a] = r[i.b] > r[i.c];
        break;
      case Opcode::Ge:
        r[i.a] = r[i.b] >= r[i.c];
        break;
      case Opcode::Neg:
        if (!arith::neg(r[i.b], r[i.a])) return NativeStatus::Failed;
        break;
      case Opcode::Abs:
        if (r[i.b] >= 0)
          r[i.a] = r[i.b];
        else if (!arith::neg(r[i.b], r[i.a]))
          return NativeStatus::Failed;
        break;
      case Opcode::Not:
        r[i.a] = !r[i.b];
        break;
      case Opcode::Truth:
        r[i.a] = r[i.b] != 0;
        break;
      case Opcode::Copy:
        r[i.a] = r[i.b];
        break;
      case Opcode::Tree:
        r[i.a] = eval.evalInt(*i.expr, frame);
        break;
      case Opcode::TreeList:
        f.lists[i.a] = eval.evalList(*i.expr, frame);
        break;
      case Opcode::JumpIfZero:
        if (!r[i.a]) {
          pc = code + i.target;
          continue;
        }
        break;
      case Opcode::JumpIfNonZero:
        if (r[i.a]) {
          pc = code + i.target;
          continue;
        }
        break;
      case Opcode::RangeStart:
        if (r[i.b] > r[i.d]) {
          pc = code + i.target;
          continue;
        }
        r[i.a] = r[i.b];
        f.loopMarks[i.c] = arena.mark();
        break;
      case Opcode::RangeNext: {
        arena.release(f.loopMarks[i.c]);
        int64_t v = r[i.a];
        if (v == r[i.d]) break;  // no overflow at INT64_MAX
        r[i.a] = ++v;
        if ((v & 0xffff) == 0) checkInterrupt();  // a huge range can take long
        pc = code + i.target;
        continue;
      }
      case Opcode::ListStart: {
        ir::ListVal l = eval.evalList(*i.expr, frame);
        if (l.size == 0) {
          pc = code + i.target;
          continue;
        }
        f.loopLists[i.c] = l;
        f.loopIndex[i.c] = 0;
        r[i.a] = l.at(0);
        f.loopMarks[i.c] = arena.mark();
        break;
      }
      case Opcode::ListNext: {
        arena.release(f.loopMarks[i.c]);
        int64_t k = ++f.loopIndex[i.c];
        const ir::ListVal& l = f.loopLists[i.c];
        if (k == l.size) break;
        if ((k & 0xffff) == 0xffff) checkInterrupt();  // a range's list can be huge
        r[i.a] = l.at(k);
        pc = code + i.target;
        continue;
      }
      case Opcode::Successor:
        if (NativeStatus s = onSuccessor(i.a, r, frame); s != NativeStatus::Done) return s;
        break;
      case Opcode::Done:
        return NativeStatus::Done;
    }
    ++pc;
  }
}

// The frame of nesting depth `depth` in `scratch`, laid out for `code`.
CodeScratch::Frame& frameFor(CodeScratch& scratch, size_t depth, const MoveCode& code) {
  while (scratch.frames.size() <= depth)
    scratch.frames.push_back(std::make_unique<CodeScratch::Frame>());
  CodeScratch::Frame& f = *scratch.frames[depth];
  if (f.code != &code) {  // first use, or last used by another game's code
    f.code = &code;
    f.registers = code.initialRegisters;
    f.lists.assign(static_cast<size_t>(std::max(1, code.listSlots)), ir::ListVal{});
    f.loopIndex.assign(static_cast<size_t>(code.loops), 0);
    f.loopLists.assign(static_cast<size_t>(code.loops), ir::ListVal{});
    f.loopMarks.assign(static_cast<size_t>(code.loops), ir::ListArena::Mark{});
  }
  return f;
}

// The moves of a position as compiled code (the policy of runtime/MemoSearch.h):
// one register file per depth; a successor of the game itself is handed to
// the memo walk by its normalized words, any other component is asked of the
// oracle.
class CodeMoves {
 public:
  using Search = MemoSearch<CodeMoves>;

  CodeMoves(const CodeSearchInput& in, CodeScratch& scratch)
      : in_(in), code_(in.code), scratch_(scratch), params_(in.code.paramRegisters.size()) {}

  NativeStatus expand(std::span<const int64_t> w, Search& search) {
    CodeScratch::Frame& f = frameFor(scratch_, depth_, code_);
    struct Depth {  // one level deeper, and the lists the moves build, also when they throw
      size_t& depth;
      ir::ListArena& arena;
      ir::ListArena::Mark mark;
      ~Depth() {
        --depth;
        arena.release(mark);
      }
    } deeper{++depth_, in_.arena, in_.arena.mark()};
    for (size_t i = 0; i < params_; ++i) f.registers[code_.paramRegisters[i]] = w[i];
    return runMoves(code_, f, in_.eval, in_.arena,
                    [&](int32_t index, const int64_t* r, const ir::Frame& frame) {
                      return successor(code_.successors[static_cast<size_t>(index)], r, frame,
                                       search);
                    });
  }

 private:
  // Values the successor of one move (registers `r`) and adds it to the
  // position's values.
  NativeStatus successor(const std::vector<SuccessorTerm>& terms, const int64_t* r,
                         const ir::Frame& frame, Search& search) {
    uint32_t x = 0;
    for (const SuccessorTerm& t : terms) {
      if (!t.self) {
        x ^= in_.oracle.valueOf(
            in_.positions.makePosition(*t.term, frame, PositionBuilder::Role::Successor));
        continue;
      }
      // A negative argument is an error, even when normalize would hide it.
      for (int32_t raw : t.raw)
        if (r[raw] < 0) return NativeStatus::Failed;
      int64_t w[kMaxCodeParams];
      for (size_t j = 0; j < params_; ++j) {
        w[j] = r[t.words[j]];
        if (w[j] < 0) return NativeStatus::Failed;  // normalize made it negative
      }
      if (NativeStatus s = search.addComponent({w, params_}, x); s != NativeStatus::Done) return s;
    }
    search.addMove(x);
    return NativeStatus::Done;
  }

  const CodeSearchInput& in_;
  const MoveCode& code_;
  CodeScratch& scratch_;
  size_t params_;
  size_t depth_ = 0;
};

}  // namespace

NativeStatus searchCode(const CodeSearchInput& in, const int64_t* words, CodeScratch& scratch) {
  MemoSearchSetup setup{in.game, in.memo, in.cells, in.miss, in.stackFloor, in.yield};
  CodeMoves moves(in, scratch);
  CodeMoves::Search search(setup, moves, scratch.seen, scratch.marks);
  struct Count {
    const CodeMoves::Search& search;
    uint64_t* out;
    ~Count() {
      if (out) *out += search.expanded();
    }
  } count{search, in.expanded};
  return search.search({words, in.code.paramRegisters.size()});
}

NativeStatus heapValueCode(const CodeSearchInput& in, int64_t n, TableView table,
                           CodeScratch& scratch, uint32_t& value) {
  CodeScratch::Frame& f = frameFor(scratch, 0, in.code);
  f.registers[in.code.paramRegisters[0]] = n;
  std::vector<uint32_t>& seen = scratch.seen;
  seen.clear();
  struct Release {  // the lists the moves built, also when they throw
    ir::ListArena& arena;
    ir::ListArena::Mark mark;
    ~Release() { arena.release(mark); }
  } release{in.arena, in.arena.mark()};
  NativeStatus status;
  try {
    status =
        runMoves(in.code, f, in.eval, in.arena,
                 [&](int32_t index, const int64_t* r, const ir::Frame& frame) {
                   uint32_t x = 0;
                   for (const SuccessorTerm& t : in.code.successors[static_cast<size_t>(index)]) {
                     if (t.self) {
                       int64_t m = r[t.raw[0]];
                       if (m >= 0 && m < n) {
                         x ^= table[m];
                         continue;
                       }
                     }
                     x ^= in.oracle.valueOf(in.positions.makePosition(
                         *t.term, frame, PositionBuilder::Role::Successor));
                   }
                   seen.push_back(x);
                   return NativeStatus::Done;
                 });
  } catch (const RuntimeError&) {
    return NativeStatus::Failed;
  }
  if (status != NativeStatus::Done) return status;
  value = mex(seen, scratch.marks);
  return NativeStatus::Done;
}

}  // namespace gdsl::interp
